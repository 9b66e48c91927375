/*
 * sched_checker: checks a scheduled clause against its source order,
 * independently of how the scheduler chose.  Every node must be placed
 * once; a node may not cross a fixed group; a register read must stay after
 * the write it saw and before the next write (which may share its group,
 * since groups read before they write); two writes of a register keep
 * their order in different groups; slots must suit the operation.
 */
#include <map>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

bool check_clause(ChipClass chip, const AluClause &cl, size_t ci, Diagnostics &diags)
{
   auto fail = [&](const std::string &msg) {
      diags.error("sb sched_checker: CF " + std::to_string(ci) + ": " + msg);
      return false;
   };
   const size_t n = cl.nodes.size();
   std::vector<int> pos(n, -1);
   for (size_t gi = 0; gi < cl.groups.size(); gi++) {
      const GroupNode &g = cl.groups[gi];
      bool used[5] = {};
      for (size_t k = 0; k < g.nodes.size(); k++) {
         const uint32_t id = g.nodes[k];
         if (id >= n || pos[id] >= 0)
            return fail("node " + std::to_string(id) + " placed twice or unknown");
         pos[id] = int(gi);
         if (g.fixed)
            continue;
         const AluNode &node = cl.nodes[id];
         const unsigned slot = g.slots[k];
         const unsigned allowed = alu_slots(chip, node.bc.op);
         if (slot > kSlotT || used[slot])
            return fail("group " + std::to_string(gi) + " slot used twice");
         used[slot] = true;
         const bool ok_slot = slot == kSlotT
                                 ? (allowed & kSlotS) && chip != ChipClass::Cayman
                                 : (allowed & kSlotV) && slot == (node.bc.dst.chan & 3u) &&
                                      !alu_is_trans_only(chip, node.bc.op);
         if (!ok_slot)
            return fail("node " + std::to_string(id) + " in a slot it cannot use");
      }
      /* Slots are decoded by order: trans holds a vector-capable
       * instruction only when its channel's vector slot is taken. */
      for (size_t k = 0; k < g.nodes.size() && !g.fixed; k++) {
         const AluNode &node = cl.nodes[g.nodes[k]];
         if (g.slots[k] == kSlotT && !alu_is_trans_only(chip, node.bc.op) &&
             (alu_slots(chip, node.bc.op) & kSlotV) && !used[node.bc.dst.chan & 3u])
            return fail("node " + std::to_string(g.nodes[k]) +
                        " in trans with its vector slot free");
      }
   }
   for (size_t id = 0; id < n; id++)
      if (pos[id] < 0 && !cl.nodes[id].dead)
         return fail("node " + std::to_string(id) + " lost");

   /* Fixed groups are barriers: nodes keep their side of each one. */
   int last_fixed_src = -1, last_fixed_pos = -1;
   for (size_t id = 0; id < n; id++) {
      if (cl.nodes[id].dead)
         continue;
      const int src_group = int(cl.nodes[id].group);
      if (src_group < last_fixed_src && pos[id] > last_fixed_pos)
         return fail("node " + std::to_string(id) + " moved across a fixed group");
      const GroupNode &g = cl.groups[pos[id]];
      if (g.fixed) {
         last_fixed_src = src_group;
         last_fixed_pos = pos[id];
      } else if (pos[id] <= last_fixed_pos && src_group > last_fixed_src) {
         return fail("node " + std::to_string(id) + " moved before a fixed group");
      }
   }

   std::map<unsigned, int> last_writer;
   std::map<unsigned, std::vector<uint32_t>> readers;
   for (size_t b = 0; b < n;) {
      size_t e = b;
      while (e < n && cl.nodes[e].group == cl.nodes[b].group)
         e++;
      for (size_t i = b; i < e; i++) {
         const AluNode &node = cl.nodes[i];
         if (node.dead)
            continue;
         for (unsigned s = 0; s < alu_op_info(node.bc.op).num_src; s++) {
            const Value &v = node.src[s].value;
            if (v.kind != ValueKind::Gpr)
               continue;
            const unsigned k = v.sel * 4u + (v.chan & 3u);
            auto w = last_writer.find(k);
            if (w != last_writer.end() && pos[w->second] >= pos[i])
               return fail("node " + std::to_string(i) + " reads before its producer " +
                           std::to_string(w->second));
            readers[k].push_back(uint32_t(i));
         }
      }
      for (size_t i = b; i < e; i++) {
         const AluNode &node = cl.nodes[i];
         if (node.dead || !node.writes_gpr())
            continue;
         const unsigned k = node.bc.dst.gpr * 4u + (node.bc.dst.chan & 3u);
         auto w = last_writer.find(k);
         if (w != last_writer.end() && pos[w->second] >= pos[i])
            return fail("writes of node " + std::to_string(w->second) + " and " +
                        std::to_string(i) + " out of order");
         for (uint32_t r : readers[k])
            if (r != i && pos[r] > pos[i])
               return fail("node " + std::to_string(i) + " overwrites a value node " +
                           std::to_string(r) + " still reads");
         readers[k].clear();
         last_writer[k] = int(i);
      }
      b = e;
   }
   return true;
}

} // namespace

bool sched_checker(const Shader &sh, Diagnostics &diags)
{
   for (size_t ci = 0; ci < sh.cf.size(); ci++)
      if (sh.cf[ci].is_alu && !check_clause(sh.chip, sh.cf[ci].alu, ci, diags))
         return false;
   return true;
}

} // namespace sbcc::r600::sb
