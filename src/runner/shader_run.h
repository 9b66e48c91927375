/*
 * Executes a parsed .shader_test: builds the stages' TGSI (from TGSI text or
 * ARB assembly), compiles them with a caller-supplied compiler (a target from
 * the registry, or a fake in tests), runs the [test] commands through the
 * rasterizer and checks the probes.
 *
 * Fixed-function state follows GL defaults: identity modelview/projection
 * until `ortho`, current color (1, 1, 1, 1), texcoords (0, 0, 0, 1).  When a
 * test has only a fragment stage, a host-side passthrough vertex stage is
 * used, as GL's fixed function would: position = MVP * vertex, COLOR[0] =
 * current color, GENERIC[n]/TEXCOORD[n] = texcoord n, FOG = (|eye z|, 0, 0, 1).
 * With only a vertex stage, the fragment stage copies COLOR[0] to the pixel.
 *
 * Constants: TGSI stages read `uniform`/`constant` values (shared by both
 * stages, like a uniform namespace); ARB stages read their ParamBindings
 * (env/local parameters per program kind, literals, GL state).
 *
 * Probes compare with piglit's default tolerance of 0.01 per channel against
 * the 8-bit quantized framebuffer.
 *
 * May use: common, tgsi, texture, arb, runner.
 */
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/diag.h"
#include "common/exec.h"
#include "runner/raster.h"
#include "runner/shader_test.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::runner {

constexpr float kProbeTolerance = 0.01f;

/* Compiles one stage for the target under test; nullptr plus a diagnostic
 * on failure. */
using StageCompiler =
   std::function<std::unique_ptr<Executable>(const tgsi::Shader &, Diagnostics &)>;

/* Where one CONST slot of an ARB stage comes from (see arb::ParamBinding). */
struct ConstBinding {
   enum class Kind : uint8_t { Env, Local, State, Literal } kind = Kind::Literal;
   int32_t index = 0;
   std::string state;
   std::array<float, 4> value = {0, 0, 0, 0};
   int32_t const_index = 0;
};

struct LoadedStage {
   StageKind kind = StageKind::TgsiFragment;
   bool vertex = false;
   bool arb = false;
   tgsi::Shader shader;
   std::vector<ConstBinding> bindings; /* ARB only */
   std::vector<std::string> input_names; /* ARB vertex only: "vertex.position" by IN index */
};

/* Parses every stage of the test into TGSI; nullopt plus diagnostics (with
 * the .shader_test's file and line numbers) on error. */
std::optional<std::vector<LoadedStage>> load_stages(const ShaderTest &test, Diagnostics &diags);

enum class TestStatus : uint8_t { Pass, Fail, Skip, Error };

struct TestResult {
   TestStatus status = TestStatus::Pass;
   /* Failing probes, the skip reason or the error, one per line. */
   std::vector<std::string> messages;
   Framebuffer fb;
};

struct RunOptions {
   RunLimits limits;
   unsigned batch_lanes = 64;
   /* Extensions the target lacks ([require] of one of them skips the test). */
   std::vector<std::string> missing_extensions;
};

/* Errors in the test itself (bad stage text, unsupported state) are reported
 * in diags and give TestStatus::Error. */
TestResult run_shader_test(const ShaderTest &test, const StageCompiler &compile,
                           const RunOptions &options, Diagnostics &diags);

/* Convenience for tools: read, parse and run a file. */
TestResult run_shader_test_file(const std::string &path, const StageCompiler &compile,
                                const RunOptions &options, Diagnostics &diags);

/* Whole-file read; false plus a diagnostic when it cannot be read. */
bool read_file(const std::string &path, std::string &out, Diagnostics &diags);

} // namespace sbcc::runner
