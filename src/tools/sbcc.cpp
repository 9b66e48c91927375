/*
 * The `sbcc` command: one binary, one subcommand per job (compile, disasm,
 * run-test, verify, stats, bench).  Each subcommand lives in its own file and
 * parses its own options, so `sbcc <cmd> --help` lists exactly what it takes.
 */
#include <cstdio>
#include <cstring>
#include <string>

#include "driver/target.h"
#include "tools/tools_common.h"

namespace {

struct Subcommand {
   const char *name;
   int (*fn)(int, char **);
   const char *summary;
};

const Subcommand kCommands[] = {
   {"compile", sbcc::tools::cmd_compile, "compile shaders; print listing and statistics"},
   {"disasm", sbcc::tools::cmd_disasm, "disassemble a binary of a target"},
   {"run-test", sbcc::tools::cmd_run_test, "run a .shader_test file (PASS/FAIL/SKIP)"},
   {"verify", sbcc::tools::cmd_verify, "compare a target with the reference on random inputs"},
   {"stats", sbcc::tools::cmd_stats, "shader-db style statistics for files or directories"},
   {"bench", sbcc::tools::cmd_bench, "benchmarks (Google Benchmark)"},
   {"optimize", sbcc::tools::cmd_optimize, "run the sb optimizer on r600 bytecode"},
};

void usage(FILE *f)
{
   fprintf(f, "usage: sbcc <command> [options] [files]\n\ncommands:\n");
   for (const auto &c : kCommands)
      fprintf(f, "  %-10s %s\n", c.name, c.summary);
   std::string targets;
   for (const auto &t : sbcc::target_names())
      targets += (targets.empty() ? "" : ", ") + t;
   fprintf(f, "  %-10s %s\n", "targets", "list the registered targets, one per line");
   fprintf(f, "\ntargets: %s\n'sbcc <command> --help' describes each command.\n",
           targets.c_str());
}

} // namespace

int main(int argc, char **argv)
{
   if (argc < 2) {
      usage(stderr);
      return 2;
   }
   std::string cmd = argv[1];
   if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      usage(stdout);
      return 0;
   }
   /* For scripts: the registry, one name per line. */
   if (cmd == "targets" && argc == 2) {
      for (const auto &t : sbcc::target_names())
         printf("%s\n", t.c_str());
      return 0;
   }
   for (const auto &c : kCommands)
      if (cmd == c.name)
         return c.fn(argc - 2, argv + 2);
   fprintf(stderr, "sbcc: unknown command '%s'\n", cmd.c_str());
   usage(stderr);
   return 2;
}
