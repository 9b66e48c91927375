/*
 * Liveness, dce_cleanup and register allocation of sb's SSA stage on
 * hand-built programs with exact expected facts (dumps after dce and after
 * ra_split, interference edges, allocations, GPR counts, copy counts), the
 * classic shapes (loop with break/continue, nested ifs, indirect array
 * write in a loop), ra_checker catching broken allocations, and every TGSI
 * stage of tests/shaders plus seeded random programs through
 * parse -> ssa -> dce -> RA with the checker (and the interference graph
 * built both ways, bit matrix and rows, alike).
 */
#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "r600/r600_target.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_ir.h"
#include "r600_backend/random_tgsi_gen.h"
#include "sb/sb_test_util.h"
#include "tgsi/tgsi_ir.h"

#ifndef SBCC_SOURCE_ROOT
#define SBCC_SOURCE_ROOT "."
#endif

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

/* The tree points into its program: keep both. */
struct Parsed {
   std::unique_ptr<Program> prog;
   std::unique_ptr<RegionShader> sh;
   RegionShader *operator->() { return sh.get(); }
   RegionShader &operator*() { return *sh; }
   explicit operator bool() const { return bool(sh); }
};

Parsed ssa(const Program &p, const RegionParseOptions &o = {})
{
   Parsed r;
   r.prog = std::make_unique<Program>(p);
   Diagnostics d;
   r.sh = region_parse(*r.prog, o, d);
   EXPECT_TRUE(r.sh) << d.str();
   if (!r.sh)
      return r;
   ssa_prepare(*r.sh);
   ssa_rename(*r.sh);
   return r;
}

/* Value names by id, for listings. */
std::vector<std::string> value_names(const RegionShader &sh)
{
   std::vector<std::string> n(sh.num_values());
   for (size_t v = 0; v < sh.vars.size(); v++)
      for (unsigned ver = 0; ver <= sh.version_count[v]; ver++) {
         Value x;
         x.kind = ValueKind::Var;
         x.var = int(v);
         x.version = ver;
         n[sh.value_id(int(v), ver)] = value_name(sh, x);
      }
   return n;
}

std::string edges(const RegionShader &sh, const RaContext &ctx)
{
   auto n = value_names(sh);
   std::vector<std::string> lines;
   for (unsigned a = 0; a < ctx.num_values; a++)
      for (unsigned b : ctx.adj[a])
         if (a < b)
            lines.push_back(n[a] + " - " + n[b]);
   std::sort(lines.begin(), lines.end());
   std::string s;
   for (auto &l : lines)
      s += l + "\n";
   return s;
}

/* "value: Rg.c" for every value with a register, in value order. */
std::string assignment(const RegionShader &sh, const Allocation &a)
{
   auto n = value_names(sh);
   std::string s;
   for (unsigned v = 0; v < a.reg.size(); v++)
      if (a.reg[v].gpr >= 0)
         s += n[v] + ": R" + std::to_string(a.reg[v].gpr) + "." + "xyzw"[a.reg[v].chan] + "\n";
   return s;
}

struct RaRun {
   Parsed sh;
   RaContext ctx;
   Allocation alloc;
   std::string split_dump;
   bool ok = false;
   std::string diag;
};

RaRun allocate(const Program &p, const RegionParseOptions &o = {},
               const ShaderInfo *info = nullptr)
{
   RaRun r;
   r.sh = ssa(p, o);
   if (!r.sh)
      return r;
   Diagnostics d;
   EXPECT_TRUE(dce_cleanup(*r.sh, d));
   bool ok = ra_split(*r.sh, r.ctx, d, info);
   r.split_dump = region_dump(*r.sh);
   ok = ok && ra_coalesce(*r.sh, r.ctx, d) && ra_init(*r.sh, r.ctx, r.alloc, d) &&
        ra_checker(*r.sh, r.alloc, d);
   r.ok = ok;
   r.diag = d.str();
   return r;
}

/* ---------------------------------------------------------------------- */

Program loop_program()
{
   /* i = 0; s = 0; loop { if (i >= 4) break; i += 1; if (i == 2) continue;
    * s += i * 0.5 } ; a dead counter t in R3 runs along */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 0), zero()),
                         alu(AluOp::MOV, kSlotZ, dst(3, 0), zero())})}),
      cf_op(CfOp::LOOP_START_DX10, 13),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(1, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(1, 0), one()),
                         alu(AluOp::ADD, kSlotZ, dst(3, 0), src_gpr(3, 0), one())})}),
      push_if(pred(AluOp::PRED_SETE, src_gpr(1, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 11, 1),
      cf_op(CfOp::LOOP_CONTINUE),
      cf_op(CfOp::POP, 11, 1),
      alu_clause({group({alu(AluOp::MUL, kSlotY, dst(0, 1, false), src_gpr(1, 0),
                             src_inline(kSrc_0_5))}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), pv(1))})}),
      cf_op(CfOp::LOOP_END, 2),
      export_done(2),
   });
   p.cf[2].groups[0].literals = {0x40800000};
   p.cf[7].groups[0].literals = {0x40000000};
   return p;
}

TEST(SbRaDce, DeadChainAndSelfFeedingLoopPhiGo)
{
   auto sh = ssa(loop_program());
   ASSERT_TRUE(sh);
   std::vector<bool> used;
   liveness_used(*sh, used);
   auto n = value_names(*sh);
   std::string u;
   for (unsigned v = 0; v < used.size(); v++)
      if (used[v])
         u += n[v] + " ";
   EXPECT_EQ(u,
             "R1.x.1 R1.x.2 R1.x.3 R2.x.1 R2.x.2 R2.x.3 R2.x.4 EXEC.1 EXEC.2 T5.1 R2.y.0 R2.z.0 R2.w.0 ");
   Diagnostics d;
   ASSERT_TRUE(dce_cleanup(*sh, d));
   EXPECT_EQ(region_dump(*sh),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R1.x.1 = 0\n"
             "    y: MOV R2.x.1 = 0\n"
             "region #0 loop (departs 1, repeats 2)\n"
             "  loop_phi R1.x.2 = R1.x.1, R1.x.3, R1.x.3\n"
             "  loop_phi R2.x.2 = R2.x.1, R2.x.3, R2.x.2\n"
             "  repeat #0 -> region #0\n"
             "    cf 2 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETGE _, EXEC.1, PRED.1 = R1.x.2, 0x40800000\n"
             "    region #1 (departs 2, repeats 0)\n"
             "      depart #1 -> region #1\n"
             "        if EXEC.1\n"
             "          depart #0 -> region #1\n"
             "            depart #0 -> region #0\n"
             "    cf 6 ALU\n"
             "      group\n"
             "        x: ADD R1.x.3 = R1.x.2, 1.0\n"
             "    cf 7 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETE _, EXEC.2, PRED.2 = R1.x.3, 0x40000000\n"
             "    region #2 (departs 2, repeats 0)\n"
             "      depart #1 -> region #2\n"
             "        if EXEC.2\n"
             "          depart #0 -> region #2\n"
             "            repeat #1 -> region #0\n"
             "    cf 11 ALU\n"
             "      group\n"
             "        y: MUL T5.1 = R1.x.3, 0.5\n"
             "      group\n"
             "        x: ADD R2.x.3 = R2.x.2, T5.1\n"
             "  phi R2.x.4 = R2.x.2\n"
             "cf 13 EXPORT_DONE R2.x.4, R2.y.0, R2.z.0, R2.w.0\n");
}

TEST(SbRaLiveness, StraightLineInterference)
{
   /* R1.x = R0.x * R0.y; R1.y = R0.x + 1 | R2.x = R1.x + R1.y | export R2 */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(1, 0), src_gpr(0, 0), src_gpr(0, 1)),
                         alu(AluOp::ADD, kSlotY, dst(1, 1), src_gpr(0, 0), one())}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1))})}),
      export_done(2),
   });
   auto sh = ssa(p);
   ASSERT_TRUE(sh);
   RaContext ctx;
   ra_build_interference(*sh, ctx);
   /* R0.y dies in the first group, so its results do not interfere with it;
    * both results are written by one group and interfere; the export's
    * inputs R2.y..w.0 are live from the start. */
   EXPECT_EQ(edges(*sh, ctx),
             "R1.x.1 - R1.y.1\n"
             "R1.x.1 - R2.w.0\n"
             "R1.x.1 - R2.y.0\n"
             "R1.x.1 - R2.z.0\n"
             "R1.y.1 - R2.w.0\n"
             "R1.y.1 - R2.y.0\n"
             "R1.y.1 - R2.z.0\n"
             "R2.x.1 - R2.w.0\n"
             "R2.x.1 - R2.y.0\n"
             "R2.x.1 - R2.z.0\n");
}

/* ctx.def_order and ctx.loop_depth as a forward walk numbers them: a
 * point on entering each node and one more on leaving a region; loop_phis
 * are defined on entering their loop, phis after leaving their region,
 * anything else after its children.  ra_build_interference takes them
 * from its backward walk instead; this is the reference. */
struct ForwardOrder {
   const RegionShader &sh;
   std::vector<unsigned> order, depth_of;
   unsigned point = 0, depth = 0;

   void def(const Value &v)
   {
      if (!ra_value_allocatable(sh, v))
         return;
      order[sh.value_id(v)] = point;
      depth_of[sh.value_id(v)] = depth;
   }

   void walk(const Node *n)
   {
      point++;
      if (n->kind == NodeKind::Region) {
         if (n->loop)
            depth++;
         for (const Node *p : n->region().loop_phi)
            def(p->dst[0]);
         for (const Node *c : n->children)
            walk(c);
         if (n->loop)
            depth--;
         point++;
         for (const Node *p : n->region().phi)
            def(p->dst[0]);
         return;
      }
      for (const Node *c : n->children)
         walk(c);
      for (const Value &d : n->dst)
         def(d);
   }
};

/* Where ra_split's definition order differs from the forward walk's
 * (empty: nowhere); run_stage checks every stage of the whole suites. */
std::string order_problem(const RegionShader &sh, const RaContext &ctx)
{
   ForwardOrder f{sh, std::vector<unsigned>(sh.num_values(), 0),
                  std::vector<unsigned>(sh.num_values(), 0)};
   f.walk(sh.root);
   for (size_t i = 0; i < f.order.size(); i++)
      if (i >= ctx.def_order.size() || ctx.def_order[i] != f.order[i] ||
          ctx.loop_depth[i] != f.depth_of[i])
         return "value " + std::to_string(i) + ": def_order/loop_depth differ from a forward walk";
   return ctx.def_order.size() == f.order.size() ? "" : "def_order has the wrong size";
}

void expect_forward_order(const Program &p, const std::string &what)
{
   Parsed sh = ssa(p);
   ASSERT_TRUE(sh) << what;
   Diagnostics d;
   ASSERT_TRUE(dce_cleanup(*sh, d)) << what;
   RaContext ctx;
   ASSERT_TRUE(ra_split(*sh, ctx, d, nullptr)) << what << ": " << d.str();
   ForwardOrder f{*sh, std::vector<unsigned>(sh->num_values(), 0),
                  std::vector<unsigned>(sh->num_values(), 0)};
   f.walk(sh->root);
   EXPECT_EQ(ctx.def_order, f.order) << what;
   EXPECT_EQ(ctx.loop_depth, f.depth_of) << what;
}

/* Here on the loop; run_stage checks every stage of SbRaWhole's suites
 * (tests/shaders on three chips, random programs) the same way. */
TEST(SbRaLiveness, DefinitionOrderIsTheForwardOne)
{
   expect_forward_order(loop_program(), "loop");
   /* The loop's values are at depth 1: the check sees loop depths too. */
   Parsed sh = ssa(loop_program());
   ASSERT_TRUE(sh);
   Diagnostics d;
   ASSERT_TRUE(dce_cleanup(*sh, d));
   RaContext ctx;
   ASSERT_TRUE(ra_split(*sh, ctx, d, nullptr));
   EXPECT_NE(std::count(ctx.loop_depth.begin(), ctx.loop_depth.end(), 1u), 0);
}

TEST(SbRa, LoopWithBreakAndContinue)
{
   RaRun r = allocate(loop_program());
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.split_dump,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R1.x.1 = 0\n"
             "    y: MOV R2.x.1 = 0\n"
             "cf 1 ALU (new)\n"
             "  group\n"
             "    x: MOV T14.1 = R1.x.1\n"
             "  group\n"
             "    x: MOV T15.1 = R2.x.1\n"
             "region #0 loop (departs 1, repeats 2)\n"
             "  loop_phi R1.x.2 = T14.1, T12.1, T10.1\n"
             "  loop_phi R2.x.2 = T15.1, T13.1, T11.1\n"
             "  repeat #0 -> region #0\n"
             "    cf 2 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETGE _, EXEC.1, PRED.1 = R1.x.2, 0x40800000\n"
             "    region #1 (departs 2, repeats 0)\n"
             "      depart #1 -> region #1\n"
             "        if EXEC.1\n"
             "          depart #0 -> region #1\n"
             "            depart #0 -> region #0\n"
             "              cf 0 ALU (new)\n"
             "                group\n"
             "                  x: MOV T9.1 = R2.x.2\n"
             "    cf 6 ALU\n"
             "      group\n"
             "        x: ADD R1.x.3 = R1.x.2, 1.0\n"
             "    cf 7 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETE _, EXEC.2, PRED.2 = R1.x.3, 0x40000000\n"
             "    region #2 (departs 2, repeats 0)\n"
             "      depart #1 -> region #2\n"
             "        if EXEC.2\n"
             "          depart #0 -> region #2\n"
             "            repeat #1 -> region #0\n"
             "              cf 0 ALU (new)\n"
             "                group\n"
             "                  x: MOV T10.1 = R1.x.3\n"
             "                group\n"
             "                  x: MOV T11.1 = R2.x.2\n"
             "    cf 11 ALU\n"
             "      group\n"
             "        y: MUL T5.1 = R1.x.3, 0.5\n"
             "      group\n"
             "        x: ADD R2.x.3 = R2.x.2, T5.1\n"
             "    cf 0 ALU (new)\n"
             "      group\n"
             "        x: MOV T12.1 = R1.x.3\n"
             "      group\n"
             "        x: MOV T13.1 = R2.x.3\n"
             "  phi R2.x.4 = T9.1\n"
             "cf 13 ALU (new)\n"
             "  group\n"
             "    x: MOV T16.1 = R2.x.4\n"
             "  group\n"
             "    x: MOV T17.1 = R2.y.0\n"
             "  group\n"
             "    x: MOV T18.1 = R2.z.0\n"
             "  group\n"
             "    x: MOV T19.1 = R2.w.0\n"
             "cf 13 EXPORT_DONE T16.1, T17.1, T18.1, T19.1\n");
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.1: R0.y\n"
             "R1.x.2: R0.y\n"
             "R1.x.3: R0.y\n"
             "R2.x.1: R2.x\n"
             "R2.x.2: R2.x\n"
             "R2.x.3: R2.x\n"
             "R2.x.4: R2.x\n"
             "T5.1: R0.x\n"
             "R2.y.0: R2.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T9.1: R2.x\n"
             "T10.1: R0.y\n"
             "T11.1: R2.x\n"
             "T12.1: R0.y\n"
             "T13.1: R2.x\n"
             "T14.1: R0.y\n"
             "T15.1: R2.x\n"
             "T16.1: R2.x\n"
             "T17.1: R2.y\n"
             "T18.1: R2.z\n"
             "T19.1: R2.w\n");
   EXPECT_EQ(r.ctx.split_copies, 11u);
   EXPECT_EQ(r.ctx.coalesced, 8u);
   EXPECT_EQ(r.alloc.num_gprs, 3u);

   /* The checker on a broken allocation: the product put where the live
    * counter is. */
   Allocation bad = r.alloc;
   auto n = value_names(*r.sh);
   unsigned v = unsigned(std::find(n.begin(), n.end(), "T5.1") - n.begin());
   ASSERT_LT(v, n.size());
   bad.reg[v].chan = 1;
   Diagnostics d;
   EXPECT_FALSE(ra_checker(*r.sh, bad, d));
   EXPECT_EQ(d.str(),
             "ra:12: error: ra_checker: CF 11: R1.x.3 is read from R0.y, which holds T5.1\n");
}

TEST(SbRa, CheckerSeesClobberOnTheNextIteration)
{
   /* n = 3 (outside); i = 0; s = 0; loop { if (i >= n) break; i += 1;
    * t = i * 3; s += t } export s.  n is read at the top of the body and
    * must survive the rest of it. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 0), zero()),
                         alu(AluOp::MOV, kSlotZ, dst(3, 0), src_literal(0))},
                        {0x40400000})}),
      cf_op(CfOp::LOOP_START_DX10, 8),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(1, 0), src_gpr(3, 0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(1, 0), one())}),
                  group({alu(AluOp::MUL, kSlotY, dst(4, 1), src_gpr(1, 0), src_literal(0))},
                        {0x40400000}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), src_gpr(4, 1))})}),
      cf_op(CfOp::LOOP_END, 2),
      export_done(2),
   });
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.1: R0.y\n"
             "R1.x.2: R0.y\n"
             "R1.x.3: R0.y\n"
             "R2.x.1: R2.x\n"
             "R2.x.2: R2.x\n"
             "R2.x.3: R2.x\n"
             "R2.x.4: R2.x\n"
             "R3.x.1: R0.z\n"
             "R4.y.2: R0.x\n"
             "R2.y.0: R2.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T9.1: R2.x\n"
             "T10.1: R0.y\n"
             "T11.1: R2.x\n"
             "T12.1: R0.y\n"
             "T13.1: R2.x\n"
             "T14.1: R2.x\n"
             "T15.1: R2.y\n"
             "T16.1: R2.z\n"
             "T17.1: R2.w\n");
   EXPECT_EQ(r.alloc.num_gprs, 3u);
   /* The product put on n's channel: right on the first trip, wrong on the
    * second, which only the loop fixpoint sees. */
   Allocation bad = r.alloc;
   auto n = value_names(*r.sh);
   unsigned t = unsigned(std::find(n.begin(), n.end(), "R4.y.2") - n.begin());
   unsigned k = unsigned(std::find(n.begin(), n.end(), "R3.x.1") - n.begin());
   ASSERT_LT(t, n.size());
   ASSERT_LT(k, n.size());
   bad.reg[t] = bad.reg[k];
   Diagnostics d;
   EXPECT_FALSE(ra_checker(*r.sh, bad, d));
   EXPECT_EQ(d.str(),
             "ra:3: error: ra_checker: CF 2: R3.x.1 is read from R0.z, which holds no known value\n");
}

TEST(SbRa, NestedIfsWithElse)
{
   /* if (x > 0) { if (y > 0) r = 1 else r = 0.5 } else r = 2 */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 9),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())),
      cf_op(CfOp::JUMP, 6),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      cf_op(CfOp::ELSE, 9, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_inline(kSrc_0_5))})}),
      cf_op(CfOp::POP, 9, 1),
      cf_op(CfOp::ELSE, 11, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_literal(0))}, {0x40000000})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.split_dump,
             "cf 0 ALU\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETGT _, EXEC.1, PRED.1 = R1.x.0, 0\n"
             "region #0 (departs 2, repeats 0)\n"
             "  depart #1 -> region #0\n"
             "    if EXEC.1\n"
             "      depart #0 -> region #0\n"
             "        cf 3 ALU_PUSH_BEFORE\n"
             "          group\n"
             "            x: PRED_SETGT _, EXEC.2, PRED.2 = R1.y.0, 0\n"
             "        region #1 (departs 2, repeats 0)\n"
             "          depart #1 -> region #1\n"
             "            if EXEC.2\n"
             "              depart #0 -> region #1\n"
             "                cf 5 ALU\n"
             "                  group\n"
             "                    x: MOV R2.x.2 = 1.0\n"
             "                cf 0 ALU (new)\n"
             "                  group\n"
             "                    x: MOV T8.1 = R2.x.2\n"
             "            cf 7 ALU\n"
             "              group\n"
             "                x: MOV R2.x.3 = 0.5\n"
             "            cf 0 ALU (new)\n"
             "              group\n"
             "                x: MOV T9.1 = R2.x.3\n"
             "          phi R2.x.4 = T8.1, T9.1\n"
             "        cf 0 ALU (new)\n"
             "          group\n"
             "            x: MOV T10.1 = R2.x.4\n"
             "    cf 10 ALU_POP_AFTER\n"
             "      group\n"
             "        x: MOV R2.x.5 = 0x40000000\n"
             "    cf 0 ALU (new)\n"
             "      group\n"
             "        x: MOV T11.1 = R2.x.5\n"
             "  phi R2.x.6 = T10.1, T11.1\n"
             "cf 11 ALU (new)\n"
             "  group\n"
             "    x: MOV T12.1 = R2.x.6\n"
             "  group\n"
             "    x: MOV T13.1 = R2.y.0\n"
             "  group\n"
             "    x: MOV T14.1 = R2.z.0\n"
             "  group\n"
             "    x: MOV T15.1 = R2.w.0\n"
             "cf 11 EXPORT_DONE T12.1, T13.1, T14.1, T15.1\n");
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R2.x.2: R2.x\n"
             "R2.x.3: R2.x\n"
             "R2.x.4: R2.x\n"
             "R2.x.5: R2.x\n"
             "R2.x.6: R2.x\n"
             "R1.x.0: R1.x\n"
             "R1.y.0: R1.y\n"
             "R2.y.0: R2.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T8.1: R2.x\n"
             "T9.1: R2.x\n"
             "T10.1: R2.x\n"
             "T11.1: R2.x\n"
             "T12.1: R2.x\n"
             "T13.1: R2.y\n"
             "T14.1: R2.z\n"
             "T15.1: R2.w\n");
   EXPECT_EQ(r.ctx.split_copies, 8u);
   EXPECT_EQ(r.ctx.coalesced, 5u);
   EXPECT_EQ(r.alloc.num_gprs, 3u);

   /* The checker on a broken allocation: the else branch's phi source
    * moved off its phi's channel. */
   Allocation bad = r.alloc;
   auto n = value_names(*r.sh);
   unsigned v = unsigned(std::find(n.begin(), n.end(), "T11.1") - n.begin());
   ASSERT_LT(v, n.size());
   bad.reg[v].chan = uint8_t((bad.reg[v].chan + 1) % 4);
   Diagnostics d;
   EXPECT_FALSE(ra_checker(*r.sh, bad, d));
   EXPECT_EQ(d.str(),
             "ra:11: error: ra_checker: CF 10: phi source T11.1 is not in the channel of R2.x.6\n");
}

TEST(SbRa, IndirectArrayWriteInLoop)
{
   /* R4..R7 are an array: for (i = 0; i < 4; i++) a[i].x = i; out = a[1].x */
   AluInstr st = alu(AluOp::MOV, kSlotX, dst(4, 0), src_gpr(1, 0));
   st.dst.rel = true;
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero())})}),
      cf_op(CfOp::LOOP_START_DX10, 8),
      push_if(pred(AluOp::PRED_SETGE_INT, src_gpr(1, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false), src_gpr(1, 0))}),
                  group({st}),
                  group({alu(AluOp::ADD_INT, kSlotX, dst(1, 0), src_gpr(1, 0),
                             src_inline(kSrc_1_INT))})}),
      cf_op(CfOp::LOOP_END, 2),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(5, 0))})}),
      export_done(2),
   });
   p.cf[2].groups[0].literals = {4};
   RegionParseOptions o;
   o.arrays.push_back(RelArray{4, 4});
   RaRun r = allocate(p, o);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.split_dump,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R1.x.1 = 0\n"
             "cf 1 ALU (new)\n"
             "  group\n"
             "    x: MOV T13.1 = R1.x.1\n"
             "region #0 loop (departs 1, repeats 1)\n"
             "  loop_phi R1.x.2 = T13.1, T12.1\n"
             "  loop_phi R4.x.1 = R4.x.0, R4.x.2\n"
             "  loop_phi R5.x.1 = R5.x.0, R5.x.2\n"
             "  loop_phi R6.x.1 = R6.x.0, R6.x.2\n"
             "  loop_phi R7.x.1 = R7.x.0, R7.x.2\n"
             "  repeat #0 -> region #0\n"
             "    cf 2 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETGE_INT _, EXEC.1, PRED.1 = R1.x.2, 0x00000004\n"
             "    region #1 (departs 2, repeats 0)\n"
             "      depart #1 -> region #1\n"
             "        if EXEC.1\n"
             "          depart #0 -> region #1\n"
             "            depart #0 -> region #0\n"
             "    cf 6 ALU\n"
             "      group\n"
             "        x: MOVA_INT _, AR.x.2 = R1.x.2\n"
             "      group\n"
             "        x: MOV R[AR.x.2 + 4].x {use R4.x.1, R5.x.1, R6.x.1, R7.x.1; def R4.x.2, R5.x.2, R6.x.2, R7.x.2} = R1.x.2\n"
             "      group\n"
             "        x: ADD_INT R1.x.3 = R1.x.2, 1i\n"
             "    cf 0 ALU (new)\n"
             "      group\n"
             "        x: MOV T12.1 = R1.x.3\n"
             "  phi R5.x.3 = R5.x.1\n"
             "cf 8 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R5.x.3\n"
             "cf 9 ALU (new)\n"
             "  group\n"
             "    x: MOV T14.1 = R2.x.1\n"
             "  group\n"
             "    x: MOV T15.1 = R2.y.0\n"
             "  group\n"
             "    x: MOV T16.1 = R2.z.0\n"
             "  group\n"
             "    x: MOV T17.1 = R2.w.0\n"
             "cf 9 EXPORT_DONE T14.1, T15.1, T16.1, T17.1\n");
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.1: R0.x\n"
             "R1.x.2: R0.x\n"
             "R1.x.3: R0.x\n"
             "R4.x.0: R4.x\n"
             "R4.x.1: R4.x\n"
             "R4.x.2: R4.x\n"
             "R4.x.3: R4.x\n"
             "R5.x.0: R5.x\n"
             "R5.x.1: R5.x\n"
             "R5.x.2: R5.x\n"
             "R5.x.3: R5.x\n"
             "R6.x.0: R6.x\n"
             "R6.x.1: R6.x\n"
             "R6.x.2: R6.x\n"
             "R6.x.3: R6.x\n"
             "R7.x.0: R7.x\n"
             "R7.x.1: R7.x\n"
             "R7.x.2: R7.x\n"
             "R7.x.3: R7.x\n"
             "R2.x.1: R2.x\n"
             "R2.y.0: R2.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T12.1: R0.x\n"
             "T13.1: R0.x\n"
             "T14.1: R2.x\n"
             "T15.1: R2.y\n"
             "T16.1: R2.z\n"
             "T17.1: R2.w\n");
   EXPECT_EQ(r.alloc.num_gprs, 8u);
}

TEST(SbRa, FetchOperandsShareOneGpr)
{
   /* R3.y = R1.x * 2; R3.x = R1.y + 1; TEX R5.xyz_ = R3.yx; export R5 */
   TexInstr t;
   t.src_gpr = 3;
   t.src_sel = {1, 0, kSel0, kSel0};
   t.dst_gpr = 5;
   t.dst_sel = {0, 1, 2, kSelMask};
   CfInstr tex;
   tex.op = CfOp::TEX;
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MUL, kSlotY, dst(3, 1), src_gpr(1, 0), src_literal(0)),
                         alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 1), one())},
                        {0x40000000})}),
      tex,
      export_done(5),
   });
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.split_dump,
             "cf 0 ALU\n"
             "  group\n"
             "    y: MUL R3.y.1 = R1.x.0, 0x40000000\n"
             "    x: ADD R3.x.1 = R1.y.0, 1.0\n"
             "cf 1 ALU (new)\n"
             "  group\n"
             "    x: MOV T8.1 = R3.y.1\n"
             "  group\n"
             "    x: MOV T9.1 = R3.x.1\n"
             "cf 1 TEX\n"
             "  SAMPLE R5.x.1, R5.y.1, R5.z.1 = T8.1, T9.1\n"
             "cf 2 ALU (new)\n"
             "  group\n"
             "    x: MOV T10.1 = R5.x.1\n"
             "  group\n"
             "    x: MOV T11.1 = R5.y.1\n"
             "  group\n"
             "    x: MOV T12.1 = R5.z.1\n"
             "  group\n"
             "    x: MOV T13.1 = R5.w.0\n"
             "cf 2 EXPORT_DONE T10.1, T11.1, T12.1, T13.1\n");
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.0: R1.x\n"
             "R3.y.1: R0.x\n"
             "R1.y.0: R1.y\n"
             "R3.x.1: R0.y\n"
             "R5.x.1: R0.x\n"
             "R5.y.1: R0.y\n"
             "R5.z.1: R0.z\n"
             "R5.w.0: R5.w\n"
             "T8.1: R0.x\n"
             "T9.1: R0.y\n"
             "T10.1: R0.x\n"
             "T11.1: R0.y\n"
             "T12.1: R0.z\n"
             "T13.1: R0.w\n");
   EXPECT_EQ(r.alloc.num_gprs, 6u);

   /* The checker on a fetch whose coordinates are split over two GPRs. */
   Allocation bad = r.alloc;
   auto n = value_names(*r.sh);
   unsigned v = unsigned(std::find(n.begin(), n.end(), "T9.1") - n.begin());
   ASSERT_LT(v, n.size());
   bad.reg[v].gpr = 7;
   Diagnostics d;
   EXPECT_FALSE(ra_checker(*r.sh, bad, d));
   EXPECT_EQ(d.str(),
             "ra:2: error: ra_checker: CF 1: fetch source operand T9.1 is in R7, not R0\n");
}

TEST(SbRa, UnreadFetchResultsAndLiveCopies)
{
   /* TEX R5.xyzw = R1.xy; R2.x = R5.x (a copy, both read later);
    * R2.y = R5.x + R2.x; export R2: only R5.x is read, so the fetch writes
    * one channel, and the copy shares its source's channel. */
   TexInstr t;
   t.src_gpr = 1;
   t.src_sel = {0, 1, kSel0, kSel0};
   t.dst_gpr = 5;
   CfInstr tex;
   tex.op = CfOp::TEX;
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {
      tex,
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(5, 0))}),
                  group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(5, 0), src_gpr(2, 0))})}),
      export_done(2),
   });
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.0: R1.x\n"
             "R1.y.0: R1.y\n"
             "R5.x.1: R0.x\n"
             "R2.x.1: R0.x\n"
             "R2.y.1: R0.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T10.1: R1.x\n"
             "T11.1: R1.y\n"
             "T12.1: R0.x\n"
             "T13.1: R0.y\n"
             "T14.1: R0.z\n"
             "T15.1: R0.w\n");
   EXPECT_EQ(r.alloc.num_gprs, 3u);
}

TEST(SbRa, UnwrittenAndConstantExportOperandsTakeNoRegister)
{
   /* R2.x = R1.x + R1.y; R2.y = 0.0; export R2.  With the shader's inputs
    * known (R1 only), R2.z and R2.w are unwritten: no register, no copy;
    * R2.y becomes SEL_0 and its MOV goes.  Without the info every entry
    * value is an input and keeps R2. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), src_gpr(1, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
      export_done(2),
   });
   ShaderInfo info = vs_info(ChipClass::Evergreen);
   RaRun r = allocate(p, {}, &info);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.ctx.undef_operands, 2u);
   EXPECT_EQ(r.ctx.const_operands, 1u);
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.0: R1.x\n"
             "R1.y.0: R1.y\n"
             "R2.x.1: R0.x\n"
             "T6.1: R0.x\n");
   EXPECT_EQ(r.alloc.num_gprs, 2u);
   /* The export keeps one register operand; the rest are selects. */
   const Node *exp = r.sh->root->children.back();
   ASSERT_EQ(exp->src.size(), 4u);
   EXPECT_EQ(exp->src[1].kind, ValueKind::Literal);
   EXPECT_EQ(exp->src[1].literal, 0u);
   EXPECT_EQ(exp->src[2].kind, ValueKind::None);
   EXPECT_EQ(exp->src[3].kind, ValueKind::None);

   RaRun all = allocate(p);
   ASSERT_TRUE(all.ok) << all.diag;
   EXPECT_EQ(all.ctx.undef_operands, 0u);
   EXPECT_EQ(all.ctx.const_operands, 1u);
   EXPECT_EQ(all.alloc.num_gprs, 3u);
}

/* `first` (which writes R2.x = R1.x); PRED_SETGT R1.y > 0 (pred only);
 * (pred) R2.x = 1.0; export R2: a predicated write, so a psi. */
Program predicated_write_program(std::vector<AluInstr> first)
{
   AluInstr ps = alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), src_gpr(1, 1), zero());
   ps.update_pred = true;
   AluInstr w = alu(AluOp::MOV, kSlotX, dst(2, 0), one());
   w.pred_sel = 3;
   return program(ChipClass::Evergreen, {
      alu_clause({group(std::move(first)), group({ps}), group({w})}),
      export_done(2),
   });
}

TEST(SbRa, PredicatedWriteKeepsOldValueChannel)
{
   Program p = predicated_write_program({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0))});
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   EXPECT_EQ(r.split_dump,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.x.0\n"
             "  group\n"
             "    x: PRED_SETGT _, PRED.1 = R1.y.0, 0\n"
             "  group\n"
             "    x: MOV T8.1 = R2.x.1\n"
             "  group\n"
             "    x: MOV T4.1 = 1.0, PRED.1\n"
             "  psi (pred_sel 3) R2.x.2 = PRED.1, T4.1, T8.1\n"
             "cf 1 ALU (new)\n"
             "  group\n"
             "    x: MOV T9.1 = R2.x.2\n"
             "  group\n"
             "    x: MOV T10.1 = R2.y.0\n"
             "  group\n"
             "    x: MOV T11.1 = R2.z.0\n"
             "  group\n"
             "    x: MOV T12.1 = R2.w.0\n"
             "cf 1 EXPORT_DONE T9.1, T10.1, T11.1, T12.1\n");
   EXPECT_EQ(assignment(*r.sh, r.alloc),
             "R1.x.0: R1.x\n"
             "R2.x.1: R1.x\n"
             "R2.x.2: R1.x\n"
             "R1.y.0: R1.y\n"
             "T4.1: R1.x\n"
             "R2.y.0: R2.y\n"
             "R2.z.0: R2.z\n"
             "R2.w.0: R2.w\n"
             "T8.1: R1.x\n"
             "T9.1: R1.x\n"
             "T10.1: R1.y\n"
             "T11.1: R1.z\n"
             "T12.1: R1.w\n");
   EXPECT_EQ(r.alloc.num_gprs, 3u);
}

TEST(SbRa, LoopPhiEntryValueLiveAfterTheLoop)
{
   /* v = x * 0.5; w = v; i = 0; loop { if (i >= 4) break; v = y + 0.5;
    * i += 1 } out = (v + w, i).  After gvn reads w as v's first version,
    * that version is both loop_phi source 0 and live past the loop, so it
    * interferes with the phi: only its entry copy can share the phi's
    * register.  ra_split once listed the phi's values before that copy
    * replaced source 0, and ra_coalesce refused the phi (the bench's
    * generated loops fell back to the clause-local stage). */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(3, 0), zero()),
                         alu(AluOp::MUL, kSlotY, dst(4, 1), src_gpr(1, 0),
                             src_inline(kSrc_0_5))}),
                  group({alu(AluOp::MOV, kSlotY, dst(5, 1), src_gpr(4, 1))})}),
      cf_op(CfOp::LOOP_START_DX10, 8),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(3, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(3, 0), one()),
                         alu(AluOp::ADD, kSlotY, dst(4, 1), src_gpr(1, 1),
                             src_inline(kSrc_0_5))})}),
      cf_op(CfOp::LOOP_END, 2),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(4, 1), src_gpr(5, 1)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(3, 0))})}),
      export_done(2),
   });
   p.cf[2].groups[0].literals = {0x40800000};
   ShaderInfo info = vs_info(ChipClass::Evergreen);

   Parsed sh = ssa(p);
   ASSERT_TRUE(sh);
   Diagnostics d;
   ASSERT_TRUE(gvn(*sh, d)) << d.str();
   ASSERT_TRUE(dce_cleanup(*sh, d)) << d.str();
   RaContext ctx;
   Allocation alloc;
   ASSERT_TRUE(ra_split(*sh, ctx, d, &info)) << d.str();
   EXPECT_EQ(region_dump(*sh),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R3.x.1 = 0\n"
             "    y: MUL R4.y.1 = R1.x.0, 0.5\n"
             "cf 1 ALU (new)\n"
             "  group\n"
             "    x: MOV T15.1 = R3.x.1\n"
             "  group\n"
             "    x: MOV T16.1 = R4.y.1\n"
             "region #0 loop (departs 1, repeats 1)\n"
             "  loop_phi R3.x.2 = T15.1, T13.1\n"
             "  loop_phi R4.y.2 = T16.1, T14.1\n"
             "  repeat #0 -> region #0\n"
             "    cf 2 ALU_PUSH_BEFORE\n"
             "      group\n"
             "        x: PRED_SETGE _, EXEC.1, PRED.1 = R3.x.2, 0x40800000\n"
             "    region #1 (departs 2, repeats 0)\n"
             "      depart #1 -> region #1\n"
             "        if EXEC.1\n"
             "          depart #0 -> region #1\n"
             "            depart #0 -> region #0\n"
             "              cf 0 ALU (new)\n"
             "                group\n"
             "                  x: MOV T11.1 = R3.x.2\n"
             "                group\n"
             "                  x: MOV T12.1 = R4.y.2\n"
             "    cf 6 ALU\n"
             "      group\n"
             "        x: ADD R3.x.3 = R3.x.2, 1.0\n"
             "        y: ADD R4.y.3 = R1.y.0, 0.5\n"
             "    cf 0 ALU (new)\n"
             "      group\n"
             "        x: MOV T13.1 = R3.x.3\n"
             "      group\n"
             "        x: MOV T14.1 = R4.y.3\n"
             "  phi R3.x.4 = T11.1\n"
             "  phi R4.y.4 = T12.1\n"
             "cf 8 ALU\n"
             "  group\n"
             "    x: ADD R2.x.1 = R4.y.4, R4.y.1\n"
             "cf 9 ALU (new)\n"
             "  group\n"
             "    x: MOV T17.1 = R2.x.1\n"
             "  group\n"
             "    x: MOV T18.1 = R3.x.4\n"
             "cf 9 EXPORT_DONE T17.1, T18.1, _, _\n");
   /* The loop_phi's values as ra_coalesce must merge them: the phi, the
    * entry copy and the repeat's copy (not the copied value itself). */
   auto n = value_names(*sh);
   std::string forced;
   for (const auto &f : ctx.forced) {
      for (unsigned v : f)
         forced += n[v] + " ";
      forced += "\n";
   }
   EXPECT_EQ(forced, "R3.x.4 T11.1 \n"
                     "R4.y.4 T12.1 \n"
                     "R3.x.2 T15.1 T13.1 \n"
                     "R4.y.2 T16.1 T14.1 \n");
   ASSERT_TRUE(ra_coalesce(*sh, ctx, d)) << d.str();
   ASSERT_TRUE(ra_init(*sh, ctx, alloc, d)) << d.str();
   ASSERT_TRUE(ra_checker(*sh, alloc, d)) << d.str();
   EXPECT_EQ(assignment(*sh, alloc),
             "R3.x.1: R0.y\n"
             "R3.x.2: R0.y\n"
             "R3.x.3: R0.y\n"
             "R3.x.4: R0.y\n"
             "R1.x.0: R1.x\n"
             "R4.y.1: R0.x\n"
             "R4.y.2: R0.z\n"
             "R4.y.3: R0.z\n"
             "R4.y.4: R0.z\n"
             "R1.y.0: R1.y\n"
             "R2.x.1: R0.x\n"
             "T11.1: R0.y\n"
             "T12.1: R0.z\n"
             "T13.1: R0.y\n"
             "T14.1: R0.z\n"
             "T15.1: R0.y\n"
             "T16.1: R0.z\n"
             "T17.1: R0.x\n"
             "T18.1: R0.y\n");
   EXPECT_EQ(alloc.num_gprs, 2u);

   Program out;
   ASSERT_TRUE(bc_finalize(*sh, alloc, info, out, d)) << d.str();
   ShaderInfo fin = info;
   fin.num_gprs = alloc.num_gprs;
   std::vector<Vec4> in;
   for (float x : {0.5f, -1.0f, 3.0f})
      in.push_back(Vec4{std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(x * 0.25f), 0, 0});
   std::vector<Vec4> want = outputs_of(p, info, in);
   EXPECT_EQ(outputs_of(out, fin, in), want);
   /* out.x = (y + 0.5) + x * 0.5, out.y = 4 */
   EXPECT_EQ(want[0][0], std::bit_cast<uint32_t>(0.625f + 0.25f));
   EXPECT_EQ(want[0][1], std::bit_cast<uint32_t>(4.0f));
}

/* ---------------------------------------------------------------------- */
/* Whole programs from the plain backend                                   */
/* ---------------------------------------------------------------------- */

struct SuiteStats {
   unsigned stages = 0, refused_parse = 0, ra_fallback = 0, allocated = 0;
   unsigned gprs_before = 0, gprs_after = 0;
   unsigned movs_kept = 0, movs_dropped = 0; /* plain MOVs after allocation */
   /* bc_finalize on the allocation, the validator, and the emulator on
    * plain vs finalized bytecode with the same inputs. */
   unsigned finalized = 0, finalize_fallback = 0, compared = 0, not_comparable = 0;
   unsigned gprs_final = 0;
   std::string failures;
};

/* MOVs without modifiers whose source and result got one register channel
 * (finalize drops them) and the others. */
void count_movs(const RegionShader &sh, const Node *n, const Allocation &a, SuiteStats &st)
{
   if (n->kind == NodeKind::Alu && n->alu && n->alu->op == AluOp::MOV && !n->alu->dst.clamp &&
       !n->alu->dst.omod && n->src.size() == 1 && n->src[0].kind == ValueKind::Var &&
       !n->src[0].neg && !n->src[0].abs && n->dst.size() == 1 &&
       n->dst[0].kind == ValueKind::Var) {
      const RegAssign &s = a.reg[sh.value_id(n->src[0])], &d = a.reg[sh.value_id(n->dst[0])];
      if (s.gpr >= 0 && s.gpr == d.gpr && s.chan == d.chan)
         st.movs_dropped++;
      else
         st.movs_kept++;
   }
   for (const Node *c : n->children)
      count_movs(sh, c, a, st);
}

/* Deterministic inputs and constants for one run of both programs. */
Batch make_batch(const ShaderInfo &info, uint32_t seed)
{
   /* [0, 1): the range the shader tests draw in (an address computed from
    * an input stays inside its array). */
   return random_lanes(info, seed, 0.0f, 1.0f);
}

void finalize_and_compare(const Program &prog, const ShaderInfo &info, const RegionShader &sh,
                          const Allocation &alloc, const std::string &what, SuiteStats &st)
{
   Diagnostics d;
   Program out;
   if (!bc_finalize(sh, alloc, info, out, d)) {
      st.finalize_fallback++;
      if (std::getenv("SBCC_RA_VERBOSE"))
         std::cerr << what << ": bc_finalize: " << d.str();
      return;
   }
   st.finalized++;
   ShaderInfo fin = info;
   fin.num_gprs = alloc.num_gprs;
   if (!validate_program(out, fin, d)) {
      st.failures += what + ": validator: " + d.str();
      return;
   }
   Resources res = random_constants(7);
   RunLimits lim;
   lim.max_loop_iterations = 256;
   Batch a = make_batch(info, 1), b = make_batch(info, 1);
   RunResult ra = emulate(prog, info, res, a, lim);
   if (ra.status != RunStatus::Ok) {
      st.not_comparable++; /* textures, budgets: the plain code does not run alone */
      return;
   }
   RunResult rb = emulate(out, fin, res, b, lim);
   if (rb.status != RunStatus::Ok) {
      st.failures += what + ": finalized code does not run: " + rb.message + "\n";
      return;
   }
   for (size_t l = 0; l < a.lanes.size(); l++)
      if (a.lanes[l].outputs != b.lanes[l].outputs || a.lanes[l].killed != b.lanes[l].killed) {
         st.failures += what + ": lane " + std::to_string(l) + " differs\n";
         return;
      }
   st.compared++;
   st.gprs_final += fin.num_gprs;
}

/* What is wrong with the interference graph's flat lists (RaAdjacency):
 * offsets that do not cover the list, a list not strictly increasing (a
 * duplicate or out of order; ra_interfere binary-searches them), a value
 * its own neighbour, or an edge present in one direction only.  Small
 * graphs come from a bit matrix, large ones from the linear build: the
 * stages and random programs exercise both. */
std::string adjacency_problem(const RaContext &ctx)
{
   const RaAdjacency &a = ctx.adj;
   if (a.size() != ctx.num_values || a.start.size() != size_t(ctx.num_values) + 1 ||
       a.start[0] != 0 || a.start.back() != a.list.size())
      return "adjacency offsets do not match the values";
   for (unsigned v = 0; v < ctx.num_values; v++) {
      if (a.start[v] > a.start[v + 1])
         return "adjacency offsets decrease at value " + std::to_string(v);
      unsigned prev = 0;
      bool first = true;
      for (unsigned w : a[v]) {
         if (w >= ctx.num_values || w == v || (!first && w <= prev))
            return "adjacency list of value " + std::to_string(v) + " is not a sorted set";
         if (!ra_interfere(ctx, w, v))
            return "edge " + std::to_string(v) + " - " + std::to_string(w) + " is one-way";
         prev = w;
         first = false;
      }
   }
   return "";
}

/* The interference graph is gathered in a bit matrix for small shaders
 * and as rows of neighbours for large ones, and the lists must come out
 * the same either way (ra_coalesce and ra_init read them in order).  Both
 * builds, forced on the split tree, against the one ra_split made. */
std::string graph_builds_differ(const RegionShader &sh, const RaContext &ctx)
{
   for (unsigned limit : {0u, ~0u}) {
      RaContext again = ctx;
      ra_build_interference(sh, again, limit);
      const char *how = limit ? "the matrix build" : "the row build";
      if (again.adj.start != ctx.adj.start || again.adj.list != ctx.adj.list)
         return std::string(how) + " gives other interference lists";
      if (again.chan_excl.start != ctx.chan_excl.start ||
          again.chan_excl.list != ctx.chan_excl.list)
         return std::string(how) + " gives other channel exclusions";
      if (again.def_order != ctx.def_order || again.loop_depth != ctx.loop_depth)
         return std::string(how) + " gives another definition order or loop depth";
   }
   return "";
}

/* A psi's result and its old value are written over each other, so the
 * row build leaves them out of each other's lists where the live sets
 * hold them (the corpus stages have no psi: dce runs before if_conversion
 * would make one).  Both builds must agree here too. */
TEST(SbRa, GraphBuildsAgreeWithPsi)
{
   Program p = predicated_write_program({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)),
                                         alu(AluOp::MOV, kSlotY, dst(3, 1), src_gpr(1, 2))});
   RaRun r = allocate(p);
   ASSERT_TRUE(r.ok) << r.diag;
   ASSERT_FALSE(r.ctx.psi_pairs.empty());
   EXPECT_EQ(graph_builds_differ(*r.sh, r.ctx), "");
}

/* Every version `from` of variable `var` in the subtree becomes `to`. */
void merge_versions(Node *n, int var, unsigned from, unsigned to)
{
   for (Value &v : n->dst)
      if (v.kind == ValueKind::Var && v.var == var && v.version == from)
         v.version = to;
   for (Value &v : n->src)
      if (v.kind == ValueKind::Var && v.var == var && v.version == from)
         v.version = to;
   for (Node *c : n->children)
      merge_versions(c, var, from, to);
}

/* The row build drops duplicate edges only when its walk saw a value
 * defined twice or live before its definition (SSA has neither, so no
 * corpus shader or stage takes that path).  Here R1.x.1 is defined twice
 * and also read by its own second definition, with R2.x.1 live across it:
 * the edge R1.x.1 - R2.x.1 is then recorded from two rows, and the lists
 * must still be sorted sets, the same from both builds. */
TEST(SbRaLiveness, RowBuildDropsEdgesRecordedTwice)
{
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), src_gpr(0, 0))}),
                  group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(0, 1))}),
                  group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(1, 0), src_gpr(2, 0))}),
                  group({alu(AluOp::ADD, kSlotX, dst(3, 0), src_gpr(1, 0), src_gpr(2, 0))})}),
      export_done(3),
   });
   Parsed sh = ssa(p);
   ASSERT_TRUE(sh);
   int r1x = -1;
   for (size_t v = 0; v < sh->vars.size(); v++)
      if (sh->vars[v].kind == VarKind::Gpr && sh->vars[v].index == 1 && sh->vars[v].chan == 0)
         r1x = int(v);
   ASSERT_GE(r1x, 0);
   ASSERT_EQ(sh->version_count[r1x], 2u);
   merge_versions(sh->root, r1x, 2, 1);
   for (unsigned limit : {0u, ~0u}) {
      RaContext ctx;
      ra_build_interference(*sh, ctx, limit);
      const char *how = limit ? "matrix build" : "row build";
      EXPECT_EQ(adjacency_problem(ctx), "") << how;
      EXPECT_EQ(edges(*sh, ctx),
                "R1.x.1 - R0.y.0\n"
                "R1.x.1 - R2.x.1\n"
                "R1.x.1 - R3.w.0\n"
                "R1.x.1 - R3.y.0\n"
                "R1.x.1 - R3.z.0\n"
                "R2.x.1 - R3.w.0\n"
                "R2.x.1 - R3.y.0\n"
                "R2.x.1 - R3.z.0\n"
                "R3.x.1 - R3.w.0\n"
                "R3.x.1 - R3.y.0\n"
                "R3.x.1 - R3.z.0\n")
         << how;
   }
}

/* parse -> ssa -> dce -> ra on one plain program; the checker must accept
 * every allocation ra_init returns. */
void run_stage(const Program &prog, const ShaderInfo &info, const std::string &what,
               SuiteStats &st)
{
   st.stages++;
   Diagnostics d;
   RegionParseOptions opts;
   opts.arrays = infer_rel_arrays(prog);
   auto sh = region_parse(prog, opts, d);
   if (!sh) {
      st.refused_parse++;
      if (std::getenv("SBCC_RA_VERBOSE"))
         std::cerr << what << ": " << d.str();
      return;
   }
   ssa_prepare(*sh);
   ssa_rename(*sh);
   if (!dce_cleanup(*sh, d)) {
      st.failures += what + ": dce: " + d.str();
      return;
   }
   RaContext ctx;
   Allocation alloc;
   const bool split = ra_split(*sh, ctx, d);
   if (split) {
      if (std::string bad = adjacency_problem(ctx); !bad.empty()) {
         st.failures += what + ": " + bad + "\n";
         return;
      }
      if (std::string bad = order_problem(*sh, ctx); !bad.empty()) {
         st.failures += what + ": " + bad + "\n";
         return;
      }
      if (std::string bad = graph_builds_differ(*sh, ctx); !bad.empty()) {
         st.failures += what + ": " + bad + "\n";
         return;
      }
   }
   if (!split || !ra_coalesce(*sh, ctx, d) || !ra_init(*sh, ctx, alloc, d)) {
      st.ra_fallback++;
      std::cerr << what << ": RA falls back: " << d.str();
      return;
   }
   if (!ra_checker(*sh, alloc, d)) {
      st.failures += what + ": " + d.str();
      return;
   }
   st.allocated++;
   unsigned kept = st.movs_kept;
   count_movs(*sh, sh->root, alloc, st);
   if (std::getenv("SBCC_RA_DUMP") && st.movs_kept > kept && st.movs_kept < 12)
      std::cerr << what << "\n" << region_dump(*sh) << assignment(*sh, alloc);
   st.gprs_before += info.num_gprs;
   st.gprs_after += alloc.num_gprs;
   finalize_and_compare(prog, info, *sh, alloc, what, st);
}

void compile_and_run(const std::string &text, const std::string &what, ChipClass chip,
                     SuiteStats &st)
{
   /* Stages the plain backend refuses are simply not counted. */
   std::string error;
   if (!with_plain_bytecode(
          text, what, chip,
          [&](const Program &p, const ShaderInfo &info) { run_stage(p, info, what, st); }, &error))
      st.failures += what + ": TGSI: " + error;
}

std::optional<std::filesystem::path> shaders_dir()
{
   std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
   for (auto p : {here / ".." / "shaders", std::filesystem::path("tests/shaders"),
                  std::filesystem::path("../tests/shaders"),
                  std::filesystem::path("../../tests/shaders"),
                  std::filesystem::path("../../../tests/shaders")})
      if (std::filesystem::is_directory(p))
         return p;
   return std::nullopt;
}

/* The [vertex shader tgsi] / [fragment shader tgsi] sections of a file. */
std::vector<std::pair<std::string, std::string>> tgsi_sections(const std::filesystem::path &f)
{
   std::ifstream in(f);
   std::vector<std::pair<std::string, std::string>> out;
   std::string line, cur, text;
   auto flush = [&] {
      if (!cur.empty())
         out.push_back({cur, text});
      cur.clear();
      text.clear();
   };
   while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '[') {
         flush();
         if (line == "[vertex shader tgsi]" || line == "[fragment shader tgsi]")
            cur = line;
         continue;
      }
      if (!cur.empty())
         text += line + "\n";
   }
   flush();
   return out;
}

TEST(SbRaWhole, ShaderTestStages)
{
   auto dir = shaders_dir();
   if (!dir)
      GTEST_SKIP() << "tests/shaders not found from the working directory";
   std::vector<std::filesystem::path> files;
   for (auto &e : std::filesystem::directory_iterator(*dir))
      if (e.path().extension() == ".shader_test")
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700, ChipClass::Cayman}) {
      SuiteStats st;
      for (auto &f : files)
         for (auto &[sec, text] : tgsi_sections(f))
            compile_and_run(text, f.filename().string() + " " + sec, chip, st);
      std::cout << chip_class_name(chip) << ": " << st.stages << " stages, " << st.allocated
                << " allocated, " << st.refused_parse << " refused by region_parse, "
                << st.ra_fallback << " RA fallbacks; GPRs plain " << st.gprs_before
                << " -> RA " << st.gprs_after << "; MOVs dropped " << st.movs_dropped
                << ", kept " << st.movs_kept << "; finalized " << st.finalized
                << " (fallback " << st.finalize_fallback << "), emulator-compared " << st.compared
                << " (not runnable alone " << st.not_comparable << ")\n";
      EXPECT_EQ(st.failures, "");
      EXPECT_GT(st.stages, 300u);
      EXPECT_EQ(st.ra_fallback, 0u);
      EXPECT_LE(st.gprs_after, st.gprs_before);
   }
}

TEST(SbRaWhole, RandomPrograms)
{
   SuiteStats st;
   for (uint32_t seed = 1; seed <= 200; seed++)
      compile_and_run(sbcc::test::random_tgsi_program(seed), "random " + std::to_string(seed),
                      ChipClass::Evergreen, st);
   std::cout << st.stages << " stages, " << st.allocated << " allocated, " << st.refused_parse
             << " refused by region_parse, " << st.ra_fallback << " RA fallbacks; GPRs plain "
             << st.gprs_before << " -> RA " << st.gprs_after << "; MOVs dropped "
             << st.movs_dropped << ", kept " << st.movs_kept << "; finalized " << st.finalized
             << " (fallback " << st.finalize_fallback << "), emulator-compared " << st.compared
             << " (not runnable alone " << st.not_comparable << ")\n";
   EXPECT_EQ(st.failures, "");
   EXPECT_EQ(st.stages, 200u);
   EXPECT_EQ(st.ra_fallback, 0u);
}

} // namespace
