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
                                                  std::vector<uint32_t> *words)
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
   if (stats)
      *stats = compiled->stats;
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
