/*
 * post_scheduler: repacks ALU nodes into VLIW groups.
 *
 * Works clause by clause on each run of non-fixed groups (fixed groups are
 * barriers and keep their place).  Dependences come from the register
 * reads and writes in source order, with the hardware's group semantics:
 * every instruction of a group reads before any writes, so a write may
 * share a group with an earlier read of the same register (anti
 * dependence, "weak"), while a read after a write or a second write needs
 * a later group ("strong").
 *
 * Groups are filled greedily in program order from a bounded window of the
 * oldest unscheduled nodes (so the pass is linear in the clause size): a
 * node goes into its destination channel's vector slot or the trans slot,
 * and stays only if the group can still be materialized (read ports,
 * literals, trans constant rules).
 */
#include <algorithm>
#include <unordered_map>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

constexpr size_t kWindow = 32;

struct Deps {
   std::vector<uint32_t> strong;
   std::vector<uint32_t> weak;
};

bool schedule_run(ChipClass chip, AluClause &cl, const std::vector<uint32_t> &ids,
                  const AluGroup *prev_fixed, std::vector<GroupNode> &out,
                  Diagnostics &diags)
{
   /* Dependences, group by original group so reads precede writes. */
   std::unordered_map<uint32_t, uint32_t> pos; /* node id -> index in ids */
   for (size_t i = 0; i < ids.size(); i++)
      pos[ids[i]] = uint32_t(i);
   std::vector<Deps> deps(ids.size());
   std::unordered_map<unsigned, int> last_writer;
   std::unordered_map<unsigned, std::vector<uint32_t>> readers;
   auto key = [](unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); };
   for (size_t b = 0; b < ids.size();) {
      size_t e = b;
      while (e < ids.size() && cl.nodes[ids[e]].group == cl.nodes[ids[b]].group)
         e++;
      for (size_t i = b; i < e; i++) {
         const AluNode &n = cl.nodes[ids[i]];
         const unsigned nsrc = alu_op_info(n.bc.op).num_src;
         for (unsigned s = 0; s < nsrc; s++) {
            const Value &v = n.src[s].value;
            if (v.kind != ValueKind::Gpr)
               continue;
            const unsigned k = key(v.sel, v.chan);
            auto w = last_writer.find(k);
            if (w != last_writer.end())
               deps[i].strong.push_back(uint32_t(w->second));
            readers[k].push_back(uint32_t(i));
         }
      }
      for (size_t i = b; i < e; i++) {
         const AluNode &n = cl.nodes[ids[i]];
         if (!n.writes_gpr())
            continue;
         const unsigned k = key(n.bc.dst.gpr, n.bc.dst.chan);
         auto w = last_writer.find(k);
         if (w != last_writer.end())
            deps[i].strong.push_back(uint32_t(w->second));
         for (uint32_t r : readers[k])
            if (r != i)
               deps[i].weak.push_back(r);
         readers[k].clear();
         last_writer[k] = int(i);
      }
      b = e;
   }

   /* A write and an earlier-or-same-group read of the old value that
    * came from one source group (a register swap, say) may depend on each
    * other both ways: such nodes move as one unit. */
   std::vector<uint32_t> unit(ids.size());
   for (size_t i = 0; i < ids.size(); i++)
      unit[i] = uint32_t(i);
   auto find = [&](uint32_t x) {
      while (unit[x] != x)
         x = unit[x] = unit[unit[x]];
      return x;
   };
   for (size_t i = 0; i < ids.size(); i++)
      for (uint32_t r : deps[i].weak)
         if (cl.nodes[ids[r]].group == cl.nodes[ids[i]].group) {
            uint32_t a = find(uint32_t(i)), b = find(r);
            if (a != b)
               unit[std::max(a, b)] = std::min(a, b);
         }
   std::vector<std::vector<uint32_t>> members(ids.size());
   for (size_t i = 0; i < ids.size(); i++)
      members[find(uint32_t(i))].push_back(uint32_t(i));

   std::vector<int> placed(ids.size(), -1); /* group index in `out` */
   size_t first = 0, remaining = ids.size();
   const AluGroup *prev = prev_fixed;
   AluGroup last;
   while (remaining) {
      while (placed[first] >= 0)
         first++;
      const int cur = int(out.size());
      GroupNode g;
      bool used[5] = {};
      std::optional<AluGroup> mat;
      std::vector<uint32_t> window;
      for (size_t i = first; i < ids.size() && window.size() < kWindow; i++)
         if (placed[i] < 0 && find(uint32_t(i)) == i)
            window.push_back(uint32_t(i));
      /* Program order: measured on the corpus, filling groups greedily in
       * source order packs better here than critical-path priority
       * (CYPRESS first 150: -4.5% vs -3.5% groups); */
      for (uint32_t i : window) {
         const std::vector<uint32_t> &mem = members[i];
         auto in_unit = [&](uint32_t d) { return find(d) == i; };
         bool ready = true;
         for (uint32_t m : mem) {
            for (uint32_t d : deps[m].strong)
               if (!in_unit(d) && (placed[d] < 0 || placed[d] >= cur))
                  ready = false;
            for (uint32_t d : deps[m].weak)
               if (!in_unit(d) && placed[d] < 0)
                  ready = false;
         }
         if (!ready)
            continue;
         bool try_used[5];
         std::copy(used, used + 5, try_used);
         const size_t old_size = g.nodes.size();
         /* The vector slot of the node's channel, else trans: the
          * hardware tells slots apart by order, so an instruction can only
          * sit in trans when its channel's vector slot is taken. */
         std::optional<AluGroup> m;
         bool fits = true;
         for (uint32_t x : mem) {
            const AluNode &n = cl.nodes[ids[x]];
            const unsigned slots = alu_slots(chip, n.bc.op);
            const unsigned chan = n.bc.dst.chan & 3;
            int slot = -1;
            if ((slots & kSlotV) && !alu_is_trans_only(chip, n.bc.op) && !try_used[chan])
               slot = int(chan);
            else if ((slots & kSlotS) && chip != ChipClass::Cayman && !try_used[kSlotT])
               slot = kSlotT;
            if (slot < 0) {
               fits = false;
               break;
            }
            try_used[slot] = true;
            g.nodes.push_back(ids[x]);
            g.slots.push_back(uint8_t(slot));
         }
         if (fits)
            m = materialize_group(chip, cl, g.nodes, g.slots, prev);
         if (!m) {
            g.nodes.resize(old_size);
            g.slots.resize(old_size);
            continue;
         }
         mat = std::move(m);
         std::copy(try_used, try_used + 5, used);
         for (uint32_t x : mem)
            placed[x] = cur;
         remaining -= mem.size();
      }
      if (g.nodes.empty()) {
         diags.error("sb post_scheduler: node " + std::to_string(ids[first]) +
                     " fits in no group");
         return false;
      }
      last = std::move(*mat);
      prev = &last;
      out.push_back(std::move(g));
   }
   return true;
}

} // namespace

bool post_scheduler(Shader &sh, Diagnostics &diags)
{
   for (CfNode &c : sh.cf) {
      if (!c.is_alu)
         continue;
      AluClause &cl = c.alu;
      std::vector<GroupNode> out;
      std::vector<uint32_t> run;
      /* The fixed group just before the run, if any: its results are
       * PV/PS for the run's first group. */
      std::optional<AluGroup> prev_fixed;
      auto flush = [&]() {
         if (run.empty())
            return true;
         bool ok = schedule_run(sh.chip, cl, run, prev_fixed ? &*prev_fixed : nullptr, out,
                                diags);
         run.clear();
         return ok;
      };
      for (GroupNode &g : cl.groups) {
         if (g.fixed) {
            if (!flush())
               return false;
            out.push_back(g);
            prev_fixed = g.original;
            continue;
         }
         run.insert(run.end(), g.nodes.begin(), g.nodes.end());
      }
      if (!flush())
         return false;
      /* Spreading literal users over more groups can repeat literals; a
       * clause that no longer fits the 128-slot COUNT keeps its source
       * layout rather than being split (splitting would renumber CF). */
      std::vector<GroupNode> source = std::move(cl.groups);
      cl.groups = std::move(out);
      auto built = build_clause(sh.chip, cl);
      if (!built || alu_clause_dwords(*built) > 256)
         cl.groups = std::move(source);
   }
   return true;
}

} // namespace sbcc::r600::sb
