/*
 * The lone-shader verifier behind `sbcc verify`: runs one TGSI shader on a
 * seeded batch of random inputs, constants and textures through the
 * reference and through a target, and compares every written output channel.
 *
 * Inputs and constants read by integer-typed instructions get integers
 * (constants small and non-negative, [0, 15], like real counts and indices),
 * float-typed reads get floats in [-4, 4] mixed with 0, 1, -1, 0.5 and 2;
 * registers with mixed or unknown use get either.  Fragment shaders run in
 * whole 2x2 quads.  Each SVIEW (or SAMP used without one) gets a procedural
 * texture of the matching kind (a depth texture for shadow targets) with
 * linear filtering and mipmaps.
 *
 * Output channels are compared with the reference interpreter's tolerance
 * classes (interp/compare.h: exact for integer results, relative float
 * tolerance otherwise, wider when transcendental opcodes reach the channel;
 * NaN matches NaN).  Builds without interp fall back to a local dataflow
 * (exact for integer-typed results, 1e-4 relative otherwise).  Lanes killed on both
 * sides are not compared; a kill mismatch is a difference.  Lanes whose
 * result GL leaves undefined (the reference marks them: implicit derivatives
 * in a partly active quad, POW of a negative base) are not compared either,
 * but counted in the result.
 *
 * May use: common, tgsi, texture, interp, runner.
 */
#pragma once

#include <cstdint>
#include <string>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::runner {

struct VerifyOptions {
   uint64_t seed = 1;
   unsigned invocations = 64; /* rounded up to whole quads for fragment shaders */
   RunLimits limits;
   /* Fragment inputs vary across each 2x2 quad as one rasterized primitive
    * would (planes, flat values, pixel-stepped position), so derivatives and
    * implicit LOD are meaningful.  Off: every lane draws independent values.
    * Either way, implicit-LOD reads in partly active quads (after a
    * non-uniform KILL, in divergent branches) are classified as undefined by
    * the reference and not compared. */
   bool quad_coherent_inputs = true;
};

enum class VerifyStatus : uint8_t { Pass, Fail, Budget, Error };

struct VerifyResult {
   VerifyStatus status = VerifyStatus::Pass;
   /* The first difference (lane, register, both values, the lane's inputs),
    * or why the run hit the budget or failed. */
   std::string message;
   /* Lanes not compared because the reference found their result undefined
    * by GL (Lane::undefined), in all and per reason. */
   unsigned undefined_lanes = 0;
   unsigned undefined_derivative = 0; /* implicit derivative in a partly active quad */
   unsigned undefined_pow = 0;        /* POW with a negative (or 0 and y <= 0) base */
   /* "N lanes undefined by GL (a derivative, b pow)", empty when none. */
   std::string undefined_summary() const;
};

/* The float tolerance used for non-integer outputs. */
bool float_outputs_match(const tgsi::Shader &shader, uint32_t ref, uint32_t got);

VerifyResult verify_shader(const tgsi::Shader &shader, const Executable &reference,
                           const Executable &target, const VerifyOptions &options);

} // namespace sbcc::runner
