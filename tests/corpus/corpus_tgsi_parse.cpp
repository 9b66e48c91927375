/*
 * Every TGSI shader of the real-shader corpus (tgsi/ and tgsi-r300/) must
 * parse without a diagnostic, print back through print_tgsi to the very
 * text Mesa's tgsi_dump wrote, and re-parse to the same IR.
 */
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "tgsi/tgsi_compare.h"
#include "tgsi/tgsi_ir.h"

namespace {

std::string read_file(const std::filesystem::path &p)
{
   std::ifstream f(p, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

void check_dir(const char *sub, size_t min_files)
{
   auto dir = sbcc::test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or provide ../shared/corpus)";
   auto files = sbcc::test::corpus_files(*dir, sub, ".tgsi");
   ASSERT_GE(files.size(), min_files) << "corpus " << sub << " looks incomplete";
   size_t exact = 0;
   for (const auto &path : files) {
      const std::string text = read_file(path);
      sbcc::Diagnostics diags;
      auto shader = sbcc::tgsi::parse_tgsi(text, path.string(), diags);
      ASSERT_TRUE(shader.has_value()) << diags.str();
      EXPECT_EQ(diags.all().size(), 0u) << diags.str();
      const std::string printed = sbcc::tgsi::print_tgsi(*shader);
      EXPECT_EQ(printed, text) << path;
      if (printed == text)
         exact++;
      sbcc::Diagnostics diags2;
      auto again = sbcc::tgsi::parse_tgsi(printed, "printed", diags2);
      ASSERT_TRUE(again.has_value()) << path << "\n" << diags2.str();
      EXPECT_EQ(sbcc::tgsi::test::shader_diff(*shader, *again), "") << path;
   }
   ::testing::Test::RecordProperty("files", static_cast<int>(files.size()));
   ::testing::Test::RecordProperty("byte_identical", static_cast<int>(exact));
   std::printf("%s: %zu files, %zu print back byte-identical\n", sub, files.size(), exact);
}

TEST(CorpusTgsi, R600TgsiParsesAndRoundTrips) { check_dir("tgsi", 1); }
TEST(CorpusTgsi, R300TgsiParsesAndRoundTrips) { check_dir("tgsi-r300", 1); }

} // namespace
