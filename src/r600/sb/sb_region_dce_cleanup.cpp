/*
 * dce_cleanup over the region tree: everything the marking of
 * mark_live (sb_region_liveness.cpp) did not reach goes, phis and
 * loop_phis included.  Marking from effects is already the fixpoint: a
 * chain of dead instructions, or a loop_phi cycle feeding only itself,
 * is never reached.  Groups left empty go; synthetic clauses left empty go;
 * bytecode CF nodes stay (their op may matter to the control flow).
 */
#include "common/thread_memory.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

/* Runs right after mark_live: Node::scratch numbers the node in `marks`. */
struct Sweeper {
   const std::vector<uint8_t> &marks;
   unsigned removed = 0;

   bool live(const Node *n) const { return marks[n->scratch] != 0; }

   bool is_instr(const Node *n) const
   {
      return n->kind == NodeKind::Alu || n->kind == NodeKind::Fetch ||
             n->kind == NodeKind::Psi;
   }

   /* A group's instructions, compacted here rather than by a call of
    * sweep per group: they hold nothing to sweep. */
   void sweep_instrs(NodeList &ch)
   {
      size_t k = 0;
      for (size_t i = 0; i < ch.size(); i++) {
         if (is_instr(ch[i]) && !live(ch[i]))
            removed++;
         else
            ch[k++] = ch[i];
      }
      ch.resize(k);
   }

   /* Compacts the lists in place: a new vector per node and per phi list
    * was most of the sweep's time. */
   void sweep(Node *n)
   {
      NodeList &ch = n->children;
      size_t k = 0;
      for (size_t i = 0; i < ch.size(); i++) {
         Node *c = ch[i];
         if (is_instr(c) && !live(c)) {
            removed++;
            continue;
         }
         /* Leaves have nothing to sweep; a group holds only leaves
          * (instructions), most of the tree's lists, done in place. */
         if (c->kind == NodeKind::AluGroup)
            sweep_instrs(c->children);
         else if (!c->children.empty() || c->kind == NodeKind::Region)
            sweep(c);
         if (c->kind == NodeKind::AluGroup && c->children.empty())
            continue;
         if (c->kind == NodeKind::Cf && !c->cf && c->children.empty())
            continue;
         ch[k++] = c;
      }
      ch.resize(k);
      if (n->kind == NodeKind::Region) {
         for (auto *list : {&n->region().phi, &n->region().loop_phi}) {
            size_t kp = 0;
            for (Node *p : *list) {
               /* A phi lives when its result is read: the marker reached it. */
               if (live(p))
                  (*list)[kp++] = p;
               else
                  removed++;
            }
            list->resize(kp);
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
   /* Kept with the thread: mark_live sizes them anew. */
   struct Tables {
      std::vector<bool> used;
      std::vector<uint8_t> live;
   };
   Tables &t = thread_kept<Tables>();
   mark_live(sh, t.used, t.live);
   Sweeper s{t.live};
   s.sweep(sh.root);
   return true;
}

} // namespace sbcc::r600::sb::region
