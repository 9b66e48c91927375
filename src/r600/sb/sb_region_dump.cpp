/*
 * sbdump-style text of the region tree: one node per line, two spaces per
 * nesting level, values as <var>.<version> once renamed (version 0 is the
 * value on entry to the shader).
 */
#include <cstdio>
#include <string>

#include "r600/sb/sb_region_ir.h"

namespace sbcc::r600::sb::region {

namespace {

const char kChan[] = "xyzwt";

std::string var_name(const RegionShader &sh, int id)
{
   const Var &v = sh.vars[id];
   switch (v.kind) {
   case VarKind::Gpr: return "R" + std::to_string(v.index) + "." + kChan[v.chan & 3];
   case VarKind::AddrReg: return std::string("AR.") + kChan[v.chan & 3];
   case VarKind::LoopIndex: return "aL";
   case VarKind::Pred: return "PRED";
   case VarKind::ExecMask: return "EXEC";
   case VarKind::Temp: return "T" + std::to_string(v.index);
   }
   return "?";
}

template <typename List> std::string list(const RegionShader &sh, const List &vals)
{
   std::string s;
   for (const Value &v : vals) {
      if (!s.empty())
         s += ", ";
      s += value_name(sh, v);
   }
   return s;
}

struct Dumper {
   const RegionShader &sh;
   std::string out;

   void line(unsigned depth, const std::string &text)
   {
      out.append(2 * depth, ' ');
      out += text;
      out += '\n';
   }

   std::string instr_text(const std::string &name, const Node *n)
   {
      std::string s = name;
      if (!n->dst.empty())
         s += " " + list(sh, n->dst) + " =";
      if (!n->src.empty())
         s += " " + list(sh, n->src);
      return s;
   }

   void phis(unsigned depth, const char *what, const std::vector<Node *> &ps)
   {
      for (const Node *p : ps)
         line(depth, std::string(what) + " " + value_name(sh, p->dst[0]) + " = " +
                        list(sh, p->src));
   }

   void node(const Node *n, unsigned depth)
   {
      switch (n->kind) {
      case NodeKind::Root:
         for (const Node *c : n->children)
            node(c, depth);
         return;
      case NodeKind::Region:
         line(depth, "region #" + std::to_string(n->id) + (n->loop ? " loop" : "") +
                        " (departs " + std::to_string(n->region().departs.size()) + ", repeats " +
                        std::to_string(n->region().repeats.size()) + ")");
         phis(depth + 1, "loop_phi", n->region().loop_phi);
         for (const Node *c : n->children)
            node(c, depth + 1);
         phis(depth + 1, "phi", n->region().phi);
         return;
      case NodeKind::Depart:
      case NodeKind::Repeat:
         line(depth, std::string(n->kind == NodeKind::Depart ? "depart #" : "repeat #") +
                        std::to_string(n->dep_index) + " -> region #" +
                        std::to_string(n->target->id));
         for (const Node *c : n->children)
            node(c, depth + 1);
         return;
      case NodeKind::If:
         line(depth, "if " + list(sh, n->src));
         for (const Node *c : n->children)
            node(c, depth + 1);
         return;
      case NodeKind::Cf:
         /* cf == nullptr: a clause a pass created (sb_region_passes.h). */
         line(depth, instr_text("cf " + std::to_string(n->cf_index) + " " +
                                   std::string(n->cf ? cf_op_name(n->cf->op) : "ALU (new)"), n));
         for (const Node *c : n->children)
            node(c, depth + 1);
         return;
      case NodeKind::AluGroup:
         line(depth, "group");
         for (const Node *c : n->children)
            node(c, depth + 1);
         return;
      case NodeKind::Alu:
         line(depth, instr_text(std::string(1, kChan[n->alu->slot % 5]) + ": " +
                                   std::string(alu_op_name(n->alu->op)), n));
         return;
      case NodeKind::Fetch: {
         const FetchInstr &f = *n->fetch;
         FetchOp op = fetch_op(f);
         line(depth, instr_text(std::string(fetch_op_name(op)), n));
         return;
      }
      case NodeKind::Psi:
         line(depth, instr_text("psi (pred_sel " + std::to_string(n->alu->pred_sel) + ")", n));
         return;
      case NodeKind::Phi:
      case NodeKind::LoopPhi:
         return;
      }
   }
};

} // namespace

std::string value_name(const RegionShader &sh, const Value &v)
{
   std::string s;
   switch (v.kind) {
   case ValueKind::None: return "_";
   case ValueKind::Var: s = var_name(sh, v.var) + "." + std::to_string(v.version); break;
   case ValueKind::Rel:
      s = "R[" + value_name(sh, *v.rel()) + " + " + std::to_string(v.base) + "]." +
          kChan[v.chan & 3];
      s += " {use " + list(sh, v.mayuse());
      if (!v.maydef().empty())
         s += "; def " + list(sh, v.maydef());
      s += "}";
      break;
   case ValueKind::KCache:
      s = (v.resolved ? "C" : "KC") + std::to_string(v.bank) + "[" + std::to_string(v.index) +
          "]." + kChan[v.chan & 3];
      break;
   case ValueKind::Inline:
      switch (v.literal) {
      case kSrc_0: s = "0"; break;
      case kSrc_1: s = "1.0"; break;
      case kSrc_1_INT: s = "1i"; break;
      case kSrc_M_1_INT: s = "-1i"; break;
      case kSrc_0_5: s = "0.5"; break;
      default: s = "inline" + std::to_string(v.literal); break;
      }
      break;
   case ValueKind::Literal: {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08x", unsigned(v.literal));
      s = buf;
      break;
   }
   }
   if (v.abs)
      s = "|" + s + "|";
   if (v.neg)
      s = "-" + s;
   return s;
}

std::string region_dump(const RegionShader &sh)
{
   Dumper d{sh, {}};
   d.node(sh.root, 0);
   return d.out;
}

} // namespace sbcc::r600::sb::region
