/*
 * sbdump printer and structural counts of the sb IR.
 */
#include <cstdio>

#include "r600/sb/sb_ir.h"

namespace sbcc::r600::sb {

namespace {

constexpr char kChan[] = "xyzw";

std::string value_str(const Operand &o)
{
   const Value &v = o.value;
   std::string s;
   char buf[32];
   switch (v.kind) {
   case ValueKind::Gpr:
      s = "R" + std::to_string(v.sel) + (o.rel ? "[AR]" : "") + "." + kChan[v.chan & 3];
      break;
   case ValueKind::KCache: s = "KC" + std::to_string(v.sel) + "." + kChan[v.chan & 3]; break;
   case ValueKind::ConstFile: s = "C" + std::to_string(v.sel - kSrcCFILEFirst) + "." + kChan[v.chan & 3]; break;
   case ValueKind::Param: s = "Param" + std::to_string(v.sel) + "." + kChan[v.chan & 3]; break;
   case ValueKind::Inline: s = "I" + std::to_string(v.sel); break;
   case ValueKind::Literal:
      std::snprintf(buf, sizeof(buf), "0x%08x", v.bits);
      s = buf;
      break;
   case ValueKind::Forward: s = "@" + std::to_string(v.node); break;
   case ValueKind::Special: s = "S" + std::to_string(v.sel) + "." + kChan[v.chan & 3]; break;
   }
   if (o.abs)
      s = "|" + s + "|";
   if (o.neg)
      s = "-" + s;
   return s;
}

} // namespace

std::string dump_shader(const Shader &sh)
{
   std::string out;
   for (size_t ci = 0; ci < sh.cf.size(); ci++) {
      const CfNode &c = sh.cf[ci];
      out += "cf " + std::to_string(ci) + " " + std::string(cf_op_name(c.cf.op));
      if (cf_op_info(c.cf.op).flags & CF_TARGET)
         out += " -> " + std::to_string(c.cf.target);
      if (c.cf.pop_count)
         out += " pop " + std::to_string(c.cf.pop_count);
      if (!c.cf.fetches.empty())
         out += " fetches " + std::to_string(c.cf.fetches.size());
      out += "\n";
      if (!c.is_alu)
         continue;
      for (size_t gi = 0; gi < c.alu.groups.size(); gi++) {
         const GroupNode &g = c.alu.groups[gi];
         out += "  group " + std::to_string(gi) + (g.fixed ? " fixed" : "") + "\n";
         for (uint32_t id : g.nodes) {
            const AluNode &n = c.alu.nodes[id];
            out += "    " + std::to_string(n.id) + ": ";
            if (n.writes_gpr())
               out += "R" + std::to_string(n.bc.dst.gpr) + (n.bc.dst.rel ? "[AR]" : "") + "." +
                      kChan[n.bc.dst.chan & 3];
            else
               out += "__." + std::string(1, kChan[n.bc.dst.chan & 3]);
            out += " = " + std::string(alu_op_name(n.bc.op));
            if (n.bc.dst.clamp)
               out += "_sat";
            const unsigned nsrc = alu_op_info(n.bc.op).num_src;
            for (unsigned s = 0; s < nsrc; s++)
               out += (s ? ", " : " ") + value_str(n.src[s]);
            if (n.bc.pred_sel)
               out += n.bc.pred_sel == 3 ? " (if pred)" : " (if !pred)";
            out += "\n";
         }
      }
   }
   return out;
}

ShaderCounts count_shader(const Shader &sh)
{
   ShaderCounts c;
   for (const CfNode &n : sh.cf) {
      c.cf++;
      c.fetches += unsigned(n.cf.fetches.size());
      c.alu_groups += unsigned(n.alu.groups.size());
      c.alu_instrs += unsigned(n.alu.nodes.size());
   }
   return c;
}

ShaderCounts count_program(const Program &prog)
{
   ShaderCounts c;
   for (const CfInstr &cf : prog.cf) {
      c.cf++;
      c.fetches += unsigned(cf.fetches.size());
      c.alu_groups += unsigned(cf.groups.size());
      for (const AluGroup &g : cf.groups) {
         c.alu_instrs += unsigned(g.instrs.size());
         c.literals += group_literals_needed(g);
      }
   }
   return c;
}

} // namespace sbcc::r600::sb
