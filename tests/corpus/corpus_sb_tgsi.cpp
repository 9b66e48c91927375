/*
 * sb on every corpus TGSI shader (suite 'corpus'), Evergreen and R700: the
 * plain backend's bytecode and sb's result are both run in the emulator
 * against the reference with the same verifier inputs.  sb must agree
 * wherever the plain code agrees (no regression), every shader it declines
 * is counted with the pass that gave up, and the totals of the shader-db
 * statistics are printed in shader-db's report format, plain -> sb.
 * SBCC_SB_CORPUS_LIMIT=N checks only the first N shaders.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "corpus/corpus_path.h"
#include "interp/interp.h"
#include "r600/r600_target.h"
#include "r600/sb/sb.h"
#include "runner/verify.h"
#include "tgsi/tgsi_ir.h"

namespace {

using namespace sbcc;
namespace fs = std::filesystem;

std::string report_line(const char *what, int64_t a, int64_t b)
{
   char buf[160];
   double pct = a ? 100.0 * double(b - a) / double(a) : 0.0;
   std::snprintf(buf, sizeof(buf), "total %s in shared programs: %lld -> %lld (%+.2f%%)\n", what,
                 (long long)a, (long long)b, pct);
   return buf;
}

void run(r600::ChipClass chip)
{
   auto dir = test::corpus_dir();
   if (!dir || !fs::is_directory(*dir / "tgsi"))
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or put it at ../shared/corpus)";
   unsigned limit = ~0u;
   if (const char *e = std::getenv("SBCC_SB_CORPUS_LIMIT"))
      limit = unsigned(std::atoi(e));
   std::vector<fs::path> files;
   for (const auto &e : fs::recursive_directory_iterator(*dir / "tgsi"))
      if (e.path().extension() == ".tgsi")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());

   DebugOptions sbopts;
   sbopts.sb = sbopts.sb_cl = sbopts.sb_stat = true;
   static const char *kStats[] = {"alu_groups", "gprs", "cf", "dw"};
   std::map<std::string, int64_t> plain_tot, sb_tot;
   std::map<std::string, unsigned> ssa_fallbacks, fallbacks;
   unsigned shaders = 0, both_agree = 0, plain_only = 0, sb_only = 0, ssa_used = 0;
   std::vector<std::string> regressions, ssa_examples;
   for (const fs::path &f : files) {
      if (shaders >= limit)
         break;
      const std::string rel = fs::relative(f, *dir / "tgsi").generic_string();
      std::ifstream in(f);
      std::stringstream ss;
      ss << in.rdbuf();
      Diagnostics diags;
      auto sh = tgsi::parse_tgsi(ss.str(), f.string(), diags);
      ASSERT_TRUE(sh) << diags.str();
      auto ref = interp::make_reference_executable(*sh, diags);
      ASSERT_TRUE(ref) << diags.str();
      ShaderStats plain_stats, sb_stats;
      auto plain = r600::compile_tgsi_for_r600(*sh, chip, {}, DebugOptions{}, diags, &plain_stats);
      if (!plain)
         continue; /* the plain backend's corpus test reports these */
      shaders++;
      r600::sb::SbStats sbst;
      r600::BytecodeOptimizer sb = [&](const r600::Program &prog, const r600::ShaderInfo &info,
                                        ShaderStats *st) -> std::optional<r600::Program> {
         Diagnostics d;
         auto opt = r600::sb::sb_optimize(prog, info, sbopts, &sbst, d);
         if (opt && st) {
            st->set("gprs", sbst.gprs_after);
            st->set("alu_groups", sbst.groups_after);
         }
         return opt;
      };
      Diagnostics sbdiags;
      auto opt = r600::compile_tgsi_for_r600(*sh, chip, {}, sbopts, sbdiags, &sb_stats, nullptr, &sb);
      ASSERT_TRUE(opt) << rel << ": " << sbdiags.str();
      if (sbst.ssa)
         ssa_used++;
      else if (!sbst.ssa_failed_pass.empty()) {
         ssa_fallbacks[sbst.ssa_failed_pass]++;
         if (ssa_examples.size() < 10)
            ssa_examples.push_back(rel + ": " + sbst.log.substr(0, sbst.log.find('\n')));
      }
      if (!sbst.failed_pass.empty())
         fallbacks[sbst.failed_pass]++;
      for (const char *k : kStats) {
         plain_tot[k] += plain_stats.get(k);
         sb_tot[k] += sb_stats.get(k);
      }
      runner::VerifyOptions vo;
      vo.quad_coherent_inputs = false;
      auto rp = runner::verify_shader(*sh, *ref, *plain, vo);
      auto ro = runner::verify_shader(*sh, *ref, *opt, vo);
      const bool pa = rp.status == runner::VerifyStatus::Pass;
      const bool oa = ro.status == runner::VerifyStatus::Pass;
      both_agree += pa && oa;
      plain_only += pa && !oa;
      sb_only += !pa && oa;
      if (pa && !oa)
         regressions.push_back(rel + ": " + ro.message.substr(0, 200));
   }
   std::string out = std::string(r600::chip_class_name(chip)) + ": " + std::to_string(shaders) +
                     " shaders, " + std::to_string(both_agree) + " agree with sb and without, " +
                     std::to_string(sb_only) + " only with sb, " + std::to_string(plain_only) +
                     " only without (regressions)\n";
   out += "  SSA stage used for " + std::to_string(ssa_used) + "; it gave up on:";
   for (auto &[pass, n] : ssa_fallbacks)
      out += " " + pass + " " + std::to_string(n);
   for (const std::string &e : ssa_examples)
      out += "\n    " + e;
   out += "\n  source bytecode kept for:";
   for (auto &[pass, n] : fallbacks)
      out += " " + pass + " " + std::to_string(n);
   out += "\n";
   for (const char *k : kStats)
      out += "  " + report_line(k, plain_tot[k], sb_tot[k]);
   std::fputs(out.c_str(), stdout);
   for (const std::string &r : regressions)
      ADD_FAILURE() << "sb regression: " << r;
}

TEST(CorpusSbTgsi, Evergreen) { run(r600::ChipClass::Evergreen); }
TEST(CorpusSbTgsi, R700) { run(r600::ChipClass::R700); }

} // namespace
