/*
 * `sbcc optimize`: runs the built binary (path from SBCC_EXE) on bytecode
 * written by the test and checks exit codes, the exact sbstat line, the
 * optimized output image, and the usage errors.
 */
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::test;

struct CliRun {
   int status = -1;
   std::string out;
};

CliRun run(const std::string &args)
{
   const char *exe = std::getenv("SBCC_EXE");
   CliRun r;
   if (!exe)
      return r;
   std::string cmd = std::string(exe) + " " + args + " 2>&1";
   FILE *f = popen(cmd.c_str(), "r");
   if (!f)
      return r;
   char buf[512];
   while (size_t n = fread(buf, 1, sizeof(buf), f))
      r.out.append(buf, n);
   int st = pclose(f);
   r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
   return r;
}

std::string temp_path(const std::string &name)
{
   return (std::filesystem::temp_directory_path() /
           ("sb_cli_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

class SbCli : public ::testing::Test {
 protected:
   void SetUp() override
   {
      if (!std::getenv("SBCC_EXE"))
         GTEST_SKIP() << "SBCC_EXE not set (run through meson test)";
   }
};

TEST_F(SbCli, OptimizesAHexImage)
{
   Program p = program(ChipClass::Evergreen,
                       {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 3))}),
                                    group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 2))}),
                                    group({alu(AluOp::MOV, kSlotZ, dst(4, 2), src_gpr(1, 1))}),
                                    group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 1))}),
                                    group({alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 0))})}),
                        export_done(2)});
   Diagnostics d;
   auto words = assemble(p, d);
   ASSERT_TRUE(words) << d.str();
   const std::string in = temp_path("in.hex"), out = temp_path("out.hex");
   {
      std::ofstream f(in);
      char buf[16];
      for (uint32_t w : *words) {
         std::snprintf(buf, sizeof(buf), "%08x\n", w);
         f << buf;
      }
   }
   CliRun r = run("optimize --target=evergreen --stat " + in + " -o " + out);
   EXPECT_EQ(r.status, 0) << r.out;
   /* The MOV to R4 is dead (only R2 is exported); the other four only
    * shuffle the input R1, so the export reads R1.wzyx itself. */
   EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
             "sb: shader #1: alu_groups 5 -> 0, alu 5 -> 0, dw 14 -> 2, gprs 5 -> 2");
   std::ifstream f(out);
   std::stringstream ss;
   ss << f.rdbuf();
   auto res_words = read_bin_hex(ss.str(), d, out);
   ASSERT_TRUE(res_words) << d.str();
   auto res = decode_program(*res_words, ChipClass::Evergreen, d);
   ASSERT_TRUE(res) << d.str();
   ASSERT_EQ(res->cf.size(), 1u);
   EXPECT_EQ(res->cf[0].exp.gpr, 1u);
   EXPECT_EQ(res->cf[0].exp.swizzle, (std::array<uint8_t, 4>{3, 2, 1, 0}));
   std::filesystem::remove(in);
   std::filesystem::remove(out);
}

TEST_F(SbCli, UsageErrors)
{
   CliRun r = run("optimize");
   EXPECT_EQ(r.status, 2);
   EXPECT_EQ(r.out, "sbcc optimize: expected --target=T and exactly one input file\n");
   r = run("optimize --target=voodoo x.hex");
   EXPECT_EQ(r.status, 2);
   EXPECT_EQ(r.out, "sbcc optimize: unknown chip 'voodoo'\n");
   const std::string bad = temp_path("bad.hex");
   {
      std::ofstream f(bad);
      f << "zzzz\n";
   }
   r = run("optimize --target=evergreen " + bad);
   EXPECT_EQ(r.status, 1);
   EXPECT_NE(r.out.find("error"), std::string::npos) << r.out;
   std::filesystem::remove(bad);
}

} // namespace
