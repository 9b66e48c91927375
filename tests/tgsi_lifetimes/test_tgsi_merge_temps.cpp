/*
 * merge_temps: exact rewritten shaders for small cases, register counts for
 * generated loops, and the cases that must be left alone.  Whether merged
 * shaders compute the same values is checked against the reference
 * interpreter in test_merge_equivalence.cpp.
 */
#include <string>

#include <gtest/gtest.h>

#include "lifetimes_test_util.h"
#include "merge_test_shaders.h"
#include "tgsi/tgsi_merge_temps.h"

using namespace sbcc;
using namespace sbcc::tgsi;
using namespace sbcc::tgsi::test;

namespace {

/* Compares through the printer, so the expectation can be written as
 * ordinary TGSI text. */
void expect_merged(const std::string &original, const std::string &expected, int before,
                   int after, bool pack = false, int moved = 0, bool split = false)
{
   Shader s = parse_or_fail(original);
   Diagnostics diags;
   MergeStats stats;
   MergeOptions options;
   options.pack_channels = pack;
   options.split_webs = split;
   ASSERT_TRUE(merge_temps(s, &diags, &stats, options)) << diags.str();
   EXPECT_EQ(stats.channels_moved, moved);
   EXPECT_EQ(stats.webs_split, split);
   EXPECT_EQ(diags.str(), "");
   EXPECT_EQ(stats.temps_before, before);
   EXPECT_EQ(stats.temps_after, after);
   EXPECT_STREQ(stats.skipped, "");
   EXPECT_EQ(print_tgsi(s), print_tgsi(parse_or_fail(expected)));
}

TEST(TgsiMergeTemps, StraightLine)
{
   expect_merged("VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0], POSITION\n"
                 "DCL TEMP[0..4]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: ADD TEMP[1], TEMP[0], IN[0]\n"
                 "  2: MUL TEMP[2], TEMP[1], TEMP[0]\n"
                 "  3: MOV TEMP[3].x, TEMP[2].xxxx\n"
                 "  4: MOV OUT[0], TEMP[2]\n"
                 "  5: END\n",
                 "VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0], POSITION\n"
                 "DCL TEMP[0..1]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: ADD TEMP[1], TEMP[0], IN[0]\n"
                 "  2: MUL TEMP[0], TEMP[1], TEMP[0]\n"
                 "  3: MOV TEMP[1].x, TEMP[0].xxxx\n"
                 "  4: MOV OUT[0], TEMP[0]\n"
                 "  5: END\n",
                 5, 2);
}

const char *kScalarTemps = "VERT\n"
                           "DCL IN[0]\n"
                           "DCL OUT[0]\n"
                           "DCL TEMP[0..5]\n"
                           "  0: MOV TEMP[0], IN[0]\n"
                           "  1: ADD TEMP[1].x, IN[0].yyyy, IN[0].zzzz\n"
                           "  2: MUL TEMP[2].x, IN[0].xyzw, TEMP[1].xxxx\n"
                           "  3: RCP TEMP[3].x, TEMP[2].xxxx\n"
                           "  4: LIT TEMP[4].y, TEMP[0]\n"
                           "  5: MAD TEMP[5], TEMP[0], TEMP[1].xxxx, TEMP[2].xxxx\n"
                           "  6: MAD TEMP[5], TEMP[5], TEMP[3].xxxx, TEMP[4].yyyy\n"
                           "  7: MOV OUT[0], TEMP[5]\n"
                           "  8: END\n";

TEST(TgsiMergeTemps, PackingMovesScalarsIntoFreeChannels)
{
   /* TEMP[2] (component-wise MUL: the IN[0] swizzle moves along) and
    * TEMP[3] (RCP replicates: only the mask changes) go to free channels of
    * TEMP[1]'s register; TEMP[4] is written by LIT, whose channels mean
    * different things, so it stays in .y and needs a register of its own. */
   expect_merged(kScalarTemps,
                 "VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0..2]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: ADD TEMP[1].x, IN[0].yyyy, IN[0].zzzz\n"
                 "  2: MUL TEMP[1].y, IN[0].xxzw, TEMP[1].xxxx\n"
                 "  3: RCP TEMP[1].z, TEMP[1].yyyy\n"
                 "  4: LIT TEMP[2].y, TEMP[0]\n"
                 "  5: MAD TEMP[0], TEMP[0], TEMP[1].xxxx, TEMP[1].yyyy\n"
                 "  6: MAD TEMP[0], TEMP[0], TEMP[1].zzzz, TEMP[2].yyyy\n"
                 "  7: MOV OUT[0], TEMP[0]\n"
                 "  8: END\n",
                 6, 3, true, 2);
}

TEST(TgsiMergeTemps, PackingMovesTwoChannelTemps)
{
   /* TEMP[1].xy goes to the free .zw of TEMP[0]'s register: the ADD's
    * source swizzles move with its destination channels. */
   expect_merged("VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0..2]\n"
                 "  0: MOV TEMP[0].xy, IN[0]\n"
                 "  1: ADD TEMP[1].xy, IN[0].zwzw, IN[0]\n"
                 "  2: MUL TEMP[2], TEMP[0].xyxy, TEMP[1].xyxy\n"
                 "  3: MOV OUT[0], TEMP[2]\n"
                 "  4: END\n",
                 "VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0]\n"
                 "  0: MOV TEMP[0].xy, IN[0]\n"
                 "  1: ADD TEMP[0].zw, IN[0].zwzw, IN[0].xyxy\n"
                 "  2: MUL TEMP[0], TEMP[0].xyxy, TEMP[0].zwzw\n"
                 "  3: MOV OUT[0], TEMP[0]\n"
                 "  4: END\n",
                 3, 1, true, 1);
}

const char *kReusedTemp = "VERT\n"
                          "DCL IN[0..1]\n"
                          "DCL OUT[0..2]\n"
                          "DCL TEMP[0..1]\n"
                          "  0: MOV TEMP[0], IN[0]\n"
                          "  1: MOV OUT[0], TEMP[0]\n"
                          "  2: ADD TEMP[1], IN[0], IN[1]\n"
                          "  3: MUL TEMP[1], TEMP[1], TEMP[1]\n"
                          "  4: MOV OUT[1], TEMP[1]\n"
                          "  5: MOV TEMP[0], IN[1]\n"
                          "  6: ADD OUT[2], TEMP[0], IN[0]\n"
                          "  7: END\n";

TEST(TgsiMergeTemps, SplittingWebsFreesTheGapBetweenValues)
{
   /* TEMP[0] holds two unrelated values; the top-level full write at 5
    * starts a new one, so TEMP[1] fits in the gap. */
   expect_merged(kReusedTemp,
                 "VERT\n"
                 "DCL IN[0..1]\n"
                 "DCL OUT[0..2]\n"
                 "DCL TEMP[0]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: MOV OUT[0], TEMP[0]\n"
                 "  2: ADD TEMP[0], IN[0], IN[1]\n"
                 "  3: MUL TEMP[0], TEMP[0], TEMP[0]\n"
                 "  4: MOV OUT[1], TEMP[0]\n"
                 "  5: MOV TEMP[0], IN[1]\n"
                 "  6: ADD OUT[2], TEMP[0], IN[0]\n"
                 "  7: END\n",
                 2, 1, true, 0, true);
}

TEST(TgsiMergeTemps, WithoutSplittingAReusedTempKeepsItsHull)
{
   Shader s = parse_or_fail(kReusedTemp);
   MergeStats stats;
   MergeOptions options;
   options.split_webs = false;
   ASSERT_TRUE(merge_temps(s, nullptr, &stats, options));
   EXPECT_EQ(stats.temps_after, 2);
   EXPECT_FALSE(stats.webs_split);
}

TEST(TgsiMergeTemps, WithoutPackingScalarsTakeWholeRegisters)
{
   Shader s = parse_or_fail(kScalarTemps);
   MergeStats stats;
   MergeOptions options;
   options.pack_channels = false;
   ASSERT_TRUE(merge_temps(s, nullptr, &stats, options));
   EXPECT_EQ(stats.temps_after, 5);
   EXPECT_EQ(stats.channels_moved, 0);
}

TEST(TgsiMergeTemps, UndefinedReadKeepsInitialContents)
{
   /* TEMP[1] is read unwritten: it gets a register nothing wrote before,
    * and TEMP[0], first written by the reading instruction, may share it. */
   expect_merged("VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0..2]\n"
                 "  0: ADD TEMP[0], TEMP[1], IN[0]\n"
                 "  1: MOV TEMP[2].x, TEMP[0].xxxx\n"
                 "  2: ADD OUT[0], TEMP[2].xxxx, TEMP[2].yyyy\n"
                 "  3: END\n",
                 "VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0..1]\n"
                 "  0: ADD TEMP[0], TEMP[0], IN[0]\n"
                 "  1: MOV TEMP[1].x, TEMP[0].xxxx\n"
                 "  2: ADD OUT[0], TEMP[1].xxxx, TEMP[1].yyyy\n"
                 "  3: END\n",
                 3, 2);
}

TEST(TgsiMergeTemps, ArraysMoveAfterMergedTemps)
{
   expect_merged("VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0..1]\n"
                 "DCL TEMP[2..5], ARRAY(1)\n"
                 "DCL TEMP[6]\n"
                 "DCL TEMP[7..8], ARRAY(2)\n"
                 "DCL ADDR[0]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: ARL ADDR[0].x, IN[0].xxxx\n"
                 "  2: MOV TEMP[ADDR[0].x+2](1), TEMP[0]\n"
                 "  3: MOV TEMP[1], TEMP[ADDR[0].x+2](1)\n"
                 "  4: MOV TEMP[7], TEMP[3]\n"
                 "  5: MOV TEMP[6], TEMP[1]\n"
                 "  6: ADD OUT[0], TEMP[6], TEMP[8]\n"
                 "  7: END\n",
                 "VERT\n"
                 "DCL IN[0]\n"
                 "DCL OUT[0]\n"
                 "DCL TEMP[0]\n"
                 "DCL TEMP[1..4], ARRAY(1)\n"
                 "DCL TEMP[5..6], ARRAY(2)\n"
                 "DCL ADDR[0]\n"
                 "  0: MOV TEMP[0], IN[0]\n"
                 "  1: ARL ADDR[0].x, IN[0].xxxx\n"
                 "  2: MOV TEMP[ADDR[0].x+1](1), TEMP[0]\n"
                 "  3: MOV TEMP[0], TEMP[ADDR[0].x+1](1)\n"
                 "  4: MOV TEMP[5], TEMP[2]\n"
                 "  5: MOV TEMP[0], TEMP[0]\n"
                 "  6: ADD OUT[0], TEMP[0], TEMP[6]\n"
                 "  7: END\n",
                 9, 7);
}

TEST(TgsiMergeTemps, LoopWith200ShortLivedTempsNeedsTwo)
{
   std::string text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..200]\n"
                      "MOV TEMP[0], IN[0]\nBGNLOOP\n";
   for (int k = 1; k <= 200; k++) {
      text += "MUL TEMP[" + std::to_string(k) + "], TEMP[0], IN[0]\n";
      text += "ADD TEMP[0], TEMP[0], TEMP[" + std::to_string(k) + "]\n";
   }
   text += "IF IN[0].xxxx\nBRK\nENDIF\nENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";
   Shader s = parse_or_fail(text);
   MergeStats stats;
   ASSERT_TRUE(merge_temps(s, nullptr, &stats));
   EXPECT_EQ(stats.temps_before, 201);
   EXPECT_EQ(stats.temps_after, 2);
   EXPECT_TRUE(stats.changed);
   ASSERT_EQ(s.declarations.back().file, File::Temporary);
   EXPECT_EQ(s.declarations.back().first, 0);
   EXPECT_EQ(s.declarations.back().last, 1);
   /* The accumulator keeps register 0; every short-lived one becomes 1. */
   EXPECT_EQ(s.instructions[2].dst[0].index.value, 1);
   EXPECT_EQ(s.instructions[3].src[0].index.value, 0);
   EXPECT_EQ(s.instructions[3].src[1].index.value, 1);
   EXPECT_EQ(s.instructions[399].src[1].index.value, 1);
}

TEST(TgsiMergeTemps, TwoThousandTempsInALoopFitUnder100)
{
   Shader s = parse_or_fail(make_loop_shader(2000, 1234, 40));
   MergeStats stats;
   Diagnostics diags;
   ASSERT_TRUE(merge_temps(s, &diags, &stats)) << diags.str();
   EXPECT_EQ(stats.temps_before, 2001);
   /* The 40-deep live window plus the loop's bookkeeping; the colouring is
    * deterministic, so the exact count is pinned. */
   EXPECT_EQ(stats.temps_after, 44);
   /* Merging again finds nothing more to do. */
   MergeStats again;
   ASSERT_TRUE(merge_temps(s, &diags, &again));
   EXPECT_EQ(again.temps_after, stats.temps_after);
}

TEST(TgsiMergeTemps, IndirectWithoutArrayIsLeftAlone)
{
   const std::string text = "VERT\n"
                            "DCL IN[0]\n"
                            "DCL OUT[0]\n"
                            "DCL TEMP[0..2]\n"
                            "DCL ADDR[0]\n"
                            "  0: MOV TEMP[0], IN[0]\n"
                            "  1: ARL ADDR[0].x, IN[0].xxxx\n"
                            "  2: MOV TEMP[2], TEMP[ADDR[0].x]\n"
                            "  3: MOV OUT[0], TEMP[2]\n"
                            "  4: END\n";
   Shader s = parse_or_fail(text);
   MergeStats stats;
   ASSERT_TRUE(merge_temps(s, nullptr, &stats));
   EXPECT_STREQ(stats.skipped, "indirect");
   EXPECT_FALSE(stats.changed);
   EXPECT_EQ(stats.temps_after, 3);
   EXPECT_EQ(print_tgsi(s), print_tgsi(parse_or_fail(text)));
}

TEST(TgsiMergeTemps, DebugOptionSwitchesItOff)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\n"
                            "MOV TEMP[1], IN[0]\nMOV OUT[0], TEMP[1]\nEND\n";
   Diagnostics env_diags;
   DebugOptions opts;
   opts.apply_sbcc_debug("nomerge", env_diags);
   Shader s = parse_or_fail(text);
   MergeStats stats;
   ASSERT_TRUE(merge_temps(s, opts, nullptr, &stats));
   EXPECT_STREQ(stats.skipped, "disabled");
   EXPECT_EQ(print_tgsi(s), print_tgsi(parse_or_fail(text)));

   opts.apply_sbcc_debug("merge", env_diags);
   ASSERT_TRUE(merge_temps(s, opts, nullptr, &stats));
   EXPECT_EQ(stats.temps_after, 1);
   EXPECT_EQ(s.instructions[0].dst[0].index.value, 0);
   EXPECT_EQ(env_diags.str(), "");
}

TEST(TgsiMergeTemps, ReferenceWithoutEffectGetsARegister)
{
   Shader s = parse_or_fail("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3]\n"
                            "MOV TEMP[3], IN[0]\nMOV TEMP[2], IN[0]\nMOV OUT[0], TEMP[2]\nEND\n");
   /* A write mask of nothing: no text form, but the IR allows it. */
   s.instructions[0].dst[0].write_mask = 0;
   MergeStats stats;
   ASSERT_TRUE(merge_temps(s, nullptr, &stats));
   EXPECT_EQ(stats.temps_after, 2);
   EXPECT_EQ(s.instructions[0].dst[0].index.value, 1);
   EXPECT_EQ(s.instructions[1].dst[0].index.value, 0);
   EXPECT_EQ(s.instructions[2].src[0].index.value, 0);
}

TEST(TgsiMergeTemps, BadShaderIsReportedAndUntouched)
{
   Shader s = parse_or_fail("VERT\nDCL IN[0]\nDCL TEMP[0..1]\n"
                            "BGNLOOP\nMOV TEMP[1], IN[0]\nBRK\nENDLOOP\nEND\n");
   s.instructions.erase(s.instructions.begin() + 3); /* the ENDLOOP */
   const std::string before = print_tgsi(s);
   Diagnostics diags;
   EXPECT_FALSE(merge_temps(s, &diags));
   EXPECT_EQ(diags.str(), "t.tgsi:4:1: error: BGNLOOP is not closed by ENDLOOP\n");
   EXPECT_EQ(print_tgsi(s), before);
}

TEST(TgsiMergeTemps, NoTempsAtAll)
{
   expect_merged("VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n",
                 "VERT\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n", 0, 0);
}

} // namespace
