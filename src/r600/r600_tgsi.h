/*
 * The plain TGSI -> r600 bytecode translator, in the spirit of Mesa's legacy
 * r600_shader.c: one TGSI instruction at a time, no scheduling beyond
 * packing the channels of one instruction into one ALU group, but every
 * group it emits respects the slot, read-port (bank swizzle), literal and
 * kcache rules, so the result is always legal.
 *
 * Register layout (what ShaderInfo records for the emulator):
 *   VS: R0 reserved (vertex id), IN[i] -> R1+i (loaded by the fetch shader
 *       called with CALL_FS), then TEMPs, OUTs, ADDR and scratch registers.
 *   FS R700: IN[i] -> R0+i loaded by the SPI.
 *   FS EG:   barycentric pairs in R0.., then the inputs, interpolated at
 *       program start with INTERP_ZW/INTERP_XY (flat: INTERP_LOAD_P0).
 * Outputs are exported at the end (POS 60, PARAM n, PIXEL n).
 *
 * May use: common, tgsi, r600 bytecode model.
 */
#pragma once

#include <optional>

#include "common/debug_options.h"
#include "common/diag.h"
#include "common/exec.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::r600 {

struct TgsiCompiled {
   Program prog;
   ShaderInfo info;
   ShaderStats stats; /* dw, gprs, alu_groups, loops, cf, stack */
};

/* Translates a TGSI shader for `chip` (R700 or Evergreen; R600 and Cayman
 * are refused with a diagnostic).  Returns nullopt with an error naming the
 * limit or the unsupported construct when no legal code can be produced. */
std::optional<TgsiCompiled> tgsi_to_r600(const tgsi::Shader &shader, ChipClass chip,
                                         const DebugOptions &debug, Diagnostics &diags);

} // namespace sbcc::r600
