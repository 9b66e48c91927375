/* The verifier's comparison rules: value matching per tolerance class and
 * the per-output classes derived from a shader. */
#include "interp_test_util.h"

#include <limits>

#include "interp/compare.h"

using namespace sbcc;
using namespace sbcc::interp;

namespace {

uint32_t b(float f) { return f2u(f); }

Tolerance tol_of(const std::string &text, size_t out, unsigned chan)
{
   Diagnostics diags;
   auto sh = tgsi::parse_tgsi(text, "t.tgsi", diags);
   EXPECT_TRUE(sh) << diags.str();
   return sh ? derive_tolerances(*sh).at(out, chan) : Tolerance::Exact;
}

} // namespace

TEST(Compare, ValuesMatch)
{
   const float inf = std::numeric_limits<float>::infinity();
   EXPECT_TRUE(values_match(5, 5, Tolerance::Exact));
   EXPECT_FALSE(values_match(5, 6, Tolerance::Exact));
   /* Small integers are denormal floats: never compare them loosely. */
   EXPECT_FALSE(values_match(1, 2, Tolerance::Exact));

   EXPECT_TRUE(values_match(b(1.0f), b(1.00009f), Tolerance::Float));
   EXPECT_FALSE(values_match(b(1.0f), b(1.0002f), Tolerance::Float));
   EXPECT_TRUE(values_match(b(1000.0f), b(1000.09f), Tolerance::Float));
   EXPECT_FALSE(values_match(b(1000.0f), b(1000.2f), Tolerance::Float));
   /* Near zero the tolerance is absolute: denormal flushing passes. */
   EXPECT_TRUE(values_match(b(1e-39f), b(0.0f), Tolerance::Float));
   EXPECT_TRUE(values_match(b(-0.0f), b(0.0f), Tolerance::Float));
   EXPECT_FALSE(values_match(b(-0.0f), b(0.0f), Tolerance::Exact));

   EXPECT_TRUE(values_match(b(1.0f), b(1.0009f), Tolerance::Transcendental));
   EXPECT_FALSE(values_match(b(1.0f), b(1.002f), Tolerance::Transcendental));

   /* NaN matches any NaN, nothing else. */
   EXPECT_TRUE(values_match(0x7fc00000u, 0xffc00000u, Tolerance::Float));
   EXPECT_FALSE(values_match(0x7fc00000u, b(0.0f), Tolerance::Float));
   EXPECT_FALSE(values_match(b(0.0f), 0x7fc00000u, Tolerance::Float));
   /* Infinity matches itself or a same-signed huge value (FLT_MAX). */
   EXPECT_TRUE(values_match(b(inf), b(std::numeric_limits<float>::max()), Tolerance::Float));
   EXPECT_FALSE(values_match(b(inf), b(-std::numeric_limits<float>::max()), Tolerance::Float));
   EXPECT_FALSE(values_match(b(inf), b(1e30f), Tolerance::Float));
   EXPECT_FALSE(values_match(b(inf), b(-inf), Tolerance::Transcendental));
}

TEST(Compare, DerivedTolerances)
{
   const std::string pre = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL OUT[1], GENERIC[1]\n"
                           "DCL TEMP[0..1]\nIMM[0] UINT32 {1, 2, 3, 4}\n";
   /* Integer arithmetic through temporaries stays exact. */
   std::string t = pre + "UADD TEMP[0], IN[0], IMM[0]\nMOV OUT[0], TEMP[0]\n"
                         "ADD OUT[1].xy, IN[0], IN[0]\nRCP OUT[1].z, IN[0].xxxx\nEND\n";
   EXPECT_EQ(tol_of(t, 0, 0), Tolerance::Exact);
   EXPECT_EQ(tol_of(t, 1, 0), Tolerance::Float);
   EXPECT_EQ(tol_of(t, 1, 2), Tolerance::Transcendental);
   EXPECT_EQ(tol_of(t, 1, 3), Tolerance::Exact); /* never written */
   /* A transcendental result carries through float arithmetic and moves,
    * per channel. */
   t = pre + "MOV TEMP[0], IN[0]\nEX2 TEMP[0].y, IN[0].xxxx\n"
             "MUL TEMP[1], TEMP[0], IN[0]\nMOV OUT[0], TEMP[1]\nEND\n";
   EXPECT_EQ(tol_of(t, 0, 0), Tolerance::Float);
   EXPECT_EQ(tol_of(t, 0, 1), Tolerance::Transcendental);
   /* Loop-carried: the second pass sees the transcendental value. */
   t = pre + "MOV TEMP[0], IN[0]\nBGNLOOP\nADD TEMP[1], TEMP[0], IN[0]\n"
             "SIN TEMP[0], IN[0].xxxx\nBRK\nENDLOOP\nMOV OUT[0], TEMP[1]\nEND\n";
   EXPECT_EQ(tol_of(t, 0, 0), Tolerance::Transcendental);
   /* Conversion to integer is exact whatever fed it. */
   t = pre + "SQRT TEMP[0], IN[0].xxxx\nF2I OUT[0], TEMP[0]\nEND\n";
   EXPECT_EQ(tol_of(t, 0, 0), Tolerance::Exact);
}

TEST(Compare, Batches)
{
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "ADD OUT[0].xy, IN[0], IN[0]\nF2I OUT[0].zw, IN[0]\nEND\n";
   Diagnostics diags;
   auto sh = tgsi::parse_tgsi(text, "t.tgsi", diags);
   ASSERT_TRUE(sh) << diags.str();
   OutputTolerances tol = derive_tolerances(*sh);
   Batch ref, got;
   ref.lanes.resize(3);
   for (auto &l : ref.lanes)
      l.outputs = {vec4f(1, 2, 0, 0)};
   ref.lanes[0].outputs[0][2] = 7;
   got = ref;
   got.lanes[0].outputs[0][0] = b(1.00001f);
   EXPECT_FALSE(compare_batches(ref, got, tol).has_value());

   got.lanes[1].outputs[0][2] = 8;
   auto m = compare_batches(ref, got, tol);
   ASSERT_TRUE(m.has_value());
   EXPECT_EQ(m->str(), "lane 1: OUT[0].z reference 0x00000000 (0) got 0x00000008 (1.12104e-44)");

   /* Helper lanes are ignored; killed lanes only compare the flag. */
   ref.lanes[1].helper = true;
   EXPECT_FALSE(compare_batches(ref, got, tol).has_value());
   got.lanes[2].killed = true;
   m = compare_batches(ref, got, tol);
   ASSERT_TRUE(m.has_value());
   EXPECT_EQ(m->str(), "lane 2: killed false in the reference, true in the result");
   ref.lanes[2].killed = true;
   got.lanes[2].outputs[0][0] = b(99.0f);
   EXPECT_FALSE(compare_batches(ref, got, tol).has_value());

   /* Lanes the reference found undefined by GL are not compared, killed
    * flag included; the mark on the other side does not matter. */
   got.lanes[0].outputs[0][1] = b(-5.0f);
   got.lanes[0].killed = true;
   m = compare_batches(ref, got, tol);
   ASSERT_TRUE(m.has_value());
   EXPECT_EQ(m->lane, 0u);
   got.lanes[0].undefined = kUndefinedPow;
   EXPECT_TRUE(compare_batches(ref, got, tol).has_value());
   ref.lanes[0].undefined = kUndefinedDerivative;
   EXPECT_FALSE(compare_batches(ref, got, tol).has_value());
}
