/*
 * Scalar ALU semantics of the r600 family, as the emulator models them.
 * Where the reference interpreter's TGSI semantics differ (non-IEEE MUL,
 * DX9 MAX/MIN, clamped transcendentals) the hardware rule is implemented
 * and the backend is expected to use the IEEE/DX10 variant when it matters.
 */
#include "r600/r600_emu_alu.h"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/exec.h"

namespace sbcc::r600::emu {

namespace {

constexpr uint32_t kTrue = 0xffffffffu;

int32_t as_i(uint32_t v) { return static_cast<int32_t>(v); }
uint32_t fbits(float f) { return f2u(f); }

bool compare(uint32_t flags, uint32_t a, uint32_t b)
{
   if (flags & AF_INT_CMP) {
      int32_t x = as_i(a), y = as_i(b);
      if (flags & AF_CC_E) return x == y;
      if (flags & AF_CC_GT) return x > y;
      if (flags & AF_CC_GE) return x >= y;
      if (flags & AF_CC_NE) return x != y;
      if (flags & AF_CC_LT) return x < y;
      if (flags & AF_CC_LE) return x <= y;
      return false;
   }
   if (flags & AF_UINT_CMP) {
      if (flags & AF_CC_E) return a == b;
      if (flags & AF_CC_GT) return a > b;
      if (flags & AF_CC_GE) return a >= b;
      if (flags & AF_CC_NE) return a != b;
      if (flags & AF_CC_LT) return a < b;
      if (flags & AF_CC_LE) return a <= b;
      return false;
   }
   float x = u2f(a), y = u2f(b);
   if (flags & AF_CC_E) return x == y;
   if (flags & AF_CC_GT) return x > y;
   if (flags & AF_CC_GE) return x >= y;
   if (flags & AF_CC_NE) return x != y;
   if (flags & AF_CC_LT) return x < y;
   if (flags & AF_CC_LE) return x <= y;
   return false;
}

/* Float to integer with saturation; NaN gives 0 (Evergreen behaviour). */
int32_t f2i_sat(double d)
{
   if (std::isnan(d))
      return 0;
   if (d >= 2147483647.0)
      return INT32_MAX;
   if (d <= -2147483648.0)
      return INT32_MIN;
   return static_cast<int32_t>(d);
}

uint32_t f2u_sat(double d)
{
   if (std::isnan(d) || d <= 0.0)
      return 0;
   if (d >= 4294967295.0)
      return UINT32_MAX;
   return static_cast<uint32_t>(d);
}

float clamp_flt_max(float f)
{
   if (std::isinf(f))
      return f > 0 ? FLT_MAX : -FLT_MAX;
   return f;
}

uint32_t half_from_float(float f)
{
   /* Round to nearest even, with overflow to infinity and subnormals. */
   uint32_t x = f2u(f);
   uint32_t sign = (x >> 16) & 0x8000u;
   uint32_t absx = x & 0x7fffffffu;
   if (absx > 0x7f800000u)
      return sign | 0x7e00u;
   if (absx >= 0x477ff000u) /* rounds to >= 65520 */
      return sign | 0x7c00u;
   if (absx < 0x38800000u) { /* subnormal half */
      float v = std::fabs(f) * 16777216.0f; /* 2^24 */
      return sign | static_cast<uint32_t>(std::nearbyint(v));
   }
   uint32_t e = (absx >> 23) - 127 + 15;
   uint32_t m = absx & 0x7fffffu;
   uint32_t h = (e << 10) | (m >> 13);
   uint32_t rest = m & 0x1fffu;
   if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      h++;
   return sign | h;
}

float float_from_half(uint32_t h)
{
   uint32_t sign = (h & 0x8000u) << 16;
   uint32_t e = (h >> 10) & 0x1fu;
   uint32_t m = h & 0x3ffu;
   if (e == 0)
      return (h & 0x8000u ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(m), -24);
   if (e == 31)
      return u2f(sign | 0x7f800000u | (m << 13));
   return u2f(sign | ((e - 15 + 127) << 23) | (m << 13));
}

} // namespace

float mul_legacy(float a, float b)
{
   if (a == 0.0f || b == 0.0f)
      return 0.0f;
   return a * b;
}

uint32_t apply_omod_clamp(uint32_t v, unsigned omod, bool clamp)
{
   if (!omod && !clamp)
      return v;
   float f = u2f(v);
   switch (omod) {
   case 1: f *= 2.0f; break;
   case 2: f *= 4.0f; break;
   case 3: f *= 0.5f; break;
   default: break;
   }
   if (clamp) {
      /* NaN clamps to 0, like the hardware's DX10 clamp. */
      if (!(f > 0.0f))
         f = 0.0f;
      else if (f > 1.0f)
         f = 1.0f;
   }
   return f2u(f);
}

bool alu_eval(ChipClass chip, AluOp op, uint32_t a, uint32_t b, uint32_t c, SlotResult &out)
{
   const uint32_t flags = alu_op_info(op).flags;
   const float fa = u2f(a), fb = u2f(b), fc = u2f(c);
   uint32_t r = 0;
   bool cond = false;

   if (flags & (AF_SET | AF_PRED | AF_PRED_PUSH | AF_KILL)) {
      switch (op) {
      case AluOp::PRED_SET_INV:
         cond = fa == 0.0f;
         out.value = fbits(cond ? 1.0f : 0.0f);
         out.cond = cond;
         return true;
      case AluOp::PRED_SET_CLR:
         out.value = fbits(FLT_MAX);
         out.cond = false;
         return true;
      case AluOp::PRED_SET_RESTORE:
         cond = fa == 0.0f;
         out.value = a;
         out.cond = cond;
         return true;
      case AluOp::PRED_SET_POP:
         cond = fa <= 0.0f;
         out.value = cond ? fbits(0.0f) : fbits(fa - 1.0f);
         out.cond = cond;
         return true;
      default: break;
      }
      cond = compare(flags, a, b);
      if (flags & AF_SET) {
         if (flags & (AF_INT_DST | AF_UINT_DST))
            r = cond ? kTrue : 0u;
         else
            r = fbits(cond ? 1.0f : 0.0f);
      } else {
         r = fbits(cond ? 1.0f : 0.0f);
      }
      out.value = r;
      out.cond = cond;
      return true;
   }

   switch (op) {
   case AluOp::ADD: r = fbits(fa + fb); break;
   case AluOp::MUL: r = fbits(mul_legacy(fa, fb)); break;
   case AluOp::MUL_IEEE: r = fbits(fa * fb); break;
   case AluOp::MAX: r = fa >= fb ? a : b; break;
   case AluOp::MIN: r = fa < fb ? a : b; break;
   case AluOp::MAX_DX10:
      r = std::isnan(fa) ? b : std::isnan(fb) ? a : (fa > fb ? a : b);
      break;
   case AluOp::MIN_DX10:
      r = std::isnan(fa) ? b : std::isnan(fb) ? a : (fa < fb ? a : b);
      break;
   case AluOp::FRACT: r = fbits(fa - std::floor(fa)); break;
   case AluOp::TRUNC: r = fbits(std::trunc(fa)); break;
   case AluOp::CEIL: r = fbits(std::ceil(fa)); break;
   case AluOp::RNDNE: r = fbits(std::nearbyint(fa)); break;
   case AluOp::FLOOR: r = fbits(std::floor(fa)); break;
   case AluOp::ASHR_INT: r = static_cast<uint32_t>(as_i(a) >> (b & 31)); break;
   case AluOp::LSHR_INT: r = a >> (b & 31); break;
   case AluOp::LSHL_INT: r = a << (b & 31); break;
   case AluOp::MOV: r = a; break;
   case AluOp::ALU_NOP: r = 0; break;
   case AluOp::AND_INT: r = a & b; break;
   case AluOp::OR_INT: r = a | b; break;
   case AluOp::XOR_INT: r = a ^ b; break;
   case AluOp::NOT_INT: r = ~a; break;
   case AluOp::ADD_INT: r = a + b; break;
   case AluOp::SUB_INT: r = a - b; break;
   case AluOp::MAX_INT: r = as_i(a) > as_i(b) ? a : b; break;
   case AluOp::MIN_INT: r = as_i(a) < as_i(b) ? a : b; break;
   case AluOp::MAX_UINT: r = a > b ? a : b; break;
   case AluOp::MIN_UINT: r = a < b ? a : b; break;
   case AluOp::FLT_TO_INT:
   case AluOp::FLT_TO_INT_TRUNC: r = static_cast<uint32_t>(f2i_sat(std::trunc(fa))); break;
   case AluOp::FLT_TO_INT_FLOOR: r = static_cast<uint32_t>(f2i_sat(std::floor(fa))); break;
   case AluOp::FLT_TO_INT_RPI: r = static_cast<uint32_t>(f2i_sat(std::floor(fa + 0.5f))); break;
   case AluOp::FLT_TO_UINT: r = f2u_sat(std::trunc(fa)); break;
   case AluOp::INT_TO_FLT: r = fbits(static_cast<float>(as_i(a))); break;
   case AluOp::UINT_TO_FLT: r = fbits(static_cast<float>(a)); break;
   case AluOp::BFREV_INT: r = 0; for (int i = 0; i < 32; i++) r |= ((a >> i) & 1u) << (31 - i); break;
   case AluOp::ADDC_UINT: r = (uint64_t(a) + b) >> 32 ? 1u : 0u; break;
   case AluOp::SUBB_UINT: r = a < b ? 1u : 0u; break;
   case AluOp::MUL_INT24: {
      int32_t x = as_i(a << 8) >> 8, y = as_i(b << 8) >> 8;
      r = static_cast<uint32_t>(int64_t(x) * y);
      break;
   }
   case AluOp::MULHI_INT24: {
      int32_t x = as_i(a << 8) >> 8, y = as_i(b << 8) >> 8;
      r = static_cast<uint32_t>((int64_t(x) * y) >> 32);
      break;
   }
   case AluOp::MUL_UINT24: r = (a & 0xffffffu) * (b & 0xffffffu); break;
   case AluOp::MULHI_UINT24: r = uint32_t((uint64_t(a & 0xffffffu) * (b & 0xffffffu)) >> 32); break;
   case AluOp::EXP_IEEE: r = fbits(std::exp2(fa)); break;
   case AluOp::LOG_IEEE: r = fbits(std::log2(fa)); break;
   case AluOp::LOG_CLAMPED: r = fbits(clamp_flt_max(std::log2(fa))); break;
   case AluOp::RECIP_IEEE:
   case AluOp::RECIP_FF: r = fbits(1.0f / fa); break;
   case AluOp::RECIP_CLAMPED: r = fbits(clamp_flt_max(1.0f / fa)); break;
   case AluOp::RECIPSQRT_IEEE:
   case AluOp::RECIPSQRT_FF: r = fbits(1.0f / std::sqrt(fa)); break;
   case AluOp::RECIPSQRT_CLAMPED: r = fbits(clamp_flt_max(1.0f / std::sqrt(fa))); break;
   case AluOp::SQRT_IEEE: r = fbits(std::sqrt(fa)); break;
   case AluOp::SIN:
   case AluOp::COS: {
      /* R600 takes radians, R700 and later one revolution per unit (Mesa
       * scales by 1/(2*pi) and reduces to [-0.5, 0.5] for them). */
      double x = chip == ChipClass::R600 ? double(fa) : double(fa) * 6.283185307179586;
      r = fbits(static_cast<float>(op == AluOp::SIN ? std::sin(x) : std::cos(x)));
      break;
   }
   case AluOp::MULLO_INT:
   case AluOp::MULLO_UINT: r = a * b; break;
   case AluOp::MULHI_INT: r = static_cast<uint32_t>((int64_t(as_i(a)) * as_i(b)) >> 32); break;
   case AluOp::MULHI_UINT: r = static_cast<uint32_t>((uint64_t(a) * b) >> 32); break;
   case AluOp::RECIP_UINT: r = a == 0 ? UINT32_MAX : static_cast<uint32_t>(std::min<uint64_t>((uint64_t(1) << 32) / a, UINT32_MAX)); break;
   case AluOp::RECIP_INT: {
      int64_t x = as_i(a);
      r = x == 0 ? UINT32_MAX : static_cast<uint32_t>(int64_t(0x100000000ll / x));
      break;
   }
   case AluOp::BFM_INT: r = ((1u << (a & 31)) - 1u) << (b & 31); break;
   case AluOp::FLT32_TO_FLT16: r = half_from_float(fa); break;
   case AluOp::FLT16_TO_FLT32: r = fbits(float_from_half(a & 0xffffu)); break;
   case AluOp::UBYTE0_FLT: r = fbits(float(a & 0xffu)); break;
   case AluOp::UBYTE1_FLT: r = fbits(float((a >> 8) & 0xffu)); break;
   case AluOp::UBYTE2_FLT: r = fbits(float((a >> 16) & 0xffu)); break;
   case AluOp::UBYTE3_FLT: r = fbits(float(a >> 24)); break;
   case AluOp::BCNT_INT: r = static_cast<uint32_t>(std::popcount(a)); break;
   case AluOp::FFBH_UINT: r = a ? static_cast<uint32_t>(std::countl_zero(a)) : kTrue; break;
   case AluOp::FFBL_INT: r = a ? static_cast<uint32_t>(std::countr_zero(a)) : kTrue; break;
   case AluOp::FFBH_INT: {
      uint32_t x = as_i(a) < 0 ? ~a : a;
      r = x ? static_cast<uint32_t>(std::countl_zero(x)) : kTrue;
      break;
   }
   case AluOp::BFE_UINT: {
      unsigned off = b & 31, w = c & 31;
      r = w == 0 ? 0 : (off + w < 32 ? (a << (32 - off - w)) >> (32 - w) : a >> off);
      break;
   }
   case AluOp::BFE_INT: {
      unsigned off = b & 31, w = c & 31;
      r = w == 0 ? 0
                 : static_cast<uint32_t>(off + w < 32 ? as_i(a << (32 - off - w)) >> (32 - w)
                                                      : as_i(a) >> off);
      break;
   }
   case AluOp::BFI_INT: r = (a & b) | (~a & c); break;
   case AluOp::BIT_ALIGN_INT: r = static_cast<uint32_t>(((uint64_t(a) << 32) | b) >> (c & 31)); break;
   case AluOp::BYTE_ALIGN_INT: r = static_cast<uint32_t>(((uint64_t(a) << 32) | b) >> (8 * (c & 3))); break;
   case AluOp::FMA: r = fbits(std::fma(fa, fb, fc)); break;
   case AluOp::MULADD: r = fbits(mul_legacy(fa, fb) + fc); break;
   case AluOp::MULADD_M2: r = fbits((mul_legacy(fa, fb) + fc) * 2.0f); break;
   case AluOp::MULADD_M4: r = fbits((mul_legacy(fa, fb) + fc) * 4.0f); break;
   case AluOp::MULADD_D2: r = fbits((mul_legacy(fa, fb) + fc) * 0.5f); break;
   case AluOp::MULADD_IEEE: r = fbits(fa * fb + fc); break;
   case AluOp::MULADD_IEEE_M2: r = fbits((fa * fb + fc) * 2.0f); break;
   case AluOp::MULADD_IEEE_M4: r = fbits((fa * fb + fc) * 4.0f); break;
   case AluOp::MULADD_IEEE_D2: r = fbits((fa * fb + fc) * 0.5f); break;
   case AluOp::MULADD_INT24: {
      int32_t x = as_i(a << 8) >> 8, y = as_i(b << 8) >> 8;
      r = static_cast<uint32_t>(int64_t(x) * y) + c;
      break;
   }
   case AluOp::MULADD_UINT24: r = (a & 0xffffffu) * (b & 0xffffffu) + c; break;
   case AluOp::CNDE: r = fa == 0.0f ? b : c; break;
   case AluOp::CNDGT: r = fa > 0.0f ? b : c; break;
   case AluOp::CNDGE: r = fa >= 0.0f ? b : c; break;
   case AluOp::CNDE_INT: r = a == 0 ? b : c; break;
   case AluOp::CNDGT_INT: r = as_i(a) > 0 ? b : c; break;
   case AluOp::CNDGE_INT: r = as_i(a) >= 0 ? b : c; break;
   case AluOp::MUL_LIT:
   case AluOp::MUL_LIT_M2:
   case AluOp::MUL_LIT_M4:
   case AluOp::MUL_LIT_D2: {
      /* LIT's specular term: log2(y) * w when x > 0, else -MAX so that the
       * following EXP gives 0. */
      float v = fc > 0.0f ? mul_legacy(fa, fb) : -FLT_MAX;
      if (op == AluOp::MUL_LIT_M2) v *= 2.0f;
      if (op == AluOp::MUL_LIT_M4) v *= 4.0f;
      if (op == AluOp::MUL_LIT_D2) v *= 0.5f;
      r = fbits(v);
      break;
   }
   case AluOp::MOVA_INT:
   case AluOp::MOVA_GPR_INT: r = a; break;
   case AluOp::MOVA:
      r = static_cast<uint32_t>(f2i_sat(std::nearbyint(fa)));
      break;
   case AluOp::MOVA_FLOOR: r = static_cast<uint32_t>(f2i_sat(std::floor(fa))); break;
   case AluOp::SET_CF_IDX0:
   case AluOp::SET_CF_IDX1: r = a; break;
   case AluOp::GROUP_BARRIER:
   case AluOp::GROUP_SEQ_BEGIN:
   case AluOp::GROUP_SEQ_END: r = 0; break;
   default: return false;
   }
   out.value = r;
   out.cond = cond;
   return true;
}

} // namespace sbcc::r600::emu
