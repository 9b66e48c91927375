/*
 * Internal to the TGSI translator: the ALU group / clause builder shared by
 * r600_tgsi.cpp (registers, control flow, exports) and r600_tgsi_alu.cpp
 * (opcode lowering).  Not included by anything outside r600_tgsi*.cpp.
 */
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/diag.h"
#include "common/exec.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::r600::tgsi_backend {

/* An ALU operand before it is placed in a group: kcache slots and literal
 * indices are only known once the group and its clause are fixed. */
struct Opnd {
   enum Kind : uint8_t { Gpr, Const, Lit, Inline } kind = Inline;
   uint32_t sel = kSrc_0; /* Gpr: register; Const: constant index; Inline: selector */
   uint32_t bank = 0;     /* Const: constant buffer */
   uint32_t value = 0;    /* Lit: raw bits */
   uint8_t chan = 0;
   bool neg = false;
   bool abs = false;
};

inline Opnd gpr(unsigned r, unsigned c)
{
   Opnd o;
   o.kind = Opnd::Gpr;
   o.sel = r;
   o.chan = uint8_t(c);
   return o;
}
inline Opnd inl(unsigned sel)
{
   Opnd o;
   o.kind = Opnd::Inline;
   o.sel = sel;
   return o;
}
/* A 32-bit constant: inline selector when one exists, else a literal. */
Opnd imm(uint32_t bits);
inline Opnd immf(float f) { return imm(f2u(f)); }
inline Opnd neg(Opnd o)
{
   o.neg = !o.neg;
   return o;
}

struct PInstr {
   AluOp op = AluOp::MOV;
   std::array<Opnd, 3> src{};
   AluDst dst{};
   bool update_pred = false;
   bool update_exec = false;
   int slot = -1; /* set by the builder (or forced for reductions) */
};

class Builder {
 public:
   Builder(ChipClass chip, Diagnostics &diags) : chip_(chip), diags_(diags) { prog.chip = chip; }

   /* One instruction into the pending group; the group is flushed first
    * when the instruction's slot, literals or constants do not fit. */
   void add(AluOp op, unsigned dst_gpr, unsigned dst_chan, std::initializer_list<Opnd> srcs,
            bool clamp = false, bool write = true);
   void add(const PInstr &p);
   /* Four instructions occupying x, y, z, w of one group (DOT4, CUBE, INTERP). */
   void add_reduction(const std::array<PInstr, 4> &ps);
   /* Emits `ps` as exactly one group (after the pending one), or nothing
    * and false when they cannot share a group.  Lets a destination that
    * is also a source be written in place: VLIW reads before it writes. */
   bool try_group(std::vector<PInstr> ps);
   /* Ends the pending group: everything added later reads its results. */
   void flush();
   /* Ends the current ALU clause (before a non-ALU CF instruction). */
   void close_alu();
   /* Opens a fresh ALU clause of the given type (ALU_PUSH_BEFORE for IF). */
   void open_alu(CfOp op);

   size_t emit_cf(CfOp op);
   void add_fetch(const FetchInstr &f, unsigned src_gpr, unsigned dst_gpr);

   Program prog;
   unsigned alu_groups = 0;
   /* Three registers free for operand copies when no bank swizzle fits. */
   unsigned fallback_gpr = 0;
   bool failed = false;

 private:
   bool fits(const PInstr &p, int &slot) const;
   void emit_group(std::vector<PInstr> g);
   bool place_group(const std::vector<PInstr> &g, AluGroup &out,
                    std::array<KCacheLock, 4> &kcache);
   CfInstr &alu_clause();
   unsigned clause_slots(const CfInstr &cf) const;

   ChipClass chip_;
   Diagnostics &diags_;
   std::vector<PInstr> pending_;
   int alu_cf_ = -1;
   int tex_cf_ = -1;
   /* clause_slots() of the open ALU clause (index alu_cf_) as last
    * counted, reset by open_alu: groups are only appended (a later patch
    * sets flags, never operands or literals), so only new groups are
    * counted, not the whole clause again at every group. */
   mutable size_t counted_groups_ = 0;
   mutable unsigned counted_dwords_ = 0;
   std::vector<unsigned> tex_written_;
};

/* Bank-swizzle search (Mesa's check_and_set_bank_swizzle rules): fills
 * bank_swizzle of each instruction, false when no combination is legal. */
bool assign_bank_swizzles(ChipClass chip, AluGroup &g);

} // namespace sbcc::r600::tgsi_backend
