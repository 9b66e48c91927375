/*
 * The validating r600/R700/Evergreen/Cayman emulator.
 *
 * Runs a decoded Program over a Batch under the execution contract of
 * common/exec.h: lanes are processed in wavefronts of up to 64 lanes (whole
 * fragment quads), each lane with 128 GPRs x 4 channels, PV/PS, AR, the
 * predicate, and the wavefront shares one branch/loop stack like the
 * hardware.  Inputs are placed in GPRs according to ShaderInfo (the fetch
 * shader and the SPI are modelled by preloading; Evergreen interpolation
 * gets per-lane parameter planes, see docs/r600-emulator.md), exports are
 * mapped back to Lane::outputs through ShaderInfo::outputs.
 *
 * Dynamic rules (stack overflow against ShaderInfo::stack_size, relative
 * addressing out of range, constants outside a locked kcache range, a
 * clause temporary read across clauses) stop the run with RunStatus::Error
 * and a message naming the CF index, group and slot.
 *
 * May use: common, tgsi (enums), texture.
 */
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/diag.h"
#include "common/exec.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"

namespace sbcc::r600 {

namespace emu_internal {
struct Decoded;
}

struct EmuOptions {
   /* TEX resource_id / sampler_id that is TextureSet unit 0.  sbcc's
    * backend uses 0; Mesa's r600 driver puts sampler views at 18 (resource)
    * and samplers at 0. */
   unsigned texture_resource_base = 0;
   /* Lanes per wavefront (a multiple of 4, at most 64). */
   unsigned wave_size = 64;
};

/* Static checks; every violation is reported as an error naming the CF
 * index, the ALU group number and the slot.  Returns true when clean. */
bool validate_program(const Program &prog, const ShaderInfo &info, Diagnostics &diags);

RunResult emulate(const Program &prog, const ShaderInfo &info, const Resources &res,
                  Batch &batch, const RunLimits &limits, const EmuOptions &options);
inline RunResult emulate(const Program &prog, const ShaderInfo &info, const Resources &res,
                         Batch &batch, const RunLimits &limits)
{
   return emulate(prog, info, res, batch, limits, EmuOptions{});
}

class R600Executable : public Executable {
 public:
   R600Executable(Program prog, ShaderInfo info, EmuOptions options = {});
   ~R600Executable() override;
   /* The decoded form points into the owned program: no copies. */
   R600Executable(const R600Executable &) = delete;
   R600Executable &operator=(const R600Executable &) = delete;
   RunResult run(const Resources &res, Batch &batch, const RunLimits &limits) const override;
   std::string listing() const override;

   const Program &program() const { return prog_; }
   const ShaderInfo &info() const { return info_; }

 private:
   Program prog_;
   ShaderInfo info_;
   EmuOptions options_;
   std::shared_ptr<const emu_internal::Decoded> decoded_;
};

} // namespace sbcc::r600
