#include "runner/verify.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>
#include <algorithm>

#include "texture/texture.h"
#include "interp/compare.h"

namespace sbcc::runner {

namespace {

/* splitmix64: tiny, and identical on every platform and standard library. */
class Rng {
 public:
   explicit Rng(uint64_t seed) : s_(seed) {}
   uint64_t next()
   {
      uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
   }
   uint32_t below(uint32_t n) { return uint32_t(next() % n); }
   float unit() { return float(next() >> 40) / float(1ull << 24); }

 private:
   uint64_t s_;
};

enum class ValType : uint8_t { Unknown = 0, Float = 1, Int = 2, Mixed = 3 };

ValType merge(ValType a, ValType b) { return ValType(uint8_t(a) | uint8_t(b)); }

bool tex_int_coords(tgsi::Opcode op)
{
   return op == tgsi::Opcode::TXF || op == tgsi::Opcode::TXF_LZ || op == tgsi::Opcode::TXQ;
}

/* What a source of `inst` is read as. */
ValType source_type(const tgsi::Instruction &inst)
{
   const auto &info = inst.info();
   if (info.flags & tgsi::OPF_TEX)
      return tex_int_coords(inst.opcode) ? ValType::Int : ValType::Float;
   switch (info.type) {
   case tgsi::OperandType::F32: return ValType::Float;
   case tgsi::OperandType::I32:
   case tgsi::OperandType::U32: return ValType::Int;
   case tgsi::OperandType::Any: return ValType::Unknown;
   }
   return ValType::Unknown;
}

/* What `inst` writes, or Unknown when the value is a copy of its sources. */
ValType result_type(const tgsi::Instruction &inst)
{
   using tgsi::Opcode;
   switch (inst.opcode) {
   case Opcode::MOV:
   case Opcode::UCMP:
   case Opcode::CMP: return ValType::Unknown;
   case Opcode::FSLT:
   case Opcode::FSGE:
   case Opcode::FSEQ:
   case Opcode::FSNE:
   case Opcode::F2I:
   case Opcode::F2U:
   case Opcode::TXQ:
   case Opcode::ARL: return ValType::Int;
   case Opcode::I2F:
   case Opcode::U2F: return ValType::Float;
   default: break;
   }
   if (inst.info().flags & tgsi::OPF_TEX)
      return ValType::Float;
   return source_type(inst) == ValType::Int ? ValType::Int : ValType::Float;
}

struct Analysis {
   /* (file, index) -> how it is read (inputs, constants) */
   std::map<std::pair<tgsi::File, int64_t>, ValType> reads;
   /* output index -> written channel mask */
   std::map<int32_t, uint8_t> written;
};

int64_t reg_key(const tgsi::SrcOperand &s)
{
   int64_t dim = s.dimension ? s.dimension->value : 0;
   return (dim << 32) | uint32_t(s.index.value);
}

Analysis analyze(const tgsi::Shader &sh)
{
   Analysis a;
   /* Type of each TEMP/OUT channel, iterated to a fixpoint so copies
    * through temporaries carry integer-ness to the outputs. */
   std::map<std::tuple<tgsi::File, int32_t, int>, ValType> regs;
   for (int iter = 0; iter < 8; iter++) {
      bool changed = false;
      for (const auto &inst : sh.instructions) {
         ValType st = source_type(inst);
         for (const auto &s : inst.src)
            if ((s.file == tgsi::File::Input || s.file == tgsi::File::Constant) &&
                !s.index.indirect && st != ValType::Unknown) {
               auto &r = a.reads[{s.file, reg_key(s)}];
               r = merge(r, st);
            }
         ValType rt = result_type(inst);
         for (const auto &d : inst.dst) {
            if (d.file != tgsi::File::Temporary && d.file != tgsi::File::Output)
               continue;
            for (int c = 0; c < 4; c++) {
               if (!(d.write_mask & (1 << c)))
                  continue;
               ValType t = rt;
               if (t == ValType::Unknown) {
                  /* Copy-like: the sources' channel types (CMP/UCMP: src1, src2). */
                  size_t first = inst.opcode == tgsi::Opcode::MOV ? 0 : 1;
                  for (size_t si = first; si < inst.src.size(); si++) {
                     const auto &s = inst.src[si];
                     auto it = regs.find({s.file, s.index.value, s.swizzle[c]});
                     if (it != regs.end())
                        t = merge(t, it->second);
                     else if (s.file == tgsi::File::Immediate) {
                        int32_t ii = s.index.value;
                        if (ii >= 0 && size_t(ii) < sh.immediates.size())
                           t = merge(t, sh.immediates[ii].type == tgsi::ImmType::Float32
                                           ? ValType::Float
                                           : ValType::Int);
                     }
                  }
               }
               auto &slot = regs[{d.file, d.index.value, c}];
               ValType n = merge(slot, t);
               if (n != slot) {
                  slot = n;
                  changed = true;
               }
               if (d.file == tgsi::File::Output && !d.index.indirect)
                  a.written[d.index.value] |= uint8_t(1 << c);
               if (d.file == tgsi::File::Output && d.index.indirect) {
                  for (int32_t o = 0; o < sh.file_size(tgsi::File::Output); o++)
                     a.written[o] |= uint8_t(1 << c);
               }
            }
         }
      }
      if (!changed)
         break;
   }
   return a;
}

uint32_t random_float(Rng &rng)
{
   static const float specials[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f};
   if (rng.below(6) == 0)
      return f2u(specials[rng.below(5)]);
   /* Quantized to 1/256 so values print exactly and stay far from ties. */
   return f2u(std::round((rng.unit() * 8.0f - 4.0f) * 256.0f) / 256.0f);
}

uint32_t random_int(Rng &rng)
{
   static const uint32_t specials[] = {0, 1, 0xffffffffu, 31, 32, 0x80000000u, 0x7fffffffu};
   if (rng.below(6) == 0)
      return specials[rng.below(7)];
   return uint32_t(int32_t(rng.below(65)) - 32);
}

/* Integer uniforms are mostly counts, indices and flags: small and
 * non-negative, so loops bounded by them terminate as in real use. */
uint32_t random_uniform_int(Rng &rng) { return rng.below(16); }

uint32_t random_value(Rng &rng, ValType t, bool uniform = false)
{
   switch (t) {
   case ValType::Int: return uniform ? random_uniform_int(rng) : random_int(rng);
   case ValType::Mixed:
      if (rng.below(2))
         return uniform ? random_uniform_int(rng) : random_int(rng);
      return random_float(rng);
   default: return random_float(rng);
   }
}

/* How a fragment input varies across a quad. */
enum class InputKind : uint8_t {
   Independent, /* vertex stages: every lane its own draw */
   Plane,       /* interpolated: base + ddx * x + ddy * y */
   Flat,        /* flat interpolation, integers, facing: one value per quad */
   Position,    /* window position: x and y step by one pixel */
};

InputKind fragment_input_kind(const tgsi::Shader &sh, const Analysis &an, int index)
{
   const tgsi::Declaration *d = sh.find_declaration(tgsi::File::Input, index);
   if (d && d->semantic == tgsi::Semantic::Position)
      return InputKind::Position;
   if (d && (d->interpolate == tgsi::Interpolate::Constant ||
             d->semantic == tgsi::Semantic::Face || d->semantic == tgsi::Semantic::PrimId))
      return InputKind::Flat;
   auto it = an.reads.find({tgsi::File::Input, index});
   /* Integer bits are never interpolated (GL requires flat for them), and a
    * value read both ways is treated the same, so its integer uses see a
    * value a real draw could give. */
   if (it != an.reads.end() && (it->second == ValType::Int || it->second == ValType::Mixed))
      return InputKind::Flat;
   return InputKind::Plane;
}

/* A small dyadic slope: multiples of 1/256 up to 1/2 (1/16 of the [-4, 4]
 * input range), so base + ddx + ddy is exact in float and the lanes of a
 * quad look like one rasterized primitive. */
float random_slope(Rng &rng) { return float(int32_t(rng.below(257)) - 128) / 256.0f; }

/* Fills the inputs of the four lanes starting at `quad`. */
void quad_inputs(const std::vector<InputKind> &kinds, const Analysis &an, Rng &rng, Lane *quad)
{
   for (unsigned q = 0; q < 4; q++)
      quad[q].inputs.resize(kinds.size());
   for (size_t i = 0; i < kinds.size(); i++) {
      auto it = an.reads.find({tgsi::File::Input, int64_t(i)});
      ValType t = it == an.reads.end() ? ValType::Float : it->second;
      for (int c = 0; c < 4; c++) {
         uint32_t base = random_value(rng, t);
         float ddx = 0, ddy = 0;
         switch (kinds[i]) {
         case InputKind::Independent:
         case InputKind::Flat: break;
         case InputKind::Plane:
            ddx = random_slope(rng);
            ddy = random_slope(rng);
            break;
         case InputKind::Position:
            if (c == 0)
               ddx = 1.0f;
            else if (c == 1)
               ddy = 1.0f;
            else {
               ddx = random_slope(rng);
               ddy = random_slope(rng);
            }
            break;
         }
         for (unsigned q = 0; q < 4; q++) {
            float x = float(q & 1), y = float((q >> 1) & 1);
            quad[q].inputs[i][c] =
               ddx == 0 && ddy == 0 ? base : f2u(u2f(base) + ddx * x + ddy * y);
         }
      }
   }
}

std::string fmt_word(uint32_t w)
{
   char buf[64];
   snprintf(buf, sizeof(buf), "%.9g (0x%08x)", double(u2f(w)), w);
   return buf;
}

std::string fmt_vec(const Vec4 &v)
{
   char buf[128];
   snprintf(buf, sizeof(buf), "(%g, %g, %g, %g | 0x%08x 0x%08x 0x%08x 0x%08x)", double(u2f(v[0])),
            double(u2f(v[1])), double(u2f(v[2])), double(u2f(v[3])), v[0], v[1], v[2], v[3]);
   return buf;
}

void make_textures(const tgsi::Shader &sh, Rng &rng, tex::TextureSet &set)
{
   std::map<int32_t, tgsi::TextureTarget> units;
   for (const auto &d : sh.declarations)
      if (d.file == tgsi::File::SamplerView)
         for (int32_t i = d.first; i <= d.last && i < 32; i++)
            units[i] = d.view_target;
   for (const auto &inst : sh.instructions) {
      if (!(inst.info().flags & tgsi::OPF_TEX))
         continue;
      for (const auto &s : inst.src)
         if (s.file == tgsi::File::Sampler && s.index.value >= 0 && s.index.value < 32 &&
             (!units.count(s.index.value) ||
              units[s.index.value] == tgsi::TextureTarget::Unknown))
            units[s.index.value] = inst.tex_target;
   }
   for (const auto &[unit, target] : units) {
      tex::Kind kind;
      if (!tex::target_kind(target, kind))
         kind = tex::Kind::Tex2D;
      int w = 8, h = kind == tex::Kind::Tex1D || kind == tex::Kind::Array1D ? 1 : 8;
      int d = kind == tex::Kind::Tex3D ? 4 : (kind == tex::Kind::Array1D ||
                                              kind == tex::Kind::Array2D ||
                                              kind == tex::Kind::CubeArray)
                                                ? 3
                                                : 1;
      if (kind == tex::Kind::Array1D)
         h = 3; /* 1D arrays keep their layers in y */
      bool mip = kind != tex::Kind::Rect;
      uint32_t seed = uint32_t(rng.next());
      auto t = std::make_shared<tex::Texture>(
         tex::target_is_shadow(target) ? tex::Texture::depth(kind, w, h, d, mip, seed | 1)
                                       : tex::Texture::procedural(kind, w, h, d, mip, seed));
      tex::Sampler s;
      s.min_filter = tex::Filter::Linear;
      s.mag_filter = tex::Filter::Linear;
      s.mip_filter = mip ? tex::MipFilter::Linear : tex::MipFilter::None;
      s.compare = tex::CompareFunc(rng.below(8));
      set.bind(unsigned(unit), t, s);
   }
}

} // namespace

std::string VerifyResult::undefined_summary() const
{
   if (!undefined_lanes)
      return {};
   return std::to_string(undefined_lanes) + " lane" + (undefined_lanes == 1 ? "" : "s") +
          " undefined by GL (" + std::to_string(undefined_derivative) +
          " implicit derivative in a partly active quad, " + std::to_string(undefined_pow) +
          " pow of a negative base)";
}

bool float_outputs_match(const tgsi::Shader &, uint32_t ref, uint32_t got)
{
   return interp::values_match(ref, got, interp::Tolerance::Float);
}

VerifyResult verify_shader(const tgsi::Shader &sh, const Executable &reference,
                           const Executable &target, const VerifyOptions &opts)
{
   VerifyResult res;
   Rng rng(opts.seed);
   Analysis an = analyze(sh);
   bool frag = sh.processor == tgsi::Processor::Fragment;
   unsigned n = std::max(1u, opts.invocations);
   if (frag)
      n = (n + 3) / 4 * 4;

   Resources resources;
   for (const auto &d : sh.declarations) {
      if (d.file != tgsi::File::Constant)
         continue;
      int32_t buf = d.dimension.value_or(0);
      if (buf < 0 || buf >= 32 || d.last < 0 || d.last > 65535)
         continue;
      if (resources.constants.size() <= size_t(buf))
         resources.constants.resize(buf + 1);
      auto &cb = resources.constants[buf];
      if (cb.size() <= size_t(d.last))
         cb.resize(d.last + 1, Vec4{0, 0, 0, 0});
      for (int32_t i = std::max(0, d.first); i <= d.last; i++) {
         auto it = an.reads.find({tgsi::File::Constant, (int64_t(buf) << 32) | uint32_t(i)});
         ValType t = it == an.reads.end() ? ValType::Float : it->second;
         for (int c = 0; c < 4; c++)
            cb[i][c] = random_value(rng, t, true);
      }
   }
   tex::TextureSet textures;
   make_textures(sh, rng, textures);
   resources.textures = &textures;

   int n_in = std::max(0, sh.file_size(tgsi::File::Input));
   int n_sv = std::max(0, sh.file_size(tgsi::File::SystemValue));
   int n_out = std::max(0, sh.file_size(tgsi::File::Output));
   Batch batch;
   batch.lanes.resize(n);
   const bool quads = frag && opts.quad_coherent_inputs;
   std::vector<InputKind> in_kinds(size_t(n_in), InputKind::Independent);
   if (quads)
      for (int i = 0; i < n_in; i++)
         in_kinds[i] = fragment_input_kind(sh, an, i);
   for (unsigned l = 0; l < n; l++) {
      Lane &lane = batch.lanes[l];
      lane.inputs.resize(n_in);
      if (quads) {
         /* The quad's first lane draws the planes; the others follow it. */
         if (l % 4 == 0)
            quad_inputs(in_kinds, an, rng, &batch.lanes[l]);
      } else {
         for (int i = 0; i < n_in; i++) {
            auto it = an.reads.find({tgsi::File::Input, i});
            ValType t = it == an.reads.end() ? ValType::Float : it->second;
            for (int c = 0; c < 4; c++)
               lane.inputs[i][c] = random_value(rng, t);
         }
      }
      lane.system_values.resize(n_sv);
      for (int i = 0; i < n_sv; i++) {
         const tgsi::Declaration *d = sh.find_declaration(tgsi::File::SystemValue, i);
         tgsi::Semantic sem = d ? d->semantic : tgsi::Semantic::None;
         if (sem == tgsi::Semantic::VertexId || sem == tgsi::Semantic::InstanceId ||
             sem == tgsi::Semantic::VertexIdNoBase || sem == tgsi::Semantic::PrimId)
            lane.system_values[i] = {l, l, l, l};
         else if (sem == tgsi::Semantic::Face)
            /* One primitive covers the quad, so it has one facing. */
            lane.system_values[i] =
               quads && l % 4 ? batch.lanes[l - 1].system_values[i]
                             : vec4f(rng.below(2) ? 1.0f : -1.0f, 0, 0, 1);
         else
            for (int c = 0; c < 4; c++)
               lane.system_values[i][c] = random_float(rng);
      }
      lane.outputs.assign(n_out, Vec4{0, 0, 0, 0});
   }

   Batch ref_batch = batch, got_batch = batch;
   RunResult rr = reference.run(resources, ref_batch, opts.limits);
   RunResult gr = target.run(resources, got_batch, opts.limits);
   if (rr.status == RunStatus::Error || gr.status == RunStatus::Error) {
      res.status = VerifyStatus::Error;
      res.message = rr.status == RunStatus::Error ? "reference failed: " + rr.message
                                                  : "target failed: " + gr.message;
      return res;
   }
   if (rr.status == RunStatus::BudgetExceeded || gr.status == RunStatus::BudgetExceeded) {
      res.status = VerifyStatus::Budget;
      res.message = std::string(rr.status == RunStatus::BudgetExceeded ? "reference" : "target") +
                    " exceeded the loop budget of " +
                    std::to_string(opts.limits.max_loop_iterations) + " iterations";
      return res;
   }

   auto lane_inputs = [&](unsigned l) {
      std::string s;
      for (int i = 0; i < n_in; i++)
         s += (s.empty() ? "" : ", ") + std::string("IN[") + std::to_string(i) +
              "] = " + fmt_vec(batch.lanes[l].inputs[i]);
      return s.empty() ? std::string("no inputs") : s;
   };
   /* interp's per-channel classes also widen the tolerance for channels
    * that transcendental opcodes reach. */
   const interp::OutputTolerances tols = interp::derive_tolerances(sh);
   static const char chan[] = "xyzw";
   for (unsigned l = 0; l < n; l++) {
      const Lane &a = ref_batch.lanes[l], &b = got_batch.lanes[l];
      if (a.undefined) {
         /* Its outputs, and even whether it is killed, may hang on the
          * undefined value. */
         res.undefined_lanes++;
         if (a.undefined & kUndefinedDerivative)
            res.undefined_derivative++;
         if (a.undefined & kUndefinedPow)
            res.undefined_pow++;
         continue;
      }
      if (a.killed != b.killed) {
         res.status = VerifyStatus::Fail;
         res.message = "lane " + std::to_string(l) + ": killed: reference " +
                       (a.killed ? "yes" : "no") + ", target " + (b.killed ? "yes" : "no") +
                       "; inputs: " + lane_inputs(l);
         return res;
      }
      if (a.killed)
         continue;
      for (const auto &[o, mask] : an.written) {
         if (o < 0 || o >= n_out || size_t(o) >= a.outputs.size() || size_t(o) >= b.outputs.size())
            continue;
         for (int c = 0; c < 4; c++) {
            if (!(mask & (1 << c)))
               continue;
            uint32_t x = a.outputs[o][c], y = b.outputs[o][c];
            if (interp::values_match(x, y, tols.at(size_t(o), unsigned(c))))
               continue;
            res.status = VerifyStatus::Fail;
            res.message = "lane " + std::to_string(l) + " OUT[" + std::to_string(o) + "]." +
                          chan[c] + ": reference " + fmt_word(x) + ", target " + fmt_word(y) +
                          "; inputs: " + lane_inputs(l);
            return res;
         }
      }
   }
   return res;
}

} // namespace sbcc::runner
