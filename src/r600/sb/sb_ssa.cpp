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
#include <utility>
#include <vector>

#include "common/thread_memory.h"
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

/* Each variable written inside a region is listed once in that region and
 * in every region around it.  Lists are filled as the definitions are met,
 * not merged upward per region (which copied and sorted every inner list
 * again at each nesting level): the regions listing a variable always form
 * a path from the outermost one, so along the stack of enclosing regions
 * they are a prefix, kept as one depth per variable.  A definition lists
 * its variable in the stack's regions below that depth; leaving a region
 * moves the depth of its variables back to its parent (which lists them).
 * Only variables that get phis are listed (the others were filtered at
 * every level anyway).
 *
 * The lists grow in `listed`, one per stack depth, kept with the thread
 * (thread_memory.h) and reused by every region at that depth: a region's
 * own list is then made once at its full size, not grown by doubling. */
struct PreparerTables {
   std::vector<std::vector<int>> listed; /* by stack depth */
   std::vector<unsigned> depth;          /* by var: stack regions (a prefix) listing it */
};

struct Preparer : PreparerTables {
   ThreadLend<PreparerTables> lend{*this};
   RegionShader &sh;
   std::vector<Node *> stack; /* enclosing regions, outermost first */

   explicit Preparer(RegionShader &s) : sh(s) { depth.assign(sh.vars.size(), 0); }

   void def(int v)
   {
      if (!needs_phi(sh, v))
         return;
      const unsigned d = unsigned(stack.size());
      for (unsigned k = depth[v]; k < d; k++)
         listed[k].push_back(v);
      if (depth[v] < d)
         depth[v] = d;
   }

   void walk(Node *n)
   {
      if (n->kind == NodeKind::Region) {
         const size_t first = n->region().defs.size();
         if (listed.size() == stack.size())
            listed.emplace_back();
         listed[stack.size()].clear();
         stack.push_back(n);
         for (Node *c : n->children)
            walk(c);
         std::vector<int> &own = listed[stack.size() - 1];
         n->region().defs.insert(n->region().defs.end(), own.begin(), own.end());
         finish(n, first);
         stack.pop_back();
         return;
      }
      /* Outside every region a definition is listed nowhere (def has no
       * region to list it in), and a clause holds no region: nothing
       * below a clause there needs a look.  Most shaders have no region,
       * and most of a tree's nodes are in clauses. */
      if (stack.empty() && n->kind == NodeKind::Cf)
         return;
      if (n->kind == NodeKind::AluGroup) {
         /* Its instructions (which have no children) without a call each. */
         for (Node *a : n->children) {
            if (a->children.empty())
               defs(a);
            else
               walk(a);
         }
         defs(n);
         return;
      }
      for (Node *c : n->children)
         walk(c);
      defs(n);
   }

   void defs(const Node *n)
   {
      for (const Value &d : n->dst) {
         if (d.kind == ValueKind::Var)
            def(d.var);
         for (const Value &m : d.maydef())
            def(m.var);
      }
   }

   /* dst and every source: the variable, version unset.  Values are built
    * in place (a copy of a Value goes through its deep-copying assignment). */
   Node *make_phi(NodeKind kind, int v, size_t nsrc)
   {
      Node *phi = sh.create(kind);
      phi->dst.resize(1);
      phi->src.resize(nsrc);
      for (Value &x : phi->dst)
         set_var(x, v);
      for (Value &x : phi->src)
         set_var(x, v);
      return phi;
   }

   static void set_var(Value &x, int v)
   {
      x.kind = ValueKind::Var;
      x.var = v;
   }

   /* The region's list is complete: sorted, then its phis in that order. */
   void finish(Node *n, size_t first)
   {
      RegionData &r = n->region();
      const unsigned parent = unsigned(stack.size() - 1);
      for (size_t i = first; i < r.defs.size(); i++)
         depth[r.defs[i]] = parent;
      std::sort(r.defs.begin() + first, r.defs.end());
      const size_t count = r.defs.size() - first;
      if (!r.departs.empty())
         r.phi.reserve(r.phi.size() + count);
      if (!r.repeats.empty())
         r.loop_phi.reserve(r.loop_phi.size() + count);
      for (size_t i = first; i < r.defs.size(); i++) {
         const int v = r.defs[i];
         if (!r.departs.empty())
            r.phi.push_back(make_phi(NodeKind::Phi, v, r.departs.size()));
         if (!r.repeats.empty())
            r.loop_phi.push_back(make_phi(NodeKind::LoopPhi, v, r.repeats.size() + 1));
      }
   }
};

/* The current versions and their copies, kept with the thread: the
 * allocations per shader were a tenth of a small shader's renaming. */
struct RenamerTables {
   std::vector<unsigned> cur;
   /* cur as each open depart or repeat found it, to go back to when it
    * ends.  The copies keep their storage from one depart to the next at
    * the same depth: no allocation per side of every if. */
   std::vector<std::vector<unsigned>> saved;
};

struct Renamer : RenamerTables {
   ThreadLend<RenamerTables> lend{*this};
   std::vector<unsigned> next; /* the shader's version_count once done */
   size_t open = 0;            /* departs and repeats being walked */

   /* Only a Rel value has an address and array elements (Value): the
    * other operands, nearly all, need no look at those, which kept this
    * from inlining into the walk over every operand. */
   void use(Value &v)
   {
      if (v.kind == ValueKind::Var)
         v.version = cur[v.var];
      else if (v.kind == ValueKind::Rel)
         use_rel(v);
   }

   [[gnu::noinline]] void use_rel(Value &v)
   {
      if (Value *a = v.rel())
         use(*a);
      for (Value &u : v.mayuse())
         use(u);
   }

   /* Uses of a destination: the address of a rel write and the elements it
    * may leave unchanged. */
   void dst_use(Value &v)
   {
      if (v.kind == ValueKind::Rel)
         use_rel(v);
   }

   void def(Value &v)
   {
      if (v.kind == ValueKind::Var) {
         v.version = ++next[v.var];
         cur[v.var] = v.version;
      } else if (v.kind == ValueKind::Rel) {
         for (Value &d : v.maydef())
            def(d);
      }
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
         for (Node *p : n->region().loop_phi) {
            use(p->src[0]);
            def(p->dst[0]);
         }
         for (Node *c : n->children)
            run(c);
         for (Node *p : n->region().phi)
            def(p->dst[0]);
         break;
      case NodeKind::Depart:
      case NodeKind::Repeat: {
         if (saved.size() == open)
            saved.emplace_back();
         saved[open++].assign(cur.begin(), cur.end());
         for (Node *c : n->children)
            run(c);
         if (n->kind == NodeKind::Depart)
            for (Node *p : n->target->region().phi)
               use(p->src[n->dep_index]);
         else
            for (Node *p : n->target->region().loop_phi)
               use(p->src[n->dep_index + 1]);
         cur.swap(saved[--open]);
         break;
      }
      case NodeKind::AluGroup: group(n); break;
      case NodeKind::If:
         for (Value &s : n->src)
            use(s);
         for (Node *c : n->children)
            run(c);
         break;
      default:
         /* A clause's children are mostly groups: no recursive call each. */
         for (Node *c : n->children) {
            if (c->kind == NodeKind::AluGroup)
               group(c);
            else
               run(c);
         }
         instr(n);
         break;
      }
   }

   void group(Node *g)
   {
      /* VLIW: every slot reads before any slot writes. */
      for (Node *a : g->children) {
         for (Value &s : a->src)
            use(s);
         for (Value &d : a->dst)
            dst_use(d);
      }
      for (Node *a : g->children)
         for (Value &d : a->dst)
            def(d);
   }
};

} // namespace

void ssa_prepare(RegionShader &sh)
{
   Preparer p(sh);
   p.walk(sh.root);
}

void ssa_rename(RegionShader &sh)
{
   Renamer r;
   r.cur.assign(sh.vars.size(), 0);
   r.next.assign(sh.vars.size(), 0);
   r.run(sh.root);
   sh.version_count = std::move(r.next);
   sh.number_values();
}

} // namespace sbcc::r600::sb::region
