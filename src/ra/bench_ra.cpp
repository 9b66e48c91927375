/*
 * Allocation time on interval-built graphs shaped like long straight-line
 * shaders: many short live ranges and a bounded number live at once, so the
 * edge count grows linearly with the node count and the time per node
 * should stay flat (or grow with log n from the sorts).
 */
#include "ra/bench_ra.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "ra/ra.h"

namespace sbcc::ra {

namespace {

struct BenchTarget {
   std::unique_ptr<RegSet> regs;
   /* Class of value i is classes[i % classes.size()]: a fixed mix. */
   std::vector<unsigned> mix;
};

/* vc4-like: r0-r4, A0-31, B0-31; mostly "any", some "A only"/"A or r4". */
BenchTarget
make_vc4_like()
{
   BenchTarget t;
   t.regs = std::make_unique<RegSet>(69);
   RegSet &rs = *t.regs;
   unsigned any = rs.add_class("any");
   rs.add_range_to_class(any, 0, 4);
   rs.add_range_to_class(any, 5, 64);
   unsigned a_or_r4 = rs.add_class("a_or_r4");
   rs.add_reg_to_class(a_or_r4, 4);
   rs.add_range_to_class(a_or_r4, 5, 32);
   unsigned a_only = rs.add_class("a_only");
   rs.add_range_to_class(a_only, 5, 32);
   rs.finalize();
   t.mix = {any, any, any, any, any, a_or_r4, any, any, a_only, any};
   return t;
}

/* r300-like: 32 vec4 temps, every write mask a register (15 per temp). */
BenchTarget
make_r300_like()
{
   const unsigned temps = 32;
   BenchTarget t;
   t.regs = std::make_unique<RegSet>(temps * 15);
   RegSet &rs = *t.regs;
   for (unsigned tmp = 0; tmp < temps; tmp++) {
      for (unsigned mask = 1; mask < 16; mask++) {
         std::vector<unsigned> units;
         for (unsigned c = 0; c < 4; c++)
            if (mask & (1u << c))
               units.push_back(tmp * 15 + (1u << c) - 1);
         if (units.size() > 1)
            rs.add_composite(tmp * 15 + mask - 1, units);
      }
   }
   unsigned cls[4];
   for (unsigned k = 0; k < 4; k++)
      cls[k] = rs.add_class("vec" + std::to_string(k + 1));
   for (unsigned tmp = 0; tmp < temps; tmp++)
      for (unsigned mask = 1; mask < 16; mask++)
         rs.add_reg_to_class(cls[std::popcount(mask) - 1], tmp * 15 + mask - 1);
   rs.finalize();
   t.mix = {cls[3], cls[0], cls[2], cls[3], cls[1], cls[0], cls[3], cls[2]};
   return t;
}

/* Deterministic live ranges: value i starts near 2i and lives for
 * 1..max_len slots, so about max_len / 4 values are live at any point
 * (63: comfortable; 255: more than vc4's 68 registers, so it spills). */
std::vector<Interval>
make_intervals(unsigned nodes, unsigned max_len)
{
   std::vector<Interval> ivs;
   ivs.reserve(nodes);
   uint32_t s = 0x2545f491u;
   for (unsigned i = 0; i < nodes; i++) {
      s = s * 1664525u + 1013904223u;
      uint32_t start = 2 * i + ((s >> 8) & 3);
      uint32_t len = 1 + ((s >> 12) % max_len);
      ivs.push_back({i, start, start + len});
   }
   return ivs;
}

void
setup_graph(InterferenceGraph &g, const BenchTarget &t, unsigned nodes)
{
   for (unsigned i = 0; i < nodes; i++) {
      g.set_node_class(i, t.mix[i % t.mix.size()]);
      g.set_spill_cost(i, float(1 + i % 7));
   }
}

const BenchTarget &
target(int which)
{
   static const BenchTarget vc4 = make_vc4_like();
   static const BenchTarget r300 = make_r300_like();
   return which == 0 ? vc4 : r300;
}

void
bm_build(benchmark::State &state, int which)
{
   const BenchTarget &t = target(which);
   unsigned nodes = unsigned(state.range(0));
   std::vector<Interval> ivs = make_intervals(nodes, unsigned(state.range(1)));
   size_t edges = 0;
   for (auto _ : state) {
      InterferenceGraph g(*t.regs, nodes);
      g.build_from_live_intervals(ivs);
      edges = g.num_edges(); /* forces the sort-unique pass */
      benchmark::DoNotOptimize(edges);
   }
   state.counters["edges"] = double(edges);
   state.SetItemsProcessed(int64_t(state.iterations()) * nodes);
}

void
bm_allocate(benchmark::State &state, int which)
{
   const BenchTarget &t = target(which);
   unsigned nodes = unsigned(state.range(0));
   InterferenceGraph g(*t.regs, nodes);
   setup_graph(g, t, nodes);
   g.build_from_live_intervals(make_intervals(nodes, unsigned(state.range(1))));
   g.num_edges();
   bool ok = false;
   for (auto _ : state) {
      ok = g.allocate();
      benchmark::DoNotOptimize(ok);
   }
   state.counters["edges"] = double(g.num_edges());
   state.counters["success"] = ok ? 1.0 : 0.0;
   state.counters["optimistic"] = double(g.stats().optimistic);
   state.SetItemsProcessed(int64_t(state.iterations()) * nodes);
}

} // namespace

void
register_benchmarks()
{
   const char *names[] = {"vc4", "r300"};
   for (int which = 0; which < 2; which++) {
      std::string suffix = std::string("/") + names[which];
      auto *b = benchmark::RegisterBenchmark(("BM_ra_build" + suffix).c_str(), bm_build, which);
      auto *a =
         benchmark::RegisterBenchmark(("BM_ra_allocate" + suffix).c_str(), bm_allocate, which);
      for (int len : {63, 255}) {
         for (int n : {100, 1000, 5000, 20000}) {
            b->Args({n, len});
            a->Args({n, len});
         }
      }
      b->Unit(benchmark::kMicrosecond);
      a->Unit(benchmark::kMicrosecond);
   }
}

} // namespace sbcc::ra
