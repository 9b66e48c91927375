/* Runs the built `sbcc` binary and checks its exact output and exit status. */
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct CliRun {
   int rc;
   std::string out, err;
};

std::string slurp(const std::string &path)
{
   std::ifstream in(path);
   std::stringstream ss;
   ss << in.rdbuf();
   return ss.str();
}

std::string data(const std::string &name)
{
   const char *d = std::getenv("SBCC_TOOLS_TEST_DATA");
   return std::string(d ? d : "data") + "/" + name;
}

CliRun sbcc(const std::string &args)
{
   const char *exe = std::getenv("SBCC_EXE");
   std::string base = ::testing::TempDir() + "sbcc_cli_" +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name();
   std::string cmd = std::string(exe ? exe : "sbcc") + " " + args + " >" + base + ".out 2>" +
                     base + ".err </dev/null";
   int status = std::system(cmd.c_str());
   return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"),
           slurp(base + ".err")};
}

} // namespace

TEST(SbccCli, StatsFormat)
{
   CliRun r = sbcc("stats " + data("a.tgsi") + " " + data("pass.shader_test"));
   EXPECT_EQ(r.rc, 0) << r.err;
   EXPECT_EQ(r.out, data("a.tgsi") + " - fragment shader: 3 inst, 1 temps, 1 inputs, 1 outputs\n" +
                       data("pass.shader_test") +
                       " - vertex shader: 2 inst, 0 temps, 1 inputs, 1 outputs\n" +
                       data("pass.shader_test") +
                       " - fragment shader: 2 inst, 0 temps, 0 inputs, 1 outputs\n");
}

TEST(SbccCli, StatsDirectoryIsRecursiveSortedAndParallelSafe)
{
   CliRun r1 = sbcc("stats " + data("sub") + " " + data("a.tgsi"));
   EXPECT_EQ(r1.rc, 0) << r1.err;
   EXPECT_EQ(r1.out, data("sub") + "/b.tgsi - vertex shader: 5 inst, 2 temps, 2 inputs, 2 outputs\n" +
                        data("a.tgsi") +
                        " - fragment shader: 3 inst, 1 temps, 1 inputs, 1 outputs\n");
   CliRun serial = sbcc("stats -j 1 " + data(""));
   CliRun parallel = sbcc("stats -j 4 " + data(""));
   EXPECT_EQ(serial.rc, 0) << serial.err;
   EXPECT_EQ(serial.out, parallel.out);
   /* a.tgsi, fail/loop/pass/skip (fail, pass and skip have two stages), sub/b.tgsi */
   EXPECT_EQ(std::count(serial.out.begin(), serial.out.end(), '\n'), 9);
}

TEST(SbccCli, StatsReportsBadFiles)
{
   CliRun r = sbcc("stats " + data("missing.tgsi"));
   EXPECT_EQ(r.rc, 1);
   EXPECT_EQ(r.err, data("missing.tgsi") + ": no such file or directory\n");
}

TEST(SbccCli, RunTestOutcomes)
{
   CliRun p = sbcc("run-test " + data("pass.shader_test") + " --target=reference");
   EXPECT_EQ(p.rc, 0) << p.err;
   EXPECT_EQ(p.out, "PASS " + data("pass.shader_test") + "\n");
   CliRun f = sbcc("run-test --target reference " + data("fail.shader_test"));
   EXPECT_EQ(f.rc, 1);
   EXPECT_EQ(f.out, data("fail.shader_test") +
                       ":17: probe at (5, 7) failed: expected (1, 0, 0, 1), observed (0, 1, 0, 1)\n"
                       "FAIL " + data("fail.shader_test") + "\n");
   CliRun s = sbcc("run-test " + data("skip.shader_test"));
   EXPECT_EQ(s.rc, 77);
   EXPECT_EQ(s.out, "GL_ARB_gpu_shader_fp64 is not supported\nSKIP " + data("skip.shader_test") +
                       "\n");
}

TEST(SbccCli, VerifySummaryAndExitCodes)
{
   CliRun r = sbcc("verify --seed 3 --invocations 16 " + data("a.tgsi") + " " + data("sub/b.tgsi"));
   EXPECT_EQ(r.rc, 0) << r.err;
   EXPECT_EQ(r.out, "PASS " + data("a.tgsi") + "\nPASS " + data("sub/b.tgsi") +
                       "\n2 passed, 0 failed, 0 budget, 0 error\n");
   CliRun b = sbcc("verify --max-loop 50 " + data("loop.tgsi"));
   EXPECT_EQ(b.rc, 3);
   EXPECT_EQ(b.out, "BUDGET " + data("loop.tgsi") +
                       ": reference exceeded the loop budget of 50 iterations\n"
                       "0 passed, 0 failed, 1 budget, 0 error\n");
   CliRun e = sbcc("verify " + data("missing.tgsi"));
   EXPECT_EQ(e.rc, 1);
   EXPECT_EQ(e.out, "ERROR " + data("missing.tgsi") +
                       ": cannot load\n0 passed, 0 failed, 0 budget, 1 error\n");
}

TEST(SbccCli, CompilePrintsStatsAndListing)
{
   CliRun r = sbcc("compile " + data("a.tgsi"));
   EXPECT_EQ(r.rc, 0) << r.err;
   EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
             "; " + data("a.tgsi") + " - fragment shader: 3 inst, 1 temps, 1 inputs, 1 outputs");
   EXPECT_NE(r.out.find("MAD TEMP[0], IN[0], IMM[0].xxxx, IMM[0].yyyy"), std::string::npos)
      << r.out;
   CliRun o = sbcc("compile -o /dev/null " + data("a.tgsi"));
   EXPECT_EQ(o.rc, 1);
   EXPECT_EQ(o.err, "sbcc compile: target 'reference' has no binary form\n");
}

TEST(SbccCli, DisasmNotSupportedForReference)
{
   CliRun r = sbcc("disasm --target=reference " + data("a.tgsi"));
   EXPECT_EQ(r.rc, 1);
   EXPECT_EQ(r.err, "error: disassembly is not supported for target 'reference'\n");
}

TEST(SbccCli, UsageErrors)
{
   CliRun r = sbcc("frobnicate");
   EXPECT_EQ(r.rc, 2);
   EXPECT_EQ(r.err.substr(0, r.err.find('\n')), "sbcc: unknown command 'frobnicate'");
   CliRun u = sbcc("verify --bogus " + data("a.tgsi"));
   EXPECT_EQ(u.rc, 2);
   EXPECT_EQ(u.err, "sbcc verify: unknown option '--bogus' (see sbcc verify --help)\n");
   CliRun v = sbcc("stats -j");
   EXPECT_EQ(v.rc, 2);
   EXPECT_EQ(v.err, "sbcc stats: option '-j' needs a value\n");
   CliRun n = sbcc("verify --seed=abc " + data("a.tgsi"));
   EXPECT_EQ(n.rc, 2);
   EXPECT_EQ(n.err, "sbcc verify: option '--seed' expects an unsigned number, got 'abc'\n");
   CliRun t = sbcc("run-test --target=nope " + data("pass.shader_test"));
   EXPECT_EQ(t.rc, 2);
   EXPECT_EQ(t.err.rfind("error: unknown target 'nope' (known: reference", 0), 0u) << t.err;
}

TEST(SbccCli, HelpForEverySubcommand)
{
   for (const char *c : {"compile", "disasm", "run-test", "verify", "stats", "bench"}) {
      CliRun r = sbcc(std::string(c) + " --help");
      EXPECT_EQ(r.rc, 0) << c;
      EXPECT_EQ(r.out.rfind(std::string("usage: sbcc ") + c, 0), 0u) << r.out;
   }
   CliRun top = sbcc("--help");
   EXPECT_EQ(top.rc, 0);
   EXPECT_EQ(top.out.rfind("usage: sbcc <command>", 0), 0u);
}
