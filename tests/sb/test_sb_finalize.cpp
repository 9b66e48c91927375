/*
 * bc_finalize (tree + allocation -> bytecode) with identity_allocation:
 * exact CF listings of small hand-built programs (if/else, nested ifs ending
 * in ALU_POP2_AFTER, loop with break/continue, split groups and rotations,
 * a DOT4 without a bank swizzle, ALU clauses around exports, self moves,
 * port copies, the 128-slot and kcache limits, predicated writes, moved
 * registers, synthetic clauses) run against their source in the emulator;
 * bad trees and allocations refused; parser refusals; the fetch shader
 * call; infer_rel_arrays.
 *
 * The same executable also holds test_sb_finalize_exports_fetches.cpp
 * (exports, export bursts and fetch clauses) and
 * test_sb_finalize_roundtrip.cpp (random structured programs, and the round
 * trip of every bundled .shader_test); their shared helpers are in
 * sb_finalize_test_util.h.
 */
#include <bit>
#include <string>
#include <vector>

#include "r600/r600_target.h"
#include "r600/sb/sb_region_passes.h"
#include "sb/sb_finalize_test_util.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

/* Finalizes, checks the listing and that the emulator gives what the
 * source gives. */
void check(const Program &src, const std::string &expected)
{
   ShaderInfo info = vs_info(src.chip);
   std::string refused, error;
   auto out = finalize(src, info, &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), expected);
   EXPECT_EQ(outputs_of(*out, info, lanes()), outputs_of(src, info, lanes()));
}

TEST(SbFinalize, IfElseMergesClausesAndFoldsThePop)
{
   /* r = 0; if (x > 0) r = 1 else r = 0.5: the MOV joins the push clause,
    * the else clause takes the POP. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 4),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      cf_op(CfOp::ELSE, 7, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_inline(kSrc_0_5))})}),
      cf_op(CfOp::POP, 7, 1),
      export_done(2),
   });
   check(p, "0 ALU_PUSH_BEFORE groups=2\n"
            "1 JUMP @3\n"
            "2 ALU groups=1\n"
            "3 ELSE @5 pop=1\n"
            "4 ALU_POP_AFTER groups=1\n"
            "5 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, IfWithoutElseEndingInFetchKeepsThePop)
{
   /* Nothing ALU ends the branch (an export-free POP case): the POP stays. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 4, 1),
      cf_op(CfOp::POP, 4, 1),
      export_done(2),
   });
   check(p, "0 ALU_PUSH_BEFORE groups=2\n"
            "1 JUMP @3 pop=1\n"
            "2 POP @3 pop=1\n"
            "3 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, NestedIfsEndInAluPop2After)
{
   /* r = 0; if (x > 0) { if (y > 0) r = 1 }: both ends fold into the inner
    * clause, whose jump then pops both levels. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 8, 1),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())),
      cf_op(CfOp::JUMP, 7, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      cf_op(CfOp::POP, 7, 1),
      cf_op(CfOp::POP, 8, 1),
      export_done(2),
   });
   check(p, "0 ALU_PUSH_BEFORE groups=2\n"
            "1 JUMP @5 pop=1\n"
            "2 ALU_PUSH_BEFORE groups=1\n"
            "3 JUMP @5 pop=2\n"
            "4 ALU_POP2_AFTER groups=1\n"
            "5 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, NestedIfElseInsideThen)
{
   /* if (x > 0) { if (y > 0) r = 1 else r = 0.5; r += 1 } else r = 2 */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 10),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())),
      cf_op(CfOp::JUMP, 6),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      cf_op(CfOp::ELSE, 9, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_inline(kSrc_0_5))})}),
      cf_op(CfOp::POP, 9, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())})}),
      cf_op(CfOp::ELSE, 12, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_literal(0))}, {0x40000000})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   check(p, "0 ALU_PUSH_BEFORE groups=2\n"
            "1 JUMP @8\n"
            "2 ALU_PUSH_BEFORE groups=1\n"
            "3 JUMP @5\n"
            "4 ALU groups=1\n"
            "5 ELSE @7 pop=1\n"
            "6 ALU_POP_AFTER groups=1\n"
            "7 ALU groups=1\n"
            "8 ELSE @10 pop=1\n"
            "9 ALU_POP_AFTER groups=1\n"
            "10 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, LoopWithBreakAndContinue)
{
   /* i = 0; s = 0; loop { if (i >= 4) break; i += 1; if (i == 2) continue;
    * s += i * 0.5 (the product only in PV: it gets a register) } */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
      cf_op(CfOp::LOOP_START_DX10, 13),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(3, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK, 12),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(3, 0), one())})}),
      push_if(pred(AluOp::PRED_SETE, src_gpr(3, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 11, 1),
      cf_op(CfOp::LOOP_CONTINUE, 12),
      cf_op(CfOp::POP, 11, 1),
      alu_clause({group({alu(AluOp::MUL, kSlotY, dst(0, 1, false), src_gpr(3, 0),
                             src_inline(kSrc_0_5))}),
                  group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(2, 1), pv(1))})}),
      cf_op(CfOp::LOOP_END, 2),
      export_done(2),
   });
   p.cf[2].groups[0].literals = {0x40800000};
   p.cf[7].groups[0].literals = {0x40000000};
   check(p, "0 ALU groups=2\n"
            "1 LOOP_START_DX10 @12\n"
            "2 ALU_PUSH_BEFORE groups=1\n"
            "3 JUMP @6 pop=1\n"
            "4 LOOP_BREAK @11\n"
            "5 POP @6 pop=1\n"
            "6 ALU_PUSH_BEFORE groups=2\n"
            "7 JUMP @10 pop=1\n"
            "8 LOOP_CONTINUE @11\n"
            "9 POP @10 pop=1\n"
            "10 ALU groups=2\n"
            "11 LOOP_END @2\n"
            "12 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, SplitGroupKeepsReadsBeforeWrites)
{
   /* One group: R2.x = R2.y + 1, R2.y = R2.x * 2 swap values: no order of
    * single instructions works without a temporary, so the group stays
    * whole. */
   Program swap = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 1), one()),
                         alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(2, 0), src_literal(0))},
                        {0x40000000})}),
      export_done(2),
   });
   std::string refused, error;
   auto whole = finalize(swap, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(whole) << refused << error;
   ASSERT_EQ(whole->cf[0].groups.size(), 1u);
   EXPECT_EQ(whole->cf[0].groups[0].instrs.size(), 2u);
   EXPECT_EQ(outputs_of(*whole, vs_info(kEg), lanes()), outputs_of(swap, vs_info(kEg), lanes()));
   /* A chain (x reads R2.y, which y writes; y reads R2.x, which z writes)
    * is emitted x, y, z. */
   Program chain = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                  group({alu(AluOp::MOV, kSlotX, dst(2, 1), src_gpr(1, 1))}),
                  group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(2, 1), one()),
                         alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(2, 0), one()),
                         alu(AluOp::ADD, kSlotZ, dst(2, 0), src_gpr(1, 2), one())}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), src_gpr(3, 0))})}),
      export_done(2),
   });
   auto out = finalize(chain, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   ASSERT_EQ(out->cf.size(), 2u);
   std::string order;
   for (const AluGroup &g : out->cf[0].groups) {
      ASSERT_EQ(g.instrs.size(), 1u);
      order += "R" + std::to_string(g.instrs[0].dst.gpr) + "xyzw"[g.instrs[0].dst.chan] + " ";
   }
   EXPECT_EQ(order, "R2x R2y R3x R2y R2x R2x ");
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), lanes()), outputs_of(chain, vs_info(kEg), lanes()));
}

TEST(SbFinalize, RotationOnOneChannelGoesThroughAScratchRegister)
{
   /* x = y + 1, y = z + 1, z = x + 1 in one group, allocated so all three
    * live in channel x of R2, R3, R4: no single group holds them and no
    * order of single instructions works, so one result goes through the
    * first free register (R6) and a MOV. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2))}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 1), one()),
                         alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(2, 2), one()),
                         alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(2, 0), one())}),
                  group({alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(2, 0), src_gpr(2, 1)),
                         alu(AluOp::MOV, kSlotY, dst(5, 1), src_gpr(2, 2))})}),
      export_done(5),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   for (unsigned chan = 0; chan < 3; chan++)
      for (unsigned v = 1; v <= 2; v++)
         a.reg[sh->value_id(sh->var_id(VarKind::Gpr, 2, chan), v)] =
            RegAssign{int16_t(2 + chan), 0};
   Program out;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), out, d)) << d.str();
   std::string text;
   for (const AluGroup &g : out.cf[0].groups)
      for (const AluInstr &in : g.instrs)
         text += std::string(alu_op_name(in.op)) + " R" + std::to_string(in.dst.gpr) +
                 "xyzw"[in.dst.chan] + "; ";
   EXPECT_EQ(text, "MOV R2x; MOV R3x; MOV R4x; ADD R6x; ADD R3x; ADD R4x; MOV R2x; ADD R5x; "
                   "MOV R5y; ");
   EXPECT_EQ(outputs_of(out, vs_info(kEg), lanes()), outputs_of(p, vs_info(kEg), lanes()));
}

TEST(SbFinalize, Dot4WithoutABankSwizzleReadsCopies)
{
   /* DOT4 over R2 and R3 is fine; allocated so that every element sits in
    * channel x of its own register (R4..R11), its slots read eight
    * registers on one channel, which no bank swizzle serves.  Its operands
    * are copied into the scratch registers (R12, R13) just before it, on the
    * slot's channel. */
   AluInstr dot[4];
   for (unsigned c = 0; c < 4; c++)
      dot[c] = alu(AluOp::DOT4, c, dst(5, c, c == 0), src_gpr(2, c), src_gpr(3, c));
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), one()),
                         alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one()),
                         alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), one())}),
                  group({alu(AluOp::MUL, kSlotX, dst(3, 0), src_gpr(1, 1), src_gpr(1, 1)),
                         alu(AluOp::ADD, kSlotY, dst(3, 1), src_gpr(1, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotZ, dst(3, 2), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotW, dst(3, 3), src_gpr(1, 0))}),
                  group({dot[0], dot[1], dot[2], dot[3]})}),
      export_done(5),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   for (unsigned r = 2; r <= 3; r++)
      for (unsigned chan = 0; chan < 4; chan++)
         a.reg[sh->value_id(sh->var_id(VarKind::Gpr, r, chan), 1)] =
            RegAssign{int16_t(4 + (r - 2) * 4 + chan), 0};
   Program out;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), out, d)) << d.str();
   /* src1 alone is not enough (R4..R7 on channel x stay four reads):
    * both operands go through R12 and R13, one MOV per group. */
   const auto &groups = out.cf[0].groups;
   ASSERT_GE(groups.size(), 9u);
   const AluGroup &dot4 = groups.back();
   for (unsigned c = 0; c < 4; c++) {
      const AluInstr &m0 = groups[groups.size() - 9 + 2 * c].instrs.at(0);
      const AluInstr &m1 = groups[groups.size() - 8 + 2 * c].instrs.at(0);
      EXPECT_EQ(m0.op, AluOp::MOV);
      EXPECT_EQ(m0.dst.gpr * 4 + m0.dst.chan, 12u * 4 + c);
      EXPECT_EQ(m0.src[0].sel, 4u + c);
      EXPECT_EQ(m1.dst.gpr * 4 + m1.dst.chan, 13u * 4 + c);
      EXPECT_EQ(m1.src[0].sel, 8u + c);
      EXPECT_EQ(dot4.instrs[c].src[0].sel * 4 + dot4.instrs[c].src[0].chan, 12u * 4 + c);
      EXPECT_EQ(dot4.instrs[c].src[1].sel * 4 + dot4.instrs[c].src[1].chan, 13u * 4 + c);
   }
   EXPECT_TRUE(validate_program(out, vs_info(kEg), d)) << d.str();
   EXPECT_EQ(outputs_of(out, vs_info(kEg), lanes()), outputs_of(p, vs_info(kEg), lanes()));
}

TEST(SbFinalize, AluAfterAnExportJoinsTheClauseBeforeIt)
{
   /* The clause after the position export writes nothing the export reads,
    * so it runs before it, in the first clause: one CF less. */
   CfInstr pos = export_done(3, 1, 60, false);
   pos.op = CfOp::EXPORT;
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0), one()),
                         alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(3, 2), zero()),
                         alu(AluOp::MOV, kSlotW, dst(3, 3), one())})}),
      pos,
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 0))})}),
      export_done(2),
   });
   check(p, "0 ALU groups=6\n1 EXPORT R3.xyzw\n2 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, AluThatOverwritesAnExportedRegisterStaysAfterIt)
{
   CfInstr pos = export_done(2, 1, 60, false);
   pos.op = CfOp::EXPORT;
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), one())})}),
      pos,
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1))})}),
      export_done(2),
   });
   check(p, "0 ALU groups=1\n1 EXPORT R2.xyzw\n2 ALU groups=1\n3 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, SelfMovesAreDropped)
{
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                  group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(2, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(2, 0))})}),
      export_done(2),
   });
   std::string refused, error;
   auto out = finalize(p, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), "0 ALU groups=2\n1 EXPORT_DONE R2.xyzw EOP\n");
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), lanes()), outputs_of(p, vs_info(kEg), lanes()));
}

TEST(SbFinalize, PortCopiesCountAgainstTheClauseLimit)
{
   /* 116 filler groups, then the DOT4 of Dot4WithoutABankSwizzleReadsCopies
    * allocated onto channel x of R4..R11: without its eight port copies the
    * clause would be 128 slots; with them it must split, never exceed 128. */
   AluInstr dot[4];
   for (unsigned c = 0; c < 4; c++)
      dot[c] = alu(AluOp::DOT4, c, dst(5, c, c == 0), src_gpr(2, c), src_gpr(3, c));
   std::vector<AluGroup> gs;
   for (int i = 0; i < 116; i++)
      gs.push_back(group({alu(AluOp::ADD, kSlotX, dst(14, 0), src_gpr(14, 0), one())}));
   gs.push_back(group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), one()),
                       alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one()),
                       alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(1, 0), src_gpr(1, 1)),
                       alu(AluOp::MOV, kSlotW, dst(2, 3), one())}));
   gs.push_back(group({alu(AluOp::MUL, kSlotX, dst(3, 0), src_gpr(1, 1), src_gpr(1, 1)),
                       alu(AluOp::ADD, kSlotY, dst(3, 1), src_gpr(1, 0), src_gpr(1, 0)),
                       alu(AluOp::MOV, kSlotZ, dst(3, 2), src_gpr(1, 1)),
                       alu(AluOp::MOV, kSlotW, dst(3, 3), src_gpr(1, 0))}));
   gs.push_back(group({dot[0], dot[1], dot[2], dot[3]}));
   Program p = program(kEg, {alu_clause(gs), export_done(5)});
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   for (unsigned r = 2; r <= 3; r++)
      for (unsigned chan = 0; chan < 4; chan++)
         a.reg[sh->value_id(sh->var_id(VarKind::Gpr, r, chan), 1)] =
            RegAssign{int16_t(4 + (r - 2) * 4 + chan), 0};
   Program out;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), out, d)) << d.str();
   std::vector<unsigned> slots;
   for (const CfInstr &c : out.cf) {
      if (c.groups.empty())
         continue;
      unsigned n = 0;
      for (const AluGroup &g : c.groups)
         n += unsigned(g.instrs.size() + (g.literals.size() + 1) / 2);
      slots.push_back(n);
   }
   /* 116 + 8 split ADD/MUL/MOVs; then 8 copies + the DOT4. */
   EXPECT_EQ(slots, (std::vector<unsigned>{124, 12}));
   EXPECT_TRUE(validate_program(out, vs_info(kEg), d)) << d.str();
   EXPECT_EQ(outputs_of(out, vs_info(kEg), lanes()), outputs_of(p, vs_info(kEg), lanes()));
}

TEST(SbFinalize, ClausesSplitAt128Slots)
{
   /* Two clauses of 100 groups merge into one ALU stream, split at the
    * 128-slot limit. */
   std::vector<AluGroup> gs;
   for (int i = 0; i < 100; i++)
      gs.push_back(group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())}));
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))})}),
      alu_clause(gs),
      alu_clause(gs),
      export_done(2),
   });
   check(p, "0 ALU groups=128\n"
            "1 ALU groups=73\n"
            "2 EXPORT_DONE R2.xyzw EOP\n");
}

TEST(SbFinalize, KcacheLocksPerClause)
{
   /* R700 has two lock sets: lines 0 and 1 of bank 0 share a 32-constant
    * lock, line 4 takes the second set, line 8 needs a new clause. */
   auto kc = [](unsigned line) {
      CfInstr c = alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0),
                                         src_kcache(0, 3, 1))})});
      c.kcache[0] = KCacheLock{0, 1, uint8_t(line), 0};
      return c;
   };
   Program p = program(ChipClass::R700, {kc(0), kc(1), kc(4), kc(8), export_done(2)});
   std::string refused, error;
   auto out = finalize(p, vs_info(ChipClass::R700), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), "0 ALU groups=3\n1 ALU groups=1\n2 EXPORT_DONE R2.xyzw EOP\n");
   EXPECT_EQ(out->cf[0].kcache[0], (KCacheLock{0, 2, 0, 0}));
   EXPECT_EQ(out->cf[0].kcache[1], (KCacheLock{0, 1, 4, 0}));
   EXPECT_EQ(out->cf[1].kcache[0], (KCacheLock{0, 1, 8, 0}));
   /* Constant 16 + 3 is KC0[19] through the 32-constant lock. */
   EXPECT_EQ(out->cf[0].groups[1].instrs[0].src[1], src_kcache(0, 19, 1));
   EXPECT_EQ(out->cf[0].groups[2].instrs[0].src[1], src_kcache(1, 3, 1));
   Diagnostics d;
   EXPECT_TRUE(validate_program(*out, vs_info(ChipClass::R700), d)) << d.str();
}

TEST(SbFinalize, PredicatedWriteGoesToThePsiRegister)
{
   /* r = x; if (PRED: x > 1) r = 1.0 (pred_sel 3), without an exec mask */
   AluInstr ps = alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), src_gpr(1, 0), one());
   ps.update_pred = true;
   AluInstr mov = alu(AluOp::MOV, kSlotX, dst(2, 0), one());
   mov.pred_sel = 3;
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}), group({ps}),
                  group({mov})}),
      export_done(2),
   });
   check(p, "0 ALU groups=3\n1 EXPORT_DONE R2.xyzw EOP\n");

   /* An allocation that puts the psi apart from the value it keeps is
    * refused. */
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   a.reg[sh->value_id(sh->var_id(VarKind::Gpr, 2, 0), 2)].gpr = 5;
   Program out;
   EXPECT_FALSE(bc_finalize(*sh, a, vs_info(kEg), out, d));
   EXPECT_EQ(d.str(), "error: bc_finalize: psi R2.x.2 and the value it keeps, R2.x.1, are not "
                      "in one register\n");
}

TEST(SbFinalize, AllocationMovesRegistersAndExportSwizzles)
{
   /* R2.x = R1.y; R2.y = R1.x; export R2 -- allocated into R7 with the
    * channels permuted: the export's swizzle follows. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 0))})}),
      export_done(2),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   auto put = [&](unsigned chan, unsigned version, unsigned to) {
      a.reg[sh->value_id(sh->var_id(VarKind::Gpr, 2, chan), version)] =
         RegAssign{7, uint8_t(to)};
   };
   put(0, 1, 2);
   put(1, 1, 0);
   put(2, 0, 1);
   put(3, 0, 3);
   Program out;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), out, d)) << d.str();
   EXPECT_EQ(listing(out), "0 ALU groups=2\n1 EXPORT_DONE R7.zxyw EOP\n");
   EXPECT_EQ(outputs_of(out, vs_info(kEg), lanes()), outputs_of(p, vs_info(kEg), lanes()));
}

TEST(SbFinalize, SyntheticClauseAndInstruction)
{
   /* A pass appends a clause (cf == nullptr) with a new ADD whose result
    * (a fresh temp, allocated to R2.x) replaces R2.x in the export. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))})}),
      export_done(2),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Node *exp = sh->root->children[1];
   ASSERT_EQ(exp->kind, NodeKind::Cf);
   Node *cf = sh->create(NodeKind::Cf);
   Node *g = sh->create(NodeKind::AluGroup);
   Node *add = sh->create(NodeKind::Alu);
   add->alu = sh->new_alu(AluOp::ADD);
   add->src.push_back(exp->src[0]);
   Value one_v;
   one_v.kind = ValueKind::Inline;
   one_v.literal = kSrc_1;
   add->src.push_back(one_v);
   add->dst.push_back(sh->new_temp());
   exp->src[0] = add->dst[0];
   g->children.push_back(add);
   cf->children.push_back(g);
   sh->root->children.insert(sh->root->children.begin() + 1, cf);
   sh->number_values();
   Allocation a = identity_allocation(*sh);
   a.reg[sh->value_id(add->dst[0])] = RegAssign{2, 0};
   Program out;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), out, d)) << d.str();
   EXPECT_EQ(listing(out), "0 ALU groups=2\n1 EXPORT_DONE R2.xyzw EOP\n");
   auto got = outputs_of(out, vs_info(kEg), lanes());
   auto in = lanes();
   ASSERT_EQ(got.size(), in.size());
   for (size_t i = 0; i < in.size(); i++)
      EXPECT_EQ(std::bit_cast<float>(got[i][0]), std::bit_cast<float>(in[i][0]) + 1.0f);
}

TEST(SbFinalize, BadTreesAndAllocationsAreRefused)
{
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())})}),
      export_done(2),
   });
   auto run = [&](auto &&mutate) {
      Diagnostics d;
      auto sh = region_parse(p, {}, d);
      ssa_prepare(*sh);
      ssa_rename(*sh);
      Allocation a = identity_allocation(*sh);
      mutate(*sh, a);
      Program out;
      EXPECT_FALSE(bc_finalize(*sh, a, vs_info(kEg), out, d));
      return d.str();
   };
   EXPECT_EQ(run([](RegionShader &, Allocation &a) { a.reg.clear(); }),
             "error: bc_finalize: allocation does not cover every value\n");
   EXPECT_EQ(run([](RegionShader &sh, Allocation &a) {
                a.reg[sh.value_id(sh.var_id(VarKind::Gpr, 2, 0), 1)].gpr = -1;
             }),
             "error: bc_finalize: operand R2.x.1 has no register\n");
   EXPECT_EQ(run([](RegionShader &sh, Allocation &) {
                sh.root->children[0]->children[1]->children[0]->src[0].var = 9999;
             }),
             "error: bc_finalize: an ALU operand names a non-GPR value\n");
   EXPECT_EQ(run([](RegionShader &sh, Allocation &) {
                sh.root->children[0]->children[1]->children[0]->alu = nullptr;
             }),
             "error: bc_finalize: an ALU group holds something other than instructions\n");
}

TEST(SbFinalize, ParserRefusesConditionalBreakClauses)
{
   Program p = program(kEg, {
      cf_op(CfOp::LOOP_START_DX10, 3),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}, CfOp::ALU_BREAK),
      cf_op(CfOp::LOOP_END, 1),
      export_done(2),
   });
   std::string refused;
   EXPECT_FALSE(finalize(p, vs_info(kEg), &refused, nullptr));
   EXPECT_EQ(refused,
             "cf:2: error: CF 1 (ALU_BREAK): conditional break/continue clauses are not supported\n");
}

TEST(SbFinalize, FetchShaderCallOnlyFirstAndOnRequest)
{
   Program p = program(kEg, {
      cf_op(CfOp::CALL_FS),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))})}),
      export_done(2),
   });
   Diagnostics d;
   EXPECT_FALSE(region_parse(p, {}, d));
   RegionParseOptions o;
   o.fetch_shader_call = true;
   std::string refused, error;
   auto out = finalize(p, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), "0 CALL_FS\n1 ALU groups=1\n2 EXPORT_DONE R2.xyzw EOP\n");
   std::swap(p.cf[0], p.cf[1]);
   Diagnostics d2;
   EXPECT_FALSE(region_parse(p, o, d2));
   EXPECT_EQ(d2.str(), "cf:2: error: CF 1 (CALL_FS): not supported by the region parser here\n");
}

TEST(SbFinalize, InferRelArrays)
{
   AluInstr st = alu(AluOp::MOV, kSlotX, dst(4, 0), src_gpr(1, 0));
   st.dst.rel = true;
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(1, 0))}),
                  group({st}),
                  group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(9, 1))})}),
      export_done(2),
   });
   auto a = infer_rel_arrays(p);
   ASSERT_EQ(a.size(), 1u);
   EXPECT_EQ(a[0].first, 4u);
   EXPECT_EQ(a[0].count, 6u);
   p.cf[0].groups[1].instrs[0].dst.rel = false;
   EXPECT_TRUE(infer_rel_arrays(p).empty());
}

} // namespace
