/*
 * Class-based graph-colouring register allocator shared by the r300 and vc4
 * backends (and any later one), after Runeson and Nystroem, "Retargetable
 * graph-coloring register allocation for irregular architectures" (2003),
 * the scheme Mesa's util/register_allocate.c uses.
 *
 * A target is described once by a RegSet: registers, which of them alias
 * (conflict), and register classes.  finalize() precomputes the p/q tables
 * so that the per-shader work, an InterferenceGraph, only sums small table
 * entries during simplification.  See docs/ra.md for the design.
 *
 * Misuse (out-of-range indices, editing a finalized set) never aborts: the
 * call returns false and the error goes to the optional Diagnostics.
 *
 * May use: src/common only.
 */
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"

namespace sbcc::ra {

constexpr unsigned kNoReg = ~0u;
constexpr unsigned kNoNode = ~0u;

/* A dense bit matrix row or a standalone bitset: words of 64 bits. */
class BitSet {
 public:
   BitSet() = default;
   explicit BitSet(unsigned bits) : bits_(bits), words_((bits + 63) / 64, 0) {}

   unsigned size() const { return bits_; }
   bool test(unsigned i) const { return (words_[i / 64] >> (i % 64)) & 1; }
   void set(unsigned i) { words_[i / 64] |= uint64_t(1) << (i % 64); }
   void reset(unsigned i) { words_[i / 64] &= ~(uint64_t(1) << (i % 64)); }
   void clear_all() { std::fill(words_.begin(), words_.end(), 0); }
   unsigned count() const;
   std::span<uint64_t> words() { return words_; }
   std::span<const uint64_t> words() const { return words_; }

 private:
   unsigned bits_ = 0;
   std::vector<uint64_t> words_;
};

class RegSet {
 public:
   /* The conflict matrix is num_regs^2 bits; this bounds it to 32 MiB. */
   static constexpr unsigned kMaxRegs = 16384;
   static constexpr unsigned kMaxClasses = 1024;

   explicit RegSet(unsigned num_regs, Diagnostics *diags = nullptr);

   unsigned num_regs() const { return num_regs_; }

   /* Names only make diagnostics and dumps readable. */
   bool set_reg_name(unsigned reg, std::string_view name);
   std::string reg_name(unsigned reg) const;

   /* a and b may not be allocated to interfering nodes at the same time
    * (symmetric; every register conflicts with itself). */
   bool add_conflict(unsigned a, unsigned b);
   /* reg conflicts with base and with everything base already conflicts
    * with.  Call it for every unit a composite register covers (or use
    * add_composite) and composites that share a unit conflict. */
   bool add_transitive_conflict(unsigned base, unsigned reg);
   /* Convenience: composite covers each of units. */
   bool add_composite(unsigned composite, std::span<const unsigned> units);
   /* Every register that conflicts with reg gets all of reg's conflicts;
    * for a unit register this makes all composites covering it conflict. */
   bool make_conflicts_transitive(unsigned reg);
   bool conflicts(unsigned a, unsigned b) const;

   /* Classes: the registers a node may be assigned.  Members are tried in
    * the order they were added, so the order is the target's preference. */
   unsigned add_class(std::string_view name = {});
   bool add_reg_to_class(unsigned cls, unsigned reg);
   /* Adds first, first + stride, ... (count registers). */
   bool add_range_to_class(unsigned cls, unsigned first, unsigned count,
                           unsigned stride = 1);
   unsigned num_classes() const { return unsigned(classes_.size()); }
   const std::string &class_name(unsigned cls) const { return classes_[cls].name; }
   bool class_contains(unsigned cls, unsigned reg) const;
   std::span<const unsigned> class_regs(unsigned cls) const { return classes_[cls].regs; }

   /* Precomputes p and q; the set is read-only afterwards.  Returns false
    * (with a diagnostic) if a class is empty. */
   bool finalize();
   bool finalized() const { return finalized_; }

   /* p(B): number of registers in class B. */
   unsigned p(unsigned cls) const { return unsigned(classes_[cls].regs.size()); }
   /* q(B, C): the most registers of class B that one register of class C
    * can make unavailable (a node of class B with a neighbour of class C
    * loses at most this many choices).  Valid after finalize(). */
   unsigned q(unsigned b, unsigned c) const { return q_[b * classes_.size() + c]; }
   /* Exact number of class-cls registers that reg conflicts with. */
   unsigned reg_class_conflicts(unsigned reg, unsigned cls) const
   {
      return reg_class_conflicts_[size_t(reg) * classes_.size() + cls];
   }
   /* Conflict row of reg, num_regs bits. */
   std::span<const uint64_t> conflict_row(unsigned reg) const
   {
      return {conflicts_.data() + size_t(reg) * row_words_, row_words_};
   }

   Diagnostics *diags() const { return diags_; }

 private:
   struct RegClass {
      std::string name;
      std::vector<unsigned> regs;
      BitSet members;
   };

   bool check_reg(unsigned reg, const char *what) const;
   bool check_class(unsigned cls, const char *what) const;
   bool check_mutable(const char *what) const;
   void error(std::string msg) const;
   uint64_t *row(unsigned reg) { return conflicts_.data() + size_t(reg) * row_words_; }

   unsigned num_regs_;
   size_t row_words_;
   std::vector<uint64_t> conflicts_;
   std::vector<std::string> names_;
   std::vector<RegClass> classes_;
   std::vector<unsigned> q_;
   std::vector<unsigned> reg_class_conflicts_;
   bool finalized_ = false;
   Diagnostics *diags_;
};

/* Node n is live over [start, end); a node may have several intervals
 * (live ranges with holes).  Empty intervals overlap nothing. */
struct Interval {
   unsigned node;
   uint32_t start;
   uint32_t end;
};

struct AllocStats {
   unsigned simplified = 0;       /* nodes removed by the p/q test */
   unsigned optimistic = 0;       /* nodes pushed optimistically */
   unsigned select_failures = 0;  /* nodes the greedy select could not colour */
   uint64_t search_steps = 0;     /* steps spent in the backtracking fallback */
   bool search_succeeded = false; /* the fallback found a colouring */
   bool search_exhausted = false; /* the fallback proved no colouring exists */
};

class InterferenceGraph {
 public:
   /* Far above any shader; keeps a corrupt count from exhausting memory. */
   static constexpr unsigned kMaxNodes = 1u << 22;

   /* The graph refers to regs, which must outlive it and be finalized
    * before allocate().  All nodes start in class 0. */
   InterferenceGraph(const RegSet &regs, unsigned num_nodes);

   unsigned num_nodes() const { return unsigned(nodes_.size()); }
   /* Returns the new node's index (kNoNode past kMaxNodes). */
   unsigned add_node(unsigned cls);
   bool set_node_class(unsigned n, unsigned cls);
   unsigned node_class(unsigned n) const { return nodes_[n].cls; }

   /* Edges: duplicates and self edges are harmless (dropped lazily). */
   bool add_interference(unsigned a, unsigned b);
   bool test_interference(unsigned a, unsigned b) const;
   /* Sorted, duplicate-free neighbour list. */
   std::span<const unsigned> neighbours(unsigned n) const;
   size_t num_edges() const;
   /* Adds an edge for every pair of overlapping intervals of distinct nodes,
    * with a sweep line: O(n log n + E). */
   bool build_from_live_intervals(std::span<const Interval> intervals);

   /* Precolour n with reg (kNoReg undoes it).  reg need not be in n's class
    * (fixed hardware registers often are not). */
   bool set_node_reg(unsigned n, unsigned reg);
   /* Cost of spilling n; <= 0 (or NaN) means n must never be spilled.
    * Default 1. */
   bool set_spill_cost(unsigned n, float cost);
   /* Select tries reg first if it is in n's class and free. */
   bool set_select_hint(unsigned n, unsigned reg);
   /* Round-robin select: start each class's search after the register last
    * given out in that class, spreading values over the file (fewer false
    * dependencies for a scheduler) instead of packing them low. */
   void set_round_robin(bool on) { round_robin_ = on; }
   /* When greedy select fails, a depth-first search over the select order
    * may still find a colouring; it gives up after this many register
    * trials.  0 turns it off (plain Mesa behaviour).  The default keeps a
    * failed allocate() of a big graph within about a millisecond, since
    * backends call it once per spill round. */
   static constexpr uint64_t kDefaultSearchBudget = 4096;
   void set_search_budget(uint64_t steps) { search_budget_ = steps; }

   /* Colours every node.  True on success; on failure get_node_reg() of the
    * nodes listed by uncoloured_nodes() is kNoReg and get_best_spill_node()
    * says what to spill.  Deterministic, and may be called again after
    * changes (non-precoloured assignments are recomputed). */
   bool allocate();
   unsigned get_node_reg(unsigned n) const { return nodes_[n].reg; }
   std::span<const unsigned> uncoloured_nodes() const { return uncoloured_; }
   const AllocStats &stats() const { return stats_; }

   /* The spillable, non-precoloured node with the highest benefit/cost,
    * where benefit is how much colouring pressure its removal takes off its
    * neighbours (sum of q(class(m), class(n)) / p(class(m))).  After a
    * failed allocate() the candidates are the uncoloured nodes, or failing
    * that the q-core (the nodes simplify could not remove), since spilling
    * any other leaves the problem unchanged; see docs/ra.md.  kNoNode when
    * no node may be spilled. */
   unsigned get_best_spill_node() const;

 private:
   struct Node {
      unsigned cls = 0;
      unsigned reg = kNoReg;
      unsigned hint = kNoReg;
      bool precoloured = false;
      float spill_cost = 1.0f;
   };

   bool check_node(unsigned n, const char *what) const;
   void error(std::string msg) const;
   void normalize() const;
   unsigned edge_weight(unsigned n, unsigned m) const;
   void simplify(std::vector<unsigned> &stack);
   bool select(const std::vector<unsigned> &stack);
   bool search(const std::vector<unsigned> &stack);
   bool reg_free_for(unsigned n, unsigned reg) const;

   const RegSet &regs_;
   std::vector<Node> nodes_;
   /* Mutable so const queries can sort-unique lazily. */
   mutable std::vector<std::vector<unsigned>> adj_;
   mutable bool dirty_ = false;
   std::vector<unsigned> uncoloured_;
   std::vector<unsigned> rr_next_; /* per class, round-robin start position */
   /* Nodes left when simplify first got stuck in the last allocate(). */
   std::vector<uint8_t> in_core_;
   bool core_valid_ = false;
   bool round_robin_ = false;
   uint64_t search_budget_ = kDefaultSearchBudget;
   AllocStats stats_;
};

} // namespace sbcc::ra
