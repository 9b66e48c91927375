/*
 * Entry points the clause-local passes share among themselves, beyond
 * sb_passes.h.
 */
#pragma once

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

/* What liveness() gives, for dce_cleanup: where the CF has no back edge,
 * the one backward sweep hands each ALU clause to `clause` with its
 * live-out in `live` instead of walking the clause itself, and `clause`
 * must leave there the clause's live-in as liveness() works it out for
 * the clause as it was (it may change the clause's nodes: the sweep has
 * no further use for them).  *swept says whether it did so;
 * with back edges (or when false is returned) no clause was handed over. */
struct ClauseSweep {
   void (*clause)(void *ctx, size_t cf, LiveSet &live);
   void *ctx;
};
/* A CF instruction's effect on liveness: live before = (live after &
 * ~kill) | gen.  Where the CF has back edges, liveness() works each CF's
 * out first and iterates on them; liveness_sweep leaves them in
 * `transfers` then, for liveness_from. */
struct LiveTransfer {
   LiveSet kill, gen;
};
bool liveness_sweep(const Shader &sh, std::vector<LiveSet> &live_out,
                    std::vector<LiveSet> &live_in, const ClauseSweep &sweep, bool &swept,
                    std::vector<LiveTransfer> &transfers);
/* liveness() given, for each CF i, a live-out `before_out[i]` and the
 * live-in `before_in[i]` CF i has from it: CFs whose live-out is still
 * the same take that live-in instead of being walked.  With back edges,
 * `transfers` is what liveness_sweep left (or empty), and only the CFs
 * marked in `changed` (one flag per CF) are walked again. */
bool liveness_from(const Shader &sh, const std::vector<LiveSet> &before_out,
                   const std::vector<LiveSet> &before_in, std::vector<LiveTransfer> &transfers,
                   const std::vector<uint8_t> &changed, std::vector<LiveSet> &live_out,
                   std::vector<LiveSet> *live_in = nullptr);

/* Backward liveness through an ALU clause, as liveness() and dce_cleanup
 * both step through it.  At the clause end its temporaries (GPR 123-127)
 * die: alu_clause_temps() is the mask of their channels.  Then each group,
 * last first: the hardware reads a group's sources before it writes, so
 * backwards the group's writes kill first and its reads make live after.
 * The sink hears each step with the node it comes from, so that it can
 * leave out nodes (dce keeps a second live set for the nodes it drops):
 *    kill(node, gpr, chan)   an unpredicated, non-relative, non-MOVA write;
 *    gen(node, gpr, chan)    a GPR read;
 *    gen_all(node)           a relative read: anything may be read.
 * gpr is below 128 in both; chan is 0-3. */
const LiveSet &alu_clause_temps();

template <typename Sink> inline void alu_group_liveness(const AluClause &cl, const GroupNode &g, Sink &t)
{
   for (uint32_t id : g.nodes) {
      const AluNode &n = cl.nodes[id];
      if (n.writes_gpr() && !n.bc.dst.rel && !n.bc.pred_sel && n.bc.dst.gpr < 128 &&
          !(alu_op_info(n.bc.op).flags & AF_MOVA))
         t.kill(n, n.bc.dst.gpr, n.bc.dst.chan & 3u);
   }
   for (uint32_t id : g.nodes) {
      const AluNode &n = cl.nodes[id];
      const unsigned nsrc = alu_op_info(n.bc.op).num_src;
      for (unsigned s = 0; s < nsrc; s++) {
         const Operand &o = n.src[s];
         if (o.rel)
            t.gen_all(n);
         else if (o.value.kind == ValueKind::Gpr && o.value.sel < 128)
            t.gen(n, o.value.sel, o.value.chan & 3u);
      }
   }
}

} // namespace sbcc::r600::sb
