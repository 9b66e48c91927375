/*
 * The reference interpreter: runs a TGSI shader over a Batch following the
 * execution contract in common/exec.h.  Its results are the truth every
 * backend's emulator output is compared against, so every opcode's exact
 * semantics (and the places hardware may legitimately differ) are written
 * down in docs/semantics.md.
 *
 * Execution model: lanes run in groups of four (a fragment quad; vertex and
 * other stages are grouped the same way, which cannot be observed) in
 * lock-step with per-lane active masks, like the hardware.  So DDX/DDY and
 * implicit texture LOD always see all four lanes at the same instruction:
 * lanes that are inactive (other side of a branch, finished, killed) keep
 * their last register values and those are what the derivative uses.  GL
 * leaves such results undefined, so the active lanes of a partly active quad
 * are marked in Lane::undefined, as are lanes running POW on a negative base;
 * verifiers skip and count them (docs/semantics.md).
 *
 * The shader is decoded once into a compact form when the executable is
 * made; run() allocates per run, never per instruction.
 *
 * May use: src/common, src/tgsi, src/texture.
 */
#pragma once

#include <memory>

#include "common/diag.h"
#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::interp {

/* Validates and decodes the shader.  Returns nullptr with at least one error
 * in diags (file:line:column of the offending instruction or declaration)
 * when the shader uses something the interpreter does not support or is
 * malformed (mismatched control flow, undeclared registers, ...). */
std::unique_ptr<Executable> make_reference_executable(const tgsi::Shader &shader,
                                                      Diagnostics &diags);

} // namespace sbcc::interp
