/*
 * r600 assembler: bytecode model -> dwords.  Every field goes through the
 * generated word layouts (r600_isa_gen.h), and every value is range-checked
 * so a model the hardware cannot express is reported instead of silently
 * truncated.
 */
#include "r600/r600_asm.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace sbcc::r600 {

namespace {

/* The layout arithmetic, once: CF words first, then each clause at its
 * address (fetch clauses 128-bit aligned).  visit(i, clause_addr,
 * clause_dwords) sees every CF instruction (0, 0 without a clause); a
 * program too large for the address fields is reported when diag is
 * given. */
template <typename Visit>
std::optional<uint32_t> lay_out(const Program &prog, Diagnostics *diag, Visit &&visit)
{
   uint64_t addr = 0;
   for (const CfInstr &cf : prog.cf)
      addr += 2 * cf_slots(cf);
   for (size_t i = 0; i < prog.cf.size(); i++) {
      const CfInstr &cf = prog.cf[i];
      const CfOpInfo &info = cf_op_info(cf.op);
      if (!(info.flags & CF_CLAUSE)) {
         visit(i, 0, 0);
         continue;
      }
      if (info.flags & CF_FETCH) {
         /* Fetch instructions are 128-bit and must be 128-bit aligned. */
         addr = (addr + 3) & ~uint64_t(3);
         const uint64_t ndw = 4 * cf.fetches.size();
         visit(i, uint32_t(addr), ndw);
         addr += ndw;
      } else {
         const unsigned ndw = alu_clause_dwords(cf.groups);
         visit(i, uint32_t(addr), ndw);
         addr += ndw;
      }
      /* CF_ALU_WORD0.ADDR is the narrowest address field: 22 bits of 64-bit units. */
      if (diag && addr >= (uint64_t(1) << 23)) {
         diag->error("CF " + std::to_string(i) + ": program too large (" + std::to_string(addr) +
                     " dwords)");
         return std::nullopt;
      }
   }
   return static_cast<uint32_t>(std::min<uint64_t>(addr, UINT32_MAX));
}


namespace w = word;

class Encoder {
 public:
   Encoder(const Program &prog, Diagnostics &diag) : prog_(prog), chip_(prog.chip), diag_(diag) {}

   std::optional<std::vector<uint32_t>> run();

 private:
   const Program &prog_;
   ChipClass chip_;
   Diagnostics &diag_;
   /* Where an error is reported, formatted only when there is one: most
    * programs assemble cleanly, and building the text for every group and
    * instruction cost more than encoding them. */
   struct Where {
      unsigned cf = 0;
      std::string_view cf_name;
      bool clause = false;
      int group = -1;
      std::string_view instr;
      int fetch = -1;
   };
   Where where_;
   bool ok_ = true;
   /* The image, sized by the layout and zeroed (the padding before a fetch
    * clause) up front; the encoders write at pos_, so that no word costs
    * a capacity check. */
   std::vector<uint32_t> out_;
   size_t pos_ = 0;
   /* CF index -> its CF slot (word pair), and its clause's dword address
    * and size as laid out (the size is not worked out again for the CF
    * word); one more entry for the slot past the end.  One list: one
    * allocation. */
   struct Clause {
      uint32_t at = 0, dwords = 0, cf_slot = 0;
   };
   std::vector<Clause> clause_;

   bool eg() const { return is_eg_or_later(chip_); }

   /* The layout counted every word written: nothing goes past its size. */
   void emit(uint32_t w0, uint32_t w1)
   {
      out_[pos_] = w0;
      out_[pos_ + 1] = w1;
      pos_ += 2;
   }

   std::string where() const
   {
      std::string s = "CF " + std::to_string(where_.cf) + " (" + std::string(where_.cf_name) + ")";
      if (where_.clause)
         s += " clause";
      if (where_.group >= 0)
         s += " group " + std::to_string(where_.group);
      if (!where_.instr.empty())
         s += " " + std::string(where_.instr);
      if (where_.fetch >= 0)
         s += " fetch " + std::to_string(where_.fetch);
      return s;
   }

   void error(const std::string &msg)
   {
      if (ok_)
         diag_.error(where() + ": " + msg);
      ok_ = false;
   }

   /* Places v in field f of word wd; reports a value that does not fit. */
   /* Small enough to inline at each of the many call sites; the message
    * is built out of line, only for a value that does not fit.  The word's
    * name goes by address: by value, its two words were loaded before
    * every field's test. */
   void put(uint32_t &wd, Field f, uint32_t v, const std::string_view &word_name,
            const char *field)
   {
      if (__builtin_expect(!f.fits(v), 0)) {
         field_error(f, v, word_name, field);
         return;
      }
      wd |= f.put(v);
   }

   [[gnu::cold, gnu::noinline]] void field_error(Field f, uint32_t v, std::string_view word_name,
                                                 const char *field)
   {
      error(std::string(word_name) + "." + field + " value " + std::to_string(v) +
            " does not fit in " + std::to_string(f.width) + " bits");
   }

   void encode_cf(unsigned i, const CfInstr &cf);
   void encode_alu_clause(const CfInstr &cf, uint32_t ndw);
   void encode_group(const AluGroup &g, unsigned gi, bool literals_fit);
   void encode_alu(const AluInstr &in, bool last);
   void encode_tex(const TexInstr &t);
   void encode_vtx(const VtxInstr &v);
};

#define PUT(wd, layout, field, v) put(wd, w::layout::field, (v), w::layout::kName, #field)

void Encoder::encode_cf(unsigned i, const CfInstr &cf)
{
   const CfOpInfo &info = cf_op_info(cf.op);
   where_ = Where();
   where_.cf = i;
   where_.cf_name = info.name;
   int opc = cf_opcode(chip_, cf.op);
   if (opc < 0) {
      error("not available on " + std::string(chip_class_name(chip_)));
      return;
   }
   uint32_t w0 = 0, w1 = 0;

   if (info.enc == CfEncoding::Alu) {
      if (info.flags & CF_EXT) {
         error("ALU_EXT is not an instruction of its own; set alu_ext on the ALU clause");
         return;
      }
      if (cf.groups.empty()) {
         error("empty ALU clause");
         return;
      }
      if (cf.alu_ext) {
         if (!eg()) {
            error("ALU_EXT needs Evergreen or later");
            return;
         }
         uint32_t e0 = 0, e1 = 0;
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK_INDEX_MODE0, cf.kcache[0].index_mode);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK_INDEX_MODE1, cf.kcache[1].index_mode);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK_INDEX_MODE2, cf.kcache[2].index_mode);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK_INDEX_MODE3, cf.kcache[3].index_mode);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK2, cf.kcache[2].bank);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_BANK3, cf.kcache[3].bank);
         PUT(e0, CF_ALU_WORD0_EXT, KCACHE_MODE2, cf.kcache[2].mode);
         PUT(e1, CF_ALU_WORD1_EXT, KCACHE_MODE3, cf.kcache[3].mode);
         PUT(e1, CF_ALU_WORD1_EXT, KCACHE_ADDR2, cf.kcache[2].addr);
         PUT(e1, CF_ALU_WORD1_EXT, KCACHE_ADDR3, cf.kcache[3].addr);
         PUT(e1, CF_ALU_WORD1_EXT, CF_INST, cf_opcode(chip_, CfOp::ALU_EXT));
         PUT(e1, CF_ALU_WORD1_EXT, BARRIER, cf.barrier);
         emit(e0, e1);
      } else {
         for (unsigned k = 0; k < 4; k++) {
            const KCacheLock &kc = cf.kcache[k];
            if ((k >= 2 && (kc.mode || kc.bank || kc.addr)) || kc.index_mode) {
               error("kcache set " + std::to_string(k) + " needs alu_ext");
               return;
            }
         }
      }
      const unsigned ndw = clause_[i].dwords;
      PUT(w0, CF_ALU_WORD0, ADDR, clause_[i].at / 2);
      PUT(w0, CF_ALU_WORD0, KCACHE_BANK0, cf.kcache[0].bank);
      PUT(w0, CF_ALU_WORD0, KCACHE_BANK1, cf.kcache[1].bank);
      PUT(w0, CF_ALU_WORD0, KCACHE_MODE0, cf.kcache[0].mode);
      PUT(w1, CF_ALU_WORD1, KCACHE_MODE1, cf.kcache[1].mode);
      PUT(w1, CF_ALU_WORD1, KCACHE_ADDR0, cf.kcache[0].addr);
      PUT(w1, CF_ALU_WORD1, KCACHE_ADDR1, cf.kcache[1].addr);
      PUT(w1, CF_ALU_WORD1, COUNT, ndw / 2 - 1);
      PUT(w1, CF_ALU_WORD1, ALT_CONST, cf.alt_const);
      PUT(w1, CF_ALU_WORD1, CF_INST, opc);
      PUT(w1, CF_ALU_WORD1, WHOLE_QUAD_MODE, cf.whole_quad_mode);
      PUT(w1, CF_ALU_WORD1, BARRIER, cf.barrier);
      if (cf.end_of_program || cf.valid_pixel_mode || cf.pop_count || cf.cond)
         error("ALU clauses have no END_OF_PROGRAM, VALID_PIXEL_MODE, POP_COUNT or COND field");
   } else if (info.enc == CfEncoding::Cf) {
      uint32_t addr = cf.addr;
      uint32_t count = cf.count;
      if (info.flags & CF_CLAUSE) {
         if (cf.op == CfOp::GDS) {
            error("GDS clauses are not supported yet");
            return;
         }
         if (cf.fetches.empty()) {
            error("empty fetch clause");
            return;
         }
         addr = clause_[i].at / 2;
         count = cf.fetches.size() - 1;
      } else if (info.flags & CF_TARGET) {
         if (cf.target > prog_.cf.size()) {
            error("target " + std::to_string(cf.target) + " is past the end of the program");
            return;
         }
         addr = clause_[cf.target].cf_slot;
      }
      if (eg()) {
         PUT(w0, CF_WORD0_EG, ADDR, addr);
         PUT(w0, CF_WORD0_EG, JUMPTABLE_SEL, cf.jumptable_sel);
         PUT(w1, CF_WORD1_EG, POP_COUNT, cf.pop_count);
         PUT(w1, CF_WORD1_EG, CF_CONST, cf.cf_const);
         PUT(w1, CF_WORD1_EG, COND, cf.cond);
         PUT(w1, CF_WORD1_EG, COUNT, count);
         PUT(w1, CF_WORD1_EG, VALID_PIXEL_MODE, cf.valid_pixel_mode);
         PUT(w1, CF_WORD1_EG, END_OF_PROGRAM, cf.end_of_program);
         PUT(w1, CF_WORD1_EG, CF_INST, opc);
         PUT(w1, CF_WORD1_EG, WHOLE_QUAD_MODE, cf.whole_quad_mode);
         PUT(w1, CF_WORD1_EG, BARRIER, cf.barrier);
         if (cf.call_count)
            error("CALL_COUNT does not exist on Evergreen");
      } else {
         /* R700 extends COUNT with a fourth bit far away from the other three. */
         unsigned max_count = chip_ == ChipClass::R700 ? 15 : 7;
         if (count > max_count) {
            error("COUNT " + std::to_string(count) + " exceeds " + std::to_string(max_count));
            return;
         }
         PUT(w0, CF_WORD0_R600, ADDR, addr);
         PUT(w1, CF_WORD1_R600, POP_COUNT, cf.pop_count);
         PUT(w1, CF_WORD1_R600, CF_CONST, cf.cf_const);
         PUT(w1, CF_WORD1_R600, COND, cf.cond);
         PUT(w1, CF_WORD1_R600, COUNT, count & 7);
         PUT(w1, CF_WORD1_R600, CALL_COUNT, cf.call_count);
         PUT(w1, CF_WORD1_R600, COUNT_3, count >> 3);
         PUT(w1, CF_WORD1_R600, END_OF_PROGRAM, cf.end_of_program);
         PUT(w1, CF_WORD1_R600, VALID_PIXEL_MODE, cf.valid_pixel_mode);
         PUT(w1, CF_WORD1_R600, CF_INST, opc);
         PUT(w1, CF_WORD1_R600, WHOLE_QUAD_MODE, cf.whole_quad_mode);
         PUT(w1, CF_WORD1_R600, BARRIER, cf.barrier);
         if (cf.jumptable_sel)
            error("JUMPTABLE_SEL needs Evergreen or later");
      }
   } else {
      const ExportInfo &e = cf.exp;
      bool mem = info.enc == CfEncoding::Mem;
      if (e.burst_count < 1) {
         error("burst_count must be at least 1");
         return;
      }
      PUT(w0, CF_ALLOC_EXPORT_WORD0, ARRAY_BASE, e.array_base);
      PUT(w0, CF_ALLOC_EXPORT_WORD0, TYPE, e.type);
      PUT(w0, CF_ALLOC_EXPORT_WORD0, RW_GPR, e.gpr);
      PUT(w0, CF_ALLOC_EXPORT_WORD0, RW_REL, e.rw_rel);
      PUT(w0, CF_ALLOC_EXPORT_WORD0, INDEX_GPR, e.index_gpr);
      PUT(w0, CF_ALLOC_EXPORT_WORD0, ELEM_SIZE, e.elem_size);
      if (eg()) {
         if (mem) {
            PUT(w1, CF_ALLOC_EXPORT_WORD1_BUF_EG, ARRAY_SIZE, e.array_size);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_BUF_EG, COMP_MASK, e.comp_mask);
         } else {
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, SEL_X, e.swizzle[0]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, SEL_Y, e.swizzle[1]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, SEL_Z, e.swizzle[2]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, SEL_W, e.swizzle[3]);
         }
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, BURST_COUNT, e.burst_count - 1u);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, VALID_PIXEL_MODE, cf.valid_pixel_mode);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, END_OF_PROGRAM, cf.end_of_program);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, CF_INST, opc);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, MARK, cf.mark);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_EG, BARRIER, cf.barrier);
         if (cf.whole_quad_mode)
            error("exports have no WHOLE_QUAD_MODE on Evergreen");
      } else {
         if (mem) {
            PUT(w1, CF_ALLOC_EXPORT_WORD1_BUF_R600, ARRAY_SIZE, e.array_size);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_BUF_R600, COMP_MASK, e.comp_mask);
         } else {
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, SEL_X, e.swizzle[0]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, SEL_Y, e.swizzle[1]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, SEL_Z, e.swizzle[2]);
            PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, SEL_W, e.swizzle[3]);
         }
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, BURST_COUNT, e.burst_count - 1u);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, END_OF_PROGRAM, cf.end_of_program);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, VALID_PIXEL_MODE, cf.valid_pixel_mode);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, CF_INST, opc);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, WHOLE_QUAD_MODE, cf.whole_quad_mode);
         PUT(w1, CF_ALLOC_EXPORT_WORD1_SWIZ_R600, BARRIER, cf.barrier);
         if (cf.mark)
            error("MARK needs Evergreen or later");
      }
   }
   emit(w0, w1);
}

void Encoder::encode_alu(const AluInstr &in, bool last)
{
   const AluOpInfo &info = alu_op_info(in.op);
   int opc = alu_opcode(chip_, in.op);
   uint32_t w0 = 0, w1 = 0;
   PUT(w0, ALU_WORD0, SRC0_SEL, in.src[0].sel);
   PUT(w0, ALU_WORD0, SRC0_REL, in.src[0].rel);
   PUT(w0, ALU_WORD0, SRC0_CHAN, in.src[0].chan);
   PUT(w0, ALU_WORD0, SRC0_NEG, in.src[0].neg);
   PUT(w0, ALU_WORD0, SRC1_SEL, in.src[1].sel);
   PUT(w0, ALU_WORD0, SRC1_REL, in.src[1].rel);
   PUT(w0, ALU_WORD0, SRC1_CHAN, in.src[1].chan);
   PUT(w0, ALU_WORD0, SRC1_NEG, in.src[1].neg);
   PUT(w0, ALU_WORD0, INDEX_MODE, in.index_mode);
   PUT(w0, ALU_WORD0, PRED_SEL, in.pred_sel);
   PUT(w0, ALU_WORD0, LAST, last);

   if (info.num_src == 3) {
      if (in.src[0].abs || in.src[1].abs || in.src[2].abs || in.dst.omod || in.update_pred ||
          in.update_exec_mask || in.fog_merge) {
         error("OP3 instruction with abs, omod, update_pred, update_exec_mask or fog_merge");
         return;
      }
      PUT(w1, ALU_WORD1_OP3, SRC2_SEL, in.src[2].sel);
      PUT(w1, ALU_WORD1_OP3, SRC2_REL, in.src[2].rel);
      PUT(w1, ALU_WORD1_OP3, SRC2_CHAN, in.src[2].chan);
      PUT(w1, ALU_WORD1_OP3, SRC2_NEG, in.src[2].neg);
      PUT(w1, ALU_WORD1_OP3, ALU_INST, opc);
   } else {
      if (in.src[2].sel || in.src[2].chan || in.src[2].neg || in.src[2].rel || in.src[2].abs) {
         error("OP2 instruction with a third source");
         return;
      }
      if (chip_ == ChipClass::R600) {
         PUT(w1, ALU_WORD1_OP2_R600, SRC0_ABS, in.src[0].abs);
         PUT(w1, ALU_WORD1_OP2_R600, SRC1_ABS, in.src[1].abs);
         PUT(w1, ALU_WORD1_OP2_R600, UPDATE_EXEC_MASK, in.update_exec_mask);
         PUT(w1, ALU_WORD1_OP2_R600, UPDATE_PRED, in.update_pred);
         PUT(w1, ALU_WORD1_OP2_R600, WRITE_MASK, in.dst.write);
         PUT(w1, ALU_WORD1_OP2_R600, FOG_MERGE, in.fog_merge);
         PUT(w1, ALU_WORD1_OP2_R600, OMOD, in.dst.omod);
         PUT(w1, ALU_WORD1_OP2_R600, ALU_INST, opc);
      } else {
         if (in.fog_merge) {
            error("FOG_MERGE exists on R600 only");
            return;
         }
         PUT(w1, ALU_WORD1_OP2, SRC0_ABS, in.src[0].abs);
         PUT(w1, ALU_WORD1_OP2, SRC1_ABS, in.src[1].abs);
         PUT(w1, ALU_WORD1_OP2, UPDATE_EXEC_MASK, in.update_exec_mask);
         PUT(w1, ALU_WORD1_OP2, UPDATE_PRED, in.update_pred);
         PUT(w1, ALU_WORD1_OP2, WRITE_MASK, in.dst.write);
         PUT(w1, ALU_WORD1_OP2, OMOD, in.dst.omod);
         PUT(w1, ALU_WORD1_OP2, ALU_INST, opc);
      }
   }
   /* The destination fields sit at the same place in OP2 and OP3 words. */
   PUT(w1, ALU_WORD1_OP3, BANK_SWIZZLE, in.bank_swizzle);
   PUT(w1, ALU_WORD1_OP3, DST_GPR, in.dst.gpr);
   PUT(w1, ALU_WORD1_OP3, DST_REL, in.dst.rel);
   PUT(w1, ALU_WORD1_OP3, DST_CHAN, in.dst.chan);
   PUT(w1, ALU_WORD1_OP3, CLAMP, in.dst.clamp);
   emit(w0, w1);
}

void Encoder::encode_group(const AluGroup &g, unsigned gi, bool literals_fit)
{
   where_.group = int(gi);
   if (g.instrs.empty() || g.instrs.size() > slots_per_group(chip_)) {
      error("a group holds 1 to " + std::to_string(slots_per_group(chip_)) + " instructions, not " +
            std::to_string(g.instrs.size()));
      return;
   }
   const bool count = !literals_fit || (g.literals.size() & 1);
   if (g.literals.size() > 4 || (count && group_literals_needed(g) > g.literals.size())) {
      error("literal count " + std::to_string(g.literals.size()) + " but " +
            std::to_string(group_literals_needed(g)) + " referenced (at most 4)");
      return;
   }
   unsigned used = 0;
   int prev_slot = -1;
   for (size_t k = 0; k < g.instrs.size(); k++) {
      const AluInstr &in = g.instrs[k];
      const AluOpInfo &info = alu_op_info(in.op);
      unsigned slots = alu_slots(chip_, in.op);
      where_.instr = info.name;
      if (!slots) {
         error("not available on " + std::string(chip_class_name(chip_)));
         return;
      }
      if (in.slot <= prev_slot || in.slot > kSlotT ||
          (in.slot == kSlotT && chip_ == ChipClass::Cayman)) {
         error("slot " + std::to_string(in.slot) + " out of order or invalid");
         return;
      }
      prev_slot = in.slot;
      /* The decoder (like the hardware) finds the slot from dst.chan: a vector
       * slot is the channel; the trans slot holds trans-only ops or an op
       * whose channel's vector slot is already taken. */
      if (in.slot == kSlotT) {
         if (!(slots & kSlotS)) {
            error("cannot go in the trans slot");
            return;
         }
         if (!alu_is_trans_only(chip_, in.op) && !(used & (1u << in.dst.chan))) {
            error("in slot t but its channel's vector slot is free, so it would decode there");
            return;
         }
      } else {
         bool cayman_scalar = chip_ == ChipClass::Cayman && (slots & kSlotS);
         if (!(slots & kSlotV) && !cayman_scalar) {
            error("cannot go in a vector slot");
            return;
         }
         if (alu_is_trans_only(chip_, in.op)) {
            error("trans-only op in a vector slot");
            return;
         }
         if (in.dst.chan != in.slot) {
            error("in vector slot " + std::to_string(in.slot) + " but writes channel " +
                  std::to_string(in.dst.chan));
            return;
         }
         if (((slots & kSlotXY) && in.slot > kSlotY) || ((slots & kSlotZW) && in.slot < kSlotZ)) {
            error("not allowed in this vector slot");
            return;
         }
         used |= 1u << in.slot;
      }
      encode_alu(in, k + 1 == g.instrs.size());
   }
   for (uint32_t lit : g.literals)
      out_[pos_++] = lit;
   if (g.literals.size() & 1)
      out_[pos_++] = g.literal_pad;
   /* Back to the clause (the group is only left early on an error). */
   where_.group = -1;
   where_.instr = {};
}

/* `ndw`: the clause's size from the layout, which counted every group's
 * literals.  When it equals the size with only the literals the groups
 * carry, no group pads to more literals than it carries: a group that
 * reads a literal beyond them can only carry an odd count and read the
 * pad, so only those groups are counted again. */
void Encoder::encode_alu_clause(const CfInstr &cf, uint32_t ndw)
{
   uint64_t carried = 0;
   for (const AluGroup &g : cf.groups)
      carried += 2 * uint64_t(g.instrs.size()) + ((g.literals.size() + 1) & ~size_t(1));
   const bool literals_fit = carried == ndw;
   for (size_t gi = 0; gi < cf.groups.size() && ok_; gi++)
      encode_group(cf.groups[gi], gi, literals_fit);
}

void Encoder::encode_tex(const TexInstr &t)
{
   int opc = fetch_opcode(chip_, t.op);
   uint32_t w0 = 0, w1 = 0, w2 = 0;
   if (eg()) {
      PUT(w0, TEX_WORD0_EG, TEX_INST, opc & 0x1f);
      PUT(w0, TEX_WORD0_EG, INST_MOD, opc >> 8);
      PUT(w0, TEX_WORD0_EG, FETCH_WHOLE_QUAD, t.fetch_whole_quad);
      PUT(w0, TEX_WORD0_EG, RESOURCE_ID, t.resource_id);
      PUT(w0, TEX_WORD0_EG, SRC_GPR, t.src_gpr);
      PUT(w0, TEX_WORD0_EG, SRC_REL, t.src_rel);
      PUT(w0, TEX_WORD0_EG, ALT_CONST, t.alt_const);
      PUT(w0, TEX_WORD0_EG, RESOURCE_INDEX_MODE, t.resource_index_mode);
      PUT(w0, TEX_WORD0_EG, SAMPLER_INDEX_MODE, t.sampler_index_mode);
      if (t.bc_frac_mode)
         error("BC_FRAC_MODE exists on R600/R700 only");
   } else {
      PUT(w0, TEX_WORD0_R600, TEX_INST, opc);
      PUT(w0, TEX_WORD0_R600, BC_FRAC_MODE, t.bc_frac_mode);
      PUT(w0, TEX_WORD0_R600, FETCH_WHOLE_QUAD, t.fetch_whole_quad);
      PUT(w0, TEX_WORD0_R600, RESOURCE_ID, t.resource_id);
      PUT(w0, TEX_WORD0_R600, SRC_GPR, t.src_gpr);
      PUT(w0, TEX_WORD0_R600, SRC_REL, t.src_rel);
      PUT(w0, TEX_WORD0_R600, ALT_CONST, t.alt_const);
      if (t.resource_index_mode || t.sampler_index_mode)
         error("resource/sampler index modes need Evergreen or later");
   }
   PUT(w1, TEX_WORD1, DST_GPR, t.dst_gpr);
   PUT(w1, TEX_WORD1, DST_REL, t.dst_rel);
   PUT(w1, TEX_WORD1, DST_SEL_X, t.dst_sel[0]);
   PUT(w1, TEX_WORD1, DST_SEL_Y, t.dst_sel[1]);
   PUT(w1, TEX_WORD1, DST_SEL_Z, t.dst_sel[2]);
   PUT(w1, TEX_WORD1, DST_SEL_W, t.dst_sel[3]);
   PUT(w1, TEX_WORD1, LOD_BIAS, t.lod_bias);
   PUT(w1, TEX_WORD1, COORD_TYPE_X, t.coord_type[0]);
   PUT(w1, TEX_WORD1, COORD_TYPE_Y, t.coord_type[1]);
   PUT(w1, TEX_WORD1, COORD_TYPE_Z, t.coord_type[2]);
   PUT(w1, TEX_WORD1, COORD_TYPE_W, t.coord_type[3]);
   for (unsigned k = 0; k < 3; k++) {
      if (t.offset[k] < -16 || t.offset[k] > 15) {
         error("texture offset " + std::to_string(t.offset[k]) + " does not fit in 5 bits");
         return;
      }
   }
   PUT(w2, TEX_WORD2, OFFSET_X, t.offset[0] & 0x1f);
   PUT(w2, TEX_WORD2, OFFSET_Y, t.offset[1] & 0x1f);
   PUT(w2, TEX_WORD2, OFFSET_Z, t.offset[2] & 0x1f);
   PUT(w2, TEX_WORD2, SAMPLER_ID, t.sampler_id);
   PUT(w2, TEX_WORD2, SRC_SEL_X, t.src_sel[0]);
   PUT(w2, TEX_WORD2, SRC_SEL_Y, t.src_sel[1]);
   PUT(w2, TEX_WORD2, SRC_SEL_Z, t.src_sel[2]);
   PUT(w2, TEX_WORD2, SRC_SEL_W, t.src_sel[3]);
   emit(w0, w1);
   emit(w2, 0u);
}

void Encoder::encode_vtx(const VtxInstr &v)
{
   int opc = fetch_opcode(chip_, v.op);
   uint32_t w0 = 0, w1 = 0, w2 = 0;
   PUT(w0, VTX_WORD0, VTX_INST, opc);
   PUT(w0, VTX_WORD0, FETCH_TYPE, v.fetch_type);
   PUT(w0, VTX_WORD0, FETCH_WHOLE_QUAD, v.fetch_whole_quad);
   PUT(w0, VTX_WORD0, BUFFER_ID, v.buffer_id);
   PUT(w0, VTX_WORD0, SRC_GPR, v.src_gpr);
   PUT(w0, VTX_WORD0, SRC_REL, v.src_rel);
   PUT(w0, VTX_WORD0, SRC_SEL_X, v.src_sel_x);
   PUT(w0, VTX_WORD0, MEGA_FETCH_COUNT, v.mega_fetch_count);
   if (v.op == FetchOp::SEMFETCH) {
      PUT(w1, VTX_WORD1_SEM, SEMANTIC_ID, v.semantic_id);
      if (v.dst_gpr || v.dst_rel)
         error("SEMFETCH has a semantic id, not a destination GPR");
   } else {
      PUT(w1, VTX_WORD1_GPR, DST_GPR, v.dst_gpr);
      PUT(w1, VTX_WORD1_GPR, DST_REL, v.dst_rel);
      if (v.semantic_id)
         error("only SEMFETCH has a semantic id");
   }
   PUT(w1, VTX_WORD1_GPR, DST_SEL_X, v.dst_sel[0]);
   PUT(w1, VTX_WORD1_GPR, DST_SEL_Y, v.dst_sel[1]);
   PUT(w1, VTX_WORD1_GPR, DST_SEL_Z, v.dst_sel[2]);
   PUT(w1, VTX_WORD1_GPR, DST_SEL_W, v.dst_sel[3]);
   PUT(w1, VTX_WORD1_GPR, USE_CONST_FIELDS, v.use_const_fields);
   PUT(w1, VTX_WORD1_GPR, DATA_FORMAT, v.data_format);
   PUT(w1, VTX_WORD1_GPR, NUM_FORMAT_ALL, v.num_format_all);
   PUT(w1, VTX_WORD1_GPR, FORMAT_COMP_ALL, v.format_comp_all);
   PUT(w1, VTX_WORD1_GPR, SRF_MODE_ALL, v.srf_mode_all);
   PUT(w2, VTX_WORD2_EG, OFFSET, v.offset);
   PUT(w2, VTX_WORD2_EG, ENDIAN_SWAP, v.endian_swap);
   PUT(w2, VTX_WORD2_EG, CONST_BUF_NO_STRIDE, v.const_buf_no_stride);
   PUT(w2, VTX_WORD2_EG, MEGA_FETCH, v.mega_fetch);
   PUT(w2, VTX_WORD2_EG, ALT_CONST, v.alt_const);
   if (eg())
      PUT(w2, VTX_WORD2_EG, BUFFER_INDEX_MODE, v.buffer_index_mode);
   else if (v.buffer_index_mode)
      error("BUFFER_INDEX_MODE needs Evergreen or later");
   emit(w0, w1);
   emit(w2, 0u);
}

std::optional<std::vector<uint32_t>> Encoder::run()
{
   clause_.resize(prog_.cf.size() + 1);
   auto total = lay_out(prog_, &diag_, [&](size_t i, uint32_t at, uint64_t ndw) {
      clause_[i].at = at;
      clause_[i].dwords = uint32_t(ndw);
   });
   if (!total)
      return std::nullopt;
   uint32_t slot = 0;
   for (size_t i = 0; i < prog_.cf.size(); i++) {
      clause_[i].cf_slot = slot;
      slot += cf_slots(prog_.cf[i]);
   }
   clause_[prog_.cf.size()].cf_slot = slot;
   out_.assign(*total, 0u);

   for (size_t i = 0; i < prog_.cf.size() && ok_; i++)
      encode_cf(i, prog_.cf[i]);
   for (size_t i = 0; i < prog_.cf.size() && ok_; i++) {
      const CfInstr &cf = prog_.cf[i];
      const CfOpInfo &info = cf_op_info(cf.op);
      if (!(info.flags & CF_CLAUSE))
         continue;
      pos_ = clause_[i].at;
      where_ = Where();
      where_.cf = unsigned(i);
      where_.cf_name = info.name;
      where_.clause = true;
      if (info.enc == CfEncoding::Alu) {
         encode_alu_clause(cf, clause_[i].dwords);
         continue;
      }
      for (size_t k = 0; k < cf.fetches.size() && ok_; k++) {
         const FetchInstr &f = cf.fetches[k];
         where_ = Where();
         where_.cf = unsigned(i);
         where_.cf_name = info.name;
         where_.fetch = int(k);
         bool vtx = std::holds_alternative<VtxInstr>(f);
         FetchOp op = fetch_op(f);
         if (fetch_opcode(chip_, op) < 0) {
            error(std::string(fetch_op_name(op)) + " not available on " +
                  std::string(chip_class_name(chip_)));
            break;
         }
         if (fetch_op_info(op).vtx != vtx) {
            error(std::string(fetch_op_name(op)) + " needs the " +
                  (fetch_op_info(op).vtx ? "vertex" : "texture") + " fetch layout");
            break;
         }
         if ((info.flags & CF_VTX) && !vtx) {
            error("a VTX clause holds only vertex fetches");
            break;
         }
         if (vtx)
            encode_vtx(std::get<VtxInstr>(f));
         else
            encode_tex(std::get<TexInstr>(f));
      }
   }
   if (!ok_)
      return std::nullopt;
   out_.resize(pos_);
   return std::move(out_);
}

} // namespace


std::optional<uint32_t> layout_program(Program &prog, Diagnostics &diag)
{
   uint32_t slot = 0;
   for (CfInstr &cf : prog.cf) {
      cf.cf_addr = 2 * slot;
      slot += cf_slots(cf);
   }
   return lay_out(prog, &diag,
                  [&](size_t i, uint32_t at, uint64_t) { prog.cf[i].clause_addr = at; });
}

uint32_t program_dwords(const Program &prog)
{
   return *lay_out(prog, nullptr, [](size_t, uint32_t, uint64_t) {});
}

std::optional<std::vector<uint32_t>> assemble(const Program &prog, Diagnostics &diag)
{
   return Encoder(prog, diag).run();
}

} // namespace sbcc::r600
