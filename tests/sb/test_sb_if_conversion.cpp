/*
 * if_conversion over the region tree: exact dumps before and after on
 * hand-built programs (if/else, if without else, float and integer
 * conditions, nested ifs, and the ifs that must stay branches), and the
 * semantics of every converted tree checked by a small interpreter of the
 * region tree against the unconverted tree on inputs taking both sides.
 */
#include <cstring>
#include <map>

#include "r600/r600_emu_alu.h"
#include "r600/sb/sb_region_passes.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

AluInstr pred(AluOp op, AluSrc a, AluSrc b)
{
   AluInstr in = alu(op, kSlotX, dst(0, 0, false), a, b);
   in.update_exec_mask = true;
   in.update_pred = true;
   return in;
}

CfInstr push_if(AluInstr p)
{
   return alu_clause({group({p})}, CfOp::ALU_PUSH_BEFORE);
}

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

   void seq(const std::vector<Node *> &nodes, size_t first = 0)
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
         for (const Node *p : n->phi)
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
            if (c->kind != NodeKind::AluGroup) {
               failed = true;
               return;
            }
            group(c);
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
   return t.out;
}

struct Converted {
   std::string before, after;
   unsigned count = 0;
};

/* Parses and renames p twice: one tree stays as it is, the other is
 * converted; both must compute the same exports on every input. */
Converted convert(const Program &p, const std::vector<std::array<uint32_t, 4>> &inputs)
{
   Diagnostics d;
   Converted c;
   auto ref = region_parse(p, {}, d);
   auto sh = region_parse(p, {}, d);
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
   for (const auto &in : inputs)
      EXPECT_EQ(run_tree(*ref, in), run_tree(*sh, in)) << "input " << in[0] << " " << in[1];
   return c;
}

const std::vector<std::array<uint32_t, 4>> kFloatInputs = {
   {fbits(2.0f), fbits(3.0f), 0, 0},
   {fbits(-1.0f), fbits(5.0f), 0, 0},
   {0, fbits(-2.0f), 0, 0},
};
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
   EXPECT_EQ(c.after,
             "cf 0 ALU\n"
             "  group\n"
             "    x: MOV R2.x.1 = R1.y.0\n"
             "cf 1 ALU_PUSH_BEFORE\n"
             "  group\n"
             "    x: SETNE_INT T8.1 = R1.x.0, 0\n"
             "  group\n"
             "    x: ADD_INT R2.x.2 = R1.y.0, 1i\n"
             "  group\n"
             "    x: CNDE_INT R2.x.3 = T8.1, R2.x.1, R2.x.2\n"
             "cf 5 EXPORT_DONE R2.x.3, R2.y.0, R2.z.0, R2.w.0\n");
}

} // namespace
