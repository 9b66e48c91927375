/* Reference interpreter: exact results of every ALU opcode family, operand
 * modifiers, saturate, swizzles and write masks. */
#include "interp_test_util.h"

#include <climits>
#include <limits>

using namespace sbcc;
using namespace sbcc::interp::test;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

Vec4 op(const std::string &name, std::vector<Vec4> ins, const std::string &mods = "")
{
   std::string srcs;
   for (size_t i = 0; i < ins.size(); i++)
      srcs += ", IN[" + std::to_string(i) + "]";
   std::string decl = "VERT\n";
   for (size_t i = 0; i < std::max<size_t>(ins.size(), 1); i++)
      decl += "DCL IN[" + std::to_string(i) + "]\n";
   decl += "DCL OUT[0], GENERIC[0]\n";
   Runner r;
   return r.run1(decl + name + mods + " OUT[0]" + srcs + "\nEND\n", ins);
}

Vec4 f4(float x, float y, float z, float w) { return vec4f(x, y, z, w); }
Vec4 fs(float x) { return vec4f(x, x, x, x); }

} // namespace

TEST(InterpFloat, Arithmetic)
{
   EXPECT_EQ(op("ADD", {f4(1, 2, -3, 0.5f), f4(10, 20, 3, 0.25f)}), f4(11, 22, 0, 0.75f));
   Vec4 mul = op("MUL", {f4(1, 2, -3, 0), f4(10, 0.5f, 3, kInf)});
   EXPECT_EQ(fv(mul)[0], 10.0f);
   EXPECT_EQ(fv(mul)[1], 1.0f);
   EXPECT_EQ(fv(mul)[2], -9.0f);
   /* IEEE: 0 * inf is NaN (r600's legacy MUL gives 0; see semantics.md). */
   EXPECT_TRUE(std::isnan(fv(mul)[3]));
   EXPECT_EQ(op("MAD", {f4(2, 3, 4, 5), f4(3, 3, 3, 3), f4(1, -9, 0, 0.5f)}),
             f4(7, 0, 12, 15.5f));
   /* MAD rounds twice, FMA once: (1+2^-23)^2 - 1 */
   const float e = 1.0f + 0x1p-23f;
   Vec4 mad = op("MAD", {fs(e), fs(e), fs(-1.0f)});
   Vec4 fma = op("FMA", {fs(e), fs(e), fs(-1.0f)});
   EXPECT_EQ(u2f(mad[0]), 0x1p-22f);
   EXPECT_EQ(u2f(fma[0]), 0x1p-22f + 0x1p-46f);
   EXPECT_EQ(op("LRP", {f4(0, 1, 0.5f, 0.25f), fs(8), fs(4)}), f4(4, 8, 6, 5));
   EXPECT_EQ(op("DP2", {f4(1, 2, 3, 4), f4(5, 6, 7, 8)}), fs(17));
   EXPECT_EQ(op("DP3", {f4(1, 2, 3, 4), f4(5, 6, 7, 8)}), fs(38));
   EXPECT_EQ(op("DP4", {f4(1, 2, 3, 4), f4(5, 6, 7, 8)}), fs(70));
   EXPECT_EQ(op("DPH", {f4(1, 2, 3, 4), f4(5, 6, 7, 8)}), fs(46));
}

TEST(InterpFloat, MinMaxNaN)
{
   EXPECT_EQ(op("MIN", {f4(1, -2, kNaN, 3), f4(2, -3, 5, kNaN)}), f4(1, -3, 5, 3));
   EXPECT_EQ(op("MAX", {f4(1, -2, kNaN, 3), f4(2, -3, 5, kNaN)}), f4(2, -2, 5, 3));
}

TEST(InterpFloat, Rounding)
{
   EXPECT_EQ(op("FLR", {f4(1.5f, -1.5f, 2, -0.25f)}), f4(1, -2, 2, -1));
   EXPECT_EQ(op("CEIL", {f4(1.5f, -1.5f, 2, -0.25f)}), f4(2, -1, 2, -0.0f));
   EXPECT_EQ(op("TRUNC", {f4(1.5f, -1.5f, 2.9f, -0.25f)}), f4(1, -1, 2, -0.0f));
   EXPECT_EQ(op("ROUND", {f4(2.5f, 3.5f, -2.5f, -0.4f)}), f4(2, 4, -2, -0.0f));
   EXPECT_EQ(op("FRC", {f4(1.25f, -1.25f, 3, -0.5f)}), f4(0.25f, 0.75f, 0, 0.5f));
   EXPECT_EQ(op("SSG", {f4(3, -0.5f, 0, kNaN)}), f4(1, -1, 0, 0));
   EXPECT_EQ(op("ABS", {f4(3, -0.5f, -0.0f, -kInf)}), f4(3, 0.5f, 0, kInf));
}

TEST(InterpFloat, Compares)
{
   const Vec4 a = f4(1, 2, 3, kNaN), b = f4(2, 2, 1, 1);
   EXPECT_EQ(op("SLT", {a, b}), f4(1, 0, 0, 0));
   EXPECT_EQ(op("SGE", {a, b}), f4(0, 1, 1, 0));
   EXPECT_EQ(op("SEQ", {a, b}), f4(0, 1, 0, 0));
   EXPECT_EQ(op("SNE", {a, b}), f4(1, 0, 1, 1));
   EXPECT_EQ(op("SGT", {a, b}), f4(0, 0, 1, 0));
   EXPECT_EQ(op("SLE", {a, b}), f4(1, 1, 0, 0));
   EXPECT_EQ(op("FSLT", {a, b}), vec4u(~0u, 0, 0, 0));
   EXPECT_EQ(op("FSGE", {a, b}), vec4u(0, ~0u, ~0u, 0));
   EXPECT_EQ(op("FSEQ", {a, b}), vec4u(0, ~0u, 0, 0));
   EXPECT_EQ(op("FSNE", {a, b}), vec4u(~0u, 0, ~0u, ~0u));
}

TEST(InterpFloat, Selects)
{
   EXPECT_EQ(op("CMP", {f4(-1, 0, -0.0f, 1), fs(10), fs(20)}), f4(10, 20, 20, 20));
   EXPECT_EQ(op("UCMP", {vec4u(1, 0, 0x80000000u, 0), fs(10), fs(20)}), f4(10, 20, 10, 20));
}

TEST(InterpFloat, Transcendentals)
{
   EXPECT_EQ(op("RCP", {f4(4, 0, 0, 0)}), fs(0.25f));
   EXPECT_EQ(op("RCP", {fs(0.0f)}), fs(kInf));
   EXPECT_EQ(op("RCP", {fs(-0.0f)}), fs(-kInf));
   /* TGSI RSQ takes |x|. */
   EXPECT_EQ(op("RSQ", {fs(-4.0f)}), fs(0.5f));
   EXPECT_EQ(op("RSQ", {fs(0.0f)}), fs(kInf));
   EXPECT_EQ(op("SQRT", {fs(16.0f)}), fs(4.0f));
   Vec4 s = op("SQRT", {fs(-1.0f)});
   EXPECT_TRUE(std::isnan(u2f(s[0])));
   EXPECT_EQ(op("EX2", {fs(3.0f)}), fs(8.0f));
   EXPECT_EQ(op("EX2", {fs(-1.0f)}), fs(0.5f));
   EXPECT_EQ(op("LG2", {fs(8.0f)}), fs(3.0f));
   EXPECT_EQ(op("LG2", {fs(0.0f)}), fs(-kInf));
   EXPECT_EQ(op("POW", {fs(2.0f), fs(10.0f)}), fs(1024.0f));
   EXPECT_EQ(op("POW", {fs(0.0f), fs(0.0f)}), fs(1.0f));
   EXPECT_EQ(op("SIN", {fs(0.0f)}), fs(0.0f));
   EXPECT_EQ(op("COS", {fs(0.0f)}), fs(1.0f));
   EXPECT_NEAR(u2f(op("SIN", {fs(1.5707964f)})[0]), 1.0f, 1e-6f);
   EXPECT_EQ(op("LDEXP", {fs(3.0f), vec4i(2, -1, 0, 3)}), f4(12, 1.5f, 3, 24));
}

TEST(InterpFloat, ChannelRules)
{
   /* LIT: (1, max(x,0), x>0 ? max(y,0)^clamp(w,-128,128) : 0, 1) */
   EXPECT_EQ(op("LIT", {f4(0.5f, 2, 0, 3)}), f4(1, 0.5f, 8, 1));
   EXPECT_EQ(op("LIT", {f4(-0.5f, 2, 0, 3)}), f4(1, 0, 0, 1));
   EXPECT_EQ(op("LIT", {f4(1, 0.5f, 0, 200)}), f4(1, 1, std::pow(0.5f, 128.0f), 1));
   EXPECT_EQ(op("LIT", {f4(1, -2, 0, 0)}), f4(1, 1, 1, 1));
   /* EXP: (2^floor(x), x - floor(x), 2^x, 1) */
   EXPECT_EQ(op("EXP", {fs(2.5f)}), f4(4, 0.5f, std::exp2(2.5f), 1));
   EXPECT_EQ(op("EXP", {fs(-1.5f)}), f4(0.25f, 0.5f, std::exp2(-1.5f), 1));
   /* LOG on |x|: (floor(lg2), |x| / 2^floor(lg2), lg2, 1) */
   EXPECT_EQ(op("LOG", {fs(-12.0f)}), f4(3, 1.5f, std::log2(12.0f), 1));
   EXPECT_EQ(op("LOG", {fs(1.0f)}), f4(0, 1, 0, 1));
   /* DST: (1, a.y*b.y, a.z, b.w) */
   EXPECT_EQ(op("DST", {f4(9, 2, 3, 9), f4(9, 5, 9, 7)}), f4(1, 10, 3, 7));
}

TEST(InterpConvert, FloatToInt)
{
   EXPECT_EQ(op("F2I", {f4(3.9f, -3.9f, 3e9f, -3e9f)}), vec4i(3, -3, INT_MAX, INT_MIN));
   EXPECT_EQ(op("F2I", {f4(kNaN, kInf, -kInf, -0.5f)}), vec4i(0, INT_MAX, INT_MIN, 0));
   EXPECT_EQ(op("F2U", {f4(3.9f, -3.9f, 5e9f, 4294967040.0f)}),
             vec4u(3, 0, UINT32_MAX, 4294967040u));
   EXPECT_EQ(op("F2U", {f4(kNaN, kInf, -kInf, 0.999f)}), vec4u(0, UINT32_MAX, 0, 0));
   EXPECT_EQ(op("I2F", {vec4i(-7, 16777217, INT_MIN, 0)}), f4(-7, 16777216, -2147483648.0f, 0));
   EXPECT_EQ(op("U2F", {vec4u(7, 0xffffffffu, 0x80000000u, 0)}),
             f4(7, 4294967296.0f, 2147483648.0f, 0));
}

TEST(InterpInteger, Arithmetic)
{
   EXPECT_EQ(op("UADD", {vec4u(1, 0xffffffffu, 5, 0), vec4u(2, 1, 0xfffffffbu, 0)}),
             vec4u(3, 0, 0, 0));
   EXPECT_EQ(op("UMUL", {vec4u(3, 0x10000, 7, 0xffffffffu), vec4u(4, 0x10000, 0, 2)}),
             vec4u(12, 0, 0, 0xfffffffeu));
   EXPECT_EQ(op("UMAD", {vec4u(3, 2, 0, 1), vec4u(4, 2, 9, 1), vec4u(1, 0xfffffffcu, 5, 1)}),
             vec4u(13, 0, 5, 2));
   EXPECT_EQ(op("UDIV", {vec4u(7, 7, 0, 0xffffffffu), vec4u(2, 0, 0, 16)}),
             vec4u(3, 0xffffffffu, 0xffffffffu, 0x0fffffffu));
   EXPECT_EQ(op("UMOD", {vec4u(7, 7, 0, 0xffffffffu), vec4u(2, 0, 0, 16)}),
             vec4u(1, 0xffffffffu, 0xffffffffu, 15));
   EXPECT_EQ(op("IDIV", {vec4i(-7, 7, INT_MIN, 5), vec4i(2, -2, -1, 0)}),
             vec4i(-3, -3, INT_MIN, -1));
   EXPECT_EQ(op("IDIV", {vec4i(-5, 0, 100, -100), vec4i(0, 0, -7, -7)}), vec4i(1, -1, -14, 14));
   EXPECT_EQ(op("MOD", {vec4i(-7, 7, INT_MIN, 5), vec4i(2, -2, -1, 0)}), vec4i(-1, 1, 0, -1));
   EXPECT_EQ(op("MOD", {vec4i(-5, -100, 100, 9), vec4i(0, 7, -7, 10)}), vec4i(1, -2, 2, 9));
   EXPECT_EQ(op("IMUL_HI", {vec4i(0x40000000, -2, INT_MIN, 3), vec4i(4, 3, INT_MIN, 5)}),
             vec4i(1, -1, 0x40000000, 0));
   EXPECT_EQ(op("UMUL_HI", {vec4u(0x80000000u, 0xffffffffu, 3, 0), vec4u(4, 0xffffffffu, 5, 9)}),
             vec4u(2, 0xfffffffeu, 0, 0));
   EXPECT_EQ(op("INEG", {vec4i(5, -5, INT_MIN, 0)}), vec4i(-5, 5, INT_MIN, 0));
   EXPECT_EQ(op("IABS", {vec4i(5, -5, INT_MIN, 0)}), vec4i(5, 5, INT_MIN, 0));
   EXPECT_EQ(op("ISSG", {vec4i(5, -5, INT_MIN, 0)}), vec4i(1, -1, -1, 0));
   EXPECT_EQ(op("IMAX", {vec4i(-1, 2, 3, INT_MIN), vec4i(1, -2, 3, 0)}), vec4i(1, 2, 3, 0));
   EXPECT_EQ(op("IMIN", {vec4i(-1, 2, 3, INT_MIN), vec4i(1, -2, 3, 0)}),
             vec4i(-1, -2, 3, INT_MIN));
   EXPECT_EQ(op("UMAX", {vec4u(0xffffffffu, 2, 3, 0), vec4u(1, 5, 3, 0)}),
             vec4u(0xffffffffu, 5, 3, 0));
   EXPECT_EQ(op("UMIN", {vec4u(0xffffffffu, 2, 3, 0), vec4u(1, 5, 3, 0)}), vec4u(1, 2, 3, 0));
}

TEST(InterpInteger, Compares)
{
   const Vec4 a = vec4i(-1, 2, 3, 0), b = vec4i(1, 2, -3, 0);
   EXPECT_EQ(op("ISLT", {a, b}), vec4u(~0u, 0, 0, 0));
   EXPECT_EQ(op("ISGE", {a, b}), vec4u(0, ~0u, ~0u, ~0u));
   EXPECT_EQ(op("USLT", {a, b}), vec4u(0, 0, ~0u, 0));
   EXPECT_EQ(op("USGE", {a, b}), vec4u(~0u, ~0u, 0, ~0u));
   EXPECT_EQ(op("USEQ", {a, b}), vec4u(0, ~0u, 0, ~0u));
   EXPECT_EQ(op("USNE", {a, b}), vec4u(~0u, 0, ~0u, 0));
}

TEST(InterpInteger, Bits)
{
   EXPECT_EQ(op("NOT", {vec4u(0, 0xf0f0f0f0u, 1, ~0u)}), vec4u(~0u, 0x0f0f0f0fu, ~1u, 0));
   EXPECT_EQ(op("AND", {vec4u(0xff, 0xf0, 3, 0), vec4u(0x0f, 0xff, 5, ~0u)}),
             vec4u(0x0f, 0xf0, 1, 0));
   EXPECT_EQ(op("OR", {vec4u(0xf0, 0, 3, 0), vec4u(0x0f, 0, 5, ~0u)}), vec4u(0xff, 0, 7, ~0u));
   EXPECT_EQ(op("XOR", {vec4u(0xff, 0, 3, 0), vec4u(0x0f, 0, 5, ~0u)}), vec4u(0xf0, 0, 6, ~0u));
   /* Shift counts use the low 5 bits. */
   EXPECT_EQ(op("SHL", {vec4u(1, 1, 1, 3), vec4u(4, 32, 33, 31)}),
             vec4u(16, 1, 2, 0x80000000u));
   EXPECT_EQ(op("USHR", {vec4u(0x80000000u, 16, 16, 16), vec4u(31, 32, 34, 1)}),
             vec4u(1, 16, 4, 8));
   EXPECT_EQ(op("ISHR", {vec4i(INT_MIN, -16, -16, 16), vec4u(31, 32, 2, 1)}),
             vec4i(-1, -16, -4, 8));
   EXPECT_EQ(op("UBFE", {vec4u(0x700, 0xf000, 0x12345678u, 0xffffffffu), vec4u(8, 12, 8, 0),
                         vec4u(4, 4, 5, 0)}),
             vec4u(7, 15, 22, 0));
   EXPECT_EQ(op("IBFE", {vec4u(0x700, 0xf000, 0x12345678u, 0xffffffffu), vec4u(8, 12, 8, 0),
                         vec4u(4, 4, 5, 0)}),
             vec4i(7, -1, -10, 0));
   /* offset + bits >= 32 extracts to the top; counts are masked to 5 bits */
   EXPECT_EQ(op("UBFE", {vec4u(0xf0000000u, 0xf0000000u, 0xff, 0), vec4u(28, 28, 36, 0),
                         vec4u(8, 4, 35, 0)}),
             vec4u(0xf, 0xf, 0x7, 0));
   EXPECT_EQ(op("IBFE", {vec4u(0xf0000000u, 0, 0, 0), vec4u(28, 0, 0, 0), vec4u(8, 0, 0, 0)}),
             vec4i(-1, 0, 0, 0));
   EXPECT_EQ(op("BFI", {vec4u(0xffffffffu, 0, 0x12345678u, 0xab), vec4u(0, 0xff, 0xf, 0xff),
                        vec4u(4, 8, 28, 0), vec4u(8, 4, 4, 0)}),
             vec4u(0xfffff00fu, 0xf00, 0xf2345678u, 0xab));
   EXPECT_EQ(op("BREV", {vec4u(1, 0x80000000u, 0xf0, 0)}), vec4u(0x80000000u, 1, 0x0f000000u, 0));
   EXPECT_EQ(op("POPC", {vec4u(0, ~0u, 0xf0f0, 1)}), vec4u(0, 32, 8, 1));
   EXPECT_EQ(op("LSB", {vec4u(0, 1, 0x80000000u, 0x50)}), vec4i(-1, 0, 31, 4));
   EXPECT_EQ(op("UMSB", {vec4u(0, 1, 0x80000000u, 0x50)}), vec4i(-1, 0, 31, 6));
   EXPECT_EQ(op("IMSB", {vec4i(0, -1, -2, 0x50)}), vec4i(-1, -1, 0, 6));
   EXPECT_EQ(op("IMSB", {vec4i(INT_MIN, INT_MAX, 1, -0x51)}), vec4i(30, 30, 0, 6));
}

TEST(InterpModifiers, FloatNegateAbsAndSaturate)
{
   EXPECT_EQ(op("MOV", {f4(1, -2, 0, kInf)}, "") , f4(1, -2, 0, kInf));
   Runner r;
   const std::string pre = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n";
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], -IN[0]\nEND\n", {f4(1, -2, 0, kInf)}),
             f4(-1, 2, -0.0f, -kInf));
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], |IN[0]|\nEND\n", {f4(1, -2, -0.0f, -kInf)}),
             f4(1, 2, 0, kInf));
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], -|IN[0]|\nEND\n", {f4(1, -2, 0, -kInf)}),
             f4(-1, -2, -0.0f, -kInf));
   /* _SAT clamps to [0,1] and sends NaN to 0. */
   EXPECT_EQ(r.run1(pre + "ADD_SAT OUT[0], IN[0], IN[0]\nEND\n", {f4(0.25f, -1, 3, kNaN)}),
             f4(0.5f, 0, 1, 0));
   EXPECT_EQ(r.run1(pre + "MOV_SAT OUT[0], IN[0]\nEND\n", {f4(-0.0f, 0.5f, kInf, -kInf)}),
             f4(0, 0.5f, 1, 0));
   /* _SAT on an integer result is ignored. */
   EXPECT_EQ(r.run1(pre + "UADD_SAT OUT[0], IN[0], IN[0]\nEND\n", {vec4u(5, 0, 0, 0)}),
             vec4u(10, 0, 0, 0));
}

TEST(InterpModifiers, IntegerNegateAbs)
{
   Runner r;
   const std::string pre = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\n";
   /* On integer opcodes negate is two's complement, abs is integer abs. */
   EXPECT_EQ(r.run1(pre + "UADD OUT[0], IN[0], -IN[1]\nEND\n",
                    {vec4u(10, 0, 5, 0), vec4i(3, 1, -5, INT_MIN)}),
             vec4i(7, -1, 10, INT_MIN));
   EXPECT_EQ(r.run1(pre + "IMAX OUT[0], |IN[0]|, IN[1]\nEND\n",
                    {vec4i(-10, 3, INT_MIN, -1), vec4i(0, 0, 0, 0)}),
             vec4i(10, 3, 0, 1));
   /* UCMP's selected values take float modifiers, its condition integer ones. */
   EXPECT_EQ(r.run1(pre + "UCMP OUT[0], -IN[0], -IN[1], IN[1]\nEND\n",
                    {vec4u(1, 0, 0x80000000u, 0), f4(2, 3, 4, 5)}),
             f4(-2, 3, -4, 5));
}

TEST(InterpModifiers, SwizzleWriteMaskOverlap)
{
   Runner r;
   const std::string pre = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0]\n";
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], IN[0].wzyx\nEND\n", {f4(1, 2, 3, 4)}), f4(4, 3, 2, 1));
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], IN[0].xxyy\nEND\n", {f4(1, 2, 3, 4)}), f4(1, 1, 2, 2));
   /* Unwritten channels keep their value (0 at the start). */
   EXPECT_EQ(r.run1(pre + "MOV OUT[0].yw, IN[0]\nEND\n", {f4(1, 2, 3, 4)}), f4(0, 2, 0, 4));
   /* Sources are read before the destination is written. */
   EXPECT_EQ(r.run1(pre + "MOV TEMP[0], IN[0]\nADD TEMP[0], TEMP[0].yxwz, TEMP[0]\n"
                          "MOV OUT[0], TEMP[0]\nEND\n",
                    {f4(1, 2, 3, 4)}),
             f4(3, 3, 7, 7));
   /* Outputs can be read back. */
   EXPECT_EQ(r.run1(pre + "MOV OUT[0], IN[0]\nADD OUT[0].y, OUT[0].xxxx, OUT[0].wwww\nEND\n",
                    {f4(1, 2, 3, 4)}),
             f4(1, 5, 3, 4));
   /* DP3 with a write mask: the replicated scalar lands in written channels. */
   EXPECT_EQ(r.run1(pre + "DP3 OUT[0].xz, IN[0], IN[0]\nEND\n", {f4(1, 2, 3, 4)}),
             f4(14, 0, 14, 0));
}

TEST(InterpResources, ConstantsImmediatesAndSystemValues)
{
   Runner r;
   r.res.constants = {{vec4f(1, 2, 3, 4), vec4f(5, 6, 7, 8)}, {vec4f(10, 20, 30, 40)}};
   const std::string text = "VERT\nDCL CONST[0][0..1]\nDCL CONST[1][0]\nDCL OUT[0], GENERIC[0]\n"
                            "DCL OUT[1], GENERIC[1]\nDCL SV[0], VERTEXID\n"
                            "IMM[0] UINT32 {7, 8, 9, 10}\n"
                            "ADD OUT[0], CONST[0][1], CONST[1][0]\n"
                            "UADD OUT[1], SV[0].xxxx, IMM[0]\nEND\n";
   Diagnostics diags;
   auto exe = compile(text, diags);
   ASSERT_TRUE(exe) << diags.str();
   Batch b;
   b.lanes.resize(2);
   b.lanes[0].system_values = {vec4u(100, 0, 0, 0)};
   b.lanes[1].system_values = {vec4u(200, 0, 0, 0)};
   RunResult res = exe->run(r.res, b, r.limits);
   EXPECT_EQ(res.status, RunStatus::Ok);
   EXPECT_EQ(res.instructions, 6u); /* 3 instructions x 2 lanes */
   ASSERT_EQ(b.lanes[1].outputs.size(), 2u);
   EXPECT_EQ(b.lanes[0].outputs[0], f4(15, 26, 37, 48));
   EXPECT_EQ(b.lanes[0].outputs[1], vec4u(107, 108, 109, 110));
   EXPECT_EQ(b.lanes[1].outputs[1], vec4u(207, 208, 209, 210));
}
