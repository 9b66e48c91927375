/*
 * InterferenceGraph: per-shader graph building and the simplify / optimistic
 * push / select allocator, plus a bounded backtracking fallback.
 */
#include "ra/ra.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

namespace sbcc::ra {

InterferenceGraph::InterferenceGraph(const RegSet &regs, unsigned num_nodes) : regs_(regs)
{
   if (num_nodes > kMaxNodes) {
      error("interference graph of " + std::to_string(num_nodes) +
            " nodes exceeds the limit of " + std::to_string(kMaxNodes));
      num_nodes = 0;
   }
   nodes_.resize(num_nodes);
   adj_.resize(num_nodes);
}

void
InterferenceGraph::error(std::string msg) const
{
   if (regs_.diags())
      regs_.diags()->error("ra", {}, std::move(msg));
}

bool
InterferenceGraph::check_node(unsigned n, const char *what) const
{
   if (n < nodes_.size())
      return true;
   error(std::string(what) + ": node " + std::to_string(n) + " out of range (" +
         std::to_string(nodes_.size()) + " nodes)");
   return false;
}

unsigned
InterferenceGraph::add_node(unsigned cls)
{
   if (nodes_.size() >= kMaxNodes) {
      error("add_node: more than " + std::to_string(kMaxNodes) + " nodes");
      return kNoNode;
   }
   nodes_.emplace_back();
   adj_.emplace_back();
   unsigned n = unsigned(nodes_.size() - 1);
   set_node_class(n, cls);
   return n;
}

bool
InterferenceGraph::set_node_class(unsigned n, unsigned cls)
{
   if (!check_node(n, "set_node_class"))
      return false;
   if (cls >= regs_.num_classes()) {
      error("set_node_class: class " + std::to_string(cls) + " out of range (" +
            std::to_string(regs_.num_classes()) + " classes)");
      return false;
   }
   nodes_[n].cls = cls;
   return true;
}

bool
InterferenceGraph::add_interference(unsigned a, unsigned b)
{
   if (!check_node(a, "add_interference") || !check_node(b, "add_interference"))
      return false;
   if (a == b)
      return true;
   /* Appending and deduplicating once later is O(E log d) overall, where a
    * membership test per insertion would need a bit matrix (n^2 memory). */
   adj_[a].push_back(b);
   adj_[b].push_back(a);
   dirty_ = true;
   return true;
}

void
InterferenceGraph::normalize() const
{
   if (!dirty_)
      return;
   for (std::vector<unsigned> &l : adj_) {
      std::sort(l.begin(), l.end());
      l.erase(std::unique(l.begin(), l.end()), l.end());
   }
   dirty_ = false;
}

std::span<const unsigned>
InterferenceGraph::neighbours(unsigned n) const
{
   if (n >= nodes_.size())
      return {};
   normalize();
   return adj_[n];
}

bool
InterferenceGraph::test_interference(unsigned a, unsigned b) const
{
   if (a >= nodes_.size() || b >= nodes_.size())
      return false;
   normalize();
   return std::binary_search(adj_[a].begin(), adj_[a].end(), b);
}

size_t
InterferenceGraph::num_edges() const
{
   normalize();
   size_t sum = 0;
   for (const std::vector<unsigned> &l : adj_)
      sum += l.size();
   return sum / 2;
}

bool
InterferenceGraph::build_from_live_intervals(std::span<const Interval> intervals)
{
   bool ok = true;
   std::vector<unsigned> order;
   order.reserve(intervals.size());
   for (unsigned i = 0; i < intervals.size(); i++) {
      const Interval &iv = intervals[i];
      if (!check_node(iv.node, "build_from_live_intervals")) {
         ok = false;
         continue;
      }
      if (iv.start < iv.end)
         order.push_back(i);
   }
   /* Full key, so the edge insertion order (and with it nothing observable,
    * but also the run time) does not depend on the input order's ties. */
   std::sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
      const Interval &a = intervals[x], &b = intervals[y];
      if (a.start != b.start)
         return a.start < b.start;
      if (a.node != b.node)
         return a.node < b.node;
      return a.end < b.end;
   });

   /* Sweep by start; the active intervals form a min-heap on end, so the
    * ones that finished before the current start pop off in O(log n) each
    * and every interval still in the heap overlaps the current one. */
   std::vector<std::pair<uint32_t, unsigned>> active; /* (end, node) */
   auto later = [](const std::pair<uint32_t, unsigned> &a,
                   const std::pair<uint32_t, unsigned> &b) { return a.first > b.first; };
   for (unsigned i : order) {
      const Interval &iv = intervals[i];
      while (!active.empty() && active.front().first <= iv.start) {
         std::pop_heap(active.begin(), active.end(), later);
         active.pop_back();
      }
      for (const auto &a : active) {
         if (a.second != iv.node) {
            adj_[a.second].push_back(iv.node);
            adj_[iv.node].push_back(a.second);
            dirty_ = true;
         }
      }
      active.emplace_back(iv.end, iv.node);
      std::push_heap(active.begin(), active.end(), later);
   }
   return ok;
}

bool
InterferenceGraph::set_node_reg(unsigned n, unsigned reg)
{
   if (!check_node(n, "set_node_reg"))
      return false;
   if (reg == kNoReg) {
      nodes_[n].precoloured = false;
      nodes_[n].reg = kNoReg;
      return true;
   }
   if (reg >= regs_.num_regs()) {
      error("set_node_reg: register " + std::to_string(reg) + " out of range (" +
            std::to_string(regs_.num_regs()) + " registers)");
      return false;
   }
   nodes_[n].precoloured = true;
   nodes_[n].reg = reg;
   return true;
}

bool
InterferenceGraph::set_spill_cost(unsigned n, float cost)
{
   if (!check_node(n, "set_spill_cost"))
      return false;
   nodes_[n].spill_cost = cost;
   return true;
}

bool
InterferenceGraph::set_select_hint(unsigned n, unsigned reg)
{
   if (!check_node(n, "set_select_hint"))
      return false;
   nodes_[n].hint = reg;
   return true;
}

unsigned
InterferenceGraph::edge_weight(unsigned n, unsigned m) const
{
   /* A precoloured neighbour blocks exactly the registers its own register
    * conflicts with; only unknown neighbours need the worst case q. */
   if (nodes_[m].precoloured)
      return regs_.reg_class_conflicts(nodes_[m].reg, nodes_[n].cls);
   return regs_.q(nodes_[n].cls, nodes_[m].cls);
}

static bool
spillable(float cost)
{
   return cost > 0.0f && std::isfinite(cost);
}

void
InterferenceGraph::simplify(std::vector<unsigned> &stack)
{
   const unsigned n = num_nodes();
   std::vector<uint64_t> q_total(n, 0);
   std::vector<unsigned> degree(n, 0);
   std::vector<uint8_t> removed(n, 0), queued(n, 0);
   std::vector<unsigned> work;
   unsigned remaining = 0;

   for (unsigned i = 0; i < n; i++) {
      if (nodes_[i].precoloured) {
         removed[i] = 1;
         continue;
      }
      remaining++;
      degree[i] = unsigned(adj_[i].size());
      for (unsigned m : adj_[i])
         q_total[i] += edge_weight(i, m);
   }
   /* Pushed in reverse so the LIFO worklist pops low indices first. */
   for (unsigned i = n; i-- > 0;) {
      if (!removed[i] && q_total[i] < regs_.p(nodes_[i].cls)) {
         work.push_back(i);
         queued[i] = 1;
      }
   }

   /* Optimistic candidates: lowest spill_cost / current degree first, so
    * what is pushed when stuck is what we would rather spill.  Keys only grow
    * (degrees only shrink), so a heap entry is a lower bound of its node's
    * key; a popped stale entry is re-pushed with its current key. */
   auto key_of = [&](unsigned i) {
      float cost = nodes_[i].spill_cost;
      if (!spillable(cost))
         return std::numeric_limits<double>::infinity();
      return double(cost) / double(std::max(degree[i], 1u));
   };
   using Entry = std::pair<double, unsigned>;
   auto worse = [](const Entry &a, const Entry &b) {
      return a.first != b.first ? a.first > b.first : a.second > b.second;
   };
   std::vector<Entry> heap;
   heap.reserve(remaining);
   for (unsigned i = 0; i < n; i++) {
      if (!removed[i])
         heap.emplace_back(key_of(i), i);
   }
   std::make_heap(heap.begin(), heap.end(), worse);

   auto remove = [&](unsigned i) {
      removed[i] = 1;
      stack.push_back(i);
      for (unsigned m : adj_[i]) {
         if (removed[m])
            continue;
         q_total[m] -= regs_.q(nodes_[m].cls, nodes_[i].cls);
         degree[m]--;
         if (!queued[m] && q_total[m] < regs_.p(nodes_[m].cls)) {
            work.push_back(m);
            queued[m] = 1;
         }
      }
   };

   stack.reserve(remaining);
   while (stack.size() < remaining) {
      if (!work.empty()) {
         unsigned i = work.back();
         work.pop_back();
         if (removed[i])
            continue;
         remove(i);
         stats_.simplified++;
         continue;
      }
      /* First time stuck: what is left is the graph's q-core, the part the
       * p/q test cannot take apart whatever order it works in. */
      if (!core_valid_) {
         core_valid_ = true;
         for (unsigned i = 0; i < n; i++)
            in_core_[i] = !removed[i];
      }
      /* Every unremoved node keeps an entry, so this cannot run dry; if it
       * ever did, pushing the rest in index order still terminates. */
      assert(!heap.empty());
      if (heap.empty()) {
         for (unsigned i = 0; i < n; i++)
            if (!removed[i])
               remove(i);
         break;
      }
      while (!heap.empty()) {
         std::pop_heap(heap.begin(), heap.end(), worse);
         Entry e = heap.back();
         heap.pop_back();
         if (removed[e.second])
            continue;
         double key = key_of(e.second);
         if (key != e.first) {
            heap.emplace_back(key, e.second);
            std::push_heap(heap.begin(), heap.end(), worse);
            continue;
         }
         remove(e.second);
         stats_.optimistic++;
         break;
      }
   }
}

bool
InterferenceGraph::select(const std::vector<unsigned> &stack)
{
   BitSet blocked(regs_.num_regs());
   std::span<uint64_t> bw = blocked.words();

   for (size_t k = stack.size(); k-- > 0;) {
      unsigned n = stack[k];
      Node &node = nodes_[n];
      blocked.clear_all();
      for (unsigned m : adj_[n]) {
         unsigned r = nodes_[m].reg;
         if (r == kNoReg)
            continue;
         std::span<const uint64_t> row = regs_.conflict_row(r);
         for (size_t w = 0; w < bw.size(); w++)
            bw[w] |= row[w];
      }

      unsigned chosen = kNoReg;
      if (node.hint != kNoReg && regs_.class_contains(node.cls, node.hint) &&
          !blocked.test(node.hint)) {
         chosen = node.hint;
      } else {
         std::span<const unsigned> cand = regs_.class_regs(node.cls);
         size_t start = round_robin_ ? rr_next_[node.cls] : 0;
         for (size_t i = 0; i < cand.size(); i++) {
            size_t idx = (start + i) % cand.size();
            if (!blocked.test(cand[idx])) {
               chosen = cand[idx];
               if (round_robin_)
                  rr_next_[node.cls] = unsigned((idx + 1) % cand.size());
               break;
            }
         }
      }
      if (chosen == kNoReg) {
         uncoloured_.push_back(n);
         stats_.select_failures++;
      }
      node.reg = chosen;
   }
   std::sort(uncoloured_.begin(), uncoloured_.end());
   return uncoloured_.empty();
}

bool
InterferenceGraph::reg_free_for(unsigned n, unsigned reg) const
{
   for (unsigned m : adj_[n]) {
      unsigned r = nodes_[m].reg;
      if (r != kNoReg && regs_.conflicts(reg, r))
         return false;
   }
   return true;
}

bool
InterferenceGraph::search(const std::vector<unsigned> &stack)
{
   /* Depth-first over the select order, so the nodes simplify proved easy
    * come last and rarely need revisiting.  Budgeted, as it is exponential
    * in the worst case; meant to rescue small, tight graphs. */
   std::vector<unsigned> saved(nodes_.size());
   for (unsigned i = 0; i < nodes_.size(); i++) {
      saved[i] = nodes_[i].reg;
      if (!nodes_[i].precoloured)
         nodes_[i].reg = kNoReg;
   }
   std::vector<unsigned> order(stack.rbegin(), stack.rend());
   std::vector<unsigned> pos(order.size(), 0);
   uint64_t steps = 0;
   size_t k = 0;
   bool found_all = true;

   while (k < order.size()) {
      unsigned n = order[k];
      std::span<const unsigned> cand = regs_.class_regs(nodes_[n].cls);
      bool placed = false;
      while (pos[k] < cand.size()) {
         if (steps >= search_budget_) {
            found_all = false;
            goto done;
         }
         steps++;
         unsigned r = cand[pos[k]++];
         if (reg_free_for(n, r)) {
            nodes_[n].reg = r;
            placed = true;
            break;
         }
      }
      if (placed) {
         k++;
         continue;
      }
      pos[k] = 0;
      if (k == 0) {
         found_all = false;
         stats_.search_exhausted = true;
         break;
      }
      k--;
      nodes_[order[k]].reg = kNoReg;
   }

done:
   stats_.search_steps = steps;
   if (found_all) {
      uncoloured_.clear();
      stats_.search_succeeded = true;
      return true;
   }
   for (unsigned i = 0; i < nodes_.size(); i++)
      nodes_[i].reg = saved[i];
   return false;
}

bool
InterferenceGraph::allocate()
{
   uncoloured_.clear();
   stats_ = {};
   if (!regs_.finalized()) {
      error("allocate: register set is not finalized");
      return false;
   }
   if (regs_.num_classes() == 0 && !nodes_.empty()) {
      error("allocate: register set has no classes");
      return false;
   }
   normalize();

   for (unsigned i = 0; i < nodes_.size(); i++) {
      if (!nodes_[i].precoloured) {
         nodes_[i].reg = kNoReg;
         continue;
      }
      for (unsigned m : adj_[i]) {
         if (m > i && nodes_[m].precoloured && regs_.conflicts(nodes_[i].reg, nodes_[m].reg)) {
            error("allocate: interfering nodes " + std::to_string(i) + " and " +
                  std::to_string(m) + " are precoloured with conflicting registers " +
                  regs_.reg_name(nodes_[i].reg) + " and " + regs_.reg_name(nodes_[m].reg));
            return false;
         }
      }
   }
   rr_next_.assign(regs_.num_classes(), 0);
   in_core_.assign(nodes_.size(), 0);
   core_valid_ = false;

   std::vector<unsigned> stack;
   simplify(stack);
   if (select(stack))
      return true;
   /* Every node costs at least one trial, so a budget below the node count
    * cannot succeed: skip the search instead of burning it. */
   return search_budget_ >= stack.size() && search(stack);
}

unsigned
InterferenceGraph::get_best_spill_node() const
{
   if (!regs_.finalized() || regs_.num_classes() == 0)
      return kNoNode;
   normalize();
   const unsigned n = num_nodes();
   auto may_spill = [&](unsigned i) {
      return !nodes_[i].precoloured && spillable(nodes_[i].spill_cost);
   };

   /* Candidates, narrowest useful set first:
    *  1. the nodes select could not colour: the optimistic push order is
    *     cheapest-per-degree first, so these are already the cheap ones,
    *     and spilling one certainly removes a failure;
    *  2. the q-core: the nodes left when simplify first got stuck.  The core
    *     does not depend on simplification order, and spilling a node
    *     outside it leaves it, and the stuck point, unchanged;
    *  3. every node (no failed allocate() yet, or nothing spillable above).
    * On single-class interval graphs, where the fewest spills is known, the
    * spill loop took 1.97x the optimum with 3 alone (Mesa's rule), 1.47x
    * with 2 and 1.31x with 1. */
   const bool have_core = core_valid_ && in_core_.size() == n;
   std::vector<uint8_t> cand(n, 0);
   bool any = false;
   if (have_core) {
      for (unsigned i : uncoloured_) {
         cand[i] = may_spill(i);
         any |= cand[i];
      }
      for (unsigned i = 0; i < n && !any; i++) {
         cand[i] = in_core_[i] && may_spill(i);
         any |= cand[i];
      }
   }
   /* Pressure on nodes outside the core does not matter, as above. */
   const bool core_benefit = any;
   if (!any)
      for (unsigned i = 0; i < n; i++)
         cand[i] = may_spill(i);

   unsigned best = kNoNode;
   double best_score = -1.0;
   for (unsigned i = 0; i < n; i++) {
      if (!cand[i])
         continue;
      double benefit = 0.0;
      for (unsigned m : adj_[i]) {
         if (nodes_[m].precoloured || (core_benefit && !in_core_[m]))
            continue;
         unsigned cm = nodes_[m].cls;
         benefit += double(regs_.q(cm, nodes_[i].cls)) / double(regs_.p(cm));
      }
      double score = benefit / double(nodes_[i].spill_cost);
      if (score > best_score) {
         best_score = score;
         best = i;
      }
   }
   return best;
}

} // namespace sbcc::ra
