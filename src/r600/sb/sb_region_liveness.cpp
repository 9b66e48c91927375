/*
 * Liveness over the region tree, two flavours:
 *  - liveness_used: which SSA values live code reads, by marking from the
 *    instructions with effects (exports, fetches, kills, control flow, exec
 *    mask updates, relative/array writes) through definitions.  Marking
 *    rather than counting uses makes a loop_phi that only feeds itself
 *    (through a phi) dead, which a use count never sees.
 *  - ra_build_interference: live sets for register allocation, backward
 *    over the tree.  A depart's live-out is its target region's exit set
 *    plus its phi sources; a repeat's is the loop's entry set plus its
 *    loop_phi sources, so a value live into a loop stays live over the
 *    whole body; a loop's entry set is taken by a walk of the loop alone
 *    just before it is walked (settle()), and iterated to a fixpoint
 *    should a later walk still change it.  Each
 *    definition interferes with what is live after it, and the results of
 *    one VLIW group (or fetch, or the phis of one region) with each other.
 */
#include <algorithm>
#include <bit>
#include <memory>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>

#include "common/thread_memory.h"
#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

/* Room for a bounded number of entries, made when reset (left unwritten:
 * zeroing it cost more than the tests saved on a large shader), so an
 * entry goes in without push_back's test for room: a LiveSet's members
 * and what it keeps by member (a value at most once; an insert per
 * operand of every walk), and the marking's nodes and work list (at
 * most RegionShader::node_count(), one append per node). */
template <typename T> struct Members {
   std::unique_ptr<T[]> room;
   size_t capacity = 0, n = 0;

   void reset(size_t bound)
   {
      if (capacity < bound) {
         room.reset(new T[bound]);
         capacity = bound;
      }
      n = 0;
   }
   size_t size() const { return n; }
   bool empty() const { return n == 0; }
   const T *data() const { return room.get(); }
   T *begin() { return room.get(); }
   T *end() { return room.get() + n; }
   const T *begin() const { return room.get(); }
   const T *end() const { return room.get() + n; }
   T &operator[](size_t p) { return room[p]; }
   const T &operator[](size_t p) const { return room[p]; }
   T back() const { return room[n - 1]; }
   void push_back(const T &v) { room[n++] = v; }
   void pop_back() { n--; }
   void clear() { n = 0; }
};

/* Marks from effectful roots.  Nodes are numbered in Node::scratch by
 * scan() so that marks, the enclosing group and its fixedness are dense
 * tables instead of node-keyed trees and hash maps. */
/* The marking's tables, kept with the thread between markings for their
 * storage (a marking per dce run, and the work list grew push by push):
 * lent to each Marker and taken back when it goes. */
struct MarkerTables {
   std::vector<const Node *> def_node;
   /* By scratch index, in one table: one append per node, not three. */
   struct Entry {
      const Node *node;
      uint32_t group; /* Alu in a group -> the group's index, else kNone */
   };
   Members<Entry> nodes;
   /* By scratch index: whether live code needs the node.  Apart from the
    * entries so that mark_live hands it over whole rather than
    * writing a mark into every node. */
   std::vector<uint8_t> live;
   std::vector<int8_t> group_fixed; /* by group index: -1 not yet known */
   Members<const Node *> work; /* each node at most once: when marked */
};

struct Marker : MarkerTables {
   ThreadLend<MarkerTables> lend{*this};
   const RegionShader &sh;
   std::vector<bool> &used;

   static constexpr uint32_t kNone = ~0u;

   Marker(const RegionShader &s, std::vector<bool> &u) : sh(s), used(u) {}
   Marker(const Marker &) = delete;
   Marker &operator=(const Marker &) = delete;

   /* Inline, for every result of every node; the maydef of a relative
    * write goes through collect_parts(), so that this does not recurse. */
   [[gnu::always_inline]] void collect_defs(const Value &v, const Node *n)
   {
      if (v.kind == ValueKind::Var)
         def_node[sh.value_id(v)] = n;
      if (!v.maydef().empty())
         collect_parts(v, n);
   }

   [[gnu::noinline]] void collect_parts(const Value &v, const Node *n)
   {
      for (const Value &d : v.maydef())
         collect_defs(d, n);
   }

   /* n's number, entry and root mark. */
   [[gnu::always_inline]] void enter(const Node *n, uint32_t group, bool root)
   {
      n->scratch = uint32_t(nodes.size());
      live[nodes.size()] = root;
      nodes.push_back({n, group});
      if (root)
         work.push_back(n);
   }

   /* number() of an ALU instruction: one look at each result finds both
    * its definitions and whether it has an effect (a kill, an exec mask
    * update, a relative or array write), which two loops over the
    * results did for every instruction of the tree. */
   [[gnu::always_inline]] void number_alu(const Node *n, uint32_t group, bool rooted)
   {
      const AluInstr *in = n->alu;
      bool effect = (alu_op_info(in->op).flags & AF_KILL) || in->update_exec_mask;
      for (const Value &d : n->dst) {
         if (d.kind == ValueKind::Var) {
            def_node[sh.value_id(d)] = n;
            effect |= in_rel_array(sh, d.var);
         } else if (d.kind == ValueKind::Rel) {
            effect = true;
         }
         if (!d.maydef().empty()) {
            effect = true;
            collect_parts(d, n);
         }
      }
      enter(n, group, rooted && effect);
   }

   /* n's number, entry, root mark and definitions (not its children's). */
   [[gnu::always_inline]] void number(const Node *n, uint32_t group, bool rooted)
   {
      if (n->kind == NodeKind::Alu)
         return number_alu(n, group, rooted);
      enter(n, group, rooted && is_root(n));
      for (const Value &d : n->dst)
         collect_defs(d, n);
   }

   /* Numbers the nodes and finds the effectful roots in one walk (the
    * tree is large next to the tables: each walk is mostly cache misses).
    * `rooted`: reached through children only, as the roots are. */
   void scan(const Node *n, uint32_t group, bool rooted)
   {
      number(n, group, rooted);
      const uint32_t inner = n->kind == NodeKind::AluGroup ? n->scratch : kNone;
      /* A group's instructions are numbered here, not with a call each:
       * they are most of the tree, and hold nothing to descend into. */
      for (const Node *c : n->children)
         if (c->kind == NodeKind::Alu && c->children.empty())
            number_alu(c, inner, rooted);
         else
            scan(c, inner, rooted);
      /* By kind rather than region_data: the kind shares a node's first
       * cache line with its children, region_data sits in the last. */
      if (n->kind == NodeKind::Region) {
         for (const Node *p : n->region().phi)
            scan(p, kNone, false);
         for (const Node *p : n->region().loop_phi)
            scan(p, kNone, false);
      }
   }

   /* Inline, for every operand of every live node; the parts of a
    * relative access go through use_parts(), so that this does not
    * recurse. */
   [[gnu::always_inline]] void use_value(const Value &v)
   {
      if (v.kind == ValueKind::Var) {
         unsigned id = sh.value_id(v);
         if (!used[id]) {
            used[id] = true;
            if (def_node[id])
               mark(def_node[id]);
         }
      }
      if (v.rel() || !v.mayuse().empty())
         use_parts(v);
   }

   [[gnu::noinline]] void use_parts(const Value &v)
   {
      if (const Value *a = v.rel())
         use_value(*a);
      for (const Value &u : v.mayuse())
         use_value(u);
   }

   void mark(const Node *n)
   {
      if (!live[n->scratch]) {
         live[n->scratch] = true;
         work.push_back(n);
      }
   }

   /* Whether a node other than an ALU instruction (number_alu) has an
    * effect. */
   static bool is_root(const Node *n)
   {
      switch (n->kind) {
      case NodeKind::Fetch:
      case NodeKind::If:
         return true;
      case NodeKind::Cf:
         return n->cf != nullptr;
      default:
         return false;
      }
   }

   void run()
   {
      def_node.assign(sh.num_values(), nullptr);
      /* Room for every node create() handed out: growing the table
       * node by node cost more than the walk on a small shader. */
      work.reset(sh.node_count());
      nodes.reset(sh.node_count());
      /* Each entry is written as its node is numbered: resize only
       * zeroes the room a larger shader adds. */
      live.resize(std::max(live.size(), sh.node_count()));
      scan(sh.root, kNone, true);
      group_fixed.assign(nodes.size(), -1);
      while (!work.empty()) {
         const Node *n = work.back();
         work.pop_back();
         for (const Value &s : n->src)
            use_value(s);
         for (const Value &d : n->dst) {
            if (d.kind != ValueKind::Rel)
               continue;
            if (const Value *a = d.rel())
               use_value(*a);
            for (const Value &u : d.mayuse())
               use_value(u);
         }
         /* Groups that must stay together live or die as a whole. */
         uint32_t g = nodes[n->scratch].group;
         if (g == kNone)
            continue;
         if (group_fixed[g] < 0) {
            /* Marking a group whose instructions all live already changes
             * nothing: alu_group_fixed (a look at every operand) waits for
             * a group with one not (yet) marked. */
            bool all = true;
            for (const Node *c : nodes[g].node->children)
               all = all && live[c->scratch];
            if (all)
               continue;
            group_fixed[g] = alu_group_fixed(sh, nodes[g].node);
         }
         if (group_fixed[g])
            for (const Node *c : nodes[g].node->children)
               mark(c);
      }
   }
};

} // namespace

bool alu_group_fixed(const RegionShader &sh, const Node *group)
{
   const uint8_t *const ops = alu_fixed_ops(sh.chip);
   for (const Node *a : group->children)
      if (alu_fixes_group(ops, a))
         return true;
   return false;
}

void liveness_used(const RegionShader &sh, std::vector<bool> &used)
{
   used.assign(sh.num_values(), false);
   Marker m{sh, used};
   m.run();
}

/* The nodes that stay after dce (instructions only; containers stay). */
std::set<const Node *> live_instructions(const RegionShader &sh, std::vector<bool> &used)
{
   used.assign(sh.num_values(), false);
   Marker m{sh, used};
   m.run();
   std::set<const Node *> out;
   for (size_t i = 0; i < m.nodes.size(); i++)
      if (m.live[i])
         out.insert(m.nodes[i].node);
   return out;
}

void mark_live(const RegionShader &sh, std::vector<bool> &used, std::vector<uint8_t> &live)
{
   used.assign(sh.num_values(), false);
   Marker m{sh, used};
   m.run();
   /* The caller's table and the marker's are both kept with the thread:
    * swapped, each keeps its room. */
   std::swap(m.live, live);
}

namespace {

/* Where a value was live while the rows of a large graph were recorded
 * (LiveWalk::rows): a member of the walk's set from row `begin` up to, not
 * including, row `end`.  Spans are the rows' transposition in short form:
 * the sets change little between two definitions, so a value in a hundred
 * consecutive rows is one span instead of a hundred entries to sort. */
struct Span {
   uint32_t value, begin, end;
};
struct SpanLog {
   std::vector<Span> spans;
   uint32_t now = 0; /* rows recorded so far */
   /* Whether some edge may be recorded twice (see adjacency_from_rows):
    * set when a value joins a set after its definition was met (it is
    * then live before it, around a loop or on a path that does not
    * define it) or a definition is met twice (LiveWalk::order_id).
    * `defined`: by value, kNotDefined until the walk meets the
    * definition. */
   static constexpr unsigned kNotDefined = ~0u;
   const unsigned *defined = nullptr;
   bool may_repeat = false;
};

/* A set of value ids with O(1) insert/erase/lookup and iteration over its
 * members only (Briggs-Torczon sparse set): live sets are small next to
 * the number of values, so neither a bitset scan nor a tree fits. */
struct LiveSet {
   /* pos of a value never inserted: so a set also tells which values it
    * ever held (joined()), at no cost to insert(). */
   static constexpr unsigned kNever = ~0u;
   Members<unsigned> dense;
   std::vector<unsigned> pos; /* by value id; valid only if dense agrees */
   /* With a log (while recording rows): the row each member joined at,
    * by position in dense; a member leaving closes its span. */
   SpanLog *log = nullptr;
   Members<uint32_t> since;
   /* With bits (the walk of a small graph, LiveWalk::direct): the members
    * also as a row of bits, which a definition's row of the bit matrix
    * takes a word at a time; empty otherwise. */
   std::vector<uint64_t> bits;

   LiveSet(unsigned nv, bool with_bits) { reset(nv, with_bits); }

   /* Empty, for values below nv, none joined yet; the storage stays. */
   void reset(unsigned nv, bool with_bits)
   {
      dense.reset(nv);
      since.reset(nv);
      log = nullptr;
      pos.assign(nv, kNever);
      bits.assign(with_bits ? (size_t(nv) + 63) / 64 : 0, 0);
   }

   bool joined(unsigned v) const { return pos[v] != kNever; }

   bool contains(unsigned v) const
   {
      unsigned p = pos[v];
      return p < dense.size() && dense[p] == v;
   }
   void close(size_t p, uint32_t end)
   {
      if (end > since[p])
         log->spans.push_back({dense[p], since[p], end});
   }
   /* Inline: the walk inserts every operand, and GCC's unit-wide budget
    * may otherwise keep it out of line. */
   [[gnu::always_inline]] void insert(unsigned v)
   {
      if (!contains(v)) {
         pos[v] = unsigned(dense.size());
         dense.push_back(v);
         if (log) {
            since.push_back(log->now);
            log->may_repeat |= log->defined[v] != SpanLog::kNotDefined;
         }
         if (!bits.empty())
            bits[v / 64] |= uint64_t(1) << (v % 64);
      }
   }
   void erase(unsigned v)
   {
      if (!contains(v))
         return;
      if (log) {
         const unsigned p = pos[v];
         close(p, log->now);
         since[p] = since.back();
         since.pop_back();
      }
      drop(v);
   }
   /* erase() of a member, for a set without a log. */
   void drop(unsigned v)
   {
      unsigned p = pos[v], last = dense.back();
      dense[p] = last;
      pos[last] = p;
      dense.pop_back();
      if (!bits.empty())
         bits[v / 64] &= ~(uint64_t(1) << (v % 64));
   }
   void clear()
   {
      if (log)
         for (size_t p = 0; p < dense.size(); p++)
            close(p, log->now);
      dense.clear();
      since.clear();
      std::fill(bits.begin(), bits.end(), 0);
   }
   /* The members stop being live here (their spans end) and start again
    * at `rejoin()`: rows recorded in between are not theirs. */
   void leave()
   {
      for (size_t p = 0; p < dense.size(); p++)
         close(p, log->now);
   }
   void rejoin() { std::fill(since.begin(), since.end(), log->now); }
   /* Member v is not in the row being recorded (`row`, the last one) but
    * stays a member: its span is cut around that row. */
   void skip_row(unsigned v, uint32_t row)
   {
      const unsigned p = pos[v];
      close(p, row);
      since[p] = row + 1;
   }
   void assign(std::span<const unsigned> members)
   {
      clear();
      for (unsigned v : members)
         insert(v);
   }
   /* Same members as `saved` (which holds no duplicates). */
   bool equals(const std::vector<unsigned> &saved) const
   {
      if (saved.size() != dense.size())
         return false;
      for (unsigned v : saved)
         if (!contains(v))
            return false;
      return true;
   }
};

constexpr unsigned kNoValue = ~0u;

/* The walk's tables, kept with the thread for their storage (allocating
 * them per shader, and growing them member by member, was some twenty
 * allocations on a typical one), lent to each LiveWalk.  Each is sized
 * anew. */
struct LiveWalkTables {
   std::vector<unsigned> psi_old; /* predicated result -> old value, by id */
   /* Copy results (plain MOV) -> their source: the two hold the same bits,
    * so they do not interfere even while both live (Chaitin's rule for
    * moves); ra_checker compares values through the same copy relation. */
   std::vector<unsigned> copy_of;
   /* One working set per If nesting level, reused across walks (the
    * first if_ready are this shader's). */
   std::vector<std::unique_ptr<LiveSet>> if_sets;
   /* The working set of settle() (this shader's once loop_set_ready). */
   std::unique_ptr<LiveSet> loop_set;
   std::vector<unsigned> defs_buf;
   /* Pairs of results of one splittable group (both directions), made
    * into ctx.chan_excl at the end. */
   std::vector<std::pair<unsigned, unsigned>> excl_pairs;
};

struct LiveWalk : LiveWalkTables {
   ThreadLend<LiveWalkTables> lend{*this};
   const RegionShader &sh;
   RaContext &ctx;
   bool record = false;
   bool changed = false;
   /* Saved sets, members in no particular order. */
   std::vector<std::vector<unsigned>> exit_set, entry_set;
   /* A large graph: what each definition interferes with, recorded as
    * a row of value ids (duplicates allowed, in no order), the rows one
    * after another in chunks of kRowChunk ids or more (written in place;
    * one growing array moved all rows at each doubling, a third of the
    * walk on 237.vs).  A definition's whole live set is copied at once,
    * instead of packing a key per edge; adjacency lists are built from
    * the rows once at the end.  `spans` says which rows each value is in
    * (the live sets log their members' spans while rows are recorded),
    * so the rows need no transposing. */
   struct Row {
      const unsigned *ids;
      uint32_t size;
      unsigned value;
   };
   static constexpr size_t kRowChunk = size_t(64) << 10;
   CachedVector<Row> rows;
   std::vector<CachedVector<unsigned>> chunks;
   unsigned *chunk_at = nullptr, *chunk_end = nullptr;
   SpanLog spans;
   /* A small graph (direct): edges go straight into a bit matrix, one
    * row of `words` words per value, both directions, instead of rows
    * that are then sorted into lists. */
   bool direct = false;
   size_t words = 0;
   std::vector<uint64_t> &matrix;
   /* Bits set in the matrix, duplicates counted: a bound on the length of
    * the adjacency lists, so they are filled without counting first. */
   size_t matrix_bits = 0;
   bool psi_any = false;
   unsigned if_ready = 0; /* if_sets made for this shader */
   bool loop_set_ready = false;
   unsigned if_depth = 0;
   /* ra_value_allocatable by variable: asked for every operand of every
    * walk, and var_in_array scans the arrays each time. */
   const std::vector<uint8_t> &var_alloc;

   LiveWalk(const RegionShader &s, RaContext &c, const std::vector<uint8_t> &va,
            std::vector<uint64_t> &m)
      : sh(s), ctx(c), matrix(m), var_alloc(va)
   {
   }

   bool alloc(const Value &v) const
   {
      /* One bound test: a negative var converts to a huge index. */
      return v.kind == ValueKind::Var && size_t(v.var) < var_alloc.size() &&
             var_alloc[size_t(v.var)];
   }

   void set_edge(unsigned a, unsigned b)
   {
      matrix[a * words + b / 64] |= uint64_t(1) << (b % 64);
      matrix[b * words + a / 64] |= uint64_t(1) << (a % 64);
      matrix_bits += 2;
   }

   /* a psi's result and its old value are written over each other on
    * purpose. */
   bool may_interfere(unsigned a, unsigned b) const
   {
      return a != b && psi_old[a] != b && psi_old[b] != a;
   }

   void edge(unsigned a, unsigned b)
   {
      if (may_interfere(a, b))
         set_edge(a, b);
   }

   /* d's row: what is live after it but its copy source, and the results
    * defined with it that are below it (the others hold d in theirs).
    * `live` no longer holds d and the results defined with it (define()
    * took them out first), so the values live across the definition are
    * exactly the members whose spans cover the row, but for the copy
    * source (its span is cut around the row) and, with psis, the values
    * may_interfere rules out (adjacency_from_rows asks it again).  The
    * results below d, not in the set, get a span of this row alone. */
   void record_row(unsigned d, unsigned cp, const unsigned *defs, size_t n, LiveSet &live)
   {
      const size_t room = live.dense.size() + n;
      if (size_t(chunk_end - chunk_at) < room) {
         const size_t size = std::max(room, kRowChunk);
         chunk_at = chunks.emplace_back(size).data();
         chunk_end = chunk_at + size;
      }
      unsigned *const begin = chunk_at;
      unsigned *out = begin;
      const bool cp_live = cp != kNoValue && live.contains(cp);
      if (psi_any) {
         for (unsigned w : live.dense)
            if (w != cp && may_interfere(d, w))
               *out++ = w;
      } else {
         /* No psi: only the copy source is skipped.  The whole set is
          * copied, then the source is taken out where the set has it (a
          * test per member cost more). */
         out = std::copy(live.dense.begin(), live.dense.end(), begin);
         if (cp_live)
            begin[live.pos[cp]] = *--out;
      }
      const uint32_t row = uint32_t(rows.size());
      for (size_t k = 0; k < n; k++)
         if (defs[k] < d && may_interfere(d, defs[k])) {
            *out++ = defs[k];
            spans.spans.push_back({defs[k], row, row + 1});
         }
      if (out == begin)
         return;
      rows.push_back({begin, uint32_t(out - begin), d});
      chunk_at = out;
      spans.now = row + 1;
      if (cp_live)
         live.skip_row(cp, row);
   }

   /* Defines `defs` (all at one point) with `live` the set after them. */
   void define(const unsigned *defs, size_t n, LiveSet &live)
   {
      if (record && !direct) {
         /* The results first leave the set, so their spans do not cover
          * their own rows (one another is in these rows by the rule for
          * results defined together). */
         for (size_t i = 0; i < n; i++)
            live.erase(defs[i]);
         for (size_t i = 0; i < n; i++)
            record_row(defs[i], copy_of[defs[i]], defs, n, live);
         return;
      }
      if (record) {
         for (size_t i = 0; i < n; i++) {
            unsigned d = defs[i], cp = copy_of[d];
            if (psi_any) {
               for (unsigned w : live.dense)
                  if (cp != w)
                     edge(d, w);
            } else {
               /* d's row and bit, taken once for its whole live set.  d
                * itself may be live after its definition: its diagonal
                * bit is cleared after the loop instead of tested in it
                * (no value interferes with itself).  So is the copy
                * source's edge, unless an earlier definition had set it
                * (the matrix is symmetric, so one bit says so for both):
                * a test per member cost more than the loop's stores. */
               uint64_t *const row = &matrix[size_t(d) * words];
               const size_t dword = d / 64;
               const uint64_t dbit = uint64_t(1) << (d % 64);
               const size_t stride = words;
               uint64_t *const col = matrix.data() + dword;
               const bool cp_live = cp != kNoValue && live.contains(cp);
               const uint64_t cpbit = uint64_t(1) << (cp % 64);
               const bool cp_had = cp_live && (row[cp / 64] & cpbit);
               /* The row takes the set's bits a word at a time when the
                * set has more members than the row has words (the usual
                * case on a small graph), else member by member. */
               if (live.dense.size() > words) {
                  for (size_t k = 0; k < words; k++)
                     row[k] |= live.bits[k];
                  /* Four members a step: the loop's counter and test
                   * were as much as the stores. */
                  const unsigned *p = live.dense.data();
                  const unsigned *const end = p + live.dense.size();
                  for (; end - p >= 4; p += 4) {
                     col[p[0] * stride] |= dbit;
                     col[p[1] * stride] |= dbit;
                     col[p[2] * stride] |= dbit;
                     col[p[3] * stride] |= dbit;
                  }
                  for (; p != end; p++)
                     col[*p * stride] |= dbit;
               } else {
                  for (unsigned w : live.dense) {
                     row[w / 64] |= uint64_t(1) << (w % 64);
                     col[w * stride] |= dbit;
                  }
               }
               row[dword] &= ~dbit;
               if (cp_live && !cp_had) {
                  row[cp / 64] &= ~cpbit;
                  col[cp * stride] &= ~dbit;
               }
               matrix_bits += 2 * live.dense.size();
            }
            for (size_t k = 0; k < n; k++)
               if (defs[k] < d)
                  edge(d, defs[k]);
         }
      }
      /* No log here: only a recording walk of a large graph has one. */
      for (size_t i = 0; i < n; i++)
         if (live.contains(defs[i]))
            live.drop(defs[i]);
   }

   void uses_of(const Value &v, LiveSet &live)
   {
      if (alloc(v))
         live.insert(sh.value_id(v));
   }

   /* Edges, chan_excl pairs, definition order: a recording round's
    * results. */
   void clear_recorded()
   {
      rows.clear();
      chunks.clear();
      chunk_at = chunk_end = nullptr;
      spans.spans.clear();
      spans.now = 0;
      spans.may_repeat = false;
      /* The matrix comes in clear (adjacency_from_matrix clears what it
       * reads): only a recording round that was dropped left bits. */
      if (direct && matrix_bits) {
         std::fill_n(matrix.begin(), ctx.num_values * words, 0);
         matrix_bits = 0;
      }
      excl_pairs.clear();
      ctx.def_order.assign(ctx.def_order.size(), kUnset);
      spans.defined = ctx.def_order.data();
      rpoint = 0;
      depth = 0;
   }

   /* ctx.def_order and ctx.loop_depth, taken by the recording walk instead
    * of a forward walk of their own (on a large shader each tree walk is
    * mostly cache misses).  The forward numbering counts a point on
    * entering each node (and one more on leaving a region) and gives a
    * definition the count so far; walking the same events backwards,
    * rpoint counts the points after a definition, so its forward point
    * is the total minus that (finish_order).  A value defined twice keeps
    * its last definition forwards: the first one met here. */
   static constexpr unsigned kUnset = SpanLog::kNotDefined;
   unsigned rpoint = 0, depth = 0;

   void order_def(const Value &v)
   {
      if (alloc(v))
         order_id(sh.value_id(v));
   }
   /* Met before each definition define()s it: a value defined twice (or
    * twice by one group) may have an edge recorded twice. */
   void order_id(unsigned id)
   {
      if (ctx.def_order[id] == kUnset) {
         ctx.def_order[id] = rpoint;
         ctx.loop_depth[id] = depth;
      } else {
         spans.may_repeat = true;
      }
   }

   void order_defs(const Node *n)
   {
      for (const Value &d : n->dst)
         order_def(d);
   }

   /* The order events of a subtree the liveness walk does not enter
    * (the instructions of a group; never a region). */
   void order_subtree(const Node *n)
   {
      order_defs(n);
      for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
         order_subtree(*it);
      rpoint++;
   }

   void finish_order()
   {
      const unsigned total = rpoint;
      for (size_t i = 0; i < ctx.def_order.size(); i++) {
         if (ctx.def_order[i] == kUnset) {
            ctx.def_order[i] = 0;
            ctx.loop_depth[i] = 0;
         } else {
            ctx.def_order[i] = total - ctx.def_order[i];
         }
      }
   }

   /* copy_of of a plain copy's result, taken where it is defined (just
    * before define() needs it) rather than in a walk of its own.  Inline:
    * asked for every instruction, and most fail its first tests. */
   [[gnu::always_inline]] void note_copy(const Node *a)
   {
      if (a->kind == NodeKind::Alu && alu_is_plain_copy(a) && alloc(a->dst[0]) &&
          alloc(a->src[0]))
         copy_of[sh.value_id(a->dst[0])] = sh.value_id(a->src[0]);
   }

   /* An instruction-like node (Alu in a group is handled by the group). */
   void instr(const Node *n, LiveSet &live)
   {
      if (record)
         note_copy(n);
      unsigned defs[8];
      size_t nd = 0;
      bool many = n->dst.size() > 8;
      defs_buf.clear();
      for (const Value &d : n->dst)
         if (alloc(d)) {
            if (many)
               defs_buf.push_back(sh.value_id(d));
            else
               defs[nd++] = sh.value_id(d);
         }
      if (many)
         define(defs_buf.data(), defs_buf.size(), live);
      else
         define(defs, nd, live);
      for (const Value &s : n->src)
         uses_of(s, live);
   }

   bool group_fixed(const Node *g) const
   {
      if (ctx.group_fixed_in_scratch && g->scratch)
         return g->scratch == 2;
      return alu_group_fixed(sh, g);
   }

   void group(const Node *g, LiveSet &live)
   {
      defs_buf.clear();
      if (record) {
         /* The results' ids serve the definition order (order_subtree's
          * events, taken here) and define(): one look at each result.
          * The order events run backwards, so the results come last to
          * first and are turned round for define(). */
         order_defs(g);
         for (auto it = g->children.rbegin(); it != g->children.rend(); ++it) {
            const Node *a = *it;
            note_copy(a);
            for (auto d = a->dst.rbegin(); d != a->dst.rend(); ++d)
               if (alloc(*d)) {
                  const unsigned id = sh.value_id(*d);
                  order_id(id);
                  defs_buf.push_back(id);
               }
            for (auto c = a->children.rbegin(); c != a->children.rend(); ++c)
               order_subtree(*c);
            rpoint++;
         }
         rpoint++;
         std::reverse(defs_buf.begin(), defs_buf.end());
      } else {
         for (const Node *a : g->children)
            for (const Value &d : a->dst)
               if (alloc(d))
                  defs_buf.push_back(sh.value_id(d));
      }
      const std::vector<unsigned> &defs = defs_buf;
      /* bc_finalize splits a free group into single instructions and keeps
       * it whole only when its reads and writes form a cycle (a swap); then
       * each instruction needs the slot of its channel, so results of one
       * such group must differ in channel, not only in register. */
      if (record && defs.size() > 1 && !group_fixed(g))
         for (size_t i = 0; i < defs.size(); i++)
            for (size_t k = i + 1; k < defs.size(); k++)
               if (defs[i] != defs[k]) {
                  excl_pairs.push_back({defs[i], defs[k]});
                  excl_pairs.push_back({defs[k], defs[i]});
               }
      define(defs.data(), defs.size(), live);
      for (const Node *a : g->children)
         for (const Value &s : a->src)
            uses_of(s, live);
   }

   /* The contents of a control-flow node (a clause's go through
    * walk_clause: they hold no loop). */
   void children(const Node *n, LiveSet &live)
   {
      for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
         walk(*it, live);
   }
   void walk_clause(const Node *n, LiveSet &live)
   {
      for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
         walk(*it, live);
   }

   void phi_defs(const std::vector<Node *> &phis, LiveSet &live)
   {
      defs_buf.clear();
      for (const Node *p : phis)
         if (alloc(p->dst[0]))
            defs_buf.push_back(sh.value_id(p->dst[0]));
      define(defs_buf.data(), defs_buf.size(), live);
   }

   /* Before a recording walk enters loop region n (`live`: the set after
    * it), a walk of n alone that records nothing takes n's entry set, so
    * that its repeats read it when the recording walk gets there.  With
    * the set after the loop exact, one walk is enough: what is live on
    * entry to a loop is defined before it, so it is live from its last
    * use in the body up to the entry, whatever the repeats read (the
    * recording walk checks it, and a change costs another round).  A
    * loop inside gets its own walk when the recording walk gets to it.
    * This replaced a first round over the whole program that recorded
    * nothing: the code outside loops is now walked once.  Out of line:
    * most shaders have no loop, and walk() stays as small as it was. */
   [[gnu::noinline]] void settle(const Node *n, const LiveSet &live)
   {
      if (!loop_set)
         loop_set = std::make_unique<LiveSet>(sh.num_values(), direct);
      else if (!loop_set_ready)
         loop_set->reset(sh.num_values(), direct);
      loop_set_ready = true;
      LiveSet &set = *loop_set;
      const bool was_changed = changed;
      record = false;
      set.assign({live.dense.begin(), live.dense.end()});
      walk(n, set);
      set.clear();
      record = true;
      changed = was_changed;
   }

   /* One walk from the end of the program with `live` empty; a recording
    * walk of a large graph logs the spans of the sets' members. */
   void round(LiveSet &live)
   {
      live.log = nullptr;
      live.clear();
      if (record)
         clear_recorded();
      if (record && !direct)
         live.log = &spans;
      walk(sh.root, live);
      /* What is live on entry leaves too: its spans end. */
      live.clear();
      live.log = nullptr;
   }

   /* live: the set after n; on return the set before it. */
   void walk(const Node *n, LiveSet &live)
   {
      switch (n->kind) {
      case NodeKind::Root:
         if (record)
            order_defs(n);
         children(n, live);
         if (record)
            rpoint++;
         break;
      case NodeKind::Region: {
         if (record && (n->loop || !n->region().loop_phi.empty()))
            settle(n, live);
         if (record) {
            for (const Node *p : n->region().phi)
               order_def(p->dst[0]);
            rpoint++;
            if (n->loop)
               depth++;
         }
         phi_defs(n->region().phi, live);
         exit_set[n->id].assign(live.dense.begin(), live.dense.end());
         children(n, live);
         if (record) {
            for (const Node *p : n->region().loop_phi)
               order_def(p->dst[0]);
            if (n->loop)
               depth--;
            rpoint++;
         }
         if (n->loop || !n->region().loop_phi.empty()) {
            phi_defs(n->region().loop_phi, live);
            if (!live.equals(entry_set[n->id])) {
               entry_set[n->id].assign(live.dense.begin(), live.dense.end());
               changed = true;
            }
            for (const Node *p : n->region().loop_phi)
               if (!p->src.empty())
                  uses_of(p->src[0], live);
         }
         break;
      }
      case NodeKind::Depart:
         if (record)
            order_defs(n);
         live.assign(exit_set[n->target->id]);
         for (const Node *p : n->target->region().phi)
            if (n->dep_index < p->src.size())
               uses_of(p->src[n->dep_index], live);
         children(n, live);
         if (record)
            rpoint++;
         break;
      case NodeKind::Repeat:
         if (record)
            order_defs(n);
         live.assign(entry_set[n->target->id]);
         for (const Node *p : n->target->region().loop_phi)
            if (n->dep_index + 1 < p->src.size())
               uses_of(p->src[n->dep_index + 1], live);
         children(n, live);
         if (record)
            rpoint++;
         break;
      case NodeKind::If: {
         if (if_ready <= if_depth) {
            if (if_sets.size() <= if_depth)
               if_sets.push_back(std::make_unique<LiveSet>(sh.num_values(), direct));
            else
               if_sets[if_depth]->reset(sh.num_values(), direct);
            if_ready++;
         }
         LiveSet &inner = *if_sets[if_depth];
         inner.log = live.log;
         inner.assign({live.dense.begin(), live.dense.end()});
         if (record)
            order_defs(n);
         /* The rows recorded inside are those of the inner set alone. */
         if (live.log)
            live.leave();
         if_depth++;
         children(n, inner);
         if_depth--;
         if (live.log)
            live.rejoin();
         if (record)
            rpoint++;
         for (unsigned v : inner.dense)
            live.insert(v);
         inner.clear();
         break;
      }
      case NodeKind::Cf:
         if (record)
            order_defs(n);
         instr(n, live);
         walk_clause(n, live);
         if (record)
            rpoint++;
         break;
      case NodeKind::AluGroup:
         group(n, live);
         break;
      case NodeKind::Alu:
      case NodeKind::Fetch:
      case NodeKind::Psi:
         /* The definitions are met (order_defs) before they leave the set:
          * a use after that is one before them (SpanLog::may_repeat). */
         if (record)
            order_defs(n);
         instr(n, live);
         if (record) {
            for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
               order_subtree(*it);
            rpoint++;
         }
         break;
      case NodeKind::Phi:
      case NodeKind::LoopPhi:
         if (record)
            order_subtree(n);
         break;
      }
   }
};

} // namespace


/* Adjacency lists, each sorted and without duplicates, from the rows
 * (a value, values it interferes with; duplicates allowed, in no order)
 * and the spans (which rows each value is in).  Linear, a counting sort
 * by neighbour (a comparison sort of a million edges was the largest cost
 * of ra_split): each value v in increasing order goes to the lists of its
 * rows' members and of the rows its spans cover, so every list gets its
 * members in increasing order, a duplicate (an edge recorded twice, or
 * from both ends) right after its twin, where it is dropped.  `psi_old`
 * (null without psis) rules out what may_interfere does: a span covers
 * rows that leave such a value out.
 *
 * Duplicates need a value defined twice (two rows; a span may cover
 * both), one row holding a value twice, or two values each live where
 * the other is defined, one of them live before its definition: in
 * SSA none of these happens (on the corpus not one edge was recorded
 * twice), so unless `may_repeat` (SpanLog) says one might, entries go
 * in without the test against the last one put in their list, a
 * quarter of what each took. */
static void adjacency_from_rows(unsigned nv, const CachedVector<LiveWalk::Row> &rows,
                                const std::vector<Span> &spans, const unsigned *psi_old,
                                bool may_repeat, RaAdjacency &adj)
{
   constexpr uint32_t kNoRow = ~0u;
   /* The rows and spans of each value, threaded through `next_row` and
    * `next_span` (a value defined twice has two rows). */
   CachedVector<uint32_t> first_row(nv, kNoRow), next_row(rows.size());
   CachedVector<uint32_t> first_span(nv, kNoRow), next_span(spans.size());
   /* Each list's room (duplicates included) and its fill so far, and
    * (only when an edge may repeat) the last value put in it (kNoValue:
    * none yet): apart, so that the usual placing reads half the bytes
    * from a table it reads all over. */
   CachedVector<uint32_t> fill(nv), last;
   CachedVector<uint32_t> room(size_t(nv) + 1, 0);
   for (uint32_t r = 0; r < rows.size(); r++) {
      const unsigned v = rows[r].value;
      next_row[r] = first_row[v];
      first_row[v] = r;
      room[v + 1] += rows[r].size;
   }
   for (uint32_t i = 0; i < spans.size(); i++) {
      const unsigned v = spans[i].value;
      next_span[i] = first_span[v];
      first_span[v] = i;
      room[v + 1] += spans[i].end - spans[i].begin;
   }
   for (unsigned v = 0; v < nv; v++) {
      room[v + 1] += room[v];
      fill[v] = room[v];
   }
   if (may_repeat)
      last.assign(nv, kNoValue);
   /* The lists go where adj.list will hold them, with their room. */
   adj.list.resize(room[nv]);
   unsigned *const lists = adj.list.data();
   /* Bounds and row pointers are taken into locals: the lists are
    * unsigned too, so the compiler would reload them after each store.
    * A span's rows are walked by pointer (an index costs an instruction
    * more per edge for the 16-byte rows).  One loop for each kind of
    * put, not a test per entry. */
   auto place = [&]<bool kRepeats>() {
      uint32_t *const at = fill.data(), *const lasts = last.data();
      auto put = [at, lasts, lists](unsigned x, unsigned v) {
         if constexpr (kRepeats) {
            if (lasts[x] == v)
               return;
            lasts[x] = v;
         }
         lists[at[x]++] = v;
      };
      /* Four entries a step where no psi rules one out: the loops'
       * counters and tests were a fifth of the placing. */
      for (unsigned v = 0; v < nv; v++) {
         for (uint32_t r = first_row[v]; r != kNoRow; r = next_row[r]) {
            const unsigned *p = rows[r].ids;
            const unsigned *const end = p + rows[r].size;
            for (; end - p >= 4; p += 4) {
               put(p[0], v);
               put(p[1], v);
               put(p[2], v);
               put(p[3], v);
            }
            for (; p != end; p++)
               put(*p, v);
         }
         for (uint32_t s = first_span[v]; s != kNoRow; s = next_span[s]) {
            const LiveWalk::Row *const begin = rows.data() + spans[s].begin;
            const LiveWalk::Row *const end = rows.data() + spans[s].end;
            if (!psi_old) {
               const LiveWalk::Row *r = begin;
               for (; end - r >= 4; r += 4) {
                  put(r[0].value, v);
                  put(r[1].value, v);
                  put(r[2].value, v);
                  put(r[3].value, v);
               }
               for (; r != end; r++)
                  put(r->value, v);
               continue;
            }
            for (const LiveWalk::Row *r = begin; r != end; r++) {
               const unsigned d = r->value;
               if (psi_old[d] != v && psi_old[v] != d)
                  put(d, v);
            }
         }
      }
   };
   if (may_repeat)
      place.template operator()<true>();
   else
      place.template operator()<false>();
   /* Without the room the duplicates left: each list moves down (never
    * up, so in place). */
   adj.start.resize(size_t(nv) + 1);
   unsigned *out = lists;
   adj.start[0] = 0;
   for (unsigned v = 0; v < nv; v++) {
      unsigned *const from = lists + room[v];
      if (out != from)
         std::copy(from, lists + fill[v], out);
      out += fill[v] - room[v];
      adj.start[v + 1] = uint32_t(out - lists);
   }
   adj.list.resize(adj.start[nv]);
}

/* Adjacency lists from a symmetric bit matrix (row v: v's neighbours),
 * read row by row: each comes out sorted and without duplicates.  `bits`
 * bounds the number of bits set, so the lists are written in one pass
 * into room for that many and then cut to length (a counting pass first
 * was a third of the cost: the build does not assume POPCNT).  The
 * matrix is left clear for the next shader: a word is cleared as it is
 * read, which costs less than clearing the whole matrix up front.  A row
 * for which `may_hold(v)` is false is clear and not read: on the corpus
 * some two values in five (version 0 of each temporary, values nothing
 * defines or reads) are in no edge, and their words were a third of
 * those read. */
template <typename MayHold>
static void adjacency_from_matrix(unsigned nv, size_t words, std::vector<uint64_t> &m,
                                  size_t bits, MayHold &&may_hold, RaAdjacency &adj)
{
   adj.start.resize(size_t(nv) + 1);
   adj.list.resize(bits);
   unsigned *const base = adj.list.data();
   unsigned *out = base;
   uint64_t *row = m.data();
   adj.start[0] = 0;
   for (unsigned v = 0; v < nv; v++, row += words) {
      if (!may_hold(v)) {
         adj.start[v + 1] = uint32_t(out - base);
         continue;
      }
      for (size_t w = 0; w < words; w++) {
         uint64_t b = row[w];
         if (!b)
            continue; /* most words: nothing to clear */
         row[w] = 0;
         for (; b; b &= b - 1)
            *out++ = unsigned(w * 64) + unsigned(std::countr_zero(b));
      }
      adj.start[v + 1] = uint32_t(out - base);
   }
   adj.list.resize(size_t(out - base));
}

/* chan_excl from its (value, other) pairs: one counting sort (`pos`:
 * scratch). */
static void build_lists(unsigned nv, const std::vector<std::pair<unsigned, unsigned>> &pairs,
                        std::vector<uint32_t> &pos, RaAdjacency &out)
{
   out.start.assign(size_t(nv) + 1, 0);
   for (const auto &p : pairs)
      out.start[p.first + 1]++;
   for (unsigned v = 0; v < nv; v++)
      out.start[v + 1] += out.start[v];
   out.list.resize(pairs.size());
   if (pairs.empty())
      return;
   pos.assign(out.start.begin(), out.start.end() - 1);
   for (const auto &p : pairs)
      out.list[pos[p.first]++] = p.second;
}

void ra_build_interference(const RegionShader &sh, RaContext &ctx, unsigned matrix_values)
{
   unsigned nv = sh.num_values();
   ctx.num_values = nv;
   ctx.def_order.assign(nv, 0);
   ctx.loop_depth.assign(nv, 0);
   /* Kept with the thread as the walk's tables are (LiveWalkTables); the
    * bit matrix of a small graph is all clear between shaders. */
   struct Tables {
      std::vector<uint8_t> var_alloc;
      LiveSet live{0, false};
      std::vector<uint32_t> excl_pos;
      std::vector<uint64_t> matrix;
   };
   Tables &kept = thread_kept<Tables>();
   std::vector<uint8_t> &var_alloc = kept.var_alloc;
   var_alloc.assign(sh.vars.size(), 0);
   for (size_t v = 0; v < sh.vars.size(); v++) {
      const VarKind k = sh.vars[v].kind;
      var_alloc[v] = (k == VarKind::Gpr || k == VarKind::Temp) && !in_rel_array(sh, int(v));
   }
   std::vector<uint64_t> &matrix = kept.matrix;
   LiveWalk w{sh, ctx, var_alloc, matrix};
   w.excl_pairs.clear();
   w.exit_set.assign(sh.regions.size(), {});
   w.entry_set.assign(sh.regions.size(), {});
   /* Values up to kRaMatrixValues: setting two bits per edge and scanning
    * the matrix (at most 512 KiB, kept across shaders) costs less than
    * recording rows and sorting them for a typical shader that size
    * (measured: a corpus shader of 1024 to 2048 values still gains). */
   if (nv <= matrix_values) {
      w.direct = true;
      w.words = (size_t(nv) + 63) / 64;
      if (matrix.size() < nv * w.words)
         matrix.resize(nv * w.words, 0);
   }
   w.psi_old.assign(nv, kNoValue);
   for (auto &p : ctx.psi_pairs)
      w.psi_old[p.first] = p.second;
   w.psi_any = !ctx.psi_pairs.empty();
   w.copy_of.assign(nv, kNoValue);
   /* Entry sets only grow; nesting depth bounds the rounds, the cap only
    * guards against a bug turning into a hang (ra_split then refuses). */
   ctx.live_converged = false;
   LiveSet &live = kept.live;
   live.reset(nv, w.direct);
   /* Each round records the edges as it goes (settle() takes each loop's
    * entry set just before the loop is walked): a round that changes no
    * entry set read the final sets everywhere, so its record is exact; a
    * round that changes one drops it. */
   for (unsigned round = 0; round < 512 && !ctx.live_converged; round++) {
      w.changed = false;
      w.record = true;
      w.round(live);
      ctx.live_converged = !w.changed;
   }
   if (w.direct) {
      /* A row holds bits only if its value was defined (with something
       * live or defined with it) or was live where another was: it then
       * has a definition point (finish_order has not yet run) or joined
       * one of the walk's sets. */
      auto may_hold = [&](unsigned v) {
         if (ctx.def_order[v] != LiveWalk::kUnset || live.joined(v))
            return true;
         for (unsigned k = 0; k < w.if_ready; k++)
            if (w.if_sets[k]->joined(v))
               return true;
         return false;
      };
      adjacency_from_matrix(nv, w.words, w.matrix, w.matrix_bits, may_hold, ctx.adj);
   } else
      adjacency_from_rows(nv, w.rows, w.spans.spans, w.psi_any ? w.psi_old.data() : nullptr,
                          w.spans.may_repeat, ctx.adj);
   build_lists(nv, w.excl_pairs, kept.excl_pos, ctx.chan_excl);
   w.finish_order();
}

} // namespace sbcc::r600::sb::region
