/*
 * dce_cleanup: removes ALU nodes whose results are never read.
 *
 * Only nodes of non-fixed groups go (the parser already kept everything
 * with a side effect beyond its destination register in fixed groups).
 * Within a group the hardware reads before it writes, so liveness steps
 * over a group as a whole: the writes of the surviving nodes kill, then
 * their reads revive.  A clause keeps at least one node: an empty ALU
 * clause is not encodable, and ALU_PUSH_BEFORE/POP_AFTER still do their
 * stack work.
 */
#include <algorithm>

#include "common/thread_memory.h"
#include "r600/sb/sb_local_passes.h"

namespace sbcc::r600::sb {

namespace {

bool live_reg(const LiveSet &s, unsigned gpr, unsigned chan)
{
   return gpr < 128 && s.test(gpr * 4 + (chan & 3));
}

/* The live sets dce steps back through a group with: `live` counts only
 * the nodes that stay, `old` (with kOld) every node, as the clause was. */
template <bool kOld> struct CleanSink {
   LiveSet &live;
   LiveSet *old;
   void kill(const AluNode &n, unsigned gpr, unsigned chan)
   {
      if (!n.dead)
         live.reset(gpr * 4 + chan);
      if constexpr (kOld)
         old->reset(gpr * 4 + chan);
   }
   void gen(const AluNode &n, unsigned gpr, unsigned chan)
   {
      if (!n.dead)
         live.set(gpr * 4 + chan);
      if constexpr (kOld)
         old->set(gpr * 4 + chan);
   }
   void gen_all(const AluNode &n)
   {
      if (!n.dead)
         live.set();
      if constexpr (kOld)
         old->set();
   }
};

/* Returns whether a node went; `live` ends as the clause's live-in.
 * With kOld, `old` (the same live-out on entry) also ends as the live-in
 * the clause had before, as liveness() works it out: the walk then
 * stands in for liveness()'s own over the clause.  A node that goes is
 * marked dead before its group is stepped over, so that one walk over
 * the group's operands serves both sets. */
template <bool kOld>
bool clean_clause(ChipClass chip, AluClause &cl, LiveSet &live, LiveSet *old)
{
   bool removed = false;
   live &= ~alu_clause_temps();
   if constexpr (kOld)
      *old &= ~alu_clause_temps();
   /* Survivors are compacted in place: no new lists per group. */
   auto compact = [&](GroupNode &g, bool gone) {
      if (g.fixed)
         return;
      GroupNodeIds &nodes = g.nodes;
      GroupSlots &slots = g.slots;
      if (gone) {
         size_t kept = 0;
         for (size_t k = 0; k < nodes.size(); k++) {
            if (cl.nodes[nodes[k]].dead)
               continue;
            nodes[kept] = nodes[k];
            slots[kept] = slots[k];
            kept++;
         }
         nodes.resize(kept);
         slots.resize(kept);
      }
      /* A trans instruction whose channel's vector slot emptied must
       * move there: slots are told apart by order in the encoding. */
      for (size_t k = 0; k < nodes.size(); k++) {
         const AluNode &n = cl.nodes[nodes[k]];
         const unsigned chan = n.bc.dst.chan & 3;
         if (slots[k] != kSlotT || alu_is_trans_only(chip, n.bc.op) ||
             !(alu_slots(chip, n.bc.op) & kSlotV))
            continue;
         bool taken = false;
         for (uint8_t s : slots)
            taken |= s == chan;
         if (!taken)
            slots[k] = uint8_t(chan);
      }
   };
   CleanSink<kOld> sink{live, old};
   size_t remaining = 0;
   for (const GroupNode &g : cl.groups)
      remaining += g.nodes.size();
   for (size_t gi = cl.groups.size(); gi-- > 0;) {
      GroupNode &g = cl.groups[gi];
      bool gone = false; /* some node of the group */
      if (!g.fixed) {
         /* A node in a group is not dead yet. */
         for (uint32_t id : g.nodes) {
            AluNode &n = cl.nodes[id];
            const bool used = n.writes_gpr() && live_reg(live, n.bc.dst.gpr, n.bc.dst.chan);
            if (!used && remaining > 1) {
               n.dead = true;
               remaining--;
               gone = true;
            }
         }
         removed |= gone;
      }
      alu_group_liveness(cl, g, sink);
      compact(g, gone);
   }
   cl.groups.erase(std::remove_if(cl.groups.begin(), cl.groups.end(),
                                  [](const GroupNode &g) { return g.nodes.empty(); }),
                   cl.groups.end());
   return removed;
}

/* What liveness_or_all() gives where liveness cannot model the CF. */
void all_live(const Shader &sh, ShaderLiveness &after)
{
   after.live_out.assign(sh.cf.size(), LiveSet());
   for (LiveSet &l : after.live_out)
      l.set();
   after.live_in.clear();
   after.known = false;
}

/* The state clean() hands liveness_sweep for the clauses. */
struct Sweep {
   Shader &sh;
   std::vector<LiveSet> &cleaned_in; /* by CF; only ALU clauses' are set */
   bool removed = false;

   static void clause(void *ctx, size_t i, LiveSet &live)
   {
      Sweep &s = *static_cast<Sweep *>(ctx);
      LiveSet &cleaned = s.cleaned_in[i];
      cleaned = live;
      s.removed |= clean_clause<true>(s.sh.chip, s.sh.cf[i].alu, cleaned, &live);
   }
};

/* `after` may be null: nobody needs the liveness afterwards. */
void clean(Shader &sh, ShaderLiveness *after)
{
   for (CfNode &c : sh.cf)
      c.alu.built.clear(); /* post_scheduler's build no longer matches */
   std::vector<LiveSet> live_out, live_in;
   /* Without back edges the liveness sweep cleans each ALU clause as it
    * reaches it, from the clause's live-out (which cleaning no clause
    * changes: live-outs come from the clauses' live-ins before). */
   struct Tables {
      std::vector<LiveSet> cleaned_in;
   };
   /* Kept with the thread: an allocation per shader otherwise.  Only the
    * ALU clauses' entries are read, each after the sweep set it. */
   std::vector<LiveSet> &cleaned_in = thread_kept<Tables>().cleaned_in;
   cleaned_in.resize(sh.cf.size());
   Sweep sweep{sh, cleaned_in};
   bool swept = false;
   /* With back edges, liveness works out every CF's transfer; the
    * clauses cleaning leaves as they were keep theirs for the second
    * liveness. */
   std::vector<LiveTransfer> transfers;
   if (!liveness_sweep(sh, live_out, live_in, {&Sweep::clause, &sweep}, swept, transfers)) {
      /* Unmodelled CF: keep everything. */
      if (after)
         all_live(sh, *after);
      return;
   }
   bool removed = sweep.removed;
   std::vector<uint8_t> changed; /* by CF, where not swept (back edges) */
   if (!swept)
      changed.assign(sh.cf.size(), 0);
   for (size_t i = 0; i < sh.cf.size(); i++) {
      if (!sh.cf[i].is_alu)
         continue;
      /* The clause's live-in from its (old) live-out, as it now stands:
       * what liveness_from() takes where that live-out has not changed. */
      if (swept) {
         live_in[i] = cleaned_in[i];
      } else {
         live_in[i] = live_out[i];
         changed[i] = clean_clause<false>(sh.chip, sh.cf[i].alu, live_in[i], nullptr);
         removed |= changed[i];
      }
   }
   if (!after)
      return;
   if (!removed) {
      after->known = true;
      after->live_out = std::move(live_out);
      after->live_in = std::move(live_in);
   } else if (!(after->known = liveness_from(sh, live_out, live_in, transfers, changed,
                                             after->live_out, &after->live_in))) {
      all_live(sh, *after); /* cannot happen: the CF is as it was */
   }
}

} // namespace

bool dce_cleanup(Shader &sh, Diagnostics &diags, ShaderLiveness &after)
{
   (void)diags;
   clean(sh, &after);
   return true;
}

bool dce_cleanup(Shader &sh, Diagnostics &diags)
{
   (void)diags;
   clean(sh, nullptr);
   return true;
}

} // namespace sbcc::r600::sb
