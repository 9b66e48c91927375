/*
 * bc_finalize (tree + allocation -> bytecode) with identity_allocation:
 * exact CF listings of small hand-built programs (if/else, nested ifs ending
 * in ALU_POP2_AFTER, loop with break/continue) run against their source in
 * the emulator; parser refusals; and the round trip of every stage of every
 * bundled .shader_test through region_parse -> ssa -> identity allocation
 * -> bc_finalize (alone, and followed by the clause-local bc_parser ->
 * post_scheduler -> bc_builder), checked by the validator and against the
 * reference interpreter inside the real compile pipeline.
 */
#include <bit>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "interp/interp.h"
#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600/r600_target.h"
#include "r600/sb/sb_region_passes.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_ra.h"
#include "runner/shader_run.h"
#include "runner/shader_test.h"
#include "runner/verify.h"
#include "sb/sb_test_util.h"

#ifndef SBCC_SOURCE_ROOT
#define SBCC_SOURCE_ROOT "."
#endif

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;

/* region_parse -> ssa_prepare -> ssa_rename -> identity_allocation ->
 * bc_finalize.  `refused` gets the parser's diagnostic when it refuses.
 * SBCC_FINALIZE_RA=1 puts dce_cleanup and the real register allocation
 * (sb_ra.h) in place of the identity one: an integration check of the
 * allocator's output against bc_finalize's contract, off by default so this
 * test judges bc_finalize alone. */
std::optional<Program> finalize(const Program &p, const ShaderInfo &info, std::string *refused,
                                std::string *error)
{
   Diagnostics d;
   RegionParseOptions o;
   o.arrays = infer_rel_arrays(p);
   o.fetch_shader_call = true;
   auto sh = region_parse(p, o, d);
   if (!sh) {
      if (refused)
         *refused = d.str();
      return std::nullopt;
   }
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   if (std::getenv("SBCC_FINALIZE_RA")) {
      if (!dce_cleanup(*sh, d) || !register_allocation(*sh, info, a, d)) {
         if (refused)
            *refused = "RA: " + d.str();
         return std::nullopt;
      }
   }
   Program out;
   if (!bc_finalize(*sh, a, info, out, d)) {
      if (error)
         *error = d.str();
      return std::nullopt;
   }
   return out;
}

/* One line per CF: index, op, clause size, target and pop count, export. */
std::string listing(const Program &p)
{
   std::string s;
   for (size_t i = 0; i < p.cf.size(); i++) {
      const CfInstr &cf = p.cf[i];
      s += std::to_string(i) + " " + std::string(cf_op_name(cf.op));
      const auto &info = cf_op_info(cf.op);
      if (info.enc == CfEncoding::Alu)
         s += " groups=" + std::to_string(cf.groups.size());
      if (info.flags & CF_FETCH)
         s += " fetches=" + std::to_string(cf.fetches.size());
      if (info.flags & CF_TARGET)
         s += " @" + std::to_string(cf.target);
      if (cf.pop_count)
         s += " pop=" + std::to_string(cf.pop_count);
      if (info.enc == CfEncoding::Export) {
         s += " R" + std::to_string(cf.exp.gpr) + ".";
         for (uint8_t c : cf.exp.swizzle)
            s += "xyzw01?_"[c & 7];
      }
      if (cf.end_of_program)
         s += " EOP";
      s += "\n";
   }
   return s;
}

Vec4 fvec(float x, float y)
{
   return Vec4{std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), 0, 0};
}

std::vector<Vec4> lanes()
{
   return {fvec(1, 1), fvec(1, -1), fvec(-1, 1), fvec(-1, -1), fvec(0, 2), fvec(3, 0.5f)};
}

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

TEST(SbFinalize, FetchClausesJoinWhenIndependent)
{
   auto tex = [](unsigned src, unsigned dst_gpr) {
      CfInstr c;
      c.op = CfOp::TEX;
      TexInstr t;
      t.src_gpr = uint8_t(src);
      t.dst_gpr = uint8_t(dst_gpr);
      c.fetches.push_back(t);
      return c;
   };
   /* R3 = tex(R1), R4 = tex(R1): one clause; R5 = tex(R3) reads R3: a new one. */
   Program p = program(kEg, {tex(1, 3), tex(1, 4), tex(3, 5), export_done(5)});
   std::string refused, error;
   auto out = finalize(p, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), "0 TEX fetches=2\n1 TEX fetches=1\n2 EXPORT_DONE R5.xyzw EOP\n");

   /* The allocator puts R3's x and y into R6.w and R6.z: the fetch's dst_sel
    * follows (w gets component x, z gets y), and z/w are not written. */
   Program q = program(kEg, {tex(1, 3), export_done(3)});
   q.cf[1].exp.swizzle = {kSelX, kSelY, kSel0, kSel1}; /* reads x and y only */
   Diagnostics d;
   auto sh = region_parse(q, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   auto r3 = [&](unsigned chan, unsigned version) {
      return sh->value_id(sh->var_id(VarKind::Gpr, 3, chan), version);
   };
   a.reg[r3(0, 1)] = RegAssign{6, 3};
   a.reg[r3(1, 1)] = RegAssign{6, 2};
   a.reg[r3(2, 1)] = RegAssign{-1, 0};
   a.reg[r3(3, 1)] = RegAssign{-1, 0};
   Program o;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), o, d)) << d.str();
   const TexInstr &t = std::get<TexInstr>(o.cf[0].fetches[0]);
   EXPECT_EQ(t.dst_gpr, 6);
   EXPECT_EQ(t.dst_sel, (std::array<uint8_t, 4>{kSelMask, kSelMask, kSelY, kSelX}));
   EXPECT_EQ(listing(o), "0 TEX fetches=1\n1 EXPORT_DONE R6.wz01 EOP\n");
}

/* The whole sb (SSA stage + clause-local stage) on a hand-built program,
 * checked against its source in the emulator. */
Program sb_whole(const Program &p, const ShaderInfo &info, const std::vector<Vec4> &in)
{
   DebugOptions o;
   o.sb = true;
   sb::SbStats st;
   Diagnostics d;
   auto out = sb::sb_optimize(p, info, o, &st, d);
   EXPECT_TRUE(out.has_value()) << st.log;
   EXPECT_TRUE(st.ssa) << st.ssa_failed_pass;
   if (!out)
      return p;
   EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in));
   return *out;
}

unsigned alu_instrs(const Program &p)
{
   unsigned n = 0;
   for (const CfInstr &c : p.cf)
      for (const AluGroup &g : c.groups)
         n += unsigned(g.instrs.size());
   return n;
}

TEST(SbFinalize, ExportOfUnwrittenChannelsIsMasked)
{
   /* Only R2.x is written: y, z, w are R2's entry values, which nothing
    * loads, so they need neither a register nor a copy. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1))})}),
      export_done(2),
   });
   Program out = sb_whole(p, vs_info(kEg), lanes());
   EXPECT_EQ(listing(out), "0 ALU groups=1\n1 EXPORT_DONE R0.x___ EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 2u); /* R0 and the input R1 */
}

TEST(SbFinalize, ExportOfAnInputsChannelsReadsTheInput)
{
   /* R2.xy = R1.yz: the export reads R1 with swizzle yz, no MOV is left
    * (the humus-celshading vertex shader's PARAM 1). */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 2))})}),
      export_done(2),
   });
   Program out = sb_whole(p, vs_info(kEg), lanes());
   EXPECT_EQ(listing(out), "0 EXPORT_DONE R1.yz__ EOP\n");
   EXPECT_EQ(alu_instrs(out), 0u);
}

TEST(SbFinalize, ExportOfZeroAndOneUsesConstantSelects)
{
   /* 0.0 and 1.0 (inline or literal) become SEL_0 / SEL_1: their MOVs go. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero()),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), one()),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_literal(0))},
                        {0x3f800000})}),
      export_done(2),
   });
   Program out = sb_whole(p, vs_info(kEg), lanes());
   EXPECT_EQ(listing(out), "0 ALU groups=1\n1 EXPORT_DONE R0.x011 EOP\n");
   EXPECT_EQ(alu_instrs(out), 1u);
   for (const Vec4 &v : outputs_of(out, vs_info(kEg), lanes()))
      EXPECT_EQ((std::array<uint32_t, 3>{v[1], v[2], v[3]}),
                (std::array<uint32_t, 3>{0u, 0x3f800000u, 0x3f800000u}));
}

TEST(SbFinalize, TexCoordinatesUnwrittenOrConstantNeedNoCopy)
{
   /* R3 = (R1.x, R1.y, unwritten, 1.0); R4 = tex(R3); export R4.  The TEX
    * reads R1 directly with src_sel x y 0 1; its four results still land on
    * four distinct channels of one GPR. */
   CfInstr tex;
   tex.op = CfOp::TEX;
   TexInstr t;
   t.src_gpr = 3;
   t.dst_gpr = 4;
   tex.fetches.push_back(t);
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotW, dst(3, 3), one())})}),
      tex,
      export_done(4),
   });
   Program out = sb_whole(p, vs_info(kEg), lanes());
   ASSERT_EQ(out.cf.size(), 2u) << listing(out);
   ASSERT_EQ(out.cf[0].fetches.size(), 1u);
   const TexInstr &o = std::get<TexInstr>(out.cf[0].fetches[0]);
   EXPECT_EQ(o.src_gpr, 1);
   EXPECT_EQ(o.src_sel, (std::array<uint8_t, 4>{kSelX, kSelY, kSel0, kSel1}));
   std::array<uint8_t, 4> d = o.dst_sel;
   std::sort(d.begin(), d.end());
   EXPECT_EQ(d, (std::array<uint8_t, 4>{kSelX, kSelY, kSelZ, kSelW}));
   EXPECT_EQ(alu_instrs(out), 0u);
}

/* A vertex shader with IN[0] in R1 and OUT[i] exported as PARAM i. */
ShaderInfo params_info(ChipClass chip, unsigned n)
{
   ShaderInfo info = vs_info(chip);
   info.outputs.clear();
   for (unsigned i = 0; i < n; i++) {
      ShaderIo out;
      out.gpr = uint8_t(2 + i);
      out.tgsi_index = int32_t(i);
      out.export_type = 2;
      out.export_base = uint16_t(i);
      info.outputs.push_back(out);
   }
   return info;
}

/* Every output of every lane, after the validator accepted the program. */
std::vector<Vec4> all_outputs(const Program &p, const ShaderInfo &info)
{
   Diagnostics d;
   EXPECT_TRUE(validate_program(p, info, d)) << d.str();
   Batch b = batch_of(lanes());
   for (Lane &l : b.lanes)
      l.outputs.assign(info.outputs.size(), Vec4{0, 0, 0, 0});
   RunResult r = emulate(p, info, {}, b, RunLimits{});
   EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
   std::vector<Vec4> out;
   for (const Lane &l : b.lanes)
      out.insert(out.end(), l.outputs.begin(), l.outputs.end());
   return out;
}

/* The exports only, with their bursts: "EXPORT PARAM 0-1 R2-3.xyzw". */
std::string exports_of(const Program &p)
{
   std::string s;
   for (const CfInstr &cf : p.cf) {
      if (cf_op_info(cf.op).enc != CfEncoding::Export)
         continue;
      const ExportInfo &e = cf.exp;
      const unsigned n = e.burst_count;
      const char *type = e.type == 0 ? "PIXEL" : e.type == 1 ? "POS" : "PARAM";
      s += std::string(cf_op_name(cf.op)) + " " + type + " " + std::to_string(e.array_base);
      if (n > 1)
         s += "-" + std::to_string(e.array_base + n - 1);
      s += " R" + std::to_string(e.gpr);
      if (n > 1)
         s += "-" + std::to_string(e.gpr + n - 1);
      s += ".";
      for (uint8_t c : e.swizzle)
         s += "xyzw01?_"[c & 7];
      if (cf.end_of_program)
         s += " EOP";
      s += "\n";
   }
   return s;
}

CfInstr param(CfOp op, unsigned gpr, unsigned base, std::array<uint8_t, 4> swz = {0, 1, 2, 3})
{
   CfInstr c = export_done(gpr, 2, base, false);
   c.op = op;
   c.exp.swizzle = swz;
   return c;
}

/* R<gpr>.xyzw = R1.xyzw + k: a distinct value per output. */
CfInstr fill(std::vector<std::pair<unsigned, unsigned>> gpr_k)
{
   std::vector<AluGroup> groups;
   for (auto [gpr, k] : gpr_k) {
      std::vector<AluInstr> g;
      for (unsigned c = 0; c < 4; c++)
         g.push_back(alu(AluOp::ADD, c, dst(gpr, c), src_gpr(1, c), src_literal(0)));
      groups.push_back(group(g, {std::bit_cast<uint32_t>(float(k))}));
   }
   return alu_clause(groups);
}

/* bc_finalize on the identity allocation: listing of the exports, and the
 * emulator gives every output the source gives. */
std::string finalized_exports(const Program &src, unsigned outputs)
{
   ShaderInfo info = params_info(src.chip, outputs);
   std::string refused, error;
   auto out = finalize(src, info, &refused, &error);
   EXPECT_TRUE(out) << refused << error;
   if (!out)
      return "";
   EXPECT_EQ(all_outputs(*out, info), all_outputs(src, info));
   return exports_of(*out);
}

TEST(SbFinalize, ExportsInARowBecomeOneBurst)
{
   /* Mesa's r600_bytecode_add_output rule: one type and swizzle,
    * consecutive bases in consecutive GPRs; EXPORT then EXPORT_DONE merge
    * as EXPORT_DONE, which keeps the end of the program. */
   for (ChipClass chip : {kEg, ChipClass::R700}) {
      Program p = program(chip, {fill({{2, 1}, {3, 2}, {4, 3}}), param(CfOp::EXPORT, 2, 0),
                                 param(CfOp::EXPORT, 3, 1), param(CfOp::EXPORT_DONE, 4, 2)});
      p.cf.back().end_of_program = true;
      EXPECT_EQ(finalized_exports(p, 3), "EXPORT_DONE PARAM 0-2 R2-4.xyzw EOP\n");
   }
   /* Descending bases in descending GPRs join too (the burst starts at the
    * lower one). */
   Program down = program(kEg, {fill({{2, 1}, {3, 2}}), param(CfOp::EXPORT, 3, 1),
                                param(CfOp::EXPORT_DONE, 2, 0)});
   down.cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(down, 2), "EXPORT_DONE PARAM 0-1 R2-3.xyzw EOP\n");
}

TEST(SbFinalize, BurstNeedsOneSwizzleConsecutiveRegistersAndOrder)
{
   auto two = [&](CfInstr a, CfInstr b) {
      Program p = program(kEg, {fill({{2, 1}, {3, 2}, {4, 3}}), a, b});
      p.cf.back().end_of_program = true;
      return finalized_exports(p, 2);
   };
   /* Another swizzle (a masked channel), a gap in the GPRs, a gap in the
    * bases: no burst. */
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 1, {0, 1, 2, 7})),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyz_ EOP\n");
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 4, 1)),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R4.xyzw EOP\n");
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 2)),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 2 R3.xyzw EOP\n");
   /* A done export takes no later one: exports of its type after it would
    * come before the done. */
   EXPECT_EQ(two(param(CfOp::EXPORT_DONE, 2, 0), param(CfOp::EXPORT_DONE, 3, 1)),
             "EXPORT_DONE PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
   /* Pixel then parameter, consecutive bases (0, 1): two types.  (Position
    * bases are 60..63 and parameter bases 0..31, so those two never meet.) */
   CfInstr pixel = export_done(2, 0, 0, false);
   EXPECT_EQ(two(pixel, param(CfOp::EXPORT_DONE, 3, 1)),
             "EXPORT_DONE PIXEL 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
   /* Constant and masked channels are part of the swizzle: equal ones
    * join. */
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0, {0, 1, 4, 5}),
                 param(CfOp::EXPORT_DONE, 3, 1, {0, 1, 4, 5})),
             "EXPORT_DONE PARAM 0-1 R2-3.xy01 EOP\n");
}

TEST(SbFinalize, BurstStopsAtSixteenAndAtControlFlow)
{
   std::vector<std::pair<unsigned, unsigned>> regs;
   std::vector<CfInstr> cf;
   for (unsigned i = 0; i < 18; i++)
      regs.push_back({2 + i, i});
   cf.push_back(fill(regs));
   for (unsigned i = 0; i < 18; i++)
      cf.push_back(param(i == 17 ? CfOp::EXPORT_DONE : CfOp::EXPORT, 2 + i, i));
   cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(program(kEg, cf), 18),
             "EXPORT PARAM 0-15 R2-17.xyzw\nEXPORT_DONE PARAM 16-17 R18-19.xyzw EOP\n");

   /* An export inside an if and one after it: the POP between them stays,
    * so they stay two. */
   Program p = program(kEg, {
      fill({{2, 1}, {3, 2}}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 5, 1),
      param(CfOp::EXPORT, 2, 0),
      cf_op(CfOp::POP, 5, 1),
      param(CfOp::EXPORT_DONE, 3, 1),
   });
   p.cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(p, 2), "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
}

/* The whole of sb on a PARAM-exporting vertex shader; the outputs must
 * not change and the SSA stage must be used. */
Program sb_params(const Program &p, unsigned outputs)
{
   const ShaderInfo info = params_info(p.chip, outputs);
   DebugOptions o;
   o.sb = true;
   sb::SbStats st;
   Diagnostics d;
   auto out = sb::sb_optimize(p, info, o, &st, d);
   EXPECT_TRUE(out.has_value()) << st.log;
   EXPECT_TRUE(st.ssa) << st.ssa_failed_pass;
   if (!out)
      return p;
   EXPECT_EQ(all_outputs(*out, info), all_outputs(p, info));
   return *out;
}

TEST(SbFinalize, AllocationPutsAnExportRunOnConsecutiveRegisters)
{
   /* OUT0 = IN0 (read in place from R1), OUT1 = IN0 + 1, OUT2 = IN0 + 2.
    * First fit puts OUT1 and OUT2 wherever is lowest; ra_init then moves
    * them after R1 on R1's channels, within the registers already used. */
   Program p = program(kEg, {
      fill({{3, 1}, {4, 2}}),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3))})}),
      param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT, 3, 1), param(CfOp::EXPORT_DONE, 4, 2)});
   p.cf.back().end_of_program = true;
   Program out = sb_params(p, 3);
   /* First fit alone gave R1, R0, R2: three exports. */
   EXPECT_EQ(exports_of(out), "EXPORT PARAM 0-1 R1-2.xyzw\nEXPORT_DONE PARAM 2 R0.xyzw EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 3u);
}

TEST(SbFinalize, BurstNeverCostsARegister)
{
   /* OUT0 = IN0 in place in R1, OUT1 = IN0 + 1 in R0: a burst would need
    * R2, a third register, so the two exports stay. */
   Program p = program(kEg, {
      fill({{3, 1}}),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3))})}),
      param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 1)});
   p.cf.back().end_of_program = true;
   Program out = sb_params(p, 2);
   EXPECT_EQ(exports_of(out), "EXPORT PARAM 0 R1.xyzw\nEXPORT_DONE PARAM 1 R0.xyzw EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 2u);
}

/* R<dst> = constant buffer 1 [R<src>.x]. */
CfInstr vfetch(unsigned src, unsigned dst_gpr)
{
   VtxInstr v;
   v.buffer_id = 1;
   v.src_gpr = uint8_t(src);
   v.dst_gpr = uint8_t(dst_gpr);
   v.data_format = 35;
   CfInstr c = cf_op(CfOp::VTX);
   c.fetches.push_back(v);
   return c;
}

/* R<dst>.x = int(|R1.<chan>|): an index into the constant buffer. */
CfInstr index_of(unsigned dst_gpr, unsigned chan)
{
   AluSrc s = src_gpr(1, chan);
   s.abs = true;
   return alu_clause({group({alu(AluOp::FLT_TO_INT, kSlotX, dst(dst_gpr, 0), s)})});
}

/* bc_finalize on the identity allocation; the listing, and the emulator
 * gives what the source gives with constant buffers. */
std::string finalized_with_constants(const Program &src)
{
   const ShaderInfo info = vs_info(src.chip);
   std::string refused, error;
   auto out = finalize(src, info, &refused, &error);
   EXPECT_TRUE(out) << refused << error;
   if (!out)
      return "";
   const Resources res = random_constants(7);
   auto run = [&](const Program &p) {
      Diagnostics d;
      EXPECT_TRUE(validate_program(p, info, d)) << d.str();
      Batch b = batch_of(lanes());
      RunResult r = emulate(p, info, res, b, RunLimits{});
      EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
      std::vector<Vec4> o;
      for (const Lane &l : b.lanes)
         o.push_back(l.outputs[0]);
      return o;
   };
   EXPECT_EQ(run(*out), run(src));
   return listing(*out);
}

/* R<d> = R<a> + R<b>: one source group, four groups once finalized (plain
 * groups are emitted one instruction per group for the post_scheduler). */
CfInstr add_clause(unsigned d, unsigned a, unsigned b)
{
   std::vector<AluInstr> g;
   for (unsigned c = 0; c < 4; c++)
      g.push_back(alu(AluOp::ADD, c, dst(d, c), src_gpr(a, c), src_gpr(b, c)));
   return alu_clause({group(g)});
}

TEST(SbFinalize, AluAfterAFetchMovesUpAndTheFetchesShareAClause)
{
   /* The second index does not touch the first fetch's registers: its
    * clause runs before that fetch, joining the first index's clause, and
    * the two fetches meet in one clause. */
   Program p = program(kEg, {index_of(2, 0), vfetch(2, 3), index_of(4, 1), vfetch(4, 5),
                             add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(p), "0 ALU groups=2\n1 VTX fetches=2\n2 ALU groups=4\n"
                                          "3 EXPORT_DONE R6.xyzw EOP\n");
   /* It reads the first fetch's result: it stays after it. */
   Program raw = program(kEg, {index_of(2, 0), vfetch(2, 3), add_clause(4, 3, 3), vfetch(4, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(raw), "0 ALU groups=1\n1 VTX fetches=1\n2 ALU groups=4\n"
                                            "3 VTX fetches=1\n4 ALU groups=4\n"
                                            "5 EXPORT_DONE R6.xyzw EOP\n");
   /* It overwrites the first fetch's index (R2.x), which that fetch must
    * read first: it stays after it. */
   Program war = program(kEg, {index_of(2, 0), vfetch(2, 3), index_of(2, 1), vfetch(2, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(war), "0 ALU groups=1\n1 VTX fetches=1\n2 ALU groups=1\n"
                                            "3 VTX fetches=1\n4 ALU groups=4\n"
                                            "5 EXPORT_DONE R6.xyzw EOP\n");
}

TEST(SbFinalize, FetchesJoinUnlessOneReadsAnotherOnesResult)
{
   /* Fetches in a clause run in order.  R3 = cb[R2.x]; R2 = cb[R4.x]
    * overwrites the first one's index after it was read: one clause.  No
    * fetch takes its address from a GPR channel an earlier fetch of the
    * clause writes, and no channel is written twice. */
   Program war = program(kEg, {index_of(2, 0), index_of(4, 1), vfetch(2, 3), vfetch(4, 2),
                               add_clause(6, 3, 2), export_done(6)});
   EXPECT_EQ(finalized_with_constants(war), "0 ALU groups=2\n1 VTX fetches=2\n2 ALU groups=4\n"
                                            "3 EXPORT_DONE R6.xyzw EOP\n");
   Program raw = program(kEg, {index_of(2, 0), vfetch(2, 3), vfetch(3, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(raw), "0 ALU groups=1\n1 VTX fetches=1\n2 VTX fetches=1\n"
                                            "3 ALU groups=4\n4 EXPORT_DONE R6.xyzw EOP\n");
   Program waw = program(kEg, {index_of(2, 0), index_of(4, 1), vfetch(2, 3), vfetch(4, 3),
                               add_clause(6, 3, 3), export_done(6)});
   EXPECT_EQ(finalized_with_constants(waw), "0 ALU groups=2\n1 VTX fetches=1\n2 VTX fetches=1\n"
                                            "3 ALU groups=4\n4 EXPORT_DONE R6.xyzw EOP\n");
   /* The rule is by channel: the first fetch writes only R3.x, the second
    * takes its index from R3.y (Mesa's sb ships such clauses). */
   CfInstr idx = index_of(2, 0);
   AluSrc y = src_gpr(1, 1);
   y.abs = true;
   idx.groups.push_back(group({alu(AluOp::FLT_TO_INT, kSlotX, dst(3, 1), y)}));
   CfInstr first = vfetch(2, 3);
   std::get<VtxInstr>(first.fetches[0]).dst_sel = {0, kSelMask, kSelMask, kSelMask};
   CfInstr second = vfetch(3, 5);
   std::get<VtxInstr>(second.fetches[0]).src_sel_x = 1;
   Program disjoint = program(kEg, {idx, first, second, add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(disjoint), "0 ALU groups=2\n1 VTX fetches=2\n"
                                                 "2 ALU groups=4\n3 EXPORT_DONE R6.xyzw EOP\n");
   /* Reading the written channel itself keeps two clauses. */
   std::get<VtxInstr>(second.fetches[0]).src_sel_x = 0;
   Program overlap = program(kEg, {idx, first, second, add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(overlap), "0 ALU groups=2\n1 VTX fetches=1\n"
                                                "2 VTX fetches=1\n3 ALU groups=4\n"
                                                "4 EXPORT_DONE R6.xyzw EOP\n");
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

/* ---- Random structured programs ------------------------------------------ */

/* Random nests of ifs (with and without else), loops with counted exits,
 * breaks and continues, laid out the way the plain backend does (POP folded
 * into a trailing ALU clause), over R2..R5 seeded from the input. */
struct RandomProgram {
   std::mt19937 rng;
   ChipClass chip;
   Program p;
   unsigned loops = 0;

   unsigned pick(unsigned n) { return unsigned(rng() % n); }
   AluSrc reg() { return src_gpr(2 + pick(4), pick(4)); }
   uint32_t small_float() { return std::bit_cast<uint32_t>(float(int(pick(9)) - 4) * 0.5f); }

   void alu_content(bool fresh)
   {
      static const AluOp ops[] = {AluOp::ADD, AluOp::MUL, AluOp::MAX, AluOp::MIN};
      if (fresh || p.cf.empty() || p.cf.back().op != CfOp::ALU)
         p.cf.push_back(alu_clause({}));
      unsigned n = 1 + pick(3);
      for (unsigned i = 0; i < n; i++) {
         AluGroup g;
         unsigned used = 0;
         for (unsigned k = 0; k < 1 + pick(3); k++) {
            unsigned chan = pick(4);
            if (used & (1u << chan))
               continue;
            used |= 1u << chan;
            AluSrc b = pick(2) ? reg() : src_literal(0);
            g.instrs.push_back(alu(ops[pick(4)], chan, dst(2 + pick(4), chan), reg(), b));
         }
         std::sort(g.instrs.begin(), g.instrs.end(),
                   [](const AluInstr &x, const AluInstr &y) { return x.slot < y.slot; });
         g.literals = {small_float()};
         /* Bank swizzles the validator accepts, as any producer must give. */
         if (!sb::assign_bank_swizzles(chip, g.instrs))
            continue;
         p.cf.back().groups.push_back(g);
      }
      if (p.cf.back().groups.empty())
         p.cf.back().groups.push_back(
            group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())}));
   }

   void push(AluSrc a, uint32_t lit)
   {
      AluInstr c = alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), a, src_literal(0));
      c.update_exec_mask = c.update_pred = true;
      if (p.cf.empty() || p.cf.back().op != CfOp::ALU || pick(2))
         p.cf.push_back(alu_clause({}));
      p.cf.back().op = CfOp::ALU_PUSH_BEFORE;
      p.cf.back().groups.push_back(group({c}, {lit}));
   }

   /* cond { then } [else { other }], with the plain backend's end. */
   template <typename A, typename B> void if_else(bool has_else, A &&then, B &&other)
   {
      push(reg(), small_float());
      size_t jump = p.cf.size();
      p.cf.push_back(cf_op(CfOp::JUMP));
      then();
      size_t els = 0;
      if (has_else) {
         els = p.cf.size();
         p.cf.push_back(cf_op(CfOp::ELSE, 0, 1));
         p.cf[jump].target = uint32_t(els);
         other();
      }
      size_t after;
      if (p.cf.back().op == CfOp::ALU && p.cf.size() - 1 > (has_else ? els : jump)) {
         p.cf.back().op = CfOp::ALU_POP_AFTER;
         after = p.cf.size();
      } else {
         p.cf.push_back(cf_op(CfOp::POP, uint32_t(p.cf.size() + 1), 1));
         after = p.cf.size();
      }
      if (has_else) {
         p.cf[els].target = uint32_t(after);
      } else {
         p.cf[jump].target = uint32_t(after);
         p.cf[jump].pop_count = 1;
      }
   }

   void block(unsigned depth, std::vector<size_t> *exits)
   {
      unsigned n = 1 + pick(3);
      for (unsigned i = 0; i < n; i++) {
         unsigned what = depth >= 4 ? 0 : pick(exits ? 5 : 4);
         if (what == 0) {
            alu_content(pick(3) == 0);
         } else if (what == 1 || what == 2) {
            if_else(what == 2, [&] { block(depth + 1, exits); },
                    [&] { block(depth + 1, exits); });
         } else if (what == 3 && loops < 2) {
            /* counter R6.<loops> = 0; loop { if (counter > bound) break;
             * counter += 1; body } */
            unsigned chan = loops++;
            p.cf.push_back(alu_clause(
               {group({alu(AluOp::MOV, chan, dst(6, chan), zero())})}));
            size_t start = p.cf.size();
            p.cf.push_back(cf_op(CfOp::LOOP_START_DX10));
            std::vector<size_t> inner;
            if_else(false, [&] {
               inner.push_back(p.cf.size());
               p.cf.push_back(cf_op(CfOp::LOOP_BREAK));
            }, [] {});
            /* The condition is counter > 1.5 + k: at most four trips. */
            p.cf[start + 1].groups.back().instrs[0].src[0] = src_gpr(6, chan);
            p.cf[start + 1].groups.back().literals = {
               std::bit_cast<uint32_t>(1.5f + float(pick(3)))};
            p.cf.push_back(alu_clause({group({alu(AluOp::ADD, chan, dst(6, chan),
                                                  src_gpr(6, chan), one())})}));
            block(depth + 1, &inner);
            size_t end = p.cf.size();
            p.cf.push_back(cf_op(CfOp::LOOP_END, uint32_t(start + 1)));
            p.cf[start].target = uint32_t(end + 1);
            for (size_t k : inner)
               p.cf[k].target = uint32_t(end);
            loops--;
         } else if (exits) {
            bool brk = pick(2);
            if_else(false, [&] {
               exits->push_back(p.cf.size());
               p.cf.push_back(cf_op(brk ? CfOp::LOOP_BREAK : CfOp::LOOP_CONTINUE));
            }, [] {});
         } else {
            alu_content(false);
         }
      }
   }

   Program make(unsigned seed)
   {
      rng.seed(seed);
      p = program(chip, {});
      std::vector<AluGroup> init;
      for (unsigned r = 2; r < 6; r++)
         init.push_back(group({alu(AluOp::MOV, kSlotX, dst(r, 0), src_gpr(1, (r + 1) % 4)),
                               alu(AluOp::MOV, kSlotY, dst(r, 1), src_gpr(1, r % 4)),
                               alu(AluOp::MOV, kSlotZ, dst(r, 2), src_gpr(1, (r + 3) % 4)),
                               alu(AluOp::MOV, kSlotW, dst(r, 3), src_gpr(1, (r + 2) % 4))}));
      p.cf.push_back(alu_clause(init));
      block(0, nullptr);
      p.cf.push_back(alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0),
                                            src_gpr(3, 1)),
                                        alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(4, 2),
                                            src_gpr(5, 3))})}));
      p.cf.push_back(export_done(2));
      return p;
   }
};

TEST(SbFinalize, RandomStructuredProgramsAgreeWithTheirSource)
{
   unsigned programs = 0, pop2 = 0;
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700, ChipClass::R600,
                          ChipClass::Cayman}) {
      for (unsigned seed = 1; seed <= 150; seed++) {
         RandomProgram gen;
         gen.chip = chip;
         Program src = gen.make(seed);
         ShaderInfo info = vs_info(chip, 16);
         Diagnostics d;
         if (!validate_program(src, info, d))
            continue; /* the generator's own slip: not bc_finalize's input */
         std::string refused, error;
         auto out = finalize(src, info, &refused, &error);
         ASSERT_TRUE(out) << "seed " << seed << ": " << refused << error;
         for (const CfInstr &cf : out->cf)
            pop2 += cf.op == CfOp::ALU_POP2_AFTER;
         std::vector<Vec4> in;
         for (int k = 0; k < 8; k++)
            in.push_back(Vec4{std::bit_cast<uint32_t>(float(k % 5) - 2.0f),
                              std::bit_cast<uint32_t>(float(k % 3) - 1.0f),
                              std::bit_cast<uint32_t>(float(k) * 0.5f),
                              std::bit_cast<uint32_t>(1.5f - float(k % 4))});
         auto want = outputs_of(src, info, in);
         ASSERT_EQ(outputs_of(*out, info, in), want) << "seed " << seed << "\n" << listing(src)
                                                     << "finalized:\n" << listing(*out);
         sb::Shader sh;
         Program packed;
         ASSERT_TRUE(sb::bc_parser(*out, sh, d) && sb::post_scheduler(sh, d) &&
                     sb::bc_builder(sh, packed, d))
            << d.str();
         EXPECT_EQ(outputs_of(packed, info, in), want) << "seed " << seed;
         programs++;
      }
   }
   EXPECT_GT(programs, 500u);
   EXPECT_GT(pop2, 0u);
   std::cout << programs << " random programs, " << pop2 << " ALU_POP2_AFTER\n";
}

/* ---- Round trip of the bundled shader tests ----------------------------- */

struct RoundTrip {
   unsigned stages = 0, compiled = 0, refused = 0, finalized = 0, failed = 0, invalid = 0;
   unsigned verified = 0, mismatches = 0, plain_mismatches = 0;
   unsigned cf[2] = {}, groups[2] = {};
   std::map<std::string, unsigned> reasons;
   std::vector<std::string> plain_names; /* stages the plain code gets wrong too */
   std::vector<std::string> errors;
};

/* The reason without the CF index: "ALU_PUSH_BEFORE not followed by ...". */
std::string reason_of(const std::string &diag)
{
   std::string s = diag.substr(0, diag.find('\n'));
   size_t p = s.find("): ");
   return p == std::string::npos ? s : s.substr(s.find(" (") + 2);
}

void round_trip(ChipClass chip, bool clause_local, RoundTrip &t)
{
   namespace fs = std::filesystem;
   const fs::path dir = fs::path(SBCC_SOURCE_ROOT) / "tests" / "shaders";
   std::ifstream list(dir / "list.txt");
   ASSERT_TRUE(list) << "no " << (dir / "list.txt");
   std::string name;
   while (std::getline(list, name)) {
      if (name.empty() || name[0] == '#')
         continue;
      std::string text;
      Diagnostics d;
      if (!runner::read_file((dir / name).string(), text, d))
         continue;
      auto test = runner::parse_shader_test(text, name, d);
      if (!test)
         continue;
      auto stages = runner::load_stages(*test, d);
      if (!stages)
         continue;
      for (const runner::LoadedStage &st : *stages) {
         t.stages++;
         std::string where = name + " (" + (st.vertex ? "vertex" : "fragment") + ")";
         bool ran = false, ok = false;
         BytecodeOptimizer opt = [&](const Program &prog, const ShaderInfo &info,
                                     ShaderStats *) -> std::optional<Program> {
            ran = true;
            std::string refused, error;
            auto out = finalize(prog, info, &refused, &error);
            if (!out) {
               if (!refused.empty()) {
                  t.refused++;
                  t.reasons[reason_of(refused)]++;
               } else {
                  t.failed++;
                  t.errors.push_back(where + ": " + error);
               }
               return std::nullopt;
            }
            if (clause_local) {
               Diagnostics cd;
               sb::Shader sh;
               Program packed;
               if (!sb::bc_parser(*out, sh, cd) || !sb::post_scheduler(sh, cd) ||
                   !sb::sched_checker(sh, cd) || !sb::bc_builder(sh, packed, cd)) {
                  t.failed++;
                  t.errors.push_back(where + ": clause-local: " + cd.str());
                  return std::nullopt;
               }
               out = std::move(packed);
            }
            /* What runs is what the decoder reads back from the words. */
            Diagnostics vd;
            auto words = assemble(*out, vd);
            if (!words || !decode_program(*words, out->chip, vd)) {
               t.invalid++;
               t.errors.push_back(where + ": does not assemble: " + vd.str());
               return std::nullopt;
            }
            if (!validate_program(*out, info, vd)) {
               t.invalid++;
               t.errors.push_back(where + ": invalid: " + vd.str());
               return std::nullopt;
            }
            if (const char *dump = std::getenv("SBCC_FINALIZE_DUMP"); dump && name == dump) {
               /* Debugging aid: both programs as disassembly. */
               Diagnostics dd;
               auto w0 = assemble(prog, dd), w1 = assemble(*out, dd);
               if (w0 && w1)
                  std::cerr << "plain:\n" << print_program(prog, *w0) << "finalized:\n"
                            << print_program(*out, *w1);
            }
            t.finalized++;
            const sb::ShaderCounts a = sb::count_program(prog), b = sb::count_program(*out);
            t.cf[0] += a.cf;
            t.cf[1] += b.cf;
            t.groups[0] += a.alu_groups;
            t.groups[1] += b.alu_groups;
            ok = true;
            return out;
         };
         DebugOptions debug;
         Diagnostics cd;
         ShaderStats stats;
         auto exe = compile_tgsi_for_r600(st.shader, chip, "", debug, cd, &stats, nullptr, &opt);
         if (!exe)
            continue; /* the plain backend does not support it on this chip */
         t.compiled++;
         if (!ran || !ok)
            continue;
         Diagnostics rd;
         auto ref = interp::make_reference_executable(st.shader, rd);
         if (!ref)
            continue;
         runner::VerifyOptions vo;
         auto r = runner::verify_shader(st.shader, *ref, *exe, vo);
         if (r.status == runner::VerifyStatus::Pass) {
            t.verified++;
            continue;
         }
         /* Only a difference the plain code does not have is sb's. */
         auto plain = compile_tgsi_for_r600(st.shader, chip, "", debug, cd, nullptr);
         if (plain && runner::verify_shader(st.shader, *ref, *plain, vo).status !=
                         runner::VerifyStatus::Pass) {
            t.plain_mismatches++;
            t.plain_names.push_back(where);
            continue;
         }
         t.mismatches++;
         t.errors.push_back(where + ": differs from the reference: " + r.message);
      }
   }
}

class SbFinalizeShaders
   : public ::testing::TestWithParam<std::tuple<const char *, bool>> {};

TEST_P(SbFinalizeShaders, RoundTripAgreesWithReference)
{
   auto chip = chip_class_from_name(std::get<0>(GetParam()));
   ASSERT_TRUE(chip);
   const bool clause_local = std::get<1>(GetParam());
   RoundTrip t;
   round_trip(*chip, clause_local, t);
   std::ostringstream s;
   s << std::get<0>(GetParam()) << (clause_local ? " +clause-local" : "") << ": " << t.stages
     << " stages, " << t.compiled << " compiled, " << t.finalized << " finalized, " << t.refused
     << " refused by the parser, " << t.verified << " verified (" << t.plain_mismatches
     << " where the plain code differs too); cf " << t.cf[0] << " -> " << t.cf[1]
     << ", alu_groups " << t.groups[0] << " -> " << t.groups[1] << "\n";
   for (const auto &[why, n] : t.reasons)
      s << "  refused " << n << "x: " << why << "\n";
   for (const std::string &n : t.plain_names)
      s << "  not judged (the plain code differs from the reference too): " << n << "\n";
   std::cout << s.str();
   for (const std::string &e : t.errors)
      ADD_FAILURE() << e;
   EXPECT_EQ(t.failed, 0u);
   EXPECT_EQ(t.invalid, 0u);
   EXPECT_EQ(t.mismatches, 0u);
   EXPECT_GT(t.finalized, t.compiled / 2) << "most stages must get through";
}

INSTANTIATE_TEST_SUITE_P(Chips, SbFinalizeShaders,
                         ::testing::Combine(::testing::Values("evergreen", "r700", "r600",
                                                              "cayman"),
                                            ::testing::Bool()),
                         [](const auto &info) {
                            return std::string(std::get<0>(info.param)) +
                                   (std::get<1>(info.param) ? "_clause_local" : "");
                         });

} // namespace
