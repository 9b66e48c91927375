/*
 * gvn over the structured SSA tree: copy propagation, constant folding,
 * algebraic simplification from a rule table, and global value numbering.
 *
 * One walk in dominator order.  In the region tree a definition dominates
 * the later siblings of its container and their descendants; leaving a
 * Region, Depart, Repeat or If subtree ends that (the code after it is also
 * reached by paths that skipped it), so the value table is scoped on those
 * nodes.  SSA makes the copy map global: a value is defined once and every
 * use is dominated by its definition.
 *
 * Per ALU group (all slots read before any writes): first every operand is
 * rewritten through the copy map, then each instruction is folded or
 * simplified, then looked up; table entries become visible and copies are
 * recorded only after the whole group, so no slot reads a value defined in
 * its own group.
 * A repeated computation becomes `MOV dst = first`, whose uses then read
 * the first result; dce_cleanup removes what is left dead.
 *
 * Constant folding calls the emulator's scalar ALU model (emu::alu_eval), so
 * a folded constant is by construction what the hardware model computes.
 */
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "common/exec.h"
#include "common/thread_memory.h"
#include "r600/r600_emu_alu.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

constexpr uint32_t kSign = 0x80000000u;

/* const_bits of an inline or literal operand. */
std::optional<uint32_t> immediate_bits(const Value &v)
{
   uint32_t b;
   if (v.kind == ValueKind::Literal) {
      b = v.literal;
   } else {
      switch (v.literal) {
      case kSrc_0: b = 0; break;
      case kSrc_1: b = f2u(1.0f); break;
      case kSrc_1_INT: b = 1; break;
      case kSrc_M_1_INT: b = 0xffffffffu; break;
      case kSrc_0_5: b = f2u(0.5f); break;
      default: return std::nullopt;
      }
   }
   /* The hardware applies the modifiers as sign-bit operations. */
   if (v.abs)
      b &= ~kSign;
   if (v.neg)
      b ^= kSign;
   return b;
}

/* Bits an operand reads when it is a compile-time constant (kcache is not:
 * its contents are only known at draw time).  Asked for most operands, most
 * of which are registers: that answer without a call. */
inline std::optional<uint32_t> const_bits(const Value &v)
{
   if (v.kind != ValueKind::Literal && v.kind != ValueKind::Inline)
      return std::nullopt;
   return immediate_bits(v);
}

/* A constant operand reading `bits`: an inline selector when one (possibly
 * negated) reads those bits, which saves a literal slot, else a literal. */
Value constant(uint32_t bits)
{
   static const std::pair<uint32_t, unsigned> kInline[] = {
      {0u, kSrc_0}, {0x3f800000u, kSrc_1}, {1u, kSrc_1_INT},
      {0xffffffffu, kSrc_M_1_INT}, {0x3f000000u, kSrc_0_5},
   };
   Value v;
   for (const auto &[b, sel] : kInline) {
      if (bits == b || bits == (b ^ kSign)) {
         v.kind = ValueKind::Inline;
         v.literal = sel;
         v.neg = bits != b;
         return v;
      }
   }
   v.kind = ValueKind::Literal;
   v.literal = bits;
   return v;
}

bool same_operand(const Value &a, const Value &b)
{
   if (a.kind != b.kind || a.neg != b.neg || a.abs != b.abs)
      return false;
   switch (a.kind) {
   case ValueKind::Var: return a.var == b.var && a.version == b.version;
   case ValueKind::KCache:
      return a.resolved && b.resolved && a.bank == b.bank && a.index == b.index &&
             a.chan == b.chan;
   case ValueKind::Inline:
   case ValueKind::Literal: return const_bits(a) == const_bits(b);
   default: return false;
   }
}

/* Ops whose result is a pure function of their operands in one slot: the
 * emulator evaluates them alone, and they have no effect besides the
 * result.  Reductions and Cayman's replicated ops span several slots. */
bool probe_pure_op(ChipClass chip, AluOp op)
{
   const uint32_t flags = alu_op_info(op).flags;
   if (flags & (AF_PRED | AF_PRED_PUSH | AF_KILL | AF_MOVA | AF_F64 | AF_INTERP |
                AF_PREV_NEXT | AF_PREV_INTERLEAVE))
      return false;
   if (alu_is_reduction(chip, op))
      return false;
   if (chip == ChipClass::Cayman && !(alu_slots(chip, op) & kSlotV))
      return false;
   switch (op) {
   case AluOp::ALU_NOP:
   case AluOp::GROUP_BARRIER:
   case AluOp::GROUP_SEQ_BEGIN:
   case AluOp::GROUP_SEQ_END:
      return false;
   default: break;
   }
   emu::SlotResult r;
   return emu::alu_eval(chip, op, 0, 0, 0, r);
}

/* A probe of the emulator's model remembered per chip and op, probed on
 * first use: probing every op up front cost the first shader of a process
 * more than the rest of sb.  Entries are atomics (0 = not probed yet), so
 * threads racing on one entry store the same answer without a data race. */
template <bool (*Probe)(ChipClass, AluOp)>
std::atomic<int8_t> memo_table[kNumChipClasses * kNumAluOps];

/* The probe, out of line: the lookup, asked for nearly every instruction,
 * then inlines instead of being a call. */
template <bool (*Probe)(ChipClass, AluOp)>
[[gnu::noinline]] int8_t memo_fill(std::atomic<int8_t> &e, ChipClass chip, AluOp op)
{
   const int8_t v = Probe(chip, op) ? 1 : 2;
   e.store(v, std::memory_order_relaxed);
   return v;
}

template <bool (*Probe)(ChipClass, AluOp)>
[[gnu::always_inline]] inline bool memo_probe(ChipClass chip, AluOp op)
{
   std::atomic<int8_t> &e = memo_table<Probe>[chip_index(chip) * kNumAluOps + unsigned(op)];
   int8_t v = e.load(std::memory_order_relaxed);
   if (v == 0)
      v = memo_fill<Probe>(e, chip, op);
   return v == 1;
}

/* Asked for every instruction. */
bool pure_op(ChipClass chip, AluOp op) { return memo_probe<probe_pure_op>(chip, op); }

/* Commutative for value numbering and rule matching: flagged so in the ISA
 * description and, in the emulator's model, giving the same float (up to
 * the sign of zero and NaN payloads) for swapped operands on the special
 * values.  Legacy MAX/MIN are not: MAX(NaN, x) is x but MAX(x, NaN) NaN. */
bool probe_commutative(ChipClass chip, AluOp op)
{
   if (!(alu_op_info(op).flags & AF_COMM) || alu_op_info(op).num_src < 2)
      return false;
   static const uint32_t kProbe[] = {0u, kSign, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                     0xff800000u, 0x7fc00000u, 0xffffffffu, 1u, 0x00400000u};
   /* Each unordered pair once: the test below is symmetric in (a, b), and
    * a == b compares one result with itself, so it only needs to exist.
    * Half the evaluations of every ordered pair, the same answer: this
    * probe runs on the first use of each op in a process. */
   constexpr size_t kNum = std::size(kProbe);
   for (size_t i = 0; i < kNum; i++) {
      const uint32_t a = kProbe[i];
      emu::SlotResult x, y;
      if (!emu::alu_eval(chip, op, a, a, 0, x))
         return false;
      for (size_t j = i + 1; j < kNum; j++) {
         const uint32_t b = kProbe[j];
         if (!emu::alu_eval(chip, op, a, b, 0, x) || !emu::alu_eval(chip, op, b, a, 0, y))
            return false;
         const float fx = u2f(x.value), fy = u2f(y.value);
         if (x.value != y.value && fx != fy && !(fx != fx && fy != fy))
            return false;
      }
   }
   return true;
}

bool commutative(ChipClass chip, AluOp op) { return memo_probe<probe_commutative>(chip, op); }

/* The result does not depend on clamp/omod being applied as a float: the
 * rewrite to MOV (a float-destination op) would otherwise apply them where
 * the integer op ignored them. */
bool probe_int_result(AluOp op)
{
   const uint32_t flags = alu_op_info(op).flags;
   if (flags & (AF_INT_DST | AF_UINT_DST | AF_INT_CMP | AF_UINT_CMP))
      return true;
   const std::string_view name = alu_op_name(op);
   return name.find("INT") != std::string_view::npos || name.starts_with("BF") ||
          name.starts_with("BIT_") || name.starts_with("BYTE_") || name == "FLT32_TO_FLT16";
}

bool int_result(AluOp op)
{
   static const std::vector<bool> table = [] {
      std::vector<bool> t(kNumAluOps);
      for (unsigned o = 0; o < kNumAluOps; o++)
         t[o] = probe_int_result(AluOp(o));
      return t;
   }();
   return table[unsigned(op)];
}

/* ---- The algebraic rule table ---------------------------------------------
 * Like nir_opt_algebraic: an op with operand patterns and the replacement.
 * Pattern operands: a capture ('a', 'b', 'c'; the same letter twice means
 * the same value), a float constant ('f': compares as a float, so +0 and -0
 * both match 0.0) or an exact integer constant ('i').  Replacement operands:
 * a capture (optionally negated) or a constant.  Ops flagged commutative in
 * the ISA description are also tried with their first two operands swapped.
 *
 * The rules hold exactly up to the sign of a zero result and NaN payloads
 * (e.g. legacy MUL gives +0 for -0 * 1), which is what Mesa sb assumes too.
 * Legacy MUL has 0 * anything = 0 (so a*0 -> 0 holds), MUL_IEEE does not.
 * Float x - x is not 0 for inf/NaN and is left alone; integer x - x is. */
struct Pat {
   char kind = 0; /* 0 unused, 'a'..'c' capture, 'f' float, 'i' integer bits */
   uint32_t bits = 0;
};
struct Out {
   char kind = 0; /* 'a'..'c' capture, 'k' constant bits */
   uint32_t bits = 0;
   bool neg = false;
};
struct Rule {
   AluOp op;
   Pat in[3];
   AluOp to;
   Out out[3];
};

constexpr Pat A{'a', 0}, B{'b', 0}, C{'c', 0};
constexpr Pat F(float f) { return Pat{'f', std::bit_cast<uint32_t>(f)}; }
constexpr Pat I(uint32_t v) { return Pat{'i', v}; }
constexpr Out oA{'a', 0, false}, oB{'b', 0, false}, oC{'c', 0, false};
constexpr Out negA{'a', 0, true};
constexpr Out K(uint32_t v) { return Out{'k', v, false}; }

const Rule kRules[] = {
   /* float */
   {AluOp::MUL, {A, F(1.0f)}, AluOp::MOV, {oA}},
   {AluOp::MUL_IEEE, {A, F(1.0f)}, AluOp::MOV, {oA}},
   {AluOp::MUL, {A, F(-1.0f)}, AluOp::MOV, {negA}},
   {AluOp::MUL_IEEE, {A, F(-1.0f)}, AluOp::MOV, {negA}},
   {AluOp::MUL, {A, F(0.0f)}, AluOp::MOV, {K(0)}},
   {AluOp::ADD, {A, F(0.0f)}, AluOp::MOV, {oA}},
   {AluOp::MULADD, {A, B, F(0.0f)}, AluOp::MUL, {oA, oB}},
   {AluOp::MULADD_IEEE, {A, B, F(0.0f)}, AluOp::MUL_IEEE, {oA, oB}},
   {AluOp::MULADD, {A, F(1.0f), C}, AluOp::ADD, {oA, oC}},
   {AluOp::MULADD_IEEE, {A, F(1.0f), C}, AluOp::ADD, {oA, oC}},
   {AluOp::MULADD, {A, F(0.0f), C}, AluOp::MOV, {oC}},
   {AluOp::MAX, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MIN, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MAX_DX10, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MIN_DX10, {A, A}, AluOp::MOV, {oA}},
   {AluOp::CNDE, {C, A, A}, AluOp::MOV, {oA}},
   {AluOp::CNDGT, {C, A, A}, AluOp::MOV, {oA}},
   {AluOp::CNDGE, {C, A, A}, AluOp::MOV, {oA}},
   /* integer */
   {AluOp::CNDE_INT, {C, A, A}, AluOp::MOV, {oA}},
   {AluOp::CNDGT_INT, {C, A, A}, AluOp::MOV, {oA}},
   {AluOp::CNDGE_INT, {C, A, A}, AluOp::MOV, {oA}},
   {AluOp::ADD_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::SUB_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::SUB_INT, {A, A}, AluOp::MOV, {K(0)}},
   {AluOp::OR_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::OR_INT, {A, A}, AluOp::MOV, {oA}},
   {AluOp::XOR_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::XOR_INT, {A, A}, AluOp::MOV, {K(0)}},
   {AluOp::AND_INT, {A, I(0xffffffffu)}, AluOp::MOV, {oA}},
   {AluOp::AND_INT, {A, I(0)}, AluOp::MOV, {K(0)}},
   {AluOp::AND_INT, {A, A}, AluOp::MOV, {oA}},
   {AluOp::LSHL_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::LSHR_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::ASHR_INT, {A, I(0)}, AluOp::MOV, {oA}},
   {AluOp::MULLO_INT, {A, I(1)}, AluOp::MOV, {oA}},
   {AluOp::MULLO_UINT, {A, I(1)}, AluOp::MOV, {oA}},
   {AluOp::MULLO_INT, {A, I(0)}, AluOp::MOV, {K(0)}},
   {AluOp::MULLO_UINT, {A, I(0)}, AluOp::MOV, {K(0)}},
   {AluOp::MAX_INT, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MIN_INT, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MAX_UINT, {A, A}, AluOp::MOV, {oA}},
   {AluOp::MIN_UINT, {A, A}, AluOp::MOV, {oA}},
};

/* The rules of each op, in table order: simplify tries only those instead
 * of scanning the whole table for every instruction and step. */
struct RulesByOp {
   std::vector<uint8_t> first, count; /* by op: a range of `order` */
   std::vector<uint8_t> order;        /* rule indices grouped by op */
   /* By position in `order`: the rule matches only an instruction with a
    * constant operand (a pattern 'f' or 'i'); most instructions have none,
    * and then such rules are not tried. */
   std::vector<uint8_t> needs_const;
   /* By op: two operand positions that every rule of the op captures with
    * one letter (-1: none), so the operands there must be the same for
    * any rule to match.  One test instead of match_rule for the selects
    * (CNDE* {c, a, a}), which fill the gvn after if_conversion and almost
    * never have two same sides.  Arrays: no allocation of their own. */
   std::array<int8_t, kNumAluOps> same_a, same_b;
   /* By op, for ops that are no select (AF_CMOV): kFoldOnly when the op
    * has no rule, so only folding, which needs every operand constant,
    * can simplify it; kNeedsConst when every rule needs a constant
    * operand (MUL, ADD, MULADD: most instructions), so an instruction
    * with none stays as it is.  For any op, kSamePair when every rule
    * needs the operands at same_a and same_b to be the same: then an
    * instruction with no constant operand (which folding and a select's
    * constant condition need) and two different ones there stays as it
    * is (the selects).  may_simplify tells from these. */
   enum : uint8_t { kAnything, kFoldOnly, kNeedsConst, kSamePair };
   std::array<uint8_t, kNumAluOps> needs;

   /* Two positions below `nsrc` that rule `r` captures with one letter,
    * as x * 4 + y; -1 when none. */
   static int same_pair(const Rule &r, unsigned nsrc)
   {
      for (unsigned x = 0; x < nsrc; x++)
         for (unsigned y = x + 1; y < nsrc; y++)
            if (r.in[x].kind >= 'a' && r.in[x].kind <= 'c' && r.in[x].kind == r.in[y].kind)
               return int(x * 4 + y);
      return -1;
   }

   RulesByOp() : first(kNumAluOps), count(kNumAluOps)
   {
      same_a.fill(-1);
      same_b.fill(-1);
      constexpr size_t n = sizeof(kRules) / sizeof(kRules[0]);
      static_assert(n < 256);
      /* The table bucketed by op in one pass over it, not a pass per op:
       * this runs in a process's first gvn, where a scan of the table for
       * each of the ~200 ops cost about as much as numbering the shader. */
      for (const Rule &r : kRules)
         count[unsigned(r.op)]++;
      for (unsigned o = 0, at = 0; o < kNumAluOps; o++) {
         first[o] = uint8_t(at);
         at += count[o];
      }
      order.resize(n);
      needs_const.resize(n);
      std::array<uint8_t, kNumAluOps> placed{};
      for (size_t i = 0; i < n; i++) {
         const unsigned o = unsigned(kRules[i].op);
         const unsigned at = first[o] + placed[o]++;
         order[at] = uint8_t(i);
         bool k = false;
         for (const Pat &p : kRules[i].in)
            k |= p.kind == 'f' || p.kind == 'i';
         needs_const[at] = k;
      }
      for (unsigned o = 0; o < kNumAluOps; o++) {
         const unsigned end = first[o] + count[o];
         bool all_need_const = true;
         for (unsigned k = first[o]; k < end; k++)
            all_need_const = all_need_const && needs_const[k];
         /* Only the positions match_rule reads. */
         const unsigned nsrc = std::min(unsigned(alu_op_info(AluOp(o)).num_src), 3u);
         int pair = count[o] ? same_pair(kRules[order[first[o]]], nsrc) : -1;
         for (unsigned k = first[o]; k < end; k++)
            if (same_pair(kRules[order[k]], nsrc) != pair)
               pair = -1;
         if (pair >= 0) {
            same_a[o] = int8_t(pair / 4);
            same_b[o] = int8_t(pair % 4);
         }
         const bool select = alu_op_info(AluOp(o)).flags & AF_CMOV;
         needs[o] = !select && !count[o]       ? kFoldOnly
                    : !select && all_need_const ? kNeedsConst
                    : pair >= 0                 ? kSamePair
                                                : kAnything;
      }
   }
};

const RulesByOp &rules_by_op()
{
   static const RulesByOp by_op;
   return by_op;
}

/* The constant patterns ('f', 'i') of rule r against the instruction's
 * operands, by their const_bits `bits`, the first two swapped when `swap`
 * (commutative ops).  Most rules tried fail here (a MUL by a constant
 * other than 0 or +-1), so this part is inline, before match_rule. */
inline bool consts_match(const Rule &r, const std::optional<uint32_t> *bits, unsigned nsrc,
                         bool swap)
{
   for (unsigned i = 0; i < nsrc; i++) {
      const Pat &p = r.in[i];
      if (p.kind != 'f' && p.kind != 'i')
         continue;
      const std::optional<uint32_t> &b = bits[swap && i < 2 ? 1 - i : i];
      if (!b || (p.kind == 'i' ? *b != p.bits : u2f(*b) != u2f(p.bits)))
         return false;
   }
   return true;
}

/* Matches the rest of r (its captures) against the instruction's
 * operands, for a rule whose constant patterns consts_match accepted in
 * the same order: swapped when `swap`, an index mapping rather than a
 * swapped copy of the operand vector, which cost two allocations per rule
 * tried.  The replacement's operands go to `out` (reused scratch). */
bool match_rule(const Rule &r, const ValueList &src, unsigned nsrc, bool swap,
                ValueList &out)
{
   const Value *cap[3] = {};
   for (unsigned i = 0; i < nsrc; i++) {
      const Pat &p = r.in[i];
      const Value &v = src[swap && i < 2 ? 1 - i : i];
      if (p.kind == 'f' || p.kind == 'i')
         continue; /* consts_match's part */
      if (p.kind < 'a' || p.kind > 'c')
         return false;
      const Value *&c = cap[p.kind - 'a'];
      if (c && !same_operand(*c, v))
         return false;
      if (!c)
         c = &v;
   }
   const unsigned nout = alu_op_info(r.to).num_src;
   out.clear();
   for (unsigned i = 0; i < nout; i++) {
      const Out &o = r.out[i];
      if (o.kind == 'k') {
         out.push_back(constant(o.bits));
         continue;
      }
      const Value *c = cap[o.kind - 'a'];
      if (!c)
         return false;
      out.push_back(*c);
      out.back().neg ^= o.neg;
   }
   return true;
}

/* What value numbering compares: the op, clamp/omod and the operands (a
 * constant by its bits, kcache by address, an SSA value by name; the
 * modifiers of the latter two), commutative operands in a canonical order.
 * A fixed-size key instead of a formatted string: no allocation per
 * instruction. */
struct OperandKey {
   char tag = 0; /* 'k' constant bits, 'c' kcache, 'v' SSA value */
   bool neg = false, abs = false;
   uint8_t pad = 0; /* no indeterminate byte: words() reads every one */
   uint32_t a = 0, b = 0, c = 0;

   /* The key as two words, which compare and hash it in two steps rather
    * than field by field.  Their order is not the fields' order, but any
    * total order serves: it only puts commutative operands in a canonical
    * order, and keys are only ever compared for equality. */
   std::array<uint64_t, 2> words() const { return std::bit_cast<std::array<uint64_t, 2>>(*this); }
   bool operator==(const OperandKey &o) const { return words() == o.words(); }
   bool operator<(const OperandKey &o) const { return words() < o.words(); }
};
static_assert(sizeof(OperandKey) == 16);

struct ValueKey {
   uint32_t op = 0;
   bool clamp = false;
   uint8_t omod = 0;
   uint8_t num_src = 0;
   OperandKey ops[3];

   bool operator==(const ValueKey &o) const
   {
      return op == o.op && clamp == o.clamp && omod == o.omod && num_src == o.num_src &&
             ops[0] == o.ops[0] && ops[1] == o.ops[1] && ops[2] == o.ops[2];
   }
};

/* What gvn asks of an instruction's operands, gathered in one walk over
 * them (Gvn::summarize). */
struct OperandSummary {
   bool plain = true;   /* no Rel or None operand */
   bool keyed = true;   /* no unresolved kcache operand: the key is usable */
   unsigned consts = 0; /* constant operands */
   ValueKey key;        /* the operands' part */
};

/* One step of the key hashes: a multiply per operand, whose high bits
 * finish() folds into the low ones the tables index by.  The hash only
 * orders probes: it changes no result. */
uint64_t mix_operand(uint64_t h, const OperandKey &o)
{
   const std::array<uint64_t, 2> w = o.words();
   return (h ^ w[0] ^ std::rotl(w[1], 21)) * 0x9e3779b97f4a7c15ull;
}

uint64_t finish(uint64_t h) { return h ^ (h >> 29) ^ (h >> 47); }

struct ValueKeyHash {
   size_t operator()(const ValueKey &k) const
   {
      uint64_t h = (uint64_t(k.op) << 16) ^ (uint64_t(k.clamp) << 8) ^ (uint64_t(k.omod) << 4) ^
                   k.num_src;
      /* Operands past num_src are default ones in every key with that
       * num_src (summarize): they would add nothing but work.  Unrolled:
       * at most three. */
      if (k.num_src > 0)
         h = mix_operand(h, k.ops[0]);
      if (k.num_src > 1)
         h = mix_operand(h, k.ops[1]);
      if (k.num_src > 2)
         h = mix_operand(h, k.ops[2]);
      return size_t(finish(h));
   }
};

/* A whole dot product (dot_key): per slot its number and two operands,
 * then the op with the written slot's clamp/omod. */
using DotKey = std::array<OperandKey, 13>;

struct DotKeyHash {
   size_t operator()(const DotKey &k) const
   {
      uint64_t h = 0;
      for (const OperandKey &o : k)
         h = mix_operand(h, o);
      return size_t(finish(h));
   }
};

/* The value tables (instructions, whole dot products): open addressing with
 * linear probing over a flat slot array, entries in a pool in insertion
 * order.  Scopes end in the reverse order they began, so entries are
 * removed last-in first-out, and clearing the slot of the newest entry is
 * a correct deletion for linear probing (any key probing past that slot
 * was inserted after it, and is already gone).  One allocation per growth
 * instead of one node per entry.  A slot is only the entry and its hash:
 * growing moves eight bytes a slot and hashes nothing again, and a probe
 * compares a key only when the hashes agree. */
template <class Key, class Hash> class ScopedTable {
 public:
   /* The value of key k, or nullptr; then, when `add` is given, the key
    * goes in with that value: one probe for the lookup and the insertion.
    * `hash` is Hash{}(k).  Entries from the `visible`-th on are not found,
    * and a key among them is not added again.  The table keeps `add`
    * itself, not a copy: the values are results in the tree (a node's
    * dst), which gvn never rewrites or frees, and a pointer is stored
    * and dropped without a Value's copy and destructor. */
   const Value *find_or_add(const Key &k, size_t hash, size_t visible, const Value *add)
   {
      if (add && (vals_.size() + 1) * 2 > slots_.size())
         grow();
      if (slots_.empty())
         return nullptr;
      const uint32_t h32 = uint32_t(hash);
      size_t h = h32 & mask_;
      for (; slots_[h].entry >= 0; h = (h + 1) & mask_) {
         const Slot &sl = slots_[h];
         /* Keys are unique: no other entry can match. */
         if (sl.hash == h32 && keys_[sl.entry] == k)
            return size_t(sl.entry) < visible ? vals_[sl.entry] : nullptr;
      }
      if (add) {
         slots_[h].hash = h32;
         slots_[h].entry = int32_t(vals_.size());
         keys_.push_back(k);
         vals_.push_back(add);
         where_.push_back(uint32_t(h));
      }
      return nullptr;
   }

   size_t size() const { return vals_.size(); }

   /* Removes the newest entries until `n` are left: their slots emptied,
    * then the lists cut once, not an entry at a time. */
   void truncate(size_t n)
   {
      if (vals_.size() <= n)
         return;
      for (size_t e = n; e < where_.size(); e++)
         slots_[where_[e]].entry = -1;
      where_.resize(n);
      keys_.resize(n);
      vals_.resize(n);
   }

 private:
   struct Slot {
      uint32_t hash = 0; /* the low half of Hash{}(key) */
      int32_t entry = -1; /* index into keys_ and vals_, -1: empty */
   };

   void grow()
   {
      const size_t cap = slots_.empty() ? 64 : slots_.size() * 2;
      std::vector<Slot> old;
      old.swap(slots_);
      slots_.assign(cap, Slot{});
      mask_ = cap - 1;
      /* The entries until the next growth (insert keeps at most half the
       * slots in use): one allocation per growth, not one per doubling of
       * each list. */
      keys_.reserve(cap / 2);
      vals_.reserve(cap / 2);
      where_.reserve(cap / 2);
      /* Reinserted in insertion order: the table is then as if built in
       * that order, which keeps the last-in first-out deletion valid. */
      for (size_t e = 0; e < where_.size(); e++) {
         const Slot &o = old[where_[e]];
         size_t h = o.hash & mask_;
         while (slots_[h].entry >= 0)
            h = (h + 1) & mask_;
         slots_[h] = o;
         where_[e] = uint32_t(h);
      }
   }

   std::vector<Slot> slots_;
   size_t mask_ = 0;
   std::vector<Key> keys_;       /* by entry, insertion order */
   std::vector<const Value *> vals_; /* by entry */
   std::vector<uint32_t> where_; /* by entry: its slot */
};

/* The tables and lists of a gvn run, kept with the thread for their
 * storage: gvn runs twice per shader, and allocating them again each time
 * was a good part of an ordinary shader's gvn.  Lent to each run, and
 * given back empty (the tables clear only the slots they used). */
struct GvnTables {
   /* By value_id: what uses of a MOV result read instead, nullptr for
    * none.  The MOV's operand in the tree rather than a copy of it (a
    * Value's deep-copying assignment per MOV, and an optional<Value> per
    * value to construct and destroy): gvn does not rewrite a node's
    * operands once its group is done, which is before its copy is
    * recorded.  A flat table, which every operand's lookup reads once. */
   std::vector<const Value *> copy;
   ScopedTable<ValueKey, ValueKeyHash> table;
   std::vector<size_t> scope_marks; /* table sizes where the open scopes began */
   /* Whole dot products (reduction groups), scoped like `table`. */
   ScopedTable<DotKey, DotKeyHash> dot_table;
   std::vector<size_t> dot_scope_marks;
};

struct Gvn : GvnTables {
   ThreadLend<GvnTables> lend{*this};
   RegionShader &sh;
   /* Looked up once per run, not behind a function-local static's guard
    * in a call per instruction. */
   const RulesByOp &by_op = rules_by_op();
   /* Scratch reused across instructions (no allocation each): a rule's
    * replacement operands. */
   ValueList rule_out;

   explicit Gvn(RegionShader &s) : sh(s) {}

   /* var_in_array, asked for most instructions, without the call when
    * the shader has no arrays (most shaders). */
   bool in_array(int var) const { return !sh.arrays.empty() && var_in_array(sh, var); }

   bool extendable(const Value &v) const
   {
      /* Hardware-loaded inputs and array elements keep their register, so a
       * read may only move to where no later definition of the variable can
       * have replaced it: the value must be the variable's last version. */
      const Var &var = sh.vars[v.var];
      if (var.kind != VarKind::Gpr && var.kind != VarKind::Temp)
         return false;
      if (v.version == 0 || in_array(v.var))
         return v.version == sh.version_count[v.var];
      return true;
   }

   /* A MOV whose uses may read its source instead. */
   /* Its operand (record_copy takes the copy), or nullptr. */
   const Value *copy_source(const Node *a) const
   {
      const AluInstr &in = *a->alu;
      if (in.op != AluOp::MOV || in.pred_sel || in.dst.clamp || in.dst.omod ||
          a->dst.size() != 1 || a->dst[0].kind != ValueKind::Var || a->src.size() != 1)
         return nullptr;
      const Value &s = a->src[0];
      switch (s.kind) {
      case ValueKind::Var:
         if (!extendable(s))
            return nullptr;
         break;
      case ValueKind::KCache:
         if (!s.resolved)
            return nullptr;
         break;
      case ValueKind::Inline:
      case ValueKind::Literal: break;
      default: return nullptr;
      }
      return &s;
   }

   const Value *lookup_copy(const Value &v) const
   {
      if (v.kind != ValueKind::Var)
         return nullptr;
      unsigned id = sh.value_id(v);
      return id < copy.size() ? copy[id] : nullptr;
   }

   /* Uses of `dst` (a Var value) read `src` (a copy_source, which has no
    * relative-addressing lists: only Rel values do) from now on. */
   void record_copy(const Value &dst, const Value &src)
   {
      unsigned id = sh.value_id(dst);
      if (id < copy.size())
         copy[id] = &src;
   }

   /* The use `v` (with its own neg and abs) of a copy of `s` reads `s`
    * instead, rewritten in place: no Value made, moved and destroyed per
    * operand.  It then has s's kind and variable, abs when either had. */
   static void compose_into(Value &v, const Value &s)
   {
      const bool neg = v.neg, abs = v.abs;
      v = s;
      if (abs) {
         v.abs = true;
         v.neg = neg;
      } else {
         v.neg = s.neg != neg;
      }
   }

   static unsigned distinct_kcache(const ValueList &src, unsigned n)
   {
      unsigned count = 0;
      for (unsigned i = 0; i < n; i++) {
         if (src[i].kind != ValueKind::KCache)
            continue;
         bool seen = false;
         for (unsigned j = 0; j < i; j++)
            seen |= src[j].kind == ValueKind::KCache && src[j].bank == src[i].bank &&
                    src[j].index == src[i].index;
         count += !seen;
      }
      return count;
   }

   /* Groups whose slots work together (reductions, Cayman's replicated
    * transcendentals, interpolation) keep their structure: only their
    * operands are rewritten. */
   static bool fixed_group(ChipClass chip, const Node *g)
   {
      for (const Node *a : g->children) {
         if (a->kind != NodeKind::Alu)
            continue;
         const AluOp op = a->alu->op;
         if (alu_is_reduction(chip, op) || (alu_op_info(op).flags & AF_INTERP) ||
             (chip == ChipClass::Cayman && !(alu_slots(chip, op) & kSlotV)))
            return true;
      }
      return false;
   }

   static bool group_writes_var(const Node *g, int var)
   {
      for (const Node *a : g->children)
         for (const Value &d : a->dst)
            if (d.kind == ValueKind::Var && d.var == var)
               return true;
      return false;
   }

   static unsigned group_literals(const Node *g)
   {
      std::vector<uint32_t> seen;
      for (const Node *a : g->children)
         for (const Value &v : a->src)
            if (v.kind == ValueKind::Literal &&
                std::find(seen.begin(), seen.end(), v.literal) == seen.end())
               seen.push_back(v.literal);
      return unsigned(seen.size());
   }

   /* ALU operands read copy sources where the instruction can encode them:
    * op3 sources have no abs; a second constant-cache address in one
    * instruction is not introduced (two constants of one channel from
    * different addresses can leave no bank swizzle); groups that must stay
    * together keep at most four literals. */
   void rewrite_alu_operands(Node *g, Node *a, bool fixed, bool kept_whole)
   {
      const unsigned nsrc = alu_op_info(a->alu->op).num_src;
      const bool op3 = alu_is_op3(a->alu->op);
      const unsigned n = std::min<unsigned>(nsrc, unsigned(a->src.size()));
      for (unsigned i = 0; i < n; i++) {
         /* Chains resolve in one step: a copy's source was itself rewritten
          * before the copy was recorded. */
         const Value *c = lookup_copy(a->src[i]);
         if (!c)
            continue;
         /* The operand as compose_into would make it: c's kind. */
         const ValueKind nkind = c->kind;
         if (op3 && (a->src[i].abs || c->abs))
            continue;
         /* bc_finalize keeps these groups whole: a different register or
          * constant-cache read could leave no bank swizzle, or make the
          * group swap registers. */
         if (kept_whole && nkind != ValueKind::Inline && nkind != ValueKind::Literal)
            continue;
         /* Reading a register a sibling slot overwrites makes the group a
          * swap, which bc_finalize can only emit whole (or not at all). */
         if (nkind == ValueKind::Var && group_writes_var(g, c->var))
            continue;
         /* Only a constant-cache operand coming or going can change the
          * count of distinct addresses. */
         const bool kc_changes =
            nkind == ValueKind::KCache || a->src[i].kind == ValueKind::KCache;
         /* Nothing below can refuse the rewrite (most operands, which are
          * registers): no old operand to keep. */
         if (!kc_changes && (nkind != ValueKind::Literal || (!fixed && !kept_whole))) {
            compose_into(a->src[i], *c);
            continue;
         }
         const unsigned kc_before = kc_changes ? distinct_kcache(a->src, nsrc) : 0;
         Value old = a->src[i]; /* a register or constant: no relative parts */
         compose_into(a->src[i], *c);
         const unsigned kc_after = kc_changes ? distinct_kcache(a->src, nsrc) : 0;
         bool ok = (kc_after <= 1 || kc_after <= kc_before) &&
                   ((!fixed && !kept_whole) || nkind != ValueKind::Literal ||
                    group_literals(g) <= 4);
         if (!ok)
            a->src[i] = std::move(old);
      }
   }

   /* The first child with an operand that has a copy; the number of
    * children when none has.  A filter for rewrite_alu_operands, which
    * looks at the op's operands only: every operand is looked at here,
    * which needs no op lookup (the children before the one found read no
    * copy either way). */
   size_t first_copy_reader(const Node *g) const
   {
      for (size_t k = 0; k < g->children.size(); k++) {
         const Node *a = g->children[k];
         if (a->kind != NodeKind::Alu)
            continue;
         const Value *src = a->src.data();
         const size_t n = a->src.size();
         for (size_t i = 0; i < n; i++)
            if (lookup_copy(src[i]))
               return k;
      }
      return g->children.size();
   }

   /* Fetch and export operands: only a plain register value, because the
    * instruction reads a GPR through a swizzle with no modifiers. */
   void rewrite_plain_operands(Node *n)
   {
      for (Value &v : n->src) {
         const Value *c = lookup_copy(v);
         if (!c || v.neg || v.abs)
            continue;
         const Value &s = *c;
         if (s.kind != ValueKind::Var || s.neg || s.abs)
            continue;
         v.var = s.var;
         v.version = s.version;
      }
   }

   /* `src` must not point into a->src. */
   void replace(Node *a, AluOp op, const Value *src, size_t n, bool keep_mods)
   {
      AluInstr *ni = sh.new_alu(op);
      *ni = *a->alu;
      ni->op = op;
      ni->dst.write = true;
      if (!keep_mods) {
         ni->dst.clamp = false;
         ni->dst.omod = 0;
      }
      if (alu_is_op3(op))
         ni->dst.omod = 0;
      /* The selectors are stale anyway; clear those the new op lacks. */
      for (unsigned k = alu_op_info(op).num_src; k < 3; k++)
         ni->src[k] = AluSrc{};
      a->alu = ni;
      /* assign: reuses the operand vector's storage. */
      a->src.assign(src, src + n);
   }

   void replace(Node *a, AluOp op, const Value &src, bool keep_mods)
   {
      replace(a, op, &src, 1, keep_mods);
   }

   /* An instruction gvn may simplify and number, from its op and
    * destination; its operands are summarize's part. */
   bool simple_instr(const Node *a) const
   {
      const AluInstr &in = *a->alu;
      return !in.pred_sel && a->dst.size() == 1 && a->dst[0].kind == ValueKind::Var &&
             pure_op(sh.chip, in.op) && a->src.size() == alu_op_info(in.op).num_src;
   }

   /* Whether the operands at the op's same_a and same_b positions, as
    * match_rule reads them unswapped or (commutative ops) swapped, are
    * the same; true for an op without such a pair. */
   bool same_pair_holds(const Node *a, bool comm) const
   {
      const AluOp op = a->alu->op;
      const int pa = by_op.same_a[unsigned(op)];
      if (pa < 0)
         return true;
      const int pb = by_op.same_b[unsigned(op)];
      const auto swapped = [](int i) { return i < 2 ? 1 - i : i; };
      return same_operand(a->src[pa], a->src[pb]) ||
             (comm && same_operand(a->src[swapped(pa)], a->src[swapped(pb)]));
   }

   /* False when simplify would leave the instruction as it is, from a
    * look at its op and operands: so for most instructions (MOVs, ops
    * whose every rule needs a constant operand they do not have, and
    * selects of two different values).  Asked for every instruction,
    * inline; simplify is a call. */
   bool may_simplify(const Node *a, const OperandSummary &s) const
   {
      const AluOp op = a->alu->op;
      if (op == AluOp::MOV)
         return false;
      const uint8_t needs = by_op.needs[unsigned(op)];
      if (needs == RulesByOp::kAnything)
         return true;
      /* Folding needs every operand constant, a rule at least one. */
      const unsigned nsrc = alu_op_info(op).num_src;
      const unsigned consts = s.consts;
      if (needs == RulesByOp::kSamePair)
         return consts > 0 || nsrc == 0 || same_pair_holds(a, commutative(sh.chip, op));
      return needs == RulesByOp::kFoldOnly ? consts == nsrc : consts > 0 || nsrc == 0;
   }

   /* One folding or rule step; true when the instruction changed. */
   [[gnu::noinline]] bool simplify(Node *a)
   {
      const AluInstr &in = *a->alu;
      const AluOp op = in.op;
      if (op == AluOp::MOV)
         return false;
      const unsigned nsrc = alu_op_info(op).num_src;
      const bool mods = in.dst.clamp || in.dst.omod;
      const bool keep_mods = !int_result(op);

      /* All operands constant: evaluate as the emulator does. */
      uint32_t k[3] = {};
      std::optional<uint32_t> bits[3];
      bool all_const = true, any_const = false;
      for (unsigned i = 0; i < nsrc; i++) {
         const std::optional<uint32_t> b = bits[i] = const_bits(a->src[i]);
         all_const = all_const && b;
         any_const = any_const || b;
         if (b)
            k[i] = *b;
      }
      if (all_const && !mods) {
         emu::SlotResult r;
         if (emu::alu_eval(sh.chip, op, k[0], k[1], k[2], r)) {
            replace(a, AluOp::MOV, constant(r.value), false);
            return true;
         }
      }

      /* A select on a constant condition is a copy of one side. */
      if (alu_op_info(op).flags & AF_CMOV) {
         const std::optional<uint32_t> &cond = bits[0];
         emu::SlotResult r;
         if (cond && (keep_mods || !mods) && emu::alu_eval(sh.chip, op, *cond, 0, 1, r)) {
            const Value pick = a->src[r.value == 0 ? 1 : 2];
            replace(a, AluOp::MOV, pick, keep_mods);
            return true;
         }
      }

      if (mods && !keep_mods)
         return false;
      const unsigned first = by_op.first[unsigned(op)], count = by_op.count[unsigned(op)];
      if (!count)
         return false; /* most ops: no rule, and no commutativity to ask */
      const bool comm = commutative(sh.chip, op);
      if (!same_pair_holds(a, comm))
         return false;
      ValueList &out = rule_out;
      for (unsigned ri = first; ri < first + count; ri++) {
         if (!any_const && by_op.needs_const[ri])
            continue;
         const Rule &r = kRules[by_op.order[ri]];
         bool hit = consts_match(r, bits, nsrc, false) && match_rule(r, a->src, nsrc, false, out);
         if (!hit && comm)
            hit = consts_match(r, bits, nsrc, true) && match_rule(r, a->src, nsrc, true, out);
         if (!hit)
            continue;
         /* Abs cannot be encoded on op3 operands. */
         bool ok = true;
         if (alu_is_op3(r.to))
            for (const Value &v : out)
               ok = ok && !v.abs;
         if (!ok)
            continue;
         replace(a, r.to, out.data(), out.size(), keep_mods);
         return true;
      }
      return false;
   }

   static OperandKey key_operand(const Value &v)
   {
      OperandKey k;
      if (auto b = const_bits(v)) {
         k.tag = 'k';
         k.a = *b;
      } else if (v.kind == ValueKind::KCache) {
         k.tag = 'c';
         k.a = v.bank;
         k.b = v.index;
         k.c = v.chan;
         k.neg = v.neg;
         k.abs = v.abs;
      } else {
         k.tag = 'v';
         k.a = uint32_t(v.var);
         k.b = v.version;
         k.neg = v.neg;
         k.abs = v.abs;
      }
      return k;
   }

   /* One walk over the operands of a simple_instr for what simplifying
    * and numbering it ask of them: whether it reads a Rel or None
    * operand (then it is left alone, and the rest is not filled), how
    * many are constants, and its value key's operands (`s.key` from
    * a fresh key; finish_key completes it).  Once instead of a walk per
    * question: this is most of gvn's work per instruction. */
   static OperandSummary summarize(const Node *a)
   {
      OperandSummary s;
      /* The op's num_src (simple_instr), at most an AluInstr's three. */
      const unsigned n = unsigned(a->src.size());
      s.key.num_src = uint8_t(n);
      for (unsigned i = 0; i < n; i++) {
         const Value &v = a->src[i];
         OperandKey &k = s.key.ops[i];
         /* Most operands are SSA values: key_operand's last case first. */
         if (v.kind == ValueKind::Var) {
            k.tag = 'v';
            k.a = uint32_t(v.var);
            k.b = v.version;
            k.neg = v.neg;
            k.abs = v.abs;
            continue;
         }
         if (v.kind == ValueKind::Rel || v.kind == ValueKind::None) {
            s.plain = false;
            return s;
         }
         /* An unresolved kcache operand leaves the key unused. */
         if (v.kind == ValueKind::KCache && !v.resolved)
            s.keyed = false;
         k = key_operand(v);
         s.consts += k.tag == 'k';
      }
      return s;
   }

   /* The op and destination modifiers of the key summarize started, the
    * operands of a commutative op in a canonical order.  False when the
    * instruction has no key. */
   bool finish_key(const Node *a, OperandSummary &s) const
   {
      if (!s.keyed)
         return false;
      const AluInstr &in = *a->alu;
      ValueKey &key = s.key;
      key.op = uint32_t(in.op);
      key.clamp = in.dst.clamp;
      key.omod = uint8_t(in.dst.omod);
      if (key.num_src >= 2 && key.ops[1] < key.ops[0] && commutative(sh.chip, in.op))
         std::swap(key.ops[0], key.ops[1]);
      return true;
   }

   /* A dot product the same operands computed before (the ubershaders'
    * DP3 of one light vector in several arms, side by side once the arms
    * are if-converted) becomes a copy of that result: the group shrinks to
    * the one MOV of its written slot.  Only DOT4/DOT4_IEEE/MAX4 groups
    * writing one result; operands keep their slots (the hardware's sum
    * order), only the two operands within a slot are ordered, as a
    * product commutes exactly. */
   bool dot_key(const Node *g, Node *&written, DotKey &key) const
   {
      written = nullptr;
      unsigned nk = 0;
      AluOp op = AluOp::ALU_NOP;
      if (g->children.size() != 4)
         return false;
      for (const Node *a : g->children) {
         if (a->kind != NodeKind::Alu || !a->alu || a->src.size() != 2 || a->dst.size() != 1)
            return false;
         const AluInstr &in = *a->alu;
         if (in.op != AluOp::DOT4 && in.op != AluOp::DOT4_IEEE && in.op != AluOp::MAX4)
            return false;
         if (op != AluOp::ALU_NOP && in.op != op)
            return false;
         op = in.op;
         if (in.pred_sel || in.update_exec_mask || in.update_pred)
            return false;
         const Value &d = a->dst[0];
         if (d.kind == ValueKind::Var) {
            if (written || in_array(d.var))
               return false;
            written = const_cast<Node *>(a);
         } else if (d.kind != ValueKind::None) {
            return false;
         }
         OperandKey k[2];
         for (unsigned i = 0; i < 2; i++) {
            const Value &v = a->src[i];
            if (v.kind == ValueKind::Rel || v.kind == ValueKind::None ||
                (v.kind == ValueKind::KCache && !v.resolved))
               return false;
            k[i] = key_operand(v);
         }
         if (op != AluOp::MAX4 && k[1] < k[0])
            std::swap(k[0], k[1]);
         OperandKey slot;
         slot.tag = 's';
         slot.a = in.slot;
         key[nk++] = slot;
         key[nk++] = k[0];
         key[nk++] = k[1];
      }
      if (!written)
         return false;
      /* Every slot gets the sum: which one writes it does not matter, only
       * the clamp/omod applied where it is written. */
      OperandKey o;
      o.tag = 'o';
      o.a = uint32_t(op);
      o.b = written->alu->dst.clamp;
      o.c = uint32_t(written->alu->dst.omod);
      key[nk++] = o;
      return true;
   }

   /* True when the group became a copy of an earlier dot product. */
   bool number_dot(Node *g)
   {
      Node *written = nullptr;
      DotKey key;
      if (!dot_key(g, written, key))
         return false;
      const size_t hash = DotKeyHash{}(key);
      if (const Value *first = dot_table.find_or_add(key, hash, SIZE_MAX, &written->dst[0])) {
         /* The key holds the written slot's clamp/omod: the earlier
          * result has them applied already. */
         replace(written, AluOp::MOV, *first, false);
         g->children = {written};
         return true;
      }
      return false;
   }

   void group(Node *g)
   {
      const bool fixed = fixed_group(sh.chip, g);
      /* Rewriting leaves a group that reads no copy as it is; then
       * alu_group_is_fixed, asked only for that, is skipped too (about
       * half the groups in the gvn after if_conversion, which sees a tree
       * the first one already rewrote). */
      const size_t reader = first_copy_reader(g);
      if (reader < g->children.size()) {
         const bool kept_whole = alu_group_is_fixed(g);
         /* The children before `reader` read no copy: nothing to rewrite. */
         for (size_t k = reader; k < g->children.size(); k++)
            if (g->children[k]->kind == NodeKind::Alu)
               rewrite_alu_operands(g, g->children[k], fixed, kept_whole);
      }
      if (fixed && number_dot(g)) {
         /* Now a plain copy: recorded as one below. */
         if (const Value *c = copy_source(g->children[0]))
            record_copy(g->children[0]->dst[0], *c);
         return;
      }

      /* No slot reads a value its own group defines: the group's entries go
       * in as they come, but lookups see only those of earlier groups. */
      const size_t visible = table.size();
      for (Node *a : g->children) {
         if (a->kind != NodeKind::Alu)
            continue;
         number(a, fixed, visible);
         /* Copies are read only by the rewriting above: recording one
          * before the group's later slots are numbered changes nothing. */
         if (const Value *s = copy_source(a))
            record_copy(a->dst[0], *s);
      }
   }

   /* Simplifies and numbers one instruction of a group, looking up the
    * table's first `visible` entries. */
   void number(Node *a, bool fixed, size_t visible)
   {
      /* A plain MOV (half the instructions) is not simplified, and is
       * left alone: no need to ask simple_instr. */
      if (fixed || plain_mov(a) || !simple_instr(a))
         return;
      OperandSummary s = summarize(a);
      if (!s.plain)
         return;
      /* A step that changed the instruction changed its operands. */
      for (unsigned step = 0; step < 4 && may_simplify(a, s) && simplify(a); step++)
         s = summarize(a);
      if (plain_mov(a) || !finish_key(a, s))
         return;
      const ValueKey &key = s.key;
      /* Array elements keep their register; their values must not be
       * read elsewhere in place of a recomputation. */
      const Value &d = a->dst[0];
      const size_t hash = ValueKeyHash{}(key);
      if (const Value *first =
             table.find_or_add(key, hash, visible, in_array(d.var) ? nullptr : &d))
         replace(a, AluOp::MOV, *first, false);
   }

   static bool plain_mov(const Node *a)
   {
      return a->alu->op == AluOp::MOV && !a->alu->dst.clamp && !a->alu->dst.omod;
   }

   void push_scope()
   {
      scope_marks.push_back(table.size());
      dot_scope_marks.push_back(dot_table.size());
   }

   void pop_scope()
   {
      table.truncate(scope_marks.back());
      scope_marks.pop_back();
      dot_table.truncate(dot_scope_marks.back());
      dot_scope_marks.pop_back();
   }

   void walk(Node *n)
   {
      switch (n->kind) {
      case NodeKind::Root:
         for (Node *c : n->children)
            walk(c);
         break;
      case NodeKind::Region:
      case NodeKind::Depart:
      case NodeKind::Repeat:
      case NodeKind::If:
         push_scope();
         for (Node *c : n->children)
            walk(c);
         pop_scope();
         break;
      case NodeKind::Cf:
         /* A clause's children are mostly groups: no recursive call each. */
         for (Node *c : n->children) {
            if (c->kind == NodeKind::AluGroup)
               group(c);
            else
               walk(c);
         }
         if (n->cf && (n->cf->op == CfOp::EXPORT || n->cf->op == CfOp::EXPORT_DONE))
            rewrite_plain_operands(n);
         break;
      case NodeKind::AluGroup: group(n); break;
      case NodeKind::Fetch: rewrite_plain_operands(n); break;
      default: break;
      }
   }
};

bool check_numbered(const RegionShader &sh, const char *pass, Diagnostics &diags)
{
   if (!sh.root || sh.value_base.size() != sh.vars.size() ||
       sh.version_count.size() != sh.vars.size()) {
      diags.error("sb", SourceLoc{}, std::string(pass) + ": the shader is not in numbered SSA form");
      return false;
   }
   return true;
}

} // namespace

bool gvn(RegionShader &sh, Diagnostics &diags)
{
   if (!check_numbered(sh, "gvn", diags))
      return false;
   Gvn g(sh);
   g.copy.assign(sh.num_values(), nullptr);
   g.walk(sh.root);
   g.table.truncate(0);
   g.dot_table.truncate(0);
   g.scope_marks.clear();
   g.dot_scope_marks.clear();
   return true;
}

} // namespace sbcc::r600::sb::region
