/*
 * Structured SSA IR of sb: region parser, ssa_prepare/ssa_rename and the
 * dump, on the classic shapes (loop with break and continue, nested if/else,
 * indirect array write in a loop) with exact expected dumps, refusals with
 * exact diagnostics, and random CF layouts that must be refused or parsed.
 */
#include <iostream>
#include <random>

#include "r600/r600_disasm.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_ir.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

std::string ssa_dump(const Program &p, const RegionParseOptions &o = {})
{
   Diagnostics d;
   auto sh = region_parse(p, o, d);
   if (!sh)
      return "refused: " + d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   return region_dump(*sh);
}

std::string refusal(const Program &p, const RegionParseOptions &o = {})
{
   Diagnostics d;
   auto sh = region_parse(p, o, d);
   return sh ? "accepted" : d.str();
}

TEST(SbRegion, WhileLoopWithContinueAndBreak)
{
   /* i = 0; s = 0; loop { if (i >= 4) break; i += 1; if (i == 2) continue;
    * s += i * 0.5 (through PV of an unwritten MUL) } */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 0), zero())})}),
      cf_op(CfOp::LOOP_START_DX10, 13),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(1, 0), src_literal(0))),
      cf_op(CfOp::JUMP, 6, 1),
      cf_op(CfOp::LOOP_BREAK),
      cf_op(CfOp::POP, 6, 1),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(1, 0), src_gpr(1, 0), one())})}),
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
   EXPECT_EQ(ssa_dump(p),
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
             "        y: MUL T4.1 = R1.x.3, 0.5\n"
             "      group\n"
             "        x: ADD R2.x.3 = R2.x.2, T4.1\n"
             "  phi R1.x.4 = R1.x.2\n"
             "  phi R2.x.4 = R2.x.2\n"
             "cf 13 EXPORT_DONE R2.x.4, R2.y.0, R2.z.0, R2.w.0\n");
}

TEST(SbRegion, NestedIfsWithElse)
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
   EXPECT_EQ(ssa_dump(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
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
             "            cf 7 ALU\n"
             "              group\n"
             "                x: MOV R2.x.3 = 0.5\n"
             "          phi R2.x.4 = R2.x.2, R2.x.3\n"
             "    cf 10 ALU_POP_AFTER\n"
             "      group\n"
             "        x: MOV R2.x.5 = 0x40000000\n"
             "  phi R2.x.6 = R2.x.4, R2.x.5\n"
             "cf 11 EXPORT_DONE R2.x.6, R2.y.0, R2.z.0, R2.w.0\n");
}

/* R4..R7 are an array: for (i = 0; i < 4; i++) a[i].x = i; out = a[1].x */
Program indirect_array_loop(RegionParseOptions &o)
{
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
   o.arrays.push_back(RelArray{4, 4});
   return p;
}

TEST(SbRegion, IndirectArrayWriteInLoop)
{
   RegionParseOptions o;
   Program p = indirect_array_loop(o);
   EXPECT_EQ(ssa_dump(p, o),
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R1.x.1 = 0\n"
             "region #0 loop (departs 1, repeats 1)\n"
             "  loop_phi R1.x.2 = R1.x.1, R1.x.3\n"
             "  loop_phi AR.x.1 = AR.x.0, AR.x.2\n"
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
             "  phi R1.x.4 = R1.x.2\n"
             "  phi AR.x.3 = AR.x.1\n"
             "  phi R4.x.3 = R4.x.1\n"
             "  phi R5.x.3 = R5.x.1\n"
             "  phi R6.x.3 = R6.x.1\n"
             "  phi R7.x.3 = R7.x.1\n"
             "cf 8 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R5.x.3\n"
             "cf 9 EXPORT_DONE R2.x.1, R2.y.0, R2.z.0, R2.w.0\n");
}

/* The parts only some nodes and values have live outside them: each region
 * owns its phi/depart/repeat lists, and a relative operand's address and
 * array elements are copied with it and dropped when it is overwritten. */
TEST(SbRegion, RegionDataAndRelativePartsBelongToTheirOwners)
{
   RegionParseOptions o;
   Program p = indirect_array_loop(o);
   Diagnostics d;
   auto sh = region_parse(p, o, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);

   const Value *rel = nullptr;
   for_each_node(sh->root, [&](const Node *n) {
      EXPECT_EQ(n->region_data != nullptr, n->kind == NodeKind::Region);
      for (const Value &v : n->dst)
         if (v.kind == ValueKind::Rel)
            rel = &v;
   });
   ASSERT_EQ(sh->regions.size(), 2u);
   EXPECT_NE(sh->regions[0]->region_data, sh->regions[1]->region_data);
   EXPECT_EQ(sh->regions[0]->region().loop_phi.size(), 6u);
   EXPECT_EQ(sh->regions[1]->region().loop_phi.size(), 0u);

   ASSERT_TRUE(rel && rel->rel());
   ASSERT_EQ(rel->mayuse().size(), 4u);
   ASSERT_EQ(rel->maydef().size(), 4u);
   Value copy = *rel;
   copy.mayuse()[0].version = 99;
   copy.rel()->version = 98;
   EXPECT_EQ(rel->mayuse()[0].version, 1u);
   EXPECT_EQ(rel->rel()->version, 2u);
   EXPECT_EQ(copy.maydef()[3].version, rel->maydef()[3].version);

   Value plain;
   plain.kind = ValueKind::Var;
   copy = plain;
   EXPECT_EQ(copy.rel(), nullptr);
   EXPECT_TRUE(copy.mayuse().empty());
   EXPECT_TRUE(copy.maydef().empty());
   copy = *rel;
   copy.clear_rel();
   EXPECT_EQ(copy.rel(), nullptr);
   EXPECT_TRUE(copy.maydef().empty());
   EXPECT_EQ(rel->maydef().size(), 4u);
}

TEST(SbRegion, PredicatedWriteBecomesPsi)
{
   /* PRED_SETGT sets the predicate only; the MOV writes R2.x where it is
    * true (pred_sel 3) and the ADD reads the merged value. */
   AluInstr ps_ = pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero());
   ps_.update_exec_mask = false;
   AluInstr mov = alu(AluOp::MOV, kSlotX, dst(2, 0), one());
   mov.pred_sel = 3;
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({ps_}), group({mov}),
                  group({alu(AluOp::ADD, kSlotX, dst(2, 1), src_gpr(2, 0), one())})}),
      export_done(2),
   });
   EXPECT_EQ(ssa_dump(p),
             "cf 0 ALU\n"
             "  group\n"
             "    x: PRED_SETGT _, PRED.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: MOV T3.1 = 1.0, PRED.1\n"
             "  psi (pred_sel 3) R2.x.1 = PRED.1, T3.1, R2.x.0\n"
             "  group\n"
             "    x: ADD R2.y.1 = R2.x.1, 1.0\n"
             "cf 1 EXPORT_DONE R2.x.1, R2.y.1, R2.z.0, R2.w.0\n");
}

/* Every instruction and phi of the tree, in tree order. */
void collect_marked(const Node *n, std::vector<const Node *> &out)
{
   if (n->kind == NodeKind::Alu || n->kind == NodeKind::Fetch || n->kind == NodeKind::Psi)
      out.push_back(n);
   for (const Node *c : n->children)
      collect_marked(c, out);
   if (n->kind != NodeKind::Region)
      return;
   for (const Node *p : n->region().phi)
      out.push_back(p);
   for (const Node *p : n->region().loop_phi)
      out.push_back(p);
}

/* mark_live (dce's marking, by Node::scratch number) keeps exactly what
 * live_instructions (the set RA's tests use) keeps, and the values both
 * report used agree: here R3.x is never read, so its MOV, the MUL in the
 * if and the phi merging them are dead; what reaches the export lives. */
TEST(SbRegion, LiveMarksAgreeWithLiveInstructions)
{
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(1, 0), one()),
                         alu(AluOp::MOV, kSlotY, dst(3, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 5, 1),
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(3, 0), src_gpr(1, 0), src_gpr(1, 0)),
                         alu(AluOp::ADD, kSlotY, dst(1, 1), src_gpr(1, 1), one())})}),
      cf_op(CfOp::POP, 5, 1),
      export_done(1),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   sh->number_values();
   std::vector<bool> used_set, used_marks;
   std::set<const Node *> live = live_instructions(*sh, used_set);
   std::vector<uint8_t> marks;
   mark_live(*sh, used_marks, marks);
   EXPECT_EQ(used_set, used_marks);
   std::vector<const Node *> nodes;
   collect_marked(sh->root, nodes);
   std::string dead;
   for (const Node *n : nodes) {
      ASSERT_LT(n->scratch, marks.size());
      const bool marked = marks[n->scratch] != 0;
      EXPECT_EQ(marked, live.count(n) != 0);
      if (!marked)
         dead += (n->alu ? std::string(alu_op_name(n->alu->op)) : std::string("phi")) + " ";
   }
   EXPECT_EQ(dead, "MOV MUL phi ");
}

TEST(SbRegion, RefusesWithDiagnostics)
{
   /* ALU_PUSH_BEFORE must open an if with a JUMP. */
   Program no_jump = program(ChipClass::Evergreen, {
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      export_done(1),
   });
   EXPECT_EQ(refusal(no_jump), "cf:1: error: CF 0 (ALU_PUSH_BEFORE): ALU_PUSH_BEFORE not followed by JUMP\n");

   /* A break needs a loop. */
   Program stray_break = program(ChipClass::Evergreen, {cf_op(CfOp::LOOP_BREAK), export_done(1)});
   EXPECT_EQ(refusal(stray_break), "cf:1: error: CF 0 (LOOP_BREAK): break/continue outside a loop\n");

   /* The if must close with a POP or ALU_POP_AFTER. */
   Program no_pop = program(ChipClass::Evergreen, {
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 3, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      export_done(2),
   });
   EXPECT_EQ(refusal(no_pop), "cf:1: error: CF 0 (ALU_PUSH_BEFORE): if does not end in POP or ALU_POP_AFTER\n");

   /* A loop whose target is not after its LOOP_END. */
   Program bad_loop = program(ChipClass::Evergreen, {
      cf_op(CfOp::LOOP_START_DX10, 2),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      export_done(2),
   });
   EXPECT_EQ(refusal(bad_loop), "cf:1: error: CF 0 (LOOP_START_DX10): loop target 2 is not just after a LOOP_END in the enclosing block\n");

   /* Relative writes need a declared array to know what they may touch. */
   AluInstr st = alu(AluOp::MOV, kSlotX, dst(4, 0), one());
   st.dst.rel = true;
   Program no_array = program(ChipClass::Evergreen, {alu_clause({group({st})}), export_done(2)});
   EXPECT_EQ(refusal(no_array), "cf:1: error: CF 0 (ALU): relative access to R4 outside any declared array\n");

   /* PV of an instruction the previous group does not have. */
   Program bad_pv = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), pv(2))})}),
      export_done(2),
   });
   EXPECT_EQ(refusal(bad_pv), "cf:1: error: CF 0 (ALU): PV/PS refers to no instruction of the previous group\n");

   /* Calls are outside the structured subset. */
   Program call = program(ChipClass::Evergreen, {cf_op(CfOp::CALL_FS), export_done(1)});
   EXPECT_EQ(refusal(call), "cf:1: error: CF 0 (CALL_FS): not supported by the region parser here\n");
}

/* Random CF layouts built from the structured opcodes with random targets:
 * the parser refuses or builds a tree, and SSA over an accepted tree gives
 * every phi as many sources as the classic design says. */
void check_counts(const Node *n, unsigned &regions)
{
   if (n->kind == NodeKind::Region) {
      regions++;
      for (const Node *p : n->region().phi)
         EXPECT_EQ(p->src.size(), n->region().departs.size());
      for (const Node *p : n->region().loop_phi)
         EXPECT_EQ(p->src.size(), n->region().repeats.size() + 1);
      EXPECT_TRUE(n->region().repeats.empty() || n->loop);
   }
   for (const Node *c : n->children)
      check_counts(c, regions);
}

struct LayoutGen {
   std::mt19937 rng;
   std::vector<CfInstr> cfs;
   unsigned loops = 0;

   /* prev_slot: the previous group's slot, or -1 in a clause's first group
    * (PV then is one of the refusals). */
   AluInstr random_alu(int prev_slot)
   {
      if (rng() % 3 == 0)
         return pred(AluOp::PRED_SETGT, src_gpr(rng() % 4, rng() % 4), zero());
      AluInstr in = alu(AluOp::ADD, rng() % 4, dst(rng() % 4, rng() % 4),
                        rng() % 4 ? src_gpr(rng() % 4, rng() % 4)
                        : prev_slot >= 0 ? pv(rng() % 8 ? prev_slot : rng() % 5)
                        : rng() % 8 ? src_gpr(0, 0) : pv(0),
                        one());
      in.dst.rel = rng() % 20 == 0;
      return in;
   }

   CfInstr clause(CfOp op)
   {
      std::vector<AluGroup> gs;
      for (unsigned k = 0, n = 1 + rng() % 2; k < n; k++) {
         AluInstr in = random_alu(gs.empty() ? -1 : int(gs.back().instrs[0].slot));
         gs.push_back(group({in}));
      }
      return alu_clause(gs, op);
   }

   void block(unsigned depth)
   {
      for (unsigned k = 0, n = 1 + rng() % 3; k < n; k++) {
         unsigned what = depth < 4 ? rng() % 6 : 0;
         if (what <= 1) {
            cfs.push_back(clause(CfOp::ALU));
         } else if (what == 2) {
            TexInstr t;
            t.src_gpr = uint8_t(rng() % 4);
            t.dst_gpr = uint8_t(rng() % 4);
            CfInstr cf = cf_op(CfOp::TEX);
            cf.fetches.push_back(t);
            cfs.push_back(cf);
         } else if (what == 3 && loops) {
            cfs.push_back(cf_op(rng() % 2 ? CfOp::LOOP_BREAK : CfOp::LOOP_CONTINUE));
         } else if (what <= 4) {
            cfs.push_back(clause(CfOp::ALU_PUSH_BEFORE));
            size_t jump = cfs.size();
            cfs.push_back(cf_op(CfOp::JUMP, 0, 1));
            block(depth + 1);
            bool has_else = rng() % 2;
            size_t els = cfs.size();
            if (has_else) {
               cfs.push_back(cf_op(CfOp::ELSE, 0, 1));
               cfs[jump].target = uint32_t(els);
               block(depth + 1);
            }
            if (rng() % 2)
               cfs.push_back(cf_op(CfOp::POP, 0, 1));
            else
               cfs.push_back(clause(CfOp::ALU_POP_AFTER));
            (has_else ? cfs[els] : cfs[jump]).target = uint32_t(cfs.size());
         } else {
            size_t start = cfs.size();
            cfs.push_back(cf_op(CfOp::LOOP_START_DX10));
            loops++;
            block(depth + 1);
            loops--;
            cfs.push_back(cf_op(CfOp::LOOP_END, uint32_t(start + 1)));
            cfs[start].target = uint32_t(cfs.size());
         }
      }
   }
};

TEST(SbRegion, RandomLayoutsAreRefusedOrParsed)
{
   /* Structured layouts, a quarter of them with one CF op or target
    * scrambled afterwards. */
   static const CfOp ops[] = {CfOp::ALU, CfOp::JUMP, CfOp::ELSE, CfOp::POP, CfOp::LOOP_END,
                              CfOp::LOOP_BREAK, CfOp::ALU_POP2_AFTER, CfOp::CALL_FS};
   LayoutGen g{std::mt19937(4242), {}, 0};
   unsigned accepted = 0, refused = 0, regions = 0;
   for (int iter = 0; iter < 2000; iter++) {
      g.cfs.clear();
      g.block(0);
      if (iter % 4 == 0) {
         CfInstr &cf = g.cfs[g.rng() % g.cfs.size()];
         if (g.rng() % 2)
            cf.target = uint32_t(g.rng() % (g.cfs.size() + 2));
         else
            cf.op = ops[g.rng() % std::size(ops)];
      }
      g.cfs.push_back(export_done(1));
      Program p = program(g.rng() % 2 ? ChipClass::Evergreen : ChipClass::Cayman, g.cfs);
      RegionParseOptions o;
      if (g.rng() % 2)
         o.arrays.push_back(RelArray{0, 4});
      Diagnostics d;
      auto sh = region_parse(p, o, d);
      if (!sh) {
         EXPECT_EQ(d.num_errors(), 1u);
         refused++;
         continue;
      }
      EXPECT_FALSE(d.has_errors());
      accepted++;
      ssa_prepare(*sh);
      ssa_rename(*sh);
      check_counts(sh->root, regions);
      EXPECT_FALSE(region_dump(*sh).empty());
   }
   /* Fixed seed: both outcomes are reached, with real structure. */
   EXPECT_GT(accepted, 500u);
   EXPECT_GT(refused, 100u);
   EXPECT_GT(regions, 1000u);
   std::cout << accepted << " accepted, " << refused << " refused, " << regions << " regions\n";
}

TEST(SbRegion, DecodedGarbageIsRefusedOrParsed)
{
   /* Random dwords that decode as a program: one error and nullptr, or a
    * tree that renames and dumps. */
   std::mt19937 rng(777);
   unsigned decoded = 0, accepted = 0;
   for (int iter = 0; iter < 3000; iter++) {
      std::vector<uint32_t> words(8 + rng() % 56);
      for (uint32_t &w : words)
         w = rng();
      Diagnostics dd;
      auto prog = decode_program(words, iter % 2 ? ChipClass::Evergreen : ChipClass::R700, dd);
      if (!prog)
         continue;
      decoded++;
      RegionParseOptions o;
      o.arrays.push_back(RelArray{0, 128});
      Diagnostics d;
      auto sh = region_parse(*prog, o, d);
      if (!sh) {
         EXPECT_EQ(d.num_errors(), 1u);
         continue;
      }
      accepted++;
      ssa_prepare(*sh);
      ssa_rename(*sh);
      unsigned regions = 0;
      check_counts(sh->root, regions);
      EXPECT_EQ(regions, sh->regions.size());
      region_dump(*sh);
   }
   std::cout << decoded << " of 3000 random images decoded, " << accepted << " parsed\n";
   EXPECT_GT(decoded, 0u);
}

} // namespace
