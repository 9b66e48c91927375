/*
 * r600 machine code from real Mesa runs (corpus/r600-bc: CYPRESS = Evergreen,
 * RV770 = R700; nosb and sb variants).  Every .bin.hex must decode with no
 * unknown word, re-assemble to the identical dwords, and -- where the .txt
 * holds Mesa's r600_bytecode_disasm listing -- our listing must equal Mesa's
 * line by line (opcodes, operands, literals, CF targets, kcache, bank
 * swizzles).  sb-format listings (post-sb bc_dump) are compared on the
 * decoded opcode/operand columns.
 */
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"

namespace {

using namespace sbcc::r600;

std::string read_file(const std::filesystem::path &p)
{
   std::ifstream f(p, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

std::vector<std::string> split_lines(const std::string &text)
{
   std::vector<std::string> out;
   std::istringstream in(text);
   std::string l;
   while (std::getline(in, l)) {
      while (!l.empty() && (l.back() == ' ' || l.back() == '\r'))
         l.pop_back();
      out.push_back(l);
   }
   return out;
}

/* The lines of the final listing (section "; BYTECODE"). */
std::vector<std::string> bytecode_section(const std::string &txt)
{
   std::vector<std::string> out;
   bool in = false;
   for (const std::string &l : split_lines(txt)) {
      if (l == "; BYTECODE") {
         in = true;
         continue;
      }
      if (in && l.rfind("; ", 0) == 0 && l.size() > 2 && l[2] != ' ')
         break;
      if (in)
         out.push_back(l);
   }
   return out;
}

bool is_listing_line(const std::string &l)
{
   size_t i = l[0] == ' ' ? 1 : 0;
   return l.size() > i + 4 && std::isdigit(static_cast<unsigned char>(l[i])) &&
          std::isdigit(static_cast<unsigned char>(l[i + 3]));
}

/* sb's bc_dump columns -> "OP dst, src, ..." with Mesa's spelling, so the
 * decoded instruction can be compared with what sb printed. */
std::vector<std::string> tokens(const std::string &l)
{
   std::vector<std::string> out;
   std::istringstream in(l);
   std::string t;
   while (in >> t)
      out.push_back(t);
   return out;
}

bool is_hex(const std::string &t)
{
   return t.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

std::string join(const std::vector<std::string> &v)
{
   std::string s;
   for (const std::string &t : v)
      s += t + " ";
   return s;
}

/* CF / fetch line -> comparable tokens: upper-cased, without the hex words,
 * the export ES field (sb omits it) and with sb's inclusive kcache range end
 * ("CB1:0-15") turned into Mesa's exclusive one ("CB1:0-16"). */
std::vector<std::string> normalize_other(const std::vector<std::string> &toks, size_t nhex,
                                         bool inclusive_end)
{
   std::vector<std::string> out;
   std::string joined;
   for (size_t i = 1 + nhex; i < toks.size(); i++) {
      std::string t = toks[i];
      for (char &c : t)
         c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (t.rfind("ES:", 0) == 0)
         continue;
      joined += t;
   }
   /* Tokenisation differs (", SID" vs ",SID"): compare the concatenation,
    * split at the kcache ranges so their ends can be fixed up. */
   std::string fixed;
   for (size_t i = 0; i < joined.size(); i++) {
      if (joined.compare(i, 3, "[CB") == 0) {
         size_t dash = joined.find('-', i), close = joined.find(']', i);
         if (dash != std::string::npos && close != std::string::npos && dash < close) {
            unsigned end = std::stoul(joined.substr(dash + 1, close - dash - 1)) + inclusive_end;
            fixed += joined.substr(i, dash + 1 - i) + std::to_string(end) + "]";
            i = close;
            continue;
         }
      }
      fixed += joined[i];
   }
   out.push_back(fixed);
   return out;
}

struct Stats {
   size_t sb_other = 0, r600_transcoded = 0;
   size_t files = 0, cf = 0, alu = 0, fetch = 0, literals = 0, lines = 0, sb_instrs = 0;
   size_t mismatches = 0;
};

std::string alu_key(ChipClass chip, const AluInstr &in, const AluGroup &g)
{
   const AluOpInfo &info = alu_op_info(in.op);
   static const char *kOmod[] = {"", "*2", "*4", "/2"};
   std::string s(info.name);
   s += kOmod[in.dst.omod & 3];
   if (in.dst.clamp)
      s += "_sat";
   s += " " + format_alu_dst(chip, in);
   for (unsigned k = 0; k < info.num_src; k++) {
      s += (k ? ", " : ",  ") + format_alu_src(chip, in, k, g);
      /* Mesa's listing omits the channel of interpolation parameters; sb
       * prints it, and it is part of the encoding, so compare it too. */
      if (in.src[k].sel >= kSrcPARAMFirst && in.src[k].sel <= kSrcPARAMLast)
         s += std::string(".") + "xyzw"[in.src[k].chan & 3];
   }
   return s;
}

/* Normalises an sb ALU line ("x: MUL_IEEE  T0.x,  R0.y, [0x3f7f0000 0.99].x  VEC_210")
 * to our spelling: T<n> clause temps stay, literals become [0x... value]. */
std::string sb_alu_key(const std::string &line)
{
   size_t colon = line.find(": ");
   std::string rest = line.substr(colon + 2);
   std::istringstream in(rest);
   std::string op;
   in >> op;
   std::string operands;
   std::getline(in, operands);
   /* drop bank swizzle names and flags at the end */
   for (const char *tail : {"VEC_", "SCL_"}) {
      size_t p = operands.find(tail);
      if (p != std::string::npos)
         operands.resize(p);
   }
   while (!operands.empty() && operands.back() == ' ')
      operands.pop_back();
   size_t b = operands.find_first_not_of(' ');
   operands = b == std::string::npos ? "" : operands.substr(b);
   return op + " " + operands;
}

void check_variant(const char *sub, ChipClass chip, size_t min_files)
{
   auto dir = sbcc::test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or provide ../shared/corpus)";
   auto files = sbcc::test::corpus_files(*dir / "r600-bc", sub, ".bin.hex");
   ASSERT_GE(files.size(), min_files) << "corpus r600-bc/" << sub << " looks incomplete";
   Stats st;
   size_t mesa_format = 0, sb_format = 0;
   for (const auto &path : files) {
      std::string hex_text = read_file(path);
      sbcc::Diagnostics diag;
      auto words = read_bin_hex(hex_text, diag, path.string());
      ASSERT_TRUE(words) << diag.str();
      auto prog = decode_program(*words, chip, diag, path.string());
      if (!prog) {
         ADD_FAILURE() << diag.str();
         st.mismatches++;
         continue;
      }
      st.files++;
      auto again = assemble(*prog, diag);
      if (!again) {
         ADD_FAILURE() << path << ": " << diag.str();
         st.mismatches++;
         continue;
      }
      if (*again != *words) {
         size_t i = 0;
         while (i < again->size() && i < words->size() && (*again)[i] == (*words)[i])
            i++;
         ADD_FAILURE() << path << ": re-assembled code differs at dword " << i << " (size "
                       << again->size() << " vs " << words->size() << ")";
         st.mismatches++;
      }
      /* R600 differs from R700 in the OP2 word (FOG_MERGE, ALU_INST one bit
       * up) and COUNT_3: the same program encoded for R600 must decode back
       * to the same model.  Exercises the R600 layouts on real programs. */
      if (chip == ChipClass::R700) {
         Program r600 = *prog;
         r600.chip = ChipClass::R600;
         sbcc::Diagnostics d2;
         auto r600_words = assemble(r600, d2);
         if (r600_words) {
            auto back = decode_program(*r600_words, ChipClass::R600, d2);
            Program laid = r600;
            layout_program(laid, d2);
            st.r600_transcoded++;
            if (!back || !(*back == laid)) {
               ADD_FAILURE() << path << ": R600 transcoding does not round-trip " << d2.str();
               st.mismatches++;
            }
         }
      }
      for (const CfInstr &cf : prog->cf) {
         st.cf++;
         for (const AluGroup &g : cf.groups) {
            st.alu += g.instrs.size();
            st.literals += g.literals.size();
         }
         st.fetch += cf.fetches.size();
      }

      std::string txt_path = path.string();
      txt_path.replace(txt_path.size() - 8, 8, ".txt");
      auto section = bytecode_section(read_file(txt_path));
      if (section.empty()) {
         ADD_FAILURE() << txt_path << ": no BYTECODE section";
         continue;
      }
      std::vector<std::string> mesa;
      for (const std::string &l : section) {
         if (is_listing_line(l))
            mesa.push_back(l);
      }
      bool sb = section[0].rfind("=====", 0) == 0;
      if (!sb) {
         mesa_format++;
         auto ours = split_lines(print_program(*prog, *words));
         ours.erase(ours.begin()); /* our header line */
         size_t n = std::max(ours.size(), mesa.size());
         for (size_t i = 0; i < n; i++) {
            std::string a = i < ours.size() ? ours[i] : "<missing>";
            std::string b = i < mesa.size() ? mesa[i] : "<missing>";
            st.lines++;
            if (a != b) {
               if (++st.mismatches <= 20)
                  ADD_FAILURE() << txt_path << " line " << i << "\n ours: " << a
                                << "\n mesa: " << b;
               break;
            }
         }
         continue;
      }
      /* sb listing: CF and fetch lines by address, token by token. */
      sb_format++;
      std::map<uint32_t, std::vector<std::string>> our_other;
      for (const std::string &l : split_lines(print_program(*prog, *words))) {
         if (!is_listing_line(l))
            continue;
         auto toks = tokens(l);
         bool cf_line = l[0] != ' ';
         size_t nhex = cf_line ? 2 : 3;
         /* ALU instruction and literal lines have 2 hex words and are checked below. */
         if (!cf_line && (toks.size() < 5 || toks[3].size() != 8 || !is_hex(toks[3])))
            continue;
         our_other[std::stoul(toks[0])] = normalize_other(toks, nhex, false);
      }
      for (const std::string &l : mesa) {
         auto toks = tokens(l);
         bool cf_line = l[0] != ' ';
         if (!cf_line && (toks.size() < 5 || toks[3].size() != 8 || !is_hex(toks[3])))
            continue;
         uint32_t at = std::stoul(toks[0]);
         auto want = normalize_other(toks, cf_line ? 2 : 3, true);
         /* sb prints the ALU_EXT word pair without a name. */
         if (want == std::vector<std::string>{""})
            want = {"ALU_EXT"};
         auto it = our_other.find(at);
         std::vector<std::string> got;
         if (it != our_other.end())
            got = it->second;
         st.sb_other++;
         if (got != want) {
            if (++st.mismatches <= 20)
               ADD_FAILURE() << txt_path << " dword " << at << "\n ours: " << join(got)
                             << "\n sb:   " << join(want);
            break;
         }
      }

      std::map<uint32_t, std::string> ours;
      for (const CfInstr &cf : prog->cf) {
         uint32_t at = cf.clause_addr;
         for (const AluGroup &g : cf.groups) {
            for (const AluInstr &in : g.instrs) {
               ours[at] = alu_key(chip, in, g);
               at += 2;
            }
            at += (g.literals.size() + 1) & ~size_t(1);
         }
      }
      for (const std::string &l : mesa) {
         if (l[0] != ' ' || l.find(": ") == std::string::npos)
            continue;
         uint32_t at = std::stoul(l.substr(1, l.find(' ', 1)));
         auto it = ours.find(at);
         std::string want = sb_alu_key(l);
         std::string got = it == ours.end() ? "<none>" : it->second;
         /* sb prints literals as [0x... %g].chan and lower-case hex; compare
          * opcode and destination exactly, sources after normalising. */
         auto norm = [](std::string s) {
            std::string o;
            for (size_t i = 0; i < s.size(); i++) {
               if (s[i] == '[' && s.compare(i, 3, "[0x") == 0) {
                  size_t e = s.find(']', i);
                  for (char ch : s.substr(i + 1, 10))
                     o += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                  i = e;
                  if (i + 2 < s.size() && s[i + 1] == '.')
                     i += 2;
                  continue;
               }
               o += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
            }
            std::string c;
            for (char ch : o)
               if (ch != ' ')
                  c += ch;
            return c;
         };
         st.sb_instrs++;
         if (norm(got) != norm(want)) {
            if (++st.mismatches <= 20)
               ADD_FAILURE() << txt_path << " dword " << at << "\n ours: " << got
                             << "\n sb:   " << want;
            break;
         }
      }
   }
   std::cout << "[ r600-bc ] " << sub << ": " << st.files << " files (" << mesa_format
             << " Mesa listings, " << sb_format << " sb listings), " << st.cf << " CF, " << st.alu
             << " ALU, " << st.fetch << " fetch, " << st.literals << " literals; " << st.lines
             << " listing lines and " << st.sb_instrs << " sb ALU lines and " << st.sb_other << " sb CF/fetch lines compared; "
             << st.r600_transcoded << " re-encoded for R600; " << st.mismatches << " mismatches\n";
   EXPECT_EQ(st.mismatches, 0u);
}

TEST(CorpusR600Bc, CypressNosb) { check_variant("CYPRESS-tgsi-nosb", ChipClass::Evergreen, 400); }
TEST(CorpusR600Bc, CypressSb) { check_variant("CYPRESS-tgsi-sb", ChipClass::Evergreen, 400); }
TEST(CorpusR600Bc, Rv770Nosb) { check_variant("RV770-tgsi-nosb", ChipClass::R700, 400); }
TEST(CorpusR600Bc, Rv770Sb) { check_variant("RV770-tgsi-sb", ChipClass::R700, 400); }

} // namespace
