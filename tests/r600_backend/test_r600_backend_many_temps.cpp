/*
 * A generated shader with 2,000 temporaries in a loop: it fits the 124 GPRs
 * of the r600 family only through temporary merging, which runs by default
 * before the plain backend.  With merging it compiles, validates and agrees
 * with the reference interpreter on Evergreen and R700; without it the
 * backend refuses with the GPR limit instead of emitting bad code.
 */
#include <gtest/gtest.h>

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

} // namespace
