#include <gtest/gtest.h>

#include "driver/target.h"
#include "fake_exec.h"
#include "runner/verify.h"

using namespace sbcc;
using namespace sbcc::runner;

namespace {

tgsi::Shader parse(const std::string &text)
{
   Diagnostics d;
   auto s = tgsi::parse_tgsi(text, "v.tgsi", d);
   EXPECT_TRUE(s.has_value()) << d.str();
   return s ? *s : tgsi::Shader{};
}

std::unique_ptr<Executable> reference(const tgsi::Shader &s)
{
   Diagnostics d;
   auto t = make_target("reference", d);
   EXPECT_TRUE(t) << d.str();
   auto e = t ? t->compile(s, {}, d, nullptr) : nullptr;
   EXPECT_TRUE(e) << d.str();
   return e;
}

const char *kImmOut = "VERT\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
                      "IMM[0] FLT32 {    0.5000,     0.2500,     1.0000,     0.0000}\n"
                      "  0: MOV OUT[0], IMM[0]\n  1: MOV OUT[1], IMM[0]\n  2: END\n";

} // namespace

TEST(Verify, FakeTargetsAgree)
{
   tgsi::Shader s = parse(kImmOut);
   test::MovExecutable a(s), b(s);
   VerifyResult r = verify_shader(s, a, b, {});
   EXPECT_EQ(r.status, VerifyStatus::Pass) << r.message;
   EXPECT_EQ(r.message, "");
}

TEST(Verify, ReportsExactFirstDifference)
{
   tgsi::Shader s = parse(kImmOut);
   test::MovExecutable ref(s);
   test::CorruptingExecutable bad(std::make_unique<test::MovExecutable>(s), 3, 1, 1);
   VerifyResult r = verify_shader(s, ref, bad, {});
   EXPECT_EQ(r.status, VerifyStatus::Fail);
   EXPECT_EQ(r.message, "lane 3 OUT[1].y: reference 0.25 (0x3e800000), target 1.25 "
                        "(0x3fa00000); inputs: no inputs");
}

TEST(Verify, DifferenceListsTheLaneInputs)
{
   tgsi::Shader s = parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                          "  0: MOV OUT[0], IN[0]\n  1: END\n");
   test::MovExecutable ref(s);
   test::CorruptingExecutable bad(std::make_unique<test::MovExecutable>(s), 5, 0, 2);
   VerifyOptions o;
   o.seed = 7;
   VerifyResult r = verify_shader(s, ref, bad, o);
   ASSERT_EQ(r.status, VerifyStatus::Fail);
   /* The corrupted channel is IN[0].z + 1; the report shows both and IN[0]. */
   ASSERT_EQ(r.message.rfind("lane 5 OUT[0].z: reference ", 0), 0u) << r.message;
   size_t in = r.message.find("; inputs: IN[0] = (");
   ASSERT_NE(in, std::string::npos) << r.message;
   /* Same seed, same inputs: the report is reproducible. */
   test::CorruptingExecutable bad2(std::make_unique<test::MovExecutable>(s), 5, 0, 2);
   EXPECT_EQ(verify_shader(s, ref, bad2, o).message, r.message);
}

TEST(Verify, FloatTolerance)
{
   tgsi::Shader s;
   EXPECT_TRUE(float_outputs_match(s, f2u(1.0f), f2u(1.00001f)));
   EXPECT_FALSE(float_outputs_match(s, f2u(1.0f), f2u(1.001f)));
   EXPECT_TRUE(float_outputs_match(s, f2u(1000.0f), f2u(1000.05f)));
   EXPECT_FALSE(float_outputs_match(s, f2u(1000.0f), f2u(1000.5f)));
   EXPECT_TRUE(float_outputs_match(s, f2u(std::nanf("")), 0xffc00001u));
   EXPECT_FALSE(float_outputs_match(s, f2u(std::nanf("")), f2u(0.0f)));
   EXPECT_FALSE(float_outputs_match(s, f2u(INFINITY), f2u(-INFINITY)));
}

TEST(Verify, ReferenceAgreesWithItself)
{
   const char *shaders[] = {
      /* float ALU on inputs and constants */
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0..3]\n"
      "DCL TEMP[0]\n  0: MAD TEMP[0], IN[0], CONST[1], CONST[2]\n"
      "  1: DP4 TEMP[0].x, TEMP[0], CONST[3]\n  2: DDX TEMP[0].y, IN[0].xxxx\n"
      "  3: MOV OUT[0], TEMP[0]\n  4: END\n",
      /* integer ops: compared exactly */
      "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\n"
      "  0: UADD TEMP[0], IN[0], IN[0].yzwx\n  1: USHR TEMP[0].y, TEMP[0].xxxx, IN[0].zzzz\n"
      "  2: MOV OUT[0], TEMP[0]\n  3: END\n",
      /* texture through the shared model */
      "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
      "DCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n",
   };
   for (const char *text : shaders) {
      tgsi::Shader s = parse(text);
      auto a = reference(s), b = reference(s);
      ASSERT_TRUE(a && b);
      VerifyResult r = verify_shader(s, *a, *b, {});
      EXPECT_EQ(r.status, VerifyStatus::Pass) << text << r.message;
   }
}

TEST(Verify, IntegerOutputsAreExact)
{
   /* One ulp is within the float tolerance but must fail for integers. */
   tgsi::Shader s = parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                          "  0: UADD OUT[0], IN[0], IN[0]\n  1: END\n");
   auto ref = reference(s);
   test::CorruptingExecutable bad(reference(s), 0, 0, 0, true);
   VerifyResult r = verify_shader(s, *ref, bad, {});
   EXPECT_EQ(r.status, VerifyStatus::Fail);
   EXPECT_EQ(r.message.rfind("lane 0 OUT[0].x: ", 0), 0u) << r.message;

   tgsi::Shader f = parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                          "  0: ADD OUT[0], IN[0], IN[0]\n  1: END\n");
   auto fref = reference(f);
   test::CorruptingExecutable fbad(reference(f), 0, 0, 0, true);
   EXPECT_EQ(verify_shader(f, *fref, fbad, {}).status, VerifyStatus::Pass);
}

TEST(Verify, BudgetIsNotAPass)
{
   tgsi::Shader s = parse("VERT\nDCL OUT[0], POSITION\n  0: BGNLOOP :1\n  1: ENDLOOP :0\n"
                          "  2: END\n");
   auto a = reference(s), b = reference(s);
   VerifyOptions o;
   o.limits.max_loop_iterations = 100;
   VerifyResult r = verify_shader(s, *a, *b, o);
   EXPECT_EQ(r.status, VerifyStatus::Budget);
   EXPECT_EQ(r.message, "reference exceeded the loop budget of 100 iterations");
}
