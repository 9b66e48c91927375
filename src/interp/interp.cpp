/*
 * Execution of decoded TGSI for the reference interpreter.
 *
 * Lanes run four at a time in lock-step with an active mask.  Structured
 * control flow keeps a small frame stack: an IF frame remembers the mask at
 * the IF and the lanes whose condition held; a loop frame remembers the mask
 * at BGNLOOP and the lanes that executed BRK or CONT.  Lanes that finished
 * (RET, KILL, loop budget) are in `dead` and never come back.  Every value
 * is a raw 32-bit word; each opcode interprets it as its type says.
 */
#include "interp/interp.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <utility>

#include "interp/interp_decode.h"
#include "texture/texture.h"

namespace sbcc::interp {

using namespace tgsi;

namespace {

constexpr int kGroup = 4;

inline float fl(uint32_t u) { return u2f(u); }
inline uint32_t bits(float f) { return f2u(f); }
inline int32_t si(uint32_t u) { return static_cast<int32_t>(u); }
inline uint32_t us(int32_t i) { return static_cast<uint32_t>(i); }
inline uint32_t boolf(bool b) { return b ? 0x3f800000u : 0u; }
inline uint32_t boolu(bool b) { return b ? 0xffffffffu : 0u; }

/* TGSI float min/max: a NaN operand yields the other operand. */
float fmin_tgsi(float a, float b)
{
   if (std::isnan(a))
      return b;
   if (std::isnan(b))
      return a;
   return a < b ? a : b;
}

float fmax_tgsi(float a, float b)
{
   if (std::isnan(a))
      return b;
   if (std::isnan(b))
      return a;
   return a > b ? a : b;
}

/* Truncating, saturating conversions; NaN converts to 0. */
uint32_t f2i(float f)
{
   if (std::isnan(f))
      return 0;
   if (f >= 2147483648.0f)
      return us(INT_MAX);
   if (f <= -2147483648.0f)
      return us(INT_MIN);
   return us(static_cast<int32_t>(f));
}

uint32_t f2u(float f)
{
   if (std::isnan(f) || f <= 0.0f)
      return 0;
   if (f >= 4294967296.0f)
      return UINT32_MAX;
   return static_cast<uint32_t>(f);
}

float saturate(float f)
{
   /* NaN and -0 become +0, so the result is one defined bit pattern. */
   if (!(f > 0.0f))
      return 0.0f;
   return f > 1.0f ? 1.0f : f;
}

uint32_t ubfe(uint32_t v, uint32_t off, uint32_t width)
{
   off &= 31;
   width &= 31;
   if (width == 0)
      return 0;
   if (off + width < 32)
      return (v << (32 - width - off)) >> (32 - width);
   return v >> off;
}

uint32_t ibfe(uint32_t v, uint32_t off, uint32_t width)
{
   off &= 31;
   width &= 31;
   if (width == 0)
      return 0;
   if (off + width < 32)
      return us(si(v << (32 - width - off)) >> (32 - width));
   return us(si(v) >> off);
}

uint32_t bfi(uint32_t base, uint32_t insert, uint32_t off, uint32_t width)
{
   off &= 31;
   width &= 31;
   uint32_t mask = ((1u << width) - 1u) << off;
   return ((insert << off) & mask) | (base & ~mask);
}

uint32_t idiv(uint32_t a, uint32_t b)
{
   int32_t x = si(a), y = si(b);
   if (y == 0)
      return x >= 0 ? 0xffffffffu : 1u;
   if (x == INT_MIN && y == -1)
      return a;
   return us(x / y);
}

uint32_t imod(uint32_t a, uint32_t b)
{
   int32_t x = si(a), y = si(b);
   if (y == 0)
      return x >= 0 ? 0xffffffffu : 1u;
   if (y == -1)
      return 0;
   return us(x % y);
}

uint32_t imsb(uint32_t v)
{
   if (si(v) < 0)
      v = ~v;
   return v == 0 ? 0xffffffffu : 31u - std::countl_zero(v);
}

/* One component-wise ALU channel. */
/* Always inlined: each opcode's instantiation of exec_alu below folds the
 * switch away, so the per-channel work is just the operation. */
[[gnu::always_inline]] inline uint32_t alu_comp(Opcode op, uint32_t a, uint32_t b, uint32_t c,
                                                uint32_t d)
{
   const float x = fl(a), y = fl(b), z = fl(c);
   switch (op) {
   case Opcode::MOV: return a;
   case Opcode::ARL: return f2i(std::floor(x));
   case Opcode::UARL: return a;
   case Opcode::MUL: return bits(x * y);
   case Opcode::ADD: return bits(x + y);
   case Opcode::MAD: {
      float p = x * y; /* two roundings: MAD is not fused */
      return bits(p + z);
   }
   case Opcode::FMA: return bits(std::fma(x, y, z));
   case Opcode::LRP: {
      float p = x * y;
      float q = (1.0f - x) * z;
      return bits(p + q);
   }
   case Opcode::MIN: return bits(fmin_tgsi(x, y));
   case Opcode::MAX: return bits(fmax_tgsi(x, y));
   case Opcode::FRC: return bits(x - std::floor(x));
   case Opcode::FLR: return bits(std::floor(x));
   case Opcode::CEIL: return bits(std::ceil(x));
   case Opcode::TRUNC: return bits(std::trunc(x));
   case Opcode::ROUND: return bits(std::nearbyint(x));
   case Opcode::SSG: return bits(x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f);
   case Opcode::ABS: return bits(std::fabs(x));
   case Opcode::LDEXP: return bits(std::ldexp(x, std::clamp(si(b), -1000, 1000)));
   case Opcode::SLT: return boolf(x < y);
   case Opcode::SGE: return boolf(x >= y);
   case Opcode::SEQ: return boolf(x == y);
   case Opcode::SNE: return boolf(x != y);
   case Opcode::SGT: return boolf(x > y);
   case Opcode::SLE: return boolf(x <= y);
   case Opcode::FSLT: return boolu(x < y);
   case Opcode::FSGE: return boolu(x >= y);
   case Opcode::FSEQ: return boolu(x == y);
   case Opcode::FSNE: return boolu(x != y);
   case Opcode::CMP: return x < 0.0f ? b : c;
   case Opcode::UCMP: return a != 0 ? b : c;
   case Opcode::F2I: return f2i(x);
   case Opcode::F2U: return f2u(x);
   case Opcode::I2F: return bits(static_cast<float>(si(a)));
   case Opcode::U2F: return bits(static_cast<float>(a));
   case Opcode::UADD: return a + b;
   case Opcode::UMUL: return a * b;
   case Opcode::UMAD: return a * b + c;
   case Opcode::UDIV: return b == 0 ? 0xffffffffu : a / b;
   case Opcode::UMOD: return b == 0 ? 0xffffffffu : a % b;
   case Opcode::IDIV: return idiv(a, b);
   case Opcode::MOD: return imod(a, b);
   case Opcode::IMUL_HI:
      return static_cast<uint32_t>(static_cast<uint64_t>(int64_t(si(a)) * int64_t(si(b))) >> 32);
   case Opcode::UMUL_HI: return static_cast<uint32_t>((uint64_t(a) * uint64_t(b)) >> 32);
   case Opcode::INEG: return 0u - a;
   case Opcode::IABS: return si(a) < 0 ? 0u - a : a;
   case Opcode::ISSG: return si(a) > 0 ? 1u : si(a) < 0 ? 0xffffffffu : 0u;
   case Opcode::IMAX: return us(std::max(si(a), si(b)));
   case Opcode::IMIN: return us(std::min(si(a), si(b)));
   case Opcode::UMAX: return std::max(a, b);
   case Opcode::UMIN: return std::min(a, b);
   case Opcode::ISLT: return boolu(si(a) < si(b));
   case Opcode::ISGE: return boolu(si(a) >= si(b));
   case Opcode::USLT: return boolu(a < b);
   case Opcode::USGE: return boolu(a >= b);
   case Opcode::USEQ: return boolu(a == b);
   case Opcode::USNE: return boolu(a != b);
   case Opcode::NOT: return ~a;
   case Opcode::AND: return a & b;
   case Opcode::OR: return a | b;
   case Opcode::XOR: return a ^ b;
   case Opcode::SHL: return a << (b & 31);
   case Opcode::ISHR: return us(si(a) >> (b & 31));
   case Opcode::USHR: return a >> (b & 31);
   case Opcode::IBFE: return ibfe(a, b, c);
   case Opcode::UBFE: return ubfe(a, b, c);
   case Opcode::BFI: return bfi(a, b, c, d);
   case Opcode::BREV: {
      uint32_t r = 0;
      for (int i = 0; i < 32; i++)
         r |= ((a >> i) & 1u) << (31 - i);
      return r;
   }
   case Opcode::POPC: return static_cast<uint32_t>(std::popcount(a));
   case Opcode::LSB: return a == 0 ? 0xffffffffu : static_cast<uint32_t>(std::countr_zero(a));
   case Opcode::UMSB: return a == 0 ? 0xffffffffu : 31u - std::countl_zero(a);
   case Opcode::IMSB: return imsb(a);
   default: return 0;
   }
}

/* Scalar and per-channel-rule opcodes: the whole result vector. */
[[gnu::always_inline]] inline Vec4 alu_vec(Opcode op, const Vec4 *s)
{
   const float x = fl(s[0][0]);
   switch (op) {
   case Opcode::RCP: {
      float r = 1.0f / x;
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::RSQ: {
      float r = 1.0f / std::sqrt(std::fabs(x));
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::SQRT: {
      float r = std::sqrt(x);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::EX2: {
      float r = std::exp2(x);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::LG2: {
      float r = std::log2(x);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::POW: {
      float r = std::pow(x, fl(s[1][0]));
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::SIN: {
      float r = std::sin(x);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::COS: {
      float r = std::cos(x);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::DP2:
   case Opcode::DP3:
   case Opcode::DP4:
   case Opcode::DPH: {
      int n = op == Opcode::DP2 ? 2 : op == Opcode::DP4 ? 4 : 3;
      float r = x * fl(s[1][0]);
      for (int i = 1; i < n; i++) {
         float p = fl(s[0][i]) * fl(s[1][i]);
         r = r + p;
      }
      if (op == Opcode::DPH)
         r = r + fl(s[1][3]);
      return {bits(r), bits(r), bits(r), bits(r)};
   }
   case Opcode::LIT: {
      float y = fl(s[0][1]), w = fl(s[0][3]);
      float ry = fmax_tgsi(x, 0.0f);
      float rz = 0.0f;
      if (x > 0.0f)
         rz = std::pow(fmax_tgsi(y, 0.0f), std::clamp(w, -128.0f, 128.0f));
      return vec4f(1.0f, ry, rz, 1.0f);
   }
   case Opcode::EXP: {
      float f = std::floor(x);
      return vec4f(std::exp2(f), x - f, std::exp2(x), 1.0f);
   }
   case Opcode::LOG: {
      float a = std::fabs(x);
      float l = std::log2(a);
      float f = std::floor(l);
      return vec4f(f, a / std::exp2(f), l, 1.0f);
   }
   case Opcode::DST:
      return vec4f(1.0f, fl(s[0][1]) * fl(s[1][1]), fl(s[0][2]), fl(s[1][3]));
   default:
      return {0, 0, 0, 0};
   }
}

/* Registers and control state of one group of up to four lanes. */
struct GroupState {
   const DShader *sh;
   const Resources *res;
   Lane *lanes[kGroup];
   int n;
   Vec4 *temps; /* [lane * num_temps + index] */
   Vec4 *addrs;
   Vec4 *outs;

   Vec4 &temp(int l, int32_t i) { return temps[l * sh->num_temps + i]; }
   Vec4 &addr(int l, int32_t i) { return addrs[l * sh->num_addrs + i]; }
   Vec4 &out(int l, int32_t i) { return outs[l * sh->num_outputs + i]; }

   int32_t read_indirect(const DIndirect &ind, int l)
   {
      const Vec4 &r = ind.file == File::Address ? addr(l, ind.index) : temp(l, ind.index);
      return si(r[ind.chan]);
   }

   /* The register a source reads, before swizzle; nullptr reads zero. */
   const Vec4 *locate(const DSrc &s, int l)
   {
      int64_t idx = s.index;
      if (s.ind.present) {
         idx += read_indirect(s.ind, l);
         if (idx < s.lo || idx > s.hi)
            return nullptr;
      }
      switch (s.file) {
      case File::Temporary: return &temp(l, int32_t(idx));
      case File::Address: return &addr(l, int32_t(idx));
      case File::Output: return &out(l, int32_t(idx));
      case File::Immediate: return &sh->immediates[size_t(idx)];
      case File::Input: {
         const auto &v = lanes[l]->inputs;
         return idx >= 0 && size_t(idx) < v.size() ? &v[size_t(idx)] : nullptr;
      }
      case File::SystemValue: {
         const auto &v = lanes[l]->system_values;
         return idx >= 0 && size_t(idx) < v.size() ? &v[size_t(idx)] : nullptr;
      }
      case File::Constant: {
         int64_t buf = s.dim;
         if (s.dim_ind.present)
            buf += read_indirect(s.dim_ind, l);
         if (buf < 0 || size_t(buf) >= res->constants.size())
            return nullptr;
         const auto &v = res->constants[size_t(buf)];
         return idx >= 0 && size_t(idx) < v.size() ? &v[size_t(idx)] : nullptr;
      }
      default:
         return nullptr;
      }
   }

   Vec4 fetch(const DSrc &s, int l)
   {
      static const Vec4 zero = {0, 0, 0, 0};
      const Vec4 *r;
      if (s.fast == DSrc::kTemp) {
         r = &temp(l, s.index);
      } else if (s.fast == DSrc::kImm) {
         r = &sh->immediates[size_t(s.index)];
      } else {
         r = locate(s, l);
         if (!r)
            r = &zero;
      }
      Vec4 v = {(*r)[s.swz[0]], (*r)[s.swz[1]], (*r)[s.swz[2]], (*r)[s.swz[3]]};
      if (s.abs || s.neg) {
         for (uint32_t &c : v) {
            if (s.int_mods) {
               if (s.abs && si(c) < 0)
                  c = 0u - c;
               if (s.neg)
                  c = 0u - c;
            } else {
               if (s.abs)
                  c &= 0x7fffffffu;
               if (s.neg)
                  c ^= 0x80000000u;
            }
         }
      }
      return v;
   }

   void write(const DInst &in, int l, const Vec4 &v)
   {
      const DDst &d = in.dst;
      if (!d.mask)
         return;
      int64_t idx = d.index;
      if (d.ind.present) {
         idx += read_indirect(d.ind, l);
         if (idx < d.lo || idx > d.hi)
            return; /* out-of-range indirect writes are dropped */
      }
      Vec4 *r;
      switch (d.file) {
      case File::Temporary: r = &temp(l, int32_t(idx)); break;
      case File::Address: r = &addr(l, int32_t(idx)); break;
      case File::Output: r = &out(l, int32_t(idx)); break;
      default: return;
      }
      for (int c = 0; c < 4; c++)
         if (d.mask & (1u << c))
            (*r)[c] = in.sat ? bits(saturate(fl(v[c]))) : v[c];
   }
};

/* One ALU instruction over the group, specialised per opcode so the
 * operation is resolved at compile time rather than per channel. */
template <unsigned OP>
void exec_alu(GroupState &g, const DInst &in, uint8_t active)
{
   constexpr Opcode op = Opcode(OP);
   constexpr OutputMode mode = kOpcodeInfo[OP].mode;
   constexpr unsigned nsrc = kOpcodeInfo[OP].num_src;
   for (int l = 0; l < g.n; l++) {
      if (!(active & (1u << l)))
         continue;
      Vec4 s[4] = {};
      for (unsigned i = 0; i < nsrc && i < 4; i++)
         s[i] = g.fetch(in.src[i], l);
      if constexpr (op == Opcode::POW) {
         /* GL: pow(x, y) is undefined for x < 0, and for x == 0 with y <= 0;
          * hardware computes EX2(y * LG2(x)) and gets NaN or its own
          * clamped values there. */
         const float x = fl(s[0][0]), y = fl(s[1][0]);
         if (x < 0.0f || (x == 0.0f && y <= 0.0f))
            g.lanes[l]->undefined |= kUndefinedPow;
      }
      Vec4 r = {0, 0, 0, 0};
      if constexpr (mode == OutputMode::Replicate || mode == OutputMode::Channel) {
         r = alu_vec(op, s);
      } else {
         for (int c = 0; c < 4; c++)
            if (in.dst.mask & (1u << c))
               r[c] = alu_comp(op, s[0][c], s[1][c], s[2][c], s[3][c]);
      }
      g.write(in, l, r);
   }
}

using AluFn = void (*)(GroupState &, const DInst &, uint8_t);

template <size_t... I>
constexpr std::array<AluFn, sizeof...(I)> make_alu_table(std::index_sequence<I...>)
{
   return {&exec_alu<unsigned(I)>...};
}

constexpr auto kAluTable = make_alu_table(std::make_index_sequence<kNumOpcodes>{});

struct Frame {
   bool loop;
   uint8_t outer; /* active lanes when the IF / BGNLOOP was reached */
   uint8_t cond;  /* IF: lanes that took the THEN side */
   uint8_t brk;   /* loop: lanes that left with BRK */
   uint8_t cont;  /* loop: lanes that skipped to the next iteration */
   uint32_t pc;
};

class ReferenceExecutable final : public Executable {
 public:
   ReferenceExecutable(DShader sh, std::string listing)
      : sh_(std::move(sh)), listing_(std::move(listing))
   {
   }

   RunResult run(const Resources &res, Batch &batch, const RunLimits &limits) const override;
   std::string listing() const override { return listing_; }

 private:
   void run_group(GroupState &g, std::vector<Frame> &stack, const RunLimits &limits,
                  RunResult &result) const;
   void exec_derivative(GroupState &g, const DInst &in, uint8_t active) const;
   void mark_partial_quad(GroupState &g, uint8_t active) const;
   void exec_texture(GroupState &g, const DInst &in, uint8_t active) const;

   DShader sh_;
   std::string listing_;
};

RunResult ReferenceExecutable::run(const Resources &res, Batch &batch,
                                   const RunLimits &limits) const
{
   RunResult result;
   const size_t nt = size_t(sh_.num_temps) * kGroup, na = size_t(sh_.num_addrs) * kGroup,
                no = size_t(sh_.num_outputs) * kGroup;
   std::vector<Vec4> regs(nt + na + no);
   std::vector<Frame> stack;
   stack.reserve(sh_.max_depth + 1);

   GroupState g;
   g.sh = &sh_;
   g.res = &res;
   g.temps = regs.data();
   g.addrs = regs.data() + nt;
   g.outs = regs.data() + nt + na;

   for (size_t base = 0; base < batch.lanes.size(); base += kGroup) {
      g.n = int(std::min<size_t>(kGroup, batch.lanes.size() - base));
      for (int l = 0; l < g.n; l++) {
         g.lanes[l] = &batch.lanes[base + size_t(l)];
         g.lanes[l]->undefined = 0;
      }
      std::fill(regs.begin(), regs.end(), Vec4{0, 0, 0, 0});
      stack.clear();
      run_group(g, stack, limits, result);
      for (int l = 0; l < g.n; l++) {
         auto &outs = g.lanes[l]->outputs;
         outs.resize(size_t(sh_.num_outputs));
         for (int32_t i = 0; i < sh_.num_outputs; i++)
            outs[size_t(i)] = g.out(l, i);
      }
   }
   return result;
}

/* GL leaves derivatives, and so implicit LOD, undefined in non-uniform
 * control flow: an op reading its quad while some of the quad's lanes are
 * off (other side of a branch, out of the loop, killed) sees whatever those
 * lanes last held, which hardware and compilers do not agree on. */
void ReferenceExecutable::mark_partial_quad(GroupState &g, uint8_t active) const
{
   if (sh_.processor != Processor::Fragment)
      return;
   for (int l = 0; l < g.n; l++)
      if (active & (1u << l))
         g.lanes[l]->undefined |= kUndefinedDerivative;
}

void ReferenceExecutable::exec_derivative(GroupState &g, const DInst &in, uint8_t active) const
{
   Vec4 v[kGroup];
   for (int l = 0; l < kGroup; l++)
      v[l] = l < g.n ? g.fetch(in.src[0], l) : v[0];
   const bool frag = sh_.processor == Processor::Fragment;
   for (int l = 0; l < g.n; l++) {
      if (!(active & (1u << l)))
         continue;
      int a = 0, b = 0; /* result = lane b - lane a */
      switch (in.op) {
      case Opcode::DDX: a = 0; b = 1; break;
      case Opcode::DDY: a = 0; b = 2; break;
      case Opcode::DDX_FINE: a = l & 2; b = a + 1; break;
      default: a = l & 1; b = a + 2; break; /* DDY_FINE */
      }
      Vec4 r;
      for (int c = 0; c < 4; c++)
         r[c] = frag ? bits(fl(v[b][c]) - fl(v[a][c])) : 0u;
      g.write(in, l, r);
   }
}

void ReferenceExecutable::exec_texture(GroupState &g, const DInst &in, uint8_t active) const
{
   const tex::TextureSet *set = g.res->textures;
   tex::SampleRequest req[kGroup];
   Vec4 s[kGroup][3];
   for (int l = 0; l < kGroup; l++) {
      if (l >= g.n) {
         req[l] = req[0];
         continue;
      }
      for (int i = 0; i < in.nsrc; i++)
         s[l][i] = g.fetch(in.src[i], l);
      tex::SampleRequest &r = req[l];
      r.target = in.target;
      for (int c = 0; c < 3; c++)
         r.offset[c] = in.offset[c];
      for (int c = 0; c < 4; c++)
         r.coord[c] = fl(s[l][0][c]);
      switch (in.op) {
      case Opcode::TEX: r.op = tex::SampleOp::Sample; break;
      case Opcode::TXP: {
         r.op = tex::SampleOp::Sample;
         float w = r.coord[3];
         for (int c = 0; c < 3; c++)
            r.coord[c] = r.coord[c] / w;
         break;
      }
      case Opcode::TXB:
         r.op = tex::SampleOp::SampleBias;
         r.lod_or_bias = r.coord[3];
         break;
      case Opcode::TXL:
         r.op = tex::SampleOp::SampleLod;
         r.lod_or_bias = r.coord[3];
         break;
      case Opcode::TEX_LZ: r.op = tex::SampleOp::SampleLod; break;
      case Opcode::TXD:
         r.op = tex::SampleOp::SampleGrad;
         for (int c = 0; c < 3; c++) {
            r.ddx[c] = fl(s[l][1][c]);
            r.ddy[c] = fl(s[l][2][c]);
         }
         break;
      case Opcode::TXF:
      case Opcode::TXF_LZ:
         r.op = tex::SampleOp::Fetch;
         for (int c = 0; c < 3; c++)
            r.texel[c] = si(s[l][0][c]);
         r.level = in.op == Opcode::TXF ? si(s[l][0][3]) : 0;
         break;
      case Opcode::TXQ:
         r.op = tex::SampleOp::Query;
         r.level = si(s[l][0][0]);
         break;
      case Opcode::TEX2:
         r.op = tex::SampleOp::Sample;
         r.ref_ext = fl(s[l][1][0]);
         break;
      case Opcode::TXB2:
         r.op = tex::SampleOp::SampleBias;
         r.lod_or_bias = fl(s[l][1][0]);
         break;
      case Opcode::TXL2:
         r.op = tex::SampleOp::SampleLod;
         r.lod_or_bias = fl(s[l][1][0]);
         break;
      default: break;
      }
   }
   /* Implicit LOD: coarse derivatives of the (projected) coordinates within
    * the quad, the same for all four lanes.  Outside fragment shaders there
    * are no neighbours and the derivatives are 0 (level 0). */
   if ((req[0].op == tex::SampleOp::Sample || req[0].op == tex::SampleOp::SampleBias) &&
       sh_.processor == Processor::Fragment) {
      /* Cube maps: the derivatives are those of the face coordinates, as on
       * r600 hardware, whose sampler only sees the face s,t that CUBE made
       * (docs/semantics.md, "Cube LOD").  A direction scaled to major axis
       * 1 gives the model exactly those, and the same face and texel. */
      if (in.target == TextureTarget::Cube || in.target == TextureTarget::ShadowCube ||
          in.target == TextureTarget::CubeArray ||
          in.target == TextureTarget::ShadowCubeArray) {
         for (int l = 0; l < kGroup; l++) {
            float *v = req[l].coord;
            const float m = std::max({std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2])});
            if (m > 0.0f && std::isfinite(m))
               for (int c = 0; c < 3; c++)
                  v[c] /= m;
         }
      }
      float dx[3], dy[3];
      for (int c = 0; c < 3; c++) {
         dx[c] = req[1].coord[c] - req[0].coord[c];
         dy[c] = req[2].coord[c] - req[0].coord[c];
      }
      for (int l = 0; l < g.n; l++)
         for (int c = 0; c < 3; c++) {
            req[l].ddx[c] = dx[c];
            req[l].ddy[c] = dy[c];
         }
   }
   for (int l = 0; l < g.n; l++) {
      if (!(active & (1u << l)))
         continue;
      int64_t unit = in.unit;
      if (in.unit_ind.present) {
         /* Out of the declared units: no texture, reads 0 like any unbound unit. */
         unit = int32_t(in.unit) + int64_t(g.read_indirect(in.unit_ind, l));
         if (unit < 0 || unit >= in.num_units)
            unit = -1;
      }
      Vec4 r = set && unit >= 0 ? set->sample(uint32_t(unit), req[l]) : Vec4{0, 0, 0, 0};
      g.write(in, l, r);
   }
}

void ReferenceExecutable::run_group(GroupState &g, std::vector<Frame> &stack,
                                    const RunLimits &limits, RunResult &result) const
{
   const uint8_t all = uint8_t((1u << g.n) - 1u);
   uint8_t active = all;
   uint8_t dead = 0;
   const DInst *code = sh_.code.data();
   const uint32_t size = uint32_t(sh_.code.size());

   /* Lanes taken out of the current iteration of the innermost loop. */
   auto removed = [&]() -> uint8_t {
      for (size_t i = stack.size(); i-- > 0;)
         if (stack[i].loop)
            return uint8_t(dead | stack[i].brk | stack[i].cont);
      return dead;
   };

   uint32_t pc = 0;
   while (pc < size) {
      const DInst &in = code[pc];
      result.instructions += uint64_t(std::popcount(unsigned(active)));
      switch (in.op) {
      case Opcode::IF:
      case Opcode::UIF: {
         uint8_t cond = 0;
         for (int l = 0; l < g.n; l++) {
            if (!(active & (1u << l)))
               continue;
            uint32_t v = g.fetch(in.src[0], l)[0];
            bool t = in.op == Opcode::IF ? fl(v) != 0.0f : v != 0;
            if (t)
               cond |= uint8_t(1u << l);
         }
         stack.push_back({false, active, cond, 0, 0, pc});
         active = cond;
         if (!active) {
            pc = in.jump; /* run the ELSE / ENDIF for its mask update */
            continue;
         }
         break;
      }
      case Opcode::ELSE: {
         Frame &f = stack.back();
         active = uint8_t(f.outer & ~f.cond & ~dead);
         if (!active) {
            pc = in.jump;
            continue;
         }
         break;
      }
      case Opcode::ENDIF: {
         uint8_t outer = stack.back().outer;
         stack.pop_back();
         active = uint8_t(outer & ~removed());
         break;
      }
      case Opcode::BGNLOOP:
         if (!active) {
            pc = in.jump + 1;
            continue;
         }
         stack.push_back({true, active, 0, 0, 0, pc});
         break;
      case Opcode::ENDLOOP: {
         Frame &f = stack.back();
         uint8_t next = uint8_t(f.outer & ~f.brk & ~dead);
         for (int l = 0; l < g.n; l++) {
            if (!(next & (1u << l)))
               continue;
            if (++g.lanes[l]->loop_iterations > limits.max_loop_iterations) {
               next &= uint8_t(~(1u << l));
               dead |= uint8_t(1u << l);
               if (result.status == RunStatus::Ok) {
                  result.status = RunStatus::BudgetExceeded;
                  result.message = "loop budget of " +
                                   std::to_string(limits.max_loop_iterations) +
                                   " iterations exceeded";
               }
            }
         }
         if (next) {
            active = next;
            f.cont = 0;
            pc = f.pc + 1;
            continue;
         }
         /* Everyone who entered the loop and is still alive resumes,
          * including the lanes that left with BRK. */
         active = uint8_t(f.outer & ~dead);
         stack.pop_back();
         break;
      }
      case Opcode::BRK:
      case Opcode::CONT:
         for (size_t i = stack.size(); i-- > 0;)
            if (stack[i].loop) {
               (in.op == Opcode::BRK ? stack[i].brk : stack[i].cont) |= active;
               break;
            }
         active = 0;
         break;
      case Opcode::RET:
         dead |= active;
         active = 0;
         break;
      case Opcode::END:
         return;
      case Opcode::KILL:
      case Opcode::KILL_IF:
         for (int l = 0; l < g.n; l++) {
            if (!(active & (1u << l)))
               continue;
            bool kill = true;
            if (in.op == Opcode::KILL_IF) {
               Vec4 v = g.fetch(in.src[0], l);
               kill = fl(v[0]) < 0.0f || fl(v[1]) < 0.0f || fl(v[2]) < 0.0f || fl(v[3]) < 0.0f;
            }
            if (kill) {
               g.lanes[l]->killed = true;
               dead |= uint8_t(1u << l);
               active &= uint8_t(~(1u << l));
            }
         }
         break;
      case Opcode::NOP:
         break;
      case Opcode::DDX:
      case Opcode::DDY:
      case Opcode::DDX_FINE:
      case Opcode::DDY_FINE:
         if (active && active != all)
            mark_partial_quad(g, active);
         if (active)
            exec_derivative(g, in, active);
         break;
      default:
         if (!active)
            break;
         if (opcode_info(in.op).flags & OPF_TEX) {
            if ((opcode_info(in.op).flags & OPF_QUAD) && active != all)
               mark_partial_quad(g, active);
            exec_texture(g, in, active);
            break;
         }
         kAluTable[static_cast<unsigned>(in.op)](g, in, active);
         break;
      }
      pc++;
   }
}

} // namespace

std::unique_ptr<Executable> make_reference_executable(const Shader &shader, Diagnostics &diags)
{
   DShader d;
   if (!decode_shader(shader, d, diags))
      return nullptr;
   return std::make_unique<ReferenceExecutable>(std::move(d), print_tgsi(shader));
}

} // namespace sbcc::interp
