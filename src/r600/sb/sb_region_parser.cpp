/*
 * Bytecode Program -> region tree, following the classic sb structure:
 *
 *   ALU_PUSH_BEFORE; JUMP else; then; ELSE endif; else; POP
 *      => region { depart { if (exec_mask) { depart { then } } else } }
 *   LOOP_START_DX10; body; LOOP_END
 *      => region loop { repeat { body } }
 *   LOOP_BREAK => depart (loop) {}      LOOP_CONTINUE => repeat (loop) {}
 *
 * so every region is left only through departs and re-entered only through
 * repeats, which is what gives phi and loop_phi their source counts.
 * Anything else (calls, ALU_ELSE_AFTER, ALU_BREAK/ALU_CONTINUE, relative
 * fetches, MEM exports, ...) is refused with a diagnostic naming the CF index.
 */
#include <algorithm>
#include <string>

#include "r600/sb/sb_region_ir.h"

namespace sbcc::r600::sb::region {

namespace {

constexpr unsigned kMaxDepth = 64; /* bounds recursion on hostile input */

struct Parser {
   RegionShader &sh;
   const Program &prog;
   const RegionParseOptions &opts;
   Diagnostics &diag;
   unsigned depth = 0;

   bool fail(unsigned i, const std::string &msg)
   {
      std::string op = i < prog.cf.size() ? std::string(cf_op_name(prog.cf[i].op)) : "end";
      diag.error("cf", SourceLoc{i + 1, 0}, "CF " + std::to_string(i) + " (" + op + "): " + msg);
      return false;
   }

   Value var(VarKind k, unsigned index, unsigned chan)
   {
      Value v;
      put_var(v, k, index, chan);
      return v;
   }

   /* var() into a default-constructed Value where it lives: a temporary
    * Value cost a move assignment and a destructor (its vectors and
    * pointer) per operand. */
   void put_var(Value &v, VarKind k, unsigned index, unsigned chan)
   {
      v.kind = ValueKind::Var;
      v.var = sh.var_id(k, index, chan);
   }

   bool rel_value(unsigned i, unsigned gpr, unsigned chan, unsigned index_mode, bool is_dst,
                  Value &out)
   {
      out.kind = ValueKind::Rel;
      sh.has_rel_parts = true;
      out.base = gpr;
      out.chan = chan;
      if (index_mode < 4)
         out.rel_parts().addr = std::make_unique<Value>(var(VarKind::AddrReg, 0, index_mode));
      else if (index_mode == 4)
         out.rel_parts().addr = std::make_unique<Value>(var(VarKind::LoopIndex, 0, 0));
      else
         return fail(i, "relative addressing with index mode " + std::to_string(index_mode) +
                           " is not supported");
      if (opts.infer_arrays && sh.arrays.empty())
         sh.arrays = infer_rel_arrays(prog); /* the first relative access */
      for (const RelArray &a : sh.arrays) {
         if (gpr < a.first || gpr >= a.first + a.count)
            continue;
         for (unsigned e = a.first; e < a.first + a.count; e++) {
            out.rel_parts().mayuse.push_back(var(VarKind::Gpr, e, chan));
            if (is_dst)
               out.rel_parts().maydef.push_back(var(VarKind::Gpr, e, chan));
         }
         return true;
      }
      return fail(i, "relative access to R" + std::to_string(gpr) + " outside any declared array");
   }

   bool alu_src(unsigned i, const CfInstr &cf, const AluGroup &g, const AluInstr &in,
                const AluSrc &s, Node *prev, Value &out)
   {
      /* GPRs, most operands, are below the clause temporaries on every
       * chip: no kind lookup for them. */
      const SrcKind kind =
         s.sel < kSrcClauseTempFirst ? SrcKind::Gpr : src_kind(prog.chip, s.sel);
      switch (kind) {
      case SrcKind::Gpr:
         if (s.rel) {
            if (!rel_value(i, s.sel, s.chan, in.index_mode, false, out))
               return false;
         } else {
            put_var(out, VarKind::Gpr, s.sel, s.chan); /* out is fresh */
         }
         break;
      case SrcKind::KCache: {
         unsigned set = src_kcache_set(s.sel), idx = src_kcache_index(s.sel);
         out.kind = ValueKind::KCache;
         out.chan = s.chan;
         auto c = kcache_constant(cf.kcache[set], idx);
         out.resolved = c.has_value();
         out.bank = c ? cf.kcache[set].bank : set;
         out.index = c ? *c : idx;
         break;
      }
      case SrcKind::Inline:
         out.kind = ValueKind::Inline;
         out.literal = s.sel;
         break;
      case SrcKind::Param:
         /* Evergreen interpolation parameters (read only by INTERP_*, which
          * no pass folds): kept as a selector with its channel, like an
          * inline constant, so bc_finalize writes them back unchanged. */
         out.kind = ValueKind::Inline;
         out.literal = s.sel;
         out.chan = s.chan;
         break;
      case SrcKind::Literal:
         if (s.chan >= g.literals.size())
            return fail(i, "literal " + std::to_string(s.chan) + " beyond the group's literals");
         out.kind = ValueKind::Literal;
         out.literal = g.literals[s.chan];
         break;
      case SrcKind::PV:
      case SrcKind::PS: {
         /* PV/PS name the previous group's result: resolve to the value that
          * instruction defines, giving an unwritten result a temporary. */
         unsigned slot = kind == SrcKind::PS ? unsigned(kSlotT) : s.chan;
         Node *p = nullptr;
         if (prev)
            for (Node *n : prev->children)
               if (n->alu->slot == slot)
                  p = n;
         if (!p)
            return fail(i, "PV/PS refers to no instruction of the previous group");
         if (p->dst[0].kind == ValueKind::None)
            put_var(p->dst[0], VarKind::Temp, unsigned(sh.vars.size()), 0); /* was None */
         if (p->dst[0].kind != ValueKind::Var)
            return fail(i, "PV/PS of a relative write is not supported");
         out = p->dst[0];
         break;
      }
      default:
         return fail(i, "ALU source selector " + std::to_string(s.sel) + " is not supported");
      }
      out.neg = s.neg;
      out.abs = s.abs;
      return true;
   }

   bool alu_clause(unsigned i, Node *cfn)
   {
      const CfInstr &cf = prog.cf[i];
      Node *prev = nullptr;
      /* Sizes known up front: one allocation per list, not one per doubling. */
      cfn->children.reserve(cf.groups.size());
      for (const AluGroup &g : cf.groups) {
         Node *gn = sh.create(NodeKind::AluGroup);
         gn->group = &g;
         gn->children.reserve(g.instrs.size());
         bool any_predicated = false;
         for (const AluInstr &in : g.instrs) {
            Node *a = sh.create(NodeKind::Alu);
            a->alu = &in;
            a->cf_index = i;
            /* The op's description once (an out-of-line lookup). */
            const AluOpInfo &info = alu_op_info(in.op);
            const unsigned nsrc = info.num_src;
            const unsigned flags = info.flags;
            const bool pred_write = flags & (AF_PRED | AF_PRED_PUSH); /* alu_writes_pred */
            /* Beyond the three operands a list keeps inline, it grows once:
             * only an op3 that is predicated, or a predicate write with
             * more results, gets there. */
            const bool predicated = in.pred_sel == 2 || in.pred_sel == 3;
            any_predicated = any_predicated || predicated;
            if (nsrc >= 3 && predicated)
               a->src.reserve(4);
            if (pred_write)
               a->dst.reserve(1 + ((flags & AF_MOVA) != 0) + in.update_exec_mask +
                              in.update_pred);
            /* Operands are filled where they live: Value is large, and a
             * temporary cost a move and a destructor each. */
            for (unsigned k = 0; k < nsrc && k < 3; k++)
               if (!alu_src(i, cf, g, in, in.src[k], prev, a->src.emplace_back()))
                  return false;
            if (predicated)
               put_var(a->src.emplace_back(), VarKind::Pred, 0, 0);
            /* The first result, made as the sources are: resize(1)
             * value-initializes, zeroing the Value before its member
             * initializers run. */
            Value &d = a->dst.emplace_back();
            if (in.dst.write || nsrc == 3) { /* alu_is_op3 */
               if (in.dst.rel) {
                  if (!rel_value(i, in.dst.gpr, in.dst.chan, in.index_mode, true, d))
                     return false;
               } else {
                  d.kind = ValueKind::Var;
                  d.var = sh.var_id(VarKind::Gpr, in.dst.gpr, in.dst.chan);
               }
            }
            if (flags & AF_MOVA)
               put_var(a->dst.emplace_back(), VarKind::AddrReg, 0, 0);
            if (pred_write && in.update_exec_mask)
               put_var(a->dst.emplace_back(), VarKind::ExecMask, 0, 0);
            if (pred_write && in.update_pred)
               put_var(a->dst.emplace_back(), VarKind::Pred, 0, 0);
            gn->children.push_back(a);
         }
         cfn->children.push_back(gn);
         /* A predicated write keeps the old value where the predicate does
          * not match: the instruction defines a temporary and a psi after
          * the group merges it with the old value, so every definition of
          * the GPR stays a full one.  (Few groups have one: no second walk
          * for the others.) */
         if (any_predicated)
            for (Node *a : gn->children) {
               if ((a->alu->pred_sel != 2 && a->alu->pred_sel != 3) ||
                   a->dst[0].kind != ValueKind::Var)
                  continue;
               Node *psi = sh.create(NodeKind::Psi);
               psi->alu = a->alu;
               psi->cf_index = i;
               psi->dst.push_back(a->dst[0]);
               a->dst[0] = var(VarKind::Temp, unsigned(sh.vars.size()), 0);
               psi->src.push_back(var(VarKind::Pred, 0, 0));
               psi->src.push_back(a->dst[0]);
               psi->src.push_back(psi->dst[0]);
               cfn->children.push_back(psi);
            }
         prev = gn;
      }
      return true;
   }

   bool fetch_clause(unsigned i, Node *cfn)
   {
      cfn->children.reserve(prog.cf[i].fetches.size());
      for (const FetchInstr &f : prog.cf[i].fetches) {
         Node *n = sh.create(NodeKind::Fetch);
         n->fetch = &f;
         n->cf_index = i;
         n->src.reserve(4);
         n->dst.reserve(4);
         if (const TexInstr *t = std::get_if<TexInstr>(&f)) {
            if (t->src_rel || t->dst_rel)
               return fail(i, "relative fetch addressing is not supported");
            for (unsigned c = 0; c < 4; c++)
               if (t->src_sel[c] < 4)
                  put_var(n->src.emplace_back(), VarKind::Gpr, t->src_gpr, t->src_sel[c]);
            for (unsigned c = 0; c < 4; c++)
               if (t->dst_sel[c] != kSelMask)
                  put_var(n->dst.emplace_back(), VarKind::Gpr, t->dst_gpr, c);
         } else {
            const VtxInstr &v = std::get<VtxInstr>(f);
            if (v.src_rel || v.dst_rel)
               return fail(i, "relative fetch addressing is not supported");
            put_var(n->src.emplace_back(), VarKind::Gpr, v.src_gpr, v.src_sel_x & 3);
            for (unsigned c = 0; c < 4; c++)
               if (v.dst_sel[c] != kSelMask)
                  put_var(n->dst.emplace_back(), VarKind::Gpr, v.dst_gpr, c);
         }
         cfn->children.push_back(n);
      }
      return true;
   }

   Node *cf_node(unsigned i)
   {
      Node *n = sh.create(NodeKind::Cf);
      n->cf = &prog.cf[i];
      n->cf_index = i;
      return n;
   }

   Node *jump_node(NodeKind k, Node *target)
   {
      Node *n = sh.create(k);
      n->target = target;
      auto &list = k == NodeKind::Depart ? target->region().departs : target->region().repeats;
      n->dep_index = unsigned(list.size());
      list.push_back(n);
      return n;
   }

   /* ALU_PUSH_BEFORE at i (already added): returns the index after the if. */
   std::optional<unsigned> parse_if(unsigned i, unsigned end, Node *parent, Node *loop)
   {
      unsigned j = i + 1;
      if (j >= end || prog.cf[j].op != CfOp::JUMP) {
         fail(i, "ALU_PUSH_BEFORE not followed by JUMP");
         return std::nullopt;
      }
      unsigned t = prog.cf[j].target;
      if (t <= j || t > end) {
         fail(j, "jump target " + std::to_string(t) + " outside the enclosing block");
         return std::nullopt;
      }
      bool has_else = t < end && prog.cf[t].op == CfOp::ELSE;
      unsigned after = has_else ? prog.cf[t].target : t;
      if (has_else && (after <= t + 1 || after > end)) {
         fail(t, "else target " + std::to_string(after) + " outside the enclosing block");
         return std::nullopt;
      }
      unsigned last = after - 1, branch_end;
      CfOp lop = prog.cf[last].op;
      if (last > (has_else ? t : j) && lop == CfOp::POP)
         branch_end = last;
      else if (last > (has_else ? t : j) &&
               (lop == CfOp::ALU_POP_AFTER || lop == CfOp::ALU_POP2_AFTER))
         branch_end = after;
      else {
         fail(i, "if does not end in POP or ALU_POP_AFTER");
         return std::nullopt;
      }
      unsigned then_end = has_else ? t : branch_end;

      Node *reg = sh.create_region(false);
      Node *dep_then = jump_node(NodeKind::Depart, reg);
      Node *dep_else = jump_node(NodeKind::Depart, reg);
      Node *n_if = sh.create(NodeKind::If);
      n_if->cf_index = i;
      n_if->src.push_back(var(VarKind::ExecMask, 0, 0));
      n_if->children.push_back(dep_then);
      dep_else->children.push_back(n_if);
      reg->children.push_back(dep_else);
      parent->children.push_back(reg);
      if (!parse(j + 1, then_end, dep_then, loop))
         return std::nullopt;
      if (has_else && !parse(t + 1, branch_end, dep_else, loop))
         return std::nullopt;
      return after;
   }

   bool parse(unsigned begin, unsigned end, Node *parent, Node *loop)
   {
      if (++depth > kMaxDepth)
         return fail(begin, "control flow nested deeper than " + std::to_string(kMaxDepth));
      bool ok = parse_list(begin, end, parent, loop);
      depth--;
      return ok;
   }

   bool parse_list(unsigned begin, unsigned end, Node *parent, Node *loop)
   {
      unsigned i = begin;
      while (i < end) {
         const CfInstr &cf = prog.cf[i];
         switch (cf.op) {
         case CfOp::ALU:
         case CfOp::ALU_POP_AFTER:
         case CfOp::ALU_POP2_AFTER:
         case CfOp::ALU_PUSH_BEFORE: {
            Node *n = cf_node(i);
            if (!alu_clause(i, n))
               return false;
            parent->children.push_back(n);
            if (cf.op == CfOp::ALU_PUSH_BEFORE) {
               auto next = parse_if(i, end, parent, loop);
               if (!next)
                  return false;
               i = *next;
               continue;
            }
            break;
         }
         case CfOp::ALU_BREAK:
         case CfOp::ALU_CONTINUE:
            /* They leave the loop only for the lanes whose predicate the
             * clause clears, which is not a depart/repeat of all lanes;
             * bc_finalize could not rebuild them either. */
            return fail(i, "conditional break/continue clauses are not supported");
         case CfOp::TEX:
         case CfOp::VTX:
         case CfOp::VTX_TC: {
            Node *n = cf_node(i);
            if (!fetch_clause(i, n))
               return false;
            parent->children.push_back(n);
            break;
         }
         case CfOp::EXPORT:
         case CfOp::EXPORT_DONE: {
            if (cf.exp.rw_rel)
               return fail(i, "relative exports are not supported");
            Node *n = cf_node(i);
            for (unsigned b = 0; b < cf.exp.burst_count; b++)
               for (unsigned c = 0; c < 4; c++)
                  if (cf.exp.swizzle[c] < 4)
                     n->src.push_back(var(VarKind::Gpr, (cf.exp.gpr + b) & 127, cf.exp.swizzle[c]));
            parent->children.push_back(n);
            break;
         }
         case CfOp::CALL_FS:
            /* The fetch shader loads the inputs before anything else runs:
             * they are entry values.  Anywhere else it would redefine them. */
            if (!opts.fetch_shader_call || i != 0)
               return fail(i, "not supported by the region parser here");
            parent->children.push_back(cf_node(i));
            break;
         case CfOp::NOP:
         case CfOp::CF_END:
            parent->children.push_back(cf_node(i));
            break;
         case CfOp::LOOP_START_DX10:
         case CfOp::LOOP_START_NO_AL: {
            unsigned t = cf.target;
            if (t <= i + 1 || t > end || prog.cf[t - 1].op != CfOp::LOOP_END)
               return fail(i, "loop target " + std::to_string(t) +
                                 " is not just after a LOOP_END in the enclosing block");
            Node *reg = sh.create_region(true);
            reg->cf_index = i;
            Node *rep = jump_node(NodeKind::Repeat, reg);
            reg->children.push_back(rep);
            parent->children.push_back(reg);
            if (!parse(i + 1, t - 1, rep, reg))
               return false;
            i = t;
            continue;
         }
         case CfOp::LOOP_BREAK:
         case CfOp::LOOP_CONTINUE:
            if (!loop)
               return fail(i, "break/continue outside a loop");
            parent->children.push_back(
               jump_node(cf.op == CfOp::LOOP_BREAK ? NodeKind::Depart : NodeKind::Repeat, loop));
            break;
         default:
            return fail(i, "not supported by the region parser here");
         }
         i++;
      }
      return true;
   }
};

} // namespace

namespace {

/* Calls rel(gpr) for every relatively addressed GPR base the program
 * names and, unless RelOnly, use(gpr) for every other GPR it names (the
 * last one of an export burst among them). */
template <bool RelOnly, typename Rel, typename Use>
void for_each_gpr(const Program &prog, Rel &&rel, Use &&use)
{
   auto name = [&](unsigned gpr, bool is_rel) {
      if (is_rel)
         rel(gpr);
      else if constexpr (!RelOnly)
         use(gpr);
   };
   for (const CfInstr &cf : prog.cf) {
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &in : g.instrs) {
            /* Most instructions address nothing relatively: for RelOnly
             * they name nothing, and need no op lookup. */
            if (RelOnly && !(in.src[0].rel | in.src[1].rel | in.src[2].rel | in.dst.rel))
               continue;
            const unsigned nsrc = alu_op_info(in.op).num_src;
            for (unsigned k = 0; k < nsrc && k < 3; k++) {
               if (RelOnly && !in.src[k].rel)
                  continue;
               if (src_kind(prog.chip, in.src[k].sel) == SrcKind::Gpr)
                  name(in.src[k].sel, in.src[k].rel);
            }
            if (in.dst.write || nsrc == 3) /* alu_is_op3 */
               name(in.dst.gpr, in.dst.rel);
         }
      for (const FetchInstr &f : cf.fetches) {
         if (const TexInstr *t = std::get_if<TexInstr>(&f)) {
            name(t->src_gpr, t->src_rel);
            name(t->dst_gpr, t->dst_rel);
         } else {
            const VtxInstr &v = std::get<VtxInstr>(f);
            name(v.src_gpr, v.src_rel);
            name(v.dst_gpr, v.dst_rel);
         }
      }
      const CfEncoding enc = cf_op_info(cf.op).enc;
      if (enc == CfEncoding::Export || enc == CfEncoding::Mem) {
         if (cf.exp.rw_rel)
            rel(cf.exp.gpr);
         if constexpr (!RelOnly)
            use(cf.exp.gpr + cf.exp.burst_count - 1u);
      }
   }
}

} // namespace

std::vector<RelArray> infer_rel_arrays(const Program &prog)
{
   /* Without declarations, any register from the lowest relative base up
    * may be reached: one array from there to the highest GPR the program
    * names.  Conservative, but it keeps every such register in place.
    * Most programs address nothing relatively: a first pass looks only at
    * the relative flags, and only a program with one scans for the highest
    * register. */
   int lo = -1, hi = -1;
   auto use = [&](unsigned gpr) {
      if (gpr < 123 && int(gpr) > hi)
         hi = int(gpr);
   };
   auto rel = [&](unsigned gpr) {
      if (lo < 0 || int(gpr) < lo)
         lo = int(gpr);
      use(gpr);
   };
   for_each_gpr<true>(prog, rel, use);
   if (lo >= 0)
      for_each_gpr<false>(prog, rel, use);
   if (lo < 0)
      return {};
   return {RelArray{unsigned(lo), unsigned(std::max(hi, lo) - lo + 1)}};
}

std::unique_ptr<RegionShader> region_parse(const Program &prog, const RegionParseOptions &opts,
                                           Diagnostics &diag)
{
   auto sh = std::make_unique<RegionShader>();
   sh->chip = prog.chip;
   sh->prog = &prog;
   sh->root = sh->create(NodeKind::Root);
   sh->arrays = opts.arrays;
   Parser p{*sh, prog, opts, diag};
   if (!p.parse(0, unsigned(prog.cf.size()), sh->root, nullptr))
      return nullptr;
   return sh;
}

} // namespace sbcc::r600::sb::region
