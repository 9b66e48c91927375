/*
 * Bad bytes never crash the ARB front-end: replay of inputs that once broke
 * it (tests/regress/arb), every prefix of a valid program, and seeded random
 * mutations.  Whatever the input, the result is either a program whose TGSI
 * re-parses or errors that all carry a file:line:column.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arb/arb_test_util.h"

#ifndef SBCC_ARB_REGRESS_DIR
#define SBCC_ARB_REGRESS_DIR "tests/regress/arb"
#endif

namespace sbcc::arb::test {
namespace {

/* Empty string when the input behaved; otherwise what went wrong. */
std::string check_input(std::string_view text)
{
   Diagnostics diags;
   auto p = parse_arb(text, "in.arb", diags);
   if (!p) {
      if (!diags.has_errors())
         return "failed without an error";
      for (const Diagnostic &d : diags.all())
         if (d.file != "in.arb" || d.loc.line == 0 || d.loc.column == 0)
            return "diagnostic without a location: " + d.str();
      return "";
   }
   if (diags.has_errors())
      return "parsed but reported errors: " + diags.str();
   std::string text1 = tgsi::print_tgsi(p->shader);
   Diagnostics tdiags;
   auto again = tgsi::parse_tgsi(text1, "printed.tgsi", tdiags);
   if (!again)
      return "printed TGSI does not re-parse: " + tdiags.str() + text1;
   if (p->params.size() != size_t(p->shader.file_size(tgsi::File::Constant)))
      return "CONST slots and bindings disagree";
   return "";
}

const char kBigVertex[] = R"(!!ARBvp1.0
OPTION ARB_position_invariant;
ATTRIB n = vertex.normal;
PARAM mv[4] = { state.matrix.modelview.invtrans };
PARAM c[] = { program.env[0..3], {1, 0.5, -2}, 3 };
ADDRESS a;
TEMP t, u;
OUTPUT col = result.color;
ARL a.x, vertex.attrib[1].x;
DP3 t.x, mv[0], n;
DP3 t.y, mv[1], n;
DP3 t.z, mv[2], n;
XPD u, t, c[a.x + 1];
SWZ u, u, -x, 0, 1, w;
LIT t, u;
MAD col, t.y, state.light[0].diffuse, state.lightprod[0].ambient;
EXP result.fogcoord.x, u.w;
END
)";

const char kBigFragment[] = R"(!!ARBfp1.0
OPTION ARB_fog_linear;
PARAM k = {0.5, 0.25, 2, 1};
TEMP t, u;
TXP t, fragment.texcoord[1], texture[2], 2D;
SCS u.xy, t.z;
CMP_SAT t, -t, u, k;
KIL t.wzyx;
LRP result.color, fragment.color, t, state.fog.color;
END
)";

TEST(ArbRobust, RegressInputsReplay)
{
   namespace fs = std::filesystem;
   std::error_code ec;
   fs::path dir(SBCC_ARB_REGRESS_DIR);
   ASSERT_TRUE(fs::is_directory(dir, ec)) << dir;
   size_t count = 0;
   for (const auto &entry : fs::directory_iterator(dir, ec)) {
      if (!entry.is_regular_file())
         continue;
      std::ifstream f(entry.path(), std::ios::binary);
      std::stringstream ss;
      ss << f.rdbuf();
      EXPECT_EQ(check_input(ss.str()), "") << entry.path();
      count++;
   }
   EXPECT_GT(count, 0u);
}

TEST(ArbRobust, BigProgramsParse)
{
   Diagnostics diags;
   EXPECT_TRUE(parse_arb(kBigVertex, "v.arb", diags).has_value()) << diags.str();
   EXPECT_TRUE(parse_arb(kBigFragment, "f.arb", diags).has_value()) << diags.str();
   EXPECT_EQ(check_input(kBigVertex), "");
   EXPECT_EQ(check_input(kBigFragment), "");
}

TEST(ArbRobust, EveryPrefixIsHandled)
{
   for (std::string_view prog : {std::string_view(kBigVertex), std::string_view(kBigFragment)}) {
      for (size_t n = 0; n < prog.size(); n++)
         ASSERT_EQ(check_input(prog.substr(0, n)), "") << "prefix of " << n << " bytes";
   }
}

TEST(ArbRobust, SeededMutationsAreHandled)
{
   /* A fixed LCG so failures reproduce. */
   uint64_t state = 0x2545f4914f6cdd1dull;
   auto rnd = [&](uint32_t n) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return uint32_t(state >> 33) % n;
   };
   static const char kAlphabet[] = ";,.[]{}=+-#/*0123456789xyzwabgr AEND_$\n\t\x01\xff";
   for (int iter = 0; iter < 3000; iter++) {
      std::string s = iter % 2 ? kBigVertex : kBigFragment;
      int edits = 1 + int(rnd(6));
      for (int e = 0; e < edits && !s.empty(); e++) {
         size_t at = rnd(uint32_t(s.size()));
         switch (rnd(3)) {
         case 0: s[at] = kAlphabet[rnd(sizeof(kAlphabet) - 1)]; break;
         case 1: s.erase(at, 1 + rnd(8)); break;
         default: s.insert(at, 1, kAlphabet[rnd(sizeof(kAlphabet) - 1)]); break;
         }
      }
      ASSERT_EQ(check_input(s), "") << "mutation " << iter << ":\n" << s;
   }
}

} // namespace
} // namespace sbcc::arb::test
