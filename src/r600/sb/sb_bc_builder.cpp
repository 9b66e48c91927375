/*
 * bc_builder: sb IR -> bytecode Program.
 *
 * Fixed groups are emitted as decoded.  Other groups are rebuilt from their
 * nodes: literal slots, PV/PS forwarding and bank swizzles are derived again
 * from the values, so they are right for whatever layout the scheduler
 * chose.  The read-port model here is the one the hardware documents and
 * the validator checks: per cycle one GPR per channel, constant-file pairs
 * shared by the group, and the trans slot spending its first cycles on its
 * constant operands.
 */
#include <algorithm>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

/* Read cycle of operand i under each vector / trans bank swizzle. */
constexpr uint8_t kVecCycle[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0},
                                     {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
constexpr uint8_t kTransCycle[4][3] = {{2, 1, 0}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}};

struct PortState {
   int gpr[3][4];
   int cfile[4][2];
   PortState()
   {
      for (auto &c : gpr)
         for (int &x : c)
            x = -1;
      for (auto &c : cfile)
         c[0] = c[1] = -1;
   }
};

class SwizzleSearch {
 public:
   SwizzleSearch(ChipClass chip, std::vector<AluInstr> &g) : chip_(chip), g_(g) {}

   bool run() { return place(0, PortState()); }

 private:
   bool is_const_port(unsigned sel) const
   {
      SrcKind k = src_kind(chip_, sel);
      return k == SrcKind::KCache || k == SrcKind::ConstFile;
   }

   bool take_cfile(PortState &p, unsigned sel, unsigned chan) const
   {
      /* R700 and later pair channels xy / zw on two constant ports. */
      const bool r700 = chip_ != ChipClass::R600;
      const int n = r700 ? 2 : 4;
      const int elem = r700 ? int(chan / 2) : int(chan);
      for (int r = 0; r < n; r++) {
         if (p.cfile[r][0] == -1) {
            p.cfile[r][0] = int(sel);
            p.cfile[r][1] = elem;
            return true;
         }
         if (p.cfile[r][0] == int(sel) && p.cfile[r][1] == elem)
            return true;
      }
      return false;
   }

   static bool take_gpr(PortState &p, unsigned sel, unsigned chan, unsigned cycle)
   {
      int &port = p.gpr[cycle][chan & 3];
      if (port != -1 && port != int(sel))
         return false;
      port = int(sel);
      return true;
   }

   bool fits(const AluInstr &in, unsigned bs, PortState &p) const
   {
      const unsigned nsrc = alu_op_info(in.op).num_src;
      if (in.slot != kSlotT) {
         for (unsigned s = 0; s < nsrc; s++) {
            const AluSrc &src = in.src[s];
            if (src.sel <= kSrcGPRLast) {
               if (s == 1 && src.sel == in.src[0].sel && src.chan == in.src[0].chan)
                  continue;
               if (!take_gpr(p, src.sel, src.chan, kVecCycle[bs][s]))
                  return false;
            } else if (is_const_port(src.sel) && !take_cfile(p, src.sel, src.chan)) {
               return false;
            }
         }
         return true;
      }
      unsigned consts = 0;
      for (unsigned s = 0; s < nsrc; s++) {
         const AluSrc &src = in.src[s];
         if (is_const_port(src.sel) || (src.sel >= kSrc_0 && src.sel <= kSrc_LITERAL)) {
            if (++consts > 2)
               return false;
         }
         if (is_const_port(src.sel) && !take_cfile(p, src.sel, src.chan))
            return false;
      }
      for (unsigned s = 0; s < nsrc; s++) {
         const AluSrc &src = in.src[s];
         const unsigned cycle = kTransCycle[bs][s];
         const bool reg = src.sel <= kSrcGPRLast || src.sel == kSrc_PV || src.sel == kSrc_PS;
         if (reg && cycle < consts)
            return false;
         if (src.sel <= kSrcGPRLast && !take_gpr(p, src.sel, src.chan, cycle))
            return false;
      }
      return true;
   }

   bool place(size_t i, const PortState &p)
   {
      if (i == g_.size())
         return true;
      AluInstr &in = g_[i];
      const unsigned n = in.slot == kSlotT ? 4 : 6;
      for (unsigned bs = 0; bs < n; bs++) {
         PortState q = p;
         if (!fits(in, bs, q))
            continue;
         in.bank_swizzle = uint8_t(bs);
         if (place(i + 1, q))
            return true;
      }
      return false;
   }

   ChipClass chip_;
   std::vector<AluInstr> &g_;
};

} // namespace

bool assign_bank_swizzles(ChipClass chip, std::vector<AluInstr> &group)
{
   return SwizzleSearch(chip, group).run();
}

namespace {

std::optional<AluGroup> materialize(ChipClass chip, const AluClause &cl,
                                    const std::vector<uint32_t> &nodes,
                                    const std::vector<uint8_t> &slots, const AluGroup *prev,
                                    const GroupNode *prev_nodes)
{
   std::vector<std::pair<uint8_t, uint32_t>> order;
   for (size_t i = 0; i < nodes.size(); i++)
      order.push_back({slots[i], nodes[i]});
   std::sort(order.begin(), order.end());
   AluGroup g;
   for (const auto &[slot, id] : order) {
      const AluNode &n = cl.nodes[id];
      AluInstr in = n.bc;
      in.slot = slot;
      const unsigned nsrc = alu_op_info(in.op).num_src;
      /* gvn may have turned the node into a MOV: operands it no longer
       * has must not reach the encoder. */
      for (unsigned s = nsrc; s < 3; s++)
         in.src[s] = AluSrc{};
      for (unsigned s = 0; s < nsrc; s++) {
         const Operand &o = n.src[s];
         AluSrc &src = in.src[s];
         src.neg = o.neg;
         src.abs = o.abs;
         src.rel = o.rel;
         src.sel = o.value.sel;
         src.chan = o.value.chan;
         switch (o.value.kind) {
         case ValueKind::Literal: {
            auto it = std::find(g.literals.begin(), g.literals.end(), o.value.bits);
            if (it == g.literals.end()) {
               if (g.literals.size() == 4)
                  return std::nullopt;
               g.literals.push_back(o.value.bits);
               it = g.literals.end() - 1;
            }
            src.sel = kSrc_LITERAL;
            src.chan = uint8_t(it - g.literals.begin());
            break;
         }
         case ValueKind::Gpr:
            if (prev && !o.rel) {
               for (const AluInstr &p : prev->instrs) {
                  const bool writes = p.dst.write || alu_is_op3(p.op);
                  if (writes && !p.dst.rel && !(alu_op_info(p.op).flags & AF_MOVA) &&
                      p.dst.gpr == o.value.sel && p.dst.chan == o.value.chan) {
                     src.sel = p.slot == kSlotT ? kSrc_PS : kSrc_PV;
                     src.chan = p.slot == kSlotT ? 0 : p.slot;
                     break;
                  }
               }
            }
            break;
         case ValueKind::Forward: {
            /* A value the scheduler left in PV/PS only: its producer must
             * sit in the group just before. */
            if (!prev || !prev_nodes || o.rel)
               return std::nullopt;
            auto it = std::find(prev_nodes->nodes.begin(), prev_nodes->nodes.end(),
                                uint32_t(o.value.node));
            if (it == prev_nodes->nodes.end() || prev_nodes->fixed)
               return std::nullopt;
            const uint8_t ps = prev_nodes->slots[size_t(it - prev_nodes->nodes.begin())];
            src.sel = ps == kSlotT ? kSrc_PS : kSrc_PV;
            src.chan = ps == kSlotT ? 0 : ps;
            break;
         }
         default: break;
         }
      }
      g.instrs.push_back(in);
   }
   if (!assign_bank_swizzles(chip, g.instrs))
      return std::nullopt;
   return g;
}

} // namespace

std::optional<AluGroup> materialize_group(ChipClass chip, const AluClause &cl,
                                          const std::vector<uint32_t> &nodes,
                                          const std::vector<uint8_t> &slots,
                                          const AluGroup *prev, const GroupNode *prev_nodes)
{
   /* PV/PS usually frees read ports, but in the trans slot it competes with
    * constants for the early cycles: without forwarding the group may fit
    * where it did not with it. */
   if (auto g = materialize(chip, cl, nodes, slots, prev, prev_nodes))
      return g;
   if (prev)
      return materialize(chip, cl, nodes, slots, nullptr, nullptr);
   return std::nullopt;
}

std::optional<std::vector<AluGroup>> build_clause(ChipClass chip, const AluClause &cl)
{
   std::vector<AluGroup> groups;
   for (size_t i = 0; i < cl.groups.size(); i++) {
      const GroupNode &gn = cl.groups[i];
      if (gn.fixed) {
         groups.push_back(gn.original);
         continue;
      }
      auto g = materialize_group(chip, cl, gn.nodes, gn.slots,
                                 groups.empty() ? nullptr : &groups.back(),
                                 i ? &cl.groups[i - 1] : nullptr);
      if (!g)
         return std::nullopt;
      groups.push_back(std::move(*g));
   }
   return groups;
}

bool bc_builder(const Shader &sh, Program &out, Diagnostics &diags)
{
   out.chip = sh.chip;
   out.cf.clear();
   for (size_t ci = 0; ci < sh.cf.size(); ci++) {
      const CfNode &c = sh.cf[ci];
      CfInstr cf = c.cf;
      if (c.is_alu) {
         auto groups = build_clause(sh.chip, c.alu);
         if (!groups) {
            diags.error("sb bc_builder: CF " + std::to_string(ci) +
                        ": a group breaks the slot/read-port/literal rules");
            return false;
         }
         cf.groups = std::move(*groups);
      }
      out.cf.push_back(std::move(cf));
   }
   return true;
}

} // namespace sbcc::r600::sb
