/* The texture model's exact results: generators, filtering, wrapping, LOD,
 * cube faces, shadow compare, queries and fetches. */
#include <gtest/gtest.h>

#include <cmath>

#include "texture/texture.h"

using namespace sbcc;
using namespace sbcc::tex;

namespace {

using F4 = std::array<float, 4>;

F4 sample2d(const Texture &t, const Sampler &s, float x, float y,
            SampleOp op = SampleOp::Sample, float lod = 0)
{
   SampleRequest r;
   r.op = op;
   r.target = TextureTarget::Tex2D;
   r.coord[0] = x;
   r.coord[1] = y;
   r.lod_or_bias = lod;
   return sample_float(t, s, r);
}

F4 fetch(const Texture &t, int x, int y, int z, int level, TextureTarget target)
{
   SampleRequest r;
   r.op = SampleOp::Fetch;
   r.target = target;
   r.texel[0] = x;
   r.texel[1] = y;
   r.texel[2] = z;
   r.level = level;
   return sample_float(t, Sampler{}, r);
}

/* A 1D texture whose texel i holds (i, i, i, i). */
Texture ramp1d(int n)
{
   Texture t(Kind::Tex1D, n, 1, 1, false);
   for (int i = 0; i < n; i++)
      t.set_texel(0, i, 0, 0, {float(i), float(i), float(i), float(i)});
   return t;
}

float sample1d(const Texture &t, Wrap w, Filter f, float s)
{
   Sampler smp;
   smp.wrap = {w, w, w};
   smp.mag_filter = smp.min_filter = f;
   smp.border = {10, 10, 10, 10};
   SampleRequest r;
   r.target = TextureTarget::Tex1D;
   r.coord[0] = s;
   return sample_float(t, smp, r)[0];
}

const F4 kRed = {1, 0, 0, 1}, kGreen = {0, 1, 0, 1}, kBlue = {0, 0, 1, 1},
         kWhite = {1, 1, 1, 1}, kYellow = {1, 1, 0, 1}, kMagenta = {1, 0, 1, 1};

} // namespace

TEST(TextureGen, RgbwQuadrants)
{
   Texture t = Texture::rgbw(Kind::Tex2D, 8, 8, 1, false);
   Sampler s;
   EXPECT_EQ(sample2d(t, s, 0.25f, 0.25f), kRed);
   EXPECT_EQ(sample2d(t, s, 0.75f, 0.25f), kGreen);
   EXPECT_EQ(sample2d(t, s, 0.25f, 0.75f), kBlue);
   EXPECT_EQ(sample2d(t, s, 0.75f, 0.75f), kWhite);
   EXPECT_EQ(fetch(t, 3, 3, 0, 0, TextureTarget::Tex2D), kRed);
   EXPECT_EQ(fetch(t, 4, 3, 0, 0, TextureTarget::Tex2D), kGreen);
   EXPECT_EQ(fetch(t, 3, 4, 0, 0, TextureTarget::Tex2D), kBlue);
   EXPECT_EQ(fetch(t, 4, 4, 0, 0, TextureTarget::Tex2D), kWhite);
}

TEST(TextureGen, Checkerboard)
{
   const F4 a = {0.25f, 0.5f, 0.75f, 1}, b = {1, 0, 0.5f, 0};
   Texture t = Texture::checkerboard(Kind::Tex2D, 8, 8, 1, 2, a, b, false);
   EXPECT_EQ(fetch(t, 0, 0, 0, 0, TextureTarget::Tex2D), a);
   EXPECT_EQ(fetch(t, 1, 1, 0, 0, TextureTarget::Tex2D), a);
   EXPECT_EQ(fetch(t, 2, 0, 0, 0, TextureTarget::Tex2D), b);
   EXPECT_EQ(fetch(t, 0, 3, 0, 0, TextureTarget::Tex2D), b);
   EXPECT_EQ(fetch(t, 3, 3, 0, 0, TextureTarget::Tex2D), a);
   EXPECT_EQ(fetch(t, 7, 4, 0, 0, TextureTarget::Tex2D), b);
}

TEST(TextureGen, MiptreeLevels)
{
   Texture t = Texture::miptree(Kind::Tex2D, 16, 16, 1);
   ASSERT_EQ(t.levels(), 5);
   EXPECT_EQ(fetch(t, 0, 0, 0, 0, TextureTarget::Tex2D), kRed);
   EXPECT_EQ(fetch(t, 7, 7, 0, 1, TextureTarget::Tex2D), kGreen);
   EXPECT_EQ(fetch(t, 3, 0, 0, 2, TextureTarget::Tex2D), kBlue);
   EXPECT_EQ(fetch(t, 1, 1, 0, 3, TextureTarget::Tex2D), kYellow);
   EXPECT_EQ(fetch(t, 0, 0, 0, 4, TextureTarget::Tex2D), kMagenta);
   EXPECT_EQ(t.width(3), 2);
   EXPECT_EQ(t.height(4), 1);
}

TEST(TextureGen, ProceduralIsDeterministicAndTinted)
{
   Texture a = Texture::procedural(Kind::Tex2D, 8, 8, 1, true, 42);
   Texture b = Texture::procedural(Kind::Tex2D, 8, 8, 1, true, 42);
   Texture c = Texture::procedural(Kind::Tex2D, 8, 8, 1, true, 43);
   int differ = 0;
   for (int y = 0; y < 8; y++)
      for (int x = 0; x < 8; x++) {
         for (int ch = 0; ch < 4; ch++) {
            EXPECT_EQ(a.texel(0, x, y, 0)[ch], b.texel(0, x, y, 0)[ch]);
            differ += a.texel(0, x, y, 0)[ch] != c.texel(0, x, y, 0)[ch];
            float v = a.texel(0, x, y, 0)[ch];
            EXPECT_GE(v, 0.0f);
            EXPECT_LE(v, 1.0f);
         }
         /* level 0 is tinted red: r in [0.5, 1], g and b in [0, 0.5] */
         EXPECT_GE(a.texel(0, x, y, 0)[0], 0.5f);
         EXPECT_LE(a.texel(0, x, y, 0)[1], 0.5f);
      }
   EXPECT_GT(differ, 200);
   for (int y = 0; y < 4; y++)
      for (int x = 0; x < 4; x++) {
         /* level 1 is tinted green */
         EXPECT_LE(a.texel(1, x, y, 0)[0], 0.5f);
         EXPECT_GE(a.texel(1, x, y, 0)[1], 0.5f);
      }
   /* quantised to k/255 * 0.5 + tint */
   float r = a.texel(0, 3, 5, 0)[0];
   float k = (r - 0.5f) * 2.0f * 255.0f;
   EXPECT_FLOAT_EQ(k, std::round(k));
}

TEST(TextureFilter, BilinearHalfway)
{
   Texture t(Kind::Tex2D, 2, 2, 1, false);
   t.set_texel(0, 0, 0, 0, {0, 0, 0, 0});
   t.set_texel(0, 1, 0, 0, {1, 0, 0, 0});
   t.set_texel(0, 0, 1, 0, {0, 1, 0, 0});
   t.set_texel(0, 1, 1, 0, {1, 1, 1, 1});
   Sampler s;
   s.mag_filter = s.min_filter = Filter::Linear;
   s.wrap = {Wrap::ClampToEdge, Wrap::ClampToEdge, Wrap::ClampToEdge};
   /* The centre blends all four equally. */
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f), (F4{0.5f, 0.5f, 0.25f, 0.25f}));
   /* Halfway along the bottom row. */
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.25f), (F4{0.5f, 0.0f, 0.0f, 0.0f}));
   /* A texel centre returns the texel. */
   EXPECT_EQ(sample2d(t, s, 0.75f, 0.75f), (F4{1, 1, 1, 1}));
   /* A quarter of the way between texel centres. */
   EXPECT_EQ(sample2d(t, s, 0.375f, 0.25f), (F4{0.25f, 0, 0, 0}));
}

TEST(TextureFilter, WrapModesNearest)
{
   Texture t = ramp1d(4);
   /* s = 1.25 -> u = 5 */
   EXPECT_EQ(sample1d(t, Wrap::Repeat, Filter::Nearest, 1.25f), 1.0f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToEdge, Filter::Nearest, 1.25f), 3.0f);
   EXPECT_EQ(sample1d(t, Wrap::Mirror, Filter::Nearest, 1.25f), 2.0f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToBorder, Filter::Nearest, 1.25f), 10.0f);
   EXPECT_EQ(sample1d(t, Wrap::Clamp, Filter::Nearest, 1.25f), 3.0f);
   /* s = -0.25 -> u = -1 */
   EXPECT_EQ(sample1d(t, Wrap::Repeat, Filter::Nearest, -0.25f), 3.0f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToEdge, Filter::Nearest, -0.25f), 0.0f);
   EXPECT_EQ(sample1d(t, Wrap::Mirror, Filter::Nearest, -0.25f), 0.0f);
   EXPECT_EQ(sample1d(t, Wrap::Mirror, Filter::Nearest, -0.6f), 2.0f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToBorder, Filter::Nearest, -0.25f), 10.0f);
}

TEST(TextureFilter, WrapModesLinear)
{
   Texture t = ramp1d(4);
   /* s = 0 -> u - 0.5 = -0.5: texels -1 and 0, half each. */
   EXPECT_EQ(sample1d(t, Wrap::Repeat, Filter::Linear, 0.0f), 1.5f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToEdge, Filter::Linear, 0.0f), 0.0f);
   EXPECT_EQ(sample1d(t, Wrap::Mirror, Filter::Linear, 0.0f), 0.0f);
   EXPECT_EQ(sample1d(t, Wrap::Clamp, Filter::Linear, 0.0f), 5.0f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToBorder, Filter::Linear, 0.0f), 5.0f);
   /* GL_CLAMP clamps s to 1 first: texels 3 and border. */
   EXPECT_EQ(sample1d(t, Wrap::Clamp, Filter::Linear, 1.5f), 6.5f);
   EXPECT_EQ(sample1d(t, Wrap::ClampToEdge, Filter::Linear, 1.5f), 3.0f);
}

TEST(TextureFilter, RectIsUnnormalized)
{
   Texture t(Kind::Rect, 4, 2, 1, true);
   EXPECT_EQ(t.levels(), 1);
   t.set_texel(0, 1, 0, 0, {1, 2, 3, 4});
   t.set_texel(0, 3, 1, 0, {5, 6, 7, 8});
   SampleRequest r;
   r.target = TextureTarget::Rect;
   r.coord[0] = 1.5f;
   r.coord[1] = 0.5f;
   EXPECT_EQ(sample_float(t, Sampler{}, r), (F4{1, 2, 3, 4}));
   r.coord[0] = 3.9f;
   r.coord[1] = 1.2f;
   EXPECT_EQ(sample_float(t, Sampler{}, r), (F4{5, 6, 7, 8}));
}

TEST(TextureLod, FromGradients)
{
   Texture t = Texture::miptree(Kind::Tex2D, 16, 16, 1);
   Sampler s;
   s.mip_filter = MipFilter::Nearest;
   SampleRequest r;
   r.op = SampleOp::SampleGrad;
   r.target = TextureTarget::Tex2D;
   r.coord[0] = r.coord[1] = 0.5f;
   auto with_grad = [&](float dsdx, float dtdy) {
      r.ddx[0] = dsdx;
      r.ddy[1] = dtdy;
      return sample_float(t, s, r);
   };
   /* rho = 1 texel per pixel: lambda 0, magnification, level 0. */
   EXPECT_EQ(with_grad(1.0f / 16, 1.0f / 16), kRed);
   /* rho = 4: lambda 2. */
   EXPECT_EQ(with_grad(4.0f / 16, 0), kBlue);
   /* rho from the y gradient only. */
   EXPECT_EQ(with_grad(0, 4.0f / 16), kBlue);
   /* lambda = log2(2.6) = 1.38: nearest mip rounds to level 1. */
   EXPECT_EQ(with_grad(2.6f / 16, 0), kGreen);
   /* lambda = log2(3) = 1.58: level 2. */
   EXPECT_EQ(with_grad(3.0f / 16, 0), kBlue);
   /* lambda 10 clamps to the last level. */
   EXPECT_EQ(with_grad(1024.0f / 16, 0), kMagenta);
   /* Both gradients: the longer one wins (rho = 8, lambda 3). */
   r.ddx[1] = 0;
   r.ddx[0] = 8.0f / 16;
   r.ddy[1] = 2.0f / 16;
   EXPECT_EQ(sample_float(t, s, r), kYellow);

   /* Bias adds to lambda. */
   r.op = SampleOp::SampleBias;
   r.ddx[0] = 2.0f / 16;
   r.ddy[1] = 0;
   r.lod_or_bias = 1.0f;
   EXPECT_EQ(sample_float(t, s, r), kBlue);
   r.lod_or_bias = -1.0f;
   EXPECT_EQ(sample_float(t, s, r), kRed);

   /* Without mipmapping the base level is used. */
   s.mip_filter = MipFilter::None;
   r.lod_or_bias = 2.0f;
   EXPECT_EQ(sample_float(t, s, r), kRed);
}

TEST(TextureLod, ExplicitLodLinearMip)
{
   Texture t = Texture::miptree(Kind::Tex2D, 16, 16, 1);
   Sampler s;
   s.mip_filter = MipFilter::Linear;
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 1.5f), (F4{0, 0.5f, 0.5f, 1}));
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 2.0f), kBlue);
   /* levels 3 (yellow) and 4 (magenta), 3:1 */
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 3.25f), (F4{1, 0.75f, 0.25f, 1}));
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 7.0f), kMagenta);
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, -3.0f), kRed);
   s.mip_filter = MipFilter::Nearest;
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 0.5f), kRed);
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 0.51f), kGreen);
   EXPECT_EQ(sample2d(t, s, 0.5f, 0.5f, SampleOp::SampleLod, 1.49f), kGreen);
}

TEST(TextureCube, FaceSelectionPerMajorAxis)
{
   Texture t(Kind::Cube, 2, 2, 1, false);
   for (int f = 0; f < 6; f++)
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 2; x++)
            t.set_texel(0, x, y, f, {float(f), float(x), float(y), 1});
   SampleRequest r;
   r.target = TextureTarget::Cube;
   auto dir = [&](float x, float y, float z) {
      r.coord[0] = x;
      r.coord[1] = y;
      r.coord[2] = z;
      return sample_float(t, Sampler{}, r);
   };
   /* Direction -> face, and the face's (s, t) from GL's table. */
   EXPECT_EQ(dir(1, -0.5f, -0.5f), (F4{0, 1, 1, 1}));  /* +X: sc=-z, tc=-y */
   EXPECT_EQ(dir(1, 0.5f, 0.5f), (F4{0, 0, 0, 1}));
   EXPECT_EQ(dir(-1, -0.5f, 0.5f), (F4{1, 1, 1, 1})); /* -X: sc=+z, tc=-y */
   EXPECT_EQ(dir(0.5f, 2, 0.5f), (F4{2, 1, 1, 1}));   /* +Y: sc=+x, tc=+z */
   EXPECT_EQ(dir(0.5f, -2, 0.5f), (F4{3, 1, 0, 1}));  /* -Y: sc=+x, tc=-z */
   EXPECT_EQ(dir(-0.5f, 0.5f, 3), (F4{4, 0, 0, 1}));  /* +Z: sc=+x, tc=-y */
   EXPECT_EQ(dir(-0.5f, 0.5f, -3), (F4{5, 1, 0, 1})); /* -Z: sc=-x, tc=-y */
   /* Ties go to x, then y. */
   EXPECT_EQ(dir(1, 1, 1)[0], 0.0f);
   EXPECT_EQ(dir(0, -1, 1)[0], 3.0f);
   /* A zero direction is defined: +X face centre. */
   EXPECT_EQ(dir(0, 0, 0)[0], 0.0f);
}

TEST(TextureShadow, EveryCompareFunc)
{
   Texture t(Kind::Tex2D, 1, 1, 1, false);
   t.set_texel(0, 0, 0, 0, {0.5f, 0.5f, 0.5f, 1});
   struct Case {
      CompareFunc f;
      float below, equal, above; /* results for ref 0.25, 0.5, 0.75 */
   } cases[] = {
      {CompareFunc::Never, 0, 0, 0},   {CompareFunc::Less, 1, 0, 0},
      {CompareFunc::LEqual, 1, 1, 0},  {CompareFunc::Equal, 0, 1, 0},
      {CompareFunc::Greater, 0, 0, 1}, {CompareFunc::GEqual, 0, 1, 1},
      {CompareFunc::NotEqual, 1, 0, 1}, {CompareFunc::Always, 1, 1, 1},
   };
   for (const Case &c : cases) {
      Sampler s;
      s.compare = c.f;
      s.depth_mode = DepthMode::Red;
      SampleRequest r;
      r.target = TextureTarget::Shadow2D;
      r.coord[0] = r.coord[1] = 0.5f;
      const float refs[3] = {0.25f, 0.5f, 0.75f};
      const float want[3] = {c.below, c.equal, c.above};
      for (int i = 0; i < 3; i++) {
         r.coord[2] = refs[i];
         EXPECT_EQ(sample_float(t, s, r), (F4{want[i], 0, 0, 1}))
            << "func " << int(c.f) << " ref " << refs[i];
      }
   }
}

TEST(TextureShadow, DepthModesAndRefSlots)
{
   Texture t = Texture::depth(Kind::Tex2D, 4, 1, 1, false, 0);
   EXPECT_EQ(t.texel(0, 1, 0, 0)[0], 0.375f);
   Sampler s; /* LEQUAL */
   SampleRequest r;
   r.target = TextureTarget::Shadow2D;
   r.coord[0] = 0.3f; /* texel 1: depth 0.375 */
   r.coord[2] = 0.3f;
   EXPECT_EQ(sample_float(t, s, r), (F4{1, 1, 1, 1}));
   s.depth_mode = DepthMode::Alpha;
   EXPECT_EQ(sample_float(t, s, r), (F4{0, 0, 0, 1}));
   s.depth_mode = DepthMode::Intensity;
   r.coord[2] = 0.4f;
   EXPECT_EQ(sample_float(t, s, r), (F4{0, 0, 0, 0}));
   /* The reference is clamped to [0,1]: -5 <= anything. */
   r.coord[2] = -5.0f;
   EXPECT_EQ(sample_float(t, s, r), (F4{1, 1, 1, 1}));
   /* Linear filtering blends the compare results (0 and 1). */
   s.mag_filter = Filter::Linear;
   s.wrap = {Wrap::ClampToEdge, Wrap::ClampToEdge, Wrap::ClampToEdge};
   r.coord[0] = 0.25f; /* between texels 0 (0.125) and 1 (0.375) */
   r.coord[2] = 0.25f;
   EXPECT_EQ(sample_float(t, s, r)[0], 0.5f);
   /* A non-shadow target reads the stored depth. */
   r.target = TextureTarget::Tex2D;
   r.coord[0] = 0.3f;
   s.mag_filter = Filter::Nearest;
   EXPECT_EQ(sample_float(t, s, r), (F4{0.375f, 0.375f, 0.375f, 1}));

   /* SHADOW2D_ARRAY: layer in z, reference in w. */
   Texture a = Texture::depth(Kind::Array2D, 4, 1, 2, false, 0);
   r.target = TextureTarget::ShadowArray2D;
   r.coord[0] = 0.3f;
   r.coord[2] = 1.0f;
   r.coord[3] = 0.5f;
   s.depth_mode = DepthMode::Red;
   EXPECT_EQ(sample_float(a, s, r), (F4{0, 0, 0, 1}));
   r.coord[3] = 0.25f;
   EXPECT_EQ(sample_float(a, s, r), (F4{1, 0, 0, 1}));
}

TEST(TextureQuery, Sizes)
{
   SampleRequest r;
   r.op = SampleOp::Query;
   Texture t2(Kind::Tex2D, 16, 8, 1, true);
   r.level = 0;
   EXPECT_EQ(sample(t2, {}, r), (Vec4{16, 8, 0, 5}));
   r.level = 2;
   EXPECT_EQ(sample(t2, {}, r), (Vec4{4, 2, 0, 5}));
   r.level = 4;
   EXPECT_EQ(sample(t2, {}, r), (Vec4{1, 1, 0, 5}));
   r.level = 5;
   EXPECT_EQ(sample(t2, {}, r), (Vec4{0, 0, 0, 5}));
   r.level = -1;
   EXPECT_EQ(sample(t2, {}, r), (Vec4{0, 0, 0, 5}));

   Texture t3(Kind::Tex3D, 8, 8, 4, true);
   r.level = 1;
   EXPECT_EQ(sample(t3, {}, r), (Vec4{4, 4, 2, 4}));
   Texture a2(Kind::Array2D, 8, 4, 3, false);
   r.level = 0;
   EXPECT_EQ(sample(a2, {}, r), (Vec4{8, 4, 3, 1}));
   Texture a1(Kind::Array1D, 32, 9, 6, true);
   EXPECT_EQ(sample(a1, {}, r), (Vec4{32, 6, 0, 6}));
   Texture c(Kind::Cube, 8, 3, 1, true);
   EXPECT_EQ(sample(c, {}, r), (Vec4{8, 8, 0, 4}));
   Texture t1(Kind::Tex1D, 64, 1, 1, false);
   EXPECT_EQ(sample(t1, {}, r), (Vec4{64, 0, 0, 1}));
}

TEST(TextureFetch, OutOfRangeIsZero)
{
   Texture t = Texture::rgbw(Kind::Tex2D, 4, 4, 1, true);
   const F4 zero = {0, 0, 0, 0};
   EXPECT_EQ(fetch(t, 3, 3, 0, 0, TextureTarget::Tex2D), kWhite);
   EXPECT_EQ(fetch(t, 4, 0, 0, 0, TextureTarget::Tex2D), zero);
   EXPECT_EQ(fetch(t, 0, 4, 0, 0, TextureTarget::Tex2D), zero);
   EXPECT_EQ(fetch(t, -1, 0, 0, 0, TextureTarget::Tex2D), zero);
   EXPECT_EQ(fetch(t, 1, 1, 0, 1, TextureTarget::Tex2D), kWhite);
   EXPECT_EQ(fetch(t, 2, 0, 0, 1, TextureTarget::Tex2D), zero);
   EXPECT_EQ(fetch(t, 0, 0, 0, 3, TextureTarget::Tex2D), zero);
   EXPECT_EQ(fetch(t, 0, 0, 0, -1, TextureTarget::Tex2D), zero);
   /* Offsets move the texel. */
   SampleRequest r;
   r.op = SampleOp::Fetch;
   r.target = TextureTarget::Tex2D;
   r.texel[0] = 1;
   r.texel[1] = 1;
   r.offset[0] = 2;
   r.offset[1] = 2;
   EXPECT_EQ(sample_float(t, Sampler{}, r), kWhite);
   /* 2D fetches ignore z (TGSI TXF's src.z is unused for 2D). */
   EXPECT_EQ(fetch(t, 3, 3, 7, 0, TextureTarget::Tex2D), kWhite);
   EXPECT_EQ(fetch(t, 3, 3, -7, 0, TextureTarget::Tex2D), kWhite);
   /* Array layer out of range. */
   Texture a = Texture::miptree(Kind::Array2D, 2, 2, 2);
   EXPECT_EQ(fetch(a, 0, 0, 1, 0, TextureTarget::Array2D), kRed);
   EXPECT_EQ(fetch(a, 0, 0, 2, 0, TextureTarget::Array2D), zero);
}

TEST(TextureArray, LayerRounding)
{
   Texture t(Kind::Array2D, 1, 1, 3, false);
   for (int l = 0; l < 3; l++)
      t.set_texel(0, 0, 0, l, {float(l), 0, 0, 0});
   SampleRequest r;
   r.target = TextureTarget::Array2D;
   auto layer = [&](float l) {
      r.coord[2] = l;
      return sample_float(t, Sampler{}, r)[0];
   };
   EXPECT_EQ(layer(0.49f), 0.0f);
   EXPECT_EQ(layer(0.5f), 1.0f);
   EXPECT_EQ(layer(1.6f), 2.0f);
   EXPECT_EQ(layer(7.0f), 2.0f);
   EXPECT_EQ(layer(-3.0f), 0.0f);
   EXPECT_EQ(layer(NAN), 0.0f);
}

TEST(TextureSet, UnboundAndMismatchedTargets)
{
   TextureSet set;
   auto tex = std::make_shared<Texture>(Texture::rgbw(Kind::Tex2D, 2, 2, 1, false));
   set.bind(2, tex);
   SampleRequest r;
   r.target = TextureTarget::Tex2D;
   r.coord[0] = r.coord[1] = 0.25f;
   EXPECT_EQ(set.sample(2, r), vec4f(1, 0, 0, 1));
   EXPECT_EQ(set.sample(0, r), (Vec4{0, 0, 0, 0}));
   EXPECT_EQ(set.sample(7, r), (Vec4{0, 0, 0, 0}));
   r.target = TextureTarget::Tex3D;
   EXPECT_EQ(set.sample(2, r), (Vec4{0, 0, 0, 0}));
   r.target = TextureTarget::Buffer;
   EXPECT_EQ(set.sample(2, r), (Vec4{0, 0, 0, 0}));
}

TEST(Texture3D, Trilinear)
{
   Texture t(Kind::Tex3D, 2, 2, 2, false);
   for (int z = 0; z < 2; z++)
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 2; x++)
            t.set_texel(0, x, y, z, {float(x), float(y), float(z), float(x + y + z)});
   Sampler s;
   s.mag_filter = Filter::Linear;
   s.wrap = {Wrap::ClampToEdge, Wrap::ClampToEdge, Wrap::ClampToEdge};
   SampleRequest r;
   r.target = TextureTarget::Tex3D;
   r.coord[0] = r.coord[1] = r.coord[2] = 0.5f;
   EXPECT_EQ(sample_float(t, s, r), (F4{0.5f, 0.5f, 0.5f, 1.5f}));
   r.coord[2] = 0.75f;
   EXPECT_EQ(sample_float(t, s, r), (F4{0.5f, 0.5f, 1.0f, 2.0f}));
}

TEST(TextureGen, FromTexels)
{
   /* 2x2 with a mip level: 4 texels then 1. */
   std::vector<float> data;
   for (int i = 0; i < 5; i++)
      for (int c = 0; c < 4; c++)
         data.push_back(float(i * 10 + c));
   Texture t = Texture::from_texels(Kind::Tex2D, 2, 2, 1, true, data);
   EXPECT_EQ(fetch(t, 0, 0, 0, 0, TextureTarget::Tex2D), (F4{0, 1, 2, 3}));
   EXPECT_EQ(fetch(t, 1, 0, 0, 0, TextureTarget::Tex2D), (F4{10, 11, 12, 13}));
   EXPECT_EQ(fetch(t, 0, 1, 0, 0, TextureTarget::Tex2D), (F4{20, 21, 22, 23}));
   EXPECT_EQ(fetch(t, 0, 0, 0, 1, TextureTarget::Tex2D), (F4{40, 41, 42, 43}));
   /* Short data leaves the rest 0. */
   Texture s = Texture::from_texels(Kind::Tex1D, 4, 1, 1, false, {1, 2, 3, 4});
   EXPECT_EQ(fetch(s, 0, 0, 0, 0, TextureTarget::Tex1D), (F4{1, 2, 3, 4}));
   EXPECT_EQ(fetch(s, 3, 0, 0, 0, TextureTarget::Tex1D), (F4{0, 0, 0, 0}));
}
