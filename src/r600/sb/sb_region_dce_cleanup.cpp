/*
 * dce_cleanup over the region tree: everything the marking of
 * mark_live_nodes (sb_region_liveness.cpp) did not reach goes, phis and
 * loop_phis included.  Marking from effects is already the fixpoint: a
 * chain of dead instructions, or a loop_phi cycle feeding only itself,
 * is never reached.  Groups left empty go; synthetic clauses left empty go;
 * bytecode CF nodes stay (their op may matter to the control flow).
 */
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

/* Runs right after mark_live_nodes: Node::scratch is the live mark. */
struct Sweeper {
   unsigned removed = 0;

   static bool live(const Node *n) { return n->scratch != 0; }

   bool is_instr(const Node *n) const
   {
      return n->kind == NodeKind::Alu || n->kind == NodeKind::Fetch ||
             n->kind == NodeKind::Psi;
   }

   void sweep(Node *n)
   {
      std::vector<Node *> keep;
      for (Node *c : n->children) {
         if (is_instr(c) && !live(c)) {
            removed++;
            continue;
         }
         sweep(c);
         if (c->kind == NodeKind::AluGroup && c->children.empty())
            continue;
         if (c->kind == NodeKind::Cf && !c->cf && c->children.empty())
            continue;
         keep.push_back(c);
      }
      n->children = std::move(keep);
      if (n->kind == NodeKind::Region) {
         for (auto *list : {&n->phi, &n->loop_phi}) {
            std::vector<Node *> k;
            for (Node *p : *list) {
               /* A phi lives when its result is read: the marker reached it. */
               if (live(p))
                  k.push_back(p);
               else
                  removed++;
            }
            *list = std::move(k);
         }
      }
   }
};

} // namespace

bool dce_cleanup(RegionShader &sh, Diagnostics &diags)
{
   (void)diags;
   if (!sh.root)
      return true;
   std::vector<bool> used;
   mark_live_nodes(sh, used);
   Sweeper s;
   s.sweep(sh.root);
   return true;
}

} // namespace sbcc::r600::sb::region
