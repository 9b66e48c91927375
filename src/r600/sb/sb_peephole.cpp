/*
 * peephole over the structured SSA tree: local rewrites gvn leaves.
 *
 *  - A comparison result tested against zero by a predicate or kill
 *    instruction, `x = SETcc a, b; PRED_SETNE x, 0`, becomes the predicate
 *    (or kill) compare itself, `PRED_SETcc a, b` (classic sb does the same);
 *    the SETcc is then dead.  Every SETcc result is 0 or non-zero with the
 *    compare outcome, whatever its encoding (1.0f, or ~0 for the DX10 and
 *    integer forms: ~0 is a NaN, and NaN != 0.0 holds), so testing it with
 *    a float or an integer != 0 gives the compare outcome.  A modifier on
 *    x keeps that only for the float test (-0.0 == 0.0); the integer test
 *    needs x unmodified.
 *  - A select whose condition is negated or made absolute (CNDE -x, b, c)
 *    drops the modifier when it cannot change the outcome (x == 0 for
 *    CNDE; integer selects compare bits and keep it).
 *
 * MOV -x into a use's neg (and the other modifier folding) happens in
 * gvn's copy propagation, which composes neg/abs per use.
 */
#include <optional>
#include <vector>

#include "common/thread_memory.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

constexpr uint32_t kCmpFlags = AF_CC_E | AF_CC_GT | AF_CC_GE | AF_CC_NE | AF_CC_LT | AF_CC_LE |
                               AF_INT_CMP | AF_UINT_CMP;

/* The op of class `cls` (AF_PRED, AF_PRED_PUSH or AF_KILL) that compares
 * like `set`, when the chip has one. */
std::optional<AluOp> compare_op(ChipClass chip, AluOp set, uint32_t cls)
{
   const uint32_t want = alu_op_info(set).flags & kCmpFlags;
   for (unsigned i = 0; i < kNumAluOps; i++) {
      const AluOp op = AluOp(i);
      const uint32_t f = alu_op_info(op).flags;
      if ((f & (AF_PRED | AF_PRED_PUSH | AF_KILL | AF_SET | AF_F64)) != cls)
         continue;
      if ((f & kCmpFlags) == want && alu_opcode(chip, op) >= 0 && alu_slots(chip, op) != 0)
         return op;
   }
   return std::nullopt;
}

bool is_zero(const Value &v, bool float_test)
{
   if (v.kind != ValueKind::Inline && v.kind != ValueKind::Literal)
      return false;
   uint32_t b = v.kind == ValueKind::Literal ? v.literal : v.literal == kSrc_0 ? 0u : 1u;
   if (v.abs)
      b &= 0x7fffffffu;
   if (v.neg)
      b ^= 0x80000000u;
   return b == 0 || (float_test && b == 0x80000000u);
}

struct Peephole {
   RegionShader &sh;
   /* By value_id below `values`: the plain SETcc defining it.  The table
    * is kept with the thread and may be longer; the ids set are listed in
    * `noted`, so that only those are cleared again. */
   std::vector<const Node *> &def;
   std::vector<uint32_t> &noted;
   size_t values = 0;
   unsigned changed = 0;

   bool movable(const Value &v) const
   {
      switch (v.kind) {
      case ValueKind::Var: {
         /* Reading the operand later must not cross a redefinition of a
          * register that keeps its place (inputs, array elements). */
         const Var &var = sh.vars[v.var];
         if (var.kind != VarKind::Gpr && var.kind != VarKind::Temp)
            return false;
         if (v.version == 0 || var_in_array(sh, v.var))
            return v.version == sh.version_count[v.var];
         return true;
      }
      case ValueKind::KCache: return v.resolved;
      case ValueKind::Inline:
      case ValueKind::Literal: return true;
      default: return false;
      }
   }

   /* For an instruction whose op has flags `f`.  Out of line, as is
    * fold_compare: few instructions are SETcc or compares, and group()
    * then stays small enough to need no register saving of its own. */
   [[gnu::noinline]] void note_def(const Node *a, uint32_t f)
   {
      const AluInstr &in = *a->alu;
      if (!(f & AF_SET) || (f & (AF_PRED | AF_PRED_PUSH | AF_KILL | AF_F64)) || in.pred_sel ||
          in.dst.omod || a->dst.size() != 1 || a->dst[0].kind != ValueKind::Var ||
          a->src.size() != 2 || !movable(a->src[0]) || !movable(a->src[1]))
         return;
      unsigned id = sh.value_id(a->dst[0]);
      if (id < values) {
         if (!def[id])
            noted.push_back(id);
         def[id] = a;
      }
   }

   const Node *set_of(const Value &v) const
   {
      if (v.kind != ValueKind::Var)
         return nullptr;
      unsigned id = sh.value_id(v);
      return id < values ? def[id] : nullptr;
   }

   /* For an instruction whose op has flags `f`. */
   [[gnu::noinline]] void fold_compare(Node *a, uint32_t f)
   {
      const AluInstr &in = *a->alu;
      const uint32_t cls = f & (AF_PRED | AF_PRED_PUSH | AF_KILL);
      if (!cls || (f & (AF_SET | AF_F64)) || !(f & AF_CC_NE) || (f & AF_UINT_CMP) ||
          a->src.size() < 2)
         return;
      const bool float_test = !(f & AF_INT_CMP);
      for (unsigned x = 0; x < 2; x++) {
         const Value &xv = a->src[x];
         if (!is_zero(a->src[1 - x], float_test) || (!float_test && (xv.neg || xv.abs)))
            continue;
         const Node *set = set_of(xv);
         if (!set)
            continue;
         auto op = compare_op(sh.chip, set->alu->op, cls);
         if (!op)
            continue;
         AluInstr *ni = sh.new_alu(*op);
         *ni = in;
         ni->op = *op;
         a->alu = ni;
         a->src[0] = set->src[0];
         a->src[1] = set->src[1];
         changed++;
         return;
      }
   }

   /* CNDE/CNDGT/CNDGE compare the float condition with 0: a negation or
    * abs on it matters only for CNDGT/CNDGE, abs never for CNDE. */
   void fold_select(Node *a)
   {
      const AluOp op = a->alu->op;
      if (op != AluOp::CNDE || a->src.empty())
         return;
      Value &c = a->src[0];
      if (c.neg || c.abs) {
         c.neg = c.abs = false;
         changed++;
      }
   }

   /* One walk over the group, the op's flags read once per instruction:
    * an instruction is a predicate or kill compare, a SETcc or neither,
    * and a SETcc noted before its group's compares are folded changes
    * nothing, since no slot reads a value its own group defines. */
   void group(Node *g)
   {
      for (Node *a : g->children) {
         if (a->kind != NodeKind::Alu)
            continue;
         const uint32_t f = alu_op_info(a->alu->op).flags;
         if (f & (AF_PRED | AF_PRED_PUSH | AF_KILL))
            fold_compare(a, f);
         else if (f & AF_SET)
            note_def(a, f);
         else
            fold_select(a);
      }
   }

   void walk(Node *n)
   {
      if (n->kind == NodeKind::AluGroup) {
         group(n);
         return;
      }
      /* Most nodes are groups and fetches, in clauses: no recursive call
       * for each (a fetch has no children to walk). */
      for (Node *c : n->children) {
         if (c->kind == NodeKind::AluGroup)
            group(c);
         else if (!c->children.empty())
            walk(c);
      }
   }
};

} // namespace

bool peephole(RegionShader &sh, Diagnostics &diags)
{
   if (!sh.root || sh.value_base.size() != sh.vars.size() ||
       sh.version_count.size() != sh.vars.size()) {
      diags.error("sb", SourceLoc{}, "peephole: the shader is not in numbered SSA form");
      return false;
   }
   /* Kept with the thread: a table of every value, allocated and filled
    * with nulls per shader, cost more than the walk over a small one. */
   struct Tables {
      std::vector<const Node *> def;
      std::vector<uint32_t> noted;
   };
   Tables &kept = thread_kept<Tables>();
   std::vector<const Node *> &def = kept.def;
   std::vector<uint32_t> &noted = kept.noted;
   if (def.size() < sh.num_values())
      def.resize(sh.num_values(), nullptr);
   Peephole p{sh, def, noted, sh.num_values(), 0};
   p.walk(sh.root);
   for (uint32_t id : noted)
      def[id] = nullptr;
   noted.clear();
   return true;
}

} // namespace sbcc::r600::sb::region
