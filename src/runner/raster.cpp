#include "runner/raster.h"

#include <algorithm>
#include <cmath>

namespace sbcc::runner {

float unorm8(float v)
{
   if (!(v > 0.0f)) /* also NaN */
      return 0.0f;
   if (v >= 1.0f)
      return 1.0f;
   return std::nearbyint(v * 255.0f) / 255.0f;
}

void Framebuffer::clear(const Color &c)
{
   Color q = {unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])};
   std::fill(pixels.begin(), pixels.end(), q);
}

void Framebuffer::store(int x, int y, const Color &c)
{
   pixels[size_t(y) * width + x] = {unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])};
}

namespace {

enum class Source : uint8_t { Missing, Position, Face, Attrib };
enum class Mode : uint8_t { Perspective, Linear, Flat };

struct InputSetup {
   Source source = Source::Missing;
   Mode mode = Mode::Perspective;
   int attrib = -1;
};

int find_attrib(const std::vector<VertexAttrib> &layout, tgsi::Semantic sem, uint32_t index)
{
   for (size_t i = 0; i < layout.size(); i++)
      if (layout[i].semantic == sem && layout[i].index == index)
         return static_cast<int>(i);
   /* Front-ends disagree on whether texcoords are GENERIC or TEXCOORD. */
   tgsi::Semantic alt = tgsi::Semantic::None;
   if (sem == tgsi::Semantic::Generic)
      alt = tgsi::Semantic::TexCoord;
   else if (sem == tgsi::Semantic::TexCoord)
      alt = tgsi::Semantic::Generic;
   for (size_t i = 0; i < layout.size(); i++)
      if (alt != tgsi::Semantic::None && layout[i].semantic == alt && layout[i].index == index)
         return static_cast<int>(i);
   return -1;
}

std::vector<InputSetup> setup_file(const tgsi::Shader &fs, tgsi::File file,
                                   const std::vector<VertexAttrib> &layout)
{
   std::vector<InputSetup> setup(std::max(0, fs.file_size(file)));
   for (const auto &d : fs.declarations) {
      if (d.file != file)
         continue;
      for (int32_t i = d.first; i <= d.last && i < int32_t(setup.size()); i++) {
         if (i < 0)
            continue;
         InputSetup &s = setup[i];
         if (d.semantic == tgsi::Semantic::Position) {
            s.source = Source::Position;
            continue;
         }
         if (d.semantic == tgsi::Semantic::Face) {
            s.source = Source::Face;
            continue;
         }
         if (file != tgsi::File::Input)
            continue;
         uint32_t sem_index = d.semantic_index + uint32_t(i - d.first);
         s.attrib = find_attrib(layout, d.semantic, sem_index);
         s.source = s.attrib >= 0 ? Source::Attrib : Source::Missing;
         switch (d.interpolate) {
         case tgsi::Interpolate::Constant: s.mode = Mode::Flat; break;
         case tgsi::Interpolate::Linear: s.mode = Mode::Linear; break;
         default: s.mode = Mode::Perspective; break;
         }
      }
   }
   return setup;
}

struct WinVertex {
   double x, y, z, inv_w;
};

struct Pixel {
   int x, y;
   bool covered;
};

class Rasterizer {
 public:
   Rasterizer(const std::vector<ShadedVertex> &verts, const std::vector<VertexAttrib> &layout,
              const FragmentStage &fs, Framebuffer &fb)
      : verts_(verts), fs_(fs), fb_(fb)
   {
      inputs_ = setup_file(*fs.shader, tgsi::File::Input, layout);
      sysvals_ = setup_file(*fs.shader, tgsi::File::SystemValue, layout);
      color_out_ = -1;
      for (const auto &d : fs.shader->declarations)
         if (d.file == tgsi::File::Output && d.semantic == tgsi::Semantic::Color &&
             d.semantic_index == 0)
            color_out_ = d.first;
      for (const auto &p : fs.shader->properties) {
         if (p.property == tgsi::Property::FsCoordOrigin)
            lower_left_ = p.value == 1;
         else if (p.property == tgsi::Property::FsCoordPixelCenter)
            integer_center_ = p.value == 1;
      }
      n_out_ = std::max(0, fs.shader->file_size(tgsi::File::Output));
      lanes_per_run_ = std::max(4u, fs.batch_lanes / 4 * 4);
   }

   bool triangle(const std::array<int, 3> &tri);
   bool flush();
   DrawResult result;

 private:
   void add_quad(const std::array<Pixel, 4> &px);
   Vec4 input_value(const InputSetup &s, const Pixel &p) const;

   const std::vector<ShadedVertex> &verts_;
   const FragmentStage &fs_;
   Framebuffer &fb_;
   std::vector<InputSetup> inputs_, sysvals_;
   int color_out_;
   int n_out_;
   bool lower_left_ = false;
   bool integer_center_ = false;
   unsigned lanes_per_run_;

   /* Current triangle. */
   std::array<WinVertex, 3> win_{};
   std::array<const ShadedVertex *, 3> tv_{};
   double area_ = 0;
   float face_ = 1;

   Batch batch_;
   std::vector<Pixel> lane_pixels_;
};

double edge(const WinVertex &a, const WinVertex &b, double px, double py)
{
   return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
}

/* For a counter-clockwise triangle (y up) the interior is left of each edge;
 * left edges run downwards, top edges run in -x. */
bool top_left(const WinVertex &a, const WinVertex &b)
{
   double dx = b.x - a.x, dy = b.y - a.y;
   return dy < 0 || (dy == 0 && dx < 0);
}

bool Rasterizer::triangle(const std::array<int, 3> &tri)
{
   for (int i = 0; i < 3; i++) {
      if (tri[i] < 0 || size_t(tri[i]) >= verts_.size()) {
         result = {false, "triangle index out of range", result.quads, result.fragments};
         return false;
      }
      const auto &p = verts_[tri[i]].position;
      if (!(p[3] > 0.0f) || !std::isfinite(p[0]) || !std::isfinite(p[1]) ||
          !std::isfinite(p[2]) || !std::isfinite(p[3])) {
         result.ok = false;
         result.error = "vertex with w <= 0 or a non-finite position: clipping is not supported";
         return false;
      }
      double inv_w = 1.0 / p[3];
      win_[i] = {(p[0] * inv_w + 1.0) * 0.5 * fb_.width, (p[1] * inv_w + 1.0) * 0.5 * fb_.height,
                 p[2] * inv_w * 0.5 + 0.5, inv_w};
      tv_[i] = &verts_[tri[i]];
   }
   area_ = edge(win_[0], win_[1], win_[2].x, win_[2].y);
   if (area_ == 0)
      return true;
   face_ = area_ > 0 ? 1.0f : -1.0f;

   /* Coverage uses a counter-clockwise copy; barycentrics use the original
    * order, so the provoking vertex stays the third. */
   std::array<WinVertex, 3> ccw = win_;
   if (area_ < 0)
      std::swap(ccw[1], ccw[2]);

   double minx = std::min({win_[0].x, win_[1].x, win_[2].x});
   double maxx = std::max({win_[0].x, win_[1].x, win_[2].x});
   double miny = std::min({win_[0].y, win_[1].y, win_[2].y});
   double maxy = std::max({win_[0].y, win_[1].y, win_[2].y});
   int x0 = std::max(0, int(std::floor(minx - 0.5)));
   int x1 = std::min(fb_.width - 1, int(std::ceil(maxx - 0.5)));
   int y0 = std::max(0, int(std::floor(miny - 0.5)));
   int y1 = std::min(fb_.height - 1, int(std::ceil(maxy - 0.5)));
   if (x0 > x1 || y0 > y1)
      return true;
   x0 &= ~1;
   y0 &= ~1;

   auto covered = [&](int x, int y) {
      if (x < 0 || y < 0 || x >= fb_.width || y >= fb_.height)
         return false;
      double cx = x + 0.5, cy = y + 0.5;
      for (int e = 0; e < 3; e++) {
         const WinVertex &a = ccw[e], &b = ccw[(e + 1) % 3];
         double w = edge(a, b, cx, cy);
         if (w < 0 || (w == 0 && !top_left(a, b)))
            return false;
      }
      return true;
   };

   for (int qy = y0; qy <= y1; qy += 2) {
      for (int qx = x0; qx <= x1; qx += 2) {
         std::array<Pixel, 4> px = {Pixel{qx, qy, covered(qx, qy)},
                                    Pixel{qx + 1, qy, covered(qx + 1, qy)},
                                    Pixel{qx, qy + 1, covered(qx, qy + 1)},
                                    Pixel{qx + 1, qy + 1, covered(qx + 1, qy + 1)}};
         if (px[0].covered || px[1].covered || px[2].covered || px[3].covered) {
            add_quad(px);
            if (lane_pixels_.size() >= lanes_per_run_ && !flush())
               return false;
         }
      }
   }
   /* Flush per triangle: the batch refers to this triangle's vertices. */
   return flush();
}

Vec4 Rasterizer::input_value(const InputSetup &s, const Pixel &p) const
{
   double cx = p.x + 0.5, cy = p.y + 0.5;
   double l0 = edge(win_[1], win_[2], cx, cy) / area_;
   double l1 = edge(win_[2], win_[0], cx, cy) / area_;
   double l2 = 1.0 - l0 - l1;
   switch (s.source) {
   case Source::Missing: return vec4f(0, 0, 0, 1);
   case Source::Face: return vec4f(face_, 0, 0, 1);
   case Source::Position: {
      double x = integer_center_ ? p.x : cx;
      double y = lower_left_ ? p.y : fb_.height - 1 - p.y;
      if (!integer_center_)
         y += 0.5;
      double z = l0 * win_[0].z + l1 * win_[1].z + l2 * win_[2].z;
      double w = l0 * win_[0].inv_w + l1 * win_[1].inv_w + l2 * win_[2].inv_w;
      return vec4f(float(x), float(y), float(z), float(w));
   }
   case Source::Attrib: break;
   }
   Vec4 out;
   if (s.mode == Mode::Flat)
      return tv_[2]->attribs[s.attrib];
   double p0 = l0, p1 = l1, p2 = l2;
   if (s.mode == Mode::Perspective) {
      p0 *= win_[0].inv_w;
      p1 *= win_[1].inv_w;
      p2 *= win_[2].inv_w;
      double sum = p0 + p1 + p2;
      p0 /= sum;
      p1 /= sum;
      p2 /= sum;
   }
   for (int c = 0; c < 4; c++) {
      double v = p0 * u2f(tv_[0]->attribs[s.attrib][c]) + p1 * u2f(tv_[1]->attribs[s.attrib][c]) +
                 p2 * u2f(tv_[2]->attribs[s.attrib][c]);
      out[c] = f2u(float(v));
   }
   return out;
}

void Rasterizer::add_quad(const std::array<Pixel, 4> &px)
{
   for (const Pixel &p : px) {
      Lane lane;
      lane.inputs.resize(inputs_.size());
      for (size_t i = 0; i < inputs_.size(); i++)
         lane.inputs[i] = input_value(inputs_[i], p);
      lane.system_values.resize(sysvals_.size());
      for (size_t i = 0; i < sysvals_.size(); i++)
         lane.system_values[i] = input_value(sysvals_[i], p);
      lane.outputs.assign(n_out_, Vec4{0, 0, 0, 0});
      lane.helper = !p.covered;
      batch_.lanes.push_back(std::move(lane));
      lane_pixels_.push_back(p);
   }
   result.quads++;
}

bool Rasterizer::flush()
{
   if (batch_.lanes.empty())
      return true;
   RunResult r = fs_.exe->run(*fs_.resources, batch_, fs_.limits);
   if (r.status != RunStatus::Ok) {
      result.ok = false;
      result.error = (r.status == RunStatus::BudgetExceeded ? "fragment shader exceeded the loop "
                                                              "budget: "
                                                            : "fragment shader failed: ") +
                     r.message;
      return false;
   }
   for (size_t i = 0; i < batch_.lanes.size(); i++) {
      const Lane &lane = batch_.lanes[i];
      const Pixel &p = lane_pixels_[i];
      if (lane.helper || !p.covered)
         continue;
      result.fragments++;
      if (lane.killed || color_out_ < 0 || size_t(color_out_) >= lane.outputs.size())
         continue;
      const Vec4 &o = lane.outputs[color_out_];
      fb_.store(p.x, p.y, {u2f(o[0]), u2f(o[1]), u2f(o[2]), u2f(o[3])});
   }
   batch_.lanes.clear();
   lane_pixels_.clear();
   return true;
}

} // namespace

DrawResult draw_triangles(const std::vector<ShadedVertex> &verts,
                          const std::vector<VertexAttrib> &layout,
                          const std::vector<std::array<int, 3>> &tris,
                          const FragmentStage &fs, Framebuffer &fb)
{
   Rasterizer r(verts, layout, fs, fb);
   for (const auto &t : tris)
      if (!r.triangle(t))
         break;
   return r.result;
}

} // namespace sbcc::runner
