/*
 * libFuzzer target for the ARB program front-end.  Any input must lower or
 * be diagnosed with file:line:column without crashing; a lowered program's
 * TGSI must print, re-parse and print the same, and every CONST slot must
 * have its binding (a violation traps, so the fuzzer reports it).
 *
 * Run:  build-arb-clang/tests/fuzz/fuzz_arb -max_len=4096 -dict=tests/arb/fuzz_arb.dict <corpus dir>
 * Crashers, once fixed, go to tests/regress/arb/.
 */
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arb/arb_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   using namespace sbcc;
   std::string_view text(reinterpret_cast<const char *>(data), size);
   Diagnostics diags;
   auto prog = arb::parse_arb(text, "fuzz", diags);
   if (!prog) {
      if (!diags.has_errors())
         __builtin_trap();
      for (const Diagnostic &d : diags.all())
         if (d.loc.line == 0 || d.loc.column == 0)
            __builtin_trap();
      return 0;
   }
   if (diags.has_errors())
      __builtin_trap();
   if (prog->params.size() != size_t(prog->shader.file_size(tgsi::File::Constant)))
      __builtin_trap();
   for (size_t i = 0; i < prog->params.size(); i++)
      if (prog->params[i].const_index != int32_t(i))
         __builtin_trap();
   const std::string printed = tgsi::print_tgsi(prog->shader);
   Diagnostics diags2;
   auto again = tgsi::parse_tgsi(printed, "printed", diags2);
   if (!again || tgsi::print_tgsi(*again) != printed)
      __builtin_trap();
   return 0;
}
