/*
 * gpr_compaction: renumbers GPRs downwards to close the gaps dce_cleanup
 * and copy_propagation leave (registers nothing reads or writes any more).
 *
 * This is not register allocation: live ranges are not shared, only unused
 * numbers are dropped, keeping the order of the rest, so every register
 * keeps or lowers its number.  Registers the hardware fills before the
 * program starts (inputs, R0 with the vertex/fragment system values, the
 * Evergreen barycentric registers, and whatever is read before it is
 * written) keep their numbers.  Programs with
 * relative addressing or multi-register export bursts are left alone:
 * both depend on registers being consecutive.
 */
#include <vector>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

constexpr unsigned kFirstClauseTemp = 123;

template <typename Fn> bool for_each_gpr(Program &prog, Fn &&fn)
{
   for (CfInstr &cf : prog.cf) {
      for (AluGroup &g : cf.groups)
         for (AluInstr &in : g.instrs) {
            if (in.dst.rel || in.index_mode)
               return false;
            if ((in.dst.write || alu_is_op3(in.op)) && !(alu_op_info(in.op).flags & AF_MOVA))
               fn(in.dst.gpr);
            for (unsigned s = 0; s < alu_op_info(in.op).num_src; s++) {
               if (in.src[s].rel)
                  return false;
               if (in.src[s].sel < kFirstClauseTemp) {
                  uint8_t r = uint8_t(in.src[s].sel);
                  fn(r);
                  in.src[s].sel = r;
               }
            }
         }
      for (FetchInstr &f : cf.fetches) {
         if (auto *t = std::get_if<TexInstr>(&f)) {
            if (t->src_rel || t->dst_rel)
               return false;
            fn(t->src_gpr);
            fn(t->dst_gpr);
         } else if (auto *v = std::get_if<VtxInstr>(&f)) {
            if (v->src_rel || v->dst_rel)
               return false;
            fn(v->src_gpr);
            fn(v->dst_gpr);
         }
      }
      const CfEncoding enc = cf_op_info(cf.op).enc;
      if (enc == CfEncoding::Export || enc == CfEncoding::Mem) {
         if (cf.exp.rw_rel || cf.exp.burst_count != 1)
            return false;
         fn(cf.exp.gpr);
         if (enc == CfEncoding::Mem)
            fn(cf.exp.index_gpr);
      }
   }
   return true;
}

} // namespace

bool gpr_compaction(Program &prog, const ShaderInfo &info, const LiveSet &entry_live)
{
   std::vector<bool> used(kFirstClauseTemp, false), pinned(kFirstClauseTemp, false);
   auto mark = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         used[r] = true;
   };
   /* mark hands every number back unchanged, so the walk can run on the
    * program itself (a copy to probe was the cost of this pass). */
   if (!for_each_gpr(prog, mark))
      return true; /* left alone, see above */
   pinned[0] = true;
   for (const ShaderIo &io : info.inputs)
      if (io.gpr < kFirstClauseTemp)
         pinned[io.gpr] = true;
   for (unsigned k = 0; k < (info.num_ij + 1) / 2 && k < kFirstClauseTemp; k++)
      pinned[k] = true;
   for (unsigned r = 0; r < kFirstClauseTemp; r++)
      for (unsigned c = 0; c < 4; c++)
         if (entry_live.test(r * 4 + c))
            pinned[r] = true;
   std::vector<uint8_t> map(kFirstClauseTemp);
   unsigned next = 0;
   for (unsigned r = 0; r < kFirstClauseTemp; r++) {
      map[r] = uint8_t(r);
      if (pinned[r] || !used[r])
         continue;
      while (pinned[next])
         next++;
      map[r] = uint8_t(next++);
   }
   auto rename = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         r = map[r];
   };
   for_each_gpr(prog, rename);
   return true;
}

} // namespace sbcc::r600::sb
