/*
 * Google Benchmark cases for the register allocator, registered on demand
 * so `sbcc bench` and the standalone ra_bench share them.
 */
#pragma once

namespace sbcc::ra {

/* Registers BM_ra_build/<target>/<nodes>/<max_len> and
 * BM_ra_allocate/<target>/<nodes>/<max_len> for interval-built graphs of
 * 100 to 20,000 nodes at two levels of register pressure. */
void register_benchmarks();

} // namespace sbcc::ra
