/*
 * The software rasterizer behind `sbcc run-test`: shaded triangles in, an
 * RGBA8-like framebuffer out, with the fragment shader run on the chosen
 * target in 2x2 quads.
 *
 * Conventions (GL's, so probes read like piglit's):
 *  - The framebuffer is 250x250, row 0 at the bottom; pixel centers at .5.
 *  - Colors are clamped to [0, 1] and rounded to 8 bits when stored, as a
 *    UNORM8 window would.
 *  - Coverage: pixel centers inside the triangle, ties broken by the
 *    top-left rule, so two triangles sharing an edge never both cover a pixel.
 *  - A quad's "top" row is the one with the lower y (row 2k), so the
 *    BL - TL difference the execution contract defines for DDY equals GL's
 *    dFdy in window space.
 *  - Fragment inputs: POSITION = (x, y, z, 1/w) with x, y at pixel centers
 *    (or integers with FS_COORD_PIXEL_CENTER INTEGER), y counted from the top
 *    unless FS_COORD_ORIGIN LOWER_LEFT; z in [0, 1]; FACE = (+1 front or -1
 *    back, 0, 0, 1), front = counter-clockwise in window space.  Other inputs
 *    come from the vertex output with the same semantic and index (GENERIC[n]
 *    and TEXCOORD[n] stand in for each other), interpolated perspective-
 *    correctly (PERSPECTIVE, COLOR, unspecified), linearly in window space
 *    (LINEAR) or from the provoking (last) vertex (CONSTANT).  Inputs with no
 *    vertex output read (0, 0, 0, 1).
 *  - The fragment shader's OUT with semantic COLOR[0] is the pixel color;
 *    killed lanes and helper lanes write nothing.
 *
 * May use: common, tgsi.
 */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::runner {

constexpr int kWindowWidth = 250;
constexpr int kWindowHeight = 250;

using Color = std::array<float, 4>;

struct Framebuffer {
   int width = kWindowWidth;
   int height = kWindowHeight;
   std::vector<Color> pixels = std::vector<Color>(size_t(kWindowWidth) * kWindowHeight);

   void clear(const Color &c);
   /* Stores c the way a UNORM8 render target would. */
   void store(int x, int y, const Color &c);
   const Color &at(int x, int y) const { return pixels[size_t(y) * width + x]; }
};

/* Quantize a float color channel like a UNORM8 render target. */
float unorm8(float v);

/* A vertex after the vertex stage: clip-space position and its outputs,
 * named by the semantics in VertexLayout. */
struct ShadedVertex {
   std::array<float, 4> position = {0, 0, 0, 1};
   std::vector<Vec4> attribs;
};

struct VertexAttrib {
   tgsi::Semantic semantic = tgsi::Semantic::Generic;
   uint32_t index = 0;
};

struct FragmentStage {
   const tgsi::Shader *shader = nullptr;
   const Executable *exe = nullptr;
   const Resources *resources = nullptr;
   RunLimits limits;
   unsigned batch_lanes = 64; /* lanes per run() call, a multiple of 4 */
};

struct DrawResult {
   bool ok = true;
   std::string error; /* budget exceeded, run error, unsupported geometry */
   uint64_t quads = 0;
   uint64_t fragments = 0; /* covered, non-helper lanes */
};

/* Draw triangles (three indices each; the third is the provoking vertex). */
DrawResult draw_triangles(const std::vector<ShadedVertex> &verts,
                          const std::vector<VertexAttrib> &layout,
                          const std::vector<std::array<int, 3>> &tris,
                          const FragmentStage &fs, Framebuffer &fb);

} // namespace sbcc::runner
