/*
 * sb_optimize under the R600_DEBUG switches: off by default, sb for
 * graphics and sbcl for compute, sbdry, sbstat lines with 1-based shader
 * numbers, DSKIP ranges, and the fallback to the source bytecode (with a
 * one-line message) when a pass gives up.
 */
#include "r600/r600_asm.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;

/* Four independent ADDs in four groups (ADDs, not MOVs: copies into the
 * exported register would be propagated into the export). */
Program four_movs()
{
   auto add = [](unsigned chan, unsigned from) {
      return alu(AluOp::ADD, chan, dst(2, chan), src_gpr(1, from), one());
   };
   return program(kEg, {alu_clause({group({add(kSlotX, 3)}), group({add(kSlotY, 2)}),
                                     group({add(kSlotZ, 1)}), group({add(kSlotW, 0)})}),
                        export_done(2)});
}

/* The first line of the log with the pass times stripped. */
std::string first_line(const std::string &log)
{
   return log.substr(0, log.find('\n'));
}

class SbDriver : public ::testing::Test {
 protected:
   void SetUp() override { sb_reset_shader_counter(); }
};

TEST_F(SbDriver, OffUnlessAsked)
{
   DebugOptions o;
   SbStats st;
   Diagnostics d;
   EXPECT_FALSE(sb_optimize(four_movs(), vs_info(kEg), o, &st, d));
   EXPECT_EQ(st.log, "");
   EXPECT_EQ(st.shader_seq, 0u);
   /* sb is for graphics; compute needs sbcl. */
   o.sb = true;
   ShaderInfo cs = vs_info(kEg);
   cs.stage = tgsi::Processor::Compute;
   EXPECT_FALSE(sb_optimize(four_movs(), cs, o, &st, d));
   o.sb_cl = true;
   EXPECT_TRUE(sb_optimize(four_movs(), cs, o, &st, d));
   EXPECT_FALSE(d.has_errors());
}

TEST_F(SbDriver, StatLinesNumberShadersFromOne)
{
   DebugOptions o;
   o.sb = o.sb_stat = true;
   SbStats st;
   Diagnostics d;
   auto out = sb_optimize(four_movs(), vs_info(kEg), o, &st, d);
   ASSERT_TRUE(out);
   EXPECT_EQ(num_groups(*out), 1u);
   EXPECT_EQ(first_line(st.log),
             "sb: shader #1: alu_groups 4 -> 1, alu 4 -> 4, dw 12 -> 12, gprs 3 -> 2");
   EXPECT_TRUE(st.ssa);
   /* One timing line per pass follows. */
   EXPECT_NE(st.log.find("sb: shader #1   post_scheduler"), std::string::npos);
   EXPECT_NE(st.log.find("sb: shader #1   validate"), std::string::npos);
   /* SSA stage: bc_parser, ssa_prepare, ssa_rename, gvn, peephole,
    * if_conversion, dce_cleanup, gcm, ra_split, ra_coalesce, ra_init, ra_checker,
    * bc_finalize; clause-local stage: bc_parser, copy_propagation,
    * local_gvn, local_dce, post_scheduler, sched_checker, bc_builder,
    * gpr_compaction, validate. */
   EXPECT_EQ(st.times.size(), 22u);
   ASSERT_TRUE(sb_optimize(four_movs(), vs_info(kEg), o, &st, d));
   EXPECT_EQ(st.shader_seq, 2u);
   EXPECT_EQ(first_line(st.log).substr(0, 14), "sb: shader #2:");
}

/* Pass times only when someone reads them: sbstat, or the API's
 * sb_pass_times (the bench).  The result does not depend on the timers. */
TEST_F(SbDriver, TimesPassesOnlyWhenAsked)
{
   DebugOptions o;
   o.sb = true;
   SbStats st;
   Diagnostics d;
   auto plain = sb_optimize(four_movs(), vs_info(kEg), o, &st, d);
   ASSERT_TRUE(plain);
   EXPECT_TRUE(st.times.empty());
   EXPECT_EQ(st.log, "");
   o.sb_pass_times = true;
   auto timed = sb_optimize(four_movs(), vs_info(kEg), o, &st, d);
   ASSERT_TRUE(timed);
   EXPECT_EQ(st.times.size(), 22u);
   EXPECT_EQ(st.times.front().pass, "bc_parser");
   EXPECT_EQ(st.times.back().pass, "validate");
   EXPECT_EQ(st.log, ""); /* times without the sbstat lines */
   Diagnostics ad, bd;
   EXPECT_EQ(assemble(*plain, ad), assemble(*timed, bd));
}

TEST_F(SbDriver, DryRunsThePassesAndKeepsTheSource)
{
   DebugOptions o;
   o.sb = o.sb_stat = o.sb_dry = true;
   SbStats st;
   Diagnostics d;
   EXPECT_FALSE(sb_optimize(four_movs(), vs_info(kEg), o, &st, d));
   EXPECT_EQ(first_line(st.log),
             "sb: shader #1 (dry): alu_groups 4 -> 1, alu 4 -> 4, dw 12 -> 12, gprs 3 -> 2");
   EXPECT_FALSE(st.optimized);
}

TEST_F(SbDriver, DskipSkipsOrSelectsARange)
{
   DebugOptions o;
   o.sb = o.sb_stat = true;
   o.sb_dskip_mode = 1; /* skip #2..#3 */
   o.sb_dskip_start = 2;
   o.sb_dskip_end = 3;
   std::vector<bool> optimized;
   for (int i = 0; i < 4; i++) {
      SbStats st;
      Diagnostics d;
      optimized.push_back(sb_optimize(four_movs(), vs_info(kEg), o, &st, d).has_value());
      if (i == 1) {
         EXPECT_EQ(st.log, "sb: shader #2 skipped (DSKIP)\n");
      }
   }
   EXPECT_EQ(optimized, (std::vector<bool>{true, false, false, true}));
   sb_reset_shader_counter();
   o.sb_dskip_mode = 2; /* only #2..#3 */
   optimized.clear();
   for (int i = 0; i < 4; i++) {
      SbStats st;
      Diagnostics d;
      optimized.push_back(sb_optimize(four_movs(), vs_info(kEg), o, &st, d).has_value());
   }
   EXPECT_EQ(optimized, (std::vector<bool>{false, true, true, false}));
}

TEST_F(SbDriver, FailingPassFallsBackWithOneLine)
{
   DebugOptions o;
   o.sb = o.sb_stat = true;
   Program bad = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), lit(2))},
                                                  {1u})}),
                               export_done(2)});
   SbStats st;
   Diagnostics d;
   EXPECT_FALSE(sb_optimize(bad, vs_info(kEg), o, &st, d));
   EXPECT_FALSE(d.has_errors());
   EXPECT_EQ(st.failed_pass, "bc_parser");
   EXPECT_EQ(st.log, "sb: shader #1: bc_parser failed (error: CF 0 group 0: LITERAL.2 beyond "
                     "the group's literals), using the source bytecode\n");
}

TEST_F(SbDriver, ProgramTheValidatorRejectsIsNotHandedOut)
{
   /* A stack deeper than the shader's stack_size: sb's output would be
    * rejected exactly like its input, so the source is kept. */
   DebugOptions o;
   o.sb = o.sb_stat = true;
   Program p = four_movs();
   p.cf.insert(p.cf.begin(), alu_clause({group({alu(AluOp::PRED_SETGT, kSlotX, dst(4, 0, false),
                                                   src_gpr(1, 0), zero())})},
                                        CfOp::ALU_PUSH_BEFORE));
   SbStats st;
   Diagnostics d;
   EXPECT_FALSE(sb_optimize(p, vs_info(kEg, 0), o, &st, d));
   EXPECT_EQ(st.failed_pass, "validate");
}

TEST_F(SbDriver, DumpShowsTheIrAfterEachPass)
{
   DebugOptions o;
   o.sb = o.sb_dump = true;
   o.sb_ssa = false; /* the clause-local stage's dumps */
   SbStats st;
   Diagnostics d;
   ASSERT_TRUE(sb_optimize(four_movs(), vs_info(kEg), o, &st, d));
   EXPECT_NE(st.log.find("sb: shader #1 after bc_parser\ncf 0 ALU\n  group 0\n    0: R2.x = ADD "
                         "R1.w, I249\n  group 1\n"),
             std::string::npos)
      << st.log;
   EXPECT_NE(st.log.find("sb: shader #1 after post_scheduler\ncf 0 ALU\n  group 0\n    0: R2.x = "
                         "ADD R1.w, I249\n    1: R2.y = ADD R1.z, I249\n"),
             std::string::npos)
      << st.log;

   /* With the SSA stage, its tree is dumped too: values in SSA form first,
    * then with the copies register allocation made. */
   o.sb_ssa = true;
   ASSERT_TRUE(sb_optimize(four_movs(), vs_info(kEg), o, &st, d));
   EXPECT_NE(st.log.find("sb: shader #2 after ssa_rename\ncf 0 ALU\n  group\n    x: ADD R2.x.1 = "
                         "R1.w.0, "),
             std::string::npos)
      << st.log;
   EXPECT_NE(st.log.find("sb: shader #2 after ra_checker\n"), std::string::npos);
}

} // namespace
