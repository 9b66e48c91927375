/*
 * Merged shaders compute bit-identical outputs in the reference
 * interpreter: generated long loops and random structured programs (vertex
 * and fragment, the latter with derivatives, texturing and KILL_IF inside
 * branches).
 */
#include <string>

#include <gtest/gtest.h>

#include "lifetimes_test_util.h"
#include "merge_equivalence.h"
#include "merge_test_shaders.h"
#include "tgsi/tgsi_merge_temps.h"

using namespace sbcc;
using namespace sbcc::tgsi;
using namespace sbcc::tgsi::test;

namespace {

void expect_equivalent_after_merge(const std::string &text, uint32_t seed, MergeStats *out = nullptr)
{
   Shader original = parse_or_fail(text);
   Shader merged = original;
   Diagnostics diags;
   MergeStats stats;
   ASSERT_TRUE(merge_temps(merged, &diags, &stats)) << diags.str();
   EXPECT_EQ(compare_in_interpreter(original, merged, seed), "") << text;
   if (out)
      *out = stats;
}

TEST(TgsiMergeEquivalence, TwoThousandTempLoop)
{
   MergeStats stats;
   expect_equivalent_after_merge(make_loop_shader(2000, 1234, 40), 7, &stats);
   EXPECT_EQ(stats.temps_before, 2001);
   EXPECT_LT(stats.temps_after, 100);
}

TEST(TgsiMergeEquivalence, DerivativeInBranchSeesOnlyItsOwnRegister)
{
   /* Without a register of its own TEMP[1] would share TEMP[0]'s, and the
    * DDX in a lane whose right neighbour skipped the IF would subtract
    * TEMP[0]'s value instead of the initial zero. */
   MergeStats stats;
   expect_equivalent_after_merge("FRAG\n"
                                 "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                 "DCL OUT[0..1], GENERIC[0]\n"
                                 "DCL TEMP[0..1]\n"
                                 "  0: MOV TEMP[0], IN[0].yyyy\n"
                                 "  1: MOV OUT[1], TEMP[0]\n"
                                 "  2: IF IN[0].xxxx\n"
                                 "  3:   MOV TEMP[1], IN[0]\n"
                                 "  4:   DDX OUT[0], TEMP[1]\n"
                                 "  5: ENDIF\n"
                                 "  6: END\n",
                                 99, &stats);
   EXPECT_EQ(stats.temps_after, 2);
}

TEST(TgsiMergeEquivalence, ScalarsOfEveryOpcodeKind)
{
   /* Single-channel results of component-wise, replicating and per-channel
    * (TEX, LIT, EXP, DST) opcodes, packed where allowed. */
   MergeStats stats;
   expect_equivalent_after_merge("FRAG\n"
                                 "DCL IN[0..1], GENERIC[0], PERSPECTIVE\n"
                                 "DCL OUT[0..1], GENERIC[0]\n"
                                 "DCL SAMP[0]\n"
                                 "DCL SVIEW[0], 2D, FLOAT\n"
                                 "DCL TEMP[0..9]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: ADD TEMP[1].x, IN[0].yyyy, IN[1].zzzz\n"
                                 "  2: MUL TEMP[2].x, IN[1].xyzw, TEMP[1].xxxx\n"
                                 "  3: RCP TEMP[3].x, TEMP[2].xxxx\n"
                                 "  4: TEX TEMP[4].y, TEMP[0], SAMP[0], 2D\n"
                                 "  5: LIT TEMP[5].z, IN[1]\n"
                                 "  6: EXP TEMP[6].y, IN[1].wwww\n"
                                 "  7: DST TEMP[7].w, IN[0], IN[1]\n"
                                 "  8: DP3 TEMP[8].x, TEMP[0], IN[1]\n"
                                 "  9: MAD TEMP[9], TEMP[0], TEMP[1].xxxx, TEMP[2].xxxx\n"
                                 " 10: MAD TEMP[9], TEMP[9], TEMP[3].xxxx, TEMP[4].yyyy\n"
                                 " 11: MAD TEMP[9], TEMP[9], TEMP[5].zzzz, TEMP[6].yyyy\n"
                                 " 12: MAD OUT[0], TEMP[9], TEMP[7].wwww, TEMP[8].xxxx\n"
                                 " 13: MOV OUT[1], TEMP[9]\n"
                                 " 14: END\n",
                                 5, &stats);
   EXPECT_LT(stats.temps_after, 10);
   EXPECT_GT(stats.channels_moved, 0);
}

TEST(TgsiMergeEquivalence, TexelFetchReadsEveryCoordinateChannel)
{
   /* The texture model checks TXF's z against a 2D texture's depth, so the
    * never-written TEMP[0].z must still read zero after merging. */
   expect_equivalent_after_merge("FRAG\n"
                                 "DCL IN[0..1], GENERIC[0], PERSPECTIVE\n"
                                 "DCL OUT[0..1], GENERIC[0]\n"
                                 "DCL SAMP[0]\n"
                                 "DCL SVIEW[0], 2D, FLOAT\n"
                                 "DCL TEMP[0..2]\n"
                                 "IMM[0] FLT32 {    0.0000,     4.0000,     1.0000,     3.0000}\n"
                                 "  0: MOV TEMP[1], IN[1]\n"
                                 "  1: MOV OUT[1], TEMP[1]\n"
                                 "  2: MUL TEMP[0].xy, IN[0], IMM[0].yyyy\n"
                                 "  3: F2I TEMP[0].xy, |TEMP[0]|\n"
                                 "  4: MOV TEMP[0].w, IMM[0].xxxx\n"
                                 "  5: TXF TEMP[2], TEMP[0], SAMP[0], 2D\n"
                                 "  6: MOV OUT[0], TEMP[2]\n"
                                 "  7: END\n",
                                 31);
}

TEST(TgsiMergeEquivalence, KilledLanesKeepTheValueTheirNeighboursDifferentiate)
{
   /* TEMP[2] is split (its two values share TEMP[3]'s register).  TEMP[0]
    * must not be: a lane killed at 2 never runs the write at 3, so its
    * register still holds the first value, which the DDX of a live
    * neighbour reads. */
   MergeStats stats;
   expect_equivalent_after_merge("FRAG\n"
                                 "DCL IN[0..1], GENERIC[0], PERSPECTIVE\n"
                                 "DCL OUT[0..3], GENERIC[0]\n"
                                 "DCL TEMP[0..3]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: MOV OUT[1], TEMP[0]\n"
                                 "  2: KILL_IF IN[1].xxxx\n"
                                 "  3: MOV TEMP[0], IN[1]\n"
                                 "  4: DDX OUT[0], TEMP[0]\n"
                                 "  5: MOV TEMP[2], IN[0]\n"
                                 "  6: MOV OUT[2], TEMP[2]\n"
                                 "  7: ADD TEMP[3], IN[0], IN[1]\n"
                                 "  8: MUL TEMP[3], TEMP[3], TEMP[3]\n"
                                 "  9: MOV OUT[3], TEMP[3]\n"
                                 " 10: MOV TEMP[2], IN[1]\n"
                                 " 11: ADD OUT[2], TEMP[2], IN[0]\n"
                                 " 12: END\n",
                                 77, &stats);
   EXPECT_TRUE(stats.webs_split);
   EXPECT_EQ(stats.temps_after, 2);
}

TEST(TgsiMergeEquivalence, RandomVertexPrograms)
{
   int total_before = 0, total_after = 0;
   for (uint32_t seed = 1; seed <= 150; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      MergeStats stats;
      expect_equivalent_after_merge(RandomShader(seed, 64, 40, false).text(), seed, &stats);
      total_before += stats.temps_before;
      total_after += stats.temps_after;
      if (HasFailure())
         break;
   }
   /* Merging must actually happen for the check to mean anything. */
   EXPECT_LT(total_after * 3, total_before * 2) << total_after << " of " << total_before;
}

TEST(TgsiMergeEquivalence, RandomFragmentPrograms)
{
   int total_before = 0, total_after = 0;
   for (uint32_t seed = 1000; seed < 1150; seed++) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      MergeStats stats;
      expect_equivalent_after_merge(RandomShader(seed, 64, 40, true).text(), seed, &stats);
      total_before += stats.temps_before;
      total_after += stats.temps_after;
      if (HasFailure())
         break;
   }
   EXPECT_LT(total_after * 3, total_before * 2) << total_after << " of " << total_before;
}

} // namespace
