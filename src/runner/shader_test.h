/*
 * piglit-style .shader_test files: the parsed form and its parser.
 *
 * Supported subset (anything else is an error with file:line:column):
 *
 *   [require]                 GL >= 2.1, GLSL >= 1.10, GL_ARB_* lines and
 *                             "GL_MAX_... >= N" limits are recorded; the
 *                             executor reports SKIP for ones it can't meet.
 *   [vertex program]          ARB_vertex_program text (!!ARBvp1.0)
 *   [fragment program]        ARB_fragment_program text (!!ARBfp1.0)
 *   [vertex shader tgsi]      TGSI text (tgsi_dump format)
 *   [fragment shader tgsi]
 *   [test]                    commands, one per line; '#' starts a comment line:
 *     clear color r g b a | clear
 *     parameter env_vp|env_fp|local_vp|local_fp N (x, y, z, w)
 *     uniform float|vec2|vec3|vec4|int|ivec2..4|uint|uvec2..4 N v...
 *                             TGSI CONST[0][N] of both stages (ints as raw bits)
 *     constant [BUF] N (x, y, z, w)          TGSI CONST[BUF][N], floats
 *     texture rgbw UNIT (w, h)
 *     texture checkerboard UNIT LEVEL (w, h) (r, g, b, a) (r, g, b, a)
 *     texture miptree UNIT
 *     texture shadow2D|shadowRect UNIT (w, h) | texture shadow1D UNIT (w)
 *     texparameter 1D|2D|3D|Rect|Cube compare_func|depth_mode|min|mag|wrap_s|wrap_t|wrap_r VALUE
 *     draw rect [ortho] x y w h             NDC (with 'ortho': window pixels)
 *     draw rect tex x y w h tx ty tw th     also sets texcoord 0 per corner
 *     ortho | ortho left right bottom top
 *     color r g b a
 *     texcoord N (x, y, z, w)
 *     probe rgba x y r g b a | probe rgb x y r g b
 *     probe rect rgba (x, y, w, h) (r, g, b, a) | probe rect rgb (x, y, w, h) (r, g, b)
 *     relative probe rgba (x, y) (r, g, b, a) | relative probe rgb (x, y) (r, g, b)
 *     probe all rgba r g b a | probe all rgb r g b
 *   Numbers may be separated by spaces and/or commas, optionally in parentheses.
 *
 * Vertex input layout for TGSI vertex shaders: IN[0] = position (x, y, 0, 1),
 * IN[1] = the current `color`, IN[2+n] = `texcoord n` (n = 0..7).
 *
 * May use: common.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"

namespace sbcc::runner {

enum class StageKind : uint8_t { ArbVertex, ArbFragment, TgsiVertex, TgsiFragment };

struct StageSource {
   StageKind kind = StageKind::TgsiFragment;
   std::string text;
   uint32_t first_line = 0; /* file line of the text's first line */
};

struct Requirement {
   std::string text; /* the whole line, trimmed */
   SourceLoc loc;
};

enum class CmdKind : uint8_t {
   Clear,
   ClearColor,
   Parameter,
   Uniform,
   Texture,
   TexParameter,
   DrawRect,
   Ortho,
   Color,
   TexCoord,
   Probe,
};

enum class ParamSpace : uint8_t { EnvVp, EnvFp, LocalVp, LocalFp };
enum class TextureKind : uint8_t { Rgbw, Checkerboard, Miptree, Shadow1D, Shadow2D, ShadowRect };
enum class ProbeKind : uint8_t { Pixel, Relative, Rect, All };

struct Command {
   CmdKind kind = CmdKind::Clear;
   SourceLoc loc;

   /* clear color, color, texcoord, parameter, uniform (floats), probe colors,
    * the first checkerboard color. */
   std::array<float, 4> v = {0, 0, 0, 0};
   /* uniform: raw words (floats stored as their bits); count = components. */
   std::array<uint32_t, 4> raw = {0, 0, 0, 0};
   unsigned count = 4;
   int index = 0;  /* parameter/uniform index, texcoord set, texture unit */
   int buffer = 0; /* uniform constant buffer */
   ParamSpace space = ParamSpace::EnvVp;

   TextureKind tex = TextureKind::Rgbw;
   int level = 0;
   int width = 0, height = 0;
   std::array<float, 4> v2 = {0, 0, 0, 0}; /* second checkerboard color */

   std::string tex_target; /* texparameter */
   std::string pname, pvalue;

   /* draw rect x y w h / ortho l r b t / probe rect x y w h; probe point in [0..1]. */
   std::array<float, 4> rect = {0, 0, 0, 0};
   bool draw_ortho = false; /* draw rect ortho */
   bool draw_tex = false;   /* draw rect tex: tex_rect holds tx ty tw th */
   std::array<float, 4> tex_rect = {0, 0, 0, 0};
   bool ortho_default = false; /* plain `ortho` */

   ProbeKind probe = ProbeKind::Pixel;
   bool rgba = true; /* probe rgba vs rgb */
   float px = 0, py = 0;
};

struct ShaderTest {
   std::string file;
   std::vector<Requirement> requirements;
   std::vector<StageSource> stages;
   std::vector<Command> commands;

   const StageSource *stage(StageKind k) const;
};

std::optional<ShaderTest> parse_shader_test(std::string_view text, std::string_view file,
                                            Diagnostics &diags);

/* Canonical one-line form of a command, for tests and -v traces. */
std::string command_str(const Command &cmd);

} // namespace sbcc::runner
