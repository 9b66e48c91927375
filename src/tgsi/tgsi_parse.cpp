/*
 * TGSI text front-end: reads what Mesa's tgsi_dump prints (and the subset of
 * tgsi_text syntax people write by hand) into the TGSI IR.
 *
 * The input is treated line by line: a statement never spans lines in
 * tgsi_dump output, and a line-based parser can resynchronise after an error
 * and name the offending line and column precisely.  Syntax is checked while
 * reading; references (declared registers, existing immediates) and control
 * flow nesting are checked afterwards over the whole shader, because TGSI
 * does not require declarations to precede their uses in the token stream.
 *
 * Comments: '#' and ';' start a comment running to the end of the line.
 * tgsi_text has no comments, but hand-written test shaders want them and
 * neither character can appear in tgsi_dump output.
 */
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "tgsi/tgsi_ir.h"
#include "tgsi/tgsi_lexer.h"

namespace sbcc::tgsi {

namespace {

/* Register, dimension and semantic indices beyond this are certainly
 * garbage; capping them keeps later per-index tables bounded. */
constexpr uint64_t kMaxIndex = 65535;
/* More errors than this and the input is not TGSI at all. */
constexpr unsigned kMaxErrors = 50;

struct Bracket {
   int32_t value = 0;
   std::optional<IndirectRef> indirect;
   uint16_t array_id = 0;
   SourceLoc loc;
};

/* One comma-separated instruction operand before we know whether it is a
 * destination, source or texture offset. */
struct RawOperand {
   SourceLoc loc;
   bool negate = false;
   bool absolute = false;
   File file = File::Null;
   Bracket br[2];
   unsigned num_brackets = 0;
   std::string_view suffix; /* letters after '.', empty when none */
   bool has_suffix = false;
   SourceLoc suffix_loc;
};

std::optional<File> file_from_name(std::string_view w)
{
   for (unsigned f = 1; f < static_cast<unsigned>(File::Count); f++)
      if (keyword_equals(w, file_name(static_cast<File>(f))))
         return static_cast<File>(f);
   return std::nullopt;
}

std::optional<TextureTarget> target_from_name(std::string_view w)
{
   /* UNKNOWN included: tgsi_text accepts it, and print_tgsi writes it for
    * an instruction or view whose target was never set. */
   for (unsigned t = 0; t < static_cast<unsigned>(TextureTarget::Count); t++)
      if (keyword_equals(w, texture_target_name(static_cast<TextureTarget>(t))))
         return static_cast<TextureTarget>(t);
   return std::nullopt;
}

std::optional<Semantic> semantic_from_name(std::string_view w)
{
   for (unsigned s = 1; s < static_cast<unsigned>(Semantic::Count); s++)
      if (keyword_equals(w, semantic_name(static_cast<Semantic>(s))))
         return static_cast<Semantic>(s);
   return std::nullopt;
}

std::optional<Interpolate> interpolate_from_name(std::string_view w)
{
   for (unsigned i = 1; i <= static_cast<unsigned>(Interpolate::Color); i++)
      if (keyword_equals(w, interpolate_name(static_cast<Interpolate>(i))))
         return static_cast<Interpolate>(i);
   return std::nullopt;
}

std::optional<ReturnType> return_type_from_name(std::string_view w)
{
   static constexpr std::string_view names[] = {"UNORM", "SNORM", "SINT", "UINT", "FLOAT"};
   for (unsigned i = 0; i < std::size(names); i++)
      if (keyword_equals(w, names[i]))
         return static_cast<ReturnType>(i);
   return std::nullopt;
}

std::optional<uint8_t> swizzle_from_char(int c)
{
   switch (c) {
   case 'x': case 'X': return SWZ_X;
   case 'y': case 'Y': return SWZ_Y;
   case 'z': case 'Z': return SWZ_Z;
   case 'w': case 'W': return SWZ_W;
   default: return std::nullopt;
   }
}

/* ".xyw" style mask: each of x, y, z, w at most once and in that order, as
 * tgsi_dump prints and tgsi_text accepts. */
std::optional<uint8_t> mask_from_letters(std::string_view s)
{
   uint8_t mask = 0;
   int last = -1;
   for (char c : s) {
      auto swz = swizzle_from_char(static_cast<unsigned char>(c));
      if (!swz || static_cast<int>(*swz) <= last)
         return std::nullopt;
      last = *swz;
      mask |= static_cast<uint8_t>(1u << *swz);
   }
   return mask ? std::optional<uint8_t>(mask) : std::nullopt;
}

/* opcode_from_name hashes the name; bucketing by first letter is cheaper
 * for the few hundred thousand lookups of a corpus run. */
std::optional<Opcode> lookup_opcode(std::string_view upper)
{
   static const auto buckets = [] {
      std::array<std::vector<Opcode>, 27> b;
      for (unsigned i = 0; i < kNumOpcodes; i++) {
         char c = kOpcodeInfo[i].name.empty() ? '\0' : kOpcodeInfo[i].name[0];
         b[(c >= 'A' && c <= 'Z') ? c - 'A' : 26].push_back(static_cast<Opcode>(i));
      }
      return b;
   }();
   if (upper.empty())
      return std::nullopt;
   const char c = upper[0];
   for (Opcode op : buckets[(c >= 'A' && c <= 'Z') ? c - 'A' : 26])
      if (opcode_info(op).name == upper)
         return op;
   return std::nullopt;
}

/* Which indices of one register file (and, for CONST, one buffer) are
 * declared, as sorted disjoint ranges: checking an operand is a binary
 * search, so a hostile shader with many DCLs and uses stays near-linear. */
struct DeclaredSet {
   File file;
   int32_t dim;
   std::vector<std::pair<int32_t, int32_t>> ranges;

   bool contains(int32_t index) const
   {
      auto it = std::upper_bound(ranges.begin(), ranges.end(), index,
                                 [](int32_t v, const auto &r) { return v < r.first; });
      return it != ranges.begin() && index <= std::prev(it)->second;
   }
};

std::string reg_text(File f, const std::optional<int32_t> &dim, int32_t index)
{
   std::string s(file_name(f));
   if (dim) {
      s += '[';
      s += std::to_string(*dim);
      s += ']';
   }
   s += '[';
   s += std::to_string(index);
   s += ']';
   return s;
}

class Parser {
 public:
   Parser(std::string_view text, std::string_view file, Diagnostics &diags)
      : text_(text), file_(file), diags_(diags)
   {
   }

   std::optional<Shader> run();

 private:
   void error(SourceLoc loc, std::string msg)
   {
      num_errors_++;
      diags_.error(file_, loc, std::move(msg));
   }
   void error(const LineCursor &c, std::string msg) { error(loc(c), std::move(msg)); }
   static SourceLoc loc(const LineCursor &c) { return {c.line(), c.column()}; }
   static SourceLoc loc_at(const LineCursor &c, size_t pos) { return {c.line(), c.column_at(pos)}; }

   /* Report whatever stands at the cursor as unexpected. */
   bool unexpected(LineCursor &c, std::string_view what_expected);
   bool expect_end(LineCursor &c);
   bool expect_char(LineCursor &c, char ch);
   bool parse_index(LineCursor &c, uint64_t limit, uint64_t *value, const char *what);

   bool parse_header(LineCursor &c);
   bool parse_property(LineCursor &c);
   bool parse_declaration(LineCursor &c, SourceLoc start);
   bool parse_dcl_range(LineCursor &c, int32_t *first, int32_t *last, bool allow_empty,
                        bool *empty);
   bool parse_immediate(LineCursor &c, SourceLoc start);
   bool parse_imm_value(LineCursor &c, ImmType type, uint32_t *bits);
   bool parse_instruction(LineCursor &c);
   bool parse_operand(LineCursor &c, RawOperand &op);
   bool parse_bracket(LineCursor &c, Bracket &b);
   bool make_dst(const RawOperand &raw, DstOperand &dst);
   bool make_src(const RawOperand &raw, SrcOperand &src);
   bool make_offset(const RawOperand &raw, TexOffset &off);
   bool set_register(const RawOperand &raw, RegIndex &index, std::optional<RegIndex> &dim,
                     uint16_t &array_id);

   void validate();
   void check_register(File file, const RegIndex &index, const std::optional<RegIndex> &dim,
                       SourceLoc where);
   void check_indirect(const IndirectRef &ind, SourceLoc where);
   void check_control_flow();
   void build_declared_sets();
   const DeclaredSet *declared_set(File file, int32_t dim) const;
   bool declared_anywhere(File file, int32_t index) const;

   std::string_view text_;
   std::string_view file_;
   Diagnostics &diags_;
   Shader shader_;
   bool have_header_ = false;
   unsigned num_errors_ = 0;
   SourceLoc end_loc_;
   std::vector<DeclaredSet> declared_;
};

bool Parser::unexpected(LineCursor &c, std::string_view what_expected)
{
   c.skip_ws();
   if (c.at_end())
      error(c, "expected " + std::string(what_expected) + " before end of line");
   else
      error(c, "expected " + std::string(what_expected) + ", found '" +
                  quote_token(c.token_here()) + "'");
   return false;
}

bool Parser::expect_end(LineCursor &c)
{
   c.skip_ws();
   if (c.at_end())
      return true;
   error(c, "unexpected '" + quote_token(c.token_here()) + "'");
   return false;
}

bool Parser::expect_char(LineCursor &c, char ch)
{
   if (c.accept(ch))
      return true;
   return unexpected(c, std::string("'") + ch + "'");
}

bool Parser::parse_index(LineCursor &c, uint64_t limit, uint64_t *value, const char *what)
{
   c.skip_ws();
   size_t start = c.pos();
   bool overflow = false;
   if (!c.uint(limit, value, &overflow))
      return unexpected(c, what);
   if (overflow) {
      error(loc_at(c, start), std::string(what) + " " +
                                 quote_token(c.text().substr(start, c.pos() - start)) +
                                 " is out of range (max " + std::to_string(limit) + ")");
      return false;
   }
   return true;
}

bool Parser::parse_header(LineCursor &c)
{
   std::string_view w = c.peek_word();
   static constexpr struct {
      std::string_view name;
      Processor proc;
   } procs[] = {{"VERT", Processor::Vertex}, {"FRAG", Processor::Fragment},
                {"GEOM", Processor::Geometry}, {"COMP", Processor::Compute}};
   for (const auto &p : procs) {
      if (keyword_equals(w, p.name)) {
         c.word();
         shader_.processor = p.proc;
         have_header_ = true;
         return expect_end(c);
      }
   }
   if (keyword_equals(w, "TESS_CTRL") || keyword_equals(w, "TESS_EVAL")) {
      error(c, "unsupported processor type '" + std::string(w) + "'");
      return false;
   }
   if (w.empty() && c.at_end())
      error(c, "expected processor type (VERT, FRAG, GEOM or COMP)");
   else
      error(c, "expected processor type (VERT, FRAG, GEOM or COMP), found '" +
                  quote_token(c.token_here()) + "'");
   return false;
}

bool Parser::parse_property(LineCursor &c)
{
   c.skip_ws();
   std::string_view name = c.word();
   if (name.empty())
      return unexpected(c, "property name");
   c.skip_ws();
   size_t vstart = c.pos();
   std::string_view value = c.word();
   if (value.empty())
      return unexpected(c, "property value");
   SourceLoc value_loc = loc_at(c, vstart);

   PropertyDecl prop;
   prop.value_text = std::string(value);
   for (char &ch : prop.value_text)
      ch = to_upper(ch);

   auto numeric = [&]() {
      uint64_t v = 0;
      bool overflow = false;
      LineCursor vc(value, c.line());
      if (!vc.uint(UINT32_MAX, &v, &overflow) || !vc.at_end() || overflow) {
         error(value_loc, "invalid value '" + quote_token(value) + "' for " +
                             std::string(prop.name));
         return false;
      }
      prop.value = static_cast<uint32_t>(v);
      return true;
   };
   auto named = [&](std::initializer_list<std::pair<std::string_view, uint32_t>> names) {
      for (const auto &n : names) {
         if (keyword_equals(value, n.first)) {
            prop.value = n.second;
            return true;
         }
      }
      error(value_loc, "invalid value '" + quote_token(value) + "' for " + prop.name);
      return false;
   };

   static constexpr struct {
      std::string_view name;
      Property prop;
   } props[] = {
      {"FS_COORD_ORIGIN", Property::FsCoordOrigin},
      {"FS_COORD_PIXEL_CENTER", Property::FsCoordPixelCenter},
      {"FS_COLOR0_WRITES_ALL_CBUFS", Property::FsColor0WritesAllCbufs},
      {"FS_DEPTH_LAYOUT", Property::FsDepthLayout},
      {"FS_EARLY_DEPTH_STENCIL", Property::FsEarlyDepthStencil},
      {"NEXT_SHADER", Property::NextShader},
      {"NUM_CLIPDIST_ENABLED", Property::NumClipdistEnabled},
      {"NUM_CULLDIST_ENABLED", Property::NumCulldistEnabled},
      {"VS_WINDOW_SPACE_POSITION", Property::VsWindowSpacePosition},
   };
   prop.property = Property::Other;
   for (const auto &p : props) {
      if (keyword_equals(name, p.name)) {
         prop.property = p.prop;
         prop.name = std::string(p.name);
         break;
      }
   }

   bool ok = true;
   switch (prop.property) {
   case Property::FsCoordOrigin:
      ok = named({{"UPPER_LEFT", 0}, {"LOWER_LEFT", 1}});
      break;
   case Property::FsCoordPixelCenter:
      ok = named({{"HALF_INTEGER", 0}, {"INTEGER", 1}});
      break;
   case Property::NextShader:
      /* Tessellation stages have no Processor value; keep them by name. */
      if (keyword_equals(value, "TESS_CTRL") || keyword_equals(value, "TESS_EVAL")) {
         prop.property = Property::Other;
         break;
      }
      ok = named({{"VERT", static_cast<uint32_t>(Processor::Vertex)},
                  {"FRAG", static_cast<uint32_t>(Processor::Fragment)},
                  {"GEOM", static_cast<uint32_t>(Processor::Geometry)},
                  {"COMP", static_cast<uint32_t>(Processor::Compute)}});
      break;
   case Property::Other: {
      prop.name = std::string(name);
      for (char &ch : prop.name)
         ch = to_upper(ch);
      /* Unknown properties keep their text; a number is also decoded. */
      uint64_t v = 0;
      bool overflow = false;
      LineCursor vc(value, c.line());
      if (vc.uint(UINT32_MAX, &v, &overflow) && vc.at_end() && !overflow)
         prop.value = static_cast<uint32_t>(v);
      break;
   }
   default:
      ok = numeric();
      break;
   }
   if (!ok)
      return false;
   if (prop.property == Property::Other) {
      /* tgsi_dump prints some properties with several values
       * ("NAME a, b, c"); an unknown one keeps all of its text. */
      std::string_view rest = c.text().substr(vstart);
      while (!rest.empty() && is_blank(rest.back()))
         rest.remove_suffix(1);
      prop.value_text.clear();
      for (char ch : rest)
         prop.value_text += to_upper(ch);
      c.set_pos(c.text().size());
   }
   if (!expect_end(c))
      return false;
   shader_.properties.push_back(std::move(prop));
   return true;
}

/* "[first]" or "[first..last]" after the '[' has been consumed; with
 * allow_empty, "[]" (geometry inputs) sets *empty. */
bool Parser::parse_dcl_range(LineCursor &c, int32_t *first, int32_t *last, bool allow_empty,
                             bool *empty)
{
   c.skip_ws();
   if (allow_empty && c.peek() == ']') {
      c.advance();
      *empty = true;
      return true;
   }
   uint64_t f = 0, l = 0;
   size_t start = c.pos();
   if (!parse_index(c, kMaxIndex, &f, "register index"))
      return false;
   l = f;
   c.skip_ws();
   if (c.peek() == '.' && c.peek_at(1) == '.') {
      c.advance(2);
      if (!parse_index(c, kMaxIndex, &l, "register index"))
         return false;
      if (l < f) {
         error(loc_at(c, start), "invalid range " + std::to_string(f) + ".." +
                                    std::to_string(l) + ": last index is below first");
         return false;
      }
   }
   if (!expect_char(c, ']'))
      return false;
   *first = static_cast<int32_t>(f);
   *last = static_cast<int32_t>(l);
   return true;
}

bool Parser::parse_declaration(LineCursor &c, SourceLoc start)
{
   Declaration d;
   d.loc = start;
   c.skip_ws();
   size_t fstart = c.pos();
   std::string_view fw = c.word();
   auto file = file_from_name(fw);
   if (!file || *file == File::Immediate) {
      c.set_pos(fstart);
      if (fw.empty())
         return unexpected(c, "register file");
      error(c, "unknown register file '" + quote_token(fw) + "'");
      return false;
   }
   d.file = *file;
   if (!expect_char(c, '['))
      return false;

   const bool geom_input = d.file == File::Input && shader_.processor == Processor::Geometry;
   bool empty = false;
   int32_t f0 = 0, l0 = 0;
   if (!parse_dcl_range(c, &f0, &l0, geom_input, &empty))
      return false;
   if (c.accept('[')) {
      int32_t f1 = 0, l1 = 0;
      bool empty1 = false;
      size_t second = c.pos();
      if (!parse_dcl_range(c, &f1, &l1, false, &empty1))
         return false;
      if (geom_input) {
         /* IN[][n] / IN[3][n]: the first bracket is the vertex count, which
          * the input primitive implies; only the second one declares. */
         d.first = f1;
         d.last = l1;
      } else if (d.file == File::Constant) {
         if (f0 != l0) {
            error(loc_at(c, second), "constant buffer index must be a single number");
            return false;
         }
         d.dimension = f0;
         d.first = f1;
         d.last = l1;
      } else {
         error(loc_at(c, second - 1),
               std::string(file_name(d.file)) + " declarations take one index range");
         return false;
      }
   } else if (empty) {
      return unexpected(c, "'['");
   } else {
      d.first = f0;
      d.last = l0;
   }

   /* Usage mask. */
   c.skip_ws();
   if (c.peek() == '.') {
      c.advance();
      size_t mstart = c.pos();
      std::string_view m = c.word();
      auto mask = mask_from_letters(m);
      if (!mask) {
         error(loc_at(c, mstart), "invalid usage mask '." + quote_token(m) + "'");
         return false;
      }
      d.usage_mask = *mask;
   }

   /* Attributes come in tgsi_dump's order; enforcing it is what lets COLOR
    * mean the semantic before and the interpolation mode after. */
   enum Phase { kNone, kArray, kLocal, kSemantic, kInterp, kLocation, kInvariant };
   int phase = kNone;
   bool have_view = false;
   while (c.accept(',')) {
      c.skip_ws();
      size_t wstart = c.pos();
      std::string_view w = c.word();
      SourceLoc wloc = loc_at(c, wstart);
      if (w.empty()) {
         c.set_pos(wstart);
         return unexpected(c, "declaration attribute");
      }
      if (phase < kArray && keyword_equals(w, "ARRAY")) {
         uint64_t id = 0;
         if (!expect_char(c, '(') || !parse_index(c, kMaxIndex, &id, "array id") ||
             !expect_char(c, ')'))
            return false;
         if (id == 0) {
            error(wloc, "array id must be at least 1");
            return false;
         }
         d.array_id = static_cast<uint16_t>(id);
         phase = kArray;
         continue;
      }
      if (phase < kLocal && keyword_equals(w, "LOCAL")) {
         d.local = true;
         phase = kLocal;
         continue;
      }
      if (phase < kSemantic && d.file == File::SamplerView) {
         auto t = target_from_name(w);
         if (!t) {
            error(wloc, "unknown texture target '" + quote_token(w) + "'");
            return false;
         }
         d.view_target = *t;
         have_view = true;
         if (!expect_char(c, ','))
            return false;
         ReturnType types[4];
         unsigned n = 0;
         do {
            c.skip_ws();
            size_t rstart = c.pos();
            std::string_view rw = c.word();
            auto rt = return_type_from_name(rw);
            if (!rt) {
               c.set_pos(rstart);
               if (rw.empty())
                  return unexpected(c, "return type");
               error(c, "unknown return type '" + quote_token(rw) + "'");
               return false;
            }
            if (n == 4) {
               error(loc_at(c, rstart), "too many return types (at most 4)");
               return false;
            }
            types[n++] = *rt;
            /* Another return type follows only if the next word is one:
             * ", FLOAT, CENTROID" ends the list at FLOAT. */
            size_t save = c.pos();
            if (!c.accept(','))
               break;
            c.skip_ws();
            if (!return_type_from_name(c.peek_word())) {
               c.set_pos(save);
               break;
            }
         } while (true);
         if (n != 1 && n != 4) {
            error(wloc, "expected 1 or 4 return types, found " + std::to_string(n));
            return false;
         }
         for (unsigned i = 0; i < 4; i++)
            d.view_return[i] = types[n == 1 ? 0 : i];
         phase = kSemantic;
         continue;
      }
      if (phase < kSemantic) {
         if (auto s = semantic_from_name(w)) {
            d.semantic = *s;
            if (c.accept('[')) {
               uint64_t idx = 0;
               if (!parse_index(c, kMaxIndex, &idx, "semantic index") || !expect_char(c, ']'))
                  return false;
               d.semantic_index = static_cast<uint32_t>(idx);
            }
            phase = kSemantic;
            continue;
         }
      }
      if (phase < kInterp) {
         if (auto i = interpolate_from_name(w)) {
            d.interpolate = *i;
            phase = kInterp;
            continue;
         }
      }
      if (phase < kLocation) {
         if (keyword_equals(w, "CENTER") || keyword_equals(w, "CENTROID") ||
             keyword_equals(w, "SAMPLE")) {
            d.location = keyword_equals(w, "CENTER")     ? InterpLocation::Center
                         : keyword_equals(w, "CENTROID") ? InterpLocation::Centroid
                                                          : InterpLocation::Sample;
            phase = kLocation;
            continue;
         }
      }
      if (phase < kInvariant && keyword_equals(w, "INVARIANT")) {
         d.invariant = true;
         phase = kInvariant;
         continue;
      }
      error(wloc, "unexpected '" + quote_token(w) + "' in declaration");
      return false;
   }
   if (d.file == File::SamplerView && !have_view) {
      c.skip_ws();
      error(c, "SVIEW declaration needs a texture target and return type");
      return false;
   }
   if (!expect_end(c))
      return false;
   shader_.declarations.push_back(d);
   return true;
}

bool Parser::parse_imm_value(LineCursor &c, ImmType type, uint32_t *bits)
{
   c.skip_ws();
   size_t start = c.pos();
   std::string_view t = c.text();
   size_t end = start;
   while (end < t.size() && (is_word_char(t[end]) || t[end] == '.' || t[end] == '+' ||
                             t[end] == '-'))
      end++;
   std::string_view tok = t.substr(start, end - start);
   SourceLoc where = loc_at(c, start);
   if (tok.empty())
      return unexpected(c, "number");
   c.set_pos(end);

   auto bad = [&]() {
      error(where, "invalid " + std::string(type == ImmType::Float32 ? "float" : "integer") +
                      " '" + quote_token(tok) + "'");
      return false;
   };

   bool neg = false;
   std::string_view body = tok;
   if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
      neg = body[0] == '-';
      body.remove_prefix(1);
   }
   /* 0x........ is raw bits for every type: tgsi_dump prints floats that
    * way when asked to, and it is the only exact spelling of a NaN. */
   bool hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
   if (hex || type != ImmType::Float32) {
      uint64_t v = 0;
      int base = hex ? 16 : 10;
      std::string_view digits = hex ? body.substr(2) : body;
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
      if (r.ec == std::errc::result_out_of_range) {
         error(where, "number '" + quote_token(tok) + "' does not fit in 32 bits");
         return false;
      }
      if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || digits.empty())
         return bad();
      if (hex) {
         if (neg || v > UINT32_MAX) {
            error(where, "number '" + quote_token(tok) + "' does not fit in 32 bits");
            return false;
         }
         *bits = static_cast<uint32_t>(v);
         return true;
      }
      if (type == ImmType::Uint32) {
         if (neg || v > UINT32_MAX) {
            error(where, "number '" + quote_token(tok) + "' does not fit in UINT32");
            return false;
         }
         *bits = static_cast<uint32_t>(v);
      } else {
         if ((!neg && v > INT32_MAX) || (neg && v > static_cast<uint64_t>(INT32_MAX) + 1)) {
            error(where, "number '" + quote_token(tok) + "' does not fit in INT32");
            return false;
         }
         int64_t s = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
         *bits = static_cast<uint32_t>(static_cast<int32_t>(s));
      }
      return true;
   }

   float f = 0.0f;
   auto r = std::from_chars(body.data(), body.data() + body.size(), f);
   /* Out-of-range decimal floats become infinities/zero as strtof would. */
   if (r.ec == std::errc::result_out_of_range && r.ptr == body.data() + body.size()) {
      bool tiny = false;
      for (char ch : body)
         if (ch == '-')
            tiny = true; /* negative exponent */
      f = tiny ? 0.0f : HUGE_VALF;
   } else if (r.ec != std::errc() || r.ptr != body.data() + body.size() ||
              (body.size() && !is_digit(body[0]) && body[0] != '.' &&
               !keyword_equals(body, "INF") && !keyword_equals(body, "NAN") &&
               !keyword_equals(body, "INFINITY"))) {
      return bad();
   }
   if (neg)
      f = -f;
   std::memcpy(bits, &f, 4);
   return true;
}

bool Parser::parse_immediate(LineCursor &c, SourceLoc start)
{
   Immediate imm;
   imm.loc = start;
   if (c.accept('[')) {
      uint64_t idx = 0;
      size_t istart = c.pos();
      if (!parse_index(c, kMaxIndex, &idx, "immediate index") || !expect_char(c, ']'))
         return false;
      if (idx != shader_.immediates.size()) {
         LineCursor tmp = c;
         tmp.set_pos(istart);
         tmp.skip_ws();
         error(tmp, "immediate IMM[" + std::to_string(idx) + "] out of order, expected IMM[" +
                       std::to_string(shader_.immediates.size()) + "]");
         return false;
      }
   }
   c.skip_ws();
   size_t tstart = c.pos();
   std::string_view tw = c.word();
   if (keyword_equals(tw, "FLT32")) {
      imm.type = ImmType::Float32;
   } else if (keyword_equals(tw, "UINT32")) {
      imm.type = ImmType::Uint32;
   } else if (keyword_equals(tw, "INT32")) {
      imm.type = ImmType::Int32;
   } else {
      c.set_pos(tstart);
      if (tw.empty())
         return unexpected(c, "immediate type");
      error(c, "unknown immediate type '" + quote_token(tw) + "'");
      return false;
   }
   if (!expect_char(c, '{'))
      return false;
   unsigned n = 0;
   c.skip_ws();
   if (c.peek() == '}')
      return unexpected(c, "number");
   do {
      if (n == 4) {
         c.skip_ws();
         error(c, "too many immediate values (at most 4)");
         return false;
      }
      if (!parse_imm_value(c, imm.type, &imm.value[n]))
         return false;
      n++;
   } while (c.accept(','));
   if (!expect_char(c, '}') || !expect_end(c))
      return false;
   imm.count = static_cast<uint8_t>(n);
   shader_.immediates.push_back(imm);
   return true;
}

/* Inside '[' ... ']' (the '[' already consumed): an index, or an indirect
 * FILE[n].c with an optional +/-offset; then an optional "(array id)". */
bool Parser::parse_bracket(LineCursor &c, Bracket &b)
{
   c.skip_ws();
   b.loc = loc(c);
   int ch = c.peek();
   if (ch != LineCursor::kEnd && is_digit(static_cast<char>(ch))) {
      uint64_t v = 0;
      if (!parse_index(c, kMaxIndex, &v, "register index"))
         return false;
      b.value = static_cast<int32_t>(v);
   } else if (ch != LineCursor::kEnd && is_word_char(static_cast<char>(ch))) {
      size_t fstart = c.pos();
      std::string_view fw = c.word();
      auto file = file_from_name(fw);
      if (!file) {
         c.set_pos(fstart);
         error(c, "unknown register file '" + quote_token(fw) + "'");
         return false;
      }
      IndirectRef ind;
      ind.file = *file;
      uint64_t idx = 0;
      if (!expect_char(c, '[') || !parse_index(c, kMaxIndex, &idx, "register index") ||
          !expect_char(c, ']'))
         return false;
      ind.index = static_cast<int32_t>(idx);
      if (c.accept('.')) {
         c.skip_ws();
         size_t sstart = c.pos();
         std::string_view sw = c.word();
         if (sw.size() != 1 || !swizzle_from_char(static_cast<unsigned char>(sw[0]))) {
            c.set_pos(sstart);
            error(c, "invalid indirect swizzle '." + quote_token(sw) +
                        "' (expected one of x, y, z, w)");
            return false;
         }
         ind.swizzle = *swizzle_from_char(static_cast<unsigned char>(sw[0]));
      }
      c.skip_ws();
      if (c.peek() == '+' || c.peek() == '-') {
         bool neg = c.peek() == '-';
         c.advance();
         uint64_t off = 0;
         if (!parse_index(c, kMaxIndex, &off, "offset"))
            return false;
         b.value = neg ? -static_cast<int32_t>(off) : static_cast<int32_t>(off);
      }
      b.indirect = ind;
   } else {
      return unexpected(c, "register index");
   }
   if (!expect_char(c, ']'))
      return false;
   /* No blank allowed before '(': tgsi_text reads it only right after ']'. */
   if (c.peek() == '(') {
      c.advance();
      uint64_t id = 0;
      if (!parse_index(c, kMaxIndex, &id, "array id") || !expect_char(c, ')'))
         return false;
      b.array_id = static_cast<uint16_t>(id);
      if (b.indirect)
         b.indirect->array_id = b.array_id;
   }
   return true;
}

/* [-][|]FILE[..][..][.letters][|] */
bool Parser::parse_operand(LineCursor &c, RawOperand &op)
{
   c.skip_ws();
   op.loc = loc(c);
   if (c.peek() == '-') {
      op.negate = true;
      c.advance();
      c.skip_ws();
   }
   if (c.peek() == '|') {
      op.absolute = true;
      c.advance();
      c.skip_ws();
   }
   size_t fstart = c.pos();
   std::string_view fw = c.word();
   auto file = file_from_name(fw);
   if (!file) {
      c.set_pos(fstart);
      if (fw.empty())
         return unexpected(c, "operand");
      error(c, "unknown register file '" + quote_token(fw) + "'");
      return false;
   }
   op.file = *file;
   if (!expect_char(c, '[') || !parse_bracket(c, op.br[0]))
      return false;
   op.num_brackets = 1;
   if (c.accept('[')) {
      if (!parse_bracket(c, op.br[1]))
         return false;
      op.num_brackets = 2;
   }
   if (c.accept('.')) {
      c.skip_ws();
      op.suffix_loc = loc(c);
      op.suffix = c.word();
      op.has_suffix = true;
   }
   if (op.absolute && !expect_char(c, '|'))
      return false;
   return true;
}

bool Parser::set_register(const RawOperand &raw, RegIndex &index, std::optional<RegIndex> &dim,
                          uint16_t &array_id)
{
   const Bracket &last = raw.br[raw.num_brackets - 1];
   index.value = last.value;
   index.indirect = last.indirect;
   array_id = last.array_id;
   if (raw.num_brackets == 2) {
      const Bracket &first = raw.br[0];
      bool ok = raw.file == File::Constant ||
                (raw.file == File::Input && shader_.processor == Processor::Geometry);
      if (!ok) {
         error(first.loc, std::string(file_name(raw.file)) + " registers take one index");
         return false;
      }
      if (first.array_id) {
         error(first.loc, "array id is not allowed on a dimension index");
         return false;
      }
      dim = RegIndex{first.value, first.indirect};
   }
   return true;
}

bool Parser::make_dst(const RawOperand &raw, DstOperand &dst)
{
   if (raw.negate || raw.absolute) {
      error(raw.loc, "destination operand cannot have modifiers");
      return false;
   }
   dst.file = raw.file;
   dst.loc = raw.loc;
   if (!set_register(raw, dst.index, dst.dimension, dst.array_id))
      return false;
   if (raw.has_suffix) {
      auto mask = mask_from_letters(raw.suffix);
      if (!mask) {
         error(raw.suffix_loc, "invalid write mask '." + quote_token(raw.suffix) + "'");
         return false;
      }
      dst.write_mask = *mask;
   }
   return true;
}

bool Parser::make_src(const RawOperand &raw, SrcOperand &src)
{
   src.file = raw.file;
   src.loc = raw.loc;
   src.negate = raw.negate;
   src.absolute = raw.absolute;
   if (!set_register(raw, src.index, src.dimension, src.array_id))
      return false;
   if (raw.has_suffix) {
      /* tgsi_dump always prints four letters; one letter (".x") is accepted
       * as a replicated swizzle for hand-written shaders. */
      const std::string_view s = raw.suffix;
      bool ok = s.size() == 1 || s.size() == 4;
      for (size_t i = 0; ok && i < s.size(); i++) {
         auto swz = swizzle_from_char(static_cast<unsigned char>(s[i]));
         if (!swz)
            ok = false;
         else
            src.swizzle[i] = *swz;
      }
      if (!ok) {
         error(raw.suffix_loc, "invalid swizzle '." + quote_token(s) + "'");
         return false;
      }
      if (s.size() == 1)
         src.swizzle[1] = src.swizzle[2] = src.swizzle[3] = src.swizzle[0];
   }
   return true;
}

bool Parser::make_offset(const RawOperand &raw, TexOffset &off)
{
   if (raw.negate || raw.absolute || raw.num_brackets != 1 || raw.br[0].indirect ||
       raw.br[0].array_id) {
      error(raw.loc, "texture offset must be a plain register such as IMM[0].xyz");
      return false;
   }
   off.file = raw.file;
   off.index = raw.br[0].value;
   if (raw.has_suffix) {
      const std::string_view s = raw.suffix;
      bool ok = s.size() == 3;
      for (size_t i = 0; ok && i < 3; i++) {
         auto swz = swizzle_from_char(static_cast<unsigned char>(s[i]));
         if (!swz)
            ok = false;
         else
            off.swizzle[i] = *swz;
      }
      if (!ok) {
         error(raw.suffix_loc, "invalid texture offset swizzle '." + quote_token(s) + "'");
         return false;
      }
   }
   return true;
}

bool Parser::parse_instruction(LineCursor &c)
{
   Instruction inst;
   c.skip_ws();
   inst.loc = loc(c);
   size_t ostart = c.pos();
   std::string_view name = c.word();
   if (name.empty())
      return unexpected(c, "instruction");

   /* Opcode names are short; anything longer than the buffer is unknown. */
   char upper[48];
   bool found = false;
   if (name.size() < sizeof(upper)) {
      for (size_t i = 0; i < name.size(); i++)
         upper[i] = to_upper(name[i]);
      std::string_view base(upper, name.size());
      auto op = lookup_opcode(base);
      /* Suffixes come in tgsi_dump's order: _SAT before _PRECISE.  Whole
       * names are tried first because some opcodes contain '_'. */
      if (!op && base.ends_with("_PRECISE")) {
         base.remove_suffix(8);
         inst.precise = true;
         op = lookup_opcode(base);
      }
      if (!op && base.ends_with("_SAT")) {
         base.remove_suffix(4);
         inst.saturate = true;
         op = lookup_opcode(base);
      }
      if (op) {
         inst.opcode = *op;
         found = true;
      }
   }
   if (!found) {
      c.set_pos(ostart);
      error(c, "unknown opcode '" + quote_token(name) + "'");
      return false;
   }
   const OpcodeInfo &info = inst.info();
   const unsigned num_regs = info.num_dst + info.num_src;
   inst.dst.reserve(info.num_dst);
   inst.src.reserve(info.num_src);
   const bool is_tex = info.flags & OPF_TEX;

   /* Operands: registers, then for texture opcodes a target and optional
    * offsets.  Counted first, checked against the table after. */
   unsigned nregs = 0;
   bool have_target = false;
   c.skip_ws();
   bool first = true;
   while (!c.at_end() && c.peek() != ':') {
      if (!first && !expect_char(c, ','))
         return false;
      first = false;
      c.skip_ws();
      size_t istart = c.pos();
      std::string_view w = c.peek_word();
      /* A word followed by '[' is meant as a register, known file or not. */
      LineCursor after = c;
      after.advance(w.size());
      const bool is_register = after.accept('[') || file_from_name(w);
      if (!w.empty() && !is_register) {
         /* A bare word: the texture target. */
         SourceLoc wloc = loc(c);
         auto t = target_from_name(w);
         if (!is_tex) {
            error(wloc, "unexpected '" + quote_token(w) + "'");
            return false;
         }
         if (!t) {
            error(wloc, "unknown texture target '" + quote_token(w) + "'");
            return false;
         }
         if (have_target) {
            error(wloc, "duplicate texture target '" + quote_token(w) + "'");
            return false;
         }
         if (nregs != num_regs) {
            error(inst.loc, "'" + std::string(info.name) + "' expects " +
                               std::to_string(num_regs) + " register operands, found " +
                               std::to_string(nregs));
            return false;
         }
         c.word();
         inst.tex_target = *t;
         have_target = true;
         continue;
      }
      RawOperand raw;
      c.set_pos(istart);
      if (!parse_operand(c, raw))
         return false;
      if (have_target) {
         TexOffset off;
         if (!make_offset(raw, off))
            return false;
         if (inst.tex_offsets.size() == 4) {
            error(raw.loc, "too many texture offsets (at most 4)");
            return false;
         }
         inst.tex_offsets.push_back(off);
      } else if (nregs < info.num_dst) {
         DstOperand dst;
         if (!make_dst(raw, dst))
            return false;
         inst.dst.push_back(dst);
         nregs++;
      } else if (nregs >= num_regs) {
         /* Surplus operands are only counted, for the message below. */
         nregs++;
      } else {
         SrcOperand src;
         if (!make_src(raw, src))
            return false;
         inst.src.push_back(src);
         nregs++;
      }
      c.skip_ws();
   }
   if (nregs != num_regs) {
      error(inst.loc, "'" + std::string(info.name) + "' expects " + std::to_string(num_regs) +
                         " register operands, found " + std::to_string(nregs));
      return false;
   }
   if (is_tex && !have_target) {
      error(c, "'" + std::string(info.name) + "' needs a texture target");
      return false;
   }
   if (c.peek() == ':') {
      if (!(info.flags & OPF_BRANCH)) {
         error(c, "label not allowed on '" + std::string(info.name) + "'");
         return false;
      }
      c.advance();
      uint64_t label = 0;
      if (!parse_index(c, UINT32_MAX, &label, "label"))
         return false;
      inst.label = static_cast<uint32_t>(label);
   }
   if (!expect_end(c))
      return false;
   shader_.instructions.push_back(std::move(inst));
   return true;
}

void Parser::check_indirect(const IndirectRef &ind, SourceLoc where)
{
   /* Reading an index out of an immediate or a temporary is legal TGSI,
    * so any file may be the index register; it just has to exist. */
   if (ind.file == File::Immediate) {
      if (ind.index >= static_cast<int32_t>(shader_.immediates.size()))
         error(where, "IMM[" + std::to_string(ind.index) + "] is not defined");
      return;
   }
   if (!declared_anywhere(ind.file, ind.index))
      error(where, reg_text(ind.file, std::nullopt, ind.index) + " is not declared");
}

void Parser::check_register(File file, const RegIndex &index, const std::optional<RegIndex> &dim,
                            SourceLoc where)
{
   if (index.indirect)
      check_indirect(*index.indirect, where);
   if (dim && dim->indirect)
      check_indirect(*dim->indirect, where);

   if (file == File::Immediate) {
      if (!index.indirect && index.value >= static_cast<int32_t>(shader_.immediates.size()))
         error(where, "IMM[" + std::to_string(index.value) + "] is not defined");
      else if (index.indirect && shader_.immediates.empty())
         error(where, "IMM is indexed indirectly but no immediate is defined");
      return;
   }

   /* Geometry inputs' first index is the vertex, not part of the declaration. */
   const bool match_dim = file == File::Constant;
   const int32_t want_dim = dim && !dim->indirect ? dim->value : 0;
   const bool any_dim = dim && dim->indirect;
   bool found = false;
   if (match_dim && any_dim) {
      found = std::any_of(declared_.begin(), declared_.end(),
                          [&](const DeclaredSet &d) { return d.file == file; });
   } else if (const DeclaredSet *set = declared_set(file, match_dim ? want_dim : 0)) {
      found = index.indirect || set->contains(index.value);
   }
   if (found)
      return;
   if (index.indirect) {
      std::string name(file_name(file));
      if (match_dim && !any_dim)
         name += "[" + std::to_string(want_dim) + "]";
      error(where, name + " is indexed indirectly but not declared");
   } else {
      std::optional<int32_t> shown;
      if (match_dim && dim && !dim->indirect)
         shown = dim->value;
      error(where, reg_text(file, shown, index.value) + " is not declared");
   }
}

void Parser::check_control_flow()
{
   struct Open {
      Opcode op;
      SourceLoc loc;
      bool seen_else;
   };
   std::vector<Open> stack;
   bool ended = false;
   for (const Instruction &inst : shader_.instructions) {
      if (ended) {
         error(inst.loc, "instruction after END");
         return;
      }
      switch (inst.opcode) {
      case Opcode::IF:
      case Opcode::UIF:
      case Opcode::BGNLOOP:
         stack.push_back({inst.opcode, inst.loc, false});
         break;
      case Opcode::ELSE:
         if (stack.empty() || stack.back().op == Opcode::BGNLOOP) {
            error(inst.loc, "ELSE without matching IF");
            return;
         }
         if (stack.back().seen_else) {
            error(inst.loc, "second ELSE for the same IF");
            return;
         }
         stack.back().seen_else = true;
         break;
      case Opcode::ENDIF:
         if (stack.empty() || stack.back().op == Opcode::BGNLOOP) {
            error(inst.loc, "ENDIF without matching IF");
            return;
         }
         stack.pop_back();
         break;
      case Opcode::ENDLOOP:
         if (stack.empty() || stack.back().op != Opcode::BGNLOOP) {
            error(inst.loc, "ENDLOOP without matching BGNLOOP");
            return;
         }
         stack.pop_back();
         break;
      case Opcode::BRK:
      case Opcode::CONT: {
         bool in_loop = std::any_of(stack.begin(), stack.end(),
                                    [](const Open &o) { return o.op == Opcode::BGNLOOP; });
         if (!in_loop) {
            error(inst.loc, std::string(inst.info().name) + " outside of a loop");
            return;
         }
         break;
      }
      case Opcode::END:
         if (!stack.empty()) {
            const Open &o = stack.back();
            error(o.loc, std::string(opcode_info(o.op).name) + " is not closed by " +
                            (o.op == Opcode::BGNLOOP ? "ENDLOOP" : "ENDIF"));
            return;
         }
         ended = true;
         break;
      default:
         break;
      }
   }
   if (!ended)
      error(end_loc_, "missing END");
}

void Parser::build_declared_sets()
{
   for (const Declaration &d : shader_.declarations) {
      const int32_t dim = d.file == File::Constant ? d.dimension.value_or(0) : 0;
      auto it = std::find_if(declared_.begin(), declared_.end(), [&](const DeclaredSet &s) {
         return s.file == d.file && s.dim == dim;
      });
      if (it == declared_.end()) {
         declared_.push_back({d.file, dim, {}});
         it = std::prev(declared_.end());
      }
      it->ranges.emplace_back(d.first, d.last);
   }
   for (DeclaredSet &set : declared_) {
      std::sort(set.ranges.begin(), set.ranges.end());
      std::vector<std::pair<int32_t, int32_t>> merged;
      for (const auto &r : set.ranges) {
         if (!merged.empty() && r.first <= merged.back().second + 1)
            merged.back().second = std::max(merged.back().second, r.second);
         else
            merged.push_back(r);
      }
      set.ranges = std::move(merged);
   }
}

const DeclaredSet *Parser::declared_set(File file, int32_t dim) const
{
   for (const DeclaredSet &s : declared_)
      if (s.file == file && s.dim == dim)
         return &s;
   return nullptr;
}

/* Any buffer: an index register is a plain 1-D read. */
bool Parser::declared_anywhere(File file, int32_t index) const
{
   for (const DeclaredSet &s : declared_)
      if (s.file == file && s.contains(index))
         return true;
   return false;
}

void Parser::validate()
{
   build_declared_sets();
   static constexpr File kWritable[] = {File::Output, File::Temporary, File::Address};
   for (const Instruction &inst : shader_.instructions) {
      for (const DstOperand &d : inst.dst) {
         if (std::find(std::begin(kWritable), std::end(kWritable), d.file) ==
             std::end(kWritable)) {
            error(d.loc, "cannot write to " + std::string(file_name(d.file)) + " registers");
            continue;
         }
         check_register(d.file, d.index, d.dimension, d.loc);
      }
      for (const SrcOperand &s : inst.src)
         check_register(s.file, s.index, s.dimension, s.loc);
      for (const TexOffset &o : inst.tex_offsets)
         check_register(o.file, RegIndex{o.index, std::nullopt}, std::nullopt, inst.loc);
      if (num_errors_ >= kMaxErrors)
         return;
   }
   check_control_flow();
}

std::optional<Shader> Parser::run()
{
   shader_.source_name = std::string(file_);
   uint32_t line_no = 0;
   size_t pos = 0;
   end_loc_ = {1, 1};
   while (pos <= text_.size() && num_errors_ < kMaxErrors) {
      if (pos == text_.size() && line_no > 0)
         break;
      size_t nl = text_.find('\n', pos);
      size_t end = nl == std::string_view::npos ? text_.size() : nl;
      std::string_view line = text_.substr(pos, end - pos);
      line_no++;
      pos = end + 1;

      /* Comments. */
      for (size_t i = 0; i < line.size(); i++) {
         if (line[i] == '#' || line[i] == ';') {
            line = line.substr(0, i);
            break;
         }
      }
      LineCursor c(line, line_no);
      c.skip_ws();
      if (c.at_end()) {
         if (nl == std::string_view::npos)
            break;
         continue;
      }
      end_loc_ = {line_no, static_cast<uint32_t>(line.size() + 1)};
      if (!have_header_) {
         if (!parse_header(c))
            break; /* nothing below makes sense without a processor */
         continue;
      }

      /* "  12: MOV ..." - the instruction number tgsi_dump prints. */
      int ch = c.peek();
      if (ch != LineCursor::kEnd && is_digit(static_cast<char>(ch))) {
         uint64_t num = 0;
         if (!parse_index(c, UINT32_MAX, &num, "instruction number"))
            continue;
         if (!expect_char(c, ':'))
            continue;
         parse_instruction(c);
         continue;
      }
      size_t kstart = c.pos();
      std::string_view kw = c.word();
      SourceLoc kloc = loc_at(c, kstart);
      if (keyword_equals(kw, "DCL")) {
         parse_declaration(c, kloc);
      } else if (keyword_equals(kw, "IMM")) {
         parse_immediate(c, kloc);
      } else if (keyword_equals(kw, "PROPERTY")) {
         parse_property(c);
      } else {
         c.set_pos(kstart);
         parse_instruction(c);
      }
   }

   if (!have_header_ && num_errors_ == 0)
      error(end_loc_, "expected processor type (VERT, FRAG, GEOM or COMP)");
   if (num_errors_ == 0)
      validate();
   if (num_errors_ > 0)
      return std::nullopt;
   return std::move(shader_);
}

} // namespace

std::optional<Shader> parse_tgsi(std::string_view text, std::string_view file_name,
                                 Diagnostics &diags)
{
   /* Nothing in the parser throws on purpose; a bad_alloc on absurd input
    * must still not escape the library. */
   try {
      Parser p(text, file_name, diags);
      return p.run();
   } catch (const std::exception &e) {
      diags.error(file_name, {}, std::string("internal error while parsing: ") + e.what());
      return std::nullopt;
   }
}

} // namespace sbcc::tgsi
