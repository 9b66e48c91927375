/*
 * sb on Mesa's plain-backend bytecode (corpus/r600-bc/CHIP-tgsi-nosb): every
 * shader is optimized, the result must agree with the reference
 * interpreter wherever the source bytecode does (emulator + verifier, as in
 * corpus_r600_emu), and the totals are printed in shader-db's report format
 * (scripts/sb-report compares with Mesa's own sb).
 * SBCC_SB_CORPUS_LIMIT=N checks only the first N shaders per variant.
 */
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "interp/interp.h"
#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600/r600_emu.h"
#include "r600/r600_mesa_info.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_ir.h"
#include "runner/verify.h"
#include "tgsi/tgsi_ir.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;

std::string read_file(const std::filesystem::path &p)
{
   std::ifstream f(p, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

std::string line(const char *what, uint64_t a, uint64_t b)
{
   char buf[160];
   double pct = a ? 100.0 * (double(b) - double(a)) / double(a) : 0.0;
   std::snprintf(buf, sizeof(buf), "total %s in shared programs: %llu -> %llu (%+.2f%%)\n", what,
                 (unsigned long long)a, (unsigned long long)b, pct);
   return buf;
}

struct Totals {
   unsigned shaders = 0, optimized = 0, agree_both = 0, regressions = 0, unchecked = 0;
   uint64_t groups[2] = {}, dwords[2] = {}, gprs[2] = {};
   std::map<std::string, unsigned> fallbacks;
   std::map<std::string, double> pass_seconds;
   double total_seconds = 0, max_seconds = 0;
   std::string slowest;
   std::vector<std::string> examples;
};

class CorpusSb : public ::testing::TestWithParam<const char *> {};

TEST_P(CorpusSb, OptimizedCodeAgreesWithReference)
{
   auto dir = test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or put it at ../shared/corpus)";
   const std::string variant = GetParam();
   if (!std::filesystem::is_directory(*dir / "r600-bc" / variant))
      GTEST_SKIP() << "corpus has no r600-bc/" << variant;
   unsigned limit = ~0u;
   if (const char *e = std::getenv("SBCC_SB_CORPUS_LIMIT"))
      limit = unsigned(std::atoi(e));
   auto chip = chip_class_from_name(variant.substr(0, variant.find('-')));
   Totals t;
   DebugOptions opts;
   opts.sb = true;
   opts.sb_stat = true;
   for (const auto &txt_path : test::corpus_files(*dir / "r600-bc", variant, ".txt")) {
      if (t.shaders >= limit)
         break;
      std::string p = txt_path.string();
      std::string hex_path = p.substr(0, p.size() - 4) + ".bin.hex";
      const std::string txt = read_file(txt_path);
      Diagnostics diags;
      auto shader = tgsi::parse_tgsi(mesa_dump_section(txt, "TGSI"), p, diags);
      auto words = read_bin_hex(read_file(hex_path), diags, hex_path);
      auto prog = words ? decode_program(*words, *chip, diags, hex_path) : std::nullopt;
      if (!shader || !prog)
         continue;
      MesaInfoOptions mo;
      auto info = load_mesa_info(mesa_dump_section(txt, "INFO"),
                                 mesa_dump_section(txt, "BYTECODE"), *shader, *prog, mo, diags, p);
      if (!info)
         continue;
      t.shaders++;
      sb::SbStats st;
      auto out = sb::sb_optimize(*prog, *info, opts, &st, diags);
      double shader_seconds = 0;
      for (const sb::SbPassTime &pt : st.times) {
         t.pass_seconds[pt.pass] += pt.seconds;
         shader_seconds += pt.seconds;
      }
      t.total_seconds += shader_seconds;
      if (shader_seconds > t.max_seconds) {
         t.max_seconds = shader_seconds;
         t.slowest = p;
      }
      const Program &res = out ? *out : *prog;
      t.groups[0] += sb::count_program(*prog).alu_groups;
      t.groups[1] += sb::count_program(res).alu_groups;
      Diagnostics sd;
      auto w1 = assemble(*prog, sd);
      ASSERT_TRUE(w1.has_value()) << p << ": " << sd.str();
      t.dwords[0] += w1->size();
      Diagnostics ad;
      auto w2 = assemble(res, ad);
      ASSERT_TRUE(w2.has_value()) << p << ": " << ad.str();
      t.dwords[1] += w2->size();
      t.gprs[0] += info->num_gprs;
      /* Mesa counts GPRs its own way: apply sb's reduction to its number. */
      t.gprs[1] += info->num_gprs - std::min(info->num_gprs, st.gprs_before - std::min(st.gprs_before, st.gprs_after));
      if (!out) {
         t.fallbacks[st.failed_pass.empty() ? "?" : st.failed_pass]++;
         if (t.examples.size() < 8)
            t.examples.push_back(p + ": " + st.log.substr(0, st.log.find('\n')));
         continue;
      }
      t.optimized++;
      bool unmapped = false;
      for (const ShaderIo &io : info->outputs)
         if (io.tgsi_index < 0 && io.export_type != 3)
            unmapped = true;
      for (const tgsi::Declaration &d : shader->declarations)
         if (d.file == tgsi::File::SystemValue)
            unmapped = true;
      auto ref = unmapped ? nullptr : interp::make_reference_executable(*shader, diags);
      if (!ref) {
         t.unchecked++;
         continue;
      }
      EmuOptions eo;
      eo.texture_resource_base = 18;
      runner::VerifyOptions vo;
      vo.seed = 1;
      vo.invocations = 64;
      vo.limits.max_loop_iterations = 4096;
      /* Independent lanes: see VerifyOptions::quad_coherent_inputs. */
      vo.quad_coherent_inputs = false;
      R600Executable src_exe(*prog, *info, eo);
      if (runner::verify_shader(*shader, *ref, src_exe, vo).status != runner::VerifyStatus::Pass) {
         t.unchecked++;
         continue;
      }
      R600Executable opt_exe(*out, *info, eo);
      runner::VerifyResult vr = runner::verify_shader(*shader, *ref, opt_exe, vo);
      if (vr.status == runner::VerifyStatus::Pass) {
         t.agree_both++;
      } else {
         t.regressions++;
         if (t.examples.size() < 8)
            t.examples.push_back(p + ": optimized differs: " + vr.message.substr(0, 200));
      }
   }
   std::cout << variant << ": " << t.shaders << " shaders, " << t.optimized << " optimized, "
             << t.agree_both << " agree with the reference like the source, " << t.regressions
             << " regressions, " << t.unchecked << " not checkable (source disagrees or no reference)\n";
   for (const auto &[pass, n] : t.fallbacks)
      std::cout << "  fallback to source (" << n << "): " << pass << " failed\n";
   for (const std::string &e : t.examples)
      std::cout << "  e.g. " << e << "\n";
   std::cout << line("alu_groups", t.groups[0], t.groups[1]) << line("dw", t.dwords[0], t.dwords[1])
             << line("gprs", t.gprs[0], t.gprs[1]);
   /* The benchmark of the whole pipeline per shader (informational). */
   std::printf("  sb time: %.3f ms per shader on average, %.3f ms at most (%s)\n",
               1e3 * t.total_seconds / std::max(1u, t.shaders), 1e3 * t.max_seconds,
               t.slowest.c_str());
   for (const auto &[pass, sec] : t.pass_seconds)
      std::printf("    %-16s %8.3f ms per shader\n", pass.c_str(), 1e3 * sec / std::max(1u, t.shaders));
   ASSERT_GT(t.shaders, 0u);
   EXPECT_EQ(t.regressions, 0u);
   EXPECT_LE(t.groups[1], t.groups[0]);
}

INSTANTIATE_TEST_SUITE_P(Variants, CorpusSb,
                         ::testing::Values("CYPRESS-tgsi-nosb", "RV770-tgsi-nosb"),
                         [](const auto &info) {
                            std::string s = info.param;
                            for (char &c : s)
                               if (c == '-')
                                  c = '_';
                            return s;
                         });

} // namespace
