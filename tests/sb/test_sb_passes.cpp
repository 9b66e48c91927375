/*
 * sb passes on fixed inputs: the parser's value form (exact sbdump text),
 * the post-scheduler's packing under slot, dependence, literal and
 * read-port rules (exact group counts and layouts), its renaming and
 * allocation of clause-local values (no register for PV-only values,
 * clause temporaries, folded copies, chains through a reused register
 * interleaving), the checker rejecting broken schedules, the emulator
 * agreeing between source and result, and GroupFit (the scheduler's
 * incremental group test) agreeing with materialize_group_into.
 */
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;

TEST(SbParser, PvBecomesTheProducersRegisterAndLiteralsTheirBits)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0),
                                                    src_gpr(1, 0), lit(0))},
                                                {0x40000000u}),
                                          group({alu(AluOp::MUL_IEEE, kSlotY, dst(2, 1), pv(0),
                                                     src_inline(kSrc_0_5))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d)) << d.str();
   EXPECT_EQ(dump_shader(sh), "cf 0 ALU\n"
                              "  group 0\n"
                              "    0: R3.x = ADD R1.x, 0x40000000\n"
                              "  group 1\n"
                              "    1: R2.y = MUL_IEEE R3.x, I252\n"
                              "cf 1 EXPORT_DONE\n");
}

TEST(SbParser, ValueOnlyInPvKeepsBothGroupsVerbatim)
{
   /* The ADD writes no register: its consumer must stay right behind it. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0, false),
                                                    src_gpr(1, 0), one())}),
                                          group({alu(AluOp::MOV, kSlotX, dst(2, 0), pv(0))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d)) << d.str();
   EXPECT_EQ(dump_shader(sh), "cf 0 ALU\n"
                              "  group 0 fixed\n"
                              "    0: __.x = ADD R1.x, I249\n"
                              "  group 1 fixed\n"
                              "    1: R2.x = MOV @0\n"
                              "cf 1 EXPORT_DONE\n");
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   EXPECT_EQ(out->cf[0].groups, p.cf[0].groups);
}

TEST(SbParser, LiteralIndexBeyondTheGroupIsAnError)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), lit(1))},
                                                {1u})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   EXPECT_FALSE(bc_parser(p, sh, d));
   EXPECT_EQ(d.str(), "error: CF 0 group 0: LITERAL.1 beyond the group's literals\n");
}

TEST(SbScheduler, IndependentGroupsPackIntoOne)
{
   /* Four single-instruction groups on four channels plus one trans-able
    * op: one group on Evergreen (x y z w t). */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 3))}),
                                          group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 2))}),
                                          group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 1))}),
                                          group({alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 0))}),
                                          group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0),
                                                     one())})}),
                             export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   ASSERT_EQ(num_groups(*out), 1u);
   const AluGroup &g = out->cf[0].groups[0];
   ASSERT_EQ(g.instrs.size(), 5u);
   EXPECT_EQ(g.instrs[4].slot, kSlotT);
   EXPECT_EQ(g.instrs[4].op, AluOp::ADD);
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-1, 0.5f, 8, 9)};
   const ShaderInfo info = vs_info(kEg);
   EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in));
   EXPECT_EQ(outputs_of(*out, info, in)[0], vec4f(4, 3, 2, 1));
}

TEST(SbScheduler, CaymanHasNoTransSlot)
{
   /* R3.x is read by the next clause, so it keeps its channel: two x
    * writes, no trans slot to put one of them in. */
   Program p = program(ChipClass::Cayman,
                       {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                                    group({alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(1, 1))})}),
                        alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(3, 0))})}),
                        export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   EXPECT_EQ(out->cf[0].groups.size(), 2u);
}

TEST(SbScheduler, DependencesKeepGroupsApartAndPvComesBack)
{
   /* RAW chain R3.x -> R2.x: two groups, the second reading PV.x again. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0),
                                                    one())}),
                                          group({alu(AluOp::MUL_IEEE, kSlotX, dst(2, 0),
                                                     src_gpr(3, 0), src_gpr(3, 0))})}),
                             export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   ASSERT_EQ(num_groups(*out), 2u);
   EXPECT_EQ(out->cf[0].groups[1].instrs[0].src[0].sel, kSrc_PV);
   EXPECT_EQ(out->cf[0].groups[1].instrs[0].src[1].sel, kSrc_PV);
}

TEST(SbScheduler, WriteMayJoinTheGroupOfAnEarlierReader)
{
   /* Group 1 reads R1.x, group 2 overwrites it: anti dependence only, so
    * both fit in one group (the group reads before it writes).  The next
    * clause reads the new R1.x, so it stays in R1.x. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 0))}),
                                          group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(1, 1),
                                                     one())}),
                                          group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))})}),
                             alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 0))})}),
                             export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   EXPECT_EQ(out->cf[0].groups.size(), 2u);
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   const ShaderInfo info = vs_info(kEg);
   EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in));
   EXPECT_EQ(outputs_of(*out, info, in)[0], vec4f(3, 1, 3, 0));
}

TEST(SbScheduler, RegisterSwapInOneGroupStaysTogether)
{
   /* The swapped R1 is read by the next clause: both halves keep their
    * registers and must stay in one group. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(1, 1)),
                                                alu(AluOp::MOV, kSlotY, dst(1, 1), src_gpr(1, 0))}),
                                          group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                                                 alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1))})}),
                             alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 0)),
                                                alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 1))})}),
                             export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   EXPECT_EQ(out->cf[0].groups.size(), 2u);
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(2, 1, 2, 1));
}

TEST(SbScheduler, SwapOfClauseLocalValuesIsJustTwoReads)
{
   /* The same swap with R1 dead after the clause: the swapped values are
    * local, so the copies fold into the swap and one group remains. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(1, 1)),
                                                alu(AluOp::MOV, kSlotY, dst(1, 1), src_gpr(1, 0))}),
                                          group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                                                 alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1))})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: R2.x = MOV R1.y\n"
                   "    1: R2.y = MOV R1.x\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
}

TEST(SbScheduler, ValueReadOnlyThroughPvGetsNoRegister)
{
   /* R5.y is read once, by the next group: PV carries it, the ADD's write
    * mask goes off and R5 disappears from the program. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotY, dst(5, 1), src_gpr(1, 0),
                                                    one())}),
                                          group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(5, 1),
                                                     src_gpr(1, 1))})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: __.x = ADD R1.x, I249\n"
                   "  group 1\n"
                   "    1: R2.x = MUL @0, R1.y\n"
                   "cf 1 EXPORT_DONE\n");
   ASSERT_EQ(out->cf[0].groups.size(), 2u);
   EXPECT_FALSE(out->cf[0].groups[0].instrs[0].dst.write);
   EXPECT_EQ(out->cf[0].groups[1].instrs[0].src[0], pv(0));
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 0, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(4, 0, 0, 0));
}

/* A = R1.x + 1 is read by the next group and the one after: it needs a
 * register, a clause temporary where the chip has them. */
Program value_read_twice(ChipClass chip)
{
   return program(chip, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(6, 0), src_gpr(1, 0),
                                                one())}),
                                     group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(6, 0),
                                                src_gpr(1, 1))}),
                                     group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(6, 0),
                                                src_gpr(2, 0))})}),
                         export_done(2)});
}

TEST(SbScheduler, LocalValuesUseClauseTemporariesOnR700AndLater)
{
   for (ChipClass chip : {ChipClass::R700, kEg}) {
      std::string dump;
      Program p = value_read_twice(chip);
      auto out = run_passes(p, &dump);
      ASSERT_TRUE(out);
      EXPECT_EQ(dump, "cf 0 ALU\n"
                      "  group 0\n"
                      "    0: R124.x = ADD R1.x, I249\n"
                      "  group 1\n"
                      "    1: R2.x = MUL R124.x, R1.y\n"
                      "  group 2\n"
                      "    2: R2.y = ADD R124.x, R2.x\n"
                      "cf 1 EXPORT_DONE\n");
      const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 0, 0)};
      EXPECT_EQ(outputs_of(*out, vs_info(chip), in), outputs_of(p, vs_info(chip), in));
      EXPECT_EQ(outputs_of(*out, vs_info(chip), in)[0], vec4f(4, 6, 0, 0));
   }
}

TEST(SbScheduler, R600HasNoClauseTemporariesLocalsTakeAFreeGpr)
{
   /* R1.x's input is last read by the ADD itself (a group reads before
    * it writes), so the value takes R1.x rather than a new register. */
   std::string dump;
   Program p = value_read_twice(ChipClass::R600);
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: R1.x = ADD R1.x, I249\n"
                   "  group 1\n"
                   "    1: R2.x = MUL R1.x, R1.y\n"
                   "  group 2\n"
                   "    2: R2.y = ADD R1.x, R2.x\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 0, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(ChipClass::R600), in),
             outputs_of(p, vs_info(ChipClass::R600), in));
}

/* ADD R5.x, then MOV R2.x <- R5.x as its only reader. */
Program copy_of_local()
{
   return program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(1, 0),
                                               one())}),
                                    group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 1),
                                               src_gpr(1, 2))}),
                                    group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(5, 0))})}),
                        export_done(2)});
}

TEST(SbScheduler, CopyOfALocalValueFoldsIntoItsProducer)
{
   Program p = copy_of_local();
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: R2.x = ADD R1.x, I249\n"
                   "    1: R2.y = MUL R1.y, R1.z\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 8, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(2, 6, 0, 0));
}

TEST(SbScheduler, ReusedRegisterNoLongerSerializesTwoChains)
{
   /* R3.x carries two unrelated values; in register terms the second ADD
    * must wait for the first MUL's read.  On values the chains
    * interleave: both ADDs, then both MULs, all through PV. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0),
                                                    one())}),
                                          group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(3, 0),
                                                     src_gpr(3, 0))}),
                                          group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 1),
                                                     one())}),
                                          group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(3, 0),
                                                     src_gpr(3, 0))})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: __.x = ADD R1.x, I249\n"
                   "    2: __.y = ADD R1.y, I249\n"
                   "  group 1\n"
                   "    1: R2.x = MUL @0, @0\n"
                   "    3: R2.y = MUL @2, @2\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 8, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(4, 9, 0, 0));
}

TEST(SbScheduler, AtMostFourDistinctLiteralsPerGroup)
{
   std::vector<AluGroup> groups;
   for (unsigned c = 0; c < 4; c++)
      groups.push_back(group({alu(AluOp::MOV, c, dst(2, c), lit(0))}, {0x3f800000u + c}));
   groups.push_back(group({alu(AluOp::MOV, kSlotX, dst(3, 0), lit(0))}, {0x40800000u}));
   /* Same bits as the first: shares its literal slot (and takes the
    * trans slot, y being used). */
   groups.push_back(group({alu(AluOp::MOV, kSlotY, dst(3, 1), lit(0))}, {0x3f800000u}));
   Program p = program(kEg, {alu_clause(groups), export_done(2)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   ASSERT_EQ(num_groups(*out), 2u);
   EXPECT_EQ(out->cf[0].groups[0].literals.size(), 4u);
   ASSERT_EQ(out->cf[0].groups[0].instrs.size(), 5u);
   EXPECT_EQ(out->cf[0].groups[0].instrs[4].slot, kSlotT);
   EXPECT_EQ(out->cf[0].groups[0].instrs[4].src[0], src_literal(0));
   ASSERT_EQ(out->cf[0].groups[1].instrs.size(), 1u);
   EXPECT_EQ(out->cf[0].groups[1].literals, std::vector<uint32_t>{0x40800000u});
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
}

TEST(SbScheduler, FixedGroupsAreBarriers)
{
   /* The predicate write cannot move; the MOVs on either side stay on
    * their side of it. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                                          group({alu(AluOp::PRED_SETGT, kSlotX, dst(4, 0, false),
                                                     src_gpr(1, 0), zero())}),
                                          group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1))})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(num_groups(*out), 3u);
   EXPECT_NE(dump.find("group 1 fixed\n    1: __.x = PRED_SETGT R1.x, I248"), std::string::npos)
      << dump;
}

TEST(SbScheduler, ReductionIsScheduledAsOneUnitNotABarrier)
{
   /* A DOT4 used to keep its group verbatim and split the clause.  Now it
    * is a four-slot unit: the MOV before it joins its trans slot, the MUL
    * after it and the DOT4's reader share the next group (the reader of
    * PV placed first), and the DOT4's result, read once through PV, needs
    * no register. */
   auto dot = [](unsigned slot, bool write) {
      return alu(AluOp::DOT4_IEEE, slot, dst(3, slot, write), src_gpr(1, slot),
                 src_gpr(1, slot));
   };
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 3))}),
                                          group({dot(0, true), dot(1, false), dot(2, false),
                                                 dot(3, false)}),
                                          group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 1),
                                                     src_gpr(1, 2))}),
                                          group({alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(3, 0),
                                                     one())})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    1: __.x = DOT4_IEEE R1.x, R1.x\n"
                   "    2: __.y = DOT4_IEEE R1.y, R1.y\n"
                   "    3: __.z = DOT4_IEEE R1.z, R1.z\n"
                   "    4: __.w = DOT4_IEEE R1.w, R1.w\n"
                   "    0: R2.x = MOV R1.w\n"
                   "  group 1\n"
                   "    6: R2.z = ADD @1, I249\n"
                   "    5: R2.y = MUL R1.y, R1.z\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-2, 0.5f, 8, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(4, 6, 31, 0));
}

TEST(SbScheduler, CopyOfAReductionIntoAnotherChannelStays)
{
   /* The DOT4's x slot can only write .x: its copy into R2.y is not folded
    * (the checker rejects a reduction slot writing another channel). */
   auto dot = [](unsigned slot, bool write) {
      return alu(AluOp::DOT4_IEEE, slot, dst(3, slot, write), src_gpr(1, slot),
                 src_gpr(1, slot));
   };
   Program p = program(kEg, {alu_clause({group({dot(0, true), dot(1, false), dot(2, false),
                                                dot(3, false)}),
                                          group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(3, 0))})}),
                             export_done(2)});
   std::string dump;
   auto out = run_passes(p, &dump);
   ASSERT_TRUE(out);
   EXPECT_EQ(dump, "cf 0 ALU\n"
                   "  group 0\n"
                   "    0: __.x = DOT4_IEEE R1.x, R1.x\n"
                   "    1: __.y = DOT4_IEEE R1.y, R1.y\n"
                   "    2: __.z = DOT4_IEEE R1.z, R1.z\n"
                   "    3: __.w = DOT4_IEEE R1.w, R1.w\n"
                   "  group 1\n"
                   "    4: R2.y = MOV @0\n"
                   "cf 1 EXPORT_DONE\n");
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(0, 30, 0, 0));
}

TEST(SbReadPorts, FourRegistersOnOneChannelDoNotFit)
{
   /* Per cycle one register per channel, three cycles: R1..R4 .x cannot
    * all be read in one group. */
   std::vector<AluInstr> g = {alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(1, 0), src_gpr(2, 0)),
                              alu(AluOp::ADD, kSlotY, dst(5, 1), src_gpr(3, 0), src_gpr(4, 0))};
   EXPECT_FALSE(assign_bank_swizzles(kEg, g));
   std::vector<AluInstr> h = {alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(1, 0), src_gpr(2, 0)),
                              alu(AluOp::ADD, kSlotY, dst(5, 1), src_gpr(3, 0), src_gpr(1, 0))};
   ASSERT_TRUE(assign_bank_swizzles(kEg, h));
   Program p = program(kEg, {alu_clause({group(h)}), export_done(5)});
   Diagnostics d;
   ShaderInfo info = vs_info(kEg);
   EXPECT_TRUE(validate_program(p, info, d)) << d.str();
}

TEST(SbReadPorts, SchedulerSplitsWhatThePortsCannotServe)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(5, 0), src_gpr(1, 0),
                                                    src_gpr(2, 0))}),
                                          group({alu(AluOp::ADD, kSlotY, dst(5, 1), src_gpr(3, 0),
                                                     src_gpr(4, 0))})}),
                             export_done(5)});
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   EXPECT_EQ(num_groups(*out), 2u);
}

TEST(SbChecker, RejectsAReadMovedAboveItsProducer)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0),
                                                    one())}),
                                          group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(3, 0))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   AluClause &cl = sh.cf[0].alu;
   /* Put both nodes in one group by hand. */
   cl.groups[0].nodes.push_back(1);
   cl.groups[0].slots.push_back(kSlotY);
   cl.groups.pop_back();
   EXPECT_FALSE(sched_checker(sh, d));
   EXPECT_EQ(d.str(), "error: sb sched_checker: CF 0: node 1 reads before its producer 0\n");
}

TEST(SbChecker, RejectsAFoldedCopyWhoseRegisterIsNeverWritten)
{
   /* After the fold the ADD must write R2.x; send it elsewhere and the
    * exported register no longer holds the source order's value. */
   Program p = copy_of_local();
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   ASSERT_TRUE(post_scheduler(sh, d));
   ASSERT_TRUE(sched_checker(sh, d)) << d.str();
   sh.cf[0].alu.nodes[0].bc.dst.gpr = 7;
   EXPECT_FALSE(sched_checker(sh, d));
   EXPECT_EQ(d.str(), "error: sb sched_checker: CF 0: R2.x does not hold the source order's "
                      "value at the end of the clause\n");
}

TEST(SbChecker, RejectsTwoLiveValuesInOneRegister)
{
   /* The clause temporary of the first value reused for the MUL's result
    * while the last ADD still needs the first. */
   Program p = value_read_twice(kEg);
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   ASSERT_TRUE(post_scheduler(sh, d));
   AluClause &cl = sh.cf[0].alu;
   cl.nodes[1].bc.dst.gpr = 124;
   cl.nodes[2].src[1].value.sel = 124;
   EXPECT_FALSE(sched_checker(sh, d));
   EXPECT_EQ(d.str(), "error: sb sched_checker: CF 0: node 2 operand 0 reads a value other "
                      "than the source order's\n");
}

TEST(SbChecker, RejectsAPvReadOfAnOlderGroup)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotY, dst(5, 1), src_gpr(1, 0),
                                                    one())}),
                                          group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(5, 1),
                                                     src_gpr(1, 1))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   ASSERT_TRUE(post_scheduler(sh, d));
   AluClause &cl = sh.cf[0].alu;
   /* An empty group in between: PV no longer holds node 0. */
   ASSERT_EQ(cl.groups.size(), 2u);
   cl.groups.insert(cl.groups.begin() + 1, GroupNode{});
   EXPECT_FALSE(sched_checker(sh, d));
   EXPECT_EQ(d.str(), "error: sb sched_checker: CF 0: node 1 reads PV/PS of node 0, which is "
                      "not in the group before\n");
}

TEST(SbChecker, RejectsALostNode)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                                          group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   sh.cf[0].alu.groups.pop_back();
   EXPECT_FALSE(sched_checker(sh, d));
   EXPECT_EQ(d.str(), "error: sb sched_checker: CF 0: node 1 lost\n");
}

/* gpr_compaction closes the numbers nothing uses; a burst's registers move
 * as one run onto consecutive free numbers, past a pinned input. */
TEST(SbGprCompaction, BurstMovesAsOneRunPastPinnedRegisters)
{
   ShaderInfo info = vs_info(kEg);
   ShaderIo in3 = info.inputs[0];
   in3.gpr = 3;
   in3.tgsi_index = 1;
   info.inputs.push_back(in3);
   ShaderIo out1 = info.outputs[0];
   out1.gpr = 3;
   out1.tgsi_index = 1;
   out1.export_base = 1;
   info.outputs.push_back(out1);
   info.num_gprs = 16;

   std::vector<AluInstr> sums, products;
   for (unsigned c = 0; c < 4; c++) {
      sums.push_back(alu(AluOp::ADD, c, dst(5, c), src_gpr(1, c), src_gpr(9, 0)));
      products.push_back(alu(AluOp::MUL_IEEE, c, dst(6, c), src_gpr(3, c), src_gpr(1, c)));
   }
   CfInstr burst = export_done(5, 2, 0);
   burst.exp.burst_count = 2;
   Program p = program(kEg, {alu_clause({group({alu(AluOp::ADD, kSlotX, dst(9, 0),
                                                    src_gpr(1, 0), src_gpr(3, 0))}),
                                          group(sums), group(products)}),
                             burst});
   LiveSet entry;
   for (unsigned c = 0; c < 4; c++) {
      entry.set(1 * 4 + c);
      entry.set(3 * 4 + c);
   }
   Program out = p;
   ASSERT_TRUE(gpr_compaction(out, info, entry));
   /* R0, R1 and R3 keep their numbers; R5-R6 need two free numbers in a
    * row: R4-R5 (R2 alone is too short); R9 follows at R6. */
   EXPECT_EQ(out.cf[1].exp.gpr, 4);
   EXPECT_EQ(out.cf[1].exp.burst_count, 2);
   EXPECT_EQ(out.cf[0].groups[0].instrs[0].dst.gpr, 6);
   EXPECT_EQ(out.cf[0].groups[1].instrs[0].dst.gpr, 4);
   EXPECT_EQ(out.cf[0].groups[1].instrs[0].src[1].sel, 6u);
   EXPECT_EQ(out.cf[0].groups[2].instrs[3].dst.gpr, 5);
   EXPECT_EQ(out.cf[0].groups[2].instrs[3].src[0].sel, 3u);

   Diagnostics d;
   EXPECT_TRUE(validate_program(out, info, d)) << d.str();
   auto run = [&](const Program &prog) {
      Batch b = batch_of({vec4f(1, 2, 3, 4), vec4f(-1, 0.5f, 8, 9)});
      for (Lane &l : b.lanes) {
         l.inputs.resize(2);
         l.inputs[1] = vec4f(2, -3, 0.25f, 7);
         l.outputs.resize(2);
      }
      RunResult r = emulate(prog, info, {}, b, RunLimits{});
      EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
      std::vector<Vec4> o;
      for (const Lane &l : b.lanes)
         o.insert(o.end(), l.outputs.begin(), l.outputs.end());
      return o;
   };
   EXPECT_EQ(run(out), run(p));
   EXPECT_EQ(run(out)[1], vec4f(2, -6, 0.75f, 28));

   /* A pinned register inside the run pins the whole run. */
   info.inputs[1].gpr = 6;
   for (unsigned c = 0; c < 4; c++)
      entry.set(6 * 4 + c);
   Program pinned = p;
   ASSERT_TRUE(gpr_compaction(pinned, info, entry));
   EXPECT_EQ(pinned.cf[1].exp.gpr, 5);
}

/* GroupFit must say yes exactly when materialize_group_into does, for a
 * group filled one unit at a time as the post_scheduler fills it: random
 * groups (few registers, so read ports clash; literals, kcache or constant
 * file pairs and PV/PS reads of a previous group, so the other rules
 * trigger too), both answers compared after every candidate.  The complete
 * group that finish() builds from the fit's state must be the one
 * materialize_group_into builds (the scheduler emits finish()'s). */
void group_fit_agrees_with_materialize(ChipClass chip, uint32_t seed, unsigned min_no = 500)
{
   std::mt19937 rng(seed);
   auto range = [&](unsigned n) { return unsigned(rng() % n); };
   const AluOp ops[] = {AluOp::ADD, AluOp::MUL, AluOp::MOV, AluOp::MULADD, AluOp::RECIP_IEEE};
   unsigned yes = 0, no = 0, with_prev = 0, finished = 0;
   for (unsigned trial = 0; trial < 5000; trial++) {
      AluClause cl;
      const unsigned nprev = range(5);
      auto add_node = [&](bool prev_ok) {
         AluNode n;
         n.id = uint32_t(cl.nodes.size());
         n.bc.op = ops[range(5)];
         n.bc.dst.gpr = uint8_t(range(6));
         n.bc.dst.chan = uint8_t(range(4));
         n.bc.dst.write = range(8) != 0;
         for (unsigned s = 0; s < alu_op_info(n.bc.op).num_src; s++) {
            Value &v = n.src[s].value;
            const unsigned kind = range(10);
            if (kind < 5) {
               v.kind = ValueKind::Gpr;
               v.sel = uint16_t(range(6));
               v.chan = uint8_t(range(4));
            } else if (kind == 5) {
               v.kind = ValueKind::Inline;
               v.sel = uint16_t(range(2) ? kSrc_1 : kSrc_0_5);
            } else if (kind == 6) {
               v.kind = ValueKind::Literal;
               v.bits = 1 + range(6);
            } else if (kind == 7 && chip != ChipClass::Evergreen) {
               v.kind = ValueKind::ConstFile;
               v.sel = uint16_t(kSrcCFILEFirst + range(4));
               v.chan = uint8_t(range(4));
            } else if (kind == 8 && prev_ok) {
               v.kind = ValueKind::Forward;
               v.node = int32_t(range(nprev));
            } else {
               v.kind = ValueKind::KCache;
               v.sel = uint16_t(kSrcKCACHE0First + range(4));
               v.chan = uint8_t(range(4));
            }
            n.src[s].neg = range(4) == 0;
         }
         cl.nodes.push_back(n);
      };
      auto slots_perm = [&]() {
         std::vector<uint8_t> sl = {kSlotX, kSlotY, kSlotZ, kSlotW, kSlotT};
         std::shuffle(sl.begin(), sl.end(), rng);
         return sl;
      };
      GroupNode prev_nodes;
      std::vector<uint8_t> psl = slots_perm();
      for (unsigned k = 0; k < nprev; k++) {
         add_node(false);
         prev_nodes.nodes.push_back(uint32_t(k));
         prev_nodes.slots.push_back(psl[k]);
      }
      std::optional<AluGroup> prev;
      if (nprev)
         prev = materialize_group(chip, cl, prev_nodes.nodes, prev_nodes.slots, nullptr);
      with_prev += prev.has_value();
      const unsigned m = 1 + range(5);
      std::vector<uint8_t> sl = slots_perm();
      for (unsigned k = 0; k < m; k++)
         add_node(prev.has_value());
      GroupFit fit;
      fit.start(chip, prev ? &*prev : nullptr, prev ? &prev_nodes : nullptr);
      std::vector<uint32_t> nodes;
      std::vector<uint8_t> slots;
      AluGroup out;
      for (unsigned k = 0; k < m;) {
         /* Units of one or two nodes, as the scheduler's register swaps. */
         const unsigned unit = std::min(m - k, 1 + range(2));
         const size_t old = nodes.size();
         for (unsigned j = 0; j < unit; j++) {
            nodes.push_back(nprev + k + j);
            slots.push_back(sl[k + j]);
         }
         k += unit;
         const bool want = materialize_group_into(chip, cl, nodes, slots, prev ? &*prev : nullptr,
                                                  prev ? &prev_nodes : nullptr, out);
         const bool got = fit.try_add(cl, nodes, slots, old);
         ASSERT_EQ(got, want) << "chip " << int(chip) << " trial " << trial << " size "
                              << nodes.size();
         (got ? yes : no)++;
         if (!got) {
            nodes.resize(old);
            slots.resize(old);
         }
      }
      AluGroup built;
      if (nodes.empty() || !fit.finish(cl, nodes, built))
         continue; /* fits only without PV/PS: the scheduler materializes it */
      ASSERT_TRUE(materialize_group_into(chip, cl, nodes, slots, prev ? &*prev : nullptr,
                                         prev ? &prev_nodes : nullptr, out));
      ASSERT_TRUE(built == out) << "chip " << int(chip) << " trial " << trial;
      finished++;
   }
   /* Both answers, previous groups and finished groups must be common for
    * this to test anything. */
   EXPECT_GT(yes, 1000u);
   EXPECT_GT(no, min_no);
   EXPECT_GT(with_prev, 1000u);
   EXPECT_GT(finished, 3000u);
}

TEST(SbGroupFit, AgreesWithMaterializeOnRandomGroupsEvergreen)
{
   group_fit_agrees_with_materialize(ChipClass::Evergreen, 12345);
}

TEST(SbGroupFit, AgreesWithMaterializeOnRandomGroupsR700)
{
   group_fit_agrees_with_materialize(ChipClass::R700, 54321);
}

TEST(SbGroupFit, AgreesWithMaterializeOnRandomGroupsR600)
{
   /* Far fewer of these random groups break a rule on R600 (132 with
    * this seed), so the bar for rejections is lower. */
   group_fit_agrees_with_materialize(ChipClass::R600, 24680, 100);
}

} // namespace
