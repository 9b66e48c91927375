/*
 * gvn: value numbering inside an ALU clause.
 *
 * Two non-fixed nodes computing the same operation on the same values (same
 * modifiers, clamp and output modifier; operands of commutative operations
 * in either order) produce the same bits, so the later one becomes a MOV of
 * the earlier one's register while that register and the operands are
 * unchanged; copy_propagation and dce_cleanup then usually remove the MOV.
 * A group is processed as the hardware runs it: lookups with the values
 * before the group, then its writes end entries that mention what they
 * write, then its own results enter the table.
 *
 * Not here yet: constant folding and algebraic rules (they need the
 * hardware's exact float behaviour, denormals and non-IEEE multiplies).
 */
#include <algorithm>
#include <map>
#include <string>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

std::string operand_key(const Operand &o)
{
   const Value &v = o.value;
   return std::to_string(int(v.kind)) + ":" + std::to_string(v.sel) + "." +
          std::to_string(v.chan) + ":" + std::to_string(v.bits) + (o.neg ? "n" : "") +
          (o.abs ? "a" : "");
}

bool numberable(const AluNode &n)
{
   if (!n.writes_gpr() || n.bc.dst.rel || n.bc.pred_sel || n.bc.op == AluOp::MOV)
      return false;
   for (unsigned s = 0; s < alu_op_info(n.bc.op).num_src; s++) {
      const Operand &o = n.src[s];
      if (o.rel || o.value.kind == ValueKind::Forward || o.value.kind == ValueKind::Special)
         return false;
   }
   return true;
}

std::string node_key(const AluNode &n)
{
   const AluOpInfo &info = alu_op_info(n.bc.op);
   std::vector<std::string> ops;
   for (unsigned s = 0; s < info.num_src; s++)
      ops.push_back(operand_key(n.src[s]));
   if ((info.flags & AF_COMM) && ops.size() >= 2 && ops[1] < ops[0])
      std::swap(ops[0], ops[1]);
   std::string k = std::to_string(int(n.bc.op)) + (n.bc.dst.clamp ? "c" : "") +
                   std::to_string(n.bc.dst.omod);
   for (const std::string &o : ops)
      k += "|" + o;
   return k;
}

unsigned reg_key(unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); }

struct Entry {
   uint16_t gpr;
   uint8_t chan;
   std::vector<unsigned> regs; /* registers the value depends on, dst included */
};

void number_clause(AluClause &cl)
{
   std::map<std::string, Entry> table;
   for (GroupNode &g : cl.groups) {
      if (!g.fixed) {
         for (uint32_t id : g.nodes) {
            AluNode &n = cl.nodes[id];
            if (!numberable(n))
               continue;
            auto it = table.find(node_key(n));
            if (it == table.end())
               continue;
            n.bc.op = AluOp::MOV;
            n.bc.dst.clamp = false;
            n.bc.dst.omod = 0;
            n.src = {};
            n.src[0].value.kind = ValueKind::Gpr;
            n.src[0].value.sel = it->second.gpr;
            n.src[0].value.chan = it->second.chan;
         }
      }
      std::vector<unsigned> written;
      for (uint32_t id : g.nodes) {
         const AluNode &n = cl.nodes[id];
         if (n.bc.dst.rel || (alu_op_info(n.bc.op).flags & AF_MOVA)) {
            table.clear();
            written.clear();
            break;
         }
         if (n.writes_gpr())
            written.push_back(reg_key(n.bc.dst.gpr, n.bc.dst.chan));
      }
      if (!written.empty())
         for (auto it = table.begin(); it != table.end();) {
            bool hit = false;
            for (unsigned r : it->second.regs)
               hit |= std::find(written.begin(), written.end(), r) != written.end();
            it = hit ? table.erase(it) : std::next(it);
         }
      if (g.fixed)
         continue;
      for (uint32_t id : g.nodes) {
         const AluNode &n = cl.nodes[id];
         if (!numberable(n))
            continue;
         Entry e{n.bc.dst.gpr, n.bc.dst.chan, {reg_key(n.bc.dst.gpr, n.bc.dst.chan)}};
         bool stale = false;
         for (unsigned s = 0; s < alu_op_info(n.bc.op).num_src; s++) {
            const Value &v = n.src[s].value;
            if (v.kind != ValueKind::Gpr)
               continue;
            const unsigned r = reg_key(v.sel, v.chan);
            /* Read before this group wrote it: the key no longer
             * describes the register's new contents. */
            stale |= std::find(written.begin(), written.end(), r) != written.end();
            e.regs.push_back(r);
         }
         if (!stale)
            table.emplace(node_key(n), std::move(e));
      }
   }
}

} // namespace

bool gvn(Shader &sh, Diagnostics &diags)
{
   (void)diags;
   for (CfNode &c : sh.cf)
      if (c.is_alu)
         number_clause(c.alu);
   return true;
}

} // namespace sbcc::r600::sb
