#include "tgsi/tgsi_ir.h"

#include <algorithm>
#include <unordered_map>

namespace sbcc::tgsi {

int32_t Shader::file_size(File f) const
{
   int32_t size = 0;
   for (const Declaration &d : declarations)
      if (d.file == f)
         size = std::max(size, d.last + 1);
   if (f == File::Immediate)
      size = std::max(size, static_cast<int32_t>(immediates.size()));
   return size;
}

const Declaration *Shader::find_declaration(File f, int32_t index) const
{
   for (const Declaration &d : declarations)
      if (d.file == f && index >= d.first && index <= d.last)
         return &d;
   return nullptr;
}

std::string_view file_name(File f)
{
   static constexpr std::string_view names[] = {
      "NULL", "CONST", "IN", "OUT", "TEMP", "SAMP", "ADDR", "IMM", "SV", "SVIEW",
   };
   static_assert(std::size(names) == static_cast<size_t>(File::Count));
   return names[static_cast<unsigned>(f)];
}

std::string_view semantic_name(Semantic s)
{
   static constexpr std::string_view names[] = {
      "",         "POSITION",     "COLOR",       "BCOLOR",       "FOG",
      "PSIZE",    "GENERIC",      "NORMAL",      "FACE",         "EDGEFLAG",
      "PRIMID",   "INSTANCEID",   "VERTEXID",    "STENCIL",      "CLIPDIST",
      "CLIPVERTEX", "TEXCOORD",   "PCOORD",      "VIEWPORT_INDEX", "LAYER",
      "SAMPLEID", "SAMPLEPOS",    "SAMPLEMASK",  "INVOCATIONID", "VERTEXID_NOBASE",
      "BASEVERTEX", "HELPER_INVOCATION", "BASEINSTANCE", "DRAWID",
   };
   static_assert(std::size(names) == static_cast<size_t>(Semantic::Count));
   return names[static_cast<unsigned>(s)];
}

std::string_view texture_target_name(TextureTarget t)
{
   static constexpr std::string_view names[] = {
      "UNKNOWN",  "BUFFER",   "1D",         "2D",         "3D",
      "CUBE",     "RECT",     "SHADOW1D",   "SHADOW2D",   "SHADOWRECT",
      "1D_ARRAY", "2D_ARRAY", "SHADOW1D_ARRAY", "SHADOW2D_ARRAY", "SHADOWCUBE",
      "2D_MSAA",  "2D_ARRAY_MSAA", "CUBE_ARRAY", "SHADOWCUBE_ARRAY",
   };
   static_assert(std::size(names) == static_cast<size_t>(TextureTarget::Count));
   return names[static_cast<unsigned>(t)];
}

std::string_view interpolate_name(Interpolate i)
{
   switch (i) {
   case Interpolate::None: return "";
   case Interpolate::Constant: return "CONSTANT";
   case Interpolate::Linear: return "LINEAR";
   case Interpolate::Perspective: return "PERSPECTIVE";
   case Interpolate::Color: return "COLOR";
   }
   return "";
}

std::string_view processor_name(Processor p)
{
   switch (p) {
   case Processor::Vertex: return "VERT";
   case Processor::Fragment: return "FRAG";
   case Processor::Geometry: return "GEOM";
   case Processor::Compute: return "COMP";
   }
   return "VERT";
}

std::optional<Opcode> opcode_from_name(std::string_view name)
{
   static const std::unordered_map<std::string_view, Opcode> table = [] {
      std::unordered_map<std::string_view, Opcode> m;
      for (unsigned i = 0; i < kNumOpcodes; i++)
         m.emplace(kOpcodeInfo[i].name, static_cast<Opcode>(i));
      return m;
   }();
   auto it = table.find(name);
   if (it == table.end())
      return std::nullopt;
   return it->second;
}

} // namespace sbcc::tgsi
