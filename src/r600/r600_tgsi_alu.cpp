/*
 * TGSI opcode lowering for the plain r600 translator: one TGSI instruction
 * becomes a few ALU groups (or a fetch) writing the destination channels.
 */
#include <algorithm>
#include <cmath>
#include <functional>

#include "r600/r600_tgsi_impl.h"

namespace sbcc::r600::tgsi_backend {

using namespace tgsi;

bool Translator::chan_on(const Instruction &in, unsigned c) const
{
   return !in.dst.empty() && (in.dst[0].write_mask & (1u << c));
}

bool Translator::sat(const Instruction &in) const { return in.saturate; }

/* dst.c = op(src[order[0]].c, ...), each channel in its own vector slot
 * (or the trans slot when the op has no vector form on this chip). */
void Translator::emit_component(const Instruction &in, AluOp op, std::array<int, 3> order)
{
   const unsigned n = alu_op_info(op).num_src;
   const bool fdst = !(alu_op_info(op).flags & (AF_INT_DST | AF_UINT_DST));
   for (unsigned c = 0; c < 4; c++) {
      if (!chan_on(in, c))
         continue;
      PInstr p;
      p.op = op;
      for (unsigned s = 0; s < n; s++)
         p.src[s] = src(in, unsigned(order[s]), c);
      p.dst.gpr = uint8_t(dst_gpr);
      p.dst.chan = uint8_t(c);
      p.dst.clamp = sat(in) && fdst;
      b.add(p);
   }
   b.flush();
}

/* A destination that is also a source: one group reads everything before
 * it writes, so when all channels fit one group no copy is needed. */
bool Translator::try_in_place(const Instruction &in, AluOp op, std::array<int, 3> order)
{
   const unsigned n = alu_op_info(op).num_src;
   const bool fdst = !(alu_op_info(op).flags & (AF_INT_DST | AF_UINT_DST));
   const unsigned real = reg_gpr(in.dst[0].file, in.dst[0].index.value);
   std::vector<PInstr> ps;
   for (unsigned c = 0; c < 4; c++) {
      if (!chan_on(in, c))
         continue;
      PInstr p;
      p.op = op;
      for (unsigned s = 0; s < n; s++)
         p.src[s] = src(in, unsigned(order[s]), c);
      p.dst.gpr = uint8_t(real);
      p.dst.chan = uint8_t(c);
      p.dst.clamp = sat(in) && fdst;
      ps.push_back(p);
   }
   if (!b.try_group(ps))
      return false;
   dst_tmp = false;
   return true;
}

/* R700 has no BFE: shifts and masks with the D3D11 rules of
 * docs/semantics.md (bits == 0 -> 0; off + bits >= 32 -> src >> off). */
void Translator::emit_bfe_r700(const Instruction &in, bool is_signed)
{
   const unsigned off = scratch(), bits = scratch(), sum = scratch(), v = scratch(),
                  w = scratch();
   auto each = [&](auto fn) {
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            fn(c);
      b.flush();
   };
   each([&](unsigned c) { b.add(AluOp::AND_INT, off, c, {src(in, 1, c), imm(31)}); });
   each([&](unsigned c) { b.add(AluOp::AND_INT, bits, c, {src(in, 2, c), imm(31)}); });
   each([&](unsigned c) { b.add(AluOp::ADD_INT, sum, c, {gpr(off, c), gpr(bits, c)}); });
   if (!is_signed) {
      /* w = (1 << bits) - 1, v = (x >> off) & w */
      each([&](unsigned c) { b.add(AluOp::LSHL_INT, w, c, {inl(kSrc_1_INT), gpr(bits, c)}); });
      each([&](unsigned c) { b.add(AluOp::SUB_INT, w, c, {gpr(w, c), inl(kSrc_1_INT)}); });
      each([&](unsigned c) { b.add(AluOp::LSHR_INT, v, c, {src(in, 0, c), gpr(off, c)}); });
      each([&](unsigned c) { b.add(AluOp::AND_INT, w, c, {gpr(v, c), gpr(w, c)}); });
   } else {
      /* w = (x << (32 - sum)) >> (32 - bits) arithmetic, v = x >> off */
      each([&](unsigned c) { b.add(AluOp::SUB_INT, w, c, {imm(32), gpr(sum, c)}); });
      each([&](unsigned c) { b.add(AluOp::LSHL_INT, w, c, {src(in, 0, c), gpr(w, c)}); });
      each([&](unsigned c) { b.add(AluOp::SUB_INT, v, c, {imm(32), gpr(bits, c)}); });
      each([&](unsigned c) { b.add(AluOp::ASHR_INT, w, c, {gpr(w, c), gpr(v, c)}); });
      each([&](unsigned c) { b.add(AluOp::ASHR_INT, v, c, {src(in, 0, c), gpr(off, c)}); });
   }
   /* sum >= 32: the plain shift; then bits == 0: 0. */
   each([&](unsigned c) { b.add(AluOp::SETGE_UINT, sum, c, {gpr(sum, c), imm(32)}); });
   if (!is_signed)
      each([&](unsigned c) { b.add(AluOp::LSHR_INT, v, c, {src(in, 0, c), gpr(off, c)}); });
   each([&](unsigned c) { b.add(AluOp::CNDE_INT, w, c, {gpr(sum, c), gpr(w, c), gpr(v, c)}); });
   each([&](unsigned c) {
      b.add(AluOp::CNDE_INT, dst_gpr, c, {gpr(bits, c), inl(kSrc_0), gpr(w, c)});
   });
}

/* Integer division as Mesa: RECIP_UINT estimate, quotient from the high
 * product, one correction either way; x/0 and x%0 give 0xffffffff before
 * the sign fix-up (docs/semantics.md).  Signed forms divide magnitudes.
 * Cayman has no RECIP_UINT: the quotient estimate comes from RECIP_IEEE
 * and one float refinement. */
void Translator::emit_divmod(const Instruction &in)
{
   const bool is_signed = in.opcode == Opcode::IDIV || in.opcode == Opcode::MOD;
   const bool mod = in.opcode == Opcode::UMOD || in.opcode == Opcode::MOD;
   const unsigned N = scratch(), D = scratch(), Q = scratch(), P = scratch(), R = scratch(),
                  G = scratch(), O = scratch();
   auto each = [&](auto fn) {
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            fn(c);
      b.flush();
   };
   auto trans = [&](AluOp op, unsigned dst, std::function<std::vector<Opnd>(unsigned)> srcs) {
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            auto v = srcs(c);
            PInstr p;
            p.op = op;
            for (size_t k = 0; k < v.size() && k < 3; k++)
               p.src[k] = v[k];
            p.dst.gpr = uint8_t(dst);
            p.dst.chan = uint8_t(c);
            b.add(p);
            b.flush();
         }
   };
   if (is_signed) {
      each([&](unsigned c) { b.add(AluOp::SUB_INT, N, c, {inl(kSrc_0), src(in, 0, c)}); });
      each([&](unsigned c) { b.add(AluOp::SUB_INT, D, c, {inl(kSrc_0), src(in, 1, c)}); });
      each([&](unsigned c) { b.add(AluOp::MAX_INT, N, c, {src(in, 0, c), gpr(N, c)}); });
      each([&](unsigned c) { b.add(AluOp::MAX_INT, D, c, {src(in, 1, c), gpr(D, c)}); });
   } else {
      each([&](unsigned c) { b.add(AluOp::MOV, N, c, {src(in, 0, c)}); });
      each([&](unsigned c) { b.add(AluOp::MOV, D, c, {src(in, 1, c)}); });
   }
   if (chip == ChipClass::Cayman) {
      /* Q = quotient from float: F = (1 - 2^-18) / float(D), Q = f2u(N * F),
       * then Q += f2u((N - Q*D) * F).  The factor keeps both estimates
       * below the true quotient whatever the rounding of UINT_TO_FLT,
       * RECIP_IEEE and MUL (a model of this sequence with every float
       * result off by up to 3 ulp either way never overshoots), so N - Q*D
       * cannot wrap and Q ends at most 1 low, which the common correction
       * below fixes.  With that correction's MULLO it is three replicated
       * ops per channel, as many as the RECIP_UINT path, where Mesa's Newton
       * step on the reciprocal takes six. */
      each([&](unsigned c) { b.add(AluOp::UINT_TO_FLT, G, c, {gpr(D, c)}); });
      trans(AluOp::RECIP_IEEE, G, [&](unsigned c) { return std::vector<Opnd>{gpr(G, c)}; });
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, G, c, {gpr(G, c), imm(0x3f7fffc0u)}); });
      each([&](unsigned c) { b.add(AluOp::UINT_TO_FLT, Q, c, {gpr(N, c)}); });
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, Q, c, {gpr(Q, c), gpr(G, c)}); });
      each([&](unsigned c) { b.add(AluOp::FLT_TO_UINT, Q, c, {gpr(Q, c)}); });
      trans(AluOp::MULLO_UINT, P, [&](unsigned c) { return std::vector<Opnd>{gpr(Q, c), gpr(D, c)}; });
      each([&](unsigned c) { b.add(AluOp::SUB_INT, R, c, {gpr(N, c), gpr(P, c)}); });
      each([&](unsigned c) { b.add(AluOp::UINT_TO_FLT, R, c, {gpr(R, c)}); });
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, R, c, {gpr(R, c), gpr(G, c)}); });
      each([&](unsigned c) { b.add(AluOp::FLT_TO_UINT, R, c, {gpr(R, c)}); });
      each([&](unsigned c) { b.add(AluOp::ADD_INT, Q, c, {gpr(Q, c), gpr(R, c)}); });
   } else {
      trans(AluOp::RECIP_UINT, Q, [&](unsigned c) { return std::vector<Opnd>{gpr(D, c)}; });
      trans(AluOp::MULHI_UINT, Q, [&](unsigned c) { return std::vector<Opnd>{gpr(N, c), gpr(Q, c)}; });
   }
   trans(AluOp::MULLO_UINT, P, [&](unsigned c) { return std::vector<Opnd>{gpr(Q, c), gpr(D, c)}; });
   each([&](unsigned c) { b.add(AluOp::SUB_INT, R, c, {gpr(N, c), gpr(P, c)}); });
   each([&](unsigned c) { b.add(AluOp::SETGE_UINT, G, c, {gpr(R, c), gpr(D, c)}); });
   each([&](unsigned c) { b.add(AluOp::SETGE_UINT, O, c, {gpr(N, c), gpr(P, c)}); });
   each([&](unsigned c) { b.add(AluOp::AND_INT, G, c, {gpr(G, c), gpr(O, c)}); });
   /* P = value + step (up), N = value - step (down), value = Q or R. */
   const unsigned V = mod ? R : Q;
   each([&](unsigned c) {
      if (mod)
         b.add(AluOp::SUB_INT, P, c, {gpr(R, c), gpr(D, c)});
      else
         b.add(AluOp::ADD_INT, P, c, {gpr(Q, c), inl(kSrc_1_INT)});
   });
   each([&](unsigned c) {
      if (mod)
         b.add(AluOp::ADD_INT, N, c, {gpr(R, c), gpr(D, c)});
      else
         b.add(AluOp::SUB_INT, N, c, {gpr(Q, c), inl(kSrc_1_INT)});
   });
   each([&](unsigned c) { b.add(AluOp::CNDE_INT, V, c, {gpr(G, c), gpr(V, c), gpr(P, c)}); });
   each([&](unsigned c) { b.add(AluOp::CNDE_INT, V, c, {gpr(O, c), gpr(N, c), gpr(V, c)}); });
   each([&](unsigned c) {
      b.add(AluOp::CNDE_INT, V, c, {gpr(D, c), inl(kSrc_M_1_INT), gpr(V, c)});
   });
   if (!is_signed) {
      each([&](unsigned c) { b.add(AluOp::MOV, dst_gpr, c, {gpr(V, c)}); });
      return;
   }
   /* Sign: of the dividend for MOD, of dividend ^ divisor for IDIV. */
   each([&](unsigned c) {
      if (mod)
         b.add(AluOp::MOV, G, c, {src(in, 0, c)});
      else
         b.add(AluOp::XOR_INT, G, c, {src(in, 0, c), src(in, 1, c)});
   });
   each([&](unsigned c) { b.add(AluOp::SUB_INT, P, c, {inl(kSrc_0), gpr(V, c)}); });
   each([&](unsigned c) { b.add(AluOp::CNDGE_INT, dst_gpr, c, {gpr(G, c), gpr(V, c), gpr(P, c)}); });
}

/* R600/R700 have none of Evergreen's bit instructions: BFI, POPC, BREV,
 * LSB, UMSB and IMSB from shifts and masks (and UINT_TO_FLT's exponent for
 * the index of a lone bit). */
void Translator::emit_bits_r700(const Instruction &in)
{
   const unsigned V = scratch(), W = scratch(), T = scratch();
   auto R = [](unsigned r) { return [r](unsigned c) { return gpr(r, c); }; };
   auto K = [](uint32_t v) { return [v](unsigned) { return imm(v); }; };
   auto S = [&](unsigned k) { return [&, k](unsigned c) { return src(in, k, c); }; };
   auto op = [&](AluOp o, unsigned d, auto a, auto b2) {
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            if (alu_op_info(o).num_src == 1)
               b.add(o, d, c, {a(c)});
            else
               b.add(o, d, c, {a(c), b2(c)});
            if (alu_is_trans_only(chip, o))
               b.flush();
         }
      b.flush();
   };
   auto op3 = [&](AluOp o, unsigned d, auto a, auto b2, auto c2) {
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(o, d, c, {a(c), b2(c), c2(c)});
      b.flush();
   };
   auto none = K(0);
   /* Index of the single set bit of W (W != 0) into W; -1 when `zero_of` is 0. */
   auto bit_index = [&](auto zero_of) {
      op(AluOp::UINT_TO_FLT, W, R(W), none);
      op(AluOp::LSHR_INT, W, R(W), K(23));
      op(AluOp::SUB_INT, W, R(W), K(127));
      op3(AluOp::CNDE_INT, dst_gpr, zero_of, K(0xffffffffu), R(W));
   };
   auto swap = [&](unsigned sh, uint32_t mask) {
      op(AluOp::LSHR_INT, W, R(V), K(sh));
      op(AluOp::AND_INT, W, R(W), K(mask));
      op(AluOp::AND_INT, T, R(V), K(mask));
      op(AluOp::LSHL_INT, T, R(T), K(sh));
      op(AluOp::OR_INT, V, R(W), R(T));
   };
   switch (in.opcode) {
   case Opcode::BFI:
      /* mask = ((1 << bits) - 1) << off */
      op(AluOp::LSHL_INT, W, K(1), S(3));
      op(AluOp::SUB_INT, W, R(W), K(1));
      op(AluOp::LSHL_INT, W, R(W), S(2));
      op(AluOp::LSHL_INT, T, S(1), S(2));
      op(AluOp::AND_INT, T, R(T), R(W));
      op(AluOp::NOT_INT, W, R(W), none);
      op(AluOp::AND_INT, W, S(0), R(W));
      op(AluOp::OR_INT, dst_gpr, R(T), R(W));
      break;
   case Opcode::POPC:
      op(AluOp::LSHR_INT, W, S(0), K(1));
      op(AluOp::AND_INT, W, R(W), K(0x55555555u));
      op(AluOp::SUB_INT, V, S(0), R(W));
      op(AluOp::LSHR_INT, W, R(V), K(2));
      op(AluOp::AND_INT, W, R(W), K(0x33333333u));
      op(AluOp::AND_INT, V, R(V), K(0x33333333u));
      op(AluOp::ADD_INT, V, R(V), R(W));
      op(AluOp::LSHR_INT, W, R(V), K(4));
      op(AluOp::ADD_INT, V, R(V), R(W));
      op(AluOp::AND_INT, V, R(V), K(0x0f0f0f0fu));
      op(AluOp::LSHR_INT, W, R(V), K(8));
      op(AluOp::ADD_INT, V, R(V), R(W));
      op(AluOp::LSHR_INT, W, R(V), K(16));
      op(AluOp::ADD_INT, V, R(V), R(W));
      op(AluOp::AND_INT, dst_gpr, R(V), K(0x3f));
      break;
   case Opcode::BREV:
      op(AluOp::MOV, V, S(0), none);
      swap(1, 0x55555555u);
      swap(2, 0x33333333u);
      swap(4, 0x0f0f0f0fu);
      swap(8, 0x00ff00ffu);
      op(AluOp::LSHR_INT, W, R(V), K(16));
      op(AluOp::LSHL_INT, T, R(V), K(16));
      op(AluOp::OR_INT, dst_gpr, R(W), R(T));
      break;
   case Opcode::LSB:
      op(AluOp::SUB_INT, W, K(0), S(0));
      op(AluOp::AND_INT, W, R(W), S(0));
      bit_index(S(0));
      break;
   default: /* UMSB, IMSB */
      if (in.opcode == Opcode::IMSB) {
         op(AluOp::NOT_INT, W, S(0), none);
         op3(AluOp::CNDGE_INT, V, S(0), S(0), R(W));
      } else {
         op(AluOp::MOV, V, S(0), none);
      }
      /* Smear the top bit down, keep only it. */
      for (unsigned sh : {1u, 2u, 4u, 8u, 16u}) {
         op(AluOp::LSHR_INT, W, R(V), K(sh));
         op(AluOp::OR_INT, V, R(V), R(W));
      }
      op(AluOp::LSHR_INT, W, R(V), K(1));
      op(AluOp::XOR_INT, W, R(V), R(W));
      bit_index(R(V));
      break;
   }
}

/* A scalar result in the trans slot, once per written channel. */
void Translator::emit_repl_trans(const Instruction &in, AluOp op, const Opnd &a)
{
   b.flush();
   for (unsigned c = 0; c < 4; c++)
      if (chan_on(in, c)) {
         b.add(op, dst_gpr, c, {a}, sat(in));
         b.flush();
      }
}

void Translator::write_all(const Instruction &in, const Opnd &value)
{
   for (unsigned c = 0; c < 4; c++)
      if (chan_on(in, c))
         b.add(AluOp::MOV, dst_gpr, c, {value}, sat(in));
   b.flush();
}

void Translator::emit_dot(const Instruction &in, unsigned n, bool dph)
{
   std::array<PInstr, 4> ps;
   for (unsigned c = 0; c < 4; c++) {
      PInstr &p = ps[c];
      p.op = AluOp::DOT4_IEEE;
      if (c < n) {
         p.src[0] = src(in, 0, c);
         p.src[1] = src(in, 1, c);
      } else if (dph && c == 3) {
         p.src[0] = inl(kSrc_1);
         p.src[1] = src(in, 1, 3);
      } else {
         p.src[0] = inl(kSrc_0);
         p.src[1] = inl(kSrc_0);
      }
      p.dst.gpr = uint8_t(dst_gpr);
      p.dst.chan = uint8_t(c);
      p.dst.write = chan_on(in, c);
      p.dst.clamp = sat(in);
   }
   b.add_reduction(ps);
}

namespace {

struct CompMap {
   Opcode tgsi;
   AluOp op;
   std::array<int, 3> order;
};

/* Straight one-instruction-per-channel mappings. */
const CompMap kComp[] = {
   {Opcode::MOV, AluOp::MOV, {0, 1, 2}},
   {Opcode::ADD, AluOp::ADD, {0, 1, 2}},
   {Opcode::MUL, AluOp::MUL_IEEE, {0, 1, 2}},
   {Opcode::MAD, AluOp::MULADD_IEEE, {0, 1, 2}},
   {Opcode::MIN, AluOp::MIN_DX10, {0, 1, 2}},
   {Opcode::MAX, AluOp::MAX_DX10, {0, 1, 2}},
   {Opcode::FRC, AluOp::FRACT, {0, 1, 2}},
   {Opcode::FLR, AluOp::FLOOR, {0, 1, 2}},
   {Opcode::CEIL, AluOp::CEIL, {0, 1, 2}},
   {Opcode::TRUNC, AluOp::TRUNC, {0, 1, 2}},
   {Opcode::ROUND, AluOp::RNDNE, {0, 1, 2}},
   {Opcode::SLT, AluOp::SETGT, {1, 0, 2}},
   {Opcode::SGE, AluOp::SETGE, {0, 1, 2}},
   {Opcode::SEQ, AluOp::SETE, {0, 1, 2}},
   {Opcode::SNE, AluOp::SETNE, {0, 1, 2}},
   {Opcode::SGT, AluOp::SETGT, {0, 1, 2}},
   {Opcode::SLE, AluOp::SETGE, {1, 0, 2}},
   {Opcode::FSLT, AluOp::SETGT_DX10, {1, 0, 2}},
   {Opcode::FSGE, AluOp::SETGE_DX10, {0, 1, 2}},
   {Opcode::FSEQ, AluOp::SETE_DX10, {0, 1, 2}},
   {Opcode::FSNE, AluOp::SETNE_DX10, {0, 1, 2}},
   {Opcode::CMP, AluOp::CNDGE, {0, 2, 1}},
   {Opcode::UCMP, AluOp::CNDE_INT, {0, 2, 1}},
   {Opcode::UADD, AluOp::ADD_INT, {0, 1, 2}},
   {Opcode::IMAX, AluOp::MAX_INT, {0, 1, 2}},
   {Opcode::IMIN, AluOp::MIN_INT, {0, 1, 2}},
   {Opcode::UMAX, AluOp::MAX_UINT, {0, 1, 2}},
   {Opcode::UMIN, AluOp::MIN_UINT, {0, 1, 2}},
   {Opcode::ISLT, AluOp::SETGT_INT, {1, 0, 2}},
   {Opcode::ISGE, AluOp::SETGE_INT, {0, 1, 2}},
   {Opcode::USLT, AluOp::SETGT_UINT, {1, 0, 2}},
   {Opcode::USGE, AluOp::SETGE_UINT, {0, 1, 2}},
   {Opcode::USEQ, AluOp::SETE_INT, {0, 1, 2}},
   {Opcode::USNE, AluOp::SETNE_INT, {0, 1, 2}},
   {Opcode::NOT, AluOp::NOT_INT, {0, 1, 2}},
   {Opcode::AND, AluOp::AND_INT, {0, 1, 2}},
   {Opcode::OR, AluOp::OR_INT, {0, 1, 2}},
   {Opcode::XOR, AluOp::XOR_INT, {0, 1, 2}},
   {Opcode::SHL, AluOp::LSHL_INT, {0, 1, 2}},
   {Opcode::ISHR, AluOp::ASHR_INT, {0, 1, 2}},
   {Opcode::USHR, AluOp::LSHR_INT, {0, 1, 2}},
   {Opcode::F2I, AluOp::FLT_TO_INT, {0, 1, 2}},
   {Opcode::F2U, AluOp::FLT_TO_UINT, {0, 1, 2}},
   {Opcode::I2F, AluOp::INT_TO_FLT, {0, 1, 2}},
   {Opcode::U2F, AluOp::UINT_TO_FLT, {0, 1, 2}},
   {Opcode::UMUL, AluOp::MULLO_UINT, {0, 1, 2}},
   {Opcode::IMUL_HI, AluOp::MULHI_INT, {0, 1, 2}},
   {Opcode::UMUL_HI, AluOp::MULHI_UINT, {0, 1, 2}},
};

bool is_op3_lowering(Opcode op)
{
   switch (op) {
   case Opcode::MAD:
   case Opcode::FMA:
   case Opcode::CMP:
   case Opcode::UCMP:
   case Opcode::LRP:
   case Opcode::SSG:
   case Opcode::LIT:
   case Opcode::SIN:
   case Opcode::COS: return true;
   default: return false;
   }
}

} // namespace

bool Translator::translate_alu(const Instruction &in)
{
   for (const CompMap &m : kComp)
      if (m.tgsi == in.opcode) {
         if (dst_tmp && !in.dst[0].index.indirect && try_in_place(in, m.op, m.order))
            return true;
         emit_component(in, m.op, m.order);
         return true;
      }
   const float inv_2pi = 0.15915494309189535f;
   switch (in.opcode) {
   case Opcode::FMA:
      emit_component(in, is_eg_or_later(chip) ? AluOp::FMA : AluOp::MULADD_IEEE, {0, 1, 2});
      return true;
   case Opcode::ABS:
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            Opnd o = src(in, 0, c);
            o.abs = true;
            o.neg = false;
            b.add(AluOp::MOV, dst_gpr, c, {o}, sat(in));
         }
      b.flush();
      return true;
   case Opcode::LRP: {
      /* a*b + (1-a)*c, each step rounded like the reference. */
      unsigned t = scratch();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::ADD, t, c, {inl(kSrc_1), neg(src(in, 0, c))});
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::MUL_IEEE, t, c, {gpr(t, c), src(in, 2, c)});
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::MULADD_IEEE, dst_gpr, c, {src(in, 0, c), src(in, 1, c), gpr(t, c)},
                  sat(in));
      b.flush();
      return true;
   }
   case Opcode::DP2: emit_dot(in, 2, false); return true;
   case Opcode::DP3: emit_dot(in, 3, false); return true;
   case Opcode::DP4: emit_dot(in, 4, false); return true;
   case Opcode::DPH: emit_dot(in, 3, true); return true;
   case Opcode::RCP: emit_repl_trans(in, AluOp::RECIP_IEEE, src(in, 0, 0)); return true;
   case Opcode::RSQ: {
      Opnd a = src(in, 0, 0);
      a.abs = true;
      a.neg = false;
      emit_repl_trans(in, AluOp::RECIPSQRT_IEEE, a);
      return true;
   }
   case Opcode::SQRT: emit_repl_trans(in, AluOp::SQRT_IEEE, src(in, 0, 0)); return true;
   case Opcode::EX2: emit_repl_trans(in, AluOp::EXP_IEEE, src(in, 0, 0)); return true;
   case Opcode::LG2: emit_repl_trans(in, AluOp::LOG_IEEE, src(in, 0, 0)); return true;
   case Opcode::SIN:
   case Opcode::COS: {
      /* R700+ take the angle in revolutions: reduce to [-0.5, 0.5). */
      unsigned t = scratch();
      b.add(AluOp::MULADD_IEEE, t, 0, {src(in, 0, 0), immf(inv_2pi), inl(kSrc_0_5)});
      b.flush();
      b.add(AluOp::FRACT, t, 0, {gpr(t, 0)});
      b.flush();
      b.add(AluOp::ADD, t, 0, {gpr(t, 0), immf(-0.5f)});
      b.flush();
      if (chip == ChipClass::R600) {
         /* R600's SIN/COS take radians. */
         b.add(AluOp::MUL_IEEE, t, 0, {gpr(t, 0), immf(6.283185307179586f)});
         b.flush();
      }
      emit_repl_trans(in, in.opcode == Opcode::SIN ? AluOp::SIN : AluOp::COS, gpr(t, 0));
      return true;
   }
   case Opcode::POW: {
      /* EX2(b * LG2(a)) with the legacy MUL, so POW(0, 0) = 1 as in GL. */
      unsigned t = scratch();
      b.add(AluOp::LOG_IEEE, t, 0, {src(in, 0, 0)});
      b.flush();
      b.add(AluOp::MUL, t, 0, {gpr(t, 0), src(in, 1, 0)});
      b.flush();
      emit_repl_trans(in, AluOp::EXP_IEEE, gpr(t, 0));
      return true;
   }
   case Opcode::DST:
      if (chan_on(in, 0))
         b.add(AluOp::MOV, dst_gpr, 0, {inl(kSrc_1)}, sat(in));
      if (chan_on(in, 1))
         b.add(AluOp::MUL_IEEE, dst_gpr, 1, {src(in, 0, 1), src(in, 1, 1)}, sat(in));
      if (chan_on(in, 2))
         b.add(AluOp::MOV, dst_gpr, 2, {src(in, 0, 2)}, sat(in));
      if (chan_on(in, 3))
         b.add(AluOp::MOV, dst_gpr, 3, {src(in, 1, 3)}, sat(in));
      b.flush();
      return true;
   case Opcode::EXP: {
      unsigned t = scratch();
      b.add(AluOp::FLOOR, t, 0, {src(in, 0, 0)});
      b.flush();
      if (chan_on(in, 0)) {
         b.add(AluOp::EXP_IEEE, dst_gpr, 0, {gpr(t, 0)}, sat(in));
         b.flush();
      }
      if (chan_on(in, 1))
         b.add(AluOp::ADD, dst_gpr, 1, {src(in, 0, 0), neg(gpr(t, 0))}, sat(in));
      if (chan_on(in, 3))
         b.add(AluOp::MOV, dst_gpr, 3, {inl(kSrc_1)}, sat(in));
      b.flush();
      if (chan_on(in, 2)) {
         b.add(AluOp::EXP_IEEE, dst_gpr, 2, {src(in, 0, 0)}, sat(in));
         b.flush();
      }
      return true;
   }
   case Opcode::LOG: {
      unsigned t = scratch();
      Opnd a = src(in, 0, 0);
      a.abs = true;
      a.neg = false;
      b.add(AluOp::LOG_IEEE, t, 2, {a});
      b.flush();
      b.add(AluOp::FLOOR, t, 0, {gpr(t, 2)});
      b.flush();
      b.add(AluOp::EXP_IEEE, t, 1, {gpr(t, 0)});
      b.flush();
      b.add(AluOp::RECIP_IEEE, t, 1, {gpr(t, 1)});
      b.flush();
      if (chan_on(in, 0))
         b.add(AluOp::MOV, dst_gpr, 0, {gpr(t, 0)}, sat(in));
      if (chan_on(in, 1))
         b.add(AluOp::MUL_IEEE, dst_gpr, 1, {a, gpr(t, 1)}, sat(in));
      if (chan_on(in, 2))
         b.add(AluOp::MOV, dst_gpr, 2, {gpr(t, 2)}, sat(in));
      if (chan_on(in, 3))
         b.add(AluOp::MOV, dst_gpr, 3, {inl(kSrc_1)}, sat(in));
      b.flush();
      return true;
   }
   case Opcode::LIT: {
      unsigned t = scratch();
      b.add(AluOp::MAX, t, 0, {src(in, 0, 1), inl(kSrc_0)});
      b.add(AluOp::MAX, t, 1, {src(in, 0, 3), immf(-128.0f)});
      b.flush();
      b.add(AluOp::MIN, t, 1, {gpr(t, 1), immf(128.0f)});
      b.add(AluOp::LOG_CLAMPED, t, 2, {gpr(t, 0)});
      b.flush();
      b.add(AluOp::MUL, t, 2, {gpr(t, 2), gpr(t, 1)});
      b.flush();
      b.add(AluOp::EXP_IEEE, t, 2, {gpr(t, 2)});
      b.flush();
      if (chan_on(in, 0))
         b.add(AluOp::MOV, dst_gpr, 0, {inl(kSrc_1)}, sat(in));
      if (chan_on(in, 1))
         b.add(AluOp::MAX, dst_gpr, 1, {src(in, 0, 0), inl(kSrc_0)}, sat(in));
      if (chan_on(in, 2))
         b.add(AluOp::CNDGT, dst_gpr, 2, {src(in, 0, 0), gpr(t, 2), inl(kSrc_0)}, sat(in));
      if (chan_on(in, 3))
         b.add(AluOp::MOV, dst_gpr, 3, {inl(kSrc_1)}, sat(in));
      b.flush();
      return true;
   }
   case Opcode::SSG: {
      /* (x > 0) - (0 > x): 0 for zero and NaN, as the reference. */
      unsigned t = scratch(), u = scratch();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            b.add(AluOp::SETGT, t, c, {src(in, 0, c), inl(kSrc_0)});
         }
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::SETGT, u, c, {inl(kSrc_0), src(in, 0, c)});
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::ADD, dst_gpr, c, {gpr(t, c), neg(gpr(u, c))}, sat(in));
      b.flush();
      return true;
   }
   case Opcode::INEG:
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::SUB_INT, dst_gpr, c, {inl(kSrc_0), src(in, 0, c)});
      b.flush();
      return true;
   case Opcode::IABS: {
      unsigned t = scratch();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::SUB_INT, t, c, {inl(kSrc_0), src(in, 0, c)});
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::MAX_INT, dst_gpr, c, {src(in, 0, c), gpr(t, c)});
      b.flush();
      return true;
   }
   case Opcode::ISSG: {
      unsigned t = scratch(), u = scratch();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            b.add(AluOp::SETGT_INT, t, c, {src(in, 0, c), inl(kSrc_0)});
         }
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::SETGT_INT, u, c, {inl(kSrc_0), src(in, 0, c)});
      b.flush();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::SUB_INT, dst_gpr, c, {gpr(u, c), gpr(t, c)});
      b.flush();
      return true;
   }
   case Opcode::UMAD: {
      unsigned t = scratch();
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c)) {
            b.add(AluOp::MULLO_UINT, t, c, {src(in, 0, c), src(in, 1, c)});
            b.flush();
         }
      for (unsigned c = 0; c < 4; c++)
         if (chan_on(in, c))
            b.add(AluOp::ADD_INT, dst_gpr, c, {gpr(t, c), src(in, 2, c)});
      b.flush();
      return true;
   }
   case Opcode::UBFE:
   case Opcode::IBFE:
   case Opcode::BREV:
   case Opcode::POPC:
   case Opcode::LSB:
   case Opcode::BFI:
   case Opcode::UMSB:
   case Opcode::IMSB:
      if (!is_eg_or_later(chip)) {
         if (in.opcode == Opcode::UBFE || in.opcode == Opcode::IBFE) {
            emit_bfe_r700(in, in.opcode == Opcode::IBFE);
            return true;
         }
         if (in.opcode != Opcode::UBFE && in.opcode != Opcode::IBFE) {
            emit_bits_r700(in);
            return true;
         }
         error(in.loc, "r600 backend: " + std::string(in.info().name) + " needs Evergreen");
         return true;
      }
      switch (in.opcode) {
      case Opcode::UBFE: emit_component(in, AluOp::BFE_UINT, {0, 1, 2}); break;
      case Opcode::IBFE: emit_component(in, AluOp::BFE_INT, {0, 1, 2}); break;
      case Opcode::BREV: emit_component(in, AluOp::BFREV_INT, {0, 1, 2}); break;
      case Opcode::POPC: emit_component(in, AluOp::BCNT_INT, {0, 1, 2}); break;
      case Opcode::LSB: emit_component(in, AluOp::FFBL_INT, {0, 1, 2}); break;
      case Opcode::BFI: {
         /* mask = BFM(bits, off); BFI(mask, insert << off, base). */
         unsigned m = scratch(), t = scratch();
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(AluOp::BFM_INT, m, c, {src(in, 3, c), src(in, 2, c)});
         b.flush();
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(AluOp::LSHL_INT, t, c, {src(in, 1, c), src(in, 2, c)});
         b.flush();
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(AluOp::BFI_INT, dst_gpr, c, {gpr(m, c), gpr(t, c), src(in, 0, c)});
         b.flush();
         break;
      }
      default: {
         /* Leading zeros (or sign bits) -> bit index; -1 stays -1. */
         unsigned t = scratch(), u = scratch();
         AluOp op = in.opcode == Opcode::UMSB ? AluOp::FFBH_UINT : AluOp::FFBH_INT;
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(op, t, c, {src(in, 0, c)});
         b.flush();
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(AluOp::SUB_INT, u, c, {imm(31), gpr(t, c)});
         b.flush();
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               b.add(AluOp::CNDGE_INT, dst_gpr, c, {gpr(t, c), gpr(u, c), inl(kSrc_M_1_INT)});
         b.flush();
         break;
      }
      }
      return true;
   case Opcode::LDEXP: {
      /* a * 2^b: b clamped to +-300 (beyond, every float result is 0 or inf
       * already), split as 3q + r with |q|, |r| <= 78 so each power of two
       * is a normal float and each multiply exact until the last rounding. */
      const unsigned B = scratch(), Q = scratch(), T = scratch(), F = scratch(), G = scratch();
      auto each = [&](auto fn) {
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c))
               fn(c);
         b.flush();
      };
      auto trans = [&](AluOp op, unsigned d, unsigned s0) {
         for (unsigned c = 0; c < 4; c++)
            if (chan_on(in, c)) {
               b.add(op, d, c, {gpr(s0, c)});
               b.flush();
            }
      };
      each([&](unsigned c) { b.add(AluOp::MAX_INT, B, c, {src(in, 1, c), imm(uint32_t(-300))}); });
      each([&](unsigned c) { b.add(AluOp::MIN_INT, B, c, {gpr(B, c), imm(300)}); });
      each([&](unsigned c) { b.add(AluOp::ASHR_INT, Q, c, {gpr(B, c), imm(2)}); });
      each([&](unsigned c) { b.add(AluOp::ADD_INT, T, c, {gpr(Q, c), gpr(Q, c)}); });
      each([&](unsigned c) { b.add(AluOp::ADD_INT, T, c, {gpr(T, c), gpr(Q, c)}); });
      each([&](unsigned c) { b.add(AluOp::SUB_INT, T, c, {gpr(B, c), gpr(T, c)}); });
      trans(AluOp::INT_TO_FLT, F, Q);
      trans(AluOp::EXP_IEEE, F, F);
      trans(AluOp::INT_TO_FLT, G, T);
      trans(AluOp::EXP_IEEE, G, G);
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, B, c, {src(in, 0, c), gpr(F, c)}); });
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, B, c, {gpr(B, c), gpr(F, c)}); });
      each([&](unsigned c) { b.add(AluOp::MUL_IEEE, B, c, {gpr(B, c), gpr(F, c)}); });
      each([&](unsigned c) {
         b.add(AluOp::MUL_IEEE, dst_gpr, c, {gpr(B, c), gpr(G, c)}, sat(in));
      });
      return true;
   }
   case Opcode::UDIV:
   case Opcode::UMOD:
   case Opcode::IDIV:
   case Opcode::MOD:
      emit_divmod(in);
      return true;
   case Opcode::ARL:
   case Opcode::UARL: {
      unsigned t = scratch();
      for (unsigned c = 0; c < 4; c++) {
         if (!chan_on(in, c))
            continue;
         if (in.opcode == Opcode::ARL) {
            b.add(AluOp::FLOOR, t, c, {src(in, 0, c)});
            b.flush();
            b.add(AluOp::FLT_TO_INT, dst_gpr, c, {gpr(t, c)});
         } else {
            b.add(AluOp::MOV, dst_gpr, c, {src(in, 0, c)});
         }
         b.flush();
      }
      return true;
   }
   default: return false;
   }
}

void Translator::translate_tex(const Instruction &in)
{
   const SrcOperand &unit = in.src.back();

   const TextureTarget tt = in.tex_target;
   if (tt == TextureTarget::CubeArray || tt == TextureTarget::ShadowCubeArray) {
      error(in.loc, "r600 backend: cube map arrays are not supported");
      return;
   }
   const bool cube = tt == TextureTarget::Cube || tt == TextureTarget::ShadowCube;
   const bool shadow = tt == TextureTarget::ShadowCube || tt == TextureTarget::Shadow1D || tt == TextureTarget::Shadow2D ||
                       tt == TextureTarget::ShadowRect || tt == TextureTarget::ShadowArray1D ||
                       tt == TextureTarget::ShadowArray2D;
   const bool deriv = in.opcode == Opcode::DDX || in.opcode == Opcode::DDY ||
                      in.opcode == Opcode::DDX_FINE || in.opcode == Opcode::DDY_FINE;
   /* Coordinates straight from their register when the fetch's source
    * swizzle can express the operand (as Mesa does); otherwise prepared in
    * a scratch GPR. */
   const SrcOperand &c0 = in.src[0];
   const bool direct = !prep[0].replaced && !c0.negate && !c0.absolute &&
                       (c0.file == File::Temporary || c0.file == File::Input ||
                        c0.file == File::Output) &&
                       in.opcode != Opcode::TXP && in.opcode != Opcode::TXD && !cube;
   unsigned coord = direct ? reg_gpr(c0.file, c0.index.value) : scratch();
   std::array<uint8_t, 4> coord_sel = {0, 1, 2, 3};
   if (cube) {
      /* As Mesa: CUBE gives (tc, sc, 2*ma, face); the fetch takes
       * (sc/|2ma| + 1.5, tc/|2ma| + 1.5, face) and the reference, bias or
       * lod in the fourth component. */
      static const unsigned s0[4] = {2, 2, 0, 1}, s1[4] = {1, 0, 2, 2};
      std::array<PInstr, 4> ps;
      for (unsigned c = 0; c < 4; c++) {
         ps[c].op = AluOp::CUBE;
         ps[c].src[0] = src(in, 0, s0[c]);
         ps[c].src[1] = src(in, 0, s1[c]);
         ps[c].dst.gpr = uint8_t(coord);
         ps[c].dst.chan = uint8_t(c);
      }
      b.add_reduction(ps);
      Opnd z = gpr(coord, 2);
      z.abs = true;
      b.add(AluOp::RECIP_IEEE, coord, 2, {z});
      b.flush();
      b.add(AluOp::MULADD_IEEE, coord, 0, {gpr(coord, 0), gpr(coord, 2), immf(1.5f)});
      b.add(AluOp::MULADD_IEEE, coord, 1, {gpr(coord, 1), gpr(coord, 2), immf(1.5f)});
      b.flush();
      b.add(AluOp::MOV, coord, 2, {src(in, 0, 3)});
      coord_sel = {1, 0, 3, 2};
   } else if (direct) {
      for (unsigned c = 0; c < 4; c++)
         coord_sel[c] = c0.swizzle[c];
      if (shadow && tt != TextureTarget::ShadowArray2D)
         coord_sel[3] = c0.swizzle[2];
   } else if (in.opcode == Opcode::TXP) {
      unsigned r = scratch();
      b.add(AluOp::RECIP_IEEE, r, 0, {src(in, 0, 3)});
      b.flush();
      for (unsigned c = 0; c < 3; c++)
         b.add(AluOp::MUL_IEEE, coord, c, {src(in, 0, c), gpr(r, 0)});
      b.add(AluOp::MOV, coord, 3, {src(in, 0, 3)});
   } else {
      for (unsigned c = 0; c < 4; c++)
         b.add(AluOp::MOV, coord, c, {src(in, 0, c)});
   }
   b.flush();
   /* Mesa's layout: the shadow reference in w. */
   if (!direct && !cube && shadow && tt != TextureTarget::ShadowArray2D) {
      b.add(AluOp::MOV, coord, 3, {gpr(coord, 2)});
      b.flush();
   }
   if (in.opcode == Opcode::TXL2 || in.opcode == Opcode::TXB2 || in.opcode == Opcode::TEX2) {
      error(in.loc, "r600 backend: cube-array texture opcodes are not supported");
      return;
   }
   if (in.opcode == Opcode::TXD) {
      for (unsigned k = 1; k <= 2; k++) {
         unsigned g = scratch();
         for (unsigned c = 0; c < 4; c++)
            b.add(AluOp::MOV, g, c, {src(in, k, c)});
         b.flush();
         TexInstr t;
         t.op = k == 1 ? FetchOp::SET_GRADIENTS_H : FetchOp::SET_GRADIENTS_V;
         t.src_gpr = uint8_t(g);
         t.dst_sel = {7, 7, 7, 7};
         t.resource_id = uint8_t(unit.index.value);
         t.sampler_id = uint8_t(unit.index.value);
         b.add_fetch(t, g, 0);
      }
   }
   unsigned res = scratch();
   TexInstr t;
   t.src_gpr = uint8_t(coord);
   t.src_sel = coord_sel;
   t.dst_gpr = uint8_t(res);
   t.resource_id = deriv ? 0 : uint8_t(unit.index.value);
   t.sampler_id = deriv ? 0 : uint8_t(unit.index.value);
   if (tt == TextureTarget::Rect || tt == TextureTarget::ShadowRect)
      t.coord_type = {false, false, true, true};
   if (tt == TextureTarget::Array1D || tt == TextureTarget::ShadowArray1D)
      t.coord_type[1] = false;
   if (tt == TextureTarget::Array2D || tt == TextureTarget::ShadowArray2D)
      t.coord_type[2] = false;
   if (!in.tex_offsets.empty()) {
      const TexOffset &o = in.tex_offsets[0];
      if (o.file == File::Immediate && o.index >= 0 && size_t(o.index) < sh.immediates.size())
         for (unsigned c = 0; c < 3; c++)
            t.offset[c] = int8_t(int32_t(sh.immediates[size_t(o.index)].value[o.swizzle[c]]) * 2);
   }
   switch (in.opcode) {
   case Opcode::TEX:
   case Opcode::TXP: t.op = shadow ? FetchOp::SAMPLE_C : FetchOp::SAMPLE; break;
   case Opcode::TXB: t.op = shadow ? FetchOp::SAMPLE_C_LB : FetchOp::SAMPLE_LB; break;
   case Opcode::TXL: t.op = shadow ? FetchOp::SAMPLE_C_L : FetchOp::SAMPLE_L; break;
   case Opcode::TEX_LZ: t.op = shadow ? FetchOp::SAMPLE_C_LZ : FetchOp::SAMPLE_LZ; break;
   case Opcode::TXD: t.op = shadow ? FetchOp::SAMPLE_C_G : FetchOp::SAMPLE_G; break;
   case Opcode::TXF:
   case Opcode::TXF_LZ:
      t.op = FetchOp::LD;
      if (in.opcode == Opcode::TXF_LZ)
         t.src_sel[3] = kSel0;
      break;
   case Opcode::TXQ: t.op = FetchOp::GET_TEXTURE_RESINFO; break;
   case Opcode::DDX: t.op = FetchOp::GET_GRADIENTS_H; break;
   case Opcode::DDY: t.op = FetchOp::GET_GRADIENTS_V; break;
   case Opcode::DDX_FINE:
   case Opcode::DDY_FINE:
      if (!is_eg_or_later(chip)) {
         /* GET_GRADIENTS_*_FINE arrived with Evergreen, and the coarse ops
          * never read the quad's fourth pixel, so there is no lowering;
          * Mesa does not expose ARB_derivative_control there either. */
         error(in.loc, "r600 backend: " + std::string(opcode_info(in.opcode).name) +
                          " needs Evergreen or later: " + std::string(chip_class_name(chip)) +
                          " has only coarse gradients (GET_GRADIENTS_H/V)");
         return;
      }
      t.op = in.opcode == Opcode::DDX_FINE ? FetchOp::GET_GRADIENTS_H_FINE
                                           : FetchOp::GET_GRADIENTS_V_FINE;
      break;
   default:
      error(in.loc, "r600 backend: unsupported texture opcode " + std::string(in.info().name));
      return;
   }
   if (t.op == FetchOp::LD || t.op == FetchOp::GET_TEXTURE_RESINFO)
      t.coord_type = {false, false, false, false};
   if (unit.index.indirect && !is_eg_or_later(chip)) {
      /* R700 has no fetch index: one predicated fetch per declared unit
       * (the index is dynamically uniform, so at most one branch runs;
       * an out-of-range index leaves the result 0 as in the reference). */
      const int units = std::max(sh.file_size(File::Sampler), sh.file_size(File::SamplerView));
      unsigned idx = scratch();
      b.add(AluOp::ADD_INT, idx, 0,
            {index_opnd(*unit.index.indirect), imm(uint32_t(unit.index.value))});
      for (unsigned c = 0; c < 4; c++)
         b.add(AluOp::MOV, res, c, {inl(kSrc_0)});
      b.flush();
      for (int k = 0; k < units; k++) {
         b.close_alu();
         b.open_alu(CfOp::ALU_PUSH_BEFORE);
         PInstr p;
         p.op = AluOp::PRED_SETE_INT;
         p.src[0] = gpr(idx, 0);
         p.src[1] = imm(uint32_t(k));
         p.dst.gpr = uint8_t(idx);
         p.dst.write = false;
         p.update_exec = true;
         p.update_pred = true;
         b.add(p);
         b.close_alu();
         push_level(false);
         size_t jump = b.emit_cf(CfOp::JUMP);
         TexInstr tk = t;
         tk.resource_id = uint8_t(k);
         tk.sampler_id = uint8_t(k);
         b.add_fetch(tk, coord, res);
         size_t pop = b.emit_cf(CfOp::POP);
         b.prog.cf[pop].pop_count = 1;
         b.prog.cf[pop].target = uint32_t(pop + 1);
         b.prog.cf[jump].target = uint32_t(pop + 1);
         b.prog.cf[jump].pop_count = 1;
         pushes--;
      }
   } else {
      if (unit.index.indirect) {
         /* Evergreen: the index goes AR.x -> CF_IDX0 in an ALU clause; the
          * fetch adds CF_IDX0 to its resource and sampler ids. */
         b.close_alu();
         b.add(AluOp::MOVA_INT, 0, 0, {index_opnd(*unit.index.indirect)}, false, false);
         b.flush();
         b.add(AluOp::SET_CF_IDX0, 0, 0, {inl(kSrc_0)}, false, false);
         b.close_alu();
         t.resource_index_mode = 1;
         t.sampler_index_mode = 1;
      }
      b.add_fetch(t, coord, res);
   }
   const bool int_result = in.opcode == Opcode::TXQ;
   for (unsigned c = 0; c < 4; c++)
      if (chan_on(in, c))
         b.add(AluOp::MOV, dst_gpr, c, {gpr(res, c)}, sat(in) && !int_result);
   b.flush();
}

/* Registers outside what the shader declares (or beyond what the hardware
 * can address) are refused instead of wrapping into some other GPR. */
bool Translator::check_operands(const Instruction &in)
{
   auto bad = [&](const SourceLoc &loc, File f, int32_t idx) {
      error(loc.line ? loc : in.loc, "r600 backend: " + std::string(file_name(f)) + "[" +
                                        std::to_string(idx) + "] is out of range");
      return false;
   };
   auto check = [&](File f, const RegIndex &ri, const std::optional<RegIndex> &dim,
                    const SourceLoc &loc) {
      int32_t idx = ri.value;
      switch (f) {
      case File::Input:
      case File::Temporary:
      case File::Output:
      case File::Address:
         if (!ri.indirect && (idx < 0 || idx >= sh.file_size(f)))
            return bad(loc, f, idx);
         if (ri.indirect && (idx < -4096 || idx > 4096))
            return bad(loc, f, idx);
         break;
      case File::Immediate:
         if (idx < 0 || size_t(idx) >= sh.immediates.size())
            return bad(loc, f, idx);
         break;
      case File::Constant:
         if (idx < -4096 || idx >= 4096 || (!ri.indirect && idx < 0) ||
             (dim && (dim->value < 0 || dim->value > 15)))
            return bad(loc, f, idx);
         break;
      case File::Sampler:
      case File::SamplerView:
         if (idx < 0 || idx > 17)
            return bad(loc, f, idx);
         break;
      default: break;
      }
      if (ri.indirect && ri.indirect->file != File::Address &&
          ri.indirect->file != File::Temporary)
         return bad(loc, ri.indirect->file, ri.indirect->index);
      if (ri.indirect && (ri.indirect->index < 0 ||
                          ri.indirect->index >= sh.file_size(ri.indirect->file)))
         return bad(loc, ri.indirect->file, ri.indirect->index);
      return true;
   };
   for (const SrcOperand &s : in.src)
      if (!check(s.file, s.index, s.dimension, s.loc))
         return false;
   for (const DstOperand &d : in.dst)
      if (!check(d.file, d.index, d.dimension, d.loc))
         return false;
   return true;
}

void Translator::translate(const Instruction &in)
{
   const Opcode op = in.opcode;
   if (!check_operands(in))
      return;
   switch (op) {
   case Opcode::NOP:
   case Opcode::END: return;
   case Opcode::IF:
   case Opcode::UIF:
      prep = {};
      prepare(in, false);
      emit_if(in, op == Opcode::UIF);
      return;
   case Opcode::ELSE: emit_else(in); return;
   case Opcode::ENDIF: emit_endif(in); return;
   case Opcode::BGNLOOP: emit_bgnloop(); return;
   case Opcode::ENDLOOP: emit_endloop(in); return;
   case Opcode::BRK: emit_brk_cont(in, true); return;
   case Opcode::CONT: emit_brk_cont(in, false); return;
   case Opcode::RET: emit_brk_cont(in, true); return;
   case Opcode::KILL:
      info.uses_kill = true;
      b.add(AluOp::KILLGT, scratch_base, 0, {inl(kSrc_1), inl(kSrc_0)}, false, false);
      b.flush();
      return;
   case Opcode::KILL_IF:
      info.uses_kill = true;
      prep = {};
      prepare(in, false);
      for (unsigned c = 0; c < 4; c++)
         b.add(AluOp::KILLGT, scratch_base, c, {inl(kSrc_0), src(in, 0, c)}, false, false);
      b.flush();
      return;
   default: break;
   }
   if (in.dst.empty() || in.dst[0].file == File::Null)
      return;
   if (in.dst[0].file != File::Temporary && in.dst[0].file != File::Output &&
       in.dst[0].file != File::Address) {
      error(in.loc, "r600 backend: unsupported destination register file");
      return;
   }
   prep = {};
   prepare(in, is_op3_lowering(op));
   begin_dst(in);
   if (in.info().flags & OPF_TEX || op == Opcode::DDX || op == Opcode::DDY ||
       op == Opcode::DDX_FINE || op == Opcode::DDY_FINE)
      translate_tex(in);
   else if (!translate_alu(in))
      error(in.loc, "r600 backend: opcode " + std::string(in.info().name) + " is not supported");
   if (failed)
      return;
   end_dst(in);
}

} // namespace sbcc::r600::tgsi_backend
