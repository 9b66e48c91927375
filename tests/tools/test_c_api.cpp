/* The public C API, used the way a driver would: only include/sbcc/sbcc.h. */
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "sbcc/sbcc.h"

TEST(CApi, CompileReference)
{
   sbcc_compiler *c = sbcc_compiler_create("reference", nullptr);
   ASSERT_NE(c, nullptr);
   const char *text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                      "  0: MOV OUT[0], IN[0]\n  1: END\n";
   unsigned char *bin = reinterpret_cast<unsigned char *>(1);
   size_t size = 99;
   char *stats = nullptr, *err = nullptr;
   EXPECT_EQ(sbcc_compile_tgsi(c, text, strlen(text), &bin, &size, &stats, &err), 0);
   EXPECT_EQ(bin, nullptr); /* the reference has no machine code */
   EXPECT_EQ(size, 0u);
   ASSERT_NE(stats, nullptr);
   EXPECT_STREQ(stats, "2 inst, 0 temps, 1 inputs, 1 outputs");
   EXPECT_EQ(err, nullptr);
   sbcc_free(stats);
   sbcc_compiler_destroy(c);
}

TEST(CApi, ErrorsComeBackAsText)
{
   sbcc_compiler *c = sbcc_compiler_create("reference", "");
   ASSERT_NE(c, nullptr);
   const char *text = "FRAG\n  0: FROB OUT[0]\n";
   char *stats = nullptr, *err = nullptr;
   EXPECT_NE(sbcc_compile_tgsi(c, text, strlen(text), nullptr, nullptr, &stats, &err), 0);
   EXPECT_EQ(stats, nullptr);
   ASSERT_NE(err, nullptr);
   EXPECT_EQ(std::string(err).rfind("<input>:2:", 0), 0u) << err;
   sbcc_free(err);
   EXPECT_NE(sbcc_compile_tgsi(nullptr, text, 1, nullptr, nullptr, nullptr, nullptr), 0);
   sbcc_compiler_destroy(c);
}

TEST(CApi, TargetsAndUnknownTarget)
{
   EXPECT_EQ(sbcc_compiler_create("no-such-gpu", nullptr), nullptr);
   EXPECT_EQ(sbcc_compiler_create(nullptr, nullptr), nullptr);
   char *names = sbcc_target_names();
   ASSERT_NE(names, nullptr);
   EXPECT_EQ(std::string(names).rfind("reference", 0), 0u);
   sbcc_free(names);
   sbcc_compiler_destroy(nullptr); /* harmless, like free(NULL) */
}

/* Releasing the thread's kept memory between two compiles with sb on
 * changes nothing in what comes out. */
TEST(CApi, ReleaseThreadMemoryBetweenCompiles)
{
   setenv("R600_DEBUG", "sb", 1);
   sbcc_compiler *c = sbcc_compiler_create("evergreen", nullptr);
   unsetenv("R600_DEBUG");
   ASSERT_NE(c, nullptr);
   const char *text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                      "DCL TEMP[0]\nIMM[0] FLT32 { 0.5, 2.0, 0.0, 1.0 }\n"
                      "  0: MUL TEMP[0], IN[0], IMM[0].xxxx\n"
                      "  1: MAD TEMP[0], TEMP[0], IMM[0].yyyy, IN[0]\n"
                      "  2: DP3 TEMP[0].w, TEMP[0], TEMP[0]\n"
                      "  3: MOV OUT[0], TEMP[0]\n  4: END\n";
   std::string first, second;
   for (std::string *out : {&first, &second}) {
      unsigned char *bin = nullptr;
      size_t size = 0;
      char *err = nullptr;
      ASSERT_EQ(sbcc_compile_tgsi(c, text, strlen(text), &bin, &size, nullptr, &err), 0)
         << (err ? err : "");
      ASSERT_NE(bin, nullptr);
      out->assign(reinterpret_cast<const char *>(bin), size);
      sbcc_free(bin);
      sbcc_release_thread_memory();
   }
   EXPECT_EQ(first, second);
   sbcc_compiler_destroy(c);
}
