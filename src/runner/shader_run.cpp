#include "runner/shader_run.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "arb/arb_parse.h"
#include "texture/texture.h"

namespace sbcc::runner {

bool read_file(const std::string &path, std::string &out, Diagnostics &diags)
{
   std::ifstream in(path, std::ios::binary);
   if (!in) {
      diags.error(path, {}, "cannot open file");
      return false;
   }
   std::ostringstream ss;
   ss << in.rdbuf();
   out = ss.str();
   return true;
}

namespace {

using Mat4 = std::array<std::array<float, 4>, 4>; /* [row][column] */

Mat4 identity()
{
   Mat4 m{};
   for (int i = 0; i < 4; i++)
      m[i][i] = 1.0f;
   return m;
}

Mat4 mul(const Mat4 &a, const Mat4 &b)
{
   Mat4 r{};
   for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
         for (int k = 0; k < 4; k++)
            r[i][j] += a[i][k] * b[k][j];
   return r;
}

Mat4 transpose(const Mat4 &m)
{
   Mat4 r{};
   for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
         r[i][j] = m[j][i];
   return r;
}

/* Gauss-Jordan; a singular matrix gives the identity (GL leaves it undefined). */
Mat4 inverse(const Mat4 &m)
{
   double a[4][8];
   for (int i = 0; i < 4; i++)
      for (int j = 0; j < 8; j++)
         a[i][j] = j < 4 ? m[i][j] : (j - 4 == i ? 1.0 : 0.0);
   for (int c = 0; c < 4; c++) {
      int piv = c;
      for (int r = c + 1; r < 4; r++)
         if (std::fabs(a[r][c]) > std::fabs(a[piv][c]))
            piv = r;
      if (a[piv][c] == 0.0)
         return identity();
      for (int j = 0; j < 8; j++)
         std::swap(a[c][j], a[piv][j]);
      double d = a[c][c];
      for (int j = 0; j < 8; j++)
         a[c][j] /= d;
      for (int r = 0; r < 4; r++) {
         if (r == c)
            continue;
         double f = a[r][c];
         for (int j = 0; j < 8; j++)
            a[r][j] -= f * a[c][j];
      }
   }
   Mat4 r{};
   for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
         r[i][j] = float(a[i][j + 4]);
   return r;
}

std::array<float, 4> transform(const Mat4 &m, const std::array<float, 4> &v)
{
   std::array<float, 4> r{};
   for (int i = 0; i < 4; i++)
      r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2] + m[i][3] * v[3];
   return r;
}

Mat4 ortho_matrix(float l, float r, float b, float t)
{
   /* glOrtho(l, r, b, t, -1, 1). */
   Mat4 m{};
   m[0][0] = 2.0f / (r - l);
   m[0][3] = -(r + l) / (r - l);
   m[1][1] = 2.0f / (t - b);
   m[1][3] = -(t + b) / (t - b);
   m[2][2] = -1.0f;
   m[3][3] = 1.0f;
   return m;
}

struct GlState {
   Mat4 modelview = identity();
   Mat4 projection = identity();
   std::array<float, 4> color = {1, 1, 1, 1};
   std::array<std::array<float, 4>, 8> texcoord{};
   std::map<int, std::array<float, 4>> env_vp, env_fp, local_vp, local_fp;
   std::map<std::pair<int, int>, std::array<uint32_t, 4>> constants; /* (buffer, index) */
   GlState()
   {
      for (auto &t : texcoord)
         t = {0, 0, 0, 1};
   }
};

/* "state.matrix.mvp.row[2]" style names: the matrix, its modifier, the row. */
bool matrix_state(const GlState &st, const std::string &name, std::array<float, 4> &out)
{
   const std::string prefix = "state.matrix.";
   if (name.compare(0, prefix.size(), prefix) != 0)
      return false;
   std::string rest = name.substr(prefix.size());
   size_t rowpos = rest.rfind(".row[");
   if (rowpos == std::string::npos || rest.size() < rowpos + 7)
      return false;
   int row = rest[rowpos + 5] - '0';
   if (row < 0 || row > 3)
      return false;
   std::string head = rest.substr(0, rowpos);
   std::string modifier;
   for (const char *m : {".transpose", ".inverse", ".invtrans"}) {
      std::string ms(m);
      if (head.size() > ms.size() && head.compare(head.size() - ms.size(), ms.size(), ms) == 0) {
         modifier = ms;
         head.resize(head.size() - ms.size());
         break;
      }
   }
   Mat4 m;
   if (head == "mvp")
      m = mul(st.projection, st.modelview);
   else if (head == "modelview" || head == "modelview[0]")
      m = st.modelview;
   else if (head == "projection")
      m = st.projection;
   else if (head.compare(0, 8, "texture[") == 0 || head == "texture" ||
            head.compare(0, 8, "program[") == 0 || head.compare(0, 10, "modelview[") == 0)
      m = identity(); /* never changed by our [test] commands */
   else
      return false;
   if (modifier == ".transpose")
      m = transpose(m);
   else if (modifier == ".inverse")
      m = inverse(m);
   else if (modifier == ".invtrans")
      m = transpose(inverse(m));
   out = m[row];
   return true;
}

/* GL's initial values for the non-matrix state ARB programs can bind. */
bool other_state(const std::string &name, std::array<float, 4> &out)
{
   static const std::map<std::string, std::array<float, 4>> defaults = {
      {"state.fog.color", {0, 0, 0, 0}},
      {"state.fog.params", {1, 0, 1, 1}},
      {"state.depth.range", {0, 1, 1, 1}},
      {"state.material.front.ambient", {0.2f, 0.2f, 0.2f, 1}},
      {"state.material.front.diffuse", {0.8f, 0.8f, 0.8f, 1}},
      {"state.material.front.specular", {0, 0, 0, 1}},
      {"state.material.front.emission", {0, 0, 0, 1}},
      {"state.material.front.shininess", {0, 0, 0, 1}},
      {"state.material.back.ambient", {0.2f, 0.2f, 0.2f, 1}},
      {"state.material.back.diffuse", {0.8f, 0.8f, 0.8f, 1}},
      {"state.material.back.specular", {0, 0, 0, 1}},
      {"state.material.back.emission", {0, 0, 0, 1}},
      {"state.material.back.shininess", {0, 0, 0, 1}},
      {"state.lightmodel.ambient", {0.2f, 0.2f, 0.2f, 1}},
      {"state.point.size", {1, 0, 0, 1}},
      {"state.point.attenuation", {1, 0, 0, 1}},
   };
   auto it = defaults.find(name);
   if (it != defaults.end()) {
      out = it->second;
      return true;
   }
   /* Indexed state, with GL's initial values (light 0 is the white one). */
   int n = 0;
   char rest[64] = {0};
   auto light = [](int i, const std::string &p, std::array<float, 4> &v) {
      float on = i == 0 ? 1.0f : 0.0f;
      if (p == "ambient")
         v = {0, 0, 0, 1};
      else if (p == "diffuse" || p == "specular")
         v = {on, on, on, 1};
      else if (p == "position")
         v = {0, 0, 1, 0};
      else if (p == "attenuation")
         v = {1, 0, 0, 0};
      else if (p == "spot.direction")
         v = {0, 0, -1, -1};
      else if (p == "half")
         v = {0, 0, 1, 1};
      else
         return false;
      return true;
   };
   if (sscanf(name.c_str(), "state.light[%d].%63s", &n, rest) == 2 && n >= 0 && n < 8)
      return light(n, rest, out);
   char face[16] = {0};
   if (sscanf(name.c_str(), "state.lightprod[%d].%15[a-z].%63s", &n, face, rest) == 3 &&
       n >= 0 && n < 8) {
      /* Products of light and material colors; alpha is the material's. */
      std::array<float, 4> l, m;
      if (!light(n, rest, l) ||
          !other_state("state.material." + std::string(face) + "." + rest, m))
         return false;
      out = {l[0] * m[0], l[1] * m[1], l[2] * m[2], m[3]};
      return true;
   }
   if (name == "state.lightmodel.front.scenecolor" || name == "state.lightmodel.back.scenecolor") {
      /* emission + ambient * lightmodel ambient; alpha: material diffuse. */
      out = {0.04f, 0.04f, 0.04f, 0.8f};
      return true;
   }
   if (sscanf(name.c_str(), "state.texgen[%d].%15[a-z].%63s", &n, face, rest) == 3) {
      std::string c = rest;
      out = {c == "s" ? 1.0f : 0.0f, c == "t" ? 1.0f : 0.0f, 0, 0};
      return c == "s" || c == "t" || c == "r" || c == "q";
   }
   if (sscanf(name.c_str(), "state.clip[%d].plane", &n) == 1 ||
       sscanf(name.c_str(), "state.texenv[%d].color", &n) == 1) {
      out = {0, 0, 0, 0};
      return true;
   }
   return false;
}

const char *stage_label(StageKind k)
{
   switch (k) {
   case StageKind::ArbVertex: return "vertex program";
   case StageKind::ArbFragment: return "fragment program";
   case StageKind::TgsiVertex: return "vertex shader tgsi";
   case StageKind::TgsiFragment: return "fragment shader tgsi";
   }
   return "";
}

/* Move a stage parser's diagnostics into the file's numbering. */
void relocate(const Diagnostics &local, const std::string &file, uint32_t first_line,
              Diagnostics &diags)
{
   for (const auto &d : local.all()) {
      SourceLoc loc = d.loc;
      if (loc.line)
         loc.line += first_line - 1;
      diags.report(d.severity, file, loc, d.message);
   }
}

} // namespace

std::optional<std::vector<LoadedStage>> load_stages(const ShaderTest &test, Diagnostics &diags)
{
   std::vector<LoadedStage> out;
   bool ok = true;
   for (const auto &src : test.stages) {
      LoadedStage st;
      st.kind = src.kind;
      st.vertex = src.kind == StageKind::ArbVertex || src.kind == StageKind::TgsiVertex;
      Diagnostics local;
      if (src.kind == StageKind::TgsiVertex || src.kind == StageKind::TgsiFragment) {
         auto sh = tgsi::parse_tgsi(src.text, test.file, local);
         relocate(local, test.file, src.first_line, diags);
         if (!sh) {
            ok = false;
            continue;
         }
         tgsi::Processor want = st.vertex ? tgsi::Processor::Vertex : tgsi::Processor::Fragment;
         if (sh->processor != want) {
            diags.error(test.file, {src.first_line, 1},
                        std::string("[") + stage_label(src.kind) + "] holds a " +
                           std::string(tgsi::processor_name(sh->processor)) + " shader");
            ok = false;
            continue;
         }
         st.shader = std::move(*sh);
      } else {
         st.arb = true;
         auto prog = arb::parse_arb(src.text, test.file, local);
         relocate(local, test.file, src.first_line, diags);
         if (!prog) {
            ok = false;
            continue;
         }
         bool is_vp = prog->kind == arb::ProgramKind::Vertex;
         if (is_vp != st.vertex) {
            diags.error(test.file, {src.first_line, 1},
                        std::string("[") + stage_label(src.kind) + "] holds a " +
                           (is_vp ? "vertex" : "fragment") + " program");
            ok = false;
            continue;
         }
         st.shader = std::move(prog->shader);
         for (const auto &p : prog->params) {
            ConstBinding b;
            switch (p.kind) {
            case arb::ParamBinding::Kind::Env: b.kind = ConstBinding::Kind::Env; break;
            case arb::ParamBinding::Kind::Local: b.kind = ConstBinding::Kind::Local; break;
            case arb::ParamBinding::Kind::State: b.kind = ConstBinding::Kind::State; break;
            case arb::ParamBinding::Kind::Literal: b.kind = ConstBinding::Kind::Literal; break;
            }
            b.index = p.index;
            b.state = p.state;
            b.value = p.value;
            b.const_index = p.const_index;
            st.bindings.push_back(std::move(b));
         }
         for (const auto &in : prog->inputs) {
            if (in.index < 0 || in.index > 255)
               continue;
            if (st.input_names.size() <= size_t(in.index))
               st.input_names.resize(in.index + 1);
            st.input_names[in.index] = in.name;
         }
      }
      out.push_back(std::move(st));
   }
   if (!ok)
      return std::nullopt;
   return out;
}

namespace {

bool requirement_met(const Requirement &r, const std::vector<std::string> &missing,
                     std::string &why)
{
   static const char *const extensions[] = {
      "GL_ARB_vertex_program",      "GL_ARB_fragment_program",
      "GL_ARB_fragment_program_shadow", "GL_ARB_texture_rectangle",
      "GL_NV_texture_rectangle",    "GL_EXT_texture_rectangle",
      "GL_ARB_texture_cube_map",    "GL_EXT_texture3D",
      "GL_ARB_shadow",              "GL_ARB_depth_texture",
      "GL_ARB_texture_non_power_of_two", "GL_ARB_multitexture",
      "GL_ARB_derivative_control",
   };
   std::istringstream ss(r.text);
   std::string a, op, v;
   ss >> a >> op >> v;
   if (op.empty()) {
      bool neg = a[0] == '!';
      std::string name = neg ? a.substr(1) : a;
      bool have = false;
      for (const char *e : extensions)
         have |= name == e;
      for (const std::string &m : missing)
         have &= name != m;
      if (have == neg)
         why = neg ? "requires " + name + " to be absent" : name + " is not supported";
      return have != neg;
   }
   if (a == "GL" || a == "GL" || a == "GLSL") {
      float ver = std::strtof(v.c_str(), nullptr);
      /* The newest hardware we target (Cayman) does GL 3.3 / GLSL 3.30, but
       * this runner takes no GLSL sections, so anything past 3.3 is a skip. */
      float max = a == "GL" ? 3.3f : 3.3f;
      if ((op == ">=" || op == ">") && ver > max) {
         why = a + " " + v + " is not supported";
         return false;
      }
      return true;
   }
   /* Implementation limits (GL_MAX_...) are not modelled: assume met. */
   return true;
}

std::string fmt_color(const float *c, int n)
{
   std::string s = "(";
   char buf[32];
   for (int i = 0; i < n; i++) {
      snprintf(buf, sizeof(buf), "%s%.6g", i ? ", " : "", c[i]);
      s += buf;
   }
   return s + ")";
}

class Executor {
 public:
   Executor(const ShaderTest &test, const StageCompiler &compile, const RunOptions &opts,
            Diagnostics &diags)
      : test_(test), compile_(compile), opts_(opts), diags_(diags)
   {
   }

   TestResult run();

 private:
   bool setup();
   bool command(const Command &c);
   bool draw(const Command &c);
   bool fill_constants(const LoadedStage *st, Resources &res, bool vertex);
   bool probe(const Command &c);
   bool error(const Command &c, std::string msg)
   {
      diags_.error(test_.file, c.loc, std::move(msg));
      result_.status = TestStatus::Error;
      return false;
   }
   bool texture(const Command &c);
   bool texparameter(const Command &c);
   tex::TextureSet textures_;
   std::map<unsigned, std::shared_ptr<const tex::Texture>> bound_;

   const ShaderTest &test_;
   const StageCompiler &compile_;
   const RunOptions &opts_;
   Diagnostics &diags_;
   TestResult result_;
   GlState st_;
   Color clear_color_ = {0, 0, 0, 0};
   std::vector<LoadedStage> stages_;
   const LoadedStage *vs_ = nullptr;
   const LoadedStage *fs_ = nullptr;
   tgsi::Shader fs_passthrough_;
   std::unique_ptr<Executable> vs_exe_, fs_exe_;
};

TestResult Executor::run()
{
   for (const auto &r : test_.requirements) {
      std::string why;
      if (!requirement_met(r, opts_.missing_extensions, why)) {
         result_.status = TestStatus::Skip;
         result_.messages.push_back(why);
         return std::move(result_);
      }
   }
   if (!setup()) {
      result_.status = TestStatus::Error;
      return std::move(result_);
   }
   result_.fb.clear({0, 0, 0, 0});
   for (const auto &c : test_.commands) {
      if (!command(c))
         break;
   }
   return std::move(result_);
}

bool Executor::setup()
{
   unsigned before = diags_.num_errors();
   auto stages = load_stages(test_, diags_);
   if (!stages)
      return false;
   stages_ = std::move(*stages);
   for (const auto &s : stages_)
      (s.vertex ? vs_ : fs_) = &s;
   if (vs_) {
      vs_exe_ = compile_(vs_->shader, diags_);
      if (!vs_exe_)
         return false;
   }
   const tgsi::Shader *fs_shader;
   if (fs_) {
      fs_shader = &fs_->shader;
   } else {
      /* GL's fixed-function fragment stage without texturing: the color. */
      tgsi::Shader &s = fs_passthrough_;
      s.processor = tgsi::Processor::Fragment;
      s.source_name = "passthrough fragment shader";
      tgsi::Declaration in;
      in.file = tgsi::File::Input;
      in.semantic = tgsi::Semantic::Color;
      in.interpolate = tgsi::Interpolate::Color;
      s.declarations.push_back(in);
      tgsi::Declaration out;
      out.file = tgsi::File::Output;
      out.semantic = tgsi::Semantic::Color;
      s.declarations.push_back(out);
      tgsi::Instruction mov;
      mov.opcode = tgsi::Opcode::MOV;
      mov.dst.resize(1);
      mov.dst[0].file = tgsi::File::Output;
      mov.src.resize(1);
      mov.src[0].file = tgsi::File::Input;
      s.instructions.push_back(mov);
      tgsi::Instruction end;
      end.opcode = tgsi::Opcode::END;
      s.instructions.push_back(end);
      fs_shader = &s;
   }
   fs_exe_ = compile_(*fs_shader, diags_);
   return fs_exe_ != nullptr && diags_.num_errors() == before;
}

bool Executor::command(const Command &c)
{
   switch (c.kind) {
   /* As glClearColor/glClear: `clear color` only sets the color. */
   case CmdKind::Clear: result_.fb.clear(clear_color_); return true;
   case CmdKind::ClearColor: clear_color_ = c.v; return true;
   case CmdKind::Parameter: {
      auto &m = c.space == ParamSpace::EnvVp   ? st_.env_vp
                : c.space == ParamSpace::EnvFp ? st_.env_fp
                : c.space == ParamSpace::LocalVp ? st_.local_vp
                                                 : st_.local_fp;
      m[c.index] = c.v;
      return true;
   }
   case CmdKind::Uniform: {
      auto &slot = st_.constants[{c.buffer, c.index}];
      for (unsigned i = 0; i < 4; i++)
         slot[i] = i < c.count ? c.raw[i] : 0;
      return true;
   }
   case CmdKind::Texture:
      return texture(c);
   case CmdKind::TexParameter:
      return texparameter(c);
   case CmdKind::DrawRect: return draw(c);
   case CmdKind::Ortho:
      st_.projection = c.ortho_default
                          ? ortho_matrix(0, float(kWindowWidth), 0, float(kWindowHeight))
                          : ortho_matrix(c.rect[0], c.rect[1], c.rect[2], c.rect[3]);
      if (!c.ortho_default && (c.rect[0] == c.rect[1] || c.rect[2] == c.rect[3]))
         return error(c, "degenerate ortho bounds");
      return true;
   case CmdKind::Color: st_.color = c.v; return true;
   case CmdKind::TexCoord: st_.texcoord[c.index] = c.v; return true;
   case CmdKind::Probe: return probe(c);
   }
   return true;
}

bool Executor::fill_constants(const LoadedStage *stage, Resources &res, bool vertex)
{
   if (!stage && vertex)
      return true; /* host-side passthrough: no shader, no constants */
   const tgsi::Shader &sh = stage ? stage->shader : fs_passthrough_;
   /* Size each buffer from the declarations so every readable slot exists. */
   for (const auto &d : sh.declarations) {
      if (d.file != tgsi::File::Constant)
         continue;
      size_t buf = d.dimension ? size_t(std::max(0, *d.dimension)) : 0;
      if (buf >= 32 || d.last < 0 || d.last > 65535)
         continue;
      if (res.constants.size() <= buf)
         res.constants.resize(buf + 1);
      if (res.constants[buf].size() <= size_t(d.last))
         res.constants[buf].resize(d.last + 1, Vec4{0, 0, 0, 0});
   }
   if (!stage)
      return true;
   if (!stage->arb) {
      for (const auto &[key, v] : st_.constants) {
         size_t buf = size_t(key.first), idx = size_t(key.second);
         if (res.constants.size() <= buf)
            res.constants.resize(buf + 1);
         if (res.constants[buf].size() <= idx)
            res.constants[buf].resize(idx + 1, Vec4{0, 0, 0, 0});
         res.constants[buf][idx] = v;
      }
      return true;
   }
   if (res.constants.empty())
      res.constants.resize(1);
   for (const auto &b : stage->bindings) {
      std::array<float, 4> v = {0, 0, 0, 0};
      switch (b.kind) {
      case ConstBinding::Kind::Literal: v = b.value; break;
      case ConstBinding::Kind::Env:
      case ConstBinding::Kind::Local: {
         const auto &m = b.kind == ConstBinding::Kind::Env ? (vertex ? st_.env_vp : st_.env_fp)
                                                           : (vertex ? st_.local_vp : st_.local_fp);
         auto it = m.find(b.index);
         if (it != m.end())
            v = it->second;
         break;
      }
      case ConstBinding::Kind::State:
         if (!matrix_state(st_, b.state, v) && !other_state(b.state, v)) {
            diags_.error(test_.file, {},
                         "ARB state binding '" + b.state + "' is not supported by the runner");
            result_.status = TestStatus::Error;
            return false;
         }
         break;
      }
      if (b.const_index < 0 || b.const_index > 65535)
         continue;
      if (res.constants[0].size() <= size_t(b.const_index))
         res.constants[0].resize(b.const_index + 1, Vec4{0, 0, 0, 0});
      res.constants[0][b.const_index] = vec4f(v[0], v[1], v[2], v[3]);
   }
   return true;
}

bool Executor::draw(const Command &c)
{
   float x = c.rect[0], y = c.rect[1], w = c.rect[2], h = c.rect[3];
   if (c.draw_ortho) {
      x = -1.0f + 2.0f * x / kWindowWidth;
      y = -1.0f + 2.0f * y / kWindowHeight;
      w = 2.0f * w / kWindowWidth;
      h = 2.0f * h / kWindowHeight;
   }
   /* piglit_draw_rect's strip: (x,y) (x+w,y) (x,y+h) (x+w,y+h). */
   std::array<std::array<float, 4>, 4> pos = {{{x, y, 0, 1},
                                               {x + w, y, 0, 1},
                                               {x, y + h, 0, 1},
                                               {x + w, y + h, 0, 1}}};
   std::array<std::array<float, 4>, 8> tc[4];
   for (int v = 0; v < 4; v++)
      tc[v] = st_.texcoord;
   if (c.draw_tex) {
      const auto &t = c.tex_rect;
      float s0 = t[0], t0 = t[1], s1 = t[0] + t[2], t1 = t[1] + t[3];
      tc[0][0] = {s0, t0, 0, 1};
      tc[1][0] = {s1, t0, 0, 1};
      tc[2][0] = {s0, t1, 0, 1};
      tc[3][0] = {s1, t1, 0, 1};
   }

   Resources vres, fres;
   vres.textures = &textures_;
   fres.textures = &textures_;
   if (!fill_constants(vs_, vres, true) || !fill_constants(fs_, fres, false))
      return false;

   std::vector<ShadedVertex> verts(4);
   std::vector<VertexAttrib> layout;
   if (vs_) {
      const tgsi::Shader &sh = vs_->shader;
      Batch batch;
      int n_in = std::max(0, sh.file_size(tgsi::File::Input));
      int n_out = std::max(0, sh.file_size(tgsi::File::Output));
      for (int v = 0; v < 4; v++) {
         Lane lane;
         lane.inputs.assign(n_in, Vec4{0, 0, 0, f2u(1.0f)});
         lane.system_values.assign(std::max(0, sh.file_size(tgsi::File::SystemValue)),
                                   Vec4{0, 0, 0, 0});
         lane.outputs.assign(n_out, Vec4{0, 0, 0, 0});
         for (int i = 0; i < n_in; i++) {
            std::array<float, 4> a = {0, 0, 0, 1};
            if (vs_->arb) {
               std::string name = size_t(i) < vs_->input_names.size() ? vs_->input_names[i] : "";
               if (name == "vertex.position" || name == "vertex.attrib[0]")
                  a = pos[v];
               else if (name == "vertex.color" || name == "vertex.color.primary" ||
                        name == "vertex.attrib[3]")
                  a = st_.color;
               else if (name == "vertex.normal")
                  a = {0, 0, 1, 1};
               else if (name.compare(0, 16, "vertex.texcoord[") == 0 && name.size() > 16)
                  a = tc[v][std::min(7, std::max(0, name[16] - '0'))];
               else if (name == "vertex.texcoord")
                  a = tc[v][0];
            } else {
               /* The documented TGSI layout: position, color, texcoords. */
               if (i == 0)
                  a = pos[v];
               else if (i == 1)
                  a = st_.color;
               else if (i < 10)
                  a = tc[v][i - 2];
            }
            lane.inputs[i] = vec4f(a[0], a[1], a[2], a[3]);
         }
         batch.lanes.push_back(std::move(lane));
      }
      RunResult r = vs_exe_->run(vres, batch, opts_.limits);
      if (r.status != RunStatus::Ok) {
         result_.status = r.status == RunStatus::BudgetExceeded ? TestStatus::Fail
                                                                : TestStatus::Error;
         result_.messages.push_back(
            std::string(r.status == RunStatus::BudgetExceeded
                           ? "vertex shader exceeded the loop budget: "
                           : "vertex shader failed: ") +
            r.message);
         return false;
      }
      int pos_out = -1;
      std::vector<int> out_index;
      for (const auto &d : sh.declarations) {
         if (d.file != tgsi::File::Output)
            continue;
         for (int32_t i = d.first; i <= d.last && i < n_out; i++) {
            if (i < 0)
               continue;
            if (d.semantic == tgsi::Semantic::Position && pos_out < 0)
               pos_out = i;
            layout.push_back({d.semantic, d.semantic_index + uint32_t(i - d.first)});
            out_index.push_back(i);
         }
      }
      if (pos_out < 0)
         return error(c, "the vertex stage writes no POSITION output");
      for (int v = 0; v < 4; v++) {
         const Lane &lane = batch.lanes[v];
         const Vec4 &p = lane.outputs[pos_out];
         verts[v].position = {u2f(p[0]), u2f(p[1]), u2f(p[2]), u2f(p[3])};
         for (int oi : out_index)
            verts[v].attribs.push_back(lane.outputs[oi]);
      }
   } else {
      Mat4 mvp = mul(st_.projection, st_.modelview);
      layout.push_back({tgsi::Semantic::Color, 0});
      layout.push_back({tgsi::Semantic::Color, 1});
      layout.push_back({tgsi::Semantic::Fog, 0});
      for (uint32_t t = 0; t < 8; t++)
         layout.push_back({tgsi::Semantic::TexCoord, t});
      for (int v = 0; v < 4; v++) {
         verts[v].position = transform(mvp, pos[v]);
         float eye_z = transform(st_.modelview, pos[v])[2];
         verts[v].attribs.push_back(vec4f(st_.color[0], st_.color[1], st_.color[2], st_.color[3]));
         verts[v].attribs.push_back(vec4f(0, 0, 0, 1));
         verts[v].attribs.push_back(vec4f(std::fabs(eye_z), 0, 0, 1));
         for (int t = 0; t < 8; t++)
            verts[v].attribs.push_back(vec4f(tc[v][t][0], tc[v][t][1], tc[v][t][2], tc[v][t][3]));
      }
   }

   FragmentStage fs;
   fs.shader = fs_ ? &fs_->shader : &fs_passthrough_;
   fs.exe = fs_exe_.get();
   fs.resources = &fres;
   fs.limits = opts_.limits;
   fs.batch_lanes = opts_.batch_lanes;
   /* GL strip order keeps both triangles' winding; the last index provokes. */
   DrawResult dr = draw_triangles(verts, layout, {{0, 1, 2}, {2, 1, 3}}, fs, result_.fb);
   if (!dr.ok) {
      result_.status = dr.error.find("budget") != std::string::npos ? TestStatus::Fail
                                                                    : TestStatus::Error;
      result_.messages.push_back(test_.file + ":" + std::to_string(c.loc.line) + ": " +
                                 dr.error);
      return false;
   }
   return true;
}

bool Executor::probe(const Command &c)
{
   int n = c.rgba ? 4 : 3;
   auto check = [&](int x, int y) {
      const Color &got = result_.fb.at(x, y);
      for (int i = 0; i < n; i++) {
         if (!(std::fabs(got[i] - c.v[i]) <= kProbeTolerance)) {
            result_.status = TestStatus::Fail;
            result_.messages.push_back(
               test_.file + ":" + std::to_string(c.loc.line) + ": probe at (" +
               std::to_string(x) + ", " + std::to_string(y) + ") failed: expected " +
               fmt_color(c.v.data(), n) + ", observed " + fmt_color(got.data(), n));
            return false;
         }
      }
      return true;
   };
   int x0 = 0, y0 = 0, x1 = kWindowWidth, y1 = kWindowHeight;
   switch (c.probe) {
   case ProbeKind::Pixel:
      x0 = int(c.px), y0 = int(c.py), x1 = x0 + 1, y1 = y0 + 1;
      break;
   case ProbeKind::Relative:
      /* piglit truncates relative * size and keeps the far edge inside. */
      x0 = std::min(kWindowWidth - 1, int(c.px * kWindowWidth));
      y0 = std::min(kWindowHeight - 1, int(c.py * kWindowHeight));
      x1 = x0 + 1, y1 = y0 + 1;
      break;
   case ProbeKind::Rect:
      x0 = int(c.rect[0]), y0 = int(c.rect[1]);
      x1 = x0 + int(c.rect[2]), y1 = y0 + int(c.rect[3]);
      break;
   case ProbeKind::All: break;
   }
   for (int y = y0; y < y1; y++)
      for (int x = x0; x < x1; x++)
         if (!check(x, y))
            return true; /* piglit keeps going after a failed probe */
   return true;
}

bool Executor::texture(const Command &c)
{
   std::shared_ptr<const tex::Texture> t;
   tex::Sampler samp;
   switch (c.tex) {
   case TextureKind::Rgbw:
      t = std::make_shared<tex::Texture>(
         tex::Texture::rgbw(tex::Kind::Tex2D, c.width, c.height, 1, false));
      break;
   case TextureKind::Checkerboard: {
      /* piglit's checkerboard is level LEVEL of a 2D texture, 2x2 squares of
       * the two colors over the whole image. */
      if (c.level != 0)
         return error(c, "checkerboard levels other than 0 are not supported");
      int sq = std::max(1, c.width / 2);
      t = std::make_shared<tex::Texture>(tex::Texture::checkerboard(
         tex::Kind::Tex2D, c.width, c.height, 1, sq, c.v, c.v2, false));
      break;
   }
   case TextureKind::Miptree: {
      /* piglit_miptree_texture: 8x8, 4 levels: red, green, blue, white. */
      static const std::array<float, 4> wheel[4] = {
         {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
      auto m = std::make_shared<tex::Texture>(tex::Kind::Tex2D, 8, 8, 1, true);
      for (int l = 0; l < m->levels() && l < 4; l++)
         for (int y = 0; y < m->height(l); y++)
            for (int x = 0; x < m->width(l); x++)
               m->set_texel(l, x, y, 0, wheel[l]);
      t = m;
      samp.mip_filter = tex::MipFilter::Nearest;
      break;
   }
   case TextureKind::Shadow1D:
   case TextureKind::Shadow2D:
   case TextureKind::ShadowRect: {
      /* piglit_depth_texture: depth ramps 0 -> 1 left to right, x / (w - 1);
       * shader_runner then sets compare mode on with GL_GREATER. */
      tex::Kind kind = c.tex == TextureKind::Shadow1D   ? tex::Kind::Tex1D
                       : c.tex == TextureKind::Shadow2D ? tex::Kind::Tex2D
                                                        : tex::Kind::Rect;
      int h = c.tex == TextureKind::Shadow1D ? 1 : c.height;
      auto d = std::make_shared<tex::Texture>(kind, c.width, h, 1, false);
      for (int y = 0; y < h; y++)
         for (int x = 0; x < c.width; x++) {
            float v = c.width > 1 ? float(x) / float(c.width - 1) : 0.0f;
            d->set_texel(0, x, y, 0, {v, v, v, 1});
         }
      t = d;
      samp.compare = tex::CompareFunc::Greater;
      break;
   }
   }
   bound_[unsigned(c.index)] = t;
   textures_.bind(unsigned(c.index), std::move(t), samp);
   return true;
}

bool Executor::texparameter(const Command &c)
{
   /* piglit applies texparameter to the texture bound on unit 0's target;
    * we apply it to every bound unit, since tests bind one texture. */
   static const std::map<std::string, tex::CompareFunc> funcs = {
      {"never", tex::CompareFunc::Never},     {"less", tex::CompareFunc::Less},
      {"lequal", tex::CompareFunc::LEqual},   {"equal", tex::CompareFunc::Equal},
      {"greater", tex::CompareFunc::Greater}, {"gequal", tex::CompareFunc::GEqual},
      {"notequal", tex::CompareFunc::NotEqual}, {"always", tex::CompareFunc::Always}};
   static const std::map<std::string, tex::DepthMode> modes = {
      {"luminance", tex::DepthMode::Luminance}, {"intensity", tex::DepthMode::Intensity},
      {"alpha", tex::DepthMode::Alpha},         {"red", tex::DepthMode::Red}};
   static const std::map<std::string, std::pair<tex::Filter, tex::MipFilter>> filters = {
      {"nearest", {tex::Filter::Nearest, tex::MipFilter::None}},
      {"linear", {tex::Filter::Linear, tex::MipFilter::None}},
      {"nearest_mipmap_nearest", {tex::Filter::Nearest, tex::MipFilter::Nearest}},
      {"linear_mipmap_nearest", {tex::Filter::Linear, tex::MipFilter::Nearest}},
      {"nearest_mipmap_linear", {tex::Filter::Nearest, tex::MipFilter::Linear}},
      {"linear_mipmap_linear", {tex::Filter::Linear, tex::MipFilter::Linear}}};
   static const std::map<std::string, tex::Wrap> wraps = {
      {"repeat", tex::Wrap::Repeat},
      {"clamp_to_edge", tex::Wrap::ClampToEdge},
      {"clamp", tex::Wrap::Clamp},
      {"mirrored_repeat", tex::Wrap::Mirror},
      {"clamp_to_border", tex::Wrap::ClampToBorder}};
   if (bound_.empty())
      return error(c, "texparameter before any texture command");
   for (const auto &[u, tp] : bound_) {
      tex::Sampler s = *textures_.sampler(u);
      if (c.pname == "compare_func") {
         auto it = funcs.find(c.pvalue);
         if (it == funcs.end())
            return error(c, "unknown compare_func '" + c.pvalue + "'");
         s.compare = it->second;
      } else if (c.pname == "depth_mode") {
         auto it = modes.find(c.pvalue);
         if (it == modes.end())
            return error(c, "unknown depth_mode '" + c.pvalue + "'");
         s.depth_mode = it->second;
      } else if (c.pname == "min" || c.pname == "mag") {
         auto it = filters.find(c.pvalue);
         if (it == filters.end() || (c.pname == "mag" && it->second.second != tex::MipFilter::None))
            return error(c, "unknown " + c.pname + " filter '" + c.pvalue + "'");
         if (c.pname == "mag") {
            s.mag_filter = it->second.first;
         } else {
            s.min_filter = it->second.first;
            s.mip_filter = it->second.second;
         }
      } else {
         auto it = wraps.find(c.pvalue);
         if (it == wraps.end())
            return error(c, "unknown wrap mode '" + c.pvalue + "'");
         s.wrap[c.pname == "wrap_s" ? 0 : c.pname == "wrap_t" ? 1 : 2] = it->second;
      }
      /* Rebinding shares the texel data; only the sampler changes. */
      textures_.bind(u, tp, s);
   }
   return true;
}

} // namespace

TestResult run_shader_test(const ShaderTest &test, const StageCompiler &compile,
                           const RunOptions &options, Diagnostics &diags)
{
   Executor ex(test, compile, options, diags);
   TestResult r = ex.run();
   if (r.status != TestStatus::Skip && diags.has_errors())
      r.status = TestStatus::Error;
   return r;
}

TestResult run_shader_test_file(const std::string &path, const StageCompiler &compile,
                                const RunOptions &options, Diagnostics &diags)
{
   TestResult r;
   std::string text;
   if (!read_file(path, text, diags)) {
      r.status = TestStatus::Error;
      return r;
   }
   auto test = parse_shader_test(text, path, diags);
   if (!test) {
      r.status = TestStatus::Error;
      return r;
   }
   return run_shader_test(*test, compile, options, diags);
}

} // namespace sbcc::runner
