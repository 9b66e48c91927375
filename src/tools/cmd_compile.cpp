/* sbcc compile / sbcc disasm. */
#include <cstdio>
#include <fstream>
#include <iostream>

#include "runner/shader_run.h"
#include "tools/tools_common.h"

namespace sbcc::tools {

int cmd_compile(int argc, char **argv)
{
   std::vector<OptionSpec> specs = kTargetOptions;
   specs.push_back({"-o", true, "write the machine code (targets with a binary form)"});
   specs.push_back({"--no-listing", false, "print statistics only"});
   ParsedArgs args;
   if (!parse_args("compile", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc compile [options] FILE...\n"
             "Compiles every stage of each .tgsi, .shader_test, .vp, .fp or .arb file and\n"
             "prints, per stage, a '; <file> - <stage> shader: <stats>' line and the listing.\n"
             "options:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.empty()) {
      std::cerr << "sbcc compile: no input files\n";
      return 2;
   }
   CompileOptions opts = compile_options(args);
   Diagnostics diags;
   auto target = make_target(opts.target, diags);
   if (!target) {
      print_diags(diags);
      return 2;
   }
   if (args.has("-o") && args.positional.size() != 1) {
      std::cerr << "sbcc compile: -o needs exactly one input file\n";
      return 2;
   }
   int rc = 0;
   std::vector<uint8_t> all_bin;
   for (const auto &path : args.positional) {
      Diagnostics d;
      auto stages = load_shader_file(path, d);
      if (!stages) {
         print_diags(d);
         rc = 1;
         continue;
      }
      for (const auto &st : *stages) {
         ShaderStats stats;
         auto exe = target->compile(st.shader, opts, d, &stats);
         if (!exe) {
            rc = 1;
            continue;
         }
         printf("; %s - %s shader: %s\n", path.c_str(), st.stage.c_str(), stats.str().c_str());
         if (!args.has("--no-listing"))
            printf("%s", exe->listing().c_str());
         auto bin = target->binary(*exe);
         all_bin.insert(all_bin.end(), bin.begin(), bin.end());
      }
      print_diags(d);
   }
   if (args.has("-o") && rc == 0) {
      if (all_bin.empty()) {
         std::cerr << "sbcc compile: target '" << opts.target << "' has no binary form\n";
         return 1;
      }
      std::ofstream out(args.get("-o"), std::ios::binary);
      out.write(reinterpret_cast<const char *>(all_bin.data()), std::streamsize(all_bin.size()));
      if (!out) {
         std::cerr << "sbcc compile: cannot write '" << args.get("-o") << "'\n";
         return 1;
      }
   }
   return rc;
}

int cmd_disasm(int argc, char **argv)
{
   std::vector<OptionSpec> specs = kTargetOptions;
   ParsedArgs args;
   if (!parse_args("disasm", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc disasm --target=T FILE\n"
             "Disassembles raw machine code of the target.\noptions:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.size() != 1) {
      std::cerr << "sbcc disasm: expected exactly one input file\n";
      return 2;
   }
   CompileOptions opts = compile_options(args);
   Diagnostics diags;
   auto target = make_target(opts.target, diags);
   if (!target) {
      print_diags(diags);
      return 2;
   }
   std::string data;
   if (!runner::read_file(args.positional[0], data, diags)) {
      print_diags(diags);
      return 1;
   }
   std::string text;
   if (!target->disassemble(std::vector<uint8_t>(data.begin(), data.end()), text, diags)) {
      print_diags(diags);
      return 1;
   }
   printf("%s", text.c_str());
   return 0;
}

} // namespace sbcc::tools
