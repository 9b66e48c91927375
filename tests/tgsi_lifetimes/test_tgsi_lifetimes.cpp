/*
 * compute_temp_lifetimes: exact (first, last) instruction per temporary for
 * each rule of docs/tgsi-lifetimes.md.  Instruction numbers in the shaders
 * below are the indices the expectations refer to.
 */
#include <string>

#include <gtest/gtest.h>

#include "lifetimes_test_util.h"

using namespace sbcc;
using namespace sbcc::tgsi;
using namespace sbcc::tgsi::test;

namespace {

TEST(TgsiLifetimes, StraightLine)
{
   const Ranges r = lifetimes_of("VERT\n"
                                 "DCL IN[0]\n"
                                 "DCL OUT[0], POSITION\n"
                                 "DCL TEMP[0..4]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: ADD TEMP[1], TEMP[0], IN[0]\n"
                                 "  2: MUL TEMP[2], TEMP[1], TEMP[0]\n"
                                 "  3: MOV TEMP[3].x, TEMP[2].xxxx\n" /* dead write */
                                 "  4: MOV OUT[0], TEMP[2]\n"
                                 "  5: END\n");
   EXPECT_EQ(r, (Ranges{{0, 2}, {1, 2}, {2, 4}, {3, 3}, kUnused}));
}

TEST(TgsiLifetimes, LoopWith200ShortLivedTemps)
{
   /* TEMP[0] accumulates across iterations; TEMP[k] (k >= 1) is written by
    * instruction 2k and last read by 2k+1 of the same iteration. */
   std::string text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..200]\n"
                      "MOV TEMP[0], IN[0]\nBGNLOOP\n";
   for (int k = 1; k <= 200; k++) {
      text += "MUL TEMP[" + std::to_string(k) + "], TEMP[0], IN[0]\n";
      text += "ADD TEMP[0], TEMP[0], TEMP[" + std::to_string(k) + "]\n";
   }
   text += "IF IN[0].xxxx\nBRK\nENDIF\nENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n";
   /* 402: IF, 403: BRK, 404: ENDIF, 405: ENDLOOP, 406: MOV OUT */
   Ranges expected{{0, 406}};
   for (int k = 1; k <= 200; k++)
      expected.emplace_back(2 * k, 2 * k + 1);
   EXPECT_EQ(lifetimes_of(text), expected);
}

TEST(TgsiLifetimes, ReadBeforeWriteInLoop)
{
   const Ranges r = lifetimes_of("VERT\n"
                                 "DCL IN[0]\n"
                                 "DCL OUT[0]\n"
                                 "DCL TEMP[0..3]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: MOV TEMP[3], IN[0]\n"
                                 "  2: BGNLOOP\n"
                                 "  3:   ADD TEMP[1], TEMP[2], TEMP[3]\n"
                                 "  4:   MOV TEMP[2], TEMP[1]\n"
                                 "  5:   ADD TEMP[0], TEMP[0], TEMP[2]\n"
                                 "  6:   IF TEMP[0].xxxx\n"
                                 "  7:     BRK\n"
                                 "  8:   ENDIF\n"
                                 "  9: ENDLOOP\n"
                                 " 10: MOV OUT[0], TEMP[0]\n"
                                 " 11: END\n");
   /* TEMP[0]: carried around the loop from its write before it.
    * TEMP[1]: written and read in one iteration.
    * TEMP[2]: read before its write in the loop and never written before
    *          it: live on entry and across the loop.
    * TEMP[3]: loop invariant, needed by every iteration. */
   EXPECT_EQ(r, (Ranges{{0, 10}, {3, 4}, {-1, 9}, {1, 9}}));
}

TEST(TgsiLifetimes, ConditionalWritesInLoop)
{
   const Ranges r = lifetimes_of("VERT\n"
                                 "DCL IN[0..1]\n"
                                 "DCL OUT[0]\n"
                                 "DCL TEMP[0..4]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: MOV TEMP[3], IN[0]\n"
                                 "  2: MOV TEMP[4], IN[0]\n"
                                 "  3: BGNLOOP\n"
                                 "  4:   IF IN[0].xxxx\n"
                                 "  5:     MOV TEMP[1], IN[0]\n"
                                 "  6:     MOV TEMP[4], IN[1]\n"
                                 "  7:   ENDIF\n"
                                 "  8:   ADD TEMP[0], TEMP[1], TEMP[4]\n"
                                 "  9:   IF IN[0].yyyy\n"
                                 " 10:     MOV TEMP[2], IN[0]\n"
                                 " 11:     ADD TEMP[0], TEMP[0], TEMP[2]\n"
                                 " 12:     MOV TEMP[3], TEMP[2]\n"
                                 " 13:     BRK\n"
                                 " 14:   ENDIF\n"
                                 " 15: ENDLOOP\n"
                                 " 16: ADD OUT[0], TEMP[0], TEMP[3]\n"
                                 " 17: END\n");
   /* TEMP[1]: only conditionally written before its read in the loop, and
    *          not before the loop: live on entry and across the loop.
    * TEMP[2]: written and read inside one IF: tight.
    * TEMP[3]: conditionally written in the loop, read after it: from the
    *          write before the loop through the read.
    * TEMP[4]: conditionally written in the loop, read later in it: from
    *          the write before the loop across the whole loop. */
   EXPECT_EQ(r, (Ranges{{0, 16}, {-1, 15}, {10, 12}, {1, 16}, {2, 15}}));
}

TEST(TgsiLifetimes, IfElseDoubleWrites)
{
   Shader s = parse_or_fail("VERT\n"
                            "DCL IN[0..1]\n"
                            "DCL OUT[0]\n"
                            "DCL TEMP[0..3]\n"
                            "  0: IF IN[0].xxxx\n"
                            "  1:   MOV TEMP[0], IN[0]\n"
                            "  2:   MOV TEMP[1].xy, IN[0]\n"
                            "  3: ELSE\n"
                            "  4:   MOV TEMP[0], IN[1]\n"
                            "  5:   MOV TEMP[1].x, IN[1]\n"
                            "  6: ENDIF\n"
                            "  7: BGNLOOP\n"
                            "  8:   ADD TEMP[2], TEMP[0], TEMP[1].xxxx\n"
                            "  9:   ADD TEMP[3].x, TEMP[1].yyyy, IN[0]\n"
                            " 10:   IF TEMP[2].xxxx\n"
                            " 11:     BRK\n"
                            " 12:   ENDIF\n"
                            " 13: ENDLOOP\n"
                            " 14: ADD OUT[0], TEMP[0], TEMP[3].xxxx\n"
                            " 15: END\n");
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   ASSERT_TRUE(lt.has_value()) << diags.str();
   /* TEMP[0] and TEMP[1].x are written in both parts, so they are defined
    * after ENDIF; TEMP[1].y only in the IF part, so its read in the loop may
    * see the initial contents.  TEMP[3].x is written only in the loop and
    * read after it. */
   EXPECT_EQ(ranges_of(lt->temps), (Ranges{{1, 14}, {-1, 13}, {8, 10}, {-1, 14}}));
   EXPECT_EQ(ranges_of({lt->channels[1].begin(), lt->channels[1].end()}),
             (Ranges{{2, 13}, {-1, 13}, kUnused, kUnused}));
   EXPECT_EQ(ranges_of({lt->channels[3].begin(), lt->channels[3].end()}),
             (Ranges{{-1, 14}, kUnused, kUnused, kUnused}));
}

TEST(TgsiLifetimes, NestedIfElseInsideElse)
{
   const Ranges r = lifetimes_of("VERT\n"
                                 "DCL IN[0..1]\n"
                                 "DCL OUT[0]\n"
                                 "DCL TEMP[0..2]\n"
                                 "  0: IF IN[0].xxxx\n"
                                 "  1:   MOV TEMP[0], IN[0]\n"
                                 "  2:   MOV TEMP[2], IN[0]\n"
                                 "  3: ELSE\n"
                                 "  4:   IF IN[0].yyyy\n"
                                 "  5:     MOV TEMP[0], IN[1]\n"
                                 "  6:     MOV TEMP[2], IN[1]\n"
                                 "  7:   ELSE\n"
                                 "  8:     MOV TEMP[0], IN[0]\n"
                                 "  9:   ENDIF\n"
                                 " 10: ENDIF\n"
                                 " 11: BGNLOOP\n"
                                 " 12:   ADD TEMP[1], TEMP[0], TEMP[2]\n"
                                 " 13:   IF TEMP[1].xxxx\n"
                                 " 14:     BRK\n"
                                 " 15:   ENDIF\n"
                                 " 16: ENDLOOP\n"
                                 " 17: MOV OUT[0], TEMP[1]\n"
                                 " 18: END\n");
   /* TEMP[0] is written on all three paths; TEMP[2] misses the inner ELSE.
    * TEMP[1] is written only inside the loop and read after it. */
   EXPECT_EQ(r, (Ranges{{1, 16}, {-1, 17}, {-1, 16}}));
}

TEST(TgsiLifetimes, NestedLoopsWithBreakAndContinue)
{
   const Ranges r = lifetimes_of("VERT\n"
                                 "DCL IN[0..1]\n"
                                 "DCL OUT[0]\n"
                                 "DCL TEMP[0..7]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: BGNLOOP\n"
                                 "  2:   MOV TEMP[1], IN[0]\n"
                                 "  3:   MOV TEMP[6], IN[1]\n"
                                 "  4:   BGNLOOP\n"
                                 "  5:     ADD TEMP[7], TEMP[6], IN[0]\n"
                                 "  6:     IF TEMP[7].xxxx\n"
                                 "  7:       CONT\n"
                                 "  8:     ENDIF\n"
                                 "  9:     MOV TEMP[2], TEMP[1]\n"
                                 " 10:     ADD TEMP[3], TEMP[2], TEMP[0]\n"
                                 " 11:     IF TEMP[3].xxxx\n"
                                 " 12:       BRK\n"
                                 " 13:     ENDIF\n"
                                 " 14:     MOV TEMP[4], TEMP[3]\n"
                                 " 15:     ADD TEMP[0], TEMP[0], TEMP[4]\n"
                                 " 16:     MOV TEMP[6], TEMP[4]\n"
                                 " 17:   ENDLOOP\n"
                                 " 18:   ADD TEMP[5], TEMP[1], TEMP[0]\n"
                                 " 19:   IF TEMP[5].xxxx\n"
                                 " 20:     BRK\n"
                                 " 21:   ENDIF\n"
                                 " 22: ENDLOOP\n"
                                 " 23: MOV OUT[0], TEMP[0]\n"
                                 " 24: END\n");
   /* TEMP[0]: defined before both loops, carried around the outer one.
    * TEMP[1]: defined in the outer loop, read in the inner one: across the
    *          inner loop only, then to its last read in the outer body.
    * TEMP[6]: read at the top of the inner loop before its write after the
    *          BRK and CONT: across the inner loop from its outer write.
    * TEMP[2], [3], [4], [7]: written and read in one inner iteration, even
    *          after CONT and BRK. */
   EXPECT_EQ(r, (Ranges{{0, 23}, {2, 18}, {9, 10}, {10, 14}, {14, 16}, {18, 19}, {3, 17},
                        {5, 6}}));
}

TEST(TgsiLifetimes, ArraysKeepTheWholeProgram)
{
   Shader s = parse_or_fail("VERT\n"
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
                            "  4: MOV TEMP[6], TEMP[1]\n"
                            "  5: MOV OUT[0], TEMP[6]\n"
                            "  6: END\n");
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   ASSERT_TRUE(lt.has_value()) << diags.str();
   /* ARRAY(2) is never accessed. */
   EXPECT_EQ(ranges_of(lt->temps), (Ranges{{0, 2}, {3, 4}, {-1, 6}, {-1, 6}, {-1, 6}, {-1, 6},
                                           {4, 5}, kUnused, kUnused}));
   EXPECT_EQ(lt->array_of, (std::vector<int>{-1, -1, 3, 3, 3, 3, -1, 5, 5}));
   EXPECT_FALSE(lt->unknown_indirect);
}

TEST(TgsiLifetimes, IndirectWithoutArrayIdPinsEverything)
{
   Shader s = parse_or_fail("VERT\n"
                            "DCL IN[0]\n"
                            "DCL OUT[0]\n"
                            "DCL TEMP[0..2]\n"
                            "DCL ADDR[0]\n"
                            "  0: MOV TEMP[0], IN[0]\n"
                            "  1: ARL ADDR[0].x, IN[0].xxxx\n"
                            "  2: MOV TEMP[1], TEMP[ADDR[0].x]\n"
                            "  3: MOV OUT[0], TEMP[1]\n"
                            "  4: END\n");
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   ASSERT_TRUE(lt.has_value()) << diags.str();
   EXPECT_TRUE(lt->unknown_indirect);
   EXPECT_EQ(ranges_of(lt->temps), (Ranges{{-1, 4}, {-1, 4}, kUnused}));
}

TEST(TgsiLifetimes, UndefinedReads)
{
   Shader s = parse_or_fail("VERT\n"
                            "DCL IN[0]\n"
                            "DCL OUT[0]\n"
                            "DCL TEMP[0..2]\n"
                            "  0: ADD TEMP[0], TEMP[1], IN[0]\n"
                            "  1: MOV TEMP[2].x, TEMP[0].xxxx\n"
                            "  2: ADD OUT[0], TEMP[2].xxxx, TEMP[2].yyyy\n"
                            "  3: END\n");
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   ASSERT_TRUE(lt.has_value()) << diags.str();
   /* TEMP[1] and TEMP[2].y are never written: live from entry to the read. */
   EXPECT_EQ(ranges_of(lt->temps), (Ranges{{0, 1}, {-1, 0}, {-1, 2}}));
   EXPECT_EQ(ranges_of({lt->channels[2].begin(), lt->channels[2].end()}),
             (Ranges{{1, 2}, {-1, 2}, kUnused, kUnused}));
}

TEST(TgsiLifetimes, UsedChannelsOnly)
{
   /* TEX 2D reads only .xy of its coordinate and DP3 only .xyz, so the
    * unwritten .zw/.w are not undefined reads. */
   const Ranges r = lifetimes_of("FRAG\n"
                                 "DCL IN[0]\n"
                                 "DCL OUT[0], COLOR\n"
                                 "DCL SAMP[0]\n"
                                 "DCL SVIEW[0], 2D, FLOAT\n"
                                 "DCL TEMP[0..2]\n"
                                 "  0: MOV TEMP[0].xy, IN[0].xyxx\n"
                                 "  1: TEX TEMP[1], TEMP[0], SAMP[0], 2D\n"
                                 "  2: MOV TEMP[2].xyz, TEMP[1]\n"
                                 "  3: DP3 TEMP[2].x, TEMP[2], TEMP[2]\n"
                                 "  4: RCP OUT[0], TEMP[2].xyzw\n"
                                 "  5: END\n");
   EXPECT_EQ(r, (Ranges{{0, 1}, {1, 2}, {2, 4}}));
}

TEST(TgsiLifetimes, NeighbourReadsWhereLanesMayBeInactivePinTheTemp)
{
   /* Quad neighbours read the registers of lanes that skipped the IF or
    * were killed, so those temporaries keep a register to themselves.  The
    * TEX at the top level before any KILL needs nothing special. */
   const Ranges r = lifetimes_of("FRAG\n"
                                 "DCL IN[0]\n"
                                 "DCL OUT[0], COLOR\n"
                                 "DCL SAMP[0]\n"
                                 "DCL SVIEW[0], 2D, FLOAT\n"
                                 "DCL TEMP[0..4]\n"
                                 "  0: MOV TEMP[0], IN[0]\n"
                                 "  1: TEX TEMP[3], TEMP[0], SAMP[0], 2D\n"
                                 "  2: IF IN[0].xxxx\n"
                                 "  3:   TEX TEMP[1], TEMP[0], SAMP[0], 2D\n"
                                 "  4: ENDIF\n"
                                 "  5: KILL_IF IN[0]\n"
                                 "  6: MOV TEMP[2], IN[0]\n"
                                 "  7: DDX TEMP[4], TEMP[2]\n"
                                 "  8: ADD TEMP[4], TEMP[4], TEMP[3]\n"
                                 "  9: ADD OUT[0], TEMP[4], TEMP[1]\n"
                                 " 10: END\n");
   EXPECT_EQ(r, (Ranges{{-1, 10}, {-1, 9}, {-1, 10}, {1, 8}, {7, 9}}));
}

TEST(TgsiLifetimes, SourceUsageMask)
{
   Shader s = parse_or_fail("FRAG\n"
                            "DCL IN[0]\n"
                            "DCL OUT[0], COLOR\n"
                            "DCL SAMP[0]\n"
                            "DCL SVIEW[0], SHADOW2D, FLOAT\n"
                            "DCL TEMP[0..1]\n"
                            "  0: MOV TEMP[0].xz, IN[0]\n"
                            "  1: DP3 TEMP[0].x, IN[0], IN[0]\n"
                            "  2: DPH TEMP[0].x, IN[0], IN[0]\n"
                            "  3: RSQ TEMP[0].y, IN[0].wwww\n"
                            "  4: TXP TEMP[1], IN[0], SAMP[0], SHADOW2D\n"
                            "  5: DST TEMP[1], IN[0], IN[0]\n"
                            "  6: IF IN[0].xxxx\n"
                            "  7: ENDIF\n"
                            "  8: KILL_IF IN[0]\n"
                            "  9: END\n");
   ASSERT_EQ(s.instructions.size(), 10u);
   const auto &in = s.instructions;
   EXPECT_EQ(source_usage_mask(in[0], 0), 0x5);
   EXPECT_EQ(source_usage_mask(in[1], 0), 0x7);
   EXPECT_EQ(source_usage_mask(in[2], 0), 0x7);
   EXPECT_EQ(source_usage_mask(in[2], 1), 0xf);
   EXPECT_EQ(source_usage_mask(in[3], 0), 0x1);
   EXPECT_EQ(source_usage_mask(in[4], 0), 0xf);
   EXPECT_EQ(source_usage_mask(in[5], 0), 0x6);
   EXPECT_EQ(source_usage_mask(in[5], 1), 0xa);
   EXPECT_EQ(source_usage_mask(in[6], 0), 0x1);
   EXPECT_EQ(source_usage_mask(in[8], 0), 0xf);
}

/* The parser rejects unbalanced control flow, so these shaders are parsed
 * valid and then broken in the IR. */
std::string diags_after_removing(const std::string &text, size_t remove_index)
{
   Shader s = parse_or_fail(text);
   if (remove_index < s.instructions.size())
      s.instructions.erase(s.instructions.begin() + static_cast<long>(remove_index));
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   EXPECT_FALSE(lt.has_value());
   return diags.str();
}

const char *kFlowShader = "VERT\n"
                          "DCL IN[0]\n"
                          "DCL TEMP[0]\n"
                          "BGNLOOP\n"
                          "  IF IN[0].xxxx\n"
                          "    BRK\n"
                          "  ELSE\n"
                          "    MOV TEMP[0], IN[0]\n"
                          "  ENDIF\n"
                          "ENDLOOP\n"
                          "END\n";

TEST(TgsiLifetimes, UnbalancedControlFlowIsReported)
{
   EXPECT_EQ(diags_after_removing(kFlowShader, 0),
             "t.tgsi:6:5: error: BRK outside of a loop\n");
   EXPECT_EQ(diags_after_removing(kFlowShader, 1), "t.tgsi:7:3: error: ELSE without matching IF\n");
   EXPECT_EQ(diags_after_removing(kFlowShader, 5),
             "t.tgsi:10:1: error: ENDLOOP without matching BGNLOOP\n");
   EXPECT_EQ(diags_after_removing(kFlowShader, 6),
             "t.tgsi:4:1: error: BGNLOOP is not closed by ENDLOOP\n");
}

TEST(TgsiLifetimes, BadTempIndexIsReported)
{
   Shader s = parse_or_fail("VERT\nDCL IN[0]\nDCL TEMP[0]\nMOV TEMP[0], IN[0]\nEND\n");
   s.instructions[0].dst[0].index.value = -3;
   Diagnostics diags;
   EXPECT_FALSE(compute_temp_lifetimes(s, diags).has_value());
   EXPECT_EQ(diags.str(), "t.tgsi:4:5: error: TEMP index -3 out of range\n");
}

TEST(TgsiLifetimes, UndeclaredTempIsTracked)
{
   Shader s = parse_or_fail("VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\n"
                            "MOV TEMP[0], IN[0]\nMOV OUT[0], TEMP[0]\nEND\n");
   s.instructions[0].dst[0].index.value = 5;
   s.instructions[1].src[0].index.value = 5;
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   ASSERT_TRUE(lt.has_value()) << diags.str();
   EXPECT_EQ(ranges_of(lt->temps), (Ranges{kUnused, kUnused, kUnused, kUnused, kUnused, {0, 1}}));
}

TEST(TgsiLifetimes, DeepNestingFallsBackToWholeProgram)
{
   std::string text = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..1]\nMOV TEMP[0], IN[0]\n";
   for (int i = 0; i < 70; i++)
      text += "IF IN[0].xxxx\n";
   text += "MOV TEMP[1], TEMP[0]\nMOV OUT[0], TEMP[1]\n";
   for (int i = 0; i < 70; i++)
      text += "ENDIF\n";
   text += "END\n";
   /* 0: MOV, 1..70: IF, 71, 72: MOVs, 73..142: ENDIF, 143: END */
   EXPECT_EQ(lifetimes_of(text), (Ranges{{-1, 143}, {-1, 143}}));
}

} // namespace
