/*
 * TGSI IR to text, in the exact layout of Mesa's tgsi_dump, so that the
 * corpus shaders (which are tgsi_dump output) print back byte for byte and
 * listings from sbcc can be diffed against Mesa's.
 *
 * Where tgsi_dump's own spelling would lose information (a float that
 * "%10.4f" does not reproduce), the printer picks a spelling the parser
 * reads back to the same bits, so parse_tgsi(print_tgsi(s)) == s always.
 */
#include <charconv>
#include <cstdio>
#include <cstring>

#include "tgsi/tgsi_ir.h"

namespace sbcc::tgsi {

namespace {

constexpr char kSwizzleChars[] = "xyzw";

void append_int(std::string &out, int64_t v)
{
   char buf[24];
   auto r = std::to_chars(buf, buf + sizeof(buf), v);
   out.append(buf, r.ptr);
}

void append_mask(std::string &out, uint8_t mask)
{
   if ((mask & WM_XYZW) == WM_XYZW)
      return;
   out += '.';
   for (unsigned i = 0; i < 4; i++)
      if (mask & (1u << i))
         out += kSwizzleChars[i];
}

void append_bracket(std::string &out, const RegIndex &idx, uint16_t array_id)
{
   out += '[';
   if (idx.indirect) {
      const IndirectRef &ind = *idx.indirect;
      out += file_name(ind.file);
      out += '[';
      append_int(out, ind.index);
      out += "].";
      out += kSwizzleChars[ind.swizzle & 3];
      if (idx.value > 0)
         out += '+';
      if (idx.value != 0)
         append_int(out, idx.value);
   } else {
      append_int(out, idx.value);
   }
   out += ']';
   uint16_t id = idx.indirect && idx.indirect->array_id ? idx.indirect->array_id : array_id;
   if (id) {
      out += '(';
      append_int(out, id);
      out += ')';
   }
}

void append_register(std::string &out, File file, const RegIndex &index,
                     const std::optional<RegIndex> &dim, uint16_t array_id)
{
   out += file_name(file);
   if (dim)
      append_bracket(out, *dim, 0);
   append_bracket(out, index, array_id);
}

/* Does text parse back (as the parser reads floats) to exactly these bits? */
bool float_text_exact(const char *text, uint32_t bits)
{
   const char *p = text;
   while (*p == ' ')
      p++;
   bool neg = *p == '-';
   if (neg)
      p++;
   float f = 0.0f;
   auto r = std::from_chars(p, p + std::strlen(p), f);
   if (r.ec != std::errc() || *r.ptr)
      return false;
   if (neg)
      f = -f;
   uint32_t got;
   std::memcpy(&got, &f, 4);
   return got == bits;
}

void append_float(std::string &out, uint32_t bits)
{
   float f;
   std::memcpy(&f, &bits, 4);
   char buf[64];
   std::snprintf(buf, sizeof(buf), "%10.4f", static_cast<double>(f));
   if (!float_text_exact(buf, bits)) {
      std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(f));
      /* NaNs (and their payloads) only survive as raw bits. */
      if (!float_text_exact(buf, bits))
         std::snprintf(buf, sizeof(buf), "0x%08x", bits);
   }
   out += buf;
}

void print_declaration(std::string &out, const Shader &s, const Declaration &d)
{
   static constexpr std::string_view kReturnNames[] = {"UNORM", "SNORM", "SINT", "UINT",
                                                       "FLOAT"};
   out += "DCL ";
   out += file_name(d.file);
   if (d.file == File::Input && s.processor == Processor::Geometry)
      out += "[]";
   if (d.dimension) {
      out += '[';
      append_int(out, *d.dimension);
      out += ']';
   }
   out += '[';
   append_int(out, d.first);
   if (d.first != d.last) {
      out += "..";
      append_int(out, d.last);
   }
   out += ']';
   append_mask(out, d.usage_mask);
   if (d.array_id) {
      out += ", ARRAY(";
      append_int(out, d.array_id);
      out += ')';
   }
   if (d.local)
      out += ", LOCAL";
   if (d.semantic != Semantic::None) {
      out += ", ";
      out += semantic_name(d.semantic);
      if (d.semantic_index != 0 || d.semantic == Semantic::TexCoord ||
          d.semantic == Semantic::Generic) {
         out += '[';
         append_int(out, d.semantic_index);
         out += ']';
      }
   }
   if (d.file == File::SamplerView) {
      out += ", ";
      out += texture_target_name(d.view_target);
      out += ", ";
      const auto &r = d.view_return;
      auto name = [](ReturnType t) {
         unsigned i = static_cast<unsigned>(t);
         return i < std::size(kReturnNames) ? kReturnNames[i] : std::string_view("FLOAT");
      };
      out += name(r[0]);
      if (!(r[0] == r[1] && r[0] == r[2] && r[0] == r[3])) {
         for (unsigned i = 1; i < 4; i++) {
            out += ", ";
            out += name(r[i]);
         }
      }
   }
   if (d.interpolate != Interpolate::None) {
      out += ", ";
      out += interpolate_name(d.interpolate);
   }
   if (d.location == InterpLocation::Centroid)
      out += ", CENTROID";
   else if (d.location == InterpLocation::Sample)
      out += ", SAMPLE";
   if (d.invariant)
      out += ", INVARIANT";
   out += '\n';
}

void print_property(std::string &out, const PropertyDecl &p)
{
   out += "PROPERTY ";
   switch (p.property) {
   case Property::FsCoordOrigin:
      out += "FS_COORD_ORIGIN ";
      out += p.value ? "LOWER_LEFT" : "UPPER_LEFT";
      break;
   case Property::FsCoordPixelCenter:
      out += "FS_COORD_PIXEL_CENTER ";
      out += p.value ? "INTEGER" : "HALF_INTEGER";
      break;
   case Property::NextShader:
      out += "NEXT_SHADER ";
      out += p.value <= static_cast<uint32_t>(Processor::Compute)
                ? processor_name(static_cast<Processor>(p.value))
                : std::string_view("VERT");
      break;
   case Property::Other:
      out += p.name;
      out += ' ';
      if (!p.value_text.empty())
         out += p.value_text;
      else
         append_int(out, p.value);
      break;
   default: {
      static constexpr std::string_view names[] = {
         "FS_COORD_ORIGIN",     "FS_COORD_PIXEL_CENTER", "FS_COLOR0_WRITES_ALL_CBUFS",
         "FS_DEPTH_LAYOUT",     "FS_EARLY_DEPTH_STENCIL", "NEXT_SHADER",
         "NUM_CLIPDIST_ENABLED", "NUM_CULLDIST_ENABLED", "VS_WINDOW_SPACE_POSITION",
      };
      unsigned i = static_cast<unsigned>(p.property);
      out += i < std::size(names) ? names[i] : std::string_view(p.name);
      out += ' ';
      append_int(out, p.value);
      break;
   }
   }
   out += '\n';
}

void print_immediate(std::string &out, size_t index, const Immediate &imm)
{
   out += "IMM[";
   append_int(out, static_cast<int64_t>(index));
   out += "] ";
   switch (imm.type) {
   case ImmType::Float32: out += "FLT32"; break;
   case ImmType::Uint32: out += "UINT32"; break;
   case ImmType::Int32: out += "INT32"; break;
   }
   out += " {";
   unsigned n = imm.count > 4 ? 4 : imm.count;
   for (unsigned i = 0; i < n; i++) {
      if (i)
         out += ", ";
      switch (imm.type) {
      case ImmType::Float32: append_float(out, imm.value[i]); break;
      case ImmType::Uint32: append_int(out, imm.value[i]); break;
      case ImmType::Int32: append_int(out, static_cast<int32_t>(imm.value[i])); break;
      }
   }
   out += "}\n";
}

void print_instruction(std::string &out, unsigned number, int &indent, const Instruction &inst)
{
   const OpcodeInfo &info = inst.info();
   char num[16];
   std::snprintf(num, sizeof(num), "%3u: ", number);
   out += num;

   /* tgsi_dump's nesting: ELSE/ENDIF/ENDLOOP step out before printing,
    * IF/UIF/ELSE/BGNLOOP step in after. */
   switch (inst.opcode) {
   case Opcode::ELSE:
   case Opcode::ENDIF:
   case Opcode::ENDLOOP:
      if (indent > 0)
         indent--;
      break;
   default:
      break;
   }
   for (int i = 0; i < indent; i++)
      out += "  ";
   switch (inst.opcode) {
   case Opcode::IF:
   case Opcode::UIF:
   case Opcode::ELSE:
   case Opcode::BGNLOOP:
      indent++;
      break;
   default:
      break;
   }

   out += info.name;
   if (inst.saturate)
      out += "_SAT";
   if (inst.precise)
      out += "_PRECISE";

   bool first = true;
   for (const DstOperand &d : inst.dst) {
      out += first ? " " : ", ";
      first = false;
      append_register(out, d.file, d.index, d.dimension, d.array_id);
      append_mask(out, d.write_mask);
   }
   for (const SrcOperand &s : inst.src) {
      out += first ? " " : ", ";
      first = false;
      if (s.negate)
         out += '-';
      if (s.absolute)
         out += '|';
      append_register(out, s.file, s.index, s.dimension, s.array_id);
      if (s.swizzle[0] != SWZ_X || s.swizzle[1] != SWZ_Y || s.swizzle[2] != SWZ_Z ||
          s.swizzle[3] != SWZ_W) {
         out += '.';
         for (uint8_t c : s.swizzle)
            out += kSwizzleChars[c & 3];
      }
      if (s.absolute)
         out += '|';
   }
   if (info.flags & OPF_TEX) {
      out += ", ";
      out += texture_target_name(inst.tex_target);
      for (const TexOffset &o : inst.tex_offsets) {
         out += ", ";
         out += file_name(o.file);
         out += '[';
         append_int(out, o.index);
         out += "].";
         for (uint8_t c : o.swizzle)
            out += kSwizzleChars[c & 3];
      }
   }
   if (inst.label) {
      out += " :";
      append_int(out, *inst.label);
   }
   out += '\n';
}

} // namespace

std::string print_tgsi(const Shader &shader)
{
   std::string out;
   out.reserve(64 + 48 * (shader.declarations.size() + shader.instructions.size()));
   out += processor_name(shader.processor);
   out += '\n';
   for (const PropertyDecl &p : shader.properties)
      print_property(out, p);
   for (const Declaration &d : shader.declarations)
      print_declaration(out, shader, d);
   for (size_t i = 0; i < shader.immediates.size(); i++)
      print_immediate(out, i, shader.immediates[i]);
   int indent = 0;
   unsigned number = 0;
   for (const Instruction &inst : shader.instructions)
      print_instruction(out, number++, indent, inst);
   return out;
}

} // namespace sbcc::tgsi
