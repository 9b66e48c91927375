/*
 * dce_cleanup over the region tree: everything the marking of
 * live_instructions (sb_region_liveness.cpp) did not reach goes, phis and
 * loop_phis included.  Marking from effects is already the fixpoint: a
 * chain of dead instructions, or a loop_phi cycle feeding only itself,
 * is never reached.  Groups left empty go; synthetic clauses left empty go;
 * bytecode CF nodes stay (their op may matter to the control flow).
 */
#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

struct Sweeper {
   const std::set<const Node *> &live;
   unsigned removed = 0;

   bool is_instr(const Node *n) const
   {
      return n->kind == NodeKind::Alu || n->kind == NodeKind::Fetch ||
             n->kind == NodeKind::Psi;
   }

   void sweep(Node *n)
   {
      std::vector<Node *> keep;
      for (Node *c : n->children) {
         if (is_instr(c) && !live.count(c)) {
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
               if (live.count(p))
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
   std::set<const Node *> live = live_instructions(sh, used);
   Sweeper s{live};
   s.sweep(sh.root);
   return true;
}

} // namespace sbcc::r600::sb::region
