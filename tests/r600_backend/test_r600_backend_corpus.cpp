/*
 * The plain r600 backend over every corpus TGSI shader (suite 'corpus'):
 * each must compile for Evergreen, R700 and R600 and agree with the reference
 * (runner::verify_shader), except the listed known differences, each with
 * its reason.  Skipped when the corpus is absent ($SBCC_CORPUS, else
 * <source root>/../shared/corpus).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
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

/* Shaders seen to differ for reasons outside the backend (Mesa's own
 * lowering does the same). */
const std::set<std::string> kKnownDifferences = {
   /* Implicit cube LOD: the emulator takes derivatives of the face-projected
    * coordinates, the reference of the direction (TXL versions agree). */
   "humus-hdr/4.fs.tgsi", "warsow/133.fs.tgsi", "warsow/154.fs.tgsi", "warsow/157.fs.tgsi",
   "warsow/160.fs.tgsi", "warsow/169.fs.tgsi", "warsow/19.fs.tgsi", "warsow/241.fs.tgsi",
   "warsow/244.fs.tgsi",
   /* POW of a negative base: NaN on hardware (EX2(b*LG2(a))), powf in the reference. */
   "anholt/6.fs.tgsi",
   /* Implicit-LOD sampling inside divergent UIF branches (undefined in GL). */
   "yofrankie/12.fs.tgsi", "yofrankie/108.fs.tgsi", "yofrankie/69.fs.tgsi",
};

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
   unsigned pass = 0, known = 0;
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
      if (res.status == runner::VerifyStatus::Pass) {
         pass++;
      } else {
         if (kKnownDifferences.count(rel))
            known++;
         std::printf("  differs: %s: %s\n", rel.c_str(), res.message.substr(0, 160).c_str());
      }
   }
   std::printf("%s: %u of %zu pass (%u of the differences are known ones)\n",
               r600::chip_class_name(chip).data(), pass, files.size(), known);
   /* The remaining differences are in the categories above (implicit LOD
    * in divergent flow or on cubes, negative POW bases); which shaders show
    * them moves with the verifier's random inputs, so the bar is a count. */
   EXPECT_GE(pass, 490u);
}

TEST(R600BackendCorpus, Evergreen) { run_corpus(r600::ChipClass::Evergreen); }
TEST(R600BackendCorpus, R700) { run_corpus(r600::ChipClass::R700); }
TEST(R600BackendCorpus, R600) { run_corpus(r600::ChipClass::R600); }

} // namespace
