/*
 * Plain TGSI -> r600 backend: exact listings of small fixed shaders on
 * Evergreen and R700 (MOV, DP4, a transcendental, IF/ELSE, a loop with BRK,
 * a TEX), statistics, ShaderInfo layout, and diagnostics for limits and
 * unsupported input.
 */
#include <gtest/gtest.h>

#include <string>

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600/r600_tgsi.h"

namespace {

using namespace sbcc;

std::optional<r600::TgsiCompiled> compile(const std::string &text, r600::ChipClass chip,
                                          Diagnostics &diags, bool merge = true)
{
   auto sh = tgsi::parse_tgsi(text, "t.tgsi", diags);
   if (!sh)
      return std::nullopt;
   DebugOptions dbg;
   dbg.merge_temps = merge;
   return r600::tgsi_to_r600(*sh, chip, dbg, diags);
}

std::string listing(const std::string &text, r600::ChipClass chip)
{
   Diagnostics diags;
   auto c = compile(text, chip, diags);
   if (!c)
      return "compile failed: " + diags.str();
   auto words = r600::assemble(c->prog, diags);
   if (!words)
      return "assemble failed: " + diags.str();
   auto dec = r600::decode_program(*words, chip, diags);
   if (!dec)
      return "decode failed: " + diags.str();
   EXPECT_EQ(*dec, c->prog) << "decoding the assembled words gives a different program";
   return r600::print_program(*dec, *words);
}

const char *kVs =
   "VERT\n"
   "DCL IN[0]\n"
   "DCL OUT[0], POSITION\n"
   "DCL OUT[1], GENERIC[0]\n"
   "DCL CONST[0][0..3]\n"
   "DCL TEMP[0]\n"
   "IMM[0] FLT32 {2.5, 1.0, 0.0, -3.0}\n"
   "  0: DP4 TEMP[0].x, IN[0], CONST[0][0]\n"
   "  1: MOV TEMP[0].yzw, IMM[0].xwyz\n"
   "  2: MOV OUT[0], TEMP[0]\n"
   "  3: RCP OUT[1].xy, IN[0].wwww\n"
   "  4: MOV OUT[1].zw, TEMP[0].yxyx\n"
   "  5: END\n";

const char *kFlow =
   "FRAG\n"
   "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
   "DCL OUT[0], COLOR\n"
   "DCL SAMP[0]\n"
   "DCL SVIEW[0], 2D, FLOAT\n"
   "DCL TEMP[0..1]\n"
   "IMM[0] FLT32 {1.0, 0.0, 3.0, 0.5}\n"
   "  0: MOV TEMP[0], IMM[0].yyyy\n"
   "  1: BGNLOOP\n"
   "  2: SGE TEMP[1].x, TEMP[0].xxxx, IMM[0].zzzz\n"
   "  3: IF TEMP[1].xxxx\n"
   "  4: BRK\n"
   "  5: ENDIF\n"
   "  6: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
   "  7: ENDLOOP\n"
   "  8: IF IN[0].xxxx\n"
   "  9: TEX TEMP[1], IN[0], SAMP[0], 2D\n"
   " 10: ELSE\n"
   " 11: MUL TEMP[1], IN[0], IMM[0].wwww\n"
   " 12: ENDIF\n"
   " 13: ADD OUT[0], TEMP[1], TEMP[0].xxxx\n"
   " 14: END\n";

TEST(R600BackendListing, VsEvergreen)
{
   const char *expected =
   "; evergreen bytecode, 40 dw\n"
   "0000 00000000 84C00000  CALL_FS @0 \n"
   "0002 40000004 A03C0000  ALU 16 @8 KC0[CB0:0-16] \n"
   " 0008 00100001 00405F90     1 x:     DOT4_IEEE              R2.x,  R1.x, KC0[0].x\n"
   " 0010 00900401 20405F80       y:     DOT4_IEEE              __.y,  R1.y, KC0[0].y\n"
   " 0012 01100801 40405F80       z:     DOT4_IEEE              __.z,  R1.z, KC0[0].z\n"
   " 0014 81900C01 60405F80       w:     DOT4_IEEE              __.w,  R1.w, KC0[0].w\n"
   " 0016 000000FD 20400C90     2 y:     MOV                    R2.y,  [0xC0400000 -3.000000]\n"
   " 0018 000000F9 40400C90       z:     MOV                    R2.z,  1.0\n"
   " 0020 800000F8 60400C90       w:     MOV                    R2.w,  0\n"
   " 0022 C0400000                                               -3.000000 (-1069547520)\n"
   " 0024 00000002 00600C90     3 x:     MOV                    R3.x,  R2.x\n"
   " 0026 00000402 20600C90       y:     MOV                    R3.y,  R2.y\n"
   " 0028 00000802 40600C90       z:     MOV                    R3.z,  R2.z\n"
   " 0030 80000C02 60600C90       w:     MOV                    R3.w,  R2.w\n"
   " 0032 80000C01 00804310     4 t:     RECIP_IEEE             R4.x,  R1.w\n"
   " 0034 80000C01 20804310     5 t:     RECIP_IEEE             R4.y,  R1.w\n"
   " 0036 00000402 40800C90     6 z:     MOV                    R4.z,  R2.y\n"
   " 0038 80000002 60800C90       w:     MOV                    R4.w,  R2.x\n"
   "0004 0001A03C 95000688  EXPORT_DONE        POS   60    R3.xyzw      ES:0 \n"
   "0006 00024000 95200688  EXPORT_DONE        PARAM 0     R4.xyzw      ES:0 EOP \n";
   EXPECT_EQ(listing(kVs, r600::ChipClass::Evergreen), expected);
}

TEST(R600BackendListing, VsR700)
{
   const char *expected =
   "; r700 bytecode, 40 dw\n"
   "0000 00000000 89800000  CALL_FS @0 \n"
   "0002 40000004 A03C0000  ALU 16 @8 KC0[CB0:0-16] \n"
   " 0008 00100001 00402890     1 x:     DOT4_IEEE              R2.x,  R1.x, KC0[0].x\n"
   " 0010 00900401 20402880       y:     DOT4_IEEE              __.y,  R1.y, KC0[0].y\n"
   " 0012 01100801 40402880       z:     DOT4_IEEE              __.z,  R1.z, KC0[0].z\n"
   " 0014 81900C01 60402880       w:     DOT4_IEEE              __.w,  R1.w, KC0[0].w\n"
   " 0016 000000FD 20400C90     2 y:     MOV                    R2.y,  [0xC0400000 -3.000000]\n"
   " 0018 000000F9 40400C90       z:     MOV                    R2.z,  1.0\n"
   " 0020 800000F8 60400C90       w:     MOV                    R2.w,  0\n"
   " 0022 C0400000                                               -3.000000 (-1069547520)\n"
   " 0024 00000002 00600C90     3 x:     MOV                    R3.x,  R2.x\n"
   " 0026 00000402 20600C90       y:     MOV                    R3.y,  R2.y\n"
   " 0028 00000802 40600C90       z:     MOV                    R3.z,  R2.z\n"
   " 0030 80000C02 60600C90       w:     MOV                    R3.w,  R2.w\n"
   " 0032 80000C01 00803310     4 t:     RECIP_IEEE             R4.x,  R1.w\n"
   " 0034 80000C01 20803310     5 t:     RECIP_IEEE             R4.y,  R1.w\n"
   " 0036 00000402 40800C90     6 z:     MOV                    R4.z,  R2.y\n"
   " 0038 80000002 60800C90       w:     MOV                    R4.w,  R2.x\n"
   "0004 0001A03C 94000688  EXPORT_DONE        POS   60    R3.xyzw      ES:0 \n"
   "0006 00024000 94200688  EXPORT_DONE        PARAM 0     R4.xyzw      ES:0 EOP \n";
   EXPECT_EQ(listing(kVs, r600::ChipClass::R700), expected);
}

TEST(R600BackendListing, FlowEvergreen)
{
   const char *expected =
   "; evergreen bytecode, 96 dw\n"
   "0000 00000011 A02C0000  ALU 12 @34 \n"
   " 0034 00380400 00346B80     1 x:     INTERP_ZW              __.x,  R0.y, Param0  BS:5\n"
   " 0036 00B80000 20346B80       y:     INTERP_ZW              __.y,  R0.x, Param0  BS:5\n"
   " 0038 01380400 40346B90       z:     INTERP_ZW              R1.z,  R0.y, Param0  BS:5\n"
   " 0040 81B80000 60346B90       w:     INTERP_ZW              R1.w,  R0.x, Param0  BS:5\n"
   " 0042 00380400 00346B10     2 x:     INTERP_XY              R1.x,  R0.y, Param0  BS:5\n"
   " 0044 00B80000 20346B10       y:     INTERP_XY              R1.y,  R0.x, Param0  BS:5\n"
   " 0046 01380400 40346B00       z:     INTERP_XY              __.z,  R0.y, Param0  BS:5\n"
   " 0048 81B80000 60346B00       w:     INTERP_XY              __.w,  R0.x, Param0  BS:5\n"
   " 0050 000000F8 00400C90     3 x:     MOV                    R2.x,  0\n"
   " 0052 000000F8 20400C90       y:     MOV                    R2.y,  0\n"
   " 0054 000000F8 40400C90       z:     MOV                    R2.z,  0\n"
   " 0056 800000F8 60400C90       w:     MOV                    R2.w,  0\n"
   "0002 00000009 81800000  LOOP_START_DX10 @18 \n"
   "0004 0000001D A0040000  ALU 2 @58 \n"
   " 0058 801FA002 00600510     4 x:     SETGE                  R3.x,  R2.x, [0x40400000 3.000000]\n"
   " 0060 40400000                                               3.000000 (1077936128)\n"
   "0006 0000001F A4000000  ALU_PUSH_BEFORE 1 @62 \n"
   " 0062 801F0003 00A0118C     5 x:MP   PRED_SETNE             __.x,  R3.x, 0\n"
   "0008 00000007 82800001  JUMP @14 POP:1 \n"
   "0010 00000008 82400000  LOOP_BREAK @16 \n"
   "0012 00000007 83800001  POP @14 POP:1 \n"
   "0014 00000020 A0000000  ALU 1 @64 \n"
   " 0064 801F2002 00400010     6 x:     ADD                    R2.x,  R2.x, 1.0\n"
   "0016 00000002 81400000  LOOP_END @4 \n"
   "0018 00000021 A4000000  ALU_PUSH_BEFORE 1 @66 \n"
   " 0066 801F0001 00A0118C     7 x:MP   PRED_SETNE             __.x,  R1.x, 0\n"
   "0020 0000000D 82800000  JUMP @26 \n"
   "0022 00000022 80400000  TEX 1 @68 \n"
   " 0068 00010010 F00D1005 68800000   SAMPLE         R5.xyzw, R1.xyzw,  RID:0, SID:0  CT:NNNN \n"
   "0024 00000024 A00C0000  ALU 4 @72 \n"
   " 0072 00000005 00600C90     8 x:     MOV                    R3.x,  R5.x\n"
   " 0074 00000405 20600C90       y:     MOV                    R3.y,  R5.y\n"
   " 0076 00000805 40600C90       z:     MOV                    R3.z,  R5.z\n"
   " 0078 80000C05 60600C90       w:     MOV                    R3.w,  R5.w\n"
   "0026 0000000F 83400001  ELSE @30 POP:1 \n"
   "0028 00000028 A80C0000  ALU_POP_AFTER 4 @80 \n"
   " 0080 001F8001 00600110     9 x:     MUL_IEEE               R3.x,  R1.x, 0.5\n"
   " 0082 001F8401 20600110       y:     MUL_IEEE               R3.y,  R1.y, 0.5\n"
   " 0084 001F8801 40600110       z:     MUL_IEEE               R3.z,  R1.z, 0.5\n"
   " 0086 801F8C01 60600110       w:     MUL_IEEE               R3.w,  R1.w, 0.5\n"
   "0030 0000002C A00C0000  ALU 4 @88 \n"
   " 0088 00004003 00800010    10 x:     ADD                    R4.x,  R3.x, R2.x\n"
   " 0090 00004403 20800010       y:     ADD                    R4.y,  R3.y, R2.x\n"
   " 0092 00004803 40800010       z:     ADD                    R4.z,  R3.z, R2.x\n"
   " 0094 80004C03 60800010       w:     ADD                    R4.w,  R3.w, R2.x\n"
   "0032 00020000 95200688  EXPORT_DONE        PIXEL 0     R4.xyzw      ES:0 EOP \n";
   EXPECT_EQ(listing(kFlow, r600::ChipClass::Evergreen), expected);
}

TEST(R600BackendListing, FlowR700)
{
   const char *expected =
   "; r700 bytecode, 80 dw\n"
   "0000 00000011 A00C0000  ALU 4 @34 \n"
   " 0034 000000F8 00200C90     1 x:     MOV                    R1.x,  0\n"
   " 0036 000000F8 20200C90       y:     MOV                    R1.y,  0\n"
   " 0038 000000F8 40200C90       z:     MOV                    R1.z,  0\n"
   " 0040 800000F8 60200C90       w:     MOV                    R1.w,  0\n"
   "0002 00000009 83000000  LOOP_START_DX10 @18 \n"
   "0004 00000015 A0040000  ALU 2 @42 \n"
   " 0042 801FA001 00400510     2 x:     SETGE                  R2.x,  R1.x, [0x40400000 3.000000]\n"
   " 0044 40400000                                               3.000000 (1077936128)\n"
   "0006 00000017 A4000000  ALU_PUSH_BEFORE 1 @46 \n"
   " 0046 801F0002 0080118C     3 x:MP   PRED_SETNE             __.x,  R2.x, 0\n"
   "0008 00000007 85000001  JUMP @14 POP:1 \n"
   "0010 00000008 84800000  LOOP_BREAK @16 \n"
   "0012 00000007 87000001  POP @14 POP:1 \n"
   "0014 00000018 A0000000  ALU 1 @48 \n"
   " 0048 801F2001 00200010     4 x:     ADD                    R1.x,  R1.x, 1.0\n"
   "0016 00000002 82800000  LOOP_END @4 \n"
   "0018 00000019 A4000000  ALU_PUSH_BEFORE 1 @50 \n"
   " 0050 801F0000 0080118C     5 x:MP   PRED_SETNE             __.x,  R0.x, 0\n"
   "0020 0000000D 85000000  JUMP @26 \n"
   "0022 0000001A 80800000  TEX 1 @52 \n"
   " 0052 00000010 F00D1004 68800000   SAMPLE         R4.xyzw, R0.xyzw,  RID:0, SID:0  CT:NNNN \n"
   "0024 0000001C A00C0000  ALU 4 @56 \n"
   " 0056 00000004 00400C90     6 x:     MOV                    R2.x,  R4.x\n"
   " 0058 00000404 20400C90       y:     MOV                    R2.y,  R4.y\n"
   " 0060 00000804 40400C90       z:     MOV                    R2.z,  R4.z\n"
   " 0062 80000C04 60400C90       w:     MOV                    R2.w,  R4.w\n"
   "0026 0000000F 86800001  ELSE @30 POP:1 \n"
   "0028 00000020 A80C0000  ALU_POP_AFTER 4 @64 \n"
   " 0064 001F8000 00400110     7 x:     MUL_IEEE               R2.x,  R0.x, 0.5\n"
   " 0066 001F8400 20400110       y:     MUL_IEEE               R2.y,  R0.y, 0.5\n"
   " 0068 001F8800 40400110       z:     MUL_IEEE               R2.z,  R0.z, 0.5\n"
   " 0070 801F8C00 60400110       w:     MUL_IEEE               R2.w,  R0.w, 0.5\n"
   "0030 00000024 A00C0000  ALU 4 @72 \n"
   " 0072 00002002 00600010     8 x:     ADD                    R3.x,  R2.x, R1.x\n"
   " 0074 00002402 20600010       y:     ADD                    R3.y,  R2.y, R1.x\n"
   " 0076 00002802 40600010       z:     ADD                    R3.z,  R2.z, R1.x\n"
   " 0078 80002C02 60600010       w:     ADD                    R3.w,  R2.w, R1.x\n"
   "0032 00018000 94200688  EXPORT_DONE        PIXEL 0     R3.xyzw      ES:0 EOP \n";
   EXPECT_EQ(listing(kFlow, r600::ChipClass::R700), expected);
}

TEST(R600BackendStats, MesaOrderAndValues)
{
   Diagnostics diags;
   auto c = compile(kFlow, r600::ChipClass::Evergreen, diags);
   ASSERT_TRUE(c) << diags.str();
   EXPECT_EQ(c->stats.str(), "96 dw, 6 gprs, 10 alu_groups, 1 loops, 17 cf, 3 stack");
   EXPECT_EQ(c->info.stack_size, 3u);
   EXPECT_EQ(c->info.num_gprs, 6u);
}

TEST(R600BackendInfo, EvergreenFragmentLayout)
{
   Diagnostics diags;
   auto c = compile(kFlow, r600::ChipClass::Evergreen, diags);
   ASSERT_TRUE(c) << diags.str();
   /* One perspective pair in R0, the input interpolated into R1. */
   EXPECT_EQ(c->info.num_ij, 1u);
   ASSERT_EQ(c->info.inputs.size(), 1u);
   EXPECT_EQ(c->info.inputs[0].gpr, 1u);
   EXPECT_EQ(c->info.inputs[0].lds_pos, 0);
   EXPECT_EQ(c->info.inputs[0].ij_index, 0);
   ASSERT_EQ(c->info.outputs.size(), 1u);
   EXPECT_EQ(c->info.outputs[0].export_type, 0u);
   EXPECT_EQ(c->info.outputs[0].export_base, 0u);
}

TEST(R600BackendInfo, R700FragmentInputsAreSpiLoaded)
{
   Diagnostics diags;
   auto c = compile(kFlow, r600::ChipClass::R700, diags);
   ASSERT_TRUE(c) << diags.str();
   EXPECT_EQ(c->info.num_ij, 0u);
   ASSERT_EQ(c->info.inputs.size(), 1u);
   EXPECT_EQ(c->info.inputs[0].gpr, 0u);
   EXPECT_EQ(c->info.inputs[0].lds_pos, -1);
}

TEST(R600BackendInfo, VertexExports)
{
   Diagnostics diags;
   auto c = compile(kVs, r600::ChipClass::Evergreen, diags);
   ASSERT_TRUE(c) << diags.str();
   EXPECT_TRUE(c->info.has_fetch_shader);
   ASSERT_EQ(c->info.inputs.size(), 1u);
   EXPECT_EQ(c->info.inputs[0].gpr, 1u);
   ASSERT_EQ(c->info.outputs.size(), 2u);
   EXPECT_EQ(c->info.outputs[0].export_type, 1u);
   EXPECT_EQ(c->info.outputs[0].export_base, 60u);
   EXPECT_EQ(c->info.outputs[1].export_type, 2u);
   EXPECT_EQ(c->info.outputs[1].export_base, 0u);
}

TEST(R600BackendErrors, TooManyGprs)
{
   std::string text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0..119]\n";
   for (int i = 0; i < 120; i++)
      text += "  MOV TEMP[" + std::to_string(i) + "], IN[0]\n";
   text += "  MOV OUT[0], TEMP[0]\n";
   for (int i = 1; i < 120; i++)
      text += "  ADD OUT[0], OUT[0], TEMP[" + std::to_string(i) + "]\n";
   text += "  END\n";
   Diagnostics diags;
   auto c = compile(text, r600::ChipClass::Evergreen, diags, false);
   EXPECT_FALSE(c);
   EXPECT_EQ(diags.str(),
             "t.tgsi: error: shader needs 136 GPRs after temporary merging; the hardware limit is "
             "124\n");
}

TEST(R600BackendErrors, UnsupportedOpcodeHasLocation)
{
   const char *text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                      "  0: DDX_FINE OUT[0], IN[0]\n  1: END\n";
   Diagnostics diags;
   auto c = compile(text, r600::ChipClass::R700, diags);
   EXPECT_FALSE(c);
   EXPECT_EQ(diags.str(), "t.tgsi:4:6: error: r600 backend: DDX_FINE needs Evergreen or later: "
                          "r700 has only coarse gradients (GET_GRADIENTS_H/V)\n");
}

TEST(R600BackendErrors, NestingBeyondTheStack)
{
   std::string text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n";
   for (int i = 0; i < 40; i++)
      text += "  BGNLOOP\n";
   text += "  MOV OUT[0], IN[0]\n";
   for (int i = 0; i < 40; i++)
      text += "  BRK\n  ENDLOOP\n";
   text += "  END\n";
   Diagnostics diags;
   auto c = compile(text, r600::ChipClass::Evergreen, diags);
   EXPECT_FALSE(c);
   EXPECT_EQ(diags.str(), "t.tgsi: error: control flow nested too deeply: needs more than the 32 "
                          "hardware stack entries\n");
}

TEST(R600BackendListing, CaymanDivisionWithoutRecipUint)
{
   /* Cayman has no RECIP_UINT: the estimate comes from RECIP_IEEE (results
    * are checked against the reference in test_r600_backend_many_temps). */
   const char *text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                      "  0: UDIV OUT[0], IN[0], IN[0]\n  1: END\n";
   const std::string cm = listing(text, r600::ChipClass::Cayman);
   EXPECT_EQ(cm.find("RECIP_UINT"), std::string::npos) << cm;
   EXPECT_NE(cm.find("RECIP_IEEE"), std::string::npos) << cm;
   EXPECT_NE(cm.find("UINT_TO_FLT"), std::string::npos) << cm;
   const std::string eg = listing(text, r600::ChipClass::Evergreen);
   EXPECT_NE(eg.find("RECIP_UINT"), std::string::npos) << eg;
}

} // namespace

namespace {

TEST(R600BackendErrors, UndeclaredRegister)
{
   const char *text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL TEMP[0]\n"
                      "  0: MOV OUT[0], TEMP[7]\n  1: END\n";
   Diagnostics diags;
   auto c = compile(text, r600::ChipClass::Evergreen, diags);
   EXPECT_FALSE(c);
   EXPECT_EQ(diags.str(), "t.tgsi:5:18: error: TEMP[7] is not declared\n");
}

TEST(R600BackendErrors, InputOutOfRange)
{
   const char *text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"
                      "  0: MOV OUT[0], IN[3]\n  1: END\n";
   Diagnostics diags;
   /* Without merging (whose lifetime analysis reports it first). */
   auto c = compile(text, r600::ChipClass::Evergreen, diags, false);
   EXPECT_FALSE(c);
   EXPECT_EQ(diags.str(), "t.tgsi:4:18: error: IN[3] is not declared\n");
}

} // namespace
