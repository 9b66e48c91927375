/*
 * What bc_finalize shares with the passes before it (declared in
 * sb_region_passes.h): alu_group_is_fixed, the groups bc_finalize keeps
 * whole (gvn and RA ask it for every group), operand_const_sel, the
 * register-less selects of fetch and export operands (ra_init's burst
 * layouts), and identity_allocation, the allocation the source program
 * already had (bc_finalize's round-trip tests).
 */
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {


int operand_const_sel(const Value &v)
{
   if (v.kind == ValueKind::None)
      return kSelMask;
   if (v.kind == ValueKind::Literal && !v.neg && !v.abs) {
      if (v.literal == 0)
         return kSel0;
      if (v.literal == 0x3f800000)
         return kSel1;
   }
   return -1;
}

namespace {

/* alu_op_group_traits by op: asked for every instruction of every group
 * by gvn, if_conversion, gcm and bc_finalize.  A compile-time table: a
 * function-local one cost each call a guard test, and the registers its
 * cold initialisation needed were saved and restored every time. */
constexpr std::array<uint8_t, kNumAluOps> kOpGroupTraits = [] {
   std::array<uint8_t, kNumAluOps> t{};
   for (unsigned o = 0; o < kNumAluOps; o++)
      t[o] = alu_op_group_traits(AluOp(o));
   return t;
}();

} // namespace

bool alu_group_is_fixed(const Node *group)
{
   /* Keep in sync with RA (sb_ra.h): values defined in a fixed group keep
    * the channel of their slot. */
   const auto &children = group->children;
   for (size_t i = 0; i < children.size(); i++) {
      const Node *a = children[i];
      if (a->kind != NodeKind::Alu || !a->alu)
         return true; /* bc_finalize's emit_group checks only fixed groups for this */
      const AluInstr &in = *a->alu;
      const uint8_t traits = kOpGroupTraits[unsigned(in.op)];
      if (traits & kOpFixesGroup)
         return true;
      if (alu_has_control_fields(in))
         return true;
      if (has_rel_operand(a))
         return true;
      /* A second replicated op of the same kind: the earlier instructions
       * (all ALU, or we had returned) are at most the group's few slots. */
      if (traits & kOpReplicatedTrans)
         for (size_t j = 0; j < i; j++)
            if (children[j]->alu->op == in.op)
               return true;
   }
   return false;
}

Allocation identity_allocation(const RegionShader &sh)
{
   Allocation a;
   a.reg.assign(sh.num_values(), RegAssign{});
   int top = -1;
   for (size_t v = 0; v < sh.vars.size(); v++)
      if (sh.vars[v].kind == VarKind::Gpr)
         top = std::max(top, int(sh.vars[v].index));
   for (const RelArray &r : sh.arrays)
      top = std::max(top, int(r.first + r.count) - 1);
   unsigned num = unsigned(top + 1);
   for (size_t v = 0; v < sh.vars.size(); v++) {
      if (sh.vars[v].kind != VarKind::Gpr)
         continue;
      const unsigned versions = v < sh.version_count.size() ? sh.version_count[v] : 0;
      for (unsigned k = 0; k <= versions; k++)
         a.reg[sh.value_id(int(v), k)] = RegAssign{int16_t(sh.vars[v].index),
                                                   uint8_t(sh.vars[v].chan)};
   }
   /* Temps (PV/PS-only results) get fresh channels above every register,
    * the channel of their slot where they have one, so a fixed group can
    * keep its slot. */
   unsigned per_chan[4] = {};
   for_each_node(sh.root, [&](const Node *n) {
      if (n->kind != NodeKind::Alu || n->dst.empty())
         return;
      const Value &d = n->dst[0];
      if (d.kind != ValueKind::Var || sh.vars[d.var].kind != VarKind::Temp)
         return;
      unsigned chan = n->alu && n->alu->slot < 4 ? n->alu->slot : 0;
      if (!n->alu || n->alu->slot >= 4)
         for (unsigned c = 1; c < 4; c++)
            if (per_chan[c] < per_chan[chan])
               chan = c;
      const unsigned gpr = unsigned(top + 1) + per_chan[chan]++;
      a.reg[sh.value_id(d)] = RegAssign{int16_t(gpr), uint8_t(chan)};
      num = std::max(num, gpr + 1);
   });
   a.num_gprs = num;
   return a;
}

} // namespace sbcc::r600::sb::region
