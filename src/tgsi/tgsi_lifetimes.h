/*
 * Loop-aware live ranges of TGSI temporaries.
 *
 * Real shaders declare thousands of TEMPs that each live a few instructions,
 * often inside long loops; a backend without a graph-colouring allocator can
 * only fit them into its register file if temporaries with disjoint live
 * ranges share a register (see tgsi_merge_temps.h).  This file computes those
 * ranges in one forward pass over the instructions, per channel, with a
 * stack of the active IF/ELSE/BGNLOOP scopes.  The rules (dominating writes,
 * loops, BRK/CONT, undefined reads, arrays) are in docs/tgsi-lifetimes.md.
 *
 * May use: src/common, src/tgsi.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/diag.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::tgsi {

/* Instruction indices (positions in Shader::instructions), both inclusive.
 * begin == -1 means the register is live on shader entry: some read may see
 * the register's initial contents, so nothing may be written to it earlier. */
struct Lifetime {
   int begin = -1;
   int end = -1;
   bool unused = true;

   bool operator==(const Lifetime &o) const = default;
};

/* The full result.  Ranges are also kept in "slots" (read slot 2*i, write
 * slot 2*i + 1 of instruction i, -1 = shader entry) so that a temporary whose
 * last read is instruction i may share a register with one first written by
 * the same instruction (sources are read before the destination is written). */
struct TempLifetimes {
   std::vector<Lifetime> temps;                      /* by TEMP index */
   std::vector<std::array<Lifetime, 4>> channels;    /* by TEMP index, then x..w */
   std::vector<int> slot_begin, slot_end;            /* by TEMP index; begin > end: unused */
   std::vector<std::array<int, 4>> chan_slot_begin, chan_slot_end; /* by TEMP, channel */
   /* Temporaries that must keep their register: members of ARRAY
    * declarations (whole-program range).  array_of[t] is the index into
    * Shader::declarations of t's array declaration, or -1. */
   std::vector<int> array_of;
   /* A TEMP was addressed indirectly outside any ARRAY declaration: any
    * temporary may be touched at any time, so no two may share a register. */
   bool unknown_indirect = false;
};

/* Computes the live ranges.  Returns nullopt (with an error at the offending
 * instruction in diags) when control flow is unbalanced (ELSE/ENDIF/ENDLOOP
 * without opener, BRK/CONT outside a loop, unclosed scopes) or a TEMP index
 * is negative or absurdly large; never crashes on any Shader. */
std::optional<TempLifetimes> compute_temp_lifetimes(const Shader &shader, Diagnostics &diags);

/* The 4-bit mask of source components (before swizzling) that instruction
 * `inst` actually uses from source operand `src_index`: e.g. DP3 uses xyz,
 * RCP only x, a component-wise op the components of its write mask. */
uint8_t source_usage_mask(const Instruction &inst, unsigned src_index);

} // namespace sbcc::tgsi
