/*
 * Encode -> decode -> encode must be bit-identical, and decode must give the
 * model back, for every ALU, fetch and CF opcode of the ISA description on
 * every chip class where it exists, with randomly varied fields.
 */
#include <gtest/gtest.h>

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600_test_util.h"

namespace {

using namespace sbcc::r600;
using sbcc::r600::test::Rng;

constexpr ChipClass kChips[] = {ChipClass::R600, ChipClass::R700, ChipClass::Evergreen,
                                ChipClass::Cayman};

class RandomProgram {
 public:
   RandomProgram(ChipClass chip, uint32_t seed) : chip_(chip), rng_(seed) {}

   AluSrc src(bool allow_abs, AluGroup &g)
   {
      AluSrc s;
      switch (rng_.range(8)) {
      case 0: s.sel = rng_.range(124); break;                          /* GPR */
      case 1: s.sel = kSrcClauseTempFirst + rng_.range(4); break;      /* T0-T3 */
      case 2: s.sel = kSrcKCACHE0First + rng_.range(32); break;
      case 3: s.sel = kSrcKCACHE1First + rng_.range(32); break;
      case 4: {
         static const uint16_t kInline[] = {kSrc_0, kSrc_1, kSrc_1_INT, kSrc_M_1_INT, kSrc_0_5,
                                            kSrc_PV, kSrc_PS};
         s.sel = kInline[rng_.range(7)];
         break;
      }
      case 5:
         s.sel = kSrc_LITERAL;
         break;
      case 6:
         if (is_eg_or_later(chip_))
            s.sel = rng_.coin() ? kSrcKCACHE2First + rng_.range(64) : kSrcPARAMFirst + rng_.range(32);
         else
            s.sel = kSrcCFILEFirst + rng_.range(256);
         break;
      default: s.sel = rng_.range(128); break;
      }
      s.chan = rng_.range(4);
      if (s.sel == kSrc_LITERAL) {
         while (g.literals.size() <= s.chan)
            g.literals.push_back(rng_.next());
      }
      s.neg = rng_.coin();
      s.abs = allow_abs && rng_.coin();
      s.rel = rng_.range(8) == 0;
      return s;
   }

   AluInstr alu(AluOp op, unsigned slot, unsigned chan, AluGroup &g)
   {
      AluInstr in;
      const AluOpInfo &info = alu_op_info(op);
      bool op3 = info.num_src == 3;
      in.op = op;
      in.slot = slot;
      for (unsigned k = 0; k < info.num_src; k++)
         in.src[k] = src(!op3 && k < 2, g);
      in.dst.gpr = rng_.range(128);
      in.dst.chan = chan;
      in.dst.write = op3 || rng_.coin();
      in.dst.rel = rng_.range(8) == 0;
      in.dst.clamp = rng_.coin();
      in.dst.omod = op3 ? 0 : rng_.range(4);
      in.bank_swizzle = rng_.range(6);
      in.pred_sel = rng_.range(4);
      in.index_mode = rng_.range(7);
      if (!op3) {
         in.update_exec_mask = rng_.coin();
         in.update_pred = rng_.coin();
         in.fog_merge = chip_ == ChipClass::R600 && rng_.coin();
      }
      return in;
   }

   /* A group holding `op` in a slot it may use (all four for reductions). */
   AluGroup group_with(AluOp op)
   {
      AluGroup g;
      unsigned slots = alu_slots(chip_, op);
      if (slots & kSlot4) {
         for (unsigned c = 0; c < 4; c++)
            g.instrs.push_back(alu(op, c, c, g));
      } else if (alu_is_trans_only(chip_, op)) {
         g.instrs.push_back(alu(op, kSlotT, rng_.range(4), g));
      } else {
         unsigned chan = rng_.range(4);
         if (slots & kSlotXY)
            chan = rng_.range(2);
         else if (slots & kSlotZW)
            chan = 2 + rng_.range(2);
         /* Sometimes put a vector+trans op in t behind a MOV of the same channel. */
         if ((slots & kSlotS) && (slots & kSlotV) && chip_ != ChipClass::Cayman && rng_.coin()) {
            g.instrs.push_back(alu(AluOp::MOV, chan, chan, g));
            g.instrs.push_back(alu(op, kSlotT, chan, g));
         } else {
            g.instrs.push_back(alu(op, chan, chan, g));
         }
      }
      if (g.literals.size() & 1)
         g.literal_pad = rng_.next();
      return g;
   }

   CfInstr alu_clause(std::vector<AluGroup> groups, CfOp op = CfOp::ALU)
   {
      CfInstr cf;
      cf.op = op;
      cf.groups = std::move(groups);
      bool ext = is_eg_or_later(chip_) && rng_.coin();
      cf.alu_ext = ext;
      for (unsigned k = 0; k < (ext ? 4u : 2u); k++) {
         cf.kcache[k].bank = rng_.range(16);
         cf.kcache[k].mode = rng_.range(4);
         cf.kcache[k].addr = rng_.range(256);
         cf.kcache[k].index_mode = ext ? rng_.range(3) : 0;
      }
      cf.alt_const = rng_.coin();
      cf.whole_quad_mode = rng_.coin();
      cf.barrier = rng_.coin();
      return cf;
   }

   TexInstr tex(FetchOp op)
   {
      TexInstr t;
      t.op = op;
      t.resource_id = rng_.range(256);
      t.sampler_id = rng_.range(32);
      t.src_gpr = rng_.range(128);
      t.src_rel = rng_.coin();
      t.dst_gpr = rng_.range(128);
      t.dst_rel = rng_.coin();
      for (unsigned k = 0; k < 4; k++) {
         t.src_sel[k] = rng_.range(8);
         t.dst_sel[k] = rng_.range(8);
         t.coord_type[k] = rng_.coin();
      }
      t.lod_bias = rng_.range(128);
      for (unsigned k = 0; k < 3; k++)
         t.offset[k] = static_cast<int8_t>(int(rng_.range(32)) - 16);
      t.fetch_whole_quad = rng_.coin();
      t.alt_const = rng_.coin();
      if (is_eg_or_later(chip_)) {
         t.resource_index_mode = rng_.range(4);
         t.sampler_index_mode = rng_.range(4);
      } else {
         t.bc_frac_mode = rng_.coin();
      }
      return t;
   }

   VtxInstr vtx(FetchOp op)
   {
      VtxInstr v;
      v.op = op;
      v.buffer_id = rng_.range(256);
      v.fetch_type = rng_.range(4);
      v.src_gpr = rng_.range(128);
      v.src_rel = rng_.coin();
      v.src_sel_x = rng_.range(4);
      v.mega_fetch_count = rng_.range(64);
      if (op == FetchOp::SEMFETCH) {
         v.semantic_id = rng_.range(256);
      } else {
         v.dst_gpr = rng_.range(128);
         v.dst_rel = rng_.coin();
      }
      for (unsigned k = 0; k < 4; k++)
         v.dst_sel[k] = rng_.range(8);
      v.use_const_fields = rng_.coin();
      v.data_format = rng_.range(64);
      v.num_format_all = rng_.range(4);
      v.format_comp_all = rng_.coin();
      v.srf_mode_all = rng_.coin();
      v.offset = rng_.range(65536);
      v.endian_swap = rng_.range(4);
      v.const_buf_no_stride = rng_.coin();
      v.mega_fetch = rng_.coin();
      v.alt_const = rng_.coin();
      v.fetch_whole_quad = rng_.coin();
      v.buffer_index_mode = is_eg_or_later(chip_) ? rng_.range(4) : 0;
      return v;
   }

   /* Fills the fields of a non-clause CF instruction. */
   void cf_fields(CfInstr &cf, size_t ncf)
   {
      const CfOpInfo &info = cf_op_info(cf.op);
      bool eg = is_eg_or_later(chip_);
      cf.pop_count = rng_.range(8);
      cf.cf_const = rng_.range(32);
      cf.cond = rng_.range(4);
      cf.valid_pixel_mode = rng_.coin();
      cf.whole_quad_mode = rng_.coin();
      cf.barrier = rng_.coin();
      if (info.flags & CF_CLAUSE)
         return;
      cf.count = rng_.range(eg ? 64 : chip_ == ChipClass::R700 ? 16 : 8);
      if (eg)
         cf.jumptable_sel = rng_.range(8);
      else
         cf.call_count = rng_.range(64);
      if (info.flags & CF_TARGET)
         cf.target = rng_.range(ncf + 1);
      else
         cf.addr = rng_.range(1u << 20);
   }

   CfInstr export_cf(CfOp op)
   {
      CfInstr cf;
      cf.op = op;
      ExportInfo &e = cf.exp;
      e.type = rng_.range(4);
      e.array_base = rng_.range(8192);
      e.gpr = rng_.range(128);
      e.rw_rel = rng_.coin();
      e.index_gpr = rng_.range(128);
      e.elem_size = rng_.range(4);
      e.burst_count = 1 + rng_.range(16);
      if (cf_op_info(op).enc == CfEncoding::Mem) {
         e.array_size = rng_.range(4096);
         e.comp_mask = rng_.range(16);
      } else {
         for (unsigned k = 0; k < 4; k++)
            e.swizzle[k] = rng_.range(8);
      }
      cf.valid_pixel_mode = rng_.coin();
      cf.barrier = rng_.coin();
      if (is_eg_or_later(chip_))
         cf.mark = rng_.coin();
      else
         cf.whole_quad_mode = rng_.coin();
      return cf;
   }

   CfInstr end_cf()
   {
      CfInstr cf;
      cf.op = chip_ == ChipClass::Cayman ? CfOp::CF_END : CfOp::NOP;
      cf.end_of_program = chip_ != ChipClass::Cayman || rng_.coin();
      return cf;
   }

   Rng &rng() { return rng_; }

 private:
   ChipClass chip_;
   Rng rng_;
};

void expect_roundtrip(const Program &p, const std::string &what)
{
   sbcc::Diagnostics diag;
   auto words = assemble(p, diag);
   ASSERT_TRUE(words) << what << ": " << diag.str();
   auto decoded = decode_program(*words, p.chip, diag);
   ASSERT_TRUE(decoded) << what << ": " << diag.str();
   auto again = assemble(*decoded, diag);
   ASSERT_TRUE(again) << what << ": " << diag.str();
   EXPECT_EQ(*again, *words) << what;
   Program laid_out = p;
   ASSERT_TRUE(layout_program(laid_out, diag));
   EXPECT_TRUE(laid_out == *decoded) << what << "\n"
                                     << print_program(*decoded, *words);
}

TEST(R600RoundTrip, EveryAluOpOnEveryChip)
{
   unsigned tested = 0;
   for (ChipClass chip : kChips) {
      for (unsigned i = 0; i < kNumAluOps; i++) {
         AluOp op = static_cast<AluOp>(i);
         if (!alu_slots(chip, op))
            continue;
         for (uint32_t seed = 1; seed <= 8; seed++) {
            RandomProgram r(chip, seed * 7919 + i);
            Program p;
            p.chip = chip;
            std::vector<AluGroup> groups;
            groups.push_back(r.group_with(op));
            groups.push_back(r.group_with(AluOp::MOV));
            groups.push_back(r.group_with(op));
            p.cf.push_back(r.alu_clause(std::move(groups)));
            p.cf.push_back(r.end_cf());
            expect_roundtrip(p, std::string(chip_class_name(chip)) + " " +
                                   std::string(alu_op_name(op)) + " seed " +
                                   std::to_string(seed));
            if (HasFailure())
               return;
         }
         tested++;
      }
   }
   /* (op, chip class) pairs in the description: R600 137, R700 136, EG 198, CM 196. */
   EXPECT_EQ(tested, 667u);
}

TEST(R600RoundTrip, EveryFetchOpOnEveryChip)
{
   unsigned tested = 0;
   for (ChipClass chip : kChips) {
      for (unsigned i = 0; i < kNumFetchOps; i++) {
         FetchOp op = static_cast<FetchOp>(i);
         if (fetch_opcode(chip, op) < 0)
            continue;
         for (uint32_t seed = 1; seed <= 8; seed++) {
            RandomProgram r(chip, seed * 104729 + i);
            Program p;
            p.chip = chip;
            CfInstr cf;
            bool vtx = fetch_op_info(op).vtx;
            /* Cayman has no VTX clause: vertex fetches go through TEX. */
            cf.op = vtx && chip != ChipClass::Cayman && r.rng().coin() ? CfOp::VTX : CfOp::TEX;
            r.cf_fields(cf, 1);
            for (unsigned k = 0; k < 3; k++) {
               if (vtx)
                  cf.fetches.emplace_back(r.vtx(op));
               else
                  cf.fetches.emplace_back(r.tex(op));
            }
            p.cf.push_back(std::move(cf));
            p.cf.push_back(r.end_cf());
            expect_roundtrip(p, std::string(chip_class_name(chip)) + " " +
                                   std::string(fetch_op_name(op)) + " seed " +
                                   std::to_string(seed));
            if (HasFailure())
               return;
         }
         tested++;
      }
   }
   /* R600 30, R700 31, EG 36, CM 42 */
   EXPECT_EQ(tested, 139u);
}

TEST(R600RoundTrip, EveryCfOpOnEveryChip)
{
   unsigned tested = 0;
   for (ChipClass chip : kChips) {
      for (unsigned i = 0; i < kNumCfOps; i++) {
         CfOp op = static_cast<CfOp>(i);
         const CfOpInfo &info = cf_op_info(op);
         if (cf_opcode(chip, op) < 0 || (info.flags & CF_EXT) || op == CfOp::GDS ||
             op == CfOp::CF_END)
            continue;
         for (uint32_t seed = 1; seed <= 8; seed++) {
            RandomProgram r(chip, seed * 31337 + i);
            Program p;
            p.chip = chip;
            /* A little program around the op so targets have somewhere to go. */
            p.cf.push_back(r.alu_clause({r.group_with(AluOp::ADD)}));
            if (info.enc == CfEncoding::Alu) {
               p.cf.push_back(r.alu_clause({r.group_with(AluOp::MUL), r.group_with(AluOp::MOV)}, op));
            } else if (info.enc == CfEncoding::Export || info.enc == CfEncoding::Mem) {
               p.cf.push_back(r.export_cf(op));
            } else {
               CfInstr cf;
               cf.op = op;
               r.cf_fields(cf, 4);
               if (info.flags & CF_CLAUSE) {
                  bool vtx = info.flags & CF_VTX;
                  cf.fetches.emplace_back(vtx ? FetchInstr(r.vtx(FetchOp::VFETCH))
                                              : FetchInstr(r.tex(FetchOp::SAMPLE)));
               }
               p.cf.push_back(std::move(cf));
            }
            CfInstr tex;
            tex.op = CfOp::TEX;
            tex.fetches.emplace_back(r.tex(FetchOp::SAMPLE_L));
            p.cf.push_back(std::move(tex));
            p.cf.push_back(r.end_cf());
            expect_roundtrip(p, std::string(chip_class_name(chip)) + " " +
                                   std::string(info.name) + " seed " + std::to_string(seed));
            if (HasFailure())
               return;
         }
         tested++;
      }
   }
   /* R600 42, R700 47, EG 62, CM 66 (without ALU_EXT, GDS, CF_END) */
   EXPECT_EQ(tested, 217u);
}

TEST(R600RoundTrip, LargeRandomPrograms)
{
   for (ChipClass chip : kChips) {
      for (uint32_t seed = 1; seed <= 20; seed++) {
         RandomProgram r(chip, seed);
         Program p;
         p.chip = chip;
         unsigned ncf = 2 + r.rng().range(20);
         for (unsigned c = 0; c < ncf; c++) {
            switch (r.rng().range(4)) {
            case 0: {
               std::vector<AluGroup> groups;
               unsigned n = 1 + r.rng().range(30);
               for (unsigned k = 0; k < n; k++) {
                  AluOp op;
                  do {
                     op = static_cast<AluOp>(r.rng().range(kNumAluOps));
                  } while (!alu_slots(chip, op));
                  groups.push_back(r.group_with(op));
               }
               p.cf.push_back(r.alu_clause(std::move(groups), CfOp::ALU_PUSH_BEFORE));
               break;
            }
            case 1: {
               CfInstr cf;
               cf.op = CfOp::TEX;
               unsigned n = 1 + r.rng().range(8);
               for (unsigned k = 0; k < n; k++)
                  cf.fetches.emplace_back(r.tex(FetchOp::SAMPLE_C));
               p.cf.push_back(std::move(cf));
               break;
            }
            case 2: {
               CfInstr cf;
               cf.op = CfOp::JUMP;
               r.cf_fields(cf, ncf);
               p.cf.push_back(std::move(cf));
               break;
            }
            default: p.cf.push_back(r.export_cf(CfOp::EXPORT)); break;
            }
         }
         p.cf.push_back(r.end_cf());
         expect_roundtrip(p, std::string(chip_class_name(chip)) + " seed " + std::to_string(seed));
         if (HasFailure())
            return;
      }
   }
}

} // namespace
