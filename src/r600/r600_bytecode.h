/*
 * r600-family bytecode model (R600, R700, Evergreen, Cayman).
 *
 * One representation shared by the assembler (model -> dwords), the decoder
 * (dwords -> model), the disassembler, the validating emulator, the TGSI
 * backend and the sb-style optimizer.  It mirrors the hardware program
 * layout: a list of CF instructions, some of which own a clause (ALU groups
 * with literals, or TEX/VTX fetches).  Field values are the hardware ones
 * (selectors, swizzle codes, kcache modes), so nothing is lost between bytes
 * and model; addresses are not stored by users, the assembler computes them.
 *
 * Owns: src/r600/isa (the ISA description), this model, r600_asm, r600_disasm,
 * r600_binary.  May use: common.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/small_vector.h"

/* Generated into <builddir>/src/r600; inc_src covers the build dir too. */
#include "r600/r600_isa_gen.h"

namespace sbcc::r600 {

/* "r600", "r700", "evergreen", "cayman" or a family name ("CYPRESS",
 * "RV770", ...), case-insensitive. */
std::optional<ChipClass> chip_class_from_name(std::string_view name);
std::string_view chip_class_name(ChipClass cls); /* "r600", "r700", ... */

inline constexpr unsigned chip_index(ChipClass cls) { return static_cast<unsigned>(cls); }
inline constexpr bool is_eg_or_later(ChipClass cls) { return cls >= ChipClass::Evergreen; }
/* Cayman has no trans unit: groups have 4 slots. */
inline unsigned slots_per_group(ChipClass cls) { return cls == ChipClass::Cayman ? 4 : 5; }

/* Opcode numbers of an operation on a chip class; -1 when it does not
 * exist.  The ALU ones are table reads that the assembler, the validator
 * and sb's schedulers ask for every instruction: inline. */
inline unsigned alu_slots(ChipClass cls, AluOp op) /* AluSlotBits; 0 = absent */
{
   return alu_op_info(op).slots[chip_index(cls)];
}
inline int alu_opcode(ChipClass cls, AluOp op)
{
   const AluOpInfo &info = alu_op_info(op);
   return info.slots[chip_index(cls)] ? info.opcode[chip_index(cls) >> 1] : -1;
}
int fetch_opcode(ChipClass cls, FetchOp op);
int cf_opcode(ChipClass cls, CfOp op);
inline bool alu_is_op3(AluOp op) { return alu_op_info(op).num_src == 3; }
/* Only in the trans slot (never on Cayman, which has none). */
inline bool alu_is_trans_only(ChipClass cls, AluOp op)
{
   return cls != ChipClass::Cayman && alu_slots(cls, op) == kSlotS;
}

/* Reverse lookups used when decoding. */
std::optional<AluOp> alu_op_from_opcode(ChipClass cls, bool op3, unsigned opcode);
/* opcode = INST | INST_MOD << 8; vtx selects the VTX clause opcode space. */
std::optional<FetchOp> fetch_op_from_opcode(ChipClass cls, bool vtx, unsigned opcode);
/* alu: the opcode came from a CF_ALU_WORD1 (their numbers overlap others). */
std::optional<CfOp> cf_op_from_opcode(ChipClass cls, bool alu, unsigned opcode);

std::optional<AluOp> alu_op_from_name(std::string_view name);
std::optional<FetchOp> fetch_op_from_name(std::string_view name);
std::optional<CfOp> cf_op_from_name(std::string_view name);

enum Slot : uint8_t { kSlotX = 0, kSlotY, kSlotZ, kSlotW, kSlotT };

/* Swizzle / select codes used by fetch dst/src and export selects. */
enum SelCode : uint8_t { kSelX = 0, kSelY, kSelZ, kSelW, kSel0, kSel1, kSelMask = 7 };

struct AluSrc {
   uint16_t sel = 0; /* 9-bit selector: GPR, kcache, inline constant, PV/PS, ... */
   uint8_t chan = 0; /* for LITERAL: index into the group's literals */
   bool neg = false;
   bool abs = false; /* only src0/src1 of OP2 instructions */
   bool rel = false;

   bool is_literal() const { return sel == kSrc_LITERAL; }

   bool operator==(const AluSrc &) const = default;
};

struct AluDst {
   uint8_t gpr = 0;
   uint8_t chan = 0;
   bool write = true; /* OP2 WRITE_MASK; OP3 always writes */
   bool rel = false;
   bool clamp = false;
   uint8_t omod = 0; /* OP2 only: 0 none, 1 *2, 2 *4, 3 /2 */

   bool operator==(const AluDst &) const = default;
};

struct AluInstr {
   AluOp op = AluOp::ALU_NOP;
   uint8_t slot = kSlotX; /* Slot; the assembler emits slots in x y z w t order */
   std::array<AluSrc, 3> src{};
   AluDst dst{};
   uint8_t bank_swizzle = 0;
   uint8_t pred_sel = 0;   /* 0 off, 2 pred==0, 3 pred==1 (hardware codes) */
   uint8_t index_mode = 0; /* relative addressing source: AR.x/y/z/w, loop index, ... */
   bool update_exec_mask = false;
   bool update_pred = false;
   bool fog_merge = false; /* R600 only */

   bool operator==(const AluInstr &) const = default;
};

/* Whether an instruction does more than compute its result from its
 * operands: predicated, updating the exec mask or predicate, merging fog,
 * or addressing through an index register.  sb keeps such an instruction
 * in place and its group whole.  Or-ed, not ||: plain fields, so one test
 * of all five rather than a branch each (asked for every instruction). */
inline bool alu_has_control_fields(const AluInstr &in)
{
   return in.pred_sel | in.index_mode | in.update_exec_mask | in.update_pred | in.fog_merge;
}

/* A group's lists live inside it (common/small_vector.h): every pass that
 * builds groups makes thousands of them, and as std::vectors each cost one
 * or two allocations.  Only a malformed group, which the validator refuses,
 * goes beyond the slots and literals a group can have. */
struct AluGroup {
   SmallVector<AluInstr, 5> instrs; /* in slot order */
   /* Literal constants referenced as LITERAL.chan; at most 4.  An odd count is
    * padded with literal_pad (Mesa leaves stale data there; kept for
    * bit-identical round trips). */
   SmallVector<uint32_t, 4> literals;
   uint32_t literal_pad = 0;

   bool operator==(const AluGroup &) const = default;
};

/* Constant cache lock of an ALU clause. */
struct KCacheLock {
   uint8_t bank = 0;       /* constant buffer */
   uint8_t mode = 0;       /* 0 none, 1 lock 16 constants, 2 lock 32, 3 loop-index relative */
   uint8_t addr = 0;       /* first constant / 16 */
   uint8_t index_mode = 0; /* EG ALU_EXT: 0 none, 1 CF_INDEX_0, 2 CF_INDEX_1 */

   bool operator==(const KCacheLock &) const = default;
};

struct TexInstr {
   FetchOp op = FetchOp::SAMPLE;
   uint8_t resource_id = 0;
   uint8_t sampler_id = 0;
   uint8_t src_gpr = 0;
   bool src_rel = false;
   std::array<uint8_t, 4> src_sel{0, 1, 2, 3};
   uint8_t dst_gpr = 0;
   bool dst_rel = false;
   std::array<uint8_t, 4> dst_sel{0, 1, 2, 3};
   uint8_t lod_bias = 0; /* 7-bit hardware field */
   std::array<bool, 4> coord_type{true, true, true, true}; /* normalized */
   std::array<int8_t, 3> offset{0, 0, 0};                  /* signed 5-bit */
   bool fetch_whole_quad = false;
   bool alt_const = false;
   bool bc_frac_mode = false;       /* R600/R700 */
   uint8_t resource_index_mode = 0; /* EG */
   uint8_t sampler_index_mode = 0;  /* EG */

   bool operator==(const TexInstr &) const = default;
};

struct VtxInstr {
   FetchOp op = FetchOp::VFETCH;
   uint8_t buffer_id = 0;
   uint8_t fetch_type = 0; /* 0 vertex data, 1 instance data, 2 no index offset */
   uint8_t src_gpr = 0;
   bool src_rel = false;
   uint8_t src_sel_x = 0;
   uint8_t mega_fetch_count = 0;
   uint8_t dst_gpr = 0; /* VFETCH; SEMFETCH writes semantic_id instead */
   bool dst_rel = false;
   uint8_t semantic_id = 0;
   std::array<uint8_t, 4> dst_sel{0, 1, 2, 3};
   bool use_const_fields = false;
   uint8_t data_format = 0;
   uint8_t num_format_all = 0;
   bool format_comp_all = false;
   bool srf_mode_all = false;
   uint16_t offset = 0;
   uint8_t endian_swap = 0;
   bool const_buf_no_stride = false;
   bool mega_fetch = false;
   bool alt_const = false;
   bool fetch_whole_quad = false;
   uint8_t buffer_index_mode = 0; /* EG */

   bool operator==(const VtxInstr &) const = default;
};

using FetchInstr = std::variant<TexInstr, VtxInstr>;

inline FetchOp fetch_op(const FetchInstr &f)
{
   return std::holds_alternative<TexInstr>(f) ? std::get<TexInstr>(f).op : std::get<VtxInstr>(f).op;
}

/* CF_ALLOC_EXPORT fields (EXPORT*, MEM_*). */
struct ExportInfo {
   uint8_t type = 0; /* EXPORT: 0 pixel, 1 pos, 2 param; MEM: write/write_ind/... */
   uint16_t array_base = 0;
   uint8_t gpr = 0;
   bool rw_rel = false;
   uint8_t index_gpr = 0;
   uint8_t elem_size = 0;
   uint8_t burst_count = 1; /* number of consecutive GPRs, 1..16 */
   std::array<uint8_t, 4> swizzle{0, 1, 2, 3}; /* EXPORT (SWIZ) */
   uint16_t array_size = 0;                     /* MEM (BUF) */
   uint8_t comp_mask = 0xf;                     /* MEM (BUF) */

   bool operator==(const ExportInfo &) const = default;
};

struct CfInstr {
   CfOp op = CfOp::NOP;
   /* CF_TARGET ops: index into Program::cf of the target (may be cf.size()). */
   uint32_t target = 0;
   /* Other non-clause CF ops (NOP, CALL_FS, ...): the raw ADDR field. */
   uint32_t addr = 0;
   uint8_t pop_count = 0;
   uint8_t cf_const = 0;
   uint8_t cond = 0;
   uint8_t count = 0;      /* non-clause ops only (e.g. EMIT stream); clauses derive it */
   uint8_t call_count = 0; /* R600/R700 */
   uint8_t jumptable_sel = 0; /* EG */
   bool barrier = true;
   bool valid_pixel_mode = false;
   bool whole_quad_mode = false;
   bool end_of_program = false;
   bool mark = false;      /* EG exports */
   bool alt_const = false; /* ALU clauses */

   /* ALU clauses */
   bool alu_ext = false; /* preceded by an ALU_EXT word pair (EG/CM) */
   std::array<KCacheLock, 4> kcache{};
   std::vector<AluGroup> groups;

   /* TEX / VTX clauses */
   std::vector<FetchInstr> fetches;

   /* EXPORT / MEM */
   ExportInfo exp;

   /* Dword addresses filled in by the decoder (and by assemble_layout). */
   uint32_t cf_addr = 0;     /* of the first word (the ALU_EXT pair if any) */
   uint32_t clause_addr = 0; /* of the clause body */

   bool operator==(const CfInstr &) const = default;
};

struct Program {
   ChipClass chip = ChipClass::Evergreen;
   std::vector<CfInstr> cf;

   bool operator==(const Program &) const = default;
};

/* ---- Helpers for code that builds or inspects programs ------------------ */

/* What an ALU source selector names on a chip class. */
enum class SrcKind : uint8_t {
   Gpr, ClauseTemp, KCache, ConstFile, Param, Inline, Literal, PV, PS, Unknown
};
constexpr SrcKind classify_src(ChipClass cls, unsigned sel)
{
   const bool eg = is_eg_or_later(cls);
   if (sel < kSrcClauseTempFirst)
      return SrcKind::Gpr;
   if (sel <= kSrcGPRLast)
      return SrcKind::ClauseTemp;
   if (sel <= kSrcKCACHE1Last)
      return SrcKind::KCache;
   if (!eg && sel >= kSrcCFILEFirst && sel <= kSrcCFILELast)
      return SrcKind::ConstFile;
   if (eg && sel >= kSrcKCACHE2First && sel <= kSrcKCACHE3Last)
      return SrcKind::KCache;
   if (eg && sel >= kSrcPARAMFirst && sel <= kSrcPARAMLast)
      return SrcKind::Param;
   if (sel == kSrc_LITERAL)
      return SrcKind::Literal;
   if (sel == kSrc_PV)
      return SrcKind::PV;
   if (sel == kSrc_PS)
      return SrcKind::PS;
   for (const SrcInlineInfo &info : kSrcInline) {
      if (info.sel == sel && (info.chips >> static_cast<unsigned>(cls)) & 1)
         return SrcKind::Inline;
   }
   return SrcKind::Unknown;
}

/* classify_src for every 9-bit selector of every chip class, built at
 * compile time: the schedulers and the validator ask for the kind of each
 * operand many times per group, and inline constants are found by a search. */
struct SrcKindTable {
   static constexpr unsigned kSels = 512;
   SrcKind kind[kNumChipClasses][kSels] = {};
   constexpr SrcKindTable()
   {
      for (unsigned c = 0; c < kNumChipClasses; c++)
         for (unsigned sel = 0; sel < kSels; sel++)
            kind[c][sel] = classify_src(static_cast<ChipClass>(c), sel);
   }
};
inline constexpr SrcKindTable kSrcKindTable{};

inline SrcKind src_kind(ChipClass cls, unsigned sel)
{
   return sel < SrcKindTable::kSels ? kSrcKindTable.kind[chip_index(cls)][sel]
                                    : classify_src(cls, sel);
}
/* kcache set (0-3) of a KCache selector, and the constant index within it.
 * Sets 0/1 sit at 128/160, sets 2/3 (Evergreen) at 256/288, 32 each.
 * Inline, like kcache_constant: every constant operand asks. */
inline unsigned src_kcache_set(unsigned sel)
{
   return sel < 256 ? (sel - 128) / 32 : 2 + (sel - 256) / 32;
}
inline unsigned src_kcache_index(unsigned sel) { return sel % 32; }

inline AluSrc src_gpr(unsigned gpr, unsigned chan, bool neg = false, bool abs = false)
{
   return AluSrc{static_cast<uint16_t>(gpr), static_cast<uint8_t>(chan), neg, abs, false};
}
/* set 0/1 on every chip, 2/3 on Evergreen+ (needs alu_ext on the clause). */
AluSrc src_kcache(unsigned set, unsigned index, unsigned chan);
inline AluSrc src_inline(AluSrcSel sel) { return AluSrc{static_cast<uint16_t>(sel), 0, false, false, false}; }
inline AluSrc src_literal(unsigned index)
{
   return AluSrc{kSrc_LITERAL, static_cast<uint8_t>(index), false, false, false};
}
inline AluSrc src_param(unsigned index, unsigned chan)
{
   return AluSrc{static_cast<uint16_t>(kSrcPARAMFirst + index), static_cast<uint8_t>(chan), false,
                 false, false};
}

/* Constant-buffer element a kcache selector reads through a clause's lock:
 * lock.addr * 16 + index, when the lock covers it (16 constants for mode 1,
 * 32 for mode 2).  Mode 3 (loop-index relative) needs the loop index and
 * mode 0 locks nothing: nullopt. */
inline std::optional<unsigned> kcache_constant(const KCacheLock &lock, unsigned index)
{
   const unsigned size = lock.mode == 1 ? 16 : lock.mode == 2 ? 32 : 0;
   if (index >= size)
      return std::nullopt;
   return lock.addr * 16u + index;
}

/* Writes the predicate (PRED_SET*, with or without push). */
inline bool alu_writes_pred(AluOp op) { return alu_op_info(op).flags & (AF_PRED | AF_PRED_PUSH); }
/* Occupies all four vector slots (DOT4, CUBE, MAX4, Cayman MULLO_INT, ...). */
inline bool alu_is_reduction(ChipClass cls, AluOp op) { return alu_slots(cls, op) & kSlot4; }

/* Number of CF slots (word pairs) an instruction takes. */
inline unsigned cf_slots(const CfInstr &cf) { return cf.alu_ext ? 2 : 1; }
/* Literal count one instruction needs: 1 + the highest LITERAL chan among
 * the operands its opcode reads (0 = none).  Few instructions read a
 * literal, so the three selectors are tested before the opcode is looked
 * up.  The opcode must be valid. */
inline unsigned alu_instr_literals_needed(const AluInstr &in)
{
   if (!in.src[0].is_literal() && !in.src[1].is_literal() && !in.src[2].is_literal())
      return 0;
   const unsigned nsrc = alu_op_info(in.op).num_src;
   unsigned n = 0;
   for (unsigned s = 0; s < nsrc; s++) {
      if (in.src[s].is_literal())
         n = std::max(n, in.src[s].chan + 1u);
   }
   return n;
}
/* Literal count a group needs: the most any of its instructions needs. */
unsigned group_literals_needed(const AluGroup &g);
/* Dwords of a group whose instructions need `lits_needed` literals (what
 * group_literals_needed() counts, for a caller that has it already): the
 * instructions and the literals, padded to pairs. */
inline unsigned alu_group_dwords(const AluGroup &g, unsigned lits_needed)
{
   const unsigned lits = std::max<unsigned>(unsigned(g.literals.size()), lits_needed);
   return 2 * unsigned(g.instrs.size()) + ((lits + 1) & ~1u);
}
/* Dwords of one group (instructions and padded literals) and of an ALU
 * clause body. */
unsigned alu_group_dwords(const AluGroup &g);
unsigned alu_clause_dwords(const std::vector<AluGroup> &groups);

/* The registers a fetch names: the GPR its address comes from with the
 * channels its source selects read, and its destination GPR with the
 * channels it writes (every dst_sel but SEL_MASK: SEL_0/SEL_1 write a
 * constant).  As encoded: ops that write no GPR (gradients, SEMFETCH) are
 * the caller's to tell apart. */
struct FetchRegs {
   unsigned src_gpr = 0, dst_gpr = 0;
   bool src_rel = false, dst_rel = false;
   unsigned reads = 0, writes = 0; /* channel masks */
};
FetchRegs fetch_regs(const FetchInstr &f);

std::string_view alu_op_name(AluOp op);
std::string_view fetch_op_name(FetchOp op);
std::string_view cf_op_name(CfOp op);

} // namespace sbcc::r600
