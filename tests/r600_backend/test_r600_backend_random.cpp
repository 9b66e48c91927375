/*
 * Randomized differential test of the plain r600 backend: a seeded
 * generator (random_tgsi_gen.h, shared with the sb differential test) writes
 * well-formed TGSI programs (float and integer ALU, IF/ELSE,
 * counted loops with BRK/CONT, indirect TEMP arrays through ARL/UARL,
 * indirect constants, 2D textures), each is compiled for Evergreen and
 * R700, decoded, run in the emulator and compared with the reference
 * interpreter on random inputs (runner::verify_shader).  A failure prints
 * the seed and the program.
 *
 * SBCC_R600_RANDOM_PROGRAMS overrides the number of programs per chip.
 */
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "interp/interp.h"
#include "r600/r600_target.h"
#include "r600_backend/random_tgsi_gen.h"
#include "runner/verify.h"
#include "tgsi/tgsi_ir.h"

namespace {

using namespace sbcc;

unsigned program_count()
{
   if (const char *e = std::getenv("SBCC_R600_RANDOM_PROGRAMS"))
      return unsigned(std::strtoul(e, nullptr, 10));
   return 1000;
}

void run_random(r600::ChipClass chip, uint32_t seed_base)
{
   unsigned n = program_count();
   unsigned passed = 0, budget = 0;
   for (unsigned i = 0; i < n; i++) {
      uint32_t seed = seed_base + i;
      std::string text = test::random_tgsi_program(seed, chip != r600::ChipClass::Cayman);
      Diagnostics diags;
      auto shader = tgsi::parse_tgsi(text, "random.tgsi", diags);
      ASSERT_TRUE(shader) << "seed " << seed << ": generator wrote bad TGSI\n"
                          << diags.str() << text;
      auto ref = interp::make_reference_executable(*shader, diags);
      ASSERT_TRUE(ref) << "seed " << seed << "\n" << diags.str() << text;
      DebugOptions dbg;
      auto exe = r600::compile_tgsi_for_r600(*shader, chip, {}, dbg, diags, nullptr);
      ASSERT_TRUE(exe) << "seed " << seed << ": compile failed\n" << diags.str() << text;
      runner::VerifyOptions vo;
      vo.seed = seed;
      vo.invocations = 16;
      vo.limits.max_loop_iterations = 64;
      auto res = runner::verify_shader(*shader, *ref, *exe, vo);
      if (res.status == runner::VerifyStatus::Budget) {
         budget++;
         continue;
      }
      ASSERT_EQ(res.status, runner::VerifyStatus::Pass)
         << "seed " << seed << " (" << r600::chip_class_name(chip) << "): " << res.message
         << "\n"
         << text << "\n"
         << exe->listing();
      passed++;
   }
   EXPECT_EQ(passed + budget, n);
   /* Loops are counted (at most 3 trips): nothing may hit the budget. */
   EXPECT_EQ(budget, 0u);
}

TEST(R600BackendRandom, EvergreenDifferential) { run_random(r600::ChipClass::Evergreen, 1000); }

TEST(R600BackendRandom, R700Differential) { run_random(r600::ChipClass::R700, 500000); }

TEST(R600BackendRandom, R600Differential) { run_random(r600::ChipClass::R600, 900000); }

TEST(R600BackendRandom, CaymanDifferential) { run_random(r600::ChipClass::Cayman, 1300000); }

} // namespace
