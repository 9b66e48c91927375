/*
 * ssa_prepare and ssa_rename over the region tree (classic sb).
 *
 * Phi placement needs no dominance frontiers: a region is left only through
 * its departs and re-entered only through its repeats, so every variable
 * written inside a region gets a phi at its exit (one source per depart)
 * and, when it has repeats, a loop_phi at its entry (source 0 from outside,
 * then one per repeat).  Renaming walks the tree once; a depart or repeat
 * works on a copy of the current versions, because the code after it in the
 * same container is reached only by the paths that did not take it.
 */
#include <algorithm>
#include <vector>

#include "r600/sb/sb_region_ir.h"

namespace sbcc::r600::sb::region {

namespace {

/* The exec mask and predicate are rebuilt by the control flow and by each
 * PRED_SET; merging them at region boundaries would only add noise. */
bool needs_phi(const RegionShader &sh, int var)
{
   VarKind k = sh.vars[var].kind;
   return k != VarKind::ExecMask && k != VarKind::Pred && k != VarKind::Temp;
}

/* Variables written are gathered as plain lists, sorted and made unique
 * once per region (a tree set per region cost a node per insertion). */
void add_defs(const Value &v, std::vector<int> &defs)
{
   if (v.kind == ValueKind::Var)
      defs.push_back(v.var);
   for (const Value &d : v.maydef)
      defs.push_back(d.var);
}

void prepare(RegionShader &sh, Node *n, std::vector<int> &defs)
{
   if (n->kind == NodeKind::Region) {
      std::vector<int> inner;
      for (Node *c : n->children)
         prepare(sh, c, inner);
      std::sort(inner.begin(), inner.end());
      inner.erase(std::unique(inner.begin(), inner.end()), inner.end());
      for (int v : inner) {
         if (!needs_phi(sh, v))
            continue;
         n->defs.push_back(v);
         Value dv;
         dv.kind = ValueKind::Var;
         dv.var = v;
         if (!n->departs.empty()) {
            Node *phi = sh.create(NodeKind::Phi);
            phi->dst.push_back(dv);
            phi->src.assign(n->departs.size(), dv);
            n->phi.push_back(phi);
         }
         if (!n->repeats.empty()) {
            Node *phi = sh.create(NodeKind::LoopPhi);
            phi->dst.push_back(dv);
            phi->src.assign(n->repeats.size() + 1, dv);
            n->loop_phi.push_back(phi);
         }
      }
      defs.insert(defs.end(), inner.begin(), inner.end());
      return;
   }
   for (Node *c : n->children)
      prepare(sh, c, defs);
   for (const Value &d : n->dst)
      add_defs(d, defs);
}

struct Renamer {
   std::vector<unsigned> cur, next;

   void use(Value &v)
   {
      if (v.kind == ValueKind::Var)
         v.version = cur[v.var];
      if (v.rel)
         use(*v.rel);
      for (Value &u : v.mayuse)
         use(u);
   }

   /* Uses of a destination: the address of a rel write and the elements it
    * may leave unchanged. */
   void dst_use(Value &v)
   {
      if (v.kind != ValueKind::Rel)
         return;
      use(*v.rel);
      for (Value &u : v.mayuse)
         use(u);
   }

   void def(Value &v)
   {
      if (v.kind == ValueKind::Var) {
         v.version = ++next[v.var];
         cur[v.var] = v.version;
      }
      for (Value &d : v.maydef)
         def(d);
   }

   void instr(Node *n)
   {
      for (Value &s : n->src)
         use(s);
      for (Value &d : n->dst)
         dst_use(d);
      for (Value &d : n->dst)
         def(d);
   }

   void run(Node *n)
   {
      switch (n->kind) {
      case NodeKind::Region:
         for (Node *p : n->loop_phi) {
            use(p->src[0]);
            def(p->dst[0]);
         }
         for (Node *c : n->children)
            run(c);
         for (Node *p : n->phi)
            def(p->dst[0]);
         break;
      case NodeKind::Depart:
      case NodeKind::Repeat: {
         std::vector<unsigned> saved = cur;
         for (Node *c : n->children)
            run(c);
         if (n->kind == NodeKind::Depart)
            for (Node *p : n->target->phi)
               use(p->src[n->dep_index]);
         else
            for (Node *p : n->target->loop_phi)
               use(p->src[n->dep_index + 1]);
         cur = std::move(saved);
         break;
      }
      case NodeKind::AluGroup:
         /* VLIW: every slot reads before any slot writes. */
         for (Node *a : n->children) {
            for (Value &s : a->src)
               use(s);
            for (Value &d : a->dst)
               dst_use(d);
         }
         for (Node *a : n->children)
            for (Value &d : a->dst)
               def(d);
         break;
      case NodeKind::If:
         for (Value &s : n->src)
            use(s);
         for (Node *c : n->children)
            run(c);
         break;
      default:
         for (Node *c : n->children)
            run(c);
         instr(n);
         break;
      }
   }
};

} // namespace

void ssa_prepare(RegionShader &sh)
{
   std::vector<int> defs;
   prepare(sh, sh.root, defs);
}

void ssa_rename(RegionShader &sh)
{
   Renamer r;
   r.cur.assign(sh.vars.size(), 0);
   r.next.assign(sh.vars.size(), 0);
   r.run(sh.root);
   sh.version_count = r.next;
   sh.number_values();
}

} // namespace sbcc::r600::sb::region
