#include <gtest/gtest.h>

#include "runner/shader_test.h"

using namespace sbcc;
using namespace sbcc::runner;

namespace {

std::vector<std::string> commands(const std::string &test_section)
{
   Diagnostics d;
   std::string text = "[fragment shader tgsi]\nFRAG\nEND\n[test]\n" + test_section;
   auto t = parse_shader_test(text, "t.shader_test", d);
   EXPECT_TRUE(t.has_value()) << d.str();
   std::vector<std::string> out;
   if (t)
      for (const auto &c : t->commands)
         out.push_back(command_str(c));
   return out;
}

/* The first diagnostic for a one-line [test] section (at file line 5). */
std::string error_of(const std::string &line)
{
   Diagnostics d;
   std::string text = "[fragment shader tgsi]\nFRAG\nEND\n[test]\n" + line + "\n";
   auto t = parse_shader_test(text, "t.shader_test", d);
   EXPECT_FALSE(t.has_value());
   return d.all().empty() ? std::string() : d.all()[0].str();
}

} // namespace

TEST(ShaderTestParse, Sections)
{
   Diagnostics d;
   auto t = parse_shader_test("# comment\n[require]\nGL >= 1.3\nGL_ARB_fragment_program\n\n"
                              "[vertex shader tgsi]\nVERT\nEND\n"
                              "[fragment program]\n!!ARBfp1.0\nEND\n[test]\nclear\n",
                              "a.shader_test", d);
   ASSERT_TRUE(t.has_value()) << d.str();
   ASSERT_EQ(t->requirements.size(), 2u);
   EXPECT_EQ(t->requirements[0].text, "GL >= 1.3");
   EXPECT_EQ(t->requirements[0].loc.line, 3u);
   EXPECT_EQ(t->requirements[1].text, "GL_ARB_fragment_program");
   ASSERT_EQ(t->stages.size(), 2u);
   EXPECT_EQ(t->stages[0].kind, StageKind::TgsiVertex);
   EXPECT_EQ(t->stages[0].text, "VERT\nEND\n");
   EXPECT_EQ(t->stages[0].first_line, 7u);
   EXPECT_EQ(t->stages[1].kind, StageKind::ArbFragment);
   EXPECT_EQ(t->stages[1].text, "!!ARBfp1.0\nEND\n");
   EXPECT_EQ(t->stages[1].first_line, 10u);
   ASSERT_EQ(t->commands.size(), 1u);
   EXPECT_EQ(t->commands[0].loc.line, 13u);
}

TEST(ShaderTestParse, Commands)
{
   auto c = commands("clear color 0.0 0.5 1 1\n"
                     "clear\n"
                     "# a comment\n"
                     "parameter env_vp 3 (1.0, 2.0, 3.0, 4.0)\n"
                     "parameter local_fp 0 (0.5, 0.25, 0, 1)\n"
                     "uniform vec4 2 1 2 3 4\n"
                     "uniform ivec2 1 -1 7\n"
                     "uniform uint 0 0xffffffff\n"
                     "constant 1 5 (0.5, 0.5, 0.5, 1)\n"
                     "texture rgbw 0 (8, 8)\n"
                     "texture checkerboard 1 0 (32, 32) (1, 0, 0, 1) (0, 0, 1, 1)\n"
                     "texture miptree 2\n"
                     "texture shadow2D 3 (16, 16)\n"
                     "texture shadow1D 4 (8)\n"
                     "texparameter 2D compare_func greater\n"
                     "draw rect -1 -1 2 2\n"
                     "draw rect ortho 0 0 125 250\n"
                     "draw rect tex -1 -1 2 2 0 0 1 1\n"
                     "ortho\n"
                     "ortho -1 1 -2 2\n"
                     "color 0.25 0.5 0.75 1\n"
                     "texcoord 1 (0.5, 0.5, 0, 1)\n"
                     "probe rgba 10 20 0.0 1.0 0.0 1.0\n"
                     "probe rgb 0 249 1 0 0\n"
                     "relative probe rgba (0.5, 0.25) (1, 1, 1, 1)\n"
                     "relative probe rgb (0.1, 0.9) (0, 0, 0)\n"
                     "probe all rgba 0 0 0 0\n"
                     "probe all rgb 1 1 1\n"
                     "probe rect rgba (0, 0, 10, 20) (0, 1, 0, 1)\n");
   std::vector<std::string> expected = {
      "clear color (0, 0.5, 1, 1)",
      "clear",
      "parameter env_vp 3 (1, 2, 3, 4)",
      "parameter local_fp 0 (0.5, 0.25, 0, 1)",
      "constant 0 2 (0x3f800000, 0x40000000, 0x40400000, 0x40800000)",
      "constant 0 1 (0xffffffff, 0x00000007)",
      "constant 0 0 (0xffffffff)",
      "constant 1 5 (0x3f000000, 0x3f000000, 0x3f000000, 0x3f800000)",
      "texture rgbw 0 (8, 8)",
      "texture checkerboard 1 level 0 (32, 32) (1, 0, 0, 1) (0, 0, 1, 1)",
      "texture miptree 2",
      "texture shadow2D 3 (16, 16)",
      "texture shadow1D 4 (8, 1)",
      "texparameter 2D compare_func greater",
      "draw rect (-1, -1, 2, 2)",
      "draw rect ortho (0, 0, 125, 250)",
      "draw rect (-1, -1, 2, 2) tex (0, 0, 1, 1)",
      "ortho",
      "ortho (-1, 1, -2, 2)",
      "color (0.25, 0.5, 0.75, 1)",
      "texcoord 1 (0.5, 0.5, 0, 1)",
      "probe 10 20 rgba (0, 1, 0, 1)",
      "probe 0 249 rgb (1, 0, 0)",
      "relative probe (0.5, 0.25) rgba (1, 1, 1, 1)",
      "relative probe (0.1, 0.9) rgb (0, 0, 0)",
      "probe all rgba (0, 0, 0, 0)",
      "probe all rgb (1, 1, 1)",
      "probe rect (0, 0, 10, 20) rgba (0, 1, 0, 1)",
   };
   EXPECT_EQ(c, expected);
}

TEST(ShaderTestParse, MalformedCommands)
{
   EXPECT_EQ(error_of("frobnicate 1 2"), "t.shader_test:5:1: error: unknown command 'frobnicate'");
   EXPECT_EQ(error_of("  clear color 1 0 0"),
             "t.shader_test:5:20: error: expected a color component");
   EXPECT_EQ(error_of("clear colour 1 0 0 1"),
             "t.shader_test:5:7: error: expected 'color', got 'colour'");
   EXPECT_EQ(error_of("clear color 1 0 x 1"),
             "t.shader_test:5:17: error: expected a color component, got 'x'");
   EXPECT_EQ(error_of("clear color 1 0 0 1 5"),
             "t.shader_test:5:21: error: unexpected '5' at end of command");
   EXPECT_EQ(error_of("parameter env 0 (1, 2, 3, 4)"),
             "t.shader_test:5:11: error: unknown parameter space 'env' (expected env_vp, "
             "env_fp, local_vp or local_fp)");
   EXPECT_EQ(error_of("parameter env_fp 300 (1, 2, 3, 4)"),
             "t.shader_test:5:18: error: a parameter index 300 out of range [0, 255]");
   EXPECT_EQ(error_of("uniform mat4 0 1"),
             "t.shader_test:5:9: error: unsupported uniform type 'mat4'");
   EXPECT_EQ(error_of("uniform int 0 1.5"),
             "t.shader_test:5:15: error: expected an integer uniform component, got '1.5'");
   EXPECT_EQ(error_of("texture noise 0 (8, 8)"),
             "t.shader_test:5:9: error: unsupported texture kind 'noise'");
   EXPECT_EQ(error_of("texture rgbw 0 (0, 8)"),
             "t.shader_test:5:17: error: a texture width 0 out of range [1, 4096]");
   EXPECT_EQ(error_of("texparameter 2D lod_bias 1"),
             "t.shader_test:5:17: error: unknown texture parameter 'lod_bias'");
   EXPECT_EQ(error_of("texparameter 4D min nearest"),
             "t.shader_test:5:14: error: unknown texture target '4D'");
   EXPECT_EQ(error_of("draw quad 0 0 1 1"), "t.shader_test:5:6: error: expected 'rect', got 'quad'");
   EXPECT_EQ(error_of("draw rect 0 0 1"), "t.shader_test:5:16: error: expected a rectangle coordinate");
   EXPECT_EQ(error_of("probe rgba 250 0 1 1 1 1"),
             "t.shader_test:5:12: error: a pixel x coordinate 250 out of range [0, 249]");
   EXPECT_EQ(error_of("probe rgbx 1 1 1 1 1 1"),
             "t.shader_test:5:7: error: expected 'rgba' or 'rgb', got 'rgbx'");
   EXPECT_EQ(error_of("probe rgb 1 1 1 1 1 1"),
             "t.shader_test:5:21: error: unexpected '1' at end of command");
   EXPECT_EQ(error_of("relative probe rgba (1.5, 0) (1, 1, 1, 1)"),
             "t.shader_test:5:1: error: relative probe coordinates must be in [0, 1]");
   EXPECT_EQ(error_of("relative rgba (0, 0) (1, 1, 1, 1)"),
             "t.shader_test:5:10: error: expected 'probe', got 'rgba'");
   EXPECT_EQ(error_of("probe rect rgba (200, 0, 60, 1) (1, 1, 1, 1)"),
             "t.shader_test:5:1: error: probe rectangle exceeds the 250x250 window");
   EXPECT_EQ(error_of("texcoord 8 (0, 0, 0, 1)"),
             "t.shader_test:5:10: error: a texcoord set 8 out of range [0, 7]");
   EXPECT_EQ(error_of("color 1 1 1 nan"), "t.shader_test:5:13: error: expected a color component, got 'nan'");
}

TEST(ShaderTestParse, MalformedStructure)
{
   Diagnostics d;
   EXPECT_FALSE(parse_shader_test("stray text\n[fragment shader tgsi]\nFRAG\nEND\n", "s.shader_test", d));
   ASSERT_EQ(d.all().size(), 1u);
   EXPECT_EQ(d.all()[0].str(), "s.shader_test:1:1: error: text outside of any section");

   d.clear();
   EXPECT_FALSE(parse_shader_test("[fragment shader]\nvoid main() {}\n", "s.shader_test", d));
   ASSERT_EQ(d.all().size(), 2u);
   EXPECT_EQ(d.all()[0].str(), "s.shader_test:1:1: error: unsupported section '[fragment shader]'");
   EXPECT_EQ(d.all()[1].str(), "s.shader_test:1:1: error: no shader stage section");

   d.clear();
   EXPECT_FALSE(parse_shader_test("[test\n", "s.shader_test", d));
   EXPECT_EQ(d.all()[0].str(), "s.shader_test:1:1: error: malformed section header (missing ']')");

   d.clear();
   EXPECT_FALSE(parse_shader_test("[require]\nGL 2.1\n[fragment program]\nEND\n", "s.shader_test", d));
   ASSERT_EQ(d.all().size(), 1u);
   EXPECT_EQ(d.all()[0].str(), "s.shader_test:2:1: error: malformed requirement 'GL 2.1'");

   d.clear();
   EXPECT_FALSE(parse_shader_test("[fragment program]\nEND\n[fragment shader tgsi]\nFRAG\n",
                                  "s.shader_test", d));
   ASSERT_EQ(d.all().size(), 1u);
   EXPECT_EQ(d.all()[0].str(), "s.shader_test:3:1: error: more than one fragment stage");
}

TEST(ShaderTestParse, ArbitraryBytesNeverCrash)
{
   std::string junk;
   for (int i = 0; i < 2000; i++)
      junk.push_back(char((i * 7919) % 256));
   Diagnostics d;
   std::string text = "[test]\n" + junk + "\n[fragment shader tgsi]\n" + junk;
   EXPECT_FALSE(parse_shader_test(text, "j", d).has_value());
   EXPECT_TRUE(d.has_errors());
}
