/* Reference interpreter: control flow with divergent lanes, loops and the
 * loop budget, RET, KILL, indirect addressing, derivatives and validation. */
#include "interp_test_util.h"

using namespace sbcc;
using namespace sbcc::interp::test;

namespace {

Vec4 f4(float x, float y, float z, float w) { return vec4f(x, y, z, w); }

std::vector<std::vector<Vec4>> lanes_x(std::initializer_list<Vec4> v)
{
   std::vector<std::vector<Vec4>> r;
   for (const Vec4 &x : v)
      r.push_back({x});
   return r;
}

} // namespace

TEST(InterpFlow, NestedIfElseDivergent)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                            "IF IN[0].xxxx\n"
                            "  IF IN[0].yyyy\n"
                            "    MOV OUT[0].x, IMM[0].xxxx\n"
                            "  ELSE\n"
                            "    MOV OUT[0].x, IMM[0].yyyy\n"
                            "  ENDIF\n"
                            "  MOV OUT[0].y, IMM[0].xxxx\n"
                            "ELSE\n"
                            "  IF IN[0].yyyy\n"
                            "    MOV OUT[0].x, IMM[0].zzzz\n"
                            "  ENDIF\n"
                            "  MOV OUT[0].w, IMM[0].wwww\n"
                            "ENDIF\n"
                            "MOV OUT[0].z, IMM[0].zzzz\n"
                            "END\n";
   Runner r;
   /* Five lanes: a full group and a partial one. -0.0 is false, NaN true. */
   Batch b = r.run(text, lanes_x({f4(1, 1, 0, 0), f4(1, 0, 0, 0), f4(0, 1, 0, 0),
                                  f4(-0.0f, -0.0f, 0, 0), f4(NAN, 5, 0, 0)}));
   ASSERT_EQ(b.lanes.size(), 5u);
   EXPECT_EQ(r.result.status, RunStatus::Ok);
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 3, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(2, 1, 3, 0));
   EXPECT_EQ(b.lanes[2].outputs[0], f4(3, 0, 3, 4));
   EXPECT_EQ(b.lanes[3].outputs[0], f4(0, 0, 3, 4));
   EXPECT_EQ(b.lanes[4].outputs[0], f4(1, 1, 3, 0));
}

TEST(InterpFlow, UifTestsBits)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                            "MOV OUT[0], IMM[0].yyyy\n"
                            "UIF IN[0].xxxx\n"
                            "  MOV OUT[0], IMM[0].xxxx\n"
                            "ENDIF\nEND\n";
   Runner r;
   /* -0.0 has a set bit: UIF takes it, IF would not. */
   Batch b = r.run(text, lanes_x({vec4u(0x80000000u, 0, 0, 0), vec4u(0, 0, 0, 0)}));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(2, 2, 2, 2));
}

TEST(InterpFlow, LoopWithBreakAndContinue)
{
   /* sum of i for i = 1..N except 3, N per lane. */
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..2]\n"
                            "IMM[0] FLT32 {0.0, 1.0, 3.0, 0.0}\n"
                            "MOV TEMP[0], IMM[0].xxxx\n"
                            "MOV TEMP[1], IMM[0].xxxx\n"
                            "BGNLOOP\n"
                            "  SGE TEMP[2].x, TEMP[0].xxxx, IN[0].xxxx\n"
                            "  IF TEMP[2].xxxx\n"
                            "    BRK\n"
                            "  ENDIF\n"
                            "  ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
                            "  SEQ TEMP[2].y, TEMP[0].xxxx, IMM[0].zzzz\n"
                            "  IF TEMP[2].yyyy\n"
                            "    CONT\n"
                            "  ENDIF\n"
                            "  ADD TEMP[1].x, TEMP[1].xxxx, TEMP[0].xxxx\n"
                            "ENDLOOP\n"
                            "MOV OUT[0].x, TEMP[1].xxxx\n"
                            "MOV OUT[0].y, TEMP[0].xxxx\n"
                            "END\n";
   Runner r;
   Batch b = r.run(text, lanes_x({f4(0, 0, 0, 0), f4(2, 0, 0, 0), f4(5, 0, 0, 0),
                                  f4(10, 0, 0, 0), f4(3, 0, 0, 0)}));
   EXPECT_EQ(r.result.status, RunStatus::Ok);
   const float sums[5] = {0, 3, 12, 52, 3};
   const float n[5] = {0, 2, 5, 10, 3};
   for (int l = 0; l < 5; l++) {
      EXPECT_EQ(fv(b.lanes[l].outputs[0])[0], sums[l]) << "lane " << l;
      EXPECT_EQ(fv(b.lanes[l].outputs[0])[1], n[l]) << "lane " << l;
      /* N completed iterations, each one back-edge. */
      EXPECT_EQ(b.lanes[l].loop_iterations, uint64_t(n[l])) << "lane " << l;
   }
}

TEST(InterpFlow, NestedLoops)
{
   /* for i < 3: for j < 4: if (j == 2) break; count++  -> 3 * 2 */
   const std::string text = "VERT\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..3]\n"
                            "IMM[0] INT32 {0, 1, 2, 3}\n"
                            "MOV TEMP[0].x, IMM[0].xxxx\n"
                            "MOV TEMP[3].x, IMM[0].xxxx\n"
                            "BGNLOOP\n"
                            "  USGE TEMP[2].x, TEMP[0].xxxx, IMM[0].wwww\n"
                            "  UIF TEMP[2].xxxx\n    BRK\n  ENDIF\n"
                            "  MOV TEMP[1].x, IMM[0].xxxx\n"
                            "  BGNLOOP\n"
                            "    USEQ TEMP[2].y, TEMP[1].xxxx, IMM[0].zzzz\n"
                            "    UIF TEMP[2].yyyy\n      BRK\n    ENDIF\n"
                            "    UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].yyyy\n"
                            "    UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
                            "  ENDLOOP\n"
                            "  UADD TEMP[0].x, TEMP[0].xxxx, IMM[0].yyyy\n"
                            "ENDLOOP\n"
                            "MOV OUT[0], TEMP[3].xxxx\nEND\n";
   Runner r;
   EXPECT_EQ(r.run1(text), vec4u(6, 6, 6, 6));
   EXPECT_EQ(r.result.status, RunStatus::Ok);
}

TEST(InterpFlow, LoopBudgetExceeded)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                            "MOV OUT[0], IMM[0].xxxx\n"
                            "BGNLOOP\n"
                            "  IF IN[0].xxxx\n    BRK\n  ENDIF\n"
                            "ENDLOOP\n"
                            "MOV OUT[0], IMM[0].yyyy\nEND\n";
   Runner r;
   r.limits.max_loop_iterations = 100;
   Batch b = r.run(text, lanes_x({f4(0, 0, 0, 0), f4(1, 0, 0, 0)}));
   EXPECT_EQ(r.result.status, RunStatus::BudgetExceeded);
   EXPECT_EQ(r.result.message, "loop budget of 100 iterations exceeded");
   /* The looping lane stopped at the budget; the other finished normally. */
   EXPECT_EQ(b.lanes[0].loop_iterations, 101u);
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[1].loop_iterations, 0u);
   EXPECT_EQ(b.lanes[1].outputs[0], f4(2, 2, 2, 2));
}

TEST(InterpFlow, RetFinishesTheLane)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                            "MOV OUT[0], IMM[0].xxxx\n"
                            "IF IN[0].xxxx\n  RET\nENDIF\n"
                            "MOV OUT[0], IMM[0].yyyy\nEND\n";
   Runner r;
   Batch b = r.run(text, lanes_x({f4(1, 0, 0, 0), f4(0, 0, 0, 0)}));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(2, 2, 2, 2));
}

TEST(InterpFlow, KillAndKillIf)
{
   const std::string text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                            "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n"
                            "MOV OUT[0], IMM[0].xxxx\n"
                            "KILL_IF IN[0]\n"
                            "IF IN[0].wwww\n  KILL\nENDIF\n"
                            "MOV OUT[0], IMM[0].yyyy\nEND\n";
   Runner r;
   Batch b = r.run(text, lanes_x({f4(0, 0, 0, 0), f4(0, -0.5f, 0, 0), f4(0, 0, 0, 1),
                                  f4(NAN, -0.0f, 0, 0)}));
   EXPECT_FALSE(b.lanes[0].killed);
   EXPECT_TRUE(b.lanes[1].killed);
   EXPECT_TRUE(b.lanes[2].killed);
   EXPECT_FALSE(b.lanes[3].killed); /* NaN and -0 are not < 0 */
   EXPECT_EQ(b.lanes[0].outputs[0], f4(2, 2, 2, 2));
   EXPECT_EQ(b.lanes[3].outputs[0], f4(2, 2, 2, 2));
   /* Killed lanes stopped where they died. */
   EXPECT_EQ(b.lanes[1].outputs[0], f4(1, 1, 1, 1));
}

TEST(InterpIndirect, TempArrayReadWriteAndRange)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\n"
                            "DCL TEMP[0]\nDCL TEMP[1..4], ARRAY(1)\nDCL ADDR[0]\n"
                            "IMM[0] FLT32 {10.0, 20.0, 30.0, 40.0}\n"
                            "IMM[1] FLT32 {7.0, 0.0, 0.0, 0.0}\n"
                            "MOV TEMP[1], IMM[0].xxxx\n"
                            "MOV TEMP[2], IMM[0].yyyy\n"
                            "MOV TEMP[3], IMM[0].zzzz\n"
                            "MOV TEMP[4], IMM[0].wwww\n"
                            "ARL ADDR[0].x, IN[0].xxxx\n"
                            "MOV OUT[0], TEMP[ADDR[0].x+1](1)\n"
                            "MOV TEMP[ADDR[0].x+2](1), IMM[1].xxxx\n"
                            "MOV OUT[1].x, TEMP[1].xxxx\n"
                            "MOV OUT[1].y, TEMP[2].xxxx\n"
                            "MOV OUT[1].z, TEMP[3].xxxx\n"
                            "MOV OUT[1].w, TEMP[4].xxxx\n"
                            "END\n";
   Runner r;
   /* ARL floors: 1.7 -> 1, -0.5 -> -1; index 5 is outside the array. */
   Batch b = r.run(text, lanes_x({f4(0, 0, 0, 0), f4(1.7f, 0, 0, 0), f4(-0.5f, 0, 0, 0),
                                  f4(3, 0, 0, 0)}));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(10, 10, 10, 10));
   EXPECT_EQ(b.lanes[0].outputs[1], f4(10, 7, 30, 40));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(20, 20, 20, 20));
   EXPECT_EQ(b.lanes[1].outputs[1], f4(10, 20, 7, 40));
   /* ADDR -1: read TEMP[0] is outside ARRAY(1) -> 0; write TEMP[1] ok. */
   EXPECT_EQ(b.lanes[2].outputs[0], f4(0, 0, 0, 0));
   EXPECT_EQ(b.lanes[2].outputs[1], f4(7, 20, 30, 40));
   /* ADDR 3: read TEMP[4]; the write to TEMP[5] is dropped. */
   EXPECT_EQ(b.lanes[3].outputs[0], f4(40, 40, 40, 40));
   EXPECT_EQ(b.lanes[3].outputs[1], f4(10, 20, 30, 40));
}

TEST(InterpIndirect, ConstantsAndUarl)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\n"
                            "DCL CONST[0..3]\nDCL ADDR[0..1]\n"
                            "UARL ADDR[1].y, IN[0].xxxx\n"
                            "MOV OUT[0], CONST[ADDR[1].y+1]\n"
                            "MOV OUT[1], CONST[ADDR[1].y-1]\n"
                            "END\n";
   Runner r;
   r.res.constants = {{f4(0, 0, 0, 0), f4(1, 1, 1, 1), f4(2, 2, 2, 2), f4(3, 3, 3, 3)}};
   Batch b = r.run(text, lanes_x({vec4i(0, 0, 0, 0), vec4i(2, 0, 0, 0), vec4i(-5, 0, 0, 0)}));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[0].outputs[1], f4(0, 0, 0, 0)); /* CONST[-1] */
   EXPECT_EQ(b.lanes[1].outputs[0], f4(3, 3, 3, 3));
   EXPECT_EQ(b.lanes[1].outputs[1], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[2].outputs[0], f4(0, 0, 0, 0));
}

TEST(InterpIndirect, OutputArray)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0..2], ARRAY(1), GENERIC[0]\nDCL ADDR[0]\n"
                            "IMM[0] FLT32 {5.0, 6.0, 7.0, 8.0}\n"
                            "ARL ADDR[0].x, IN[0].xxxx\n"
                            "MOV OUT[ADDR[0].x](1), IMM[0]\n"
                            "END\n";
   Runner r;
   Batch b = r.run(text, lanes_x({f4(2, 0, 0, 0), f4(3, 0, 0, 0)}));
   ASSERT_EQ(b.lanes[0].outputs.size(), 3u);
   EXPECT_EQ(b.lanes[0].outputs[2], f4(5, 6, 7, 8));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(0, 0, 0, 0));
   for (int i = 0; i < 3; i++)
      EXPECT_EQ(b.lanes[1].outputs[size_t(i)], f4(0, 0, 0, 0));
}

TEST(InterpDerivatives, CoarseAndFineOnAQuad)
{
   const std::string text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                            "DCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\n"
                            "DCL OUT[2], GENERIC[2]\nDCL OUT[3], GENERIC[3]\n"
                            "DDX OUT[0], IN[0]\nDDY OUT[1], IN[0]\n"
                            "DDX_FINE OUT[2], IN[0]\nDDY_FINE OUT[3], IN[0]\nEND\n";
   Runner r;
   /* TL, TR, BL, BR values of x: 1, 3, 10, 20 */
   Batch b = r.run(text, lanes_x({f4(1, 0, 0, 0), f4(3, 0, 0, 0), f4(10, 0, 0, 0),
                                  f4(20, 0, 0, 0)}));
   for (int l = 0; l < 4; l++) {
      EXPECT_EQ(fv(b.lanes[l].outputs[0])[0], 2.0f) << l;
      EXPECT_EQ(fv(b.lanes[l].outputs[1])[0], 9.0f) << l;
   }
   EXPECT_EQ(fv(b.lanes[0].outputs[2])[0], 2.0f);
   EXPECT_EQ(fv(b.lanes[1].outputs[2])[0], 2.0f);
   EXPECT_EQ(fv(b.lanes[2].outputs[2])[0], 10.0f);
   EXPECT_EQ(fv(b.lanes[3].outputs[2])[0], 10.0f);
   EXPECT_EQ(fv(b.lanes[0].outputs[3])[0], 9.0f);
   EXPECT_EQ(fv(b.lanes[1].outputs[3])[0], 17.0f);
   EXPECT_EQ(fv(b.lanes[2].outputs[3])[0], 9.0f);
   EXPECT_EQ(fv(b.lanes[3].outputs[3])[0], 17.0f);
}

TEST(InterpDerivatives, InactiveLanesKeepTheirValues)
{
   /* Only the top row enters the IF; the bottom row's TEMP[0] still holds
    * the value from before the branch, and DDY sees it. */
   const std::string text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                            "DCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n"
                            "IMM[0] FLT32 {100.0, 0.0, 0.0, 0.0}\n"
                            "MOV TEMP[0], IN[0].xxxx\n"
                            "IF IN[0].yyyy\n"
                            "  ADD TEMP[0], TEMP[0], IMM[0].xxxx\n"
                            "  DDY OUT[0], TEMP[0]\n"
                            "ENDIF\nEND\n";
   Runner r;
   Batch b = r.run(text, lanes_x({f4(1, 1, 0, 0), f4(3, 1, 0, 0), f4(10, 0, 0, 0),
                                  f4(20, 0, 0, 0)}));
   EXPECT_EQ(fv(b.lanes[0].outputs[0])[0], 10.0f - 101.0f);
   EXPECT_EQ(fv(b.lanes[1].outputs[0])[0], 10.0f - 101.0f);
   EXPECT_EQ(fv(b.lanes[2].outputs[0])[0], 0.0f); /* not written */
}

TEST(InterpDerivatives, ZeroOutsideFragmentShaders)
{
   Runner r;
   Batch b = r.run("VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDDX OUT[0], IN[0]\nEND\n",
                   lanes_x({f4(1, 0, 0, 0), f4(5, 0, 0, 0)}));
   EXPECT_EQ(b.lanes[0].outputs[0], f4(0, 0, 0, 0));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(0, 0, 0, 0));
}

TEST(InterpValidate, RejectsWhatItCannotRun)
{
   Diagnostics diags;
   auto sh = tgsi::parse_tgsi("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                              "DCL SAMP[0]\n"
                              "TEX OUT[0], IN[0], SAMP[0], 2D\nEND\n",
                              "t.tgsi", diags);
   ASSERT_TRUE(sh) << diags.str();
   tgsi::Shader bad = *sh;
   bad.instructions[0].tex_target = tgsi::TextureTarget::Buffer;
   EXPECT_EQ(interp::make_reference_executable(bad, diags), nullptr);
   EXPECT_EQ(diags.str(), "t.tgsi:5:1: error: texture target BUFFER is not supported\n");

   /* An ENDIF with no IF (IR built by hand, the parser would refuse it). */
   diags.clear();
   bad = *sh;
   tgsi::Instruction endif;
   endif.opcode = tgsi::Opcode::ENDIF;
   endif.loc = {9, 3};
   bad.instructions.insert(bad.instructions.begin(), endif);
   EXPECT_EQ(interp::make_reference_executable(bad, diags), nullptr);
   EXPECT_EQ(diags.str(), "t.tgsi:9:3: error: ENDIF without IF\n");

   /* A direct write to an undeclared temporary. */
   diags.clear();
   bad = *sh;
   bad.instructions[0].dst[0].file = tgsi::File::Temporary;
   bad.instructions[0].dst[0].index.value = 3;
   EXPECT_EQ(interp::make_reference_executable(bad, diags), nullptr);
   EXPECT_EQ(diags.str(), "t.tgsi:5:5: error: TEMP[3] is not declared\n");

   /* Wrong operand count. */
   diags.clear();
   bad = *sh;
   bad.instructions[0].src.pop_back();
   EXPECT_EQ(interp::make_reference_executable(bad, diags), nullptr);
   EXPECT_EQ(diags.str(), "t.tgsi:5:1: error: TEX needs 1 destination and 2 source operands\n");

   /* Absurd register counts are refused, not allocated. */
   diags.clear();
   bad = *sh;
   tgsi::Declaration huge;
   huge.file = tgsi::File::Temporary;
   huge.last = 1 << 24;
   bad.declarations.push_back(huge);
   EXPECT_EQ(interp::make_reference_executable(bad, diags), nullptr);
   EXPECT_EQ(diags.str(), "t.tgsi: error: more than 65536 registers in one file\n");

   /* The good shader compiles and lists as TGSI. */
   diags.clear();
   auto exe = interp::make_reference_executable(*sh, diags);
   ASSERT_TRUE(exe);
   EXPECT_EQ(exe->listing(), tgsi::print_tgsi(*sh));
}
