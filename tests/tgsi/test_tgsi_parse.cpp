/*
 * parse_tgsi on valid input: each construct of tgsi_dump's syntax lands in
 * the expected IR fields.
 */
#include <gtest/gtest.h>

#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

Shader parse_ok(std::string_view text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "t.tgsi", diags);
   EXPECT_TRUE(s.has_value()) << diags.str();
   EXPECT_EQ(diags.str(), "");
   return s ? std::move(*s) : Shader{};
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
   EXPECT_EQ(in.interpolate, Interpolate::Perspective);
   EXPECT_EQ(s.declarations[3].view_target, TextureTarget::Tex2D);
   ASSERT_EQ(s.instructions.size(), 2u);
   const Instruction &tex = s.instructions[0];
   EXPECT_EQ(tex.opcode, Opcode::TEX);
   EXPECT_EQ(tex.tex_target, TextureTarget::Tex2D);
   ASSERT_EQ(tex.src.size(), 2u);
   EXPECT_EQ(tex.src[0].swizzle, (std::array<uint8_t, 4>{SWZ_X, SWZ_Y, SWZ_Y, SWZ_Y}));
   EXPECT_EQ(tex.src[1].file, File::Sampler);
   EXPECT_EQ(tex.loc.line, 7u);
   EXPECT_EQ(tex.loc.column, 6u);
}

} // namespace
