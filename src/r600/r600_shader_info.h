/*
 * The input/output layout of an r600-family shader: which GPRs the hardware
 * (SPI, fetch shader) fills before the program starts, which barycentrics
 * and parameter slots Evergreen's INTERP_* instructions read, and which
 * exports become which TGSI outputs.
 *
 * It is the contract between the code that produces bytecode (the plain TGSI
 * backend, sb, or Mesa's driver in the corpus, whose `; INFO` block maps onto
 * these fields one to one) and the emulator that runs it.  Field names follow
 * Mesa's struct r600_shader_io so its info blocks translate directly.
 *
 * May use: common, tgsi (semantic and interpolation enums).
 */
#pragma once

#include <cstdint>
#include <vector>

#include "r600/r600_bytecode.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::r600 {

struct ShaderIo {
   tgsi::Semantic semantic = tgsi::Semantic::Generic;
   uint32_t semantic_index = 0;
   /* The TGSI register this slot carries: IN[tgsi_index] or OUT[tgsi_index]. */
   int32_t tgsi_index = 0;
   /* GPR the hardware fills (inputs) or the program exports from (outputs). */
   uint8_t gpr = 0;
   uint8_t write_mask = 0xf;
   tgsi::Interpolate interpolate = tgsi::Interpolate::Perspective;
   tgsi::InterpLocation location = tgsi::InterpLocation::Center;

   /* Fragment inputs on Evergreen/Cayman: INTERP_* reads parameter `lds_pos`
    * (ALU selector ALU_SRC_PARAM_BASE + lds_pos) with the barycentric pair
    * `ij_index` (pair k lives in GPR k/2, channels (k%2)*2 and (k%2)*2+1).
    * -1 when the input is not interpolated by the program (SPI-loaded GPR:
    * always on R600/R700, and POSITION/FACE everywhere). */
   int32_t lds_pos = -1;
   int32_t ij_index = -1;

   /* Outputs: export target.  `export_type` is the CF_ALLOC_EXPORT TYPE
    * (0 pixel, 1 pos, 2 param) and `export_base` its ARRAY_BASE (pixel:
    * colour buffer index; pos: 60 position, 61 point size/misc,
    * 62-63 clip distances; param: the parameter index the next stage reads). */
   uint8_t export_type = 0;
   uint16_t export_base = 0;
};

struct ShaderInfo {
   tgsi::Processor stage = tgsi::Processor::Vertex;
   ChipClass chip = ChipClass::Evergreen;
   std::vector<ShaderIo> inputs;
   std::vector<ShaderIo> outputs;
   uint32_t num_gprs = 0;  /* GPRs the program uses (what SQ_PGM_RESOURCES gets) */
   uint32_t stack_size = 0;
   /* Evergreen fragment shaders: number of barycentric pairs loaded into
    * GPR 0.. before the program starts. */
   uint32_t num_ij = 0;
   bool uses_kill = false;
   /* The vertex shader starts with CALL_FS: the fetch shader loads the
    * vertex attributes into inputs[i].gpr. */
   bool has_fetch_shader = false;
};

} // namespace sbcc::r600
