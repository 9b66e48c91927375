/*
 * A minimal stand-in target for runner tests: it understands only MOV (from
 * IN, SV, IMM or CONST to OUT, any swizzle and write mask, negate/abs) and
 * END, which is all the rasterizer and verifier tests need.  Keeping it here
 * makes these tests independent of the reference interpreter.
 */
#pragma once

#include <cmath>
#include <memory>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::test {

class MovExecutable : public Executable {
 public:
   explicit MovExecutable(tgsi::Shader s) : shader_(std::move(s)) {}

   RunResult run(const Resources &res, Batch &batch, const RunLimits &) const override
   {
      RunResult r;
      for (auto &lane : batch.lanes) {
         for (const auto &inst : shader_.instructions) {
            if (inst.opcode == tgsi::Opcode::END)
               break;
            if (inst.opcode != tgsi::Opcode::MOV) {
               r.status = RunStatus::Error;
               r.message = "fake target runs MOV only";
               return r;
            }
            const auto &s = inst.src[0];
            Vec4 v = fetch(res, lane, s);
            Vec4 sw;
            for (int c = 0; c < 4; c++) {
               float f = u2f(v[s.swizzle[c]]);
               if (s.absolute)
                  f = std::fabs(f);
               if (s.negate)
                  f = -f;
               sw[c] = (s.absolute || s.negate) ? f2u(f) : v[s.swizzle[c]];
            }
            const auto &d = inst.dst[0];
            if (d.file != tgsi::File::Output || size_t(d.index.value) >= lane.outputs.size())
               continue;
            for (int c = 0; c < 4; c++)
               if (d.write_mask & (1 << c))
                  lane.outputs[d.index.value][c] = sw[c];
            r.instructions++;
         }
      }
      return r;
   }
   std::string listing() const override { return tgsi::print_tgsi(shader_); }

 private:
   Vec4 fetch(const Resources &res, const Lane &lane, const tgsi::SrcOperand &s) const
   {
      size_t i = size_t(s.index.value);
      switch (s.file) {
      case tgsi::File::Input: return i < lane.inputs.size() ? lane.inputs[i] : Vec4{};
      case tgsi::File::SystemValue:
         return i < lane.system_values.size() ? lane.system_values[i] : Vec4{};
      case tgsi::File::Immediate:
         return i < shader_.immediates.size() ? shader_.immediates[i].value : Vec4{};
      case tgsi::File::Constant: {
         size_t b = s.dimension ? size_t(s.dimension->value) : 0;
         if (b < res.constants.size() && i < res.constants[b].size())
            return res.constants[b][i];
         return Vec4{};
      }
      default: return Vec4{};
      }
   }
   tgsi::Shader shader_;
};

/* Wraps another executable and corrupts OUT[out].chan of one lane, so the
 * verifier's first-difference report can be checked exactly. */
class CorruptingExecutable : public Executable {
 public:
   /* flip_low_bit: change the value by one ulp instead of adding 1.0. */
   CorruptingExecutable(std::unique_ptr<Executable> inner, unsigned lane, unsigned out,
                        unsigned chan, bool flip_low_bit = false)
      : inner_(std::move(inner)), lane_(lane), out_(out), chan_(chan), flip_(flip_low_bit)
   {
   }
   RunResult run(const Resources &res, Batch &batch, const RunLimits &limits) const override
   {
      RunResult r = inner_->run(res, batch, limits);
      if (lane_ < batch.lanes.size() && out_ < batch.lanes[lane_].outputs.size()) {
         uint32_t &v = batch.lanes[lane_].outputs[out_][chan_];
         v = flip_ ? v ^ 1u : f2u(u2f(v) + 1.0f);
      }
      return r;
   }
   std::string listing() const override { return inner_->listing(); }

 private:
   std::unique_ptr<Executable> inner_;
   unsigned lane_, out_, chan_;
   bool flip_;
};

} // namespace sbcc::test
