/*
 * Helpers for the sb tests: run the passes on a hand-built program and
 * compare emulator results of the source and the optimized program.
 */
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "r600/r600_emu.h"
#include "r600/r600_target.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_passes.h"
#include "r600_emu/r600_emu_build.h"

namespace sbcc::r600::sb::test {

using namespace sbcc::r600::test;

/* PRED_SET* on slot x updating the exec mask and the predicate, as the
 * plain backend opens an if. */
inline AluInstr pred(AluOp op, AluSrc a, AluSrc b)
{
   AluInstr in = alu(op, kSlotX, dst(0, 0, false), a, b);
   in.update_exec_mask = true;
   in.update_pred = true;
   return in;
}

inline CfInstr push_if(AluInstr p) { return alu_clause({group({p})}, CfOp::ALU_PUSH_BEFORE); }

/* The TGSI texts of a .shader_test ([vertex shader tgsi], [fragment
 * shader tgsi] sections), in file order. */
inline std::vector<std::string> tgsi_sections(const std::filesystem::path &f)
{
   std::ifstream in(f);
   std::vector<std::string> out;
   std::string line, text;
   bool on = false;
   while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '[') {
         if (on)
            out.push_back(text);
         text.clear();
         on = line == "[vertex shader tgsi]" || line == "[fragment shader tgsi]";
         continue;
      }
      if (on)
         text += line + "\n";
   }
   if (on)
      out.push_back(text);
   return out;
}

/* Compiles TGSI text with the plain backend and hands each stage's
 * validated bytecode to `use` through the optimizer hook (which keeps the
 * plain code).  False, with the parse error in `error`, when the text does
 * not parse; stages the backend refuses never reach `use`. */
inline bool with_plain_bytecode(const std::string &text, const std::string &what, ChipClass chip,
                                const std::function<void(const Program &, const ShaderInfo &)> &use,
                                std::string *error = nullptr)
{
   Diagnostics d;
   auto shader = tgsi::parse_tgsi(text, what, d);
   if (!shader) {
      if (error)
         *error = d.str();
      return false;
   }
   BytecodeOptimizer hook = [&](const Program &p, const ShaderInfo &info,
                                ShaderStats *) -> std::optional<Program> {
      use(p, info);
      return std::nullopt;
   };
   (void)compile_tgsi_for_r600(*shader, chip, "", DebugOptions{}, d, nullptr, nullptr, &hook);
   return true;
}

inline Program program(ChipClass chip, std::vector<CfInstr> cf)
{
   Program p;
   p.chip = chip;
   p.cf = std::move(cf);
   return p;
}

/* Parse + schedule + check + build; the built program or nullopt. */
inline std::optional<Program> run_passes(const Program &p, std::string *dump = nullptr)
{
   Diagnostics d;
   Shader sh;
   if (!bc_parser(p, sh, d) || !post_scheduler(sh, d) || !sched_checker(sh, d)) {
      ADD_FAILURE() << d.str();
      return std::nullopt;
   }
   if (dump)
      *dump = dump_shader(sh);
   Program out;
   if (!bc_builder(sh, out, d)) {
      ADD_FAILURE() << d.str();
      return std::nullopt;
   }
   return out;
}

inline std::vector<Vec4> outputs_of(const Program &p, const ShaderInfo &info,
                                    const std::vector<Vec4> &inputs)
{
   Diagnostics d;
   EXPECT_TRUE(validate_program(p, info, d)) << d.str();
   Batch b = batch_of(inputs);
   RunLimits lim;
   lim.max_loop_iterations = 100;
   RunResult r = emulate(p, info, {}, b, lim);
   EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
   std::vector<Vec4> out;
   for (const Lane &l : b.lanes)
      out.push_back(l.outputs[0]);
   return out;
}

/* The whole of sb (sbstat on, so a failure shows the log) on p: expects a
 * result, made with the SSA stage exactly when `ssa` (false runs the
 * clause-local stage alone, SBCC_DEBUG=nossa). */
inline std::optional<Program> optimize_with_sb(const Program &p, const ShaderInfo &info, bool ssa,
                                               SbStats *stats = nullptr)
{
   DebugOptions o;
   o.sb = o.sb_stat = true;
   o.sb_ssa = ssa;
   SbStats local;
   SbStats &st = stats ? *stats : local;
   Diagnostics d;
   auto out = sb_optimize(p, info, o, &st, d);
   EXPECT_TRUE(out.has_value()) << st.log;
   EXPECT_EQ(st.ssa, ssa) << st.ssa_failed_pass << "\n" << st.log;
   return out;
}

/* optimize_with_sb, then the result against the source on `in`; returns
 * the result (the source after a failure). */
inline Program optimize_and_compare(const Program &p, const ShaderInfo &info,
                                    const std::vector<Vec4> &in, bool ssa,
                                    SbStats *stats = nullptr)
{
   auto out = optimize_with_sb(p, info, ssa, stats);
   if (!out)
      return p;
   EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in));
   return *out;
}

/* 16 lanes whose inputs are drawn from [lo, hi) by seed, the lane index in
 * the system values and zeroed outputs: the same batch for the source and
 * the optimized program. */
inline Batch random_lanes(const ShaderInfo &info, uint32_t seed, float lo, float hi)
{
   std::mt19937 rng(seed);
   std::uniform_real_distribution<float> f(lo, hi);
   Batch b;
   for (unsigned l = 0; l < 16; l++) {
      Lane lane;
      for (size_t i = 0; i < info.inputs.size() + 1; i++)
         lane.inputs.push_back(vec4f(f(rng), f(rng), f(rng), f(rng)));
      lane.system_values.assign(4, vec4f(float(l), 0, 0, 1));
      lane.outputs.assign(info.outputs.size() + 1, Vec4{0, 0, 0, 0});
      b.lanes.push_back(lane);
   }
   return b;
}

/* Four constant buffers of 256 vectors drawn from [-2, 2) by seed. */
inline Resources random_constants(uint32_t seed)
{
   Resources res;
   std::mt19937 rng(seed);
   std::uniform_real_distribution<float> f(-2.0f, 2.0f);
   res.constants.resize(4);
   for (auto &buf : res.constants)
      for (unsigned i = 0; i < 256; i++)
         buf.push_back(vec4f(f(rng), f(rng), f(rng), f(rng)));
   return res;
}

inline unsigned num_groups(const Program &p)
{
   unsigned n = 0;
   for (const CfInstr &cf : p.cf)
      n += unsigned(cf.groups.size());
   return n;
}

} // namespace sbcc::r600::sb::test
