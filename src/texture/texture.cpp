/*
 * The texture model: texel generation and the sampling math documented in
 * texture.h and docs/semantics.md.  Everything is computed in float in a
 * fixed order, so the interpreter and the emulators get identical bits.
 */
#include "texture/texture.h"

#include <algorithm>
#include <cmath>

namespace sbcc::tex {

namespace {

constexpr int kMaxSize = 4096;
constexpr int kMaxDepth = 256;

uint32_t mix32(uint32_t h)
{
   /* murmur3's finaliser: cheap and well spread, and fixed forever so test
    * expectations and corpus results stay stable. */
   h ^= h >> 16;
   h *= 0x85ebca6bu;
   h ^= h >> 13;
   h *= 0xc2b2ae35u;
   h ^= h >> 16;
   return h;
}

uint32_t hash_texel(uint32_t seed, int x, int y, int z, int level, int chan)
{
   uint32_t h = mix32(seed ^ 0x9e3779b9u);
   h = mix32(h ^ uint32_t(x));
   h = mix32(h ^ (uint32_t(y) * 0x27d4eb2du));
   h = mix32(h ^ (uint32_t(z) * 0x165667b1u));
   h = mix32(h ^ (uint32_t(level) << 8) ^ uint32_t(chan));
   return h;
}

const std::array<float, 4> kLevelColors[8] = {
   {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1},
   {1, 0, 1, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}, {0, 0, 0, 1},
};

float sane(float f)
{
   return std::isnan(f) ? 0.0f : f;
}

/* floor() to int without overflow for huge coordinates. */
int ifloor(float f)
{
   f = std::floor(f);
   if (!(f > -1073741824.0f))
      return -1073741824;
   if (f > 1073741824.0f)
      return 1073741824;
   return static_cast<int>(f);
}

int kind_dims(Kind k)
{
   switch (k) {
   case Kind::Tex1D:
   case Kind::Array1D:
      return 1;
   case Kind::Tex3D:
      return 3;
   default:
      return 2;
   }
}

bool kind_is_array(Kind k)
{
   return k == Kind::Array1D || k == Kind::Array2D || k == Kind::CubeArray;
}

bool kind_is_cube(Kind k)
{
   return k == Kind::Cube || k == Kind::CubeArray;
}

bool compare_passes(CompareFunc f, float ref, float d)
{
   switch (f) {
   case CompareFunc::Never: return false;
   case CompareFunc::Less: return ref < d;
   case CompareFunc::LEqual: return ref <= d;
   case CompareFunc::Equal: return ref == d;
   case CompareFunc::Greater: return ref > d;
   case CompareFunc::GEqual: return ref >= d;
   case CompareFunc::NotEqual: return ref != d;
   case CompareFunc::Always: return true;
   }
   return false;
}

/* Index after wrapping; -1 means "the border colour". */
int wrap_index(int i, int n, Wrap w)
{
   switch (w) {
   case Wrap::Repeat: {
      int m = i % n;
      return m < 0 ? m + n : m;
   }
   case Wrap::ClampToEdge:
      return std::clamp(i, 0, n - 1);
   case Wrap::Clamp:
   case Wrap::ClampToBorder:
      return (i < 0 || i >= n) ? -1 : i;
   case Wrap::Mirror: {
      int m = i % (2 * n);
      if (m < 0)
         m += 2 * n;
      return m >= n ? 2 * n - 1 - m : m;
   }
   }
   return 0;
}

/* Everything one sample needs besides the level and filter. */
struct Ctx {
   const Texture *tex;
   const Sampler *smp;
   int dims;           /* filtered axes: 1, 2 or 3 */
   bool unnormalized;  /* RECT */
   float coord[3];     /* s, t, r (normalised unless RECT) */
   Wrap wrap[3];
   int offset[3];
   int z;              /* layer / face index for non-3D kinds */
   bool shadow;
   float ref;
};

/* One texel (or the border) as RGBA, or as the 0/1 compare result. */
void get_texel(const Ctx &c, int level, int x, int y, int z, float out[4])
{
   const float *t;
   if (x < 0 || y < 0 || z < 0)
      t = c.smp->border.data();
   else
      t = c.tex->texel(level, x, y, z);
   if (c.shadow) {
      float r = compare_passes(c.smp->compare, c.ref, t[0]) ? 1.0f : 0.0f;
      out[0] = out[1] = out[2] = out[3] = r;
   } else {
      out[0] = t[0];
      out[1] = t[1];
      out[2] = t[2];
      out[3] = t[3];
   }
}

void lerp4(float out[4], const float a[4], const float b[4], float t)
{
   for (int i = 0; i < 4; i++)
      out[i] = (1.0f - t) * a[i] + t * b[i];
}

void sample_level(const Ctx &c, int level, Filter filter, float out[4])
{
   const int size[3] = {c.tex->width(level), c.tex->height(level), c.tex->depth(level)};
   int i0[3] = {0, 0, c.z}, i1[3] = {0, 0, c.z};
   float frac[3] = {0, 0, 0};

   for (int a = 0; a < c.dims; a++) {
      float s = c.coord[a];
      if (c.wrap[a] == Wrap::Clamp)
         s = std::clamp(s, 0.0f, c.unnormalized ? float(size[a]) : 1.0f);
      float u = (c.unnormalized ? s : s * float(size[a])) + float(c.offset[a]);
      if (filter == Filter::Nearest) {
         int i = ifloor(u);
         /* GL_CLAMP with nearest never reaches the border. */
         Wrap w = c.wrap[a] == Wrap::Clamp ? Wrap::ClampToEdge : c.wrap[a];
         i0[a] = wrap_index(i, size[a], w);
      } else {
         u -= 0.5f;
         int i = ifloor(u);
         frac[a] = u - std::floor(u);
         if (!(frac[a] >= 0.0f && frac[a] < 1.0f))
            frac[a] = 0.0f; /* huge coordinates: u - floor(u) lost precision */
         i0[a] = wrap_index(i, size[a], c.wrap[a]);
         i1[a] = wrap_index(i + 1, size[a], c.wrap[a]);
      }
   }

   if (filter == Filter::Nearest) {
      get_texel(c, level, i0[0], i0[1], i0[2], out);
      return;
   }

   /* Linear: blend along x, then y, then z, always in that order. */
   auto row = [&](int y, int z, float res[4]) {
      float a[4], b[4];
      get_texel(c, level, i0[0], y, z, a);
      get_texel(c, level, i1[0], y, z, b);
      lerp4(res, a, b, frac[0]);
   };
   auto plane = [&](int z, float res[4]) {
      if (c.dims < 2) {
         row(i0[1], z, res);
         return;
      }
      float a[4], b[4];
      row(i0[1], z, a);
      row(i1[1], z, b);
      lerp4(res, a, b, frac[1]);
   };
   if (c.dims < 3) {
      plane(i0[2], out);
      return;
   }
   float a[4], b[4];
   plane(i0[2], a);
   plane(i1[2], b);
   lerp4(out, a, b, frac[2]);
}

/* GL's cube face table: s_c, t_c and |m_a| as linear functions of the
 * direction, so the same maps give the derivatives. */
void face_map(int face, const float v[3], float &sc, float &tc, float &ma)
{
   switch (face) {
   case 0: sc = -v[2]; tc = -v[1]; ma = v[0]; break;
   case 1: sc = v[2]; tc = -v[1]; ma = -v[0]; break;
   case 2: sc = v[0]; tc = v[2]; ma = v[1]; break;
   case 3: sc = v[0]; tc = -v[2]; ma = -v[1]; break;
   case 4: sc = v[0]; tc = -v[1]; ma = v[2]; break;
   default: sc = -v[0]; tc = -v[1]; ma = -v[2]; break;
   }
}

int select_face(const float v[3])
{
   float ax = std::fabs(v[0]), ay = std::fabs(v[1]), az = std::fabs(v[2]);
   if (ax >= ay && ax >= az)
      return v[0] >= 0 ? 0 : 1;
   if (ay >= az)
      return v[1] >= 0 ? 2 : 3;
   return v[2] >= 0 ? 4 : 5;
}

int round_layer(float l, int n)
{
   return std::clamp(ifloor(l + 0.5f), 0, n - 1);
}

Vec4 to_bits(const float f[4])
{
   return vec4f(f[0], f[1], f[2], f[3]);
}

Vec4 query(const Texture &tex, int level)
{
   int L = tex.levels();
   if (level < 0 || level >= L)
      return {0, 0, 0, uint32_t(L)};
   uint32_t w = tex.width(level), h = tex.height(level), d = tex.depth(level);
   switch (tex.kind()) {
   case Kind::Tex1D: return {w, 0, 0, uint32_t(L)};
   case Kind::Array1D: return {w, uint32_t(tex.layers()), 0, uint32_t(L)};
   case Kind::Tex2D:
   case Kind::Rect:
   case Kind::Cube: return {w, h, 0, uint32_t(L)};
   case Kind::Array2D:
   case Kind::CubeArray: return {w, h, uint32_t(tex.layers()), uint32_t(L)};
   case Kind::Tex3D: return {w, h, d, uint32_t(L)};
   }
   return {0, 0, 0, 0};
}

Vec4 fetch(const Texture &tex, const SampleRequest &req)
{
   int level = req.level;
   if (level < 0 || level >= tex.levels())
      return {0, 0, 0, 0};
   int x = req.texel[0] + req.offset[0], y = 0, z = 0;
   switch (tex.kind()) {
   case Kind::Tex1D: break;
   case Kind::Array1D: z = req.texel[1]; break;
   case Kind::Tex3D:
      y = req.texel[1] + req.offset[1];
      z = req.texel[2] + req.offset[2];
      break;
   case Kind::Tex2D:
   case Kind::Rect:
      /* TXF on 2D reads x, y and the level in w; z is not part of it. */
      y = req.texel[1] + req.offset[1];
      break;
   default:
      y = req.texel[1] + req.offset[1];
      z = req.texel[2];
      break;
   }
   if (x < 0 || y < 0 || z < 0 || x >= tex.width(level) || y >= tex.height(level) ||
       z >= tex.depth(level))
      return {0, 0, 0, 0};
   return to_bits(tex.texel(level, x, y, z));
}

} // namespace

bool target_kind(TextureTarget target, Kind &kind)
{
   switch (target) {
   case TextureTarget::Tex1D:
   case TextureTarget::Shadow1D: kind = Kind::Tex1D; return true;
   case TextureTarget::Tex2D:
   case TextureTarget::Shadow2D: kind = Kind::Tex2D; return true;
   case TextureTarget::Tex3D: kind = Kind::Tex3D; return true;
   case TextureTarget::Cube:
   case TextureTarget::ShadowCube: kind = Kind::Cube; return true;
   case TextureTarget::Rect:
   case TextureTarget::ShadowRect: kind = Kind::Rect; return true;
   case TextureTarget::Array1D:
   case TextureTarget::ShadowArray1D: kind = Kind::Array1D; return true;
   case TextureTarget::Array2D:
   case TextureTarget::ShadowArray2D: kind = Kind::Array2D; return true;
   case TextureTarget::CubeArray:
   case TextureTarget::ShadowCubeArray: kind = Kind::CubeArray; return true;
   default: return false;
   }
}

bool target_is_shadow(TextureTarget target)
{
   switch (target) {
   case TextureTarget::Shadow1D:
   case TextureTarget::Shadow2D:
   case TextureTarget::ShadowRect:
   case TextureTarget::ShadowArray1D:
   case TextureTarget::ShadowArray2D:
   case TextureTarget::ShadowCube:
   case TextureTarget::ShadowCubeArray: return true;
   default: return false;
   }
}

Texture::Texture(Kind kind, int w, int h, int d, bool mipmapped) : kind_(kind)
{
   w = std::clamp(w, 1, kMaxSize);
   h = std::clamp(h, 1, kMaxSize);
   d = std::clamp(d, 1, kMaxDepth);
   if (kind == Kind::Tex1D || kind == Kind::Array1D)
      h = 1;
   if (kind_is_cube(kind))
      h = w;
   if (kind != Kind::Tex3D && !kind_is_array(kind))
      d = 1;
   layers_ = kind_is_array(kind) ? d : 1;
   int faces = kind == Kind::Cube ? 6 : kind == Kind::CubeArray ? 6 * d : d;
   if (kind == Kind::Rect)
      mipmapped = false;

   int biggest = std::max(w, h);
   if (kind == Kind::Tex3D)
      biggest = std::max(biggest, d);
   levels_ = 1;
   if (mipmapped)
      while ((biggest >> levels_) > 0 && levels_ < kMaxLevels)
         levels_++;

   size_t total = 0;
   for (int l = 0; l < levels_; l++) {
      int lw = std::max(1, w >> l), lh = std::max(1, h >> l);
      int ld = kind == Kind::Tex3D ? std::max(1, d >> l) : faces;
      size_[l] = {lw, lh, ld};
      offset_[l] = total;
      total += size_t(lw) * lh * ld * 4;
   }
   data_.assign(total, 0.0f);
}

void Texture::set_texel(int level, int x, int y, int z, std::array<float, 4> v)
{
   if (level < 0 || level >= levels_ || x < 0 || y < 0 || z < 0 || x >= size_[level][0] ||
       y >= size_[level][1] || z >= size_[level][2])
      return;
   std::copy(v.begin(), v.end(), texel(level, x, y, z));
}

/* Runs f(level, x, y, z) over every texel of every level. */
template <typename F>
static void for_each_texel(Texture &t, F f)
{
   for (int l = 0; l < t.levels(); l++)
      for (int z = 0; z < t.depth(l); z++)
         for (int y = 0; y < t.height(l); y++)
            for (int x = 0; x < t.width(l); x++)
               f(l, x, y, z);
}

Texture Texture::procedural(Kind kind, int w, int h, int d, bool mipmapped, uint32_t seed)
{
   Texture t(kind, w, h, d, mipmapped);
   for_each_texel(t, [&](int l, int x, int y, int z) {
      const std::array<float, 4> &tint = kLevelColors[l % 8];
      std::array<float, 4> v;
      for (int c = 0; c < 4; c++) {
         float noise = float(hash_texel(seed, x, y, z, l, c) & 0xff) / 255.0f;
         v[c] = c == 3 ? noise : 0.5f * noise + 0.5f * tint[c];
      }
      t.set_texel(l, x, y, z, v);
   });
   return t;
}

Texture Texture::rgbw(Kind kind, int w, int h, int d, bool mipmapped)
{
   Texture t(kind, w, h, d, mipmapped);
   for_each_texel(t, [&](int l, int x, int y, int z) {
      bool right = 2 * x >= t.width(l);
      bool top = 2 * y >= t.height(l);
      std::array<float, 4> v;
      if (!top)
         v = right ? std::array<float, 4>{0, 1, 0, 1} : std::array<float, 4>{1, 0, 0, 1};
      else
         v = right ? std::array<float, 4>{1, 1, 1, 1} : std::array<float, 4>{0, 0, 1, 1};
      /* A 1-texel-high level has no upper half: keep red/green. */
      if (t.height(l) == 1)
         v = right ? std::array<float, 4>{0, 1, 0, 1} : std::array<float, 4>{1, 0, 0, 1};
      t.set_texel(l, x, y, z, v);
   });
   return t;
}

Texture Texture::checkerboard(Kind kind, int w, int h, int d, int square,
                              std::array<float, 4> a, std::array<float, 4> b, bool mipmapped)
{
   Texture t(kind, w, h, d, mipmapped);
   square = std::max(square, 1);
   for_each_texel(t, [&](int l, int x, int y, int z) {
      t.set_texel(l, x, y, z, ((x / square + y / square) & 1) ? b : a);
   });
   return t;
}

std::array<float, 4> Texture::miptree_color(int level)
{
   return kLevelColors[((level % 8) + 8) % 8];
}

Texture Texture::miptree(Kind kind, int w, int h, int d)
{
   Texture t(kind, w, h, d, true);
   for_each_texel(t, [&](int l, int x, int y, int z) { t.set_texel(l, x, y, z, miptree_color(l)); });
   return t;
}

Texture Texture::depth(Kind kind, int w, int h, int d, bool mipmapped, uint32_t seed)
{
   Texture t(kind, w, h, d, mipmapped);
   for_each_texel(t, [&](int l, int x, int y, int z) {
      float v = seed ? float(hash_texel(seed, x, y, z, l, 0) & 0xff) / 255.0f
                     : (float(x) + 0.5f) / float(t.width(l));
      t.set_texel(l, x, y, z, {v, v, v, 1.0f});
   });
   return t;
}

Texture Texture::from_texels(Kind kind, int w, int h, int d, bool mipmapped,
                             const std::vector<float> &rgba)
{
   Texture t(kind, w, h, d, mipmapped);
   std::copy_n(rgba.begin(), std::min(rgba.size(), t.data_.size()), t.data_.begin());
   return t;
}

Vec4 sample(const Texture &tex, const Sampler &smp, const SampleRequest &req)
{
   Kind kind = tex.kind();
   bool shadow = false;
   if (req.target != TextureTarget::Unknown) {
      Kind want;
      if (!target_kind(req.target, want) || want != kind)
         return {0, 0, 0, 0};
      shadow = target_is_shadow(req.target);
   }
   if (req.op == SampleOp::Query)
      return query(tex, req.level);
   if (req.op == SampleOp::Fetch)
      return fetch(tex, req);

   float v[4];
   for (int i = 0; i < 4; i++)
      v[i] = sane(req.coord[i]);

   Ctx c{};
   c.tex = &tex;
   c.smp = &smp;
   c.dims = kind_dims(kind);
   c.unnormalized = kind == Kind::Rect;
   c.shadow = shadow;
   for (int a = 0; a < 3; a++) {
      c.wrap[a] = smp.wrap[a];
      c.offset[a] = a < c.dims ? req.offset[a] : 0;
   }

   /* Texel-space derivatives, for the LOD. */
   float dx[3] = {0, 0, 0}, dy[3] = {0, 0, 0};
   const int w0 = tex.width(0), h0 = tex.height(0), d0 = tex.depth(0);
   const float scale[3] = {c.unnormalized ? 1.0f : float(w0), c.unnormalized ? 1.0f : float(h0),
                           float(d0)};

   switch (kind) {
   case Kind::Tex1D:
      c.coord[0] = v[0];
      break;
   case Kind::Array1D:
      c.coord[0] = v[0];
      c.z = round_layer(v[1], tex.layers());
      break;
   case Kind::Tex2D:
   case Kind::Rect:
      c.coord[0] = v[0];
      c.coord[1] = v[1];
      break;
   case Kind::Array2D:
      c.coord[0] = v[0];
      c.coord[1] = v[1];
      c.z = round_layer(v[2], tex.layers());
      break;
   case Kind::Tex3D:
      c.coord[0] = v[0];
      c.coord[1] = v[1];
      c.coord[2] = v[2];
      break;
   case Kind::Cube:
   case Kind::CubeArray: {
      int face = select_face(v);
      float sc, tc, ma;
      face_map(face, v, sc, tc, ma);
      if (ma > 0.0f) {
         c.coord[0] = 0.5f * (sc / ma + 1.0f);
         c.coord[1] = 0.5f * (tc / ma + 1.0f);
      } else {
         c.coord[0] = c.coord[1] = 0.5f; /* zero direction: the face centre */
      }
      c.wrap[0] = c.wrap[1] = Wrap::ClampToEdge;
      c.z = face + (kind == Kind::CubeArray ? 6 * round_layer(v[3], tex.layers()) : 0);
      if (ma > 0.0f) {
         float dsc, dtc, dma;
         const float ma2 = ma * ma;
         face_map(face, req.ddx, dsc, dtc, dma);
         dx[0] = 0.5f * (dsc * ma - sc * dma) / ma2 * scale[0];
         dx[1] = 0.5f * (dtc * ma - tc * dma) / ma2 * scale[1];
         face_map(face, req.ddy, dsc, dtc, dma);
         dy[0] = 0.5f * (dsc * ma - sc * dma) / ma2 * scale[0];
         dy[1] = 0.5f * (dtc * ma - tc * dma) / ma2 * scale[1];
      }
      break;
   }
   }
   if (!kind_is_cube(kind)) {
      for (int a = 0; a < c.dims; a++) {
         dx[a] = req.ddx[a] * scale[a];
         dy[a] = req.ddy[a] * scale[a];
      }
   }

   if (shadow) {
      float ref;
      switch (req.target) {
      case TextureTarget::ShadowArray2D:
      case TextureTarget::ShadowCube: ref = v[3]; break;
      case TextureTarget::ShadowCubeArray: ref = sane(req.ref_ext); break;
      default: ref = v[2]; break;
      }
      c.ref = std::clamp(ref, 0.0f, 1.0f);
   }

   float lambda;
   if (req.op == SampleOp::SampleLod) {
      lambda = req.lod_or_bias;
   } else {
      float rx = std::sqrt(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
      float ry = std::sqrt(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
      lambda = std::log2(std::max(rx, ry));
      if (req.op == SampleOp::SampleBias)
         lambda += req.lod_or_bias;
   }

   float out[4];
   const int last = tex.levels() - 1;
   if (!(lambda > 0.0f)) {
      sample_level(c, 0, smp.mag_filter, out);
   } else if (smp.mip_filter == MipFilter::None) {
      sample_level(c, 0, smp.min_filter, out);
   } else if (smp.mip_filter == MipFilter::Nearest) {
      int level = 0;
      if (lambda > 0.5f)
         level = lambda >= float(last) + 1.0f ? last
                                              : std::min(int(std::ceil(lambda + 0.5f)) - 1, last);
      sample_level(c, level, smp.min_filter, out);
   } else {
      float fl = std::floor(lambda);
      if (fl >= float(last)) {
         sample_level(c, last, smp.min_filter, out);
      } else {
         int d1 = int(fl);
         float a[4], b[4];
         sample_level(c, d1, smp.min_filter, a);
         sample_level(c, d1 + 1, smp.min_filter, b);
         lerp4(out, a, b, lambda - fl);
      }
   }

   if (shadow) {
      float r = out[0];
      switch (smp.depth_mode) {
      case DepthMode::Luminance: out[0] = out[1] = out[2] = r; out[3] = 1.0f; break;
      case DepthMode::Intensity: out[0] = out[1] = out[2] = out[3] = r; break;
      case DepthMode::Alpha: out[0] = out[1] = out[2] = 0.0f; out[3] = r; break;
      case DepthMode::Red: out[0] = r; out[1] = out[2] = 0.0f; out[3] = 1.0f; break;
      }
   }
   return to_bits(out);
}

std::array<float, 4> sample_float(const Texture &tex, const Sampler &sampler,
                                  const SampleRequest &req)
{
   Vec4 b = sample(tex, sampler, req);
   return {u2f(b[0]), u2f(b[1]), u2f(b[2]), u2f(b[3])};
}

void TextureSet::bind(unsigned unit, std::shared_ptr<const Texture> tex, const Sampler &sampler)
{
   if (unit >= 1024)
      return; /* far beyond any GPU's unit count; refuse rather than allocate */
   if (unit >= units_.size())
      units_.resize(unit + 1);
   units_[unit] = {std::move(tex), sampler};
}

const Texture *TextureSet::texture(unsigned unit) const
{
   return unit < units_.size() ? units_[unit].tex.get() : nullptr;
}

const Sampler *TextureSet::sampler(unsigned unit) const
{
   return unit < units_.size() ? &units_[unit].sampler : nullptr;
}

Vec4 TextureSet::sample(unsigned unit, const SampleRequest &req) const
{
   if (unit >= units_.size() || !units_[unit].tex)
      return {0, 0, 0, 0};
   return tex::sample(*units_[unit].tex, units_[unit].sampler, req);
}

} // namespace sbcc::tex
