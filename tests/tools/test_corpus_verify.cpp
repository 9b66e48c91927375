/*
 * Optional 'corpus' suite: every TGSI shader of ../shared/corpus/tgsi through
 * the verifier, reference against reference.  It checks that input,
 * constant and texture generation handle real shaders (indirect addressing,
 * every texture target, integer uniforms bounding loops) and that runs are
 * deterministic.  Skipped when the corpus is absent.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "driver/target.h"
#include "runner/verify.h"
#include "tools/tools_common.h"

namespace fs = std::filesystem;

namespace {

fs::path corpus_dir()
{
   if (const char *env = std::getenv("SBCC_CORPUS"))
      return env;
   return fs::path(SBCC_SOURCE_ROOT) / ".." / "shared" / "corpus";
}

} // namespace

TEST(CorpusVerify, ReferenceAgreesWithItselfOnEveryShader)
{
   fs::path dir = corpus_dir() / "tgsi";
   std::error_code ec;
   if (!fs::is_directory(dir, ec))
      GTEST_SKIP() << "corpus not found at " << dir << " (set SBCC_CORPUS)";
   std::vector<std::string> files;
   for (auto it = fs::recursive_directory_iterator(dir, ec);
        !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".tgsi")
         files.push_back(it->path().string());
   std::sort(files.begin(), files.end());
   ASSERT_FALSE(files.empty());

   sbcc::Diagnostics d;
   auto ref = sbcc::make_target("reference", d);
   ASSERT_TRUE(ref) << d.str();
   sbcc::runner::VerifyOptions opts;
   opts.invocations = 16;
   opts.limits.max_loop_iterations = 4096;
   unsigned checked = 0;
   for (const auto &f : files) {
      sbcc::Diagnostics fd;
      auto stages = sbcc::tools::load_shader_file(f, fd);
      ASSERT_TRUE(stages) << fd.str();
      for (const auto &st : *stages) {
         auto a = ref->compile(st.shader, {}, fd, nullptr);
         auto b = ref->compile(st.shader, {}, fd, nullptr);
         ASSERT_TRUE(a && b) << f << ": " << fd.str();
         auto r = sbcc::runner::verify_shader(st.shader, *a, *b, opts);
         EXPECT_TRUE(r.status == sbcc::runner::VerifyStatus::Pass ||
                     r.status == sbcc::runner::VerifyStatus::Budget)
            << f << ": " << r.message;
         checked++;
      }
   }
   EXPECT_EQ(checked, files.size());
}
