/*
 * gcm: global code motion, the part of it that pays most on r600 -- ALU work
 * whose operands do not change inside a loop moves out of the loop, into a
 * new ALU clause just before it, so it runs once instead of per trip.
 *
 * Only instructions without effects move (no predicate, exec-mask, AR or
 * relative writes, no kills, nothing predicated, nothing reading AR, the
 * loop index or a relative operand), only from groups that need not stay
 * whole, and only from the loop body's own ALU clauses (not from ifs inside
 * it, whose lanes the loop may not run).  A result that feeds a phi stays:
 * moving it would make it live across the loop next to the phi's own value
 * and cost a copy.  Inner loops go first, so invariant work climbs out of a
 * nest one level per loop.  Clause formation itself is bc_finalize's.
 *
 * Second, in straight code a fetch clause moves before the ALU clause just
 * above it when it reads nothing that clause computes and another fetch
 * clause sits above that (sink_alu_below_fetches): fetch chains such as
 * ray marches then run as joined fetch clauses followed by joined ALU
 * clauses, which pack better and cost fewer CF instructions.
 */
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/thread_memory.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

/* Fetch clauses move before independent ALU clauses (sink_alu_below_fetches). */
constexpr bool kSinkAlu = true;
/* At most this many fetches in the run a fetch clause joins that way: each
 * one's result lives across the ALU work it passed.  Corpus, alu_groups /
 * gprs (CYPRESS; RV770): without the motion 74615 / 3722; 78035 / 3703,
 * run 2 73784 / 3723; 77431 / 3710, run 3 73551 / 3744; 77033 / 3738.
 * Longer runs gained little more and cost more GPRs (warsow's skinning VS
 * fetch their bone matrices that way). */
constexpr unsigned kMaxFetchRun = 3;

/* Kept with the thread from one shader to the next (thread_memory.h), so
 * that `defined` needs neither an allocation nor clearing per shader. */
struct GcmTables {
   /* Scratch marks by value id: a value is marked when its entry equals
    * `stamp`, and each use takes a new stamp, so no use clears what it set
    * (no second walk over a loop) and no pass over every value per loop,
    * per candidate clause or per shader: hoist marks the values defined
    * inside the loop (set_defs), sink_alu_below_fetches the operands of
    * the fetch clause it moves.  Entries of earlier shaders hold older
    * stamps. */
   std::vector<uint32_t> defined;
   uint32_t stamp = 0;
   std::vector<int> written_vars; /* sink_alu_below_fetches' scratch */
   /* By value id: the value feeds a phi or loop_phi.  Here for its
    * storage, filled again per shader: allocating it cost more than the
    * fill. */
   std::vector<bool> in_phi;
};

struct Gcm : GcmTables {
   ThreadLend<GcmTables> lend{*this};
   RegionShader &sh;
   unsigned moved = 0;

   explicit Gcm(RegionShader &s) : sh(s)
   {
      in_phi.assign(sh.num_values(), false);
      /* A shader takes at most one stamp per node; start again from zero
       * long before they could wrap. */
      if (stamp > UINT32_MAX / 2) {
         defined.clear();
         stamp = 0;
      }
      if (defined.size() < sh.num_values())
         defined.resize(sh.num_values(), 0);
   }

   /* var_in_array without the call when the shader has no arrays (most). */
   bool in_array(int var) const { return !sh.arrays.empty() && var_in_array(sh, var); }

   bool var_ok(const Value &v) const
   {
      return v.kind == ValueKind::Var && v.var >= 0 && size_t(v.var) < sh.vars.size() &&
             v.version <= sh.version_count[v.var];
   }

   bool marked(const Value &v) const { return var_ok(v) && defined[sh.value_id(v)] == stamp; }
   void mark(const Value &v)
   {
      if (var_ok(v))
         defined[sh.value_id(v)] = stamp;
   }

   /* Marks in `defined` what n defines. */
   void set_defs(const Node *n)
   {
      auto mark_def = [&](const Value &v) {
         mark(v);
         for (const Value &d : v.maydef())
            mark(d);
      };
      for (const Value &d : n->dst)
         mark_def(d);
      /* By kind: region_data, which only regions have, sits in a node's
       * last cache line, which instructions are not otherwise read from. */
      if (n->kind == NodeKind::Region) {
         for (const Node *p : n->region().loop_phi)
            for (const Value &d : p->dst)
               mark_def(d);
         for (const Node *p : n->region().phi)
            for (const Value &d : p->dst)
               mark_def(d);
      }
      for (const Node *c : n->children)
         set_defs(c);
   }

   bool movable(const Node *a) const
   {
      const AluInstr &in = *a->alu;
      const unsigned flags = alu_op_info(in.op).flags;
      if ((flags & (AF_MOVA | AF_KILL | AF_PRED | AF_PRED_PUSH | AF_INTERP | AF_PREV_NEXT |
                    AF_PREV_INTERLEAVE | AF_REPL)) ||
          alu_writes_pred(in.op) || in.pred_sel || in.update_exec_mask || in.update_pred ||
          in.index_mode)
         return false;
      if (a->dst.size() != 1 || !var_ok(a->dst[0]) || in_array(a->dst[0].var) ||
          in_phi[sh.value_id(a->dst[0])])
         return false;
      for (const Value &s : a->src) {
         switch (s.kind) {
         case ValueKind::Var: {
            if (!var_ok(s))
               return false;
            const VarKind k = sh.vars[s.var].kind;
            if (k != VarKind::Gpr && k != VarKind::Temp)
               return false;
            if (defined[sh.value_id(s)] == stamp)
               return false;
            break;
         }
         case ValueKind::KCache:
            if (!s.resolved)
               return false;
            break;
         case ValueKind::Inline:
         case ValueKind::Literal: break;
         default: return false;
         }
      }
      return true;
   }

   /* Hoists from the ALU clauses directly in `body` (a loop's repeat) into
    * `pre`, a new clause; returns how many moved. */
   unsigned hoist(Node *loop, Node *body, Node *pre)
   {
      stamp++;
      set_defs(loop);
      unsigned n = 0;
      for (Node *cf : body->children) {
         if (cf->kind != NodeKind::Cf ||
             (cf->cf && cf_op_info(cf->cf->op).enc != CfEncoding::Alu))
            continue;
         for (Node *g : cf->children) {
            if (g->kind != NodeKind::AluGroup || alu_group_is_fixed(g))
               continue;
            for (size_t i = 0; i < g->children.size();) {
               Node *a = g->children[i];
               if (a->kind != NodeKind::Alu || !a->alu || !movable(a)) {
                  i++;
                  continue;
               }
               /* Reads of this group happen before its writes: an operand
                * written by another slot of the same group is the old value,
                * which `defined` already covers (it is defined in the loop). */
               g->children.erase(g->children.begin() + std::ptrdiff_t(i));
               Node *ng = sh.create(NodeKind::AluGroup);
               ng->children.push_back(a);
               pre->children.push_back(ng);
               defined[sh.value_id(a->dst[0])] = 0; /* defined outside now */
               n++;
            }
         }
         /* Empty groups would be empty VLIW groups: drop them. */
         erase_if(cf->children, [](const Node *g) {
            return g->kind == NodeKind::AluGroup && g->children.empty();
         });
      }
      return n;
   }

   static bool is_alu(const Node *c)
   {
      return c->kind == NodeKind::Cf && (!c->cf || cf_op_info(c->cf->op).enc == CfEncoding::Alu);
   }

   /* Straight code [F1][B][F2][C], fetch clauses F1, F2 and ALU clauses B,
    * C: when F2 reads nothing B computes, F2 moves before B, so F1 and F2
    * become neighbours (bc_finalize joins independent fetch clauses) and so
    * do B and C (one clause, packed together): two CF instructions less per
    * step of a fetch chain such as a ray march, whose next coordinates do
    * not depend on the last sample.  F2's results then live across B, one
    * GPR per fetch.  B must not kill or change the exec mask (the fetch
    * would run for other lanes). */
   unsigned sink_alu_below_fetches(Node *n)
   {
      unsigned total = 0;
      NodeList &k = n->children;
      std::vector<int> &written = written_vars;
      for (size_t b = 1; b + 2 < k.size(); b++) {
         if (!is_fetch_clause(k[b - 1]) || !is_alu(k[b]) || !is_fetch_clause(k[b + 1]) ||
             !is_alu(k[b + 2]))
            continue;
         /* The run's length first: it needs no walk over B. */
         unsigned run = 0; /* fetches F2 would join */
         for (size_t i = b; i > 0 && is_fetch_clause(k[i - 1]); i--)
            run += unsigned(k[i - 1]->children.size());
         if (run + k[b + 1]->children.size() > kMaxFetchRun)
            continue;
         bool ok = true;
         for (const Node *g : k[b]->children) {
            if (g->kind != NodeKind::AluGroup) {
               ok = false;
               break;
            }
            for (const Node *x : g->children) {
               if (x->kind != NodeKind::Alu || !x->alu) {
                  ok = false;
                  continue;
               }
               const unsigned flags = alu_op_info(x->alu->op).flags;
               ok &= !(flags & (AF_KILL | AF_PRED | AF_PRED_PUSH)) && !x->alu->update_exec_mask &&
                     !x->alu->update_pred;
            }
         }
         if (!ok)
            continue;
         /* F2 must read nothing B defines: F2's few operands are marked
          * and B's definitions looked up, one walk over B (B is groups of
          * instructions, as tested above).  Nor may B read an older
          * version of a register F2 writes: the entry values and array
          * elements keep their registers, so their lives must not reach
          * past a new definition (sb_region_passes.h). */
         written.clear();
         stamp++;
         for (const Node *f : k[b + 1]->children) {
            for (const Value &v : f->src)
               mark(v);
            for (const Value &d : f->dst)
               if (var_ok(d))
                  written.push_back(d.var);
         }
         auto defines_marked = [&](const Node *x) {
            for (const Value &d : x->dst) {
               if (marked(d))
                  return true;
               for (const Value &m : d.maydef())
                  if (marked(m))
                     return true;
            }
            return false;
         };
         ok = !defines_marked(k[b]);
         for (const Node *g : k[b]->children) {
            ok &= !defines_marked(g);
            for (const Node *x : g->children) {
               ok &= !defines_marked(x);
               for (const Value &v : x->src)
                  ok &= v.kind != ValueKind::Var || (v.version != 0 && !in_array(v.var)) ||
                        std::find(written.begin(), written.end(), v.var) == written.end();
            }
         }
         if (!ok)
            continue;
         std::swap(k[b], k[b + 1]);
         /* B and C are one clause now, so the next fetch may pass both. */
         for (Node *g : k[b + 2]->children)
            k[b + 1]->children.push_back(g);
         k.erase(k.begin() + std::ptrdiff_t(b + 2));
         total++;
      }
      return total;
   }

   void run(Node *n)
   {
      /* A clause holds groups, fetches and psis, never a loop or a clause:
       * nothing below it to sink or hoist from (most nodes are there). */
      if (n->kind == NodeKind::Cf)
         return;
      if (kSinkAlu)
         moved += sink_alu_below_fetches(n);
      for (size_t i = 0; i < n->children.size(); i++) {
         Node *c = n->children[i];
         run(c);
         if (c->kind != NodeKind::Region || !c->loop || c->children.empty())
            continue;
         Node *body = c->children[0];
         if (body->kind != NodeKind::Repeat || body->target != c)
            continue;
         Node *pre = sh.create(NodeKind::Cf);
         if (hoist(c, body, pre)) {
            moved += unsigned(pre->children.size());
            n->children.insert(n->children.begin() + std::ptrdiff_t(i), pre);
            i++;
         }
      }
   }
};

} // namespace

bool gcm(RegionShader &sh, Diagnostics &diags)
{
   (void)diags;
   sh.number_values();
   Gcm g{sh};
   for (const Node *r : sh.regions) {
      for (const std::vector<Node *> *list : {&r->region().phi, &r->region().loop_phi})
         for (const Node *p : *list)
            for (const Value &s : p->src)
               if (g.var_ok(s))
                  g.in_phi[sh.value_id(s)] = true;
   }
   g.run(sh.root);
   return true;
}

} // namespace sbcc::r600::sb::region
