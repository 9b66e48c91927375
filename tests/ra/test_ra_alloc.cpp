/*
 * Allocation on hand-built graphs: exact-k cliques and chains, precolouring,
 * the vc4/r300/x86-like targets' irregular classes, spill choice, hints,
 * round-robin, determinism and misuse diagnostics.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "ra_targets.h"

using namespace sbcc::ra;
using namespace ra_test;

namespace {

void
add_clique(GraphSpec &g, const std::vector<unsigned> &nodes)
{
   for (size_t i = 0; i < nodes.size(); i++)
      for (size_t j = i + 1; j < nodes.size(); j++)
         g.edges.emplace_back(nodes[i], nodes[j]);
}

std::vector<unsigned>
iota_vec(unsigned first, unsigned n)
{
   std::vector<unsigned> v(n);
   std::iota(v.begin(), v.end(), first);
   return v;
}

unsigned
add_nodes(GraphSpec &g, unsigned cls, unsigned n)
{
   unsigned first = unsigned(g.cls.size());
   g.cls.insert(g.cls.end(), n, cls);
   return first;
}

std::vector<unsigned>
regs_of(const InterferenceGraph &ig)
{
   std::vector<unsigned> r;
   for (unsigned n = 0; n < ig.num_nodes(); n++)
      r.push_back(ig.get_node_reg(n));
   return r;
}

/* Allocates g on t and checks the result with the independent validator. */
bool
alloc_and_check(const Target &t, const GraphSpec &g,
                std::unique_ptr<InterferenceGraph> *out = nullptr)
{
   auto ig = make_graph(*t.regs, g);
   bool ok = ig->allocate();
   if (ok) {
      std::string err = validate(t.model, g, regs_of(*ig));
      EXPECT_EQ(err, "");
      EXPECT_TRUE(ig->uncoloured_nodes().empty());
   } else {
      EXPECT_FALSE(ig->uncoloured_nodes().empty());
      for (unsigned n : ig->uncoloured_nodes())
         EXPECT_EQ(ig->get_node_reg(n), kNoReg);
   }
   if (out)
      *out = std::move(ig);
   return ok;
}

} // namespace

TEST(RaAlloc, CliqueNeedsExactlyK)
{
   Target t = make_flat(8);
   GraphSpec g;
   add_nodes(g, 0, 8);
   add_clique(g, iota_vec(0, 8));
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t, g, &ig));
   std::vector<unsigned> regs = regs_of(*ig);
   std::set<unsigned> used(regs.begin(), regs.end());
   EXPECT_EQ(used.size(), 8u);
   EXPECT_EQ(ig->num_edges(), 28u);

   GraphSpec g9;
   add_nodes(g9, 0, 9);
   add_clique(g9, iota_vec(0, 9));
   EXPECT_FALSE(alloc_and_check(t, g9, &ig));
   EXPECT_EQ(ig->uncoloured_nodes().size(), 1u);
   /* Proving that takes 8!-ish register trials: the budgeted search gives up
    * instead of running away. */
   EXPECT_FALSE(ig->stats().search_exhausted);
   EXPECT_EQ(ig->stats().search_steps, InterferenceGraph::kDefaultSearchBudget);
   EXPECT_EQ(ig->get_best_spill_node(), 0u);
   /* A budget below the node count cannot succeed and is not spent. */
   auto small = make_graph(*t.regs, g9);
   small->set_search_budget(8);
   EXPECT_FALSE(small->allocate());
   EXPECT_EQ(small->stats().search_steps, 0u);
   EXPECT_EQ(small->uncoloured_nodes().size(), 1u);
}

TEST(RaAlloc, LongChainWithTwoColours)
{
   Target t = make_flat(2);
   GraphSpec g;
   add_nodes(g, 0, 1000);
   for (unsigned i = 0; i + 1 < 1000; i++)
      g.edges.emplace_back(i, i + 1);
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t, g, &ig));
   /* Endpoints have one neighbour; removing them cascades down the chain. */
   EXPECT_EQ(ig->stats().simplified, 1000u);
   EXPECT_EQ(ig->stats().optimistic, 0u);
}

TEST(RaAlloc, CyclesWithTwoColours)
{
   Target t = make_flat(2);
   for (unsigned len : {10u, 11u}) {
      GraphSpec g;
      add_nodes(g, 0, len);
      for (unsigned i = 0; i < len; i++)
         g.edges.emplace_back(i, (i + 1) % len);
      std::unique_ptr<InterferenceGraph> ig;
      bool ok = alloc_and_check(t, g, &ig);
      /* Even cycles are bipartite; odd ones are not. */
      EXPECT_EQ(ok, len % 2 == 0) << len;
      EXPECT_EQ(ig->stats().optimistic, 1u);
      if (!ok) {
         EXPECT_TRUE(ig->stats().search_exhausted);
      }
   }
}

TEST(RaAlloc, PrecolouredNodeForcesOthersAround)
{
   Target t = make_flat(3);
   GraphSpec g;
   add_nodes(g, 0, 4);
   g.precolour = {1, kNoReg, kNoReg, kNoReg};
   add_clique(g, {0, 1, 2});
   g.edges.emplace_back(3, 2);
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_node_reg(0), 1u);
   EXPECT_EQ((std::set<unsigned>{ig->get_node_reg(1), ig->get_node_reg(2)}),
             (std::set<unsigned>{0, 2}));
   /* Precoloured nodes are never spill candidates. */
   GraphSpec full = g;
   add_nodes(full, 0, 1);
   add_clique(full, {0, 1, 2, 4});
   full.cost = {100.0f, 50.0f, 50.0f, 50.0f, 50.0f};
   EXPECT_FALSE(alloc_and_check(t, full, &ig));
   /* Node 3 is trivially colourable, so node 2's edge to it does not count:
    * the three free clique members tie and the lowest index wins. */
   EXPECT_EQ(ig->get_best_spill_node(), 1u);
}

TEST(RaAlloc, Vc4PrecolouredR4AndClasses)
{
   Target t = make_vc4();
   /* 32 "A or r4" values and a fixed r4 (say an SFU result): all in A. */
   GraphSpec g;
   unsigned first = add_nodes(g, kVc4AOrR4, 32);
   unsigned fixed = add_nodes(g, kVc4AOrR4, 1);
   g.precolour.assign(33, kNoReg);
   g.precolour[fixed] = kVc4Acc + 4;
   add_clique(g, iota_vec(first, 33));
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t, g, &ig));
   for (unsigned n = first; n < first + 32; n++) {
      EXPECT_GE(ig->get_node_reg(n), kVc4A);
      EXPECT_LT(ig->get_node_reg(n), kVc4A + 32);
   }
   /* One more and regfile A is exhausted. */
   GraphSpec g2;
   add_nodes(g2, kVc4AOrR4, 34);
   g2.precolour.assign(34, kNoReg);
   g2.precolour[33] = kVc4Acc + 4;
   add_clique(g2, iota_vec(0, 34));
   EXPECT_FALSE(alloc_and_check(t, g2, &ig));

   /* Without the fixed r4, 33 fit: exactly one of them takes r4. */
   GraphSpec g3;
   add_nodes(g3, kVc4AOrR4, 33);
   add_clique(g3, iota_vec(0, 33));
   ASSERT_TRUE(alloc_and_check(t, g3, &ig));
   std::vector<unsigned> regs = regs_of(*ig);
   EXPECT_EQ(std::count(regs.begin(), regs.end(), kVc4Acc + 4), 1);
}

TEST(RaAlloc, Vc4AOnlyValuesPushOthersToAccumulatorsAndB)
{
   Target t = make_vc4();
   for (unsigned extra : {36u, 37u}) {
      GraphSpec g;
      add_nodes(g, kVc4AOnly, 32);
      add_nodes(g, kVc4Any, extra);
      add_clique(g, iota_vec(0, 32 + extra));
      std::unique_ptr<InterferenceGraph> ig;
      bool ok = alloc_and_check(t, g, &ig);
      /* "any" has 68 registers, 32 of them taken by the A-only values. */
      EXPECT_EQ(ok, extra == 36) << extra;
      if (ok) {
         for (unsigned n = 32; n < 68; n++) {
            unsigned r = ig->get_node_reg(n);
            EXPECT_TRUE(r < kVc4Acc + 4 || r >= kVc4B) << n << " got " << r;
         }
      }
   }
}

TEST(RaAlloc, Vc4ThreadedHalves)
{
   Target t = make_vc4();
   for (unsigned n : {36u, 37u}) {
      GraphSpec g;
      add_nodes(g, kVc4AnyThreaded, n);
      add_clique(g, iota_vec(0, n));
      std::unique_ptr<InterferenceGraph> ig;
      bool ok = alloc_and_check(t, g, &ig);
      EXPECT_EQ(ok, n == 36) << n;
      if (ok) {
         for (unsigned i = 0; i < n; i++) {
            unsigned r = ig->get_node_reg(i);
            bool half = r < kVc4Acc + 4 || (r >= kVc4A && r < kVc4A + 16) ||
                        (r >= kVc4B && r < kVc4B + 16);
            EXPECT_TRUE(half) << i << " got " << r;
         }
      }
   }
}

TEST(RaAlloc, R300ChannelPacking)
{
   Target t = make_r300(1);
   struct Case {
      std::vector<unsigned> classes;
      bool fits;
   } cases[] = {
      {{kR300Vec2, kR300Vec2}, true},
      {{kR300Vec2, kR300Vec2, kR300Vec2}, false},
      {{kR300Vec3, kR300Single}, true},
      {{kR300Vec3, kR300Vec2}, false},
      {{kR300Single, kR300Single, kR300Vec2}, true},
      {{kR300Single, kR300Single, kR300Single, kR300Single}, true},
      {{kR300Single, kR300Single, kR300Single, kR300Single, kR300Single}, false},
      {{kR300Vec4, kR300Single}, false},
   };
   for (const Case &c : cases) {
      GraphSpec g;
      g.cls = c.classes;
      add_clique(g, iota_vec(0, unsigned(c.classes.size())));
      EXPECT_EQ(alloc_and_check(t, g), c.fits) << c.classes.size() << " values";
      EXPECT_EQ(brute_force_colourable(t.model, g), c.fits);
   }

   /* Two temps: a vec4 and a vec3 that interfere with everything leave one
    * channel for the singles. */
   Target t2 = make_r300(2);
   GraphSpec g;
   g.cls = {kR300Vec4, kR300Vec3, kR300Single};
   add_clique(g, {0, 1, 2});
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t2, g, &ig));
   unsigned vec3_temp = ig->get_node_reg(1) / 15;
   EXPECT_EQ(ig->get_node_reg(2) / 15, vec3_temp);
   g.cls.push_back(kR300Single);
   add_clique(g, {0, 1, 2, 3});
   EXPECT_FALSE(alloc_and_check(t2, g));
}

TEST(RaAlloc, X86SubRegisters)
{
   Target t = make_x86();
   /* All eight byte registers in use: the two 32-bit values must go to esi
    * and edi, and no 16-bit value fits next to them. */
   GraphSpec g;
   add_nodes(g, kX86R8, 8);
   add_nodes(g, kX86R32, 2);
   add_clique(g, iota_vec(0, 10));
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_TRUE(alloc_and_check(t, g, &ig));
   EXPECT_EQ((std::set<unsigned>{ig->get_node_reg(8), ig->get_node_reg(9)}),
             (std::set<unsigned>{x86_e(4), x86_e(5)}));
   add_nodes(g, kX86R16, 1);
   add_clique(g, iota_vec(0, 11));
   EXPECT_FALSE(alloc_and_check(t, g));

   /* al fixed (say a divide result): eax and ax are out for neighbours. */
   GraphSpec p;
   add_nodes(p, kX86R8, 1);
   add_nodes(p, kX86R32, 4);
   add_nodes(p, kX86R16, 1);
   p.precolour = {x86_l(0), kNoReg, kNoReg, kNoReg, kNoReg, kNoReg};
   add_clique(p, iota_vec(0, 6));
   ASSERT_TRUE(alloc_and_check(t, p, &ig));
   for (unsigned n = 1; n < 6; n++) {
      EXPECT_NE(ig->get_node_reg(n), x86_e(0));
      EXPECT_NE(ig->get_node_reg(n), x86_x(0));
   }
   /* ah is still free for a byte value next to the fixed al. */
   add_nodes(p, kX86R8, 1);
   p.precolour.push_back(kNoReg);
   p.edges.emplace_back(0, 6);
   ASSERT_TRUE(alloc_and_check(t, p, &ig));
   EXPECT_EQ(ig->get_node_reg(6), x86_h(0));
}

TEST(RaAlloc, SpillNodeByCost)
{
   Target t = make_flat(4);
   GraphSpec g;
   add_nodes(g, 0, 5);
   add_clique(g, iota_vec(0, 5));
   g.cost = {5.0f, 2.0f, 9.0f, 3.0f, 7.0f};
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_best_spill_node(), 1u);

   /* Cost <= 0 means "never spill" (e.g. a spill's own reload temp). */
   g.cost[1] = 0.0f;
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_best_spill_node(), 3u);

   g.cost = {0.0f, -1.0f, 0.0f, 0.0f, 0.0f};
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_best_spill_node(), kNoNode);
}

TEST(RaAlloc, SpillNodeByBenefit)
{
   /* Same costs, nobody trivially colourable: the node whose removal
    * relieves most neighbours (node 2, degree 7) wins. */
   Target t = make_flat(4);
   GraphSpec g;
   add_nodes(g, 0, 8);
   add_clique(g, iota_vec(0, 5));
   for (auto [a, b] : std::vector<std::pair<unsigned, unsigned>>{
           {5, 2}, {5, 3}, {5, 4}, {5, 0}, {6, 2}, {6, 3}, {6, 5}, {6, 1},
           {7, 2}, {7, 5}, {7, 6}, {7, 4}})
      g.edges.emplace_back(a, b);
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_GE(ig->stats().optimistic, 1u);
   EXPECT_EQ(ig->get_best_spill_node(), 2u);

   /* Spilling it (dropping its edges) leaves a colourable graph. */
   GraphSpec rest = g;
   std::erase_if(rest.edges, [](auto e) { return e.first == 2 || e.second == 2; });
   EXPECT_TRUE(alloc_and_check(t, rest));
   EXPECT_TRUE(brute_force_colourable(t.model, rest));
}

TEST(RaAlloc, SpillNodeComesFromTheCore)
{
   /* A 5-clique in 4 registers, with nodes 5 and 6 hanging off node 2.
    * Those two are trivially colourable, so they are not part of the
    * problem: after allocate() they do not make node 2 look more useful to
    * spill, and the tie in the clique goes to the lowest index. */
   Target t = make_flat(4);
   GraphSpec g;
   add_nodes(g, 0, 7);
   add_clique(g, iota_vec(0, 5));
   g.edges.emplace_back(2, 5);
   g.edges.emplace_back(2, 6);
   auto fresh = make_graph(*t.regs, g);
   /* Before any allocate() there is no core: all neighbours count. */
   EXPECT_EQ(fresh->get_best_spill_node(), 2u);
   std::unique_ptr<InterferenceGraph> ig;
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_best_spill_node(), 0u);

   /* The nodes select could not colour come first: cheapest per degree is
    * pushed optimistically first, so it is the one left without a
    * register. */
   g.cost = {3.0f, 2.0f, 4.0f, 5.0f, 6.0f, 1.0f, 1.0f};
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   ASSERT_EQ(std::vector<unsigned>(ig->uncoloured_nodes().begin(), ig->uncoloured_nodes().end()),
             (std::vector<unsigned>{1}));
   EXPECT_EQ(ig->get_best_spill_node(), 1u);

   /* If nothing in the core may be spilled, the search widens again. */
   g.cost = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 2.0f};
   ASSERT_FALSE(alloc_and_check(t, g, &ig));
   EXPECT_EQ(ig->get_best_spill_node(), 5u);
}

TEST(RaAlloc, SpillFallsBackToCoreWhenUncolouredAreFixedCost)
{
   /* Classes: 0 = four registers, 1 = register 0 only.  Nodes 1 and 2 both
    * need register 0 and may not be spilled; node 0 (class 0, spillable)
    * interferes with them and with the 3-clique 3, 4, 5. */
   RegSet rs(4);
   unsigned wide = rs.add_class("wide");
   rs.add_range_to_class(wide, 0, 4);
   unsigned r0 = rs.add_class("r0");
   rs.add_reg_to_class(r0, 0);
   ASSERT_TRUE(rs.finalize());
   InterferenceGraph ig(rs, 6);
   ig.set_node_class(1, r0);
   ig.set_node_class(2, r0);
   ig.set_spill_cost(1, 0.0f);
   ig.set_spill_cost(2, 0.0f);
   for (auto [a, b] : std::vector<std::pair<unsigned, unsigned>>{
           {1, 2}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {3, 4}, {3, 5}, {4, 5}})
      ig.add_interference(a, b);
   ASSERT_FALSE(ig.allocate());
   EXPECT_EQ(std::vector<unsigned>(ig.uncoloured_nodes().begin(), ig.uncoloured_nodes().end()),
             (std::vector<unsigned>{1}));
   /* 3, 4 and 5 were simplified before the allocator got stuck, so the
    * only spillable core node is 0. */
   EXPECT_EQ(ig.get_best_spill_node(), 0u);
}

TEST(RaAlloc, SelectHintsAndRoundRobin)
{
   Target t = make_flat(8);
   GraphSpec g;
   add_nodes(g, 0, 4);
   auto ig = make_graph(*t.regs, g);
   ASSERT_TRUE(ig->allocate());
   EXPECT_EQ(regs_of(*ig), (std::vector<unsigned>{0, 0, 0, 0}));

   ig->set_round_robin(true);
   ASSERT_TRUE(ig->allocate());
   std::vector<unsigned> r = regs_of(*ig);
   std::sort(r.begin(), r.end());
   EXPECT_EQ(r, (std::vector<unsigned>{0, 1, 2, 3}));

   ig->set_round_robin(false);
   ig->set_select_hint(2, 5);
   ig->set_select_hint(3, 42); /* not a register at all: ignored */
   ASSERT_TRUE(ig->allocate());
   EXPECT_EQ(regs_of(*ig), (std::vector<unsigned>{0, 0, 5, 0}));

   /* A hint that is taken by a neighbour falls back to the class order. */
   ig->add_interference(1, 2);
   ig->set_select_hint(1, 5);
   ASSERT_TRUE(ig->allocate());
   EXPECT_NE(ig->get_node_reg(1), ig->get_node_reg(2));
   EXPECT_TRUE(ig->get_node_reg(1) == 5 || ig->get_node_reg(2) == 5);
}

TEST(RaAlloc, EdgeOrderDoesNotMatter)
{
   Target t = make_r300(3);
   GraphSpec g;
   uint32_t s = 12345;
   auto rnd = [&](uint32_t n) {
      s = s * 1103515245u + 12345u;
      return (s >> 8) % n;
   };
   for (unsigned i = 0; i < 40; i++)
      g.cls.push_back(rnd(4));
   for (unsigned i = 0; i < 150; i++)
      g.edges.emplace_back(rnd(40), rnd(40));
   auto a = make_graph(*t.regs, g);
   bool ok_a = a->allocate();

   GraphSpec shuffled = g;
   std::reverse(shuffled.edges.begin(), shuffled.edges.end());
   for (auto &e : shuffled.edges)
      std::swap(e.first, e.second);
   shuffled.edges.insert(shuffled.edges.end(), g.edges.begin(), g.edges.begin() + 20);
   auto b = make_graph(*t.regs, shuffled);
   EXPECT_EQ(b->allocate(), ok_a);
   EXPECT_EQ(regs_of(*a), regs_of(*b));
   EXPECT_EQ(a->get_best_spill_node(), b->get_best_spill_node());
   /* And again on the same graph. */
   std::vector<unsigned> first = regs_of(*a);
   EXPECT_EQ(a->allocate(), ok_a);
   EXPECT_EQ(regs_of(*a), first);
}

TEST(RaAlloc, IntervalBuilderExample)
{
   Target t = make_flat(2);
   /* Touching ranges ([0,4) and [4,8)) do not interfere; node 3 has a hole;
    * node 4's range is empty. */
   Interval ivs[] = {{0, 0, 4}, {1, 4, 8}, {2, 2, 6}, {3, 10, 12}, {3, 1, 2}, {4, 5, 5}};
   InterferenceGraph ig(*t.regs, 5);
   ASSERT_TRUE(ig.build_from_live_intervals(ivs));
   auto nbrs = [&](unsigned n) {
      std::span<const unsigned> s = ig.neighbours(n);
      return std::vector<unsigned>(s.begin(), s.end());
   };
   EXPECT_EQ(nbrs(0), (std::vector<unsigned>{2, 3}));
   EXPECT_EQ(nbrs(1), (std::vector<unsigned>{2}));
   EXPECT_EQ(nbrs(2), (std::vector<unsigned>{0, 1}));
   EXPECT_EQ(nbrs(3), (std::vector<unsigned>{0}));
   EXPECT_TRUE(nbrs(4).empty());
   EXPECT_EQ(ig.num_edges(), 3u);
   EXPECT_TRUE(ig.test_interference(3, 0));
   EXPECT_FALSE(ig.test_interference(0, 1));
   ASSERT_TRUE(ig.allocate());
   EXPECT_NE(ig.get_node_reg(0), ig.get_node_reg(2));
   EXPECT_NE(ig.get_node_reg(1), ig.get_node_reg(2));
   EXPECT_NE(ig.get_node_reg(0), ig.get_node_reg(3));
}

TEST(RaAlloc, MisuseIsReportedNotFatal)
{
   sbcc::Diagnostics d;
   RegSet rs(4, &d);
   unsigned c = rs.add_class("c");
   rs.add_range_to_class(c, 0, 4);
   InterferenceGraph early(rs, 2);
   EXPECT_FALSE(early.allocate());
   EXPECT_EQ(early.get_best_spill_node(), kNoNode);
   ASSERT_TRUE(rs.finalize());

   InterferenceGraph ig(rs, 3);
   EXPECT_FALSE(ig.add_interference(0, 5));
   EXPECT_FALSE(ig.set_node_class(1, 3));
   EXPECT_FALSE(ig.set_node_reg(1, 4));
   EXPECT_FALSE(ig.set_spill_cost(3, 1.0f));
   Interval bad[] = {{0, 0, 4}, {7, 1, 2}};
   EXPECT_FALSE(ig.build_from_live_intervals(bad));
   ig.add_interference(0, 1);
   ig.set_node_reg(0, 2);
   ig.set_node_reg(1, 2);
   EXPECT_FALSE(ig.allocate());
   EXPECT_TRUE(ig.neighbours(9).empty());
   EXPECT_FALSE(ig.test_interference(0, 9));
   EXPECT_EQ(d.str(),
             "ra: error: allocate: register set is not finalized\n"
             "ra: error: add_interference: node 5 out of range (3 nodes)\n"
             "ra: error: set_node_class: class 3 out of range (1 classes)\n"
             "ra: error: set_node_reg: register 4 out of range (4 registers)\n"
             "ra: error: set_spill_cost: node 3 out of range (3 nodes)\n"
             "ra: error: build_from_live_intervals: node 7 out of range (3 nodes)\n"
             "ra: error: allocate: interfering nodes 0 and 1 are precoloured with "
             "conflicting registers r2 and r2\n");
   d.clear();
   InterferenceGraph huge(rs, InterferenceGraph::kMaxNodes + 1);
   EXPECT_EQ(huge.num_nodes(), 0u);
   EXPECT_TRUE(huge.allocate());
   EXPECT_EQ(d.str(), "ra: error: interference graph of 4194305 nodes exceeds the limit of "
                      "4194304\n");

   /* Undoing the precolour makes the graph allocatable again. */
   ig.set_node_reg(1, kNoReg);
   EXPECT_TRUE(ig.allocate());
   EXPECT_EQ(ig.get_node_reg(0), 2u);
   EXPECT_NE(ig.get_node_reg(1), 2u);
}
