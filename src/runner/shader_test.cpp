#include "runner/shader_test.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace sbcc::runner {

const StageSource *ShaderTest::stage(StageKind k) const
{
   for (const auto &s : stages)
      if (s.kind == k)
         return &s;
   return nullptr;
}

namespace {

struct Token {
   std::string_view text;
   uint32_t column;
};

/* Piglit accepts "(1, 2, 3, 4)", "1 2 3 4" and mixtures, so commas and
 * parentheses are plain separators for us too. */
bool is_sep(char c)
{
   return c == ' ' || c == '\t' || c == ',' || c == '(' || c == ')' || c == '\r';
}

std::vector<Token> tokenize(std::string_view line)
{
   std::vector<Token> toks;
   size_t i = 0;
   while (i < line.size()) {
      if (is_sep(line[i])) {
         i++;
         continue;
      }
      size_t start = i;
      while (i < line.size() && !is_sep(line[i]))
         i++;
      toks.push_back({line.substr(start, i - start), static_cast<uint32_t>(start + 1)});
   }
   return toks;
}

std::string_view trim(std::string_view s)
{
   while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
      s.remove_prefix(1);
   while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
      s.remove_suffix(1);
   return s;
}

class LineParser {
 public:
   LineParser(std::string_view file, uint32_t line, std::string_view text, Diagnostics &diags)
      : file_(file), line_(line), text_(text), toks_(tokenize(text)), diags_(diags)
   {
   }

   bool parse(Command &cmd);

 private:
   bool error(uint32_t column, std::string msg)
   {
      diags_.error(file_, {line_, column}, std::move(msg));
      return false;
   }
   /* Column just past the line's text, for "expected more" errors. */
   uint32_t end_column() const { return static_cast<uint32_t>(trim_right_len() + 1); }
   size_t trim_right_len() const
   {
      size_t n = text_.size();
      while (n > 0 && (text_[n - 1] == ' ' || text_[n - 1] == '\t' || text_[n - 1] == '\r'))
         n--;
      return n;
   }
   bool at_end() const { return pos_ >= toks_.size(); }
   bool peek_is(std::string_view s) const { return !at_end() && toks_[pos_].text == s; }
   bool expect_word(std::string_view s)
   {
      if (peek_is(s)) {
         pos_++;
         return true;
      }
      if (at_end())
         return error(end_column(), "expected '" + std::string(s) + "'");
      return error(toks_[pos_].column, "expected '" + std::string(s) + "', got '" +
                                          std::string(toks_[pos_].text) + "'");
   }
   bool number(float &out, const char *what);
   bool integer(int &out, const char *what, int min, int max);
   bool uint_bits(uint32_t &out, bool is_signed, const char *what);
   bool floats(float *out, unsigned n, const char *what)
   {
      for (unsigned i = 0; i < n; i++)
         if (!number(out[i], what))
            return false;
      return true;
   }
   bool word(std::string &out, const char *what)
   {
      if (at_end())
         return error(end_column(), std::string("expected ") + what);
      out = std::string(toks_[pos_++].text);
      return true;
   }
   bool finish()
   {
      if (!at_end())
         return error(toks_[pos_].column,
                      "unexpected '" + std::string(toks_[pos_].text) + "' at end of command");
      return true;
   }

   bool parse_clear(Command &cmd);
   bool parse_parameter(Command &cmd);
   bool parse_uniform(Command &cmd);
   bool parse_constant(Command &cmd);
   bool parse_texture(Command &cmd);
   bool parse_texparameter(Command &cmd);
   bool parse_draw(Command &cmd);
   bool parse_ortho(Command &cmd);
   bool parse_probe(Command &cmd, bool relative);

   std::string_view file_;
   uint32_t line_;
   std::string_view text_;
   std::vector<Token> toks_;
   size_t pos_ = 0;
   Diagnostics &diags_;
};

bool LineParser::number(float &out, const char *what)
{
   if (at_end())
      return error(end_column(), std::string("expected ") + what);
   const Token &t = toks_[pos_];
   std::string_view s = t.text;
   if (!s.empty() && s.front() == '+')
      s.remove_prefix(1);
   float v = 0;
   auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
   if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || !std::isfinite(v))
      return error(t.column, std::string("expected ") + what + ", got '" + std::string(t.text) +
                                "'");
   out = v;
   pos_++;
   return true;
}

bool LineParser::integer(int &out, const char *what, int min, int max)
{
   if (at_end())
      return error(end_column(), std::string("expected ") + what);
   const Token &t = toks_[pos_];
   long long v = 0;
   auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
   if (ec != std::errc() || ptr != t.text.data() + t.text.size())
      return error(t.column, std::string("expected ") + what + ", got '" + std::string(t.text) +
                                "'");
   if (v < min || v > max)
      return error(t.column, std::string(what) + " " + std::string(t.text) +
                                " out of range [" + std::to_string(min) + ", " +
                                std::to_string(max) + "]");
   out = static_cast<int>(v);
   pos_++;
   return true;
}

bool LineParser::uint_bits(uint32_t &out, bool is_signed, const char *what)
{
   if (at_end())
      return error(end_column(), std::string("expected ") + what);
   const Token &t = toks_[pos_];
   std::string_view s = t.text;
   bool ok;
   if (is_signed) {
      int32_t v = 0;
      auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      ok = ec == std::errc() && ptr == s.data() + s.size();
      out = static_cast<uint32_t>(v);
   } else {
      int base = 10;
      if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
         s.remove_prefix(2);
         base = 16;
      }
      uint32_t v = 0;
      auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
      ok = ec == std::errc() && ptr == s.data() + s.size();
      out = v;
   }
   if (!ok)
      return error(t.column, std::string("expected ") + what + ", got '" + std::string(t.text) +
                                "'");
   pos_++;
   return true;
}

bool LineParser::parse(Command &cmd)
{
   cmd.loc = {line_, toks_.empty() ? 1 : toks_[0].column};
   if (toks_.empty())
      return error(1, "empty command");
   std::string_view w = toks_[pos_++].text;
   if (w == "clear")
      return parse_clear(cmd);
   if (w == "parameter")
      return parse_parameter(cmd);
   if (w == "uniform")
      return parse_uniform(cmd);
   if (w == "constant")
      return parse_constant(cmd);
   if (w == "texture")
      return parse_texture(cmd);
   if (w == "texparameter")
      return parse_texparameter(cmd);
   if (w == "draw")
      return parse_draw(cmd);
   if (w == "ortho")
      return parse_ortho(cmd);
   if (w == "color") {
      cmd.kind = CmdKind::Color;
      return floats(cmd.v.data(), 4, "a color component") && finish();
   }
   if (w == "texcoord") {
      cmd.kind = CmdKind::TexCoord;
      return integer(cmd.index, "a texcoord set", 0, 7) &&
             floats(cmd.v.data(), 4, "a texcoord component") && finish();
   }
   if (w == "probe")
      return parse_probe(cmd, false);
   if (w == "relative") {
      if (!expect_word("probe"))
         return false;
      return parse_probe(cmd, true);
   }
   return error(toks_[0].column, "unknown command '" + std::string(w) + "'");
}

bool LineParser::parse_clear(Command &cmd)
{
   if (at_end()) {
      cmd.kind = CmdKind::Clear;
      return true;
   }
   if (!expect_word("color"))
      return false;
   cmd.kind = CmdKind::ClearColor;
   return floats(cmd.v.data(), 4, "a color component") && finish();
}

bool LineParser::parse_parameter(Command &cmd)
{
   cmd.kind = CmdKind::Parameter;
   std::string space;
   uint32_t col = at_end() ? end_column() : toks_[pos_].column;
   if (!word(space, "env_vp, env_fp, local_vp or local_fp"))
      return false;
   if (space == "env_vp")
      cmd.space = ParamSpace::EnvVp;
   else if (space == "env_fp")
      cmd.space = ParamSpace::EnvFp;
   else if (space == "local_vp")
      cmd.space = ParamSpace::LocalVp;
   else if (space == "local_fp")
      cmd.space = ParamSpace::LocalFp;
   else
      return error(col, "unknown parameter space '" + space +
                           "' (expected env_vp, env_fp, local_vp or local_fp)");
   return integer(cmd.index, "a parameter index", 0, 255) &&
          floats(cmd.v.data(), 4, "a parameter component") && finish();
}

bool LineParser::parse_uniform(Command &cmd)
{
   cmd.kind = CmdKind::Uniform;
   std::string type;
   uint32_t col = at_end() ? end_column() : toks_[pos_].column;
   if (!word(type, "a uniform type"))
      return false;
   std::string_view base = type;
   unsigned n = 1;
   if (base.size() == 4 && base.substr(0, 3) == "vec") {
      n = base[3] - '0';
      base = "float";
   } else if (base.size() == 5 && (base.substr(0, 4) == "ivec" || base.substr(0, 4) == "uvec")) {
      n = base[4] - '0';
      base = base[0] == 'i' ? "int" : "uint";
   }
   if ((base != "float" && base != "int" && base != "uint") || n < 1 || n > 4)
      return error(col, "unsupported uniform type '" + type + "'");
   cmd.count = n;
   if (!integer(cmd.index, "a constant index", 0, 4095))
      return false;
   for (unsigned i = 0; i < n; i++) {
      if (base == "float") {
         if (!number(cmd.v[i], "a uniform component"))
            return false;
         std::memcpy(&cmd.raw[i], &cmd.v[i], 4);
      } else {
         if (!uint_bits(cmd.raw[i], base == "int", "an integer uniform component"))
            return false;
         cmd.v[i] = static_cast<float>(base == "int" ? static_cast<int32_t>(cmd.raw[i])
                                                     : cmd.raw[i]);
      }
   }
   return finish();
}

bool LineParser::parse_constant(Command &cmd)
{
   cmd.kind = CmdKind::Uniform;
   cmd.count = 4;
   /* 5 numbers after the keyword: buffer, index, xyzw; 4 after the index otherwise. */
   size_t left = toks_.size() - pos_;
   if (left == 6) {
      if (!integer(cmd.buffer, "a constant buffer", 0, 15))
         return false;
   }
   if (!integer(cmd.index, "a constant index", 0, 4095) ||
       !floats(cmd.v.data(), 4, "a constant component"))
      return false;
   for (unsigned i = 0; i < 4; i++)
      std::memcpy(&cmd.raw[i], &cmd.v[i], 4);
   return finish();
}

bool LineParser::parse_texture(Command &cmd)
{
   cmd.kind = CmdKind::Texture;
   std::string kind;
   uint32_t col = at_end() ? end_column() : toks_[pos_].column;
   if (!word(kind, "a texture kind"))
      return false;
   if (kind == "rgbw")
      cmd.tex = TextureKind::Rgbw;
   else if (kind == "checkerboard")
      cmd.tex = TextureKind::Checkerboard;
   else if (kind == "miptree")
      cmd.tex = TextureKind::Miptree;
   else if (kind == "shadow1D")
      cmd.tex = TextureKind::Shadow1D;
   else if (kind == "shadow2D")
      cmd.tex = TextureKind::Shadow2D;
   else if (kind == "shadowRect")
      cmd.tex = TextureKind::ShadowRect;
   else
      return error(col, "unsupported texture kind '" + kind + "'");
   if (!integer(cmd.index, "a texture unit", 0, 15))
      return false;
   if (cmd.tex == TextureKind::Miptree)
      return finish();
   if (cmd.tex == TextureKind::Checkerboard && !integer(cmd.level, "a mip level", 0, 15))
      return false;
   if (!integer(cmd.width, "a texture width", 1, 4096))
      return false;
   /* piglit writes 1D sizes as "(w)"; "(w, 1)" is accepted too. */
   if (cmd.tex == TextureKind::Shadow1D && at_end())
      cmd.height = 1;
   else if (!integer(cmd.height, "a texture height", 1, 4096))
      return false;
   if (cmd.tex == TextureKind::Checkerboard &&
       (!floats(cmd.v.data(), 4, "a color component") ||
        !floats(cmd.v2.data(), 4, "a color component")))
      return false;
   return finish();
}

bool LineParser::parse_texparameter(Command &cmd)
{
   cmd.kind = CmdKind::TexParameter;
   uint32_t col = at_end() ? end_column() : toks_[pos_].column;
   if (!word(cmd.tex_target, "a texture target"))
      return false;
   static const char *const targets[] = {"1D", "2D", "3D", "Rect", "Cube", "1DArray", "2DArray"};
   bool ok = false;
   for (const char *t : targets)
      ok |= cmd.tex_target == t;
   if (!ok)
      return error(col, "unknown texture target '" + cmd.tex_target + "'");
   col = at_end() ? end_column() : toks_[pos_].column;
   if (!word(cmd.pname, "a texture parameter name"))
      return false;
   static const char *const names[] = {"compare_func", "depth_mode", "min", "mag",
                                       "wrap_s",       "wrap_t",     "wrap_r"};
   ok = false;
   for (const char *n : names)
      ok |= cmd.pname == n;
   if (!ok)
      return error(col, "unknown texture parameter '" + cmd.pname + "'");
   /* The value is checked where it is applied, against the texture model. */
   return word(cmd.pvalue, "a texture parameter value") && finish();
}

bool LineParser::parse_draw(Command &cmd)
{
   cmd.kind = CmdKind::DrawRect;
   if (!expect_word("rect"))
      return false;
   if (peek_is("ortho")) {
      cmd.draw_ortho = true;
      pos_++;
   } else if (peek_is("tex")) {
      cmd.draw_tex = true;
      pos_++;
   }
   if (!floats(cmd.rect.data(), 4, "a rectangle coordinate"))
      return false;
   if (cmd.draw_tex && !floats(cmd.tex_rect.data(), 4, "a texture rectangle coordinate"))
      return false;
   return finish();
}

bool LineParser::parse_ortho(Command &cmd)
{
   cmd.kind = CmdKind::Ortho;
   if (at_end()) {
      cmd.ortho_default = true;
      return true;
   }
   return floats(cmd.rect.data(), 4, "an ortho bound") && finish();
}

bool LineParser::parse_probe(Command &cmd, bool relative)
{
   cmd.kind = CmdKind::Probe;
   if (relative) {
      cmd.probe = ProbeKind::Relative;
   } else if (peek_is("all")) {
      cmd.probe = ProbeKind::All;
      pos_++;
   } else if (peek_is("rect")) {
      cmd.probe = ProbeKind::Rect;
      pos_++;
   }
   uint32_t col = at_end() ? end_column() : toks_[pos_].column;
   std::string fmt;
   if (!word(fmt, "'rgba' or 'rgb'"))
      return false;
   if (fmt == "rgba")
      cmd.rgba = true;
   else if (fmt == "rgb")
      cmd.rgba = false;
   else
      return error(col, "expected 'rgba' or 'rgb', got '" + fmt + "'");
   switch (cmd.probe) {
   case ProbeKind::Pixel: {
      int x, y;
      if (!integer(x, "a pixel x coordinate", 0, 249) ||
          !integer(y, "a pixel y coordinate", 0, 249))
         return false;
      cmd.px = static_cast<float>(x);
      cmd.py = static_cast<float>(y);
      break;
   }
   case ProbeKind::Relative:
      if (!number(cmd.px, "a relative x coordinate") ||
          !number(cmd.py, "a relative y coordinate"))
         return false;
      if (cmd.px < 0 || cmd.px > 1 || cmd.py < 0 || cmd.py > 1)
         return error(cmd.loc.column, "relative probe coordinates must be in [0, 1]");
      break;
   case ProbeKind::Rect: {
      int r[4];
      if (!integer(r[0], "a rectangle x", 0, 249) || !integer(r[1], "a rectangle y", 0, 249) ||
          !integer(r[2], "a rectangle width", 1, 250) ||
          !integer(r[3], "a rectangle height", 1, 250))
         return false;
      if (r[0] + r[2] > 250 || r[1] + r[3] > 250)
         return error(cmd.loc.column, "probe rectangle exceeds the 250x250 window");
      for (int i = 0; i < 4; i++)
         cmd.rect[i] = static_cast<float>(r[i]);
      break;
   }
   case ProbeKind::All: break;
   }
   cmd.v[3] = 1.0f;
   return floats(cmd.v.data(), cmd.rgba ? 4 : 3, "a color component") && finish();
}

/* Skip: the body of a section already reported as unsupported. */
enum class Section { None, Require, Stage, Test, Skip };

bool parse_require(std::string_view line, uint32_t lineno, std::string_view file,
                   ShaderTest &t, Diagnostics &diags)
{
   std::string_view s = trim(line);
   /* GL >= 2.1, GLSL >= 1.10, GL_ARB_foo, GL_MAX_FOO >= 4, !GL_ARB_foo. */
   std::vector<Token> toks = tokenize(s);
   bool ok = false;
   if (toks.size() == 1)
      ok = toks[0].text.substr(0, 3) == "GL_" || toks[0].text.substr(0, 4) == "!GL_";
   else if (toks.size() == 3)
      ok = (toks[1].text == ">=" || toks[1].text == ">" || toks[1].text == "<=" ||
            toks[1].text == "<" || toks[1].text == "=" || toks[1].text == "==") &&
           std::isdigit(static_cast<unsigned char>(toks[2].text[0]));
   if (!ok) {
      diags.error(file, {lineno, toks.empty() ? 1 : toks[0].column + uint32_t(s.data() - line.data())},
                  "malformed requirement '" + std::string(s) + "'");
      return false;
   }
   t.requirements.push_back({std::string(s), {lineno, uint32_t(s.data() - line.data()) + 1}});
   return true;
}

} // namespace

std::optional<ShaderTest> parse_shader_test(std::string_view text, std::string_view file,
                                            Diagnostics &diags)
{
   ShaderTest t;
   t.file = std::string(file);
   unsigned errors_before = diags.num_errors();
   Section section = Section::None;
   StageSource *stage = nullptr;
   uint32_t lineno = 0;
   size_t pos = 0;
   while (pos <= text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string_view::npos)
         nl = text.size();
      std::string_view line = text.substr(pos, nl - pos);
      bool last = nl >= text.size();
      pos = nl + 1;
      lineno++;
      if (last && line.empty())
         break;

      std::string_view tl = trim(line);
      if (!tl.empty() && tl.front() == '[') {
         uint32_t col = static_cast<uint32_t>(tl.data() - line.data()) + 1;
         if (tl.back() != ']') {
            diags.error(file, {lineno, col}, "malformed section header (missing ']')");
            section = Section::None;
            stage = nullptr;
            continue;
         }
         std::string_view name = tl.substr(1, tl.size() - 2);
         stage = nullptr;
         std::optional<StageKind> kind;
         if (name == "require")
            section = Section::Require;
         else if (name == "test")
            section = Section::Test;
         else if (name == "vertex program")
            kind = StageKind::ArbVertex;
         else if (name == "fragment program")
            kind = StageKind::ArbFragment;
         else if (name == "vertex shader tgsi")
            kind = StageKind::TgsiVertex;
         else if (name == "fragment shader tgsi")
            kind = StageKind::TgsiFragment;
         else {
            diags.error(file, {lineno, col}, "unsupported section '" + std::string(tl) + "'");
            section = Section::Skip;
            continue;
         }
         if (kind) {
            bool vertex = *kind == StageKind::ArbVertex || *kind == StageKind::TgsiVertex;
            for (const auto &s : t.stages) {
               bool sv = s.kind == StageKind::ArbVertex || s.kind == StageKind::TgsiVertex;
               if (sv == vertex) {
                  diags.error(file, {lineno, col},
                              std::string("more than one ") +
                                 (vertex ? "vertex" : "fragment") + " stage");
               }
            }
            section = Section::Stage;
            t.stages.push_back({*kind, {}, lineno + 1});
            stage = &t.stages.back();
         }
         continue;
      }

      switch (section) {
      case Section::Skip: break;
      case Section::None:
         if (!tl.empty() && tl.front() != '#')
            diags.error(file, {lineno, uint32_t(tl.data() - line.data()) + 1},
                        "text outside of any section");
         break;
      case Section::Stage:
         stage->text.append(line);
         stage->text.push_back('\n');
         break;
      case Section::Require:
         if (!tl.empty() && tl.front() != '#')
            parse_require(line, lineno, file, t, diags);
         break;
      case Section::Test: {
         if (tl.empty() || tl.front() == '#')
            break;
         Command cmd;
         LineParser p(file, lineno, line, diags);
         if (p.parse(cmd))
            t.commands.push_back(cmd);
         break;
      }
      }
   }
   /* Located at the top of the file so every failure names a line (the
    * fuzz contract), even for an empty file. */
   if (t.stages.empty())
      diags.error(file, {1, 1}, "no shader stage section");
   if (diags.num_errors() != errors_before)
      return std::nullopt;
   return t;
}

static std::string fmt_float(float f)
{
   char buf[32];
   snprintf(buf, sizeof(buf), "%g", f);
   return buf;
}

static std::string fmt_vec(const float *v, unsigned n)
{
   std::string s = "(";
   for (unsigned i = 0; i < n; i++)
      s += (i ? ", " : "") + fmt_float(v[i]);
   return s + ")";
}

std::string command_str(const Command &c)
{
   static const char *const spaces[] = {"env_vp", "env_fp", "local_vp", "local_fp"};
   static const char *const texkinds[] = {"rgbw",     "checkerboard", "miptree",
                                          "shadow1D", "shadow2D",     "shadowRect"};
   std::string s;
   switch (c.kind) {
   case CmdKind::Clear: return "clear";
   case CmdKind::ClearColor: return "clear color " + fmt_vec(c.v.data(), 4);
   case CmdKind::Parameter:
      return "parameter " + std::string(spaces[int(c.space)]) + " " + std::to_string(c.index) +
             " " + fmt_vec(c.v.data(), 4);
   case CmdKind::Uniform: {
      s = "constant " + std::to_string(c.buffer) + " " + std::to_string(c.index) + " (";
      char buf[16];
      for (unsigned i = 0; i < c.count; i++) {
         snprintf(buf, sizeof(buf), "%s0x%08x", i ? ", " : "", c.raw[i]);
         s += buf;
      }
      return s + ")";
   }
   case CmdKind::Texture:
      s = "texture " + std::string(texkinds[int(c.tex)]) + " " + std::to_string(c.index);
      if (c.tex == TextureKind::Checkerboard)
         s += " level " + std::to_string(c.level);
      if (c.tex != TextureKind::Miptree)
         s += " (" + std::to_string(c.width) + ", " + std::to_string(c.height) + ")";
      if (c.tex == TextureKind::Checkerboard)
         s += " " + fmt_vec(c.v.data(), 4) + " " + fmt_vec(c.v2.data(), 4);
      return s;
   case CmdKind::TexParameter:
      return "texparameter " + c.tex_target + " " + c.pname + " " + c.pvalue;
   case CmdKind::DrawRect:
      s = std::string("draw rect ") + (c.draw_ortho ? "ortho " : "") + fmt_vec(c.rect.data(), 4);
      if (c.draw_tex)
         s += " tex " + fmt_vec(c.tex_rect.data(), 4);
      return s;
   case CmdKind::Ortho:
      return c.ortho_default ? "ortho" : "ortho " + fmt_vec(c.rect.data(), 4);
   case CmdKind::Color: return "color " + fmt_vec(c.v.data(), 4);
   case CmdKind::TexCoord:
      return "texcoord " + std::to_string(c.index) + " " + fmt_vec(c.v.data(), 4);
   case CmdKind::Probe:
      switch (c.probe) {
      case ProbeKind::Pixel:
         s = "probe " + fmt_float(c.px) + " " + fmt_float(c.py);
         break;
      case ProbeKind::Relative:
         s = "relative probe (" + fmt_float(c.px) + ", " + fmt_float(c.py) + ")";
         break;
      case ProbeKind::Rect: s = "probe rect " + fmt_vec(c.rect.data(), 4); break;
      case ProbeKind::All: s = "probe all"; break;
      }
      return s + (c.rgba ? " rgba " : " rgb ") + fmt_vec(c.v.data(), c.rgba ? 4 : 3);
   }
   return s;
}

} // namespace sbcc::runner
