/*
 * if_conversion over the region tree (classic sb's sb_if_conversion.cpp).
 *
 * The region parser turns ALU_PUSH_BEFORE; JUMP; then; ELSE; else; POP into
 *
 *   cf  ALU_PUSH_BEFORE { ... PRED_SETcc _, EXEC.k, PRED.k = a, b }
 *   region R { depart #1 { if EXEC.k { depart #0 { THEN } } ELSE } }
 *   phi v = then_value, else_value        (one per variable written inside)
 *
 * When THEN and ELSE are short ALU-only code, branching costs more than
 * running both sides for every lane: the JUMP, ELSE and POP CF instructions,
 * the clause switches around each side, and the stack push.  Then the
 * PRED_SETcc becomes SETcc into a new temporary (same group, same operands),
 * the groups of both sides move to the end of the clause that held it, and
 * each phi becomes CNDE_INT(cond, else_value, then_value) defining the phi's
 * own value, so nothing after the region needs renaming.
 *
 * CNDE_INT rather than CNDE even for a float condition: the float SETcc
 * result is exactly 1.0 or +0.0, whose integer zero test is the same as the
 * float one, and an integer select passes the chosen bits through untouched
 * (integer data, NaNs and denormals included), which a float select need not.
 *
 * Speculation is only safe for code without effects: no fetch, export, kill,
 * AR or predicate write, LDS/GDS access, interpolation, predicated (psi) or
 * relative access, and no control flow.  Values inside relative-addressed
 * arrays keep their registers (sb_region_passes.h), so both sides writing
 * one would clobber each other: such ifs stay branches too.
 *
 * Innermost ifs go first, so an outer if whose side held a converted one
 * may become ALU-only and convert as well.  The clause that held the
 * PRED_SET keeps its Cf node (and its ALU_PUSH_BEFORE op): bc_finalize
 * rebuilds the CF instructions from the tree's shape, not from that op.
 *
 * Threshold: at most 12 ALU instructions per side (kMaxAluPerSide), and
 * the straight-line groups (both sides + the selects, 4 per group) must not
 * exceed the branch estimate: the longer side plus kCfCost groups for each
 * JUMP, POP, ELSE and clause switch it needs.
 */
#include <algorithm>
#include <map>
#include <string>

#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

/* Instructions per side beyond which speculation is not tried at all (the
 * same order as classic sb's limit); below it the cost model decides. */
constexpr unsigned kMaxAluPerSide = 12;
/* Cost of one CF instruction or clause switch, counted in ALU groups: a CF
 * fetch plus the clause start latency is at least a couple of groups. */
constexpr unsigned kCfCost = 2;

using ValueKey = std::pair<int, unsigned>;

/* The SETcc that computes what a PRED_SETcc puts into the exec mask; its
 * float form writes 1.0/0.0, the integer forms ~0/0. */
bool set_op_for(AluOp pred, AluOp &set)
{
   switch (pred) {
   case AluOp::PRED_SETE: set = AluOp::SETE; return true;
   case AluOp::PRED_SETGT: set = AluOp::SETGT; return true;
   case AluOp::PRED_SETGE: set = AluOp::SETGE; return true;
   case AluOp::PRED_SETNE: set = AluOp::SETNE; return true;
   case AluOp::PRED_SETE_INT: set = AluOp::SETE_INT; return true;
   case AluOp::PRED_SETGT_INT: set = AluOp::SETGT_INT; return true;
   case AluOp::PRED_SETGE_INT: set = AluOp::SETGE_INT; return true;
   case AluOp::PRED_SETNE_INT: set = AluOp::SETNE_INT; return true;
   case AluOp::PRED_SETGT_UINT: set = AluOp::SETGT_UINT; return true;
   case AluOp::PRED_SETGE_UINT: set = AluOp::SETGE_UINT; return true;
   default: return false;
   }
}

/* Ops whose execution has an effect beyond their result, or that depend on
 * more than their operands (neighbouring slots, interpolation state). */
bool has_side_effect(AluOp op)
{
   unsigned flags = alu_op_info(op).flags;
   if (flags & (AF_MOVA | AF_KILL | AF_PRED | AF_PRED_PUSH | AF_INTERP | AF_PREV_NEXT |
                AF_PREV_INTERLEAVE))
      return true;
   switch (op) {
   case AluOp::GROUP_BARRIER:
   case AluOp::GROUP_SEQ_BEGIN:
   case AluOp::GROUP_SEQ_END:
   case AluOp::SET_MODE:
   case AluOp::SET_CF_IDX0:
   case AluOp::SET_CF_IDX1:
   case AluOp::SET_LDS_SIZE:
   case AluOp::STORE_FLAGS:
   case AluOp::LOAD_STORE_FLAGS:
   case AluOp::LDS_1A:
   case AluOp::LDS_1A1D:
   case AluOp::LDS_2A:
   case AluOp::LDS_IDX_OP:
   case AluOp::INTERP_LOAD_P0:
   case AluOp::INTERP_LOAD_P10:
   case AluOp::INTERP_LOAD_P20:
   case AluOp::MUL_PREV:
   case AluOp::MUL_IEEE_PREV:
   case AluOp::ADD_PREV:
   case AluOp::MULADD_PREV:
   case AluOp::MULADD_IEEE_PREV:
   case AluOp::BCNT_ACCUM_PREV_INT:
   case AluOp::MBCNT_32LO_ACCUM_PREV_INT:
   case AluOp::SAD_ACCUM_PREV_UINT:
      return true;
   default: return false;
   }
}

/* A value an instruction may read anywhere: plain SSA values and resolved
 * constants.  Unresolved kcache references are relative to their clause's
 * locks and would change meaning in another clause. */
bool movable_src(const Value &v)
{
   switch (v.kind) {
   case ValueKind::None:
   case ValueKind::Var:
   case ValueKind::Inline:
   case ValueKind::Literal: return true;
   case ValueKind::KCache: return v.resolved;
   case ValueKind::Rel: return false;
   }
   return false;
}

struct SideCost {
   unsigned alu = 0;
   unsigned groups = 0;
   unsigned clauses = 0;
};

struct Converter {
   RegionShader &sh;
   std::map<ValueKey, unsigned> uses; /* of exec-mask and predicate values */
   unsigned converted = 0;
   std::map<std::string, unsigned> *kept = nullptr;
   mutable const char *why = nullptr;

   bool no(const char *reason) const
   {
      why = reason;
      return false;
   }

   void count_uses(const Value &v)
   {
      if (v.kind == ValueKind::Var) {
         VarKind k = sh.vars[v.var].kind;
         if (k == VarKind::ExecMask || k == VarKind::Pred)
            uses[{v.var, v.version}]++;
      }
      if (v.rel)
         count_uses(*v.rel);
      for (const Value &u : v.mayuse)
         count_uses(u);
   }

   void collect(const Node *n)
   {
      for (const Value &s : n->src)
         count_uses(s);
      for (const Node *p : n->loop_phi)
         collect(p);
      for (const Node *c : n->children)
         collect(c);
      for (const Node *p : n->phi)
         collect(p);
   }

   bool movable_dst(const Value &d) const
   {
      if (d.kind == ValueKind::None)
         return true;
      if (d.kind != ValueKind::Var)
         return false;
      VarKind k = sh.vars[d.var].kind;
      if (k != VarKind::Gpr && k != VarKind::Temp)
         return false;
      return !var_in_array(sh, d.var);
   }

   /* One side of the if: only ALU clauses of effect-free instructions. */
   bool side_ok(const std::vector<Node *> &nodes, size_t first, SideCost &cost) const
   {
      /* Control flow first, so an if kept inside counts as nested control
       * flow rather than as its PRED_SET. */
      for (size_t i = first; i < nodes.size(); i++)
         if (nodes[i]->kind != NodeKind::Cf)
            return no(nodes[i]->kind == NodeKind::Region
                         ? "side has nested control flow"
                         : "side has a break, continue or other node");
      for (size_t i = first; i < nodes.size(); i++) {
         const Node *cf = nodes[i];
         if (cf->cf) {
            switch (cf->cf->op) {
            case CfOp::ALU:
            case CfOp::ALU_PUSH_BEFORE: /* left over from an if converted before */
            case CfOp::ALU_POP_AFTER:
            case CfOp::ALU_POP2_AFTER: break;
            default: return no("side has a non-ALU clause");
            }
         }
         cost.clauses++;
         for (const Node *g : cf->children) {
            if (g->kind != NodeKind::AluGroup)
               return no("side has a psi or fetch");
            cost.groups++;
            for (const Node *a : g->children) {
               if (a->kind != NodeKind::Alu || !a->alu)
                  return no("side has a psi or fetch");
               const AluInstr &in = *a->alu;
               if (in.pred_sel != 0)
                  return no("side has a predicated write");
               if (has_side_effect(in.op) || in.update_exec_mask || in.update_pred)
                  return no("side has an instruction with effects");
               for (const Value &s : a->src)
                  if (!movable_src(s))
                     return no("side reads relative or clause-bound operands");
               for (const Value &d : a->dst)
                  if (!movable_dst(d))
                     return no("side writes AR, predicate, exec mask, an array or relatively");
               cost.alu++;
            }
         }
      }
      return true;
   }

   /* The PRED_SET in `cf` that defines the exec-mask value `cond`, with its
    * group; false when it is not there or is needed otherwise. */
   bool find_pred_set(Node *cf, const Value &cond, Node *&group, size_t &slot) const
   {
      for (Node *g : cf->children) {
         if (g->kind != NodeKind::AluGroup)
            continue;
         for (size_t i = 0; i < g->children.size(); i++) {
            const Node *a = g->children[i];
            bool defines = false;
            for (const Value &d : a->dst)
               defines |= d.kind == ValueKind::Var && d.var == cond.var &&
                          d.version == cond.version;
            if (!defines)
               continue;
            group = g;
            slot = i;
            return true;
         }
      }
      return false;
   }

   bool pred_set_ok(const Node *a) const
   {
      AluOp set;
      if (a->kind != NodeKind::Alu || !a->alu || !set_op_for(a->alu->op, set))
         return no("condition is not a single PRED_SETcc");
      if (a->alu->pred_sel != 0 || a->src.size() != 2)
         return no("condition is not a single PRED_SETcc");
      /* A written PRED_SET result is 1.0/0.0 even for integer compares;
       * the backends never write it, so such code just stays a branch. */
      if (a->dst.empty() || a->dst[0].kind != ValueKind::None)
         return no("PRED_SET result is written");
      for (size_t i = 1; i < a->dst.size(); i++) {
         const Value &d = a->dst[i];
         if (d.kind != ValueKind::Var)
            return no("condition is not a single PRED_SETcc");
         VarKind k = sh.vars[d.var].kind;
         if (k != VarKind::ExecMask && k != VarKind::Pred)
            return no("condition is not a single PRED_SETcc");
         /* The If is the exec mask's only reader; the predicate must
          * have none, since it disappears with the PRED_SET. */
         auto it = uses.find({d.var, d.version});
         unsigned n = it == uses.end() ? 0 : it->second;
         if (n != (k == VarKind::ExecMask ? 1u : 0u))
            return no("exec mask or predicate read elsewhere");
      }
      return true;
   }

   /* Tries to convert the region at parent->children[pos]. */
   bool try_convert(Node *parent, size_t pos)
   {
      Node *r = parent->children[pos];
      if (r->kind != NodeKind::Region || r->loop || !r->repeats.empty() ||
          !r->loop_phi.empty() || r->departs.size() != 2 || r->children.size() != 1 || pos == 0)
         return no("not an if region");
      Node *dep_else = r->children[0];
      if (dep_else->kind != NodeKind::Depart || dep_else->target != r ||
          dep_else->dep_index != 1 || dep_else->children.empty())
         return no("not an if region");
      Node *n_if = dep_else->children[0];
      if (n_if->kind != NodeKind::If || n_if->src.size() != 1 || n_if->children.size() != 1)
         return no("not an if region");
      Node *dep_then = n_if->children[0];
      if (dep_then->kind != NodeKind::Depart || dep_then->target != r ||
          dep_then->dep_index != 0)
         return no("not an if region");
      const Value cond = n_if->src[0];
      if (cond.kind != ValueKind::Var || sh.vars[cond.var].kind != VarKind::ExecMask ||
          cond.neg || cond.abs)
         return no("not an if region");

      for (const Node *phi : r->phi) {
         if (phi->src.size() != 2 || phi->dst.size() != 1 ||
             phi->dst[0].kind != ValueKind::Var)
            return no("phi with modifiers or relative sources");
         for (const Value &s : phi->src)
            if (!movable_src(s) || s.neg || s.abs)
               return no("phi with modifiers or relative sources");
      }

      SideCost then_cost, else_cost;
      if (!side_ok(dep_then->children, 0, then_cost) ||
          !side_ok(dep_else->children, 1, else_cost))
         return false; /* side_ok said why */
      if (then_cost.alu > kMaxAluPerSide || else_cost.alu > kMaxAluPerSide)
         return no("over 12 ALU instructions on a side");
      /* Straight-line: both sides plus the selects (4 per group).  Branch:
       * the longer side plus JUMP, POP, ELSE when there is else code, and
       * a clause switch per side clause. */
      unsigned nphi = unsigned(r->phi.size());
      unsigned straight = then_cost.groups + else_cost.groups + (nphi + 3) / 4;
      unsigned cfs = 2 + (else_cost.clauses ? 1 : 0) + then_cost.clauses + else_cost.clauses;
      unsigned branch = std::max(then_cost.groups, else_cost.groups) + kCfCost * cfs;
      if (straight > branch)
         return no("costlier than the branch");

      Node *cfn = parent->children[pos - 1];
      if (cfn->kind != NodeKind::Cf)
         return no("no ALU clause before the region");
      if (cfn->cf && cfn->cf->op != CfOp::ALU_PUSH_BEFORE && cfn->cf->op != CfOp::ALU)
         return no("no ALU clause before the region");
      Node *pgroup = nullptr;
      size_t pslot = 0;
      if (!find_pred_set(cfn, cond, pgroup, pslot))
         return no("condition is not a single PRED_SETcc");
      if (!pred_set_ok(pgroup->children[pslot]))
         return false; /* pred_set_ok said why */

      /* The condition as a value: SETcc with the PRED_SET's operands in its
       * place, so the group still reads them before anything writes. */
      const Node *pred = pgroup->children[pslot];
      AluOp set_op = AluOp::SETNE;
      set_op_for(pred->alu->op, set_op);
      AluInstr *set = sh.new_alu(set_op);
      set->slot = pred->alu->slot;
      set->dst.write = true;
      Node *set_node = sh.create(NodeKind::Alu);
      set_node->alu = set;
      set_node->cf_index = pred->cf_index;
      set_node->src = pred->src;
      set_node->dst.push_back(sh.new_temp());
      set->dst.chan = uint8_t(sh.vars[set_node->dst[0].var].chan);
      const Value bool_val = set_node->dst[0];
      pgroup->children[pslot] = set_node;

      auto move_groups = [&](const std::vector<Node *> &nodes, size_t first) {
         for (size_t i = first; i < nodes.size(); i++)
            for (Node *g : nodes[i]->children)
               cfn->children.push_back(g);
      };
      move_groups(dep_then->children, 0);
      move_groups(dep_else->children, 1);

      /* One select per group: bc_finalize and the post_scheduler pack them. */
      for (Node *phi : r->phi) {
         const Value &d = phi->dst[0];
         AluInstr *sel = sh.new_alu(AluOp::CNDE_INT);
         sel->dst.write = true;
         sel->dst.chan = uint8_t(sh.vars[d.var].chan & 3);
         sel->slot = sel->dst.chan;
         Node *a = sh.create(NodeKind::Alu);
         a->alu = sel;
         a->cf_index = cfn->cf_index;
         a->src = {bool_val, phi->src[1], phi->src[0]};
         a->dst = {d};
         Node *g = sh.create(NodeKind::AluGroup);
         g->children.push_back(a);
         cfn->children.push_back(g);
      }

      parent->children.erase(parent->children.begin() + long(pos));
      /* sh.regions is indexed by region id (liveness keeps per-region
       * sets), so the region stays there, emptied: nothing to walk. */
      r->phi.clear();
      r->children.clear();
      r->departs.clear();
      converted++;
      return true;
   }

   void run(Node *n, unsigned depth)
   {
      /* The parser bounds nesting; this guards trees built by other passes. */
      if (depth > 256)
         return;
      for (Node *c : n->children)
         run(c, depth + 1);
      for (size_t i = 0; i < n->children.size(); i++) {
         why = nullptr;
         if (try_convert(n, i))
            i--; /* the next node moved into this position */
         else if (why && kept && n->children[i]->kind == NodeKind::Region &&
                  !n->children[i]->loop)
            (*kept)[why]++;
      }
   }
};

} // namespace

bool if_conversion(RegionShader &sh, Diagnostics &diags, IfConversionStats *stats)
{
   if (!sh.root) {
      diags.error("if_conversion: no region tree");
      return false;
   }
   Converter c{sh, {}, 0, stats ? &stats->kept : nullptr, nullptr};
   c.collect(sh.root);
   c.run(sh.root, 0);
   if (c.converted)
      sh.number_values();
   if (stats)
      stats->converted += c.converted;
   return true;
}

bool if_conversion(RegionShader &sh, Diagnostics &diags)
{
   return if_conversion(sh, diags, nullptr);
}

} // namespace sbcc::r600::sb::region
