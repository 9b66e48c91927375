#include "tools/tools_common.h"

#include <charconv>
#include <cstdio>
#include <iostream>

#include "runner/shader_run.h"
#include "runner/shader_test.h"

#include "arb/arb_parse.h"

namespace sbcc::tools {

const std::vector<OptionSpec> kTargetOptions = {
   {"--target", true, "target from the registry (default: reference)"},
   {"--chip", true, "chip for the target (default: the target's default)"},
   {"--r600-debug", true, "R600_DEBUG-style switches, applied after the environment"},
   {"--sbcc-debug", true, "SBCC_DEBUG-style switches, applied after the environment"},
};

bool parse_args(const std::string &cmd, int argc, char **argv,
                const std::vector<OptionSpec> &specs, ParsedArgs &out)
{
   for (int i = 0; i < argc; i++) {
      std::string a = argv[i];
      if (a == "--help" || a == "-h") {
         out.help = true;
         continue;
      }
      if (a.size() < 2 || a[0] != '-') {
         out.positional.push_back(a);
         continue;
      }
      std::string name = a, value;
      bool has_value = false;
      size_t eq = a.find('=');
      if (a.compare(0, 2, "--") == 0 && eq != std::string::npos) {
         name = a.substr(0, eq);
         value = a.substr(eq + 1);
         has_value = true;
      }
      const OptionSpec *spec = nullptr;
      for (const auto &s : specs)
         if (name == s.name)
            spec = &s;
      if (!spec) {
         std::cerr << "sbcc " << cmd << ": unknown option '" << name << "' (see sbcc " << cmd
                   << " --help)\n";
         return false;
      }
      if (spec->takes_value && !has_value) {
         if (i + 1 >= argc) {
            std::cerr << "sbcc " << cmd << ": option '" << name << "' needs a value\n";
            return false;
         }
         value = argv[++i];
      } else if (!spec->takes_value && has_value) {
         std::cerr << "sbcc " << cmd << ": option '" << name << "' takes no value\n";
         return false;
      }
      out.values[name] = value;
   }
   return true;
}

void print_options(const std::vector<OptionSpec> &specs)
{
   for (const auto &s : specs) {
      std::string n = std::string(s.name) + (s.takes_value ? " VALUE" : "");
      printf("  %-22s %s\n", n.c_str(), s.help);
   }
   printf("  %-22s %s\n", "--help", "this text");
}

bool parse_uint_option(const std::string &cmd, const std::string &name, const std::string &v,
                       uint64_t &out)
{
   auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
   if (ec != std::errc() || p != v.data() + v.size() || v.empty()) {
      std::cerr << "sbcc " << cmd << ": option '" << name << "' expects an unsigned number, got '"
                << v << "'\n";
      return false;
   }
   return true;
}

void print_diags(const Diagnostics &diags)
{
   for (const auto &d : diags.all())
      std::cerr << d.str() << "\n";
}

CompileOptions compile_options(const ParsedArgs &args)
{
   CompileOptions o;
   o.target = args.get("--target", "reference");
   o.chip = args.get("--chip");
   Diagnostics d;
   o.debug = DebugOptions::from_environment(d);
   if (args.has("--r600-debug"))
      o.debug.apply_r600_debug(args.get("--r600-debug"), d);
   if (args.has("--sbcc-debug"))
      o.debug.apply_sbcc_debug(args.get("--sbcc-debug"), d);
   print_diags(d);
   return o;
}

static bool ends_with(const std::string &s, const char *suffix)
{
   size_t n = strlen(suffix);
   return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool is_shader_file(const std::string &path)
{
   return ends_with(path, ".tgsi") || ends_with(path, ".shader_test") || ends_with(path, ".vp") ||
          ends_with(path, ".fp") || ends_with(path, ".arb");
}

std::string stage_name(tgsi::Processor p)
{
   switch (p) {
   case tgsi::Processor::Vertex: return "vertex";
   case tgsi::Processor::Fragment: return "fragment";
   case tgsi::Processor::Geometry: return "geometry";
   case tgsi::Processor::Compute: return "compute";
   }
   return "unknown";
}

std::optional<std::vector<NamedStage>> load_shader_file(const std::string &path,
                                                        Diagnostics &diags)
{
   std::string text;
   if (!runner::read_file(path, text, diags))
      return std::nullopt;
   std::vector<NamedStage> out;
   if (ends_with(path, ".shader_test")) {
      auto t = runner::parse_shader_test(text, path, diags);
      if (!t)
         return std::nullopt;
      auto stages = runner::load_stages(*t, diags);
      if (!stages)
         return std::nullopt;
      for (auto &s : *stages)
         out.push_back({s.vertex ? "vertex" : "fragment", std::move(s.shader)});
      return out;
   }
   if (ends_with(path, ".tgsi")) {
      auto sh = tgsi::parse_tgsi(text, path, diags);
      if (!sh)
         return std::nullopt;
      out.push_back({stage_name(sh->processor), std::move(*sh)});
      return out;
   }
   if (ends_with(path, ".vp") || ends_with(path, ".fp") || ends_with(path, ".arb")) {
      auto prog = arb::parse_arb(text, path, diags);
      if (!prog)
         return std::nullopt;
      out.push_back({prog->kind == arb::ProgramKind::Vertex ? "vertex" : "fragment",
                     std::move(prog->shader)});
      return out;
   }
   diags.error(path, {}, "unknown shader file type (expected .tgsi, .shader_test, .vp, .fp or .arb)");
   return std::nullopt;
}

} // namespace sbcc::tools
