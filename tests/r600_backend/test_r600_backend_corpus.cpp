/*
 * The plain r600 backend over every corpus TGSI shader (suite 'corpus'):
 * each must compile for Evergreen, R700 and R600 and agree with the reference
 * (runner::verify_shader).  Lanes GL leaves undefined (implicit derivatives
 * in a partly active quad, POW of a negative base) are not compared; their
 * count is printed.  Skipped when the corpus is absent ($SBCC_CORPUS, else
 * <source root>/../shared/corpus).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "interp/interp.h"
#include "r600/r600_target.h"
#include "runner/verify.h"

namespace {

using namespace sbcc;
namespace fs = std::filesystem;

fs::path corpus_dir()
{
   if (const char *e = std::getenv("SBCC_CORPUS"))
      return e;
   return fs::path(SBCC_SOURCE_ROOT) / ".." / "shared" / "corpus";
}

void run_corpus(r600::ChipClass chip)
{
   fs::path dir = corpus_dir() / "tgsi";
   if (!fs::is_directory(dir))
      GTEST_SKIP() << "corpus not found at " << dir << " (set SBCC_CORPUS)";
   std::vector<fs::path> files;
   for (const auto &e : fs::recursive_directory_iterator(dir))
      if (e.path().extension() == ".tgsi")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   unsigned pass = 0, undefined_shaders = 0;
   uint64_t undefined_lanes = 0;
   for (const fs::path &f : files) {
      std::string rel = fs::relative(f, dir).generic_string();
      std::ifstream in(f);
      std::stringstream ss;
      ss << in.rdbuf();
      Diagnostics diags;
      auto sh = tgsi::parse_tgsi(ss.str(), f.string(), diags);
      ASSERT_TRUE(sh) << diags.str();
      auto ref = interp::make_reference_executable(*sh, diags);
      ASSERT_TRUE(ref) << diags.str();
      auto exe = r600::compile_tgsi_for_r600(*sh, chip, {}, DebugOptions{}, diags, nullptr);
      EXPECT_TRUE(exe) << rel << ": " << diags.str();
      if (!exe)
         continue;
      auto res = runner::verify_shader(*sh, *ref, *exe, runner::VerifyOptions{});
      if (res.undefined_lanes) {
         undefined_shaders++;
         undefined_lanes += res.undefined_lanes;
      }
      if (res.status == runner::VerifyStatus::Pass) {
         pass++;
      } else {
         ADD_FAILURE() << rel << ": " << res.message;
         std::printf("  differs: %s: %s\n", rel.c_str(), res.message.substr(0, 160).c_str());
      }
   }
   std::printf("%s: %u of %zu pass; %llu lanes undefined by GL in %u shaders, not compared\n",
               r600::chip_class_name(chip).data(), pass, files.size(),
               static_cast<unsigned long long>(undefined_lanes), undefined_shaders);
   EXPECT_EQ(pass, files.size());
}

TEST(R600BackendCorpus, Evergreen) { run_corpus(r600::ChipClass::Evergreen); }
TEST(R600BackendCorpus, R700) { run_corpus(r600::ChipClass::R700); }
TEST(R600BackendCorpus, R600) { run_corpus(r600::ChipClass::R600); }

} // namespace
