/*
 * `sbcc optimize --target=T IN -o OUT`: runs the sb optimizer on a bytecode
 * image (raw little-endian dwords or .bin.hex text) of an r600-family chip.
 * Owned by engineer 'sb'; the rest of src/tools belongs to 'runner'.
 */
#include <cstdio>
#include <fstream>
#include <iostream>

#include "r600/r600_asm.h"
#include "r600/r600_binary.h"
#include "r600/r600_disasm.h"
#include "r600/sb/sb.h"
#include "tools/tools_common.h"

namespace sbcc::tools {

int cmd_optimize(int argc, char **argv)
{
   const std::vector<OptionSpec> specs = {
      {"--target", true, "chip class or family: r600, r700, evergreen, cayman, CYPRESS, ..."},
      {"-o", true, "output file (.hex: one dword per line; otherwise raw little-endian)"},
      {"--stage", true, "vertex (default), fragment or compute"},
      {"--stat", false, "print sb's per-shader statistics and pass times (R600_DEBUG=sbstat)"},
      {"--dump", false, "print the sb IR after each pass (R600_DEBUG=sbdump)"},
      {"--dry", false, "run every pass but write the source bytecode (R600_DEBUG=sbdry)"},
      {"--listing", false, "print the listing of the result"},
   };
   ParsedArgs args;
   if (!parse_args("optimize", argc, argv, specs, args))
      return 2;
   if (args.help) {
      printf("usage: sbcc optimize --target=T IN [-o OUT]\n"
             "Optimizes r600-family bytecode with sb.\noptions:\n");
      print_options(specs);
      return 0;
   }
   if (args.positional.size() != 1 || !args.has("--target")) {
      std::cerr << "sbcc optimize: expected --target=T and exactly one input file\n";
      return 2;
   }
   auto chip = r600::chip_class_from_name(args.get("--target"));
   if (!chip) {
      std::cerr << "sbcc optimize: unknown chip '" << args.get("--target") << "'\n";
      return 2;
   }
   Diagnostics diags;
   auto words = r600::read_binary_file(args.positional[0], diags);
   auto prog = words ? r600::decode_program(*words, *chip, diags, args.positional[0])
                     : std::nullopt;
   if (!prog) {
      print_diags(diags);
      return 1;
   }
   r600::ShaderInfo info;
   info.chip = *chip;
   const std::string stage = args.get("--stage", "vertex");
   if (stage == "fragment")
      info.stage = tgsi::Processor::Fragment;
   else if (stage == "compute")
      info.stage = tgsi::Processor::Compute;
   else if (stage != "vertex") {
      std::cerr << "sbcc optimize: unknown stage '" << stage << "'\n";
      return 2;
   }
   /* No driver state here: allow the deepest stack the hardware has, the
    * validator then only checks structure. */
   info.stack_size = 64;
   info.num_gprs = r600::sb::program_gprs(*prog);
   DebugOptions opts;
   opts.sb = opts.sb_cl = true;
   opts.sb_stat = args.has("--stat");
   opts.sb_dump = args.has("--dump");
   opts.sb_dry = args.has("--dry");
   r600::sb::SbStats st;
   auto out = r600::sb::sb_optimize(*prog, info, opts, &st, diags);
   std::cerr << st.log;
   r600::Program res = out ? *out : *prog;
   /* The listing prints the addresses stored in the program: lay it out. */
   if (!r600::layout_program(res, diags)) {
      print_diags(diags);
      return 1;
   }
   auto res_words = r600::assemble(res, diags);
   if (!res_words) {
      print_diags(diags);
      return 1;
   }
   if (args.has("--listing"))
      printf("%s", r600::print_program(res, *res_words).c_str());
   if (args.has("-o")) {
      const std::string path = args.get("-o");
      std::ofstream f(path, std::ios::binary);
      if (path.size() > 4 && path.compare(path.size() - 4, 4, ".hex") == 0) {
         char buf[16];
         for (uint32_t w : *res_words) {
            snprintf(buf, sizeof(buf), "%08x\n", w);
            f << buf;
         }
      } else {
         for (uint32_t w : *res_words)
            for (int b = 0; b < 4; b++)
               f.put(char((w >> (8 * b)) & 0xff));
      }
      if (!f) {
         std::cerr << "sbcc optimize: cannot write '" << path << "'\n";
         return 1;
      }
   }
   return 0;
}

} // namespace sbcc::tools
