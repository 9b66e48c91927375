/*
 * Per-slot ALU semantics of the r600 emulator (internal to r600_emu*.cpp).
 * Group-level effects (reductions, INTERP pairs, predicates, kills, AR) are
 * handled by the caller; this computes one slot's 32-bit result.
 */
#pragma once

#include <cstdint>

#include "r600/r600_bytecode.h"

namespace sbcc::r600::emu {

/* Result of one slot.  `cond` is the comparison outcome of SET / PRED_SET /
 * KILL / CND ops (true when the condition holds). */
struct SlotResult {
   uint32_t value = 0;
   bool cond = false;
};

/* False when the op has no scalar semantics here (reductions, INTERP,
 * LDS, 64-bit ops): the caller handles them or reports them. */
bool alu_eval(ChipClass chip, AluOp op, uint32_t a, uint32_t b, uint32_t c, SlotResult &out);

/* r600 non-IEEE multiply: 0 times anything (inf, NaN) is 0. */
float mul_legacy(float a, float b);

/* Output modifier and clamp of a float result. */
uint32_t apply_omod_clamp(uint32_t v, unsigned omod, bool clamp);

} // namespace sbcc::r600::emu
