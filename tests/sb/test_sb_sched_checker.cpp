/*
 * sched_checker's placement rules, each broken by hand on a parsed
 * clause: a node moved before a fixed group, a vector-capable op in trans
 * with its vector slot free, and which fault is reported when a clause has
 * two (a lost node before a crossed barrier, whatever their order).
 */
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;

/* Four one-node groups, each a MOV into its own register; the second
 * group is made fixed. */
Shader four_groups_second_fixed()
{
   auto mov = [](unsigned slot, unsigned reg) {
      return group({alu(AluOp::MOV, slot, dst(reg, slot), src_gpr(1, slot))});
   };
   Program p = program(kEg, {alu_clause({mov(kSlotX, 2), mov(kSlotY, 3), mov(kSlotZ, 4),
                                          mov(kSlotW, 5)}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   EXPECT_TRUE(bc_parser(p, sh, d)) << d.str();
   EXPECT_EQ(sh.cf[0].alu.groups.size(), 4u);
   sh.cf[0].alu.groups[1].fixed = true;
   return sh;
}

/* Places `node` in `slot` of group `gi` as well (it stays in its own group
 * until the caller drops that). */
void add_to_group(AluClause &cl, unsigned gi, uint32_t node, uint8_t slot)
{
   cl.groups[gi].nodes.push_back(node);
   cl.groups[gi].slots.push_back(slot);
}

/* What sched_checker reports; empty when it accepts the shader. */
std::string checker_errors(const Shader &sh)
{
   Diagnostics d;
   const bool ok = sched_checker(sh, d);
   EXPECT_EQ(ok, d.str().empty());
   return d.str();
}

TEST(SbCheckerPlacement, AcceptsTheSourceLayout)
{
   Shader sh = four_groups_second_fixed();
   EXPECT_EQ(checker_errors(sh), "");
}

TEST(SbCheckerPlacement, RejectsANodeMovedBeforeAFixedGroup)
{
   Shader sh = four_groups_second_fixed();
   AluClause &cl = sh.cf[0].alu;
   /* Node 2 joins node 0's group, above the fixed group. */
   add_to_group(cl, 0, 2, kSlotZ);
   cl.groups.erase(cl.groups.begin() + 2);
   EXPECT_EQ(checker_errors(sh),
             "error: sb sched_checker: CF 0: node 2 moved before a fixed group\n");
}

TEST(SbCheckerPlacement, ReportsALostNodeBeforeACrossedBarrier)
{
   /* Node 2 crosses the fixed group and node 3, later in program order,
    * is lost: the lost node is reported. */
   Shader sh = four_groups_second_fixed();
   AluClause &cl = sh.cf[0].alu;
   add_to_group(cl, 0, 2, kSlotZ);
   cl.groups.erase(cl.groups.begin() + 2, cl.groups.end());
   EXPECT_EQ(checker_errors(sh), "error: sb sched_checker: CF 0: node 3 lost\n");
}

TEST(SbCheckerPlacement, RejectsAVectorOpInTransWithItsSlotFree)
{
   Shader sh = four_groups_second_fixed();
   /* Node 2 writes .z: in trans, the decoder would need slot z taken. */
   sh.cf[0].alu.groups[2].slots[0] = kSlotT;
   EXPECT_EQ(checker_errors(sh),
             "error: sb sched_checker: CF 0: node 2 in trans with its vector slot free\n");
}

TEST(SbCheckerPlacement, AcceptsAVectorOpInTransBesideItsSlot)
{
   Shader sh = four_groups_second_fixed();
   AluClause &cl = sh.cf[0].alu;
   /* Node 3 (.w) in trans of a group whose w slot node 2 takes is
    * legal placement; both read R1 and write registers nothing else reads. */
   cl.nodes[2].bc.dst.chan = 3;
   cl.nodes[2].bc.dst.gpr = 6;
   cl.groups[2].slots[0] = kSlotW;
   add_to_group(cl, 2, 3, kSlotT);
   cl.groups.pop_back();
   EXPECT_EQ(checker_errors(sh), "");
}

} // namespace
