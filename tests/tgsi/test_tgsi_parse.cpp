/*
 * parse_tgsi on valid input: each construct of tgsi_dump's syntax lands in
 * the expected IR fields.
 */
#include <cstring>

#include <gtest/gtest.h>

#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

using Swizzle = std::array<uint8_t, 4>;

Shader parse_ok(std::string_view text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "t.tgsi", diags);
   EXPECT_TRUE(s.has_value()) << diags.str();
   EXPECT_EQ(diags.str(), "");
   return s ? std::move(*s) : Shader{};
}

/* A vertex shader around one instruction line, with every register file
 * the instruction tests use declared. */
Instruction parse_inst(std::string_view line, Processor proc = Processor::Vertex)
{
   std::string text = proc == Processor::Geometry ? "GEOM\nDCL IN[][0..2]\n" : "VERT\nDCL IN[0..3]\n";
   text += "DCL OUT[0..1]\nDCL TEMP[0..9]\nDCL TEMP[10..19], ARRAY(1)\nDCL ADDR[0..1]\n"
           "DCL CONST[0..7]\nDCL CONST[1][0..238]\nDCL SAMP[0..1]\nDCL SVIEW[0], 2D, FLOAT\n"
           "IMM[0] FLT32 {    1.0000,     0.0000,     0.5000,     2.0000}\n";
   text += line;
   text += "\nEND\n";
   Shader s = parse_ok(text);
   if (s.instructions.size() != 2)
      return Instruction{};
   return s.instructions[0];
}

TEST(TgsiParse, MinimalFragmentShader)
{
   Shader s = parse_ok("FRAG\n"
                       "PROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n"
                       "DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
                       "DCL OUT[0], COLOR\n"
                       "DCL SAMP[0]\n"
                       "DCL SVIEW[0], 2D, FLOAT\n"
                       "  0: TEX OUT[0], IN[0].xyyy, SAMP[0], 2D\n"
                       "  1: END\n");
   EXPECT_EQ(s.processor, Processor::Fragment);
   ASSERT_EQ(s.properties.size(), 1u);
   EXPECT_EQ(s.properties[0].property, Property::FsColor0WritesAllCbufs);
   EXPECT_EQ(s.properties[0].value, 1u);
   ASSERT_EQ(s.declarations.size(), 4u);
   const Declaration &in = s.declarations[0];
   EXPECT_EQ(in.file, File::Input);
   EXPECT_EQ(in.usage_mask, WM_X | WM_Y);
   EXPECT_EQ(in.semantic, Semantic::Generic);
   EXPECT_EQ(in.semantic_index, 0u);
   EXPECT_EQ(in.interpolate, Interpolate::Perspective);
   EXPECT_EQ(in.loc.line, 3u);
   EXPECT_EQ(in.loc.column, 1u);
   EXPECT_EQ(s.declarations[1].semantic, Semantic::Color);
   EXPECT_EQ(s.declarations[2].file, File::Sampler);
   EXPECT_EQ(s.declarations[3].view_target, TextureTarget::Tex2D);
   ASSERT_EQ(s.instructions.size(), 2u);
   const Instruction &tex = s.instructions[0];
   EXPECT_EQ(tex.opcode, Opcode::TEX);
   EXPECT_EQ(tex.tex_target, TextureTarget::Tex2D);
   ASSERT_EQ(tex.dst.size(), 1u);
   EXPECT_EQ(tex.dst[0].file, File::Output);
   EXPECT_EQ(tex.dst[0].write_mask, WM_XYZW);
   ASSERT_EQ(tex.src.size(), 2u);
   EXPECT_EQ(tex.src[0].swizzle, (Swizzle{SWZ_X, SWZ_Y, SWZ_Y, SWZ_Y}));
   EXPECT_EQ(tex.src[1].file, File::Sampler);
   EXPECT_EQ(tex.loc.line, 7u);
   EXPECT_EQ(tex.loc.column, 6u);
   EXPECT_EQ(tex.src[0].loc.column, 18u);
   EXPECT_EQ(s.instructions[1].opcode, Opcode::END);
   EXPECT_EQ(s.source_name, "t.tgsi");
}

TEST(TgsiParse, ProcessorHeaders)
{
   EXPECT_EQ(parse_ok("VERT\nEND\n").processor, Processor::Vertex);
   EXPECT_EQ(parse_ok("FRAG\nEND\n").processor, Processor::Fragment);
   EXPECT_EQ(parse_ok("GEOM\nEND\n").processor, Processor::Geometry);
   EXPECT_EQ(parse_ok("COMP\nEND\n").processor, Processor::Compute);
   /* tgsi_text is case-insensitive; so is sbcc. */
   EXPECT_EQ(parse_ok("frag\nend\n").processor, Processor::Fragment);
}

TEST(TgsiParse, Properties)
{
   Shader s = parse_ok("FRAG\n"
                       "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
                       "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n"
                       "PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n"
                       "PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n"
                       "PROPERTY NEXT_SHADER FRAG\n"
                       "PROPERTY NUM_CLIPDIST_ENABLED 2\n"
                       "PROPERTY FS_EARLY_DEPTH_STENCIL 1\n"
                       "PROPERTY GS_INVOCATIONS 4\n"
                       "PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
                       "PROPERTY CS_FIXED_BLOCK 8, 4,  1\n"
                       "END\n");
   ASSERT_EQ(s.properties.size(), 10u);
   EXPECT_EQ(s.properties[9].name, "CS_FIXED_BLOCK");
   EXPECT_EQ(s.properties[9].value, 8u);
   EXPECT_EQ(s.properties[9].value_text, "8, 4,  1");
   EXPECT_EQ(s.properties[0].property, Property::FsCoordOrigin);
   EXPECT_EQ(s.properties[0].value, 1u);
   EXPECT_EQ(s.properties[0].value_text, "LOWER_LEFT");
   EXPECT_EQ(s.properties[1].property, Property::FsCoordPixelCenter);
   EXPECT_EQ(s.properties[1].value, 1u);
   EXPECT_EQ(s.properties[2].value, 0u);
   EXPECT_EQ(s.properties[3].value, 0u);
   EXPECT_EQ(s.properties[4].property, Property::NextShader);
   EXPECT_EQ(s.properties[4].value, static_cast<uint32_t>(Processor::Fragment));
   EXPECT_EQ(s.properties[5].property, Property::NumClipdistEnabled);
   EXPECT_EQ(s.properties[5].value, 2u);
   EXPECT_EQ(s.properties[6].property, Property::FsEarlyDepthStencil);
   EXPECT_EQ(s.properties[6].value, 1u);
   EXPECT_EQ(s.properties[7].property, Property::Other);
   EXPECT_EQ(s.properties[7].name, "GS_INVOCATIONS");
   EXPECT_EQ(s.properties[7].value, 4u);
   EXPECT_EQ(s.properties[7].value_text, "4");
   EXPECT_EQ(s.properties[8].property, Property::Other);
   EXPECT_EQ(s.properties[8].name, "GS_OUTPUT_PRIMITIVE");
   EXPECT_EQ(s.properties[8].value_text, "TRIANGLE_STRIP");
}

TEST(TgsiParse, DeclarationRangesMasksAndSemantics)
{
   Shader s = parse_ok("FRAG\n"
                       "DCL IN[0], POSITION, LINEAR\n"
                       "DCL IN[1], COLOR, COLOR\n"
                       "DCL IN[2].xyz, GENERIC[7], PERSPECTIVE, CENTROID\n"
                       "DCL IN[3].x, FOG, PERSPECTIVE, SAMPLE\n"
                       "DCL IN[4], TEXCOORD[3], CONSTANT\n"
                       "DCL IN[5], FACE, CONSTANT\n"
                       "DCL OUT[0], COLOR[1]\n"
                       "DCL OUT[1].zw, CLIPDIST[1], INVARIANT\n"
                       "DCL TEMP[0..5]\n"
                       "DCL TEMP[6..9], ARRAY(2)\n"
                       "DCL TEMP[10], LOCAL\n"
                       "DCL CONST[1][0..238]\n"
                       "DCL CONST[0..3]\n"
                       "DCL ADDR[0..2]\n"
                       "DCL SV[0], VERTEXID\n"
                       "DCL SV[1], INSTANCEID\n"
                       "END\n");
   ASSERT_EQ(s.declarations.size(), 16u);
   const auto &d = s.declarations;
   EXPECT_EQ(d[0].semantic, Semantic::Position);
   EXPECT_EQ(d[0].interpolate, Interpolate::Linear);
   /* COLOR first is the semantic, second the interpolation mode. */
   EXPECT_EQ(d[1].semantic, Semantic::Color);
   EXPECT_EQ(d[1].interpolate, Interpolate::Color);
   EXPECT_EQ(d[2].usage_mask, WM_X | WM_Y | WM_Z);
   EXPECT_EQ(d[2].semantic_index, 7u);
   EXPECT_EQ(d[2].location, InterpLocation::Centroid);
   EXPECT_EQ(d[3].semantic, Semantic::Fog);
   EXPECT_EQ(d[3].usage_mask, WM_X);
   EXPECT_EQ(d[3].location, InterpLocation::Sample);
   EXPECT_EQ(d[4].semantic, Semantic::TexCoord);
   EXPECT_EQ(d[4].semantic_index, 3u);
   EXPECT_EQ(d[4].interpolate, Interpolate::Constant);
   EXPECT_EQ(d[5].semantic, Semantic::Face);
   EXPECT_EQ(d[6].semantic, Semantic::Color);
   EXPECT_EQ(d[6].semantic_index, 1u);
   EXPECT_EQ(d[7].usage_mask, WM_Z | WM_W);
   EXPECT_EQ(d[7].semantic, Semantic::ClipDist);
   EXPECT_TRUE(d[7].invariant);
   EXPECT_EQ(d[8].first, 0);
   EXPECT_EQ(d[8].last, 5);
   EXPECT_EQ(d[9].array_id, 2u);
   EXPECT_EQ(d[9].first, 6);
   EXPECT_EQ(d[9].last, 9);
   EXPECT_TRUE(d[10].local);
   EXPECT_EQ(d[11].file, File::Constant);
   EXPECT_EQ(d[11].dimension, std::optional<int32_t>(1));
   EXPECT_EQ(d[11].first, 0);
   EXPECT_EQ(d[11].last, 238);
   EXPECT_FALSE(d[12].dimension.has_value());
   EXPECT_EQ(d[13].file, File::Address);
   EXPECT_EQ(d[13].last, 2);
   EXPECT_EQ(d[14].file, File::SystemValue);
   EXPECT_EQ(d[14].semantic, Semantic::VertexId);
   EXPECT_EQ(d[15].semantic, Semantic::InstanceId);
   EXPECT_EQ(s.file_size(File::Temporary), 11);
}

TEST(TgsiParse, SamplerViewReturnTypes)
{
   Shader s = parse_ok("FRAG\n"
                       "DCL SVIEW[0], 2D_ARRAY, FLOAT\n"
                       "DCL SVIEW[1], SHADOWCUBE, UINT, SINT, UNORM, SNORM\n"
                       "DCL SVIEW[2..3], CUBE_ARRAY, SINT\n"
                       "END\n");
   ASSERT_EQ(s.declarations.size(), 3u);
   EXPECT_EQ(s.declarations[0].view_target, TextureTarget::Array2D);
   EXPECT_EQ(s.declarations[0].view_return[3], ReturnType::Float);
   EXPECT_EQ(s.declarations[1].view_target, TextureTarget::ShadowCube);
   EXPECT_EQ(s.declarations[1].view_return,
             (std::array<ReturnType, 4>{ReturnType::Uint, ReturnType::Sint, ReturnType::Unorm,
                                        ReturnType::Snorm}));
   EXPECT_EQ(s.declarations[2].view_target, TextureTarget::CubeArray);
   EXPECT_EQ(s.declarations[2].view_return[0], ReturnType::Sint);
   EXPECT_EQ(s.declarations[2].view_return[3], ReturnType::Sint);
}

TEST(TgsiParse, GeometryInputsIgnoreVertexBracket)
{
   Shader s = parse_ok("GEOM\nDCL IN[][0], POSITION\nDCL IN[][1..2], GENERIC[0]\n"
                       "DCL OUT[0], POSITION\nMOV OUT[0], IN[2][1]\nEND\n");
   ASSERT_EQ(s.declarations.size(), 3u);
   EXPECT_EQ(s.declarations[1].first, 1);
   EXPECT_EQ(s.declarations[1].last, 2);
   EXPECT_FALSE(s.declarations[1].dimension.has_value());
   const SrcOperand &src = s.instructions[0].src[0];
   ASSERT_TRUE(src.dimension.has_value());
   EXPECT_EQ(src.dimension->value, 2);
   EXPECT_EQ(src.index.value, 1);
}

TEST(TgsiParse, Immediates)
{
   Shader s = parse_ok("VERT\n"
                       "IMM[0] FLT32 {    1.0000,     0.0000,    -0.5000,  1024.2500}\n"
                       "IMM[1] UINT32 {1065353216, 4294967295, 0, 7}\n"
                       "IMM[2] INT32 {-1, 2147483647, -2147483648, 0}\n"
                       "IMM[3] FLT32 {1e10, -2.5E-3, 0x7fc00001}\n"
                       "IMM[4] UINT32 {0xdeadbeef}\n"
                       "IMM FLT32 {+3.0, inf, -inf, .5}\n"
                       "END\n");
   ASSERT_EQ(s.immediates.size(), 6u);
   const auto &im = s.immediates;
   EXPECT_EQ(im[0].type, ImmType::Float32);
   EXPECT_EQ(im[0].count, 4u);
   EXPECT_EQ(im[0].value, (Vec4{f2u(1.0f), f2u(0.0f), f2u(-0.5f), f2u(1024.25f)}));
   EXPECT_EQ(im[1].type, ImmType::Uint32);
   EXPECT_EQ(im[1].value, (Vec4{1065353216u, 4294967295u, 0u, 7u}));
   EXPECT_EQ(im[2].type, ImmType::Int32);
   EXPECT_EQ(im[2].value, (Vec4{0xffffffffu, 0x7fffffffu, 0x80000000u, 0u}));
   EXPECT_EQ(im[3].count, 3u);
   EXPECT_EQ(im[3].value[0], f2u(1e10f));
   EXPECT_EQ(im[3].value[1], f2u(-2.5e-3f));
   EXPECT_EQ(im[3].value[2], 0x7fc00001u); /* hex is raw bits */
   EXPECT_EQ(im[4].count, 1u);
   EXPECT_EQ(im[4].value[0], 0xdeadbeefu);
   EXPECT_EQ(im[5].value, (Vec4{f2u(3.0f), 0x7f800000u, 0xff800000u, f2u(0.5f)}));
   EXPECT_EQ(im[5].loc.line, 7u);
}

TEST(TgsiParse, LabelsSuffixesAndMasks)
{
   Shader s = parse_ok("VERT\nDCL TEMP[0..1]\n"
                       "  0: MUL_SAT TEMP[0].xz, TEMP[1].x, TEMP[1].wzyx\n"
                       "FSLT_PRECISE TEMP[0].w, TEMP[1], TEMP[1]\n"
                       "7 : ADD_SAT_PRECISE TEMP[0].y, TEMP[1], TEMP[1]\n"
                       "DDX_FINE TEMP[0], TEMP[1]\n"
                       "END\n");
   ASSERT_EQ(s.instructions.size(), 5u);
   const Instruction &mul = s.instructions[0];
   EXPECT_EQ(mul.opcode, Opcode::MUL);
   EXPECT_TRUE(mul.saturate);
   EXPECT_FALSE(mul.precise);
   EXPECT_EQ(mul.dst[0].write_mask, WM_X | WM_Z);
   EXPECT_EQ(mul.src[0].swizzle, (Swizzle{SWZ_X, SWZ_X, SWZ_X, SWZ_X}));
   EXPECT_EQ(mul.src[1].swizzle, (Swizzle{SWZ_W, SWZ_Z, SWZ_Y, SWZ_X}));
   const Instruction &fslt = s.instructions[1];
   EXPECT_EQ(fslt.opcode, Opcode::FSLT);
   EXPECT_TRUE(fslt.precise);
   EXPECT_FALSE(fslt.saturate);
   EXPECT_EQ(fslt.loc.column, 1u);
   EXPECT_EQ(s.instructions[2].opcode, Opcode::ADD);
   EXPECT_TRUE(s.instructions[2].saturate);
   EXPECT_TRUE(s.instructions[2].precise);
   EXPECT_EQ(s.instructions[3].opcode, Opcode::DDX_FINE);
   EXPECT_FALSE(s.instructions[3].saturate);
}

TEST(TgsiParse, SourceModifiers)
{
   Instruction i = parse_inst("MAD TEMP[0], -TEMP[1].yyyy, |TEMP[2]|, -|TEMP[3].zwxy|");
   ASSERT_EQ(i.src.size(), 3u);
   EXPECT_TRUE(i.src[0].negate);
   EXPECT_FALSE(i.src[0].absolute);
   EXPECT_FALSE(i.src[1].negate);
   EXPECT_TRUE(i.src[1].absolute);
   EXPECT_TRUE(i.src[2].negate);
   EXPECT_TRUE(i.src[2].absolute);
   EXPECT_EQ(i.src[2].swizzle, (Swizzle{SWZ_Z, SWZ_W, SWZ_X, SWZ_Y}));
   EXPECT_EQ(i.src[2].index.value, 3);
}

TEST(TgsiParse, TwoDimensionalAndIndirectOperands)
{
   Instruction i = parse_inst("MAD TEMP[0], CONST[1][4], CONST[1][ADDR[0].x], CONST[1][ADDR[1].y-2]");
   ASSERT_EQ(i.src.size(), 3u);
   ASSERT_TRUE(i.src[0].dimension.has_value());
   EXPECT_EQ(i.src[0].dimension->value, 1);
   EXPECT_FALSE(i.src[0].dimension->indirect.has_value());
   EXPECT_EQ(i.src[0].index.value, 4);
   ASSERT_TRUE(i.src[1].index.indirect.has_value());
   EXPECT_EQ(i.src[1].index.indirect->file, File::Address);
   EXPECT_EQ(i.src[1].index.indirect->index, 0);
   EXPECT_EQ(i.src[1].index.indirect->swizzle, SWZ_X);
   EXPECT_EQ(i.src[1].index.value, 0);
   EXPECT_EQ(i.src[2].index.indirect->index, 1);
   EXPECT_EQ(i.src[2].index.indirect->swizzle, SWZ_Y);
   EXPECT_EQ(i.src[2].index.value, -2);

   Instruction j = parse_inst("MOV TEMP[ADDR[0].x+3], TEMP[ADDR[1].w+12](1)");
   ASSERT_TRUE(j.dst[0].index.indirect.has_value());
   EXPECT_EQ(j.dst[0].index.value, 3);
   EXPECT_EQ(j.src[0].index.value, 12);
   EXPECT_EQ(j.src[0].index.indirect->swizzle, SWZ_W);
   EXPECT_EQ(j.src[0].index.indirect->array_id, 1u);
   EXPECT_EQ(j.src[0].array_id, 1u);

   Instruction k = parse_inst("MOV TEMP[0], CONST[ADDR[0].x][2]");
   ASSERT_TRUE(k.src[0].dimension.has_value());
   ASSERT_TRUE(k.src[0].dimension->indirect.has_value());
   EXPECT_EQ(k.src[0].index.value, 2);

   /* An indirect index read from a temporary, as TGSI allows. */
   Instruction t = parse_inst("MOV TEMP[0], IMM[TEMP[1].z]");
   EXPECT_EQ(t.src[0].file, File::Immediate);
   EXPECT_EQ(t.src[0].index.indirect->file, File::Temporary);
   EXPECT_EQ(t.src[0].index.indirect->swizzle, SWZ_Z);

   Instruction g = parse_inst("MOV OUT[0], IN[1][2].xxxx", Processor::Geometry);
   EXPECT_EQ(g.src[0].dimension->value, 1);
   EXPECT_EQ(g.src[0].index.value, 2);
}

TEST(TgsiParse, TextureInstructions)
{
   Instruction tex = parse_inst("TEX TEMP[0], IN[0].xyyy, SAMP[1], SHADOW2D");
   EXPECT_EQ(tex.tex_target, TextureTarget::Shadow2D);
   EXPECT_EQ(tex.src[1].index.value, 1);
   EXPECT_TRUE(tex.tex_offsets.empty());

   Instruction txq = parse_inst("TXQ TEMP[2].xy, IMM[0].zzzz, SAMP[0], 2D");
   EXPECT_EQ(txq.opcode, Opcode::TXQ);
   EXPECT_EQ(txq.dst[0].write_mask, WM_X | WM_Y);
   ASSERT_EQ(txq.src.size(), 2u);
   EXPECT_EQ(txq.src[0].file, File::Immediate);

   Instruction txd = parse_inst("TXD TEMP[1], TEMP[2], TEMP[0].xyxx, TEMP[1].xyxx, SAMP[0], 2D");
   EXPECT_EQ(txd.src.size(), 4u);
   EXPECT_EQ(txd.src[3].file, File::Sampler);

   Instruction off = parse_inst("TXF TEMP[0], TEMP[1], SAMP[0], 2D_ARRAY, IMM[0].xyz, IMM[0].zzx");
   EXPECT_EQ(off.tex_target, TextureTarget::Array2D);
   ASSERT_EQ(off.tex_offsets.size(), 2u);
   EXPECT_EQ(off.tex_offsets[0].file, File::Immediate);
   EXPECT_EQ(off.tex_offsets[0].index, 0);
   EXPECT_EQ(off.tex_offsets[1].swizzle, (std::array<uint8_t, 3>{SWZ_Z, SWZ_Z, SWZ_X}));

   Instruction txp = parse_inst("TXP TEMP[0], TEMP[1], SAMP[0], RECT");
   EXPECT_EQ(txp.tex_target, TextureTarget::Rect);

   Instruction unk = parse_inst("TEX TEMP[0], TEMP[1], SAMP[0], UNKNOWN");
   EXPECT_EQ(unk.tex_target, TextureTarget::Unknown);
}

TEST(TgsiParse, ControlFlowWithLabels)
{
   Shader s = parse_ok("FRAG\nDCL TEMP[0..9]\nDCL OUT[0], COLOR\n"
                       "  0: UIF TEMP[9].xxxx :90\n"
                       "  1:   MOV TEMP[0], TEMP[1]\n"
                       "  2: ELSE :100\n"
                       "  3:   BGNLOOP :12\n"
                       "  4:     IF TEMP[2].yyyy\n"
                       "  5:       BRK\n"
                       "  6:     ENDIF\n"
                       "  7:     CONT\n"
                       "  8:   ENDLOOP :5\n"
                       "  9: ENDIF\n"
                       " 10: KILL_IF -TEMP[0]\n"
                       " 11: KILL\n"
                       " 12: END\n");
   const auto &in = s.instructions;
   ASSERT_EQ(in.size(), 13u);
   EXPECT_EQ(in[0].opcode, Opcode::UIF);
   EXPECT_EQ(in[0].label, std::optional<uint32_t>(90));
   EXPECT_EQ(in[0].src[0].index.value, 9);
   EXPECT_EQ(in[2].label, std::optional<uint32_t>(100));
   EXPECT_EQ(in[3].label, std::optional<uint32_t>(12));
   EXPECT_FALSE(in[4].label.has_value());
   EXPECT_EQ(in[8].label, std::optional<uint32_t>(5));
   EXPECT_EQ(in[10].opcode, Opcode::KILL_IF);
   EXPECT_TRUE(in[10].src[0].negate);
   EXPECT_EQ(in[11].opcode, Opcode::KILL);
}

TEST(TgsiParse, CommentsBlankLinesAndCrLf)
{
   Shader s = parse_ok("# a comment before the header\r\n"
                       "\r\n"
                       "VERT   ; trailing comment\r\n"
                       "DCL TEMP[0]\t# tab before comment\r\n"
                       "   \t\r\n"
                       "MOV TEMP[0], TEMP[0]\r\n"
                       "END");
   EXPECT_EQ(s.declarations.size(), 1u);
   ASSERT_EQ(s.instructions.size(), 2u);
   EXPECT_EQ(s.instructions[0].loc.line, 6u);
}

TEST(TgsiParse, LowercaseAndSpacing)
{
   Shader s = parse_ok("vert\ndcl temp[ 0 .. 1 ]\ndcl const[0]\n"
                       "mad_sat temp[ 0 ].xy , -| temp[1] . zzzz | , const [0], temp[1]\nend\n");
   ASSERT_EQ(s.instructions.size(), 2u);
   const Instruction &mad = s.instructions[0];
   EXPECT_EQ(mad.opcode, Opcode::MAD);
   EXPECT_TRUE(mad.saturate);
   EXPECT_EQ(mad.dst[0].write_mask, WM_X | WM_Y);
   EXPECT_TRUE(mad.src[0].negate && mad.src[0].absolute);
   EXPECT_EQ(mad.src[0].swizzle, (Swizzle{SWZ_Z, SWZ_Z, SWZ_Z, SWZ_Z}));
   EXPECT_EQ(mad.src[1].file, File::Constant);
}

TEST(TgsiParse, DeclarationsMayFollowUses)
{
   /* TGSI does not order declarations before instructions; the checks run
    * over the finished shader. */
   Shader s = parse_ok("VERT\nMOV TEMP[0], IMM[0]\nDCL TEMP[0]\nIMM[0] FLT32 {1.0, 2.0, 3.0, 4.0}\nEND\n");
   EXPECT_EQ(s.instructions.size(), 2u);
}

TEST(TgsiParse, ManyLargeDeclarationsAndUses)
{
   /* Declaration checks must not scan every DCL per operand (or fill every
    * declared index): 20000 full-range DCLs and 20000 uses parse quickly. */
   std::string text = "VERT\n";
   for (int i = 0; i < 20000; i++)
      text += "DCL TEMP[0..65535]\n";
   for (int i = 0; i < 20000; i++)
      text += "MOV TEMP[" + std::to_string(65535 - i) + "], TEMP[" + std::to_string(i) + "]\n";
   text += "END\n";
   Shader s = parse_ok(text);
   ASSERT_EQ(s.instructions.size(), 20001u);
   EXPECT_EQ(s.instructions[19999].dst[0].index.value, 45536);
   EXPECT_EQ(s.file_size(File::Temporary), 65536);
}

TEST(TgsiParse, EmptyShaderWithOnlyEnd)
{
   Shader s = parse_ok("COMP\n  0: END\n");
   ASSERT_EQ(s.instructions.size(), 1u);
   EXPECT_TRUE(s.declarations.empty());
}

} // namespace
