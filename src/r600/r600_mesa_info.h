/*
 * Loader for the shader descriptions in Mesa's r600 debug dumps (the corpus
 * `.txt` files): the `; INFO` block (print_shader_info's
 * `shader->input[0].gpr =1;` lines) and the `bytecode N dw -- N gprs --
 * N nstack` header become a ShaderInfo the emulator can run Mesa's machine
 * code with.
 *
 * Mesa's numbering is translated: enum tgsi_semantic to tgsi::Semantic,
 * TGSI_INTERPOLATE_* and TGSI_INTERPOLATE_LOC_* to sbcc's enums.  What the
 * block leaves implicit is reconstructed the way Mesa's r600 driver assigns
 * it: Evergreen barycentric pair indices (ij_index) from the set of
 * (interpolation, location) pairs used, TGSI register indices by matching
 * each slot's semantic against the TGSI declarations, and export targets
 * from the program's own EXPORT instructions (falling back to Mesa's
 * assignment order when a GPR does not match, e.g. after sb renamed it).
 *
 * May use: common, tgsi, the r600 model.
 */
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/diag.h"
#include "r600/r600_bytecode.h"
#include "r600/r600_shader_info.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::r600 {

/* The text between a line that is exactly `; NAME` and the next such
 * section line (or the end); empty when absent. */
std::string_view mesa_dump_section(std::string_view text, std::string_view name);

/* Mesa's enum tgsi_semantic value -> sbcc's; nullopt for ones sbcc lacks. */
std::optional<tgsi::Semantic> semantic_from_mesa(unsigned mesa_semantic);

struct MesaInfoOptions {
   /* Match EXPORT GPRs against output[i].gpr (true for non-sb code, whose
    * info block GPRs are the final ones). */
   bool match_export_gprs = true;
};

/* Builds the ShaderInfo of one corpus shader.  `info_block` is the `; INFO`
 * section, `bytecode` the `; BYTECODE` section (for the gprs/nstack
 * header), `tgsi` the parsed `; TGSI` section.  Reports malformed lines
 * with file:line and returns nullopt on errors. */
std::optional<ShaderInfo> load_mesa_info(std::string_view info_block, std::string_view bytecode,
                                         const tgsi::Shader &tgsi, const Program &prog,
                                         const MesaInfoOptions &options, Diagnostics &diags,
                                         std::string_view file = {});

} // namespace sbcc::r600
