/*
 * Static validation of r600-family programs: the rules the hardware imposes
 * beyond encodability (docs/r600-emulator.md lists them).  The GPR/constant
 * read-port model follows Mesa's check_and_set_bank_swizzle (r600_asm.c):
 * every vector slot reads its operands in the cycles its VEC_* bank swizzle
 * gives, the trans slot in its SCL_* cycles after the cycles its constants
 * take, and each (cycle, channel) GPR read port serves a single register.
 */
#include <algorithm>
#include <string>

#include "r600/r600_emu.h"

namespace sbcc::r600 {

namespace {

constexpr char kSlotNames[] = "xyzwt";
constexpr unsigned kNumGprs = 128; /* what a 7-bit GPR field addresses */
constexpr const char *kVecSwizzleNames[] = {"VEC_012", "VEC_021", "VEC_120",
                                            "VEC_102", "VEC_201", "VEC_210"};
constexpr const char *kSclSwizzleNames[] = {"SCL_210", "SCL_122", "SCL_212", "SCL_221"};
constexpr uint8_t kVecCycle[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0},
                                     {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
constexpr uint8_t kSclCycle[4][3] = {{2, 1, 0}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}};

class Validator {
 public:
   Validator(const Program &prog, const ShaderInfo &info, Diagnostics &diags)
      : prog_(prog), info_(info), diags_(diags), chip_(prog.chip)
   {
   }
   bool run();

 private:
   void error(unsigned cf, const std::string &msg)
   {
      diags_.error("CF " + std::to_string(cf) + ": " + msg);
   }
   void error(unsigned cf, unsigned group, unsigned slot, const std::string &msg)
   {
      diags_.error("CF " + std::to_string(cf) + " group " + std::to_string(group) + " slot " +
                   kSlotNames[slot] + ": " + msg);
   }
   void check_alu_clause(unsigned ci, const CfInstr &cf);
   void check_fetch_clause(unsigned ci, const CfInstr &cf);
   void check_export(unsigned ci, const CfInstr &cf);
   /* What check_group needs of a group as a whole, found for every group
    * of a clause by check_alu_clause's walk, which sizes the clause too. */
   struct GroupSummary {
      uint8_t mask = 0;      /* the slots its instructions fill */
      bool bad = false;      /* an invalid slot or opcode */
      bool loads_ar = false; /* an AF_MOVA instruction */
      unsigned lits = 0;     /* literals its instructions read (group_literals_needed) */
   };
   /* Inline in check_alu_clause, its one caller, for the same reason as
    * check_read_ports below. */
   [[gnu::always_inline]] inline void check_group(unsigned ci, const CfInstr &cf, unsigned gi,
                                                  const AluGroup &g, const GroupSummary &sum,
                                                  const GroupSummary *prev,
                                                  unsigned &ct_written);
   /* Inline in check_group, its one caller, which runs it for every group:
    * a call of its own cost a frame per group. */
   [[gnu::always_inline]] inline void check_read_ports(unsigned ci, unsigned gi,
                                                       const AluGroup &g);
   /* The read-port messages, out of line: the port checks run for every
    * operand and stay small enough to inline without them. */
   [[gnu::cold, gnu::noinline]] void cfile_port_error(unsigned ci, unsigned gi, unsigned slot,
                                                      unsigned sel, unsigned chan, int ports);
   [[gnu::cold, gnu::noinline]] void gpr_port_error(unsigned ci, unsigned gi, unsigned slot,
                                                    unsigned sel, unsigned chan, unsigned cycle,
                                                    const char *swz, int taken);

   const Program &prog_;
   const ShaderInfo &info_;
   Diagnostics &diags_;
   ChipClass chip_;
   SmallVector<GroupSummary, 128> summaries_; /* of the clause being checked */
   /* The kcache selectors (sets 0/1, then 2/3) the clause's locks were
    * found to cover: the verdict depends on the clause alone, and its
    * groups read the same constants again and again. */
   uint64_t kcache_ok_[2] = {};
};

bool is_gpr_sel(unsigned sel) { return sel <= kSrcGPRLast; }

std::string src_name(ChipClass chip, unsigned sel, unsigned chan)
{
   std::string s;
   switch (src_kind(chip, sel)) {
   case SrcKind::ClauseTemp: s = "T" + std::to_string(sel - kSrcClauseTempFirst); break;
   case SrcKind::Gpr: s = "R" + std::to_string(sel); break;
   case SrcKind::KCache:
      s = "KC" + std::to_string(src_kcache_set(sel)) + "[" +
          std::to_string(src_kcache_index(sel)) + "]";
      break;
   default: s = "C" + std::to_string(sel - kSrcCFILEFirst); break;
   }
   return s + "." + "xyzw"[chan & 3];
}

struct Ports {
   int gpr[3][4];   /* [cycle][chan] -> GPR, -1 free */
   int cfile[4][2]; /* (selector, element) pairs */

   Ports()
   {
      for (auto &c : gpr)
         for (int &x : c)
            x = -1;
      for (auto &c : cfile)
         c[0] = c[1] = -1;
   }
};

void Validator::cfile_port_error(unsigned ci, unsigned gi, unsigned slot, unsigned sel,
                                 unsigned chan, int ports)
{
   error(ci, gi, slot,
         "constant " + src_name(chip_, sel, chan) + " needs a constant read port but all " +
             std::to_string(ports) + " are taken in this group");
}

void Validator::gpr_port_error(unsigned ci, unsigned gi, unsigned slot, unsigned sel,
                               unsigned chan, unsigned cycle, const char *swz, int taken)
{
   error(ci, gi, slot,
         std::string("bank swizzle ") + swz + " reads " + src_name(chip_, sel, chan) +
             " in cycle " + std::to_string(cycle) + " where R" + std::to_string(taken) + "." +
             "xyzw"[chan & 3] + " is already read");
}

void Validator::check_read_ports(unsigned ci, unsigned gi, const AluGroup &g)
{
   Ports p;
   const bool r700 = chip_ != ChipClass::R600;
   auto is_cfile = [&](unsigned sel) {
      /* GPRs and the selectors from kSrc_0 up (inline constants, the
       * literal, PV/PS) read no constant port: no kind lookup for them. */
      if (is_gpr_sel(sel) || (sel >= kSrc_0 && sel <= kSrc_PS))
         return false;
      SrcKind k = src_kind(chip_, sel);
      return k == SrcKind::KCache || k == SrcKind::ConstFile;
   };
   auto cfile = [&](const AluInstr &in, unsigned sel, unsigned chan) -> bool {
      int n = r700 ? 2 : 4;
      int elem = r700 ? int(chan / 2) : int(chan);
      for (int r = 0; r < n; r++) {
         if (p.cfile[r][0] == -1) {
            p.cfile[r][0] = int(sel);
            p.cfile[r][1] = elem;
            return true;
         }
         if (p.cfile[r][0] == int(sel) && p.cfile[r][1] == elem)
            return true;
      }
      cfile_port_error(ci, gi, in.slot, sel, chan, n);
      return false;
   };
   auto gpr = [&](const AluInstr &in, unsigned sel, unsigned chan, unsigned cycle,
                  const char *swz) -> bool {
      int &port = p.gpr[cycle][chan & 3];
      if (port == -1 || port == int(sel)) {
         port = int(sel);
         return true;
      }
      gpr_port_error(ci, gi, in.slot, sel, chan, cycle, swz, port);
      return false;
   };
   for (const AluInstr &in : g.instrs) {
      const unsigned nsrc = alu_op_info(in.op).num_src;
      if (in.slot != kSlotT) {
         if (in.bank_swizzle > 5) {
            error(ci, gi, in.slot, "vector bank swizzle " + std::to_string(in.bank_swizzle) +
                                       " does not exist");
            continue;
         }
         const char *swz = kVecSwizzleNames[in.bank_swizzle];
         for (unsigned s = 0; s < nsrc; s++) {
            const AluSrc &src = in.src[s];
            if (is_gpr_sel(src.sel)) {
               if (s == 1 && src.sel == in.src[0].sel && src.chan == in.src[0].chan)
                  continue; /* shares src0's read */
               if (!gpr(in, src.sel, src.chan, kVecCycle[in.bank_swizzle][s], swz))
                  return;
            } else if (is_cfile(src.sel)) {
               if (!cfile(in, src.sel, src.chan))
                  return;
            }
         }
         continue;
      }
      if (in.bank_swizzle > 3) {
         error(ci, gi, in.slot, "trans bank swizzle " + std::to_string(in.bank_swizzle) +
                                    " does not exist");
         continue;
      }
      const char *swz = kSclSwizzleNames[in.bank_swizzle];
      unsigned consts = 0;
      for (unsigned s = 0; s < nsrc; s++) {
         const AluSrc &src = in.src[s];
         bool is_const = is_cfile(src.sel) || (src.sel >= kSrc_0 && src.sel <= kSrc_LITERAL);
         if (is_const) {
            if (consts >= 2) {
               error(ci, gi, in.slot, "more than two constant operands in the trans slot");
               return;
            }
            consts++;
         }
         if (is_cfile(src.sel) && !cfile(in, src.sel, src.chan))
            return;
      }
      for (unsigned s = 0; s < nsrc; s++) {
         const AluSrc &src = in.src[s];
         unsigned cycle = kSclCycle[in.bank_swizzle][s];
         bool gpr_or_pv = is_gpr_sel(src.sel) || src.sel == kSrc_PV || src.sel == kSrc_PS;
         if (gpr_or_pv && cycle < consts) {
            error(ci, gi, in.slot,
                  std::string("bank swizzle ") + swz + " reads operand " + std::to_string(s) +
                      " in cycle " + std::to_string(cycle) + ", taken by the slot's " +
                      std::to_string(consts) + " constant(s)");
            return;
         }
         if (is_gpr_sel(src.sel) && !gpr(in, src.sel, src.chan, cycle, swz))
            return;
      }
   }
}

/* `sum`: the group as a whole (slots, AR load, literals), `prev`: the
 * previous group's, null for the group that opens the clause (for its
 * PV/PS).  `ct_written`: the clause temporary channels written by the
 * groups before, bit 4 * temporary + channel. */
void Validator::check_group(unsigned ci, const CfInstr &cf, unsigned gi, const AluGroup &g,
                            const GroupSummary &sum, const GroupSummary *prev,
                            unsigned &ct_written)
{
   if (sum.bad) {
      diags_.error("CF " + std::to_string(ci) + " group " + std::to_string(gi) +
                   ": invalid slot or opcode");
      return;
   }
   const bool loads_ar = sum.loads_ar;
   const unsigned lits_needed = sum.lits;
   const unsigned nlit = unsigned(g.literals.size());
   if (nlit > 4 || lits_needed > 4)
      error(ci, gi, g.instrs.empty() ? 0 : g.instrs.back().slot,
            "group uses " + std::to_string(std::max(nlit, lits_needed)) +
                " literals, at most 4 fit");
   /* Destinations written so far in this group: at most one per slot, so
    * a short list (a table by GPR cost a 1 KiB clear per group). */
   struct Written {
      unsigned gpr, mask;
   } written[5];
   unsigned num_written = 0;
   const unsigned prev_mask = prev ? prev->mask : 0;
   /* Clause temporaries this group writes: readable from the next group on. */
   unsigned ct_new = 0;

   if (g.instrs.size() > slots_per_group(chip_))
      error(ci, gi, g.instrs.back().slot,
            "group of " + std::to_string(g.instrs.size()) + " instructions, at most " +
                std::to_string(slots_per_group(chip_)));
   /* The slots holding same_op, for the reduction and pair checks below:
    * made for the group's first such instruction and kept while the op
    * stays (a reduction's four slots hold one op). */
   AluOp same_op = AluOp::ALU_NOP;
   unsigned same = 0;
   bool have_same = false;
   for (const AluInstr &in : g.instrs) {
      const AluOpInfo &info = alu_op_info(in.op);
      const bool writes = in.dst.write || info.num_src == 3; /* OP3 always writes */
      if (writes && !in.dst.rel && in.dst.gpr >= kSrcClauseTempFirst &&
          in.dst.gpr <= kSrcGPRLast)
         ct_new |= 1u << (4 * (in.dst.gpr - kSrcClauseTempFirst) + (in.dst.chan & 3));
      const unsigned slots = alu_slots(chip_, in.op);
      if (!slots) {
         error(ci, gi, in.slot, std::string(info.name) + " does not exist on " +
                                    std::string(chip_class_name(chip_)));
         continue;
      }
      if (in.slot == kSlotT && !(slots & kSlotS))
         error(ci, gi, in.slot, "vector-only " + std::string(info.name) + " in the trans slot");
      if (in.slot != kSlotT && alu_is_trans_only(chip_, in.op))
         error(ci, gi, in.slot, "trans-only " + std::string(info.name) + " in a vector slot");
      const bool pair_only = (info.flags & AF_INTERP) && in.op != AluOp::INTERP_LOAD_P0 &&
                             in.op != AluOp::INTERP_LOAD_P10 && in.op != AluOp::INTERP_LOAD_P20;
      const bool red = slots & kSlot4; /* alu_is_reduction, from the slots at hand */
      if (in.slot < 4 && (red || pair_only)) {
         /* Reductions need the op in all four vector slots, INTERP_XY/ZW
          * their pair partner.  Reported once, from the lowest slot.  The
          * slots holding the op, from one look at the group (every slot
          * is at most kSlotT here). */
         const unsigned lo = red ? 0 : (in.slot & ~1u), hi = red ? 3 : lo + 1;
         if (!have_same || same_op != in.op) {
            same = 0;
            for (const AluInstr &o : g.instrs)
               if (o.op == in.op)
                  same |= 1u << o.slot;
            same_op = in.op;
            have_same = true;
         }
         const bool lowest = !(same & ((1u << in.slot) - (1u << lo)));
         for (unsigned s = lo; lowest && s <= hi; s++) {
            if (!(same & (1u << s))) {
               error(ci, gi, in.slot,
                     std::string(info.name) + " does not fill slot " + kSlotNames[s]);
               break;
            }
         }
      }
      const unsigned nsrc = info.num_src;
      for (unsigned s = 0; s < nsrc; s++) {
         const AluSrc &src = in.src[s];
         /* Most operands are GPRs, below the clause temporaries on every
          * chip: one compare for them, no kind lookup or jump table. */
         switch (src.sel < kSrcClauseTempFirst ? SrcKind::Gpr : src_kind(chip_, src.sel)) {
         [[likely]] case SrcKind::Gpr: break;
         case SrcKind::Literal:
            if (src.chan >= nlit)
               error(ci, gi, in.slot,
                     "LITERAL." + std::string(1, "xyzw"[src.chan & 3]) + " beyond the group's " +
                         std::to_string(nlit) + " literal(s)");
            break;
         case SrcKind::KCache: {
            const unsigned idx = src.sel < kSrcKCACHE2First ? src.sel - kSrcKCACHE0First
                                                            : src.sel - kSrcKCACHE2First + 64;
            const uint64_t bit = uint64_t(1) << (idx & 63);
            if (kcache_ok_[idx >> 6] & bit)
               break;
            unsigned set = src_kcache_set(src.sel);
            if (set >= 2 && !is_eg_or_later(chip_))
               error(ci, gi, in.slot, "kcache set " + std::to_string(set) +
                                          " does not exist before Evergreen");
            else if (set >= 2 && !cf.alu_ext)
               error(ci, gi, in.slot, "kcache set " + std::to_string(set) +
                                          " needs an ALU_EXT clause");
            else if (!kcache_constant(cf.kcache[set], src_kcache_index(src.sel)))
               error(ci, gi, in.slot,
                     "KC" + std::to_string(set) + "[" + std::to_string(src_kcache_index(src.sel)) +
                         "] is outside the clause's locked kcache range");
            else
               kcache_ok_[idx >> 6] |= bit;
            break;
         }
         case SrcKind::PV:
            if (!(prev_mask & (1u << (src.chan & 3))))
               error(ci, gi, in.slot,
                     "PV." + std::string(1, "xyzw"[src.chan & 3]) +
                         (prev ? " read but the previous group has no " +
                                     std::string(1, "xyzw"[src.chan & 3]) + " instruction"
                               : " read in the first group of the clause"));
            break;
         case SrcKind::PS:
            if (!(prev_mask & (1u << kSlotT)))
               error(ci, gi, in.slot,
                     prev ? "PS read but the previous group has no trans instruction"
                          : "PS read in the first group of the clause");
            break;
         case SrcKind::ClauseTemp:
            if (chip_ != ChipClass::R600 && !src.rel &&
                !(ct_written & (1u << (4 * (src.sel - kSrcClauseTempFirst) + (src.chan & 3)))))
               error(ci, gi, in.slot,
                     "clause temporary " + src_name(chip_, src.sel, src.chan) +
                         " read before it is written in this clause");
            break;
         default: break;
         }
         if (src.rel && loads_ar && in.index_mode < 4)
            error(ci, gi, in.slot, "AR used in the group that loads it");
      }
      if (in.dst.rel && loads_ar && in.index_mode < 4)
         error(ci, gi, in.slot, "AR used in the group that loads it");
      if (writes && in.dst.gpr > kSrcGPRLast)
         error(ci, gi, in.slot, "destination R" + std::to_string(in.dst.gpr) + " does not exist");
      if (writes && !in.dst.rel && !(info.flags & AF_MOVA && !is_eg_or_later(chip_))) {
         const unsigned bit = 1u << (in.dst.chan & 3);
         Written *w = nullptr;
         for (unsigned i = 0; i < num_written; i++)
            if (written[i].gpr == in.dst.gpr)
               w = &written[i];
         if (w && (w->mask & bit))
            error(ci, gi, in.slot, "second write to R" + std::to_string(in.dst.gpr) + "." +
                                       "xyzw"[in.dst.chan & 3] + " in one group");
         if (w)
            w->mask |= bit;
         else if (num_written < 5)
            written[num_written++] = {in.dst.gpr, bit};
      }
   }
   check_read_ports(ci, gi, g);
   ct_written |= ct_new;
}

void Validator::check_alu_clause(unsigned ci, const CfInstr &cf)
{
   /* One walk over the groups for what check_group needs of each as a
    * whole and for the clause's size (alu_clause_dwords(): instructions
    * and padded literals), which is reported before any group. */
   summaries_.clear();
   kcache_ok_[0] = kcache_ok_[1] = 0;
   unsigned dwords = 0;
   for (const AluGroup &g : cf.groups) {
      GroupSummary sum;
      for (const AluInstr &in : g.instrs) {
         if (in.slot <= kSlotT)
            sum.mask |= uint8_t(1u << in.slot);
         if (unsigned(in.op) >= kNumAluOps) {
            sum.bad = true;
            continue;
         }
         if (in.slot > kSlotT)
            sum.bad = true;
         if (alu_op_info(in.op).flags & AF_MOVA)
            sum.loads_ar = true;
         sum.lits = std::max(sum.lits, alu_instr_literals_needed(in));
      }
      dwords += alu_group_dwords(g, sum.lits);
      summaries_.push_back(sum);
   }
   /* COUNT is 7 bits + 1: 128 slots of two dwords (instructions and
    * literal pairs). */
   unsigned slots = dwords / 2;
   if (slots > 128)
      error(ci, "ALU clause of " + std::to_string(slots) + " slots, at most 128");
   if (cf.groups.empty())
      error(ci, "empty ALU clause");
   unsigned max_bank = is_eg_or_later(chip_) ? 4 : 2;
   for (unsigned k = 0; k < 4; k++)
      if (cf.kcache[k].mode && k >= max_bank)
         error(ci, "kcache set " + std::to_string(k) + " locked, the chip has " +
                       std::to_string(max_bank));
   unsigned ct_written = 0;
   for (unsigned gi = 0; gi < cf.groups.size(); gi++)
      check_group(ci, cf, gi, cf.groups[gi], summaries_[gi], gi ? &summaries_[gi - 1] : nullptr,
                  ct_written);
}

/* The fetches of one clause are issued without waiting for each other's
 * results, so a fetch may not take its address from a GPR channel an
 * earlier fetch of the clause writes.  Other channels of that GPR are
 * fine: Mesa's sb packs a shadow sample's result into R0.x and reads
 * R0.yzw as the next sample's address in the same clause, on shipped
 * code (r600-bc/CYPRESS-tgsi-sb).  Mesa's plain backend is stricter (by
 * whole GPR); that is a choice, not a hardware rule. */
void Validator::check_fetch_clause(unsigned ci, const CfInstr &cf)
{
   uint8_t written[kNumGprs] = {};   /* channel mask per GPR */
   int8_t writer[kNumGprs][4];       /* which fetch wrote it first */
   for (unsigned k = 0; k < cf.fetches.size(); k++) {
      const FetchInstr &f = cf.fetches[k];
      const FetchRegs regs = fetch_regs(f);
      const unsigned src = regs.src_gpr, dst = regs.dst_gpr, reads = regs.reads;
      const bool rel = regs.src_rel || regs.dst_rel;
      /* Gradient and offset setters and SEMFETCH write no GPR. */
      const FetchOp op = fetch_op(f);
      const bool no_gpr = op == FetchOp::SET_GRADIENTS_H || op == FetchOp::SET_GRADIENTS_V ||
                          op == FetchOp::SET_TEXTURE_OFFSETS || op == FetchOp::SEMFETCH;
      const unsigned writes = no_gpr ? 0 : regs.writes;
      if (rel)
         continue; /* the emulator checks relative ranges at run time */
      if (src < kNumGprs && (reads & written[src])) {
         unsigned c = unsigned(__builtin_ctz(reads & written[src]));
         error(ci, "fetch " + std::to_string(k) + " reads its address from R" +
                       std::to_string(src) + "." + "xyzw"[c] + ", which fetch " +
                       std::to_string(writer[src][c]) + " of the same clause writes");
      }
      if (dst < kNumGprs)
         for (unsigned c = 0; c < 4; c++)
            if ((writes & ~written[dst]) & (1u << c)) {
               writer[dst][c] = int8_t(k);
               written[dst] |= uint8_t(1u << c);
            }
   }
}

/* A burst exports GPRs gpr..gpr+count-1 to bases array_base..+count-1;
 * BURST_COUNT is four bits, and position and parameter exports have fixed
 * base ranges (60..63 and 0..31). */
void Validator::check_export(unsigned ci, const CfInstr &cf)
{
   const ExportInfo &e = cf.exp;
   if (e.burst_count < 1 || e.burst_count > 16) {
      error(ci, "burst of " + std::to_string(e.burst_count) + " exports, 1 to 16");
      return;
   }
   unsigned last = e.burst_count - 1u;
   if (!e.rw_rel && e.gpr + last >= kNumGprs)
      error(ci, "export burst reads R" + std::to_string(e.gpr) + "..R" +
                    std::to_string(e.gpr + last) + ", past R" + std::to_string(kNumGprs - 1));
   if (cf.op != CfOp::EXPORT && cf.op != CfOp::EXPORT_DONE)
      return;
   unsigned lo = 0, hi = ~0u;
   const char *what = nullptr;
   if (e.type == 1) {
      lo = 60, hi = 63, what = "position";
   } else if (e.type == 2) {
      lo = 0, hi = 31, what = "parameter";
   }
   if (what && (e.array_base < lo || e.array_base + last > hi))
      error(ci, std::string(what) + " export to bases " + std::to_string(e.array_base) + ".." +
                    std::to_string(e.array_base + last) + ", outside " + std::to_string(lo) +
                    ".." + std::to_string(hi));
}

bool Validator::run()
{
   const unsigned before = diags_.num_errors();
   const unsigned n = unsigned(prog_.cf.size());
   for (unsigned ci = 0; ci < n; ci++) {
      const CfInstr &cf = prog_.cf[ci];
      bool bad = unsigned(cf.op) >= kNumCfOps;
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &in : g.instrs)
            bad = bad || unsigned(in.op) >= kNumAluOps;
      for (const FetchInstr &f : cf.fetches) {
         FetchOp op = fetch_op(f);
         bad = bad || unsigned(op) >= kNumFetchOps;
      }
      if (bad) {
         error(ci, "opcode out of range");
         return false;
      }
   }
   bool has_end = false;
   unsigned pushes = 0, loops = 0, max_entries = 0;
   const unsigned max_fetch = chip_ == ChipClass::R600 ? 8 : 16;
   for (unsigned ci = 0; ci < n; ci++) {
      const CfInstr &cf = prog_.cf[ci];
      const uint32_t flags = cf_op_info(cf.op).flags;
      if (cf.end_of_program || cf.op == CfOp::CF_END)
         has_end = true;
      if ((flags & CF_TARGET) && cf.target > n)
         error(ci, std::string(cf_op_name(cf.op)) + " target " + std::to_string(cf.target) +
                       " outside the program (" + std::to_string(n) + " CF instructions)");
      if (cf_op_info(cf.op).enc == CfEncoding::Alu)
         check_alu_clause(ci, cf);
      if (flags & CF_FETCH) {
         if (cf.fetches.size() > max_fetch)
            error(ci, "fetch clause of " + std::to_string(cf.fetches.size()) +
                          " instructions, at most " + std::to_string(max_fetch));
         if (cf.fetches.empty())
            error(ci, "empty fetch clause");
         check_fetch_clause(ci, cf);
      }
      if (cf_op_info(cf.op).enc == CfEncoding::Export || cf_op_info(cf.op).enc == CfEncoding::Mem)
         check_export(ci, cf);
      /* Stack depth along the program text (branches are structured). */
      switch (cf.op) {
      case CfOp::PUSH:
      case CfOp::ALU_PUSH_BEFORE: pushes++; break;
      case CfOp::POP: pushes -= std::min<unsigned>(pushes, cf.pop_count); break;
      case CfOp::ALU_POP_AFTER: pushes -= std::min(pushes, 1u); break;
      case CfOp::ALU_POP2_AFTER: pushes -= std::min(pushes, 2u); break;
      case CfOp::LOOP_START:
      case CfOp::LOOP_START_DX10:
      case CfOp::LOOP_START_NO_AL: loops++; break;
      case CfOp::LOOP_END: loops -= std::min(loops, 1u); break;
      default: break;
      }
      unsigned entries = (pushes + 4 * loops + 3) / 4;
      if (entries > max_entries) {
         max_entries = entries;
         if (entries > info_.stack_size)
            error(ci, "stack depth " + std::to_string(entries) + " exceeds stack_size " +
                          std::to_string(info_.stack_size));
      }
   }
   if (!has_end)
      diags_.error("program has no END_OF_PROGRAM");
   return diags_.num_errors() == before;
}

} // namespace

bool validate_program(const Program &prog, const ShaderInfo &info, Diagnostics &diags)
{
   Validator v(prog, info, diags);
   return v.run();
}

} // namespace sbcc::r600
