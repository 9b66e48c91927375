/*
 * libFuzzer target for the .shader_test parser (runner).  Any input must
 * parse cleanly or fail with at least one error that names a line; a parse
 * that succeeds must report no error.  Every parsed command is printed, so
 * the printer sees whatever the parser accepts.
 *
 * Run:  build-clang/tests/fuzz/fuzz_shader_test -dict=tests/fuzz/shader_test.dict \
 *          -max_len=4096 tests/fuzz/corpus-shader_test tests/shaders
 * Crashers, once fixed, go to tests/regress/shader_test/ (replayed by
 * tests/runner/test_shader_test_regress.cpp).
 */
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runner/shader_test.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   using namespace sbcc;
   std::string_view text(reinterpret_cast<const char *>(data), size);
   Diagnostics diags;
   auto t = runner::parse_shader_test(text, "fuzz", diags);
   if (!t) {
      bool located = false;
      for (const auto &d : diags.all())
         located |= d.severity == Severity::Error && d.loc.line > 0;
      if (!located)
         __builtin_trap(); /* failure without a located reason */
      return 0;
   }
   if (diags.has_errors())
      __builtin_trap();
   size_t total = 0;
   for (const auto &c : t->commands)
      total += runner::command_str(c).size();
   return total == size_t(-1);
}
