/*
 * RegSet: conflict helpers against the independent unit models, exact p/q
 * tables for the vc4-, r300- and x86-like targets, and misuse diagnostics.
 */
#include <gtest/gtest.h>

#include "ra_targets.h"

using namespace sbcc::ra;
using namespace ra_test;

static void
expect_conflicts_match_model(const Target &t)
{
   const unsigned n = t.regs->num_regs();
   ASSERT_EQ(n, t.model.units.size());
   for (unsigned a = 0; a < n; a++)
      for (unsigned b = 0; b < n; b++)
         ASSERT_EQ(t.regs->conflicts(a, b), t.model.conflicts(a, b))
            << t.regs->reg_name(a) << " vs " << t.regs->reg_name(b);
}

TEST(RaRegSet, Vc4ConflictsAndPQ)
{
   Target t = make_vc4();
   ASSERT_TRUE(t.regs->finalized());
   expect_conflicts_match_model(t);
   EXPECT_EQ(t.regs->p(kVc4Any), 68u);
   EXPECT_EQ(t.regs->p(kVc4AOrR4), 33u);
   EXPECT_EQ(t.regs->p(kVc4AOnly), 32u);
   EXPECT_EQ(t.regs->p(kVc4AnyThreaded), 36u);
   EXPECT_EQ(t.regs->p(kVc4AOnlyThreaded), 16u);
   /* No aliasing: any register blocks at most itself. */
   for (unsigned b = 0; b < 5; b++)
      for (unsigned c = 0; c < 5; c++)
         EXPECT_EQ(t.regs->q(b, c), 1u) << b << "," << c;
   /* r4 is not in "any", so r4 blocks no register of it. */
   EXPECT_EQ(t.regs->reg_class_conflicts(kVc4Acc + 4, kVc4Any), 0u);
   EXPECT_EQ(t.regs->reg_class_conflicts(kVc4Acc + 4, kVc4AOrR4), 1u);
   EXPECT_EQ(t.regs->reg_class_conflicts(kVc4B + 20, kVc4AnyThreaded), 0u);
   EXPECT_EQ(t.regs->reg_name(kVc4B + 3), "rb3");
   EXPECT_EQ(t.regs->class_name(kVc4AOrR4), "a_or_r4");
   EXPECT_EQ(t.regs->class_regs(kVc4AOrR4)[0], kVc4Acc + 4);
}

TEST(RaRegSet, R300ChannelAliasingPQ)
{
   Target t = make_r300(2);
   ASSERT_TRUE(t.regs->finalized());
   expect_conflicts_match_model(t);
   EXPECT_EQ(t.regs->p(kR300Single), 8u);
   EXPECT_EQ(t.regs->p(kR300Vec2), 12u);
   EXPECT_EQ(t.regs->p(kR300Vec3), 8u);
   EXPECT_EQ(t.regs->p(kR300Vec4), 2u);
   /* q(B, C): how many B placements one C placement can overlap. */
   const unsigned expected[4][4] = {
      {1, 2, 3, 4}, /* single: a C write covers that many channels */
      {3, 5, 6, 6}, /* vec2: pairs touching x; pairs touching xy; all */
      {3, 4, 4, 4}, /* vec3: triples with x; every triple meets a pair */
      {1, 1, 1, 1}, /* vec4: only the one temp */
   };
   for (unsigned b = 0; b < 4; b++)
      for (unsigned c = 0; c < 4; c++)
         EXPECT_EQ(t.regs->q(b, c), expected[b][c]) << b << "," << c;
   EXPECT_EQ(t.regs->reg_class_conflicts(r300_reg(1, 0x3), kR300Single), 2u);
   EXPECT_EQ(t.regs->reg_class_conflicts(r300_reg(1, 0x3), kR300Vec4), 1u);
   EXPECT_FALSE(t.regs->conflicts(r300_reg(0, 0x3), r300_reg(0, 0xc)));
   EXPECT_TRUE(t.regs->conflicts(r300_reg(0, 0x3), r300_reg(0, 0x6)));
   EXPECT_FALSE(t.regs->conflicts(r300_reg(0, 0xf), r300_reg(1, 0xf)));
}

TEST(RaRegSet, X86SubRegisterAliasingPQ)
{
   Target t = make_x86();
   ASSERT_TRUE(t.regs->finalized());
   expect_conflicts_match_model(t);
   EXPECT_EQ(t.regs->p(kX86R32), 6u);
   EXPECT_EQ(t.regs->p(kX86R16), 6u);
   EXPECT_EQ(t.regs->p(kX86R8), 8u);
   /* eax takes both al and ah; al takes only eax. */
   EXPECT_EQ(t.regs->q(kX86R8, kX86R32), 2u);
   EXPECT_EQ(t.regs->q(kX86R8, kX86R16), 2u);
   EXPECT_EQ(t.regs->q(kX86R8, kX86R8), 1u);
   EXPECT_EQ(t.regs->q(kX86R32, kX86R8), 1u);
   EXPECT_EQ(t.regs->q(kX86R16, kX86R32), 1u);
   EXPECT_EQ(t.regs->q(kX86R32, kX86R16), 1u);
   EXPECT_TRUE(t.regs->conflicts(x86_e(0), x86_x(0)));
   EXPECT_TRUE(t.regs->conflicts(x86_l(0), x86_e(0)));
   EXPECT_FALSE(t.regs->conflicts(x86_l(0), x86_h(0)));
   EXPECT_FALSE(t.regs->conflicts(x86_e(4), x86_x(0)));
   EXPECT_EQ(t.regs->reg_name(x86_e(4)), "esi");
   EXPECT_EQ(t.regs->reg_name(x86_h(2)), "ch");
}

TEST(RaRegSet, TransitiveHelpers)
{
   /* Registers 0..3 are units; 4 = {0,1}, 5 = {1,2}, 6 = {2,3}, 7 = {0..3}. */
   RegSet rs(8);
   rs.add_composite(4, std::vector<unsigned>{0, 1});
   rs.add_composite(5, std::vector<unsigned>{1, 2});
   rs.add_composite(6, std::vector<unsigned>{2, 3});
   rs.add_composite(7, std::vector<unsigned>{0, 1, 2, 3});
   const bool expected[8][8] = {
      {1, 0, 0, 0, 1, 0, 0, 1}, {0, 1, 0, 0, 1, 1, 0, 1},
      {0, 0, 1, 0, 0, 1, 1, 1}, {0, 0, 0, 1, 0, 0, 1, 1},
      {1, 1, 0, 0, 1, 1, 0, 1}, {0, 1, 1, 0, 1, 1, 1, 1},
      {0, 0, 1, 1, 0, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1},
   };
   for (unsigned a = 0; a < 8; a++)
      for (unsigned b = 0; b < 8; b++)
         EXPECT_EQ(rs.conflicts(a, b), expected[a][b]) << a << "," << b;

   /* make_conflicts_transitive on a unit joins everything covering it. */
   RegSet m(4);
   m.add_conflict(0, 1);
   m.add_conflict(0, 2);
   EXPECT_FALSE(m.conflicts(1, 2));
   m.make_conflicts_transitive(0);
   EXPECT_TRUE(m.conflicts(1, 2));
   EXPECT_FALSE(m.conflicts(1, 3));
}

TEST(RaRegSet, ClassesKeepInsertionOrderAndDeduplicate)
{
   RegSet rs(10);
   unsigned c = rs.add_class("pref");
   rs.add_reg_to_class(c, 7);
   rs.add_range_to_class(c, 0, 3, 2); /* 0, 2, 4 */
   rs.add_reg_to_class(c, 2);
   ASSERT_TRUE(rs.finalize());
   std::vector<unsigned> regs(rs.class_regs(c).begin(), rs.class_regs(c).end());
   EXPECT_EQ(regs, (std::vector<unsigned>{7, 0, 2, 4}));
   EXPECT_EQ(rs.p(c), 4u);
   EXPECT_TRUE(rs.class_contains(c, 4));
   EXPECT_FALSE(rs.class_contains(c, 5));
}

TEST(RaRegSet, MisuseIsReportedNotFatal)
{
   sbcc::Diagnostics d;
   RegSet rs(8, &d);
   EXPECT_FALSE(rs.add_conflict(9, 1));
   EXPECT_FALSE(rs.add_reg_to_class(0, 1));
   unsigned c = rs.add_class("c");
   EXPECT_FALSE(rs.add_range_to_class(c, 6, 3));
   EXPECT_FALSE(rs.add_range_to_class(c, 0, 2, 0));
   unsigned empty = rs.add_class("empty");
   (void)empty;
   EXPECT_FALSE(rs.finalize());
   EXPECT_FALSE(rs.finalized());
   EXPECT_EQ(d.str(),
             "ra: error: add_conflict: register 9 out of range (8 registers)\n"
             "ra: error: add_reg_to_class: class 0 out of range (0 classes)\n"
             "ra: error: add_range_to_class: range 6 + 3 x 1 does not fit in 8 registers\n"
             "ra: error: add_range_to_class: range 0 + 2 x 0 does not fit in 8 registers\n"
             "ra: error: finalize: class 'c' has no registers\n"
             "ra: error: finalize: class 'empty' has no registers\n");

   d.clear();
   RegSet ok(4, &d);
   unsigned k = ok.add_class("k");
   ok.add_range_to_class(k, 0, 4);
   ASSERT_TRUE(ok.finalize());
   EXPECT_FALSE(ok.add_conflict(0, 1));
   EXPECT_EQ(ok.add_class("late"), kNoReg);
   EXPECT_FALSE(ok.conflicts(0, 1));
   EXPECT_EQ(d.str(), "ra: error: add_conflict: register set is already finalized\n"
                      "ra: error: add_class: register set is already finalized\n");

   d.clear();
   RegSet huge(RegSet::kMaxRegs + 1, &d);
   EXPECT_EQ(huge.num_regs(), 0u);
   EXPECT_EQ(d.str(), "ra: error: register set of 16385 registers exceeds the limit of 16384\n");
}
