/*
 * Mesa `; INFO` block loader (see r600_mesa_info.h).
 */
#include "r600/r600_mesa_info.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace sbcc::r600 {

namespace {

struct RawIo {
   unsigned name = 0, sid = 0, spi_sid = 0, gpr = 0, interpolate = 0, location = 0;
   int lds_pos = 0;
   unsigned write_mask = 0;
   bool has_name = false;
};

bool parse_uint(std::string_view s, long &v)
{
   while (!s.empty() && s.front() == ' ')
      s.remove_prefix(1);
   while (!s.empty() && (s.back() == ' ' || s.back() == ';'))
      s.remove_suffix(1);
   auto r = std::from_chars(s.data(), s.data() + s.size(), v);
   return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

} // namespace

std::string_view mesa_dump_section(std::string_view text, std::string_view name)
{
   size_t pos = 0;
   while (pos < text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string_view::npos)
         eol = text.size();
      std::string_view line = text.substr(pos, eol - pos);
      if (line.size() == name.size() + 2 && line.substr(0, 2) == "; " && line.substr(2) == name) {
         size_t start = eol < text.size() ? eol + 1 : eol;
         size_t end = start;
         while (end < text.size()) {
            size_t e2 = text.find('\n', end);
            if (e2 == std::string_view::npos)
               e2 = text.size();
            std::string_view l2 = text.substr(end, e2 - end);
            if (l2.size() > 2 && l2.substr(0, 2) == "; " &&
                std::all_of(l2.begin() + 2, l2.end(),
                            [](char c) { return (c >= 'A' && c <= 'Z') || c == '-'; }))
               break;
            end = e2 < text.size() ? e2 + 1 : e2;
         }
         return text.substr(start, end - start);
      }
      pos = eol + 1;
   }
   return {};
}

std::optional<tgsi::Semantic> semantic_from_mesa(unsigned s)
{
   using S = tgsi::Semantic;
   /* enum tgsi_semantic (src/gallium/include/pipe/p_shader_tokens.h). */
   switch (s) {
   case 0: return S::Position;
   case 1: return S::Color;
   case 2: return S::BColor;
   case 3: return S::Fog;
   case 4: return S::PSize;
   case 5: return S::Generic;
   case 6: return S::Normal;
   case 7: return S::Face;
   case 8: return S::EdgeFlag;
   case 9: return S::PrimId;
   case 10: return S::InstanceId;
   case 11: return S::VertexId;
   case 12: return S::Stencil;
   case 13: return S::ClipDist;
   case 14: return S::ClipVertex;
   case 19: return S::TexCoord;
   case 20: return S::PCoord;
   case 21: return S::ViewportIndex;
   case 22: return S::Layer;
   case 23: return S::SampleId;
   case 24: return S::SamplePos;
   case 25: return S::SampleMask;
   case 26: return S::InvocationId;
   case 27: return S::VertexIdNoBase;
   case 28: return S::BaseVertex;
   case 32: return S::HelperInvocation;
   case 33: return S::BaseInstance;
   case 34: return S::DrawId;
   default: return std::nullopt;
   }
}

std::optional<ShaderInfo> load_mesa_info(std::string_view info_block, std::string_view bytecode,
                                         const tgsi::Shader &tgsi, const Program &prog,
                                         const MesaInfoOptions &options, Diagnostics &diags,
                                         std::string_view file)
{
   ShaderInfo info;
   info.chip = prog.chip;
   info.stage = tgsi.processor;
   std::map<unsigned, RawIo> ins, outs;
   long ninput = 0, noutput = 0;
   uint32_t lineno = 0;
   size_t pos = 0;
   bool ok = true;
   while (pos < info_block.size()) {
      size_t eol = info_block.find('\n', pos);
      if (eol == std::string_view::npos)
         eol = info_block.size();
      std::string_view line = info_block.substr(pos, eol - pos);
      pos = eol + 1;
      lineno++;
      size_t p = line.find("shader->");
      if (p == std::string_view::npos)
         continue;
      line = line.substr(p + 8);
      size_t eq = line.find('=');
      if (eq == std::string_view::npos)
         continue;
      std::string_view lhs = line.substr(0, eq);
      while (!lhs.empty() && lhs.back() == ' ')
         lhs.remove_suffix(1);
      long v = 0;
      if (!parse_uint(line.substr(eq + 1), v)) {
         diags.error(file, {lineno, uint32_t(p + 10 + eq)},
                     "INFO: expected an integer after '" + std::string(lhs) + "='");
         ok = false;
         continue;
      }
      bool is_in = lhs.starts_with("input[");
      bool is_out = lhs.starts_with("output[");
      if (is_in || is_out) {
         size_t lb = lhs.find('['), rb = lhs.find(']');
         long idx = 0;
         if (rb == std::string_view::npos || !parse_uint(lhs.substr(lb + 1, rb - lb - 1), idx) ||
             idx < 0 || idx > 255 || rb + 2 > lhs.size() || lhs[rb + 1] != '.') {
            diags.error(file, {lineno, uint32_t(p + 9)}, "INFO: malformed '" + std::string(lhs) + "'");
            ok = false;
            continue;
         }
         std::string_view field = lhs.substr(rb + 2);
         RawIo &io = (is_in ? ins : outs)[unsigned(idx)];
         if (field == "name") { io.name = unsigned(v); io.has_name = true; }
         else if (field == "sid") io.sid = unsigned(v);
         else if (field == "spi_sid") io.spi_sid = unsigned(v);
         else if (field == "gpr") io.gpr = unsigned(v);
         else if (field == "interpolate") io.interpolate = unsigned(v);
         else if (field == "interpolate_location") io.location = unsigned(v);
         else if (field == "lds_pos") io.lds_pos = int(v);
         else if (field == "write_mask") io.write_mask = unsigned(v);
         continue;
      }
      if (lhs == "ninput") ninput = v;
      else if (lhs == "noutput") noutput = v;
      else if (lhs == "uses_kill") info.uses_kill = v != 0;
   }
   if (!ok)
      return std::nullopt;
   if (ninput < 0 || ninput > 256 || noutput < 0 || noutput > 256) {
      diags.error(file, {}, "INFO: ninput/noutput out of range (" + std::to_string(ninput) + ", " +
                                std::to_string(noutput) + ")");
      return std::nullopt;
   }

   /* "bytecode 28 dw -- 3 gprs -- 0 nstack" (r600 listing) or
    * "===== 28 dw ===== 3 gprs ===== 0 stack" (sb dump). */
   {
      auto number_before = [&](std::string_view word) -> long {
         size_t w = bytecode.find(word);
         if (w == std::string_view::npos)
            return -1;
         size_t e = w;
         while (e > 0 && bytecode[e - 1] == ' ')
            e--;
         size_t b = e;
         while (b > 0 && bytecode[b - 1] >= '0' && bytecode[b - 1] <= '9')
            b--;
         long v = -1;
         if (b < e)
            parse_uint(bytecode.substr(b, e - b), v);
         return v;
      };
      long g = number_before(" gprs");
      long s = number_before(" nstack");
      if (s < 0)
         s = number_before(" stack");
      if (g < 0 || s < 0) {
         diags.error(file, {}, "BYTECODE: no 'N gprs' / 'N nstack' header");
         return std::nullopt;
      }
      info.num_gprs = uint32_t(g);
      info.stack_size = uint32_t(s);
   }

   const bool frag = tgsi.processor == tgsi::Processor::Fragment;
   const bool eg = is_eg_or_later(prog.chip);

   /* TGSI register of a slot: the declaration with the same semantic and
    * index; vertex inputs in declaration order. */
   auto find_decl = [&](tgsi::File f, tgsi::Semantic sem, unsigned sid) -> int32_t {
      for (const tgsi::Declaration &d : tgsi.declarations) {
         if (d.file != f)
            continue;
         if (d.semantic == sem && d.semantic_index <= sid &&
             sid <= d.semantic_index + unsigned(d.last - d.first))
            return d.first + int32_t(sid - d.semantic_index);
      }
      return -1;
   };

   for (long i = 0; i < ninput; i++) {
      const RawIo &r = ins[unsigned(i)];
      ShaderIo io;
      auto sem = semantic_from_mesa(r.name);
      if (!sem) {
         diags.error(file, {}, "INFO: input " + std::to_string(i) + " has semantic " +
                                   std::to_string(r.name) + " sbcc does not know");
         return std::nullopt;
      }
      io.semantic = *sem;
      io.semantic_index = r.sid;
      io.gpr = uint8_t(r.gpr);
      io.write_mask = 0xf;
      switch (r.interpolate) {
      case 0: io.interpolate = tgsi::Interpolate::Constant; break;
      case 1: io.interpolate = tgsi::Interpolate::Linear; break;
      case 3: io.interpolate = tgsi::Interpolate::Color; break;
      default: io.interpolate = tgsi::Interpolate::Perspective; break;
      }
      io.location = r.location == 1   ? tgsi::InterpLocation::Centroid
                    : r.location == 2 ? tgsi::InterpLocation::Sample
                                      : tgsi::InterpLocation::Center;
      io.tgsi_index = frag ? find_decl(tgsi::File::Input, io.semantic, io.semantic_index)
                           : int32_t(i);
      if (frag && eg && io.semantic != tgsi::Semantic::Position &&
          io.semantic != tgsi::Semantic::Face && io.semantic != tgsi::Semantic::SampleId &&
          io.semantic != tgsi::Semantic::SampleMask)
         io.lds_pos = r.lds_pos;
      info.inputs.push_back(io);
   }

   /* Vertex and instance id arrive in R0.x / R0.w of a vertex shader. */
   if (!frag) {
      for (const tgsi::Declaration &d : tgsi.declarations) {
         if (d.file != tgsi::File::SystemValue ||
             (d.semantic != tgsi::Semantic::VertexId && d.semantic != tgsi::Semantic::InstanceId))
            continue;
         ShaderIo io;
         io.semantic = d.semantic;
         io.tgsi_index = d.first;
         io.gpr = 0;
         info.inputs.push_back(io);
      }
   }

   /* Evergreen: the barycentric pairs in use, numbered in Mesa's order
    * (perspective sample/center/centroid, then linear). */
   if (frag && eg) {
      auto key = [](const ShaderIo &io) {
         int loc = io.location == tgsi::InterpLocation::Sample   ? 0
                   : io.location == tgsi::InterpLocation::Center ? 1
                                                                 : 2;
         return (io.interpolate == tgsi::Interpolate::Linear ? 3 : 0) + loc;
      };
      bool used[6] = {};
      for (const ShaderIo &io : info.inputs)
         if (io.lds_pos >= 0 && io.interpolate != tgsi::Interpolate::Constant)
            used[key(io)] = true;
      int index[6];
      unsigned n = 0;
      for (int k = 0; k < 6; k++)
         index[k] = used[k] ? int(n++) : -1;
      for (ShaderIo &io : info.inputs)
         if (io.lds_pos >= 0 && io.interpolate != tgsi::Interpolate::Constant)
            io.ij_index = index[key(io)];
      info.num_ij = n;
   }

   for (long i = 0; i < noutput; i++) {
      const RawIo &r = outs[unsigned(i)];
      ShaderIo io;
      auto sem = semantic_from_mesa(r.name);
      if (!sem) {
         diags.error(file, {}, "INFO: output " + std::to_string(i) + " has semantic " +
                                   std::to_string(r.name) + " sbcc does not know");
         return std::nullopt;
      }
      io.semantic = *sem;
      io.semantic_index = r.sid;
      io.gpr = uint8_t(r.gpr);
      io.write_mask = uint8_t(r.write_mask);
      io.tgsi_index = find_decl(tgsi::File::Output, io.semantic, io.semantic_index);
      io.export_type = 0xff; /* unassigned */
      info.outputs.push_back(io);
   }

   /* Export targets: from the EXPORT instructions whose GPR is an output's. */
   std::vector<bool> assigned(info.outputs.size(), false);
   if (options.match_export_gprs) {
      for (const CfInstr &cf : prog.cf) {
         if (cf.op != CfOp::EXPORT && cf.op != CfOp::EXPORT_DONE)
            continue;
         for (unsigned k = 0; k < cf.exp.burst_count; k++) {
            for (size_t o = 0; o < info.outputs.size(); o++) {
               ShaderIo &io = info.outputs[o];
               if (assigned[o] || io.gpr != cf.exp.gpr + k)
                  continue;
               io.export_type = cf.exp.type;
               io.export_base = uint16_t(cf.exp.array_base + k);
               assigned[o] = true;
               break;
            }
         }
      }
   }
   /* The rest in Mesa's order: VS position 60, point size 61, clip
    * distances 62+, everything else the next parameter; FS colours to
    * their colour buffer, depth/stencil/sample mask to 61. */
   unsigned next_param = 0;
   for (size_t o = 0; o < info.outputs.size(); o++) {
      ShaderIo &io = info.outputs[o];
      using S = tgsi::Semantic;
      if (!frag) {
         bool param = io.semantic != S::Position && io.semantic != S::PSize &&
                      io.semantic != S::ClipVertex && io.semantic != S::EdgeFlag &&
                      io.semantic != S::Layer && io.semantic != S::ViewportIndex;
         unsigned this_param = param ? next_param++ : 0;
         if (assigned[o])
            continue;
         if (io.semantic == S::Position) { io.export_type = 1; io.export_base = 60; }
         else if (io.semantic == S::PSize) { io.export_type = 1; io.export_base = 61; }
         else if (param) { io.export_type = 2; io.export_base = uint16_t(this_param); }
      } else if (!assigned[o]) {
         if (io.semantic == S::Color) { io.export_type = 0; io.export_base = uint16_t(io.semantic_index); }
         else if (io.semantic == S::Position || io.semantic == S::Stencil ||
                  io.semantic == S::SampleMask) { io.export_type = 0; io.export_base = 61; }
      }
      if (io.export_type == 0xff) {
         io.export_type = 3; /* never exported */
         io.tgsi_index = -1;
      }
   }
   info.has_fetch_shader = !frag && !prog.cf.empty() && prog.cf[0].op == CfOp::CALL_FS;
   return info;
}

} // namespace sbcc::r600
