/*
 * sbcc bench: Google Benchmark runs over a shader corpus (a directory, by
 * default the bundled tests/shaders).  Each suite in kSuites registers its
 * benchmarks against the loaded corpus; backends add a row for theirs.
 */
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#ifdef SBCC_HAVE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "runner/shader_run.h"
#include "runner/shader_test.h"
#include "tools/tools_common.h"

namespace sbcc::tools {

namespace {

/* TGSI sources of the corpus: whole .tgsi files and the TGSI sections of
 * .shader_test files. */
struct BenchCorpus {
   std::vector<std::pair<std::string, std::string>> tgsi; /* name, text */
   size_t tgsi_bytes = 0;
};

bool load_corpus(const std::string &dir, BenchCorpus &c)
{
   std::error_code ec;
   std::vector<std::string> files;
   for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
        !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec))
         files.push_back(it->path().string());
   if (ec) {
      std::cerr << "sbcc bench: cannot read directory '" << dir << "'\n";
      return false;
   }
   std::sort(files.begin(), files.end());
   for (const auto &f : files) {
      Diagnostics d;
      std::string text;
      bool tgsi = f.size() > 5 && f.compare(f.size() - 5, 5, ".tgsi") == 0;
      bool st = f.size() > 12 && f.compare(f.size() - 12, 12, ".shader_test") == 0;
      if ((!tgsi && !st) || !runner::read_file(f, text, d))
         continue;
      if (tgsi) {
         c.tgsi.emplace_back(f, std::move(text));
         continue;
      }
      auto t = runner::parse_shader_test(text, f, d);
      if (!t)
         continue;
      for (const auto &s : t->stages)
         if (s.kind == runner::StageKind::TgsiVertex || s.kind == runner::StageKind::TgsiFragment)
            c.tgsi.emplace_back(f, s.text);
   }
   for (const auto &p : c.tgsi)
      c.tgsi_bytes += p.second.size();
   return true;
}

#ifdef SBCC_HAVE_BENCHMARK
void register_parse_benchmarks(const BenchCorpus &c)
{
   benchmark::RegisterBenchmark("tgsi_parse", [&c](benchmark::State &state) {
      size_t shaders = 0;
      for (auto _ : state) {
         for (const auto &[name, text] : c.tgsi) {
            Diagnostics d;
            auto sh = tgsi::parse_tgsi(text, name, d);
            benchmark::DoNotOptimize(sh);
            shaders++;
         }
      }
      double bytes = double(c.tgsi_bytes) * double(state.iterations());
      state.SetBytesProcessed(int64_t(bytes));
      /* kIsRate divides by time, so these print as MB/s and shaders/s. */
      state.counters["MB"] = benchmark::Counter(bytes / 1e6, benchmark::Counter::kIsRate);
      state.counters["shaders"] =
         benchmark::Counter(double(shaders), benchmark::Counter::kIsRate);
   })->Unit(benchmark::kMillisecond);
}

struct Suite {
   const char *name;
   void (*register_fn)(const BenchCorpus &);
};

/* One row per benchmark suite; backends append theirs. */
const Suite kSuites[] = {
   {"parse", register_parse_benchmarks},
};
#endif

} // namespace

int cmd_bench(int argc, char **argv)
{
   std::vector<OptionSpec> specs = {
      {"--dir", true, "corpus directory (default: the bundled tests/shaders)"},
      {"--suite", true, "run only this suite (default: all)"},
      {"--benchmark_filter", true, "Google Benchmark filter regex"},
      {"--benchmark_min_time", true, "Google Benchmark minimum time per benchmark"},
      {"--benchmark_format", true, "console, json or csv"},
      {"--benchmark_repetitions", true, "repetitions"},
   };
   ParsedArgs args;
   if (!parse_args("bench", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc bench [options]\n"
             "Google Benchmark suites over a shader directory: 'parse' (TGSI parse\n"
             "throughput, MB/s and shaders/s).\noptions:\n");
      print_options(specs);
      return 0;
   }
#ifndef SBCC_HAVE_BENCHMARK
   std::cerr << "sbcc bench: this sbcc was built without Google Benchmark\n";
   return 1;
#else
   if (!args.positional.empty()) {
      std::cerr << "sbcc bench: unexpected argument '" << args.positional[0] << "'\n";
      return 2;
   }
   static BenchCorpus corpus;
   std::string dir = args.get("--dir", SBCC_SOURCE_ROOT "/tests/shaders");
   if (!load_corpus(dir, corpus))
      return 1;
   if (corpus.tgsi.empty()) {
      std::cerr << "sbcc bench: no TGSI shaders under '" << dir << "'\n";
      return 1;
   }
   fprintf(stderr, "corpus: %zu TGSI shaders, %zu bytes from %s\n", corpus.tgsi.size(),
           corpus.tgsi_bytes, dir.c_str());
   bool any = false;
   for (const auto &s : kSuites) {
      if (args.has("--suite") && args.get("--suite") != s.name)
         continue;
      s.register_fn(corpus);
      any = true;
   }
   if (!any) {
      std::cerr << "sbcc bench: unknown suite '" << args.get("--suite") << "'\n";
      return 2;
   }
   std::vector<std::string> bargs = {"sbcc-bench"};
   for (const auto &[k, v] : args.values)
      if (k.compare(0, 12, "--benchmark_") == 0)
         bargs.push_back(k + "=" + v);
   std::vector<char *> bargv;
   for (auto &a : bargs)
      bargv.push_back(a.data());
   int bargc = int(bargv.size());
   benchmark::Initialize(&bargc, bargv.data());
   benchmark::RunSpecifiedBenchmarks();
   benchmark::Shutdown();
   return 0;
#endif
}

} // namespace sbcc::tools
