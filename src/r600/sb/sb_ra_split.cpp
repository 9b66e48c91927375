/*
 * ra_split: copies that make every register constraint satisfiable, then
 * the constraint tables and the interference graph of RaContext.
 *
 * Like classic sb, every phi source, every psi old value and every fetch /
 * export operand becomes a fresh copy, so the constrained value lives only
 * between the copy and its constrained use and can always be coloured;
 * ra_coalesce then merges copies back where the graph allows, and a copy
 * that lands on its source's register is a no-op finalize drops.
 */
#include <algorithm>
#include <array>
#include <span>
#include <tuple>
#include <variant>

#include "common/thread_memory.h"
#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

using Ref = std::pair<int, unsigned>; /* (var, version) before renumbering */

Ref ref(const Value &v) { return {v.var, v.version}; }

/* Bit patterns of the two constants export swizzles and TEX source selects
 * can name without a register (SEL_0 / SEL_1). */
constexpr uint32_t kBits0 = 0, kBits1 = 0x3f800000;

/* The splitter's lists, kept with the thread from shader to shader for
 * their storage (each grew push by push: some fifteen allocations per
 * shader), lent to each Splitter. */
struct SplitterTables {
   /* Plain MOVs of 0.0 or 1.0 (clause, group, instruction): see
    * Splitter::const_def. */
   struct ConstMov {
      Node *parent, *cf, *group, *alu;
   };
   std::vector<ConstMov> const_movs;
   /* Values a plain MOV of 0.0 or 1.0 defines, with the constant's bits,
    * in the order found (seq), then sorted by value for drop_register's
    * look-ups (Splitter::sort_const_defs): a std::map took an allocation
    * per MOV, and every look-up comes after the last one is found. */
   struct ConstDef {
      Ref value;
      uint32_t seq, bits;
   };
   std::vector<ConstDef> const_defs;
   /* GPRs the hardware may have filled before the program starts: their
    * entry values are real inputs.  Empty: treat every register so
    * (preloaded_gprs). */
   std::vector<bool> preloaded;
   /* Values that need one register channel: a phi or loop_phi's, or a
    * psi's three.  A loop_phi's source 0 is replaced by its copy only
    * after the region itself was processed (the copy goes before the
    * region, in its parent), so phi entries are read from the nodes once
    * the whole tree is done; reading them earlier kept the uncopied
    * source, which may be live past the loop and then cannot share the
    * phi's register. */
   struct Forced {
      const Node *phi; /* null: a psi, of `psi` */
      std::array<Ref, 3> psi;
   };
   std::vector<Forced> forced;
   /* Vector operands, one after another: operand i is
    * vec_refs[vec_end[i - 1], vec_end[i]) (one list for all, not one
    * allocation per fetch and export). */
   std::vector<Ref> vec_refs;
   std::vector<uint32_t> vec_end;
   std::vector<std::pair<Ref, std::pair<unsigned, unsigned>>> pre; /* value -> gpr, chan */
   std::vector<std::pair<Ref, Ref>> psi_pairs;
   std::vector<Ref> fetch_dsts; /* results of fetches outside arrays */
   /* Scratch of the copies of one vector operand. */
   std::vector<Ref> copy_done_, copy_refs_;
   std::vector<size_t> copy_at_;
   /* Scratch of fetch_clause_copies and export_copies, which run for
    * every fetch clause and export: the copy groups (a clause takes them
    * in one allocation of the right size), the results defined so far and
    * one fetch's results. */
   std::vector<Node *> groups_;
   std::vector<Ref> defined_, dsts_;
};

struct Splitter : SplitterTables {
   ThreadLend<SplitterTables> lend{*this};
   RegionShader &sh;
   Diagnostics &diags;
   bool ok = true;
   unsigned copies = 0;
   unsigned undef_operands = 0, const_operands = 0;

   /* What is lent comes emptied: the scratch lists are emptied where they
    * are used, these are only appended to. */
   Splitter(RegionShader &s, Diagnostics &d) : sh(s), diags(d)
   {
      const_movs.clear();
      const_defs.clear();
      forced.clear();
      vec_refs.clear();
      fetch_dsts.clear();
      vec_end.clear();
      pre.clear();
      psi_pairs.clear();
   }
   Splitter(const Splitter &) = delete;
   Splitter &operator=(const Splitter &) = delete;

   /* up: the node whose children hold n; parent: the one holding cf. */
   void find_consts(Node *n, Node *up = nullptr, Node *parent = nullptr, Node *cf = nullptr,
                    Node *group = nullptr)
   {
      if (n->kind == NodeKind::Cf) {
         cf = n;
         parent = up;
      }
      if (n->kind == NodeKind::AluGroup)
         group = n;
      if (n->kind == NodeKind::Alu) {
         note_const_mov(n, parent, cf, group);
         return;
      }
      /* A group's instructions are looked at here, not with a call each:
       * they are most of the tree. */
      for (Node *c : n->children)
         if (c->kind == NodeKind::Alu)
            note_const_mov(c, parent, cf, group);
         else
            find_consts(c, n, parent, cf, group);
   }

   /* Records n when it is a plain MOV of 0.0 or 1.0 (see const_defs). */
   void note_const_mov(Node *n, Node *parent, Node *cf, Node *group)
   {
      const AluInstr *in = n->alu;
      if (!in || in->op != AluOp::MOV || in->dst.clamp || in->dst.omod || in->pred_sel ||
          n->src.size() != 1 || n->dst.size() != 1 || n->dst[0].kind != ValueKind::Var)
         return;
      const Value &s = n->src[0];
      if (s.neg || s.abs)
         return;
      uint32_t bits;
      if (s.kind == ValueKind::Inline && s.literal == kSrc_0)
         bits = kBits0;
      else if (s.kind == ValueKind::Inline && s.literal == kSrc_1)
         bits = kBits1;
      else if (s.kind == ValueKind::Literal && (s.literal == kBits0 || s.literal == kBits1))
         bits = s.literal;
      else
         return;
      const_defs.push_back({ref(n->dst[0]), uint32_t(const_defs.size()), bits});
      if (cf && group && !in_rel_array(sh, n->dst[0].var))
         const_movs.push_back({parent, cf, group, n});
   }

   /* const_defs by value, a value's definitions in the order found (the
    * last one counts, as it did in a map written in that order). */
   void sort_const_defs()
   {
      std::sort(const_defs.begin(), const_defs.end(), [](const ConstDef &a, const ConstDef &b) {
         return std::tie(a.value, a.seq) < std::tie(b.value, b.seq);
      });
   }

   /* The MOVs of 0.0/1.0 nothing reads any more (they fed only exports and
    * TEX coordinates) go, so they hold no register.  As in dce_cleanup, a
    * group left empty goes, and so does a synthetic clause; a bytecode
    * clause stays (its op may matter to the control flow).  `gone` gets
    * the values the dropped MOVs defined; `regrouped` is set when a group
    * that kept results stopped being fixed (alu_group_fixed) without
    * them. */
   bool drop_dead_const_movs(const std::vector<uint32_t> &uses, std::vector<unsigned> &gone,
                             bool &regrouped)
   {
      bool dropped = false;
      auto erase = [](NodeList &v, const Node *n) {
         auto it = std::find(v.begin(), v.end(), n);
         if (it == v.end())
            return false;
         v.erase(it);
         return true;
      };
      for (const ConstMov &m : const_movs) {
         const unsigned id = sh.value_id(m.alu->dst[0]);
         if (uses[id])
            continue;
         const bool was_fixed = alu_group_fixed(sh, m.group);
         if (!erase(m.group->children, m.alu))
            continue;
         dropped = true;
         gone.push_back(id);
         if (was_fixed && !m.group->children.empty() && !alu_group_fixed(sh, m.group))
            regrouped = true;
         if (m.group->children.empty() && erase(m.cf->children, m.group) &&
             m.cf->children.empty() && !m.cf->cf && m.parent)
            erase(m.parent->children, m.cf);
      }
      return dropped;
   }

   /* A register operand no register is needed for: a channel nothing wrote
    * (the entry value of a GPR the hardware does not load; it is 0 in the
    * emulator, undefined on hardware) becomes ValueKind::None, a copy of
    * 0.0 or 1.0 a Literal with those bits; bc_finalize turns them into
    * SEL_MASK / SEL_0 / SEL_1.  Returns whether v was replaced. */
   bool drop_register(Value &v)
   {
      if (v.kind != ValueKind::Var || v.neg || v.abs || v.rel() || in_rel_array(sh, v.var))
         return false;
      const Var &var = sh.vars[v.var];
      if (v.version == 0 && var.kind == VarKind::Gpr && var.index < preloaded.size() &&
          !preloaded[var.index]) {
         v = Value{};
         undef_operands++;
         return true;
      }
      const Ref key = ref(v);
      const auto it = std::upper_bound(
         const_defs.begin(), const_defs.end(), key,
         [](const Ref &k, const ConstDef &d) { return k < d.value; });
      if (it == const_defs.begin() || std::prev(it)->value != key)
         return false;
      Value c;
      c.kind = ValueKind::Literal;
      c.literal = std::prev(it)->bits;
      v = c;
      const_operands++;
      return true;
   }

   void add_vec(const std::vector<Ref> &refs)
   {
      vec_refs.insert(vec_refs.end(), refs.begin(), refs.end());
      vec_end.push_back(uint32_t(vec_refs.size()));
   }
   bool fail(unsigned cf, const std::string &msg)
   {
      if (ok)
         diags.error("ra", SourceLoc{cf + 1, 0}, "ra_split: " + msg);
      ok = false;
      return false;
   }

   bool alloc(const Value &v) const { return ra_value_allocatable(sh, v); }

   /* t = MOV s, one per group (so running the groups in order is the parallel copy). */
   Node *copy_group(const Value &s, Value &t)
   {
      t = sh.new_temp();
      AluInstr *in = sh.new_alu(AluOp::MOV);
      in->dst.write = true;
      Node *a = sh.create(NodeKind::Alu);
      a->alu = in;
      Value src = s;
      src.neg = src.abs = false;
      a->src.push_back(std::move(src));
      a->dst.push_back(t);
      Node *g = sh.create(NodeKind::AluGroup);
      g->children.push_back(a);
      copies++;
      return g;
   }

   Node *clause(NodeList groups, unsigned cf_index)
   {
      Node *c = sh.create(NodeKind::Cf);
      c->cf_index = cf_index;
      c->children = std::move(groups);
      return c;
   }

   Value undef()
   {
      /* The source of a path that never reaches the phi: nothing defines it. */
      return sh.new_temp();
   }

   static bool falls_through(const Node *n)
   {
      for (const Node *c : n->children) {
         if (c->kind == NodeKind::Depart || c->kind == NodeKind::Repeat)
            return false;
         if (c->kind == NodeKind::Region && c->region().departs.empty())
            return false;
      }
      return true;
   }

   /* Copies of the sources of the phis a depart/repeat feeds, at its end. */
   void jump_copies(Node *n)
   {
      bool dep = n->kind == NodeKind::Depart;
      auto &phis = dep ? n->target->region().phi : n->target->region().loop_phi;
      unsigned idx = dep ? n->dep_index : n->dep_index + 1;
      bool reach = falls_through(n);
      NodeList groups;
      for (Node *p : phis) {
         if (!alloc(p->dst[0]) || idx >= p->src.size())
            continue;
         if (!reach) {
            p->src[idx] = undef();
            continue;
         }
         Value t;
         groups.push_back(copy_group(p->src[idx], t));
         p->src[idx] = std::move(t);
      }
      if (!groups.empty())
         n->children.push_back(clause(std::move(groups), n->cf_index));
   }

   /* Copies of loop_phi source 0, to go just before the loop region. */
   Node *loop_entry_copies(Node *r)
   {
      NodeList groups;
      for (Node *p : r->region().loop_phi) {
         if (!alloc(p->dst[0]) || p->src.empty())
            continue;
         Value t;
         groups.push_back(copy_group(p->src[0], t));
         p->src[0] = std::move(t);
      }
      return groups.empty() ? nullptr : clause(std::move(groups), r->cf_index);
   }

   /* Each distinct register operand of vals[first, first + count) is
    * copied (one group each into `groups`) and replaced by its copy; the
    * copies, in operand order, go into `out` (cleared first).  The copies
    * are kept as refs and read back from the operand they replaced: a Value
    * is large, and this runs for every fetch and export. */
   void copy_operands(ValueList &vals, size_t first, size_t count,
                      std::vector<Node *> &groups, std::vector<Ref> &out)
   {
      /* At most four operands: the copies so far are the lookup table. */
      std::vector<Ref> &done = copy_done_;
      std::vector<size_t> &at = copy_at_; /* operand now holding copy d */
      done.clear();
      at.clear();
      out.clear();
      for (size_t k = first; k < first + count && k < vals.size(); k++) {
         Value &v = vals[k];
         if (!alloc(v))
            continue;
         size_t d = size_t(std::find(done.begin(), done.end(), ref(v)) - done.begin());
         if (d == done.size()) {
            Value t;
            groups.push_back(copy_group(v, t));
            done.push_back(ref(v));
            out.push_back(ref(t));
            at.push_back(k);
            v = std::move(t);
         } else {
            v = vals[at[d]];
         }
      }
   }

   Node *copy_clause(const std::vector<Node *> &groups, unsigned cf_index)
   {
      return groups.empty() ? nullptr
                            : clause(NodeList(groups.begin(), groups.end()), cf_index);
   }

   Node *fetch_clause_copies(Node *cfn)
   {
      /* A clause holds at most a few dozen fetch results: a flat list. */
      std::vector<Ref> &defined = defined_;
      std::vector<Node *> &groups = groups_;
      defined.clear();
      groups.clear();
      for (Node *f : cfn->children) {
         if (f->kind != NodeKind::Fetch)
            continue;
         for (const Value &s : f->src)
            if (s.kind == ValueKind::Var &&
                std::find(defined.begin(), defined.end(), ref(s)) != defined.end()) {
               fail(cfn->cf_index, "a fetch reads the result of another fetch of its clause");
               return nullptr;
            }
         /* TEX coordinates may be SEL_0/SEL_1; a VTX address is a channel. */
         if (std::holds_alternative<TexInstr>(*f->fetch))
            for (Value &s : f->src)
               drop_register(s);
         std::vector<Ref> &cs = copy_refs_;
         copy_operands(f->src, 0, f->src.size(), groups, cs);
         if (!cs.empty())
            add_vec(cs);
         bool in_array = false;
         std::vector<Ref> &d = dsts_;
         d.clear();
         for (const Value &v : f->dst) {
            if (v.kind != ValueKind::Var)
               continue;
            defined.push_back(ref(v));
            if (in_rel_array(sh, v.var))
               in_array = true;
            else if (alloc(v))
               d.push_back(ref(v));
         }
         if (in_array) {
            /* Keep the whole destination where the array is. */
            for (const Value &v : f->dst)
               if (v.kind == ValueKind::Var && alloc(v))
                  pre.push_back({ref(v), {sh.vars[v.var].index, sh.vars[v.var].chan}});
         } else if (!d.empty()) {
            fetch_dsts.insert(fetch_dsts.end(), d.begin(), d.end());
            add_vec(d);
         }
      }
      return copy_clause(groups, cfn->cf_index);
   }

   Node *export_copies(Node *cfn)
   {
      const ExportInfo &e = cfn->cf->exp;
      unsigned per = 0;
      for (unsigned c = 0; c < 4; c++)
         if (e.swizzle[c] < 4)
            per++;
      std::vector<Node *> &groups = groups_;
      groups.clear();
      /* A burst names consecutive registers with one swizzle for all. */
      if (e.burst_count == 1)
         for (Value &s : cfn->src)
            drop_register(s);
      for (unsigned b = 0; b < e.burst_count; b++) {
         std::vector<Ref> &cs = copy_refs_;
         copy_operands(cfn->src, size_t(b) * per, per, groups, cs);
         if (cs.empty())
            continue;
         if (e.burst_count == 1) {
            add_vec(cs);
            continue;
         }
         /* Consecutive GPRs: keep the registers the export names. */
         unsigned gpr = e.gpr + b;
         if (gpr >= kRaMaxGprs) {
            fail(cfn->cf_index, "export burst reaches R" + std::to_string(gpr));
            return nullptr;
         }
         for (size_t k = size_t(b) * per; k < size_t(b + 1) * per && k < cfn->src.size(); k++) {
            const Value &v = cfn->src[k];
            if (alloc(v))
               pre.push_back({ref(v), {gpr, e.swizzle[k - size_t(b) * per] & 3}});
         }
      }
      return copy_clause(groups, cfn->cf_index);
   }

   /* Inside an ALU clause: each psi's old value is copied before the group
    * of its predicated instruction. */
   void psi_copies(Node *cfn)
   {
      NodeList out;
      size_t i = 0;
      auto &ch = cfn->children;
      while (i < ch.size()) {
         size_t j = i + 1;
         std::vector<Node *> before;
         while (j < ch.size() && ch[j]->kind == NodeKind::Psi) {
            Node *psi = ch[j];
            if (psi->src.size() == 3 && psi->dst.size() == 1 && psi->dst[0].kind == ValueKind::Var) {
               const Value &d = psi->dst[0];
               if (in_rel_array(sh, d.var)) {
                  if (alloc(psi->src[1]))
                     pre.push_back({ref(psi->src[1]), {sh.vars[d.var].index, sh.vars[d.var].chan}});
               } else if (alloc(d)) {
                  Value t;
                  before.push_back(copy_group(psi->src[2], t));
                  psi->src[2] = t;
                  forced.push_back({nullptr, {ref(d), ref(psi->src[1]), ref(t)}});
                  psi_pairs.push_back({ref(psi->src[1]), ref(t)});
               }
            }
            j++;
         }
         out.insert(out.end(), before.begin(), before.end());
         out.insert(out.end(), ch.begin() + long(i), ch.begin() + long(j));
         i = j;
      }
      ch = std::move(out);
   }

   void process(Node *n)
   {
      /* Instructions hold nothing to split; a clause's psis and operands
       * are handled by its parent, which places the copies before it. */
      if (!ok || n->kind == NodeKind::AluGroup || n->kind == NodeKind::Alu ||
          n->kind == NodeKind::Fetch || n->kind == NodeKind::Psi)
         return;
      /* The children are rebuilt only once a copy clause goes in. */
      NodeList out;
      bool rebuilt = false;
      for (size_t i = 0; i < n->children.size(); i++) {
         Node *c = n->children[i];
         process(c);
         if (!ok)
            return;
         Node *before = nullptr;
         if (c->kind == NodeKind::Region)
            before = loop_entry_copies(c);
         else if (c->kind == NodeKind::Cf) {
            bool fetch = false, psi = false;
            for (Node *k : c->children) {
               fetch |= k->kind == NodeKind::Fetch;
               psi |= k->kind == NodeKind::Psi;
            }
            if (fetch)
               before = fetch_clause_copies(c);
            if (psi)
               psi_copies(c);
            if (c->cf && (c->cf->op == CfOp::EXPORT || c->cf->op == CfOp::EXPORT_DONE) &&
                !c->src.empty())
               before = export_copies(c);
         }
         if (!ok)
            return;
         if (before && !rebuilt) {
            out.assign(n->children.begin(), n->children.begin() + long(i));
            rebuilt = true;
         }
         if (before)
            out.push_back(before);
         if (rebuilt)
            out.push_back(c);
      }
      if (rebuilt)
         n->children = std::move(out);
      if (n->kind == NodeKind::Depart || n->kind == NodeKind::Repeat)
         jump_copies(n);
      if (n->kind == NodeKind::Region) {
         for (Node *p : n->region().phi)
            if (alloc(p->dst[0]))
               forced.push_back({p, {}});
         for (Node *p : n->region().loop_phi)
            if (alloc(p->dst[0]))
               forced.push_back({p, {}});
      }
   }
};

bool is_plain_mov(const Node *a)
{
   const AluInstr *in = a->alu;
   if (!in || in->op != AluOp::MOV || in->dst.clamp || in->dst.omod || in->pred_sel ||
       a->src.size() != 1 || a->dst.size() != 1)
      return false;
   const Value &s = a->src[0];
   return s.kind == ValueKind::Var && !s.neg && !s.abs;
}

/* What ra_split needs from the finished tree, in one walk (the tree is
 * large next to these tables, so each walk is mostly cache misses): how
 * many operands read each value (when `uses` is given), which values
 * get a register (ctx.allocatable), the fixed channels of groups that stay
 * whole and the plain copies with their loop cost (ctx.copies, in tree
 * order). */
struct TreeFacts {
   const RegionShader &sh;
   RaContext &ctx;
   std::vector<uint32_t> *uses;
   /* ra_value_allocatable by variable, taken once: the walk asks it for
    * every operand, and var_in_array scans the arrays each time.  Storage
    * kept with the thread (ra_split). */
   std::vector<uint8_t> &var_alloc;
   const uint8_t *fixed_ops = nullptr; /* alu_fixed_ops of the shader's chip */

   void init_vars()
   {
      fixed_ops = alu_fixed_ops(sh.chip);
      var_alloc.assign(sh.vars.size(), 0);
      for (size_t v = 0; v < sh.vars.size(); v++) {
         VarKind k = sh.vars[v].kind;
         var_alloc[v] = (k == VarKind::Gpr || k == VarKind::Temp) && !in_rel_array(sh, int(v));
      }
   }

   bool allocatable(const Value &v) const
   {
      /* One bound test: a negative var converts to a huge index. */
      return v.kind == ValueKind::Var && size_t(v.var) < var_alloc.size() &&
             var_alloc[size_t(v.var)];
   }

   /* Inline for every operand; only the parts of a relative access go
    * through the call. */
   void count(const Value &v)
   {
      if (v.kind == ValueKind::Var && v.var >= 0)
         (*uses)[sh.value_id(v)]++;
      if (v.rel() || !v.mayuse().empty())
         count_parts(v);
   }

   [[gnu::noinline]] void count_parts(const Value &v)
   {
      if (const Value *a = v.rel())
         count(*a);
      for (const Value &u : v.mayuse())
         count(u);
   }

   void present(const Value &v)
   {
      if (allocatable(v))
         ctx.allocatable[sh.value_id(v)] = true;
   }

   /* A read: present, and counted when kCount.  One look at the value
    * and one value_id for both (count() and present() each took them, a
    * twentieth of the walk). */
   template <bool kCount> [[gnu::always_inline]] void read(const Value &v)
   {
      /* One bound test: a negative var converts to a huge index. */
      if (v.kind == ValueKind::Var && size_t(v.var) < var_alloc.size()) {
         const unsigned id = sh.value_id(v);
         if constexpr (kCount)
            (*uses)[id]++;
         if (var_alloc[size_t(v.var)])
            ctx.allocatable[id] = true;
      }
      if constexpr (kCount)
         if (v.rel() || !v.mayuse().empty())
            count_parts(v);
   }

   /* A node's reads and results (not those of its children), counting
    * the reads when kCount (then `uses` is given).  Inline: group() asks
    * it for every instruction, and the call cost a tenth of the walk; a
    * parameter of the walk instead of a test per operand. */
   template <bool kCount> [[gnu::always_inline]] void operands(const Node *n)
   {
      for (const Value &v : n->src)
         read<kCount>(v);
      for (const Value &v : n->dst) {
         if constexpr (kCount) {
            if (const Value *a = v.rel())
               count(*a);
            for (const Value &u : v.mayuse())
               count(u);
         }
         present(v);
      }
   }

   template <bool kCount> void group(const Node *n, unsigned depth)
   {
      /* Whether the group is fixed is taken as its instructions' operands
       * are (alu_fixes_group; a call of alu_group_fixed read them all
       * again), and goes to Node::scratch for ra_build_interference
       * (RaContext::group_fixed_in_scratch).  The instructions' operands
       * are taken here, not with a walk() call each: they are most of the
       * tree. */
      const uint8_t *const ops = fixed_ops;
      bool fixed = false;
      for (const Node *a : n->children) {
         if (a->children.empty() && a->kind != NodeKind::Region)
            operands<kCount>(a);
         else
            walk<kCount>(a, depth);
         fixed = fixed || alu_fixes_group(ops, a);
         const Value *d = result(a);
         if (d && is_plain_mov(a) && allocatable(a->src[0]))
            ctx.copies.push_back({sh.value_id(*d), sh.value_id(a->src[0]), 1 + 10 * depth});
      }
      n->scratch = uint32_t(fixed) + 1;
      if (!fixed)
         return;
      /* Most groups are free: the results of a fixed one are looked at
       * again for their slots. */
      for (const Node *a : n->children)
         if (const Value *d = result(a); d && a->alu->slot < 4)
            ctx.fixed_chan[sh.value_id(*d)] = int8_t(a->alu->slot);
   }

   /* The allocatable result of an ALU instruction of a group, or null. */
   const Value *result(const Node *a) const
   {
      if (a->kind != NodeKind::Alu || !a->alu || a->dst.empty() || !allocatable(a->dst[0]))
         return nullptr;
      return &a->dst[0];
   }

   template <bool kCount> void walk(const Node *n, unsigned depth)
   {
      operands<kCount>(n);
      /* By kind, not region_data (see Marker::scan in sb_region_liveness.cpp). */
      if (n->kind == NodeKind::Region) {
         for (const Node *p : n->region().phi)
            walk<kCount>(p, depth);
         for (const Node *p : n->region().loop_phi)
            walk<kCount>(p, depth);
      }
      if (n->kind == NodeKind::Region && n->loop)
         depth++;
      if (n->kind == NodeKind::AluGroup) {
         group<kCount>(n, depth);
         return;
      }
      for (const Node *c : n->children)
         walk<kCount>(c, depth);
   }
};

} // namespace

/* The GPRs whose entry values the hardware may load (inputs, barycentrics,
 * R0's system values); empty when that is not known.  An info without
 * inputs is taken as unknown: tools that optimize bare bytecode (sbcc
 * optimize, the bench's .bin.hex files) have no input layout to give. */
static void preloaded_gprs(const ShaderInfo *info, std::vector<bool> &p)
{
   p.clear();
   if (!info || info->inputs.empty() ||
       (info->stage != tgsi::Processor::Vertex && info->stage != tgsi::Processor::Fragment))
      return;
   p.assign(kRaMaxGprs, false);
   p[0] = true;
   for (const ShaderIo &io : info->inputs)
      if (io.gpr < p.size())
         p[io.gpr] = true;
   for (unsigned g = 0; g < (info->num_ij + 1) / 2 && g < p.size(); g++)
      p[g] = true;
}

RaContext::~RaContext()
{
   RaTables &kept = thread_kept<RaTables>();
   if (parent.capacity() > kept.parent.capacity())
      kept = std::move(static_cast<RaTables &>(*this));
}

bool ra_split(RegionShader &sh, RaContext &ctx, Diagnostics &diags, const ShaderInfo *info)
{
   if (!sh.root) {
      diags.error("ra", SourceLoc{0, 0}, "ra_split: empty shader");
      return false;
   }
   Splitter s(sh, diags);
   preloaded_gprs(info, s.preloaded);
   s.find_consts(sh.root);
   s.sort_const_defs();
   s.process(sh.root);
   if (!s.ok)
      return false;
   sh.number_values();

   unsigned nv = sh.num_values();
   /* A fresh context on the tables' storage the thread kept (the larger
    * of that and ctx's own): each table is sized and filled below, the
    * lists appended to are emptied here. */
   RaTables &kept = thread_kept<RaTables>();
   RaTables tables = std::move(kept.parent.capacity() > ctx.parent.capacity() ? kept : ctx);
   ctx = RaContext{};
   static_cast<RaTables &>(ctx) = std::move(tables);
   ctx.copies.clear();
   ctx.psi_pairs.clear();
   ctx.num_values = nv;
   ctx.pre_gpr.assign(nv, -1);
   ctx.pre_chan.assign(nv, -1);
   ctx.fixed_chan.assign(nv, -1);
   ctx.vec_group.assign(nv, -1);
   ctx.reserved_gpr.assign(kRaMaxGprs, 0);
   ctx.parent.resize(nv);
   for (unsigned i = 0; i < nv; i++)
      ctx.parent[i] = i;
   ctx.split_copies = s.copies;
   ctx.undef_operands = s.undef_operands;
   ctx.const_operands = s.const_operands;

   ctx.allocatable.assign(nv, false);
   /* One count of readers serves the dead constant MOVs and the unread
    * fetch results (dce_cleanup already ran: every reader is live); a
    * shader with neither needs no count. */
   const bool count_uses = s.const_operands || !s.fetch_dsts.empty();
   /* The walk's tables, kept with the thread: an allocation each per
    * shader otherwise. */
   struct Tables {
      std::vector<uint32_t> uses;
      std::vector<unsigned> gone;
      std::vector<uint8_t> var_alloc;
   };
   Tables &scratch = thread_kept<Tables>();
   std::vector<uint32_t> &uses = scratch.uses;
   uses.assign(count_uses ? nv : 0, 0);
   TreeFacts facts{sh, ctx, count_uses ? &uses : nullptr, scratch.var_alloc};
   facts.init_vars();
   if (count_uses)
      facts.walk<true>(sh.root, 0);
   else
      facts.walk<false>(sh.root, 0);
   std::vector<unsigned> &gone = scratch.gone;
   gone.clear();
   bool regrouped = false;
   if (s.const_operands && s.drop_dead_const_movs(uses, gone, regrouped) && !regrouped) {
      /* The tree lost MOVs of constants nothing reads (maybe whole groups):
       * what the walk took from them was their result's presence and
       * fixed channel (they are no copies: their source is a constant),
       * and the groups that keep results are as fixed as before. */
      for (unsigned i : gone) {
         ctx.allocatable[i] = false;
         ctx.fixed_chan[i] = -1;
      }
   } else if (regrouped) {
      /* A group's remaining results may lose their fixed channels: take
       * presence, fixed channels and copies again from what is left. */
      ctx.allocatable.assign(nv, false);
      ctx.fixed_chan.assign(nv, -1);
      ctx.copies.clear();
      facts.walk<false>(sh.root, 0);
   }
   /* A fetch result nothing reads gets no register: bc_finalize masks it
    * (dst_sel 7), so it costs no channel of the fetch's GPR. */
   for (const Ref &r : s.fetch_dsts) {
      unsigned i = sh.value_id(r.first, r.second);
      if (!uses[i])
         ctx.allocatable[i] = false;
   }

   auto id = [&](const Ref &r) { return sh.value_id(r.first, r.second); };

   for (const RelArray &a : sh.arrays)
      for (unsigned g = a.first; g < a.first + a.count && g < kRaMaxGprs; g++)
         ctx.reserved_gpr[g] = true;
   /* Values on entry keep their register. */
   for (size_t v = 0; v < sh.vars.size(); v++) {
      const Var &var = sh.vars[v];
      if (var.kind != VarKind::Gpr || in_rel_array(sh, int(v)))
         continue;
      unsigned i = sh.value_id(int(v), 0);
      if (!ctx.allocatable[i])
         continue;
      if (var.index >= kRaMaxGprs) {
         diags.error("ra", SourceLoc{0, 0},
                     "ra_split: input read from R" + std::to_string(var.index));
         return false;
      }
      ctx.pre_gpr[i] = int16_t(var.index);
      ctx.pre_chan[i] = int8_t(var.chan);
   }
   for (auto &p : s.pre) {
      unsigned i = id(p.first);
      if (ctx.pre_gpr[i] >= 0 &&
          (ctx.pre_gpr[i] != int(p.second.first) || ctx.pre_chan[i] != int(p.second.second))) {
         diags.error("ra", SourceLoc{0, 0}, "ra_split: a value needs two registers");
         return false;
      }
      ctx.pre_gpr[i] = int16_t(p.second.first);
      ctx.pre_chan[i] = int8_t(p.second.second);
   }
   /* Each list in one allocation of its size (or the storage an earlier
    * shader left): there is one per phi, psi and vector operand.  Phi
    * entries come from the final sources. */
   ctx.forced.resize(s.forced.size());
   for (size_t k = 0; k < s.forced.size(); k++) {
      const Splitter::Forced &f = s.forced[k];
      std::vector<unsigned> &ids = ctx.forced[k];
      ids.clear();
      if (!f.phi) {
         ids.assign({id(f.psi[0]), id(f.psi[1]), id(f.psi[2])});
         continue;
      }
      ids.reserve(1 + f.phi->src.size());
      ids.push_back(id(ref(f.phi->dst[0])));
      for (const Value &v : f.phi->src)
         ids.push_back(id(ref(v)));
   }
   ctx.vec_groups.resize(s.vec_end.size());
   for (size_t k = 0; k < s.vec_end.size(); k++) {
      const std::span<const Ref> g(s.vec_refs.data() + (k ? s.vec_end[k - 1] : 0),
                                   s.vec_refs.data() + s.vec_end[k]);
      if (g.size() > 4) {
         diags.error("ra", SourceLoc{0, 0}, "ra_split: a vector operand of more than 4 values");
         return false;
      }
      std::vector<unsigned> &group = ctx.vec_groups[k];
      group.clear();
      group.reserve(g.size());
      for (const Ref &r : g) {
         unsigned i = id(r);
         if (!ctx.allocatable[i])
            continue;
         if (ctx.vec_group[i] >= 0) {
            diags.error("ra", SourceLoc{0, 0}, "ra_split: a value in two vector operands");
            return false;
         }
         ctx.vec_group[i] = int(k);
         group.push_back(i);
      }
   }
   for (auto &p : s.psi_pairs)
      ctx.psi_pairs.push_back({id(p.first), id(p.second)});

   /* The walks above left each group's fixedness in Node::scratch; a group
    * that lost dead constant MOVs without being regrouped is as fixed as
    * before (dropping instructions never makes a group fixed), and a
    * regrouped tree was walked again. */
   ctx.group_fixed_in_scratch = true;
   ra_build_interference(sh, ctx);
   ctx.group_fixed_in_scratch = false;
   if (!ctx.live_converged) {
      diags.error("ra", SourceLoc{0, 0}, "ra_split: loop liveness does not settle");
      return false;
   }
   return true;
}

} // namespace sbcc::r600::sb::region
