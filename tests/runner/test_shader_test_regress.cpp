/*
 * Replays tests/regress/shader_test: inputs that once crashed the
 * .shader_test parser (fuzz_shader_test) or were written to try to.  Each
 * must parse with no error, or fail with an error that names a line.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/shader_test.h"

#ifndef SBCC_REGRESS_DIR
#error "SBCC_REGRESS_DIR must name tests/regress/shader_test"
#endif

using namespace sbcc;

TEST(ShaderTestRegress, EveryInputParsesOrFailsAtALine)
{
   std::vector<std::filesystem::path> files;
   for (const auto &e : std::filesystem::directory_iterator(SBCC_REGRESS_DIR))
      if (e.path().extension() == ".shader_test")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   ASSERT_GE(files.size(), 5u) << "regress inputs missing from " << SBCC_REGRESS_DIR;
   for (const auto &f : files) {
      std::ifstream in(f, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      Diagnostics d;
      auto t = runner::parse_shader_test(ss.str(), f.filename().string(), d);
      if (t) {
         EXPECT_FALSE(d.has_errors()) << f << "\n" << d.str();
         continue;
      }
      bool located = false;
      for (const auto &g : d.all())
         located |= g.severity == Severity::Error && g.loc.line > 0;
      EXPECT_TRUE(located) << f << " failed without a located error:\n" << d.str();
   }
}

/* The fuzzer's first find: an empty file failed with no line at all. */
TEST(ShaderTestRegress, EmptyFileNamesLineOne)
{
   Diagnostics d;
   EXPECT_FALSE(runner::parse_shader_test("", "e.shader_test", d));
   EXPECT_EQ(d.str(), "e.shader_test:1:1: error: no shader stage section\n");
}
