/*
 * ARB front-end lowering: for each construct, the exact TGSI (print_tgsi)
 * and the CONST / IN / OUT bindings the runner relies on.  Every produced
 * shader must also survive a print -> parse_tgsi -> print round trip.
 */
#include <gtest/gtest.h>

#include "arb/arb_test_util.h"

namespace sbcc::arb::test {
namespace {

struct LowerCase {
   const char *name;
   const char *program;
   const char *expected;
};

const LowerCase kLowerCases[] = {
   {"VertexMinimal",
    R"ARB(!!ARBvp1.0
MOV result.position, vertex.position;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
  0: MOV OUT[0], IN[0]
  1: END
IN[0] = vertex.position
OUT[0] = result.position
)ARB"},
   {"VertexInputsSortedBySlot",
    R"ARB(!!ARBvp1.0
TEMP t;
ADD t, vertex.attrib[6], vertex.texcoord[3];
ADD t, t, vertex.texcoord;
ADD t, t, vertex.fogcoord;
ADD t, t, vertex.color.secondary;
ADD t, t, vertex.color;
ADD t, t, vertex.normal;
ADD t, t, vertex.weight;
ADD t, t, vertex.color.primary;
MOV result.position, t;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL IN[1]
DCL IN[2]
DCL IN[3]
DCL IN[4]
DCL IN[5]
DCL IN[6]
DCL IN[7]
DCL OUT[0], POSITION
DCL TEMP[0]
  0: ADD TEMP[0], IN[7], IN[6]
  1: ADD TEMP[0], TEMP[0], IN[5]
  2: ADD TEMP[0], TEMP[0], IN[4]
  3: ADD TEMP[0], TEMP[0], IN[3]
  4: ADD TEMP[0], TEMP[0], IN[2]
  5: ADD TEMP[0], TEMP[0], IN[1]
  6: ADD TEMP[0], TEMP[0], IN[0]
  7: ADD TEMP[0], TEMP[0], IN[2]
  8: MOV OUT[0], TEMP[0]
  9: END
IN[0] = vertex.weight
IN[1] = vertex.normal
IN[2] = vertex.color.primary
IN[3] = vertex.color.secondary
IN[4] = vertex.fogcoord
IN[5] = vertex.texcoord[0]
IN[6] = vertex.texcoord[3]
IN[7] = vertex.attrib[6]
OUT[0] = result.position
)ARB"},
   {"VertexOutputs",
    R"ARB(!!ARBvp1.0
OUTPUT bc2 = result.color.back.secondary;
MOV result.texcoord[5], vertex.position;
MOV result.pointsize.x, vertex.position;
MOV result.fogcoord.x, vertex.position;
MOV bc2, vertex.position;
MOV result.color.back, vertex.position;
MOV result.color.secondary, vertex.position;
MOV result.color.front.primary, vertex.position;
MOV result.texcoord, vertex.position;
MOV result.position, vertex.position;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], COLOR
DCL OUT[2], COLOR[1]
DCL OUT[3], FOG
DCL OUT[4], GENERIC[0]
DCL OUT[5], GENERIC[5]
DCL OUT[6], PSIZE
DCL OUT[7], BCOLOR
DCL OUT[8], BCOLOR[1]
  0: MOV OUT[5], IN[0]
  1: MOV OUT[6].x, IN[0]
  2: MOV OUT[3].x, IN[0]
  3: MOV OUT[8], IN[0]
  4: MOV OUT[7], IN[0]
  5: MOV OUT[2], IN[0]
  6: MOV OUT[1], IN[0]
  7: MOV OUT[4], IN[0]
  8: MOV OUT[0], IN[0]
  9: END
IN[0] = vertex.position
OUT[0] = result.position
OUT[1] = result.color.front.primary
OUT[2] = result.color.front.secondary
OUT[3] = result.fogcoord
OUT[4] = result.texcoord[0]
OUT[5] = result.texcoord[5]
OUT[6] = result.pointsize
OUT[7] = result.color.back.primary
OUT[8] = result.color.back.secondary
)ARB"},
   {"ParamSingleBindingsShareSlots",
    R"ARB(!!ARBvp1.0
PARAM e = program.env[3];
PARAM l = program.local[7];
PARAM v = {1, 2, 3, 4};
PARAM s = -0.5;
PARAM p = {2};
PARAM e2 = program.env[3];
TEMP t;
ADD t, e, l;
MAD t, v, s, p;
ADD t, t, e2;
ADD t, t, program.env[3];
ADD t, t, {1, 2, 3, 4};
MUL result.position, t, 0.25;
END
)ARB",
    R"ARB(VERT
DCL OUT[0], POSITION
DCL CONST[0..5]
DCL TEMP[0]
  0: ADD TEMP[0], CONST[0], CONST[1]
  1: MAD TEMP[0], CONST[2], CONST[3], CONST[4]
  2: ADD TEMP[0], TEMP[0], CONST[0]
  3: ADD TEMP[0], TEMP[0], CONST[0]
  4: ADD TEMP[0], TEMP[0], CONST[2]
  5: MUL OUT[0], TEMP[0], CONST[5]
  6: END
CONST[0] = program.env[3]
CONST[1] = program.local[7]
CONST[2] = {1, 2, 3, 4}
CONST[3] = {-0.5, -0.5, -0.5, -0.5}
CONST[4] = {2, 0, 0, 1}
CONST[5] = {0.25, 0.25, 0.25, 0.25}
OUT[0] = result.position
)ARB"},
   {"ParamArrays",
    R"ARB(!!ARBvp1.0
PARAM a[4] = { program.env[0..2], program.local[5] };
PARAM b[] = { {1, 2, 3}, 7, state.fog.color };
TEMP t;
ADD t, a[0], a[3];
ADD t, t, b[1];
MUL result.position, t, b[2];
END
)ARB",
    R"ARB(VERT
DCL OUT[0], POSITION
DCL CONST[0..6]
DCL TEMP[0]
  0: ADD TEMP[0], CONST[0], CONST[3]
  1: ADD TEMP[0], TEMP[0], CONST[5]
  2: MUL OUT[0], TEMP[0], CONST[6]
  3: END
CONST[0] = program.env[0]
CONST[1] = program.env[1]
CONST[2] = program.env[2]
CONST[3] = program.local[5]
CONST[4] = {1, 2, 3, 1}
CONST[5] = {7, 7, 7, 7}
CONST[6] = state.fog.color
OUT[0] = result.position
)ARB"},
   {"StateMatrices",
    R"ARB(!!ARBvp1.0
PARAM mvp[] = { state.matrix.mvp };
PARAM mv1[4] = { state.matrix.modelview[1].inverse };
PARAM rows[3] = { state.matrix.projection.transpose.row[1..2], state.matrix.texture.invtrans.row[3] };
PARAM one = state.matrix.program[2].row[0];
PARAM mix[2] = { state.matrix.modelview.row[0], state.matrix.palette[3].row[1] };
TEMP t;
ADD t, mvp[0], mv1[3];
ADD t, t, rows[2];
ADD t, t, one;
ADD t, t, mix[1];
ADD result.position, t, state.matrix.texture[2].transpose.row[3];
END
)ARB",
    R"ARB(VERT
DCL OUT[0], POSITION
DCL CONST[0..14]
DCL TEMP[0]
  0: ADD TEMP[0], CONST[0], CONST[7]
  1: ADD TEMP[0], TEMP[0], CONST[10]
  2: ADD TEMP[0], TEMP[0], CONST[11]
  3: ADD TEMP[0], TEMP[0], CONST[13]
  4: ADD OUT[0], TEMP[0], CONST[14]
  5: END
CONST[0] = state.matrix.mvp.row[0]
CONST[1] = state.matrix.mvp.row[1]
CONST[2] = state.matrix.mvp.row[2]
CONST[3] = state.matrix.mvp.row[3]
CONST[4] = state.matrix.modelview[1].inverse.row[0]
CONST[5] = state.matrix.modelview[1].inverse.row[1]
CONST[6] = state.matrix.modelview[1].inverse.row[2]
CONST[7] = state.matrix.modelview[1].inverse.row[3]
CONST[8] = state.matrix.projection.transpose.row[1]
CONST[9] = state.matrix.projection.transpose.row[2]
CONST[10] = state.matrix.texture[0].invtrans.row[3]
CONST[11] = state.matrix.program[2].row[0]
CONST[12] = state.matrix.modelview[0].row[0]
CONST[13] = state.matrix.palette[3].row[1]
CONST[14] = state.matrix.texture[2].transpose.row[3]
OUT[0] = result.position
)ARB"},
   {"StateVectorsVertex",
    R"ARB(!!ARBvp1.0
PARAM s[] = { state.material.ambient, state.material.back.shininess,
              state.light[1].spot.direction, state.light[0].half,
              state.light[7].attenuation, state.lightmodel.ambient,
              state.lightmodel.scenecolor, state.lightmodel.back.scenecolor,
              state.lightprod[2].diffuse, state.lightprod[0].back.specular,
              state.texgen.eye.s, state.texgen[3].object.q, state.fog.params,
              state.clip[5].plane, state.point.size, state.point.attenuation,
              state.depth.range, state.material.front.emission };
MOV result.position, s[17];
END
)ARB",
    R"ARB(VERT
DCL OUT[0], POSITION
DCL CONST[0..17]
  0: MOV OUT[0], CONST[17]
  1: END
CONST[0] = state.material.front.ambient
CONST[1] = state.material.back.shininess
CONST[2] = state.light[1].spot.direction
CONST[3] = state.light[0].half
CONST[4] = state.light[7].attenuation
CONST[5] = state.lightmodel.ambient
CONST[6] = state.lightmodel.front.scenecolor
CONST[7] = state.lightmodel.back.scenecolor
CONST[8] = state.lightprod[2].front.diffuse
CONST[9] = state.lightprod[0].back.specular
CONST[10] = state.texgen[0].eye.s
CONST[11] = state.texgen[3].object.q
CONST[12] = state.fog.params
CONST[13] = state.clip[5].plane
CONST[14] = state.point.size
CONST[15] = state.point.attenuation
CONST[16] = state.depth.range
CONST[17] = state.material.front.emission
OUT[0] = result.position
)ARB"},
   {"StateVectorsFragment",
    R"ARB(!!ARBfp1.0
TEMP t;
ADD t, state.texenv.color, state.texenv[2].color;
ADD t, t, state.depth.range;
MOV result.color, t;
END
)ARB",
    R"ARB(FRAG
DCL OUT[0], COLOR
DCL CONST[0..2]
DCL TEMP[0]
  0: ADD TEMP[0], CONST[0], CONST[1]
  1: ADD TEMP[0], TEMP[0], CONST[2]
  2: MOV OUT[0], TEMP[0]
  3: END
CONST[0] = state.texenv[0].color
CONST[1] = state.texenv[2].color
CONST[2] = state.depth.range
OUT[0] = result.color[0]
)ARB"},
   {"TempsAndAlias",
    R"ARB(!!ARBvp1.0
TEMP a, b;
TEMP c;
ALIAS d = c;
ALIAS pos = a;
MOV a, vertex.position;
MOV b, a;
MOV d, b;
MOV result.position, c;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL TEMP[0..2]
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], TEMP[0]
  2: MOV TEMP[2], TEMP[1]
  3: MOV OUT[0], TEMP[2]
  4: END
IN[0] = vertex.position
OUT[0] = result.position
)ARB"},
   {"RelativeAddressing",
    R"ARB(!!ARBvp1.0
PARAM k = {0, 0, 0, 1};
PARAM c[8] = { program.env[0..7] };
ADDRESS A0;
TEMP t;
ARL A0.x, vertex.attrib[1].y;
MOV t, c[A0.x];
ADD t, t, c[A0.x + 3];
ADD t, t, -c[A0.x - 1].wzyx;
ADD result.position, t, c[7];
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL CONST[0..8]
DCL TEMP[0]
DCL ADDR[0]
  0: ARL ADDR[0].x, IN[0].yyyy
  1: MOV TEMP[0], CONST[ADDR[0].x+1]
  2: ADD TEMP[0], TEMP[0], CONST[ADDR[0].x+4]
  3: ADD TEMP[0], TEMP[0], -CONST[ADDR[0].x].wzyx
  4: ADD OUT[0], TEMP[0], CONST[8]
  5: END
CONST[0] = {0, 0, 0, 1}
CONST[1] = program.env[0]
CONST[2] = program.env[1]
CONST[3] = program.env[2]
CONST[4] = program.env[3]
CONST[5] = program.env[4]
CONST[6] = program.env[5]
CONST[7] = program.env[6]
CONST[8] = program.env[7]
IN[0] = vertex.attrib[1]
OUT[0] = result.position
)ARB"},
   {"VertexDirectOpcodes",
    R"ARB(!!ARBvp1.0
TEMP t;
ADD t, vertex.position, vertex.normal;
DP3 t.x, t, t;
DP4 t.y, t, t;
DPH t.z, t, t;
DST t, t, t;
EX2 t, t.x;
EXP t, t.y;
FLR t, t;
FRC t, t;
LG2 t, t.z;
LIT t, t;
LOG t, t.w;
MAD t, t, t, t;
MAX t, t, t;
MIN t, t, t;
MUL t, t, t;
POW t, t.x, t.y;
RCP t, t.x;
RSQ t, t.y;
SGE t, t, t;
SLT t, t, t;
MOV result.position, t;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL TEMP[0]
  0: ADD TEMP[0], IN[0], IN[1]
  1: DP3 TEMP[0].x, TEMP[0], TEMP[0]
  2: DP4 TEMP[0].y, TEMP[0], TEMP[0]
  3: DPH TEMP[0].z, TEMP[0], TEMP[0]
  4: DST TEMP[0], TEMP[0], TEMP[0]
  5: EX2 TEMP[0], TEMP[0].xxxx
  6: EXP TEMP[0], TEMP[0].yyyy
  7: FLR TEMP[0], TEMP[0]
  8: FRC TEMP[0], TEMP[0]
  9: LG2 TEMP[0], TEMP[0].zzzz
 10: LIT TEMP[0], TEMP[0]
 11: LOG TEMP[0], TEMP[0].wwww
 12: MAD TEMP[0], TEMP[0], TEMP[0], TEMP[0]
 13: MAX TEMP[0], TEMP[0], TEMP[0]
 14: MIN TEMP[0], TEMP[0], TEMP[0]
 15: MUL TEMP[0], TEMP[0], TEMP[0]
 16: POW TEMP[0], TEMP[0].xxxx, TEMP[0].yyyy
 17: RCP TEMP[0], TEMP[0].xxxx
 18: RSQ TEMP[0], TEMP[0].yyyy
 19: SGE TEMP[0], TEMP[0], TEMP[0]
 20: SLT TEMP[0], TEMP[0], TEMP[0]
 21: MOV OUT[0], TEMP[0]
 22: END
IN[0] = vertex.position
IN[1] = vertex.normal
OUT[0] = result.position
)ARB"},
   {"SubAndAbs",
    R"ARB(!!ARBvp1.0
TEMP t, u;
SUB t, vertex.position, vertex.normal;
SUB u, t, -t.zyxw;
ABS t, -u;
ABS u.xy, t.yyyy;
MOV result.position, u;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL TEMP[0..1]
  0: ADD TEMP[0], IN[0], -IN[1]
  1: ADD TEMP[1], TEMP[0], TEMP[0].zyxw
  2: MOV TEMP[0], |TEMP[1]|
  3: MOV TEMP[1].xy, |TEMP[0].yyyy|
  4: MOV OUT[0], TEMP[1]
  5: END
IN[0] = vertex.position
IN[1] = vertex.normal
OUT[0] = result.position
)ARB"},
   {"CrossProduct",
    R"ARB(!!ARBvp1.0
TEMP a, b;
MOV a, vertex.position;
MOV b, vertex.normal;
XPD a, a, -b.wzyx;
XPD b.xz, a, b;
XPD b.w, a, b;
MOV result.position, a;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL TEMP[0..2]
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], IN[1]
  2: MUL TEMP[2].xyz, TEMP[0].zxyw, -TEMP[1].zywx
  3: MAD TEMP[0].xyz, TEMP[0].yzxw, -TEMP[1].ywzx, -TEMP[2]
  4: MUL TEMP[2].xz, TEMP[0].zxyw, TEMP[1].yzxw
  5: MAD TEMP[1].xz, TEMP[0].yzxw, TEMP[1].zxyw, -TEMP[2]
  6: MOV OUT[0], TEMP[0]
  7: END
IN[0] = vertex.position
IN[1] = vertex.normal
OUT[0] = result.position
)ARB"},
   {"ExtendedSwizzle",
    R"ARB(!!ARBvp1.0
TEMP t, u;
MOV t, vertex.position;
SWZ u, t, w, z, y, x;
SWZ u, t, -x, -y, -z, -w;
SWZ u.xyz, t, 0, -1, x, -w;
SWZ t, t, x, -y, 1, -0;
SWZ u, -t, x, -y, 0, 1;
MOV result.position, u;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL TEMP[0..2]
IMM[0] FLT32 {    0.0000,     1.0000,    -1.0000,    -0.0000}
  0: MOV TEMP[0], IN[0]
  1: MOV TEMP[1], TEMP[0].wzyx
  2: MOV TEMP[1], -TEMP[0]
  3: MOV TEMP[1].z, TEMP[0].xyxw
  4: MOV TEMP[1].xy, IMM[0].xzxx
  5: MOV TEMP[2].x, TEMP[0]
  6: MOV TEMP[2].y, -TEMP[0]
  7: MOV TEMP[2].zw, IMM[0].xxyw
  8: MOV TEMP[0], TEMP[2]
  9: MOV TEMP[1].y, TEMP[0]
 10: MOV TEMP[1].x, -TEMP[0]
 11: MOV TEMP[1].zw, IMM[0].xxxy
 12: MOV OUT[0], TEMP[1]
 13: END
IN[0] = vertex.position
OUT[0] = result.position
)ARB"},
   {"FragmentOpcodesAndSaturate",
    R"ARB(!!ARBfp1.0
TEMP t, u;
MOV t, fragment.texcoord[0];
CMP t, t, -t, fragment.color;
COS u.x, t.y;
SIN u.y, t.z;
LRP_SAT u, t, u, t;
MAD_SAT t.rgb, u, t, u.a;
SCS u.xy, u.x;
SCS_SAT t, u.y;
SCS u.z, u.w;
KIL -t;
KIL u.xyzw;
SWZ_SAT t, u, r, 1, -b, a;
MOV result.color, t;
END
)ARB",
    R"ARB(FRAG
DCL IN[0], COLOR, COLOR
DCL IN[1], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL TEMP[0..1]
IMM[0] FLT32 {    0.0000,     1.0000,    -1.0000,    -0.0000}
  0: MOV TEMP[0], IN[1]
  1: CMP TEMP[0], TEMP[0], -TEMP[0], IN[0]
  2: COS TEMP[1].x, TEMP[0].yyyy
  3: SIN TEMP[1].y, TEMP[0].zzzz
  4: LRP_SAT TEMP[1], TEMP[0], TEMP[1], TEMP[0]
  5: MAD_SAT TEMP[0].xyz, TEMP[1], TEMP[0], TEMP[1].wwww
  6: SIN TEMP[1].y, TEMP[1].xxxx
  7: COS TEMP[1].x, TEMP[1].xxxx
  8: COS_SAT TEMP[0].x, TEMP[1].yyyy
  9: SIN_SAT TEMP[0].y, TEMP[1].yyyy
 10: KILL_IF -TEMP[0]
 11: KILL_IF TEMP[1]
 12: MOV_SAT TEMP[0].xw, TEMP[1]
 13: MOV_SAT TEMP[0].z, -TEMP[1]
 14: MOV_SAT TEMP[0].y, IMM[0].xyxx
 15: MOV OUT[0], TEMP[0]
 16: END
IN[0] = fragment.color.primary
IN[1] = fragment.texcoord[0]
OUT[0] = result.color[0]
)ARB"},
   {"Textures",
    R"ARB(!!ARBfp1.0
OPTION ARB_fragment_program_shadow;
TEMP t;
TEX t, fragment.texcoord[0], texture[3], 2D;
TXP t, t, texture, 1D;
TXB t, t, texture[1], 3D;
TEX t, t, texture[2], CUBE;
TEX t, t, texture[4], RECT;
TEX t, t, texture[5], SHADOW2D;
TEX t, t, texture[3], 2D;
MOV result.color, t;
END
)ARB",
    R"ARB(FRAG
DCL IN[0], GENERIC[0], PERSPECTIVE
DCL OUT[0], COLOR
DCL SAMP[0]
DCL SAMP[1]
DCL SAMP[2]
DCL SAMP[3]
DCL SAMP[4]
DCL SAMP[5]
DCL SVIEW[0], 1D, FLOAT
DCL SVIEW[1], 3D, FLOAT
DCL SVIEW[2], CUBE, FLOAT
DCL SVIEW[3], 2D, FLOAT
DCL SVIEW[4], RECT, FLOAT
DCL SVIEW[5], SHADOW2D, FLOAT
DCL TEMP[0]
  0: TEX TEMP[0], IN[0], SAMP[3], 2D
  1: TXP TEMP[0], TEMP[0], SAMP[0], 1D
  2: TXB TEMP[0], TEMP[0], SAMP[1], 3D
  3: TEX TEMP[0], TEMP[0], SAMP[2], CUBE
  4: TEX TEMP[0], TEMP[0], SAMP[4], RECT
  5: TEX TEMP[0], TEMP[0], SAMP[5], SHADOW2D
  6: TEX TEMP[0], TEMP[0], SAMP[3], 2D
  7: MOV OUT[0], TEMP[0]
  8: END
IN[0] = fragment.texcoord[0]
OUT[0] = result.color[0]
)ARB"},
   {"PositionInvariant",
    R"ARB(!!ARBvp1.0
OPTION ARB_position_invariant;
PARAM c = program.env[0];
MUL result.color, vertex.color, c;
END
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], COLOR
DCL CONST[0..4]
  0: DP4 OUT[0].x, CONST[0], IN[0]
  1: DP4 OUT[0].y, CONST[1], IN[0]
  2: DP4 OUT[0].z, CONST[2], IN[0]
  3: DP4 OUT[0].w, CONST[3], IN[0]
  4: MUL OUT[1], IN[1], CONST[4]
  5: END
CONST[0] = state.matrix.mvp.row[0]
CONST[1] = state.matrix.mvp.row[1]
CONST[2] = state.matrix.mvp.row[2]
CONST[3] = state.matrix.mvp.row[3]
CONST[4] = program.env[0]
IN[0] = vertex.position
IN[1] = vertex.color.primary
OUT[0] = result.position
OUT[1] = result.color.front.primary
)ARB"},
   {"FogLinear",
    R"ARB(!!ARBfp1.0
OPTION ARB_fog_linear;
OUTPUT out = result.color;
TEMP t;
MOV t, fragment.color;
MUL out.rgb, t, 0.5;
MOV out.a, t;
END
)ARB",
    R"ARB(FRAG
DCL IN[0], COLOR, COLOR
DCL IN[1], FOG, PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0..2]
DCL TEMP[0..2]
  0: MOV TEMP[0], IN[0]
  1: MUL TEMP[1].xyz, TEMP[0], CONST[0]
  2: MOV TEMP[1].w, TEMP[0]
  3: ADD TEMP[2].x, CONST[1].zzzz, -IN[1].xxxx
  4: MUL_SAT TEMP[2].x, TEMP[2].xxxx, CONST[1].wwww
  5: LRP OUT[0].xyz, TEMP[2].xxxx, TEMP[1], CONST[2]
  6: MOV OUT[0].w, TEMP[1]
  7: END
CONST[0] = {0.5, 0.5, 0.5, 0.5}
CONST[1] = state.fog.params
CONST[2] = state.fog.color
IN[0] = fragment.color.primary
IN[1] = fragment.fogcoord
OUT[0] = result.color[0]
)ARB"},
   {"FogExp",
    R"ARB(!!ARBfp1.0
OPTION ARB_fog_exp;
MOV result.color, fragment.color;
END
)ARB",
    R"ARB(FRAG
DCL IN[0], COLOR, COLOR
DCL IN[1], FOG, PERSPECTIVE
DCL OUT[0], COLOR
DCL CONST[0..1]
DCL TEMP[0..1]
IMM[0] FLT32 {1.44269502,     0.0000,     0.0000,     0.0000}
  0: MOV TEMP[0], IN[0]
  1: MUL TEMP[1].x, CONST[0].xxxx, IN[1].xxxx
  2: MUL TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx
  3: EX2_SAT TEMP[1].x, -TEMP[1].xxxx
  4: LRP OUT[0].xyz, TEMP[1].xxxx, TEMP[0], CONST[1]
  5: MOV OUT[0].w, TEMP[0]
  6: END
CONST[0] = state.fog.params
CONST[1] = state.fog.color
IN[0] = fragment.color.primary
IN[1] = fragment.fogcoord
OUT[0] = result.color[0]
)ARB"},
   {"FogExp2WithoutColorWrite",
    R"ARB(!!ARBfp1.0
OPTION ARB_fog_exp2;
OPTION ARB_precision_hint_fastest;
MOV result.depth.z, fragment.position.z;
END
)ARB",
    R"ARB(FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER
DCL IN[0], POSITION, LINEAR
DCL OUT[0], POSITION
  0: MOV OUT[0].z, IN[0].zzzz
  1: END
IN[0] = fragment.position
OUT[0] = result.depth
)ARB"},
   {"FragmentInputs",
    R"ARB(!!ARBfp1.0
ATTRIB tc = fragment.texcoord[2];
TEMP t;
ADD t, tc, fragment.facing;
ADD t, t, fragment.fogcoord.x;
ADD t, t, fragment.color.secondary;
ADD t, t, fragment.position;
ADD t, t, fragment.color.primary;
ADD result.color, t, fragment.texcoord;
END
)ARB",
    R"ARB(FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER
DCL IN[0], POSITION, LINEAR
DCL IN[1], COLOR, COLOR
DCL IN[2], COLOR[1], COLOR
DCL IN[3], FOG, PERSPECTIVE
DCL IN[4], GENERIC[0], PERSPECTIVE
DCL IN[5], GENERIC[2], PERSPECTIVE
DCL IN[6], FACE, CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0]
  0: ADD TEMP[0], IN[5], IN[6]
  1: ADD TEMP[0], TEMP[0], IN[3].xxxx
  2: ADD TEMP[0], TEMP[0], IN[2]
  3: ADD TEMP[0], TEMP[0], IN[0]
  4: ADD TEMP[0], TEMP[0], IN[1]
  5: ADD OUT[0], TEMP[0], IN[4]
  6: END
IN[0] = fragment.position
IN[1] = fragment.color.primary
IN[2] = fragment.color.secondary
IN[3] = fragment.fogcoord
IN[4] = fragment.texcoord[0]
IN[5] = fragment.texcoord[2]
IN[6] = fragment.facing
OUT[0] = result.color[0]
)ARB"},
   {"FragmentOutputs",
    R"ARB(!!ARBfp1.0
OPTION ARB_draw_buffers;
MOV result.depth.z, fragment.position.z;
MOV result.color[1], fragment.color;
MOV result.color, fragment.color;
END
)ARB",
    R"ARB(FRAG
PROPERTY FS_COORD_ORIGIN LOWER_LEFT
PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER
DCL IN[0], POSITION, LINEAR
DCL IN[1], COLOR, COLOR
DCL OUT[0], COLOR
DCL OUT[1], COLOR[1]
DCL OUT[2], POSITION
  0: MOV OUT[2].z, IN[0].zzzz
  1: MOV OUT[1], IN[1]
  2: MOV OUT[0], IN[1]
  3: END
IN[0] = fragment.position
IN[1] = fragment.color.primary
OUT[0] = result.color[0]
OUT[1] = result.color[1]
OUT[2] = result.depth
)ARB"},
   {"SwizzlesAndMasks",
    R"ARB(!!ARBfp1.0
TEMP t;
MOV t.xz, fragment.color.wzyx;
MOV t.ga, t.bgra;
RCP t.w, t.a;
POW t.y, t.w, -t.g;
MOV result.color.xyw, -t.yyyy;
END
)ARB",
    R"ARB(FRAG
DCL IN[0], COLOR, COLOR
DCL OUT[0], COLOR
DCL TEMP[0]
  0: MOV TEMP[0].xz, IN[0].wzyx
  1: MOV TEMP[0].yw, TEMP[0].zyxw
  2: RCP TEMP[0].w, TEMP[0].wwww
  3: POW TEMP[0].y, TEMP[0].wwww, -TEMP[0].yyyy
  4: MOV OUT[0].xyw, -TEMP[0].yyyy
  5: END
IN[0] = fragment.color.primary
OUT[0] = result.color[0]
)ARB"},
   {"CommentsAndTrailingText",
    R"ARB(!!ARBvp1.0  # header comment
# a comment line
/* a block
   comment */ MOV result.position, vertex.position; # trailing
END
this text is ignored !@#$
)ARB",
    R"ARB(VERT
DCL IN[0]
DCL OUT[0], POSITION
  0: MOV OUT[0], IN[0]
  1: END
IN[0] = vertex.position
OUT[0] = result.position
)ARB"},
   {"NumberForms",
    R"ARB(!!ARBvp1.0
PARAM a[] = { .5, 1e2, 1.5e-1, 3, {-2.5, +4, 0., 1E+1} };
TEMP t;
ADD t, a[0], a[4];
MAD result.position, t, -1.25, {0.125};
END
)ARB",
    R"ARB(VERT
DCL OUT[0], POSITION
DCL CONST[0..6]
DCL TEMP[0]
  0: ADD TEMP[0], CONST[0], CONST[4]
  1: MAD OUT[0], TEMP[0], -CONST[5], CONST[6]
  2: END
CONST[0] = {0.5, 0.5, 0.5, 0.5}
CONST[1] = {100, 100, 100, 100}
CONST[2] = {0.15, 0.15, 0.15, 0.15}
CONST[3] = {3, 3, 3, 3}
CONST[4] = {-2.5, 4, 0, 10}
CONST[5] = {1.25, 1.25, 1.25, 1.25}
CONST[6] = {0.125, 0, 0, 1}
OUT[0] = result.position
)ARB"},
   {"ScalarConstantOperands",
    R"ARB(!!ARBfp1.0
TEMP t;
RCP t.x, 4;
POW t.y, 2.0, -0.5;
SIN t.z, {3.14, 0, 0, 1}.x;
MOV result.color, t;
END
)ARB",
    R"ARB(FRAG
DCL OUT[0], COLOR
DCL CONST[0..3]
DCL TEMP[0]
  0: RCP TEMP[0].x, CONST[0]
  1: POW TEMP[0].y, CONST[1], -CONST[2]
  2: SIN TEMP[0].z, CONST[3].xxxx
  3: MOV OUT[0], TEMP[0]
  4: END
CONST[0] = {4, 4, 4, 4}
CONST[1] = {2, 2, 2, 2}
CONST[2] = {0.5, 0.5, 0.5, 0.5}
CONST[3] = {3.14, 0, 0, 1}
OUT[0] = result.color[0]
)ARB"},
};

void PrintTo(const LowerCase &c, std::ostream *os) { *os << c.name; }

class ArbLower : public ::testing::TestWithParam<LowerCase> {};

TEST_P(ArbLower, ExactTgsiAndBindings)
{
   EXPECT_EQ(lower(GetParam().program), GetParam().expected);
}

TEST_P(ArbLower, PrintedTgsiReparses)
{
   Diagnostics diags;
   auto p = parse_arb(GetParam().program, "test.arb", diags);
   ASSERT_TRUE(p.has_value()) << diags.str();
   std::string text = tgsi::print_tgsi(p->shader);
   Diagnostics tdiags;
   auto again = tgsi::parse_tgsi(text, "printed.tgsi", tdiags);
   ASSERT_TRUE(again.has_value()) << tdiags.str() << text;
   EXPECT_EQ(tgsi::print_tgsi(*again), text);
}

INSTANTIATE_TEST_SUITE_P(Constructs, ArbLower, ::testing::ValuesIn(kLowerCases),
                         [](const ::testing::TestParamInfo<LowerCase> &info) {
                            return std::string(info.param.name);
                         });

TEST(ArbProgram, OptionsAndKindAreReported)
{
   Diagnostics diags;
   auto vp = parse_arb("!!ARBvp1.0\nOPTION ARB_position_invariant;\nEND\n", "v.arb", diags);
   ASSERT_TRUE(vp.has_value()) << diags.str();
   EXPECT_EQ(vp->kind, ProgramKind::Vertex);
   EXPECT_TRUE(vp->position_invariant);
   EXPECT_EQ(vp->fog, FogOption::None);
   EXPECT_EQ(vp->shader.processor, tgsi::Processor::Vertex);

   auto fp = parse_arb("!!ARBfp1.0\nOPTION ARB_fog_exp2;\nOPTION ARB_precision_hint_fastest;\n"
                       "OPTION ARB_fragment_program_shadow;\nEND\n",
                       "f.arb", diags);
   ASSERT_TRUE(fp.has_value()) << diags.str();
   EXPECT_EQ(fp->kind, ProgramKind::Fragment);
   EXPECT_FALSE(fp->position_invariant);
   EXPECT_EQ(fp->fog, FogOption::Exp2);
   EXPECT_TRUE(fp->precision_fastest);
   EXPECT_FALSE(fp->precision_nicest);
   EXPECT_TRUE(fp->fragment_shadow);
   EXPECT_EQ(fp->shader.processor, tgsi::Processor::Fragment);
   EXPECT_EQ(fp->shader.source_name, "f.arb");
   EXPECT_FALSE(diags.has_errors());
}

TEST(ArbProgram, BindingFieldsForTheRunner)
{
   Diagnostics diags;
   auto p = parse_arb("!!ARBvp1.0\n"
                      "PARAM m[] = { state.matrix.modelview[2].invtrans.row[1..2] };\n"
                      "PARAM l = program.local[9];\n"
                      "PARAM k = {1.5, -2, 0.25, 8};\n"
                      "ADD result.texcoord[3], m[1], l;\n"
                      "MUL result.color.back, vertex.attrib[4], k;\n"
                      "END\n",
                      "b.arb", diags);
   ASSERT_TRUE(p.has_value()) << diags.str();
   ASSERT_EQ(p->params.size(), 4u);
   EXPECT_EQ(p->params[0].kind, ParamBinding::Kind::State);
   EXPECT_EQ(p->params[0].state, "state.matrix.modelview[2].invtrans.row[1]");
   EXPECT_EQ(p->params[0].row, 1);
   EXPECT_EQ(p->params[1].row, 2);
   EXPECT_EQ(p->params[1].const_index, 1);
   EXPECT_EQ(p->params[2].kind, ParamBinding::Kind::Local);
   EXPECT_EQ(p->params[2].index, 9);
   EXPECT_EQ(p->params[2].row, -1);
   EXPECT_EQ(p->params[3].kind, ParamBinding::Kind::Literal);
   EXPECT_EQ(p->params[3].value, (std::array<float, 4>{1.5f, -2.0f, 0.25f, 8.0f}));

   ASSERT_EQ(p->inputs.size(), 1u);
   EXPECT_EQ(p->inputs[0].name, "vertex.attrib[4]");
   EXPECT_EQ(p->inputs[0].index, 0);
   EXPECT_EQ(p->inputs[0].semantic, tgsi::Semantic::None);
   ASSERT_EQ(p->outputs.size(), 2u);
   EXPECT_EQ(p->outputs[0].name, "result.texcoord[3]");
   EXPECT_EQ(p->outputs[0].semantic, tgsi::Semantic::Generic);
   EXPECT_EQ(p->outputs[0].semantic_index, 3u);
   EXPECT_EQ(p->outputs[1].name, "result.color.back.primary");
   EXPECT_EQ(p->outputs[1].semantic, tgsi::Semantic::BColor);
   EXPECT_EQ(p->outputs[1].semantic_index, 0u);
}

TEST(ArbProgram, EarlierErrorsInSharedDiagnosticsDoNotFailAParse)
{
   Diagnostics diags;
   EXPECT_FALSE(parse_arb("!!ARBvp1.0\nMOV;\nEND\n", "a.arb", diags).has_value());
   ASSERT_EQ(diags.num_errors(), 1u);
   auto p = parse_arb("!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n", "b.arb",
                      diags);
   EXPECT_TRUE(p.has_value());
   EXPECT_EQ(diags.num_errors(), 1u);
}

} // namespace
} // namespace sbcc::arb::test
