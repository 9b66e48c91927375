/*
 * Decoder and reader errors on corrupt input: exact messages, and no crash
 * or hang on arbitrary words (random inputs and the regression inputs the
 * fuzzer found, replayed from tests/regress/r600).
 */
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600_test_util.h"

namespace {

using namespace sbcc::r600;

std::string decode_error(std::vector<uint32_t> words, ChipClass chip = ChipClass::Evergreen)
{
   sbcc::Diagnostics diag;
   auto prog = decode_program(words, chip, diag, "t.bin");
   EXPECT_FALSE(prog);
   EXPECT_EQ(diag.num_errors(), 1u);
   return diag.str();
}

/* Evergreen words used below. */
constexpr uint32_t kNopEop = 0x80200000;   /* NOP, END_OF_PROGRAM, BARRIER */
constexpr uint32_t kTexEop = 0x80600000;   /* TEX clause, 1 fetch, EOP */
constexpr uint32_t kAluCf = 0xA0000000;    /* ALU clause, COUNT 0 */
constexpr uint32_t kMovLast = 0x80000001;  /* src0 R1.x, LAST */
constexpr uint32_t kMovW1 = 0x00000C90;    /* MOV R0.x */

TEST(R600DecodeErrors, ProgramStructure)
{
   EXPECT_EQ(decode_error({}), "t.bin: error: dword 0: empty program\n");
   EXPECT_EQ(decode_error({0x00000000, 0x80000000}),
             "t.bin: error: dword 2: CF program reaches the end of the input without "
             "END_OF_PROGRAM\n");
   EXPECT_EQ(decode_error({0x00000000, 0x8FC00000}),
             "t.bin: error: dword 1: unknown CF_INST 0x0000003f on evergreen\n");
   EXPECT_EQ(decode_error({0x00000000, 0x80210000}),
             "t.bin: error: dword 1: reserved bits 0x00010000 set in CF_WORD1\n");
   EXPECT_EQ(decode_error({0x00000000, 0xB0000000}, ChipClass::R700),
             "t.bin: error: dword 1: unknown ALU CF_INST 0x0000000c on r700\n");
   EXPECT_EQ(decode_error({0x00000032, 0x82800000, 0x00000000, kNopEop}),
             "t.bin: error: dword 0: target dword 100 is outside the CF program\n");
}

TEST(R600DecodeErrors, ClauseAddresses)
{
   EXPECT_EQ(decode_error({0x00000000, kTexEop}),
             "t.bin: error: dword 0: clause at dword 0 overlaps the CF program (2 dwords)\n");
   EXPECT_EQ(decode_error({0x00000002, kTexEop, 0, 0, 0x10, 0}),
             "t.bin: error: dword 0: clause at dword 4 (4 dwords) runs past the end of the "
             "input (6 dwords)\n");
   EXPECT_EQ(decode_error({0x00000003, kTexEop, 0, 0, 0, 0, 0x10, 0, 0, 0}),
             "t.bin: error: dword 0: fetch clause at dword 6 is not aligned to 4 dwords\n");
   EXPECT_EQ(decode_error({0x00000002, kTexEop, 0, 0, 0x10, 0, 0, 1}),
             "t.bin: error: dword 7: fourth dword of a fetch instruction is not zero\n");
   EXPECT_EQ(decode_error({0x00000002, kTexEop, 0, 0, 0x02, 0, 0, 0}),
             "t.bin: error: dword 4: unknown TEX opcode 0x00000002 on evergreen\n");
}

TEST(R600DecodeErrors, AluClauses)
{
   EXPECT_EQ(decode_error({0x00000002, kAluCf, 0, kNopEop, 0x80000000, 0x00007F80}),
             "t.bin: error: dword 5: unknown ALU OP2 opcode 0x000000ff on evergreen\n");
   EXPECT_EQ(decode_error({0x00000002, kAluCf, 0, kNopEop, 0x00000001, kMovW1}),
             "t.bin: error: dword 6: ALU clause ends inside an instruction group\n");
   EXPECT_EQ(decode_error({0x00000002, kAluCf, 0, kNopEop, 0x800000FD, kMovW1}),
             "t.bin: error: dword 6: literals run past the end of the ALU clause\n");
   /* Two RECIP_IEEE (trans only on Evergreen) in one group. */
   EXPECT_EQ(decode_error({0x00000002, 0xA0040000, 0, kNopEop, 0x00000001, 0x00004310, kMovLast,
                           0x00004310}),
             "t.bin: error: dword 6: second instruction for the trans slot in one group\n");
   /* DOT4 (vector only) with its channel taken lands in t. */
   EXPECT_EQ(decode_error({0x00000002, 0xA0040000, 0, kNopEop, 0x00000001, 0x00005F90, kMovLast,
                           0x00005F90}),
             "t.bin: error: dword 6: DOT4_IEEE cannot execute in the trans slot\n");
   /* y then x: the hardware would not read this order back. */
   EXPECT_EQ(decode_error({0x00000002, 0xA0040000, 0, kNopEop, 0x00000001, 0x20000C90, kMovLast,
                           kMovW1}),
             "t.bin: error: dword 6: slot x after slot y in one group\n");
}

TEST(R600DecodeErrors, AcceptsMinimalPrograms)
{
   sbcc::Diagnostics diag;
   const std::vector<uint32_t> words = {0x00000002, kAluCf, 0, kNopEop, kMovLast, kMovW1};
   auto prog = decode_program(words, ChipClass::Evergreen, diag);
   ASSERT_TRUE(prog) << diag.str();
   ASSERT_EQ(prog->cf.size(), 2u);
   ASSERT_EQ(prog->cf[0].groups.size(), 1u);
   EXPECT_EQ(prog->cf[0].groups[0].instrs[0].op, AluOp::MOV);
   EXPECT_EQ(prog->cf[0].groups[0].instrs[0].src[0].sel, 1u);
   EXPECT_TRUE(prog->cf[1].end_of_program);
}

TEST(R600Readers, BinHex)
{
   sbcc::Diagnostics diag;
   auto words = read_bin_hex("0x0000000A\n80800000\r\n  deadBEEF \n", diag, "f.hex");
   ASSERT_TRUE(words) << diag.str();
   EXPECT_EQ(*words, (std::vector<uint32_t>{0xA, 0x80800000, 0xDEADBEEF}));

   auto err = [](std::string_view text) {
      sbcc::Diagnostics d;
      EXPECT_FALSE(read_bin_hex(text, d, "f.hex"));
      return d.str();
   };
   EXPECT_EQ(err("00000000\nzz\n"), "f.hex:2:1: error: expected a hex dword, found 'z'\n");
   EXPECT_EQ(err("1\n\n2\n"), "f.hex:2:1: error: empty line, expected a hex dword\n");
   EXPECT_EQ(err("123456789\n"), "f.hex:1:1: error: hex number longer than 8 digits\n");
   EXPECT_EQ(err("12 x\n"), "f.hex:1:4: error: unexpected 'x' after the hex dword\n");
   EXPECT_EQ(err("0x\n"), "f.hex:1:3: error: expected hex digits after 0x\n");
}

TEST(R600Readers, Raw)
{
   sbcc::Diagnostics diag;
   const uint8_t bytes[] = {0x0A, 0, 0, 0, 0x00, 0x00, 0x80, 0x80};
   auto words = read_raw(bytes, diag, "f.bin");
   ASSERT_TRUE(words) << diag.str();
   EXPECT_EQ(*words, (std::vector<uint32_t>{0xA, 0x80800000}));
   const uint8_t odd[] = {1, 2, 3, 4, 5};
   EXPECT_FALSE(read_raw(odd, diag, "f.bin"));
   EXPECT_EQ(diag.str(), "f.bin: error: size 5 bytes is not a multiple of 4\n");
   diag.clear();
   EXPECT_FALSE(read_binary_file("/nonexistent/x.bin", diag));
   EXPECT_EQ(diag.str(), "/nonexistent/x.bin: error: cannot open file\n");
}

/* Whatever the input, decoding terminates; whatever it accepts re-encodes
 * to a program that decodes to the same model. */
void check_arbitrary(const std::vector<uint32_t> &words, ChipClass chip)
{
   sbcc::Diagnostics diag;
   auto prog = decode_program(words, chip, diag);
   if (!prog) {
      EXPECT_TRUE(diag.has_errors());
      return;
   }
   (void)print_program(*prog, words);
   auto again = assemble(*prog, diag);
   ASSERT_TRUE(again) << diag.str();
   auto back = decode_program(*again, chip, diag);
   ASSERT_TRUE(back) << diag.str();
   Program laid = *prog;
   ASSERT_TRUE(layout_program(laid, diag));
   EXPECT_TRUE(laid == *back);
}

TEST(R600DecodeErrors, RandomWordsNeverCrash)
{
   constexpr ChipClass kChips[] = {ChipClass::R600, ChipClass::R700, ChipClass::Evergreen,
                                   ChipClass::Cayman};
   test::Rng rng(12345);
   unsigned accepted = 0;
   for (unsigned iter = 0; iter < 4000; iter++) {
      std::vector<uint32_t> words(2 + rng.range(40));
      for (uint32_t &w : words) {
         /* Mostly small values and plausible CF words so some programs decode. */
         switch (rng.range(4)) {
         case 0: w = rng.next(); break;
         case 1: w = rng.range(16); break;
         case 2: w = 0x80000000u | (rng.range(0x60) << 22) | (rng.coin() << 21); break;
         default: w = 0xA0000000u | (rng.range(4) << 26) | rng.range(8); break;
         }
      }
      ChipClass chip = kChips[iter % 4];
      sbcc::Diagnostics diag;
      if (decode_program(words, chip, diag))
         accepted++;
      check_arbitrary(words, chip);
      if (HasFailure())
         return;
   }
   EXPECT_GT(accepted, 0u);
}

TEST(R600DecodeErrors, RegressionInputs)
{
   std::filesystem::path dir(SBCC_REGRESS_DIR);
   std::error_code ec;
   if (!std::filesystem::is_directory(dir, ec))
      GTEST_SKIP() << "no regression directory " << dir;
   unsigned n = 0;
   for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
      if (!entry.is_regular_file())
         continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      /* Same framing as the fuzz target: first byte picks the chip class. */
      if (data.empty())
         continue;
      ChipClass chip = static_cast<ChipClass>(static_cast<uint8_t>(data[0]) & 3);
      std::vector<uint32_t> words((data.size() - 1) / 4);
      for (size_t i = 0; i < words.size(); i++) {
         const auto *b = reinterpret_cast<const uint8_t *>(data.data()) + 1 + 4 * i;
         words[i] = b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24;
      }
      check_arbitrary(words, chip);
      n++;
   }
   EXPECT_GT(n, 0u);
}

} // namespace
