/*
 * sbcc bench: Google Benchmark runs over a shader corpus (a directory, by
 * default the bundled tests/shaders).  Each suite in kSuites registers its
 * benchmarks against the loaded corpus; backends add a row for theirs.
 *
 * `sbcc bench --sb` times the sb optimizer itself with a plain clock (no
 * Google Benchmark needed): per shader the median over --runs of the whole
 * sb_optimize call (without pass timers, as a driver calls it) and of every
 * pass sb records in SbStats::times (from a second, timed call), then the
 * median and p99 of those over the shader set.  `--scaling` does the same
 * on generated shaders of growing size and prints time per TGSI
 * instruction, so a pass that is quadratic in the shader's size stands out.
 */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#ifdef SBCC_HAVE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600/r600_target.h"
#include "r600/sb/sb.h"
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

/* ---- sb timing (--sb, --scaling) ---- */

/* One bytecode program sb can be run on, with what sb needs to know. */
struct SbInput {
   std::string name;
   r600::Program prog;
   r600::ShaderInfo info;
   size_t tgsi_instrs = 0; /* 0 for bytecode images */
};

bool ends_with(const std::string &s, const char *suffix)
{
   size_t n = strlen(suffix);
   return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/* Compiles a TGSI stage with the plain backend and keeps the validated
 * program the backend hands to its optimizer: exactly sb's input. */
bool sb_input_from_tgsi(const tgsi::Shader &sh, const std::string &name, r600::ChipClass chip,
                        std::vector<SbInput> &out, Diagnostics &diags)
{
   std::optional<SbInput> in;
   r600::BytecodeOptimizer grab = [&](const r600::Program &prog, const r600::ShaderInfo &info,
                                      ShaderStats *) -> std::optional<r600::Program> {
      in = SbInput{name, prog, info, sh.instructions.size()};
      return std::nullopt;
   };
   DebugOptions plain;
   auto exe = r600::compile_tgsi_for_r600(sh, chip, "", plain, diags, nullptr, nullptr, &grab);
   if (!exe || !in)
      return false;
   out.push_back(std::move(*in));
   return true;
}

/* A .bin.hex image (Mesa's r600-bc corpus) is decoded as cmd_optimize
 * does; the stage comes from the <name>.<vs|fs>.bin.hex file name. */
bool sb_input_from_binary(const std::string &path, r600::ChipClass chip,
                          std::vector<SbInput> &out, Diagnostics &diags)
{
   auto words = r600::read_binary_file(path, diags);
   auto prog = words ? r600::decode_program(*words, chip, diags, path) : std::nullopt;
   if (!prog)
      return false;
   SbInput in{path, std::move(*prog), {}, 0};
   in.info.chip = chip;
   in.info.stage = path.find(".fs.") != std::string::npos ? tgsi::Processor::Fragment
                                                          : tgsi::Processor::Vertex;
   /* No driver state: the deepest stack the hardware has, like optimize. */
   in.info.stack_size = 64;
   in.info.num_gprs = r600::sb::program_gprs(in.prog);
   out.push_back(std::move(in));
   return true;
}

bool load_sb_inputs(const std::string &path, r600::ChipClass chip, std::vector<SbInput> &out,
                    unsigned &skipped)
{
   std::error_code ec;
   std::vector<std::string> files;
   if (std::filesystem::is_directory(path, ec)) {
      for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
         if (it->is_regular_file(ec))
            files.push_back(it->path().string());
   } else if (std::filesystem::is_regular_file(path, ec)) {
      files.push_back(path);
   }
   if (ec || files.empty()) {
      std::cerr << "sbcc bench: cannot read '" << path << "'\n";
      return false;
   }
   std::sort(files.begin(), files.end());
   for (const auto &f : files) {
      Diagnostics d;
      if (ends_with(f, ".bin.hex")) {
         if (!sb_input_from_binary(f, chip, out, d))
            skipped++;
         continue;
      }
      if (!is_shader_file(f))
         continue;
      auto stages = load_shader_file(f, d);
      if (!stages) {
         skipped++;
         continue;
      }
      for (const auto &st : *stages)
         if (!sb_input_from_tgsi(st.shader, f + " (" + st.stage + ")", chip, out, d))
            skipped++;
   }
   return true;
}

/* Seconds per pass name (the second run of a name in one call is "name #2")
 * plus the whole call under kWhole. */
using PassTimes = std::map<std::string, double>;
constexpr const char *kWhole = "sb_optimize (whole)";
/* What a driver pays without the validator (a safety net that assembles
 * and checks the result once more), and the part of the whole call spent
 * outside the passes (stage set-up, the before/after statistics
 * sb_optimize always computes): the untimed call less the passes' times
 * from the timed one, so noise can make it 0. */
constexpr const char *kNoValidate = "whole - validate";
constexpr const char *kOutside = "outside passes";

double median_of(std::vector<double> v)
{
   std::sort(v.begin(), v.end());
   size_t n = v.size();
   return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Nearest rank: the smallest value with at least 99% of the set at or below it. */
double p99_of(std::vector<double> v)
{
   std::sort(v.begin(), v.end());
   if (v.empty())
      return 0;
   size_t rank = size_t(std::ceil(0.99 * double(v.size())));
   return v[std::max<size_t>(rank, 1) - 1];
}

struct SbTiming {
   PassTimes median;             /* per pass: median over the runs */
   std::vector<std::string> order; /* pass names in the order sb ran them */
   std::string failed_pass;      /* sb gave up here (source kept) */
};

SbTiming time_sb(const SbInput &in, unsigned runs)
{
   DebugOptions opts;
   opts.sb = opts.sb_cl = true;
   DebugOptions timed_opts = opts;
   timed_opts.sb_pass_times = true;
   std::map<std::string, std::vector<double>> samples;
   SbTiming t;
   for (unsigned r = 0; r < runs; r++) {
      /* The whole call as a driver makes it, without pass timers (their
       * clock reads would count), then the same call again for the times of
       * its passes. */
      r600::sb::SbStats st;
      Diagnostics d;
      auto t0 = std::chrono::steady_clock::now();
      auto res = r600::sb::sb_optimize(in.prog, in.info, opts, &st, d);
      double whole = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      (void)res; /* only the time matters */
      st = {};
      (void)r600::sb::sb_optimize(in.prog, in.info, timed_opts, &st, d);
      PassTimes one;
      std::map<std::string, unsigned> seen;
      for (const auto &pt : st.times) {
         /* A name sb records again is a later stage running the same pass
          * (the clause-local bc_parser after the SSA stage): keep it apart. */
         unsigned n = ++seen[pt.pass];
         std::string name = n == 1 ? pt.pass : pt.pass + " #" + std::to_string(n);
         if (std::find(t.order.begin(), t.order.end(), name) == t.order.end())
            t.order.push_back(name);
         one[name] += pt.seconds;
      }
      one[kWhole] = whole;
      double passes = 0, validate = 0;
      for (const auto &pt : st.times) {
         passes += pt.seconds;
         if (pt.pass == "validate")
            validate += pt.seconds;
      }
      one[kNoValidate] = whole - validate;
      one[kOutside] = std::max(0.0, whole - passes);
      for (const auto &[name, sec] : one)
         samples[name].push_back(sec);
      t.failed_pass = st.failed_pass;
   }
   for (const auto &[name, v] : samples)
      t.median[name] = median_of(v);
   return t;
}

/* Pass names over several timings, first-seen order, the whole call last. */
std::vector<std::string> merged_order(const std::vector<SbTiming> &ts)
{
   std::vector<std::string> order;
   for (const auto &t : ts)
      for (const auto &n : t.order)
         if (std::find(order.begin(), order.end(), n) == order.end())
            order.push_back(n);
   order.push_back(kOutside);
   order.push_back(kNoValidate);
   order.push_back(kWhole);
   return order;
}

std::string failure_summary(const std::vector<SbTiming> &ts)
{
   std::map<std::string, unsigned> failed;
   for (const auto &t : ts)
      if (!t.failed_pass.empty())
         failed[t.failed_pass]++;
   std::string s;
   for (const auto &[pass, n] : failed)
      s += (s.empty() ? "" : ", ") + pass + " " + std::to_string(n);
   return s;
}

int run_sb_bench(const std::vector<SbInput> &inputs, unsigned runs, const std::string &what)
{
   std::vector<SbTiming> ts;
   for (const auto &in : inputs)
      ts.push_back(time_sb(in, runs));
   printf("sb bench: %zu shaders from %s, median of %u runs per shader\n", inputs.size(),
          what.c_str(), runs);
   printf("%-22s %8s %12s %12s\n", "pass", "shaders", "median ms", "p99 ms");
   for (const auto &name : merged_order(ts)) {
      std::vector<double> v;
      for (const auto &t : ts)
         if (auto it = t.median.find(name); it != t.median.end())
            v.push_back(it->second * 1e3);
      printf("%-22s %8zu %12.4f %12.4f\n", name.c_str(), v.size(), median_of(v), p99_of(v));
   }
   /* The slowest shader by its whole call, to reproduce with sbstat. */
   size_t worst = 0;
   for (size_t i = 1; i < ts.size(); i++)
      if (ts[i].median.at(kWhole) > ts[worst].median.at(kWhole))
         worst = i;
   if (!ts.empty())
      printf("worst shader: %.4f ms (whole), %.4f ms without validate: %s\n",
             ts[worst].median.at(kWhole) * 1e3, ts[worst].median.at(kNoValidate) * 1e3,
             inputs[worst].name.c_str());
   std::string f = failure_summary(ts);
   printf("sb kept the source on %zu shaders%s%s\n",
          size_t(std::count_if(ts.begin(), ts.end(),
                               [](const SbTiming &t) { return !t.failed_pass.empty(); })),
          f.empty() ? "" : "; gave up in: ", f.c_str());
   /* Name a few, so a regression can be reproduced with `sbcc optimize`. */
   unsigned listed = 0;
   for (size_t i = 0; i < ts.size() && listed < 10; i++)
      if (!ts[i].failed_pass.empty()) {
         printf("  %s: %s\n", inputs[i].name.c_str(), ts[i].failed_pass.c_str());
         listed++;
      }
   return 0;
}

/* ---- generated shaders for --scaling ---- */

/* A vertex shader of exactly `size` TGSI instructions (END included):
 * straight-line ALU runs, IF/ELSE blocks and counted loops (4 iterations,
 * with a BRK under an IF and an IF in the body).  Values stay in [0, 1]
 * (FRC of the inputs, then only LRP/MUL/MIN/MAX/MAD by 0.5 + 0.25), so the
 * reference and the emulator agree within the usual tolerance at any size.
 * Deterministic in `seed`. */
class ShaderGen {
 public:
   explicit ShaderGen(uint32_t seed) : state_(seed * 2654435761u + 1) {}

   std::string generate(unsigned size)
   {
      size = std::max(size, 12u);
      ins_.clear();
      for (unsigned i = 0; i < kValues; i++)
         emit(i < 2 ? "FRC " + tmp(i) + ", IN[" + std::to_string(i) + "]"
                    : "MUL " + tmp(i) + ", " + src(i - 2) + ", " + src(i - 1));
      const unsigned tail = 3; /* two output writes and END */
      /* Blocks are dealt from a deck of one loop, two IFs and three ALU
       * runs, shuffled anew each round, so every size has the same mix: a
       * scaling run then measures size alone.  Drawn one at a time, a
       * loop's share of the instructions drifted from 8 % at 100 to 27 % at
       * 10,000, and passes whose work is in loop bodies seemed to grow.
       * The first deck is dealt in order, so any size with room for a loop
       * and an IF has both. */
      Block deck[] = {Block::Loop, Block::If, Block::Alu, Block::If, Block::Alu, Block::Alu};
      constexpr unsigned kDeck = sizeof(deck) / sizeof(deck[0]);
      for (unsigned block = 0; ins_.size() + tail < size; block++) {
         if (block % kDeck == 0 && block > 0)
            for (unsigned i = kDeck - 1; i > 0; i--)
               std::swap(deck[i], deck[next() % (i + 1)]);
         unsigned left = size - tail - unsigned(ins_.size());
         Block pick = deck[block % kDeck];
         if (pick == Block::Loop && left >= kLoopMin + 6)
            loop_block(left);
         else if (pick == Block::If && left >= 8)
            if_block(left - 3, true);
         else
            alu_run(std::min(left, 1 + next() % 12));
      }
      emit("MOV OUT[0], " + tmp(0));
      emit("LRP OUT[1], " + src(1) + ", " + src(2) + ", " + src(3));
      emit("END");
      std::ostringstream out;
      out << "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n"
          << "DCL TEMP[0.." << kCond << "]\n"
          << "IMM[0] FLT32 {    0.5000,     0.2500,     1.0000,     0.0000}\n"
          << "IMM[1] FLT32 {    4.0000,     0.7500,     0.1250,     2.0000}\n";
      for (size_t i = 0; i < ins_.size(); i++) {
         char buf[32];
         snprintf(buf, sizeof(buf), "%3zu: ", i);
         out << buf << ins_[i].text;
         if (ins_[i].label >= 0)
            out << " :" << ins_[i].label;
         out << "\n";
      }
      return out.str();
   }

 private:
   static constexpr unsigned kValues = 8;       /* TEMP[0..7] carry values */
   static constexpr unsigned kCounter = 8;      /* loop counter */
   static constexpr unsigned kCond = 9;         /* IF conditions */
   static constexpr unsigned kLoopMin = 12;     /* smallest loop block */

   enum class Block { Loop, If, Alu };
   struct Ins {
      std::string text;
      int label = -1;
   };
   std::vector<Ins> ins_;
   uint32_t state_;
   unsigned depth_ = 0;

   uint32_t next()
   {
      state_ = state_ * 1664525u + 1013904223u;
      return state_ >> 8;
   }
   size_t emit(const std::string &text, int label = -1)
   {
      ins_.push_back({std::string(2 * depth_, ' ') + text, label});
      return ins_.size() - 1;
   }
   static std::string tmp(unsigned i) { return "TEMP[" + std::to_string(i) + "]"; }
   std::string src(unsigned i)
   {
      static const char *const swz[] = {"", ".yzwx", ".xxxx", ".wzyx", ".zzxy", ".yyww"};
      return tmp(i % kValues) + swz[next() % 6];
   }
   std::string dst()
   {
      static const char *const mask[] = {"", ".x", ".xy", ".zw", ".yzw"};
      return tmp(next() % kValues) + mask[next() % 5];
   }
   void alu()
   {
      unsigned a = next(), b = next(), c = next();
      switch (next() % 5) {
      case 0: emit("LRP " + dst() + ", " + src(a) + ", " + src(b) + ", " + src(c)); break;
      case 1: emit("MUL " + dst() + ", " + src(a) + ", " + src(b)); break;
      case 2: emit("MIN " + dst() + ", " + src(a) + ", " + src(b)); break;
      case 3: emit("MAX " + dst() + ", " + src(a) + ", " + src(b)); break;
      default: emit("MAD " + dst() + ", " + src(a) + ", IMM[0].xxxx, IMM[0].yyyy"); break;
      }
   }
   void alu_run(unsigned n)
   {
      for (unsigned i = 0; i < n; i++)
         alu();
   }
   /* SLT + IF + then [+ ELSE + else] + ENDIF within `budget` instructions. */
   void if_block(unsigned budget, bool allow_else)
   {
      emit("SLT " + tmp(kCond) + ".x, " + src(next()) + ", " + src(next()));
      size_t if_at = emit("IF " + tmp(kCond) + ".xxxx");
      depth_++;
      unsigned body = std::min(budget - 3, 1 + next() % 6);
      bool has_else = allow_else && budget >= 2 * body + 4 && next() % 2;
      alu_run(body);
      depth_--;
      if (has_else) {
         size_t else_at = emit("ELSE");
         ins_[if_at].label = int(else_at);
         depth_++;
         alu_run(body);
         depth_--;
         ins_[else_at].label = int(ins_.size());
      } else {
         ins_[if_at].label = int(ins_.size());
      }
      emit("ENDIF");
   }
   /* MOV counter; BGNLOOP; SGE; IF; BRK; ENDIF; body; ADD counter; ENDLOOP. */
   void loop_block(unsigned budget)
   {
      emit("MOV " + tmp(kCounter) + ".x, IMM[0].wwww");
      size_t bgn = emit("BGNLOOP");
      depth_++;
      emit("SGE " + tmp(kCond) + ".x, " + tmp(kCounter) + ".xxxx, IMM[1].xxxx");
      size_t brk_if = emit("IF " + tmp(kCond) + ".xxxx");
      depth_++;
      emit("BRK");
      depth_--;
      ins_[brk_if].label = int(ins_.size());
      emit("ENDIF");
      unsigned room = budget - 8; /* the fixed instructions above and below */
      unsigned body = std::min(room, 2 + next() % 10);
      if (body >= 6 && next() % 2) {
         alu_run(body - 5);
         if_block(5, false); /* SLT IF op ... ENDIF: 4 + ops, here 1 op */
      } else {
         alu_run(body);
      }
      emit("ADD " + tmp(kCounter) + ".x, " + tmp(kCounter) + ".xxxx, IMM[0].zzzz");
      depth_--;
      size_t end = emit("ENDLOOP", int(bgn));
      ins_[bgn].label = int(end);
   }
};

int run_sb_scaling(const std::vector<unsigned> &sizes, r600::ChipClass chip, unsigned runs,
                   uint32_t seed)
{
   std::vector<SbTiming> ts;
   std::vector<size_t> instrs, dws;
   for (unsigned size : sizes) {
      ShaderGen gen(seed);
      std::string text = gen.generate(size);
      std::string name = "generated-" + std::to_string(size) + ".tgsi";
      Diagnostics d;
      auto sh = tgsi::parse_tgsi(text, name, d);
      std::vector<SbInput> in;
      if (!sh || !sb_input_from_tgsi(*sh, name, chip, in, d)) {
         std::cerr << "sbcc bench: generated shader of " << size << " instructions failed:\n";
         print_diags(d);
         return 1;
      }
      Diagnostics ad;
      auto w = r600::assemble(in[0].prog, ad);
      instrs.push_back(in[0].tgsi_instrs);
      dws.push_back(w ? w->size() : 0);
      ts.push_back(time_sb(in[0], runs));
   }
   printf("sb scaling: generated vertex shaders (ALU runs, IF/ELSE, loops), median of %u runs\n",
          runs);
   printf("%-22s", "TGSI instructions");
   for (size_t n : instrs)
      printf(" %12zu", n);
   printf("\n%-22s", "bytecode dw (plain)");
   for (size_t n : dws)
      printf(" %12zu", n);
   printf("\nns per TGSI instruction%s\n", sizes.size() > 1 ? "; growth = last / first" : "");
   for (const auto &name : merged_order(ts)) {
      printf("%-22s", name.c_str());
      std::vector<double> per;
      for (size_t i = 0; i < ts.size(); i++) {
         auto it = ts[i].median.find(name);
         if (it == ts[i].median.end()) {
            per.push_back(-1);
            printf(" %12s", "-");
            continue;
         }
         per.push_back(it->second * 1e9 / double(instrs[i]));
         printf(" %12.1f", per.back());
      }
      if (per.size() > 1 && per.front() > 0 && per.back() >= 0)
         printf("   x%.1f", per.back() / per.front());
      printf("\n");
   }
   printf("(-: sb did not run the pass at that size, e.g. a stage gave up before it)\n");
   std::string f = failure_summary(ts);
   if (!f.empty())
      printf("sb gave up (source kept) in: %s\n", f.c_str());
   return 0;
}

} // namespace

static int cmd_bench_sb(const ParsedArgs &args)
{
   uint64_t runs = 5, seed = 1;
   if ((args.has("--runs") && !parse_uint_option("bench", "--runs", args.get("--runs"), runs)) ||
       (args.has("--seed") && !parse_uint_option("bench", "--seed", args.get("--seed"), seed)))
      return 2;
   if (runs == 0 || runs > 1000) {
      std::cerr << "sbcc bench: --runs must be 1..1000\n";
      return 2;
   }
   if (args.has("--generate")) {
      uint64_t n = 0;
      if (!parse_uint_option("bench", "--generate", args.get("--generate"), n))
         return 2;
      if (n > 1000000) {
         std::cerr << "sbcc bench: --generate takes at most 1000000 instructions\n";
         return 2;
      }
      printf("%s", ShaderGen(uint32_t(seed)).generate(unsigned(n)).c_str());
      return 0;
   }
   if (!args.has("--sb")) {
      std::cerr << "sbcc bench: --scaling needs --sb\n";
      return 2;
   }
   const std::string target = args.get("--target", "evergreen");
   auto chip = r600::chip_class_from_name(target);
   if (!chip) {
      std::cerr << "sbcc bench: unknown r600 chip '" << target << "'\n";
      return 2;
   }
   if (args.has("--scaling")) {
      std::vector<unsigned> sizes;
      std::stringstream ss(args.get("--sizes", "100,1000,10000"));
      for (std::string item; std::getline(ss, item, ',');) {
         uint64_t n = 0;
         if (!parse_uint_option("bench", "--sizes", item, n))
            return 2;
         if (n < 12 || n > 1000000) {
            std::cerr << "sbcc bench: --sizes entries must be 12..1000000\n";
            return 2;
         }
         sizes.push_back(unsigned(n));
      }
      if (sizes.empty()) {
         std::cerr << "sbcc bench: --sizes is empty\n";
         return 2;
      }
      return run_sb_scaling(sizes, *chip, unsigned(runs), uint32_t(seed));
   }
   if (args.positional.size() > 1 || (args.positional.size() == 1 && args.has("--dir"))) {
      std::cerr << "sbcc bench: give one directory or file\n";
      return 2;
   }
   std::string dir = args.positional.empty() ? args.get("--dir", SBCC_SOURCE_ROOT "/tests/shaders")
                                             : args.positional[0];
   std::vector<SbInput> inputs;
   unsigned skipped = 0;
   if (!load_sb_inputs(dir, *chip, inputs, skipped))
      return 1;
   if (skipped)
      fprintf(stderr, "sbcc bench: %u shaders skipped (did not load or compile for %s)\n",
              skipped, target.c_str());
   if (inputs.empty()) {
      std::cerr << "sbcc bench: no shaders for sb under '" << dir << "'\n";
      return 1;
   }
   return run_sb_bench(inputs, unsigned(runs), dir + " (" + target + ")");
}

int cmd_bench(int argc, char **argv)
{
   std::vector<OptionSpec> specs = {
      {"--dir", true, "corpus directory (default: the bundled tests/shaders)"},
      {"--suite", true, "run only this suite (default: all)"},
      {"--benchmark_filter", true, "Google Benchmark filter regex"},
      {"--benchmark_min_time", true, "Google Benchmark minimum time per benchmark"},
      {"--benchmark_format", true, "console, json or csv"},
      {"--benchmark_repetitions", true, "repetitions"},
      {"--sb", false, "time the sb optimizer per shader and per pass (no Google Benchmark)"},
      {"--scaling", false, "with --sb: time sb on generated shaders of --sizes instructions"},
      {"--sizes", true, "with --scaling: TGSI instruction counts (default 100,1000,10000)"},
      {"--runs", true, "with --sb: runs per shader, the median is kept (default 5)"},
      {"--target", true, "with --sb: r600-family chip of the shaders (default evergreen)"},
      {"--seed", true, "seed of the generated shaders (default 1)"},
      {"--generate", true, "print the generated shader of N instructions and exit"},
   };
   ParsedArgs args;
   if (!parse_args("bench", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc bench [options]\n"
             "       sbcc bench --sb [--runs N] [--target T] [DIR|FILE]\n"
             "       sbcc bench --sb --scaling [--sizes 100,1000,10000]\n"
             "Google Benchmark suites over a shader directory: 'parse' (TGSI parse\n"
             "throughput, MB/s and shaders/s).\n"
             "--sb: the sb optimizer on every TGSI stage (compiled by the plain backend)\n"
             "and .bin.hex image under DIR (default: the bundled tests/shaders); per pass\n"
             "sb records, the median and p99 over the shaders of each shader's median time.\n"
             "--scaling: the same on generated shaders with loops and branches, in ns per\n"
             "TGSI instruction per size, and the growth from the first size to the last.\n"
             "options:\n");
      print_options(specs);
      return 0;
   }
   if (args.has("--sb") || args.has("--generate") || args.has("--scaling"))
      return cmd_bench_sb(args);
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
