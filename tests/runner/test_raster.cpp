#include <gtest/gtest.h>

#include "fake_exec.h"
#include "runner/raster.h"

using namespace sbcc;
using namespace sbcc::runner;

namespace {

tgsi::Shader parse(const std::string &text)
{
   Diagnostics d;
   auto s = tgsi::parse_tgsi(text, "fs.tgsi", d);
   EXPECT_TRUE(s.has_value()) << d.str();
   return s ? *s : tgsi::Shader{};
}

struct Scene {
   std::vector<ShadedVertex> verts;
   std::vector<VertexAttrib> layout = {{tgsi::Semantic::Generic, 0}};
   Framebuffer fb;
   Resources res;

   void vertex(float x, float y, float w, Vec4 attr)
   {
      ShadedVertex v;
      v.position = {x * w, y * w, 0, w};
      v.attribs = {attr};
      verts.push_back(v);
   }
   DrawResult draw(const std::string &fs_text, std::vector<std::array<int, 3>> tris,
                   unsigned batch = 64)
   {
      tgsi::Shader fs = parse(fs_text);
      test::MovExecutable exe(fs);
      FragmentStage stage;
      stage.shader = &fs;
      stage.exe = &exe;
      stage.resources = &res;
      stage.batch_lanes = batch;
      fb.clear({0, 0, 0, 0});
      return draw_triangles(verts, layout, tris, stage, fb);
   }
};

const char *kCopyGeneric = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                           "  0: MOV OUT[0], IN[0]\n  1: END\n";

} // namespace

TEST(Raster, Unorm8Quantization)
{
   EXPECT_EQ(unorm8(0.5f), 128.0f / 255.0f);
   EXPECT_EQ(unorm8(0.498f), 127.0f / 255.0f);
   EXPECT_EQ(unorm8(-3.0f), 0.0f);
   EXPECT_EQ(unorm8(7.0f), 1.0f);
   EXPECT_EQ(unorm8(std::nanf("")), 0.0f);
}

TEST(Raster, FullScreenRectCoversEveryPixelOnce)
{
   Scene s;
   s.vertex(-1, -1, 1, vec4f(1, 0, 0, 1));
   s.vertex(1, -1, 1, vec4f(1, 0, 0, 1));
   s.vertex(-1, 1, 1, vec4f(1, 0, 0, 1));
   s.vertex(1, 1, 1, vec4f(1, 0, 0, 1));
   DrawResult r = s.draw(kCopyGeneric, {{0, 1, 2}, {2, 1, 3}});
   ASSERT_TRUE(r.ok) << r.error;
   EXPECT_EQ(r.fragments, 250u * 250u);
   for (const auto &p : s.fb.pixels)
      ASSERT_EQ(p, (Color{1, 0, 0, 1}));
}

TEST(Raster, HalfRectCoverageEdge)
{
   /* x in NDC [-1, 0] is window x [0, 125): centres 0.5 .. 124.5 inside. */
   Scene s;
   s.vertex(-1, -1, 1, vec4f(0, 1, 0, 1));
   s.vertex(0, -1, 1, vec4f(0, 1, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 1, 0, 1));
   s.vertex(0, 1, 1, vec4f(0, 1, 0, 1));
   DrawResult r = s.draw(kCopyGeneric, {{0, 1, 2}, {2, 1, 3}});
   ASSERT_TRUE(r.ok) << r.error;
   EXPECT_EQ(r.fragments, 125u * 250u);
   EXPECT_EQ(s.fb.at(124, 0), (Color{0, 1, 0, 1}));
   EXPECT_EQ(s.fb.at(125, 0), (Color{0, 0, 0, 0}));
   EXPECT_EQ(s.fb.at(124, 249), (Color{0, 1, 0, 1}));
}

TEST(Raster, LinearGradientExactValues)
{
   /* Red goes 0 -> 1 left to right: pixel x gets (x + 0.5) / 250, quantized. */
   Scene s;
   s.vertex(-1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(1, -1, 1, vec4f(1, 0, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 0, 1, 1));
   s.vertex(1, 1, 1, vec4f(1, 0, 1, 1));
   DrawResult r = s.draw(kCopyGeneric, {{0, 1, 2}, {2, 1, 3}});
   ASSERT_TRUE(r.ok) << r.error;
   /* 0.002 * 255 = 0.51 -> 1 */
   EXPECT_EQ(s.fb.at(0, 0), (Color{1 / 255.0f, 0, 1 / 255.0f, 1}));
   EXPECT_EQ(s.fb.at(1, 0)[0], 2 / 255.0f);       /* 0.006 * 255 = 1.53 */
   EXPECT_EQ(s.fb.at(124, 0)[0], 127 / 255.0f);   /* 0.498 * 255 = 126.99 */
   EXPECT_EQ(s.fb.at(125, 125)[0], 128 / 255.0f); /* 0.502 * 255 = 128.01 */
   EXPECT_EQ(s.fb.at(125, 125)[2], 128 / 255.0f); /* blue follows y */
   EXPECT_EQ(s.fb.at(249, 249), (Color{254 / 255.0f, 0, 254 / 255.0f, 1})); /* 0.998 */
}

TEST(Raster, PerspectiveCorrectInterpolation)
{
   /* A full-screen rect whose right edge has w = 3: the attribute is
    * interpolated in clip space, so at the screen's centre column
    * (screen t = 0.5) the value is t/w1 / ((1-t)/w0 + t/w1) = 0.25. */
   Scene s;
   s.vertex(-1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(1, -1, 3, vec4f(1, 0, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 0, 0, 1));
   s.vertex(1, 1, 3, vec4f(1, 0, 0, 1));
   const char *linear = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n"
                        "  0: MOV OUT[0], IN[0]\n  1: END\n";
   ASSERT_TRUE(s.draw(kCopyGeneric, {{0, 1, 2}, {2, 1, 3}}).ok);
   /* Pixel 124 centre t = 124.5/250; perspective: t/3 / ((1-t) + t/3). */
   double t = 124.5 / 250.0, p = (t / 3) / ((1 - t) + t / 3);
   EXPECT_EQ(s.fb.at(124, 10)[0], unorm8(float(p)));
   EXPECT_EQ(s.fb.at(124, 10)[0], 63 / 255.0f); /* 0.2485 * 255 = 63.4 */
   ASSERT_TRUE(s.draw(linear, {{0, 1, 2}, {2, 1, 3}}).ok);
   EXPECT_EQ(s.fb.at(124, 10)[0], 127 / 255.0f);
}

TEST(Raster, FlatUsesProvokingVertex)
{
   Scene s;
   s.vertex(-1, -1, 1, vec4f(1, 0, 0, 1));
   s.vertex(1, -1, 1, vec4f(0, 1, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 0, 1, 1));
   s.vertex(1, 1, 1, vec4f(1, 1, 1, 1));
   const char *flat = "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n"
                      "  0: MOV OUT[0], IN[0]\n  1: END\n";
   ASSERT_TRUE(s.draw(flat, {{0, 1, 2}, {2, 1, 3}}).ok);
   EXPECT_EQ(s.fb.at(10, 10), (Color{0, 0, 1, 1}));   /* first triangle: vertex 2 */
   EXPECT_EQ(s.fb.at(240, 240), (Color{1, 1, 1, 1})); /* second triangle: vertex 3 */
}

TEST(Raster, PositionAndFace)
{
   Scene s;
   s.vertex(-1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 0, 0, 1));
   s.layout = {};
   for (auto &v : s.verts)
      v.attribs.clear();
   const char *lower = "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
                       "DCL IN[0], POSITION, LINEAR\nDCL IN[1], FACE, CONSTANT\n"
                       "DCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
   ASSERT_TRUE(s.draw(lower, {{0, 1, 2}}).ok);
   /* The copy is raw: x = 10.5 and y = 20.5 clamp to 1, z = 0.5 (NDC 0), 1/w = 1. */
   EXPECT_EQ(s.fb.at(10, 20), (Color{1, 1, 128 / 255.0f, 1}));
   EXPECT_EQ(s.fb.at(0, 0), (Color{128 / 255.0f, 128 / 255.0f, 128 / 255.0f, 1}));

   const char *face = "FRAG\nDCL IN[0], FACE, CONSTANT\nDCL OUT[0], COLOR\n"
                      "  0: MOV OUT[0], IN[0].xxxx\n  1: END\n";
   ASSERT_TRUE(s.draw(face, {{0, 1, 2}}).ok); /* counter-clockwise: front, +1 */
   EXPECT_EQ(s.fb.at(10, 10), (Color{1, 1, 1, 1}));
   ASSERT_TRUE(s.draw(face, {{0, 2, 1}}).ok); /* clockwise: back, -1 -> 0 */
   EXPECT_EQ(s.fb.at(10, 10), (Color{0, 0, 0, 0}));
   EXPECT_NE(s.fb.at(10, 10), (Color{1, 1, 1, 1}));
}

/* Records every batch, so quad layout and helper flags can be checked. */
class RecordingExecutable : public Executable {
 public:
   mutable std::vector<Batch> batches;
   RunResult run(const Resources &, Batch &b, const RunLimits &) const override
   {
      batches.push_back(b);
      return {};
   }
   std::string listing() const override { return {}; }
};

TEST(Raster, QuadLayoutAndHelpers)
{
   Scene s;
   s.layout = {};
   /* A small triangle covering only pixel centres near (2..3, 2..3). */
   auto win = [](float px) { return px / 125.0f - 1.0f; };
   s.vertex(win(2), win(2), 1, {});
   s.vertex(win(4), win(2), 1, {});
   s.vertex(win(2), win(4), 1, {});
   for (auto &v : s.verts)
      v.attribs.clear();
   tgsi::Shader fs = parse("FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
                           "DCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\n  0: END\n");
   RecordingExecutable exe;
   FragmentStage stage;
   stage.shader = &fs;
   stage.exe = &exe;
   stage.resources = &s.res;
   DrawResult r = draw_triangles(s.verts, s.layout, {{0, 1, 2}}, stage, s.fb);
   ASSERT_TRUE(r.ok);
   ASSERT_EQ(exe.batches.size(), 1u);
   const Batch &b = exe.batches[0];
   ASSERT_EQ(b.lanes.size(), 4u);
   /* One quad at (2, 2): TL (2,2), TR (3,2), BL (2,3), BR (3,3); the
    * triangle's hypotenuse x + y = 6 leaves only (2,2), (3,2), (2,3) inside
    * (pixel centre sums 5, 6 and 6 - the last two on the edge, which is not
    * top-left, so they are out). */
   const float xs[4] = {2.5f, 3.5f, 2.5f, 3.5f}, ys[4] = {2.5f, 2.5f, 3.5f, 3.5f};
   for (int i = 0; i < 4; i++) {
      EXPECT_EQ(u2f(b.lanes[i].inputs[0][0]), xs[i]) << i;
      EXPECT_EQ(u2f(b.lanes[i].inputs[0][1]), ys[i]) << i;
   }
   EXPECT_FALSE(b.lanes[0].helper);
   EXPECT_TRUE(b.lanes[1].helper);
   EXPECT_TRUE(b.lanes[2].helper);
   EXPECT_TRUE(b.lanes[3].helper);
   EXPECT_EQ(r.fragments, 1u);
}

TEST(Raster, BatchesHoldManyQuads)
{
   Scene s;
   s.vertex(-1, -1, 1, {});
   s.vertex(1, -1, 1, {});
   s.vertex(-1, 1, 1, {});
   tgsi::Shader fs = parse("FRAG\nDCL OUT[0], COLOR\n  0: END\n");
   RecordingExecutable exe;
   FragmentStage stage;
   stage.shader = &fs;
   stage.exe = &exe;
   stage.resources = &s.res;
   stage.batch_lanes = 64;
   DrawResult r = draw_triangles(s.verts, s.layout, {{0, 1, 2}}, stage, s.fb);
   ASSERT_TRUE(r.ok);
   ASSERT_GT(exe.batches.size(), 2u);
   EXPECT_EQ(exe.batches[0].lanes.size(), 64u);
   EXPECT_EQ(r.quads * 4, [&] {
      uint64_t n = 0;
      for (const auto &b : exe.batches)
         n += b.lanes.size();
      return n;
   }());
}

TEST(Raster, RejectsNonPositiveW)
{
   Scene s;
   s.vertex(-1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(1, -1, 1, vec4f(0, 0, 0, 1));
   s.vertex(-1, 1, 1, vec4f(0, 0, 0, 1));
   s.verts[2].position[3] = 0;
   DrawResult r = s.draw(kCopyGeneric, {{0, 1, 2}});
   EXPECT_FALSE(r.ok);
   EXPECT_EQ(r.error, "vertex with w <= 0 or a non-finite position: clipping is not supported");
}
