/*
 * sb: the r600 bytecode optimizer, entry point for targets and tools.
 *
 * sb_optimize() takes finished bytecode and returns optimized bytecode, or
 * nullopt when the source bytecode should be used: sb is off for this
 * shader (R600_DEBUG sb/sbcl, DSKIP), runs dry (sbdry), or a pass failed.
 * A failure is never an error for the caller: the source program stays
 * valid, and under sbstat a one-line message says which pass gave up.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/debug_options.h"
#include "common/diag.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"

namespace sbcc::r600::sb {

struct SbPassTime {
   std::string pass;
   double seconds = 0;
};

struct SbStats {
   uint32_t shader_seq = 0; /* 1-based number of this shader in the process */
   bool optimized = false;  /* sb ran all passes and its result is returned */
   std::string failed_pass; /* empty when none failed */
   /* The SSA stage (sb_region_passes.h) ran and its result was used; when
    * it gave up, ssa_failed_pass names the pass and the clause-local
    * passes ran on the source bytecode instead. */
   bool ssa = false;
   std::string ssa_failed_pass;
   unsigned groups_before = 0, groups_after = 0;
   unsigned instrs_before = 0, instrs_after = 0;
   unsigned dwords_before = 0, dwords_after = 0;
   unsigned gprs_before = 0, gprs_after = 0;
   /* Wall time of each pass run, in order; only with DebugOptions::sb_stat
    * or sb_pass_times. */
   std::vector<SbPassTime> times;
   /* What sbstat/sbdump print: `sb: shader #N ...` lines, IR dumps. */
   std::string log;
};

std::optional<Program> sb_optimize(const Program &prog, const ShaderInfo &info,
                                   const DebugOptions &opts, SbStats *stats, Diagnostics &diags);

/* Number of GPRs a program references (highest index + 1, clause
 * temporaries excluded). */
unsigned program_gprs(const Program &prog);

/* The shader sequence counter sb_optimize numbers shaders with (tests). */
void sb_reset_shader_counter();

} // namespace sbcc::r600::sb
