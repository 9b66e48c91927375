/*
 * bc_finalize on exports and fetch clauses, exact listings of hand-built
 * programs run against their source in the emulator: fetch clauses that
 * join when independent; export channels that are unwritten, read an
 * input in place or are 0/1, and texture coordinates that need no copy
 * (through the whole of sb); runs of exports that become one burst (and
 * where a burst stops), and the allocation that puts an export run on
 * consecutive registers; ALU work after a fetch that moves up, and
 * constant-buffer fetches that share a clause unless one reads another's
 * result.  Part of the test_sb_finalize executable (see
 * test_sb_finalize.cpp); shared helpers in sb_finalize_test_util.h.
 */
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <utility>
#include <vector>

#include "r600/r600_target.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_region_passes.h"
#include "sb/sb_finalize_test_util.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

TEST(SbFinalize, FetchClausesJoinWhenIndependent)
{
   auto tex = [](unsigned src, unsigned dst_gpr) {
      CfInstr c;
      c.op = CfOp::TEX;
      TexInstr t;
      t.src_gpr = uint8_t(src);
      t.dst_gpr = uint8_t(dst_gpr);
      c.fetches.push_back(t);
      return c;
   };
   /* R3 = tex(R1), R4 = tex(R1): one clause; R5 = tex(R3) reads R3: a new one. */
   Program p = program(kEg, {tex(1, 3), tex(1, 4), tex(3, 5), export_done(5)});
   std::string refused, error;
   auto out = finalize(p, vs_info(kEg), &refused, &error);
   ASSERT_TRUE(out) << refused << error;
   EXPECT_EQ(listing(*out), "0 TEX fetches=2\n1 TEX fetches=1\n2 EXPORT_DONE R5.xyzw EOP\n");

   /* The allocator puts R3's x and y into R6.w and R6.z: the fetch's dst_sel
    * follows (w gets component x, z gets y), and z/w are not written. */
   Program q = program(kEg, {tex(1, 3), export_done(3)});
   q.cf[1].exp.swizzle = {kSelX, kSelY, kSel0, kSel1}; /* reads x and y only */
   Diagnostics d;
   auto sh = region_parse(q, {}, d);
   ASSERT_TRUE(sh);
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   auto r3 = [&](unsigned chan, unsigned version) {
      return sh->value_id(sh->var_id(VarKind::Gpr, 3, chan), version);
   };
   a.reg[r3(0, 1)] = RegAssign{6, 3};
   a.reg[r3(1, 1)] = RegAssign{6, 2};
   a.reg[r3(2, 1)] = RegAssign{-1, 0};
   a.reg[r3(3, 1)] = RegAssign{-1, 0};
   Program o;
   ASSERT_TRUE(bc_finalize(*sh, a, vs_info(kEg), o, d)) << d.str();
   const TexInstr &t = std::get<TexInstr>(o.cf[0].fetches[0]);
   EXPECT_EQ(t.dst_gpr, 6);
   EXPECT_EQ(t.dst_sel, (std::array<uint8_t, 4>{kSelMask, kSelMask, kSelY, kSelX}));
   EXPECT_EQ(listing(o), "0 TEX fetches=1\n1 EXPORT_DONE R6.wz01 EOP\n");
}

TEST(SbFinalize, ExportOfUnwrittenChannelsIsMasked)
{
   /* Only R2.x is written: y, z, w are R2's entry values, which nothing
    * loads, so they need neither a register nor a copy. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1))})}),
      export_done(2),
   });
   Program out = optimize_and_compare(p, vs_info(kEg), lanes(), true);
   EXPECT_EQ(listing(out), "0 ALU groups=1\n1 EXPORT_DONE R0.x___ EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 2u); /* R0 and the input R1 */
}

TEST(SbFinalize, ExportOfAnInputsChannelsReadsTheInput)
{
   /* R2.xy = R1.yz: the export reads R1 with swizzle yz, no MOV is left
    * (the humus-celshading vertex shader's PARAM 1). */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 2))})}),
      export_done(2),
   });
   Program out = optimize_and_compare(p, vs_info(kEg), lanes(), true);
   EXPECT_EQ(listing(out), "0 EXPORT_DONE R1.yz__ EOP\n");
   EXPECT_EQ(sb::count_program(out).alu_instrs, 0u);
}

TEST(SbFinalize, ExportOfZeroAndOneUsesConstantSelects)
{
   /* 0.0 and 1.0 (inline or literal) become SEL_0 / SEL_1: their MOVs go. */
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero()),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), one()),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_literal(0))},
                        {0x3f800000})}),
      export_done(2),
   });
   Program out = optimize_and_compare(p, vs_info(kEg), lanes(), true);
   EXPECT_EQ(listing(out), "0 ALU groups=1\n1 EXPORT_DONE R0.x011 EOP\n");
   EXPECT_EQ(sb::count_program(out).alu_instrs, 1u);
   for (const Vec4 &v : outputs_of(out, vs_info(kEg), lanes()))
      EXPECT_EQ((std::array<uint32_t, 3>{v[1], v[2], v[3]}),
                (std::array<uint32_t, 3>{0u, 0x3f800000u, 0x3f800000u}));
}

TEST(SbFinalize, TexCoordinatesUnwrittenOrConstantNeedNoCopy)
{
   /* R3 = (R1.x, R1.y, unwritten, 1.0); R4 = tex(R3); export R4.  The TEX
    * reads R1 directly with src_sel x y 0 1; its four results still land on
    * four distinct channels of one GPR. */
   CfInstr tex;
   tex.op = CfOp::TEX;
   TexInstr t;
   t.src_gpr = 3;
   t.dst_gpr = 4;
   tex.fetches.push_back(t);
   Program p = program(kEg, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotW, dst(3, 3), one())})}),
      tex,
      export_done(4),
   });
   Program out = optimize_and_compare(p, vs_info(kEg), lanes(), true);
   ASSERT_EQ(out.cf.size(), 2u) << listing(out);
   ASSERT_EQ(out.cf[0].fetches.size(), 1u);
   const TexInstr &o = std::get<TexInstr>(out.cf[0].fetches[0]);
   EXPECT_EQ(o.src_gpr, 1);
   EXPECT_EQ(o.src_sel, (std::array<uint8_t, 4>{kSelX, kSelY, kSel0, kSel1}));
   std::array<uint8_t, 4> d = o.dst_sel;
   std::sort(d.begin(), d.end());
   EXPECT_EQ(d, (std::array<uint8_t, 4>{kSelX, kSelY, kSelZ, kSelW}));
   EXPECT_EQ(sb::count_program(out).alu_instrs, 0u);
}

/* A vertex shader with IN[0] in R1 and OUT[i] exported as PARAM i. */
ShaderInfo params_info(ChipClass chip, unsigned n)
{
   ShaderInfo info = vs_info(chip);
   info.outputs.clear();
   for (unsigned i = 0; i < n; i++) {
      ShaderIo out;
      out.gpr = uint8_t(2 + i);
      out.tgsi_index = int32_t(i);
      out.export_type = 2;
      out.export_base = uint16_t(i);
      info.outputs.push_back(out);
   }
   return info;
}

/* Every output of every lane, after the validator accepted the program. */
std::vector<Vec4> all_outputs(const Program &p, const ShaderInfo &info)
{
   Diagnostics d;
   EXPECT_TRUE(validate_program(p, info, d)) << d.str();
   Batch b = batch_of(lanes());
   for (Lane &l : b.lanes)
      l.outputs.assign(info.outputs.size(), Vec4{0, 0, 0, 0});
   RunResult r = emulate(p, info, {}, b, RunLimits{});
   EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
   std::vector<Vec4> out;
   for (const Lane &l : b.lanes)
      out.insert(out.end(), l.outputs.begin(), l.outputs.end());
   return out;
}

/* The exports only, with their bursts: "EXPORT PARAM 0-1 R2-3.xyzw". */
std::string exports_of(const Program &p)
{
   std::string s;
   for (const CfInstr &cf : p.cf) {
      if (cf_op_info(cf.op).enc != CfEncoding::Export)
         continue;
      const ExportInfo &e = cf.exp;
      const unsigned n = e.burst_count;
      const char *type = e.type == 0 ? "PIXEL" : e.type == 1 ? "POS" : "PARAM";
      s += std::string(cf_op_name(cf.op)) + " " + type + " " + std::to_string(e.array_base);
      if (n > 1)
         s += "-" + std::to_string(e.array_base + n - 1);
      s += " R" + std::to_string(e.gpr);
      if (n > 1)
         s += "-" + std::to_string(e.gpr + n - 1);
      s += ".";
      for (uint8_t c : e.swizzle)
         s += "xyzw01?_"[c & 7];
      if (cf.end_of_program)
         s += " EOP";
      s += "\n";
   }
   return s;
}

CfInstr param(CfOp op, unsigned gpr, unsigned base, std::array<uint8_t, 4> swz = {0, 1, 2, 3})
{
   CfInstr c = export_done(gpr, 2, base, false);
   c.op = op;
   c.exp.swizzle = swz;
   return c;
}

/* R<gpr>.xyzw = R1.xyzw + k: a distinct value per output. */
CfInstr fill(std::vector<std::pair<unsigned, unsigned>> gpr_k)
{
   std::vector<AluGroup> groups;
   for (auto [gpr, k] : gpr_k) {
      std::vector<AluInstr> g;
      for (unsigned c = 0; c < 4; c++)
         g.push_back(alu(AluOp::ADD, c, dst(gpr, c), src_gpr(1, c), src_literal(0)));
      groups.push_back(group(g, {std::bit_cast<uint32_t>(float(k))}));
   }
   return alu_clause(groups);
}

/* bc_finalize on the identity allocation: listing of the exports, and the
 * emulator gives every output the source gives. */
std::string finalized_exports(const Program &src, unsigned outputs)
{
   ShaderInfo info = params_info(src.chip, outputs);
   std::string refused, error;
   auto out = finalize(src, info, &refused, &error);
   EXPECT_TRUE(out) << refused << error;
   if (!out)
      return "";
   EXPECT_EQ(all_outputs(*out, info), all_outputs(src, info));
   return exports_of(*out);
}

TEST(SbFinalize, ExportsInARowBecomeOneBurst)
{
   /* Mesa's r600_bytecode_add_output rule: one type and swizzle,
    * consecutive bases in consecutive GPRs; EXPORT then EXPORT_DONE merge
    * as EXPORT_DONE, which keeps the end of the program. */
   for (ChipClass chip : {kEg, ChipClass::R700}) {
      Program p = program(chip, {fill({{2, 1}, {3, 2}, {4, 3}}), param(CfOp::EXPORT, 2, 0),
                                 param(CfOp::EXPORT, 3, 1), param(CfOp::EXPORT_DONE, 4, 2)});
      p.cf.back().end_of_program = true;
      EXPECT_EQ(finalized_exports(p, 3), "EXPORT_DONE PARAM 0-2 R2-4.xyzw EOP\n");
   }
   /* Descending bases in descending GPRs join too (the burst starts at the
    * lower one). */
   Program down = program(kEg, {fill({{2, 1}, {3, 2}}), param(CfOp::EXPORT, 3, 1),
                                param(CfOp::EXPORT_DONE, 2, 0)});
   down.cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(down, 2), "EXPORT_DONE PARAM 0-1 R2-3.xyzw EOP\n");
}

TEST(SbFinalize, BurstNeedsOneSwizzleConsecutiveRegistersAndOrder)
{
   auto two = [&](CfInstr a, CfInstr b) {
      Program p = program(kEg, {fill({{2, 1}, {3, 2}, {4, 3}}), a, b});
      p.cf.back().end_of_program = true;
      return finalized_exports(p, 2);
   };
   /* Another swizzle (a masked channel), a gap in the GPRs, a gap in the
    * bases: no burst. */
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 1, {0, 1, 2, 7})),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyz_ EOP\n");
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 4, 1)),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R4.xyzw EOP\n");
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 2)),
             "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 2 R3.xyzw EOP\n");
   /* A done export takes no later one: exports of its type after it would
    * come before the done. */
   EXPECT_EQ(two(param(CfOp::EXPORT_DONE, 2, 0), param(CfOp::EXPORT_DONE, 3, 1)),
             "EXPORT_DONE PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
   /* Pixel then parameter, consecutive bases (0, 1): two types.  (Position
    * bases are 60..63 and parameter bases 0..31, so those two never meet.) */
   CfInstr pixel = export_done(2, 0, 0, false);
   EXPECT_EQ(two(pixel, param(CfOp::EXPORT_DONE, 3, 1)),
             "EXPORT_DONE PIXEL 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
   /* Constant and masked channels are part of the swizzle: equal ones
    * join. */
   EXPECT_EQ(two(param(CfOp::EXPORT, 2, 0, {0, 1, 4, 5}),
                 param(CfOp::EXPORT_DONE, 3, 1, {0, 1, 4, 5})),
             "EXPORT_DONE PARAM 0-1 R2-3.xy01 EOP\n");
}

TEST(SbFinalize, BurstStopsAtSixteenAndAtControlFlow)
{
   std::vector<std::pair<unsigned, unsigned>> regs;
   std::vector<CfInstr> cf;
   for (unsigned i = 0; i < 18; i++)
      regs.push_back({2 + i, i});
   cf.push_back(fill(regs));
   for (unsigned i = 0; i < 18; i++)
      cf.push_back(param(i == 17 ? CfOp::EXPORT_DONE : CfOp::EXPORT, 2 + i, i));
   cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(program(kEg, cf), 18),
             "EXPORT PARAM 0-15 R2-17.xyzw\nEXPORT_DONE PARAM 16-17 R18-19.xyzw EOP\n");

   /* An export inside an if and one after it: the POP between them stays,
    * so they stay two. */
   Program p = program(kEg, {
      fill({{2, 1}, {3, 2}}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 5, 1),
      param(CfOp::EXPORT, 2, 0),
      cf_op(CfOp::POP, 5, 1),
      param(CfOp::EXPORT_DONE, 3, 1),
   });
   p.cf.back().end_of_program = true;
   EXPECT_EQ(finalized_exports(p, 2), "EXPORT PARAM 0 R2.xyzw\nEXPORT_DONE PARAM 1 R3.xyzw EOP\n");
}

/* The whole of sb on a PARAM-exporting vertex shader; the outputs must
 * not change and the SSA stage must be used. */
Program sb_params(const Program &p, unsigned outputs)
{
   const ShaderInfo info = params_info(p.chip, outputs);
   auto out = optimize_with_sb(p, info, true);
   if (!out)
      return p;
   EXPECT_EQ(all_outputs(*out, info), all_outputs(p, info));
   return *out;
}

TEST(SbFinalize, AllocationPutsAnExportRunOnConsecutiveRegisters)
{
   /* OUT0 = IN0 (read in place from R1), OUT1 = IN0 + 1, OUT2 = IN0 + 2.
    * First fit puts OUT1 and OUT2 wherever is lowest; ra_init then moves
    * them after R1 on R1's channels, within the registers already used. */
   Program p = program(kEg, {
      fill({{3, 1}, {4, 2}}),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3))})}),
      param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT, 3, 1), param(CfOp::EXPORT_DONE, 4, 2)});
   p.cf.back().end_of_program = true;
   Program out = sb_params(p, 3);
   /* First fit alone gave R1, R0, R2: three exports. */
   EXPECT_EQ(exports_of(out), "EXPORT PARAM 0-1 R1-2.xyzw\nEXPORT_DONE PARAM 2 R0.xyzw EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 3u);
}

TEST(SbFinalize, BurstNeverCostsARegister)
{
   /* OUT0 = IN0 in place in R1, OUT1 = IN0 + 1 in R0: a burst would need
    * R2, a third register, so the two exports stay. */
   Program p = program(kEg, {
      fill({{3, 1}}),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)),
                         alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3))})}),
      param(CfOp::EXPORT, 2, 0), param(CfOp::EXPORT_DONE, 3, 1)});
   p.cf.back().end_of_program = true;
   Program out = sb_params(p, 2);
   EXPECT_EQ(exports_of(out), "EXPORT PARAM 0 R1.xyzw\nEXPORT_DONE PARAM 1 R0.xyzw EOP\n");
   EXPECT_EQ(sb::program_gprs(out), 2u);
}

/* R<dst> = constant buffer 1 [R<src>.x]. */
CfInstr vfetch(unsigned src, unsigned dst_gpr)
{
   VtxInstr v;
   v.buffer_id = 1;
   v.src_gpr = uint8_t(src);
   v.dst_gpr = uint8_t(dst_gpr);
   v.data_format = 35;
   CfInstr c = cf_op(CfOp::VTX);
   c.fetches.push_back(v);
   return c;
}

/* R<dst>.x = int(|R1.<chan>|): an index into the constant buffer. */
CfInstr index_of(unsigned dst_gpr, unsigned chan)
{
   AluSrc s = src_gpr(1, chan);
   s.abs = true;
   return alu_clause({group({alu(AluOp::FLT_TO_INT, kSlotX, dst(dst_gpr, 0), s)})});
}

/* bc_finalize on the identity allocation; the listing, and the emulator
 * gives what the source gives with constant buffers. */
std::string finalized_with_constants(const Program &src)
{
   const ShaderInfo info = vs_info(src.chip);
   std::string refused, error;
   auto out = finalize(src, info, &refused, &error);
   EXPECT_TRUE(out) << refused << error;
   if (!out)
      return "";
   const Resources res = random_constants(7);
   auto run = [&](const Program &p) {
      Diagnostics d;
      EXPECT_TRUE(validate_program(p, info, d)) << d.str();
      Batch b = batch_of(lanes());
      RunResult r = emulate(p, info, res, b, RunLimits{});
      EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
      std::vector<Vec4> o;
      for (const Lane &l : b.lanes)
         o.push_back(l.outputs[0]);
      return o;
   };
   EXPECT_EQ(run(*out), run(src));
   return listing(*out);
}

/* R<d> = R<a> + R<b>: one source group, four groups once finalized (plain
 * groups are emitted one instruction per group for the post_scheduler). */
CfInstr add_clause(unsigned d, unsigned a, unsigned b)
{
   std::vector<AluInstr> g;
   for (unsigned c = 0; c < 4; c++)
      g.push_back(alu(AluOp::ADD, c, dst(d, c), src_gpr(a, c), src_gpr(b, c)));
   return alu_clause({group(g)});
}

TEST(SbFinalize, AluAfterAFetchMovesUpAndTheFetchesShareAClause)
{
   /* The second index does not touch the first fetch's registers: its
    * clause runs before that fetch, joining the first index's clause, and
    * the two fetches meet in one clause. */
   Program p = program(kEg, {index_of(2, 0), vfetch(2, 3), index_of(4, 1), vfetch(4, 5),
                             add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(p), "0 ALU groups=2\n1 VTX fetches=2\n2 ALU groups=4\n"
                                          "3 EXPORT_DONE R6.xyzw EOP\n");
   /* It reads the first fetch's result: it stays after it. */
   Program raw = program(kEg, {index_of(2, 0), vfetch(2, 3), add_clause(4, 3, 3), vfetch(4, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(raw), "0 ALU groups=1\n1 VTX fetches=1\n2 ALU groups=4\n"
                                            "3 VTX fetches=1\n4 ALU groups=4\n"
                                            "5 EXPORT_DONE R6.xyzw EOP\n");
   /* It overwrites the first fetch's index (R2.x), which that fetch must
    * read first: it stays after it. */
   Program war = program(kEg, {index_of(2, 0), vfetch(2, 3), index_of(2, 1), vfetch(2, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(war), "0 ALU groups=1\n1 VTX fetches=1\n2 ALU groups=1\n"
                                            "3 VTX fetches=1\n4 ALU groups=4\n"
                                            "5 EXPORT_DONE R6.xyzw EOP\n");
}

TEST(SbFinalize, FetchesJoinUnlessOneReadsAnotherOnesResult)
{
   /* Fetches in a clause run in order.  R3 = cb[R2.x]; R2 = cb[R4.x]
    * overwrites the first one's index after it was read: one clause.  No
    * fetch takes its address from a GPR channel an earlier fetch of the
    * clause writes, and no channel is written twice. */
   Program war = program(kEg, {index_of(2, 0), index_of(4, 1), vfetch(2, 3), vfetch(4, 2),
                               add_clause(6, 3, 2), export_done(6)});
   EXPECT_EQ(finalized_with_constants(war), "0 ALU groups=2\n1 VTX fetches=2\n2 ALU groups=4\n"
                                            "3 EXPORT_DONE R6.xyzw EOP\n");
   Program raw = program(kEg, {index_of(2, 0), vfetch(2, 3), vfetch(3, 5),
                               add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(raw), "0 ALU groups=1\n1 VTX fetches=1\n2 VTX fetches=1\n"
                                            "3 ALU groups=4\n4 EXPORT_DONE R6.xyzw EOP\n");
   Program waw = program(kEg, {index_of(2, 0), index_of(4, 1), vfetch(2, 3), vfetch(4, 3),
                               add_clause(6, 3, 3), export_done(6)});
   EXPECT_EQ(finalized_with_constants(waw), "0 ALU groups=2\n1 VTX fetches=1\n2 VTX fetches=1\n"
                                            "3 ALU groups=4\n4 EXPORT_DONE R6.xyzw EOP\n");
   /* The rule is by channel: the first fetch writes only R3.x, the second
    * takes its index from R3.y (Mesa's sb ships such clauses). */
   CfInstr idx = index_of(2, 0);
   AluSrc y = src_gpr(1, 1);
   y.abs = true;
   idx.groups.push_back(group({alu(AluOp::FLT_TO_INT, kSlotX, dst(3, 1), y)}));
   CfInstr first = vfetch(2, 3);
   std::get<VtxInstr>(first.fetches[0]).dst_sel = {0, kSelMask, kSelMask, kSelMask};
   CfInstr second = vfetch(3, 5);
   std::get<VtxInstr>(second.fetches[0]).src_sel_x = 1;
   Program disjoint = program(kEg, {idx, first, second, add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(disjoint), "0 ALU groups=2\n1 VTX fetches=2\n"
                                                 "2 ALU groups=4\n3 EXPORT_DONE R6.xyzw EOP\n");
   /* Reading the written channel itself keeps two clauses. */
   std::get<VtxInstr>(second.fetches[0]).src_sel_x = 0;
   Program overlap = program(kEg, {idx, first, second, add_clause(6, 3, 5), export_done(6)});
   EXPECT_EQ(finalized_with_constants(overlap), "0 ALU groups=2\n1 VTX fetches=1\n"
                                                "2 VTX fetches=1\n3 ALU groups=4\n"
                                                "4 EXPORT_DONE R6.xyzw EOP\n");
}

} // namespace
