/*
 * Replays tests/regress/tgsi: inputs that once crashed, hung or confused
 * the parser (mostly fuzzer finds).  Each must end either in a shader with
 * no errors that survives print and re-parse, or in errors that all carry a
 * line number - never in a crash.
 */
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tgsi/tgsi_compare.h"
#include "tgsi/tgsi_ir.h"

#ifndef SBCC_REGRESS_DIR
#error "SBCC_REGRESS_DIR must name tests/regress/tgsi"
#endif

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

TEST(TgsiRegress, EveryInputParsesOrIsDiagnosed)
{
   std::vector<std::filesystem::path> files;
   for (const auto &e : std::filesystem::directory_iterator(SBCC_REGRESS_DIR))
      if (e.is_regular_file() && e.path().filename() != "README.md")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   ASSERT_GE(files.size(), 5u) << "regress inputs missing from " << SBCC_REGRESS_DIR;

   unsigned parsed = 0, rejected = 0;
   for (const auto &path : files) {
      std::ifstream f(path, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      const std::string text = ss.str();
      Diagnostics diags;
      auto s = parse_tgsi(text, path.filename().string(), diags);
      if (s) {
         parsed++;
         EXPECT_FALSE(diags.has_errors()) << path;
         Diagnostics again_diags;
         auto again = parse_tgsi(print_tgsi(*s), "printed", again_diags);
         ASSERT_TRUE(again) << path << "\n" << again_diags.str();
         EXPECT_EQ(test::shader_diff(*s, *again), "") << path;
         EXPECT_EQ(print_tgsi(*again), print_tgsi(*s)) << path;
      } else {
         rejected++;
         ASSERT_TRUE(diags.has_errors()) << path;
         for (const Diagnostic &d : diags.all())
            EXPECT_GT(d.loc.line, 0u) << path << ": " << d.str();
      }
   }
   EXPECT_EQ(parsed + rejected, files.size());
}

} // namespace
