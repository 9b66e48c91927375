/*
 * The interpreter's compact, pre-validated form of a TGSI shader: operands
 * resolved to flat indices with their legal ranges, control flow resolved to
 * jump targets, texture operands resolved to units and offsets.  Built once
 * by decode_shader() so run() does no lookups.
 */
#pragma once

#include <cstdint>
#include <vector>

#include "common/diag.h"
#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::interp {

/* Register reached through ADDR[i].c / TEMP[i].c, added to the index. */
struct DIndirect {
   bool present = false;
   tgsi::File file = tgsi::File::Address;
   int32_t index = 0;
   uint8_t chan = 0;
};

struct DSrc {
   tgsi::File file = tgsi::File::Null;
   int32_t index = 0;
   DIndirect ind;
   /* Legal index range for indirect access (inclusive); an index outside it
    * reads 0.  Direct indices were checked at decode time. */
   int32_t lo = 0, hi = -1;
   /* CONST[dim][index]: the buffer. */
   int32_t dim = 0;
   DIndirect dim_ind;
   uint8_t swz[4] = {0, 1, 2, 3};
   bool neg = false;
   bool abs = false;
   bool int_mods = false; /* negate/abs are integer ops for this operand */
   /* Direct TEMP / IMM reads, the common case, skip the general lookup. */
   enum Fast : uint8_t { kGeneral, kTemp, kImm } fast = kGeneral;
};

struct DDst {
   tgsi::File file = tgsi::File::Null;
   int32_t index = 0;
   DIndirect ind;
   int32_t lo = 0, hi = -1;
   uint8_t mask = 0;
};

struct DInst {
   tgsi::Opcode op = tgsi::Opcode::NOP;
   bool sat = false;  /* saturate applies (float result with _SAT) */
   uint8_t nsrc = 0;
   bool has_dst = false;
   DDst dst;
   DSrc src[4];
   /* IF/UIF: ELSE or ENDIF; ELSE: ENDIF; BGNLOOP: ENDLOOP; ENDLOOP: BGNLOOP. */
   uint32_t jump = 0;
   /* Texture instructions. */
   tgsi::TextureTarget target = tgsi::TextureTarget::Unknown;
   uint32_t unit = 0;
   DIndirect unit_ind;    /* SAMP[ADDR[0].x+n]: per-lane unit */
   int32_t num_units = 0; /* declared SAMP/SVIEW count, bounds unit_ind */
   int32_t offset[3] = {0, 0, 0};
};

struct DShader {
   tgsi::Processor processor = tgsi::Processor::Vertex;
   std::vector<DInst> code;
   std::vector<Vec4> immediates;
   int32_t num_temps = 0;
   int32_t num_addrs = 0;
   int32_t num_outputs = 0;
   int32_t num_inputs = 0;
   uint32_t max_depth = 0; /* deepest IF/loop nesting */
};

/* False (with diagnostics) when the shader cannot be interpreted. */
bool decode_shader(const tgsi::Shader &shader, DShader &out, Diagnostics &diags);

} // namespace sbcc::interp
