/*
 * Mesa's real r600 machine code (corpus/r600-bc) through sbcc's validator and
 * emulator: each shader's `; INFO` block becomes a ShaderInfo, its `.bin.hex`
 * is decoded, validated (Mesa's code must pass) and run on the verifier's
 * random batch against the reference interpreter running the `; TGSI`
 * section.  Prints per-variant counts (agree / differ / could not check,
 * with reasons), the lanes GL leaves undefined (not compared, counted) and
 * the emulator speed; thresholds reflect what is measured (see
 * docs/r600-emulator.md).
 */
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "interp/interp.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600/r600_emu.h"
#include "r600/r600_mesa_info.h"
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

struct Tally {
   unsigned total = 0, agree = 0, differ = 0, emu_error = 0, budget = 0;
   unsigned validate_fail = 0;
   /* Lanes GL leaves undefined, skipped by the verifier (in shaders). */
   uint64_t undefined_lanes = 0, undefined_derivative = 0, undefined_pow = 0;
   unsigned undefined_shaders = 0;
   std::map<std::string, unsigned> unchecked; /* reason -> count */
   unsigned not_checked() const
   {
      unsigned n = 0;
      for (const auto &[why, c] : unchecked)
         n += c;
      return n;
   }
   std::map<std::string, unsigned> error_kinds;
   std::vector<std::string> examples;
   uint64_t instructions = 0;
   double seconds = 0;
};

std::string first_line(const std::string &s)
{
   size_t e = s.find('\n');
   return e == std::string::npos ? s : s.substr(0, e);
}

/* The message with numbers stripped, to group failures by kind. */
std::string kind_of(const std::string &msg)
{
   std::string k;
   for (char c : msg) {
      if (c >= '0' && c <= '9') {
         if (k.empty() || k.back() != '#')
            k += '#';
      } else {
         k += c;
      }
   }
   return k.substr(0, 90);
}

Tally run_variant(const std::filesystem::path &dir, const std::string &variant)
{
   Tally t;
   const bool sb = variant.find("-sb") != std::string::npos;
   auto chip = chip_class_from_name(variant.substr(0, variant.find('-')));
   for (const auto &txt_path : test::corpus_files(dir / "r600-bc", variant, ".txt")) {
      std::string p = txt_path.string();
      std::string hex_path = p.substr(0, p.size() - 4) + ".bin.hex";
      t.total++;
      const std::string txt = read_file(txt_path);
      std::string_view tgsi_text = mesa_dump_section(txt, "TGSI");
      std::string_view info_text = mesa_dump_section(txt, "INFO");
      std::string_view bc_text = mesa_dump_section(txt, "BYTECODE");
      Diagnostics diags;
      auto shader = tgsi::parse_tgsi(tgsi_text, p, diags);
      if (!shader) {
         t.unchecked["TGSI does not parse"]++;
         continue;
      }
      auto words = read_bin_hex(read_file(hex_path), diags, hex_path);
      auto prog = words ? decode_program(*words, *chip, diags, hex_path) : std::nullopt;
      if (!prog) {
         t.unchecked["bytecode does not decode"]++;
         continue;
      }
      MesaInfoOptions mo;
      mo.match_export_gprs = !sb;
      auto info = load_mesa_info(info_text, bc_text, *shader, *prog, mo, diags, p);
      if (!info) {
         t.unchecked["INFO not loadable: " + kind_of(first_line(diags.str()))]++;
         continue;
      }
      Diagnostics vd;
      if (!validate_program(*prog, *info, vd)) {
         t.validate_fail++;
         if (t.examples.size() < 12)
            t.examples.push_back(p + ": validate: " + first_line(vd.str()));
         t.error_kinds["validate: " + kind_of(first_line(vd.str()))]++;
      }
      bool unmapped = false;
      for (const ShaderIo &io : info->outputs)
         if (io.tgsi_index < 0 && io.export_type != 3)
            unmapped = true;
      for (const tgsi::Declaration &d : shader->declarations)
         if (d.file == tgsi::File::SystemValue && d.semantic != tgsi::Semantic::VertexId &&
             d.semantic != tgsi::Semantic::InstanceId)
            unmapped = true;
      if (unmapped) {
         t.unchecked["system values or outputs without a TGSI register"]++;
         continue;
      }
      auto ref = interp::make_reference_executable(*shader, diags);
      if (!ref) {
         t.unchecked["reference interpreter refuses the TGSI"]++;
         continue;
      }
      EmuOptions eo;
      eo.texture_resource_base = 18;
      R600Executable exe(*prog, *info, eo);
      runner::VerifyOptions vo;
      vo.seed = 1;
      vo.invocations = 64;
      vo.limits.max_loop_iterations = 4096;
      /* Quads get plane inputs as a rasterizer gives them; implicit-LOD
       * reads in partly active quads (after a non-uniform KILL, inside a
       * divergent branch) are classified by the reference, not compared. */
      vo.quad_coherent_inputs = true;
      runner::VerifyResult vr = runner::verify_shader(*shader, *ref, exe, vo);
      if (vr.undefined_lanes) {
         t.undefined_shaders++;
         t.undefined_lanes += vr.undefined_lanes;
         t.undefined_derivative += vr.undefined_derivative;
         t.undefined_pow += vr.undefined_pow;
      }
      switch (vr.status) {
      case runner::VerifyStatus::Pass: t.agree++; break;
      case runner::VerifyStatus::Fail:
         t.differ++;
         if (t.examples.size() < 12)
            t.examples.push_back(p + ": " + first_line(vr.message));
         break;
      case runner::VerifyStatus::Budget: t.budget++; break;
      case runner::VerifyStatus::Error:
         t.emu_error++;
         t.error_kinds["error: " + kind_of(first_line(vr.message))]++;
         if (t.examples.size() < 12)
            t.examples.push_back(p + ": error: " + first_line(vr.message));
         break;
      }
      /* Speed: one plain emulator run of 64 lanes. */
      Batch b;
      b.lanes.resize(64);
      for (Lane &l : b.lanes) {
         l.inputs.assign(32, vec4f(0.5f, 0.25f, 0.75f, 1.0f));
         l.outputs.assign(32, Vec4{0, 0, 0, 0});
      }
      Resources res;
      res.constants.assign(16, std::vector<Vec4>(4096, vec4f(0.5f, 0.5f, 0.5f, 0.5f)));
      RunLimits lim;
      lim.max_loop_iterations = 256;
      auto t1 = std::chrono::steady_clock::now();
      RunResult rr = exe.run(res, b, lim);
      t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
      t.instructions += rr.instructions;
   }
   return t;
}

void report(const std::string &variant, const Tally &t)
{
   std::cout << variant << ": " << t.total << " shaders, " << t.agree << " agree, " << t.differ
             << " differ, " << t.emu_error << " emulator errors, " << t.budget
             << " over loop budget, " << t.validate_fail << " rejected by the validator\n";
   for (const auto &[why, n] : t.unchecked)
      std::cout << "  not checked (" << n << "): " << why << "\n";
   for (const auto &[why, n] : t.error_kinds)
      std::cout << "  failure kind (" << n << "): " << why << "\n";
   for (const std::string &e : t.examples)
      std::cout << "  e.g. " << e << "\n";
   std::cout << "  " << t.undefined_lanes << " lanes undefined by GL in " << t.undefined_shaders
             << " shaders (" << t.undefined_derivative
             << " implicit derivative in a partly active quad, " << t.undefined_pow
             << " pow of a negative base), not compared\n";
   if (t.seconds > 0)
      std::cout << "  speed: " << uint64_t(double(t.instructions) / t.seconds)
                << " invocation-instructions/s (" << t.instructions << " in " << t.seconds
                << " s)\n";
}

class CorpusR600Emu : public ::testing::TestWithParam<const char *> {};

TEST_P(CorpusR600Emu, MesaCodeAgreesWithReference)
{
   auto dir = test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or put it at ../shared/corpus)";
   const std::string variant = GetParam();
   if (!std::filesystem::is_directory(*dir / "r600-bc" / variant))
      GTEST_SKIP() << "corpus has no r600-bc/" << variant;
   Tally t = run_variant(*dir, variant);
   report(variant, t);
   ASSERT_GT(t.total, 0u);
   /* Thresholds: what this emulator measured (docs/r600-emulator.md). */
   EXPECT_EQ(t.validate_fail, 0u);
   EXPECT_EQ(t.emu_error, 0u);
   /* Every checked shader agrees once GL-undefined lanes are set aside. */
   EXPECT_EQ(t.differ, 0u);
   EXPECT_EQ(t.agree + t.budget, t.total - t.not_checked());
}

INSTANTIATE_TEST_SUITE_P(Variants, CorpusR600Emu,
                         ::testing::Values("CYPRESS-tgsi-nosb", "RV770-tgsi-nosb",
                                           "CYPRESS-tgsi-sb", "RV770-tgsi-sb"),
                         [](const auto &info) {
                            std::string s = info.param;
                            for (char &c : s)
                               if (c == '-')
                                  c = '_';
                            return s;
                         });

} // namespace
