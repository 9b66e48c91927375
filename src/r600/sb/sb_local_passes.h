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
bool liveness_sweep(const Shader &sh, std::vector<LiveSet> &live_out,
                    std::vector<LiveSet> &live_in, const ClauseSweep &sweep, bool &swept);

} // namespace sbcc::r600::sb
