/*
 * The r600-family compile pipeline behind the driver's targets 'evergreen'
 * and 'r700': TGSI -> bytecode (r600_tgsi.h) -> dwords (assembler) ->
 * decoded back -> validated -> R600Executable (the emulator).  Decoding the
 * assembled words means what runs is exactly what the hardware would read.
 *
 * The Target classes themselves live in src/driver (which may call r600);
 * this is the part they call.
 *
 * May use: common, tgsi, r600.
 */
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "common/debug_options.h"
#include "common/diag.h"
#include "common/exec.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::r600 {

/* `chip_name` empty selects `default_chip`; otherwise a family or class
 * name ("CYPRESS", "RV770", "evergreen").  words (optional) receives the
 * machine code. */
/* A bytecode-to-bytecode optimizer (sb) run on the validated plain output.
 * It returns nullopt to keep its input and may update the statistics.  The
 * caller supplies it, so this library does not depend on its optimizer. */
using BytecodeOptimizer =
   std::function<std::optional<Program>(const Program &, const ShaderInfo &, ShaderStats *)>;

std::unique_ptr<Executable> compile_tgsi_for_r600(const tgsi::Shader &shader,
                                                  ChipClass default_chip,
                                                  std::string_view chip_name,
                                                  const DebugOptions &debug, Diagnostics &diags,
                                                  ShaderStats *stats,
                                                  std::vector<uint32_t> *words = nullptr,
                                                  const BytecodeOptimizer *optimize = nullptr);

/* Machine code of an executable made by compile_tgsi_for_r600 (empty for
 * anything else). */
std::vector<uint8_t> r600_executable_binary(const Executable &exe);

} // namespace sbcc::r600
