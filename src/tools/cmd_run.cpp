/* sbcc run-test / sbcc verify. */
#include <cstdio>
#include <iostream>

#include "runner/shader_run.h"
#include "runner/verify.h"
#include "tools/tools_common.h"

namespace sbcc::tools {

namespace {

runner::StageCompiler stage_compiler(Target &target, const CompileOptions &opts)
{
   return [&target, &opts](const tgsi::Shader &sh, Diagnostics &d) {
      return target.compile(sh, opts, d, nullptr);
   };
}

bool limits_option(const std::string &cmd, const ParsedArgs &args, RunLimits &limits)
{
   if (!args.has("--max-loop"))
      return true;
   uint64_t v;
   if (!parse_uint_option(cmd, "--max-loop", args.get("--max-loop"), v))
      return false;
   limits.max_loop_iterations = v;
   return true;
}

} // namespace

int cmd_run_test(int argc, char **argv)
{
   std::vector<OptionSpec> specs = kTargetOptions;
   specs.push_back({"--max-loop", true, "loop budget per lane (default 65536)"});
   specs.push_back({"--batch", true, "fragment lanes per run call, a multiple of 4 (default 64)"});
   ParsedArgs args;
   if (!parse_args("run-test", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc run-test [options] FILE.shader_test...\n"
             "Runs each test on the target and prints 'PASS file', 'FAIL file' (after the\n"
             "failing probes), 'SKIP file' (after the reason) or 'ERROR file' (after the\n"
             "diagnostics).  Exit status: 0 all passed, 77 all skipped, 1 otherwise.\n"
             "options:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.empty()) {
      std::cerr << "sbcc run-test: no input files\n";
      return 2;
   }
   CompileOptions opts = compile_options(args);
   runner::RunOptions ro;
   if (!limits_option("run-test", args, ro.limits))
      return 2;
   if (args.has("--batch")) {
      uint64_t b;
      if (!parse_uint_option("run-test", "--batch", args.get("--batch"), b))
         return 2;
      if (b == 0 || b % 4 || b > 4096) {
         std::cerr << "sbcc run-test: --batch must be a multiple of 4 in [4, 4096]\n";
         return 2;
      }
      ro.batch_lanes = unsigned(b);
   }
   Diagnostics tdiags;
   auto target = make_target(opts.target, tdiags);
   if (!target) {
      print_diags(tdiags);
      return 2;
   }
   ro.missing_extensions = target->missing_extensions(opts);
   auto compile = stage_compiler(*target, opts);
   unsigned pass = 0, skip = 0, bad = 0;
   for (const auto &path : args.positional) {
      Diagnostics d;
      runner::TestResult r = runner::run_shader_test_file(path, compile, ro, d);
      print_diags(d);
      for (const auto &m : r.messages)
         printf("%s\n", m.c_str());
      switch (r.status) {
      case runner::TestStatus::Pass: printf("PASS %s\n", path.c_str()); pass++; break;
      case runner::TestStatus::Skip: printf("SKIP %s\n", path.c_str()); skip++; break;
      case runner::TestStatus::Fail: printf("FAIL %s\n", path.c_str()); bad++; break;
      case runner::TestStatus::Error: printf("ERROR %s\n", path.c_str()); bad++; break;
      }
      fflush(stdout);
   }
   if (bad)
      return 1;
   return pass == 0 && skip > 0 ? 77 : 0;
}

int cmd_verify(int argc, char **argv)
{
   std::vector<OptionSpec> specs = kTargetOptions;
   specs.push_back({"--seed", true, "random seed (default 1)"});
   specs.push_back({"--invocations", true, "lanes per shader (default 64)"});
   specs.push_back({"--max-loop", true, "loop budget per lane, same on both sides (default 65536)"});
   ParsedArgs args;
   if (!parse_args("verify", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc verify [options] FILE...\n"
             "Runs every stage of each file (.tgsi, .shader_test, .vp/.fp/.arb) on seeded\n"
             "random inputs, constants and textures through the reference and the target\n"
             "and compares every written output channel.  One line per stage:\n"
             "  PASS file | FAIL file: <first difference> | BUDGET file: <why> | ERROR file: <why>\n"
             "then 'N passed, N failed, N budget, N error'.\n"
             "Exit status: 0 all passed; 1 any FAIL or ERROR; 3 some BUDGET but no FAIL/ERROR.\n"
             "options:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.empty()) {
      std::cerr << "sbcc verify: no input files\n";
      return 2;
   }
   CompileOptions opts = compile_options(args);
   runner::VerifyOptions vo;
   uint64_t v;
   if (args.has("--seed")) {
      if (!parse_uint_option("verify", "--seed", args.get("--seed"), v))
         return 2;
      vo.seed = v;
   }
   if (args.has("--invocations")) {
      if (!parse_uint_option("verify", "--invocations", args.get("--invocations"), v))
         return 2;
      if (v == 0 || v > 1u << 20) {
         std::cerr << "sbcc verify: --invocations must be in [1, 1048576]\n";
         return 2;
      }
      vo.invocations = unsigned(v);
   }
   if (!limits_option("verify", args, vo.limits))
      return 2;
   Diagnostics tdiags;
   auto target = make_target(opts.target, tdiags);
   auto reference = make_target("reference", tdiags);
   if (!target || !reference) {
      print_diags(tdiags);
      return 2;
   }
   CompileOptions ref_opts = opts;
   ref_opts.target = "reference";
   unsigned n_pass = 0, n_fail = 0, n_budget = 0, n_error = 0;
   runner::VerifyResult undef; /* undefined-lane totals */
   unsigned n_undef_shaders = 0;
   for (const auto &path : args.positional) {
      Diagnostics d;
      auto stages = load_shader_file(path, d);
      if (!stages) {
         print_diags(d);
         printf("ERROR %s: cannot load\n", path.c_str());
         n_error++;
         continue;
      }
      for (const auto &st : *stages) {
         std::string label = stages->size() > 1 ? path + " (" + st.stage + ")" : path;
         auto ref = reference->compile(st.shader, ref_opts, d, nullptr);
         auto got = ref ? target->compile(st.shader, opts, d, nullptr) : nullptr;
         if (!ref || !got) {
            print_diags(d);
            d.clear();
            printf("ERROR %s: %s failed to compile\n", label.c_str(),
                   ref ? "target" : "reference");
            n_error++;
            continue;
         }
         runner::VerifyResult r = runner::verify_shader(st.shader, *ref, *got, vo);
         if (r.undefined_lanes) {
            /* Never silent: lanes GL leaves undefined were not compared. */
            undef.undefined_lanes += r.undefined_lanes;
            undef.undefined_derivative += r.undefined_derivative;
            undef.undefined_pow += r.undefined_pow;
            n_undef_shaders++;
         }
         switch (r.status) {
         case runner::VerifyStatus::Pass:
            if (r.undefined_lanes)
               printf("PASS %s: %s\n", label.c_str(), r.undefined_summary().c_str());
            else
               printf("PASS %s\n", label.c_str());
            n_pass++;
            break;
         case runner::VerifyStatus::Fail:
            printf("FAIL %s: %s\n", label.c_str(), r.message.c_str());
            n_fail++;
            break;
         case runner::VerifyStatus::Budget:
            printf("BUDGET %s: %s\n", label.c_str(), r.message.c_str());
            n_budget++;
            break;
         case runner::VerifyStatus::Error:
            printf("ERROR %s: %s\n", label.c_str(), r.message.c_str());
            n_error++;
            break;
         }
      }
   }
   printf("%u passed, %u failed, %u budget, %u error\n", n_pass, n_fail, n_budget, n_error);
   if (undef.undefined_lanes)
      printf("%s, in %u shader%s, not compared\n", undef.undefined_summary().c_str(),
             n_undef_shaders, n_undef_shaders == 1 ? "" : "s");
   if (n_fail || n_error)
      return 1;
   return n_budget ? 3 : 0;
}

} // namespace sbcc::tools
