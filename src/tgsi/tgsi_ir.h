/*
 * The in-memory TGSI IR: the one input IR every sbcc front-end produces and
 * every backend, the reference interpreter and the lifetime pass consume.
 *
 * It mirrors Mesa's tgsi_full_* tokens closely enough that tgsi_dump text
 * round-trips through it, but is plain data (vectors and structs), so passes
 * can rewrite it in place.  The text parser (tgsi_parse.cpp) and the printer
 * (tgsi_print.cpp) live beside it; ARB programs are lowered to it in src/arb.
 *
 * May use: src/common only.
 */
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"
#include "tgsi/tgsi_opcodes.h"

namespace sbcc::tgsi {

enum class Processor : uint8_t { Vertex, Fragment, Geometry, Compute };

/* Register files, with the names tgsi_dump prints. */
enum class File : uint8_t {
   Null,
   Constant,     /* CONST */
   Input,        /* IN */
   Output,       /* OUT */
   Temporary,    /* TEMP */
   Sampler,      /* SAMP */
   Address,      /* ADDR */
   Immediate,    /* IMM */
   SystemValue,  /* SV */
   SamplerView,  /* SVIEW */
   Count
};

enum class Semantic : uint8_t {
   None,
   Position, Color, BColor, Fog, PSize, Generic, Normal, Face, EdgeFlag,
   PrimId, InstanceId, VertexId, Stencil, ClipDist, ClipVertex, TexCoord,
   PCoord, ViewportIndex, Layer, SampleId, SamplePos, SampleMask,
   InvocationId, VertexIdNoBase, BaseVertex, HelperInvocation,
   BaseInstance, DrawId, Count
};

enum class Interpolate : uint8_t { None, Constant, Linear, Perspective, Color };
enum class InterpLocation : uint8_t { Center, Centroid, Sample };

enum class TextureTarget : uint8_t {
   Unknown, Buffer, Tex1D, Tex2D, Tex3D, Cube, Rect,
   Shadow1D, Shadow2D, ShadowRect, Array1D, Array2D,
   ShadowArray1D, ShadowArray2D, ShadowCube, Msaa2D, MsaaArray2D,
   CubeArray, ShadowCubeArray, Count
};

enum class ReturnType : uint8_t { Unorm, Snorm, Sint, Uint, Float };

enum class ImmType : uint8_t { Float32, Uint32, Int32 };

enum class Property : uint8_t {
   FsCoordOrigin,          /* value: 0 UPPER_LEFT, 1 LOWER_LEFT */
   FsCoordPixelCenter,     /* value: 0 HALF_INTEGER, 1 INTEGER */
   FsColor0WritesAllCbufs,
   FsDepthLayout,
   FsEarlyDepthStencil,
   NextShader,             /* value: Processor as tgsi_dump names it */
   NumClipdistEnabled,
   NumCulldistEnabled,
   VsWindowSpacePosition,
   Other,                  /* kept by name only, for round-tripping */
   Count
};

enum Swz : uint8_t { SWZ_X = 0, SWZ_Y = 1, SWZ_Z = 2, SWZ_W = 3 };
enum WriteMask : uint8_t { WM_X = 1, WM_Y = 2, WM_Z = 4, WM_W = 8, WM_XYZW = 15 };

/* ADDR[0].x or TEMP[1].y used as an index: file, index and one channel. */
struct IndirectRef {
   File file = File::Address;
   int32_t index = 0;
   uint8_t swizzle = SWZ_X;
   uint16_t array_id = 0;
};

/* An index such as 3, ADDR[0].x+3 or ADDR[0].x-1. */
struct RegIndex {
   int32_t value = 0;
   std::optional<IndirectRef> indirect;
};

struct SrcOperand {
   File file = File::Null;
   RegIndex index;
   std::optional<RegIndex> dimension; /* CONST[1][4]: dimension is the first bracket */
   std::array<uint8_t, 4> swizzle = {SWZ_X, SWZ_Y, SWZ_Z, SWZ_W};
   bool negate = false;
   bool absolute = false;
   uint16_t array_id = 0; /* TEMP[ARRAY(1)][...] style references; 0 = none */
   SourceLoc loc;
};

struct DstOperand {
   File file = File::Null;
   RegIndex index;
   std::optional<RegIndex> dimension;
   uint8_t write_mask = WM_XYZW;
   uint16_t array_id = 0;
   SourceLoc loc;
};

struct TexOffset {
   File file = File::Immediate;
   int32_t index = 0;
   std::array<uint8_t, 3> swizzle = {SWZ_X, SWZ_Y, SWZ_Z};
};

struct Instruction {
   Opcode opcode = Opcode::NOP;
   bool saturate = false;
   bool precise = false;
   std::vector<DstOperand> dst;
   std::vector<SrcOperand> src;
   /* Texture instructions. */
   TextureTarget tex_target = TextureTarget::Unknown;
   ReturnType tex_return = ReturnType::Float;
   std::vector<TexOffset> tex_offsets;
   /* IF/UIF/ELSE/BGNLOOP/ENDLOOP: the ':N' label tgsi_dump prints, if any. */
   std::optional<uint32_t> label;
   SourceLoc loc;

   const OpcodeInfo &info() const { return opcode_info(opcode); }
};

struct Declaration {
   File file = File::Null;
   int32_t first = 0;
   int32_t last = 0;
   std::optional<int32_t> dimension; /* DCL CONST[1][0..238] */
   uint8_t usage_mask = WM_XYZW;     /* DCL IN[0].xy */
   Semantic semantic = Semantic::None;
   uint32_t semantic_index = 0;
   Interpolate interpolate = Interpolate::None;
   InterpLocation location = InterpLocation::Center;
   uint16_t array_id = 0;            /* DCL TEMP[0..3], ARRAY(1) */
   bool local = false;
   bool invariant = false;
   /* SVIEW declarations. */
   TextureTarget view_target = TextureTarget::Unknown;
   std::array<ReturnType, 4> view_return = {ReturnType::Float, ReturnType::Float,
                                            ReturnType::Float, ReturnType::Float};
   SourceLoc loc;
};

struct Immediate {
   ImmType type = ImmType::Float32;
   uint8_t count = 4;
   std::array<uint32_t, 4> value = {0, 0, 0, 0}; /* raw bits */
   SourceLoc loc;
};

struct PropertyDecl {
   Property property = Property::Other;
   std::string name;   /* as written, e.g. FS_COORD_ORIGIN */
   uint32_t value = 0;
   std::string value_text; /* as written, e.g. LOWER_LEFT */
};

struct Shader {
   Processor processor = Processor::Vertex;
   std::vector<PropertyDecl> properties;
   std::vector<Declaration> declarations;
   std::vector<Immediate> immediates;
   std::vector<Instruction> instructions;
   std::string source_name; /* file name used in diagnostics */

   /* Highest index + 1 declared for a file (0 when none). */
   int32_t file_size(File f) const;
   const Declaration *find_declaration(File f, int32_t index) const;
};

/* Names as tgsi_dump prints them. */
std::string_view file_name(File f);
std::string_view semantic_name(Semantic s);
std::string_view texture_target_name(TextureTarget t);
std::string_view interpolate_name(Interpolate i);
std::string_view processor_name(Processor p);
std::optional<Opcode> opcode_from_name(std::string_view name);

/* tgsi_dump-style text.  parse_tgsi(print_tgsi(s)) reproduces s. */
std::string print_tgsi(const Shader &shader);

/* Parse tgsi_dump text.  On failure returns nullopt and leaves at least one
 * error with file:line:column in diags.  Never crashes on any input. */
std::optional<Shader> parse_tgsi(std::string_view text, std::string_view file_name,
                                 Diagnostics &diags);

} // namespace sbcc::tgsi
