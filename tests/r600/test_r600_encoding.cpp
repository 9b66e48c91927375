/*
 * Hand-checked encodings: programs built in the model must assemble to the
 * dwords Mesa produced for the same instructions (taken from the r600-bc
 * corpus listings: CYPRESS = Evergreen, RV770 = R700), and the listing of
 * those dwords must read like Mesa's.
 */
#include <gtest/gtest.h>

#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600_test_util.h"

namespace {

using namespace sbcc::r600;

AluSrc gpr(unsigned sel, unsigned chan, bool neg = false)
{
   AluSrc s;
   s.sel = sel;
   s.chan = chan;
   s.neg = neg;
   return s;
}

AluInstr alu(AluOp op, unsigned slot, unsigned gpr_, unsigned chan, bool write,
             std::initializer_list<AluSrc> srcs)
{
   AluInstr in;
   in.op = op;
   in.slot = slot;
   in.dst.gpr = gpr_;
   in.dst.chan = chan;
   in.dst.write = write;
   unsigned k = 0;
   for (const AluSrc &s : srcs)
      in.src[k++] = s;
   return in;
}

CfInstr export_done(unsigned type, unsigned base, unsigned gpr_, bool eop)
{
   CfInstr cf;
   cf.op = CfOp::EXPORT_DONE;
   cf.exp.type = type;
   cf.exp.array_base = base;
   cf.exp.gpr = gpr_;
   cf.exp.elem_size = 3;
   cf.end_of_program = eop;
   return cf;
}

/* Evergreen vertex shader head of CYPRESS dolphin/smg.2.vs (clause shortened). */
Program evergreen_vs()
{
   Program p;
   p.chip = ChipClass::Evergreen;
   CfInstr call;
   call.op = CfOp::CALL_FS;
   p.cf.push_back(call);

   CfInstr alu_cf;
   alu_cf.op = CfOp::ALU;
   alu_cf.alu_ext = true;
   alu_cf.kcache[0] = {1, 1, 0, 0};
   alu_cf.kcache[1] = {1, 1, 3, 0};
   alu_cf.kcache[2] = {1, 1, 14, 0};
   AluGroup dot;
   for (unsigned c = 0; c < 4; c++)
      dot.instrs.push_back(alu(AluOp::DOT4_IEEE, c, 5, c, c == 0, {gpr(128, c), gpr(1, c)}));
   alu_cf.groups.push_back(dot);
   AluGroup g;
   g.instrs.push_back(alu(AluOp::MOV, kSlotX, 3, 0, true, {gpr(6, 0)}));
   g.instrs.push_back(alu(AluOp::ADD, kSlotZ, 4, 2, true, {gpr(kSrc_PV, 0), gpr(256 + 13, 3)}));
   AluInstr mad = alu(AluOp::MULADD_IEEE, kSlotT, 3, 2, true,
                      {gpr(8, 0), gpr(kSrc_LITERAL, 0), gpr(5, 0)});
   mad.bank_swizzle = 1;
   g.instrs.push_back(mad);
   g.literals.push_back(0x40000000);
   alu_cf.groups.push_back(g);
   p.cf.push_back(alu_cf);

   p.cf.push_back(export_done(1, 60, 3, false));
   p.cf.push_back(export_done(2, 0, 4, true));
   return p;
}

const std::vector<uint32_t> kEvergreenVs = {
   0x00000000, 0x84C00000,                         /* CALL_FS @0 */
   0x40400000, 0xB0000038,                         /* ALU_EXT */
   0x44400005, 0xA01C0C01,                         /* ALU 8 @10 */
   0xC001A03C, 0x95000688,                         /* EXPORT_DONE POS 60 */
   0xC0024000, 0x95200688,                         /* EXPORT_DONE PARAM 0 EOP */
   0x00002080, 0x00A05F90, 0x00802480, 0x20A05F80, /* DOT4_IEEE x, y */
   0x01002880, 0x40A05F80, 0x81802C80, 0x60A05F80, /* DOT4_IEEE z, w */
   0x00000006, 0x00600C90,                         /* MOV R3.x, R6.x */
   0x01A1A0FE, 0x40800010,                         /* ADD R4.z, PV.x, KC2[13].w */
   0x801FA008, 0x40670005,                         /* t: MULADD_IEEE ... BS:1 */
   0x40000000, 0x00000000,                         /* literal + pad */
};

TEST(R600Encoding, EvergreenMatchesMesa)
{
   sbcc::Diagnostics diag;
   auto words = assemble(evergreen_vs(), diag);
   ASSERT_TRUE(words) << diag.str();
   EXPECT_EQ(*words, kEvergreenVs);
}

TEST(R600Encoding, EvergreenListingMatchesMesa)
{
   sbcc::Diagnostics diag;
   auto text = disassemble(kEvergreenVs, ChipClass::Evergreen, diag);
   ASSERT_TRUE(text) << diag.str();
   /* Lines as Mesa 22.3 prints them (trailing blanks dropped). */
   std::vector<std::string> want = {
      "0000 00000000 84C00000  CALL_FS @0",
      "0002 40400000 B0000038  ALU_EXT",
      "0004 44400005 A01C0C01  ALU 8 @10 KC0[CB1:0-16] KC1[CB1:48-64] KC2[CB1:224-240]",
      " 0010 00002080 00A05F90     1 x:     DOT4_IEEE              R5.x,  KC0[0].x, R1.x",
      " 0012 00802480 20A05F80       y:     DOT4_IEEE              __.y,  KC0[0].y, R1.y",
      " 0014 01002880 40A05F80       z:     DOT4_IEEE              __.z,  KC0[0].z, R1.z",
      " 0016 81802C80 60A05F80       w:     DOT4_IEEE              __.w,  KC0[0].w, R1.w",
      " 0018 00000006 00600C90     2 x:     MOV                    R3.x,  R6.x",
      " 0020 01A1A0FE 40800010       z:     ADD                    R4.z,  PV.x, KC2[13].w",
      " 0022 801FA008 40670005       t:     MULADD_IEEE            R3.z,  R8.x, [0x40000000 2.000000], R5.x  BS:1",
      " 0024 40000000                                               2.000000 (1073741824)",
      "0006 C001A03C 95000688  EXPORT_DONE        POS   60    R3.xyzw      ES:3",
      "0008 C0024000 95200688  EXPORT_DONE        PARAM 0     R4.xyzw      ES:3 EOP",
   };
   EXPECT_EQ(test::listing_lines(*text), want);
}

/* R700 fragment shader skeleton of RV770 anholt listings: TEX, predicated
 * ALU, JUMP/ELSE and the pixel export. */
const std::vector<uint32_t> kR700Fs = {
   0x0000000A, 0x80800000, /* 0000 TEX 1 @20 */
   0x4000000C, 0xA4000000, /* 0002 ALU_PUSH_BEFORE 1 @24 KC0[CB0:0-16] */
   0x00000006, 0x85000000, /* 0004 JUMP @12 */
   0x0000000D, 0xA0000000, /* 0006 ALU 1 @26 */
   0x0000000E, 0x80800000, /* 0008 TEX 1 @28 */
   0x00000000, 0x80000000, /* 0010 NOP */
   0x00000008, 0x86800001, /* 0012 ELSE @16 POP:1 */
   0x00000010, 0xA8000000, /* 0014 ALU_POP_AFTER 1 @32 */
   0xC0010000, 0x94200688, /* 0016 EXPORT_DONE PIXEL 0 R2.xyzw EOP */
   0x00000000, 0x00000000, /* 0018 alignment before the fetch clause */
   0x00021210, 0xF00D1002, 0xFC800000, 0x00000000, /* 0020 SAMPLE R2.xyzw, R2.xy__ */
   0x801F00FE, 0x0960229C, /* 0024 PRED_SETNE_INT R75.x, PV.x, 0 (MP) */
   0x800000F9, 0x00400C90, /* 0026 MOV R2.x, 1.0 */
   0x00031210, 0xF00D1003, 0xFC800000, 0x00000000, /* 0028 SAMPLE R3.xyzw, R3.xy__ */
   0x80000032, 0x09603491, /* 0032 t: RECIPSQRT_IEEE R75.x, |R50.x| (0x69 on R700) */
};

TEST(R600Encoding, R700DecodesAndReassembles)
{
   sbcc::Diagnostics diag;
   auto prog = decode_program(kR700Fs, ChipClass::R700, diag);
   ASSERT_TRUE(prog) << diag.str();
   ASSERT_EQ(prog->cf.size(), 9u);
   EXPECT_EQ(prog->cf[2].op, CfOp::JUMP);
   EXPECT_EQ(prog->cf[2].target, 6u); /* @12 = CF 6 (ELSE) */
   EXPECT_EQ(prog->cf[6].target, 8u); /* @16 = EXPORT_DONE */
   EXPECT_EQ(prog->cf[6].pop_count, 1u);
   const AluInstr &pred = prog->cf[1].groups[0].instrs[0];
   EXPECT_EQ(pred.op, AluOp::PRED_SETNE_INT);
   EXPECT_TRUE(pred.update_exec_mask);
   EXPECT_TRUE(pred.update_pred);
   EXPECT_EQ(pred.dst.gpr, 75u);
   const AluInstr &rsq = prog->cf[7].groups[0].instrs[0];
   EXPECT_EQ(rsq.op, AluOp::RECIPSQRT_IEEE);
   EXPECT_EQ(rsq.slot, kSlotT); /* trans-only on R700 */
   EXPECT_TRUE(rsq.src[0].abs);
   auto again = assemble(*prog, diag);
   ASSERT_TRUE(again) << diag.str();
   EXPECT_EQ(*again, kR700Fs);

   auto text = disassemble(kR700Fs, ChipClass::R700, diag);
   ASSERT_TRUE(text) << diag.str();
   std::vector<std::string> want = {
      "0000 0000000A 80800000  TEX 1 @20",
      " 0020 00021210 F00D1002 FC800000   SAMPLE         R2.xyzw, R2.xy__,  RID:18, SID:0  CT:NNNN",
      "0002 4000000C A4000000  ALU_PUSH_BEFORE 1 @24 KC0[CB0:0-16]",
      " 0024 801F00FE 0960229C     1 x:MP   PRED_SETNE_INT         R75.x,  PV.x, 0",
      "0004 00000006 85000000  JUMP @12",
      "0006 0000000D A0000000  ALU 1 @26",
      " 0026 800000F9 00400C90     2 x:     MOV                    R2.x,  1.0",
      "0008 0000000E 80800000  TEX 1 @28",
      " 0028 00031210 F00D1003 FC800000   SAMPLE         R3.xyzw, R3.xy__,  RID:18, SID:0  CT:NNNN",
      "0010 00000000 80000000  NOP @0",
      "0012 00000008 86800001  ELSE @16 POP:1",
      "0014 00000010 A8000000  ALU_POP_AFTER 1 @32",
      " 0032 80000032 09603491     3 t:     RECIPSQRT_IEEE         R75.x,  |R50.x|",
      "0016 C0010000 94200688  EXPORT_DONE        PIXEL 0     R2.xyzw      ES:3 EOP",
   };
   EXPECT_EQ(test::listing_lines(*text), want);
}

TEST(R600Encoding, R600Op2LayoutDiffersFromR700)
{
   /* ALU_INST sits one bit higher on R600 (FOG_MERGE, OMOD at 6-7). */
   Program p;
   p.chip = ChipClass::R600;
   CfInstr cf;
   cf.op = CfOp::ALU;
   AluGroup g;
   AluInstr in = alu(AluOp::DOT4_IEEE, 0, 5, 0, true, {gpr(128, 0), gpr(1, 0)});
   in.dst.omod = 1;
   g.instrs.push_back(in);
   for (unsigned c = 1; c < 4; c++)
      g.instrs.push_back(alu(AluOp::DOT4_IEEE, c, 5, c, false, {gpr(128, c), gpr(1, c)}));
   cf.groups.push_back(g);
   p.cf.push_back(cf);
   CfInstr end;
   end.op = CfOp::NOP;
   end.end_of_program = true;
   p.cf.push_back(end);
   sbcc::Diagnostics diag;
   auto r600 = assemble(p, diag);
   ASSERT_TRUE(r600) << diag.str();
   p.chip = ChipClass::R700;
   auto r700 = assemble(p, diag);
   ASSERT_TRUE(r700) << diag.str();
   /* x slot word 1: DOT4_IEEE = 0x51; R600 <<8 with OMOD<<6, R700 <<7 with OMOD<<5. */
   EXPECT_EQ((*r600)[5], 0x00A05150u);
   EXPECT_EQ((*r700)[5], 0x00A028B0u);
   EXPECT_EQ((*r600)[4], 0x00002080u);
   /* CF: ALU @4 (ADDR 2), 4 slots -> COUNT 3; NOP with EOP (R600 CF_INST at 23). */
   EXPECT_EQ((*r600)[0], 0x00000002u);
   EXPECT_EQ((*r600)[1], 0xA00C0000u);
   EXPECT_EQ((*r600)[3], 0x80200000u);
}

TEST(R600Encoding, CaymanHasNoTransSlot)
{
   Program p;
   p.chip = ChipClass::Cayman;
   CfInstr cf;
   cf.op = CfOp::ALU;
   AluGroup g;
   /* Transcendentals are issued in x, y, z on Cayman. */
   for (unsigned c = 0; c < 3; c++)
      g.instrs.push_back(alu(AluOp::RECIP_IEEE, c, 2, c, c == 0, {gpr(1, 0)}));
   cf.groups.push_back(g);
   p.cf.push_back(cf);
   CfInstr end;
   end.op = CfOp::CF_END;
   p.cf.push_back(end);
   sbcc::Diagnostics diag;
   auto words = assemble(p, diag);
   ASSERT_TRUE(words) << diag.str();
   /* CF_END (0x20) in CF_WORD1 bits 22-29 with BARRIER. */
   EXPECT_EQ((*words)[3], 0x88000000u);
   /* RECIP_IEEE is 0x86 on Evergreen/Cayman. */
   EXPECT_EQ((*words)[5] >> 7 & 0x7ff, 0x86u);
   auto back = decode_program(*words, ChipClass::Cayman, diag);
   ASSERT_TRUE(back) << diag.str();
   EXPECT_EQ(back->cf[0].groups[0].instrs[2].slot, kSlotZ);

   /* A fourth slot-t instruction does not exist on Cayman. */
   p.cf[0].groups[0].instrs.push_back(alu(AluOp::MOV, kSlotT, 3, 0, true, {gpr(1, 0)}));
   diag.clear();
   EXPECT_FALSE(assemble(p, diag));
   EXPECT_EQ(diag.str(), "error: CF 0 (ALU) clause group 0 MOV: slot 4 out of order or invalid\n");
}

TEST(R600Encoding, ChipNames)
{
   EXPECT_EQ(chip_class_from_name("CYPRESS"), ChipClass::Evergreen);
   EXPECT_EQ(chip_class_from_name("rv770"), ChipClass::R700);
   EXPECT_EQ(chip_class_from_name("RV670"), ChipClass::R600);
   EXPECT_EQ(chip_class_from_name("aruba"), ChipClass::Cayman);
   EXPECT_EQ(chip_class_from_name("evergreen"), ChipClass::Evergreen);
   EXPECT_EQ(chip_class_from_name("r600"), ChipClass::R600);
   EXPECT_FALSE(chip_class_from_name("tahiti"));
   EXPECT_EQ(chip_class_name(ChipClass::Cayman), "cayman");
}

TEST(R600Encoding, OpcodeTablesAreConsistent)
{
   constexpr ChipClass kChips[] = {ChipClass::R600, ChipClass::R700, ChipClass::Evergreen,
                                   ChipClass::Cayman};
   for (ChipClass chip : kChips) {
      for (unsigned i = 0; i < kNumAluOps; i++) {
         AluOp op = static_cast<AluOp>(i);
         EXPECT_EQ(alu_op_from_name(alu_op_name(op)), op);
         int opc = alu_opcode(chip, op);
         if (opc >= 0) {
            EXPECT_EQ(alu_op_from_opcode(chip, alu_is_op3(op), opc), op) << alu_op_name(op);
         }
      }
      for (unsigned i = 0; i < kNumCfOps; i++) {
         CfOp op = static_cast<CfOp>(i);
         int opc = cf_opcode(chip, op);
         if (opc >= 0) {
            bool alu_enc = cf_op_info(op).enc == CfEncoding::Alu;
            EXPECT_EQ(cf_op_from_opcode(chip, alu_enc, opc), op) << cf_op_name(op);
         }
      }
   }
   /* A few facts from the ISA documents. */
   EXPECT_EQ(alu_opcode(ChipClass::R700, AluOp::ASHR_INT), 0x70);
   EXPECT_EQ(alu_opcode(ChipClass::Evergreen, AluOp::ASHR_INT), 0x15);
   EXPECT_TRUE(alu_is_trans_only(ChipClass::R600, AluOp::ASHR_INT));
   EXPECT_FALSE(alu_is_trans_only(ChipClass::Evergreen, AluOp::ASHR_INT));
   EXPECT_EQ(alu_slots(ChipClass::Cayman, AluOp::MULLO_INT), kSlotV | kSlot4);
   EXPECT_EQ(alu_slots(ChipClass::Cayman, AluOp::RECIP_INT), 0u);
   EXPECT_EQ(cf_opcode(ChipClass::Cayman, CfOp::VTX), -1);
   EXPECT_EQ(cf_opcode(ChipClass::Evergreen, CfOp::EXPORT_DONE), 0x54);
   EXPECT_EQ(cf_opcode(ChipClass::R700, CfOp::EXPORT_DONE), 0x28);
   EXPECT_EQ(fetch_opcode(ChipClass::Evergreen, FetchOp::GET_GRADIENTS_H_FINE), 0x107);
   EXPECT_TRUE(alu_op_info(AluOp::PRED_SETNE_INT).flags & AF_PRED);
   EXPECT_TRUE(alu_op_info(AluOp::KILLGT).flags & AF_KILL);
   EXPECT_TRUE(alu_op_info(AluOp::MOVA_INT).flags & AF_MOVA);
}

TEST(R600Encoding, FieldOverflowIsReported)
{
   Program p = evergreen_vs();
   p.cf[3].exp.array_base = 9000; /* 13-bit field */
   sbcc::Diagnostics diag;
   EXPECT_FALSE(assemble(p, diag));
   EXPECT_EQ(diag.str(), "error: CF 3 (EXPORT_DONE): CF_ALLOC_EXPORT_WORD0.ARRAY_BASE value 9000 "
                         "does not fit in 13 bits\n");

   p = evergreen_vs();
   p.cf[1].groups[1].literals.clear();
   diag.clear();
   EXPECT_FALSE(assemble(p, diag));
   EXPECT_EQ(diag.str(), "error: CF 1 (ALU) clause group 1: literal count 0 but 1 referenced "
                         "(at most 4)\n");

   p = evergreen_vs();
   p.cf[1].groups[1].instrs[2].dst.chan = 1; /* y is free: would not decode as t */
   diag.clear();
   EXPECT_FALSE(assemble(p, diag));
   EXPECT_EQ(diag.str(), "error: CF 1 (ALU) clause group 1 MULADD_IEEE: in slot t but its "
                         "channel's vector slot is free, so it would decode there\n");

   p = evergreen_vs();
   p.chip = ChipClass::R700;
   diag.clear();
   EXPECT_FALSE(assemble(p, diag));
   EXPECT_EQ(diag.str(), "error: CF 1 (ALU): ALU_EXT needs Evergreen or later\n");
}

} // namespace

namespace {

/* Operand forms the corpus rarely or never shows: relative and clause-temp
 * registers, kcache sets 2/3 with an index mode, omod, predication, Param,
 * literals, fetch offsets/LOD bias, instance fetch, bursts. */
Program special_operands()
{
   Program p;
   p.chip = ChipClass::Evergreen;
   CfInstr alu_cf;
   alu_cf.op = CfOp::ALU;
   alu_cf.alu_ext = true;
   alu_cf.kcache[0] = {0, 1, 0, 0};
   alu_cf.kcache[2] = {2, 1, 1, 0};
   alu_cf.kcache[3] = {3, 2, 4, 1};
   AluGroup g;
   AluInstr a = alu(AluOp::MOV, kSlotX, 5, 0, true, {src_gpr(1, 1, true, true)});
   a.dst.rel = true;
   g.instrs.push_back(a);
   AluInstr b = alu(AluOp::ADD, kSlotY, 2, 1, true, {src_kcache(2, 3, 2), src_kcache(3, 31, 3)});
   b.dst.clamp = true;
   b.dst.omod = 1;
   g.instrs.push_back(b);
   g.instrs.push_back(alu(AluOp::MUL, kSlotZ, 125, 2, true, {src_gpr(124, 0), src_inline(kSrc_0_5)}));
   AluInstr d = alu(AluOp::MOV, kSlotW, 3, 3, true, {src_inline(kSrc_PS)});
   d.pred_sel = 2;
   g.instrs.push_back(d);
   AluInstr e = alu(AluOp::RECIP_IEEE, kSlotT, 4, 0, true, {src_inline(kSrc_PV)});
   e.bank_swizzle = 3;
   g.instrs.push_back(e);
   alu_cf.groups.push_back(g);
   AluGroup g2;
   AluSrc neg_lit = src_literal(1);
   neg_lit.neg = true;
   g2.instrs.push_back(alu(AluOp::MULADD, kSlotX, 6, 0, true, {src_literal(0), src_gpr(7, 0), neg_lit}));
   AluInstr h = alu(AluOp::PRED_SETGT, kSlotY, 0, 1, false, {src_param(2, 1), src_inline(kSrc_0)});
   h.update_pred = true;
   h.update_exec_mask = true;
   g2.instrs.push_back(h);
   g2.literals = {0x3f800000, 0xc0000000};
   alu_cf.groups.push_back(g2);
   p.cf.push_back(alu_cf);

   CfInstr tex;
   tex.op = CfOp::TEX;
   TexInstr t;
   t.op = FetchOp::SAMPLE_L;
   t.dst_gpr = 9;
   t.src_gpr = 10;
   t.src_sel = {0, 1, 2, kSel0};
   t.resource_id = 3;
   t.sampler_id = 2;
   t.offset = {1, -2, 0};
   t.lod_bias = 5;
   t.coord_type = {false, false, true, true};
   tex.fetches.push_back(t);
   p.cf.push_back(tex);

   CfInstr vtx;
   vtx.op = CfOp::VTX;
   VtxInstr v;
   v.dst_gpr = 11;
   v.src_gpr = 12;
   v.src_sel_x = 1;
   v.offset = 16;
   v.fetch_type = 1;
   v.mega_fetch_count = 15;
   v.mega_fetch = true;
   v.data_format = 35;
   v.num_format_all = 2;
   v.format_comp_all = true;
   vtx.fetches.push_back(v);
   p.cf.push_back(vtx);

   CfInstr jump;
   jump.op = CfOp::JUMP;
   jump.target = 5;
   jump.pop_count = 2;
   jump.cond = 1;
   p.cf.push_back(jump);
   CfInstr param = export_done(2, 3, 13, false);
   param.op = CfOp::EXPORT;
   param.exp.burst_count = 2;
   p.cf.push_back(param);
   CfInstr pixel = export_done(0, 0, 2, true);
   pixel.barrier = false;
   p.cf.push_back(pixel);
   return p;
}

} // namespace

TEST(R600Encoding, SpecialOperandsListing)
{
   const std::vector<uint32_t> want_words = {
      0x4C800400, 0xB0001006, 0x40000007, 0xA01C0000, 0x00000010, 0x80400000, 0x00000012,
      0x80800000, 0x00000006, 0x82800102, 0xC006C003, 0x94C10688, 0xC0010000, 0x15200688,
      0x00001401, 0x10A00C91, 0x01A7E903, 0xA0400030, 0x001F807C, 0x4FA00090, 0x400000FF,
      0x60600C90, 0x800000FE, 0x008C4310, 0x0000E0FD, 0x00C294FD, 0x801F05C2, 0x2000108C,
      0x3F800000, 0xC0000000, 0x00000000, 0x00000000, 0x000A0311, 0xC0AD1009, 0x888103C1,
      0x00000000, 0x3D0C0020, 0x68CD100B, 0x00080010, 0x00000000,
   };
   sbcc::Diagnostics diag;
   auto words = assemble(special_operands(), diag);
   ASSERT_TRUE(words) << diag.str();
   EXPECT_EQ(*words, want_words);
   auto text = disassemble(*words, ChipClass::Evergreen, diag);
   ASSERT_TRUE(text) << diag.str();
   std::vector<std::string> want = {
      "0000 4C800400 B0001006  ALU_EXT",
      "0002 40000007 A01C0000  ALU 8 @14 KC0[CB0:0-16] KC2[CB2:16-32] KC3[CB3:64-96 CF_INDEX_0]",
      " 0014 00001401 10A00C91     1 x:     MOV                    R[5+AR].x,  -|R1.y|",
      " 0016 01A7E903 A0400030       y:     ADD*2_sat              R2.y,  KC2[3].z, KC3[31].w",
      " 0018 001F807C 4FA00090       z:     MUL                    T1.z,  T0.x, 0.5",
      " 0020 400000FF 60600C90       w:   0 MOV                    R3.w,  PS",
      " 0022 800000FE 008C4310       t:     RECIP_IEEE             R4.x,  PV.x      BS:3",
      " 0024 0000E0FD 00C294FD     2 x:     MULADD                 R6.x,  [0x3F800000 1.000000], "
      "R7.x, -[0xC0000000 -2.000000]",
      " 0026 801F05C2 2000108C       y:MP   PRED_SETGT             __.y,  Param2, 0",
      " 0028 3F800000                                               1.000000 (1065353216)",
      " 0029 C0000000                                               -2.000000 (-1073741824)",
      "0004 00000010 80400000  TEX 1 @32",
      " 0032 000A0311 C0AD1009 888103C1   SAMPLE_L       R9.xyzw, R10.xyz0,  RID:3, SID:2  LB:5 "
      "CT:UUNN OX:1 OY:-2",
      "0006 00000012 80800000  VTX 1 @36",
      " 0036 3D0C0020 68CD100B 00080010   VFETCH         R11.xyzw, R12.y +16b,  RID:0 INSTANCE "
      "MFC:15 UCF:0 FMT(DTA:35 NUM:2 COMP:1 MODE:0)",
      "0008 00000006 82800102  JUMP @12 CND:1 POP:2",
      "0010 C006C003 94C10688  EXPORT             PARAM 3-4   R13-14.xyzw  ES:3",
      "0012 C0010000 15200688  EXPORT_DONE        PIXEL 0     R2.xyzw      ES:3 NO_BARRIER EOP",
   };
   EXPECT_EQ(test::listing_lines(*text), want);
}

TEST(R600Encoding, SourceKinds)
{
   EXPECT_EQ(src_kind(ChipClass::Evergreen, 5), SrcKind::Gpr);
   EXPECT_EQ(src_kind(ChipClass::Evergreen, 127), SrcKind::ClauseTemp);
   EXPECT_EQ(src_kind(ChipClass::R700, 170), SrcKind::KCache);
   EXPECT_EQ(src_kind(ChipClass::Evergreen, 300), SrcKind::KCache);
   EXPECT_EQ(src_kind(ChipClass::R700, 300), SrcKind::ConstFile);
   EXPECT_EQ(src_kind(ChipClass::Cayman, 450), SrcKind::Param);
   EXPECT_EQ(src_kind(ChipClass::R600, 450), SrcKind::ConstFile);
   EXPECT_EQ(src_kind(ChipClass::R600, kSrc_LITERAL), SrcKind::Literal);
   EXPECT_EQ(src_kind(ChipClass::R600, kSrc_M_1_INT), SrcKind::Inline);
   EXPECT_EQ(src_kind(ChipClass::R600, kSrc_TIME_LO), SrcKind::Unknown);
   EXPECT_EQ(src_kind(ChipClass::Evergreen, kSrc_TIME_LO), SrcKind::Inline);
   EXPECT_EQ(src_kind(ChipClass::Evergreen, 400), SrcKind::Unknown);
   EXPECT_EQ(src_kcache_set(src_kcache(3, 7, 0).sel), 3u);
   EXPECT_EQ(src_kcache_index(src_kcache(3, 7, 0).sel), 7u);
   EXPECT_EQ(src_kcache_set(src_kcache(1, 31, 0).sel), 1u);
   EXPECT_EQ(kcache_constant({1, 1, 3, 0}, 5), 53u);
   EXPECT_EQ(kcache_constant({1, 1, 3, 0}, 16), std::nullopt);
   EXPECT_EQ(kcache_constant({1, 2, 3, 0}, 31), 79u);
   EXPECT_EQ(kcache_constant({1, 0, 3, 0}, 0), std::nullopt);
   EXPECT_EQ(kcache_constant({1, 3, 3, 0}, 0), std::nullopt);
   EXPECT_TRUE(alu_writes_pred(AluOp::PRED_SETE_PUSH_INT));
   EXPECT_FALSE(alu_writes_pred(AluOp::SETE));
   EXPECT_TRUE(alu_is_reduction(ChipClass::Cayman, AluOp::MULLO_UINT));
   EXPECT_FALSE(alu_is_reduction(ChipClass::Evergreen, AluOp::MULLO_UINT));
}
