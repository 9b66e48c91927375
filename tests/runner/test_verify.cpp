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

namespace {

/* Keeps a copy of the inputs it was given, then behaves as `inner`. */
class RecordingExecutable : public Executable {
 public:
   RecordingExecutable(const Executable &inner, std::vector<Lane> &seen)
      : inner_(inner), seen_(seen)
   {
   }
   RunResult run(const Resources &res, Batch &batch, const RunLimits &lim) const override
   {
      seen_ = batch.lanes;
      return inner_.run(res, batch, lim);
   }
   std::string listing() const override { return inner_.listing(); }

 private:
   const Executable &inner_;
   std::vector<Lane> &seen_;
};

float in(const std::vector<Lane> &lanes, size_t l, int i, int c)
{
   return u2f(lanes[l].inputs[i][c]);
}

} // namespace

/* A rasterizer gives a quad values on one plane (derivatives and implicit
 * LOD depend on it); flat and integer inputs are one value per quad. */
TEST(Verify, FragmentInputsAreQuadPlanes)
{
   tgsi::Shader s = parse("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                          "DCL IN[1], GENERIC[1], CONSTANT\nDCL IN[2], POSITION, LINEAR\n"
                          "DCL IN[3], GENERIC[2], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                          "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[0].x, IN[1]\n"
                          "  2: MOV OUT[0].y, IN[2]\n  3: UADD OUT[0].z, IN[3], IN[3]\n"
                          "  4: END\n");
   test::MovExecutable a(s);
   std::vector<Lane> seen;
   RecordingExecutable rec(a, seen);
   VerifyOptions o;
   o.invocations = 64;
   verify_shader(s, rec, rec, o);
   ASSERT_EQ(seen.size(), 64u);
   bool any_slope = false;
   for (size_t q = 0; q < 64; q += 4) {
      for (int c = 0; c < 4; c++) {
         float ddx = in(seen, q + 1, 0, c) - in(seen, q, 0, c);
         float ddy = in(seen, q + 2, 0, c) - in(seen, q, 0, c);
         EXPECT_EQ(in(seen, q + 3, 0, c), in(seen, q, 0, c) + ddx + ddy) << q << " " << c;
         EXPECT_LE(std::fabs(ddx), 0.5f);
         EXPECT_LE(std::fabs(ddy), 0.5f);
         any_slope |= ddx != 0 || ddy != 0;
         for (size_t l = q + 1; l < q + 4; l++) {
            EXPECT_EQ(seen[l].inputs[1][c], seen[q].inputs[1][c]); /* flat */
            EXPECT_EQ(seen[l].inputs[3][c], seen[q].inputs[3][c]); /* integer */
         }
      }
      /* Window position steps by one pixel right and up. */
      EXPECT_EQ(in(seen, q + 1, 2, 0), in(seen, q, 2, 0) + 1.0f);
      EXPECT_EQ(in(seen, q + 1, 2, 1), in(seen, q, 2, 1));
      EXPECT_EQ(in(seen, q + 2, 2, 0), in(seen, q, 2, 0));
      EXPECT_EQ(in(seen, q + 2, 2, 1), in(seen, q, 2, 1) + 1.0f);
   }
   EXPECT_TRUE(any_slope);
   /* Quads differ from each other. */
   EXPECT_NE(seen[0].inputs[0], seen[4].inputs[0]);
}

/* Vertex lanes are separate vertices: no shared plane. */
TEST(Verify, VertexInputsAreIndependent)
{
   tgsi::Shader s = parse("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                          "  0: MOV OUT[0], IN[0]\n  1: END\n");
   test::MovExecutable a(s);
   std::vector<Lane> seen;
   RecordingExecutable rec(a, seen);
   verify_shader(s, rec, rec, {});
   ASSERT_EQ(seen.size(), 64u);
   int off_plane = 0;
   for (size_t q = 0; q < 64; q += 4)
      for (int c = 0; c < 4; c++)
         off_plane += in(seen, q + 3, 0, c) !=
                      in(seen, q + 1, 0, c) + in(seen, q + 2, 0, c) - in(seen, q, 0, c);
   EXPECT_GT(off_plane, 32);
}

namespace {

/* Runs the reference, then gives NaN (what r600's EX2(y * LG2(x)) gives)
 * for POW's negative bases, or corrupts every lane when `everywhere`. */
class NanPowExecutable final : public Executable {
 public:
   NanPowExecutable(std::unique_ptr<Executable> ref, bool everywhere)
      : ref_(std::move(ref)), everywhere_(everywhere)
   {
   }
   RunResult run(const Resources &res, Batch &batch, const RunLimits &limits) const override
   {
      RunResult r = ref_->run(res, batch, limits);
      negative = zero = 0;
      for (Lane &l : batch.lanes) {
         const float x = u2f(l.inputs[0][0]), y = u2f(l.inputs[0][1]);
         l.undefined = 0; /* only the reference classifies */
         const bool undef = x < 0.0f || (x == 0.0f && y <= 0.0f);
         negative += x < 0.0f;
         zero += x == 0.0f && y <= 0.0f;
         if (undef || everywhere_)
            l.outputs[0][0] = 0x7fc00000u;
      }
      return r;
   }
   std::string listing() const override { return ref_->listing(); }
   mutable unsigned negative = 0, zero = 0;

 private:
   std::unique_ptr<Executable> ref_;
   bool everywhere_;
};

const char *kPow = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                   "  0: POW OUT[0].x, IN[0].xxxx, IN[0].yyyy\n  1: END\n";

} // namespace

TEST(Verify, LanesUndefinedByGlAreCountedNotCompared)
{
   tgsi::Shader s = parse(kPow);
   auto ref = reference(s);
   NanPowExecutable got(reference(s), false);
   VerifyOptions vo;
   vo.seed = 5;
   VerifyResult r = verify_shader(s, *ref, got, vo);
   EXPECT_EQ(r.status, VerifyStatus::Pass) << r.message;
   const unsigned n = got.negative + got.zero;
   ASSERT_GT(got.negative, 0u) << "seed 5 should draw negative bases";
   EXPECT_EQ(r.undefined_lanes, n);
   EXPECT_EQ(r.undefined_pow, n);
   EXPECT_EQ(r.undefined_derivative, 0u);
   EXPECT_EQ(r.undefined_summary(), std::to_string(n) + " lanes undefined by GL (0 implicit "
                                    "derivative in a partly active quad, " +
                                       std::to_string(n) + " pow of a negative base)");
}

TEST(Verify, DefinedLanesAreStillCompared)
{
   tgsi::Shader s = parse(kPow);
   auto ref = reference(s);
   NanPowExecutable got(reference(s), true);
   VerifyResult r = verify_shader(s, *ref, got, {});
   EXPECT_EQ(r.status, VerifyStatus::Fail);
   EXPECT_NE(r.message.find("target nan (0x7fc00000)"), std::string::npos) << r.message;
   VerifyResult clean = verify_shader(s, *ref, *ref, {});
   EXPECT_EQ(clean.status, VerifyStatus::Pass);
   /* Same seed, same batch: the reference marks the lanes the fake saw. */
   EXPECT_EQ(clean.undefined_lanes, got.negative + got.zero);
}
