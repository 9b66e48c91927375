/*
 * copy_propagation, liveness and dce_cleanup on fixed inputs: exact IR
 * after the passes, live sets across branches and loops, and emulator runs
 * of source vs result.
 */
#include <iostream>

#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

constexpr ChipClass kEg = ChipClass::Evergreen;

std::string after_gvn(const Program &p)
{
   Shader sh;
   Diagnostics d;
   EXPECT_TRUE(bc_parser(p, sh, d) && gvn(sh, d) && copy_propagation(sh, d) && dce_cleanup(sh, d))
      << d.str();
   return dump_shader(sh);
}

std::string after_cleanup(const Program &p)
{
   Shader sh;
   Diagnostics d;
   EXPECT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d) && dce_cleanup(sh, d)) << d.str();
   return dump_shader(sh);
}

/* The clause-local passes (run_passes) on p give the source's exports in
 * the emulator. */
void expect_runs_like_source(const Program &p)
{
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
}

bool live_at(const std::vector<LiveSet> &l, size_t cf, unsigned gpr, unsigned chan)
{
   return l[cf].test(gpr * 4 + chan);
}

TEST(SbCopyPropagation, ReadsThroughAMovAndDropsIt)
{
   /* R4.x = MOV R1.y; R2.x = ADD R4.x, 1: the ADD reads R1.y and the MOV
    * (R4 is never exported) goes. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(4, 0), src_gpr(1, 1))}),
                                          group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(4, 0),
                                                     one())})}),
                             export_done(2)});
   EXPECT_EQ(after_cleanup(p), "cf 0 ALU\n"
                               "  group 0\n"
                               "    1: R2.x = ADD R1.y, I249\n"
                               "cf 1 EXPORT_DONE\n");
   auto out = run_passes(p);
   ASSERT_TRUE(out);
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d) && dce_cleanup(sh, d) &&
               post_scheduler(sh, d) && sched_checker(sh, d));
   Program opt;
   ASSERT_TRUE(bc_builder(sh, opt, d));
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(opt, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
   EXPECT_EQ(outputs_of(opt, vs_info(kEg), in)[0][0], vec4f(3, 0, 0, 0)[0]);
}

TEST(SbCopyPropagation, StopsWhenTheSourceIsOverwritten)
{
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(4, 0), src_gpr(1, 1))}),
                                          group({alu(AluOp::MOV, kSlotY, dst(1, 1), zero())}),
                                          group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(4, 0),
                                                     src_gpr(1, 1))})}),
                             export_done(2)});
   /* R4.x keeps reading the copy; the 0 moves into the ADD, so the
    * MOV of 0 (R1.y is not read again) goes. */
   EXPECT_EQ(after_cleanup(p), "cf 0 ALU\n"
                               "  group 0\n"
                               "    0: R4.x = MOV R1.y\n"
                               "  group 1\n"
                               "    2: R2.x = ADD R4.x, I248\n"
                               "cf 1 EXPORT_DONE\n");
}

TEST(SbCopyPropagation, FoldsNegIntoFloatReadersOnly)
{
   AluSrc neg_x = src_gpr(1, 0, true);
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(4, 0), neg_x)}),
                                          group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(4, 0),
                                                     one()),
                                                 alu(AluOp::ADD_INT, kSlotY, dst(2, 1),
                                                     src_gpr(4, 0), one())})}),
                             export_done(2)});
   EXPECT_EQ(after_cleanup(p), "cf 0 ALU\n"
                               "  group 0\n"
                               "    0: R4.x = MOV -R1.x\n"
                               "  group 1\n"
                               "    1: R2.x = ADD -R1.x, I249\n"
                               "    2: R2.y = ADD_INT R4.x, I249\n"
                               "cf 1 EXPORT_DONE\n");
   expect_runs_like_source(p);
}

TEST(SbCopyPropagation, AWriteEndsOnlyTheCopiesItTouches)
{
   /* Three copies; overwriting R1.x ends the first (the copy list fills
    * the gap with its last entry), the other two still read through.
    * The next clause starts with no copies: R4.z stays R4.z there. */
   Program p = program(
      kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(4, 0), src_gpr(1, 0)),
                               alu(AluOp::MOV, kSlotY, dst(4, 1), src_gpr(1, 1)),
                               alu(AluOp::MOV, kSlotZ, dst(4, 2), src_gpr(1, 2))}),
                        group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero())}),
                        group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(4, 0), src_gpr(4, 1)),
                               alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(4, 2),
                                   src_gpr(4, 1))})}),
            alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(4, 2))})}),
            export_done(2)});
   EXPECT_EQ(after_cleanup(p), "cf 0 ALU\n"
                               "  group 0\n"
                               "    0: R4.x = MOV R1.x\n"
                               "    2: R4.z = MOV R1.z\n"
                               "  group 1\n"
                               "    4: R2.x = ADD R4.x, R1.y\n"
                               "    5: R2.y = ADD R1.z, R1.y\n"
                               "cf 1 ALU\n"
                               "  group 0\n"
                               "    0: R2.z = MOV R4.z\n"
                               "cf 2 EXPORT_DONE\n");
   expect_runs_like_source(p);
}

TEST(SbGvn, RepeatedComputationReadsTheFirstResult)
{
   /* R3.x = R1.x * R1.y and R4.y = R1.y * R1.x (commuted) are one value;
    * the ADD then reads R3.x twice and the second MUL disappears.  The
    * third MUL comes after R1.x changed: a new value (and reading the 1
    * directly leaves the MOV to R1.x dead). */
   Program p = program(
      kEg, {alu_clause({group({alu(AluOp::MUL, kSlotX, dst(3, 0), src_gpr(1, 0), src_gpr(1, 1))}),
                        group({alu(AluOp::MUL, kSlotY, dst(4, 1), src_gpr(1, 1), src_gpr(1, 0))}),
                        group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(3, 0), src_gpr(4, 1)),
                               alu(AluOp::MOV, kSlotZ, dst(1, 0), one())}),
                        group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 0), src_gpr(1, 1))})}),
            export_done(2)});
   EXPECT_EQ(after_gvn(p), "cf 0 ALU\n"
                           "  group 0\n"
                           "    0: R3.x = MUL R1.x, R1.y\n"
                           "  group 1\n"
                           "    2: R2.x = ADD R3.x, R3.x\n"
                           "  group 2\n"
                           "    4: R2.y = MUL I249, R1.y\n"
                           "cf 1 EXPORT_DONE\n");
   DebugOptions o;
   o.sb = true;
   SbStats st;
   Diagnostics d;
   auto out = sb_optimize(p, vs_info(kEg), o, &st, d);
   ASSERT_TRUE(out);
   const std::vector<Vec4> in = {vec4f(1.5f, 2, 3, 4), vec4f(-3, 0.25f, 0, 0)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in), outputs_of(p, vs_info(kEg), in));
}

TEST(SbCopyPropagation, FetchReadsTheCopiedRegister)
{
   /* R5 = R1.yxzw gathered by MOVs, then TEX reads R5.xyzw: it reads
    * R1.yxzw itself and the MOVs go.  A copy from a clause temporary
    * (R124) is not followed into the fetch clause. */
   std::vector<AluInstr> movs = {alu(AluOp::MOV, kSlotX, dst(5, 0), src_gpr(1, 1)),
                                 alu(AluOp::MOV, kSlotY, dst(5, 1), src_gpr(1, 0)),
                                 alu(AluOp::MOV, kSlotZ, dst(5, 2), src_gpr(1, 2)),
                                 alu(AluOp::MOV, kSlotW, dst(5, 3), src_gpr(1, 3))};
   TexInstr tex;
   tex.src_gpr = 5;
   tex.dst_gpr = 2;
   CfInstr fetch;
   fetch.op = CfOp::TEX;
   fetch.fetches.push_back(tex);
   Program p = program(kEg, {alu_clause({group(movs)}), fetch, export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d) && dce_cleanup(sh, d));
   const auto &t = std::get<TexInstr>(sh.cf[1].cf.fetches[0]);
   EXPECT_EQ(t.src_gpr, 1u);
   EXPECT_EQ(t.src_sel, (std::array<uint8_t, 4>{1, 0, 2, 3}));
   /* One node must stay: an empty clause cannot be encoded. */
   EXPECT_EQ(sh.cf[0].alu.groups.size(), 1u);
   EXPECT_EQ(sh.cf[0].alu.groups[0].nodes.size(), 1u);

   Program q = p;
   q.cf[0].groups[0].instrs[0].src[0] = src_gpr(124, 1);
   Shader sq;
   ASSERT_TRUE(bc_parser(q, sq, d) && copy_propagation(sq, d));
   EXPECT_EQ(std::get<TexInstr>(sq.cf[1].cf.fetches[0]).src_gpr, 5u);
}

TEST(SbCopyPropagation, ExportReadsTheCopiedRegister)
{
   /* R2.xy = R1.yx then EXPORT R2.xyzw: R2.zw are not copies, so the
    * export stays; with R2.zw copied from R1.zw it exports R1.yxzw. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1)),
                                                alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 0))})}),
                             export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d));
   EXPECT_EQ(sh.cf[1].cf.exp.gpr, 2u);
   p.cf[0].groups[0].instrs.push_back(alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 2)));
   p.cf[0].groups[0].instrs.push_back(alu(AluOp::MOV, kSlotW, dst(2, 3), src_gpr(1, 3)));
   ASSERT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d));
   EXPECT_EQ(sh.cf[1].cf.exp.gpr, 1u);
   EXPECT_EQ(sh.cf[1].cf.exp.swizzle, (std::array<uint8_t, 4>{1, 0, 2, 3}));
   DebugOptions o;
   o.sb = true;
   SbStats st;
   auto out = sb_optimize(p, vs_info(kEg), o, &st, d);
   ASSERT_TRUE(out);
   const std::vector<Vec4> in = {vec4f(1, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, vs_info(kEg), in)[0], vec4f(2, 1, 3, 4));
}

TEST(SbGprCompaction, UnusedNumbersCloseUpInputsStay)
{
   /* R1 is an input and R3 is read before written (loaded from outside):
    * both keep their numbers.  R7.x is only read through PV by the next
    * group, so the post_scheduler gives it no register at all; R9 -> R2. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MUL, kSlotX, dst(7, 0), src_gpr(1, 0),
                                                    src_gpr(3, 1))}),
                                          group({alu(AluOp::ADD, kSlotX, dst(9, 0), src_gpr(7, 0),
                                                     one()),
                                                 alu(AluOp::ADD, kSlotY, dst(9, 1), src_gpr(7, 0),
                                                     one()),
                                                 alu(AluOp::ADD, kSlotZ, dst(9, 2), src_gpr(7, 0),
                                                     one()),
                                                 alu(AluOp::ADD, kSlotW, dst(9, 3), src_gpr(7, 0),
                                                     one())})}),
                             export_done(9)});
   /* (An export of a partly written register would pin it: its other
    * channels are read before they are written.) */
   DebugOptions o;
   o.sb = o.sb_stat = true;
   o.sb_ssa = false; /* compaction is the clause-local stage's; RA does more */
   SbStats st;
   Diagnostics d;
   ShaderInfo info = vs_info(kEg);
   auto out = sb_optimize(p, info, o, &st, d);
   ASSERT_TRUE(out);
   EXPECT_EQ(st.gprs_before, 10u);
   EXPECT_EQ(st.gprs_after, 4u);
   EXPECT_FALSE(out->cf[0].groups[0].instrs[0].dst.write);
   EXPECT_EQ(out->cf[0].groups[0].instrs[0].src[1].sel, 3u);
   EXPECT_EQ(out->cf[1].exp.gpr, 2u);
   const std::vector<Vec4> in = {vec4f(1.5f, 2, 3, 4)};
   EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in));
}

TEST(SbGprCompaction, RelativeAddressingLeavesNumbersAlone)
{
   AluInstr rel = alu(AluOp::MOV, kSlotX, dst(9, 0), src_gpr(7, 0));
   rel.src[0].rel = true;
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false),
                                                    src_gpr(1, 0))}),
                                          group({rel})}),
                             export_done(9)});
   DebugOptions o;
   o.sb = true;
   SbStats st;
   Diagnostics d;
   auto out = sb_optimize(p, vs_info(kEg), o, &st, d);
   ASSERT_TRUE(out);
   EXPECT_EQ(st.gprs_after, st.gprs_before);
   EXPECT_EQ(out->cf[1].exp.gpr, 9u);
}

TEST(SbDce, ExportedAndLaterReadValuesStay)
{
   /* R2.y is exported, R3.x read by a later clause; R3.y is overwritten
    * before anyone reads it. */
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(1, 1)),
                                                alu(AluOp::MOV, kSlotX, dst(3, 0), src_gpr(1, 2)),
                                                alu(AluOp::MOV, kSlotW, dst(3, 3), src_gpr(1, 3))}),
                                          group({alu(AluOp::MOV, kSlotW, dst(3, 3), src_gpr(1, 0))})}),
                             alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(3, 0),
                                                    src_gpr(3, 3))})}),
                             export_done(2)});
   EXPECT_EQ(after_cleanup(p), "cf 0 ALU\n"
                               "  group 0\n"
                               "    0: R2.y = MOV R1.y\n"
                               "    1: R3.x = MOV R1.z\n"
                               "  group 1\n"
                               "    3: R3.w = MOV R1.x\n"
                               "cf 1 ALU\n"
                               "  group 0\n"
                               "    0: R2.x = ADD R3.x, R3.w\n"
                               "cf 2 EXPORT_DONE\n");
}

TEST(SbLiveness, BranchesAndLoopsKeepValuesLive)
{
   /* CF 0 writes R5.x; CF 3 (inside the loop, after a branch) reads it;
    * CF 4 writes R6.x which CF 3 reads on the next iteration. */
   std::vector<CfInstr> cf;
   cf.push_back(alu_clause({group({alu(AluOp::MOV, kSlotX, dst(5, 0), src_gpr(1, 0)),
                                   alu(AluOp::MOV, kSlotY, dst(6, 1), src_gpr(1, 0))})}));
   cf.push_back(cf_op(CfOp::LOOP_START_DX10, 6));
   cf.push_back(cf_op(CfOp::LOOP_BREAK, 5));
   cf.push_back(alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(5, 0),
                                       src_gpr(6, 0))})}));
   cf.push_back(alu_clause({group({alu(AluOp::MOV, kSlotX, dst(6, 0), src_gpr(2, 0))})}));
   cf.push_back(cf_op(CfOp::LOOP_END, 2));
   cf.push_back(export_done(2));
   Program p = program(kEg, cf);
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   std::vector<LiveSet> live;
   ASSERT_TRUE(liveness(sh, live));
   EXPECT_TRUE(live_at(live, 0, 5, 0));  /* read in the loop */
   EXPECT_TRUE(live_at(live, 0, 6, 0));  /* read before the loop writes it */
   EXPECT_FALSE(live_at(live, 0, 6, 1)); /* nobody reads R6.y */
   EXPECT_TRUE(live_at(live, 4, 6, 0));  /* next iteration */
   EXPECT_TRUE(live_at(live, 4, 5, 0));
   EXPECT_TRUE(live_at(live, 5, 2, 0));  /* exported after the loop */
   EXPECT_FALSE(live_at(live, 6, 2, 0)); /* end of program */
}

TEST(SbLiveness, SubroutinesAreNotModelled)
{
   Program p = program(kEg, {cf_op(CfOp::CALL, 1), export_done(2)});
   Shader sh;
   Diagnostics d;
   ASSERT_TRUE(bc_parser(p, sh, d));
   std::vector<LiveSet> live;
   EXPECT_FALSE(liveness(sh, live));
}

TEST(SbDce, PredicatedWriteDoesNotKill)
{
   /* R2.x written, then conditionally rewritten: the first write stays. */
   AluInstr cond = alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1));
   cond.pred_sel = 3;
   Program p = program(kEg, {alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))}),
                                          group({alu(AluOp::PRED_SETGT, kSlotX, dst(4, 0, false),
                                                     src_gpr(1, 0), zero())}),
                                          group({cond})}),
                             export_done(2)});
   EXPECT_NE(after_cleanup(p).find("    0: R2.x = MOV R1.x\n"), std::string::npos);
}

} // namespace

namespace {

/* dce_cleanup's liveness hand-off: what it leaves must be what
 * liveness_or_all() works out again on the cleaned shader, whether the
 * cleanup removed nothing (its own sets are taken) or something (the CFs
 * whose live-out changed are walked again), on every stage of every
 * bundled .shader_test, branches and loops included. */
TEST(SbDce, LivenessItLeavesIsLivenessOfTheResult)
{
   namespace fs = std::filesystem;
   const fs::path dir = fs::path(__FILE__).parent_path() / ".." / "shaders";
   ASSERT_TRUE(fs::is_directory(dir)) << dir;
   unsigned stages = 0, cleaned = 0, loops = 0;
   for (const auto &entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() != ".shader_test")
         continue;
      for (const std::string &text : tgsi_sections(entry.path())) {
         for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
            const std::string what = entry.path().filename().string();
            with_plain_bytecode(text, what, chip, [&](const Program &p, const ShaderInfo &) {
               Shader sh;
               Diagnostics d;
               ASSERT_TRUE(bc_parser(p, sh, d) && copy_propagation(sh, d) && gvn(sh, d) &&
                           copy_propagation(sh, d))
                  << what << ": " << d.str();
               const std::string before = dump_shader(sh);
               ShaderLiveness left;
               ASSERT_TRUE(dce_cleanup(sh, d, left)) << what << ": " << d.str();
               std::vector<LiveSet> out, in;
               const bool known = liveness_or_all(sh, out, &in);
               EXPECT_EQ(left.known, known) << what;
               EXPECT_TRUE(left.live_out == out) << what << " (" << chip_class_name(chip) << ")";
               if (known) {
                  EXPECT_TRUE(left.live_in == in) << what << " (" << chip_class_name(chip) << ")";
               }
               stages++;
               cleaned += dump_shader(sh) != before;
               for (const CfInstr &cf : p.cf)
                  loops += cf.op == CfOp::LOOP_START || cf.op == CfOp::LOOP_START_DX10 ||
                           cf.op == CfOp::LOOP_START_NO_AL;
            });
         }
      }
   }
   /* Both paths of the hand-off ran, on shaders with loops among them. */
   EXPECT_GT(stages, 100u);
   EXPECT_GT(cleaned, 0u);
   EXPECT_LT(cleaned, stages);
   EXPECT_GT(loops, 0u);
   std::cout << stages << " stages, " << cleaned << " changed by dce, " << loops << " loops\n";
}

} // namespace
