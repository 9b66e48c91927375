/*
 * The ARB program parser's state, shared by arb_parse.cpp (statements,
 * instructions, lowering) and arb_bindings.cpp (vertex./fragment./result./
 * program./state. bindings and constants).  Internal to src/arb.
 */
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "arb/arb_lex.h"
#include "arb/arb_parse.h"

namespace sbcc::arb {

inline constexpr int32_t kMaxTemps = 256;
inline constexpr int32_t kMaxAddress = 1;
inline constexpr int32_t kMaxConsts = 4096;
inline constexpr int32_t kMaxProgramParams = 256; /* env and local */
inline constexpr int32_t kMaxTexCoords = 8;
inline constexpr int32_t kMaxTexUnits = 16;
inline constexpr int32_t kMaxVertexAttribs = 16;
inline constexpr int32_t kMaxLights = 8;
inline constexpr int32_t kMaxClipPlanes = 6;
inline constexpr int32_t kMaxModelview = 32;
inline constexpr int32_t kMaxPalette = 32;
inline constexpr int32_t kMaxProgramMatrices = 8;
inline constexpr int32_t kMaxDrawBuffers = 8;
inline constexpr int32_t kMaxParamArray = 1024;
/* Scratch temporaries get indices from here during parsing and are moved
 * after the program's own TEMPs at the end. */
inline constexpr int32_t kScratchBase = 1 << 20;

/* IN/OUT slots: the order IN and OUT registers are numbered in (see
 * arb_parse.h). */
enum : int32_t {
   VS_IN_POSITION = 0,
   VS_IN_WEIGHT = 1,
   VS_IN_NORMAL = 2,
   VS_IN_COLOR0 = 3,
   VS_IN_COLOR1 = 4,
   VS_IN_FOG = 5,
   VS_IN_TEX0 = 8,
   VS_IN_GENERIC0 = 16,

   FS_IN_POSITION = 0,
   FS_IN_COLOR0 = 1,
   FS_IN_COLOR1 = 2,
   FS_IN_FOG = 3,
   FS_IN_TEX0 = 4,
   FS_IN_FACE = 12,

   VS_OUT_POSITION = 0,
   VS_OUT_COLOR0 = 1,
   VS_OUT_COLOR1 = 2,
   VS_OUT_FOG = 3,
   VS_OUT_TEX0 = 4,
   VS_OUT_PSIZE = 12,
   VS_OUT_BCOLOR0 = 13,
   VS_OUT_BCOLOR1 = 14,

   FS_OUT_COLOR0 = 0,
   FS_OUT_DEPTH = 8,
};

enum class SymKind : uint8_t { Temp, Address, Attrib, Param, Output };

struct Symbol {
   SymKind kind = SymKind::Temp;
   int32_t index = 0; /* TEMP/ADDR index, input/output slot, first CONST */
   int32_t size = -1; /* PARAM arrays: element count; -1 for single vectors */
   SourceLoc loc;
};

/* An IN or OUT register before the final dense numbering. */
struct IoSlot {
   std::string name;
   tgsi::Semantic semantic = tgsi::Semantic::None;
   uint32_t semantic_index = 0;
   tgsi::Interpolate interp = tgsi::Interpolate::None;
};

/* A parsed source operand, or why it cannot be read. */
struct SrcResult {
   bool ok = false;
   tgsi::SrcOperand op;
};

/* Operand and instruction builders for the lowering. */
/* The swizzle `sel` applied on top of an operand's swizzle `user`. */
inline std::array<uint8_t, 4> compose(const std::array<uint8_t, 4> &user,
                                      std::array<uint8_t, 4> sel)
{
   return {user[sel[0]], user[sel[1]], user[sel[2]], user[sel[3]]};
}

inline tgsi::SrcOperand src_reg(tgsi::File f, int32_t index,
                                std::array<uint8_t, 4> swz = {0, 1, 2, 3})
{
   tgsi::SrcOperand s;
   s.file = f;
   s.index.value = index;
   s.swizzle = swz;
   return s;
}

inline tgsi::DstOperand dst_reg(tgsi::File f, int32_t index, uint8_t mask)
{
   tgsi::DstOperand d;
   d.file = f;
   d.index.value = index;
   d.write_mask = mask;
   return d;
}

inline tgsi::Instruction make(tgsi::Opcode op, tgsi::DstOperand d,
                              std::vector<tgsi::SrcOperand> src, SourceLoc loc,
                              bool sat = false)
{
   tgsi::Instruction inst;
   inst.opcode = op;
   inst.saturate = sat;
   inst.dst.push_back(d);
   inst.src = std::move(src);
   inst.loc = loc;
   return inst;
}

class Parser {
 public:
   Parser(std::string_view text, std::string_view file, Diagnostics &diags)
      : text_(text), file_(file), diags_(diags)
   {
   }
   std::optional<Program> run();

 private:
   /* --- token cursor (arb_parse.cpp) --- */
   const Token &peek(size_t ahead = 0) const;
   const Token &next();
   bool at_limit() const { return pos_ >= limit_; }
   void set_limit(size_t limit);
   bool accept(char c);
   bool expect(char c, const char *what);
   bool expect_ident(const char *what, std::string_view &out);
   bool expect_int(const char *what, int64_t &out);
   void error(SourceLoc loc, std::string msg);
   SourceLoc here() const;
   std::string tok_desc(const Token &t) const;

   /* --- statements (arb_parse.cpp) --- */
   bool parse_header();
   bool parse_option();
   bool parse_statement();
   bool parse_temp_or_address(SymKind kind);
   bool parse_attrib();
   bool parse_param();
   bool parse_output();
   bool parse_alias();
   bool parse_instruction();
   bool declare(std::string_view name, SourceLoc loc, const Symbol &sym);
   bool is_reserved(std::string_view name) const;

   /* --- operands (arb_parse.cpp) --- */
   bool parse_dst(tgsi::DstOperand &dst, bool address_dst);
   bool parse_src(tgsi::SrcOperand &src, bool scalar, bool allow_swizzle);
   bool parse_swizzle_suffix(tgsi::SrcOperand &src, bool scalar);
   bool parse_rel_index(const Symbol &sym, std::string_view name, tgsi::RegIndex &out);
   bool parse_tex_unit(int32_t &unit);
   bool parse_tex_target(tgsi::TextureTarget &target);

   /* --- bindings (arb_bindings.cpp) --- */
   /* vertex.* / fragment.*: the input slot, or -1 after an error. */
   int32_t parse_input_binding();
   int32_t parse_input_binding_name();
   /* result.*: the output slot, or -1 after an error. */
   int32_t parse_output_binding();
   /* program.env/local[...] or state.*: appends one ParamBinding per vector.
    * `multi` allows matrices and index ranges. */
   bool parse_param_binding(std::vector<ParamBinding> &out, bool multi);
   bool parse_program_param(std::vector<ParamBinding> &out, bool multi);
   bool parse_state(std::vector<ParamBinding> &out, bool multi);
   bool parse_state_matrix(std::vector<ParamBinding> &out, bool multi);
   bool parse_bracket_index(int64_t limit, const char *what, int64_t &out);
   bool parse_optional_index(int64_t limit, const char *what, int64_t &out);
   bool parse_face(std::string &face);
   /* {a, b, c, d} or a signed scalar.  `scalar_replicates`: a bare number
    * fills all four components, as PARAM and inline uses do. */
   bool parse_constant(std::array<float, 4> &value);
   bool parse_signed_number(float &out);
   bool starts_constant() const;

   int32_t input_slot(int32_t slot, std::string name, tgsi::Semantic sem, uint32_t sem_index,
                      tgsi::Interpolate interp);
   int32_t output_slot(int32_t slot, std::string name, tgsi::Semantic sem, uint32_t sem_index);
   /* CONST slot for a single vector, shared with earlier identical uses. */
   int32_t const_for(const ParamBinding &b);
   /* A fresh contiguous CONST range; returns the first index or -1. */
   int32_t const_range(const std::vector<ParamBinding> &items, SourceLoc loc);
   int32_t immediate(std::array<float, 4> v);
   int32_t scratch_temp();

   /* --- lowering and output (arb_parse.cpp) --- */
   void emit(tgsi::Instruction inst) { insts_.push_back(std::move(inst)); }
   void emit_position_invariant();
   void emit_fog();
   Program finish();

   std::string_view text_;
   std::string_view file_;
   Diagnostics &diags_;
   ProgramKind kind_ = ProgramKind::Vertex;

   std::vector<Token> toks_;
   size_t pos_ = 0;
   size_t limit_ = 0;
   Token end_tok_; /* what peek() returns at the limit: an Eof with the ';' text */

   std::unordered_map<std::string, Symbol> symbols_;
   int32_t num_temps_ = 0;
   int32_t num_scratch_ = 0;
   int32_t num_address_ = 0;

   std::vector<ParamBinding> params_;
   std::unordered_map<std::string, int32_t> param_lookup_;
   std::map<int32_t, IoSlot> inputs_;
   std::map<int32_t, IoSlot> outputs_;
   std::map<int32_t, tgsi::TextureTarget> samplers_;
   std::vector<tgsi::Immediate> imms_;
   std::vector<tgsi::Instruction> insts_;

   bool seen_statement_ = false;
   bool position_invariant_ = false;
   FogOption fog_ = FogOption::None;
   SourceLoc fog_loc_;
   bool precision_fastest_ = false;
   bool precision_nicest_ = false;
   bool fragment_shadow_ = false;
   bool draw_buffers_ = false;
   int32_t fog_temp_ = -1; /* scratch temp standing in for result.color */
   int32_t xpd_temp_ = -1;
   int32_t swz_temp_ = -1;
};

} // namespace sbcc::arb
