/*
 * Shared pieces of the `sbcc` subcommands: option parsing with per-command
 * option tables (unknown flags are errors), target setup from the
 * environment plus flags, and loading any supported shader file into TGSI
 * stages.
 *
 * May use: everything under src/.
 */
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/debug_options.h"
#include "common/diag.h"
#include "driver/target.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::tools {

struct OptionSpec {
   const char *name;   /* "--target", "-o", "-j" */
   bool takes_value;
   const char *help;
};

struct ParsedArgs {
   std::map<std::string, std::string> values; /* by option name */
   std::vector<std::string> positional;
   bool help = false;

   bool has(const std::string &n) const { return values.count(n) != 0; }
   std::string get(const std::string &n, const std::string &def = "") const
   {
      auto it = values.find(n);
      return it == values.end() ? def : it->second;
   }
};

/* The options every compiling subcommand takes. */
extern const std::vector<OptionSpec> kTargetOptions;

/* false (and a message on stderr) for unknown options or missing values. */
bool parse_args(const std::string &cmd, int argc, char **argv,
                const std::vector<OptionSpec> &specs, ParsedArgs &out);
void print_options(const std::vector<OptionSpec> &specs);

/* Parses an unsigned option value; false plus a message when malformed. */
bool parse_uint_option(const std::string &cmd, const std::string &name, const std::string &v,
                       uint64_t &out);

/* DebugOptions from the environment, then --r600-debug/--sbcc-debug. */
CompileOptions compile_options(const ParsedArgs &args);

/* Prints diagnostics to stderr, one per line. */
void print_diags(const Diagnostics &diags);

struct NamedStage {
   std::string stage; /* "vertex", "fragment", ... */
   tgsi::Shader shader;
};

/* .tgsi: one stage; .shader_test: its stages; .vp/.fp/.arb: an ARB program. */
std::optional<std::vector<NamedStage>> load_shader_file(const std::string &path,
                                                        Diagnostics &diags);
bool is_shader_file(const std::string &path);
std::string stage_name(tgsi::Processor p);

int cmd_compile(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_run_test(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_optimize(int argc, char **argv); /* cmd_optimize.cpp (sb) */

} // namespace sbcc::tools
