#include "driver/target.h"

#include <functional>

#ifdef SBCC_HAVE_INTERP
#include "interp/interp.h"
#endif

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
#ifdef SBCC_HAVE_INTERP
      auto exe = interp::make_reference_executable(shader, diags);
      if (exe && stats)
         ir_stats(shader, *stats);
      return exe;
#else
      (void)shader;
      (void)stats;
      diags.error("the reference interpreter is not built into this sbcc");
      return nullptr;
#endif
   }
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
