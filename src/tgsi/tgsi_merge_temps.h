/*
 * Temporary merging: TEMPs whose live ranges (tgsi_lifetimes.h) are disjoint
 * share one index, so shaders declaring thousands of short-lived
 * temporaries fit the hardware register file.  Reused temporaries are first
 * split into their independent values; then greedy interval colouring in
 * order of range start, per channel, with temporaries of up to three
 * channels packed into free channels of other registers; ARRAY declarations
 * are kept intact and renumbered after the merged temporaries.  The rewritten shader computes
 * exactly what the original did, bit for bit (see docs/tgsi-lifetimes.md).
 *
 * May use: src/common, src/tgsi.
 */
#pragma once

#include "common/debug_options.h"
#include "common/diag.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::tgsi {

struct MergeOptions {
   /* Also move temporaries that use a single channel into free channels of
    * other registers (rewriting write masks and swizzles). */
   bool pack_channels = true;
   /* First give every value written by an unconditional full write its own
    * temporary, so reused temporaries do not keep one long range. */
   bool split_webs = true;
};

struct MergeStats {
   int temps_before = 0; /* declared (or referenced) TEMP registers */
   int temps_after = 0;
   int channels_moved = 0; /* temporaries given other channels */
   bool webs_split = false; /* the result came from the shader with split webs */
   bool changed = false;
   /* Why nothing was merged, when that is not for lack of opportunity:
    * "indirect" (TEMP addressed indirectly outside an ARRAY), "" otherwise. */
   const char *skipped = "";
};

/* Renumbers the shader's TEMPs in place.  Returns false, leaving the shader
 * untouched, when the lifetime analysis rejects it (errors go to diags when
 * given).  A shader that cannot be merged safely (indirect TEMP access
 * without ARRAY ids) is left as is and true is returned. */
bool merge_temps(Shader &shader, Diagnostics *diags = nullptr, MergeStats *stats = nullptr,
                 const MergeOptions &options = {});

/* The switch the backends call: merges only when options.merge_temps is on
 * (SBCC_DEBUG=nomerge turns it off). */
bool merge_temps(Shader &shader, const DebugOptions &options, Diagnostics *diags = nullptr,
                 MergeStats *stats = nullptr);

} // namespace sbcc::tgsi
