/*
 * Debug and tuning switches, read from the environment in one place so every
 * backend and tool sees the same names.  The CLI and the public API fill the
 * same struct, so each switch also exists as a flag and an API field.
 *
 *   R600_DEBUG=sb,sbcl,sbdry,sbstat,sbdump,nosb   (Mesa's names for the sb optimizer)
 *   R600_SB_DSKIP_MODE=0|1|2, R600_SB_DSKIP_START=N, R600_SB_DSKIP_END=N
 *   SBCC_DEBUG=nomerge,nossa,...                   (sbcc's own switches)
 *
 * May use: src/common only.
 */
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/diag.h"

namespace sbcc {

struct DebugOptions {
   /* sb optimizer (r600). */
   bool sb = false;      /* optimize graphics shaders */
   bool sb_cl = false;   /* optimize compute shaders */
   bool sb_dry = false;  /* run sb, emit the source bytecode */
   bool sb_stat = false; /* per-shader statistics and pass times */
   bool sb_dump = false; /* dump the IR after passes */
   /* Time every pass into SbStats::times (sb_stat implies it).  Off by
    * default: reading the clock twice per pass costs a compile a few
    * percent, and only sbstat and the bench read the times.  API only. */
   bool sb_pass_times = false;
   /* Bisection: 0 = off, 1 = skip shaders in [start, end], 2 = optimize only those. */
   int sb_dskip_mode = 0;
   uint32_t sb_dskip_start = 0;
   uint32_t sb_dskip_end = 0;

   /* TGSI temporary merging before the plain r600 backend (on by default). */
   bool merge_temps = true;
   /* sb's SSA stage (global optimization and register allocation) before
    * its clause-local scheduling; SBCC_DEBUG=nossa leaves only the latter. */
   bool sb_ssa = true;

   /* Parse a comma-separated R600_DEBUG-style list.  Unknown names are
    * reported as errors in diags (source "R600_DEBUG"), the rest applied. */
   void apply_r600_debug(std::string_view list, Diagnostics &diags);
   void apply_sbcc_debug(std::string_view list, Diagnostics &diags);

   /* Defaults overridden by the environment variables listed above. */
   static DebugOptions from_environment(Diagnostics &diags);

   /* True when the sb DSKIP settings say shader number `seq` (1-based) is optimized. */
   bool sb_should_optimize(uint32_t seq) const;
};

} // namespace sbcc
