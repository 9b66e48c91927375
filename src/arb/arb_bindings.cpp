/*
 * Bindings: vertex./fragment. inputs, result. outputs, program.env/local
 * parameters, state.* vectors and literal constants, and the CONST / IN / OUT
 * / IMM bookkeeping behind them.
 */
#include <cstring>

#include "arb/arb_parser.h"

namespace sbcc::arb {

using tgsi::Interpolate;
using tgsi::Semantic;

namespace {

std::string idx(std::string_view base, int64_t i)
{
   return std::string(base) + "[" + std::to_string(i) + "]";
}

} // namespace

int32_t Parser::input_slot(int32_t slot, std::string name, Semantic sem, uint32_t sem_index,
                           Interpolate interp)
{
   if (!inputs_.count(slot))
      inputs_[slot] = IoSlot{std::move(name), sem, sem_index, interp};
   return slot;
}

int32_t Parser::output_slot(int32_t slot, std::string name, Semantic sem, uint32_t sem_index)
{
   if (!outputs_.count(slot))
      outputs_[slot] = IoSlot{std::move(name), sem, sem_index, Interpolate::None};
   return slot;
}

bool Parser::parse_bracket_index(int64_t limit, const char *what, int64_t &out)
{
   if (!expect('[', "'['"))
      return false;
   SourceLoc loc = here();
   if (!expect_int(what, out))
      return false;
   if (out >= limit) {
      error(loc, std::string(what) + " " + std::to_string(out) + " is out of range (0.." +
                    std::to_string(limit - 1) + ")");
      return false;
   }
   return expect(']', "']'");
}

bool Parser::parse_optional_index(int64_t limit, const char *what, int64_t &out)
{
   out = 0;
   if (!peek().is('['))
      return true;
   return parse_bracket_index(limit, what, out);
}

int32_t Parser::parse_input_binding()
{
   SourceLoc loc = here();
   int32_t slot = parse_input_binding_name();
   if (slot < 0 || kind_ != ProgramKind::Vertex)
      return slot;
   /* Generic attribute n aliases conventional attribute n (Mesa's
    * VERT_ATTRIB numbering); ARB_vertex_program refuses a program that
    * binds both of a pair. */
   int32_t other = slot >= VS_IN_GENERIC0 ? slot - VS_IN_GENERIC0 : slot + VS_IN_GENERIC0;
   auto it = inputs_.find(other);
   if (it != inputs_.end()) {
      error(loc, "'" + inputs_[slot].name + "' and '" + it->second.name +
                    "' alias the same vertex attribute and cannot both be used");
      return -1;
   }
   return slot;
}

int32_t Parser::parse_input_binding_name()
{
   const Token &root = next();
   bool vertex = root.text == "vertex";
   if (vertex != (kind_ == ProgramKind::Vertex)) {
      error(root.loc, "'" + std::string(root.text) + "' bindings are not available in " +
                         (kind_ == ProgramKind::Vertex ? "vertex" : "fragment") + " programs");
      return -1;
   }
   if (!expect('.', "'.'"))
      return -1;
   SourceLoc loc = here();
   std::string_view prop;
   if (!expect_ident("an attribute name", prop))
      return -1;
   int64_t n = 0;

   /* "color" may be followed by ".primary"/".secondary"; any other '.'
    * after a binding starts a swizzle. */
   auto color_type = [&](bool &secondary) {
      secondary = false;
      if (peek().is('.') && (peek(1).is_ident("primary") || peek(1).is_ident("secondary"))) {
         next();
         secondary = next().text == "secondary";
      }
   };

   if (vertex) {
      if (prop == "position")
         return input_slot(VS_IN_POSITION, "vertex.position", Semantic::None, 0,
                           Interpolate::None);
      if (prop == "weight") {
         if (!parse_optional_index(1, "vertex weight index", n))
            return -1;
         return input_slot(VS_IN_WEIGHT, "vertex.weight", Semantic::None, 0, Interpolate::None);
      }
      if (prop == "normal")
         return input_slot(VS_IN_NORMAL, "vertex.normal", Semantic::None, 0, Interpolate::None);
      if (prop == "color") {
         bool secondary;
         color_type(secondary);
         return input_slot(secondary ? VS_IN_COLOR1 : VS_IN_COLOR0,
                           secondary ? "vertex.color.secondary" : "vertex.color.primary",
                           Semantic::None, 0, Interpolate::None);
      }
      if (prop == "fogcoord")
         return input_slot(VS_IN_FOG, "vertex.fogcoord", Semantic::None, 0, Interpolate::None);
      if (prop == "texcoord") {
         if (!parse_optional_index(kMaxTexCoords, "texture coordinate index", n))
            return -1;
         return input_slot(VS_IN_TEX0 + int32_t(n), idx("vertex.texcoord", n), Semantic::None,
                           0, Interpolate::None);
      }
      if (prop == "attrib") {
         if (!parse_bracket_index(kMaxVertexAttribs, "vertex attribute index", n))
            return -1;
         return input_slot(VS_IN_GENERIC0 + int32_t(n), idx("vertex.attrib", n),
                           Semantic::None, 0, Interpolate::None);
      }
      error(loc, "unknown vertex attribute 'vertex." + std::string(prop) + "'");
      return -1;
   }

   if (prop == "color") {
      bool secondary;
      color_type(secondary);
      return input_slot(secondary ? FS_IN_COLOR1 : FS_IN_COLOR0,
                        secondary ? "fragment.color.secondary" : "fragment.color.primary",
                        Semantic::Color, secondary ? 1 : 0, Interpolate::Color);
   }
   if (prop == "texcoord") {
      if (!parse_optional_index(kMaxTexCoords, "texture coordinate index", n))
         return -1;
      return input_slot(FS_IN_TEX0 + int32_t(n), idx("fragment.texcoord", n), Semantic::Generic,
                        uint32_t(n), Interpolate::Perspective);
   }
   if (prop == "fogcoord")
      return input_slot(FS_IN_FOG, "fragment.fogcoord", Semantic::Fog, 0,
                        Interpolate::Perspective);
   if (prop == "position")
      return input_slot(FS_IN_POSITION, "fragment.position", Semantic::Position, 0,
                        Interpolate::Linear);
   if (prop == "facing")
      return input_slot(FS_IN_FACE, "fragment.facing", Semantic::Face, 0, Interpolate::Constant);
   error(loc, "unknown fragment attribute 'fragment." + std::string(prop) + "'");
   return -1;
}

int32_t Parser::parse_output_binding()
{
   next(); /* result */
   if (!expect('.', "'.'"))
      return -1;
   SourceLoc loc = here();
   std::string_view prop;
   if (!expect_ident("a result name", prop))
      return -1;
   int64_t n = 0;

   if (kind_ == ProgramKind::Vertex) {
      if (prop == "position") {
         return output_slot(VS_OUT_POSITION, "result.position", Semantic::Position, 0);
      }
      if (prop == "color") {
         bool back = false, secondary = false;
         if (peek().is('.') && (peek(1).is_ident("front") || peek(1).is_ident("back"))) {
            next();
            back = next().text == "back";
         }
         if (peek().is('.') && (peek(1).is_ident("primary") || peek(1).is_ident("secondary"))) {
            next();
            secondary = next().text == "secondary";
         }
         std::string name = std::string("result.color.") + (back ? "back." : "front.") +
                            (secondary ? "secondary" : "primary");
         int32_t slot = back ? (secondary ? VS_OUT_BCOLOR1 : VS_OUT_BCOLOR0)
                             : (secondary ? VS_OUT_COLOR1 : VS_OUT_COLOR0);
         return output_slot(slot, name, back ? Semantic::BColor : Semantic::Color,
                            secondary ? 1 : 0);
      }
      if (prop == "fogcoord")
         return output_slot(VS_OUT_FOG, "result.fogcoord", Semantic::Fog, 0);
      if (prop == "pointsize")
         return output_slot(VS_OUT_PSIZE, "result.pointsize", Semantic::PSize, 0);
      if (prop == "texcoord") {
         if (!parse_optional_index(kMaxTexCoords, "texture coordinate index", n))
            return -1;
         return output_slot(VS_OUT_TEX0 + int32_t(n), idx("result.texcoord", n),
                            Semantic::Generic, uint32_t(n));
      }
      error(loc, "unknown vertex result 'result." + std::string(prop) + "'");
      return -1;
   }

   if (prop == "color") {
      SourceLoc iloc = peek(1).loc;
      if (!parse_optional_index(kMaxDrawBuffers, "color buffer index", n))
         return -1;
      if (n > 0 && !draw_buffers_) {
         error(iloc, "result.color[" + std::to_string(n) + "] requires OPTION ARB_draw_buffers");
         return -1;
      }
      return output_slot(FS_OUT_COLOR0 + int32_t(n), idx("result.color", n), Semantic::Color,
                         uint32_t(n));
   }
   if (prop == "depth")
      return output_slot(FS_OUT_DEPTH, "result.depth", Semantic::Position, 0);
   error(loc, "unknown fragment result 'result." + std::string(prop) + "'");
   return -1;
}

bool Parser::parse_param_binding(std::vector<ParamBinding> &out, bool multi)
{
   if (peek().is_ident("program"))
      return parse_program_param(out, multi);
   if (peek().is_ident("state"))
      return parse_state(out, multi);
   error(here(), "expected a program parameter binding, found " + tok_desc(peek()));
   return false;
}

bool Parser::parse_program_param(std::vector<ParamBinding> &out, bool multi)
{
   next(); /* program */
   if (!expect('.', "'.'"))
      return false;
   SourceLoc loc = here();
   std::string_view which;
   if (!expect_ident("'env' or 'local'", which))
      return false;
   ParamBinding::Kind kind;
   if (which == "env") {
      kind = ParamBinding::Kind::Env;
   } else if (which == "local") {
      kind = ParamBinding::Kind::Local;
   } else {
      error(loc, "expected 'env' or 'local' after 'program.', found '" + std::string(which) +
                    "'");
      return false;
   }
   if (!expect('[', "'['"))
      return false;
   SourceLoc iloc = here();
   int64_t first = 0, last = 0;
   if (!expect_int("a parameter index", first))
      return false;
   last = first;
   if (peek().kind == TokKind::DotDot) {
      if (!multi) {
         error(peek().loc, "an index range binds several vectors; a single vector is required "
                           "here");
         return false;
      }
      next();
      if (!expect_int("a parameter index", last))
         return false;
   }
   if (last >= kMaxProgramParams || first >= kMaxProgramParams) {
      error(iloc, "program." + std::string(which) + " index " +
                     std::to_string(std::max(first, last)) + " is out of range (0.." +
                     std::to_string(kMaxProgramParams - 1) + ")");
      return false;
   }
   if (last < first) {
      error(iloc, "invalid index range " + std::to_string(first) + ".." + std::to_string(last));
      return false;
   }
   if (!expect(']', "']'"))
      return false;
   for (int64_t i = first; i <= last; i++) {
      ParamBinding b;
      b.kind = kind;
      b.index = int32_t(i);
      out.push_back(b);
   }
   return true;
}

bool Parser::parse_face(std::string &face)
{
   face = "front";
   if (peek().is('.') && (peek(1).is_ident("front") || peek(1).is_ident("back"))) {
      next();
      face = std::string(next().text);
   }
   return true;
}

bool Parser::parse_state(std::vector<ParamBinding> &out, bool multi)
{
   next(); /* state */
   if (!expect('.', "'.'"))
      return false;
   SourceLoc loc = here();
   std::string_view what;
   if (!expect_ident("a state name", what))
      return false;
   bool vp = kind_ == ProgramKind::Vertex;

   std::string name;
   auto prop = [&](std::initializer_list<std::string_view> allowed, const char *desc,
                   std::string &res) -> bool {
      if (!expect('.', "'.'"))
         return false;
      SourceLoc ploc = here();
      std::string_view p;
      if (!expect_ident(desc, p))
         return false;
      for (std::string_view a : allowed) {
         if (p == a) {
            res = std::string(p);
            return true;
         }
      }
      error(ploc, "unknown " + std::string(desc) + " '" + std::string(p) + "'");
      return false;
   };
   std::string p, face;
   int64_t n = 0;

   if (what == "matrix")
      return parse_state_matrix(out, multi);

   if (what == "material") {
      parse_face(face);
      if (!prop({"ambient", "diffuse", "specular", "emission", "shininess"},
                "material property", p))
         return false;
      name = "state.material." + face + "." + p;
   } else if (what == "light") {
      if (!parse_bracket_index(kMaxLights, "light index", n))
         return false;
      if (!prop({"ambient", "diffuse", "specular", "position", "attenuation", "spot", "half"},
                "light property", p))
         return false;
      if (p == "spot") {
         std::string d;
         if (!prop({"direction"}, "spot property", d))
            return false;
         p += ".direction";
      }
      name = idx("state.light", n) + "." + p;
   } else if (what == "lightmodel") {
      if (peek().is('.') && peek(1).is_ident("ambient")) {
         next();
         next();
         name = "state.lightmodel.ambient";
      } else {
         parse_face(face);
         if (!prop({"scenecolor"}, "light model property", p))
            return false;
         name = "state.lightmodel." + face + ".scenecolor";
      }
   } else if (what == "lightprod") {
      if (!parse_bracket_index(kMaxLights, "light index", n))
         return false;
      parse_face(face);
      if (!prop({"ambient", "diffuse", "specular"}, "light product property", p))
         return false;
      name = idx("state.lightprod", n) + "." + face + "." + p;
   } else if (what == "texgen") {
      if (!parse_optional_index(kMaxTexCoords, "texture coordinate index", n))
         return false;
      std::string space;
      if (!prop({"eye", "object"}, "texgen plane type", space))
         return false;
      if (!prop({"s", "t", "r", "q"}, "texgen coordinate", p))
         return false;
      name = idx("state.texgen", n) + "." + space + "." + p;
   } else if (what == "fog") {
      if (!prop({"color", "params"}, "fog property", p))
         return false;
      name = "state.fog." + p;
   } else if (what == "depth") {
      if (!prop({"range"}, "depth property", p))
         return false;
      name = "state.depth.range";
   } else if (what == "clip" && vp) {
      if (!parse_bracket_index(kMaxClipPlanes, "clip plane index", n))
         return false;
      if (!prop({"plane"}, "clip plane property", p))
         return false;
      name = idx("state.clip", n) + ".plane";
   } else if (what == "point" && vp) {
      if (!prop({"size", "attenuation"}, "point property", p))
         return false;
      name = "state.point." + p;
   } else if (what == "texenv" && !vp) {
      if (!parse_optional_index(kMaxTexUnits, "texture unit index", n))
         return false;
      if (!prop({"color"}, "texture environment property", p))
         return false;
      name = idx("state.texenv", n) + ".color";
   } else {
      error(loc, "unknown state binding 'state." + std::string(what) + "' in " +
                    (vp ? "vertex" : "fragment") + " programs");
      return false;
   }
   ParamBinding b;
   b.kind = ParamBinding::Kind::State;
   b.state = std::move(name);
   out.push_back(std::move(b));
   return true;
}

bool Parser::parse_state_matrix(std::vector<ParamBinding> &out, bool multi)
{
   if (!expect('.', "'.'"))
      return false;
   SourceLoc loc = here();
   std::string_view which;
   if (!expect_ident("a matrix name", which))
      return false;
   int64_t n = 0;
   std::string name;
   if (which == "modelview") {
      if (!parse_optional_index(kMaxModelview, "modelview matrix index", n))
         return false;
      name = idx("state.matrix.modelview", n);
   } else if (which == "projection" || which == "mvp") {
      name = "state.matrix." + std::string(which);
   } else if (which == "texture") {
      if (!parse_optional_index(kMaxTexCoords, "texture matrix index", n))
         return false;
      name = idx("state.matrix.texture", n);
   } else if (which == "palette") {
      if (!parse_bracket_index(kMaxPalette, "palette matrix index", n))
         return false;
      name = idx("state.matrix.palette", n);
   } else if (which == "program") {
      if (!parse_bracket_index(kMaxProgramMatrices, "program matrix index", n))
         return false;
      name = idx("state.matrix.program", n);
   } else {
      error(loc, "unknown matrix 'state.matrix." + std::string(which) + "'");
      return false;
   }
   if (peek().is('.') && (peek(1).is_ident("inverse") || peek(1).is_ident("transpose") ||
                          peek(1).is_ident("invtrans"))) {
      next();
      name += "." + std::string(next().text);
   }
   int64_t first = 0, last = 3;
   SourceLoc rloc = peek().loc;
   if (peek().is('.') && peek(1).is_ident("row")) {
      next();
      next();
      if (!expect('[', "'['"))
         return false;
      SourceLoc iloc = here();
      if (!expect_int("a matrix row", first))
         return false;
      last = first;
      if (peek().kind == TokKind::DotDot) {
         if (!multi) {
            error(peek().loc, "an index range binds several vectors; a single vector is "
                              "required here");
            return false;
         }
         next();
         if (!expect_int("a matrix row", last))
            return false;
      }
      if (first > 3 || last > 3) {
         error(iloc, "matrix row " + std::to_string(std::max(first, last)) +
                        " is out of range (0..3)");
         return false;
      }
      if (last < first) {
         error(iloc, "invalid row range " + std::to_string(first) + ".." +
                        std::to_string(last));
         return false;
      }
      if (!expect(']', "']'"))
         return false;
   } else if (!multi) {
      error(rloc, "'" + name + "' binds 4 vectors; a single vector is required here (use "
                  ".row[n])");
      return false;
   }
   for (int64_t r = first; r <= last; r++) {
      ParamBinding b;
      b.kind = ParamBinding::Kind::State;
      b.state = name + ".row[" + std::to_string(r) + "]";
      b.row = int32_t(r);
      out.push_back(std::move(b));
   }
   return true;
}

bool Parser::starts_constant() const
{
   const Token &t = peek();
   if (t.is('{') || t.kind == TokKind::Int || t.kind == TokKind::Float)
      return true;
   return (t.is('-') || t.is('+')) &&
          (peek(1).kind == TokKind::Int || peek(1).kind == TokKind::Float);
}

bool Parser::parse_signed_number(float &out)
{
   bool neg = false;
   if (peek().is('-') || peek().is('+'))
      neg = next().is('-');
   const Token &t = peek();
   if (at_limit() || (t.kind != TokKind::Int && t.kind != TokKind::Float)) {
      error(t.loc, "expected a number, found " + tok_desc(t));
      return false;
   }
   next();
   out = neg ? -t.float_value : t.float_value;
   return true;
}

bool Parser::parse_constant(std::array<float, 4> &value)
{
   if (!accept('{')) {
      float f;
      if (!parse_signed_number(f))
         return false;
      value = {f, f, f, f};
      return true;
   }
   /* Missing components default to (0, 0, 0, 1) as the specs say. */
   value = {0, 0, 0, 1};
   for (int i = 0;; i++) {
      if (i == 4) {
         error(here(), "a constant vector has at most 4 components");
         return false;
      }
      if (!parse_signed_number(value[i]))
         return false;
      if (accept('}'))
         return true;
      if (!expect(',', "',' or '}'"))
         return false;
   }
}

static std::string binding_key(const ParamBinding &b)
{
   switch (b.kind) {
   case ParamBinding::Kind::Env: return "env:" + std::to_string(b.index);
   case ParamBinding::Kind::Local: return "local:" + std::to_string(b.index);
   case ParamBinding::Kind::State: return "state:" + b.state;
   case ParamBinding::Kind::Literal: {
      uint32_t bits[4];
      std::memcpy(bits, b.value.data(), sizeof(bits));
      std::string k = "lit:";
      for (uint32_t v : bits)
         k += std::to_string(v) + ",";
      return k;
   }
   }
   return "";
}

int32_t Parser::const_for(const ParamBinding &b)
{
   std::string key = binding_key(b);
   auto it = param_lookup_.find(key);
   if (it != param_lookup_.end())
      return it->second;
   if (int32_t(params_.size()) >= kMaxConsts) {
      error(here(), "too many program parameters (limit " + std::to_string(kMaxConsts) + ")");
      return -1;
   }
   ParamBinding nb = b;
   nb.const_index = int32_t(params_.size());
   params_.push_back(nb);
   param_lookup_.emplace(std::move(key), nb.const_index);
   return nb.const_index;
}

int32_t Parser::const_range(const std::vector<ParamBinding> &items, SourceLoc loc)
{
   if (int64_t(params_.size()) + int64_t(items.size()) > kMaxConsts) {
      error(loc, "too many program parameters (limit " + std::to_string(kMaxConsts) + ")");
      return -1;
   }
   int32_t first = int32_t(params_.size());
   for (const ParamBinding &b : items) {
      ParamBinding nb = b;
      nb.const_index = int32_t(params_.size());
      params_.push_back(nb);
      /* Later single uses of the same vector may share the array's slot. */
      param_lookup_.emplace(binding_key(nb), nb.const_index);
   }
   return first;
}

int32_t Parser::immediate(std::array<float, 4> v)
{
   tgsi::Immediate imm;
   imm.type = tgsi::ImmType::Float32;
   imm.count = 4;
   std::memcpy(imm.value.data(), v.data(), sizeof(uint32_t) * 4);
   for (size_t i = 0; i < imms_.size(); i++)
      if (imms_[i].value == imm.value)
         return int32_t(i);
   imms_.push_back(imm);
   return int32_t(imms_.size() - 1);
}

int32_t Parser::scratch_temp()
{
   return kScratchBase + num_scratch_++;
}

} // namespace sbcc::arb
