#include "driver/target.h"

#include <cstdio>
#include <functional>

#include "interp/interp.h"
#include "r600/r600_disasm.h"
#include "r600/r600_target.h"
#include "r600/sb/sb.h"

namespace sbcc {

Target::~Target() = default;

namespace {

/* Statistics every target can give from the IR alone; backends report their
 * own machine-level numbers instead. */
void ir_stats(const tgsi::Shader &shader, ShaderStats &stats)
{
   stats.set("inst", static_cast<int64_t>(shader.instructions.size()));
   stats.set("temps", shader.file_size(tgsi::File::Temporary));
   stats.set("inputs", shader.file_size(tgsi::File::Input));
   stats.set("outputs", shader.file_size(tgsi::File::Output));
}

class ReferenceTarget final : public Target {
 public:
   std::string_view name() const override { return "reference"; }

   std::unique_ptr<Executable> compile(const tgsi::Shader &shader, const CompileOptions &,
                                       Diagnostics &diags, ShaderStats *stats) override
   {
      auto exe = interp::make_reference_executable(shader, diags);
      if (exe && stats)
         ir_stats(shader, *stats);
      return exe;
   }
};

/* The plain TGSI backend for the r600 family (src/r600/r600_target.h). */
class R600Target final : public Target {
 public:
   R600Target(const char *name, r600::ChipClass chip) : name_(name), chip_(chip) {}
   std::string_view name() const override { return name_; }
   std::unique_ptr<Executable> compile(const tgsi::Shader &shader, const CompileOptions &options,
                                       Diagnostics &diags, ShaderStats *stats) override
   {
      const DebugOptions &debug = options.debug;
      bool compute = shader.processor == tgsi::Processor::Compute;
      if (!(compute ? debug.sb_cl : debug.sb))
         return r600::compile_tgsi_for_r600(shader, chip_, options.chip, debug, diags, stats);
      r600::BytecodeOptimizer sb = [&debug](const r600::Program &prog,
                                            const r600::ShaderInfo &info,
                                            ShaderStats *st) -> std::optional<r600::Program> {
         r600::sb::SbStats sbstats;
         Diagnostics sb_diags;
         auto opt = r600::sb::sb_optimize(prog, info, debug, &sbstats, sb_diags);
         /* sbstat/sbdump output goes to stderr, as Mesa's does. */
         if (!sbstats.log.empty())
            std::fputs(sbstats.log.c_str(), stderr);
         if (opt && st) {
            st->set("gprs", sbstats.gprs_after);
            st->set("alu_groups", sbstats.groups_after);
         }
         return opt;
      };
      return r600::compile_tgsi_for_r600(shader, chip_, options.chip, debug, diags, stats,
                                         nullptr, &sb);
   }
   std::vector<uint8_t> binary(const Executable &exe) const override
   {
      return r600::r600_executable_binary(exe);
   }
   std::vector<std::string> missing_extensions(const CompileOptions &options) const override
   {
      auto chip = options.chip.empty() ? std::optional<r600::ChipClass>(chip_)
                                       : r600::chip_class_from_name(options.chip);
      /* Fine derivatives (DDX_FINE/DDY_FINE) need Evergreen's per-pixel
       * gradients; R600/R700 only have coarse GET_GRADIENTS_H/V, and Mesa
       * exposes ARB_derivative_control from Evergreen on. */
      if (chip && (*chip == r600::ChipClass::R600 || *chip == r600::ChipClass::R700))
         return {"GL_ARB_derivative_control"};
      return {};
   }
   bool disassemble(const std::vector<uint8_t> &bytes, std::string &out,
                    Diagnostics &diags) const override
   {
      std::vector<uint32_t> words(bytes.size() / 4);
      for (size_t i = 0; i < words.size(); i++)
         for (int k = 0; k < 4; k++)
            words[i] |= uint32_t(bytes[i * 4 + size_t(k)]) << (8 * k);
      auto text = r600::disassemble(words, chip_, diags);
      if (!text)
         return false;
      out = *text;
      return true;
   }

 private:
   const char *name_;
   r600::ChipClass chip_;
};

struct TargetEntry {
   const char *name;
   std::function<std::unique_ptr<Target>()> make;
};

/* The one place targets are registered: backends append a row. */
const std::vector<TargetEntry> &target_table()
{
   static const std::vector<TargetEntry> table = {
      {"reference", [] { return std::make_unique<ReferenceTarget>(); }},
      {"evergreen", [] { return std::make_unique<R600Target>("evergreen", r600::ChipClass::Evergreen); }},
      {"r700", [] { return std::make_unique<R600Target>("r700", r600::ChipClass::R700); }},
      {"r600", [] { return std::make_unique<R600Target>("r600", r600::ChipClass::R600); }},
      {"cayman", [] { return std::make_unique<R600Target>("cayman", r600::ChipClass::Cayman); }},
   };
   return table;
}

} // namespace

std::unique_ptr<Target> make_target(std::string_view name, Diagnostics &diags)
{
   for (const auto &e : target_table())
      if (name == e.name)
         return e.make();
   std::string known;
   for (const auto &e : target_table())
      known += (known.empty() ? "" : ", ") + std::string(e.name);
   diags.error("unknown target '" + std::string(name) + "' (known: " + known + ")");
   return nullptr;
}

std::vector<std::string> target_names()
{
   std::vector<std::string> names;
   for (const auto &e : target_table())
      names.emplace_back(e.name);
   return names;
}

} // namespace sbcc
