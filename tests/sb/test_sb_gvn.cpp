/*
 * gvn and peephole over the structured SSA tree: exact dumps per rule
 * family (copy propagation with modifiers, folding, algebraic rules, value
 * numbering, scoping across ifs, the limits on fetch sources, inputs and
 * array elements, SETcc + PRED_SETNE), folding checked bit-exactly against
 * the emulator on random operand bits, and the algebraic rules checked by
 * evaluating the rewritten instruction against the emulator's result, and
 * random programs (ifs, loops, repeated computations, constants) through
 * the whole SSA pipeline (dce, RA, bc_finalize) with and without gvn +
 * peephole, in the emulator.  SBCC_GVN_SEED=N runs only program N and dumps
 * its tree before and after the passes; SBCC_GVN_VERBOSE=1 lists refusals.
 */
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "r600/r600_emu_alu.h"
#include "r600/r600_target.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_passes.h"
#include "r600_backend/random_tgsi_gen.h"
#include "sb/sb_test_util.h"
#include "tgsi/tgsi_ir.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

struct Parsed {
   std::unique_ptr<RegionShader> sh;
   std::string error;
};

Parsed parse(const Program &p, const RegionParseOptions &o = {})
{
   Diagnostics d;
   Parsed r;
   r.sh = region_parse(p, o, d);
   if (!r.sh) {
      r.error = d.str();
      return r;
   }
   ssa_prepare(*r.sh);
   ssa_rename(*r.sh);
   return r;
}

/* The dump after gvn (and peephole when asked). */
std::string run(const Program &p, bool with_peephole = false, const RegionParseOptions &o = {})
{
   Parsed r = parse(p, o);
   if (!r.sh)
      return "refused: " + r.error;
   Diagnostics d;
   if (!gvn(*r.sh, d))
      return "gvn failed: " + d.str();
   if (with_peephole && !peephole(*r.sh, d))
      return "peephole failed: " + d.str();
   return region_dump(*r.sh);
}

AluSrc negate(AluSrc s)
{
   s.neg = !s.neg;
   return s;
}

AluSrc absolute(AluSrc s)
{
   s.abs = true;
   return s;
}

TEST(SbGvn, CopiesPropagateWithComposedModifiers)
{
   /* R2.x = -R1.x; R2.y = |R2.x| (abs of a negation is abs);
    * R2.z = -R2.x (double negation); R3.x = R2.x (chain) read by a MUL. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), negate(src_gpr(1, 0)))}),
                  group({alu(AluOp::MOV, kSlotY, dst(2, 1), absolute(src_gpr(2, 0))),
                         alu(AluOp::ADD, kSlotZ, dst(2, 2), negate(src_gpr(2, 0)), one()),
                         alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(2, 0))}),
                  group({alu(AluOp::MUL, kSlotW, dst(2, 3), src_gpr(3, 0), src_gpr(2, 1))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = -R1.x.0\n"
             "  group\n"
             "    y: MOV R2.y.1 = |R1.x.0|\n"
             "    z: ADD R2.z.1 = R1.x.0, 1.0\n"
             "    x: MOV R3.x.1 = -R1.x.0\n"
             "  group\n"
             "    w: MUL R2.w.1 = -R1.x.0, |R1.x.0|\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R2.z.1, R2.w.1\n");
}

TEST(SbGvn, ConstantsFoldAndPropagate)
{
   /* R2.x = 2.0; R2.y = R2.x + 1.0 -> 3.0; R2.z = R2.y * 0.5 -> 1.5;
    * R2.w = SETGT R2.z, 1.0 -> 1.0 (an inline constant); integer ops too. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), lit(0)),
                         alu(AluOp::ADD_INT, kSlotY, dst(3, 0), src_inline(kSrc_1_INT),
                             src_inline(kSrc_M_1_INT))},
                        {0x40000000}),
                  group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(2, 0), one())}),
                  group({alu(AluOp::MUL, kSlotZ, dst(2, 2), src_gpr(2, 1), src_inline(kSrc_0_5))}),
                  group({alu(AluOp::SETGT, kSlotW, dst(2, 3), src_gpr(2, 2), one()),
                         alu(AluOp::MUL_IEEE, kSlotX, dst(3, 1), src_gpr(1, 0), src_gpr(3, 0))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0x40000000\n"
             "    y: MOV R3.x.1 = 0\n"
             "  group\n"
             "    y: MOV R2.y.1 = 0x40400000\n"
             "  group\n"
             "    z: MOV R2.z.1 = 0x3fc00000\n"
             "  group\n"
             "    w: MOV R2.w.1 = 1.0\n"
             "    x: MUL_IEEE R3.y.1 = R1.x.0, 0\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R2.z.1, R2.w.1\n");
}

TEST(SbGvn, AlgebraicRules)
{
   AluInstr clamped = alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 1), one());
   clamped.dst.clamp = true;
   AluInstr int_clamped = alu(AluOp::ADD_INT, kSlotW, dst(3, 3), src_gpr(1, 3), zero());
   int_clamped.dst.clamp = true;
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), one(), src_gpr(1, 0)),
                         clamped,
                         alu(AluOp::MUL, kSlotZ, dst(2, 2), src_gpr(1, 2), zero()),
                         alu(AluOp::MUL_IEEE, kSlotW, dst(2, 3), src_gpr(1, 2), zero())}),
                  group({alu(AluOp::MULADD, kSlotX, dst(3, 0), src_gpr(1, 0), src_gpr(1, 1), zero()),
                         alu(AluOp::MULADD_IEEE, kSlotY, dst(3, 1), src_gpr(1, 0), one(),
                             src_gpr(1, 2)),
                         alu(AluOp::MUL, kSlotZ, dst(3, 2), src_gpr(1, 3), negate(one())),
                         int_clamped}),
                  group({alu(AluOp::MAX, kSlotX, dst(4, 0), src_gpr(1, 0), src_gpr(1, 0)),
                         alu(AluOp::SUB_INT, kSlotY, dst(4, 1), src_gpr(1, 1), src_gpr(1, 1)),
                         alu(AluOp::CNDE, kSlotZ, dst(4, 2), src_gpr(1, 0), src_gpr(1, 2),
                             src_gpr(1, 2)),
                         alu(AluOp::CNDGE_INT, kSlotW, dst(4, 3), zero(), src_gpr(1, 1),
                             src_gpr(1, 2))}),
                  group({alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(1, 3), zero()),
                         alu(AluOp::AND_INT, kSlotY, dst(5, 1), src_gpr(1, 3),
                             src_inline(kSrc_M_1_INT)),
                         alu(AluOp::CNDGT, kSlotZ, dst(5, 2), src_literal(0), src_gpr(1, 1),
                             src_gpr(1, 2))},
                        {0xbf800000})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.x.0\n"
             "    y: MOV R2.y.1 = R1.y.0\n"
             "    z: MOV R2.z.1 = 0\n"
             "    w: MUL_IEEE R2.w.1 = R1.z.0, 0\n"
             "  group\n"
             "    x: MUL R3.x.1 = R1.x.0, R1.y.0\n"
             "    y: ADD R3.y.1 = R1.x.0, R1.z.0\n"
             "    z: MOV R3.z.1 = -R1.w.0\n"
             "    w: ADD_INT R3.w.1 = R1.w.0, 0\n"
             "  group\n"
             "    x: MOV R4.x.1 = R1.x.0\n"
             "    y: MOV R4.y.1 = 0\n"
             "    z: MOV R4.z.1 = R1.z.0\n"
             "    w: MOV R4.w.1 = R1.y.0\n"
             "  group\n"
             "    x: MOV R5.x.1 = R1.w.0\n"
             "    y: MOV R5.y.1 = R1.w.0\n"
             "    z: MOV R5.z.1 = R1.z.0\n"
             "cf 1 EXPORT_DONE R1.x.0, R2.y.1, R2.z.1, R2.w.1\n");
   /* The clamp of R2.y stays on its MOV; the integer op's clamp bit would
    * become a float clamp on a MOV, so that op is left alone. */
   Parsed r = parse(p);
   Diagnostics d;
   ASSERT_TRUE(gvn(*r.sh, d));
   const Node *g0 = r.sh->root->children[0]->children[0];
   EXPECT_TRUE(g0->children[1]->alu->dst.clamp);
   EXPECT_FALSE(g0->children[0]->alu->dst.clamp);
}

TEST(SbGvn, RepeatedComputationsReadTheFirst)
{
   /* ADD a, b and ADD b, a are one value (ADD is commutative); SUB-like
    * ADD a, -b is another; a second MULADD with the same operands too.  The
    * duplicate in the same group as the first is not merged (VLIW: it
    * cannot read a result of its own group). */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), src_gpr(1, 0))}),
                  group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 1), src_gpr(1, 0)),
                         alu(AluOp::ADD, kSlotY, dst(3, 1), src_gpr(1, 0), negate(src_gpr(1, 1))),
                         alu(AluOp::MULADD, kSlotZ, dst(3, 2), src_gpr(1, 0), src_gpr(1, 1),
                             src_gpr(1, 2))}),
                  group({alu(AluOp::MULADD, kSlotZ, dst(4, 2), src_gpr(1, 0), src_gpr(1, 1),
                             src_gpr(1, 2)),
                         alu(AluOp::MUL, kSlotX, dst(2, 2), src_gpr(3, 0), src_gpr(4, 2))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: ADD R2.x.1 = R1.x.0, R1.y.0\n"
             "    y: ADD R2.y.1 = R1.y.0, R1.x.0\n"
             "  group\n"
             "    x: MOV R3.x.1 = R2.x.1\n"
             "    y: ADD R3.y.1 = R1.x.0, -R1.y.0\n"
             "    z: MULADD R3.z.1 = R1.x.0, R1.y.0, R1.z.0\n"
             "  group\n"
             "    z: MOV R4.z.1 = R3.z.1\n"
             "    x: MUL R2.z.1 = R2.x.1, R4.z.0\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R2.z.1, R2.w.0\n");
}

/* DOT4 over R1 and `b`, writing R<gpr>.x; `swap` puts b first in slot y. */
AluGroup dot(unsigned gpr, unsigned b, bool swap = false)
{
   std::vector<AluInstr> d;
   for (uint8_t c = 0; c < 4; c++) {
      AluSrc x = src_gpr(1, c), y = src_gpr(b, c);
      if (swap && c == 1)
         std::swap(x, y);
      d.push_back(alu(AluOp::DOT4_IEEE, c, dst(gpr, c, c == 0), x, y));
   }
   return group(d);
}

TEST(SbGvn, RepeatedDotProductsReadTheFirst)
{
   /* The same dot product twice (operands of a slot swapped: a product
    * commutes exactly) becomes a copy, and so does the RSQ of it; a dot
    * product of other operands stays. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({dot(3, 2),
                  group({alu(AluOp::RECIPSQRT_IEEE, kSlotT, dst(3, 1), src_gpr(3, 0))}),
                  dot(4, 2, true),
                  group({alu(AluOp::RECIPSQRT_IEEE, kSlotT, dst(4, 1), src_gpr(4, 0))}),
                  dot(5, 1)}),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(3, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(4, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(5, 0))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: DOT4_IEEE R3.x.1 = R1.x.0, R2.x.0\n"
             "    y: DOT4_IEEE _ = R1.y.0, R2.y.0\n"
             "    z: DOT4_IEEE _ = R1.z.0, R2.z.0\n"
             "    w: DOT4_IEEE _ = R1.w.0, R2.w.0\n"
             "  group\n"
             "    t: RECIPSQRT_IEEE R3.y.1 = R3.x.1\n"
             "  group\n"
             "    x: MOV R4.x.1 = R3.x.1\n"
             "  group\n"
             "    t: MOV R4.y.1 = R3.y.1\n"
             "  group\n"
             "    x: DOT4_IEEE R5.x.1 = R1.x.0, R1.x.0\n"
             "    y: DOT4_IEEE _ = R1.y.0, R1.y.0\n"
             "    z: DOT4_IEEE _ = R1.z.0, R1.z.0\n"
             "    w: DOT4_IEEE _ = R1.w.0, R1.w.0\n"
             "cf 1 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R3.y.1\n"
             "    y: MOV R2.y.1 = R3.y.1\n"
             "    z: MOV R2.z.1 = R5.x.1\n"
             "cf 2 EXPORT_DONE R3.y.1, R3.y.1, R5.x.1, R2.w.0\n");
}

TEST(SbGvn, ValuesInsideAnIfAreNotUsedAfterIt)
{
   /* t = a * b before the if is reused inside it; u = a + b inside the if
    * is not reused after the if (the else path never computed it). */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1))})}),
      alu_clause({group({pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())})}, CfOp::ALU_PUSH_BEFORE),
      cf_op(CfOp::JUMP, 4, 1),
      alu_clause({group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 1), src_gpr(1, 0)),
                         alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(1, 0), src_gpr(1, 1))})},
                 CfOp::ALU_POP_AFTER),
      alu_clause({group({alu(AluOp::ADD, kSlotW, dst(2, 3), src_gpr(1, 0), src_gpr(1, 1))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MUL R2.x.1 = R1.x.0, R1.y.0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETGT _, EXEC.1, PRED.1 = R1.x.0, 0\n"
             "region #0 (departs 2, repeats 0)\n"
             "  depart #1 -> region #0\n"
             "    if EXEC.1\n"
             "      depart #0 -> region #0\n"
             "        cf 3 ALU_POP_AFTER\n"
             "          group\n"
             "            y: MOV R2.y.1 = R2.x.1\n"
             "            z: ADD R2.z.1 = R1.x.0, R1.y.0\n"
             "  phi R2.y.2 = R2.y.1, R2.y.0\n"
             "  phi R2.z.2 = R2.z.1, R2.z.0\n"
             "cf 4 ALU\n"
             "  group\n"
             "    w: ADD R2.w.1 = R1.x.0, R1.y.0\n"
             "cf 5 EXPORT_DONE R2.x.1, R2.y.2, R2.z.2, R2.w.1\n");
}

TEST(SbGvn, ScopesEndCleanlyInALargeValueTable)
{
   /* Enough distinct computations that the value table grows while the if
    * is open (entries leave it last-in first-out at the scope's end): inside
    * the if, a computation done before it reads the first result; after the
    * if, one done before it still does, one done only inside is computed
    * again. */
   constexpr unsigned kN = 48;
   std::vector<AluGroup> before, inside;
   for (unsigned i = 0; i < kN; i++) {
      before.push_back(group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), lit(0))},
                             {f2u(float(i + 1))}));
      inside.push_back(group({alu(AluOp::MUL, kSlotY, dst(3, 1), src_gpr(1, 1), lit(0))},
                             {f2u(float(i + 2))}));
   }
   inside.push_back(group({alu(AluOp::ADD, kSlotZ, dst(3, 2), src_gpr(1, 0), lit(0))},
                          {f2u(3.0f)}));
   Program p = program(ChipClass::Evergreen, {
      alu_clause(before),
      alu_clause({group({pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())})}, CfOp::ALU_PUSH_BEFORE),
      cf_op(CfOp::JUMP, 4, 1),
      alu_clause(inside, CfOp::ALU_POP_AFTER),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(4, 0), src_gpr(1, 0), lit(0))}, {f2u(5.0f)}),
                  group({alu(AluOp::MUL, kSlotY, dst(4, 1), src_gpr(1, 1), lit(0))},
                        {f2u(7.0f)})}),
      export_done(2),
   });
   const std::string d = run(p);
   EXPECT_NE(d.find("z: MOV R3.z.1 = R2.x.3\n"), std::string::npos) << d;
   EXPECT_NE(d.find("x: MOV R4.x.1 = R2.x.5\n"), std::string::npos) << d;
   EXPECT_NE(d.find("y: MUL R4.y.1 = R1.y.0, "), std::string::npos) << d;
}

TEST(SbGvn, FetchAndExportReadOnlyPlainRegisterCopies)
{
   /* R3.x = -R1.x feeds a fetch: the modifier cannot go there, the copy
    * stays.  R3.y = R1.y (plain; R1.y never redefined) propagates into the
    * fetch.  R2.x = 1.0 is exported: constants cannot be exported, it stays. */
   TexInstr t;
   t.src_gpr = 3;
   t.dst_gpr = 4;
   t.src_sel = {0, 1, kSel0, kSel0};
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), negate(src_gpr(1, 0))),
                         alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 0), one())})}),
      tex,
      alu_clause({group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(4, 0), src_gpr(3, 0))})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R3.x.1 = -R1.x.0\n"
             "    y: MOV R3.y.1 = R1.y.0\n"
             "    z: MOV R2.x.1 = 1.0\n"
             "cf 1 TEX\n"
             "  SAMPLE R4.x.1, R4.y.1, R4.z.1, R4.w.1 = R3.x.1, R1.y.0\n"
             "cf 2 ALU\n"
             "  group\n"
             "    y: ADD R2.y.1 = R4.x.1, -R1.x.0\n"
             "cf 3 EXPORT_DONE R2.x.1, R2.y.1, R2.z.0, R2.w.0\n");
}

TEST(SbGvn, InputsAndArrayElementsAreNotReadPastARedefinition)
{
   /* R2.x = R1.x, then R1.x is redefined: the input keeps its register, so
    * the later use of R2.x must not read R1.x.0.  R3.x = R5.x (R4..R7 is an
    * indirectly written array), then a relative write: same.  R3.y = R1.y
    * (never redefined) does propagate. */
   AluInstr st = alu(AluOp::MOV, kSlotY, dst(4, 0), src_gpr(1, 2));
   st.dst.rel = true;
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(3, 0), src_gpr(5, 0)),
                         alu(AluOp::MOV, kSlotZ, dst(3, 1), src_gpr(1, 1)),
                         alu(AluOp::MOVA_INT, kSlotW, dst(0, 0, false), src_gpr(1, 3))}),
                  group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero()), st}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 1), src_gpr(2, 0), src_gpr(3, 0)),
                         alu(AluOp::ADD, kSlotY, dst(2, 2), src_gpr(3, 1), src_gpr(1, 0))})}),
      export_done(2),
   });
   RegionParseOptions o;
   o.arrays.push_back(RelArray{4, 4});
   EXPECT_EQ(run(p, false, o),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.x.0\n"
             "    y: MOV R3.x.1 = R5.x.0\n"
             "    z: MOV R3.y.1 = R1.y.0\n"
             "    w: MOVA_INT _, AR.x.1 = R1.w.0\n"
             "  group\n"
             "    x: MOV R1.x.1 = 0\n"
             "    y: MOV R[AR.x.1 + 4].x {use R4.x.0, R5.x.0, R6.x.0, R7.x.0; def R4.x.1, R5.x.1, R6.x.1, R7.x.1} = R1.z.0\n"
             "  group\n"
             "    x: ADD R2.y.1 = R2.x.1, R3.x.1\n"
             "    y: MOV R2.z.1 = R1.y.0\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R1.y.0, R2.w.0\n");
}

TEST(SbGvn, ConstantCacheCopiesKeepOneAddressPerInstruction)
{
   /* R3.x = C0[1].x reaches an ADD that reads nothing else from the
    * constant cache, but not a MUL that already reads C0[2].x (a second
    * address per instruction can leave no bank swizzle).  Equal kcache
    * operands are one value: the repeated ADD reads the first. */
   CfInstr c = alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), src_kcache(0, 1, 0))}),
                           group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(3, 0), one()),
                                  alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(3, 0),
                                      src_kcache(0, 2, 0))}),
                           group({alu(AluOp::ADD, kSlotZ, dst(2, 2), one(),
                                      src_kcache(0, 1, 0))})});
   c.kcache[0].mode = 1;
   Program p = program(ChipClass::Evergreen, {c, export_done(2)});
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R3.x.1 = C0[1].x\n"
             "  group\n"
             "    x: ADD R2.x.1 = C0[1].x, 1.0\n"
             "    y: MUL R2.y.1 = R3.x.1, C0[2].x\n"
             "  group\n"
             "    z: MOV R2.z.1 = R2.x.1\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R2.x.1, R2.w.0\n");
}

TEST(SbGvn, SideEffectsAndPredicationAreLeftAlone)
{
   /* KILLGT of constants, a PRED_SETGT repeated, a predicated MUL by 1:
    * none is folded, merged or simplified. */
   AluInstr ps_ = pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero());
   ps_.update_exec_mask = false;
   AluInstr ps2 = ps_;
   AluInstr mul = alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 1), one());
   mul.pred_sel = 3;
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::KILLGT, kSlotX, dst(0, 0, false), one(), zero())}),
                  group({ps_}), group({ps2}), group({mul})}),
      export_done(2),
   });
   EXPECT_EQ(run(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: KILLGT _ = 1.0, 0\n"
             "  group\n"
             "    x: PRED_SETGT _, PRED.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: PRED_SETGT _, PRED.2 = R1.x.0, 0\n"
             "  group\n"
             "    x: MUL T4.1 = R1.y.0, 1.0, PRED.2\n"
             "  psi (pred_sel 3) R2.x.1 = PRED.2, T4.1, R2.x.0\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.0, R2.z.0, R2.w.0\n");
}

TEST(SbGvn, NotInSsaFormIsRefused)
{
   Program p = program(ChipClass::Evergreen, {export_done(2)});
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh);
   EXPECT_FALSE(gvn(*sh, d));
   EXPECT_FALSE(peephole(*sh, d));
   EXPECT_EQ(messages(d), "gvn: the shader is not in numbered SSA form\n"
                          "peephole: the shader is not in numbered SSA form\n");
}

/* ---- peephole ---- */

TEST(SbPeephole, SetccFeedingPredSetneBecomesOnePredSet)
{
   /* x = SETGT a, b; PUSH (PRED_SETNE_INT x, 0)  ->  PRED_SETGT_PUSH-free
    * form: the predicate instruction compares a, b itself.  A SETE_INT
    * result tested with PRED_SETNE_INT gets PRED_SETE_INT; a negated x
    * under an integer test is left alone (-0 bits are not 0); KILLNE of
    * the SETGT result becomes KILLGT. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::SETGT, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::SETE_INT, kSlotY, dst(2, 1), src_gpr(1, 2), zero())})}),
      alu_clause({group({pred(AluOp::PRED_SETNE_INT, src_gpr(2, 0), zero())})},
                 CfOp::ALU_PUSH_BEFORE),
      cf_op(CfOp::JUMP, 4, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), one())})}, CfOp::ALU_POP_AFTER),
      alu_clause({group({pred(AluOp::PRED_SETNE, zero(), negate(src_gpr(2, 1)))})},
                 CfOp::ALU_PUSH_BEFORE),
      cf_op(CfOp::JUMP, 7, 1),
      alu_clause({group({alu(AluOp::KILLNE_INT, kSlotX, dst(0, 0, false), negate(src_gpr(2, 1)),
                             zero())}),
                  group({alu(AluOp::KILLNE, kSlotX, dst(0, 0, false), src_gpr(2, 0), zero())})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   EXPECT_EQ(run(p, true),
             "cf 0 ALU\n"
             "  group\n"
             "    x: SETGT R2.x.1 = R1.x.0, R1.y.0\n"
             "    y: SETE_INT R2.y.1 = R1.z.0, 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETGT _, EXEC.1, PRED.1 = R1.x.0, R1.y.0\n"
             "region #0 (departs 2, repeats 0)\n"
             "  depart #1 -> region #0\n"
             "    if EXEC.1\n"
             "      depart #0 -> region #0\n"
             "        cf 3 ALU_POP_AFTER\n"
             "          group\n"
             "            z: MOV R2.z.1 = 1.0\n"
             "  phi R2.z.2 = R2.z.1, R2.z.0\n"
             "cf 4 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETE_INT _, EXEC.2, PRED.2 = R1.z.0, 0\n"
             "region #1 (departs 2, repeats 0)\n"
             "  depart #1 -> region #1\n"
             "    if EXEC.2\n"
             "      depart #0 -> region #1\n"
             "        cf 6 ALU_POP_AFTER\n"
             "          group\n"
             "            x: KILLNE_INT _ = -R2.y.1, 0\n"
             "          group\n"
             "            x: KILLGT _ = R1.x.0, R1.y.0\n"
             "cf 7 EXPORT_DONE R2.x.1, R2.y.1, R2.z.2, R2.w.0\n");
}

/* ---- folding and rules against the emulator ---- */

const uint32_t kSpecial[] = {
   0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
   0x7fc00000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x3f000000u, 0xffffffffu,
   0x00000002u, 0x4b000000u, 0xcf000000u, 0x0000001fu,
};

uint32_t random_bits(std::mt19937 &rng)
{
   switch (rng() % 4) {
   case 0: return kSpecial[rng() % std::size(kSpecial)];
   case 1: return f2u(std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng));
   case 2: return rng() % 64;
   default: return uint32_t(rng());
   }
}

ShaderInfo info_for(ChipClass chip)
{
   ShaderInfo info = vs_info(chip);
   return info;
}

/* The instruction defining `v` (R2.x's last value) after the passes. */
const Node *def_of(const Node *n, const Value &v)
{
   if (n->kind == NodeKind::Alu && !n->dst.empty() && n->dst[0].kind == ValueKind::Var &&
       n->dst[0].var == v.var && n->dst[0].version == v.version)
      return n;
   for (const Node *c : n->children)
      if (const Node *d = def_of(c, v))
         return d;
   return nullptr;
}

/* R2.x at its first version: what the single tested instruction writes. */
Value r2x(RegionShader &sh)
{
   Value v;
   v.kind = ValueKind::Var;
   v.var = sh.var_id(VarKind::Gpr, 2, 0);
   v.version = 1;
   return v;
}

uint32_t operand_bits(const Value &v, const Vec4 &in)
{
   uint32_t b = 0;
   switch (v.kind) {
   case ValueKind::Var: b = in[0]; break; /* the caller puts the lane's value first */
   case ValueKind::Literal: b = v.literal; break;
   case ValueKind::Inline:
      switch (v.literal) {
      case kSrc_0: b = 0; break;
      case kSrc_1: b = f2u(1.0f); break;
      case kSrc_1_INT: b = 1; break;
      case kSrc_M_1_INT: b = 0xffffffffu; break;
      case kSrc_0_5: b = f2u(0.5f); break;
      default: ADD_FAILURE() << "inline " << v.literal;
      }
      break;
   default: ADD_FAILURE() << "operand kind"; break;
   }
   if (v.abs)
      b &= 0x7fffffffu;
   if (v.neg)
      b ^= 0x80000000u;
   return b;
}

TEST(SbGvn, FoldedConstantsEqualTheEmulator)
{
   /* R2.x = op(lit0, lit1, lit2) exported; gvn must fold it to a MOV of
    * exactly the bits the emulator computes, for every op and chip. */
   const AluOp ops[] = {
      AluOp::ADD, AluOp::MUL, AluOp::MUL_IEEE, AluOp::MAX, AluOp::MIN, AluOp::MAX_DX10,
      AluOp::MIN_DX10, AluOp::SETE, AluOp::SETGT, AluOp::SETGE_DX10, AluOp::SETNE_DX10,
      AluOp::FRACT, AluOp::FLOOR, AluOp::TRUNC, AluOp::ASHR_INT, AluOp::LSHL_INT, AluOp::AND_INT,
      AluOp::ADD_INT, AluOp::SUB_INT, AluOp::MAX_INT, AluOp::MIN_UINT, AluOp::SETGT_INT,
      AluOp::SETGE_UINT, AluOp::FLT_TO_INT, AluOp::INT_TO_FLT, AluOp::UINT_TO_FLT,
      AluOp::RECIP_IEEE, AluOp::RECIPSQRT_CLAMPED, AluOp::EXP_IEEE, AluOp::LOG_CLAMPED,
      AluOp::SIN, AluOp::MULLO_INT, AluOp::MULADD, AluOp::MULADD_IEEE, AluOp::CNDE,
      AluOp::CNDGT_INT, AluOp::BFE_UINT, AluOp::BFI_INT,
   };
   const ChipClass chips[] = {ChipClass::R700, ChipClass::Evergreen};
   std::mt19937 rng(20261121);
   unsigned folded = 0;
   for (ChipClass chip : chips) {
      for (AluOp op : ops) {
         if (alu_slots(chip, op) == 0)
            continue;
         const bool trans = alu_is_trans_only(chip, op);
         const unsigned nsrc = alu_op_info(op).num_src;
         for (unsigned iter = 0; iter < 40; iter++) {
            uint32_t k[3] = {random_bits(rng), random_bits(rng), random_bits(rng)};
            AluInstr in = alu(op, trans ? kSlotT : kSlotX, dst(2, 0), lit(0), lit(1), lit(2));
            std::vector<uint32_t> lits = {k[0], k[1]};
            if (nsrc == 3)
               lits = {k[0], k[1], k[2], 0};
            Program p = program(chip, {alu_clause({group({in}, lits)}), export_done(2)});
            const ShaderInfo info = info_for(chip);
            std::vector<Vec4> out = outputs_of(p, info, {Vec4{0, 0, 0, 0}});
            ASSERT_EQ(out.size(), 1u);
            Parsed r = parse(p);
            ASSERT_TRUE(r.sh) << r.error;
            Diagnostics d;
            ASSERT_TRUE(gvn(*r.sh, d));
            const Node *def = def_of(r.sh->root, r2x(*r.sh));
            ASSERT_TRUE(def);
            ASSERT_EQ(def->alu->op, AluOp::MOV) << alu_op_name(op);
            uint32_t got = operand_bits(def->src[0], {});
            EXPECT_EQ(got, out[0][0]) << chip_class_name(chip) << " " << alu_op_name(op) << " "
                                      << std::hex << k[0] << " " << k[1] << " " << k[2];
            folded++;
         }
      }
   }
   EXPECT_GT(folded, 2000u);
}

/* Floats equal, or both NaN: the rules hold up to the sign of zero and NaN
 * payloads (see the rule table). */
bool same_float(uint32_t a, uint32_t b)
{
   float x = u2f(a), y = u2f(b);
   return a == b || x == y || (x != x && y != y);
}

TEST(SbGvn, RulesAgreeWithTheEmulator)
{
   /* op(R1.x, R1.y, R1.z) with one operand replaced by a constant the rules
    * look for; the rewritten instruction, evaluated with the emulator's
    * scalar model, must give what the emulator gives for the source
    * program. */
   struct Case {
      AluOp op;
      int konst;      /* operand index replaced by the constant, -1 none */
      uint32_t bits;  /* the constant */
      bool same01;    /* operand 1 reads operand 0 */
   };
   const Case cases[] = {
      {AluOp::MUL, 1, 0x3f800000u, false},      {AluOp::MUL_IEEE, 0, 0x3f800000u, false},
      {AluOp::MUL, 1, 0xbf800000u, false},      {AluOp::MUL_IEEE, 1, 0xbf800000u, false},
      {AluOp::MUL, 0, 0, false},                {AluOp::ADD, 1, 0, false},
      {AluOp::ADD, 1, 0x80000000u, false},      {AluOp::MULADD, 2, 0, false},
      {AluOp::MULADD_IEEE, 2, 0, false},        {AluOp::MULADD, 1, 0x3f800000u, false},
      {AluOp::MULADD_IEEE, 1, 0x3f800000u, false}, {AluOp::MULADD, 1, 0, false},
      {AluOp::MAX, -1, 0, true},                {AluOp::MIN_DX10, -1, 0, true},
      {AluOp::ADD_INT, 1, 0, false},            {AluOp::SUB_INT, -1, 0, true},
      {AluOp::XOR_INT, -1, 0, true},            {AluOp::AND_INT, 1, 0xffffffffu, false},
      {AluOp::AND_INT, 0, 0, false},            {AluOp::OR_INT, -1, 0, true},
      {AluOp::LSHR_INT, 1, 0, false},           {AluOp::ASHR_INT, 1, 0, false},
      {AluOp::MULLO_INT, 1, 1, false},          {AluOp::MIN_UINT, -1, 0, true},
      {AluOp::CNDE, 0, 0, false},               {AluOp::CNDGT, 0, 0x3f800000u, false},
      {AluOp::CNDGE_INT, 0, 0xffffffffu, false},
   };
   const ChipClass chip = ChipClass::Evergreen;
   const ShaderInfo info = info_for(chip);
   std::mt19937 rng(7);
   unsigned checked = 0;
   for (const Case &c : cases) {
      const bool trans = alu_is_trans_only(chip, c.op);
      AluSrc s[3] = {src_gpr(1, 0), src_gpr(1, c.same01 ? 0 : 1), src_gpr(1, 2)};
      if (c.konst >= 0)
         s[c.konst] = lit(0);
      AluInstr in = alu(c.op, trans ? kSlotT : kSlotX, dst(2, 0), s[0], s[1], s[2]);
      Program p = program(chip, {alu_clause({group({in}, {c.bits, 0})}), export_done(2)});
      Parsed r = parse(p);
      ASSERT_TRUE(r.sh) << r.error;
      Diagnostics d;
      ASSERT_TRUE(gvn(*r.sh, d));
      const Node *def = def_of(r.sh->root, r2x(*r.sh));
      ASSERT_TRUE(def);
      EXPECT_NE(def->alu->op, c.op) << "no rule applied to " << alu_op_name(c.op);
      std::vector<Vec4> inputs;
      for (unsigned i = 0; i < 64; i++)
         inputs.push_back(Vec4{random_bits(rng), random_bits(rng), random_bits(rng), 0});
      std::vector<Vec4> out = outputs_of(p, info, inputs);
      ASSERT_EQ(out.size(), inputs.size());
      for (size_t i = 0; i < inputs.size(); i++) {
         uint32_t v[3] = {};
         for (unsigned k = 0; k < def->src.size() && k < 3; k++) {
            const Value &o = def->src[k];
            Vec4 lane = inputs[i];
            Vec4 pick{0, 0, 0, 0};
            if (o.kind == ValueKind::Var)
               pick[0] = lane[r.sh->vars[o.var].chan];
            v[k] = operand_bits(o, pick);
         }
         emu::SlotResult res;
         ASSERT_TRUE(emu::alu_eval(chip, def->alu->op, v[0], v[1], v[2], res));
         EXPECT_TRUE(same_float(res.value, out[i][0]))
            << alu_op_name(c.op) << " -> " << alu_op_name(def->alu->op) << std::hex << " in "
            << inputs[i][0] << " " << inputs[i][1] << " " << inputs[i][2] << ": " << res.value
            << " vs " << out[i][0];
         checked++;
      }
   }
   EXPECT_EQ(checked, std::size(cases) * 64u);
}

} // namespace

/* ---- the SSA pipeline with and without gvn + peephole, in the emulator ---- */

namespace diff {

using sbcc::r600::sb::region::Allocation;

/* Random straight-line code with ifs, built to give gvn work: a small pool
 * of constants (so folds happen), repeated computations with operands
 * swapped, MOVs with modifiers, selects and SETcc + PRED_SETNE pairs. */
struct Gen {
   std::mt19937 rng;
   std::vector<CfInstr> cfs;
   unsigned regs_written = 0; /* R3.. R3+regs_written-1 hold values */
   std::vector<AluInstr> history;

   explicit Gen(uint32_t seed) : rng(seed) {}

   AluSrc operand(bool op3, auto &lits) /* a group's literals or a std::vector */
   {
      AluSrc s;
      unsigned what = rng() % 10;
      if (what < 2) {
         static const AluSrcSel kInl[] = {kSrc_0, kSrc_1, kSrc_0_5, kSrc_1_INT, kSrc_M_1_INT};
         s = src_inline(kInl[rng() % 5]);
      } else if (what < 4) {
         static const uint32_t kLit[] = {0x40000000u, 0xbf800000u, 0x3f800000u, 0u, 3u};
         uint32_t v = kLit[rng() % 5];
         unsigned idx = 0;
         while (idx < lits.size() && lits[idx] != v)
            idx++;
         if (idx == lits.size()) {
            if (lits.size() >= 4)
               return src_gpr(1, rng() % 4);
            lits.push_back(v);
         }
         s = lit(idx);
      } else if (what < 6 || regs_written == 0) {
         s = src_gpr(1, rng() % 4);
      } else {
         s = src_gpr(3 + rng() % regs_written, rng() % 4);
      }
      s.neg = rng() % 4 == 0;
      s.abs = !op3 && rng() % 6 == 0;
      return s;
   }

   AluGroup alu_group()
   {
      static const AluOp kOps[] = {
         AluOp::ADD, AluOp::MUL, AluOp::MUL_IEEE, AluOp::MAX, AluOp::MIN_DX10, AluOp::SETGT,
         AluOp::SETE_INT, AluOp::ADD_INT, AluOp::AND_INT, AluOp::MOV, AluOp::MOV,
         AluOp::MULADD, AluOp::MULADD_IEEE, AluOp::CNDE, AluOp::CNDGT_INT, AluOp::FRACT,
      };
      AluGroup g;
      unsigned n = 1 + rng() % 2;
      std::vector<unsigned> chans = {0, 1, 2, 3};
      std::shuffle(chans.begin(), chans.end(), rng);
      unsigned new_reg = regs_written < 4 && rng() % 2 ? 1 : 0;
      for (unsigned i = 0; i < n; i++) {
         AluInstr in;
         if (!history.empty() && rng() % 4 == 0) {
            /* A repeat of an earlier computation (operands swapped where
             * the op commutes); its literals are re-created in this group. */
            in = history[rng() % history.size()];
            if (in.src[0].is_literal() || in.src[1].is_literal() || in.src[2].is_literal())
               continue;
            if (alu_op_info(in.op).flags & AF_COMM)
               std::swap(in.src[0], in.src[1]);
         } else {
            in.op = kOps[rng() % std::size(kOps)];
            bool op3 = alu_is_op3(in.op);
            for (unsigned k = 0; k < alu_op_info(in.op).num_src; k++)
               in.src[k] = operand(op3, g.literals);
            in.dst.clamp = rng() % 8 == 0;
         }
         in.slot = uint8_t(chans[i]);
         unsigned reg = 3 + (regs_written + new_reg > 0 ? rng() % (regs_written + new_reg) : 0);
         in.dst.gpr = uint8_t(reg);
         in.dst.chan = uint8_t(chans[i]);
         in.dst.write = true;
         g.instrs.push_back(in);
      }
      regs_written += new_reg;
      if (regs_written == 0)
         regs_written = 1;
      std::sort(g.instrs.begin(), g.instrs.end(),
                [](const AluInstr &a, const AluInstr &b) { return a.slot < b.slot; });
      for (const AluInstr &in : g.instrs)
         if (!in.src[0].is_literal() && !in.src[1].is_literal() && !in.src[2].is_literal())
            history.push_back(in);
      return g;
   }

   CfInstr clause(CfOp op = CfOp::ALU)
   {
      std::vector<AluGroup> gs;
      for (unsigned k = 0, n = 1 + rng() % 4; k < n; k++)
         gs.push_back(alu_group());
      return alu_clause(gs, op);
   }

   Program make()
   {
      /* Every used register starts defined: R3..R6 = inputs. */
      cfs.push_back(alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(1, 0)),
                                       alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 1)),
                                       alu(AluOp::MOV, kSlotZ, dst(3, 2), src_gpr(1, 2)),
                                       alu(AluOp::MOV, kSlotW, dst(3, 3), src_gpr(1, 3))})}));
      for (unsigned r = 4; r < 7; r++)
         cfs.push_back(alu_clause({group({alu(AluOp::MUL, kSlotX, dst(r, 0), src_gpr(1, 0), src_gpr(1, 1)),
                                          alu(AluOp::ADD, kSlotY, dst(r, 1), src_gpr(1, 1), src_gpr(1, 2)),
                                          alu(AluOp::MOV, kSlotZ, dst(r, 2), src_gpr(1, r - 4)),
                                          alu(AluOp::MOV, kSlotW, dst(r, 3), src_gpr(1, 3))})}));
      regs_written = 1;
      for (unsigned k = 0, n = 2 + rng() % 4; k < n; k++) {
         if (rng() % 3 == 0) {
            /* if (SETcc != 0) { clause } */
            std::vector<uint32_t> lits;
            AluInstr set = alu(rng() % 2 ? AluOp::SETGT : AluOp::SETGE_INT, kSlotX, dst(7, 0),
                               operand(false, lits), operand(false, lits));
            cfs.push_back(alu_clause({group({set}, lits)}));
            AluInstr p = alu(rng() % 2 ? AluOp::PRED_SETNE : AluOp::PRED_SETNE_INT, kSlotX,
                             dst(0, 0, false), src_gpr(7, 0), zero());
            p.update_exec_mask = p.update_pred = true;
            cfs.push_back(alu_clause({group({p})}, CfOp::ALU_PUSH_BEFORE));
            size_t jump = cfs.size();
            cfs.push_back(cf_op(CfOp::JUMP, 0, 1));
            cfs.push_back(clause(CfOp::ALU_POP_AFTER));
            cfs[jump].target = uint32_t(cfs.size());
            history.clear(); /* values of the if body do not reach here */
         } else if (rng() % 4 == 0) {
            /* for (i = 0; i < 3; i++) { body }: values from before the loop
             * may be reused inside, not the other way round. */
            cfs.push_back(alu_clause({group({alu(AluOp::MOV, kSlotY, dst(7, 1), zero())})}));
            size_t start = cfs.size();
            cfs.push_back(cf_op(CfOp::LOOP_START_DX10));
            AluInstr p = alu(AluOp::PRED_SETGE_INT, kSlotX, dst(0, 0, false), src_gpr(7, 1),
                             lit(0));
            p.update_exec_mask = p.update_pred = true;
            cfs.push_back(alu_clause({group({p}, {3, 0})}, CfOp::ALU_PUSH_BEFORE));
            size_t jump = cfs.size();
            cfs.push_back(cf_op(CfOp::JUMP, 0, 1));
            cfs.push_back(cf_op(CfOp::LOOP_BREAK));
            cfs.push_back(cf_op(CfOp::POP, 0, 1));
            cfs[jump].target = uint32_t(cfs.size());
            cfs[jump + 2].target = uint32_t(cfs.size());
            std::vector<AluInstr> saved = history;
            CfInstr body = clause();
            body.groups.push_back(group({alu(AluOp::ADD_INT, kSlotY, dst(7, 1), src_gpr(7, 1),
                                             src_inline(kSrc_1_INT))}));
            cfs.push_back(body);
            cfs.push_back(cf_op(CfOp::LOOP_END, uint32_t(start + 1)));
            cfs[start].target = uint32_t(cfs.size());
            history = saved;
         } else {
            cfs.push_back(clause());
         }
      }
      std::vector<AluInstr> outs;
      for (unsigned c = 0; c < 4; c++)
         outs.push_back(alu(AluOp::MOV, c, dst(2, c),
                            src_gpr(3 + rng() % regs_written, rng() % 4)));
      cfs.push_back(alu_clause({group(outs)}));
      cfs.push_back(export_done(2));
      return program(ChipClass::Evergreen, cfs);
   }
};

/* region pipeline; nullopt (with the reason) when a pass refuses. */
std::optional<Program> ssa_pipeline(const Program &p, const ShaderInfo &info, bool opt,
                                    std::string &why)
{
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   bool ok = sh != nullptr;
   if (ok) {
      ssa_prepare(*sh);
      ssa_rename(*sh);
      if (opt)
         ok = gvn(*sh, d) && peephole(*sh, d);
   }
   Allocation a;
   Program out;
   ok = ok && dce_cleanup(*sh, d) && register_allocation(*sh, info, a, d) &&
        bc_finalize(*sh, a, info, out, d);
   if (!ok) {
      why = d.str();
      return std::nullopt;
   }
   return out;
}

} // namespace diff

class SbGvnPipeline : public ::testing::TestWithParam<ChipClass> {};

TEST_P(SbGvnPipeline, RandomProgramsAgreeWithAndWithoutGvn)
{
   const ChipClass chip = GetParam();
   const ShaderInfo info = vs_info(chip);
   std::mt19937 rng(99);
   unsigned compared = 0, skipped = 0, invalid = 0, refused = 0;
   const char *only = std::getenv("SBCC_GVN_SEED");
   for (uint32_t seed = 1; seed <= 1000; seed++) {
      if (only && seed != uint32_t(std::atoi(only)))
         continue;
      Program p = diff::Gen(seed).make();
      p.chip = chip;
      if (only) {
         Parsed r = parse(p);
         std::cout << region_dump(*r.sh) << "----\n";
         Diagnostics dd;
         gvn(*r.sh, dd);
         std::cout << region_dump(*r.sh) << "----\n";
         peephole(*r.sh, dd);
         std::cout << region_dump(*r.sh);
      }
      Diagnostics vd;
      /* The generator ignores bank swizzles: where a group breaks them, one
       * instruction per group (a different but valid program). */
      if (!validate_program(p, info, vd)) {
         for (CfInstr &cf : p.cf) {
            std::vector<AluGroup> single;
            for (const AluGroup &g : cf.groups)
               for (const AluInstr &in : g.instrs)
                  single.push_back(group({in}, {g.literals.begin(), g.literals.end()}));
            cf.groups = single;
         }
      }
      vd.clear();
      if (!validate_program(p, info, vd)) {
         invalid++;
         continue;
      }
      /* Inputs as shaders see them (finite floats, small integers): the
       * float rules hold up to the sign of zero and NaN payloads only (see
       * the rule table), which integer ops on float bits would expose. */
      std::vector<Vec4> inputs;
      auto input = [&] {
         uint32_t v = random_bits(rng);
         return (v & 0x7f800000u) == 0x7f800000u || v == 0x80000000u ? f2u(2.5f) : v;
      };
      for (unsigned i = 0; i < 16; i++)
         inputs.push_back(Vec4{input(), input(), input(), input()});
      std::vector<Vec4> want = outputs_of(p, info, inputs);
      std::string why;
      /* Without gvn first: a refusal or mismatch there is not gvn's. */
      auto plain = diff::ssa_pipeline(p, info, false, why);
      if (!plain || outputs_of(*plain, info, inputs) != want) {
         skipped++;
         continue;
      }
      auto opt = diff::ssa_pipeline(p, info, true, why);
      if (!opt) {
         /* A refusal is safe (the driver falls back); it must say why. */
         EXPECT_NE(why, "") << "seed " << seed;
         if (only || std::getenv("SBCC_GVN_VERBOSE"))
            std::cout << "seed " << seed << " refused: " << why;
         refused++;
         continue;
      }
      Diagnostics d;
      ASSERT_TRUE(validate_program(*opt, info, d)) << "seed " << seed << ": " << d.str();
      std::vector<Vec4> got = outputs_of(*opt, info, inputs);
      for (size_t i = 0; i < got.size(); i++)
         for (unsigned c = 0; c < 4; c++)
            EXPECT_TRUE(same_float(got[i][c], want[i][c]))
               << "seed " << seed << " lane " << i << " chan " << c << std::hex << ": "
               << got[i][c] << " vs " << want[i][c];
      compared++;
   }
   std::cout << compared << " compared, " << invalid << " invalid sources, " << skipped
             << " failing without gvn, " << refused << " refused with gvn\n";
   EXPECT_GT(compared, 400u) << chip_class_name(chip);
   /* Refusals fall back safely, but should stay rare (today: RA cannot
    * coalesce a phi whose source gvn made live past it). */
   EXPECT_LT(refused, compared / 10);
}

INSTANTIATE_TEST_SUITE_P(Chips, SbGvnPipeline,
                         ::testing::Values(ChipClass::R700, ChipClass::Evergreen,
                                           ChipClass::Cayman),
                         [](const auto &info) { return std::string(chip_class_name(info.param)); });

/* ---- whole programs from the plain backend (tests/shaders, random TGSI) ---- */

namespace whole {

using namespace sbcc::r600::sb::region;

struct Stats {
   unsigned stages = 0, finalized = 0, refused_only_with_gvn = 0, compared = 0;
   unsigned differs_without_gvn = 0;
   uint64_t groups_plain = 0, groups_ssa = 0, groups_gvn = 0; /* stages finalized both ways */
   std::string failures;
};

/* The SSA pipeline then the clause-local repacking (bc_parser,
 * post_scheduler, bc_builder), as the driver is to run them. */
std::optional<Program> optimize(const Program &p, const ShaderInfo &info, bool with_gvn,
                                unsigned &num_gprs)
{
   Diagnostics d;
   RegionParseOptions o;
   o.arrays = infer_rel_arrays(p);
   auto sh = region_parse(p, o, d);
   if (!sh)
      return std::nullopt;
   ssa_prepare(*sh);
   ssa_rename(*sh);
   if (with_gvn && !(gvn(*sh, d) && peephole(*sh, d)))
      return std::nullopt;
   Allocation a;
   Program out;
   if (!dce_cleanup(*sh, d) || !register_allocation(*sh, info, a, d) ||
       !bc_finalize(*sh, a, info, out, d)) {
      if (with_gvn && std::getenv("SBCC_GVN_VERBOSE"))
         std::cout << "refused with gvn: " << d.str();
      return std::nullopt;
   }
   num_gprs = std::max(a.num_gprs, 1u);
   sbcc::r600::sb::Shader cs;
   Program packed;
   if (sbcc::r600::sb::bc_parser(out, cs, d) && sbcc::r600::sb::post_scheduler(cs, d) &&
       sbcc::r600::sb::sched_checker(cs, d) && sbcc::r600::sb::bc_builder(cs, packed, d))
      out = packed;
   return out;
}

Batch batch(const ShaderInfo &info)
{
   return random_lanes(info, 5, -2.0f, 2.0f);
}

void stage(const Program &prog, const ShaderInfo &info, const std::string &what, Stats &st)
{
   st.stages++;
   unsigned g1 = 0, g2 = 0;
   auto ssa = optimize(prog, info, false, g1);
   auto opt = optimize(prog, info, true, g2);
   if (ssa && !opt)
      st.refused_only_with_gvn++;
   if (!ssa || !opt)
      return;
   st.finalized++;
   st.groups_plain += num_groups(prog);
   st.groups_ssa += num_groups(*ssa);
   st.groups_gvn += num_groups(*opt);
   ShaderInfo fin = info;
   fin.num_gprs = std::max(info.num_gprs, g2);
   Diagnostics d;
   if (!validate_program(*opt, fin, d)) {
      st.failures += what + ": validator: " + d.str();
      return;
   }
   Resources res = random_constants(11);
   RunLimits lim;
   lim.max_loop_iterations = 256;
   Batch a = batch(info), b = batch(info), c = batch(info);
   if (emulate(prog, info, res, a, lim).status != RunStatus::Ok)
      return; /* textures, budgets: the plain code does not run alone */
   /* A difference the pipeline shows without gvn too is not gvn's. */
   ShaderInfo fin1 = info;
   fin1.num_gprs = std::max(info.num_gprs, g1);
   if (emulate(*ssa, fin1, res, c, lim).status != RunStatus::Ok)
      return;
   for (size_t l = 0; l < a.lanes.size(); l++)
      for (size_t o = 0; o < a.lanes[l].outputs.size(); o++)
         for (unsigned k = 0; k < 4; k++)
            if (!same_float(a.lanes[l].outputs[o][k], c.lanes[l].outputs[o][k]) ||
                a.lanes[l].killed != c.lanes[l].killed) {
               st.differs_without_gvn++;
               return;
            }
   RunResult rb = emulate(*opt, fin, res, b, lim);
   if (rb.status != RunStatus::Ok) {
      st.failures += what + ": optimized code does not run: " + rb.message + "\n";
      return;
   }
   for (size_t l = 0; l < a.lanes.size(); l++) {
      bool same = a.lanes[l].killed == b.lanes[l].killed;
      for (size_t o = 0; o < a.lanes[l].outputs.size() && same; o++)
         for (unsigned c = 0; c < 4; c++)
            same = same && same_float(a.lanes[l].outputs[o][c], b.lanes[l].outputs[o][c]);
      if (!same) {
         st.failures += what + ": lane " + std::to_string(l) + " differs\n";
         return;
      }
   }
   st.compared++;
}

void compile(const std::string &text, const std::string &what, ChipClass chip, Stats &st)
{
   with_plain_bytecode(text, what, chip,
                       [&](const Program &p, const ShaderInfo &info) { stage(p, info, what, st); });
}

std::string summary(const Stats &st)
{
   std::ostringstream o;
   o << st.stages << " stages, " << st.finalized << " finalized with and without gvn ("
     << st.refused_only_with_gvn << " refused only with gvn), " << st.compared
     << " emulator-compared (" << st.differs_without_gvn
     << " differ without gvn already); alu_groups plain " << st.groups_plain << ", SSA pipeline "
     << st.groups_ssa << ", with gvn+peephole " << st.groups_gvn;
   return o.str();
}

} // namespace whole

TEST(SbGvnWhole, ShaderTestStages)
{
   std::filesystem::path dir = std::filesystem::path(__FILE__).parent_path() / ".." / "shaders";
   if (!std::filesystem::is_directory(dir))
      dir = "tests/shaders"; /* run from the source root */
   if (!std::filesystem::is_directory(dir))
      GTEST_SKIP() << "tests/shaders not found (next to this source or from the working directory)";
   std::vector<std::filesystem::path> files;
   for (auto &e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".shader_test")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      whole::Stats st;
      for (auto &f : files)
         for (auto &text : tgsi_sections(f))
            whole::compile(text, f.filename().string(), chip, st);
      std::cout << chip_class_name(chip) << ": " << whole::summary(st) << "\n";
      EXPECT_EQ(st.failures, "");
      EXPECT_GT(st.compared, 100u);
      EXPECT_LE(st.groups_gvn, st.groups_ssa);
   }
}

/* A light vector normalized twice, as the dolphin ubershaders do in two
 * arms of a switch: the second DP3 and RSQ read the first, and the code
 * agrees with the plain bytecode in the emulator. */
TEST(SbGvnWhole, RepeatedDotProductRunsLikeThePlainCode)
{
   const std::string text = "FRAG\n"
                            "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                            "DCL OUT[0], COLOR\n"
                            "DCL TEMP[0..3]\n"
                            "  0: DP3 TEMP[0].x, IN[0].xyzz, IN[0].xyzz\n"
                            "  1: RSQ TEMP[0].x, TEMP[0].xxxx\n"
                            "  2: MUL TEMP[1].xyz, IN[0].xyzz, TEMP[0].xxxx\n"
                            "  3: DP3 TEMP[2].x, IN[0].xyzz, IN[0].xyzz\n"
                            "  4: RSQ TEMP[2].x, TEMP[2].xxxx\n"
                            "  5: ADD TEMP[3].xyz, TEMP[1].xyzz, TEMP[2].xxxx\n"
                            "  6: MOV TEMP[3].w, IN[0].wwww\n"
                            "  7: MOV OUT[0], TEMP[3]\n"
                            "  8: END\n";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      whole::Stats st;
      whole::compile(text, "dp3", chip, st);
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.compared, 1u);
      /* DOT4 slots and RSQs left after gvn and dce: one of each. */
      std::string after;
      with_plain_bytecode(text, "dp3", chip, [&](const Program &p, const ShaderInfo &) {
         Parsed r = parse(p);
         ASSERT_TRUE(r.sh) << r.error;
         Diagnostics d;
         ASSERT_TRUE(gvn(*r.sh, d) && dce_cleanup(*r.sh, d)) << d.str();
         after = region_dump(*r.sh);
      });
      auto count = [&](const std::string &what) {
         unsigned n = 0;
         for (size_t at = after.find(what); at != std::string::npos; at = after.find(what, at + 1))
            n++;
         return n;
      };
      EXPECT_EQ(count("DOT4"), 4u) << after;
      EXPECT_EQ(count("RECIPSQRT"), 1u) << after;
   }
}

TEST(SbGvnWhole, RandomTgsiPrograms)
{
   whole::Stats st;
   for (uint32_t seed = 1; seed <= 300; seed++)
      whole::compile(sbcc::test::random_tgsi_program(seed), "random " + std::to_string(seed),
                     ChipClass::Evergreen, st);
   std::cout << whole::summary(st) << "\n";
   EXPECT_EQ(st.failures, "");
   EXPECT_GT(st.compared, 100u);
   /* Refusals are safe fallbacks; today RA's checker refuses some fetch and
    * export vectors that gvn's copies changed (SBCC_GVN_VERBOSE=1 lists). */
   EXPECT_LE(st.refused_only_with_gvn * 4, st.finalized);
}
