/*
 * Seeded random tests: the sweep-line interval builder against all pairs,
 * hundreds of random graphs on the three targets checked by the
 * independent validator, and tiny random irregular targets where a
 * brute-force search decides whether a colouring exists at all.
 */
#include <gtest/gtest.h>

#include <algorithm>

#include "ra_targets.h"

using namespace sbcc::ra;
using namespace ra_test;

namespace {

/* splitmix64: fixed sequence on every platform, unlike <random>'s
 * distributions. */
struct Rng {
   uint64_t s;
   explicit Rng(uint64_t seed) : s(seed) {}
   uint64_t next()
   {
      uint64_t z = (s += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
   }
   unsigned operator()(unsigned n) { return unsigned(next() % n); }
};

std::vector<unsigned>
regs_of(const InterferenceGraph &ig)
{
   std::vector<unsigned> r;
   for (unsigned n = 0; n < ig.num_nodes(); n++)
      r.push_back(ig.get_node_reg(n));
   return r;
}

/* Random classes, edges, precolours and costs for model. */
GraphSpec
random_graph(Rng &rng, const Model &model, unsigned num_nodes, unsigned edge_percent,
             unsigned precolour_percent)
{
   GraphSpec g;
   for (unsigned n = 0; n < num_nodes; n++) {
      g.cls.push_back(rng(unsigned(model.classes.size())));
      g.precolour.push_back(rng(100) < precolour_percent ? rng(unsigned(model.units.size()))
                                                         : kNoReg);
      g.cost.push_back(float(rng(10))); /* 0 = never spill */
   }
   for (unsigned a = 0; a < num_nodes; a++) {
      for (unsigned b = a + 1; b < num_nodes; b++) {
         if (rng(100) >= edge_percent)
            continue;
         /* Two fixed registers that clash would be the caller's bug. */
         if (g.precolour[a] != kNoReg && g.precolour[b] != kNoReg &&
             model.conflicts(g.precolour[a], g.precolour[b]))
            continue;
         g.edges.emplace_back(a, b);
      }
   }
   return g;
}

void
check_failure(const InterferenceGraph &ig, const GraphSpec &g)
{
   ASSERT_FALSE(ig.uncoloured_nodes().empty());
   for (unsigned n : ig.uncoloured_nodes()) {
      EXPECT_EQ(ig.get_node_reg(n), kNoReg);
      EXPECT_EQ(g.precolour[n], kNoReg);
   }
   unsigned spill = ig.get_best_spill_node();
   bool any_spillable = false;
   for (unsigned n = 0; n < g.cls.size(); n++)
      any_spillable |= g.precolour[n] == kNoReg && g.cost[n] > 0.0f;
   if (!any_spillable) {
      EXPECT_EQ(spill, kNoNode);
   } else {
      ASSERT_LT(spill, g.cls.size());
      EXPECT_EQ(g.precolour[spill], kNoReg);
      EXPECT_GT(g.cost[spill], 0.0f);
   }
}

} // namespace

TEST(RaRandom, IntervalSweepMatchesAllPairs)
{
   Target t = make_flat(4);
   for (uint64_t seed = 1; seed <= 60; seed++) {
      Rng rng(seed);
      unsigned n = 1 + rng(200);
      std::vector<Interval> ivs;
      for (unsigned node = 0; node < n; node++) {
         unsigned count = 1 + rng(3);
         for (unsigned k = 0; k < count; k++) {
            uint32_t start = rng(500);
            ivs.push_back({node, start, start + rng(40)}); /* may be empty */
         }
      }
      InterferenceGraph sweep(*t.regs, n), pairs(*t.regs, n);
      ASSERT_TRUE(sweep.build_from_live_intervals(ivs));
      /* Empty intervals ([s, s)) cover no point, so overlap nothing. */
      for (size_t i = 0; i < ivs.size(); i++)
         for (size_t j = i + 1; j < ivs.size(); j++)
            if (ivs[i].start < ivs[i].end && ivs[j].start < ivs[j].end &&
                ivs[i].start < ivs[j].end && ivs[j].start < ivs[i].end)
               pairs.add_interference(ivs[i].node, ivs[j].node);
      ASSERT_EQ(sweep.num_edges(), pairs.num_edges()) << "seed " << seed;
      for (unsigned node = 0; node < n; node++) {
         std::span<const unsigned> a = sweep.neighbours(node), b = pairs.neighbours(node);
         ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()))
            << "seed " << seed << " node " << node;
      }
   }
}

TEST(RaRandom, RandomGraphsOnTargetsAreValid)
{
   Target targets[] = {make_vc4(), make_r300(4), make_x86()};
   const unsigned max_nodes[] = {140, 40, 18};
   unsigned successes = 0, failures = 0, rescued = 0, guaranteed = 0;
   for (uint64_t seed = 1; seed <= 360; seed++) {
      Rng rng(seed * 7919);
      unsigned which = unsigned(seed % 3);
      const Target &t = targets[which];
      GraphSpec g = random_graph(rng, t.model, 2 + rng(max_nodes[which]), 5 + rng(70), 6);
      auto ig = make_graph(*t.regs, g);
      bool ok = ig->allocate();
      if (ok) {
         successes++;
         ASSERT_EQ(validate(t.model, g, regs_of(*ig)), "") << "seed " << seed;
         rescued += ig->stats().search_succeeded;
      } else {
         failures++;
         check_failure(*ig, g);
      }
      /* Runeson and Nystroem's guarantee: when every node passed the p/q
       * test, select colours all of them without help. */
      if (ig->stats().optimistic == 0) {
         guaranteed++;
         EXPECT_EQ(ig->stats().select_failures, 0u) << "seed " << seed;
         EXPECT_TRUE(ok) << "seed " << seed;
      }
      /* Same spec, fresh graph: same answer. */
      auto again = make_graph(*t.regs, g);
      EXPECT_EQ(again->allocate(), ok);
      EXPECT_EQ(regs_of(*again), regs_of(*ig)) << "seed " << seed;
   }
   RecordProperty("successes", int(successes));
   RecordProperty("failures", int(failures));
   RecordProperty("rescued_by_search", int(rescued));
   RecordProperty("pq_guaranteed", int(guaranteed));
   /* The generator must exercise both outcomes and both paths. */
   EXPECT_GE(successes, 60u);
   EXPECT_GE(failures, 40u);
   EXPECT_GE(guaranteed, 30u);
}

TEST(RaRandom, IntervalGraphsOnTargetsAreValid)
{
   /* Shader-like graphs: build from live ranges, validate against the
    * overlaps the test computes itself. */
   Target targets[] = {make_vc4(), make_r300(8)};
   unsigned successes = 0, failures = 0;
   for (uint64_t seed = 1; seed <= 40; seed++) {
      Rng rng(seed * 31337);
      const Target &t = targets[seed % 2];
      unsigned n = 50 + rng(400);
      unsigned max_len = 8 + rng(120);
      std::vector<Interval> ivs;
      GraphSpec g;
      for (unsigned node = 0; node < n; node++) {
         uint32_t start = 2 * node + rng(4);
         ivs.push_back({node, start, start + 1 + rng(max_len)});
         g.cls.push_back(rng(unsigned(t.model.classes.size())));
         g.precolour.push_back(kNoReg);
         g.cost.push_back(float(1 + rng(9)));
      }
      for (unsigned a = 0; a < n; a++)
         for (unsigned b = a + 1; b < n; b++)
            if (ivs[a].start < ivs[b].end && ivs[b].start < ivs[a].end)
               g.edges.emplace_back(a, b);

      auto ig = make_graph(*t.regs, GraphSpec{g.cls, {}, g.precolour, g.cost});
      ASSERT_TRUE(ig->build_from_live_intervals(ivs));
      ASSERT_EQ(ig->num_edges(), g.edges.size()) << "seed " << seed;
      if (ig->allocate()) {
         successes++;
         ASSERT_EQ(validate(t.model, g, regs_of(*ig)), "") << "seed " << seed;
      } else {
         failures++;
         check_failure(*ig, g);
      }
   }
   EXPECT_GE(successes, 10u);
   EXPECT_GE(failures, 5u);
}

/* Interval graph of n values, value i live from about 2i for up to
 * max_len slots. */
static std::vector<Interval>
shader_like_intervals(Rng &rng, unsigned n, unsigned max_len)
{
   std::vector<Interval> ivs;
   for (unsigned node = 0; node < n; node++) {
      uint32_t start = 2 * node + rng(4);
      ivs.push_back({node, start, start + 1 + rng(max_len)});
   }
   return ivs;
}

/* The backend loop: allocate, spill the suggested value (here: drop its live
 * range, as if it lived in memory), rebuild, retry.  Returns the number of
 * spills, or ~0u if it did not converge or produced an invalid result. */
static unsigned
spill_loop(const Target &t, const std::vector<Interval> &ivs, const std::vector<unsigned> &cls,
           const std::vector<float> &cost)
{
   const unsigned n = unsigned(ivs.size());
   std::vector<bool> spilled(n, false);
   for (unsigned rounds = 0; rounds < n; rounds++) {
      InterferenceGraph ig(*t.regs, n);
      std::vector<Interval> live;
      for (unsigned node = 0; node < n; node++) {
         ig.set_node_class(node, cls[node]);
         ig.set_spill_cost(node, spilled[node] ? 0.0f : cost[node]);
         if (!spilled[node])
            live.push_back(ivs[node]);
      }
      ig.build_from_live_intervals(live);
      if (ig.allocate()) {
         GraphSpec g;
         g.cls = cls;
         g.precolour.assign(n, kNoReg);
         for (unsigned a = 0; a < n; a++)
            for (unsigned b = a + 1; b < n; b++)
               if (!spilled[a] && !spilled[b] && ivs[a].start < ivs[b].end &&
                   ivs[b].start < ivs[a].end)
                  g.edges.emplace_back(a, b);
         std::string err = validate(t.model, g, regs_of(ig));
         EXPECT_EQ(err, "");
         return err.empty() ? rounds : ~0u;
      }
      unsigned victim = ig.get_best_spill_node();
      if (victim >= n || spilled[victim])
         return ~0u;
      spilled[victim] = true;
   }
   return ~0u;
}

/* Fewest values to drop so that at most k intervals overlap anywhere:
 * sweeping by start and dropping the live interval that ends last whenever
 * more than k are live is optimal for interval graphs. */
static unsigned
min_interval_spills(const std::vector<Interval> &ivs, unsigned k)
{
   std::vector<unsigned> order(ivs.size());
   for (unsigned i = 0; i < order.size(); i++)
      order[i] = i;
   std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return ivs[a].start != ivs[b].start ? ivs[a].start < ivs[b].start : a < b;
   });
   std::vector<unsigned> active;
   unsigned spills = 0;
   for (unsigned i : order) {
      std::erase_if(active, [&](unsigned a) { return ivs[a].end <= ivs[i].start; });
      active.push_back(i);
      if (active.size() > k) {
         active.erase(std::max_element(active.begin(), active.end(), [&](unsigned a, unsigned b) {
            return ivs[a].end < ivs[b].end;
         }));
         spills++;
      }
   }
   return spills;
}

TEST(RaRandom, SpillLoopNearOptimalOnIntervals)
{
   /* One class of 68 independent registers: the spill count can be compared
    * with the exact optimum.  Spilling only from the q-core keeps it close
    * (Mesa-style whole-graph benefit needed up to 2.6x here). */
   Target t = make_vc4();
   unsigned total = 0, total_min = 0;
   for (uint64_t seed = 1; seed <= 6; seed++) {
      Rng rng(seed * 65537);
      const unsigned n = 400;
      std::vector<Interval> ivs = shader_like_intervals(rng, n, 300);
      std::vector<unsigned> cls(n, kVc4Any);
      std::vector<float> cost(n, 1.0f);
      unsigned spills = spill_loop(t, ivs, cls, cost);
      unsigned best = min_interval_spills(ivs, t.regs->p(kVc4Any));
      ASSERT_NE(spills, ~0u) << "seed " << seed;
      EXPECT_GE(spills, best) << "seed " << seed;
      EXPECT_LE(spills, 2 * best) << "seed " << seed;
      total += spills;
      total_min += best;
   }
   RecordProperty("spills", int(total));
   RecordProperty("optimal_spills", int(total_min));
}

TEST(RaRandom, SpillLoopConvergesWithClassesAndCosts)
{
   Target t = make_vc4();
   for (uint64_t seed = 1; seed <= 6; seed++) {
      Rng rng(seed * 65537);
      const unsigned n = 400;
      std::vector<Interval> ivs = shader_like_intervals(rng, n, 300);
      std::vector<unsigned> cls;
      std::vector<float> cost;
      for (unsigned i = 0; i < n; i++) {
         cls.push_back(rng(4) == 0 ? unsigned(kVc4AOnly) : unsigned(kVc4Any));
         cost.push_back(float(1 + rng(20)));
      }
      unsigned spills = spill_loop(t, ivs, cls, cost);
      ASSERT_NE(spills, ~0u) << "seed " << seed;
      /* Classes only add constraints, so the class-free optimum is a lower
       * bound; costs make it trade count for cheaper values. */
      EXPECT_GE(spills, min_interval_spills(ivs, 68)) << "seed " << seed;
      EXPECT_LT(spills, n / 4) << "seed " << seed;
   }
}

TEST(RaRandom, TinyIrregularTargetsMatchBruteForce)
{
   unsigned colourable = 0, uncolourable = 0, heuristic_misses = 0;
   for (uint64_t seed = 1; seed <= 800; seed++) {
      Rng rng(seed * 104729);
      /* A random aliasing target: registers are random sets of units. */
      Model m;
      unsigned num_units = 2 + rng(3);
      unsigned num_regs = 2 + rng(5);
      for (unsigned r = 0; r < num_regs; r++) {
         Units u;
         while (u.none())
            for (unsigned k = 0; k < num_units; k++)
               if (rng(2))
                  u.set(k);
         m.units.push_back(u);
      }
      unsigned num_classes = 1 + rng(3);
      for (unsigned c = 0; c < num_classes; c++) {
         std::vector<unsigned> regs;
         while (regs.empty())
            for (unsigned r = 0; r < num_regs; r++)
               if (rng(2))
                  regs.push_back(r);
         m.classes.push_back(regs);
         m.class_names.push_back("c" + std::to_string(c));
      }
      RegSet rs(num_regs);
      for (unsigned a = 0; a < num_regs; a++)
         for (unsigned b = a + 1; b < num_regs; b++)
            if (m.conflicts(a, b))
               rs.add_conflict(a, b);
      add_model_classes(m, rs);
      ASSERT_TRUE(rs.finalize());

      GraphSpec g = random_graph(rng, m, 1 + rng(7), 20 + rng(70), 10);
      bool exists = brute_force_colourable(m, g);
      (exists ? colourable : uncolourable)++;

      auto ig = make_graph(rs, g);
      ig->set_search_budget(10'000'000);
      bool ok = ig->allocate();
      ASSERT_EQ(ok, exists) << "seed " << seed;
      if (ok) {
         ASSERT_EQ(validate(m, g, regs_of(*ig)), "") << "seed " << seed;
      } else {
         EXPECT_TRUE(ig->stats().search_exhausted) << "seed " << seed;
         check_failure(*ig, g);
      }

      /* Plain Mesa-style allocation (no search) may give up on a colourable
       * graph, but what it returns must still be valid. */
      auto plain = make_graph(rs, g);
      plain->set_search_budget(0);
      bool plain_ok = plain->allocate();
      if (plain_ok) {
         ASSERT_EQ(validate(m, g, regs_of(*plain)), "") << "seed " << seed;
      } else {
         check_failure(*plain, g);
      }
      EXPECT_TRUE(!plain_ok || exists);
      heuristic_misses += exists && !plain_ok;
   }
   RecordProperty("colourable", int(colourable));
   RecordProperty("uncolourable", int(uncolourable));
   RecordProperty("heuristic_misses", int(heuristic_misses));
   EXPECT_GE(colourable, 100u);
   EXPECT_GE(uncolourable, 100u);
}

TEST(RaRandom, RandomApiMisuseNeverCrashes)
{
   /* Random calls with indices partly out of range, in random order
    * (including edits after finalize): everything must come back as
    * diagnostics, and any successful allocation must still be consistent
    * with what the set and graph accepted. */
   for (uint64_t seed = 1; seed <= 200; seed++) {
      Rng rng(seed * 2654435761u);
      sbcc::Diagnostics d;
      unsigned num_regs = rng(12);
      RegSet rs(num_regs, &d);
      unsigned ops = rng(40);
      for (unsigned i = 0; i < ops; i++) {
         unsigned a = rng(num_regs + 3), b = rng(num_regs + 3);
         switch (rng(7)) {
         case 0: rs.add_conflict(a, b); break;
         case 1: rs.add_transitive_conflict(a, b); break;
         case 2: rs.make_conflicts_transitive(a); break;
         case 3: rs.add_class(); break;
         case 4: rs.add_reg_to_class(rng(4), a); break;
         case 5: rs.add_range_to_class(rng(4), a, rng(4), rng(3)); break;
         case 6:
            if (rng(4) == 0)
               rs.finalize();
            break;
         }
      }
      bool finalized = rs.finalize();
      unsigned num_nodes = rng(15);
      InterferenceGraph ig(rs, num_nodes);
      for (unsigned i = 0; i < 30; i++) {
         unsigned a = rng(num_nodes + 2), b = rng(num_nodes + 2);
         switch (rng(6)) {
         case 0: ig.add_interference(a, b); break;
         case 1: ig.set_node_class(a, rng(rs.num_classes() + 2)); break;
         case 2: ig.set_node_reg(a, rng(3) == 0 ? kNoReg : rng(num_regs + 2)); break;
         case 3: ig.set_spill_cost(a, float(int(rng(5)) - 1)); break;
         case 4: ig.set_select_hint(a, rng(num_regs + 2)); break;
         case 5: {
            Interval iv[] = {{a, rng(10), rng(10)}, {b, rng(10), rng(10)}};
            ig.build_from_live_intervals(iv);
            break;
         }
         }
      }
      bool ok = ig.allocate();
      unsigned spill = ig.get_best_spill_node();
      EXPECT_TRUE(spill == kNoNode || spill < num_nodes);
      if (!finalized) {
         EXPECT_FALSE(ok && num_nodes > 0) << "seed " << seed;
      }
      if (!ok)
         continue;
      for (unsigned n = 0; n < num_nodes; n++) {
         unsigned r = ig.get_node_reg(n);
         ASSERT_LT(r, num_regs) << "seed " << seed;
         for (unsigned m : ig.neighbours(n))
            EXPECT_FALSE(rs.conflicts(r, ig.get_node_reg(m))) << "seed " << seed;
      }
   }
}
