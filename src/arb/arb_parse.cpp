/*
 * ARB program statements, instructions and their lowering to TGSI.
 *
 * Parsing is statement by statement: each statement is bounded by its ';'
 * (the cursor cannot run past it), so an error skips just that statement and
 * the rest of the program is still checked.
 */
#include <algorithm>
#include <cstring>

#include "arb/arb_parser.h"

namespace sbcc::arb {

using tgsi::DstOperand;
using tgsi::File;
using tgsi::Instruction;
using tgsi::Opcode;
using tgsi::SrcOperand;

namespace {

enum class Form : uint8_t {
   Vector1, /* op dst, vsrc */
   Scalar1, /* op dst, ssrc */
   Scalar2, /* op dst, ssrc, ssrc */
   Vector2, /* op dst, vsrc, vsrc */
   Vector3, /* op dst, vsrc, vsrc, vsrc */
   Swz,     /* SWZ dst, src, c, c, c, c */
   Tex,     /* op dst, vsrc, texture[n], target */
   Kil,     /* KIL vsrc */
   Arl,     /* ARL addr.x, ssrc */
};

enum class Lower : uint8_t { Direct, Abs, Sub, Xpd, Scs, Swz, Kil };

struct OpDesc {
   std::string_view name;
   Form form;
   Opcode op;
   Lower lower;
   bool vp, fp;
};

constexpr OpDesc kOps[] = {
   {"ABS", Form::Vector1, Opcode::MOV, Lower::Abs, true, true},
   {"ADD", Form::Vector2, Opcode::ADD, Lower::Direct, true, true},
   {"ARL", Form::Arl, Opcode::ARL, Lower::Direct, true, false},
   {"CMP", Form::Vector3, Opcode::CMP, Lower::Direct, false, true},
   {"COS", Form::Scalar1, Opcode::COS, Lower::Direct, false, true},
   {"DP3", Form::Vector2, Opcode::DP3, Lower::Direct, true, true},
   {"DP4", Form::Vector2, Opcode::DP4, Lower::Direct, true, true},
   {"DPH", Form::Vector2, Opcode::DPH, Lower::Direct, true, true},
   {"DST", Form::Vector2, Opcode::DST, Lower::Direct, true, true},
   {"EX2", Form::Scalar1, Opcode::EX2, Lower::Direct, true, true},
   {"EXP", Form::Scalar1, Opcode::EXP, Lower::Direct, true, false},
   {"FLR", Form::Vector1, Opcode::FLR, Lower::Direct, true, true},
   {"FRC", Form::Vector1, Opcode::FRC, Lower::Direct, true, true},
   {"KIL", Form::Kil, Opcode::KILL_IF, Lower::Kil, false, true},
   {"LG2", Form::Scalar1, Opcode::LG2, Lower::Direct, true, true},
   {"LIT", Form::Vector1, Opcode::LIT, Lower::Direct, true, true},
   {"LOG", Form::Scalar1, Opcode::LOG, Lower::Direct, true, false},
   {"LRP", Form::Vector3, Opcode::LRP, Lower::Direct, false, true},
   {"MAD", Form::Vector3, Opcode::MAD, Lower::Direct, true, true},
   {"MAX", Form::Vector2, Opcode::MAX, Lower::Direct, true, true},
   {"MIN", Form::Vector2, Opcode::MIN, Lower::Direct, true, true},
   {"MOV", Form::Vector1, Opcode::MOV, Lower::Direct, true, true},
   {"MUL", Form::Vector2, Opcode::MUL, Lower::Direct, true, true},
   {"POW", Form::Scalar2, Opcode::POW, Lower::Direct, true, true},
   {"RCP", Form::Scalar1, Opcode::RCP, Lower::Direct, true, true},
   {"RSQ", Form::Scalar1, Opcode::RSQ, Lower::Direct, true, true},
   {"SCS", Form::Scalar1, Opcode::COS, Lower::Scs, false, true},
   {"SGE", Form::Vector2, Opcode::SGE, Lower::Direct, true, true},
   {"SIN", Form::Scalar1, Opcode::SIN, Lower::Direct, false, true},
   {"SLT", Form::Vector2, Opcode::SLT, Lower::Direct, true, true},
   {"SUB", Form::Vector2, Opcode::ADD, Lower::Sub, true, true},
   {"SWZ", Form::Swz, Opcode::MOV, Lower::Swz, true, true},
   {"TEX", Form::Tex, Opcode::TEX, Lower::Direct, false, true},
   {"TXB", Form::Tex, Opcode::TXB, Lower::Direct, false, true},
   {"TXP", Form::Tex, Opcode::TXP, Lower::Direct, false, true},
   {"XPD", Form::Vector2, Opcode::MUL, Lower::Xpd, true, true},
};

const OpDesc *find_op(std::string_view name)
{
   for (const OpDesc &d : kOps)
      if (d.name == name)
         return &d;
   return nullptr;
}

int operand_count(Form f)
{
   switch (f) {
   case Form::Vector1: return 2;
   case Form::Scalar1: return 2;
   case Form::Scalar2: return 3;
   case Form::Vector2: return 3;
   case Form::Vector3: return 4;
   case Form::Swz: return 6;
   case Form::Tex: return 4;
   case Form::Kil: return 1;
   case Form::Arl: return 2;
   }
   return 0;
}

bool same_register(const DstOperand &d, const SrcOperand &s)
{
   return d.file == s.file && d.index.value == s.index.value && !d.index.indirect &&
          !s.index.indirect;
}

/* Reserved by the specs: these cannot name variables. */
constexpr std::string_view kReserved[] = {
   "ADDRESS", "ALIAS",  "ATTRIB",  "END",     "OPTION", "OUTPUT", "PARAM",   "TEMP",
   "fragment", "program", "result", "state",  "vertex", "texture", "ABS_SAT", "ADD_SAT",
   "CMP_SAT", "COS_SAT", "DP3_SAT", "DP4_SAT", "DPH_SAT", "DST_SAT", "EX2_SAT", "FLR_SAT",
   "FRC_SAT", "LG2_SAT", "LIT_SAT", "LRP_SAT", "MAD_SAT", "MAX_SAT", "MIN_SAT", "MOV_SAT",
   "MUL_SAT", "POW_SAT", "RCP_SAT", "RSQ_SAT", "SCS_SAT", "SGE_SAT", "SIN_SAT", "SLT_SAT",
   "SUB_SAT", "SWZ_SAT", "TEX_SAT", "TXB_SAT", "TXP_SAT", "XPD_SAT", "SHADOW1D", "SHADOW2D",
   "SHADOWRECT", "CUBE",  "RECT",
};

} // namespace

/* ---------------------------------------------------------------- cursor */

const Token &Parser::peek(size_t ahead) const
{
   size_t i = pos_ + ahead;
   if (i < limit_)
      return toks_[i];
   return end_tok_;
}

const Token &Parser::next()
{
   const Token &t = peek();
   if (pos_ < limit_)
      pos_++;
   return t;
}

void Parser::set_limit(size_t limit)
{
   limit_ = limit;
   end_tok_ = toks_[limit];
   end_tok_.kind = TokKind::Eof;
}

bool Parser::accept(char c)
{
   if (peek().is(c)) {
      next();
      return true;
   }
   return false;
}

SourceLoc Parser::here() const { return peek().loc; }

std::string Parser::tok_desc(const Token &t) const
{
   if (t.kind == TokKind::Eof && t.text.empty())
      return "end of input";
   return "'" + std::string(t.text) + "'";
}

void Parser::error(SourceLoc loc, std::string msg) { diags_.error(file_, loc, std::move(msg)); }

bool Parser::expect(char c, const char *what)
{
   if (accept(c))
      return true;
   error(here(), std::string("expected ") + what + ", found " + tok_desc(peek()));
   return false;
}

bool Parser::expect_ident(const char *what, std::string_view &out)
{
   if (peek().kind != TokKind::Ident) {
      error(here(), std::string("expected ") + what + ", found " + tok_desc(peek()));
      return false;
   }
   out = next().text;
   return true;
}

bool Parser::expect_int(const char *what, int64_t &out)
{
   if (peek().kind != TokKind::Int) {
      error(here(), std::string("expected ") + what + ", found " + tok_desc(peek()));
      return false;
   }
   out = next().int_value;
   return true;
}

/* ------------------------------------------------------------ statements */

bool Parser::parse_header()
{
   if (text_.substr(0, 10) == "!!ARBvp1.0") {
      kind_ = ProgramKind::Vertex;
   } else if (text_.substr(0, 10) == "!!ARBfp1.0") {
      kind_ = ProgramKind::Fragment;
   } else {
      error(SourceLoc{1, 1}, "expected '!!ARBvp1.0' or '!!ARBfp1.0' at the start of the "
                             "program");
      return false;
   }
   return true;
}

bool Parser::is_reserved(std::string_view name) const
{
   if (find_op(name))
      return true;
   for (std::string_view r : kReserved)
      if (r == name)
         return true;
   return false;
}

bool Parser::declare(std::string_view name, SourceLoc loc, const Symbol &sym)
{
   if (is_reserved(name)) {
      error(loc, "'" + std::string(name) + "' is a reserved word");
      return false;
   }
   auto it = symbols_.find(std::string(name));
   if (it != symbols_.end()) {
      error(loc, "redeclaration of '" + std::string(name) + "' (first declared at " +
                    std::to_string(it->second.loc.line) + ":" +
                    std::to_string(it->second.loc.column) + ")");
      return false;
   }
   Symbol s = sym;
   s.loc = loc;
   symbols_.emplace(std::string(name), s);
   return true;
}

bool Parser::parse_option()
{
   SourceLoc kw = next().loc;
   if (seen_statement_) {
      error(kw, "OPTION must come before all other statements");
      return false;
   }
   SourceLoc loc = here();
   std::string_view name;
   if (!expect_ident("an option name", name))
      return false;
   bool vp = kind_ == ProgramKind::Vertex;
   auto set_fog = [&](FogOption f) {
      if (fog_ != FogOption::None) {
         error(loc, "only one fog option may be given");
         return false;
      }
      fog_ = f;
      fog_loc_ = loc;
      return true;
   };
   if (vp && name == "ARB_position_invariant") {
      position_invariant_ = true;
   } else if (!vp && name == "ARB_fog_linear") {
      return set_fog(FogOption::Linear);
   } else if (!vp && name == "ARB_fog_exp") {
      return set_fog(FogOption::Exp);
   } else if (!vp && name == "ARB_fog_exp2") {
      return set_fog(FogOption::Exp2);
   } else if (!vp && (name == "ARB_precision_hint_fastest" ||
                      name == "ARB_precision_hint_nicest")) {
      bool fastest = name == "ARB_precision_hint_fastest";
      if ((fastest && precision_nicest_) || (!fastest && precision_fastest_)) {
         error(loc, "ARB_precision_hint_fastest and ARB_precision_hint_nicest are exclusive");
         return false;
      }
      (fastest ? precision_fastest_ : precision_nicest_) = true;
   } else if (!vp && name == "ARB_fragment_program_shadow") {
      fragment_shadow_ = true;
   } else if (!vp && name == "ARB_draw_buffers") {
      draw_buffers_ = true;
   } else {
      error(loc, "unknown option '" + std::string(name) + "'");
      return false;
   }
   return true;
}

bool Parser::parse_temp_or_address(SymKind kind)
{
   SourceLoc kw = next().loc;
   if (kind == SymKind::Address && kind_ != ProgramKind::Vertex) {
      error(kw, "ADDRESS is only allowed in vertex programs");
      return false;
   }
   while (true) {
      SourceLoc loc = here();
      std::string_view name;
      if (!expect_ident("a variable name", name))
         return false;
      Symbol s;
      s.kind = kind;
      if (kind == SymKind::Temp) {
         if (num_temps_ >= kMaxTemps) {
            error(loc, "too many temporaries (limit " + std::to_string(kMaxTemps) + ")");
            return false;
         }
         s.index = num_temps_;
      } else {
         if (num_address_ >= kMaxAddress) {
            error(loc, "too many address registers (limit " + std::to_string(kMaxAddress) +
                          ")");
            return false;
         }
         s.index = num_address_;
      }
      if (!declare(name, loc, s))
         return false;
      (kind == SymKind::Temp ? num_temps_ : num_address_)++;
      if (!accept(','))
         return true;
   }
}

bool Parser::parse_attrib()
{
   next();
   SourceLoc loc = here();
   std::string_view name;
   if (!expect_ident("a variable name", name) || !expect('=', "'='"))
      return false;
   if (!peek().is_ident("vertex") && !peek().is_ident("fragment")) {
      error(here(), "expected a vertex or fragment attribute binding, found " +
                       tok_desc(peek()));
      return false;
   }
   int32_t slot = parse_input_binding();
   if (slot < 0)
      return false;
   Symbol s;
   s.kind = SymKind::Attrib;
   s.index = slot;
   return declare(name, loc, s);
}

bool Parser::parse_output()
{
   next();
   SourceLoc loc = here();
   std::string_view name;
   if (!expect_ident("a variable name", name) || !expect('=', "'='"))
      return false;
   if (!peek().is_ident("result")) {
      error(here(), "expected a result binding, found " + tok_desc(peek()));
      return false;
   }
   int32_t slot = parse_output_binding();
   if (slot < 0)
      return false;
   Symbol s;
   s.kind = SymKind::Output;
   s.index = slot;
   return declare(name, loc, s);
}

bool Parser::parse_alias()
{
   next();
   SourceLoc loc = here();
   std::string_view name, target;
   if (!expect_ident("a variable name", name) || !expect('=', "'='"))
      return false;
   SourceLoc tloc = here();
   if (!expect_ident("a variable name", target))
      return false;
   auto it = symbols_.find(std::string(target));
   if (it == symbols_.end()) {
      error(tloc, "undeclared identifier '" + std::string(target) + "'");
      return false;
   }
   Symbol copy = it->second;
   return declare(name, loc, copy);
}

bool Parser::parse_param()
{
   next();
   SourceLoc loc = here();
   std::string_view name;
   if (!expect_ident("a variable name", name))
      return false;
   Symbol s;
   s.kind = SymKind::Param;

   if (!accept('[')) {
      if (!expect('=', "'='"))
         return false;
      ParamBinding b;
      if (starts_constant()) {
         b.kind = ParamBinding::Kind::Literal;
         if (!parse_constant(b.value))
            return false;
      } else {
         std::vector<ParamBinding> items;
         if (!parse_param_binding(items, false))
            return false;
         b = items[0];
      }
      s.index = const_for(b);
      if (s.index < 0)
         return false;
      return declare(name, loc, s);
   }

   int64_t size = -1;
   SourceLoc size_loc = here();
   if (!peek().is(']') && !expect_int("an array size", size))
      return false;
   if (size == 0) {
      error(size_loc, "invalid array size 0");
      return false;
   }
   if (size > kMaxParamArray) {
      error(size_loc, "array size " + std::to_string(size) + " exceeds the limit (" +
                         std::to_string(kMaxParamArray) + ")");
      return false;
   }
   if (!expect(']', "']'") || !expect('=', "'='") || !expect('{', "'{'"))
      return false;
   std::vector<ParamBinding> items;
   while (true) {
      SourceLoc iloc = here();
      if (starts_constant()) {
         ParamBinding b;
         b.kind = ParamBinding::Kind::Literal;
         if (!parse_constant(b.value))
            return false;
         items.push_back(b);
      } else if (!parse_param_binding(items, true)) {
         return false;
      }
      if (int64_t(items.size()) > kMaxParamArray) {
         error(iloc, "array '" + std::string(name) + "' exceeds the size limit (" +
                        std::to_string(kMaxParamArray) + ")");
         return false;
      }
      if (accept('}'))
         break;
      if (!expect(',', "',' or '}'"))
         return false;
   }
   if (size >= 0 && int64_t(items.size()) != size) {
      error(loc, std::string(int64_t(items.size()) > size ? "too many" : "too few") +
                    " initializers for '" + std::string(name) + "[" + std::to_string(size) +
                    "]' (" + std::to_string(items.size()) + " given)");
      return false;
   }
   s.size = int32_t(items.size());
   s.index = const_range(items, loc);
   if (s.index < 0)
      return false;
   return declare(name, loc, s);
}

bool Parser::parse_statement()
{
   /* Bound the statement by its ';' (or by END / end of input when the ';'
    * is missing, which is then reported). */
   size_t end = pos_;
   while (toks_[end].kind != TokKind::Eof && !toks_[end].is(';') &&
          !toks_[end].is_ident("END"))
      end++;
   set_limit(end);

   const Token &first = peek();
   bool ok = false;
   if (first.kind != TokKind::Ident) {
      error(first.loc, "expected a statement, found " + tok_desc(first));
   } else if (first.text == "OPTION") {
      ok = parse_option();
   } else {
      if (!seen_statement_) {
         seen_statement_ = true;
         if (position_invariant_)
            emit_position_invariant();
      }
      if (first.text == "TEMP")
         ok = parse_temp_or_address(SymKind::Temp);
      else if (first.text == "ADDRESS")
         ok = parse_temp_or_address(SymKind::Address);
      else if (first.text == "ATTRIB")
         ok = parse_attrib();
      else if (first.text == "PARAM")
         ok = parse_param();
      else if (first.text == "OUTPUT")
         ok = parse_output();
      else if (first.text == "ALIAS")
         ok = parse_alias();
      else
         ok = parse_instruction();
   }
   if (ok) {
      if (!at_limit())
         error(here(), "expected ';', found " + tok_desc(peek()));
      else if (!toks_[end].is(';'))
         error(toks_[end].loc, "expected ';', found " + tok_desc(end_tok_));
   }
   pos_ = end;
   if (toks_[end].is(';'))
      pos_++;
   set_limit(toks_.size() - 1);
   return ok;
}

/* -------------------------------------------------------------- operands */

static bool parse_mask(std::string_view text, bool fp, uint8_t &mask)
{
   static constexpr std::string_view xyzw = "xyzw", rgba = "rgba";
   if (text.empty() || text.size() > 4)
      return false;
   std::string_view set = xyzw.find(text[0]) != std::string_view::npos ? xyzw : rgba;
   if (set == rgba && !fp)
      return false;
   int last = -1;
   mask = 0;
   for (char c : text) {
      size_t p = set.find(c);
      if (p == std::string_view::npos || int(p) <= last)
         return false;
      last = int(p);
      mask |= uint8_t(1u << p);
   }
   return true;
}

bool Parser::parse_dst(DstOperand &dst, bool address_dst)
{
   SourceLoc loc = here();
   dst.loc = loc;
   const Token &t = peek();
   int32_t out_slot = -1;
   if (t.kind != TokKind::Ident) {
      error(loc, "expected a destination register, found " + tok_desc(t));
      return false;
   }
   if (t.text == "result") {
      if (address_dst) {
         error(loc, "ARL destination must be an address register");
         return false;
      }
      out_slot = parse_output_binding();
      if (out_slot < 0)
         return false;
   } else if (t.text == "vertex" || t.text == "fragment" || t.text == "program" ||
              t.text == "state") {
      error(loc, "cannot write to read-only '" + std::string(t.text) + ".' binding");
      return false;
   } else {
      auto it = symbols_.find(std::string(t.text));
      if (it == symbols_.end()) {
         error(loc, "undeclared identifier '" + std::string(t.text) + "'");
         return false;
      }
      const Symbol &s = it->second;
      if (address_dst != (s.kind == SymKind::Address)) {
         error(loc, address_dst ? "ARL destination must be an address register"
                                : "address register '" + std::string(t.text) +
                                     "' can only be written by ARL");
         return false;
      }
      switch (s.kind) {
      case SymKind::Temp:
         dst.file = File::Temporary;
         dst.index.value = s.index;
         break;
      case SymKind::Address:
         dst.file = File::Address;
         dst.index.value = s.index;
         break;
      case SymKind::Output:
         out_slot = s.index;
         break;
      case SymKind::Attrib:
         error(loc, "cannot write to read-only attribute '" + std::string(t.text) + "'");
         return false;
      case SymKind::Param:
         error(loc, "cannot write to read-only parameter '" + std::string(t.text) + "'");
         return false;
      }
      next();
   }

   if (out_slot >= 0) {
      if (kind_ == ProgramKind::Vertex && out_slot == VS_OUT_POSITION && position_invariant_) {
         error(loc, "result.position cannot be written in a position-invariant program");
         return false;
      }
      dst.file = File::Output;
      dst.index.value = out_slot;
      if (kind_ == ProgramKind::Fragment && out_slot == FS_OUT_COLOR0 &&
          fog_ != FogOption::None) {
         /* The fog blend at the end reads the program's color. */
         if (fog_temp_ < 0)
            fog_temp_ = scratch_temp();
         dst.file = File::Temporary;
         dst.index.value = fog_temp_;
      }
   }

   dst.write_mask = tgsi::WM_XYZW;
   if (accept('.')) {
      SourceLoc mloc = here();
      std::string_view m;
      if (!expect_ident("a write mask", m))
         return false;
      if (!parse_mask(m, kind_ == ProgramKind::Fragment, dst.write_mask)) {
         error(mloc, "invalid write mask '." + std::string(m) + "'");
         return false;
      }
   }
   if (address_dst && dst.write_mask != tgsi::WM_X) {
      error(loc, "ARL destination requires the '.x' write mask");
      return false;
   }
   return true;
}

bool Parser::parse_swizzle_suffix(SrcOperand &src, bool scalar)
{
   if (!peek().is('.')) {
      if (scalar) {
         error(here(), "scalar operand requires a single-component swizzle such as '.x'");
         return false;
      }
      return true;
   }
   next();
   SourceLoc loc = here();
   std::string_view sw;
   if (!expect_ident("a swizzle", sw))
      return false;
   static constexpr std::string_view xyzw = "xyzw", rgba = "rgba";
   bool fp = kind_ == ProgramKind::Fragment;
   bool ok = sw.size() == 1 || (sw.size() == 4 && !scalar);
   std::array<uint8_t, 4> sel = {0, 0, 0, 0};
   if (ok) {
      std::string_view set = xyzw.find(sw[0]) != std::string_view::npos ? xyzw : rgba;
      if (set == rgba && !fp)
         ok = false;
      for (size_t i = 0; ok && i < sw.size(); i++) {
         size_t p = set.find(sw[i]);
         if (p == std::string_view::npos)
            ok = false;
         else
            sel[i] = uint8_t(p);
      }
      if (sw.size() == 1)
         sel = {sel[0], sel[0], sel[0], sel[0]};
   }
   if (!ok) {
      if (scalar && sw.size() != 1)
         error(loc, "scalar operand requires a single-component swizzle, found '." +
                       std::string(sw) + "'");
      else
         error(loc, "invalid swizzle '." + std::string(sw) + "'");
      return false;
   }
   src.swizzle = compose(src.swizzle, sel);
   return true;
}

bool Parser::parse_rel_index(const Symbol &sym, std::string_view name, tgsi::RegIndex &out)
{
   if (!expect('[', "'['"))
      return false;
   SourceLoc loc = here();
   const Token &t = peek();
   if (t.kind == TokKind::Int) {
      next();
      if (t.int_value >= sym.size) {
         error(loc, "array index " + std::to_string(t.int_value) + " is out of bounds for '" +
                       std::string(name) + "' (size " + std::to_string(sym.size) + ")");
         return false;
      }
      out.value = sym.index + int32_t(t.int_value);
      return expect(']', "']'");
   }
   if (t.kind != TokKind::Ident) {
      error(loc, "expected an array index, found " + tok_desc(t));
      return false;
   }
   auto it = symbols_.find(std::string(t.text));
   if (it == symbols_.end()) {
      error(loc, "undeclared identifier '" + std::string(t.text) + "'");
      return false;
   }
   if (it->second.kind != SymKind::Address) {
      error(loc, "'" + std::string(t.text) + "' is not an address register");
      return false;
   }
   next();
   int32_t addr = it->second.index;
   if (!expect('.', "'.x' after the address register"))
      return false;
   SourceLoc cloc = here();
   std::string_view comp;
   if (!expect_ident("'x'", comp))
      return false;
   if (comp != "x") {
      error(cloc, "address register component must be '.x', found '." + std::string(comp) +
                     "'");
      return false;
   }
   int64_t offset = 0;
   if (peek().is('+') || peek().is('-')) {
      bool neg = next().is('-');
      SourceLoc oloc = here();
      if (!expect_int("an offset", offset))
         return false;
      if ((neg && offset > 64) || (!neg && offset > 63)) {
         error(oloc, "address offset " + std::string(neg ? "-" : "+") +
                        std::to_string(offset) + " is out of range (-64..63)");
         return false;
      }
      if (neg)
         offset = -offset;
   }
   out.value = sym.index + int32_t(offset);
   tgsi::IndirectRef ind;
   ind.file = File::Address;
   ind.index = addr;
   ind.swizzle = tgsi::SWZ_X;
   out.indirect = ind;
   return expect(']', "']'");
}

bool Parser::parse_src(SrcOperand &src, bool scalar, bool allow_swizzle)
{
   bool bare_scalar = false;
   if (peek().is('-') || peek().is('+'))
      src.negate = next().is('-');
   SourceLoc loc = here();
   src.loc = loc;
   const Token &t = peek();

   if (t.kind == TokKind::Ident && (t.text == "vertex" || t.text == "fragment")) {
      int32_t slot = parse_input_binding();
      if (slot < 0)
         return false;
      src.file = File::Input;
      src.index.value = slot;
   } else if (t.kind == TokKind::Ident && (t.text == "program" || t.text == "state")) {
      std::vector<ParamBinding> items;
      if (!parse_param_binding(items, false))
         return false;
      int32_t c = const_for(items[0]);
      if (c < 0)
         return false;
      src.file = File::Constant;
      src.index.value = c;
   } else if (t.kind == TokKind::Ident && t.text == "result") {
      error(loc, "cannot read from a result binding");
      return false;
   } else if (t.kind == TokKind::Ident) {
      auto it = symbols_.find(std::string(t.text));
      if (it == symbols_.end()) {
         error(loc, "undeclared identifier '" + std::string(t.text) + "'");
         return false;
      }
      const Symbol &s = it->second;
      std::string name(t.text);
      next();
      switch (s.kind) {
      case SymKind::Temp:
         src.file = File::Temporary;
         src.index.value = s.index;
         break;
      case SymKind::Attrib:
         src.file = File::Input;
         src.index.value = s.index;
         break;
      case SymKind::Param:
         src.file = File::Constant;
         if (s.size >= 0) {
            if (!peek().is('[')) {
               error(here(), "array '" + name + "' must be indexed");
               return false;
            }
            if (kind_ == ProgramKind::Fragment && peek(1).kind != TokKind::Int) {
               error(peek(1).loc, "relative addressing is not allowed in fragment programs");
               return false;
            }
            if (!parse_rel_index(s, name, src.index))
               return false;
         } else {
            if (peek().is('[')) {
               error(here(), "'" + name + "' is not an array");
               return false;
            }
            src.index.value = s.index;
         }
         break;
      case SymKind::Output:
         error(loc, "cannot read from output '" + name + "'");
         return false;
      case SymKind::Address:
         error(loc, "address register '" + name + "' can only be used as an array index");
         return false;
      }
   } else if (starts_constant()) {
      ParamBinding b;
      b.kind = ParamBinding::Kind::Literal;
      /* A bare number is already a scalar, so scalar operands (RCP t, 2.0)
       * need no '.x' after it. */
      bare_scalar = !peek().is('{');
      if (!parse_constant(b.value))
         return false;
      int32_t c = const_for(b);
      if (c < 0)
         return false;
      src.file = File::Constant;
      src.index.value = c;
   } else {
      error(loc, "expected a source register, found " + tok_desc(t));
      return false;
   }

   if (!allow_swizzle) {
      if (peek().is('.')) {
         error(here(), "the SWZ source takes no swizzle suffix");
         return false;
      }
      return true;
   }
   if (bare_scalar && !peek().is('.'))
      return true;
   return parse_swizzle_suffix(src, scalar);
}

bool Parser::parse_tex_unit(int32_t &unit)
{
   SourceLoc loc = here();
   if (!peek().is_ident("texture")) {
      error(loc, "expected a texture unit such as 'texture[0]', found " + tok_desc(peek()));
      return false;
   }
   next();
   int64_t n = 0;
   if (!parse_optional_index(kMaxTexUnits, "texture unit index", n))
      return false;
   unit = int32_t(n);
   return true;
}

bool Parser::parse_tex_target(tgsi::TextureTarget &target)
{
   using tgsi::TextureTarget;
   SourceLoc loc = here();
   const Token &t = peek();
   std::string name;
   /* "2D" tokenizes as the number 2 followed by the identifier D. */
   if (t.kind == TokKind::Int && peek(1).is_ident("D") && peek(1).loc.line == t.loc.line &&
       peek(1).loc.column == t.loc.column + t.text.size()) {
      name = std::string(t.text) + "D";
      next();
      next();
   } else if (t.kind == TokKind::Ident) {
      name = std::string(t.text);
      next();
   } else {
      error(loc, "expected a texture target, found " + tok_desc(t));
      return false;
   }
   bool shadow = false;
   if (name == "1D") {
      target = TextureTarget::Tex1D;
   } else if (name == "2D") {
      target = TextureTarget::Tex2D;
   } else if (name == "3D") {
      target = TextureTarget::Tex3D;
   } else if (name == "CUBE") {
      target = TextureTarget::Cube;
   } else if (name == "RECT") {
      target = TextureTarget::Rect;
   } else if (name == "SHADOW1D") {
      target = TextureTarget::Shadow1D;
      shadow = true;
   } else if (name == "SHADOW2D") {
      target = TextureTarget::Shadow2D;
      shadow = true;
   } else if (name == "SHADOWRECT") {
      target = TextureTarget::ShadowRect;
      shadow = true;
   } else {
      error(loc, "unknown texture target '" + name + "'");
      return false;
   }
   if (shadow && !fragment_shadow_) {
      error(loc, "texture target '" + name + "' requires OPTION ARB_fragment_program_shadow");
      return false;
   }
   return true;
}

/* ------------------------------------------------------------ lowering */

bool Parser::parse_instruction()
{
   const Token &op_tok = next();
   SourceLoc loc = op_tok.loc;
   std::string_view name = op_tok.text;
   bool sat = false;
   if (name.size() > 4 && name.substr(name.size() - 4) == "_SAT") {
      sat = true;
      name = name.substr(0, name.size() - 4);
   }
   const OpDesc *desc = find_op(name);
   if (!desc) {
      if (symbols_.count(std::string(op_tok.text)) || op_tok.text == "ATTRIB")
         error(loc, "expected an instruction, found '" + std::string(op_tok.text) + "'");
      else
         error(loc, "unknown instruction '" + std::string(op_tok.text) + "'");
      return false;
   }
   bool vp = kind_ == ProgramKind::Vertex;
   if ((vp && !desc->vp) || (!vp && !desc->fp)) {
      error(loc, "instruction '" + std::string(name) + "' is not available in " +
                    (vp ? "vertex" : "fragment") + " programs");
      return false;
   }
   if (sat && vp) {
      error(loc, "'_SAT' is only available in fragment programs");
      return false;
   }

   /* Split the operands at top-level commas so a wrong count is reported as
    * such rather than as a confusing syntax error. */
   std::vector<std::pair<size_t, size_t>> ranges;
   size_t stmt_limit = limit_;
   if (pos_ < stmt_limit) {
      int depth = 0;
      size_t start = pos_;
      for (size_t i = pos_; i < stmt_limit; i++) {
         const Token &t = toks_[i];
         if (t.is('[') || t.is('{'))
            depth++;
         else if ((t.is(']') || t.is('}')) && depth > 0)
            depth--;
         else if (t.is(',') && depth == 0) {
            ranges.emplace_back(start, i);
            start = i + 1;
         }
      }
      ranges.emplace_back(start, stmt_limit);
   }
   int want = operand_count(desc->form);
   if (int(ranges.size()) != want) {
      error(loc, "'" + std::string(op_tok.text) + "' expects " + std::to_string(want) +
                    (want == 1 ? " operand" : " operands") + ", found " +
                    std::to_string(ranges.size()));
      return false;
   }

   /* Parse operand i within its own range. */
   size_t cur = 0;
   auto operand = [&](auto &&fn) -> bool {
      auto [b, e] = ranges[cur++];
      pos_ = b;
      set_limit(e);
      bool ok = fn();
      if (ok && !at_limit()) {
         error(here(), "unexpected " + tok_desc(peek()) + " in operand");
         ok = false;
      }
      return ok;
   };

   DstOperand dst;
   std::vector<SrcOperand> srcs;
   bool scalar = desc->form == Form::Scalar1 || desc->form == Form::Scalar2 ||
                 desc->form == Form::Arl;
   int num_src = want - 1;
   if (desc->form == Form::Kil)
      num_src = 1;
   else if (desc->form == Form::Swz || desc->form == Form::Tex)
      num_src = 1;

   if (desc->form != Form::Kil &&
       !operand([&] { return parse_dst(dst, desc->form == Form::Arl); }))
      return false;
   for (int i = 0; i < num_src; i++) {
      SrcOperand s;
      if (!operand([&] { return parse_src(s, scalar, desc->form != Form::Swz); }))
         return false;
      srcs.push_back(s);
   }

   Instruction inst;
   inst.opcode = desc->op;
   inst.saturate = sat;
   inst.loc = loc;

   switch (desc->lower) {
   case Lower::Direct:
      if (desc->form == Form::Tex) {
         int32_t unit = 0;
         tgsi::TextureTarget target{};
         SourceLoc uloc = toks_[ranges[2].first].loc;
         if (!operand([&] { return parse_tex_unit(unit); }) ||
             !operand([&] { return parse_tex_target(target); }))
            return false;
         auto it = samplers_.find(unit);
         if (it != samplers_.end() && it->second != target) {
            error(uloc, "texture unit " + std::to_string(unit) + " is already used with target " +
                           std::string(tgsi::texture_target_name(it->second)));
            return false;
         }
         samplers_[unit] = target;
         srcs.push_back(src_reg(File::Sampler, unit));
         inst.tex_target = target;
      }
      inst.dst.push_back(dst);
      inst.src = srcs;
      emit(inst);
      return true;

   case Lower::Abs:
      srcs[0].absolute = true;
      srcs[0].negate = false;
      emit(make(Opcode::MOV, dst, srcs, loc, sat));
      return true;

   case Lower::Sub:
      srcs[1].negate = !srcs[1].negate;
      emit(make(Opcode::ADD, dst, srcs, loc, sat));
      return true;

   case Lower::Kil:
      inst.src = srcs;
      emit(inst);
      return true;

   case Lower::Xpd: {
      /* dst = a.yzx * b.zxy - a.zxy * b.yzx; the product goes through a
       * scratch temporary so dst may alias a or b.  w is undefined. */
      uint8_t mask = dst.write_mask & (tgsi::WM_X | tgsi::WM_Y | tgsi::WM_Z);
      if (!mask)
         return true;
      if (xpd_temp_ < 0)
         xpd_temp_ = scratch_temp();
      SrcOperand a1 = srcs[0], b1 = srcs[1], a2 = srcs[0], b2 = srcs[1];
      a1.swizzle = compose(srcs[0].swizzle, {2, 0, 1, 3});
      b1.swizzle = compose(srcs[1].swizzle, {1, 2, 0, 3});
      a2.swizzle = compose(srcs[0].swizzle, {1, 2, 0, 3});
      b2.swizzle = compose(srcs[1].swizzle, {2, 0, 1, 3});
      emit(make(Opcode::MUL, dst_reg(File::Temporary, xpd_temp_, mask), {a1, b1}, loc));
      SrcOperand t = src_reg(File::Temporary, xpd_temp_);
      t.negate = true;
      dst.write_mask = mask;
      emit(make(Opcode::MAD, dst, {a2, b2, t}, loc, sat));
      return true;
   }

   case Lower::Scs: {
      /* x = cos, y = sin.  Write the channel the source does not read
       * first, so dst may alias the source. */
      uint8_t mask = dst.write_mask & (tgsi::WM_X | tgsi::WM_Y);
      DstOperand dx = dst, dy = dst;
      dx.write_mask = tgsi::WM_X;
      dy.write_mask = tgsi::WM_Y;
      Instruction c = make(Opcode::COS, dx, srcs, loc, sat);
      Instruction s = make(Opcode::SIN, dy, srcs, loc, sat);
      bool sin_first = srcs[0].swizzle[0] == tgsi::SWZ_X;
      if (sin_first && (mask & tgsi::WM_Y))
         emit(s);
      if (mask & tgsi::WM_X)
         emit(c);
      if (!sin_first && (mask & tgsi::WM_Y))
         emit(s);
      return true;
   }

   case Lower::Swz: {
      std::array<int, 4> sel{};
      std::array<bool, 4> neg{};
      for (int c = 0; c < 4; c++) {
         bool ok = operand([&] {
            bool n = false;
            if (peek().is('-') || peek().is('+'))
               n = next().is('-');
            SourceLoc cl = here();
            const Token &t = peek();
            bool fp = kind_ == ProgramKind::Fragment;
            static constexpr std::string_view xyzw = "xyzw", rgba = "rgba";
            if (t.kind == TokKind::Int && (t.int_value == 0 || t.int_value == 1) &&
                t.text.size() == 1) {
               sel[c] = t.int_value == 0 ? 4 : 5;
            } else if (t.kind == TokKind::Ident && t.text.size() == 1 &&
                       (xyzw.find(t.text[0]) != std::string_view::npos ||
                        (fp && rgba.find(t.text[0]) != std::string_view::npos))) {
               size_t p = xyzw.find(t.text[0]);
               sel[c] = int(p != std::string_view::npos ? p : rgba.find(t.text[0]));
            } else {
               error(cl, "invalid extended swizzle component " + tok_desc(t));
               return false;
            }
            next();
            neg[c] = n;
            return true;
         });
         if (!ok)
            return false;
      }
      /* A negated source (an extension: the specs allow no sign here)
       * negates the selected components, not the 0/1 constants. */
      SrcOperand s = srcs[0];
      for (int c = 0; c < 4; c++)
         if (sel[c] < 4)
            neg[c] = neg[c] != s.negate;
      s.negate = false;

      uint8_t pos_mask = 0, neg_mask = 0, const_mask = 0;
      std::array<uint8_t, 4> swz = {0, 1, 2, 3}, cswz = {0, 0, 0, 0};
      for (int c = 0; c < 4; c++) {
         if (!(dst.write_mask & (1u << c)))
            continue;
         if (sel[c] >= 4) {
            const_mask |= uint8_t(1u << c);
            /* Immediate (0, 1, -1, -0): pick the signed constant. */
            cswz[c] = uint8_t(sel[c] == 4 ? (neg[c] ? 3 : 0) : (neg[c] ? 2 : 1));
         } else {
            (neg[c] ? neg_mask : pos_mask) |= uint8_t(1u << c);
            swz[c] = s.swizzle[sel[c]];
         }
      }
      DstOperand target = dst;
      bool via_temp = pos_mask && neg_mask && same_register(dst, s);
      if (via_temp) {
         if (swz_temp_ < 0)
            swz_temp_ = scratch_temp();
         target = dst_reg(File::Temporary, swz_temp_, dst.write_mask);
      }
      bool final_sat = sat && !via_temp;
      s.swizzle = swz;
      if (pos_mask) {
         target.write_mask = pos_mask;
         emit(make(Opcode::MOV, target, {s}, loc, final_sat));
      }
      if (neg_mask) {
         SrcOperand n = s;
         n.negate = true;
         target.write_mask = neg_mask;
         emit(make(Opcode::MOV, target, {n}, loc, final_sat));
      }
      if (const_mask) {
         int32_t imm = immediate({0.0f, 1.0f, -1.0f, -0.0f});
         target.write_mask = const_mask;
         emit(make(Opcode::MOV, target, {src_reg(File::Immediate, imm, cswz)}, loc, final_sat));
      }
      if (via_temp)
         emit(make(Opcode::MOV, dst, {src_reg(File::Temporary, swz_temp_)}, loc, sat));
      return true;
   }
   }
   return false;
}

std::optional<Program> Parser::run()
{
   if (!parse_header())
      return std::nullopt;
   toks_ = tokenize(text_, 10, SourceLoc{1, 11}, file_, diags_);
   pos_ = 0;
   set_limit(toks_.size() - 1);

   bool ended = false;
   while (true) {
      const Token &t = toks_[pos_];
      if (t.kind == TokKind::Eof) {
         error(t.loc, "missing END at the end of the program");
         break;
      }
      if (t.is_ident("END")) {
         ended = true;
         break;
      }
      parse_statement();
      /* Bad input can report many errors; the list is capped, stop too. */
      if (diags_.num_errors() > 100)
         break;
   }
   if (ended && !seen_statement_ && position_invariant_)
      emit_position_invariant();
   if (diags_.has_errors())
      return std::nullopt;
   emit_fog();
   if (diags_.has_errors())
      return std::nullopt;
   return finish();
}

std::optional<Program> parse_arb(std::string_view text, std::string_view file_name,
                                 Diagnostics &diags)
{
   /* Errors from an earlier parse sharing diags must not fail this one. */
   Diagnostics local;
   Parser p(text, file_name, local);
   std::optional<Program> result = p.run();
   for (const Diagnostic &d : local.all())
      diags.report(d.severity, d.file, d.loc, d.message);
   return result;
}

} // namespace sbcc::arb
