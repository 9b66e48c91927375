/*
 * Temporary merging over every TGSI shader of the real-shader corpus: the
 * merged shader must give bit-identical outputs in the reference interpreter
 * on random inputs, constants and textures.  Also prints the temporaries
 * before and after and the time merging took (measurements, not asserted).
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "tgsi/tgsi_ir.h"
#include "tgsi/tgsi_merge_temps.h"
#include "tgsi_lifetimes/merge_equivalence.h"

namespace {

std::string read_file(const std::filesystem::path &p)
{
   std::ifstream f(p, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

void check_dir(const char *sub)
{
   auto dir = sbcc::test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or provide ../shared/corpus)";
   auto files = sbcc::test::corpus_files(*dir, sub, ".tgsi");
   if (files.empty())
      GTEST_SKIP() << "no " << sub << " shaders in the corpus";

   long before = 0, after = 0;
   int changed = 0, skipped_indirect = 0, not_interpretable = 0, checked = 0;
   std::vector<double> micros;
   for (const auto &path : files) {
      SCOPED_TRACE(path.string());
      sbcc::Diagnostics diags;
      auto shader = sbcc::tgsi::parse_tgsi(read_file(path), path.string(), diags);
      ASSERT_TRUE(shader.has_value()) << diags.str();
      sbcc::tgsi::Shader merged = *shader;
      sbcc::tgsi::MergeStats stats;
      const auto t0 = std::chrono::steady_clock::now();
      const bool ok = sbcc::tgsi::merge_temps(merged, &diags, &stats);
      const auto t1 = std::chrono::steady_clock::now();
      ASSERT_TRUE(ok) << diags.str();
      micros.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      before += stats.temps_before;
      after += stats.temps_after;
      changed += stats.changed;
      skipped_indirect += std::string(stats.skipped) == "indirect";
      EXPECT_LE(stats.temps_after, stats.temps_before);
      if (!stats.changed)
         continue;

      sbcc::Diagnostics idiags;
      if (!sbcc::interp::make_reference_executable(*shader, idiags)) {
         not_interpretable++;
         continue;
      }
      checked++;
      EXPECT_EQ(sbcc::tgsi::test::compare_in_interpreter(*shader, merged, 4242, 2), "");
   }
   std::sort(micros.begin(), micros.end());
   double total_us = 0;
   for (double m : micros)
      total_us += m;
   std::printf("%s: %zu shaders, TEMPs %ld -> %ld, %d changed, %d left alone (indirect), "
               "%d changed shaders checked in the interpreter, %d not interpretable; "
               "merge time per shader: median %.1f us, max %.1f us, total %.1f ms\n",
               sub, files.size(), before, after, changed, skipped_indirect, checked,
               not_interpretable, micros[micros.size() / 2], micros.back(), total_us / 1000);
}

TEST(CorpusMergeTemps, R600TgsiMergedShadersAreEquivalent) { check_dir("tgsi"); }
TEST(CorpusMergeTemps, R300TgsiMergedShadersAreEquivalent) { check_dir("tgsi-r300"); }

} // namespace
