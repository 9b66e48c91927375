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
#include <tuple>
#include <unordered_map>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

/* What numbering compares of an operand: its value (kind, selector,
 * channel, literal bits) and modifiers.  Fixed-size keys rather than
 * formatted strings: no allocation per instruction. */
struct OperandKey {
   uint8_t kind = 0;
   uint8_t chan = 0;
   bool neg = false, abs = false;
   uint16_t sel = 0;
   uint32_t bits = 0;

   auto tie() const { return std::tie(kind, sel, chan, bits, neg, abs); }
   bool operator==(const OperandKey &o) const { return tie() == o.tie(); }
   bool operator<(const OperandKey &o) const { return tie() < o.tie(); }
};

OperandKey operand_key(const Operand &o)
{
   const Value &v = o.value;
   return OperandKey{uint8_t(v.kind), v.chan, o.neg, o.abs, v.sel, v.bits};
}

struct NodeKey {
   uint32_t op = 0;
   bool clamp = false;
   uint8_t omod = 0;
   uint8_t num_src = 0;
   OperandKey ops[3];

   bool operator==(const NodeKey &o) const
   {
      return op == o.op && clamp == o.clamp && omod == o.omod && num_src == o.num_src &&
             ops[0] == o.ops[0] && ops[1] == o.ops[1] && ops[2] == o.ops[2];
   }
};

struct NodeKeyHash {
   size_t operator()(const NodeKey &k) const
   {
      uint64_t h = uint64_t(k.op) << 16 ^ uint64_t(k.clamp) << 8 ^ uint64_t(k.omod) << 4 ^
                   k.num_src;
      for (const OperandKey &o : k.ops) {
         uint64_t x = uint64_t(o.kind) | uint64_t(o.chan) << 8 | uint64_t(o.neg) << 10 |
                      uint64_t(o.abs) << 11 | uint64_t(o.sel) << 12 | uint64_t(o.bits) << 28;
         h = (h ^ x) * 0x9e3779b97f4a7c15ull;
         h ^= h >> 29;
      }
      return size_t(h);
   }
};

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

NodeKey node_key(const AluNode &n)
{
   const AluOpInfo &info = alu_op_info(n.bc.op);
   NodeKey k;
   k.op = uint32_t(n.bc.op);
   k.clamp = n.bc.dst.clamp;
   k.omod = uint8_t(n.bc.dst.omod);
   k.num_src = uint8_t(std::min<unsigned>(info.num_src, 3u));
   for (unsigned s = 0; s < k.num_src; s++)
      k.ops[s] = operand_key(n.src[s]);
   if ((info.flags & AF_COMM) && k.num_src >= 2 && k.ops[1] < k.ops[0])
      std::swap(k.ops[0], k.ops[1]);
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
   std::unordered_map<NodeKey, Entry, NodeKeyHash> table;
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
      c.alu.built.clear(); /* post_scheduler's build no longer matches */
   for (CfNode &c : sh.cf)
      if (c.is_alu)
         number_clause(c.alu);
   return true;
}

} // namespace sbcc::r600::sb
