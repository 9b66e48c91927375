/*
 * post_scheduler: repacks ALU nodes into VLIW groups and gives the values
 * that live inside one run of a clause their final registers.
 *
 * Works clause by clause on each run of non-fixed groups; fixed groups are
 * barriers and keep their place, except four-slot reductions (and plain
 * groups only kept for a reduction's PV read), which become one unit with
 * their slots kept.  Groups read all operands before any slot writes.
 *
 * On values (the normal path): a definition is local when a later one in
 * the run replaces it or its register is dead after the run.  Locals are
 * renamed apart, so only true dependences remain, plus "weak" edges that
 * keep the run's last write of a live register from preceding the readers
 * of the value that entered the run.  A MOV of a local into a live-out
 * register is folded into the local's producer first.  Units are list-
 * scheduled by critical path (ties: readers of the previous group's
 * results, then program order) into the vector slots (a local's channel
 * follows the slot it gets) and trans; a group keeps a node only if it can
 * still be materialized (read ports and bank swizzles, four literals,
 * constant pairs, trans rules).  Once the group after a local's group is
 * known, the local gets no register if all its readers are there (PV/PS),
 * else a clause temporary (not on R600), else the lowest GPR channel free
 * over its range; registers live across the run are never touched.
 *
 * If a clause cannot be done so (no bank swizzle, no register), it is
 * tried again with reductions verbatim, and last with the register-order
 * packer below: dependences on registers as written, groups filled
 * greedily in program order from a 32-node window.
 */
#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

constexpr size_t kWindow = 32;

/* A range of a flat array (one row of a CSR list). */
template <typename T> struct Span {
   const T *b, *e;
   const T *begin() const { return b; }
   const T *end() const { return e; }
   size_t size() const { return size_t(e - b); }
};

struct Deps {
   std::vector<uint32_t> strong;
   std::vector<uint32_t> weak;
};

bool schedule_run_registers(ChipClass chip, AluClause &cl, const std::vector<uint32_t> &ids,
                  const AluGroup *prev_fixed, CachedVector<GroupNode> &out,
                  Diagnostics &diags)
{
   /* Dependences, group by original group so reads precede writes. */
   std::unordered_map<uint32_t, uint32_t> pos; /* node id -> index in ids */
   for (size_t i = 0; i < ids.size(); i++)
      pos[ids[i]] = uint32_t(i);
   std::vector<Deps> deps(ids.size());
   std::unordered_map<unsigned, int> last_writer;
   std::unordered_map<unsigned, std::vector<uint32_t>> readers;
   auto key = [](unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); };
   for (size_t b = 0; b < ids.size();) {
      size_t e = b;
      while (e < ids.size() && cl.nodes[ids[e]].group == cl.nodes[ids[b]].group)
         e++;
      for (size_t i = b; i < e; i++) {
         const AluNode &n = cl.nodes[ids[i]];
         const unsigned nsrc = alu_op_info(n.bc.op).num_src;
         for (unsigned s = 0; s < nsrc; s++) {
            const Value &v = n.src[s].value;
            if (v.kind != ValueKind::Gpr)
               continue;
            const unsigned k = key(v.sel, v.chan);
            auto w = last_writer.find(k);
            if (w != last_writer.end())
               deps[i].strong.push_back(uint32_t(w->second));
            readers[k].push_back(uint32_t(i));
         }
      }
      for (size_t i = b; i < e; i++) {
         const AluNode &n = cl.nodes[ids[i]];
         if (!n.writes_gpr())
            continue;
         const unsigned k = key(n.bc.dst.gpr, n.bc.dst.chan);
         auto w = last_writer.find(k);
         if (w != last_writer.end())
            deps[i].strong.push_back(uint32_t(w->second));
         for (uint32_t r : readers[k])
            if (r != i)
               deps[i].weak.push_back(r);
         readers[k].clear();
         last_writer[k] = int(i);
      }
      b = e;
   }

   /* A write and an earlier-or-same-group read of the old value that
    * came from one source group (a register swap, say) may depend on each
    * other both ways: such nodes move as one unit. */
   std::vector<uint32_t> unit(ids.size());
   for (size_t i = 0; i < ids.size(); i++)
      unit[i] = uint32_t(i);
   auto find = [&](uint32_t x) {
      while (unit[x] != x)
         x = unit[x] = unit[unit[x]];
      return x;
   };
   for (size_t i = 0; i < ids.size(); i++)
      for (uint32_t r : deps[i].weak)
         if (cl.nodes[ids[r]].group == cl.nodes[ids[i]].group) {
            uint32_t a = find(uint32_t(i)), b = find(r);
            if (a != b)
               unit[std::max(a, b)] = std::min(a, b);
         }
   std::vector<std::vector<uint32_t>> members(ids.size());
   for (size_t i = 0; i < ids.size(); i++)
      members[find(uint32_t(i))].push_back(uint32_t(i));

   std::vector<int> placed(ids.size(), -1); /* group index in `out` */
   size_t first = 0, remaining = ids.size();
   const AluGroup *prev = prev_fixed;
   AluGroup last;
   while (remaining) {
      while (placed[first] >= 0)
         first++;
      const int cur = int(out.size());
      GroupNode g;
      bool used[5] = {};
      std::optional<AluGroup> mat;
      std::vector<uint32_t> window;
      for (size_t i = first; i < ids.size() && window.size() < kWindow; i++)
         if (placed[i] < 0 && find(uint32_t(i)) == i)
            window.push_back(uint32_t(i));
      /* Program order: measured on the corpus, filling groups greedily in
       * source order packs better here than critical-path priority
       * (CYPRESS first 150: -4.5% vs -3.5% groups); */
      for (uint32_t i : window) {
         const std::vector<uint32_t> &mem = members[i];
         auto in_unit = [&](uint32_t d) { return find(d) == i; };
         bool ready = true;
         for (uint32_t m : mem) {
            for (uint32_t d : deps[m].strong)
               if (!in_unit(d) && (placed[d] < 0 || placed[d] >= cur))
                  ready = false;
            for (uint32_t d : deps[m].weak)
               if (!in_unit(d) && placed[d] < 0)
                  ready = false;
         }
         if (!ready)
            continue;
         bool try_used[5];
         std::copy(used, used + 5, try_used);
         const size_t old_size = g.nodes.size();
         /* The vector slot of the node's channel, else trans: the
          * hardware tells slots apart by order, so an instruction can only
          * sit in trans when its channel's vector slot is taken. */
         std::optional<AluGroup> m;
         bool fits = true;
         for (uint32_t x : mem) {
            const AluNode &n = cl.nodes[ids[x]];
            const unsigned slots = alu_slots(chip, n.bc.op);
            const unsigned chan = n.bc.dst.chan & 3;
            int slot = -1;
            if ((slots & kSlotV) && !alu_is_trans_only(chip, n.bc.op) && !try_used[chan])
               slot = int(chan);
            else if ((slots & kSlotS) && chip != ChipClass::Cayman && !try_used[kSlotT])
               slot = kSlotT;
            if (slot < 0) {
               fits = false;
               break;
            }
            try_used[slot] = true;
            g.nodes.push_back(ids[x]);
            g.slots.push_back(uint8_t(slot));
         }
         if (fits)
            m = materialize_group(chip, cl, g.nodes, g.slots, prev);
         if (!m) {
            g.nodes.resize(old_size);
            g.slots.resize(old_size);
            continue;
         }
         mat = std::move(m);
         std::copy(try_used, try_used + 5, used);
         for (uint32_t x : mem)
            placed[x] = cur;
         remaining -= mem.size();
      }
      if (g.nodes.empty()) {
         diags.error("sb post_scheduler: node " + std::to_string(ids[first]) +
                     " fits in no group");
         return false;
      }
      last = std::move(*mat);
      prev = &last;
      out.push_back(std::move(g));
   }
   return true;
}


/* The register-order schedule: the fallback for clauses the value
 * scheduler cannot do (and what sched_checker's register rules describe). */
bool schedule_clause_registers(ChipClass chip, AluClause &cl, Diagnostics &diags)
{
   CachedVector<GroupNode> out;
   std::vector<uint32_t> run;
   /* The fixed group just before the run, if any: its results are
    * PV/PS for the run's first group. */
   std::optional<AluGroup> prev_fixed;
   auto flush = [&]() {
      if (run.empty())
         return true;
      bool ok = schedule_run_registers(chip, cl, run, prev_fixed ? &*prev_fixed : nullptr,
                                       out, diags);
      run.clear();
      return ok;
   };
   for (GroupNode &g : cl.groups) {
      if (g.fixed) {
         if (!flush())
            return false;
         out.push_back(g);
         prev_fixed = g.original;
         continue;
      }
      run.insert(run.end(), g.nodes.begin(), g.nodes.end());
   }
   if (!flush())
      return false;
   /* Spreading literal users over more groups can repeat literals; a
    * clause that no longer fits the 128-slot COUNT keeps its source
    * layout rather than being split (splitting would renumber CF). */
   CachedVector<GroupNode> source = std::move(cl.groups);
   cl.groups = std::move(out);
   auto built = build_clause(chip, cl);
   if (!built || alu_clause_dwords(*built) > 256)
      cl.groups = std::move(source);
   else
      cl.built = std::move(*built);
   return true;
}

/* ---- Scheduling on values ------------------------------------------------
 *
 * A definition in a run is local when nothing after the run can see it:
 * a later definition in the run replaces it, or its register is dead after
 * the run (liveness over the CF graph, then backwards through the rest of
 * the clause).  Locals get no register until they are scheduled, so only
 * true dependences and the registers of the other values order the run. */

unsigned key_of(unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); }

constexpr unsigned kNoReg = ~0u;
/* Destination of a local not yet given a register while its group is
 * built: no operand names it, so the builder never mistakes it for the
 * producer of a register read through PV (OP3 always counts as writing). */
constexpr uint8_t kUnassigned = 255;
constexpr unsigned kPvOnly = ~1u;
constexpr unsigned kGprAllocLast = 122; /* ra_init's range; 123 is left alone */
constexpr size_t kMaxTries = 64;        /* candidates tried per group */

/* Asked for every node of every run (analyze, live_after_groups): inline,
 * not a call each. */
[[gnu::always_inline]] inline bool plain_write(const AluNode &n)
{
   return n.writes_gpr() && !n.bc.dst.rel && !n.bc.pred_sel &&
          !(alu_op_info(n.bc.op).flags & AF_MOVA) && n.bc.dst.gpr < 128;
}

bool gpr_read(const Operand &o) { return o.value.kind == ValueKind::Gpr && o.value.sel < 128; }

struct ValueInfo {
   std::vector<std::array<int, 3>> src_def; /* -2 not a register, -1 live-in, else def */
   std::vector<int> def_key;                /* register channel written, -1 none */
   std::vector<uint8_t> local;
   std::vector<std::vector<uint32_t>> readers; /* distinct reading positions */
   /* The reads of values that entered the run (src_def -1) as (register
    * channel, position) pairs in position order, a channel once per node:
    * noted by analyze, which looks at every operand anyway, for
    * fold_copies and build_deps, which would otherwise walk them all
    * again. */
   std::vector<std::pair<uint32_t, uint32_t>> entry_reads;
};

/* One entry per register channel, -1 between uses: analyze and
 * fold_copies put back the entries they set instead of filling all 512 for
 * every run (most runs touch a few). */
struct KeyTable {
   int at[512];
   KeyTable() { std::fill(at, at + 512, -1); }
};

/* False for a run the value schedule cannot do: a relative or predicated
 * write, an AR load, a relative operand or one already read through PV/PS
 * (asked here, where every operand is looked at anyway; a fold changes
 * none of this, and the folded MOVs have none of it). */
bool analyze(const AluClause &cl, const std::vector<uint32_t> &ids, const LiveSet &live_after,
             ValueInfo &v, KeyTable &table)
{
   const size_t n = ids.size();
   v.src_def.assign(n, {-2, -2, -2});
   v.def_key.assign(n, -1);
   v.local.assign(n, 0);
   v.entry_reads.clear();
   /* The inner lists keep their storage from the last run. */
   if (v.readers.size() < n)
      v.readers.resize(n);
   for (size_t i = 0; i < n; i++)
      v.readers[i].clear();
   /* Last definition of each register channel in the run (keys < 512). */
   int *cur = table.at;
   auto put_back = [&]() {
      for (size_t i = 0; i < n; i++)
         if (v.def_key[i] >= 0)
            cur[v.def_key[i]] = -1;
   };
   /* A source group's nodes all read before any writes: [b, i) is the
    * group read so far, whose writes are noted when the next one begins
    * (one walk over the nodes, not a search for the group's end and two
    * over it). */
   auto write_group = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; i++) {
         const AluNode &nd = cl.nodes[ids[i]];
         if (!plain_write(nd))
            continue;
         const unsigned k = key_of(nd.bc.dst.gpr, nd.bc.dst.chan);
         v.def_key[i] = int(k);
         cur[k] = int(i);
      }
   };
   size_t b = 0;
   for (size_t i = 0; i < n; i++) {
      const AluNode &nd = cl.nodes[ids[i]];
      if (nd.group != cl.nodes[ids[b]].group) {
         write_group(b, i);
         b = i;
      }
      const AluOpInfo &info = alu_op_info(nd.bc.op);
      if (nd.bc.dst.rel || nd.bc.pred_sel || (info.flags & AF_MOVA)) {
         put_back();
         return false;
      }
      /* Read once: the stores below could alias the op table. */
      const unsigned nsrc = info.num_src;
      const size_t node_reads = v.entry_reads.size(); /* this node's from here */
      for (unsigned s = 0; s < nsrc; s++) {
         if (nd.src[s].rel || nd.src[s].value.kind == ValueKind::Forward) {
            put_back();
            return false;
         }
         if (!gpr_read(nd.src[s]))
            continue;
         const unsigned k = key_of(nd.src[s].value.sel, nd.src[s].value.chan);
         const int d = cur[k];
         v.src_def[i][s] = d;
         if (d == -1 && std::find_if(v.entry_reads.begin() + std::ptrdiff_t(node_reads),
                                     v.entry_reads.end(), [&](const auto &r) {
                                        return r.first == k;
                                     }) == v.entry_reads.end())
            v.entry_reads.push_back({k, uint32_t(i)});
         if (d >= 0 && (v.readers[d].empty() || v.readers[d].back() != i))
            v.readers[d].push_back(uint32_t(i));
      }
   }
   write_group(b, n);
   for (size_t i = 0; i < n; i++) {
      if (v.def_key[i] < 0)
         continue;
      const unsigned k = unsigned(v.def_key[i]);
      v.local[i] = cur[k] != int(i) || !live_after.test(k);
   }
   put_back();
   return true;
}

/* MOV D, X where X is a local and the MOV's result is what D holds after
 * the run: X writes D itself (and X's other readers read D).  In value terms X
 * simply becomes the run's last definition of D, so the readers of D's
 * entering value get the usual weak edge to X and nothing in between
 * needs to be checked.  The MOV leaves `ids` and `v` (positions are
 * renumbered). */
void fold_copies(ChipClass chip, AluClause &cl, std::vector<uint32_t> &ids, ValueInfo &v,
                 ValueInfo &w, KeyTable &table)
{
   const size_t n = ids.size();
   /* Made at the first fold: most runs fold nothing. */
   std::vector<uint8_t> gone;
   std::vector<int> alias;
   /* Last position reading each register's entering value (-1: none),
    * made when a fold first asks (the entering reads are not changed by
    * folds, so they also say which entries to put back). */
   int *last_entry_read = table.at;
   bool have_entry_reads = false;
   auto note_entry_reads = [&](bool set) {
      for (const auto &[key, i] : v.entry_reads)
         last_entry_read[key] = set ? int(i) : -1;
   };
   bool any = false;
   for (size_t i = 0; i < n; i++) {
      AluNode &m = cl.nodes[ids[i]];
      if (m.bc.op != AluOp::MOV || v.def_key[i] < 0 || v.local[i] || m.src[0].neg ||
          m.src[0].abs || m.src[0].rel || m.bc.dst.clamp || m.bc.dst.omod)
         continue;
      const int x = v.src_def[i][0];
      if (x < 0 || !v.local[x])
         continue;
      const unsigned d = unsigned(v.def_key[i]);
      AluNode &xn = cl.nodes[ids[x]];
      /* A reduction's slots are fixed, and so is the channel each writes. */
      if (alu_is_reduction(chip, xn.bc.op) && d % 4 != xn.bc.slot)
         continue;
      if (v.readers[x].size() > 1) {
         /* X's other readers will read D.  D's entering value must then be
          * read no later than X's own group: such a reader that depended
          * on X would have to come both before and after it. */
         size_t end = size_t(x);
         while (end < n && cl.nodes[ids[end]].group == xn.group)
            end++;
         if (!have_entry_reads) {
            note_entry_reads(true);
            have_entry_reads = true;
         }
         if (last_entry_read[d] >= 0 && size_t(last_entry_read[d]) >= end)
            continue;
      }
      if (!any) {
         gone.assign(n, 0);
         alias.resize(n);
         for (size_t j = 0; j < n; j++)
            alias[j] = int(j);
      }
      std::vector<uint32_t> readers;
      for (uint32_t r : v.readers[x]) {
         if (r == i)
            continue;
         readers.push_back(r);
         for (unsigned s = 0; s < 3; s++)
            if (v.src_def[r][s] == x) {
               Value &val = cl.nodes[ids[r]].src[s].value;
               val.sel = uint16_t(d / 4);
               val.chan = uint8_t(d % 4);
            }
      }
      readers.insert(readers.end(), v.readers[i].begin(), v.readers[i].end());
      xn.bc.dst.gpr = uint8_t(d / 4);
      xn.bc.dst.chan = uint8_t(d % 4);
      xn.bc.dst.write = true;
      v.def_key[x] = int(d);
      v.local[x] = 0;
      v.readers[x] = std::move(readers);
      m.dead = true;
      m.folded_into = int32_t(ids[x]);
      gone[i] = 1;
      alias[i] = x;
      any = true;
   }
   if (have_entry_reads)
      note_entry_reads(false);
   if (!any)
      return;
   std::vector<uint32_t> pos(n, 0);
   size_t k = 0;
   for (size_t i = 0; i < n; i++)
      if (!gone[i])
         pos[i] = uint32_t(k++);
   /* Into w, which then trades places with v (both keep their storage). */
   w.src_def.clear();
   w.def_key.clear();
   w.local.clear();
   /* A folded MOV read a local, not an entering value: every entry read
    * stays, renumbered. */
   w.entry_reads.clear();
   for (const auto &[key, i] : v.entry_reads)
      w.entry_reads.push_back({key, pos[i]});
   if (w.readers.size() < k)
      w.readers.resize(k);
   std::vector<uint32_t> kept;
   for (size_t i = 0; i < n; i++) {
      if (gone[i])
         continue;
      std::vector<uint32_t> &r = w.readers[kept.size()];
      kept.push_back(ids[i]);
      std::array<int, 3> sd = v.src_def[i];
      for (int &x : sd)
         if (x >= 0)
            x = int(pos[size_t(alias[size_t(x)])]);
      w.src_def.push_back(sd);
      w.def_key.push_back(v.def_key[i]);
      w.local.push_back(v.local[i]);
      r.clear();
      for (uint32_t x : v.readers[i])
         r.push_back(pos[x]);
   }
   ids = std::move(kept);
   std::swap(v, w);
}

/* Run on every run of every clause (one per thread, see post_scheduler):
 * its vectors keep their storage from one run to the next. */
class ValueScheduler {
 public:
   /* ids and v trade storage with the scheduler's own (both come back
    * holding garbage).  The groups go to the end of `out`, their hardware
    * form (destinations of locals not yet final) to the end of `out_hw`,
    * or an empty group where the builder must materialize it. */
   bool run(ChipClass chip, AluClause &cl, std::vector<uint32_t> &ids, ValueInfo &v,
            const LiveSet &after, const AluGroup *prev_fixed,
            const GroupNode *prev_fixed_nodes, CachedVector<GroupNode> &out,
            std::vector<AluGroup> &out_hw)
   {
      chip_ = chip;
      cl_ = &cl;
      std::swap(ids_, ids);
      std::swap(v_, v);
      after_ = &after;
      prev_hw_ = prev_fixed;
      prev_fixed_nodes_ = prev_fixed_nodes;
      out_ = &out;
      out_hw_ = &out_hw;
      first_ = out.size();
      hw_ok_.clear();
      return schedule();
   }


 private:
   struct Edge {
      uint32_t to;
      bool strong;
   };

   bool schedule();
   void build_deps();
   /* used: the slots taken in the group, a bit each (bit kSlotT: trans). */
   bool try_unit(uint32_t u, GroupNode &g, unsigned &used, const unsigned demanded[4]);
   void set_operands(uint32_t i);
   void placed(uint32_t u, std::vector<uint32_t> &now);
   bool assign_group(size_t gi);
   bool writable(unsigned k, unsigned g) const
   {
      return !after_->test(k) && pending_[k] == 0 && last_read_[k] <= int(g) &&
             last_write_[k] < int(g);
   }
   /* A local the run gives its register (def_key >= 0 and local), worked
    * out once per run into flex_: asked for every node in every try. */
   bool flexible(uint32_t i) const { return flex_[i]; }
   void note_reads(uint32_t i, unsigned g);

   ChipClass chip_ = ChipClass::Evergreen;
   AluClause *cl_ = nullptr;
   std::vector<uint32_t> ids_;
   const LiveSet *after_ = nullptr;
   const AluGroup *prev_hw_ = nullptr;
   const GroupNode *prev_fixed_nodes_ = nullptr;
   ValueInfo v_;
   std::vector<uint32_t> unit_;
   /* Flat lists: unit u's members are mem_[mem_off_[u] .. mem_off_[u + 1]],
    * its successors succ_[succ_off_[u] ..], position i's predecessors
    * pred_[pred_off_[i] ..]; one allocation each instead of one per node. */
   std::vector<uint32_t> mem_, mem_off_;
   std::vector<Edge> succ_, pred_;
   std::vector<uint32_t> succ_off_, pred_off_, fill_;
   Span<uint32_t> members(uint32_t u) const
   {
      return {mem_.data() + mem_off_[u], mem_.data() + mem_off_[u + 1]};
   }
   std::vector<unsigned> npred_, earliest_, height_;
   /* Per position, what the op allows (looked up once, not per try). */
   enum : uint8_t { kCapVec = 1, kCapTrans = 2, kCapReduction = 4 };
   std::vector<uint8_t> caps_;
   bool reductions_ = false; /* some position has kCapReduction */
   std::vector<unsigned> group_of_; /* per position, kNoReg until placed */
   std::vector<uint8_t> flex_;      /* per position: flexible() */
   std::vector<uint8_t> chan_mask_; /* channels a local's register may use */
   std::vector<unsigned> reg_;      /* per position: assigned key, kPvOnly or kNoReg */
   /* Per register channel; between runs every entry holds its initial
    * value (none pending, never read or written), and only the keys a run
    * touched, listed in dirty_, go back to it: most runs touch a handful
    * of the 512. */
   std::vector<int> pending_ = std::vector<int>(512, 0);
   std::vector<int> last_read_ = std::vector<int>(512, -1);
   std::vector<int> last_write_ = std::vector<int>(512, -1);
   std::vector<int> first_reader_ = std::vector<int>(512, -1); /* build_deps' */
   std::vector<uint16_t> dirty_;
   /* The run's groups go straight to the end of the caller's lists: group
    * g of the run is (*out_)[first_ + g], its hardware form
    * (*out_hw_)[first_ + g]; hw_ok_: whether fit_ built that (else it only
    * holds what PV/PS reads of it need). */
   CachedVector<GroupNode> *out_ = nullptr;
   std::vector<AluGroup> *out_hw_ = nullptr;
   size_t first_ = 0;
   std::vector<uint8_t> hw_ok_;
   GroupFit fit_; /* the group being filled */
   std::vector<uint32_t> pos_of_; /* node id -> position */
   /* build_deps': the entering values' readers grouped by key. */
   std::vector<std::pair<uint32_t, uint32_t>> livein_readers_;
   /* schedule()'s lists, kept for their storage. */
   /* Per unit, its rank in the ready list as one number (lowest first):
    * height inverted, then kNotReadingPrev unless it reads a result of
    * the previous group, then its position (below 2^31). */
   static constexpr uint64_t kNotReadingPrev = uint64_t(1) << 31;
   std::vector<uint64_t> rank_;
   std::vector<uint32_t> ready_, later_, now_;
   std::vector<uint64_t> unit_demand_; /* per unit, channels as ready_demand */
   /* Units placed in the group being filled and in the one before, and
    * the units marked as reading the latter's results (its successors). */
   std::vector<uint32_t> placed_now_, placed_prev_, marked_;
   unsigned cur_ = 0;
};

void ValueScheduler::build_deps()
{
   const size_t n = ids_.size();
   /* The keys the run reads on entry, and those it gives locals
    * (assign_group), are all it touches. */
   for (uint16_t k : dirty_) {
      pending_[k] = 0;
      last_read_[k] = -1;
      last_write_[k] = -1;
   }
   dirty_.clear();
   /* Readers of each register's entering value, as (key, position) pairs
    * grouped by key, positions in order: a flat list instead of a vector
    * per register in a hash map.  pending_ counts each key's readers (a
    * register whose entering value is still to be read is not free for
    * allocation), and the count places them: no sort of the whole list. */
   const std::vector<std::pair<uint32_t, uint32_t>> &reads = v_.entry_reads;
   for (const auto &r : reads)
      if (pending_[r.first]++ == 0)
         dirty_.push_back(uint16_t(r.first));
   /* first_reader: where a key's readers start in `livein` (set to where
    * they end, then counted down as they are placed from the last). */
   std::vector<int> &first_reader = first_reader_;
   int end = 0;
   for (uint16_t k : dirty_) {
      end += pending_[k];
      first_reader[k] = end;
   }
   std::vector<std::pair<uint32_t, uint32_t>> &livein = livein_readers_;
   livein.resize(reads.size());
   for (size_t e = reads.size(); e-- > 0;)
      livein[size_t(--first_reader[reads[e].first])] = reads[e];
   /* Units: a register swap inside one source group moves as a whole
    * (a union-find whose roots are the least positions of their sets, so
    * the order of the joins does not matter). */
   unit_.resize(n);
   for (size_t i = 0; i < n; i++)
      unit_[i] = uint32_t(i);
   auto find = [&](uint32_t x) {
      while (unit_[x] != x)
         x = unit_[x] = unit_[unit_[x]];
      return x;
   };
   bool merged = false;
   auto join = [&](uint32_t a, uint32_t b) {
      a = find(a);
      b = find(b);
      if (a != b) {
         unit_[std::max(a, b)] = std::min(a, b);
         merged = true;
      }
   };
   /* Predecessors of each position, flat (pred_off_[i] .. pred_off_[i +
    * 1] in pred_): the true dependences in operand order, then the only
    * register-ordered events left: a non-local definition (the last of
    * its register in the run) overwrites the value that entered the run,
    * so it may not precede that value's readers.  Such a reader in the
    * definition's own source group joins its unit as the edge is made. */
   std::vector<Edge> &pred = pred_;
   pred.clear();
   pred_off_.assign(n + 1, 0);
   for (size_t i = 0; i < n; i++) {
      for (unsigned s = 0; s < 3; s++)
         if (v_.src_def[i][s] >= 0)
            pred.push_back({uint32_t(v_.src_def[i][s]), true});
      if (v_.def_key[i] >= 0 && !v_.local[i] && first_reader[v_.def_key[i]] >= 0) {
         const unsigned k = unsigned(v_.def_key[i]);
         const uint32_t group = cl_->nodes[ids_[i]].group;
         for (size_t e = size_t(first_reader[k]); e < livein.size() && livein[e].first == k;
              e++) {
            const uint32_t r = livein[e].second;
            if (r == i)
               continue;
            pred.push_back({r, false});
            if (cl_->nodes[ids_[r]].group == group)
               join(uint32_t(i), r);
         }
      }
      pred_off_[i + 1] = uint32_t(pred.size());
   }
   /* The keys read on entry are those listed dirty so far, once each. */
   for (uint16_t k : dirty_)
      first_reader[k] = -1;
   auto preds = [&](size_t i) {
      return Span<Edge>{pred.data() + pred_off_[i], pred.data() + pred_off_[i + 1]};
   };
   /* The slots of a reduction are one instruction. */
   if (reductions_)
      for (size_t i = 0; i + 1 < n; i++)
         if ((caps_[i] & caps_[i + 1] & kCapReduction) &&
             cl_->nodes[ids_[i]].group == cl_->nodes[ids_[i + 1]].group)
            join(uint32_t(i), uint32_t(i + 1));
   /* Members of each unit in position order, flat: counted, then placed
    * (with nothing joined, each position is its own unit). */
   mem_off_.resize(n + 1);
   mem_.resize(n);
   if (!merged) {
      for (size_t i = 0; i < n; i++)
         mem_off_[i] = mem_[i] = uint32_t(i);
      mem_off_[n] = uint32_t(n);
   } else {
      std::fill(mem_off_.begin(), mem_off_.end(), 0u);
      for (size_t i = 0; i < n; i++) {
         unit_[i] = find(uint32_t(i));
         mem_off_[unit_[i] + 1]++;
      }
      for (size_t u = 0; u < n; u++)
         mem_off_[u + 1] += mem_off_[u];
      fill_.assign(mem_off_.begin(), mem_off_.end() - 1);
      for (size_t i = 0; i < n; i++)
         mem_[fill_[unit_[i]]++] = uint32_t(i);
   }
   /* Critical path: groups from the unit to the end of the run, kept on
    * the unit's first node.  A unit's members share one source group, so
    * every successor of any member comes later and is already final.
    * The same walk counts each unit's successors and predecessors. */
   height_.assign(n, 0);
   npred_.assign(n, 0);
   earliest_.assign(n, 0);
   succ_off_.assign(n + 1, 0);
   for (size_t i = n; i-- > 0;) {
      const uint32_t u = unit_[i];
      for (const Edge &e : preds(i)) {
         const uint32_t pu = unit_[e.to];
         if (pu == u)
            continue;
         height_[pu] = std::max(height_[pu], height_[u] + (e.strong ? 1u : 0u));
         succ_off_[pu + 1]++;
         npred_[u]++;
      }
   }
   /* Successors of each unit, flat, in the order the predecessor lists
    * name them. */
   for (size_t u = 0; u < n; u++)
      succ_off_[u + 1] += succ_off_[u];
   succ_.resize(succ_off_[n]);
   fill_.assign(succ_off_.begin(), succ_off_.end() - 1);
   for (size_t i = 0; i < n; i++) {
      const uint32_t u = unit_[i];
      for (const Edge &e : preds(i)) {
         const uint32_t pu = unit_[e.to];
         if (pu != u)
            succ_[fill_[pu]++] = {u, e.strong};
      }
   }
}

void ValueScheduler::set_operands(uint32_t i)
{
   AluNode &nd = cl_->nodes[ids_[i]];
   for (unsigned s = 0; s < 3; s++) {
      const int d = v_.src_def[i][s];
      if (d < 0 || !v_.local[d])
         continue;
      Value &val = nd.src[s].value;
      if (group_of_[d] + 1 == cur_) {
         val = Value{};
         val.kind = ValueKind::Forward;
         val.node = int32_t(ids_[d]);
      } else {
         val = Value{};
         val.kind = ValueKind::Gpr;
         val.sel = uint16_t(reg_[d] / 4);
         val.chan = uint8_t(reg_[d] % 4);
      }
   }
}

bool ValueScheduler::try_unit(uint32_t u, GroupNode &g, unsigned &used, const unsigned demanded[4])
{
   /* A mask, not an array of flags: copied, tested and merged in a
    * register for every try. */
   unsigned try_used = used;
   auto taken = [&](unsigned slot) { return (try_used >> slot) & 1u; };
   const size_t old = g.nodes.size();
   for (uint32_t x : members(u)) {
      AluNode &nd = cl_->nodes[ids_[x]];
      const bool vec = caps_[x] & kCapVec;
      const bool trans = (caps_[x] & kCapTrans) && !taken(kSlotT);
      int slot = -1;
      if (caps_[x] & kCapReduction) {
         slot = nd.bc.slot < kSlotT && !taken(nd.bc.slot) ? int(nd.bc.slot) : -1;
         if (slot >= 0 && flexible(x)) {
            nd.bc.dst.write = false;
            nd.bc.dst.gpr = kUnassigned;
            nd.bc.dst.chan = uint8_t(slot);
         }
      } else if (flexible(x)) {
         /* Any free vector slot, the one other ready nodes want least. */
         if (vec)
            for (unsigned c = 0; c < 4; c++)
               if (!taken(c) && (slot < 0 || demanded[c] < demanded[slot]))
                  slot = int(c);
         /* Trans decodes by the destination channel: a vector-capable
          * op there needs that channel's vector slot taken. */
         if (slot < 0 && trans &&
             (!vec || (try_used & 0xfu)))
            slot = kSlotT;
         if (slot >= 0) {
            nd.bc.dst.write = false;
            nd.bc.dst.gpr = kUnassigned;
            nd.bc.dst.chan = uint8_t(slot == kSlotT ? 0 : slot);
         }
      } else {
         const unsigned chan = nd.bc.dst.chan & 3;
         if (vec && !taken(chan))
            slot = int(chan);
         else if (trans && (!vec || taken(chan)))
            slot = kSlotT;
      }
      if (slot < 0) {
         g.nodes.resize(old);
         g.slots.resize(old);
         return false;
      }
      set_operands(x);
      try_used |= 1u << slot;
      g.nodes.push_back(ids_[x]);
      g.slots.push_back(uint8_t(slot));
   }
   /* Every candidate is tested against the group's read-port, constant
    * and literal state, without building the group. */
   if (!fit_.try_add(*cl_, g.nodes, g.slots, old)) {
      g.nodes.resize(old);
      g.slots.resize(old);
      return false;
   }
   used = try_used;
   return true;
}

void ValueScheduler::note_reads(uint32_t i, unsigned g)
{
   const AluNode &nd = cl_->nodes[ids_[i]];
   unsigned seen[3];
   unsigned nseen = 0;
   for (unsigned s = 0; s < 3; s++) {
      const int d = v_.src_def[i][s];
      unsigned k;
      if (d == -1)
         k = key_of(nd.src[s].value.sel, nd.src[s].value.chan);
      else if (d >= 0 && v_.local[d] && reg_[d] < kPvOnly)
         k = reg_[d];
      else
         continue;
      if (std::find(seen, seen + nseen, k) != seen + nseen)
         continue;
      seen[nseen++] = k;
      pending_[k]--;
      last_read_[k] = std::max(last_read_[k], int(g));
   }
}

/* Registers for the locals defined in group gi, once the group after it is
 * known (a value all of whose readers sit there needs none: PV/PS).  The
 * group's hardware form gets each local's destination as it is given:
 * the only part of it that changes once the group is built. */
bool ValueScheduler::assign_group(size_t gi)
{
   const GroupNode &g = (*out_)[first_ + gi];
   AluGroup &hw = (*out_hw_)[first_ + gi];
   uint8_t at[kSlotT + 1]; /* hw's instruction in each slot (slot order) */
   bool have_at = false;
   auto set_dst = [&](size_t k, const AluDst &dst) {
      if (!have_at) {
         for (size_t j = 0; j < hw.instrs.size(); j++)
            at[hw.instrs[j].slot] = uint8_t(j);
         have_at = true;
      }
      hw.instrs[at[g.slots[k]]].dst = dst;
   };
   for (size_t k = 0; k < g.nodes.size(); k++) {
      const uint32_t i = pos_of_[g.nodes[k]];
      if (!flexible(i))
         continue;
      AluNode &nd = cl_->nodes[ids_[i]];
      bool pv_only = !alu_is_op3(nd.bc.op);
      unsigned unplaced = 0;
      int last = -1;
      for (uint32_t r : v_.readers[i]) {
         if (group_of_[r] == kNoReg) {
            unplaced++;
            pv_only = false;
         } else {
            last = std::max(last, int(group_of_[r]));
            if (group_of_[r] != gi + 1)
               pv_only = false;
         }
      }
      const uint8_t mask = chan_mask_[i];
      if (pv_only) {
         reg_[i] = kPvOnly;
         nd.bc.dst.write = false;
         nd.bc.dst.gpr = 0;
         for (unsigned c = 0; c < 4; c++)
            if (mask & (1u << c)) {
               nd.bc.dst.chan = uint8_t(c);
               break;
            }
         set_dst(k, nd.bc.dst);
         continue;
      }
      unsigned best = kNoReg;
      auto scan = [&](unsigned first, unsigned last_reg) {
         for (unsigned r = first; r <= last_reg && best == kNoReg; r++)
            for (unsigned c = 0; c < 4 && best == kNoReg; c++)
               if ((mask & (1u << c)) && writable(r * 4 + c, unsigned(gi)))
                  best = r * 4 + c;
      };
      if (chip_ != ChipClass::R600)
         scan(kSrcClauseTempFirst, kSrcGPRLast);
      scan(0, kGprAllocLast);
      if (best == kNoReg)
         return false;
      reg_[i] = best;
      dirty_.push_back(uint16_t(best));
      pending_[best] = int(unplaced);
      last_read_[best] = std::max(last_read_[best], last);
      last_write_[best] = int(gi);
      /* The node and its readers get the register now, not in a walk over
       * the run at its end: the readers in the next group were tried with
       * PV/PS and are the only ones placed; later ones read the register
       * when they are tried (set_operands), and nothing looks at group
       * gi's destinations again before build_scheduled. */
      nd.bc.dst.write = true;
      nd.bc.dst.gpr = uint8_t(best / 4);
      nd.bc.dst.chan = uint8_t(best % 4);
      set_dst(k, nd.bc.dst);
      for (uint32_t r : v_.readers[i]) {
         if (group_of_[r] != gi + 1)
            continue;
         AluNode &rn = cl_->nodes[ids_[r]];
         for (unsigned s = 0; s < 3; s++)
            if (v_.src_def[r][s] == int(i)) {
               Value &val = rn.src[s].value;
               val = Value{};
               val.kind = ValueKind::Gpr;
               val.sel = uint16_t(best / 4);
               val.chan = uint8_t(best % 4);
            }
      }
   }
   return true;
}

void ValueScheduler::placed(uint32_t u, std::vector<uint32_t> &now)
{
   for (size_t k = succ_off_[u]; k < succ_off_[u + 1]; k++) {
      const Edge &e = succ_[k];
      earliest_[e.to] = std::max(earliest_[e.to], e.strong ? cur_ + 1 : cur_);
      if (--npred_[e.to] == 0)
         now.push_back(e.to);
   }
}

bool ValueScheduler::schedule()
{
   const size_t n = ids_.size();
   /* Only the run's own nodes are ever looked up: no clearing per run. */
   if (pos_of_.size() < cl_->nodes.size())
      pos_of_.resize(cl_->nodes.size());
   caps_.resize(n);
   flex_.resize(n);
   unsigned any_caps = 0;
   for (size_t i = 0; i < n; i++) {
      pos_of_[ids_[i]] = uint32_t(i);
      const AluNode &nd = cl_->nodes[ids_[i]];
      const unsigned slots = alu_slots(chip_, nd.bc.op);
      caps_[i] = uint8_t(((slots & kSlotV) && !alu_is_trans_only(chip_, nd.bc.op) ? kCapVec : 0) |
                         ((slots & kSlotS) && chip_ != ChipClass::Cayman ? kCapTrans : 0) |
                         (slots & kSlot4 ? kCapReduction : 0));
      any_caps |= caps_[i];
      flex_[i] = v_.def_key[i] >= 0 && v_.local[i];
   }
   reductions_ = any_caps & kCapReduction;
   build_deps();
   group_of_.assign(n, kNoReg);
   chan_mask_.assign(n, 0);
   reg_.assign(n, kNoReg);

   /* Critical path first; among equals, units reading a result of the
    * group just placed (PV/PS: no read port, and the value may need no
    * register at all), then program order: rank_, so that the sort
    * compares one number. */
   rank_.resize(n);
   auto prio = [&](uint32_t a, uint32_t b) { return rank_[a] < rank_[b]; };
   std::vector<uint32_t> &ready = ready_, &later = later_, &now = now_;
   ready.clear();
   later.clear();
   /* The destination channels the ready units' fixed-channel nodes
    * want, kept as units become ready and are placed instead of counted
    * over the ready list for every group. */
   /* Counts per channel, 16 bits each (a run has fewer nodes than
    * that); a unit's own demand is worked out once.  One walk: a unit's
    * root is its first member, so it is listed as ready when met, and a
    * node of a unit ready from the start adds its channel at once. */
   uint64_t ready_demand = 0;
   std::vector<uint64_t> &unit_demand = unit_demand_;
   unit_demand.assign(n, 0);
   for (size_t i = 0; i < n; i++) {
      rank_[i] = uint64_t(~height_[i]) << 32 | kNotReadingPrev | i;
      const uint32_t u = unit_[i];
      if (u == i && npred_[i] == 0)
         ready.push_back(uint32_t(i));
      if (!flexible(uint32_t(i))) {
         const uint64_t want = uint64_t(1) << (16 * (cl_->nodes[ids_[i]].bc.dst.chan & 3));
         unit_demand[u] += want;
         if (npred_[u] == 0)
            ready_demand += want;
      }
   }
   auto demand = [&](uint32_t u, int d) {
      if (d > 0)
         ready_demand += unit_demand[u];
      else
         ready_demand -= unit_demand[u];
   };
   placed_now_.clear();
   placed_prev_.clear();
   marked_.clear();
   size_t remaining = n;
   while (remaining) {
      cur_ = unsigned(out_->size() - first_);
      /* A unit reads a result of the previous group exactly when one of
       * that group's units has a true-dependence edge to it: mark those
       * successors instead of scanning every ready unit's operands. */
      for (uint32_t u : marked_)
         rank_[u] |= kNotReadingPrev;
      marked_.clear();
      for (uint32_t pu : placed_prev_)
         for (size_t k = succ_off_[pu]; k < succ_off_[pu + 1]; k++)
            if (succ_[k].strong && (rank_[succ_[k].to] & kNotReadingPrev)) {
               rank_[succ_[k].to] &= ~kNotReadingPrev;
               marked_.push_back(succ_[k].to);
            }
      std::sort(ready.begin(), ready.end(), prio);
      unsigned demanded[4];
      for (unsigned c = 0; c < 4; c++)
         demanded[c] = unsigned(ready_demand >> (16 * c)) & 0xffffu;
      /* Filled in place (a group is a few hundred bytes, most of them
       * the unused `original`); the previous group is then the one before. */
      GroupNode &g = out_->emplace_back();
      unsigned used = 0;
      size_t tries = 0;
      const AluGroup *prev_hw = cur_ == 0 ? prev_hw_ : &out_hw_->back();
      const GroupNode *prev_nodes = cur_ == 0 ? prev_fixed_nodes_ : &g - 1;
      fit_.start(chip_, prev_hw, prev_nodes);
      for (size_t k = 0; k < ready.size() && tries < kMaxTries; k++) {
         const uint32_t u = ready[k];
         if (group_of_[u] != kNoReg || earliest_[u] > cur_)
            continue;
         tries++;
         if (!try_unit(u, g, used, demanded))
            continue;
         /* Every slot taken: each unit left needs one, so every further
          * try would fail (and none may change the group). */
         const bool full = (used | (chip_ == ChipClass::Cayman ? 1u << kSlotT : 0u)) == 0x1fu;
         const Span<uint32_t> mem = members(u);
         for (uint32_t x : mem)
            group_of_[x] = cur_;
         remaining -= mem.size();
         demand(u, -1);
         placed_now_.push_back(u);
         now.clear();
         placed(u, now);
         for (uint32_t s : now) {
            demand(s, 1);
            if (earliest_[s] <= cur_)
               ready.push_back(s); /* weak only: may join this group */
            else
               later.push_back(s);
         }
         if (full)
            break;
      }
      if (g.nodes.empty())
         return false;
      /* Channels: vector slots fix them; a vector-capable op in trans
       * takes one whose vector slot is used (the decoder needs that). */
      const uint8_t used_mask = uint8_t(used & 0xfu);
      for (size_t k = 0; k < g.nodes.size(); k++) {
         const uint32_t i = pos_of_[g.nodes[k]];
         note_reads(i, cur_);
         if (!flexible(i))
            continue;
         if (g.slots[k] != kSlotT)
            chan_mask_[i] = uint8_t(1u << g.slots[k]);
         else if (!(caps_[i] & kCapVec))
            chan_mask_[i] = 0xf;
         else
            chan_mask_[i] = used_mask;
      }
      /* The group in hardware form, from what fit_ kept: the builder
       * takes it once the locals have their registers (no operand changes
       * selector then, see build_scheduled), and the next group reads
       * this one's results through PV/PS from it.  Where fit_ cannot
       * build it, the next group only needs each instruction's op,
       * destination and slot, in slot order. */
      AluGroup &hw = out_hw_->emplace_back();
      const bool ok = fit_.finish(*cl_, g.nodes, hw);
      hw_ok_.push_back(ok);
      if (!ok) {
         std::pair<uint8_t, uint32_t> order[5]; /* one node per slot (used) */
         const size_t ng = g.nodes.size();
         for (size_t k = 0; k < ng; k++)
            order[k] = {g.slots[k], g.nodes[k]};
         std::sort(order, order + ng);
         hw.instrs.clear();
         hw.literals.clear();
         for (size_t k = 0; k < ng; k++) {
            hw.instrs.push_back(cl_->nodes[order[k].second].bc);
            hw.instrs.back().slot = order[k].first;
         }
      }
      std::swap(placed_prev_, placed_now_);
      placed_now_.clear();
      if (cur_ > 0 && !assign_group(cur_ - 1))
         return false;
      /* The units still unplaced stay, in place, then those ready later. */
      size_t kept = 0;
      for (uint32_t u : ready)
         if (group_of_[u] == kNoReg)
            ready[kept++] = u;
      /* erase, not resize: only shrinks, so it inlines (resize's growing
       * path kept it a call per group). */
      ready.erase(ready.begin() + std::ptrdiff_t(kept), ready.end());
      ready.insert(ready.end(), later.begin(), later.end());
      later.clear();
   }
   if (!assign_group(cur_))
      return false;

   for (size_t k = 0; k < hw_ok_.size(); k++)
      if (!hw_ok_[k])
         (*out_hw_)[first_ + k] = AluGroup{};
   return true;
}

/* Live register channels after each group of a clause from group `first`
 * on: the runs only ask after their last groups, so the walk back from the
 * end stops at the first run's (a clause that is one run needs no walk). */
void live_after_groups(ChipClass chip, const AluClause &cl, LiveSet live, size_t first,
                       std::vector<LiveSet> &after)
{
   /* Clause temporaries (not on R600) do not outlive the clause. */
   static const LiveSet kNoTemps = [] {
      LiveSet m;
      m.set();
      for (unsigned k = kSrcClauseTempFirst * 4; k < 512; k++)
         m.reset(k);
      return m;
   }();
   if (chip != ChipClass::R600)
      live &= kNoTemps;
   /* Only entries from `first` on are written and read: the list only
    * grows, so that a shorter clause does not clear it. */
   if (after.size() < cl.groups.size())
      after.resize(cl.groups.size());
   for (size_t gi = cl.groups.size(); gi-- > first;) {
      after[gi] = live;
      if (gi == first)
         break;
      for (uint32_t id : cl.groups[gi].nodes)
         if (plain_write(cl.nodes[id]))
            live.reset(key_of(cl.nodes[id].bc.dst.gpr, cl.nodes[id].bc.dst.chan));
      for (uint32_t id : cl.groups[gi].nodes) {
         const AluNode &nd = cl.nodes[id];
         const unsigned nsrc = alu_op_info(nd.bc.op).num_src;
         for (unsigned s = 0; s < nsrc; s++) {
            if (nd.src[s].rel)
               live.set();
            else if (gpr_read(nd.src[s]))
               live.set(key_of(nd.src[s].value.sel, nd.src[s].value.chan));
         }
      }
   }
}

/* The part of plain_node that depends only on the op and chip: a bit for
 * an ordinary node, another for one slot of a reduction.  Read from the
 * op table itself (alu_op_info() and alu_slots() are not constexpr), so
 * that the table of it below is made at compile time. */
constexpr uint8_t kPlainOp = 1, kPlainReductionSlot = 2;
constexpr uint8_t plain_op(ChipClass chip, AluOp op)
{
   const AluOpInfo &info = kAluOpInfo[unsigned(op)];
   const uint32_t special = AF_PRED | AF_PRED_PUSH | AF_KILL | AF_MOVA | AF_INTERP |
                            AF_PREV_NEXT | AF_PREV_INTERLEAVE | AF_F64;
   const unsigned slots = info.slots[chip_index(chip)];
   if ((info.flags & special) || !slots || (slots & (kSlotXY | kSlotZW)))
      return 0;
   const std::string_view name = info.name;
   if (name.starts_with("LDS") || name.starts_with("GDS") || name.starts_with("SET_CF_IDX") ||
       op == AluOp::ALU_NOP)
      return 0;
   if (slots & kSlot4)
      return kPlainReductionSlot;
   return slots & (kSlotV | kSlotS) ? kPlainOp : 0;
}

/* plain_op by chip and op: asked for every node of every fixed group
 * liftable_groups looks at (working it out per node was most of the
 * test). */
constexpr auto kPlainOps = [] {
   std::array<std::array<uint8_t, kNumAluOps>, kNumChipClasses> t{};
   for (unsigned i = 0; i < kNumChipClasses * kNumAluOps; i++) {
      const unsigned c = i / kNumAluOps, o = i % kNumAluOps;
      t[c][o] = plain_op(ChipClass(c), AluOp(o));
   }
   return t;
}();

/* A node the parser could have left movable, or one slot of a reduction. */
bool plain_node(ChipClass chip, const AluNode &nd, bool reduction)
{
   const AluInstr &in = nd.bc;
   if (!(kPlainOps[chip_index(chip)][unsigned(in.op)] &
         (reduction ? kPlainReductionSlot : kPlainOp)))
      return false;
   if (alu_has_control_fields(in) || in.dst.rel)
      return false;
   const unsigned nsrc = alu_op_info(in.op).num_src;
   for (unsigned s = 0; s < nsrc; s++)
      if (nd.src[s].rel || nd.src[s].value.kind == ValueKind::Forward ||
          nd.src[s].value.kind == ValueKind::Special)
         return false;
   return true;
}

/* Fixed groups the value scheduler can place itself: four-slot reductions
 * (DOT4 and the like, the slots staying as they are, trans free for
 * anything) and plain groups that were only kept because a reduction after
 * them read their PV/PS.  A group stays verbatim when the next group stays
 * verbatim and reads PV/PS, since its encoding points into this layout.
 * Into `lift`, by group; `forwarded` is scratch (both the caller's, kept
 * from clause to clause). */
void liftable_groups(ChipClass chip, const AluClause &cl, std::vector<uint8_t> &lift,
                     std::vector<uint8_t> &forwarded)
{
   const size_t ng = cl.groups.size();
   lift.assign(ng, 0);
   if (chip == ChipClass::Cayman)
      return; /* replicated transcendentals share the kSlot4 flag */
   bool have_forwarded = false; /* made for the first candidate group only */
   for (size_t gi = ng; gi-- > 0;) {
      const GroupNode &g = cl.groups[gi];
      if (!g.fixed || g.original.instrs.size() != g.nodes.size())
         continue;
      if (!have_forwarded) {
         /* Only nodes of fixed groups read a value that lives only in
          * PV/PS: the parser fixes the group of every such reader, the
          * passes before neither change a fixed group's operands nor make
          * one of that kind, and the nodes in no group (dce's, folded
          * copies) come from other groups. */
         forwarded.assign(cl.nodes.size(), 0);
         for (const GroupNode &fg : cl.groups)
            if (fg.fixed)
               for (uint32_t id : fg.nodes)
                  for (const Operand &o : cl.nodes[id].src)
                     if (o.value.kind == ValueKind::Forward && o.value.node >= 0 &&
                         size_t(o.value.node) < forwarded.size())
                        forwarded[size_t(o.value.node)] = 1;
         have_forwarded = true;
      }
      if (gi + 1 < ng && cl.groups[gi + 1].fixed && !lift[gi + 1]) {
         bool reads_pv = false;
         for (const AluInstr &in : cl.groups[gi + 1].original.instrs)
            for (unsigned s = 0; s < alu_op_info(in.op).num_src; s++)
               reads_pv |= in.src[s].sel == kSrc_PV || in.src[s].sel == kSrc_PS;
         if (reads_pv)
            continue;
      }
      unsigned red_slots = 0;
      int red_op = -1;
      bool ok = true;
      for (size_t k = 0; k < g.nodes.size() && ok; k++) {
         const AluNode &nd = cl.nodes[g.nodes[k]];
         const unsigned slot = g.original.instrs[k].slot;
         if (forwarded[nd.id] || nd.dead)
            ok = false;
         else if (slot < kSlotT && alu_is_reduction(chip, nd.bc.op)) {
            ok = plain_node(chip, nd, true) && (red_op < 0 || red_op == int(nd.bc.op)) &&
                 nd.bc.slot == slot && nd.bc.dst.chan == slot;
            red_op = int(nd.bc.op);
            red_slots |= 1u << slot;
         } else {
            ok = plain_node(chip, nd, false);
         }
      }
      lift[gi] = ok && (red_op < 0 || red_slots == 0xf);
   }
}

/* What the value schedule of every run of every clause reuses. */
struct Scratch {
   ValueScheduler sched;
   ValueInfo v, w;
   CachedVector<AluNode> saved; /* post_scheduler's copy of a clause's nodes */
   std::vector<LiveSet> after; /* schedule_clause_values' */
   std::vector<uint32_t> run;
   std::vector<uint8_t> lifted, forwarded; /* liftable_groups' */
   /* schedule_clause_values' new groups; it trades storage with the
    * clause's list, so it holds the groups of the clause before. */
   CachedVector<GroupNode> out;
   KeyTable keys; /* analyze's and fold_copies' */
};

/* The clause's groups in hardware form, into `hw`, which holds the fixed
 * ones already and the scheduler's build of the others (empty where it
 * has none): what build_clause would make.  The scheduler built each group
 * with the operands it was tried with, and the registers given to locals
 * afterwards change no operand's selector: a local read from the group
 * just before was PV/PS and stays so (by its register, if it got one),
 * one read from further back already had its register, and no register a
 * group reads is given to a local of the group before it (its last read
 * is later).  Only the locals' destinations are new, and the scheduler
 * put them in as it gave them (assign_group).  dwords: the clause's size
 * (alu_clause_dwords; a built group's literals are exactly those its
 * operands use, so they need no counting). */
bool build_scheduled(ChipClass chip, const AluClause &cl, std::vector<AluGroup> &hw,
                     unsigned &dwords)
{
   dwords = 0;
   for (size_t i = 0; i < cl.groups.size(); i++) {
      const GroupNode &gn = cl.groups[i];
      AluGroup &g = hw[i];
      if (gn.fixed) {
         dwords += alu_group_dwords(g);
         continue;
      }
      if (g.instrs.empty() &&
          !materialize_group_into(chip, cl, gn.nodes, gn.slots, i ? &hw[i - 1] : nullptr,
                                  i ? &cl.groups[i - 1] : nullptr, g))
         return false;
      dwords += 2 * unsigned(g.instrs.size()) + ((unsigned(g.literals.size()) + 1) & ~1u);
   }
   return true;
}

/* The whole clause on values; false leaves the groups as they were and
 * the nodes to be restored. */
bool schedule_clause_values(ChipClass chip, AluClause &cl, const LiveSet &live_out, bool lift,
                            Scratch &sc)
{
   std::vector<LiveSet> &after = sc.after; /* filled once the runs are known */
   for (AluNode &nd : cl.nodes) {
      nd.has_pre = true;
      nd.pre_dst = nd.bc.dst;
      nd.pre_src = nd.src;
   }
   CachedVector<GroupNode> &out = sc.out;
   out.clear();
   out.reserve(cl.groups.size()); /* scheduling rarely needs more groups */
   std::vector<AluGroup> hw;      /* out in hardware form */
   hw.reserve(cl.groups.size());
   std::vector<uint32_t> &run = sc.run;
   run.clear();
   const GroupNode *prev_fixed = nullptr;
   size_t run_end = 0;
   auto flush = [&]() {
      if (run.empty())
         return true;
      ValueInfo &v = sc.v;
      if (!analyze(cl, run, after[run_end], v, sc.keys))
         return false;
      fold_copies(chip, cl, run, v, sc.w, sc.keys);
      const bool ok = sc.sched.run(chip, cl, run, v, after[run_end],
                                   prev_fixed ? &prev_fixed->original : nullptr, prev_fixed, out,
                                   hw);
      run.clear();
      return ok;
   };
   /* cl.groups stays as it was until the end: read it in place. */
   const CachedVector<GroupNode> &source = cl.groups;
   std::vector<uint8_t> &lifted = sc.lifted;
   if (lift)
      liftable_groups(chip, cl, lifted, sc.forwarded);
   else
      lifted.assign(source.size(), 0);
   /* A run ends at a group that is not a barrier and is followed by one
    * or by the end: the first such group is the first run's end. */
   auto barrier = [&](size_t gi) { return source[gi].fixed && !lifted[gi]; };
   size_t first_end = 0;
   while (first_end < source.size() &&
          (barrier(first_end) || (first_end + 1 < source.size() && !barrier(first_end + 1))))
      first_end++;
   live_after_groups(chip, cl, live_out, first_end, after);
   for (size_t gi = 0; gi < source.size(); gi++) {
      const GroupNode &g = source[gi];
      if (g.fixed && !lifted[gi]) {
         if (!flush())
            return false;
         out.push_back(g);
         hw.push_back(g.original);
         prev_fixed = &source[gi];
         continue;
      }
      run.insert(run.end(), g.nodes.begin(), g.nodes.end());
      run_end = gi;
   }
   if (!flush())
      return false;
   /* On failure the source groups go back: the caller then only has to
    * restore the nodes. */
   std::swap(cl.groups, out);
   unsigned dwords;
   if (!build_scheduled(chip, cl, hw, dwords) || dwords > 256) {
      std::swap(cl.groups, out);
      return false;
   }
   cl.built = std::move(hw);
   return true;
}

/* A failed schedule changed only destinations, operands and folds, and
 * schedule_clause_values recorded the first two of every node (pre_*)
 * before changing anything: the nodes go back from there, instead of
 * from a copy of the clause made just in case (most schedules succeed).
 * Nodes that already had pre_* or a fold on entry are copied as before. */
bool fresh_nodes(const AluClause &cl)
{
   for (const AluNode &nd : cl.nodes)
      if (nd.has_pre || nd.folded_into >= 0)
         return false;
   return true;
}

void restore_fresh(AluClause &cl)
{
   for (AluNode &nd : cl.nodes) {
      nd.bc.dst = nd.pre_dst;
      nd.src = nd.pre_src;
      if (nd.folded_into >= 0) {
         nd.dead = false; /* folded MOVs were live: they sat in a run */
         nd.folded_into = -1;
      }
      nd.has_pre = false;
      nd.pre_dst = AluDst{};
      nd.pre_src = {};
   }
}

} // namespace

bool post_scheduler(Shader &sh, Diagnostics &diags, const std::vector<LiveSet> *given)
{
   std::vector<LiveSet> computed;
   if (!given)
      computed = live_out_or_all(sh);
   const std::vector<LiveSet> &live_out = given ? *given : computed;
   /* Most shaders are small, and allocating the scheduler's lists was a
    * good part of their time: they live on with the thread, holding the
    * storage the biggest clause so far needed. */
   Scratch &sc = thread_kept<Scratch>();
   CachedVector<AluNode> &saved = sc.saved;
   for (size_t ci = 0; ci < sh.cf.size(); ci++) {
      CfNode &c = sh.cf[ci];
      if (!c.is_alu)
         continue;
      c.alu.built.clear();
      /* A reduction's operands keep their channels: the registers given
       * to locals it reads can leave no bank swizzle for it.  Then the
       * clause goes again with reductions verbatim (their operands then
       * keep their registers), and last in register order. */
      const bool fresh = fresh_nodes(c.alu);
      if (!fresh)
         saved = c.alu.nodes;
      auto restore = [&]() {
         if (fresh)
            restore_fresh(c.alu);
         else
            c.alu.nodes = saved;
      };
      if (schedule_clause_values(sh.chip, c.alu, live_out[ci], true, sc))
         continue;
      restore();
      if (schedule_clause_values(sh.chip, c.alu, live_out[ci], false, sc))
         continue;
      restore();
      if (!schedule_clause_registers(sh.chip, c.alu, diags))
         return false;
   }
   return true;
}

} // namespace sbcc::r600::sb
