#include <gtest/gtest.h>

#include "driver/target.h"
#include "runner/shader_run.h"

using namespace sbcc;
using namespace sbcc::runner;

namespace {

struct Outcome {
   TestStatus status;
   std::vector<std::string> messages;
   std::string diags;
};

Outcome run(const std::string &text)
{
   Diagnostics d;
   auto target = make_target("reference", d);
   EXPECT_TRUE(target) << d.str();
   CompileOptions opts;
   StageCompiler compile = [&](const tgsi::Shader &s, Diagnostics &dd) {
      return target->compile(s, opts, dd, nullptr);
   };
   auto t = parse_shader_test(text, "t.shader_test", d);
   if (!t)
      return {TestStatus::Error, {}, d.str()};
   TestResult r = run_shader_test(*t, compile, {}, d);
   return {r.status, r.messages, d.str()};
}

const char *kConstColorFs = "[fragment shader tgsi]\n"
                            "FRAG\n"
                            "DCL OUT[0], COLOR\n"
                            "IMM[0] FLT32 {    0.0000,     0.5000,     1.0000,     0.2500}\n"
                            "  0: MOV OUT[0], IMM[0]\n"
                            "  1: END\n";

} // namespace

TEST(RunTest, ConstantColorPasses)
{
   Outcome o = run(std::string(kConstColorFs) +
                   "[test]\nclear color 1 0 0 1\nclear\ndraw rect -1 -1 2 2\n"
                   "probe all rgba 0 0.5 1 0.25\nprobe rgb 10 10 0 0.5 1\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   EXPECT_TRUE(o.messages.empty());
}

TEST(RunTest, FailingProbeReportsExpectedAndObserved)
{
   Outcome o = run(std::string(kConstColorFs) +
                   "[test]\nclear color 1 0 0 1\nclear\ndraw rect -1 -1 1 2\n"
                   "probe rgba 200 100 0 0.5 1 0.25\n"
                   "relative probe rgb (0.25, 0.5) (0, 0.5, 1)\n");
   EXPECT_EQ(o.status, TestStatus::Fail) << o.diags;
   ASSERT_EQ(o.messages.size(), 1u);
   EXPECT_EQ(o.messages[0], "t.shader_test:11: probe at (200, 100) failed: expected "
                            "(0, 0.5, 1, 0.25), observed (1, 0, 0, 1)");
}

TEST(RunTest, ProbeTolerance)
{
   /* 0.5 is stored as 128/255 = 0.50196; the tolerance is 0.01. */
   auto with_green = [](const char *g) {
      return run(std::string(kConstColorFs) + "[test]\ndraw rect -1 -1 2 2\nprobe all rgb 0 " +
                 g + " 1\n")
         .status;
   };
   EXPECT_EQ(with_green("0.511"), TestStatus::Pass);
   EXPECT_EQ(with_green("0.493"), TestStatus::Pass);
   EXPECT_EQ(with_green("0.513"), TestStatus::Fail);
   EXPECT_EQ(with_green("0.491"), TestStatus::Fail);
}

TEST(RunTest, UnsupportedRequirementSkips)
{
   Outcome o = run("[require]\nGL >= 1.3\nGL_NV_fragment_program_option\n" +
                   std::string(kConstColorFs) + "[test]\ndraw rect -1 -1 2 2\n");
   EXPECT_EQ(o.status, TestStatus::Skip);
   ASSERT_EQ(o.messages.size(), 1u);
   EXPECT_EQ(o.messages[0], "GL_NV_fragment_program_option is not supported");
   EXPECT_EQ(run("[require]\nGL >= 4.5\n" + std::string(kConstColorFs)).messages,
             std::vector<std::string>{"GL 4.5 is not supported"});
}

TEST(RunTest, ExtensionTheTargetLacksSkips)
{
   /* Targets name the extensions they cannot provide (R600/R700: no fine
    * derivatives); a test requiring one is skipped there, run elsewhere. */
   const std::string text = "[require]\nGL_ARB_derivative_control\n" +
                            std::string(kConstColorFs) +
                            "[test]\ndraw rect -1 -1 2 2\nprobe all rgb 0 0.5 1\n";
   Diagnostics d;
   auto t = parse_shader_test(text, "t.shader_test", d);
   ASSERT_TRUE(t) << d.str();
   for (const char *name : {"evergreen", "r700"}) {
      auto target = make_target(name, d);
      ASSERT_TRUE(target) << d.str();
      CompileOptions opts;
      StageCompiler compile = [&](const tgsi::Shader &s, Diagnostics &dd) {
         return target->compile(s, opts, dd, nullptr);
      };
      RunOptions ro;
      ro.missing_extensions = target->missing_extensions(opts);
      TestResult r = run_shader_test(*t, compile, ro, d);
      if (std::string(name) == "r700") {
         EXPECT_EQ(r.status, TestStatus::Skip);
         EXPECT_EQ(r.messages, std::vector<std::string>{"GL_ARB_derivative_control is not supported"});
      } else {
         EXPECT_EQ(r.status, TestStatus::Pass) << d.str();
      }
   }
   CompileOptions eg_as_rv770;
   eg_as_rv770.chip = "RV770";
   EXPECT_EQ(make_target("evergreen", d)->missing_extensions(eg_as_rv770),
             std::vector<std::string>{"GL_ARB_derivative_control"});
}

TEST(RunTest, TgsiVertexStageAndUniforms)
{
   Outcome o = run("[vertex shader tgsi]\n"
                   "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\n"
                   "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n"
                   "[fragment shader tgsi]\n"
                   "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nDCL CONST[0..1]\n"
                   "DCL TEMP[0]\n  0: MUL TEMP[0], IN[0], CONST[1]\n"
                   "  1: ADD OUT[0], TEMP[0], CONST[0]\n  2: END\n"
                   "[test]\nuniform vec4 0 0.25 0 0 0\nconstant 1 (1, 0.5, 0.5, 1)\n"
                   "color 0.5 1 0.5 1\ndraw rect -1 -1 2 1\n"
                   "probe rgba 100 50 0.75 0.5 0.25 1\nprobe rgba 100 200 0 0 0 0\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
}

TEST(RunTest, KillKeepsTheClearColor)
{
   Outcome o = run("[fragment shader tgsi]\n"
                   "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nDCL IN[0], POSITION, LINEAR\n"
                   "DCL OUT[0], COLOR\nDCL TEMP[0]\n"
                   "IMM[0] FLT32 {  125.0000,     0.0000,     1.0000,     0.0000}\n"
                   "  0: ADD TEMP[0].x, IN[0].xxxx, -IMM[0].xxxx\n"
                   "  1: KILL_IF TEMP[0].xxxx\n"
                   "  2: MOV OUT[0], IMM[0].yzyz\n  3: END\n"
                   "[test]\nclear color 0.2 0.4 0.6 0.8\nclear\ndraw rect -1 -1 2 2\n"
                   "probe rgba 124 10 0.2 0.4 0.6 0.8\nprobe rgba 125 10 0 1 0 1\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
}

TEST(RunTest, TextureRgbw)
{
   Outcome o = run("[vertex shader tgsi]\n"
                   "VERT\nDCL IN[0]\nDCL IN[2]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
                   "  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[2]\n  2: END\n"
                   "[fragment shader tgsi]\n"
                   "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
                   "DCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n"
                   "[test]\ntexture rgbw 0 (8, 8)\ndraw rect tex -1 -1 2 2 0 0 1 1\n"
                   "relative probe rgb (0.25, 0.25) (1, 0, 0)\n"
                   "relative probe rgb (0.75, 0.25) (0, 1, 0)\n"
                   "relative probe rgb (0.25, 0.75) (0, 0, 1)\n"
                   "relative probe rgb (0.75, 0.75) (1, 1, 1)\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
}

TEST(RunTest, ArbFragmentProgramWithPassthroughVertexStage)
{
   Outcome o = run("[require]\nGL_ARB_fragment_program\n"
                   "[fragment program]\n!!ARBfp1.0\nPARAM k = program.local[2];\n"
                   "MUL result.color, fragment.color, k;\nEND\n"
                   "[test]\ncolor 1 0.5 0.25 1\nparameter local_fp 2 (0.5, 1, 1, 1)\n"
                   "draw rect -1 -1 2 2\nprobe all rgba 0.5 0.5 0.25 1\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
}

TEST(RunTest, ArbVertexProgramWithOrthoMvp)
{
   /* With `ortho`, draw rect coordinates are window pixels through
    * state.matrix.mvp; only the left half is drawn. */
   Outcome o = run("[vertex program]\n!!ARBvp1.0\nPARAM mvp[4] = { state.matrix.mvp };\n"
                   "DP4 result.position.x, mvp[0], vertex.position;\n"
                   "DP4 result.position.y, mvp[1], vertex.position;\n"
                   "DP4 result.position.z, mvp[2], vertex.position;\n"
                   "DP4 result.position.w, mvp[3], vertex.position;\n"
                   "MOV result.color, program.env[0];\nEND\n"
                   "[test]\northo\nparameter env_vp 0 (0, 1, 0, 1)\n"
                   "draw rect 0 0 125 250\n"
                   "probe rgba 124 10 0 1 0 1\nprobe rgba 125 10 0 0 0 0\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
}

TEST(RunTest, StageErrorsUseFileLines)
{
   Outcome o = run("# header\n[fragment shader tgsi]\nFRAG\nDCL OUT[0], COLOR\n"
                   "  0: FROB OUT[0], IN[0]\n  1: END\n[test]\ndraw rect -1 -1 2 2\n");
   EXPECT_EQ(o.status, TestStatus::Error);
   EXPECT_EQ(o.diags.rfind("t.shader_test:5:", 0), 0u) << o.diags;
}

TEST(RunTest, MissingPositionIsAnError)
{
   Outcome o = run("[vertex shader tgsi]\nVERT\nDCL OUT[0], GENERIC[0]\n  0: END\n"
                   "[test]\ndraw rect -1 -1 2 2\n");
   EXPECT_EQ(o.status, TestStatus::Error);
   EXPECT_EQ(o.diags, "t.shader_test:6:1: error: the vertex stage writes no POSITION output\n");
}

TEST(RunTest, MutatedTestsNeverCrash)
{
   /* Deterministic byte mutations of a test using most commands: whatever
    * parses must run to a status without crashing or hanging. */
   const std::string base =
      "[require]\nGL >= 1.3\n"
      "[vertex shader tgsi]\nVERT\nDCL IN[0]\nDCL IN[2]\nDCL OUT[0], POSITION\n"
      "DCL OUT[1], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[2]\n  2: END\n"
      "[fragment shader tgsi]\nFRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
      "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL CONST[0]\nDCL TEMP[0]\n"
      "  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n  1: MUL OUT[0], TEMP[0], CONST[0]\n  2: END\n"
      "[test]\nclear color 0.1 0.2 0.3 0.4\nclear\ntexture rgbw 0 (4, 4)\n"
      "texparameter 2D min linear\nuniform vec4 0 1 1 1 1\northo\n"
      "draw rect tex -1 -1 2 2 0 0 1 1\nprobe all rgba 1 1 1 1\n";
   uint64_t s = 12345;
   auto next = [&s] {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      return uint32_t(s >> 33);
   };
   unsigned ran = 0;
   for (int iter = 0; iter < 300; iter++) {
      std::string t = base;
      for (int m = 0; m < 1 + iter % 2; m++) {
         size_t pos = next() % t.size();
         switch (next() % 3) {
         case 0: t[pos] = char(next() % 128); break;
         case 1: t.erase(pos, 1 + next() % 4); break;
         default: t.insert(pos, 1, "0123456789-.,( )e[]"[next() % 19]); break;
         }
      }
      Outcome o = run(t);
      if (o.status != TestStatus::Error)
         ran++;

   }
   EXPECT_GE(ran, 10u); /* most mutations break parsing; 14 of 300 run */
}

TEST(RunTest, ArbGlStateDefaults)
{
   /* light 0 diffuse (1,1,1,1) * front material diffuse (0.8,0.8,0.8,1);
    * fog params (density 1, start 0, end 1, 1/(end-start) 1) scaled. */
   Outcome o = run("[vertex program]\n!!ARBvp1.0\n"
                   "PARAM p = state.lightprod[0].front.diffuse;\n"
                   "PARAM f = state.fog.params;\n"
                   "MOV result.position, vertex.position;\n"
                   "MUL result.color.xyz, p, 0.5;\n"
                   "MUL result.color.w, f.z, 0.5;\nEND\n"
                   "[test]\ndraw rect -1 -1 2 2\nprobe all rgba 0.4 0.4 0.4 0.5\n");
   EXPECT_EQ(o.status, TestStatus::Pass) << o.diags;
   for (const auto &m : o.messages)
      ADD_FAILURE() << m;
   Outcome bad = run("[vertex program]\n!!ARBvp1.0\nPARAM p = state.light[9].diffuse;\n"
                     "MOV result.position, vertex.position;\nMOV result.color, p;\nEND\n"
                     "[test]\ndraw rect -1 -1 2 2\n");
   EXPECT_EQ(bad.status, TestStatus::Error);
}
