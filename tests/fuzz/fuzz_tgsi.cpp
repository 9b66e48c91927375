/*
 * libFuzzer target for the TGSI text front-end.  Any input must parse or be
 * diagnosed without crashing; whatever parses must print and re-parse to
 * the same IR (a mismatch traps, so the fuzzer reports it as a crash).
 *
 * Run:  build-clang/tests/fuzz/fuzz_tgsi -dict=tests/fuzz/tgsi.dict -max_len=4096 \
 *          tests/fuzz/corpus-tgsi
 * Crashers, once fixed, go to tests/regress/tgsi/.
 */
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tgsi/tgsi_compare.h"
#include "tgsi/tgsi_ir.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   using namespace sbcc;
   std::string_view text(reinterpret_cast<const char *>(data), size);
   Diagnostics diags;
   auto shader = tgsi::parse_tgsi(text, "fuzz", diags);
   if (!shader) {
      if (!diags.has_errors())
         __builtin_trap(); /* failure without a reason */
      return 0;
   }
   if (diags.has_errors())
      __builtin_trap();
   const std::string printed = tgsi::print_tgsi(*shader);
   Diagnostics diags2;
   auto again = tgsi::parse_tgsi(printed, "printed", diags2);
   if (!again || !tgsi::test::shader_diff(*shader, *again).empty())
      __builtin_trap();
   if (tgsi::print_tgsi(*again) != printed)
      __builtin_trap();
   return 0;
}
