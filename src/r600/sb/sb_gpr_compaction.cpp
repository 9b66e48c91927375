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
#include <bit>
#include <cstring>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

constexpr unsigned kFirstClauseTemp = 123;
/* The byte tables' size: the registers rounded up to whole 64-bit words
 * (the bytes past 122 stay zero). */
constexpr unsigned kGprBytes = 128;

/* Bit r of the result: used[r] && !pinned[r] (the bytes are 0 or 1).
 * Eight bytes are read as one word and their low bits gathered by a
 * multiply: byte i's bit lands on bit 56 + i, and no two partial products
 * meet, so nothing carries. */
std::array<uint64_t, kGprBytes / 64> movable_words(const std::array<uint8_t, kGprBytes> &used,
                                                   const std::array<uint8_t, kGprBytes> &pinned)
{
   std::array<uint64_t, kGprBytes / 64> words{};
   for (unsigned b = 0; b < kGprBytes; b += 8) {
      uint64_t u, p;
      std::memcpy(&u, &used[b], 8);
      std::memcpy(&p, &pinned[b], 8);
      if constexpr (std::endian::native == std::endian::big) {
         u = __builtin_bswap64(u);
         p = __builtin_bswap64(p);
      }
      words[b / 64] |= (((u & ~p) * 0x0102040810204080ull) >> 56) << (b % 64);
   }
   return words;
}

/* The first set bit at or after r, kGprBytes when none. */
unsigned next_set(const std::array<uint64_t, kGprBytes / 64> &words, unsigned r)
{
   for (unsigned w = r / 64; w < words.size(); w++) {
      const uint64_t bits = r / 64 == w ? words[w] >> (r % 64) << (r % 64) : words[w];
      if (bits)
         return w * 64 + unsigned(std::countr_zero(bits));
   }
   return kGprBytes;
}

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
    * heap vectors were a noticeable part of it on small shaders.  A byte
    * per register, the cheapest mark for each of the many operands; the
    * registers that may move are then gathered into words eight bytes at
    * a time (movable_words), so that only they are visited, not each of
    * the 123 numbers. */
   std::array<uint8_t, kGprBytes> used{}, pinned{};
   auto mark = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         used[r] = 1;
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
         used[r] = 1;
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
   pinned[0] = 1;
   for (const ShaderIo &io : info.inputs)
      if (io.gpr < kFirstClauseTemp)
         pinned[io.gpr] = 1;
   for (unsigned k = 0; k < (info.num_ij + 1) / 2 && k < kFirstClauseTemp; k++)
      pinned[k] = 1;
   /* Only the live channels (set bits, lowest first). */
   for (size_t k = entry_live._Find_first(); k < kFirstClauseTemp * 4;
        k = entry_live._Find_next(k))
      pinned[k / 4] = 1;
   for (unsigned r = 0; runs && r < kFirstClauseTemp; r++) {
      bool any = false;
      for (unsigned k = r; k < r + run[r]; k++)
         any = any || pinned[k];
      for (unsigned k = r; any && k < r + run[r]; k++)
         pinned[k] = 1;
   }
   /* New numbers of the registers that may move (used, not pinned; a
    * run's registers are all used); the others keep theirs, filled in
    * only when something moves. */
   std::array<uint8_t, kFirstClauseTemp> map;
   const std::array<uint64_t, kGprBytes / 64> movable = movable_words(used, pinned);
   unsigned next = 0;
   bool moved = false;
   for (unsigned r = next_set(movable, 0); r < kFirstClauseTemp; r = next_set(movable, r + 1)) {
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
      if (!(movable[r / 64] >> (r % 64) & 1))
         map[r] = uint8_t(r);
   auto rename = [&](uint8_t &r) {
      if (r < kFirstClauseTemp)
         r = map[r];
   };
   for_each_gpr(prog, rename);
   return true;
}

} // namespace sbcc::r600::sb
