/*
 * The shared, deterministic texture model.
 *
 * The reference interpreter and every backend emulator (r600 TEX clauses,
 * r300, vc4) sample through this one library, so a texture result can be
 * compared bit-exactly between the reference and the compiled code: only the
 * coordinates the shader computes may differ, never the sampling math.
 *
 * Textures hold RGBA float texels generated once at creation; sampling never
 * allocates.  The exact math is below and in docs/semantics.md ("Texture
 * model").  Summary:
 *
 *  Coordinates (SampleRequest::coord) use TGSI's layout for the target:
 *    1D: x   2D/RECT: x,y   3D/CUBE: x,y,z
 *    SHADOW1D: x, ref z    SHADOW2D/SHADOWRECT: x,y, ref z
 *    1D_ARRAY: x, layer y  2D_ARRAY: x,y, layer z   CUBE_ARRAY: x,y,z, layer w
 *    SHADOW1D_ARRAY: x, layer y, ref z   SHADOW2D_ARRAY: x,y, layer z, ref w
 *    SHADOWCUBE: x,y,z, ref w   SHADOWCUBE_ARRAY: x,y,z, layer w, ref = ref_ext
 *  TXP projection is the caller's job.  NaN coordinates are treated as 0.
 *
 *  LOD (Sample, SampleBias, SampleGrad): with the level-0 size (w,h,d),
 *    rho_x = |(ddx[0]*w, ddx[1]*h, ddx[2]*d)| over the target's dimensions
 *    (RECT: unscaled; CUBE: the derivatives of the face s,t by the quotient
 *    rule, scaled by the face size), rho = max(rho_x, rho_y),
 *    lambda = log2(rho) + bias (SampleBias only).  SampleLod: lambda = lod.
 *    lambda <= 0 (or NaN) magnifies: mag filter on level 0.  Otherwise the
 *    min filter on: level 0 (mip none); level clamp(ceil(lambda + 0.5) - 1)
 *    (mip nearest, level 0 when lambda <= 0.5); or levels floor(lambda) and
 *    +1 blended by fract(lambda), both clamped to levels-1 (mip linear).
 *
 *  Filtering: u = s*size + offset (RECT: u = s + offset).  Nearest takes
 *    texel floor(u); linear blends floor(u-0.5) and +1 by fract(u-0.5),
 *    per axis (bilinear / trilinear for 3D), in float, in a fixed order.
 *    Array layers are not filtered: layer = clamp(floor(l + 0.5), 0, n-1).
 *
 *  Wrap: Repeat (i mod n), ClampToEdge (clamp i), Clamp (GL_CLAMP: s clamped
 *    to [0,1] first, linear may then reach the border colour), Mirror
 *    (GL_MIRRORED_REPEAT), ClampToBorder (outside -> border colour).
 *    Cube faces always clamp to edge (no seamless filtering).
 *
 *  Shadow targets compare each fetched texel's R with the reference clamped
 *    to [0,1] (1.0 when the function passes, else 0.0) before filtering, then
 *    expand by depth mode: luminance (r,r,r,1), intensity (r,r,r,r),
 *    alpha (0,0,0,r), red (r,0,0,1).
 *
 *  Fetch: integer texel (x, y, z-or-layer) + offset at level `level`, using
 *    only the coordinates the kind has (1D: x; 2D/RECT: x, y); any used
 *    coordinate or the level out of range returns (0,0,0,0).
 *  Query: (width, height, depth-or-layers, levels) at `level` as integers,
 *    unused dimensions 0; a level out of range gives sizes 0 (levels kept).
 *  A unit with no texture, or a texture whose kind does not match the
 *    request's target, returns (0,0,0,0).
 *
 * May use: src/common, src/tgsi (for TextureTarget only).
 */
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::tex {

using tgsi::TextureTarget;

/* How texels are laid out; the shadow/non-shadow distinction is the
 * sampling target's, not the texture's. */
enum class Kind : uint8_t { Tex1D, Tex2D, Tex3D, Cube, Rect, Array1D, Array2D, CubeArray };

enum class Filter : uint8_t { Nearest, Linear };
enum class MipFilter : uint8_t { None, Nearest, Linear };
enum class Wrap : uint8_t { Repeat, ClampToEdge, Clamp, Mirror, ClampToBorder };
enum class CompareFunc : uint8_t { Never, Less, LEqual, Equal, Greater, GEqual, NotEqual, Always };
enum class DepthMode : uint8_t { Luminance, Intensity, Alpha, Red };

struct Sampler {
   Filter min_filter = Filter::Nearest;
   Filter mag_filter = Filter::Nearest;
   MipFilter mip_filter = MipFilter::None;
   std::array<Wrap, 3> wrap = {Wrap::Repeat, Wrap::Repeat, Wrap::Repeat}; /* s, t, r */
   CompareFunc compare = CompareFunc::LEqual;
   DepthMode depth_mode = DepthMode::Luminance;
   std::array<float, 4> border = {0, 0, 0, 0};
};

/* The base kind a TGSI target samples (nullopt-like Kind for Unknown is not
 * needed: false is returned for targets the model has no layout for). */
bool target_kind(TextureTarget target, Kind &kind);
bool target_is_shadow(TextureTarget target);

constexpr int kMaxLevels = 16;

class Texture {
 public:
   /* w x h x d: d is the depth (3D), the layer count (arrays) or ignored
    * (cube: 6 faces; cube array: 6 * d faces).  Sizes are clamped to
    * [1, 4096] (depth/layers [1, 256]); mipmapped builds the full chain. */
   Texture(Kind kind, int w, int h, int d, bool mipmapped);

   /* Deterministic hash(seed, x, y, z, level, channel) noise in [0,1],
    * quantised to k/255 * 0.5, plus 0.5 * a per-level tint (level 0 red,
    * 1 green, 2 blue, 3 yellow, 4 magenta, 5 cyan, 6 white, 7 black, ...)
    * so the selected LOD shows in every sample.  Alpha is noise only. */
   static Texture procedural(Kind kind, int w, int h, int d, bool mipmapped, uint32_t seed);
   /* piglit's rgbw: (with row 0 at the bottom) lower-left red, lower-right
    * green, upper-left blue, upper-right white, alpha 1, on every level. */
   static Texture rgbw(Kind kind, int w, int h, int d, bool mipmapped);
   /* Square (x/square + y/square) even -> a, odd -> b, on every level. */
   static Texture checkerboard(Kind kind, int w, int h, int d, int square,
                               std::array<float, 4> a, std::array<float, 4> b,
                               bool mipmapped);
   /* Each level one solid colour from miptree_color(level). */
   static Texture miptree(Kind kind, int w, int h, int d);
   static std::array<float, 4> miptree_color(int level);
   /* Depth in R (stored as (z, z, z, 1)): a hash of (seed, x, y, z) in
    * [0,1] quantised to k/255, or, with seed 0, the ramp (x + 0.5) / w. */
   static Texture depth(Kind kind, int w, int h, int d, bool mipmapped, uint32_t seed);

   /* Explicit data: RGBA floats for every texel of level 0, then level 1,
    * ..., each level z-major, then rows (y), then x.  Missing values are 0,
    * extra values ignored. */
   static Texture from_texels(Kind kind, int w, int h, int d, bool mipmapped,
                              const std::vector<float> &rgba);

   Kind kind() const { return kind_; }
   int levels() const { return levels_; }
   int width(int level) const { return size_[level][0]; }
   int height(int level) const { return size_[level][1]; }
   /* depth, layers, or faces (6 for cube, 6 * n for cube arrays) */
   int depth(int level) const { return size_[level][2]; }
   /* The d given at creation for arrays / cube arrays: the layer count. */
   int layers() const { return layers_; }

   float *texel(int level, int x, int y, int z)
   {
      return &data_[offset_[level] + 4 * ((size_t(z) * size_[level][1] + y) * size_[level][0] + x)];
   }
   const float *texel(int level, int x, int y, int z) const
   {
      return &data_[offset_[level] + 4 * ((size_t(z) * size_[level][1] + y) * size_[level][0] + x)];
   }
   void set_texel(int level, int x, int y, int z, std::array<float, 4> v);

 private:
   Kind kind_;
   int levels_ = 1;
   int layers_ = 1;
   std::array<std::array<int, 3>, kMaxLevels> size_{};
   std::array<size_t, kMaxLevels> offset_{};
   std::vector<float> data_;
};

enum class SampleOp : uint8_t { Sample, SampleBias, SampleLod, SampleGrad, Fetch, Query };

struct SampleRequest {
   SampleOp op = SampleOp::Sample;
   TextureTarget target = TextureTarget::Unknown; /* Unknown: the texture's kind, no compare */
   float coord[4] = {0, 0, 0, 0};
   float ref_ext = 0;      /* SHADOWCUBE_ARRAY reference (TEX2's src1.x) */
   float ddx[3] = {0, 0, 0};
   float ddy[3] = {0, 0, 0};
   float lod_or_bias = 0;  /* SampleBias: bias; SampleLod: lod */
   int32_t texel[3] = {0, 0, 0}; /* Fetch: x, y, z (z or array layer in TGSI's slot) */
   int32_t level = 0;      /* Fetch, Query */
   int32_t offset[3] = {0, 0, 0};
};

/* One sample: float RGBA for sampling and fetch, integers for Query. */
Vec4 sample(const Texture &tex, const Sampler &sampler, const SampleRequest &req);
std::array<float, 4> sample_float(const Texture &tex, const Sampler &sampler,
                                  const SampleRequest &req);

/* Texture unit index -> (texture, sampler). */
class TextureSet {
 public:
   void bind(unsigned unit, std::shared_ptr<const Texture> tex, const Sampler &sampler = {});
   const Texture *texture(unsigned unit) const;
   const Sampler *sampler(unsigned unit) const;
   unsigned num_units() const { return static_cast<unsigned>(units_.size()); }
   /* Unbound units return (0,0,0,0). */
   Vec4 sample(unsigned unit, const SampleRequest &req) const;

 private:
   struct Unit {
      std::shared_ptr<const Texture> tex;
      Sampler sampler;
   };
   std::vector<Unit> units_;
};

} // namespace sbcc::tex
