/*
 * A generated shader with 2,000 temporaries in a loop: it fits the 124 GPRs
 * of the r600 family only through temporary merging, which runs by default
 * before the plain backend.  With merging it compiles, validates and agrees
 * with the reference interpreter on Evergreen and R700; without it the
 * backend refuses with the GPR limit instead of emitting bad code.
 *
 * This executable also holds the other backend tests that need the
 * reference interpreter beside the emulator: integer division and modulo
 * (RECIP_UINT on R600..Evergreen, a float quotient from RECIP_IEEE on Cayman)
 * over edge values and seeded random pairs, emulator against reference and
 * both against the rules of docs/semantics.md.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "interp/interp.h"
#include "r600/r600_target.h"
#include "runner/verify.h"
#include "tgsi/tgsi_merge_temps.h"
#include "tgsi_lifetimes/merge_test_shaders.h"

namespace {

using namespace sbcc;

tgsi::Shader many_temps_shader()
{
   Diagnostics diags;
   auto sh = tgsi::parse_tgsi(tgsi::test::make_loop_shader(2000, 1234, 40), "many.tgsi", diags);
   EXPECT_TRUE(sh) << diags.str();
   return sh ? *sh : tgsi::Shader{};
}

class ManyTemps : public testing::TestWithParam<r600::ChipClass> {};

TEST_P(ManyTemps, MergedShaderRunsLikeTheReference)
{
   tgsi::Shader sh = many_temps_shader();
   ASSERT_EQ(sh.file_size(tgsi::File::Temporary), 2001);

   Diagnostics diags;
   DebugOptions dbg; /* merging is on by default */
   ShaderStats stats;
   auto exe = r600::compile_tgsi_for_r600(sh, GetParam(), {}, dbg, diags, &stats);
   ASSERT_TRUE(exe) << diags.str();
   EXPECT_LE(stats.get("gprs"), 124);

   auto ref = interp::make_reference_executable(sh, diags);
   ASSERT_TRUE(ref) << diags.str();
   runner::VerifyOptions vo;
   vo.seed = 3;
   runner::VerifyResult res = runner::verify_shader(sh, *ref, *exe, vo);
   EXPECT_EQ(res.status, runner::VerifyStatus::Pass) << res.message;
}

TEST_P(ManyTemps, WithoutMergingTheGprLimitIsReported)
{
   tgsi::Shader sh = many_temps_shader();
   Diagnostics diags;
   DebugOptions dbg;
   dbg.merge_temps = false;
   auto exe = r600::compile_tgsi_for_r600(sh, GetParam(), {}, dbg, diags, nullptr);
   EXPECT_FALSE(exe);
   EXPECT_NE(diags.str().find("124"), std::string::npos) << diags.str();
}

INSTANTIATE_TEST_SUITE_P(Chips, ManyTemps,
                         testing::Values(r600::ChipClass::Evergreen, r600::ChipClass::R700),
                         [](const auto &info) {
                            return info.param == r600::ChipClass::Evergreen ? "Evergreen"
                                                                            : "R700";
                         });

/* UDIV/UMOD/IDIV/MOD of IN[0] by IN[1] into OUT[1].xyzw (OUT[0] is the
 * position, a copy of IN[0]). */
const char *kDivShader = "VERT\n"
                         "DCL IN[0]\n"
                         "DCL IN[1]\n"
                         "DCL OUT[0], POSITION\n"
                         "DCL OUT[1], GENERIC[0]\n"
                         "  0: MOV OUT[0], IN[0]\n"
                         "  1: UDIV OUT[1].x, IN[0].xxxx, IN[1].xxxx\n"
                         "  2: UMOD OUT[1].y, IN[0].xxxx, IN[1].xxxx\n"
                         "  3: IDIV OUT[1].z, IN[0].xxxx, IN[1].xxxx\n"
                         "  4: MOD OUT[1].w, IN[0].xxxx, IN[1].xxxx\n"
                         "  5: END\n";

/* All four channels divide at once, each by its own divisor, so the
 * per-channel scratch and Cayman's replicated MULHI/MULLO are exercised. */
const char *kDiv4Shader = "VERT\n"
                          "DCL IN[0]\n"
                          "DCL IN[1]\n"
                          "DCL OUT[0], POSITION\n"
                          "DCL OUT[1], GENERIC[0]\n"
                          "DCL OUT[2], GENERIC[1]\n"
                          "  0: MOV OUT[0], IN[0]\n"
                          "  1: UDIV OUT[1], IN[0], IN[1]\n"
                          "  2: MOD OUT[2], IN[0], IN[1]\n"
                          "  3: END\n";

/* docs/semantics.md: x/0 and x%0 are 0xffffffff unsigned; signed forms divide
 * magnitudes and then take the sign, so x/0 is -1 for x >= 0 and 1 below,
 * INT_MIN / -1 is INT_MIN and x % -1 is 0. */
uint32_t expect_udiv(uint32_t n, uint32_t d) { return d ? n / d : 0xffffffffu; }
uint32_t expect_umod(uint32_t n, uint32_t d) { return d ? n % d : 0xffffffffu; }
uint32_t expect_idiv(uint32_t n, uint32_t d)
{
   const int32_t a = int32_t(n), b = int32_t(d);
   if (b == 0)
      return a >= 0 ? 0xffffffffu : 1u;
   if (a == INT32_MIN && b == -1)
      return n;
   return uint32_t(a / b);
}
uint32_t expect_mod(uint32_t n, uint32_t d)
{
   const int32_t a = int32_t(n), b = int32_t(d);
   if (b == 0)
      return a >= 0 ? 0xffffffffu : 1u;
   if (b == -1)
      return 0;
   return uint32_t(a % b);
}

std::vector<std::pair<uint32_t, uint32_t>> division_pairs()
{
   const uint32_t edge[] = {0u,          1u,          2u,          3u,          7u,
                            10u,         0xffffu,     0x10000u,    0x10001u,    0x7fffffu,
                            0x800001u,   0xffffffu,   0x1000001u,  0x55555555u, 0x7ffffffeu,
                            0x7fffffffu, 0x80000000u, 0x80000001u, 0xaaaaaaabu, 0xfffffffeu,
                            0xffffffffu, 0xfffffff9u};
   std::vector<std::pair<uint32_t, uint32_t>> v;
   for (uint32_t n : edge)
      for (uint32_t d : edge)
         v.emplace_back(n, d);
   std::mt19937 rng(20261121);
   for (int i = 0; i < 4000; i++) {
      uint32_t n = rng(), d = rng();
      switch (i % 4) {
      case 1: d >>= rng() % 32; break;             /* small divisors, big quotients */
      case 2: d = (1u << (rng() % 32)) + rng() % 5 - 2; break; /* near powers of two */
      case 3: n >>= rng() % 32; d >>= rng() % 32; break;
      default: break;
      }
      v.emplace_back(n, d);
   }
   return v;
}

/* Runs `text` on the reference and on `chip`'s emulator over lanes whose
 * IN[0].c / IN[1].c are the pairs (pair k + c in channel c when `spread`),
 * and returns both batches. */
void run_both(const char *text, r600::ChipClass chip, bool spread, Batch &ref_b, Batch &emu_b,
              const std::vector<std::pair<uint32_t, uint32_t>> &pairs)
{
   Diagnostics diags;
   auto sh = tgsi::parse_tgsi(text, "div.tgsi", diags);
   ASSERT_TRUE(sh) << diags.str();
   DebugOptions dbg;
   auto exe = r600::compile_tgsi_for_r600(*sh, chip, {}, dbg, diags, nullptr);
   ASSERT_TRUE(exe) << diags.str();
   auto ref = interp::make_reference_executable(*sh, diags);
   ASSERT_TRUE(ref) << diags.str();
   Batch b;
   for (size_t k = 0; k < pairs.size(); k++) {
      Lane l;
      Vec4 n{}, d{};
      for (unsigned c = 0; c < 4; c++) {
         const auto &p = pairs[spread ? (k + c * 97) % pairs.size() : k];
         n[c] = p.first;
         d[c] = p.second;
      }
      l.inputs = {n, d};
      b.lanes.push_back(l);
   }
   ref_b = b;
   emu_b = b;
   Resources res;
   RunLimits lim;
   RunResult rr = ref->run(res, ref_b, lim);
   ASSERT_EQ(rr.status, RunStatus::Ok) << rr.message;
   RunResult er = exe->run(res, emu_b, lim);
   ASSERT_EQ(er.status, RunStatus::Ok) << er.message;
}

class DivMod : public testing::TestWithParam<r600::ChipClass> {};

TEST_P(DivMod, EdgeAndRandomPairsMatchReferenceAndRules)
{
   const auto pairs = division_pairs();
   Batch ref_b, emu_b;
   ASSERT_NO_FATAL_FAILURE(run_both(kDivShader, GetParam(), false, ref_b, emu_b, pairs));
   unsigned bad = 0;
   for (size_t k = 0; k < pairs.size() && bad < 10; k++) {
      const auto [n, d] = pairs[k];
      const Vec4 want{expect_udiv(n, d), expect_umod(n, d), expect_idiv(n, d), expect_mod(n, d)};
      ASSERT_GE(emu_b.lanes[k].outputs.size(), 2u);
      ASSERT_GE(ref_b.lanes[k].outputs.size(), 2u);
      const Vec4 &e = emu_b.lanes[k].outputs[1], &r = ref_b.lanes[k].outputs[1];
      if (e != want || r != want) {
         bad++;
         ADD_FAILURE() << std::hex << "n=0x" << n << " d=0x" << d << " udiv/umod/idiv/mod: want "
                       << want[0] << " " << want[1] << " " << want[2] << " " << want[3]
                       << ", emulator " << e[0] << " " << e[1] << " " << e[2] << " " << e[3]
                       << ", reference " << r[0] << " " << r[1] << " " << r[2] << " " << r[3];
      }
   }
   EXPECT_EQ(bad, 0u);
}

TEST_P(DivMod, FourChannelsWithTheirOwnDivisors)
{
   const auto pairs = division_pairs();
   Batch ref_b, emu_b;
   ASSERT_NO_FATAL_FAILURE(run_both(kDiv4Shader, GetParam(), true, ref_b, emu_b, pairs));
   unsigned bad = 0;
   for (size_t k = 0; k < pairs.size(); k++) {
      const Lane &l = emu_b.lanes[k];
      ASSERT_GE(l.outputs.size(), 3u);
      for (unsigned c = 0; c < 4; c++) {
         const uint32_t n = l.inputs[0][c], d = l.inputs[1][c];
         if (l.outputs[1][c] != expect_udiv(n, d) || l.outputs[2][c] != expect_mod(n, d) ||
             ref_b.lanes[k].outputs[1][c] != l.outputs[1][c] ||
             ref_b.lanes[k].outputs[2][c] != l.outputs[2][c]) {
            if (++bad <= 10)
               ADD_FAILURE() << std::hex << "lane " << k << " chan " << c << " n=0x" << n
                             << " d=0x" << d << ": udiv 0x" << l.outputs[1][c] << " mod 0x"
                             << l.outputs[2][c];
         }
      }
   }
   EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(Chips, DivMod,
                         testing::Values(r600::ChipClass::Cayman, r600::ChipClass::Evergreen,
                                         r600::ChipClass::R700, r600::ChipClass::R600),
                         [](const auto &info) {
                            switch (info.param) {
                            case r600::ChipClass::Cayman: return "Cayman";
                            case r600::ChipClass::Evergreen: return "Evergreen";
                            case r600::ChipClass::R700: return "R700";
                            default: return "R600";
                            }
                         });

} // namespace
