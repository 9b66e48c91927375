/*
 * Optional 'corpus' suite: every real TGSI shader of ../shared/corpus must be
 * accepted by the reference interpreter and run to completion on a batch of
 * quads with procedural inputs, constants and textures, deterministically
 * (two runs give identical bits).  Prints the interpreter's throughput.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "corpus/corpus_path.h"
#include "interp/interp.h"
#include "texture/texture.h"
#include "tgsi/tgsi_ir.h"

using namespace sbcc;

namespace {

std::string read_file(const std::filesystem::path &p)
{
   std::ifstream f(p, std::ios::binary);
   std::ostringstream ss;
   ss << f.rdbuf();
   return ss.str();
}

float unit_hash(uint32_t a, uint32_t b)
{
   uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u);
   h ^= h >> 15;
   h *= 0x2c1b3c6du;
   h ^= h >> 12;
   return float(h & 0xffff) / 65536.0f;
}

/* Textures for every unit the shader samples, of the kind its instructions
 * name (shadow targets get depth textures). */
void bind_textures(const tgsi::Shader &sh, tex::TextureSet &set)
{
   for (const tgsi::Instruction &in : sh.instructions) {
      if (!(in.info().flags & tgsi::OPF_TEX) || in.src.empty())
         continue;
      unsigned first = unsigned(in.src.back().index.value), last = first;
      if (in.src.back().index.indirect)
         last = unsigned(std::max(1, sh.file_size(in.src.back().file))) - 1;
      for (unsigned unit = first; unit <= last; unit++) {
         if (set.texture(unit))
            continue;
         tex::Kind kind;
         if (!tex::target_kind(in.tex_target, kind))
            kind = tex::Kind::Tex2D;
         tex::Sampler s;
         s.min_filter = s.mag_filter = tex::Filter::Linear;
         s.mip_filter = tex::MipFilter::Linear;
         auto t = tex::target_is_shadow(in.tex_target)
                     ? tex::Texture::depth(kind, 16, 16, 4, true, 7 + unit)
                     : tex::Texture::procedural(kind, 16, 16, 4, true, 1 + unit);
         set.bind(unit, std::make_shared<tex::Texture>(std::move(t)), s);
      }
   }
}

Batch make_batch(const tgsi::Shader &sh, int quads)
{
   Batch b;
   const int nin = sh.file_size(tgsi::File::Input);
   const int nsv = sh.file_size(tgsi::File::SystemValue);
   for (int q = 0; q < quads; q++)
      for (int l = 0; l < 4; l++) {
         Lane lane;
         for (int i = 0; i < nin; i++) {
            Vec4 v;
            for (int c = 0; c < 4; c++) {
               /* smooth within a quad, so derivatives are small */
               float base = unit_hash(uint32_t(q), uint32_t(i * 4 + c));
               v[size_t(c)] = f2u(base + 0.01f * float(l & 1) + 0.02f * float(l >> 1));
            }
            lane.inputs.push_back(v);
         }
         for (int i = 0; i < nsv; i++)
            lane.system_values.push_back({uint32_t(q * 4 + l), 0, 0, 0});
         b.lanes.push_back(lane);
      }
   return b;
}

void run_dir(const char *sub)
{
   auto dir = sbcc::test::corpus_dir();
   if (!dir)
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or provide ../shared/corpus)";
   auto files = sbcc::test::corpus_files(*dir, sub, ".tgsi");
   ASSERT_GE(files.size(), 1u) << "corpus " << sub << " looks incomplete";

   Resources res;
   res.constants.resize(4);
   for (size_t b = 0; b < res.constants.size(); b++)
      for (uint32_t i = 0; i < 512; i++)
         res.constants[b].push_back(vec4f(unit_hash(i, 1000 + uint32_t(b)), unit_hash(i, 1),
                                          unit_hash(i, 2), unit_hash(i, 3)));
   RunLimits limits;
   limits.max_loop_iterations = 512;

   uint64_t instructions = 0, digest = 1469598103934665603ull;
   double seconds = 0;
   size_t budget = 0;
   for (const auto &path : files) {
      Diagnostics diags;
      auto sh = tgsi::parse_tgsi(read_file(path), path.string(), diags);
      ASSERT_TRUE(sh) << diags.str();
      auto exe = interp::make_reference_executable(*sh, diags);
      ASSERT_TRUE(exe) << path << "\n" << diags.str();
      tex::TextureSet textures;
      bind_textures(*sh, textures);
      res.textures = &textures;

      Batch a = make_batch(*sh, 16), b = a;
      auto t0 = std::chrono::steady_clock::now();
      RunResult ra = exe->run(res, a, limits);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      RunResult rb = exe->run(res, b, limits);
      EXPECT_NE(ra.status, RunStatus::Error) << path << ": " << ra.message;
      budget += ra.status == RunStatus::BudgetExceeded;
      EXPECT_EQ(ra.instructions, rb.instructions) << path;
      for (size_t l = 0; l < a.lanes.size(); l++) {
         ASSERT_EQ(a.lanes[l].outputs, b.lanes[l].outputs) << path << " lane " << l;
         ASSERT_EQ(a.lanes[l].killed, b.lanes[l].killed) << path << " lane " << l;
      }
      instructions += ra.instructions;
      /* FNV-1a over every output word and kill flag: a semantic change in
       * the interpreter shows up as a different digest. */
      for (const Lane &lane : a.lanes) {
         for (const Vec4 &v : lane.outputs)
            for (uint32_t w : v)
               digest = (digest ^ w) * 1099511628211ull;
         digest = (digest ^ uint64_t(lane.killed)) * 1099511628211ull;
      }
   }
   std::printf("%s: %zu shaders, %zu over the loop budget, %llu lane-instructions in %.3f s "
               "(%.1f M/s), output digest %016llx\n",
               sub, files.size(), budget, static_cast<unsigned long long>(instructions), seconds,
               seconds > 0 ? double(instructions) / seconds / 1e6 : 0.0,
               static_cast<unsigned long long>(digest));
}

TEST(CorpusInterp, R600TgsiRuns) { run_dir("tgsi"); }
TEST(CorpusInterp, R300TgsiRuns) { run_dir("tgsi-r300"); }

} // namespace
