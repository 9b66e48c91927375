/*
 * if_conversion over the region tree, on hand-built programs: exact dumps
 * before and after (if/else, if without else, float and integer
 * conditions, compares with zero, nested ifs, speculable fetches, register
 * copies, constants and work both sides share, and the ifs that must stay
 * branches), and the semantics of every converted tree checked by a small
 * interpreter of the region tree against the unconverted tree on inputs
 * taking both sides.
 *
 * Whole programs (TGSI through the plain backend, tests/shaders, random
 * TGSI, the corpus) through the pipeline are in
 * test_sb_if_conversion_pipeline.cpp, in the same executable; shared
 * helpers in sb_if_conversion_test_util.h.
 */
#include <array>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "r600/r600_emu_alu.h"
#include "r600/r600_target.h"
#include "r600/sb/sb_region_passes.h"
#include "sb/sb_if_conversion_test_util.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

uint32_t fbits(float f)
{
   uint32_t u;
   std::memcpy(&u, &f, 4);
   return u;
}

/* Runs one lane through a region tree: R1 holds the input, the first
 * export's sources are the result.  Only what these tests build is
 * supported (no loops, fetches, kcache or relative access). */
struct TreeInterp {
   const RegionShader &sh;
   std::array<uint32_t, 4> input;
   std::map<std::pair<int, unsigned>, uint32_t> vals;
   std::vector<uint32_t> out;
   const Node *departing = nullptr;
   unsigned dep_index = 0;
   bool failed = false;

   uint32_t read(const Value &v)
   {
      uint32_t x = 0;
      switch (v.kind) {
      case ValueKind::Var: {
         const Var &var = sh.vars[v.var];
         if (v.version == 0)
            x = var.kind == VarKind::Gpr && var.index == 1 ? input[var.chan] : 0;
         else if (auto it = vals.find({v.var, v.version}); it != vals.end())
            x = it->second;
         else
            failed = true; /* read before its definition */
         break;
      }
      case ValueKind::Inline:
         switch (v.literal) {
         case kSrc_0: x = 0; break;
         case kSrc_1: x = fbits(1.0f); break;
         case kSrc_0_5: x = fbits(0.5f); break;
         case kSrc_1_INT: x = 1; break;
         case kSrc_M_1_INT: x = ~0u; break;
         default: failed = true; break;
         }
         break;
      case ValueKind::Literal: x = v.literal; break;
      default: failed = true; break;
      }
      if (v.abs)
         x &= 0x7fffffffu;
      if (v.neg)
         x ^= 0x80000000u;
      return x;
   }

   void seq(const NodeList &nodes, size_t first = 0)
   {
      for (size_t i = first; i < nodes.size() && !departing && !failed; i++)
         exec(nodes[i]);
   }

   void group(const Node *g)
   {
      std::vector<std::pair<const Node *, emu::SlotResult>> res;
      for (const Node *a : g->children) {
         uint32_t s[3] = {};
         for (size_t k = 0; k < a->src.size() && k < 3; k++)
            s[k] = read(a->src[k]);
         emu::SlotResult r;
         if (!emu::alu_eval(sh.chip, a->alu->op, s[0], s[1], s[2], r))
            failed = true;
         r.value = emu::apply_omod_clamp(r.value, a->alu->dst.omod, a->alu->dst.clamp);
         res.emplace_back(a, r);
      }
      for (auto &[a, r] : res) {
         for (size_t k = 0; k < a->dst.size(); k++) {
            const Value &d = a->dst[k];
            if (d.kind != ValueKind::Var)
               continue;
            VarKind vk = sh.vars[d.var].kind;
            bool flag = vk == VarKind::ExecMask || vk == VarKind::Pred;
            vals[{d.var, d.version}] = flag ? uint32_t(r.cond) : r.value;
         }
      }
   }

   void exec(const Node *n)
   {
      switch (n->kind) {
      case NodeKind::Root: seq(n->children); break;
      case NodeKind::Region:
         if (n->loop) {
            failed = true;
            return;
         }
         seq(n->children);
         if (departing != n) {
            failed |= !departing; /* a region is left only through a depart */
            return;
         }
         departing = nullptr;
         for (const Node *p : n->region().phi)
            vals[{p->dst[0].var, p->dst[0].version}] = read(p->src[dep_index]);
         break;
      case NodeKind::Depart:
         seq(n->children);
         if (!departing) {
            departing = n->target;
            dep_index = n->dep_index;
         }
         break;
      case NodeKind::If:
         if (read(n->src[0]))
            seq(n->children);
         break;
      case NodeKind::Cf:
         if (n->cf && (n->cf->op == CfOp::EXPORT || n->cf->op == CfOp::EXPORT_DONE)) {
            if (out.empty())
               for (const Value &v : n->src)
                  out.push_back(read(v));
            break;
         }
         for (const Node *c : n->children) {
            if (c->kind == NodeKind::Psi) {
               /* pred_sel 3 writes where PRED is set, 2 where it is clear */
               bool take = (read(c->src[0]) != 0) == (c->alu->pred_sel == 3);
               vals[{c->dst[0].var, c->dst[0].version}] = read(c->src[take ? 1 : 2]);
            } else if (c->kind == NodeKind::AluGroup) {
               group(c);
            } else {
               failed = true;
               return;
            }
         }
         break;
      default: failed = true; break;
      }
   }
};

std::vector<uint32_t> run_tree(const RegionShader &sh, std::array<uint32_t, 4> in)
{
   TreeInterp t{sh, in, {}, {}, nullptr, 0, false};
   t.exec(sh.root);
   EXPECT_FALSE(t.failed) << region_dump(sh);
   EXPECT_EQ(t.out.size(), 4u);
   return t.out;
}

struct Converted {
   std::string before, after;
   unsigned count = 0;
   std::map<std::string, unsigned> kept;
};

/* Parses and renames p twice: one tree stays as it is, the other is
 * converted; both must compute the same exports on every input. */
Converted convert(const Program &p, const std::vector<std::array<uint32_t, 4>> &inputs,
                  const RegionParseOptions &opts = {})
{
   Diagnostics d;
   Converted c;
   auto ref = region_parse(p, opts, d);
   auto sh = region_parse(p, opts, d);
   if (!ref || !sh) {
      ADD_FAILURE() << d.str();
      return c;
   }
   for (RegionShader *s : {ref.get(), sh.get()}) {
      ssa_prepare(*s);
      ssa_rename(*s);
   }
   c.before = region_dump(*sh);
   IfConversionStats st;
   EXPECT_TRUE(if_conversion(*sh, d, &st)) << d.str();
   EXPECT_TRUE(d.all().empty()) << d.str();
   c.after = region_dump(*sh);
   c.count = st.converted;
   c.kept = st.kept;
   for (const auto &in : inputs)
      EXPECT_EQ(run_tree(*ref, in), run_tree(*sh, in)) << "input " << in[0] << " " << in[1];
   return c;
}

const std::vector<std::array<uint32_t, 4>> kFloatInputs = {
   {fbits(2.0f), fbits(3.0f), 0, 0},
   {fbits(-1.0f), fbits(5.0f), 0, 0},
   {0, fbits(-2.0f), 0, 0},
   {fbits(1.0f), fbits(-1.0f), 0, 0},
};
const std::vector<std::array<uint32_t, 4>> kNoInputs;
const std::vector<std::array<uint32_t, 4>> kIntInputs = {
   {0, 7, 0, 0},
   {5, 0xfffffff0u, 0, 0},
   {0x80000000u, 1, 0, 0},
};

TEST(SbIfConversion, IfElseFloatCondition)
{
   /* if (x > 0) { r.x = x * 0.5; r.y = y + 1 } else { r.x = 1.0 } */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 4),
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 0), src_inline(kSrc_0_5)),
                         alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one())})}),
      cf_op(CfOp::ELSE, 6, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}, CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   Converted c = convert(p, kFloatInputs);
   EXPECT_EQ(c.before,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "    y: MOV R2.y.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETGT _, EXEC.1, PRED.1 = R1.x.0, 0\n"
             "region #0 (departs 2, repeats 0)\n"
             "  depart #1 -> region #0\n"
             "    if EXEC.1\n"
             "      depart #0 -> region #0\n"
             "        cf 3 ALU\n"
             "          group\n"
             "            x: MUL R2.x.2 = R1.x.0, 0.5\n"
             "            y: ADD R2.y.2 = R1.y.0, 1.0\n"
             "    cf 5 ALU_POP_AFTER\n"
             "      group\n"
             "        x: MOV R2.x.3 = 1.0\n"
             "  phi R2.x.4 = R2.x.2, R2.x.3\n"
             "  phi R2.y.3 = R2.y.2, R2.y.1\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.3, R2.z.0, R2.w.0\n");
   EXPECT_EQ(c.count, 1u);
   /* R2.y was not written in the else branch: its select takes R2.y.1. */
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "    y: MOV R2.y.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T8.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: MUL R2.x.2 = R1.x.0, 0.5\n"
             "    y: ADD R2.y.2 = R1.y.0, 1.0\n"
             "  group\n"
             "    x: MOV R2.x.3 = 1.0\n"
             "  group\n"
             "    x: CNDE_INT R2.x.4 = T8.1, R2.x.3, R2.x.2\n"
             "  group\n"
             "    y: CNDE_INT R2.y.3 = T8.1, R2.y.1, R2.y.2\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.3, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, IfWithoutElseIntCondition)
{
   /* if (x != 0) r.x = y + 1 (integers); r.x starts as y */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1))})}),
      push_if(pred(AluOp::PRED_SETNE_INT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 5, 1),
      alu_clause({group({alu(AluOp::ADD_INT, kSlotX, dst(2, 0), src_gpr(1, 1),
                             src_inline(kSrc_1_INT))})}),
      cf_op(CfOp::POP, 5, 1),
      export_done(2),
   });
   Converted c = convert(p, kIntInputs);
   EXPECT_EQ(c.before,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.y.0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: PRED_SETNE_INT _, EXEC.1, PRED.1 = R1.x.0, 0\n"
             "region #0 (departs 2, repeats 0)\n"
             "  depart #1 -> region #0\n"
             "    if EXEC.1\n"
             "      depart #0 -> region #0\n"
             "        cf 3 ALU\n"
             "          group\n"
             "            x: ADD_INT R2.x.2 = R1.y.0, 1i\n"
             "  phi R2.x.3 = R2.x.2, R2.x.1\n"
             "cf 5 EXPORT_DONE R2.x.3, R2.y.0, R2.z.0, R2.w.0\n");
   EXPECT_EQ(c.count, 1u);
   /* x != 0 as an integer: the select tests x itself, the PRED_SET goes. */
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.y.0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: ADD_INT R2.x.2 = R1.y.0, 1i\n"
             "  group\n"
             "    x: CNDE_INT R2.x.3 = R1.x.0, R2.x.1, R2.x.2\n"
             "cf 5 EXPORT_DONE R2.x.3, R2.y.0, R2.z.0, R2.w.0\n");
}

/* if (x > 0) { THEN } else { r.x = 1.0 }; export R2 */
Program if_else(std::vector<CfInstr> then_cfs)
{
   std::vector<CfInstr> cfs = {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, uint32_t(3 + then_cfs.size())),
   };
   cfs.insert(cfs.end(), then_cfs.begin(), then_cfs.end());
   unsigned n = unsigned(cfs.size());
   cfs.push_back(cf_op(CfOp::ELSE, n + 2, 1));
   cfs.push_back(alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})},
                            CfOp::ALU_POP_AFTER));
   cfs.push_back(export_done(2));
   return program(ChipClass::Evergreen, cfs);
}

/* Refused ifs leave the tree exactly as it was, for the reason given. */
void expect_unchanged(const Program &p, const std::string &why,
                      const RegionParseOptions &opts = {})
{
   /* The tree interpreter knows no relative access. */
   Converted c = convert(p, opts.arrays.empty() ? kFloatInputs : kNoInputs, opts);
   EXPECT_EQ(c.count, 0u);
   EXPECT_EQ(c.kept, (std::map<std::string, unsigned>{{why, 1}}));
   EXPECT_EQ(c.after, c.before);
}

TEST(SbIfConversion, FetchStaysABranch)
{
   TexInstr t;
   t.src_gpr = 1;
   t.dst_gpr = 2;
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches.push_back(t);
   Program p = if_else({tex});
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   const std::string before = region_dump(*sh);
   EXPECT_EQ(before,
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
             "        cf 3 TEX\n"
             "          SAMPLE R2.x.2, R2.y.1, R2.z.1, R2.w.1 = R1.x.0, R1.y.0, R1.z.0, R1.w.0\n"
             "    cf 5 ALU_POP_AFTER\n"
             "      group\n"
             "        x: MOV R2.x.3 = 1.0\n"
             "  phi R2.x.4 = R2.x.2, R2.x.3\n"
             "  phi R2.y.2 = R2.y.1, R2.y.0\n"
             "  phi R2.z.2 = R2.z.1, R2.z.0\n"
             "  phi R2.w.2 = R2.w.1, R2.w.0\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.2, R2.z.2, R2.w.2\n");
   IfConversionStats st;
   EXPECT_TRUE(if_conversion(*sh, d, &st));
   EXPECT_EQ(st.converted, 0u);
   EXPECT_EQ(st.kept, (std::map<std::string, unsigned>{
                         {"side has a fetch that cannot run speculatively", 1}}));
   EXPECT_EQ(region_dump(*sh), before);
}

/* A constant-buffer VFETCH on THEN and an explicit-LOD SAMPLE_L on ELSE
 * may run for every lane (see fetch_speculable): the if converts, each
 * fetch clause follows the ALU work before it, and the ALU work after a
 * fetch (ELSE's copy, the selects) goes into a new clause. */
TEST(SbIfConversion, SpeculableFetchesConvert)
{
   VtxInstr v;
   v.buffer_id = 1;
   v.src_gpr = 3;
   v.dst_gpr = 2;
   v.data_format = 35;
   CfInstr vtx = cf_op(CfOp::VTX);
   vtx.fetches.push_back(v);
   TexInstr t;
   t.op = FetchOp::SAMPLE_L;
   t.src_gpr = 1;
   t.dst_gpr = 4;
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 5),
      alu_clause({group({alu(AluOp::FLT_TO_INT, kSlotX, dst(3, 0), src_gpr(1, 1))})}),
      vtx,
      cf_op(CfOp::ELSE, 8, 1),
      tex,
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(4, 2))})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   Converted c = convert(p, kNoInputs); /* the tree interpreter does not fetch */
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(c.kept, (std::map<std::string, unsigned>{}));
   /* Without dce the selects of R3.x and R4 (read by nothing) stay. */
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T15.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: FLT_TO_INT R3.x.1 = R1.y.0\n"
             "cf 4 VTX\n"
             "  VFETCH R2.x.2, R2.y.1, R2.z.1, R2.w.1 = R3.x.1\n"
             "cf 6 TEX\n"
             "  SAMPLE_L R4.x.1, R4.y.1, R4.z.1, R4.w.1 = R1.x.0, R1.y.0, R1.z.0, R1.w.0\n"
             "cf 7 ALU (new)\n"
             "  group\n"
             "    x: MOV R2.x.3 = R4.z.1\n"
             "  group\n"
             "    x: CNDE_INT R2.x.4 = T15.1, R4.z.1, R2.x.2\n"
             "  group\n"
             "    x: CNDE_INT R3.x.2 = T15.1, R3.x.0, R3.x.1\n"
             "  group\n"
             "    y: CNDE_INT R2.y.2 = T15.1, R2.y.0, R2.y.1\n"
             "  group\n"
             "    z: CNDE_INT R2.z.2 = T15.1, R2.z.0, R2.z.1\n"
             "  group\n"
             "    w: CNDE_INT R2.w.2 = T15.1, R2.w.0, R2.w.1\n"
             "  group\n"
             "    x: CNDE_INT R4.x.2 = T15.1, R4.x.1, R4.x.0\n"
             "  group\n"
             "    y: CNDE_INT R4.y.2 = T15.1, R4.y.1, R4.y.0\n"
             "  group\n"
             "    z: CNDE_INT R4.z.2 = T15.1, R4.z.1, R4.z.0\n"
             "  group\n"
             "    w: CNDE_INT R4.w.2 = T15.1, R4.w.1, R4.w.0\n"
             "cf 8 EXPORT_DONE R2.x.4, R2.y.2, R2.z.2, R2.w.2\n");
}

/* The same kinds of fetch behind an implicit-LOD SAMPLE, a gradient
 * setter or an indexed buffer stay branches. */
TEST(SbIfConversion, UnspeculableFetchesStayBranches)
{
   for (FetchOp op : {FetchOp::SAMPLE, FetchOp::SAMPLE_C, FetchOp::SAMPLE_G,
                      FetchOp::SET_GRADIENTS_H}) {
      TexInstr t;
      t.op = op;
      t.src_gpr = 1;
      t.dst_gpr = 2;
      CfInstr tex = cf_op(CfOp::TEX);
      tex.fetches.push_back(t);
      Converted c = convert(if_else({tex}), kNoInputs); /* no fetches in the interpreter */
      EXPECT_EQ(c.count, 0u);
      EXPECT_EQ(c.kept, (std::map<std::string, unsigned>{
                           {"side has a fetch that cannot run speculatively", 1}}));
      EXPECT_EQ(c.after, c.before);
   }
   VtxInstr v;
   v.buffer_id = 1;
   v.src_gpr = 1;
   v.dst_gpr = 2;
   v.buffer_index_mode = 1;
   CfInstr vtx = cf_op(CfOp::VTX);
   vtx.fetches.push_back(v);
   Converted c = convert(if_else({vtx}), kNoInputs);
   EXPECT_EQ(c.count, 0u);
   EXPECT_EQ(c.kept, (std::map<std::string, unsigned>{
                        {"side has a fetch that cannot run speculatively", 1}}));
   EXPECT_EQ(c.after, c.before);
}

TEST(SbIfConversion, KillStaysABranch)
{
   Program p = if_else({alu_clause({group({alu(AluOp::KILLGT, kSlotX, dst(0, 0, false),
                                              src_gpr(1, 1), zero())})})});
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   const std::string before = region_dump(*sh);
   EXPECT_EQ(before,
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
             "        cf 3 ALU\n"
             "          group\n"
             "            x: KILLGT _ = R1.y.0, 0\n"
             "    cf 5 ALU_POP_AFTER\n"
             "      group\n"
             "        x: MOV R2.x.2 = 1.0\n"
             "  phi R2.x.3 = R2.x.1, R2.x.2\n"
             "cf 6 EXPORT_DONE R2.x.3, R2.y.0, R2.z.0, R2.w.0\n");
   IfConversionStats st;
   EXPECT_TRUE(if_conversion(*sh, d, &st));
   EXPECT_EQ(st.converted, 0u);
   EXPECT_EQ(st.kept,
             (std::map<std::string, unsigned>{{"side has an instruction with effects", 1}}));
   EXPECT_EQ(region_dump(*sh), before);
}

/* n dependent ADDs on R2.x in clauses of at most 100 groups, then `copies`
 * plain copies R2.y = R2.x. */
std::vector<CfInstr> adds(unsigned n, unsigned copies = 0)
{
   std::vector<CfInstr> cfs;
   std::vector<AluGroup> gs;
   for (unsigned i = 0; i < n + copies; i++) {
      if (i < n)
         gs.push_back(group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())}));
      else
         gs.push_back(group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(2, 0))}));
      if (gs.size() == 100) {
         cfs.push_back(alu_clause(gs));
         gs.clear();
      }
   }
   if (!gs.empty())
      cfs.push_back(alu_clause(gs));
   return cfs;
}

TEST(SbIfConversion, ThirtyInstructionSideConverts)
{
   /* Over the old per-side limit of 12; classic sb's rule converts it. */
   Converted c = convert(if_else(adds(30)), kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_TRUE(c.kept.empty());
   EXPECT_EQ(count_lines(c.after, "region"), 0u);
   EXPECT_EQ(count_lines(c.after, ": ADD R2.x."), 30u);
   /* SETGT, 30 ADDs, the else side's MOV and one select, in the clause
    * that held the PRED_SET. */
   EXPECT_EQ(count_lines(c.after, "  group\n"), 1u + 33u);
   EXPECT_NE(c.after.find("    x: SETGT T7.1 = R1.x.0, 0\n"
                          "  group\n"
                          "    x: ADD R2.x.2 = R2.x.1, 1.0\n"),
             std::string::npos)
      << c.after;
   EXPECT_NE(c.after.find("    x: ADD R2.x.31 = R2.x.30, 1.0\n"
                          "  group\n"
                          "    x: MOV R2.x.32 = 1.0\n"
                          "  group\n"
                          "    x: CNDE_INT R2.x.33 = T7.1, R2.x.32, R2.x.31\n"
                          "cf "),
             std::string::npos)
      << c.after;
}

TEST(SbIfConversion, Over400InstructionsStaysABranch)
{
   /* 400 real instructions (the else side's MOV is a copy) convert, 401
    * do not; plain copies do not count towards the limit. */
   Converted c = convert(if_else(adds(400)), kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   expect_unchanged(if_else(adds(401)), "over 400 ALU instructions");
   c = convert(if_else(adds(400, 30)), kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(count_lines(c.after, "CNDE_INT"), 2u); /* R2.x and R2.y */
}

TEST(SbIfConversion, MovaAndPredicatedWritesStayBranches)
{
   expect_unchanged(if_else({alu_clause({group({alu(AluOp::MOVA_INT, kSlotX, dst(0, 0, false),
                                                    src_gpr(1, 1))})})}),
                    "side has an instruction with effects");
   AluInstr w = alu(AluOp::MOV, kSlotX, dst(2, 0), one());
   w.pred_sel = 3;
   expect_unchanged(if_else({alu_clause({group({w})})}), "side has a predicated write");
}

TEST(SbIfConversion, PredicateReadAfterTheIfKeepsTheBranch)
{
   /* The PRED_SET's predicate is read by a predicated MOV after the if, so
    * the PRED_SET cannot go away. */
   AluInstr w = alu(AluOp::MOV, kSlotY, dst(2, 1), one());
   w.pred_sel = 3;
   Program p = if_else({alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0),
                                              src_inline(kSrc_0_5))})})});
   p.cf.insert(p.cf.begin() + 6, alu_clause({group({w})}));
   p.cf[6 + 1].end_of_program = true;
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   const std::string before = region_dump(*sh);
   IfConversionStats st;
   EXPECT_TRUE(if_conversion(*sh, d, &st));
   EXPECT_EQ(st.converted, 0u);
   EXPECT_EQ(region_dump(*sh), before);
}

TEST(SbIfConversion, WrittenPredSetResultKeepsTheBranch)
{
   /* A PRED_SET that also writes its 1.0/0.0 result to a GPR. */
   Program p = if_else({alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0),
                                              src_inline(kSrc_0_5))})})});
   p.cf[1].groups[0].instrs[0].dst = dst(3, 0);
   expect_unchanged(p, "PRED_SET result is written");
}

TEST(SbIfConversion, ArrayWriteKeepsTheBranch)
{
   /* R2 is inside a relative-addressed array: its values keep their
    * register, so both sides cannot write it speculatively. */
   RegionParseOptions o;
   o.arrays.push_back(RelArray{2, 2});
   Program p = if_else({alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0),
                                              src_inline(kSrc_0_5))})})});
   expect_unchanged(p, "side writes AR, predicate, exec mask, an array or relatively", o);
}

TEST(SbIfConversion, RelativeReadKeepsTheBranch)
{
   RegionParseOptions o;
   o.arrays.push_back(RelArray{4, 4});
   AluInstr rd = alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(4, 0));
   rd.src[0].rel = true;
   expect_unchanged(if_else({alu_clause({group({rd})})}),
                    "side reads relative or clause-bound operands", o);
}

TEST(SbIfConversion, NestedIfsConvertInsideOut)
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
   Converted c = convert(p, kFloatInputs);
   EXPECT_EQ(c.count, 2u);
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T9.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: SETGT T8.1 = R1.y.0, 0\n"
             "  group\n"
             "    x: MOV R2.x.2 = 1.0\n"
             "  group\n"
             "    x: MOV R2.x.3 = 0.5\n"
             "  group\n"
             "    x: CNDE_INT R2.x.4 = T8.1, 0.5, 1.0\n"
             "  group\n"
             "    x: MOV R2.x.5 = 0x40000000\n"
             "  group\n"
             "    x: CNDE_INT R2.x.6 = T9.1, R2.x.5, R2.x.4\n"
             "cf 11 EXPORT_DONE R2.x.6, R2.y.0, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, NestedIfWithFetchKeepsBothBranches)
{
   TexInstr t;
   t.src_gpr = 1;
   t.dst_gpr = 3;
   CfInstr tex = cf_op(CfOp::TEX);
   tex.fetches.push_back(t);
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 7, 1),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 1), zero())),
      cf_op(CfOp::JUMP, 6, 1),
      tex,
      cf_op(CfOp::POP, 6, 1),
      cf_op(CfOp::POP, 7, 1),
      export_done(2),
   });
   /* The JUMP targets are the CF after each POP. */
   p.cf[2].target = 8;
   p.cf[4].target = 7;
   p.cf[6].target = 7;
   p.cf[7].target = 8;
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   const std::string before = region_dump(*sh);
   IfConversionStats st;
   EXPECT_TRUE(if_conversion(*sh, d, &st));
   EXPECT_EQ(st.converted, 0u);
   EXPECT_EQ(region_dump(*sh), before);
}

TEST(SbIfConversion, EmptyThenSide)
{
   /* if (x >= 1) {} else r.x = -y: THEN is empty, the select takes the old
    * value on that side. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero())})}),
      push_if(pred(AluOp::PRED_SETGE, src_gpr(1, 0), one())),
      cf_op(CfOp::JUMP, 3),
      cf_op(CfOp::ELSE, 5, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1, true))})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   Converted c = convert(p, kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGE T8.1 = R1.x.0, 1.0\n"
             "  group\n"
             "    x: MOV R2.x.2 = -R1.y.0\n"
             "  group\n"
             "    x: CNDE_INT R2.x.3 = T8.1, R2.x.2, R2.x.1\n"
             "cf 5 EXPORT_DONE R2.x.3, R2.y.0, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, IntegerCompareKinds)
{
   /* Each integer PRED_SET maps to its SETcc; the tree interpreter checks
    * the selects on signed and unsigned extremes. */
   const AluOp preds[] = {AluOp::PRED_SETE_INT, AluOp::PRED_SETGT_INT, AluOp::PRED_SETGE_INT,
                          AluOp::PRED_SETGT_UINT, AluOp::PRED_SETGE_UINT, AluOp::PRED_SETNE};
   const char *sets[] = {"SETE_INT", "SETGT_INT", "SETGE_INT", "SETGT_UINT", "SETGE_UINT",
                         "SETNE"};
   for (unsigned i = 0; i < 6; i++) {
      Program p = program(ChipClass::Evergreen, {
         push_if(pred(preds[i], src_gpr(1, 0), src_gpr(1, 1))),
         cf_op(CfOp::JUMP, 3),
         alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 0))})}),
         cf_op(CfOp::ELSE, 5, 1),
         alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 1))})},
                    CfOp::ALU_POP_AFTER),
         export_done(2),
      });
      Converted c = convert(p, kIntInputs);
      EXPECT_EQ(c.count, 1u);
      EXPECT_NE(c.after.find(std::string("x: ") + sets[i] + " T"), std::string::npos) << c.after;
      EXPECT_NE(c.after.find("z: CNDE_INT R2.z.3 = T"), std::string::npos) << c.after;
   }
}

TEST(SbIfConversion, CompareWithZeroSelectsOnTheOperand)
{
   /* if (x OP 0) r.z = x else r.z = y: integer compares with zero select on
    * x directly; the tree interpreter checks zero, positive and negative x. */
   struct Case {
      AluOp pred;
      bool zero_first;
      const char *select; /* "" when a SETcc stays */
   };
   const Case cases[] = {
      {AluOp::PRED_SETNE_INT, false, "z: CNDE_INT R2.z.3 = R1.x.0, R1.y.0, R1.x.0\n"},
      {AluOp::PRED_SETNE_INT, true, "z: CNDE_INT R2.z.3 = R1.x.0, R1.y.0, R1.x.0\n"},
      {AluOp::PRED_SETE_INT, false, "z: CNDE_INT R2.z.3 = R1.x.0, R1.x.0, R1.y.0\n"},
      {AluOp::PRED_SETGT_INT, false, "z: CNDGT_INT R2.z.3 = R1.x.0, R1.x.0, R1.y.0\n"},
      {AluOp::PRED_SETGE_INT, false, "z: CNDGE_INT R2.z.3 = R1.x.0, R1.x.0, R1.y.0\n"},
      {AluOp::PRED_SETGT_UINT, false, "z: CNDE_INT R2.z.3 = R1.x.0, R1.y.0, R1.x.0\n"},
      {AluOp::PRED_SETGT_INT, true, ""}, /* 0 > x */
      {AluOp::PRED_SETNE, false, ""},    /* float: -0.0 tests differently */
   };
   for (const Case &k : cases) {
      AluInstr p = k.zero_first ? pred(k.pred, zero(), src_gpr(1, 0))
                                : pred(k.pred, src_gpr(1, 0), zero());
      Program prog = program(ChipClass::Evergreen, {
         push_if(p),
         cf_op(CfOp::JUMP, 3),
         alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 0))})}),
         cf_op(CfOp::ELSE, 5, 1),
         alu_clause({group({alu(AluOp::MOV, kSlotZ, dst(2, 2), src_gpr(1, 1))})},
                    CfOp::ALU_POP_AFTER),
         export_done(2),
      });
      Converted c = convert(prog, kIntInputs);
      EXPECT_EQ(c.count, 1u);
      if (*k.select) {
         EXPECT_NE(c.after.find(k.select), std::string::npos) << c.after;
         EXPECT_EQ(c.after.find("PRED_SET"), std::string::npos) << c.after;
         EXPECT_EQ(c.after.find(": SET"), std::string::npos) << c.after;
      } else {
         EXPECT_NE(c.after.find(": SET"), std::string::npos) << c.after;
      }
   }
}

/* if (x > 0) { THEN } else { ELSE }; export R2 (R2 starts as 0 in x, y) */
Program if_then_else(std::vector<AluGroup> then_gs, std::vector<AluGroup> else_gs)
{
   CfInstr then_cf = alu_clause(then_gs);
   return program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 4),
      then_cf,
      cf_op(CfOp::ELSE, 6, 1),
      alu_clause(else_gs, CfOp::ALU_POP_AFTER),
      export_done(2),
   });
}

TEST(SbIfConversion, RegisterCopiesFeedTheSelectDirectly)
{
   /* r.x = x > 0 ? y : z: the selects read R1.y and R1.z, not the copies
    * (which dce removes later), so no value is live twice. */
   Converted c = convert(if_then_else({group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 1))})},
                                      {group({alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 2))})}),
                         kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "    y: MOV R2.y.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T9.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: MOV R2.x.2 = R1.y.0\n"
             "  group\n"
             "    x: MOV R2.x.3 = R1.z.0\n"
             "  group\n"
             "    x: CNDE_INT R2.x.4 = T9.1, R1.z.0, R1.y.0\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.1, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, SameValueOnBothSidesNeedsNoSelect)
{
   /* Both sides set r.x = 1.0 (the then side also computes r.y): r.x is a
    * MOV of 1.0, only r.y needs a select. */
   Converted c = convert(
      if_then_else({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one()),
                           alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one())})},
                   {group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}),
      kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "    y: MOV R2.y.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T8.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: MOV R2.x.2 = 1.0\n"
             "    y: ADD R2.y.2 = R1.y.0, 1.0\n"
             "  group\n"
             "    x: MOV R2.x.3 = 1.0\n"
             "  group\n"
             "    x: MOV R2.x.4 = 1.0\n"
             "  group\n"
             "    y: CNDE_INT R2.y.3 = T8.1, R2.y.1, R2.y.2\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.3, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, ConstantTableFeedsTheSelects)
{
   /* A THEN side loading four constants (a lookup table lowered to ifs):
    * the selects read the constants, so the copies need no registers.
    * With three, the selects read the copies (constants pack worse). */
   auto table = [](unsigned n) {
      std::vector<AluInstr> movs;
      std::vector<uint32_t> lits;
      for (unsigned i = 0; i < n; i++) {
         movs.push_back(alu(AluOp::MOV, uint8_t(kSlotX + i), dst(2, i), src_literal(i)));
         lits.push_back(0x3e800000 + (i << 22));
      }
      return std::vector<AluGroup>{group(movs, lits)};
   };
   std::vector<AluGroup> computed = {group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(1, 0), one()),
                                            alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one()),
                                            alu(AluOp::ADD, kSlotZ, dst(2, 2), src_gpr(1, 2), one()),
                                            alu(AluOp::ADD, kSlotW, dst(2, 3), src_gpr(1, 3), one())})};
   Converted c = convert(if_then_else(table(4), computed), kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_NE(c.after.find("    x: CNDE_INT R2.x.4 = T10.1, R2.x.3, 0x3e800000\n"
                          "  group\n"
                          "    y: CNDE_INT R2.y.4 = T10.1, R2.y.3, 0x3ec00000\n"
                          "  group\n"
                          "    z: CNDE_INT R2.z.3 = T10.1, R2.z.2, 0x3f000000\n"
                          "  group\n"
                          "    w: CNDE_INT R2.w.3 = T10.1, R2.w.2, 0x3f400000\n"),
             std::string::npos)
      << c.after;
   c = convert(if_then_else(table(3), computed), kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_NE(c.after.find("    x: CNDE_INT R2.x.4 = T10.1, R2.x.3, R2.x.2\n"), std::string::npos)
      << c.after;
   EXPECT_NE(c.after.find("    w: CNDE_INT R2.w.2 = T10.1, R2.w.1, R2.w.0\n"), std::string::npos)
      << c.after;
}

TEST(SbIfConversion, WorkBothSidesDoAlikeRunsOnce)
{
   /* Both sides compute t = y + 1 and then differ: r.x = t * 0.5 on THEN,
    * r.x = t * t on ELSE.  ELSE's ADD is left to dce: its MUL reads THEN's
    * t, and r.y (t on both sides) needs no select. */
   Converted c = convert(
      if_then_else({group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one())}),
                    group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(2, 1), src_inline(kSrc_0_5))})},
                   {group({alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(1, 1), one())}),
                    group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(2, 1), src_gpr(2, 1))})}),
      kFloatInputs);
   EXPECT_EQ(c.count, 1u);
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = 0\n"
             "    y: MOV R2.y.1 = 0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETGT T8.1 = R1.x.0, 0\n"
             "  group\n"
             "    y: ADD R2.y.2 = R1.y.0, 1.0\n"
             "  group\n"
             "    x: MUL R2.x.2 = R2.y.2, 0.5\n"
             "  group\n"
             "    y: ADD R2.y.3 = R1.y.0, 1.0\n"
             "  group\n"
             "    x: MUL R2.x.3 = R2.y.2, R2.y.2\n"
             "  group\n"
             "    x: CNDE_INT R2.x.4 = T8.1, R2.x.3, R2.x.2\n"
             "  group\n"
             "    y: MOV R2.y.4 = R2.y.2\n"
             "cf 6 EXPORT_DONE R2.x.4, R2.y.4, R2.z.0, R2.w.0\n");
}

TEST(SbIfConversion, PipelineEntryNumbersWorkOfSiblingIfsOnce)
{
   /* r.x = x > 0 ? y * y : 1.0; r.y = z > 0 ? y * y : 0.5.  The pipeline's
    * entry (no stats) runs gvn over the converted code: one MUL is left
    * after dce, and the tree computes what the unconverted one does. */
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), zero()),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), zero())})}),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 0), zero())),
      cf_op(CfOp::JUMP, 4),
      alu_clause({group({alu(AluOp::MUL, kSlotX, dst(2, 0), src_gpr(1, 1), src_gpr(1, 1))})}),
      cf_op(CfOp::ELSE, 6, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotX, dst(2, 0), one())})}, CfOp::ALU_POP_AFTER),
      push_if(pred(AluOp::PRED_SETGT, src_gpr(1, 2), zero())),
      cf_op(CfOp::JUMP, 9),
      alu_clause({group({alu(AluOp::MUL, kSlotY, dst(2, 1), src_gpr(1, 1), src_gpr(1, 1))})}),
      cf_op(CfOp::ELSE, 11, 1),
      alu_clause({group({alu(AluOp::MOV, kSlotY, dst(2, 1), src_inline(kSrc_0_5))})},
                 CfOp::ALU_POP_AFTER),
      export_done(2),
   });
   Diagnostics d;
   auto ref = region_parse(p, {}, d);
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(ref && sh) << d.str();
   for (RegionShader *s : {ref.get(), sh.get()}) {
      ssa_prepare(*s);
      ssa_rename(*s);
   }
   ASSERT_TRUE(if_conversion(*sh, d) && dce_cleanup(*sh, d)) << d.str();
   const std::string after = region_dump(*sh);
   EXPECT_EQ(count_lines(after, "MUL"), 1u) << after;
   EXPECT_EQ(count_lines(after, "region"), 0u) << after;
   const std::vector<std::array<uint32_t, 4>> inputs = {
      {fbits(2.0f), fbits(3.0f), fbits(1.0f), 0},
      {fbits(-1.0f), fbits(5.0f), fbits(-1.0f), 0},
      {fbits(1.0f), fbits(-2.0f), fbits(-3.0f), 0},
      {fbits(-1.0f), fbits(0.5f), fbits(4.0f), 0},
   };
   for (const auto &in : inputs)
      EXPECT_EQ(run_tree(*ref, in), run_tree(*sh, in)) << "input " << in[0] << " " << in[2];
}

} // namespace
