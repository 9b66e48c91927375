/*
 * Malformed TGSI: each input yields exactly the expected diagnostics, with
 * the line and column of the offending token.  Also: hostile inputs (NUL
 * bytes, huge lines, deep nesting) end in a diagnostic, not a crash.
 */
#include <gtest/gtest.h>

#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

std::string parse_err(std::string_view text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "foo.tgsi", diags);
   EXPECT_FALSE(s.has_value());
   EXPECT_TRUE(diags.has_errors());
   return diags.str();
}

/* Five lines of declarations, so the line under test is line 6. */
const std::string kPrologue = "VERT\n"
                              "DCL TEMP[0..3]\n"
                              "DCL ADDR[0]\n"
                              "DCL CONST[0..3]\n"
                              "IMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\n";

struct ErrorCase {
   const char *body;     /* line 6 onwards; "END\n" is appended */
   const char *expected; /* the complete diagnostic text */
};

const ErrorCase kCases[] = {
   /* opcodes and operand counts */
   {"  0: MOVX TEMP[0], TEMP[0]", "foo.tgsi:6:6: error: unknown opcode 'MOVX'"},
   {"MOV_SATX TEMP[0], TEMP[1]", "foo.tgsi:6:1: error: unknown opcode 'MOV_SATX'"},
   {"MOV TEMP[0], TEMP[1], TEMP[2]",
    "foo.tgsi:6:1: error: 'MOV' expects 2 register operands, found 3"},
   {"MOV TEMP[0]", "foo.tgsi:6:1: error: 'MOV' expects 2 register operands, found 1"},
   {"12 MOV TEMP[0], TEMP[1]", "foo.tgsi:6:4: error: expected ':', found 'MOV'"},
   {"MOV TEMP[0] TEMP[1]", "foo.tgsi:6:13: error: expected ',', found 'TEMP'"},
   {"MOV TEMP[0], TEMP[1] extra", "foo.tgsi:6:22: error: expected ',', found 'extra'"},
   {"MOV TEMP[0], TEMP[1] :5", "foo.tgsi:6:22: error: label not allowed on 'MOV'"},
   {"UIF TEMP[0].xxxx :", "foo.tgsi:6:19: error: expected label before end of line"},
   /* registers */
   {"MOV TEMP[0], FOO[1]", "foo.tgsi:6:14: error: unknown register file 'FOO'"},
   {"MOV TEMP[0], TEMP[1", "foo.tgsi:6:20: error: expected ']' before end of line"},
   {"MOV TEMP[0], TEMP", "foo.tgsi:6:18: error: expected '[' before end of line"},
   {"MOV TEMP[0], TEMP[]", "foo.tgsi:6:19: error: expected register index, found ']'"},
   {"MOV TEMP[0], TEMP[70000]",
    "foo.tgsi:6:19: error: register index 70000 is out of range (max 65535)"},
   {"MOV TEMP[0], TEMP[99999999999999999999999]",
    "foo.tgsi:6:19: error: register index 99999999999999999999999 is out of range (max 65535)"},
   {"MOV TEMP[4], TEMP[0]", "foo.tgsi:6:5: error: TEMP[4] is not declared"},
   {"MOV TEMP[0], IMM[1]", "foo.tgsi:6:14: error: IMM[1] is not defined"},
   {"MOV TEMP[0], CONST[2][1]", "foo.tgsi:6:14: error: CONST[2][1] is not declared"},
   {"MOV TEMP[0], SV[0]", "foo.tgsi:6:14: error: SV[0] is not declared"},
   {"MOV TEMP[0], TEMP[ADDR[1].x]", "foo.tgsi:6:14: error: ADDR[1] is not declared"},
   {"MOV TEMP[0], IN[ADDR[0].x]", "foo.tgsi:6:14: error: IN is indexed indirectly but not declared"},
   {"MOV TEMP[0], TEMP[ADDR[0].q]",
    "foo.tgsi:6:27: error: invalid indirect swizzle '.q' (expected one of x, y, z, w)"},
   {"MOV TEMP[0], TEMP[ADDR[0].x+70000]",
    "foo.tgsi:6:29: error: offset 70000 is out of range (max 65535)"},
   {"MOV TEMP[0], TEMP[ADDR[0].x](1", "foo.tgsi:6:31: error: expected ')' before end of line"},
   {"MOV TEMP[1][0], TEMP[0]", "foo.tgsi:6:10: error: TEMP registers take one index"},
   /* masks, swizzles and modifiers */
   {"MOV TEMP[0].xq, TEMP[1]", "foo.tgsi:6:13: error: invalid write mask '.xq'"},
   {"MOV TEMP[0].yx, TEMP[1]", "foo.tgsi:6:13: error: invalid write mask '.yx'"},
   {"MOV TEMP[0], TEMP[1].xy", "foo.tgsi:6:22: error: invalid swizzle '.xy'"},
   {"MOV TEMP[0], TEMP[1].xyzq", "foo.tgsi:6:22: error: invalid swizzle '.xyzq'"},
   {"MOV TEMP[0], |TEMP[1]", "foo.tgsi:6:22: error: expected '|' before end of line"},
   {"MOV -TEMP[0], TEMP[1]", "foo.tgsi:6:5: error: destination operand cannot have modifiers"},
   {"MOV CONST[0], TEMP[1]", "foo.tgsi:6:5: error: cannot write to CONST registers"},
   {"MOV TEMP[0], \x01TEMP[1]", "foo.tgsi:6:14: error: expected operand, found '\\x01'"},
   /* texture instructions */
   {"TEX TEMP[0], TEMP[1], CONST[0]", "foo.tgsi:6:31: error: 'TEX' needs a texture target"},
   {"TEX TEMP[0], TEMP[1], CONST[0], 9D", "foo.tgsi:6:33: error: unknown texture target '9D'"},
   {"TEX TEMP[0], TEMP[1], 2D", "foo.tgsi:6:1: error: 'TEX' expects 3 register operands, found 2"},
   {"MOV TEMP[0], TEMP[1], 2D", "foo.tgsi:6:23: error: unexpected '2D'"},
   {"TEX TEMP[0], TEMP[1], CONST[0], 2D, 3D", "foo.tgsi:6:37: error: duplicate texture target '3D'"},
   {"TEX TEMP[0], TEMP[1], CONST[0], 2D, -IMM[0].xyz",
    "foo.tgsi:6:37: error: texture offset must be a plain register such as IMM[0].xyz"},
   {"TEX TEMP[0], TEMP[1], CONST[0], 2D, IMM[0].xy",
    "foo.tgsi:6:44: error: invalid texture offset swizzle '.xy'"},
   /* control flow */
   {"ELSE", "foo.tgsi:6:1: error: ELSE without matching IF"},
   {"ENDIF", "foo.tgsi:6:1: error: ENDIF without matching IF"},
   {"ENDLOOP", "foo.tgsi:6:1: error: ENDLOOP without matching BGNLOOP"},
   {"BRK", "foo.tgsi:6:1: error: BRK outside of a loop"},
   {"IF TEMP[0].xxxx\nCONT\nENDIF", "foo.tgsi:7:1: error: CONT outside of a loop"},
   {"IF TEMP[0].xxxx", "foo.tgsi:6:1: error: IF is not closed by ENDIF"},
   {"BGNLOOP\nIF TEMP[0].x\nENDLOOP", "foo.tgsi:8:1: error: ENDLOOP without matching BGNLOOP"},
   {"  0: BGNLOOP :3", "foo.tgsi:6:6: error: BGNLOOP is not closed by ENDLOOP"},
   {"IF TEMP[0].x\nELSE\nELSE\nENDIF", "foo.tgsi:8:1: error: second ELSE for the same IF"},
   {"END\nMOV TEMP[0], TEMP[1]", "foo.tgsi:7:1: error: instruction after END"},
   /* declarations */
   {"DCL TEMP[5..2]", "foo.tgsi:6:10: error: invalid range 5..2: last index is below first"},
   {"DCL FOO[0]", "foo.tgsi:6:5: error: unknown register file 'FOO'"},
   {"DCL IMM[0]", "foo.tgsi:6:5: error: unknown register file 'IMM'"},
   {"DCL IN[0], BOGUS", "foo.tgsi:6:12: error: unexpected 'BOGUS' in declaration"},
   {"DCL IN[0], PERSPECTIVE, GENERIC[0]",
    "foo.tgsi:6:25: error: unexpected 'GENERIC' in declaration"},
   {"DCL IN[0],", "foo.tgsi:6:11: error: expected declaration attribute before end of line"},
   {"DCL SVIEW[0], 2D", "foo.tgsi:6:17: error: expected ',' before end of line"},
   {"DCL SVIEW[0], 2D, FLOAT, FLOAT",
    "foo.tgsi:6:15: error: expected 1 or 4 return types, found 2"},
   {"DCL SVIEW[0], 2D, HALF", "foo.tgsi:6:19: error: unknown return type 'HALF'"},
   {"DCL SVIEW[0]", "foo.tgsi:6:13: error: SVIEW declaration needs a texture target and return type"},
   {"DCL SVIEW[0], 4D, FLOAT", "foo.tgsi:6:15: error: unknown texture target '4D'"},
   {"DCL TEMP[0], ARRAY(0)", "foo.tgsi:6:14: error: array id must be at least 1"},
   {"DCL OUT[0], GENERIC[70000]",
    "foo.tgsi:6:21: error: semantic index 70000 is out of range (max 65535)"},
   {"DCL TEMP[0].xyzwx", "foo.tgsi:6:13: error: invalid usage mask '.xyzwx'"},
   {"DCL TEMP[1][2]", "foo.tgsi:6:12: error: TEMP declarations take one index range"},
   {"DCL CONST[1..2][0]", "foo.tgsi:6:17: error: constant buffer index must be a single number"},
   {"DCL TEMP[0] junk", "foo.tgsi:6:13: error: unexpected 'junk'"},
   /* immediates */
   {"IMM[5] FLT32 {1.0}", "foo.tgsi:6:5: error: immediate IMM[5] out of order, expected IMM[1]"},
   {"IMM[1] FLT16 {1.0}", "foo.tgsi:6:8: error: unknown immediate type 'FLT16'"},
   {"IMM[1] FLT32 1.0", "foo.tgsi:6:14: error: expected '{', found '1'"},
   {"IMM[1] FLT32 {1.0, 2.0, 3.0, 4.0, 5.0}",
    "foo.tgsi:6:35: error: too many immediate values (at most 4)"},
   {"IMM[1] UINT32 {4294967296}", "foo.tgsi:6:16: error: number '4294967296' does not fit in UINT32"},
   {"IMM[1] UINT32 {-1}", "foo.tgsi:6:16: error: number '-1' does not fit in UINT32"},
   {"IMM[1] INT32 {-2147483649}", "foo.tgsi:6:15: error: number '-2147483649' does not fit in INT32"},
   {"IMM[1] INT32 {99999999999999999999999}",
    "foo.tgsi:6:15: error: number '99999999999999999999999' does not fit in 32 bits"},
   {"IMM[1] UINT32 {0x100000000}", "foo.tgsi:6:16: error: number '0x100000000' does not fit in 32 bits"},
   {"IMM[1] FLT32 {1.0.0}", "foo.tgsi:6:15: error: invalid float '1.0.0'"},
   {"IMM[1] FLT32 {abc}", "foo.tgsi:6:15: error: invalid float 'abc'"},
   {"IMM[1] UINT32 {1.5}", "foo.tgsi:6:16: error: invalid integer '1.5'"},
   {"IMM[1] FLT32 {1.0, 2.0", "foo.tgsi:6:23: error: expected '}' before end of line"},
   {"IMM[1] FLT32 {}", "foo.tgsi:6:15: error: expected number, found '}'"},
   /* properties */
   {"PROPERTY FS_COORD_ORIGIN SIDEWAYS",
    "foo.tgsi:6:26: error: invalid value 'SIDEWAYS' for FS_COORD_ORIGIN"},
   {"PROPERTY NUM_CLIPDIST_ENABLED two",
    "foo.tgsi:6:31: error: invalid value 'two' for NUM_CLIPDIST_ENABLED"},
   {"PROPERTY NEXT_SHADER PIXEL", "foo.tgsi:6:22: error: invalid value 'PIXEL' for NEXT_SHADER"},
   {"PROPERTY", "foo.tgsi:6:9: error: expected property name before end of line"},
   {"PROPERTY FS_EARLY_DEPTH_STENCIL", "foo.tgsi:6:32: error: expected property value before end of line"},
};

TEST(TgsiErrors, Table)
{
   ASSERT_GE(std::size(kCases), 30u);
   for (const ErrorCase &c : kCases) {
      std::string text = kPrologue + c.body + "\nEND\n";
      EXPECT_EQ(parse_err(text), std::string(c.expected) + "\n") << "input line: " << c.body;
   }
}

TEST(TgsiErrors, Headers)
{
   EXPECT_EQ(parse_err(""),
             "foo.tgsi:1:1: error: expected processor type (VERT, FRAG, GEOM or COMP)\n");
   EXPECT_EQ(parse_err("\n\n  # only a comment\n"),
             "foo.tgsi:1:1: error: expected processor type (VERT, FRAG, GEOM or COMP)\n");
   EXPECT_EQ(parse_err("VERTX\nEND\n"), "foo.tgsi:1:1: error: expected processor type (VERT, "
                                        "FRAG, GEOM or COMP), found 'VERTX'\n");
   EXPECT_EQ(parse_err("TESS_CTRL\nEND\n"),
             "foo.tgsi:1:1: error: unsupported processor type 'TESS_CTRL'\n");
   EXPECT_EQ(parse_err("\n  DCL TEMP[0]\n"), "foo.tgsi:2:3: error: expected processor type "
                                              "(VERT, FRAG, GEOM or COMP), found 'DCL'\n");
   EXPECT_EQ(parse_err("FRAG extra\nEND\n"), "foo.tgsi:1:6: error: unexpected 'extra'\n");
}

TEST(TgsiErrors, MissingEnd)
{
   EXPECT_EQ(parse_err("VERT\n"), "foo.tgsi:1:5: error: missing END\n");
   EXPECT_EQ(parse_err("VERT\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\n\n"),
             "foo.tgsi:3:21: error: missing END\n");
}

TEST(TgsiErrors, SeveralErrorsAreAllReported)
{
   /* Each bad line is reported; reference checks wait for clean syntax. */
   EXPECT_EQ(parse_err("VERT\nFOO\nDCL TEMP[0]\nBAR TEMP[0]\nMOV TEMP[9], TEMP[0]\nEND\n"),
             "foo.tgsi:2:1: error: unknown opcode 'FOO'\n"
             "foo.tgsi:4:1: error: unknown opcode 'BAR'\n");
   EXPECT_EQ(parse_err("VERT\nDCL TEMP[0]\nMOV TEMP[9], TEMP[8]\nEND\n"),
             "foo.tgsi:3:5: error: TEMP[9] is not declared\n"
             "foo.tgsi:3:14: error: TEMP[8] is not declared\n");
}

TEST(TgsiErrors, ErrorCountIsBounded)
{
   std::string text = "VERT\n";
   for (int i = 0; i < 10000; i++)
      text += "garbage\n";
   Diagnostics diags;
   EXPECT_FALSE(parse_tgsi(text, "foo.tgsi", diags));
   EXPECT_EQ(diags.num_errors(), 50u);
}

TEST(TgsiErrors, NulBytesAndBinaryGarbage)
{
   const char raw[] = "VERT\nDCL TEMP[0]\0\nEND\n";
   std::string text(raw, sizeof(raw) - 1);
   EXPECT_EQ(parse_err(text), "foo.tgsi:2:12: error: unexpected '\\x00'\n");
   std::string bin;
   for (int i = 0; i < 4096; i++)
      bin += static_cast<char>((i * 7919) & 0xff);
   Diagnostics diags;
   EXPECT_FALSE(parse_tgsi(bin, "bin", diags));
   EXPECT_TRUE(diags.has_errors());
   EXPECT_FALSE(parse_tgsi(std::string(1000, '\0'), "nul", diags));
}

TEST(TgsiErrors, HugeLineAndNumbers)
{
   /* A 1 MB line: one diagnostic, quoted token cut short. */
   std::string text = kPrologue + "MOV TEMP[0], TEMP[" + std::string(1 << 20, '9') + "]\nEND\n";
   std::string err = parse_err(text);
   EXPECT_EQ(err, "foo.tgsi:6:19: error: register index 9999999999999999999999999999999999999999"
                  "... is out of range (max 65535)\n");
   std::string word = kPrologue + std::string(1 << 20, 'A') + "\nEND\n";
   EXPECT_EQ(parse_err(word), "foo.tgsi:6:1: error: unknown opcode 'AAAAAAAAAAAAAAAAAAAAAAAAAAA"
                              "AAAAAAAAAAAAA...'\n");
}

TEST(TgsiErrors, DeeplyNestedBracketsAndControlFlow)
{
   std::string brackets = kPrologue + "MOV TEMP[0], TEMP" + std::string(100000, '[') + "\nEND\n";
   EXPECT_EQ(parse_err(brackets), "foo.tgsi:6:19: error: expected register index, found '['\n");

   /* 100000 nested IFs are fine syntactically; the missing ENDIFs are not. */
   std::string ifs = kPrologue;
   for (int i = 0; i < 100000; i++)
      ifs += "IF TEMP[0].xxxx\n";
   ifs += "END\n";
   EXPECT_EQ(parse_err(ifs), "foo.tgsi:100005:1: error: IF is not closed by ENDIF\n");
}

} // namespace
