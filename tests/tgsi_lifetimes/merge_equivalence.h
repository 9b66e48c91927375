/*
 * Runs a shader and its merged form through the reference interpreter on
 * the same random inputs, constants and textures, and reports the first
 * output word that differs.  Merging promises bit-identical results, so no
 * tolerance is applied.  Shared by the tgsi_lifetimes and corpus suites.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "common/exec.h"
#include "interp/interp.h"
#include "texture/texture.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::tgsi::test {

/* Inputs, constants and textures drawn from one seed for a given shader. */
struct RandomRun {
   Resources res;
   tex::TextureSet textures;
   Batch batch;

   RandomRun(const Shader &shader, uint32_t seed, int lanes = 16)
   {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> val(-3.0f, 3.0f);
      /* Mostly floats; some small integers so integer code and loop counts
       * see sensible values. */
      auto word = [&]() -> uint32_t {
         return rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 8) : f2u(val(rng));
      };
      auto small = [&]() { return static_cast<uint32_t>(rng() % 64); };
      auto vec = [&]() { return Vec4{word(), word(), word(), word()}; };

      for (const Declaration &d : shader.declarations) {
         if (d.file == File::Constant) {
            size_t buf = d.dimension ? static_cast<size_t>(std::max(0, *d.dimension)) : 0;
            if (buf >= 16 || d.last >= 4096)
               continue;
            if (res.constants.size() <= buf)
               res.constants.resize(buf + 1);
            auto &c = res.constants[buf];
            while (c.size() <= static_cast<size_t>(d.last))
               c.push_back(vec());
         }
      }
      const int units =
         std::min(32, std::max(shader.file_size(File::Sampler), shader.file_size(File::SamplerView)));
      for (int u = 0; u < units; u++) {
         const Declaration *view = shader.find_declaration(File::SamplerView, u);
         tex::Kind kind = tex::Kind::Tex2D;
         if (view)
            tex::target_kind(view->view_target, kind);
         auto t = std::make_shared<tex::Texture>(
            tex::Texture::procedural(kind, 16, 16, 4, true, seed + static_cast<uint32_t>(u)));
         /* Filtered and mipmapped, so implicit LODs (derivatives) show. */
         tex::Sampler sampler;
         sampler.min_filter = sampler.mag_filter = tex::Filter::Linear;
         sampler.mip_filter = tex::MipFilter::Linear;
         textures.bind(static_cast<unsigned>(u), t, sampler);
      }
      res.textures = &textures;

      const int num_in = shader.file_size(File::Input);
      const int num_sv = shader.file_size(File::SystemValue);
      for (int l = 0; l < lanes; l++) {
         Lane lane;
         for (int i = 0; i < num_in; i++)
            lane.inputs.push_back(vec());
         for (int i = 0; i < num_sv; i++)
            lane.system_values.push_back(Vec4{small(), small(), small(), small()});
         batch.lanes.push_back(lane);
      }
   }
};

/* "" when both shaders give bit-identical outputs (and kill flags and run
 * status) on `runs` random batches; else a description of the first
 * difference.  Shaders the interpreter rejects are reported as such. */
inline std::string compare_in_interpreter(const Shader &a, const Shader &b, uint32_t seed,
                                          int runs = 4)
{
   Diagnostics diags;
   auto ea = interp::make_reference_executable(a, diags);
   if (!ea)
      return "original rejected: " + diags.str();
   auto eb = interp::make_reference_executable(b, diags);
   if (!eb)
      return "merged rejected: " + diags.str() + "\n" + print_tgsi(b);
   RunLimits limits;
   limits.max_loop_iterations = 300;
   for (int r = 0; r < runs; r++) {
      RandomRun ra(a, seed + static_cast<uint32_t>(r) * 1000003u);
      RandomRun rb(a, seed + static_cast<uint32_t>(r) * 1000003u);
      RunResult xa = ea->run(ra.res, ra.batch, limits);
      RunResult xb = eb->run(rb.res, rb.batch, limits);
      if (xa.status != xb.status)
         return "run status differs: " + xa.message + " / " + xb.message;
      for (size_t l = 0; l < ra.batch.lanes.size(); l++) {
         const Lane &la = ra.batch.lanes[l], &lb = rb.batch.lanes[l];
         if (la.killed != lb.killed)
            return "lane " + std::to_string(l) + " kill flag differs";
         if (la.outputs.size() != lb.outputs.size())
            return "output count differs";
         for (size_t o = 0; o < la.outputs.size(); o++)
            for (int c = 0; c < 4; c++)
               if (la.outputs[o][c] != lb.outputs[o][c])
                  return "run " + std::to_string(r) + " lane " + std::to_string(l) + " OUT[" +
                         std::to_string(o) + "]." + "xyzw"[c] + ": " +
                         std::to_string(la.outputs[o][c]) + " vs " +
                         std::to_string(lb.outputs[o][c]);
      }
   }
   return "";
}

} // namespace sbcc::tgsi::test
