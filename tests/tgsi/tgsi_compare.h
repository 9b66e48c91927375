/*
 * Structural comparison of two TGSI shaders for round-trip tests: every IR
 * field that carries meaning, ignoring source locations and the file name.
 * Returns an empty string when equal, else a description of the first
 * difference (so a failing test says where).
 */
#pragma once

#include <string>

#include "tgsi/tgsi_ir.h"

namespace sbcc::tgsi::test {

inline bool same_index(const RegIndex &a, const RegIndex &b)
{
   if (a.value != b.value || a.indirect.has_value() != b.indirect.has_value())
      return false;
   if (!a.indirect)
      return true;
   return a.indirect->file == b.indirect->file && a.indirect->index == b.indirect->index &&
          a.indirect->swizzle == b.indirect->swizzle &&
          a.indirect->array_id == b.indirect->array_id;
}

inline bool same_dim(const std::optional<RegIndex> &a, const std::optional<RegIndex> &b)
{
   return a.has_value() == b.has_value() && (!a || same_index(*a, *b));
}

inline std::string shader_diff(const Shader &a, const Shader &b)
{
   if (a.processor != b.processor)
      return "processor";
   if (a.properties.size() != b.properties.size())
      return "property count";
   for (size_t i = 0; i < a.properties.size(); i++) {
      const PropertyDecl &x = a.properties[i], &y = b.properties[i];
      if (x.property != y.property || x.value != y.value)
         return "property " + std::to_string(i);
      /* An Other property built in code may leave value_text empty; it
       * prints (and so re-parses) as its number. */
      auto text = [](const PropertyDecl &p) {
         return p.value_text.empty() ? std::to_string(p.value) : p.value_text;
      };
      if (x.property == Property::Other && (x.name != y.name || text(x) != text(y)))
         return "property " + std::to_string(i) + " text";
   }
   if (a.declarations.size() != b.declarations.size())
      return "declaration count";
   for (size_t i = 0; i < a.declarations.size(); i++) {
      const Declaration &x = a.declarations[i], &y = b.declarations[i];
      if (x.file != y.file || x.first != y.first || x.last != y.last ||
          x.dimension != y.dimension || x.usage_mask != y.usage_mask ||
          x.semantic != y.semantic || x.semantic_index != y.semantic_index ||
          x.interpolate != y.interpolate || x.location != y.location ||
          x.array_id != y.array_id || x.local != y.local || x.invariant != y.invariant ||
          x.view_target != y.view_target || x.view_return != y.view_return)
         return "declaration " + std::to_string(i);
   }
   if (a.immediates.size() != b.immediates.size())
      return "immediate count";
   for (size_t i = 0; i < a.immediates.size(); i++) {
      const Immediate &x = a.immediates[i], &y = b.immediates[i];
      if (x.type != y.type || x.count != y.count)
         return "immediate " + std::to_string(i);
      for (unsigned k = 0; k < x.count && k < 4; k++)
         if (x.value[k] != y.value[k])
            return "immediate " + std::to_string(i) + " value " + std::to_string(k);
   }
   if (a.instructions.size() != b.instructions.size())
      return "instruction count";
   for (size_t i = 0; i < a.instructions.size(); i++) {
      const Instruction &x = a.instructions[i], &y = b.instructions[i];
      const std::string where = "instruction " + std::to_string(i);
      if (x.opcode != y.opcode || x.saturate != y.saturate || x.precise != y.precise ||
          x.label != y.label || x.dst.size() != y.dst.size() || x.src.size() != y.src.size())
         return where;
      if ((x.info().flags & OPF_TEX) &&
          (x.tex_target != y.tex_target || x.tex_offsets.size() != y.tex_offsets.size()))
         return where + " texture";
      for (size_t k = 0; k < x.tex_offsets.size() && k < y.tex_offsets.size(); k++)
         if (x.tex_offsets[k].file != y.tex_offsets[k].file ||
             x.tex_offsets[k].index != y.tex_offsets[k].index ||
             x.tex_offsets[k].swizzle != y.tex_offsets[k].swizzle)
            return where + " offset";
      for (size_t k = 0; k < x.dst.size(); k++) {
         const DstOperand &p = x.dst[k], &q = y.dst[k];
         if (p.file != q.file || !same_index(p.index, q.index) ||
             !same_dim(p.dimension, q.dimension) || p.write_mask != q.write_mask ||
             p.array_id != q.array_id)
            return where + " dst " + std::to_string(k);
      }
      for (size_t k = 0; k < x.src.size(); k++) {
         const SrcOperand &p = x.src[k], &q = y.src[k];
         if (p.file != q.file || !same_index(p.index, q.index) ||
             !same_dim(p.dimension, q.dimension) || p.swizzle != q.swizzle ||
             p.negate != q.negate || p.absolute != q.absolute || p.array_id != q.array_id)
            return where + " src " + std::to_string(k);
      }
   }
   return {};
}

} // namespace sbcc::tgsi::test
