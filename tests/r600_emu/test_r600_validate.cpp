/*
 * Validator tests: one hand-built illegal program per rule, each expecting
 * the exact message (CF index, group, slot), plus legal neighbours that
 * must pass.
 */
#include <gtest/gtest.h>

#include "r600_emu/r600_emu_build.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::test;

std::string check(ChipClass chip, std::vector<CfInstr> cf, unsigned stack = 4)
{
   Program p;
   p.chip = chip;
   p.cf = std::move(cf);
   if (p.cf.empty() || !p.cf.back().end_of_program)
      p.cf.push_back(export_done(2));
   Diagnostics d;
   bool ok = validate_program(p, vs_info(chip, stack), d);
   EXPECT_EQ(ok, !d.has_errors());
   return messages(d);
}

/* One group in a clause that locks CB0[0..15] as kcache set 0. */
std::string check_group(ChipClass chip, AluGroup g)
{
   CfInstr cf = alu_clause({g});
   cf.kcache[0] = KCacheLock{0, 1, 0, 0};
   return check(chip, {cf});
}

AluInstr with_bs(AluInstr in, unsigned bs)
{
   in.bank_swizzle = uint8_t(bs);
   return in;
}

TEST(R600Validate, LegalGroupsPass)
{
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(2, 0), src_gpr(3, 1)),
                                alu(AluOp::ADD, kSlotY, dst(1, 1), src_gpr(2, 1), src_gpr(4, 0)),
                                alu(AluOp::RECIP_IEEE, kSlotT, dst(1, 3), src_gpr(5, 2))})),
             "");
   /* src1 equal to src0 shares its read. */
   EXPECT_EQ(check_group(ChipClass::R700,
                         group({alu(AluOp::MUL, kSlotX, dst(1, 0), src_gpr(2, 0), src_gpr(2, 0)),
                                alu(AluOp::MUL, kSlotY, dst(1, 1), src_gpr(2, 1), src_gpr(2, 1))})),
             "");
}

TEST(R600Validate, VectorBankSwizzleConflict)
{
   /* VEC_012: src0 in cycle 0 -- R2.x and R4.x both want the x port. */
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(2, 0), src_gpr(3, 1)),
                                alu(AluOp::ADD, kSlotY, dst(1, 1), src_gpr(4, 0), src_gpr(3, 1))})),
             "CF 0 group 0 slot y: bank swizzle VEC_012 reads R4.x in cycle 0 where R2.x is "
             "already read\n");
   /* VEC_120 moves src0 to cycle 1: no conflict. */
   EXPECT_EQ(check_group(
                ChipClass::Evergreen,
                group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(2, 0), src_gpr(3, 1)),
                       with_bs(alu(AluOp::ADD, kSlotY, dst(1, 1), src_gpr(4, 0), src_gpr(5, 2)), 2)})),
             "");
}

TEST(R600Validate, TransSlotConstantCycles)
{
   /* SCL_210 reads src2 in cycle 0, which the one constant takes. */
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::MULADD, kSlotT, dst(1, 0), src_kcache(0, 0, 0),
                                    src_gpr(2, 1), src_gpr(3, 2))})),
             "CF 0 group 0 slot t: bank swizzle SCL_210 reads operand 2 in cycle 0, taken by "
             "the slot's 1 constant(s)\n");
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::MULADD, kSlotT, dst(1, 0), src_kcache(0, 0, 0), lit(0),
                                    one())},
                               {0})),
             "CF 0 group 0 slot t: more than two constant operands in the trans slot\n");
}

TEST(R600Validate, ConstantReadPorts)
{
   /* R700+: two (constant, channel pair) ports per group. */
   EXPECT_EQ(check_group(ChipClass::R700,
                         group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_kcache(0, 0, 0)),
                                alu(AluOp::MOV, kSlotY, dst(1, 1), src_kcache(0, 1, 0)),
                                alu(AluOp::MOV, kSlotZ, dst(1, 2), src_kcache(0, 2, 0))})),
             "CF 0 group 0 slot z: constant KC0[2].x needs a constant read port but all 2 are "
             "taken in this group\n");
   /* x and y of one constant share a port. */
   EXPECT_EQ(check_group(ChipClass::R700,
                         group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_kcache(0, 0, 0)),
                                alu(AluOp::MOV, kSlotY, dst(1, 1), src_kcache(0, 0, 1)),
                                alu(AluOp::MOV, kSlotZ, dst(1, 2), src_kcache(0, 1, 2))})),
             "");
}

TEST(R600Validate, Literals)
{
   AluGroup g = group({alu(AluOp::MOV, kSlotX, dst(1, 0), lit(0))}, {1, 2, 3, 4, 5});
   EXPECT_EQ(check_group(ChipClass::Evergreen, g),
             "CF 0 group 0 slot x: group uses 5 literals, at most 4 fit\n");
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::MOV, kSlotX, dst(1, 0), lit(2))}, {1, 2})),
             "CF 0 group 0 slot x: LITERAL.z beyond the group's 2 literal(s)\n");
}

TEST(R600Validate, KcacheBanksAndRanges)
{
   CfInstr cf = alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_kcache(0, 20, 0))})});
   EXPECT_EQ(check(ChipClass::Evergreen, {cf}),
             "CF 0 group 0 slot x: KC0[20] is outside the clause's locked kcache range\n");
   cf.kcache[0] = KCacheLock{0, 1, 0, 0};
   EXPECT_EQ(check(ChipClass::Evergreen, {cf}),
             "CF 0 group 0 slot x: KC0[20] is outside the clause's locked kcache range\n");
   cf.kcache[0].mode = 2;
   EXPECT_EQ(check(ChipClass::Evergreen, {cf}), "");

   CfInstr ext = alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_kcache(2, 0, 0))})});
   ext.kcache[2] = KCacheLock{3, 1, 0, 0};
   EXPECT_EQ(check(ChipClass::Evergreen, {ext}),
             "CF 0 group 0 slot x: kcache set 2 needs an ALU_EXT clause\n");
   ext.alu_ext = true;
   EXPECT_EQ(check(ChipClass::Evergreen, {ext}), "");
   /* On R700 the same selector is the constant file, but the lock is not. */
   EXPECT_EQ(check(ChipClass::R700, {ext}), "CF 0: kcache set 2 locked, the chip has 2\n");
}

TEST(R600Validate, SlotClasses)
{
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::RECIP_IEEE, kSlotX, dst(1, 0), src_gpr(2, 0))})),
             "CF 0 group 0 slot x: trans-only RECIP_IEEE in a vector slot\n");
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::FLT_TO_INT, kSlotT, dst(1, 0), src_gpr(2, 0))})),
             "CF 0 group 0 slot t: vector-only FLT_TO_INT in the trans slot\n");
   /* R700 has FLT_TO_INT only in the trans slot. */
   EXPECT_EQ(check_group(ChipClass::R700,
                         group({alu(AluOp::FLT_TO_INT, kSlotX, dst(1, 0), src_gpr(2, 0))})),
             "CF 0 group 0 slot x: trans-only FLT_TO_INT in a vector slot\n");
}

TEST(R600Validate, ReductionsFillTheirSlots)
{
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::DOT4, kSlotX, dst(1, 0), src_gpr(2, 0), src_gpr(3, 0)),
                                alu(AluOp::DOT4, kSlotY, dst(1, 1, false), src_gpr(2, 1), src_gpr(3, 1)),
                                alu(AluOp::DOT4, kSlotZ, dst(1, 2, false), src_gpr(2, 2), src_gpr(3, 2))})),
             "CF 0 group 0 slot x: DOT4 does not fill slot w\n");
}

TEST(R600Validate, TwoWritesToOneChannel)
{
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(2, 0)),
                                alu(AluOp::MOV, kSlotT, dst(1, 0), src_gpr(3, 1))})),
             "CF 0 group 0 slot t: second write to R1.x in one group\n");
}

TEST(R600Validate, PvAndPsNeedAProducer)
{
   EXPECT_EQ(check_group(ChipClass::Evergreen, group({alu(AluOp::MOV, kSlotX, dst(1, 0), pv(0))})),
             "CF 0 group 0 slot x: PV.x read in the first group of the clause\n");
   EXPECT_EQ(check(ChipClass::Evergreen,
                   {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(2, 0))}),
                                group({alu(AluOp::MOV, kSlotX, dst(1, 1), pv(1)),
                                       alu(AluOp::MOV, kSlotY, dst(1, 2), ps())})})}),
             "CF 0 group 1 slot x: PV.y read but the previous group has no y instruction\n"
             "CF 0 group 1 slot y: PS read but the previous group has no trans instruction\n");
}

TEST(R600Validate, ArUsedInTheGroupThatLoadsIt)
{
   AluInstr rel = alu(AluOp::MOV, kSlotY, dst(1, 1), src_gpr(4, 1));
   rel.src[0].rel = true;
   EXPECT_EQ(check_group(ChipClass::Evergreen,
                         group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(2, 0)),
                                rel})),
             "CF 0 group 0 slot y: AR used in the group that loads it\n");
   EXPECT_EQ(check(ChipClass::Evergreen,
                   {alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(2, 0))}),
                                group({rel})})}),
             "");
}

TEST(R600Validate, ClauseAndProgramLimits)
{
   std::vector<AluGroup> groups(129, group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(2, 0))}));
   EXPECT_EQ(check(ChipClass::Evergreen, {alu_clause(groups)}),
             "CF 0: ALU clause of 129 slots, at most 128\n");
   groups.resize(128);
   EXPECT_EQ(check(ChipClass::Evergreen, {alu_clause(groups)}), "");

   CfInstr tex = cf_op(CfOp::TEX);
   TexInstr sample;
   sample.dst_gpr = 1; /* address in R0, results in R1: no fetch reads another's */
   tex.fetches.assign(17, sample);
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}),
             "CF 0: fetch clause of 17 instructions, at most 16\n");
   tex.fetches.resize(9);
   EXPECT_EQ(check(ChipClass::R600, {tex}), "CF 0: fetch clause of 9 instructions, at most 8\n");

   EXPECT_EQ(check(ChipClass::Evergreen, {cf_op(CfOp::JUMP, 10)}),
             "CF 0: JUMP target 10 outside the program (2 CF instructions)\n");

   Program p;
   p.chip = ChipClass::Evergreen;
   p.cf.push_back(cf_op(CfOp::NOP));
   Diagnostics d;
   EXPECT_FALSE(validate_program(p, vs_info(ChipClass::Evergreen), d));
   EXPECT_EQ(messages(d), "program has no END_OF_PROGRAM\n");
}

TEST(R600Validate, FetchAddressWrittenEarlierInTheClause)
{
   TexInstr a;
   a.src_gpr = 0;
   a.dst_gpr = 1;
   TexInstr b = a;
   b.src_gpr = 1;
   b.dst_gpr = 2;
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}),
             "CF 0: fetch 1 reads its address from R1.x, which fetch 0 of the same clause writes\n");
   /* By channel: reading R1.xy after a fetch wrote only R1.zw is legal (Mesa's
    * sb does it on shipped code); reading R1.z is not. */
   a.dst_sel = {7, 7, 2, 3};
   b.src_sel = {0, 1, 7, 7};
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}), "");
   b.src_sel = {0, 1, 2, 7};
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}),
             "CF 0: fetch 1 reads its address from R1.z, which fetch 0 of the same clause writes\n");
   /* A constant destination select (SEL_0) writes its channel too. */
   a.dst_sel = {kSel0, kSelMask, kSelMask, kSelMask};
   b.src_sel = {0, 1, 7, 7};
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}),
             "CF 0: fetch 1 reads its address from R1.x, which fetch 0 of the same clause writes\n");
   /* A fetch that writes nothing (all channels masked), one that reads no
    * register (constant coordinates), gradients, or the order swapped: legal. */
   a.dst_sel = {7, 7, 7, 7};
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}), "");
   a.dst_sel = {0, 1, 2, 3};
   b.src_sel = {4, 5, 7, 7};
   tex.fetches = {a, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}), "");
   TexInstr grad = a;
   grad.op = FetchOp::SET_GRADIENTS_H;
   b.src_sel = {0, 1, 2, 3};
   tex.fetches = {grad, b};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}), "");
   tex.fetches = {b, a};
   EXPECT_EQ(check(ChipClass::Evergreen, {tex}), "");

   VtxInstr v;
   v.src_gpr = 0;
   v.dst_gpr = 3;
   VtxInstr w = v;
   w.src_gpr = 3;
   w.dst_gpr = 4;
   CfInstr vtx = cf_op(CfOp::VTX);
   vtx.fetches = {v, w};
   EXPECT_EQ(check(ChipClass::R700, {vtx}),
             "CF 0: fetch 1 reads its address from R3.x, which fetch 0 of the same clause writes\n");
}

TEST(R600Validate, ExportBursts)
{
   CfInstr params = export_done(1, 2, 0);
   params.exp.burst_count = 16;
   EXPECT_EQ(check(ChipClass::Evergreen, {params}), "");
   params.exp.burst_count = 17;
   EXPECT_EQ(check(ChipClass::Evergreen, {params}), "CF 0: burst of 17 exports, 1 to 16\n");
   params.exp.burst_count = 4;
   params.exp.array_base = 30;
   EXPECT_EQ(check(ChipClass::Evergreen, {params}),
             "CF 0: parameter export to bases 30..33, outside 0..31\n");
   params.exp.array_base = 0;
   params.exp.gpr = 126;
   EXPECT_EQ(check(ChipClass::R700, {params}), "CF 0: export burst reads R126..R129, past R127\n");

   CfInstr pos = export_done(1, 1, 62);
   pos.end_of_program = false;
   pos.exp.burst_count = 2;
   EXPECT_EQ(check(ChipClass::Evergreen, {pos}), "");
   pos.exp.burst_count = 3;
   EXPECT_EQ(check(ChipClass::Evergreen, {pos}),
             "CF 0: position export to bases 62..64, outside 60..63\n");
}

TEST(R600Validate, StackDepthAgainstStackSize)
{
   std::vector<CfInstr> cf = {
      alu_clause({group({alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), src_gpr(1, 0), zero())})},
                 CfOp::ALU_PUSH_BEFORE),
      cf_op(CfOp::POP, 2, 1)};
   EXPECT_EQ(check(ChipClass::Evergreen, cf, 0), "CF 0: stack depth 1 exceeds stack_size 0\n");
   EXPECT_EQ(check(ChipClass::Evergreen, cf, 1), "");
   std::vector<CfInstr> loop = {cf_op(CfOp::LOOP_START_DX10, 3), cf[0], cf[1],
                                cf_op(CfOp::LOOP_END, 1)};
   EXPECT_EQ(check(ChipClass::Evergreen, loop, 1), "CF 1: stack depth 2 exceeds stack_size 1\n");
}

} // namespace
