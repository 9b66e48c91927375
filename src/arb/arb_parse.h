/*
 * ARB_vertex_program / ARB_fragment_program front-end: parses "!!ARBvp1.0"
 * and "!!ARBfp1.0" assembly and lowers it to the TGSI IR.
 *
 * What the produced shader looks like (a test runner relies on this):
 *
 *  - CONST[i]: every constant slot has exactly one ParamBinding in
 *    Program::params (sorted by const_index).  Single-vector bindings used
 *    twice share a slot; PARAM arrays always get a fresh contiguous range so
 *    relative addressing (c[A0.x + 3]) works.  Literal constants written in
 *    the program (PARAM x = {1,2,3,4}, inline 0.5) are CONST slots with a
 *    Literal binding; the immediates the lowering itself needs (SWZ 0/1,
 *    fog) are IMM.
 *  - IN[i]: sorted by a fixed slot order, not by order of use.
 *      vertex:   position, weight, normal, color.primary, color.secondary,
 *                fogcoord, texcoord[0..7], attrib[0..15]  (Mesa's
 *                VERT_ATTRIB order, in which attrib[n] aliases the
 *                conventional attribute n, so using both of such a pair is
 *                an error, as ARB_vertex_program says).  No semantics are
 *                declared.
 *      fragment: position (POSITION, LINEAR; the shader then declares
 *                FS_COORD_ORIGIN LOWER_LEFT and FS_COORD_PIXEL_CENTER
 *                HALF_INTEGER, GL's window convention), color.primary (COLOR[0],
 *                COLOR), color.secondary (COLOR[1], COLOR), fogcoord
 *                (FOG[0], PERSPECTIVE), texcoord[n] (GENERIC[n],
 *                PERSPECTIVE), facing (FACE, CONSTANT).
 *  - OUT[i]: sorted the same way.
 *      vertex:   position (POSITION), color.front.primary (COLOR[0]),
 *                color.front.secondary (COLOR[1]), fogcoord (FOG),
 *                texcoord[n] (GENERIC[n]), pointsize (PSIZE),
 *                color.back.primary (BCOLOR[0]), color.back.secondary
 *                (BCOLOR[1]).
 *      fragment: color[n] (COLOR[n]), depth (POSITION; the value is in .z).
 *  - TEMP[0..n-1]: the program's TEMPs in declaration order, then scratch
 *    temporaries the lowering needed.  ADDRESS registers are ADDR[i].
 *  - Texture units used by TEX/TXP/TXB are SAMP[n] with SVIEW[n].
 *
 * Lowering: SUB -> ADD with a negated operand, ABS -> MOV |x|, KIL ->
 * KILL_IF, XPD -> MUL + MAD through a scratch temporary, SCS -> COS + SIN,
 * SWZ -> MOVs (0/1 components come from an immediate), everything else maps
 * to the TGSI opcode of the same name.  OPTION ARB_position_invariant
 * prepends four DP4s of vertex.position against state.matrix.mvp rows;
 * OPTION ARB_fog_{linear,exp,exp2} redirects result.color to a temporary and
 * appends the fog blend with fragment.fogcoord.x, state.fog.params
 * (density, start, end, 1/(end-start)) and state.fog.color.
 *
 * May use: src/common, src/tgsi.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"
#include "tgsi/tgsi_ir.h"

namespace sbcc::arb {

enum class ProgramKind : uint8_t { Vertex, Fragment };

/* Where one CONST[const_index] vector comes from. */
struct ParamBinding {
   enum class Kind : uint8_t { Env, Local, State, Literal };
   Kind kind = Kind::Literal;
   /* Env/Local: program.env[index] / program.local[index]. */
   int32_t index = 0;
   /* State: one vector, canonically named, e.g. "state.matrix.mvp.row[2]",
    * "state.matrix.modelview[0].invtrans.row[1]", "state.light[0].diffuse",
    * "state.material.front.ambient", "state.lightprod[1].back.specular",
    * "state.texgen[0].eye.s", "state.fog.color", "state.clip[2].plane".
    * Indices that may be omitted in the source (modelview, texture, texgen,
    * texenv) and the default face (front) are always spelled out. */
   std::string state;
   /* State matrices: the row (0..3) named in `state`; -1 otherwise. */
   int32_t row = -1;
   /* Literal: the value. */
   std::array<float, 4> value = {0, 0, 0, 0};
   int32_t const_index = 0;
};

/* One IN or OUT register and the ARB binding it holds. */
struct IoBinding {
   /* Canonical ARB name: "vertex.position", "vertex.attrib[3]",
    * "fragment.texcoord[1]", "result.color.back.secondary", "result.depth". */
   std::string name;
   int32_t index = 0; /* IN[index] or OUT[index] */
   tgsi::Semantic semantic = tgsi::Semantic::None;
   uint32_t semantic_index = 0;
};

enum class FogOption : uint8_t { None, Linear, Exp, Exp2 };

struct Program {
   ProgramKind kind = ProgramKind::Vertex;
   tgsi::Shader shader;
   std::vector<ParamBinding> params;  /* one per CONST slot, by const_index */
   std::vector<IoBinding> inputs;     /* by IN index */
   std::vector<IoBinding> outputs;    /* by OUT index */
   bool position_invariant = false;
   FogOption fog = FogOption::None;
   bool precision_fastest = false;
   bool precision_nicest = false;
   bool fragment_shadow = false; /* OPTION ARB_fragment_program_shadow */
};

/* Parse and lower an ARB program.  On any error returns nullopt and leaves
 * at least one error with file:line:column in diags.  Never crashes, aborts
 * or hangs on any bytes. */
std::optional<Program> parse_arb(std::string_view text, std::string_view file_name,
                                 Diagnostics &diags);

} // namespace sbcc::arb
