/*
 * sched_checker: checks a scheduled clause against its source order,
 * independently of how the scheduler chose.  Every node must be placed
 * once; a node may not cross a fixed group; slots must suit the operation.
 * Then both orders run on symbolic values (one token per result, a plain
 * MOV passing its operand's token on): in the schedule every operand must
 * see the value it saw in the source order (so renamed registers, PV/PS
 * reads and folded copies are checked, not trusted), and every register
 * live after the clause must end up holding the same value.  The source
 * order uses the registers recorded before renaming (AluNode::pre_*).
 */
#include <algorithm>
#include <map>
#include <span>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

constexpr uint32_t kEntry = 0x80000000u; /* | register channel: value on entry */

/* The register state on entry to a clause, copied into both runs'
 * states (a copy is far cheaper than filling 512 channels one by one,
 * twice per clause). */
struct EntryState {
   uint32_t regs[512];
   EntryState()
   {
      for (unsigned k = 0; k < 512; k++)
         regs[k] = kEntry | k;
   }
};
const EntryState kEntryState;

/* Tokens for values that merge an old one (predicated and relative
 * writes): the same pair gives the same token in both runs. */
struct Tokens {
   std::map<std::pair<uint32_t, uint32_t>, uint32_t> merged;
   uint32_t next = 0x40000000u;
   /* Out of line (rare: predicated and relative writes), so that
    * write_token, run for every node twice, inlines without the map. */
   [[gnu::noinline]] uint32_t merge(uint32_t node, uint32_t old)
   {
      auto [it, fresh] = merged.try_emplace({node, old}, next);
      if (fresh)
         next++;
      return it->second;
   }
};

inline uint32_t operand_token(const Operand &o, const uint32_t *regs,
                              std::span<const uint32_t> result)
{
   if (o.rel)
      return 0x20000000u; /* compared through the whole register state */
   switch (o.value.kind) {
   case ValueKind::Gpr:
      return o.value.sel < 128 ? regs[o.value.sel * 4u + (o.value.chan & 3u)] : 0x30000000u;
   case ValueKind::Forward:
      return o.value.node >= 0 && size_t(o.value.node) < result.size()
                ? result[size_t(o.value.node)]
                : 0x30000001u;
   default:
      /* Constants are compared as they are: the scheduler never changes them. */
      return 0x10000000u | (uint32_t(o.value.kind) << 24) |
             (((o.value.sel * 4u + o.value.chan) ^ o.value.bits) & 0xffffffu);
   }
}

/* A plain MOV passes its operand's value on (so a copy folded into its
 * producer still compares equal); anything else makes a new value. */
uint32_t result_token(const AluNode &nd, const AluDst &dst, const std::array<Operand, 3> &src,
                      const std::array<uint32_t, 3> &ops, uint32_t id)
{
   if (nd.bc.op == AluOp::MOV && !src[0].neg && !src[0].abs && !src[0].rel && !dst.clamp &&
       !dst.omod && (src[0].value.kind == ValueKind::Gpr ||
                     src[0].value.kind == ValueKind::Forward))
      return ops[0];
   return id;
}

inline void write_token(const AluNode &nd, const AluDst &dst, uint32_t value, uint32_t id,
                        uint32_t (&regs)[512], Tokens &tok)
{
   if (!(dst.write || alu_is_op3(nd.bc.op)) || (alu_op_info(nd.bc.op).flags & AF_MOVA))
      return;
   if (dst.rel) {
      for (uint32_t &r : regs)
         r = tok.merge(id, r);
      return;
   }
   if (dst.gpr >= 128)
      return;
   uint32_t &r = regs[dst.gpr * 4u + (dst.chan & 3u)];
   r = nd.bc.pred_sel ? tok.merge(value, r) : value;
}

bool check_clause(ChipClass chip, const AluClause &cl, size_t ci, const LiveSet &live_out,
                  Diagnostics &diags)
{
   auto fail = [&](const std::string &msg) {
      diags.error("sb sched_checker: CF " + std::to_string(ci) + ": " + msg);
      return false;
   };
   const size_t n = cl.nodes.size();
   /* Per-node tables: kept with the thread, like the scheduler's, and
    * used through spans: a reference to a thread-local vector is found
    * again (a TLS lookup) at every access. */
   struct Tables {
      std::vector<int> pos;
      std::vector<std::array<uint32_t, 3>> expect;
      std::vector<uint32_t> result, got;
   };
   Tables &kept = thread_kept<Tables>();
   std::vector<int> &pos_store = kept.pos;
   std::vector<std::array<uint32_t, 3>> &expect_store = kept.expect;
   std::vector<uint32_t> &result_store = kept.result, &got_store = kept.got;
   pos_store.assign(n, -1);
   const std::span<int> pos(pos_store);
   for (size_t gi = 0; gi < cl.groups.size(); gi++) {
      const GroupNode &g = cl.groups[gi];
      bool used[5] = {};
      size_t trans = g.nodes.size(); /* the node in trans, if any */
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
                                 : (allowed & (kSlotV | kSlot4)) &&
                                      slot == (node.bc.dst.chan & 3u) &&
                                      !alu_is_trans_only(chip, node.bc.op);
         if (!ok_slot)
            return fail("node " + std::to_string(id) + " in a slot it cannot use");
         if (slot == kSlotT)
            trans = k;
      }
      /* Slots are decoded by order: trans holds a vector-capable
       * instruction only when its channel's vector slot is taken (asked
       * once the group's slots are all known; trans is used once). */
      if (trans < g.nodes.size()) {
         const AluNode &node = cl.nodes[g.nodes[trans]];
         if (!alu_is_trans_only(chip, node.bc.op) && (alu_slots(chip, node.bc.op) & kSlotV) &&
             !used[node.bc.dst.chan & 3u])
            return fail("node " + std::to_string(g.nodes[trans]) +
                        " in trans with its vector slot free");
      }
   }
   /* Values: run the source order (registers as they were before the
    * scheduler renamed anything) and the schedule side by side on tokens
    * and require every operand to see the same value and the registers
    * live after the clause to end up holding the same values. */
   Tokens tok;
   expect_store.assign(n, {});
   const std::span<std::array<uint32_t, 3>> expect(expect_store);
   result_store.assign(n, 0);
   const std::span<uint32_t> result(result_store);
   /* Register state at each relative read (rare: made on the first). */
   std::vector<std::vector<uint32_t>> snapshot;
   uint32_t state[512];
   std::copy(kEntryState.regs, kEntryState.regs + 512, state);
   auto source_node = [&](size_t i) {
      const AluNode &nd = cl.nodes[i];
      return !nd.dead || nd.folded_into >= 0;
   };
   /* Every live node placed, and fixed groups are barriers: nodes keep
    * their side of each one.  Asked in the source-order walk, which
    * reports nothing itself; a lost node anywhere is reported before a
    * barrier crossed, so the first crossing waits for the end of the walk
    * (which then only looks for lost nodes), and both before any value. */
   int last_fixed_src = -1, last_fixed_pos = -1;
   const char *crossed = nullptr;
   size_t crossed_id = 0;
   /* A source group's nodes all read before any writes: [b, i) is the
    * group read so far, written when the next one begins (one walk over
    * the nodes, not a search for the group's end and two over it). */
   auto write_group = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; i++)
         if (source_node(i))
            write_token(cl.nodes[i], cl.nodes[i].has_pre ? cl.nodes[i].pre_dst : cl.nodes[i].bc.dst,
                        result[i], uint32_t(i), state, tok);
   };
   size_t b = 0;
   for (size_t i = 0; i < n; i++) {
      const AluNode &nd = cl.nodes[i];
      if (nd.group != cl.nodes[b].group) {
         write_group(b, i);
         b = i;
      }
      if (!nd.dead) {
         if (pos[i] < 0)
            return fail("node " + std::to_string(i) + " lost");
         if (!crossed) {
            const int src_group = int(nd.group);
            if (src_group < last_fixed_src && pos[i] > last_fixed_pos) {
               crossed = " moved across a fixed group";
               crossed_id = i;
            } else if (cl.groups[pos[i]].fixed) {
               last_fixed_src = src_group;
               last_fixed_pos = pos[i];
            } else if (pos[i] <= last_fixed_pos && src_group > last_fixed_src) {
               crossed = " moved before a fixed group";
               crossed_id = i;
            }
         }
      } else if (nd.folded_into < 0) {
         continue; /* not in the source order either */
      }
      const auto &src = nd.has_pre ? nd.pre_src : nd.src;
      const unsigned nsrc = alu_op_info(nd.bc.op).num_src;
      for (unsigned s = 0; s < nsrc; s++) {
         if (src[s].rel) {
            snapshot.resize(n);
            snapshot[i].assign(state, state + 512);
         }
         expect[i][s] = operand_token(src[s], state, result);
      }
      result[i] = result_token(nd, nd.has_pre ? nd.pre_dst : nd.bc.dst, src, expect[i],
                               uint32_t(i));
   }
   write_group(b, n);
   if (crossed)
      return fail("node " + std::to_string(crossed_id) + crossed);
   uint32_t sched[512];
   std::copy(kEntryState.regs, kEntryState.regs + 512, sched);
   got_store.assign(n, 0);
   const std::span<uint32_t> got(got_store);
   for (size_t gi = 0; gi < cl.groups.size(); gi++) {
      const GroupNode &g = cl.groups[gi];
      for (uint32_t i : g.nodes) {
         const AluNode &nd = cl.nodes[i];
         std::array<uint32_t, 3> ops{};
         const unsigned nsrc = alu_op_info(nd.bc.op).num_src;
         for (unsigned s = 0; s < nsrc; s++) {
            const Operand &o = nd.src[s];
            if (o.rel) {
               if (i >= snapshot.size() || snapshot[i].size() != 512 ||
                   !std::equal(sched, sched + 512, snapshot[i].begin()))
                  return fail("node " + std::to_string(i) +
                              " reads relatively with registers holding other values");
            }
            if (o.value.kind == ValueKind::Forward) {
               const uint32_t p = uint32_t(o.value.node);
               if (p >= n || gi == 0 || pos[p] != int(gi) - 1)
                  return fail("node " + std::to_string(i) + " reads PV/PS of node " +
                              std::to_string(p) + ", which is not in the group before");
            }
            ops[s] = operand_token(o, sched, got);
            if (ops[s] != expect[i][s]) {
               const uint32_t want = expect[i][s];
               if (want < n && (pos[want] < 0 || pos[want] >= int(gi)))
                  return fail("node " + std::to_string(i) + " reads before its producer " +
                              std::to_string(want));
               return fail("node " + std::to_string(i) + " operand " + std::to_string(s) +
                           " reads a value other than the source order's");
            }
         }
         got[i] = result_token(nd, nd.bc.dst, nd.src, ops, i);
      }
      for (uint32_t i : g.nodes)
         write_token(cl.nodes[i], cl.nodes[i].bc.dst, got[i], i, sched, tok);
   }
   /* Only the live channels (set bits, lowest first); clause temporaries
    * (not on R600) do not outlive the clause. */
   const size_t end = chip != ChipClass::R600 ? kSrcClauseTempFirst * 4 : 512;
   for (size_t k = live_out._Find_first(); k < end; k = live_out._Find_next(k))
      if (sched[k] != state[k])
         return fail("R" + std::to_string(k / 4) + "." + "xyzw"[k % 4] +
                     " does not hold the source order's value at the end of the clause");
   return true;
}

} // namespace

bool sched_checker(const Shader &sh, Diagnostics &diags, const std::vector<LiveSet> *given)
{
   std::vector<LiveSet> computed;
   if (!given)
      computed = live_out_or_all(sh);
   const std::vector<LiveSet> &live_out = given ? *given : computed;
   for (size_t ci = 0; ci < sh.cf.size(); ci++) {
      if (!sh.cf[ci].is_alu)
         continue;
      if (!check_clause(sh.chip, sh.cf[ci].alu, ci, live_out[ci], diags))
         return false;
   }
   return true;
}

} // namespace sbcc::r600::sb
