/*
 * Hand-built r600 programs for the emulator and validator tests.
 */
#pragma once

#include <string>
#include <vector>

#include "r600/r600_bytecode.h"
#include "r600/r600_emu.h"
#include "r600/r600_shader_info.h"

namespace sbcc::r600::test {

inline AluDst dst(unsigned gpr, unsigned chan, bool write = true)
{
   AluDst d;
   d.gpr = uint8_t(gpr);
   d.chan = uint8_t(chan);
   d.write = write;
   return d;
}

inline AluInstr alu(AluOp op, unsigned slot, AluDst d, AluSrc a = {}, AluSrc b = {},
                    AluSrc c = {})
{
   AluInstr in;
   in.op = op;
   in.slot = uint8_t(slot);
   in.dst = d;
   in.src = {a, b, c};
   return in;
}

inline AluSrc lit(unsigned chan) { return src_literal(chan); }
inline AluSrc pv(unsigned chan) { return AluSrc{kSrc_PV, uint8_t(chan), false, false, false}; }
inline AluSrc ps() { return AluSrc{kSrc_PS, 0, false, false, false}; }
inline AluSrc one() { return src_inline(kSrc_1); }
inline AluSrc zero() { return src_inline(kSrc_0); }

inline AluGroup group(std::vector<AluInstr> instrs, std::vector<uint32_t> literals = {})
{
   AluGroup g;
   g.instrs = std::move(instrs);
   g.literals = std::move(literals);
   return g;
}

inline CfInstr alu_clause(std::vector<AluGroup> groups, CfOp op = CfOp::ALU)
{
   CfInstr cf;
   cf.op = op;
   cf.groups = std::move(groups);
   return cf;
}

inline CfInstr cf_op(CfOp op, uint32_t target = 0, uint8_t pop = 0)
{
   CfInstr cf;
   cf.op = op;
   cf.target = target;
   cf.pop_count = pop;
   return cf;
}

/* EXPORT_DONE of R<gpr> to PARAM 0 (or pixel 0), ending the program. */
inline CfInstr export_done(unsigned gpr, unsigned type = 2, unsigned base = 0, bool eop = true)
{
   CfInstr cf;
   cf.op = CfOp::EXPORT_DONE;
   cf.exp.type = uint8_t(type);
   cf.exp.array_base = uint16_t(base);
   cf.exp.gpr = uint8_t(gpr);
   cf.end_of_program = eop;
   return cf;
}

/* A vertex shader with IN[0] preloaded into R1 and OUT[0] exported as
 * PARAM 0. */
inline ShaderInfo vs_info(ChipClass chip, unsigned stack = 4)
{
   ShaderInfo info;
   info.chip = chip;
   info.stage = tgsi::Processor::Vertex;
   ShaderIo in;
   in.gpr = 1;
   in.tgsi_index = 0;
   info.inputs.push_back(in);
   ShaderIo out;
   out.gpr = 2;
   out.tgsi_index = 0;
   out.export_type = 2;
   out.export_base = 0;
   info.outputs.push_back(out);
   info.stack_size = stack;
   info.num_gprs = 8;
   return info;
}

inline Batch batch_of(const std::vector<Vec4> &inputs)
{
   Batch b;
   for (const Vec4 &v : inputs) {
      Lane l;
      l.inputs = {v};
      l.outputs = {Vec4{0, 0, 0, 0}};
      b.lanes.push_back(l);
   }
   return b;
}

/* All error messages, one per line. */
inline std::string messages(const Diagnostics &d)
{
   std::string s;
   for (const Diagnostic &x : d.all())
      s += x.message + "\n";
   return s;
}

} // namespace sbcc::r600::test
