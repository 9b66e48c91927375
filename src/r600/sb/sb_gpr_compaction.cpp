/*
 * gpr_compaction: renumbers GPRs downwards to close the gaps dce_cleanup
 * and copy_propagation leave (registers nothing reads or writes any more).
 *
 * This is not register allocation: live ranges are not shared, only unused
 * numbers are dropped, keeping the order of the rest, so every register
 * keeps or lowers its number.  Registers the hardware fills before the
 * program starts (inputs, R0 with the vertex/fragment system values, the
 * Evergreen barycentric registers, and whatever is read before it is
 * written) keep their numbers.  An export burst reads consecutive
 * registers, so its registers move as one run onto consecutive free
 * numbers (or all keep theirs when one of them is pinned).  Programs with
 * relative addressing are left alone: an index may reach any register.
 */
#include <algorithm>
#include <array>
#include <bitset>

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
         if (cf.exp.rw_rel)
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
   /* Fixed-size tables on the stack: this runs once per shader, and four
    * heap vectors were a noticeable part of it on small shaders.  Bit
    * sets, so that the registers that may move are found a word at a
    * time, not by a look at each of the 123 numbers. */
   std::bitset<kFirstClauseTemp> used, pinned;
   auto mark = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         used[r] = true;
   };
   /* mark hands every number back unchanged, so the walk can run on the
    * program itself (a copy to probe was the cost of this pass). */
   if (!for_each_gpr(prog, mark))
      return true; /* left alone, see above */
   /* run[r]: registers from r on that must stay consecutive (export
    * bursts; overlapping bursts merge into one run). */
   std::array<uint8_t, kFirstClauseTemp> run{};
   bool runs = false; /* most shaders have none */
   for (const CfInstr &cf : prog.cf) {
      const CfEncoding enc = cf_op_info(cf.op).enc;
      if ((enc != CfEncoding::Export && enc != CfEncoding::Mem) || cf.exp.burst_count < 2)
         continue;
      unsigned first = cf.exp.gpr, end = first + cf.exp.burst_count;
      if (end > kFirstClauseTemp)
         return true; /* reaches the clause temporaries: leave it alone */
      runs = true;
      for (unsigned r = first; r < end; r++)
         used[r] = true;
      /* Extend a run that starts at or before this one and reaches it. */
      unsigned start = first;
      for (unsigned r = 0; r < first; r++)
         if (run[r] && r + run[r] >= first) {
            start = r;
            break;
         }
      unsigned last = std::max<unsigned>(start + run[start], end);
      run[start] = uint8_t(last - start);
      for (unsigned r = start + 1; r < last; r++)
         if (run[r]) {
            last = std::max<unsigned>(last, r + run[r]);
            run[start] = uint8_t(last - start);
            run[r] = 0;
         }
   }
   pinned[0] = true;
   for (const ShaderIo &io : info.inputs)
      if (io.gpr < kFirstClauseTemp)
         pinned[io.gpr] = true;
   for (unsigned k = 0; k < (info.num_ij + 1) / 2 && k < kFirstClauseTemp; k++)
      pinned[k] = true;
   /* Only the live channels (set bits, lowest first). */
   for (size_t k = entry_live._Find_first(); k < kFirstClauseTemp * 4;
        k = entry_live._Find_next(k))
      pinned[k / 4] = true;
   for (unsigned r = 0; runs && r < kFirstClauseTemp; r++) {
      bool any = false;
      for (unsigned k = r; k < r + run[r]; k++)
         any = any || pinned[k];
      for (unsigned k = r; any && k < r + run[r]; k++)
         pinned[k] = true;
   }
   /* New numbers of the registers that may move (used, not pinned; a
    * run's registers are all used); the others keep theirs, filled in
    * only when something moves. */
   std::array<uint8_t, kFirstClauseTemp> map;
   const std::bitset<kFirstClauseTemp> movable = used & ~pinned;
   unsigned next = 0;
   bool moved = false;
   for (size_t r = movable._Find_first(); r < kFirstClauseTemp; r = movable._Find_next(r)) {
      /* A run needs as many consecutive free numbers; its own numbers
       * qualify, so it never moves up. */
      unsigned len = std::max<unsigned>(run[r], 1);
      for (;;) {
         unsigned k = 0;
         while (k < len && !pinned[next + k])
            k++;
         if (k == len)
            break;
         next += k + 1;
      }
      moved |= next != r;
      for (unsigned k = 0; k < len; k++)
         map[r + k] = uint8_t(next + k);
      next += len;
      r += len - 1; /* the run's other registers: all movable, all placed */
   }
   /* Usually the allocation left no gap: then there is nothing to rename. */
   if (!moved)
      return true;
   for (unsigned r = 0; r < kFirstClauseTemp; r++)
      if (!movable[r])
         map[r] = uint8_t(r);
   auto rename = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         r = map[r];
   };
   for_each_gpr(prog, rename);
   return true;
}

} // namespace sbcc::r600::sb
