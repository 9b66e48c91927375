/* Reference interpreter: texture opcodes through the shared texture model,
 * including implicit LOD from the quad's coordinates. */
#include "interp_test_util.h"

using namespace sbcc;
using namespace sbcc::interp::test;
using namespace sbcc::tex;

namespace {

Vec4 f4(float x, float y, float z, float w) { return vec4f(x, y, z, w); }

const Vec4 kRed = vec4f(1, 0, 0, 1), kGreen = vec4f(0, 1, 0, 1), kBlue = vec4f(0, 0, 1, 1),
           kWhite = vec4f(1, 1, 1, 1), kYellow = vec4f(1, 1, 0, 1);

std::string fs(const std::string &body, const std::string &decls = "")
{
   return "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\n"
          "DCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\nDCL TEMP[0]\n" +
          decls + body + "END\n";
}

std::vector<std::vector<Vec4>> quad(Vec4 tl, Vec4 tr, Vec4 bl, Vec4 br)
{
   return {{tl}, {tr}, {bl}, {br}};
}

void bind(Runner &r, unsigned unit, Texture t, Sampler s = {})
{
   r.textures.bind(unit, std::make_shared<Texture>(std::move(t)), s);
}

Sampler mip_nearest()
{
   Sampler s;
   s.mip_filter = MipFilter::Nearest;
   return s;
}

} // namespace

TEST(InterpTex, TexRgbwQuadrants)
{
   Runner r;
   bind(r, 0, Texture::rgbw(Kind::Tex2D, 8, 8, 1, false));
   Batch b = r.run(fs("TEX OUT[0], IN[0], SAMP[0], 2D\n"),
                   quad(f4(0.25f, 0.25f, 0, 1), f4(0.75f, 0.25f, 0, 1), f4(0.25f, 0.75f, 0, 1),
                        f4(0.75f, 0.75f, 0, 1)));
   EXPECT_EQ(b.lanes[0].outputs[0], kRed);
   EXPECT_EQ(b.lanes[1].outputs[0], kGreen);
   EXPECT_EQ(b.lanes[2].outputs[0], kBlue);
   EXPECT_EQ(b.lanes[3].outputs[0], kWhite);
}

TEST(InterpTex, ImplicitLodFromQuad)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 16, 16, 1), mip_nearest());
   /* 4 texels per pixel in x: lambda 2 -> level 2 on every lane. */
   auto q = quad(f4(0.5f, 0.5f, 0, 2), f4(0.75f, 0.5f, 0, 2), f4(0.5f, 0.5f, 0, 2),
                 f4(0.75f, 0.5f, 0, 2));
   Batch b = r.run(fs("TEX OUT[0], IN[0], SAMP[0], 2D\n"), q);
   for (int l = 0; l < 4; l++)
      EXPECT_EQ(b.lanes[l].outputs[0], kBlue) << l;
   /* TXB: bias in w (2.0 here) -> lambda 4 -> last level (magenta). */
   b = r.run(fs("TXB OUT[0], IN[0], SAMP[0], 2D\n"), q);
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(1, 0, 1, 1));
   /* TXP divides by w first: the step becomes 2 texels -> level 1. */
   b = r.run(fs("TXP OUT[0], IN[0], SAMP[0], 2D\n"), q);
   EXPECT_EQ(b.lanes[3].outputs[0], kGreen);
   /* TXL: the lod in w, derivatives ignored. */
   b = r.run(fs("TXL OUT[0], IN[0].xyzz, SAMP[0], 2D\n"),
             quad(f4(0.5f, 0.5f, 3, 0), f4(0.5f, 0.5f, 3, 0), f4(0.5f, 0.5f, 3, 0),
                  f4(0.5f, 0.5f, 3, 0)));
   EXPECT_EQ(b.lanes[0].outputs[0], kYellow);
   /* TEX_LZ: level 0. */
   b = r.run(fs("TEX_LZ OUT[0], IN[0], SAMP[0], 2D\n"), q);
   EXPECT_EQ(b.lanes[2].outputs[0], kRed);
}

TEST(InterpTex, ExplicitGradients)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 16, 16, 1), mip_nearest());
   /* ddx = (2, 8) texels, ddy = (8, 2): rho 8.25 -> lambda 3.04 -> level 3. */
   Batch b = r.run(fs("TXD OUT[0], IN[0], IN[1], IN[1].yxzw, SAMP[0], 2D\n"),
                   {{f4(0.5f, 0.5f, 0, 0), f4(0.125f, 0.5f, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kYellow);
}

TEST(InterpTex, VertexShaderSamplesLevelZero)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 16, 16, 1), mip_nearest());
   Batch b = r.run("VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\nDCL SAMP[0]\n"
                   "TEX OUT[0], IN[0], SAMP[0], 2D\nEND\n",
                   {{f4(0.5f, 0.5f, 0, 0)}, {f4(0.9f, 0.5f, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kRed);
   EXPECT_EQ(b.lanes[1].outputs[0], kRed);
}

TEST(InterpTex, FetchQueryAndOffsets)
{
   Runner r;
   bind(r, 0, Texture::rgbw(Kind::Tex2D, 4, 4, 1, true));
   bind(r, 1, Texture::miptree(Kind::Tex2D, 16, 8, 1));
   Batch b = r.run(fs("TXF OUT[0], IN[0], SAMP[0], 2D\n"),
                   {{vec4i(3, 0, 0, 0)}, {vec4i(1, 1, 0, 1)}, {vec4i(4, 0, 0, 0)},
                    {vec4i(0, 0, 0, 5)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kGreen);
   EXPECT_EQ(b.lanes[1].outputs[0], kWhite);
   EXPECT_EQ(b.lanes[2].outputs[0], f4(0, 0, 0, 0)); /* x out of range */
   EXPECT_EQ(b.lanes[3].outputs[0], f4(0, 0, 0, 0)); /* no level 5 */

   b = r.run(fs("TXF OUT[0], IN[0], SAMP[0], 2D, IMM[0].xyz\n", "IMM[0] INT32 {1, 3, 0, 0}\n"),
             {{vec4i(0, 0, 0, 0)}, {vec4i(1, 1, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kBlue);
   EXPECT_EQ(b.lanes[1].outputs[0], f4(0, 0, 0, 0)); /* (3, 4) is outside */

   b = r.run(fs("TXQ OUT[0], IN[0], SAMP[1], 2D\n"),
             {{vec4i(0, 0, 0, 0)}, {vec4i(2, 0, 0, 0)}, {vec4i(9, 0, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], vec4u(16, 8, 0, 5));
   EXPECT_EQ(b.lanes[1].outputs[0], vec4u(4, 2, 0, 5));
   EXPECT_EQ(b.lanes[2].outputs[0], vec4u(0, 0, 0, 5));
}

TEST(InterpTex, Shadow2DReferenceInZ)
{
   Runner r;
   Sampler s; /* LEQUAL, luminance */
   bind(r, 0, Texture::depth(Kind::Tex2D, 4, 1, 1, false, 0), s);
   /* texel 1 holds 0.375 */
   Batch b = r.run(fs("TEX OUT[0], IN[0], SAMP[0], SHADOW2D\n"),
                   {{f4(0.3f, 0.5f, 0.25f, 1)}, {f4(0.3f, 0.5f, 0.5f, 1)}});
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(0, 0, 0, 1));
   /* TXP projects the reference too: 0.5 / 2 = 0.25 passes. */
   b = r.run(fs("TXP OUT[0], IN[0], SAMP[0], SHADOW2D\n"), {{f4(0.6f, 1.0f, 0.5f, 2)}});
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
}

TEST(InterpTex, CubeArrayWithTex2)
{
   Runner r;
   Texture t(Kind::CubeArray, 1, 1, 2, false);
   for (int layer = 0; layer < 2; layer++)
      for (int f = 0; f < 6; f++)
         t.set_texel(0, 0, 0, layer * 6 + f, {layer == 1 && f == 3 ? 0.5f : 0.0f, 0, 0, 1});
   bind(r, 0, std::move(t));
   Batch b = r.run(fs("TEX2 OUT[0], IN[0], IN[1], SAMP[0], SHADOWCUBE_ARRAY\n"),
                   {{f4(0, -1, 0, 1), f4(0.4f, 0, 0, 0)}, {f4(0, -1, 0, 0), f4(0.4f, 0, 0, 0)},
                    {f4(0, 1, 0, 1), f4(0.4f, 0, 0, 0)}});
   /* Only layer 1, face -Y (3) holds 0.5 >= the reference 0.4. */
   EXPECT_EQ(b.lanes[0].outputs[0], f4(1, 1, 1, 1));
   EXPECT_EQ(b.lanes[1].outputs[0], f4(0, 0, 0, 1));
   EXPECT_EQ(b.lanes[2].outputs[0], f4(0, 0, 0, 1));
   r.textures.bind(0, std::make_shared<Texture>(Texture::rgbw(Kind::CubeArray, 2, 2, 2, false)));
   b = r.run(fs("TXL2 OUT[0], IN[0], IN[1], SAMP[0], CUBE_ARRAY\n"),
             {{f4(1, 0.5f, 0.5f, 0), f4(0, 0, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kRed); /* +X, s = t = 0.25 */
}

TEST(InterpTex, UnboundUnitReadsZero)
{
   Runner r;
   Batch b = r.run(fs("TEX OUT[0], IN[0], SAMP[1], 2D\n"), {{f4(0.5f, 0.5f, 0, 1)}});
   EXPECT_EQ(b.lanes[0].outputs[0], f4(0, 0, 0, 0));
}

TEST(InterpTex, IndirectSamplerUnit)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 1, 1, 1));
   bind(r, 1, Texture::checkerboard(Kind::Tex2D, 1, 1, 1, 1, {0, 0, 1, 1}, {0, 0, 0, 0}, false));
   Batch b = r.run(fs("UARL ADDR[0].x, IN[1].xxxx\n"
                      "TEX OUT[0], IN[0], SAMP[ADDR[0].x], 2D\n",
                      "DCL ADDR[0]\n"),
                   {{f4(0.5f, 0.5f, 0, 1), vec4i(0, 0, 0, 0)},
                    {f4(0.5f, 0.5f, 0, 1), vec4i(1, 0, 0, 0)},
                    {f4(0.5f, 0.5f, 0, 1), vec4i(2, 0, 0, 0)},
                    {f4(0.5f, 0.5f, 0, 1), vec4i(-1, 0, 0, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kRed);
   EXPECT_EQ(b.lanes[1].outputs[0], kBlue);
   /* Outside the two declared units: 0. */
   EXPECT_EQ(b.lanes[2].outputs[0], f4(0, 0, 0, 0));
   EXPECT_EQ(b.lanes[3].outputs[0], f4(0, 0, 0, 0));
}

TEST(InterpTex, CubeImplicitLodFromFaceCoordinates)
{
   /* The LOD comes from the derivatives of the face s,t (as r600's sampler
    * sees them after CUBE), so scaling a lane's direction, which does not
    * move it on the face, does not change the level.  The quad below is
    * (1, 0, 0), (1, 0, -0.5), (1, 0, 0), (1, 0, -0.5) on +X, each lane
    * scaled differently: s steps by 0.25 = 4 texels of 16 -> level 2. */
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Cube, 16, 16, 1), mip_nearest());
   Batch b = r.run(fs("TEX OUT[0], IN[0], SAMP[0], CUBE\n"),
                   quad(f4(2, 0, 0, 1), f4(4, 0, -2, 1), f4(3, 0, 0, 1), f4(1, 0, -0.5f, 1)));
   for (int l = 0; l < 4; l++) {
      EXPECT_EQ(b.lanes[l].outputs[0], kBlue) << l;
      EXPECT_EQ(b.lanes[l].undefined, 0) << l;
   }
   /* The unscaled quad selects the same level. */
   b = r.run(fs("TEX OUT[0], IN[0], SAMP[0], CUBE\n"),
             quad(f4(1, 0, 0, 1), f4(1, 0, -0.5f, 1), f4(1, 0, 0, 1), f4(1, 0, -0.5f, 1)));
   EXPECT_EQ(b.lanes[0].outputs[0], kBlue);
   /* Explicit gradients keep GL's quotient rule on the direction: at
    * (2, 0, 0) a step of (2, 0, -2) moves s by 0.5 -> 8 texels -> level 3. */
   b = r.run(fs("TXD OUT[0], IN[0], IN[1], IN[1], SAMP[0], CUBE\n"),
             {{f4(2, 0, 0, 1), f4(2, 0, -2, 0)}});
   EXPECT_EQ(b.lanes[0].outputs[0], kYellow);
}

TEST(InterpUndefined, ImplicitLodInAPartlyActiveQuad)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 16, 16, 1), mip_nearest());
   const std::string body = "IF IN[1].xxxx\n"
                            "  TEX OUT[0], IN[0], SAMP[0], 2D\n"
                            "ENDIF\n";
   const Vec4 on = f4(1, 0, 0, 0), off = f4(0, 0, 0, 0), c = f4(0.5f, 0.5f, 0, 1);
   /* Two quads: the first diverges (lanes 0 and 3 take the branch), the
    * second takes it on every lane. */
   Batch b = r.run(fs(body), {{c, on}, {c, off}, {c, off}, {c, on}, {c, on}, {c, on}, {c, on},
                              {c, on}});
   const uint8_t want[8] = {kUndefinedDerivative, 0, 0, kUndefinedDerivative, 0, 0, 0, 0};
   for (int l = 0; l < 8; l++)
      EXPECT_EQ(b.lanes[l].undefined, want[l]) << l;
   /* TXL does not use derivatives: defined anywhere. */
   b = r.run(fs("IF IN[1].xxxx\n  TXL OUT[0], IN[0], SAMP[0], 2D\nENDIF\n"),
             {{c, on}, {c, off}, {c, off}, {c, on}});
   for (int l = 0; l < 4; l++)
      EXPECT_EQ(b.lanes[l].undefined, 0) << l;
}

TEST(InterpUndefined, ImplicitLodAfterAKill)
{
   Runner r;
   bind(r, 0, Texture::miptree(Kind::Tex2D, 16, 16, 1), mip_nearest());
   const Vec4 c = f4(0.5f, 0.5f, 0, 1);
   Batch b = r.run(fs("KILL_IF IN[1].xxxx\nTEX OUT[0], IN[0], SAMP[0], 2D\n"),
                   {{c, f4(0, 0, 0, 0)}, {c, f4(-1, 0, 0, 0)}, {c, f4(0, 0, 0, 0)},
                    {c, f4(0, 0, 0, 0)}});
   EXPECT_TRUE(b.lanes[1].killed);
   EXPECT_EQ(b.lanes[0].undefined, kUndefinedDerivative);
   EXPECT_EQ(b.lanes[1].undefined, 0); /* killed before the TEX */
   EXPECT_EQ(b.lanes[2].undefined, kUndefinedDerivative);
   EXPECT_EQ(b.lanes[3].undefined, kUndefinedDerivative);
}

TEST(InterpUndefined, DerivativesOnlyInDivergentQuadsOfFragmentShaders)
{
   Runner r;
   const std::string text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\n"
                            "DCL OUT[0], GENERIC[0]\n"
                            "IF IN[0].yyyy\n  DDX OUT[0], IN[0]\nENDIF\n"
                            "DDY OUT[0], IN[0]\nEND\n";
   Batch b = r.run(text, {{f4(1, 1, 0, 0)}, {f4(2, 0, 0, 0)}, {f4(3, 1, 0, 0)},
                          {f4(4, 1, 0, 0)}});
   const uint8_t want[4] = {kUndefinedDerivative, 0, kUndefinedDerivative,
                            kUndefinedDerivative};
   for (int l = 0; l < 4; l++)
      EXPECT_EQ(b.lanes[l].undefined, want[l]) << l;
   /* A vertex shader's DDX is 0 and defined, whatever the flow. */
   b = r.run("VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
             "IF IN[0].yyyy\n  DDX OUT[0], IN[0]\nENDIF\nEND\n",
             {{f4(1, 1, 0, 0)}, {f4(2, 0, 0, 0)}});
   EXPECT_EQ(b.lanes[0].undefined, 0);
   EXPECT_EQ(b.lanes[1].undefined, 0);
}

TEST(InterpUndefined, PowOfANegativeBase)
{
   Runner r;
   const std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], GENERIC[0]\n"
                            "POW OUT[0], IN[0].xxxx, IN[0].yyyy\nEND\n";
   Batch b = r.run(text, {{f4(-2, 2, 0, 0)},
                          {f4(2, 2, 0, 0)},
                          {f4(0, 0, 0, 0)},
                          {f4(0, -1, 0, 0)},
                          {f4(0, 0.5f, 0, 0)},
                          {f4(-0.0f, 3, 0, 0)}});
   const uint8_t want[6] = {kUndefinedPow, 0, kUndefinedPow, kUndefinedPow, 0, 0};
   for (int l = 0; l < 6; l++)
      EXPECT_EQ(b.lanes[l].undefined, want[l]) << l;
   EXPECT_EQ(fv(b.lanes[1].outputs[0])[0], 4.0f);
}
