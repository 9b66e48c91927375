/*
 * The r600-family emulator: wavefronts, the CF program with the hardware
 * branch/loop stack, ALU clauses with VLIW semantics, TEX/VTX clauses
 * through the shared texture model, and exports.  Semantics and the input
 * model are documented in docs/r600-emulator.md.
 */
#include "r600/r600_emu.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600/r600_emu_alu.h"
#include "texture/texture.h"

namespace sbcc::r600 {

namespace emu_internal {

enum class SrcClass : uint8_t { Gpr, KCache, CFile, Param, Value, Literal, PV, PS, Bad };

struct DSrc {
   SrcClass cls = SrcClass::Value;
   uint8_t chan = 0;
   bool neg = false, abs = false, rel = false;
   uint16_t index = 0;  /* GPR, constant index, param */
   uint16_t bank = 0;   /* kcache bank */
   uint8_t bank_index_mode = 0; /* EG: add CF_IDX0 (1) or CF_IDX1 (2) to the bank */
   uint32_t value = 0;  /* inline constants */
};

struct DAlu {
   const AluInstr *in = nullptr;
   AluOp op = AluOp::ALU_NOP;
   uint32_t flags = 0;
   uint8_t slot = 0;
   uint8_t nsrc = 0;
   bool reduction = false;
   bool float_dst = true;
   DSrc src[3];
};

struct DGroup {
   uint32_t first = 0, count = 0; /* into Decoded::alu */
   const AluGroup *group = nullptr;
};

struct DCf {
   const CfInstr *cf = nullptr;
   uint32_t first_group = 0, num_groups = 0;
   uint32_t loop_end = 0; /* LOOP_START*: index of the matching LOOP_END */
};

struct Decoded {
   std::vector<DCf> cf;
   std::vector<DGroup> groups;
   std::vector<DAlu> alu;
   std::string error;
};

static bool float_dst(uint32_t flags, AluOp op)
{
   if (flags & (AF_INT_DST | AF_UINT_DST | AF_MOVA))
      return false;
   switch (op) {
   case AluOp::MOV:
   case AluOp::CNDE_INT:
   case AluOp::CNDGT_INT:
   case AluOp::CNDGE_INT:
   case AluOp::BFE_UINT:
   case AluOp::BFE_INT:
   case AluOp::BFI_INT:
   case AluOp::BIT_ALIGN_INT:
   case AluOp::BYTE_ALIGN_INT:
   case AluOp::MULADD_INT24:
   case AluOp::MULADD_UINT24:
   case AluOp::MUL_UINT24:
   case AluOp::MULHI_UINT24:
   case AluOp::FLT32_TO_FLT16:
      return op == AluOp::MOV;
   default: return true;
   }
}

static DSrc decode_src(ChipClass chip, const CfInstr &cf, const AluGroup &g, const AluSrc &s)
{
   DSrc d;
   d.chan = s.chan;
   d.neg = s.neg;
   d.abs = s.abs;
   d.rel = s.rel;
   switch (src_kind(chip, s.sel)) {
   case SrcKind::Gpr:
   case SrcKind::ClauseTemp:
      d.cls = SrcClass::Gpr;
      d.index = s.sel;
      break;
   case SrcKind::KCache: {
      const KCacheLock &lock = cf.kcache[src_kcache_set(s.sel)];
      auto c = kcache_constant(lock, src_kcache_index(s.sel));
      if (!c) {
         d.cls = SrcClass::Bad;
         break;
      }
      d.cls = SrcClass::KCache;
      d.bank = lock.bank;
      d.bank_index_mode = lock.index_mode;
      d.index = static_cast<uint16_t>(*c);
      break;
   }
   case SrcKind::ConstFile:
      d.cls = SrcClass::CFile;
      d.index = static_cast<uint16_t>(s.sel - kSrcCFILEFirst);
      break;
   case SrcKind::Param:
      d.cls = SrcClass::Param;
      d.index = static_cast<uint16_t>(s.sel - kSrcPARAMFirst);
      break;
   case SrcKind::Inline:
      d.cls = SrcClass::Value;
      switch (s.sel) {
      case kSrc_0: d.value = 0; break;
      case kSrc_1: d.value = f2u(1.0f); break;
      case kSrc_1_INT: d.value = 1; break;
      case kSrc_M_1_INT: d.value = 0xffffffffu; break;
      case kSrc_0_5: d.value = f2u(0.5f); break;
      default: d.cls = SrcClass::Bad; break;
      }
      break;
   case SrcKind::Literal:
      d.cls = SrcClass::Literal;
      d.value = s.chan < g.literals.size() ? g.literals[s.chan] : 0;
      break;
   case SrcKind::PV: d.cls = SrcClass::PV; break;
   case SrcKind::PS: d.cls = SrcClass::PS; break;
   default: d.cls = SrcClass::Bad; break;
   }
   return d;
}

static Decoded decode(const Program &prog)
{
   Decoded d;
   const ChipClass chip = prog.chip;
   d.cf.resize(prog.cf.size());
   std::vector<uint32_t> loop_starts;
   for (size_t i = 0; i < prog.cf.size(); i++) {
      const CfInstr &cf = prog.cf[i];
      DCf &dc = d.cf[i];
      dc.cf = &cf;
      /* Hand-built programs may hold anything: refuse values the tables do
       * not cover instead of indexing past them. */
      bool bad = unsigned(cf.op) >= kNumCfOps;
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &in : g.instrs)
            bad = bad || unsigned(in.op) >= kNumAluOps;
      for (const FetchInstr &f : cf.fetches) {
         FetchOp op = fetch_op(f);
         bad = bad || unsigned(op) >= kNumFetchOps;
      }
      if (bad) {
         d.error = "CF " + std::to_string(i) + ": opcode out of range";
         d.cf.resize(i);
         return d;
      }
      const uint32_t cflags = cf_op_info(cf.op).flags;
      if (cflags & CF_LOOP_START)
         loop_starts.push_back(static_cast<uint32_t>(i));
      if (cf.op == CfOp::LOOP_END && !loop_starts.empty()) {
         d.cf[loop_starts.back()].loop_end = static_cast<uint32_t>(i);
         loop_starts.pop_back();
      }
      if (cf_op_info(cf.op).enc != CfEncoding::Alu)
         continue;
      dc.first_group = static_cast<uint32_t>(d.groups.size());
      dc.num_groups = static_cast<uint32_t>(cf.groups.size());
      for (const AluGroup &g : cf.groups) {
         DGroup dg;
         dg.first = static_cast<uint32_t>(d.alu.size());
         dg.count = static_cast<uint32_t>(g.instrs.size());
         dg.group = &g;
         d.groups.push_back(dg);
         for (const AluInstr &in : g.instrs) {
            DAlu a;
            a.in = &in;
            a.op = in.op;
            a.flags = alu_op_info(in.op).flags;
            a.slot = in.slot;
            a.nsrc = alu_op_info(in.op).num_src;
            a.reduction = in.op == AluOp::DOT4 || in.op == AluOp::DOT4_IEEE ||
                          in.op == AluOp::MAX4 || in.op == AluOp::CUBE;
            a.float_dst = float_dst(a.flags, in.op);
            for (unsigned s = 0; s < a.nsrc; s++)
               a.src[s] = decode_src(chip, cf, g, in.src[s]);
            d.alu.push_back(a);
         }
      }
   }
   return d;
}

} // namespace emu_internal

namespace {

using namespace emu_internal;
using emu::SlotResult;

constexpr unsigned kMaxWave = 64;
constexpr unsigned kNumGprs = 128;
/* What a clause temporary holds once its clause has ended: a NaN with a
 * recognisable payload, so code that relies on it fails loudly. */
constexpr uint32_t kPoison = 0x7fbadbadu;

struct Plane {
   float p0[4], p10[4], p20[4];
};

struct Frame {
   bool loop = false;
   uint64_t mask = 0;    /* lanes active when pushed / when the loop started */
   uint64_t brk = 0;     /* loop: lanes that left the loop */
   uint64_t cont = 0;    /* loop: lanes waiting for LOOP_END */
   uint32_t start = 0;   /* loop: index of LOOP_START */
   int32_t index = 0;    /* loop: aL */
};

uint32_t hash32(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

class Wave {
 public:
   Wave(const Program &prog, const ShaderInfo &info, const Decoded &dec, const Resources &res,
        const RunLimits &limits, const EmuOptions &opt, Batch &batch, size_t first, unsigned n,
        RunResult &result)
      : prog_(prog), info_(info), dec_(dec), res_(res), limits_(limits), opt_(opt),
        batch_(batch), first_(first), n_(n), result_(result)
   {
   }

   void run();

 private:
   Vec4 &gpr(unsigned l, unsigned r) { return gpr_[l * kNumGprs + r]; }
   Lane &lane(unsigned l) { return batch_.lanes[first_ + l]; }
   uint64_t all() const { return n_ >= 64 ? ~0ull : ((1ull << n_) - 1); }
   uint64_t removed() const
   {
      uint64_t r = killed_ | done_;
      for (size_t i = stack_.size(); i-- > 0;)
         if (stack_[i].loop)
            return r | stack_[i].brk | stack_[i].cont;
      return r;
   }
   void fail(const std::string &msg)
   {
      if (err_.empty())
         err_ = msg;
   }
   std::string where(unsigned group = ~0u, int slot = -1) const
   {
      std::string s = "CF " + std::to_string(pc_);
      if (group != ~0u)
         s += " group " + std::to_string(group);
      if (slot >= 0)
         s += " slot " + std::string(1, slot <= 4 ? "xyzwt"[slot] : '?');
      return s;
   }

   void preload();
   void push(uint64_t mask);
   void pop(unsigned count);
   void check_stack();
   void do_else();
   void run_alu_clause(const DCf &dc);
   void run_group(const DCf &dc, const DGroup &g, unsigned gi, bool first);
   uint32_t read(const DSrc &s, const AluInstr &in, unsigned l, const AluGroup &g, unsigned gi);
   int32_t rel_index(unsigned mode, unsigned l);
   void run_fetch_clause(const CfInstr &cf);
   void run_tex(const TexInstr &t);
   void run_vtx(const VtxInstr &v);
   void run_export(const CfInstr &cf);

   const Program &prog_;
   const ShaderInfo &info_;
   const Decoded &dec_;
   const Resources &res_;
   const RunLimits &limits_;
   const EmuOptions &opt_;
   Batch &batch_;
   size_t first_;
   unsigned n_;
   RunResult &result_;

   std::vector<Vec4> gpr_;
   Vec4 pv_[kMaxWave]{};
   uint32_t ps_[kMaxWave]{};
   int32_t ar_[kMaxWave][4]{};
   float grad_h_[kMaxWave][4]{}, grad_v_[kMaxWave][4]{};
   uint64_t active_ = 0, killed_ = 0, done_ = 0, pred_ = 0;
   int32_t cf_idx_[2] = {0, 0}; /* Evergreen CF_IDX0/1, per wavefront */
   std::vector<Frame> stack_;
   std::vector<Plane> planes_; /* n * num_params */
   unsigned num_params_ = 0;
   uint32_t pc_ = 0;
   unsigned pushes_ = 0, loops_ = 0;
   std::string err_;
};

void Wave::preload()
{
   gpr_.assign(size_t(n_) * kNumGprs, Vec4{0, 0, 0, 0});
   const bool frag = info_.stage == tgsi::Processor::Fragment;
   const bool eg = is_eg_or_later(info_.chip);
   for (const ShaderIo &io : info_.inputs)
      if (io.lds_pos >= 0)
         num_params_ = std::max(num_params_, std::min(unsigned(io.lds_pos), 31u) + 1);
   planes_.assign(size_t(n_) * num_params_, Plane{});
   for (unsigned l = 0; l < n_; l++) {
      const Lane &ln = lane(l);
      const uint32_t gl = static_cast<uint32_t>(first_ + l);
      /* Barycentric pairs: dyadic i, j in (0, 1) so planes can be exact. */
      float ij[16][2] = {};
      if (frag && eg) {
         for (unsigned k = 0; k < info_.num_ij && k < 16; k++) {
            uint32_t h = hash32(gl * 31u + k);
            ij[k][0] = float((h & 15u) + 1) / 32.0f;
            ij[k][1] = float(((h >> 4) & 15u) + 1) / 32.0f;
            if (k / 2 < kNumGprs) {
               gpr(l, k / 2)[(k % 2) * 2] = f2u(ij[k][0]);
               gpr(l, k / 2)[(k % 2) * 2 + 1] = f2u(ij[k][1]);
            }
         }
      }
      for (const ShaderIo &io : info_.inputs) {
         Vec4 v{0, 0, 0, 0};
         if (io.semantic == tgsi::Semantic::VertexId || io.semantic == tgsi::Semantic::InstanceId) {
            /* System values: tgsi_index is the SV register; the hardware
             * puts the vertex id in x and the instance id in w of the GPR. */
            if (io.tgsi_index >= 0 && size_t(io.tgsi_index) < ln.system_values.size() &&
                io.gpr < kNumGprs) {
               unsigned c = io.semantic == tgsi::Semantic::VertexId ? 0 : 3;
               gpr(l, io.gpr)[c] = ln.system_values[size_t(io.tgsi_index)][0];
            }
            continue;
         }
         if (io.tgsi_index >= 0 && size_t(io.tgsi_index) < ln.inputs.size())
            v = ln.inputs[io.tgsi_index];
         if (frag && io.semantic == tgsi::Semantic::Position) {
            /* The SPI delivers 1/w; Mesa's shaders invert it back. */
            v[3] = f2u(1.0f / u2f(v[3]));
         }
         if (frag && eg && io.lds_pos >= 0 && io.lds_pos < 32) {
            Plane &p = planes_[size_t(l) * num_params_ + io.lds_pos];
            float i = 0, j = 0;
            if (io.ij_index >= 0 && io.ij_index < 16) {
               i = ij[io.ij_index][0];
               j = ij[io.ij_index][1];
            }
            for (int c = 0; c < 4; c++) {
               float val = u2f(v[c]);
               uint32_t h = hash32(gl * 131u + io.lds_pos * 7u + c);
               float p10 = float(int(h & 15u) - 8) / 4.0f;
               float p20 = float(int((h >> 4) & 15u) - 8) / 4.0f;
               float p0 = val - (i * p10 + j * p20);
               float back = (p0 + i * p10) + j * p20;
               bool flat = io.interpolate == tgsi::Interpolate::Constant;
               if (flat || !std::isfinite(val) || f2u(back) != v[c]) {
                  /* Keep the value bit-exact (integers in flat inputs, NaN,
                   * values the plane cannot reproduce exactly). */
                  p.p0[c] = val;
                  std::memcpy(&p.p0[c], &v[c], 4);
                  p.p10[c] = 0;
                  p.p20[c] = 0;
               } else {
                  p.p0[c] = p0;
                  p.p10[c] = p10;
                  p.p20[c] = p20;
               }
            }
            continue;
         }
         if (io.gpr < kNumGprs && (!frag || !eg || io.lds_pos < 0))
            gpr(l, io.gpr) = v;
      }
   }
   active_ = all();
   for (unsigned l = 0; l < n_; l++)
      if (lane(l).killed)
         killed_ |= 1ull << l;
   active_ &= ~killed_;
}

void Wave::check_stack()
{
   /* Hardware entries: a loop frame takes a whole entry, pushes share an
    * entry four to one (Mesa's estimate adds reserves on top of this, so
    * real programs always fit). */
   unsigned elements = pushes_ + 4 * loops_;
   unsigned entries = (elements + 3) / 4;
   if (entries > info_.stack_size)
      fail(where() + ": stack overflow: " + std::to_string(entries) +
           " entries needed, stack_size is " + std::to_string(info_.stack_size));
}

void Wave::push(uint64_t mask)
{
   Frame f;
   f.mask = mask;
   stack_.push_back(f);
   pushes_++;
   check_stack();
}

void Wave::pop(unsigned count)
{
   for (unsigned i = 0; i < count; i++) {
      if (stack_.empty() || stack_.back().loop) {
         fail(where() + ": pop of an empty branch stack");
         return;
      }
      uint64_t m = stack_.back().mask;
      stack_.pop_back();
      pushes_--;
      active_ = m & ~removed();
   }
}

void Wave::do_else()
{
   if (stack_.empty() || stack_.back().loop) {
      fail(where() + ": ELSE without a pushed branch");
      return;
   }
   active_ = stack_.back().mask & ~active_ & ~removed();
}

int32_t Wave::rel_index(unsigned mode, unsigned l)
{
   if (mode < 4)
      return ar_[l][mode];
   if (mode == 4) {
      for (size_t i = stack_.size(); i-- > 0;)
         if (stack_[i].loop)
            return stack_[i].index;
      return 0;
   }
   if (mode == 6)
      return ar_[l][0];
   return 0;
}

uint32_t Wave::read(const DSrc &s, const AluInstr &in, unsigned l, const AluGroup &,
                    unsigned gi)
{
   uint32_t v = 0;
   switch (s.cls) {
   case SrcClass::Gpr: {
      int32_t r = s.index + (s.rel ? rel_index(in.index_mode, l) : 0);
      if (r < 0 || r >= int32_t(kNumGprs)) {
         fail(where(gi, in.slot) + ": relative GPR index " + std::to_string(r) +
              " out of range");
         return 0;
      }
      v = gpr(l, unsigned(r))[s.chan & 3];
      break;
   }
   case SrcClass::KCache:
   case SrcClass::CFile: {
      unsigned bank = s.cls == SrcClass::KCache ? s.bank : 0;
      if (s.bank_index_mode == 1 || s.bank_index_mode == 2)
         bank += unsigned(cf_idx_[s.bank_index_mode - 1]);
      int64_t idx = s.index + (s.rel ? rel_index(in.index_mode, l) : 0);
      if (bank < res_.constants.size() && idx >= 0 && size_t(idx) < res_.constants[bank].size())
         v = res_.constants[bank][size_t(idx)][s.chan & 3];
      break;
   }
   case SrcClass::Param:
      if (s.index < num_params_)
         std::memcpy(&v, &planes_[size_t(l) * num_params_ + s.index].p0[s.chan & 3], 4);
      break;
   case SrcClass::Value:
   case SrcClass::Literal: v = s.value; break;
   case SrcClass::PV: v = pv_[l][s.chan & 3]; break;
   case SrcClass::PS: v = ps_[l]; break;
   case SrcClass::Bad:
      fail(where(gi, in.slot) + ": source selector not readable (constant outside the locked "
                                "kcache ranges or unsupported selector)");
      return 0;
   }
   if (s.abs)
      v &= 0x7fffffffu;
   if (s.neg)
      v ^= 0x80000000u;
   return v;
}

void Wave::run_group(const DCf &dc, const DGroup &g, unsigned gi, bool)
{
   const ChipClass chip = prog_.chip;
   const DAlu *alu = &dec_.alu[g.first];
   const unsigned cnt = g.count;
   const AluGroup &grp = *g.group;
   if (cnt > 5) {
      fail(where(gi) + ": group of " + std::to_string(cnt) + " instructions");
      return;
   }
   uint64_t new_active = active_;
   uint64_t mask = active_;
   (void)dc;
   while (mask) {
      const unsigned l = unsigned(std::countr_zero(mask));
      mask &= mask - 1;
      uint32_t src[5][3] = {};
      bool exec[5] = {};
      SlotResult res[5];
      for (unsigned i = 0; i < cnt; i++) {
         const DAlu &a = alu[i];
         const uint8_t ps = a.in->pred_sel;
         const bool pbit = (pred_ >> l) & 1;
         exec[i] = ps == 0 || (ps == 2 && !pbit) || (ps == 3 && pbit);
         if (!exec[i])
            continue;
         for (unsigned s = 0; s < a.nsrc; s++)
            src[i][s] = read(a.src[s], *a.in, l, grp, gi);
      }
      for (unsigned i = 0; i < cnt; i++) {
         if (!exec[i])
            continue;
         const DAlu &a = alu[i];
         if (a.reduction) {
            float acc = 0;
            if (a.op == AluOp::CUBE) {
               /* Mesa feeds (z,z,x,y) and (y,x,z,z): take x from slot 2,
                * y from slot 3 and z from slot 0. */
               float v[4][2] = {};
               for (unsigned k = 0; k < cnt && k < 4; k++) {
                  v[alu[k].slot & 3][0] = u2f(src[k][0]);
                  v[alu[k].slot & 3][1] = u2f(src[k][1]);
               }
               float rx = v[2][0], ry = v[3][0], rz = v[0][0];
               float tc, sc, ma, face;
               if (std::fabs(rz) >= std::fabs(rx) && std::fabs(rz) >= std::fabs(ry)) {
                  ma = rz; face = rz < 0 ? 5.0f : 4.0f; sc = rz < 0 ? -rx : rx; tc = -ry;
               } else if (std::fabs(ry) >= std::fabs(rx)) {
                  ma = ry; face = ry < 0 ? 3.0f : 2.0f; sc = rx; tc = ry < 0 ? -rz : rz;
               } else {
                  ma = rx; face = rx < 0 ? 1.0f : 0.0f; sc = rx < 0 ? rz : -rz; tc = -ry;
               }
               float out[4] = {tc, sc, 2.0f * ma, face};
               res[i].value = f2u(out[a.slot & 3]);
               continue;
            }
            bool max4 = a.op == AluOp::MAX4;
            acc = max4 ? -FLT_MAX : 0.0f;
            bool firstv = true;
            for (unsigned k = 0; k < cnt; k++) {
               if (alu[k].op != a.op || alu[k].slot > 3)
                  continue;
               float x = u2f(src[k][0]), y = u2f(src[k][1]);
               if (max4) {
                  acc = firstv ? x : std::max(acc, x);
               } else {
                  acc += a.op == AluOp::DOT4 ? emu::mul_legacy(x, y) : x * y;
               }
               firstv = false;
            }
            res[i].value = f2u(acc);
            continue;
         }
         if (a.flags & AF_INTERP) {
            const unsigned pair = a.slot & ~1u;
            uint32_t ival = src[i][0], jval = src[i][0];
            for (unsigned k = 0; k < cnt; k++) {
               if ((alu[k].slot & ~1u) != pair || !(alu[k].flags & AF_INTERP))
                  continue;
               if (alu[k].slot & 1)
                  ival = src[k][0];
               else
                  jval = src[k][0];
            }
            const DSrc &ps = a.src[1];
            unsigned chan = a.slot & 3;
            if (a.op == AluOp::INTERP_XY)
               chan = a.slot & 1;
            else if (a.op == AluOp::INTERP_ZW)
               chan = 2 + (a.slot & 1);
            Plane p{};
            if (ps.cls == SrcClass::Param && ps.index < num_params_)
               p = planes_[size_t(l) * num_params_ + ps.index];
            else
               fail(where(gi, a.slot) + ": INTERP source 1 is not a parameter");
            float r;
            switch (a.op) {
            case AluOp::INTERP_LOAD_P0: std::memcpy(&r, &p.p0[chan], 4); break;
            case AluOp::INTERP_LOAD_P10: r = p.p10[chan]; break;
            case AluOp::INTERP_LOAD_P20: r = p.p20[chan]; break;
            default: {
               float fi = u2f(ival), fj = u2f(jval);
               /* A constant plane returns P0 bit-exactly (-0.0, NaN payloads). */
               if (p.p10[chan] == 0.0f && p.p20[chan] == 0.0f)
                  std::memcpy(&r, &p.p0[chan], 4);
               else
                  r = (p.p0[chan] + fi * p.p10[chan]) + fj * p.p20[chan];
               break;
            }
            }
            std::memcpy(&res[i].value, &r, 4);
            continue;
         }
         if (!emu::alu_eval(chip, a.op, src[i][0], src[i][1], src[i][2], res[i]))
            fail(where(gi, a.slot) + ": " + std::string(alu_op_name(a.op)) +
                 " is not emulated");
      }
      /* Writes after every slot has read (VLIW). */
      for (unsigned i = 0; i < cnt; i++) {
         if (!exec[i])
            continue;
         const DAlu &a = alu[i];
         const AluInstr &in = *a.in;
         uint32_t v = res[i].value;
         if (a.float_dst)
            v = emu::apply_omod_clamp(v, in.dst.omod, in.dst.clamp);
         if (a.slot == kSlotT)
            ps_[l] = v;
         else
            pv_[l][a.slot & 3] = v;
         if (a.flags & AF_MOVA) {
            if (a.op == AluOp::SET_CF_IDX0 || a.op == AluOp::SET_CF_IDX1) {
               /* Copies AR.x into the wavefront's CF index register. */
               cf_idx_[a.op == AluOp::SET_CF_IDX1] = ar_[l][0];
               continue;
            }
            ar_[l][is_eg_or_later(chip) ? 0 : (in.dst.chan & 3)] = int32_t(v);
            if (!is_eg_or_later(chip))
               continue; /* R600/R700 MOVA* write only AR */
         }
         if (a.flags & (AF_PRED | AF_PRED_PUSH)) {
            if (in.update_pred)
               pred_ = res[i].cond ? (pred_ | (1ull << l)) : (pred_ & ~(1ull << l));
            if (in.update_exec_mask && !res[i].cond)
               new_active &= ~(1ull << l);
         }
         if ((a.flags & AF_KILL) && res[i].cond) {
            killed_ |= 1ull << l;
            new_active &= ~(1ull << l);
         }
         if (in.dst.write || alu_is_op3(a.op)) {
            int32_t r = in.dst.gpr + (in.dst.rel ? rel_index(in.index_mode, l) : 0);
            if (r < 0 || r >= int32_t(kNumGprs)) {
               fail(where(gi, a.slot) + ": relative destination GPR " + std::to_string(r) +
                    " out of range");
               continue;
            }
            gpr(l, unsigned(r))[in.dst.chan & 3] = v;
         }
      }
      result_.instructions += cnt;
   }
   active_ = new_active;
}

void Wave::run_alu_clause(const DCf &dc)
{
   for (unsigned gi = 0; gi < dc.num_groups && err_.empty(); gi++)
      run_group(dc, dec_.groups[dc.first_group + gi], gi, gi == 0);
   if (prog_.chip != ChipClass::R600) {
      for (unsigned l = 0; l < n_; l++)
         for (unsigned r = kSrcClauseTempFirst; r < kNumGprs; r++)
            gpr(l, r) = {kPoison, kPoison, kPoison, kPoison};
   }
}

/* Inverse of the CUBE face projection Mesa feeds the sampler: (s+1, t+1,
 * face) back to a direction with major axis 1, so the texture model picks
 * the same face and texel. */
void cube_direction(const float in[3], float out[3])
{
   float sc = 2.0f * (in[0] - 1.0f) - 1.0f;
   float tc = 2.0f * (in[1] - 1.0f) - 1.0f;
   int face = int(std::nearbyint(in[2]));
   switch (face) {
   case 0: out[0] = 1; out[1] = -tc; out[2] = -sc; break;
   case 1: out[0] = -1; out[1] = -tc; out[2] = sc; break;
   case 2: out[0] = sc; out[1] = 1; out[2] = tc; break;
   case 3: out[0] = sc; out[1] = -1; out[2] = -tc; break;
   case 4: out[0] = sc; out[1] = -tc; out[2] = 1; break;
   default: out[0] = -sc; out[1] = -tc; out[2] = -1; break;
   }
}

tgsi::TextureTarget kind_target(tex::Kind k, bool shadow)
{
   using T = tgsi::TextureTarget;
   switch (k) {
   case tex::Kind::Tex1D: return shadow ? T::Shadow1D : T::Tex1D;
   case tex::Kind::Tex2D: return shadow ? T::Shadow2D : T::Tex2D;
   case tex::Kind::Tex3D: return T::Tex3D;
   case tex::Kind::Cube: return shadow ? T::ShadowCube : T::Cube;
   case tex::Kind::Rect: return shadow ? T::ShadowRect : T::Rect;
   case tex::Kind::Array1D: return shadow ? T::ShadowArray1D : T::Array1D;
   case tex::Kind::Array2D: return shadow ? T::ShadowArray2D : T::Array2D;
   case tex::Kind::CubeArray: return shadow ? T::ShadowCubeArray : T::CubeArray;
   }
   return T::Unknown;
}

void Wave::run_tex(const TexInstr &t)
{
   const FetchOp op = t.op;
   float coord[kMaxWave][4];
   uint32_t raw[kMaxWave][4];
   for (unsigned l = 0; l < n_; l++) {
      int32_t r = t.src_gpr + (t.src_rel ? ar_[l][0] : 0);
      if (r < 0 || r >= int32_t(kNumGprs)) {
         fail(where() + ": relative fetch source GPR out of range");
         return;
      }
      const Vec4 &g = gpr(l, unsigned(r));
      for (int c = 0; c < 4; c++) {
         uint8_t s = t.src_sel[c];
         raw[l][c] = s < 4 ? g[s] : s == kSel1 ? f2u(1.0f) : 0u;
         coord[l][c] = u2f(raw[l][c]);
      }
   }
   const bool frag = info_.stage == tgsi::Processor::Fragment;
   Vec4 out[kMaxWave];
   bool write = true;
   int unit = int(t.resource_id) - int(opt_.texture_resource_base);
   if (t.resource_index_mode == 1 || t.resource_index_mode == 2)
      unit += cf_idx_[t.resource_index_mode - 1];
   const tex::TextureSet *set = res_.textures;
   const tex::Texture *texture = set && unit >= 0 ? set->texture(unsigned(unit)) : nullptr;

   switch (op) {
   case FetchOp::SET_GRADIENTS_H:
   case FetchOp::SET_GRADIENTS_V:
      for (unsigned l = 0; l < n_; l++)
         for (int c = 0; c < 4; c++)
            (op == FetchOp::SET_GRADIENTS_H ? grad_h_ : grad_v_)[l][c] = coord[l][c];
      return;
   case FetchOp::KEEP_GRADIENTS: return;
   case FetchOp::GET_GRADIENTS_H:
   case FetchOp::GET_GRADIENTS_V:
   case FetchOp::GET_GRADIENTS_H_FINE:
   case FetchOp::GET_GRADIENTS_V_FINE:
      for (unsigned l = 0; l < n_; l++) {
         unsigned q = l & ~3u, a = 0, b = 0;
         switch (op) {
         case FetchOp::GET_GRADIENTS_H: a = 0; b = 1; break;
         case FetchOp::GET_GRADIENTS_V: a = 0; b = 2; break;
         case FetchOp::GET_GRADIENTS_H_FINE: a = l & 2; b = a + 1; break;
         default: a = l & 1; b = a + 2; break;
         }
         unsigned la = q + a < n_ ? q + a : q, lb = q + b < n_ ? q + b : q;
         for (int c = 0; c < 4; c++)
            out[l][c] = f2u(frag ? coord[lb][c] - coord[la][c] : 0.0f);
      }
      break;
   default: {
      tex::SampleRequest req[kMaxWave];
      const bool shadow = op >= FetchOp::SAMPLE_C && op <= FetchOp::GATHER4_C_O;
      tex::Kind kind = texture ? texture->kind() : tex::Kind::Tex2D;
      for (unsigned l = 0; l < n_; l++) {
         tex::SampleRequest &r = req[l];
         r.target = texture ? kind_target(kind, shadow) : tgsi::TextureTarget::Unknown;
         for (int c = 0; c < 3; c++)
            r.offset[c] = t.offset[c] / 2;
         float cd[4] = {coord[l][0], coord[l][1], coord[l][2], coord[l][3]};
         if (texture && (kind == tex::Kind::Cube || kind == tex::Kind::CubeArray)) {
            float dir[3];
            cube_direction(cd, dir);
            cd[0] = dir[0];
            cd[1] = dir[1];
            cd[2] = dir[2];
         } else if (texture) {
            /* Unnormalized coordinates (coord_type 0) are texels: the model
             * wants [0,1] except for RECT, and array layers stay as they are. */
            int layer_axis = kind == tex::Kind::Array1D ? 1 : kind == tex::Kind::Array2D ? 2 : -1;
            for (int c = 0; c < 3; c++) {
               if (c == layer_axis)
                  continue;
               int size = c == 0 ? texture->width(0) : c == 1 ? texture->height(0) : texture->depth(0);
               bool rect = kind == tex::Kind::Rect;
               if (!t.coord_type[c] && !rect)
                  cd[c] /= float(size);
               else if (t.coord_type[c] && rect)
                  cd[c] *= float(size);
            }
         }
         for (int c = 0; c < 4; c++)
            r.coord[c] = cd[c];
         if (shadow) {
            /* Mesa puts the reference in w; the model wants it after the
             * coordinates of the target. */
            using T = tgsi::TextureTarget;
            if (r.target == T::Shadow1D || r.target == T::Shadow2D ||
                r.target == T::ShadowRect || r.target == T::ShadowArray1D)
               r.coord[2] = coord[l][3];
            else if (r.target == T::ShadowCubeArray)
               r.ref_ext = coord[l][3];
            else
               r.coord[3] = coord[l][3];
         }
         switch (op) {
         case FetchOp::SAMPLE:
         case FetchOp::SAMPLE_C: r.op = tex::SampleOp::Sample; break;
         case FetchOp::SAMPLE_LB:
         case FetchOp::SAMPLE_C_LB:
            r.op = tex::SampleOp::SampleBias;
            r.lod_or_bias = coord[l][3];
            break;
         case FetchOp::SAMPLE_L:
         case FetchOp::SAMPLE_C_L:
            r.op = tex::SampleOp::SampleLod;
            r.lod_or_bias = coord[l][3];
            break;
         case FetchOp::SAMPLE_LZ:
         case FetchOp::SAMPLE_C_LZ: r.op = tex::SampleOp::SampleLod; break;
         case FetchOp::SAMPLE_G:
         case FetchOp::SAMPLE_C_G:
            r.op = tex::SampleOp::SampleGrad;
            for (int c = 0; c < 3; c++) {
               r.ddx[c] = grad_h_[l][c];
               r.ddy[c] = grad_v_[l][c];
            }
            break;
         case FetchOp::LD:
            r.op = tex::SampleOp::Fetch;
            for (int c = 0; c < 3; c++)
               r.texel[c] = int32_t(raw[l][c]);
            r.level = int32_t(raw[l][3]);
            break;
         case FetchOp::GET_TEXTURE_RESINFO:
            r.op = tex::SampleOp::Query;
            r.level = int32_t(raw[l][0]);
            break;
         default:
            fail(where() + ": fetch " + std::string(fetch_op_name(op)) + " is not emulated");
            return;
         }
         if (t.lod_bias && (r.op == tex::SampleOp::Sample || r.op == tex::SampleOp::SampleBias)) {
            r.op = tex::SampleOp::SampleBias;
            r.lod_or_bias += float(int8_t(t.lod_bias << 1) >> 1) / 16.0f;
         }
      }
      if (frag && (req[0].op == tex::SampleOp::Sample || req[0].op == tex::SampleOp::SampleBias)) {
         for (unsigned q = 0; q < n_; q += 4) {
            unsigned l1 = q + 1 < n_ ? q + 1 : q, l2 = q + 2 < n_ ? q + 2 : q;
            for (unsigned l = q; l < q + 4 && l < n_; l++)
               for (int c = 0; c < 3; c++) {
                  req[l].ddx[c] = req[l1].coord[c] - req[q].coord[c];
                  req[l].ddy[c] = req[l2].coord[c] - req[q].coord[c];
               }
         }
      }
      uint64_t m = active_;
      while (m) {
         unsigned l = unsigned(std::countr_zero(m));
         m &= m - 1;
         out[l] = texture ? set->sample(unsigned(unit), req[l]) : Vec4{0, 0, 0, 0};
      }
      break;
   }
   }
   if (!write)
      return;
   uint64_t m = active_;
   while (m) {
      unsigned l = unsigned(std::countr_zero(m));
      m &= m - 1;
      int32_t r = t.dst_gpr + (t.dst_rel ? ar_[l][0] : 0);
      if (r < 0 || r >= int32_t(kNumGprs)) {
         fail(where() + ": relative fetch destination GPR out of range");
         return;
      }
      Vec4 &g = gpr(l, unsigned(r));
      Vec4 v = out[l];
      for (int c = 0; c < 4; c++) {
         uint8_t s = t.dst_sel[c];
         if (s < 4)
            g[c] = v[s];
         else if (s == kSel0)
            g[c] = 0;
         else if (s == kSel1)
            g[c] = f2u(1.0f);
      }
      result_.instructions++;
   }
}

void Wave::run_vtx(const VtxInstr &v)
{
   if (v.op != FetchOp::VFETCH) {
      fail(where() + ": fetch " + std::string(fetch_op_name(v.op)) + " is not emulated");
      return;
   }
   /* Only the constant-buffer fetch Mesa emits: 4 x 32-bit elements, index
    * in 16-byte units. */
   if (!v.use_const_fields && v.data_format != 35 && v.data_format != 34) {
      fail(where() + ": vertex fetch data format " + std::to_string(v.data_format) +
           " is not emulated");
      return;
   }
   uint64_t m = active_;
   while (m) {
      unsigned l = unsigned(std::countr_zero(m));
      m &= m - 1;
      int32_t sr = v.src_gpr + (v.src_rel ? ar_[l][0] : 0);
      int32_t dr = v.dst_gpr + (v.dst_rel ? ar_[l][0] : 0);
      if (sr < 0 || sr >= int32_t(kNumGprs) || dr < 0 || dr >= int32_t(kNumGprs)) {
         fail(where() + ": relative fetch GPR out of range");
         return;
      }
      int64_t idx = int64_t(int32_t(gpr(l, unsigned(sr))[v.src_sel_x & 3])) + v.offset / 16;
      Vec4 val{0, 0, 0, 0};
      int64_t buf = v.buffer_id;
      if (v.buffer_index_mode == 1 || v.buffer_index_mode == 2)
         buf += cf_idx_[v.buffer_index_mode - 1];
      if (buf >= 0 && size_t(buf) < res_.constants.size() && idx >= 0 &&
          size_t(idx) < res_.constants[size_t(buf)].size())
         val = res_.constants[size_t(buf)][size_t(idx)];
      Vec4 &g = gpr(l, unsigned(dr));
      for (int c = 0; c < 4; c++) {
         uint8_t s = v.dst_sel[c];
         if (s < 4)
            g[c] = val[s];
         else if (s == kSel0)
            g[c] = 0;
         else if (s == kSel1)
            g[c] = f2u(1.0f);
      }
      result_.instructions++;
   }
}

void Wave::run_fetch_clause(const CfInstr &cf)
{
   for (const FetchInstr &f : cf.fetches) {
      if (!err_.empty())
         return;
      if (const TexInstr *t = std::get_if<TexInstr>(&f))
         run_tex(*t);
      else
         run_vtx(std::get<VtxInstr>(f));
   }
}

void Wave::run_export(const CfInstr &cf)
{
   const ExportInfo &e = cf.exp;
   for (unsigned k = 0; k < e.burst_count; k++) {
      unsigned base = e.array_base + k;
      unsigned reg = e.gpr + k;
      if (reg >= kNumGprs) {
         fail(where() + ": export GPR out of range");
         return;
      }
      for (const ShaderIo &io : info_.outputs) {
         if (io.export_type != e.type || io.export_base != base || io.tgsi_index < 0)
            continue;
         /* Depth and stencil share pixel export 61: depth travels in x,
          * stencil in y, sample mask in z. */
         int only = -1, to = -1;
         if (e.type == 0 && base == 61) {
            if (io.semantic == tgsi::Semantic::Position) { only = 0; to = 2; }
            else if (io.semantic == tgsi::Semantic::Stencil) { only = 1; to = 1; }
            else if (io.semantic == tgsi::Semantic::SampleMask) { only = 2; to = 0; }
         }
         uint64_t m = active_;
         while (m) {
            unsigned l = unsigned(std::countr_zero(m));
            m &= m - 1;
            Lane &ln = lane(l);
            if (ln.outputs.size() <= size_t(io.tgsi_index))
               ln.outputs.resize(size_t(io.tgsi_index) + 1, Vec4{0, 0, 0, 0});
            const Vec4 &g = gpr(l, reg);
            for (int c = 0; c < 4; c++) {
               if (only >= 0 && c != only)
                  continue;
               uint8_t s = e.swizzle[c];
               uint32_t v;
               if (s < 4) v = g[s];
               else if (s == kSel0) v = 0;
               else if (s == kSel1) v = f2u(1.0f);
               else continue;
               ln.outputs[size_t(io.tgsi_index)][to >= 0 ? to : c] = v;
            }
         }
      }
   }
}

void Wave::run()
{
   preload();
   const auto &cfs = dec_.cf;
   const size_t size = cfs.size();
   uint64_t steps = 0;
   const uint64_t max_steps = (uint64_t(limits_.max_loop_iterations) + 2) * (size + 1) * 4 + 1024;
   pc_ = 0;
   while (pc_ < size && err_.empty()) {
      if (++steps > max_steps) {
         fail("CF program did not terminate");
         break;
      }
      const DCf &dc = cfs[pc_];
      const CfInstr &cf = *dc.cf;
      uint32_t next = pc_ + 1;
      result_.instructions += uint64_t(std::popcount(active_));
      switch (cf.op) {
      case CfOp::NOP:
      case CfOp::CALL_FS:
      case CfOp::WAIT_ACK:
      case CfOp::TEX_ACK:
      case CfOp::VTX_ACK:
      case CfOp::VTX_TC_ACK:
         break;
      case CfOp::ALU:
      case CfOp::ALU_EXT:
      case CfOp::ALU_VALID_PIXEL_MODE:
         run_alu_clause(dc);
         break;
      case CfOp::ALU_PUSH_BEFORE:
         push(active_);
         run_alu_clause(dc);
         break;
      case CfOp::ALU_POP_AFTER:
         run_alu_clause(dc);
         pop(1);
         break;
      case CfOp::ALU_POP2_AFTER:
         run_alu_clause(dc);
         pop(2);
         break;
      case CfOp::ALU_ELSE_AFTER:
         run_alu_clause(dc);
         do_else();
         break;
      case CfOp::ALU_BREAK:
      case CfOp::ALU_CONTINUE: {
         run_alu_clause(dc);
         for (size_t i = stack_.size(); i-- > 0;)
            if (stack_[i].loop) {
               (cf.op == CfOp::ALU_BREAK ? stack_[i].brk : stack_[i].cont) |= active_;
               break;
            }
         active_ = 0;
         break;
      }
      case CfOp::TEX:
      case CfOp::VTX:
      case CfOp::VTX_TC:
         run_fetch_clause(cf);
         break;
      case CfOp::PUSH:
         push(active_);
         if (!active_) {
            pop(cf.pop_count + 1);
            next = cf.target;
         }
         break;
      case CfOp::JUMP:
         if (!active_) {
            pop(cf.pop_count);
            next = cf.target;
         }
         break;
      case CfOp::ELSE:
         do_else();
         if (!active_) {
            pop(cf.pop_count);
            next = cf.target;
         }
         break;
      case CfOp::POP:
         pop(cf.pop_count);
         break;
      case CfOp::LOOP_START:
      case CfOp::LOOP_START_DX10:
      case CfOp::LOOP_START_NO_AL: {
         Frame f;
         f.loop = true;
         f.mask = active_;
         f.start = pc_;
         stack_.push_back(f);
         loops_++;
         check_stack();
         if (!active_) {
            stack_.pop_back();
            loops_--;
            next = dc.loop_end ? dc.loop_end + 1 : cf.target;
         }
         break;
      }
      case CfOp::LOOP_END: {
         if (stack_.empty() || !stack_.back().loop) {
            fail(where() + ": LOOP_END without a loop frame on the stack");
            break;
         }
         Frame &f = stack_.back();
         uint64_t again = (active_ | f.cont) & ~f.brk & ~killed_ & ~done_;
         f.cont = 0;
         if (again) {
            uint64_t m = again;
            while (m) {
               unsigned l = unsigned(std::countr_zero(m));
               m &= m - 1;
               Lane &ln = lane(l);
               if (++ln.loop_iterations > limits_.max_loop_iterations) {
                  done_ |= 1ull << l;
                  again &= ~(1ull << l);
                  result_.status = RunStatus::BudgetExceeded;
                  result_.message = "loop budget of " +
                                    std::to_string(limits_.max_loop_iterations) +
                                    " iterations exceeded";
               }
            }
         }
         if (again) {
            f.index++;
            active_ = again;
            next = f.start + 1;
         } else {
            uint64_t m = f.mask;
            stack_.pop_back();
            loops_--;
            active_ = m & ~removed();
         }
         break;
      }
      case CfOp::LOOP_BREAK:
      case CfOp::LOOP_CONTINUE: {
         bool found = false;
         for (size_t i = stack_.size(); i-- > 0;)
            if (stack_[i].loop) {
               (cf.op == CfOp::LOOP_BREAK ? stack_[i].brk : stack_[i].cont) |= active_;
               found = true;
               break;
            }
         if (!found)
            fail(where() + ": " + std::string(cf_op_name(cf.op)) + " outside a loop");
         active_ = 0;
         break;
      }
      case CfOp::EXPORT:
      case CfOp::EXPORT_DONE:
         run_export(cf);
         break;
      case CfOp::RET:
         done_ |= active_;
         active_ = 0;
         break;
      case CfOp::KILL:
         killed_ |= active_;
         active_ = 0;
         break;
      case CfOp::CF_END:
         next = uint32_t(size);
         break;
      default:
         fail(where() + ": " + std::string(cf_op_name(cf.op)) + " is not emulated");
         break;
      }
      if (cf.end_of_program)
         break;
      pc_ = next;
   }
   for (unsigned l = 0; l < n_; l++)
      if ((killed_ >> l) & 1)
         lane(l).killed = true;
   if (!err_.empty()) {
      result_.status = RunStatus::Error;
      result_.message = err_;
   }
}

} // namespace

namespace {

RunResult run_decoded(const Program &prog, const ShaderInfo &info, const Decoded &dec,
                      const Resources &res, Batch &batch, const RunLimits &limits,
                      const EmuOptions &options)
{
   RunResult result;
   if (!dec.error.empty())
      return RunResult{RunStatus::Error, dec.error, 0};
   unsigned wave = std::clamp(options.wave_size & ~3u, 4u, kMaxWave);
   /* The layout must be one the hardware can have: parameters 0-31, TGSI
    * registers of sane size. */
   for (const ShaderIo &io : info.inputs)
      if (io.lds_pos >= 32 || io.tgsi_index > 65535)
         return RunResult{RunStatus::Error, "input layout out of range (lds_pos " +
                                               std::to_string(io.lds_pos) + ", tgsi_index " +
                                               std::to_string(io.tgsi_index) + ")", 0};
   for (const ShaderIo &io : info.outputs)
      if (io.tgsi_index > 65535)
         return RunResult{RunStatus::Error, "output tgsi_index " +
                                               std::to_string(io.tgsi_index) + " out of range", 0};
   /* Make sure every declared output exists, like the reference does. */
   size_t nout = 0;
   for (const ShaderIo &io : info.outputs)
      if (io.tgsi_index >= 0)
         nout = std::max(nout, size_t(io.tgsi_index) + 1);
   for (Lane &l : batch.lanes)
      if (l.outputs.size() < nout)
         l.outputs.resize(nout, Vec4{0, 0, 0, 0});
   for (size_t first = 0; first < batch.lanes.size(); first += wave) {
      unsigned n = unsigned(std::min<size_t>(wave, batch.lanes.size() - first));
      RunResult r;
      Wave w(prog, info, dec, res, limits, options, batch, first, n, r);
      w.run();
      result.instructions += r.instructions;
      if (r.status == RunStatus::Error)
         return RunResult{RunStatus::Error, r.message, result.instructions};
      if (r.status == RunStatus::BudgetExceeded && result.status == RunStatus::Ok) {
         result.status = r.status;
         result.message = r.message;
      }
   }
   return result;
}

} // namespace

RunResult emulate(const Program &prog, const ShaderInfo &info, const Resources &res,
                  Batch &batch, const RunLimits &limits, const EmuOptions &options)
{
   const Decoded dec = decode(prog);
   return run_decoded(prog, info, dec, res, batch, limits, options);
}

R600Executable::R600Executable(Program prog, ShaderInfo info, EmuOptions options)
   : prog_(std::move(prog)), info_(std::move(info)), options_(options)
{
   /* Decoded once; it points into prog_, which this object owns and never
    * changes. */
   decoded_ = std::make_shared<const emu_internal::Decoded>(decode(prog_));
}

R600Executable::~R600Executable() = default;

RunResult R600Executable::run(const Resources &res, Batch &batch, const RunLimits &limits) const
{
   return run_decoded(prog_, info_, *decoded_, res, batch, limits, options_);
}

std::string R600Executable::listing() const
{
   Diagnostics diags;
   auto words = assemble(prog_, diags);
   if (!words)
      return "; cannot assemble: " + diags.str();
   return print_program(prog_, *words);
}

} // namespace sbcc::r600
