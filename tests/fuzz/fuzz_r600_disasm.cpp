/*
 * libFuzzer target for the r600 decoder/disassembler.  First byte selects
 * the chip class, the rest are little-endian dwords.  Whatever decodes must
 * print, re-assemble, and decode again to the same model.
 */
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"

using namespace sbcc::r600;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (size < 1)
      return 0;
   ChipClass chip = static_cast<ChipClass>(data[0] & 3);
   std::vector<uint32_t> words((size - 1) / 4);
   for (size_t i = 0; i < words.size(); i++) {
      const uint8_t *b = data + 1 + 4 * i;
      words[i] = b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24;
   }
   sbcc::Diagnostics diag;
   auto prog = decode_program(words, chip, diag);
   if (!prog)
      return 0;
   (void)print_program(*prog, words);
   auto again = assemble(*prog, diag);
   if (!again)
      abort(); /* a decoded program must always re-assemble */
   auto back = decode_program(*again, chip, diag);
   if (!back)
      abort();
   Program laid = *prog;
   if (!layout_program(laid, diag) || !(laid == *back))
      abort();
   return 0;
}
