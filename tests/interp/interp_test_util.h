/* Helpers for the interpreter tests: parse TGSI text, run it on lanes, read
 * back outputs as floats or words. */
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "interp/interp.h"
#include "texture/texture.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::interp::test {

inline std::unique_ptr<Executable> compile(const std::string &text, Diagnostics &diags)
{
   auto sh = tgsi::parse_tgsi(text, "t.tgsi", diags);
   if (!sh)
      return nullptr;
   return make_reference_executable(*sh, diags);
}

struct Runner {
   Resources res;
   tex::TextureSet textures;
   RunLimits limits;
   RunResult result;

   Runner() { res.textures = &textures; }

   /* One lane per entry of `inputs` (each a list of IN registers). */
   Batch run(const std::string &text, const std::vector<std::vector<Vec4>> &inputs)
   {
      Diagnostics diags;
      auto exe = compile(text, diags);
      EXPECT_TRUE(exe) << diags.str();
      Batch b;
      for (const auto &in : inputs) {
         Lane l;
         l.inputs = in;
         b.lanes.push_back(l);
      }
      if (exe)
         result = exe->run(res, b, limits);
      return b;
   }

   /* A single vertex-shader lane; returns OUT[out]. */
   Vec4 run1(const std::string &text, const std::vector<Vec4> &inputs = {}, int out = 0)
   {
      Batch b = run(text, {inputs});
      if (b.lanes.empty() || b.lanes[0].outputs.size() <= size_t(out))
         return {0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef};
      return b.lanes[0].outputs[size_t(out)];
   }
};

inline Vec4 vec4u(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return {x, y, z, w}; }
inline Vec4 vec4i(int32_t x, int32_t y, int32_t z, int32_t w)
{
   return {uint32_t(x), uint32_t(y), uint32_t(z), uint32_t(w)};
}

/* Float view for readable failure messages. */
inline std::array<float, 4> fv(const Vec4 &v) { return {u2f(v[0]), u2f(v[1]), u2f(v[2]), u2f(v[3])}; }

/* "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..3]\n" + body + END */
inline std::string vs(const std::string &decls, const std::string &body)
{
   return "VERT\nDCL IN[0]\nDCL IN[1]\nDCL IN[2]\nDCL OUT[0], GENERIC[0]\nDCL TEMP[0..7]\n" +
          decls + body + "END\n";
}

} // namespace sbcc::interp::test
