#include "r600/r600_target.h"

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600/r600_emu.h"
#include "r600/r600_tgsi.h"

namespace sbcc::r600 {

std::unique_ptr<Executable> compile_tgsi_for_r600(const tgsi::Shader &shader,
                                                  ChipClass default_chip,
                                                  std::string_view chip_name,
                                                  const DebugOptions &debug, Diagnostics &diags,
                                                  ShaderStats *stats,
                                                  std::vector<uint32_t> *words,
                                                  const BytecodeOptimizer *optimize)
{
   ChipClass chip = default_chip;
   if (!chip_name.empty()) {
      auto c = chip_class_from_name(chip_name);
      if (!c) {
         diags.error("unknown r600 chip '" + std::string(chip_name) + "'");
         return nullptr;
      }
      chip = *c;
   }
   auto compiled = tgsi_to_r600(shader, chip, debug, diags);
   if (!compiled)
      return nullptr;
   auto dw = assemble(compiled->prog, diags);
   if (!dw)
      return nullptr;
   /* Run what the hardware would read, not the model we built. */
   auto decoded = decode_program(*dw, chip, diags, shader.source_name);
   if (!decoded)
      return nullptr;
   if (!validate_program(*decoded, compiled->info, diags))
      return nullptr;
   ShaderStats plain_stats = compiled->stats;
   if (optimize) {
      /* The optimized program must survive the same bytes → model → validator
       * round trip as the plain one; anything less keeps the plain code. */
      ShaderStats opt_stats = plain_stats;
      if (auto opt = (*optimize)(*decoded, compiled->info, &opt_stats)) {
         Diagnostics opt_diags;
         auto opt_dw = assemble(*opt, opt_diags);
         auto opt_decoded = opt_dw ? decode_program(*opt_dw, chip, opt_diags) : std::nullopt;
         if (opt_decoded && validate_program(*opt_decoded, compiled->info, opt_diags)) {
            *dw = std::move(*opt_dw);
            *decoded = std::move(*opt_decoded);
            plain_stats = opt_stats;
            plain_stats.set("dw", int64_t(dw->size()));
            plain_stats.set("cf", int64_t(decoded->cf.size()));
         }
      }
   }
   if (stats)
      *stats = plain_stats;
   if (words)
      *words = *dw;
   return std::make_unique<R600Executable>(std::move(*decoded), compiled->info);
}

std::vector<uint8_t> r600_executable_binary(const Executable &exe)
{
   const auto *r = dynamic_cast<const R600Executable *>(&exe);
   if (!r)
      return {};
   Diagnostics d;
   auto dw = assemble(r->program(), d);
   if (!dw)
      return {};
   std::vector<uint8_t> bytes;
   for (uint32_t w : *dw)
      for (int k = 0; k < 4; k++)
         bytes.push_back(uint8_t(w >> (8 * k)));
   return bytes;
}

} // namespace sbcc::r600
