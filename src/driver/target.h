/*
 * The target registry: every code generator sbcc can run shaders on, looked
 * up by name.  'reference' is the TGSI interpreter; backends (r600 evergreen,
 * r700, r300, vc4) add one row to the table in target.cpp.
 *
 * May use: every component before it (common ... runner).
 */
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/debug_options.h"
#include "common/diag.h"
#include "common/exec.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc {

struct CompileOptions {
   std::string target;
   std::string chip; /* empty: the target's default chip */
   DebugOptions debug;
};

class Target {
 public:
   virtual ~Target();
   virtual std::string_view name() const = 0;
   /* nullptr plus a diagnostic when the shader cannot be compiled.  stats may
    * be null; when given it receives the shader-db style statistics. */
   virtual std::unique_ptr<Executable> compile(const tgsi::Shader &shader,
                                               const CompileOptions &options,
                                               Diagnostics &diags, ShaderStats *stats) = 0;
   /* Raw machine code of the last compile() for `-o` and the C API; empty for
    * targets without a binary form (the reference). */
   virtual std::vector<uint8_t> binary(const Executable &) const { return {}; }
   /* GL extensions a shader_test may [require] that this target (with these
    * options' chip) cannot provide; the runner skips such tests, as piglit
    * does on drivers without the extension. */
   virtual std::vector<std::string> missing_extensions(const CompileOptions &) const
   {
      return {};
   }
   /* Disassembly of a binary; false (and a diagnostic) when unsupported. */
   virtual bool disassemble(const std::vector<uint8_t> &, std::string &, Diagnostics &diags) const
   {
      diags.error("disassembly is not supported for target '" + std::string(name()) + "'");
      return false;
   }
};

/* nullptr plus an error listing the known names when `name` is unknown. */
std::unique_ptr<Target> make_target(std::string_view name, Diagnostics &diags);
std::vector<std::string> target_names();

} // namespace sbcc
