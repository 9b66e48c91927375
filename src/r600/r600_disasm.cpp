/*
 * r600 decoder (dwords -> model) and listing printer.
 *
 * Decoding rejects anything the assembler could not reproduce bit for bit
 * (reserved bits, unknown opcodes, groups whose slot order the hardware
 * would read differently), so decode -> assemble is the identity on every
 * accepted input.
 */
#include "r600/r600_disasm.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>

namespace sbcc::r600 {

namespace {

namespace w = word;

std::string hex(uint32_t v)
{
   char buf[16];
   snprintf(buf, sizeof(buf), "0x%08x", v);
   return buf;
}

class Decoder {
 public:
   Decoder(std::span<const uint32_t> words, ChipClass chip, Diagnostics &diag,
           std::string_view file)
      : words_(words), chip_(chip), diag_(diag), file_(file)
   {
   }

   std::optional<Program> run();

 private:
   std::span<const uint32_t> words_;
   ChipClass chip_;
   Diagnostics &diag_;
   std::string_view file_;
   bool ok_ = true;
   Program prog_;

   bool eg() const { return is_eg_or_later(chip_); }

   bool error(uint32_t at, const std::string &msg)
   {
      if (ok_)
         diag_.error(file_, {}, "dword " + std::to_string(at) + ": " + msg);
      ok_ = false;
      return false;
   }

   bool check_reserved(uint32_t at, uint32_t used_mask, std::string_view name)
   {
      uint32_t bad = words_[at] & ~used_mask;
      if (bad)
         return error(at, "reserved bits " + hex(bad) + " set in " + std::string(name));
      return true;
   }

   bool decode_cf_pair(uint32_t at, CfInstr &cf, uint32_t &raw_addr, uint32_t &count);
   bool decode_alu_clause(CfInstr &cf, uint32_t start, uint32_t ndw);
   bool decode_alu(uint32_t at, AluInstr &in, bool &last);
   bool decode_fetch_clause(CfInstr &cf, uint32_t start, uint32_t n);
};

bool Decoder::decode_cf_pair(uint32_t at, CfInstr &cf, uint32_t &raw_addr, uint32_t &count)
{
   uint32_t w0 = words_[at], w1 = words_[at + 1];
   std::string chip_name(chip_class_name(chip_));
   /* CF_ALU_WORD1 keeps its 4-bit CF_INST in bits 26-29 with bit 29 always
    * set (opcodes 8-15); no other CF_INST reaches bit 29. */
   if ((w1 >> 29) & 1) {
      unsigned opc = w::CF_ALU_WORD1::CF_INST.get(w1);
      auto op = cf_op_from_opcode(chip_, true, opc);
      if (!op)
         return error(at + 1, "unknown ALU CF_INST " + hex(opc) + " on " + chip_name);
      cf.op = *op;
      if (cf_op_info(*op).flags & CF_EXT)
         return true; /* the caller reads the ALU pair that follows */
      cf.kcache[0].bank = w::CF_ALU_WORD0::KCACHE_BANK0.get(w0);
      cf.kcache[1].bank = w::CF_ALU_WORD0::KCACHE_BANK1.get(w0);
      cf.kcache[0].mode = w::CF_ALU_WORD0::KCACHE_MODE0.get(w0);
      cf.kcache[1].mode = w::CF_ALU_WORD1::KCACHE_MODE1.get(w1);
      cf.kcache[0].addr = w::CF_ALU_WORD1::KCACHE_ADDR0.get(w1);
      cf.kcache[1].addr = w::CF_ALU_WORD1::KCACHE_ADDR1.get(w1);
      cf.alt_const = w::CF_ALU_WORD1::ALT_CONST.get(w1);
      cf.whole_quad_mode = w::CF_ALU_WORD1::WHOLE_QUAD_MODE.get(w1);
      cf.barrier = w::CF_ALU_WORD1::BARRIER.get(w1);
      raw_addr = w::CF_ALU_WORD0::ADDR.get(w0);
      count = w::CF_ALU_WORD1::COUNT.get(w1) + 1;
      return true;
   }

   unsigned opc = eg() ? w::CF_WORD1_EG::CF_INST.get(w1) : w::CF_WORD1_R600::CF_INST.get(w1);
   auto op = cf_op_from_opcode(chip_, false, opc);
   if (!op)
      return error(at + 1, "unknown CF_INST " + hex(opc) + " on " + chip_name);
   cf.op = *op;
   const CfOpInfo &info = cf_op_info(*op);

   if (info.enc == CfEncoding::Cf) {
      if (eg()) {
         if (!check_reserved(at, w::CF_WORD0_EG::kUsedMask, "CF_WORD0") ||
             !check_reserved(at + 1, w::CF_WORD1_EG::kUsedMask, "CF_WORD1"))
            return false;
         raw_addr = w::CF_WORD0_EG::ADDR.get(w0);
         cf.jumptable_sel = w::CF_WORD0_EG::JUMPTABLE_SEL.get(w0);
         cf.pop_count = w::CF_WORD1_EG::POP_COUNT.get(w1);
         cf.cf_const = w::CF_WORD1_EG::CF_CONST.get(w1);
         cf.cond = w::CF_WORD1_EG::COND.get(w1);
         count = w::CF_WORD1_EG::COUNT.get(w1);
         cf.valid_pixel_mode = w::CF_WORD1_EG::VALID_PIXEL_MODE.get(w1);
         cf.end_of_program = w::CF_WORD1_EG::END_OF_PROGRAM.get(w1);
         cf.whole_quad_mode = w::CF_WORD1_EG::WHOLE_QUAD_MODE.get(w1);
         cf.barrier = w::CF_WORD1_EG::BARRIER.get(w1);
      } else {
         if (!check_reserved(at + 1, w::CF_WORD1_R600::kUsedMask, "CF_WORD1"))
            return false;
         if (chip_ == ChipClass::R600 && w::CF_WORD1_R600::COUNT_3.get(w1))
            return error(at + 1, "COUNT_3 is reserved on R600");
         raw_addr = w::CF_WORD0_R600::ADDR.get(w0);
         cf.pop_count = w::CF_WORD1_R600::POP_COUNT.get(w1);
         cf.cf_const = w::CF_WORD1_R600::CF_CONST.get(w1);
         cf.cond = w::CF_WORD1_R600::COND.get(w1);
         count = w::CF_WORD1_R600::COUNT.get(w1) | w::CF_WORD1_R600::COUNT_3.get(w1) << 3;
         cf.call_count = w::CF_WORD1_R600::CALL_COUNT.get(w1);
         cf.end_of_program = w::CF_WORD1_R600::END_OF_PROGRAM.get(w1);
         cf.valid_pixel_mode = w::CF_WORD1_R600::VALID_PIXEL_MODE.get(w1);
         cf.whole_quad_mode = w::CF_WORD1_R600::WHOLE_QUAD_MODE.get(w1);
         cf.barrier = w::CF_WORD1_R600::BARRIER.get(w1);
      }
      if (info.flags & CF_CLAUSE)
         count += 1;
      else
         cf.count = count;
      return true;
   }

   /* EXPORT / MEM */
   ExportInfo &e = cf.exp;
   bool mem = info.enc == CfEncoding::Mem;
   if (!check_reserved(at, w::CF_ALLOC_EXPORT_WORD0::kUsedMask, "CF_ALLOC_EXPORT_WORD0"))
      return false;
   e.array_base = w::CF_ALLOC_EXPORT_WORD0::ARRAY_BASE.get(w0);
   e.type = w::CF_ALLOC_EXPORT_WORD0::TYPE.get(w0);
   e.gpr = w::CF_ALLOC_EXPORT_WORD0::RW_GPR.get(w0);
   e.rw_rel = w::CF_ALLOC_EXPORT_WORD0::RW_REL.get(w0);
   e.index_gpr = w::CF_ALLOC_EXPORT_WORD0::INDEX_GPR.get(w0);
   e.elem_size = w::CF_ALLOC_EXPORT_WORD0::ELEM_SIZE.get(w0);
   if (eg()) {
      if (!check_reserved(at + 1,
                          mem ? w::CF_ALLOC_EXPORT_WORD1_BUF_EG::kUsedMask
                              : w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::kUsedMask,
                          "CF_ALLOC_EXPORT_WORD1"))
         return false;
      e.burst_count = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::BURST_COUNT.get(w1) + 1;
      cf.valid_pixel_mode = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::VALID_PIXEL_MODE.get(w1);
      cf.end_of_program = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::END_OF_PROGRAM.get(w1);
      cf.mark = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::MARK.get(w1);
      cf.barrier = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::BARRIER.get(w1);
   } else {
      if (!check_reserved(at + 1,
                          mem ? w::CF_ALLOC_EXPORT_WORD1_BUF_R600::kUsedMask
                              : w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::kUsedMask,
                          "CF_ALLOC_EXPORT_WORD1"))
         return false;
      e.burst_count = w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::BURST_COUNT.get(w1) + 1;
      cf.end_of_program = w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::END_OF_PROGRAM.get(w1);
      cf.valid_pixel_mode = w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::VALID_PIXEL_MODE.get(w1);
      cf.whole_quad_mode = w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::WHOLE_QUAD_MODE.get(w1);
      cf.barrier = w::CF_ALLOC_EXPORT_WORD1_SWIZ_R600::BARRIER.get(w1);
   }
   /* BUF and SWIZ share the low-bit positions across chip classes. */
   if (mem) {
      e.array_size = w::CF_ALLOC_EXPORT_WORD1_BUF_EG::ARRAY_SIZE.get(w1);
      e.comp_mask = w::CF_ALLOC_EXPORT_WORD1_BUF_EG::COMP_MASK.get(w1);
   } else {
      e.swizzle[0] = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::SEL_X.get(w1);
      e.swizzle[1] = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::SEL_Y.get(w1);
      e.swizzle[2] = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::SEL_Z.get(w1);
      e.swizzle[3] = w::CF_ALLOC_EXPORT_WORD1_SWIZ_EG::SEL_W.get(w1);
   }
   return true;
}

bool Decoder::decode_alu(uint32_t at, AluInstr &in, bool &last)
{
   uint32_t w0 = words_[at], w1 = words_[at + 1];
   in.src[0].sel = w::ALU_WORD0::SRC0_SEL.get(w0);
   in.src[0].rel = w::ALU_WORD0::SRC0_REL.get(w0);
   in.src[0].chan = w::ALU_WORD0::SRC0_CHAN.get(w0);
   in.src[0].neg = w::ALU_WORD0::SRC0_NEG.get(w0);
   in.src[1].sel = w::ALU_WORD0::SRC1_SEL.get(w0);
   in.src[1].rel = w::ALU_WORD0::SRC1_REL.get(w0);
   in.src[1].chan = w::ALU_WORD0::SRC1_CHAN.get(w0);
   in.src[1].neg = w::ALU_WORD0::SRC1_NEG.get(w0);
   in.index_mode = w::ALU_WORD0::INDEX_MODE.get(w0);
   in.pred_sel = w::ALU_WORD0::PRED_SEL.get(w0);
   last = w::ALU_WORD0::LAST.get(w0);

   /* OP3 opcodes start at 4, so an OP3 word has bits 15-17 set and an OP2
    * opcode (< 256, from bit 7 or 8) never reaches them. */
   bool op3 = ((w1 >> 15) & 7) != 0;
   unsigned opc;
   if (op3) {
      opc = w::ALU_WORD1_OP3::ALU_INST.get(w1);
      in.src[2].sel = w::ALU_WORD1_OP3::SRC2_SEL.get(w1);
      in.src[2].rel = w::ALU_WORD1_OP3::SRC2_REL.get(w1);
      in.src[2].chan = w::ALU_WORD1_OP3::SRC2_CHAN.get(w1);
      in.src[2].neg = w::ALU_WORD1_OP3::SRC2_NEG.get(w1);
      in.dst.write = true;
   } else if (chip_ == ChipClass::R600) {
      opc = w::ALU_WORD1_OP2_R600::ALU_INST.get(w1);
      in.src[0].abs = w::ALU_WORD1_OP2_R600::SRC0_ABS.get(w1);
      in.src[1].abs = w::ALU_WORD1_OP2_R600::SRC1_ABS.get(w1);
      in.update_exec_mask = w::ALU_WORD1_OP2_R600::UPDATE_EXEC_MASK.get(w1);
      in.update_pred = w::ALU_WORD1_OP2_R600::UPDATE_PRED.get(w1);
      in.dst.write = w::ALU_WORD1_OP2_R600::WRITE_MASK.get(w1);
      in.fog_merge = w::ALU_WORD1_OP2_R600::FOG_MERGE.get(w1);
      in.dst.omod = w::ALU_WORD1_OP2_R600::OMOD.get(w1);
   } else {
      opc = w::ALU_WORD1_OP2::ALU_INST.get(w1);
      in.src[0].abs = w::ALU_WORD1_OP2::SRC0_ABS.get(w1);
      in.src[1].abs = w::ALU_WORD1_OP2::SRC1_ABS.get(w1);
      in.update_exec_mask = w::ALU_WORD1_OP2::UPDATE_EXEC_MASK.get(w1);
      in.update_pred = w::ALU_WORD1_OP2::UPDATE_PRED.get(w1);
      in.dst.write = w::ALU_WORD1_OP2::WRITE_MASK.get(w1);
      in.dst.omod = w::ALU_WORD1_OP2::OMOD.get(w1);
   }
   auto op = alu_op_from_opcode(chip_, op3, opc);
   if (!op)
      return error(at + 1, std::string("unknown ALU ") + (op3 ? "OP3" : "OP2") + " opcode " +
                              hex(opc) + " on " + std::string(chip_class_name(chip_)));
   in.op = *op;
   in.bank_swizzle = w::ALU_WORD1_OP3::BANK_SWIZZLE.get(w1);
   in.dst.gpr = w::ALU_WORD1_OP3::DST_GPR.get(w1);
   in.dst.rel = w::ALU_WORD1_OP3::DST_REL.get(w1);
   in.dst.chan = w::ALU_WORD1_OP3::DST_CHAN.get(w1);
   in.dst.clamp = w::ALU_WORD1_OP3::CLAMP.get(w1);
   return true;
}

bool Decoder::decode_alu_clause(CfInstr &cf, uint32_t start, uint32_t ndw)
{
   uint32_t end = start + ndw;
   uint32_t at = start;
   static const char kSlotNames[] = "xyzwt";
   while (at < end) {
      AluGroup g;
      unsigned used = 0;
      int prev = -1;
      bool last = false;
      while (!last) {
         if (at >= end)
            return error(at, "ALU clause ends inside an instruction group");
         AluInstr in;
         if (!decode_alu(at, in, last))
            return false;
         unsigned slots = alu_slots(chip_, in.op);
         std::string name(alu_op_name(in.op));
         /* Slot assignment as the hardware does it: by destination channel,
          * or the trans slot for trans-only ops and taken channels. */
         unsigned slot = in.dst.chan;
         if (chip_ != ChipClass::Cayman &&
             (alu_is_trans_only(chip_, in.op) || (used & (1u << in.dst.chan))))
            slot = kSlotT;
         if (slot == kSlotT) {
            if (used & (1u << kSlotT))
               return error(at, "second instruction for the trans slot in one group");
            if (!(slots & kSlotS))
               return error(at, name + " cannot execute in the trans slot");
         } else {
            if (used & (1u << slot))
               return error(at, "second instruction for slot " +
                                   std::string(1, kSlotNames[slot]) + " in one group");
            bool cayman_scalar = chip_ == ChipClass::Cayman && (slots & kSlotS);
            if (!(slots & kSlotV) && !cayman_scalar)
               return error(at, name + " cannot execute in a vector slot");
            if (((slots & kSlotXY) && slot > kSlotY) || ((slots & kSlotZW) && slot < kSlotZ))
               return error(at, name + " cannot execute in slot " +
                                   std::string(1, kSlotNames[slot]));
         }
         if (static_cast<int>(slot) < prev)
            return error(at, std::string("slot ") + kSlotNames[slot] + " after slot " +
                                kSlotNames[prev] + " in one group");
         prev = slot;
         used |= 1u << slot;
         in.slot = slot;
         g.instrs.push_back(in);
         at += 2;
      }
      unsigned nlit = group_literals_needed(g);
      unsigned padded = (nlit + 1) & ~1u;
      if (at + padded > end)
         return error(at, "literals run past the end of the ALU clause");
      for (unsigned k = 0; k < nlit; k++)
         g.literals.push_back(words_[at + k]);
      if (nlit & 1)
         g.literal_pad = words_[at + nlit];
      at += padded;
      cf.groups.push_back(std::move(g));
   }
   return true;
}

bool Decoder::decode_fetch_clause(CfInstr &cf, uint32_t start, uint32_t n)
{
   bool vtx_clause = cf_op_info(cf.op).flags & CF_VTX;
   for (uint32_t k = 0; k < n; k++) {
      uint32_t at = start + 4 * k;
      uint32_t w0 = words_[at], w1 = words_[at + 1], w2 = words_[at + 2];
      if (words_[at + 3] != 0)
         return error(at + 3, "fourth dword of a fetch instruction is not zero");
      unsigned inst = w0 & 0x1f;
      auto op = fetch_op_from_opcode(chip_, vtx_clause, inst);
      if (!vtx_clause && (!op || !fetch_op_info(*op).vtx) && eg())
         op = fetch_op_from_opcode(chip_, false, inst | w::TEX_WORD0_EG::INST_MOD.get(w0) << 8);
      if (!op)
         return error(at, std::string("unknown ") + (vtx_clause ? "VTX" : "TEX") + " opcode " +
                             hex(inst) + " on " + std::string(chip_class_name(chip_)));
      if (fetch_op_info(*op).vtx) {
         VtxInstr v;
         v.op = *op;
         bool sem = *op == FetchOp::SEMFETCH;
         if (!check_reserved(at + 1,
                             sem ? w::VTX_WORD1_SEM::kUsedMask : w::VTX_WORD1_GPR::kUsedMask,
                             "VTX_WORD1") ||
             !check_reserved(at + 2,
                             eg() ? w::VTX_WORD2_EG::kUsedMask : w::VTX_WORD2_R600::kUsedMask,
                             "VTX_WORD2"))
            return false;
         v.fetch_type = w::VTX_WORD0::FETCH_TYPE.get(w0);
         v.fetch_whole_quad = w::VTX_WORD0::FETCH_WHOLE_QUAD.get(w0);
         v.buffer_id = w::VTX_WORD0::BUFFER_ID.get(w0);
         v.src_gpr = w::VTX_WORD0::SRC_GPR.get(w0);
         v.src_rel = w::VTX_WORD0::SRC_REL.get(w0);
         v.src_sel_x = w::VTX_WORD0::SRC_SEL_X.get(w0);
         v.mega_fetch_count = w::VTX_WORD0::MEGA_FETCH_COUNT.get(w0);
         if (sem) {
            v.semantic_id = w::VTX_WORD1_SEM::SEMANTIC_ID.get(w1);
         } else {
            v.dst_gpr = w::VTX_WORD1_GPR::DST_GPR.get(w1);
            v.dst_rel = w::VTX_WORD1_GPR::DST_REL.get(w1);
         }
         v.dst_sel[0] = w::VTX_WORD1_GPR::DST_SEL_X.get(w1);
         v.dst_sel[1] = w::VTX_WORD1_GPR::DST_SEL_Y.get(w1);
         v.dst_sel[2] = w::VTX_WORD1_GPR::DST_SEL_Z.get(w1);
         v.dst_sel[3] = w::VTX_WORD1_GPR::DST_SEL_W.get(w1);
         v.use_const_fields = w::VTX_WORD1_GPR::USE_CONST_FIELDS.get(w1);
         v.data_format = w::VTX_WORD1_GPR::DATA_FORMAT.get(w1);
         v.num_format_all = w::VTX_WORD1_GPR::NUM_FORMAT_ALL.get(w1);
         v.format_comp_all = w::VTX_WORD1_GPR::FORMAT_COMP_ALL.get(w1);
         v.srf_mode_all = w::VTX_WORD1_GPR::SRF_MODE_ALL.get(w1);
         v.offset = w::VTX_WORD2_EG::OFFSET.get(w2);
         v.endian_swap = w::VTX_WORD2_EG::ENDIAN_SWAP.get(w2);
         v.const_buf_no_stride = w::VTX_WORD2_EG::CONST_BUF_NO_STRIDE.get(w2);
         v.mega_fetch = w::VTX_WORD2_EG::MEGA_FETCH.get(w2);
         v.alt_const = w::VTX_WORD2_EG::ALT_CONST.get(w2);
         v.buffer_index_mode = eg() ? w::VTX_WORD2_EG::BUFFER_INDEX_MODE.get(w2) : 0;
         cf.fetches.emplace_back(v);
         continue;
      }
      TexInstr t;
      t.op = *op;
      if (!check_reserved(at, eg() ? w::TEX_WORD0_EG::kUsedMask : w::TEX_WORD0_R600::kUsedMask,
                          "TEX_WORD0") ||
          !check_reserved(at + 1, w::TEX_WORD1::kUsedMask, "TEX_WORD1"))
         return false;
      if (eg()) {
         t.resource_index_mode = w::TEX_WORD0_EG::RESOURCE_INDEX_MODE.get(w0);
         t.sampler_index_mode = w::TEX_WORD0_EG::SAMPLER_INDEX_MODE.get(w0);
      } else {
         t.bc_frac_mode = w::TEX_WORD0_R600::BC_FRAC_MODE.get(w0);
      }
      t.fetch_whole_quad = w::TEX_WORD0_EG::FETCH_WHOLE_QUAD.get(w0);
      t.resource_id = w::TEX_WORD0_EG::RESOURCE_ID.get(w0);
      t.src_gpr = w::TEX_WORD0_EG::SRC_GPR.get(w0);
      t.src_rel = w::TEX_WORD0_EG::SRC_REL.get(w0);
      t.alt_const = w::TEX_WORD0_EG::ALT_CONST.get(w0);
      t.dst_gpr = w::TEX_WORD1::DST_GPR.get(w1);
      t.dst_rel = w::TEX_WORD1::DST_REL.get(w1);
      t.dst_sel[0] = w::TEX_WORD1::DST_SEL_X.get(w1);
      t.dst_sel[1] = w::TEX_WORD1::DST_SEL_Y.get(w1);
      t.dst_sel[2] = w::TEX_WORD1::DST_SEL_Z.get(w1);
      t.dst_sel[3] = w::TEX_WORD1::DST_SEL_W.get(w1);
      t.lod_bias = w::TEX_WORD1::LOD_BIAS.get(w1);
      t.coord_type[0] = w::TEX_WORD1::COORD_TYPE_X.get(w1);
      t.coord_type[1] = w::TEX_WORD1::COORD_TYPE_Y.get(w1);
      t.coord_type[2] = w::TEX_WORD1::COORD_TYPE_Z.get(w1);
      t.coord_type[3] = w::TEX_WORD1::COORD_TYPE_W.get(w1);
      /* 5-bit two's complement offsets */
      auto sext5 = [](uint32_t v) { return static_cast<int8_t>(v >= 16 ? int(v) - 32 : int(v)); };
      t.offset[0] = sext5(w::TEX_WORD2::OFFSET_X.get(w2));
      t.offset[1] = sext5(w::TEX_WORD2::OFFSET_Y.get(w2));
      t.offset[2] = sext5(w::TEX_WORD2::OFFSET_Z.get(w2));
      t.sampler_id = w::TEX_WORD2::SAMPLER_ID.get(w2);
      t.src_sel[0] = w::TEX_WORD2::SRC_SEL_X.get(w2);
      t.src_sel[1] = w::TEX_WORD2::SRC_SEL_Y.get(w2);
      t.src_sel[2] = w::TEX_WORD2::SRC_SEL_Z.get(w2);
      t.src_sel[3] = w::TEX_WORD2::SRC_SEL_W.get(w2);
      cf.fetches.emplace_back(t);
   }
   return true;
}

std::optional<Program> Decoder::run()
{
   prog_.chip = chip_;
   const uint32_t n = words_.size();
   if (n == 0) {
      error(0, "empty program");
      return std::nullopt;
   }

   struct Pending {
      uint32_t raw_addr = 0;
      uint32_t count = 0;
   };
   std::vector<Pending> pending;
   std::map<uint32_t, uint32_t> slot_to_index; /* CF slot -> CF index */
   uint32_t slot = 0;
   bool ended = false;
   while (!ended) {
      uint32_t at = 2 * slot;
      if (at + 1 >= n) {
         error(at, "CF program reaches the end of the input without END_OF_PROGRAM");
         return std::nullopt;
      }
      CfInstr cf;
      cf.cf_addr = at;
      Pending p;
      if (!decode_cf_pair(at, cf, p.raw_addr, p.count))
         return std::nullopt;
      slot_to_index[slot] = prog_.cf.size();
      if (cf_op_info(cf.op).flags & CF_EXT) {
         if (!eg()) {
            error(at + 1, "ALU_EXT needs Evergreen or later");
            return std::nullopt;
         }
         uint32_t e0 = words_[at], e1 = words_[at + 1];
         if (!check_reserved(at, w::CF_ALU_WORD0_EXT::kUsedMask, "CF_ALU_WORD0_EXT") ||
             !check_reserved(at + 1, w::CF_ALU_WORD1_EXT::kUsedMask, "CF_ALU_WORD1_EXT"))
            return std::nullopt;
         if (at + 3 >= n) {
            error(at, "ALU_EXT at the end of the input");
            return std::nullopt;
         }
         CfInstr alu;
         alu.cf_addr = at;
         if (!decode_cf_pair(at + 2, alu, p.raw_addr, p.count))
            return std::nullopt;
         const CfOpInfo &ai = cf_op_info(alu.op);
         if (ai.enc != CfEncoding::Alu || (ai.flags & CF_EXT)) {
            error(at + 3, "ALU_EXT is not followed by an ALU clause instruction");
            return std::nullopt;
         }
         if (alu.barrier != static_cast<bool>(w::CF_ALU_WORD1_EXT::BARRIER.get(e1))) {
            error(at + 1, "ALU_EXT and its ALU clause disagree on BARRIER");
            return std::nullopt;
         }
         alu.alu_ext = true;
         alu.kcache[0].index_mode = w::CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE0.get(e0);
         alu.kcache[1].index_mode = w::CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE1.get(e0);
         alu.kcache[2].index_mode = w::CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE2.get(e0);
         alu.kcache[3].index_mode = w::CF_ALU_WORD0_EXT::KCACHE_BANK_INDEX_MODE3.get(e0);
         alu.kcache[2].bank = w::CF_ALU_WORD0_EXT::KCACHE_BANK2.get(e0);
         alu.kcache[3].bank = w::CF_ALU_WORD0_EXT::KCACHE_BANK3.get(e0);
         alu.kcache[2].mode = w::CF_ALU_WORD0_EXT::KCACHE_MODE2.get(e0);
         alu.kcache[3].mode = w::CF_ALU_WORD1_EXT::KCACHE_MODE3.get(e1);
         alu.kcache[2].addr = w::CF_ALU_WORD1_EXT::KCACHE_ADDR2.get(e1);
         alu.kcache[3].addr = w::CF_ALU_WORD1_EXT::KCACHE_ADDR3.get(e1);
         cf = std::move(alu);
         slot++;
      }
      const CfOpInfo &info = cf_op_info(cf.op);
      if (!(info.flags & (CF_CLAUSE | CF_TARGET)))
         cf.addr = p.raw_addr;
      ended = cf.end_of_program || cf.op == CfOp::CF_END;
      prog_.cf.push_back(std::move(cf));
      pending.push_back(p);
      slot++;
   }
   const uint32_t cf_end = 2 * slot;

   for (size_t i = 0; i < prog_.cf.size(); i++) {
      CfInstr &cf = prog_.cf[i];
      const CfOpInfo &info = cf_op_info(cf.op);
      const Pending &p = pending[i];
      uint32_t at = cf.cf_addr + (cf.alu_ext ? 2 : 0);
      if (info.flags & CF_CLAUSE) {
         uint64_t start = uint64_t(p.raw_addr) * 2;
         bool fetch = info.flags & CF_FETCH;
         uint64_t len = fetch ? uint64_t(p.count) * 4 : uint64_t(p.count) * 2;
         if (start < cf_end) {
            error(at, "clause at dword " + std::to_string(start) + " overlaps the CF program (" +
                         std::to_string(cf_end) + " dwords)");
            return std::nullopt;
         }
         if (start + len > n) {
            error(at, "clause at dword " + std::to_string(start) + " (" + std::to_string(len) +
                         " dwords) runs past the end of the input (" + std::to_string(n) +
                         " dwords)");
            return std::nullopt;
         }
         if (fetch && start % 4) {
            error(at, "fetch clause at dword " + std::to_string(start) +
                         " is not aligned to 4 dwords");
            return std::nullopt;
         }
         if (cf.op == CfOp::GDS) {
            error(at, "GDS clauses are not supported yet");
            return std::nullopt;
         }
         cf.clause_addr = start;
         bool ok = fetch ? decode_fetch_clause(cf, start, p.count)
                         : decode_alu_clause(cf, start, len);
         if (!ok)
            return std::nullopt;
      } else if (info.flags & CF_TARGET) {
         if (p.raw_addr == slot) {
            cf.target = prog_.cf.size();
         } else {
            auto it = slot_to_index.find(p.raw_addr);
            if (it == slot_to_index.end()) {
               error(at, "target dword " + std::to_string(uint64_t(p.raw_addr) * 2) +
                            (p.raw_addr < slot ? " is inside an ALU_EXT pair"
                                               : " is outside the CF program"));
               return std::nullopt;
            }
            cf.target = it->second;
         }
      }
   }
   return std::move(prog_);
}

/* ---- Listing ---------------------------------------------------------------- */

class Printer {
 public:
   Printer(const Program &prog, std::span<const uint32_t> words) : prog_(prog), words_(words) {}
   std::string run();

 private:
   const Program &prog_;
   std::span<const uint32_t> words_;
   std::string out_;
   std::string line_;
   unsigned ngroup_ = 0;

   uint32_t word(uint32_t at) const { return at < words_.size() ? words_[at] : 0; }

   void add(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
   {
      char buf[256];
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(buf, sizeof(buf), fmt, ap);
      va_end(ap);
      line_ += buf;
   }
   void pad(size_t col)
   {
      if (line_.size() < col)
         line_.append(col - line_.size(), ' ');
   }
   void end_line()
   {
      out_ += line_;
      out_ += '\n';
      line_.clear();
   }
   void cf_head(uint32_t at, const CfInstr &cf)
   {
      add("%04u %08X %08X  %s ", at, word(at), word(at + 1),
          std::string(cf_op_name(cf.op)).c_str());
   }
   uint32_t target_addr(const CfInstr &cf) const
   {
      if (cf.target < prog_.cf.size())
         return prog_.cf[cf.target].cf_addr;
      if (prog_.cf.empty())
         return 0;
      const CfInstr &lastcf = prog_.cf.back();
      return lastcf.cf_addr + 2 * cf_slots(lastcf);
   }
   void extras(const CfInstr &cf, bool print_barrier);
   void print_cf(const CfInstr &cf);
   void print_alu_clause(const CfInstr &cf);
   void print_fetch_clause(const CfInstr &cf);
};

const char kSwz[] = "xyzw01?_";

void Printer::extras(const CfInstr &cf, bool print_barrier)
{
   if (print_barrier && !cf.barrier)
      add("NO_BARRIER ");
   if (cf.whole_quad_mode)
      add("WQM ");
   if (cf.cf_const)
      add("CF_CONST:%u ", cf.cf_const);
   if (cf.call_count)
      add("CALL_COUNT:%u ", cf.call_count);
   if (cf.jumptable_sel)
      add("JTS:%u ", cf.jumptable_sel);
}

void Printer::print_cf(const CfInstr &cf)
{
   const CfOpInfo &info = cf_op_info(cf.op);
   uint32_t at = cf.cf_addr;
   if (info.enc == CfEncoding::Alu) {
      if (cf.alu_ext) {
         add("%04u %08X %08X  ALU_EXT", at, word(at), word(at + 1));
         end_line();
         at += 2;
      }
      cf_head(at, cf);
      add("%u @%u ", alu_clause_dwords(cf.groups) / 2, cf.clause_addr);
      static const char *kIndexMode[] = {"CF_INDEX_NONE", "CF_INDEX_0", "CF_INDEX_1", "?"};
      for (unsigned k = 0; k < 4; k++) {
         const KCacheLock &kc = cf.kcache[k];
         if (!kc.mode)
            continue;
         unsigned start = kc.addr << 4;
         add("KC%u[CB%u:%u-%u%s%s] ", k, kc.bank, start, start + (kc.mode << 4),
             kc.index_mode ? " " : "", kc.index_mode ? kIndexMode[kc.index_mode & 3] : "");
      }
      if (cf.alt_const)
         add("ALT_CONST ");
      extras(cf, true);
   } else if (info.flags & CF_CLAUSE) {
      cf_head(at, cf);
      add("%zu @%u ", cf.fetches.size(), cf.clause_addr);
      if (cf.valid_pixel_mode)
         add("VPM ");
      if (cf.end_of_program)
         add("EOP ");
      if (cf.cond)
         add("CND:%X ", cf.cond);
      if (cf.pop_count)
         add("POP:%X ", cf.pop_count);
      extras(cf, true);
   } else if (info.enc == CfEncoding::Export || info.enc == CfEncoding::Mem) {
      const ExportInfo &e = cf.exp;
      bool mem = info.enc == CfEncoding::Mem;
      cf_head(at, cf);
      pad(43);
      if (mem)
         add("%s ", std::string(kMemExportTypeNames[e.type & 3]).c_str());
      else
         add("%s ", e.type == 1 ? "POS  " : e.type < 3 ? std::string(kExportTypeNames[e.type]).c_str()
                                                       : "TYPE3");
      if (e.burst_count > 1) {
         add("%u-%u ", e.array_base, e.array_base + e.burst_count - 1);
         pad(55);
         add("R%u-%u.", e.gpr, e.gpr + e.burst_count - 1);
      } else {
         add("%u ", e.array_base);
         pad(55);
         add("R%u.", e.gpr);
      }
      for (unsigned k = 0; k < 4; k++) {
         if (mem)
            add("%c", (e.comp_mask >> k) & 1 ? kSwz[k] : '_');
         else
            add("%c", kSwz[e.swizzle[k] & 7]);
      }
      if (mem && (e.type & 1))
         add(" R%u.xyz", e.index_gpr);
      pad(67);
      if (mem)
         add(" ES:%u ", e.elem_size);
      else
         add(" ES:%X ", e.elem_size);
      if (mem && e.array_size != 0xfff)
         add("AS:%u ", e.array_size);
      if (cf.mark)
         add("MARK ");
      if (!cf.barrier)
         add("NO_BARRIER ");
      if (cf.end_of_program)
         add("EOP ");
      if (cf.valid_pixel_mode)
         add("VPM ");
      if (cf.whole_quad_mode)
         add("WQM ");
      if (e.rw_rel)
         add("RW_REL ");
      if (!mem && e.index_gpr)
         add("IDX:R%u ", e.index_gpr);
   } else {
      cf_head(at, cf);
      add("@%u ", (info.flags & CF_TARGET) ? target_addr(cf) : cf.addr * 2);
      if (cf.cond)
         add("CND:%X ", cf.cond);
      if (cf.pop_count)
         add("POP:%X ", cf.pop_count);
      if (cf.count && (info.flags & CF_EMIT))
         add("STREAM%u ", cf.count);
      else if (cf.count)
         add("COUNT:%u ", cf.count);
      if (cf.valid_pixel_mode)
         add("VPM ");
      if (cf.end_of_program)
         add("EOP ");
      extras(cf, true);
   }
   end_line();
}

void Printer::print_alu_clause(const CfInstr &cf)
{
   static const char *kOmod[] = {"", "*2", "*4", "/2"};
   static const char kSlotNames[] = "xyzwt?";
   uint32_t at = cf.clause_addr;
   for (const AluGroup &g : cf.groups) {
      for (size_t k = 0; k < g.instrs.size(); k++) {
         const AluInstr &in = g.instrs[k];
         const AluOpInfo &info = alu_op_info(in.op);
         add(" %04u %08X %08X  ", at, word(at), word(at + 1));
         if (k == 0)
            add("%4u ", ++ngroup_);
         else
            add("     ");
         add("%c:", kSlotNames[std::min<unsigned>(in.slot, 5)]);
         add("%c%c %c ", in.update_exec_mask ? 'M' : ' ', in.update_pred ? 'P' : ' ',
             in.pred_sel ? (in.pred_sel == 2 ? '0' : '1') : ' ');
         add("%s%s%s ", std::string(info.name).c_str(), kOmod[in.dst.omod & 3],
             in.dst.clamp ? "_sat" : "");
         pad(60);
         line_ += format_alu_dst(prog_.chip, in);
         for (unsigned s = 0; s < info.num_src; s++) {
            line_ += s == 0 ? ",  " : ", ";
            line_ += format_alu_src(prog_.chip, in, s, g);
         }
         if (in.bank_swizzle) {
            pad(75);
            add("  BS:%u", in.bank_swizzle);
         }
         if (in.fog_merge)
            add(" FOG_MERGE");
         if (in.index_mode && !(in.src[0].rel || in.src[1].rel || in.src[2].rel || in.dst.rel))
            add(" IM:%u", in.index_mode);
         end_line();
         at += 2;
      }
      for (uint32_t lit : g.literals) {
         float f;
         std::memcpy(&f, &lit, 4);
         add(" %04u %08X", at, lit);
         pad(60);
         add(" %f (%d)", f, static_cast<int32_t>(lit));
         end_line();
         at++;
      }
      if (g.literals.size() & 1)
         at++;
   }
}

void Printer::print_fetch_clause(const CfInstr &cf)
{
   static const char *kIndexMode[] = {"CF_INDEX_NONE", "CF_INDEX_0", "CF_INDEX_1", "?"};
   uint32_t at = cf.clause_addr;
   for (const FetchInstr &f : cf.fetches) {
      add(" %04u %08X %08X %08X   ", at, word(at), word(at + 1), word(at + 2));
      if (const TexInstr *t = std::get_if<TexInstr>(&f)) {
         add("%s ", std::string(fetch_op_name(t->op)).c_str());
         pad(50);
         add("R%u.%c%c%c%c", t->dst_gpr, kSwz[t->dst_sel[0] & 7], kSwz[t->dst_sel[1] & 7],
             kSwz[t->dst_sel[2] & 7], kSwz[t->dst_sel[3] & 7]);
         add(", R%u.%c%c%c%c", t->src_gpr, kSwz[t->src_sel[0] & 7], kSwz[t->src_sel[1] & 7],
             kSwz[t->src_sel[2] & 7], kSwz[t->src_sel[3] & 7]);
         add(",  RID:%u", t->resource_id);
         add(", SID:%u  ", t->sampler_id);
         if (t->sampler_index_mode)
            add("SQ_%s ", kIndexMode[t->sampler_index_mode & 3]);
         if (t->lod_bias)
            add("LB:%u ", t->lod_bias);
         add("CT:%c%c%c%c ", t->coord_type[0] ? 'N' : 'U', t->coord_type[1] ? 'N' : 'U',
             t->coord_type[2] ? 'N' : 'U', t->coord_type[3] ? 'N' : 'U');
         if (t->offset[0])
            add("OX:%d ", t->offset[0]);
         if (t->offset[1])
            add("OY:%d ", t->offset[1]);
         if (t->offset[2])
            add("OZ:%d ", t->offset[2]);
         /* Mesa sets both index modes alike and prints only the sampler's. */
         if (t->resource_index_mode != t->sampler_index_mode)
            add("RQ_%s ", kIndexMode[t->resource_index_mode & 3]);
         if (t->src_rel)
            add("SRC_REL ");
         if (t->dst_rel)
            add("DST_REL ");
         if (t->fetch_whole_quad)
            add("WQ ");
         if (t->alt_const)
            add("ALT_CONST ");
         if (t->bc_frac_mode)
            add("BC_FRAC ");
      } else {
         const VtxInstr &v = std::get<VtxInstr>(f);
         static const char *kFetchType[] = {"VERTEX", "INSTANCE", "", "?"};
         add("%s ", std::string(fetch_op_name(v.op)).c_str());
         pad(50);
         if (v.op == FetchOp::SEMFETCH)
            add("SEM%u.", v.semantic_id);
         else
            add("R%u.", v.dst_gpr);
         add("%c%c%c%c", kSwz[v.dst_sel[0] & 7], kSwz[v.dst_sel[1] & 7], kSwz[v.dst_sel[2] & 7],
             kSwz[v.dst_sel[3] & 7]);
         add(", R%u.%c", v.src_gpr, kSwz[v.src_sel_x & 3]);
         /* Mesa pads without counting the offset text; keep its columns. */
         size_t before = line_.size();
         std::string off;
         if (v.offset)
            off = " +" + std::to_string(v.offset) + "b";
         pad(55);
         line_.insert(before, off);
         add(",  RID:%u ", v.buffer_id);
         add("%s ", kFetchType[v.fetch_type & 3]);
         if (prog_.chip != ChipClass::Cayman && v.mega_fetch_count)
            add("MFC:%u ", v.mega_fetch_count);
         if (is_eg_or_later(prog_.chip) && v.buffer_index_mode)
            add("SQ_%s ", kIndexMode[v.buffer_index_mode & 3]);
         add("UCF:%u ", v.use_const_fields);
         add("FMT(DTA:%u ", v.data_format);
         add("NUM:%u ", v.num_format_all);
         add("COMP:%u ", v.format_comp_all);
         add("MODE:%u)", v.srf_mode_all);
         if (v.endian_swap)
            add(" ENDIAN:%u", v.endian_swap);
         if (v.const_buf_no_stride)
            add(" NO_STRIDE");
         if (!v.mega_fetch)
            add(" NO_MEGA");
         if (v.src_rel)
            add(" SRC_REL");
         if (v.dst_rel)
            add(" DST_REL");
         if (v.fetch_whole_quad)
            add(" WQ");
         if (v.alt_const)
            add(" ALT_CONST");
      }
      end_line();
      at += 4;
   }
}

std::string Printer::run()
{
   uint32_t ndw = words_.size();
   add("; %s bytecode, %u dw", std::string(chip_class_name(prog_.chip)).c_str(), ndw);
   end_line();
   for (const CfInstr &cf : prog_.cf) {
      print_cf(cf);
      const CfOpInfo &info = cf_op_info(cf.op);
      if (!(info.flags & CF_CLAUSE))
         continue;
      if (info.enc == CfEncoding::Alu)
         print_alu_clause(cf);
      else
         print_fetch_clause(cf);
   }
   return std::move(out_);
}

std::string sel_text(unsigned sel, bool rel, unsigned index_mode, bool brackets)
{
   std::string s;
   if (rel && index_mode >= 5 && sel < 128)
      s += "G";
   if (rel || brackets)
      s += "[";
   s += std::to_string(sel);
   if (rel) {
      if (index_mode == 0 || index_mode == 6)
         s += "+AR";
      else if (index_mode == 4)
         s += "+AL";
   }
   if (rel || brackets)
      s += "]";
   return s;
}

} // namespace

std::string format_alu_dst(ChipClass chip, const AluInstr &in)
{
   if (chip == ChipClass::Cayman && in.op == AluOp::MOVA_INT) {
      switch (in.dst.gpr) {
      case 0: return "AR";
      case 2: return "CF_IDX0";
      case 3: return "CF_IDX1";
      default: break;
      }
   }
   std::string s;
   bool writes = in.dst.write || alu_is_op3(in.op);
   if (writes) {
      unsigned sel = in.dst.gpr;
      if (sel >= kSrcClauseTempFirst) {
         s += "T";
         sel -= kSrcClauseTempFirst;
      } else {
         s += "R";
      }
      s += sel_text(sel, in.dst.rel, in.index_mode, false);
   } else {
      s += "__";
   }
   s += ".";
   s += kSwz[in.dst.chan & 3];
   return s;
}

std::string format_alu_src(ChipClass chip, const AluInstr &in, unsigned idx, const AluGroup &group)
{
   const AluSrc &src = in.src[idx];
   std::string s;
   unsigned sel = src.sel;
   bool need_sel = true, need_chan = true, brackets = false;
   if (src.neg)
      s += "-";
   if (src.abs)
      s += "|";
   bool eg = is_eg_or_later(chip);
   if (sel < kSrcClauseTempFirst) {
      s += "R";
   } else if (sel <= kSrcGPRLast) {
      s += "T";
      sel -= kSrcClauseTempFirst;
   } else if (sel <= kSrcKCACHE0Last) {
      s += "KC0";
      brackets = true;
      sel -= kSrcKCACHE0First;
   } else if (sel <= kSrcKCACHE1Last) {
      s += "KC1";
      brackets = true;
      sel -= kSrcKCACHE1First;
   } else if (!eg && sel >= kSrcCFILEFirst) {
      s += "C";
      brackets = true;
      sel -= kSrcCFILEFirst;
   } else if (eg && sel >= kSrcPARAMFirst && sel <= kSrcPARAMLast) {
      s += "Param";
      sel -= kSrcPARAMFirst;
      need_chan = false;
   } else if (eg && sel >= kSrcKCACHE3First && sel <= kSrcKCACHE3Last) {
      s += "KC3";
      brackets = true;
      sel -= kSrcKCACHE3First;
   } else if (eg && sel >= kSrcKCACHE2First && sel <= kSrcKCACHE2Last) {
      s += "KC2";
      brackets = true;
      sel -= kSrcKCACHE2First;
   } else {
      need_sel = false;
      need_chan = false;
      const SrcInlineInfo *found = nullptr;
      for (const SrcInlineInfo &info : kSrcInline) {
         if (info.sel == sel && (info.chips >> chip_index(chip)) & 1)
            found = &info;
      }
      if (!found) {
         s += "??IMM_" + std::to_string(sel);
      } else if (sel == kSrc_LITERAL) {
         uint32_t v = src.chan < group.literals.size() ? group.literals[src.chan] : 0;
         float f;
         std::memcpy(&f, &v, 4);
         char buf[96];
         snprintf(buf, sizeof(buf), "[0x%08X %f]", v, f);
         s += buf;
      } else {
         s += found->text;
         if (sel == kSrc_PV || (sel >= kSrc_LDS_OQ_A && sel <= kSrc_LDS_OQ_B_POP))
            need_chan = true;
      }
   }
   if (need_sel)
      s += sel_text(sel, src.rel, in.index_mode, brackets);
   if (need_chan) {
      s += ".";
      s += kSwz[src.chan & 3];
   }
   if (src.abs)
      s += "|";
   return s;
}

std::optional<Program> decode_program(std::span<const uint32_t> words, ChipClass chip,
                                      Diagnostics &diag, std::string_view file)
{
   return Decoder(words, chip, diag, file).run();
}

std::string print_program(const Program &prog, std::span<const uint32_t> words)
{
   return Printer(prog, words).run();
}

std::optional<std::string> disassemble(std::span<const uint32_t> words, ChipClass chip,
                                       Diagnostics &diag, std::string_view file)
{
   auto prog = decode_program(words, chip, diag, file);
   if (!prog)
      return std::nullopt;
   return print_program(*prog, words);
}

} // namespace sbcc::r600
