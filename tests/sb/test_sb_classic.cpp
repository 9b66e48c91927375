/*
 * The classic control-flow examples through sb_optimize, each padded with
 * copies, repeated computations and dead writes so the passes have work:
 * a while loop with continue and break, nested if/else, and indirect
 * (AR-relative) array writes inside a loop.  Source and result must give
 * the same outputs in the emulator for lanes taking different paths, and
 * the result must be smaller.
 */
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;
/* ALU instructions left by the SSA stage in each example (the exported
 * R2's unwritten z and w are masked in the export, not copied). */
constexpr unsigned SSA_ALU_WHILE = 7, SSA_ALU_NESTED = 6, SSA_ALU_ARRAY = 9;

TEST(SbClassic, WhileLoopWithContinueAndBreak)
{
   /* i = 0; j = 0; while (true) { i++; if (i > n) break; t = i & 1;
    * if (t != 0) continue; j++; }   -- with a copy of i and a dead write. */
   auto add1 = [](unsigned chan) {
      return alu(AluOp::ADD_INT, chan, dst(2, chan), src_gpr(2, chan), src_inline(kSrc_1_INT));
   };
   Program p = program(
      kEg,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                          alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
       cf_op(CfOp::LOOP_START_DX10, 13),
       alu_clause({group({add1(kSlotX)}),
                   group({alu(AluOp::MOV, kSlotZ, dst(5, 2), src_gpr(2, 0))}),   /* copy */
                   group({alu(AluOp::MOV, kSlotW, dst(6, 3), src_gpr(2, 0))})}), /* dead */
       alu_clause({group({pred(AluOp::PRED_SETGT_INT, src_gpr(5, 2), src_gpr(1, 0))})},
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
   ShaderInfo info = vs_info(kEg, 2);
   std::vector<Vec4> in;
   for (uint32_t n : {0u, 1u, 4u, 7u})
      in.push_back(Vec4{n, 0, 0, 0});
   Program out = optimize_and_compare(p, info, in, false);
   EXPECT_EQ(outputs_of(out, info, in)[3], (Vec4{8, 3, 0, 0}));
   /* The dead write goes; the copy stays (its reader is in another
    * clause, and copies are only followed inside one). */
   EXPECT_EQ(count_program(out).alu_instrs, count_program(p).alu_instrs - 1);

   /* Through the SSA stage: registers are reallocated (R2, R5, R6 -> R0),
    * the dead write goes, but the copy of i feeding the PRED_SET stays; the
    * export of half-written R2 masks the unwritten channels (no MOVs). */
   SbStats st;
   Program ssa = optimize_and_compare(p, info, in, true, &st);
   EXPECT_EQ(outputs_of(ssa, info, in)[3], (Vec4{8, 3, 0, 0}));
   EXPECT_LT(st.gprs_after, st.gprs_before);
   EXPECT_EQ(count_program(ssa).alu_instrs, SSA_ALU_WHILE);
}

TEST(SbClassic, NestedIfElse)
{
   /* if (x > 0) { R2.x = 1; if (y > 0) R2.y = x * y; } else { R2.x = 2; }
    * with x * y computed twice and a copy feeding the inner branch. */
   Program p = program(
      kEg,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                          alu(AluOp::MOV, kSlotY, dst(2, 1), zero())}),
                   group({pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 6),
       alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one()),
                          alu(AluOp::MUL, kSlotZ, dst(4, 2), src_gpr(1, 0), src_gpr(1, 1))}),
                   group({alu(AluOp::MUL, kSlotW, dst(4, 3), src_gpr(1, 1), src_gpr(1, 0))}),
                   group({alu(AluOp::MOV, kSlotY, dst(5, 1), src_gpr(4, 3))})}),
       alu_clause({group({pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 6, 1),
       alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(5, 1))})},
                  CfOp::ALU_POP_AFTER),
       cf_op(CfOp::ELSE, 8, 1),
       alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), lit(0))}, {f2u(2.0f)})},
                  CfOp::ALU_POP_AFTER),
       export_done(2)});
   ShaderInfo info = vs_info(kEg, 1);
   const std::vector<Vec4> in = {vec4f(1, 3, 0, 0), vec4f(1, -1, 0, 0), vec4f(-1, 1, 0, 0),
                                 vec4f(-1, -1, 0, 0)};
   Program out = optimize_and_compare(p, info, in, false);
   EXPECT_EQ(outputs_of(out, info, in)[0], vec4f(1, 3, 0, 0));
   EXPECT_EQ(outputs_of(out, info, in)[2], vec4f(2, 0, 0, 0));
   /* R4.w's MUL became a MOV of R4.z, then R5.y read R4.z; that MOV went,
    * and the post_scheduler folded the copy into R5.y (read in another
    * clause) into the MUL. */
   EXPECT_EQ(count_program(out).alu_instrs, count_program(p).alu_instrs - 2);

   /* Through the SSA stage the repeated MUL and both copies go. */
   SbStats st;
   Program ssa = optimize_and_compare(p, info, in, true, &st);
   EXPECT_LT(st.gprs_after, st.gprs_before);
   EXPECT_EQ(count_program(ssa).alu_instrs, SSA_ALU_NESTED);
}

TEST(SbClassic, IndirectArrayWritesInsideALoop)
{
   /* for (i = 0; i < 3; i++) a[i] = i + 0.5 (a = R10..R12 through AR);
    * then R2 = a[0] + a[1] + a[2].  The relative writes keep their groups;
    * a copy and a repeated ADD around them must not be moved across. */
   AluInstr mova = alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(3, 0));
   AluInstr store = alu(AluOp::ADD, kSlotX, dst(10, 0), src_gpr(3, 1), src_inline(kSrc_0_5));
   store.dst.rel = true;
   Program p = program(
      kEg,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), zero()),
                          alu(AluOp::MOV, kSlotY, dst(3, 1), zero())})}),
       cf_op(CfOp::LOOP_START_DX10, 8),
       alu_clause({group({mova}), group({store}),
                   group({alu(AluOp::ADD_INT, kSlotX, dst(3, 0), src_gpr(3, 0),
                              src_inline(kSrc_1_INT)),
                          alu(AluOp::ADD, kSlotY, dst(3, 1), src_gpr(3, 1), one())}),
                   group({alu(AluOp::MOV, kSlotZ, dst(3, 2), src_gpr(3, 0))})}),
       alu_clause({group({pred(AluOp::PRED_SETGE_INT, src_gpr(3, 2), lit(0))}, {3u})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 7, 1),
       cf_op(CfOp::LOOP_BREAK, 7),
       cf_op(CfOp::POP, 7, 1),
       cf_op(CfOp::LOOP_END, 2),
       alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(10, 0), src_gpr(11, 0))}),
                   group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), src_gpr(12, 0))}),
                   group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(10, 0), src_gpr(11, 0))})}),
       export_done(2)});
   ShaderInfo info = vs_info(kEg, 2);
   info.num_gprs = 16;
   const std::vector<Vec4> in = {vec4f(0, 0, 0, 0)};
   Program out = optimize_and_compare(p, info, in, false);
   EXPECT_EQ(outputs_of(out, info, in)[0], vec4f(4.5f, 2.0f, 0, 0));
   /* Nothing is removable: the repeated R10.x + R11.x cannot reuse R2.x
    * (overwritten in between), and the copy R3.z feeds the PRED_SET of the
    * next clause.  The independent ADDs still share a group. */
   EXPECT_EQ(count_program(out).alu_instrs, count_program(p).alu_instrs);
   EXPECT_LT(num_groups(out), num_groups(p));

   /* Through the SSA stage the array R10..R12 keeps its registers (the
    * relative writes reach it), everything else is reallocated. */
   SbStats st;
   Program ssa = optimize_and_compare(p, info, in, true, &st);
   EXPECT_EQ(outputs_of(ssa, info, in)[0], vec4f(4.5f, 2.0f, 0, 0));
   EXPECT_EQ(count_program(ssa).alu_instrs, SSA_ALU_ARRAY);
}

TEST(SbClassic, LoopInvariantWorkLeavesTheLoop)
{
   /* i = 0; s = 0; do { k = x * 3 + 1 (invariant); s += k; i++; } while
    * (i < 4): gcm moves k's MUL and ADD in front of LOOP_START; the loop
    * keeps the two updates and its exit test. */
   Program p = program(
      kEg,
      {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                          alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
       cf_op(CfOp::LOOP_START_DX10, 8),
       alu_clause({group({alu(AluOp::MUL, kSlotZ, dst(3, 2), src_gpr(1, 0), lit(0))}, {f2u(3.0f)}),
                   group({alu(AluOp::ADD, kSlotW, dst(3, 3), src_gpr(3, 2), one())}),
                   group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(2, 1), src_gpr(3, 3)),
                          alu(AluOp::ADD_INT, kSlotX, dst(2, 0), src_gpr(2, 0),
                              src_inline(kSrc_1_INT))})}),
       alu_clause({group({pred(AluOp::PRED_SETGE_INT, src_gpr(2, 0), lit(0))}, {4u})},
                  CfOp::ALU_PUSH_BEFORE),
       cf_op(CfOp::JUMP, 7, 1),
       cf_op(CfOp::LOOP_BREAK, 7),
       cf_op(CfOp::POP, 7, 1),
       cf_op(CfOp::LOOP_END, 2),
       export_done(2)});
   ShaderInfo info = vs_info(kEg, 2);
   const std::vector<Vec4> in = {vec4f(1, 0, 0, 0), vec4f(-2, 0, 0, 0), vec4f(0.5f, 0, 0, 0)};
   SbStats st;
   Program out = optimize_and_compare(p, info, in, true, &st);
   EXPECT_EQ(outputs_of(out, info, in)[0][1], f2u(16.0f));
   /* No MUL between LOOP_START_DX10 and LOOP_END; one before. */
   unsigned before = 0, inside = 0;
   bool in_loop = false;
   for (const CfInstr &cf : out.cf) {
      if (cf.op == CfOp::LOOP_START_DX10)
         in_loop = true;
      if (cf.op == CfOp::LOOP_END)
         in_loop = false;
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &i : g.instrs)
            if (i.op == AluOp::MUL)
               (in_loop ? inside : before)++;
   }
   EXPECT_EQ(before, 1u);
   EXPECT_EQ(inside, 0u);
}

} // namespace
