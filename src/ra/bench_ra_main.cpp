/* Standalone runner for the allocator benchmarks (see bench_ra.cpp). */
#include <benchmark/benchmark.h>

#include "ra/bench_ra.h"

int
main(int argc, char **argv)
{
   sbcc::ra::register_benchmarks();
   benchmark::Initialize(&argc, argv);
   if (benchmark::ReportUnrecognizedArguments(argc, argv))
      return 1;
   benchmark::RunSpecifiedBenchmarks();
   benchmark::Shutdown();
   return 0;
}
