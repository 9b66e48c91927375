/*
 * How the verifier decides that a backend's output equals the reference
 * interpreter's: a tolerance class per output channel, derived from the
 * opcodes that can feed it, and a comparison of raw 32-bit words under it.
 * The rules (and why) are in docs/semantics.md, "Comparison tolerance".
 *
 *   Exact           bits must be equal (integer results, unwritten outputs)
 *   Float           |ref - got| <= 1e-4 * max(1, |ref|)
 *   Transcendental  |ref - got| <= 2^-10 * max(1, |ref|)
 *  For Float and Transcendental: any NaN matches any NaN; an infinity
 *  matches the same infinity or a same-signed finite value of magnitude
 *  >= 2^126 (hardware that clamps RCP/RSQ(0) to FLT_MAX).
 *
 * May use: src/common, src/tgsi.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::interp {

enum class Tolerance : uint8_t { Exact, Float, Transcendental };

constexpr float kFloatRelTolerance = 1e-4f;
constexpr float kTranscendentalRelTolerance = 1.0f / 1024.0f;

bool values_match(uint32_t ref, uint32_t got, Tolerance tol);

/* Tolerance for OUT[i].c. */
struct OutputTolerances {
   std::vector<std::array<Tolerance, 4>> outputs;
   Tolerance at(size_t output, unsigned chan) const
   {
      return output < outputs.size() && chan < 4 ? outputs[output][chan] : Tolerance::Exact;
   }
};

/* Flow-insensitive: every value an output channel may receive is traced
 * back through TEMP/ADDR moves.  A channel only integer opcodes write is
 * Exact; one any float opcode writes is Float; Transcendental when a
 * transcendental opcode (RCP RSQ SQRT EX2 LG2 POW SIN COS EXP LOG LIT) can
 * reach it. */
OutputTolerances derive_tolerances(const tgsi::Shader &shader);

struct Mismatch {
   size_t lane = 0;
   int output = -1;  /* -1: the lane's killed flag differs */
   unsigned chan = 0;
   uint32_t ref = 0, got = 0;
   std::string str() const;
};

/* First difference between two runs of the same batch, ignoring helper
 * lanes, lanes the reference marked undefined by GL (Lane::undefined) and
 * the outputs of killed lanes. */
std::optional<Mismatch> compare_batches(const Batch &ref, const Batch &got,
                                        const OutputTolerances &tol);

} // namespace sbcc::interp
