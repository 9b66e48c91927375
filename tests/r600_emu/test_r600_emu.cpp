/*
 * Emulator tests on hand-built programs: VLIW read-before-write, PV/PS,
 * clause temporaries, the branch stack with divergent lanes, loops with
 * BREAK/CONTINUE and the loop budget, KILL, kcache modes, reductions,
 * non-IEEE multiply, Cayman replication, Evergreen interpolation planes and
 * a texture sample.  Every expected value is exact.
 */
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "r600_emu/r600_emu_build.h"
#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "texture/texture.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::test;

constexpr uint32_t kPoison = 0x7fbadbadu;

/* Runs prog as a vertex shader over `inputs`; checks it validates first. */
Batch run_vs(const Program &prog, const ShaderInfo &info, const std::vector<Vec4> &inputs,
             const Resources &res = {}, RunResult *result = nullptr, bool validate = true)
{
   if (validate) {
      Diagnostics d;
      EXPECT_TRUE(validate_program(prog, info, d)) << d.str();
   }
   Batch b = batch_of(inputs);
   RunLimits lim;
   lim.max_loop_iterations = 100;
   RunResult r = emulate(prog, info, res, b, lim);
   if (result)
      *result = r;
   else
      EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
   return b;
}

Program program(ChipClass chip, std::vector<CfInstr> cf)
{
   Program p;
   p.chip = chip;
   p.cf = std::move(cf);
   return p;
}

TEST(R600Emu, VliwGroupReadsBeforeItWrites)
{
   /* x: R1.x = R1.y and y: R1.y = R1.x in one group swap the channels. */
   Program p = program(ChipClass::Evergreen,
                       {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(1, 1)),
                                           alu(AluOp::MOV, kSlotY, dst(1, 1), src_gpr(1, 0))}),
                                    group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                                           alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                                           alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)),
                                           alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3))})}),
                        export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(1, 2, 3, 4)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(2, 1, 3, 4));
}

TEST(R600Emu, PvAndPsForwardThePreviousGroup)
{
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0), one()),
                          alu(AluOp::RECIP_IEEE, kSlotT, dst(3, 3), src_gpr(1, 1))}),
                   group({alu(AluOp::MUL_IEEE, kSlotX, dst(2, 0), pv(0), ps()),
                          alu(AluOp::MOV, kSlotY, dst(2, 1), ps()),
                          alu(AluOp::MOV, kSlotZ, dst(2, 2), pv(0))})}),
       export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(3, 4, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1.0f, 0.25f, 4.0f, 0.0f));
}

TEST(R600Emu, ClauseTemporariesDieWithTheirClause)
{
   /* Within a clause T0 (R124) works; the next clause reads the poison. */
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(124, 0), src_gpr(1, 0))}),
                   group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(124, 0))})}),
       alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(124, 0))})}),
       export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(5, 0, 0, 0)}, {}, nullptr, false);
   EXPECT_EQ(b.lanes[0].outputs[0][0], f2u(5.0f));
   EXPECT_EQ(b.lanes[0].outputs[0][1], kPoison);
   Diagnostics d;
   EXPECT_FALSE(validate_program(p, vs_info(ChipClass::Evergreen), d));
   EXPECT_EQ(messages(d),
             "CF 1 group 0 slot y: clause temporary T0.x read before it is written in this "
             "clause\n");
}

AluInstr with_bank_swizzle(AluInstr in, unsigned bs)
{
   in.bank_swizzle = uint8_t(bs);
   return in;
}

AluInstr pred(AluOp op, AluSrc a, AluSrc b)
{
   AluInstr in = alu(op, kSlotX, dst(0, 0, false), a, b);
   in.update_exec_mask = true;
   in.update_pred = true;
   return in;
}

Program nested_if()
{
   /* if (x > 0) { R2.x = 1; if (y > 0) R2.y = 1; } else { R2.x = 2; } */
   return program(
      ChipClass::Evergreen,
      {alu_clause({group({pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 6),
       alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
       alu_clause({group({pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 6, 1),
       alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), one())})}, CfOp::ALU_POP_AFTER),
       cf_op(CfOp::ELSE, 8, 1),
       alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), lit(0))}, {f2u(2.0f)})},
                  CfOp::ALU_POP_AFTER),
       export_done(2)});
}

TEST(R600Emu, NestedIfElseWithDivergentLanes)
{
   Program p = nested_if();
   ShaderInfo info = vs_info(ChipClass::Evergreen, 1);
   Batch b = run_vs(p, info,
                    {vec4f(1, 1, 0, 0), vec4f(1, -1, 0, 0), vec4f(-1, 1, 0, 0),
                     vec4f(-1, -1, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1, 1, 0, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(1, 0, 0, 0));
   EXPECT_EQ(b.lanes[2].outputs[0], vec4f(2, 0, 0, 0));
   EXPECT_EQ(b.lanes[3].outputs[0], vec4f(2, 0, 0, 0));
}

TEST(R600Emu, JumpsTakenWhenNoLaneIsActive)
{
   Program p = nested_if();
   ShaderInfo info = vs_info(ChipClass::Evergreen, 1);
   /* Nobody takes the outer then: JUMP to ELSE. */
   Batch b = run_vs(p, info, {vec4f(-1, 1, 0, 0), vec4f(-2, 1, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(2, 0, 0, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(2, 0, 0, 0));
   /* Nobody takes the inner then nor the else: JUMP and ELSE pop and jump. */
   b = run_vs(p, info, {vec4f(1, -1, 0, 0), vec4f(2, -1, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1, 0, 0, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(1, 0, 0, 0));
}

TEST(R600Emu, LoopWithBreakAndContinue)
{
   /* c = 0; evens = 0;
    * loop { c++; if (c > n) break; if (c & 1) continue; evens++; } */
   auto add1 = [](unsigned chan) {
      return alu(AluOp::ADD_INT, chan, dst(2, chan), src_gpr(2, chan), src_inline(kSrc_1_INT));
   };
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                          alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
       cf_op(CfOp::LOOP_START_DX10, 13),
       alu_clause({group({add1(kSlotX)})}),
       alu_clause({group({pred(AluOp::PRED_SETGT_INT, src_gpr(2, 0), src_gpr(1, 0))})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 7, 1),
       cf_op(CfOp::LOOP_BREAK, 12),
       cf_op(CfOp::POP, 7, 1),
       alu_clause({group({alu(AluOp::AND_INT, kSlotX, dst(3, 0), src_gpr(2, 0),
                              src_inline(kSrc_1_INT))}),
                   group({pred(AluOp::PRED_SETNE_INT, pv(0), zero())})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 11, 1),
       cf_op(CfOp::LOOP_CONTINUE, 12),
       cf_op(CfOp::POP, 11, 1),
       alu_clause({group({add1(kSlotY)})}),
       cf_op(CfOp::LOOP_END, 2),
       export_done(2)});
   ShaderInfo info = vs_info(ChipClass::Evergreen, 2);
   std::vector<Vec4> in;
   for (uint32_t n : {0u, 1u, 4u, 7u})
      in.push_back(Vec4{n, 0, 0, 0});
   Batch b = run_vs(p, info, in);
   for (size_t l = 0; l < in.size(); l++) {
      uint32_t n = in[l][0];
      EXPECT_EQ(b.lanes[l].outputs[0][0], n + 1) << "lane " << l;
      EXPECT_EQ(b.lanes[l].outputs[0][1], n / 2) << "lane " << l;
      EXPECT_EQ(b.lanes[l].loop_iterations, n) << "lane " << l;
   }
}

TEST(R600Emu, LoopBudgetStopsEndlessLoops)
{
   Program p = program(ChipClass::Evergreen,
                       {cf_op(CfOp::LOOP_START_DX10, 3),
                        alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
                        cf_op(CfOp::LOOP_END, 1), export_done(2)});
   RunResult r;
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen, 1), {vec4f(0, 0, 0, 0)}, {}, &r);
   EXPECT_EQ(r.status, RunStatus::BudgetExceeded);
   EXPECT_EQ(r.message, "loop budget of 100 iterations exceeded");
   EXPECT_EQ(b.lanes[0].loop_iterations, 101u);
}

TEST(R600Emu, StackOverflowIsADynamicError)
{
   Program p = nested_if();
   RunResult r;
   run_vs(p, vs_info(ChipClass::Evergreen, 0), {vec4f(1, 1, 0, 0)}, {}, &r, false);
   EXPECT_EQ(r.status, RunStatus::Error);
   EXPECT_EQ(r.message, "CF 0: stack overflow: 1 entries needed, stack_size is 0");
}

TEST(R600Emu, KillDeactivatesAndMarksLanes)
{
   Program p = program(
      ChipClass::R700,
      {alu_clause({group({alu(AluOp::KILLGT, kSlotX, dst(0, 0, false), src_gpr(1, 0), zero())}),
                   group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
       export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::R700), {vec4f(1, 0, 0, 0), vec4f(-1, 0, 0, 0)});
   EXPECT_TRUE(b.lanes[0].killed);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(0, 0, 0, 0));
   EXPECT_FALSE(b.lanes[1].killed);
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(1, 0, 0, 0));
}

TEST(R600Emu, KcacheModesLockSixteenOrThirtyTwoConstants)
{
   CfInstr cf = alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_kcache(0, 3, 1)),
                                   alu(AluOp::MOV, kSlotY, dst(2, 1), src_kcache(1, 20, 0))})});
   cf.kcache[0] = KCacheLock{0, 1, 1, 0}; /* CB0[16..31] */
   cf.kcache[1] = KCacheLock{1, 2, 2, 0}; /* CB1[32..63] */
   Program p = program(ChipClass::Evergreen, {cf, export_done(2)});
   Resources res;
   res.constants.assign(2, std::vector<Vec4>(64, Vec4{0, 0, 0, 0}));
   res.constants[0][19] = vec4f(0, 7, 0, 0);
   res.constants[1][52] = vec4f(9, 0, 0, 0);
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(0, 0, 0, 0)}, res);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(7, 9, 0, 0));
}

TEST(R600Emu, Dot4AndNonIeeeMultiply)
{
   const uint32_t inf = 0x7f800000u;
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::DOT4, kSlotX, dst(2, 0), src_gpr(1, 0), lit(0)),
                          alu(AluOp::DOT4, kSlotY, dst(2, 1, false), src_gpr(1, 1), lit(1)),
                          alu(AluOp::DOT4, kSlotZ, dst(2, 2, false), src_gpr(1, 2), lit(2)),
                          alu(AluOp::DOT4, kSlotW, dst(2, 3, false), src_gpr(1, 3), lit(3))},
                         {f2u(1), f2u(2), f2u(3), inf}),
                   group({alu(AluOp::MUL, kSlotY, dst(2, 1), zero(), lit(0)),
                          alu(AluOp::MUL_IEEE, kSlotZ, dst(2, 2), zero(), lit(0))},
                         {inf})}),
       export_done(2)});
   /* w is 0, so non-IEEE DOT4 ignores the infinity in its literal. */
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(1, 1, 1, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0][0], f2u(6.0f));
   EXPECT_EQ(b.lanes[0].outputs[0][1], f2u(0.0f));
   EXPECT_TRUE(std::isnan(u2f(b.lanes[0].outputs[0][2])));
}

TEST(R600Emu, CaymanReplicatesTranscendentalsOverVectorSlots)
{
   Program p = program(
      ChipClass::Cayman,
      {alu_clause({group({alu(AluOp::RECIP_IEEE, kSlotX, dst(2, 0), src_gpr(1, 0)),
                          alu(AluOp::RECIP_IEEE, kSlotY, dst(2, 1), src_gpr(1, 0)),
                          alu(AluOp::RECIP_IEEE, kSlotZ, dst(2, 2), src_gpr(1, 0))})}),
       cf_op(CfOp::NOP), export_done(2)});
   p.cf[2].end_of_program = true;
   Batch b = run_vs(p, vs_info(ChipClass::Cayman), {vec4f(4, 0, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(0.25f, 0.25f, 0.25f, 0));
}

TEST(R600Emu, EvergreenInterpolationReproducesInputs)
{
   /* Mesa's pattern: INTERP_ZW then INTERP_XY over all four slots, slot x
    * reading ij.y and slot y ij.x of pair 0 in R0. */
   auto interp = [](AluOp op, unsigned slot, bool write) {
      AluInstr in = alu(op, slot, dst(1, slot, write), src_gpr(0, (slot & 1) ? 0 : 1),
                        src_param(0, slot));
      in.bank_swizzle = 5;
      return in;
   };
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({interp(AluOp::INTERP_ZW, 0, false), interp(AluOp::INTERP_ZW, 1, false),
                          interp(AluOp::INTERP_ZW, 2, true), interp(AluOp::INTERP_ZW, 3, true)}),
                   group({interp(AluOp::INTERP_XY, 0, true), interp(AluOp::INTERP_XY, 1, true),
                          interp(AluOp::INTERP_XY, 2, false),
                          interp(AluOp::INTERP_XY, 3, false)})}),
       export_done(1, 0, 0)});
   ShaderInfo info;
   info.chip = ChipClass::Evergreen;
   info.stage = tgsi::Processor::Fragment;
   ShaderIo in;
   in.tgsi_index = 0;
   in.lds_pos = 0;
   in.ij_index = 0;
   info.inputs.push_back(in);
   ShaderIo out;
   out.gpr = 1;
   out.export_type = 0;
   info.outputs.push_back(out);
   info.num_ij = 1;
   std::vector<Vec4> inputs;
   for (int l = 0; l < 8; l++)
      inputs.push_back(vec4f(0.1f * l - 0.35f, 3.0f + l, -1e-3f * l, 1234.5f));
   Batch b = run_vs(p, info, inputs);
   for (int l = 0; l < 8; l++)
      EXPECT_EQ(b.lanes[l].outputs[0], inputs[l]) << "lane " << l;
}

TEST(R600Emu, SampleNearestTexel)
{
   TexInstr t;
   t.op = FetchOp::SAMPLE;
   t.src_gpr = 1;
   t.src_sel = {0, 1, kSel0, kSel0};
   t.dst_gpr = 2;
   t.dst_sel = {0, 1, 2, kSel1};
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {tex, export_done(2)});
   auto texture = std::make_shared<tex::Texture>(tex::Texture::from_texels(
      tex::Kind::Tex2D, 2, 2, 1, false,
      {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1.0f, 0.0f, 0.5f, 0.25f, 0.75f, 0.125f, 1.0f}));
   tex::TextureSet set;
   set.bind(0, texture);
   Resources res;
   res.textures = &set;
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen),
                    {vec4f(0.25f, 0.25f, 0, 0), vec4f(0.75f, 0.75f, 0, 0)}, res);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(0.1f, 0.2f, 0.3f, 1.0f));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(0.25f, 0.75f, 0.125f, 1.0f));
}

TEST(R600Emu, RelativeAddressingThroughAr)
{
   AluInstr rel = alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(3, 0));
   rel.src[0].rel = true; /* index_mode 0: AR.x */
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(4, 0), lit(0))}, {f2u(7.0f)}),
                   group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(1, 0))}),
                   group({rel})}),
       export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {Vec4{1, 0, 0, 0}, Vec4{0, 0, 0, 0}});
   EXPECT_EQ(b.lanes[0].outputs[0][0], f2u(7.0f)); /* R[3 + 1] */
   EXPECT_EQ(b.lanes[1].outputs[0][0], 0u);        /* R[3 + 0] */
   RunResult r;
   run_vs(p, vs_info(ChipClass::Evergreen), {Vec4{200, 0, 0, 0}}, {}, &r);
   EXPECT_EQ(r.status, RunStatus::Error);
   EXPECT_EQ(r.message, "CF 0 group 2 slot x: relative GPR index 203 out of range");
}

TEST(R600Emu, KcacheOutsideTheLockIsADynamicError)
{
   Program p = program(ChipClass::Evergreen,
                       {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_kcache(0, 3, 0))})}),
                        export_done(2)});
   RunResult r;
   run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(0, 0, 0, 0)}, {}, &r, false);
   EXPECT_EQ(r.status, RunStatus::Error);
   EXPECT_EQ(r.message, "CF 0 group 0 slot x: source selector not readable (constant outside "
                        "the locked kcache ranges or unsupported selector)");
}

TEST(R600Emu, PredicatedSlotsAndPopOfAnEmptyStack)
{
   /* PRED_SETGT updates only the predicate; pred_sel 3 runs where it is 1,
    * pred_sel 2 where it is 0. */
   AluInstr ps = alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), src_gpr(1, 0), zero());
   ps.update_pred = true;
   AluInstr on1 = alu(AluOp::MOV, kSlotX, dst(2, 0), one());
   on1.pred_sel = 3;
   AluInstr on0 = alu(AluOp::MOV, kSlotY, dst(2, 1), one());
   on0.pred_sel = 2;
   Program p = program(ChipClass::Evergreen,
                       {alu_clause({group({ps}), group({on1, on0})}), export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {vec4f(1, 0, 0, 0), vec4f(-1, 0, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1, 0, 0, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4f(0, 1, 0, 0));

   Program bad = program(ChipClass::Evergreen, {cf_op(CfOp::POP, 1, 1), export_done(2)});
   RunResult r;
   run_vs(bad, vs_info(ChipClass::Evergreen), {vec4f(0, 0, 0, 0)}, {}, &r, false);
   EXPECT_EQ(r.status, RunStatus::Error);
   EXPECT_EQ(r.message, "CF 0: pop of an empty branch stack");
}

TEST(R600Emu, CfIndexSelectsTheKcacheBank)
{
   /* MOVA_INT AR.x = R1.x; SET_CF_IDX0; the next clause locks bank 0 +
    * CF_IDX0. */
   CfInstr use = alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_kcache(0, 1, 2))})});
   use.kcache[0] = KCacheLock{0, 1, 0, 1};
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(1, 0))}),
                   group({alu(AluOp::SET_CF_IDX0, kSlotX, dst(0, 0, false))})}),
       use, export_done(2)});
   Resources res;
   res.constants.assign(3, std::vector<Vec4>(16, Vec4{0, 0, 0, 0}));
   res.constants[2][1] = vec4f(0, 0, 42, 0);
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen), {Vec4{2, 0, 0, 0}}, res);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(42, 0, 0, 0));
}

TEST(R600Emu, LoopIndexAddressesRegisters)
{
   /* for (c = 0; c < 3; c++) R[4 + aL].x = 1.0; then R2.yzw = R5.x, R6.x, R7.x. */
   AluInstr st = alu(AluOp::MOV, kSlotX, dst(4, 0), one());
   st.dst.rel = true;
   st.index_mode = 4; /* loop index */
   Program p = program(
      ChipClass::Evergreen,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
       cf_op(CfOp::LOOP_START_DX10, 8),
       alu_clause({group({st, alu(AluOp::ADD_INT, kSlotY, dst(2, 0), src_gpr(2, 0),
                                  src_inline(kSrc_1_INT))})}),
       alu_clause({group({pred(AluOp::PRED_SETGE_INT, src_gpr(2, 0), lit(0))}, {3})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 7, 1),
       cf_op(CfOp::LOOP_BREAK, 7),
       cf_op(CfOp::POP, 7, 1),
       cf_op(CfOp::LOOP_END, 2),
       /* Three .x reads need three different read cycles. */
       alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(5, 0)),
                          with_bank_swizzle(alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(6, 0)), 2),
                          with_bank_swizzle(alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(7, 0)), 4)})}),
       export_done(2)});
   Batch b = run_vs(p, vs_info(ChipClass::Evergreen, 2), {vec4f(0, 0, 0, 0)});
   EXPECT_EQ(b.lanes[0].outputs[0], (Vec4{3, f2u(1.0f), f2u(1.0f), 0}));
   EXPECT_EQ(b.lanes[0].loop_iterations, 2u);
}

TEST(R600Emu, ExecutableListsTheProgram)
{
   Program p = program(ChipClass::Evergreen,
                       {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
                        export_done(2)});
   R600Executable exe(p, vs_info(ChipClass::Evergreen));
   Diagnostics d;
   auto words = assemble(p, d);
   ASSERT_TRUE(words) << d.str();
   EXPECT_EQ(exe.listing(), print_program(p, *words));
   Batch b = batch_of({vec4f(0, 0, 0, 0)});
   EXPECT_EQ(exe.run({}, b, {}).status, RunStatus::Ok);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1, 0, 0, 0));
}

} // namespace
