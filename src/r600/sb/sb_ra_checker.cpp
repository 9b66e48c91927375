/*
 * ra_checker: an independent check of an allocation.  It shares nothing
 * with the allocator (no interference graph, no classes): it walks the tree
 * and simulates which SSA value each register channel holds, and fails on
 * any read of a register channel that holds another value.  Ifs merge the
 * taken and untaken states, departs merge into their region's exit, and a
 * loop body is re-walked until the state at its entry (merged with every
 * repeat) is stable; a channel that holds different values on two paths
 * holds none.  Phi, loop_phi and psi need their values in one channel.
 */
#include <algorithm>
#include <memory>
#include <string>

#include "common/thread_memory.h"
#include "r600/sb/sb_ra.h"

namespace sbcc::r600::sb::region {

namespace {

constexpr int kUnknown = -1; /* nothing known (garbage or mixed) */
constexpr int kTop = -2;     /* no path reached yet */

using State = std::vector<int>;

/* The checker's tables, kept with the thread from check to check for
 * their storage (a dozen allocations per shader otherwise): lent to each
 * Checker and taken back when it goes.  Every table is sized and filled
 * anew before it is read; names is emptied, since name() fills it only
 * when empty. */
struct CheckerTables {
   State entry; /* the walk's state, from the program's entry on */
   std::vector<State> exit_acc, repeat_acc, rep_prev;
   /* Whether a path has reached the exit of the region being walked:
    * until one has, exit_acc holds nothing (kTop), and the first path's
    * state is copied there instead of met. */
   std::vector<uint8_t> exit_met;
   /* Working states of the ifs being walked, one per nesting level, each
    * on its own: outer walks hold references to theirs while the list
    * grows. */
   std::vector<std::unique_ptr<State>> if_states;
   std::vector<std::vector<unsigned>> loops_in;
   /* value id -> (var, version), for messages only: filled on the first. */
   mutable std::vector<std::pair<int, unsigned>> names;
   /* Predicated results: a byte per value id, which every definition of a
    * loud walk reads (a pointer per value was eight times the memory on a
    * large shader, for a few psis), and each one's psi, sorted by id, read
    * for those only. */
   std::vector<uint8_t> is_predicated;
   std::vector<std::pair<unsigned, const Node *>> psis;
   /* Value ids through plain copies: a register holding a copy's source
    * holds the copy too (same bits), and RA lets them share. */
   std::vector<int> canon;
   /* By variable: Gpr/Temp (reg_value).  By value id: the register
    * channel, or -2 without one.  Taken once: every operand of every
    * walk asks for both. */
   std::vector<uint8_t> var_reg;
   std::vector<int16_t> slot_of;
   /* Scratch of vector_operand(), asked for every fetch and export. */
   std::vector<unsigned> seen_;
};

struct Checker : CheckerTables {
   ThreadLend<CheckerTables> lend{*this};
   const RegionShader &sh;
   const Allocation &alloc;
   Diagnostics &diags;
   bool ok = true;
   bool loud = true;
   unsigned cf = 0;
   unsigned if_depth = 0;
   /* Register channels tracked: those of the GPRs the allocation or the
    * inputs use (the rest never hold a value anyone reads). */
   size_t num_slots = 0;
   unsigned loop_nest = 0; /* loops around the node being walked */

   Checker(const RegionShader &s, const Allocation &a, Diagnostics &d)
      : sh(s), alloc(a), diags(d)
   {
      names.clear();
   }
   Checker(const Checker &) = delete;
   Checker &operator=(const Checker &) = delete;

   std::string name(unsigned id) const
   {
      if (names.empty()) {
         names.resize(sh.num_values());
         for (size_t var = 0; var < sh.vars.size(); var++)
            for (unsigned ver = 0; ver <= sh.version_count[var]; ver++)
               names[sh.value_id(int(var), ver)] = {int(var), ver};
      }
      Value v;
      v.kind = ValueKind::Var;
      v.var = names[id].first;
      v.version = names[id].second;
      return value_name(sh, v);
   }

   std::string reg_name(int slot) const
   {
      return "R" + std::to_string(slot / 4) + "." + "xyzw"[slot % 4];
   }

   /* While an outermost loop is walked with the checks before its states
    * are known to be settled (see settle()), the first error waits here
    * (with its CF): it stands only if that walk proves the last. */
   bool holding = false;
   std::string held;
   unsigned held_cf = 0;

   void error(const std::string &msg)
   {
      if (!loud)
         return;
      if (holding) {
         if (held.empty()) {
            held = msg;
            held_cf = cf;
         }
         return;
      }
      report(cf, msg);
   }

   void report(unsigned at, const std::string &msg)
   {
      if (ok)
         diags.error("ra", SourceLoc{at + 1, 0}, "ra_checker: CF " + std::to_string(at) + ": " + msg);
      ok = false;
   }

   /* Also starts canon (every value its own) and returns the highest GPR
    * below 128 the inputs or the allocation name, or -1: one pass over the
    * variables and one over the values for the four. */
   int index_values()
   {
      int top = -1;
      var_reg.resize(sh.vars.size());
      for (size_t v = 0; v < sh.vars.size(); v++) {
         const Var &var = sh.vars[v];
         var_reg[v] = var.kind == VarKind::Gpr || var.kind == VarKind::Temp;
         if (var.kind == VarKind::Gpr && var.index < 128)
            top = std::max(top, int(var.index));
      }
      const size_t nv = sh.num_values(), na = alloc.reg.size(); /* na >= nv */
      slot_of.resize(na);
      canon.resize(nv);
      for (size_t id = 0; id < na; id++) {
         const RegAssign &r = alloc.reg[id];
         if (r.gpr < 128)
            top = std::max(top, int(r.gpr));
         slot_of[id] = int16_t(r.gpr < 0 || r.gpr >= 128 || r.chan > 3 ? -2 : r.gpr * 4 + r.chan);
         if (id < nv)
            canon[id] = int(id);
      }
      return top;
   }

   bool reg_value(const Value &v) const { return v.kind == ValueKind::Var && var_reg[v.var]; }

   /* slot() without the report: -2 where slot() would report. */
   int slot_quiet(const Value &v) const
   {
      const unsigned id = sh.value_id(v);
      return id < slot_of.size() ? slot_of[id] : -2;
   }

   /* The register channel of a value, or -1 after reporting. */
   int slot(const Value &v)
   {
      const int s = slot_quiet(v);
      if (s < 0) {
         error(value_name(sh, v) + " has no register");
         return -1;
      }
      return s;
   }

   /* The report of a read use() found wrong: apart, so that use(), run
    * for every operand, stays small. */
   [[gnu::cold, gnu::noinline]] void misread(const Value &v, int s, const State &st)
   {
      if (s < 0) {
         error(value_name(sh, v) + " has no register");
         return;
      }
      std::string held = st[s] >= 0 ? name(unsigned(st[s])) : "no known value";
      error(value_name(sh, v) + " is read from " + reg_name(s) + ", which holds " + held);
   }

   /* Inline: it runs for every operand of every loud walk.  The parts of
    * a relative access go through use_parts(), so that use() itself does
    * not recurse. */
   [[gnu::always_inline]] void use(const Value &v, const State &st)
   {
      /* Reads change no state: the quiet passes that settle loop states
       * skip them (they could only report, and quiet passes do not). */
      if (!loud)
         return;
      if (reg_value(v)) {
         const unsigned vid = sh.value_id(v);
         const int s = vid < slot_of.size() ? slot_of[vid] : -2;
         if (s < 0 || st[s] != canon[vid])
            misread(v, s, st);
      }
      if (v.rel() || !v.mayuse().empty())
         use_parts(v, st);
   }

   [[gnu::noinline]] void use_parts(const Value &v, const State &st)
   {
      if (const Value *a = v.rel())
         use(*a, st);
      for (const Value &u : v.mayuse())
         use(u, st);
   }

   void dst_use(const Value &v, const State &st)
   {
      if (v.kind != ValueKind::Rel)
         return;
      for (const Value &u : v.mayuse())
         use(u, st);
   }

   /* Inline, as use(): the maydef of a relative write goes through
    * def_parts() and a predicated write through predicated(). */
   [[gnu::always_inline]] void def(const Value &v, State &st)
   {
      if (reg_value(v)) {
         int s = slot(v);
         if (s < 0)
            return;
         unsigned id = sh.value_id(v);
         if (loud && id < is_predicated.size() && is_predicated[id])
            predicated(v, s, st);
         st[s] = canon[id];
      }
      if (!v.maydef().empty())
         def_parts(v, st);
   }

   [[gnu::noinline]] void def_parts(const Value &v, State &st)
   {
      for (const Value &d : v.maydef())
         def(d, st);
   }

   /* A predicated write lands on the old value the psi merges with. */
   [[gnu::noinline]] void predicated(const Value &v, int s, const State &st)
   {
      /* The last psi index_tree() met for the value, as a table by value
       * would hold. */
      const unsigned id = sh.value_id(v);
      const Node *psi =
         std::prev(std::upper_bound(psis.begin(), psis.end(), id,
                                    [](unsigned i, const auto &e) { return i < e.first; }))
            ->second;
      if (reg_value(psi->src[2]) && slot(psi->src[2]) == s)
         use(psi->src[2], st);
      else
         error("the predicated " + value_name(sh, v) + " is not where its psi's old value is");
   }

   static void meet(State &acc, const State &s)
   {
      for (size_t i = 0; i < acc.size(); i++)
         if (acc[i] == kTop)
            acc[i] = s[i];
         else if (s[i] != kTop && acc[i] != s[i])
            acc[i] = kUnknown;
   }

   static bool reached(const State &s) { return !s.empty() && s[0] != kTop; }

   /* A path reaches the exit of region id with state s. */
   void reach_exit(unsigned id, const State &s)
   {
      if (exit_met[id]) {
         meet(exit_acc[id], s);
      } else {
         exit_acc[id] = s;
         exit_met[id] = true;
      }
   }

   /* Checks that each phi source sits in its phi's channel, then moves the
    * phi's value there. */
   void phi_sources(const std::vector<Node *> &phis, unsigned idx, State &st)
   {
      for (const Node *p : phis) {
         if (!loud)
            break;
         if (!reg_value(p->dst[0]) || idx >= p->src.size())
            continue;
         int s = slot(p->dst[0]);
         if (s < 0)
            continue;
         if (reg_value(p->src[idx]) && slot(p->src[idx]) != s)
            error("phi source " + value_name(sh, p->src[idx]) + " is not in the channel of " +
                  value_name(sh, p->dst[0]));
         use(p->src[idx], st);
      }
      for (const Node *p : phis)
         if (reg_value(p->dst[0]) && idx < p->src.size())
            def(p->dst[0], st);
   }

   /* The operands of one fetch or export element: one GPR, a channel per
    * distinct value.  `first`: the GPR the element must use, or -1. */
   int vector_operand(std::span<const Value> vals, size_t from, size_t count, int first,
                      const char *what, bool masked_ok = false)
   {
      int g = first;
      unsigned chans = 0;
      std::vector<unsigned> &seen = seen_;
      seen.clear();
      for (size_t k = from; k < from + count && k < vals.size(); k++) {
         const Value &v = vals[k];
         if (!reg_value(v))
            continue;
         if (masked_ok && (sh.value_id(v) >= alloc.reg.size() || alloc.reg[sh.value_id(v)].gpr < 0))
            continue;
         int s = slot(v);
         if (s < 0)
            continue;
         unsigned id = sh.value_id(v);
         if (std::find(seen.begin(), seen.end(), id) != seen.end())
            continue;
         seen.push_back(id);
         if (g >= 0 && s / 4 != g)
            error(std::string(what) + " operand " + value_name(sh, v) + " is in R" +
                  std::to_string(s / 4) + ", not R" + std::to_string(g));
         g = s / 4;
         if (chans & (1u << (s % 4)))
            error(std::string(what) + " operands share " + reg_name(s));
         chans |= 1u << (s % 4);
      }
      return g;
   }

   void fixed_channels(const Node *g)
   {
      if (!loud)
         return;
      /* Most results sit on their slot's channel anyway: only a group with
       * one that does not needs alu_group_fixed's look at every operand. */
      bool off = false;
      for (const Node *a : g->children) {
         if (!a->alu || a->alu->slot > 3 || a->dst.empty() || !reg_value(a->dst[0]))
            continue;
         int s = slot_quiet(a->dst[0]);
         off |= s == -2 || (s >= 0 && s % 4 != a->alu->slot);
      }
      if (!off || !alu_group_fixed(sh, g))
         return;
      for (const Node *a : g->children) {
         if (!a->alu || a->alu->slot > 3 || a->dst.empty() || !reg_value(a->dst[0]))
            continue;
         int s = slot(a->dst[0]);
         if (s >= 0 && s % 4 != a->alu->slot)
            error(value_name(sh, a->dst[0]) + " of a fixed group is not on channel " +
                  "xyzw"[a->alu->slot]);
      }
   }

   void cf_operands(const Node *n)
   {
      if (!loud || !n->cf || (n->cf->op != CfOp::EXPORT && n->cf->op != CfOp::EXPORT_DONE))
         return;
      const ExportInfo &e = n->cf->exp;
      size_t per = 0;
      for (unsigned c = 0; c < 4; c++)
         per += e.swizzle[c] < 4;
      int base = -1;
      for (unsigned b = 0; b < e.burst_count; b++) {
         int g = vector_operand(n->src, b * per, per, base < 0 ? -1 : base + int(b), "export");
         if (b == 0)
            base = g;
      }
   }

   /* Returns false when control never reaches the end of n. */
   bool walk(const Node *n, State &st)
   {
      /* Groups carry no CF index (their clause does): not asking them
       * spares a read of their last cache line, which a group's walk
       * touches for nothing else. */
      if (n->kind != NodeKind::AluGroup && (n->cf_index || n->cf))
         cf = n->cf_index;
      switch (n->kind) {
      case NodeKind::Root:
      case NodeKind::Cf:
         cf_operands(n);
         for (const Value &s : n->src)
            use(s, st);
         for (const Node *c : n->children)
            if (!walk(c, st))
               return false;
         return true;
      case NodeKind::AluGroup:
         fixed_channels(n);
         /* Reads are checked only by loud walks (see use()): a quiet one
          * skips the group's operands at once. */
         if (loud) {
            for (const Node *a : n->children) {
               for (const Value &s : a->src)
                  use(s, st);
               for (const Value &d : a->dst)
                  dst_use(d, st);
            }
         }
         for (const Node *a : n->children)
            for (const Value &d : a->dst)
               def(d, st);
         return true;
      case NodeKind::Alu:
      case NodeKind::Fetch:
         if (n->kind == NodeKind::Fetch && loud) {
            vector_operand(n->src, 0, n->src.size(), -1, "fetch source");
            vector_operand(n->dst, 0, n->dst.size(), -1, "fetch result", true);
         }
         for (const Value &s : n->src)
            use(s, st);
         for (const Value &d : n->dst)
            dst_use(d, st);
         for (const Value &d : n->dst) {
            /* A fetch result without a register is masked, not written;
             * a later read of it fails as a read without a register. */
            if (n->kind == NodeKind::Fetch && reg_value(d) &&
                (sh.value_id(d) >= alloc.reg.size() || alloc.reg[sh.value_id(d)].gpr < 0))
               continue;
            def(d, st);
         }
         return true;
      case NodeKind::Psi: {
         if (n->src.size() != 3 || n->dst.size() != 1) {
            error("malformed psi");
            return true;
         }
         use(n->src[1], st);
         if (reg_value(n->dst[0]) && reg_value(n->src[1]) && slot(n->dst[0]) != slot(n->src[1]))
            error("psi " + value_name(sh, n->dst[0]) + " is not in the channel of its values");
         /* The predicated result was checked against src[2] at its write. */
         if (reg_value(n->dst[0])) {
            int s = slot(n->dst[0]);
            if (s >= 0)
               st[s] = canon[sh.value_id(n->dst[0])];
         }
         return true;
      }
      case NodeKind::If: {
         if (if_states.size() <= if_depth)
            if_states.push_back(std::make_unique<State>());
         State &taken = *if_states[if_depth++];
         taken = st;
         bool t = true;
         for (const Node *c : n->children)
            if (!(t = walk(c, taken)))
               break;
         if (t)
            meet(st, taken);
         if_depth--;
         return true;
      }
      case NodeKind::Depart:
      case NodeKind::Repeat: {
         for (const Node *c : n->children)
            if (!walk(c, st))
               return false;
         if (n->kind == NodeKind::Depart) {
            phi_sources(n->target->region().phi, n->dep_index, st);
            reach_exit(n->target->id, st);
         } else {
            phi_sources(n->target->region().loop_phi, n->dep_index + 1, st);
            State &acc = repeat_acc[n->target->id];
            if (acc.empty()) /* a target not listing this repeat: never read */
               acc.assign(num_slots, kTop);
            meet(acc, st);
         }
         return false;
      }
      case NodeKind::Region:
         return region(n, st);
      case NodeKind::Phi:
      case NodeKind::LoopPhi:
         return true;
      }
      return true;
   }

   /* The checking walk settles each outermost loop when it reaches it: the
    * state at its entry is final then, so the loop alone is walked until
    * its repeat states (and those of the loops inside it) stop changing.
    * The first walk is quiet; each later one checks, but holds its first
    * error back: a walk after which the repeat states have not changed
    * started from the settled states, so it is the checking walk itself
    * (its error stands, its exit state is the loop's), and a loop that
    * settles at once costs two walks, not a second quiet one and then the
    * checking one.  Code outside loops is walked once, and a chain of
    * loops settles loop by loop, not in whole-program passes.  Inside one
    * settling, a loop's entry state meets the repeat states of the
    * previous walk (rep_prev), so nesting costs walks, not an exponential
    * number of them. */
   bool region(const Node *n, State &st)
   {
      bool is_loop = !n->region().repeats.empty();
      if (is_loop && loud && loop_nest == 0)
         return settle(n, st);
      loop_nest += is_loop;
      bool reach = region_walk(n, st);
      loop_nest -= is_loop;
      return reach;
   }

   bool settle(const Node *n, State &st)
   {
      const std::vector<unsigned> &inner = loops_in[n->id];
      loop_nest++;
      bool settled = false, reach = false;
      State s;
      for (unsigned pass = 0; pass < 256 && !settled; pass++) {
         loud = holding = pass > 0;
         held.clear();
         s = st;
         for (unsigned id : inner)
            std::fill(repeat_acc[id].begin(), repeat_acc[id].end(), kTop);
         reach = region_walk(n, s);
         bool stable = true;
         for (unsigned id : inner) {
            stable = stable && repeat_acc[id] == rep_prev[id];
            rep_prev[id] = repeat_acc[id];
         }
         settled = stable && loud;
      }
      loop_nest--;
      loud = true;
      holding = false;
      st.swap(s);
      if (!settled) {
         if (ok)
            diags.error("ra", SourceLoc{0, 0}, "ra_checker: loop states do not settle");
         ok = false;
      } else if (!held.empty()) {
         report(held_cf, held);
      }
      return reach;
   }

   bool region_walk(const Node *n, State &st)
   {
      unsigned id = n->id;
      exit_met[id] = false;
      phi_sources(n->region().loop_phi, 0, st);
      if (!n->region().repeats.empty())
         meet(st, rep_prev[id]);
      /* The body is walked on st itself (no copy): st becomes the exit
       * state below, and nothing else reads it meanwhile. */
      bool through = true;
      for (const Node *c : n->children)
         if (!(through = walk(c, st)))
            break;
      if (through)
         reach_exit(id, st);
      if (!exit_met[id])
         std::fill(exit_acc[id].begin(), exit_acc[id].end(), kTop);
      st = exit_acc[id];
      bool reach = reached(st);
      if (reach) {
         for (const Node *p : n->region().phi)
            if (reg_value(p->dst[0])) {
               int s = slot(p->dst[0]);
               if (s >= 0)
                  st[s] = canon[sh.value_id(p->dst[0])];
            }
      }
      return reach;
   }

   /* One walk for the copy relation, the psis and loops_in[outermost
    * loop] = the loops (itself first) inside it: the tree is large next
    * to these tables, and instructions hold no nodes to descend into. */
   void index_copy(const Node *n)
   {
      if (alu_is_plain_copy(n) && reg_value(n->dst[0]) && reg_value(n->src[0]))
         canon[sh.value_id(n->dst[0])] = canon[sh.value_id(n->src[0])];
   }

   void index_tree(const Node *n, int outer)
   {
      switch (n->kind) {
      case NodeKind::Alu:
         index_copy(n);
         return;
      case NodeKind::Psi:
         if (n->src.size() == 3 && reg_value(n->src[1])) {
            is_predicated[sh.value_id(n->src[1])] = 1;
            psis.push_back({sh.value_id(n->src[1]), n});
         }
         return;
      case NodeKind::Fetch:
         return;
      case NodeKind::Region:
         if (!n->region().repeats.empty()) {
            if (outer < 0)
               outer = int(n->id);
            loops_in[unsigned(outer)].push_back(n->id);
         }
         break;
      default:
         break;
      }
      /* A group's instructions are looked at here, not with a call each:
       * they are most of the tree. */
      for (const Node *c : n->children)
         if (c->kind == NodeKind::Alu)
            index_copy(c);
         else
            index_tree(c, outer);
   }
};

} // namespace

bool ra_checker(const RegionShader &sh, const Allocation &alloc, Diagnostics &diags)
{
   if (!sh.root || alloc.reg.size() < sh.num_values()) {
      diags.error("ra", SourceLoc{0, 0}, "ra_checker: allocation does not cover the values");
      return false;
   }
   Checker ck(sh, alloc, diags);
   int top_gpr = ck.index_values();
   ck.is_predicated.assign(sh.num_values(), 0);
   ck.psis.clear();
   ck.loops_in.assign(sh.regions.size(), {});
   ck.index_tree(sh.root, -1);
   /* By id, keeping index_tree()'s order among one value's psis. */
   std::stable_sort(ck.psis.begin(), ck.psis.end(),
                    [](const auto &a, const auto &b) { return a.first < b.first; });
   ck.num_slots = size_t(top_gpr + 1) * 4;
   State &st = ck.entry;
   st.assign(ck.num_slots, kUnknown);
   /* The states filled where they are kept, the first and then copies of
    * it (a copy is a block move, a fill a loop): no temporary state, an
    * allocation per check, though most shaders have no region. */
   ck.exit_acc.resize(sh.regions.size());
   if (!ck.exit_acc.empty()) {
      ck.exit_acc[0].assign(ck.num_slots, kTop);
      std::fill(ck.exit_acc.begin() + 1, ck.exit_acc.end(), ck.exit_acc[0]);
   }
   ck.exit_met.assign(sh.regions.size(), false);
   /* Only loops meet repeat states. */
   ck.repeat_acc.assign(sh.regions.size(), State());
   for (const Node *r : sh.regions)
      if (!r->region().repeats.empty())
         ck.repeat_acc[r->id].assign(ck.num_slots, kTop);
   /* On entry each GPR holds its own version-0 value, and only there. */
   for (size_t v = 0; v < sh.vars.size(); v++) {
      const Var &var = sh.vars[v];
      if (var.kind != VarKind::Gpr || var.index >= 128)
         continue;
      unsigned id = sh.value_id(int(v), 0);
      const RegAssign &ra = alloc.reg[id];
      if (ra.gpr >= 0 && (unsigned(ra.gpr) != var.index || ra.chan != var.chan)) {
         diags.error("ra", SourceLoc{0, 0},
                     "ra_checker: input " + ck.name(id) + " moved to R" + std::to_string(ra.gpr));
         return false;
      }
      st[var.index * 4 + var.chan] = int(id);
   }
   ck.rep_prev = ck.repeat_acc;
   ck.walk(sh.root, st);
   if (ck.ok && alloc.num_gprs > kRaMaxGprs) {
      diags.error("ra", SourceLoc{0, 0},
                  "ra_checker: " + std::to_string(alloc.num_gprs) + " GPRs exceed the limit");
      return false;
   }
   return ck.ok;
}

bool register_allocation(RegionShader &sh, const ShaderInfo &info, Allocation &alloc,
                         Diagnostics &diags)
{
   (void)info;
   RaContext ctx;
   return ra_split(sh, ctx, diags) && ra_coalesce(sh, ctx, diags) &&
          ra_init(sh, ctx, alloc, diags) && ra_checker(sh, alloc, diags);
}

} // namespace sbcc::r600::sb::region
