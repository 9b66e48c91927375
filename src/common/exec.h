/*
 * The execution contract every target honours: the reference interpreter and
 * each backend's emulator run a compiled shader over a batch of invocations
 * with the same inputs and resources, so their outputs can be compared.
 *
 * Layout conventions (shared by all targets, so results line up):
 *  - Lane::inputs[i] is TGSI IN[i]; Lane::outputs[i] is OUT[i]; system values
 *    (SV[i]) in Lane::system_values[i].  All values are raw 32-bit words.
 *  - Fragment batches come in 2x2 quads: lanes 4k+0..4k+3 are the top-left,
 *    top-right, bottom-left and bottom-right pixels of one quad; DDX/DDY and
 *    implicit texture LOD are computed within the quad.
 *  - Constants: Resources::constants[buffer][index] is CONST[buffer][index]
 *    (CONST[i] without a dimension is buffer 0).
 *  - A loop budget bounds data-dependent loops identically on every target:
 *    each taken loop back-edge (ENDLOOP in TGSI, LOOP_END in machine code)
 *    counts one iteration for the lane; a lane over the budget stops and the
 *    run reports BudgetExceeded, never a pass.
 *
 * May use: src/common only (texture types are forward-declared).
 */
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace sbcc {

namespace tex {
class TextureSet;
}

using Vec4 = std::array<uint32_t, 4>;

inline float u2f(uint32_t u)
{
   float f;
   std::memcpy(&f, &u, 4);
   return f;
}

inline uint32_t f2u(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

inline Vec4 vec4f(float x, float y, float z, float w) { return {f2u(x), f2u(y), f2u(z), f2u(w)}; }

struct Lane {
   std::vector<Vec4> inputs;
   std::vector<Vec4> system_values;
   std::vector<Vec4> outputs;
   bool killed = false;      /* fragment discarded */
   bool helper = false;      /* quad filler: runs, but its outputs are ignored */
   uint64_t loop_iterations = 0;
   /* Set by the reference interpreter (kUndefined* bits) when the lane ran
    * something whose result GL leaves undefined; verifiers skip and count
    * such lanes instead of comparing them. */
   uint8_t undefined = 0;
};

/* Lane::undefined bits. */
constexpr uint8_t kUndefinedDerivative = 1; /* implicit derivative in a partly active quad */
constexpr uint8_t kUndefinedPow = 2;        /* POW with x < 0, or x == 0 and y <= 0 */

struct Batch {
   std::vector<Lane> lanes;
};

struct Resources {
   std::vector<std::vector<Vec4>> constants;
   const tex::TextureSet *textures = nullptr;
};

struct RunLimits {
   uint64_t max_loop_iterations = 1u << 16; /* per lane */
};

enum class RunStatus : uint8_t { Ok, BudgetExceeded, Error };

struct RunResult {
   RunStatus status = RunStatus::Ok;
   std::string message; /* why, for BudgetExceeded and Error */
   uint64_t instructions = 0; /* executed instruction count, summed over lanes */
};

/* A shader compiled for one target, ready to run. */
class Executable {
 public:
   virtual ~Executable() = default;
   virtual RunResult run(const Resources &res, Batch &batch, const RunLimits &limits) const = 0;
   /* Human-readable code listing (disassembly, or TGSI for the reference). */
   virtual std::string listing() const = 0;
};

/* Named statistics of one compiled shader, in the order a backend reports
 * them (shader-db style: "12 inst, 3 gprs, ..."). */
struct ShaderStats {
   std::vector<std::pair<std::string, int64_t>> values;
   void set(const std::string &name, int64_t value);
   int64_t get(const std::string &name) const; /* 0 when absent */
   /* "<a> name, <b> name2, ..." */
   std::string str() const;
};

} // namespace sbcc
