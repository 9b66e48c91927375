/*
 * bc_finalize: region tree + register allocation -> bytecode Program.
 * This file: the pass and its ALU clauses; regions, fetch clauses and
 * exports are in sb_bc_finalize_cf.cpp, the state both share in
 * sb_bc_finalize.h (alu_group_is_fixed, operand_const_sel and
 * identity_allocation, which other passes use too, are in
 * sb_bc_finalize_shared.cpp).
 *
 * The tree is walked in order.  ALU content (Cf nodes whose children are
 * groups, synthetic or not) accumulates into one pending ALU clause until
 * something else has to be emitted or a hardware clause limit (128 slots,
 * the kcache locks) is reached.  Regions become CF again:
 *
 *   if region:   pending clause (holding the PRED_SET that defines the
 *                condition) as ALU_PUSH_BEFORE; JUMP; then; [ELSE; else;]
 *                POP, or the POP folded into a trailing ALU clause as
 *                ALU_POP_AFTER (ALU_POP2_AFTER when the inner if's end was
 *                already folded into that same clause)
 *   loop region: LOOP_START_DX10; body; LOOP_END; departs to it become
 *                LOOP_BREAK, repeats other than the body LOOP_CONTINUE
 *
 * Groups alu_group_is_fixed() holds for keep their slots; any other group
 * is emitted one instruction per group, ordered so that every read of a
 * register happens before the write of a sibling that overwrites it (the
 * VLIW semantics of the original group), for the post_scheduler to pack.
 * When the registers form a cycle (a swap), the rest of the group stays one
 * group if it fits one, else one result goes through a scratch register
 * above everything allocated and a MOV.  A fetch clause joins the one just
 * before it when it neither reads nor overwrites that one's registers.
 *
 * What the allocation must give (checked, false otherwise): phi/loop_phi
 * sources in the phi's register; a psi's new value written where the psi
 * and the value it keeps live (one register); the values of one fetch dst,
 * fetch address or export element in one GPR, channels distinct (burst
 * exports: consecutive GPRs, same channels); in fixed groups, results on
 * the channel of their vector slot.
 * Anything that cannot be rebuilt exactly returns false with a diagnostic.
 */
#include <algorithm>
#include <string>

#include "r600/sb/sb_bc_finalize.h"

namespace sbcc::r600::sb::region {

namespace finalize {

namespace {

void insert_line(LineSet &set, Line l)
{
   auto it = std::lower_bound(set.begin(), set.end(), l);
   if (it == set.end() || *it != l)
      set.insert(it, l);
}

/* Locks covering the lines: adjacent lines of a bank share a 32-constant
 * lock.  False when more than max_sets locks are needed. */
bool plan_locks(const LineSet &lines, unsigned max_sets, std::array<KCacheLock, 4> *out)
{
   std::array<KCacheLock, 4> locks{};
   unsigned n = 0;
   for (auto it = lines.begin(); it != lines.end();) {
      if (n >= max_sets || it->second > 255)
         return false;
      KCacheLock &l = locks[n++];
      l.bank = uint8_t(it->first);
      l.addr = uint8_t(it->second);
      l.mode = 1;
      auto next = std::next(it);
      if (next != lines.end() && next->first == it->first && next->second == it->second + 1) {
         l.mode = 2;
         ++next;
      }
      it = next;
   }
   if (out)
      *out = locks;
   return true;
}

unsigned group_slots(const PGroup &g)
{
   return unsigned(g.instrs.size() + (g.literals.size() + 1) / 2 + g.port_slots);
}

/* Slot order, as the assembler wants; krefs follow their instruction. */
void sort_by_slot(PGroup &g)
{
   /* Usually already so (groups keep the source's order): nothing moves. */
   if (std::is_sorted(g.instrs.begin(), g.instrs.end(),
                      [](const AluInstr &x, const AluInstr &y) { return x.slot < y.slot; }))
      return;
   std::vector<unsigned> order(g.instrs.size()), pos(g.instrs.size());
   for (unsigned i = 0; i < order.size(); i++)
      order[i] = i;
   std::stable_sort(order.begin(), order.end(),
                    [&](unsigned x, unsigned y) { return g.instrs[x].slot < g.instrs[y].slot; });
   std::vector<AluInstr> sorted;
   sorted.reserve(order.size());
   for (unsigned i = 0; i < order.size(); i++) {
      pos[order[i]] = i;
      sorted.push_back(g.instrs[order[i]]);
   }
   g.instrs = std::move(sorted);
   for (KRef &k : g.krefs)
      k.instr = uint8_t(pos[k.instr]);
}

/* Whether g is one vector-slot instruction reading at most two constants
 * through the constant ports: its kcache operands (krefs; their selectors
 * are still R0 placeholders) and any kcache or constant-file selector among
 * its operand slots (unused ones hold GPR 0 after build_instr).  Most
 * groups here are.  assign_bank_swizzles can give such a group only
 * swizzle 0, whatever selectors flush() gives its constants: a vector
 * instruction reads each operand in its own cycle, and two constant pairs
 * fit the constant ports of every chip (two from R700 on, four on R600). */
bool vector_swizzle_zero(ChipClass chip, const PGroup &g)
{
   if (g.instrs.size() != 1 || g.instrs[0].slot == kSlotT || g.krefs.size() > 2)
      return false;
   unsigned consts = unsigned(g.krefs.size());
   for (const AluSrc &s : g.instrs[0].src) {
      if (s.sel <= kSrcGPRLast)
         continue; /* most: no kind lookup */
      const SrcKind k = src_kind(chip, s.sel);
      consts += k == SrcKind::KCache || k == SrcKind::ConstFile;
   }
   return consts <= 2;
}

} // namespace

bool Finalizer::operand(const Value &v, PGroup &g, unsigned instr, unsigned k, AluSrc &s)
{
   /* s is AluSrc{} here: build_instr clears all three at once. */
   s.neg = v.neg;
   s.abs = v.abs;
   switch (v.kind) {
   [[likely]] case ValueKind::Var: { /* most operands: tested before the jump table */
      const RegAssign *rp = reg_var(v);
      if (!rp)
         return fail("an ALU operand names a " +
                     std::string(is_kind(v, VarKind::AddrReg) ? "AR" : "non-GPR") + " value");
      const RegAssign r = *rp;
      if (r.gpr < 0 || r.gpr >= int(kMaxGpr))
         return fail("operand " + name(v) + " has no register");
      s.sel = uint16_t(r.gpr);
      s.chan = r.chan;
      return true;
   }
   case ValueKind::Rel:
      if (!v.rel() || v.rel()->kind != ValueKind::Var)
         return fail("relative operand without an address");
      if (is_kind(*v.rel(), VarKind::AddrReg))
         g.uses_ar = true;
      s.sel = uint16_t(v.base);
      s.chan = uint8_t(v.chan);
      s.rel = true;
      return true;
   case ValueKind::KCache:
      if (!v.resolved)
         return fail("a constant read through an unresolved kcache lock");
      g.krefs.push_back(KRef{uint8_t(instr), uint8_t(k), v.bank, v.index});
      s.chan = uint8_t(v.chan);
      return true;
   case ValueKind::Inline:
      s.sel = uint16_t(v.literal);
      s.chan = uint8_t(v.chan);
      return true;
   case ValueKind::Literal: {
      auto it = std::find(g.literals.begin(), g.literals.end(), v.literal);
      if (it == g.literals.end()) {
         if (g.literals.size() >= 4)
            return fail("more than four literals in one group");
         g.literals.push_back(v.literal);
         it = g.literals.end() - 1;
      }
      s.sel = kSrc_LITERAL;
      s.chan = uint8_t(it - g.literals.begin());
      return true;
   }
   default:
      return fail("ALU operand without a value");
   }
}

/* Appends a's instruction to g (built in place: no copy of it). */
bool Finalizer::build_instr(const Node *a, bool fixed, PGroup &g)
{
   const unsigned idx = unsigned(g.instrs.size());
   AluInstr &in = g.instrs.emplace_back(*a->alu);
   in.bank_swizzle = 0;
   const AluOpInfo &info = alu_op_info(in.op);
   const unsigned nsrc = std::min(3u, unsigned(info.num_src));
   if (a->src.size() < nsrc)
      return fail(std::string(info.name) + " with too few operands");
   /* Cleared at once for operand(), which fills the first nsrc.  A pass
    * may have turned an OP3 into an OP2 (MULADD(a, b, 0) -> MUL): the
    * operands it no longer has must not reach the encoder. */
   in.src = {};
   for (unsigned k = 0; k < nsrc; k++)
      if (!operand(a->src[k], g, idx, k, in.src[k]))
         return false;
   if (info.flags & AF_MOVA)
      g.loads_ar = true;
   if (alu_writes_pred(in.op) && in.update_pred)
      g.sets_pred = true;
   if (in.pred_sel == 2 || in.pred_sel == 3)
      g.uses_pred = true;
   if (exec_vars_)
      for (const Value &d : a->dst)
         if (is_kind(d, VarKind::ExecMask)) {
            g.exec_defs.push_back(d.version);
            g.sets_exec = true;
         }

   static const Value none; /* a constant, not one Value built per instruction */
   const Value &d = a->dst.empty() ? none : a->dst[0];
   const bool r600_mova = (info.flags & AF_MOVA) && !is_eg_or_later(chip_);
   if (r600_mova) {
      /* R600/R700 MOVA writes only AR; dst.chan picks its component. */
   } else if (d.kind == ValueKind::None) {
      if (alu_is_op3(in.op))
         return fail(std::string(info.name) + " always writes but has no result");
      in.dst.write = false;
   } else if (d.kind == ValueKind::Rel) {
      if (!d.rel() || d.rel()->kind != ValueKind::Var)
         return fail("relative destination without an address");
      if (is_kind(*d.rel(), VarKind::AddrReg))
         g.uses_ar = true;
      in.dst.gpr = uint8_t(d.base);
      in.dst.chan = uint8_t(d.chan);
      in.dst.rel = true;
      in.dst.write = true;
   } else if (const RegAssign *rp = reg_var(d)) {
      RegAssign r = *rp;
      if (!psi_of_temp_.empty()) { /* most shaders have no psi: no tree walk */
         auto psi = psi_of_temp_.find(sh_.value_id(d)); /* is_reg_var: has an id */
         if (psi != psi_of_temp_.end())
            r = reg(psi->second->dst[0]);
      }
      if (r.gpr < 0) {
         if (alu_is_op3(in.op))
            return fail(std::string(info.name) + " result " + name(d) +
                        " has no register");
         in.dst.write = false;
      } else {
         if (r.gpr >= int(kMaxGpr))
            return fail("register R" + std::to_string(r.gpr) + " beyond the GPR file");
         in.dst.gpr = uint8_t(r.gpr);
         in.dst.chan = r.chan;
         in.dst.write = true;
         in.dst.rel = false;
      }
   } else {
      return fail(std::string(info.name) + " writes a non-GPR value in its result slot");
   }

   const unsigned slots = alu_slots(chip_, in.op);
   if (!slots)
      return fail(std::string(info.name) + " does not exist on " +
                  std::string(chip_class_name(chip_)));
   if (fixed) {
      in.slot = a->alu->slot;
      if (in.slot < 4 && !in.dst.write && !r600_mova)
         in.dst.chan = in.slot;
      if (in.slot < 4 && in.dst.chan != in.slot)
         return fail(std::string(info.name) + " in slot " + "xyzwt"[in.slot] +
                     " of a fixed group writes channel " + "xyzw"[in.dst.chan & 3]);
      return true;
   }
   if ((slots & kSlotV) && !alu_is_trans_only(chip_, in.op))
      in.slot = in.dst.chan & 3;
   else if ((slots & kSlotS) && chip_ != ChipClass::Cayman)
      in.slot = kSlotT;
   else
      return fail(std::string(info.name) + " cannot be emitted alone");
   return true;
}

bool Finalizer::emit_group(const Node *gn)
{
   /* alu_group_is_fixed holds for a group holding anything but
    * instructions, so only a fixed group needs its children checked (most
    * groups are not: one walk over them, not two). */
   const bool fixed = alu_group_is_fixed(gn);
   if (fixed)
      for (const Node *a : gn->children)
         if (a->kind != NodeKind::Alu || !a->alu)
            return fail("an ALU group holds something other than instructions");
   if (gn->children.empty())
      return true;
   if (fixed) {
      PGroup &g = pending_.emplace_back(); /* staged */
      g.instrs.reserve(gn->children.size());
      for (const Node *a : gn->children)
         if (!build_instr(a, true, g))
            return false;
      sort_by_slot(g);
      for (size_t i = 0; i < g.instrs.size(); i++) {
         const AluInstr &in = g.instrs[i];
         if (i && in.slot == g.instrs[i - 1].slot)
            return fail("two instructions in one slot of a fixed group");
         if (in.slot == kSlotT && !alu_is_trans_only(chip_, in.op)) {
            bool taken = false;
            for (const AluInstr &o : g.instrs)
               taken = taken || o.slot == (in.dst.chan & 3);
            if (!taken)
               return fail("trans instruction of a fixed group would decode in a vector slot");
         }
      }
      return commit();
   }

   /* One instruction per group, reads of the original group before the
    * writes that would overwrite them.  Built staged, where they wait for
    * the clause (room for them first: no regrowth while they are built). */
   const size_t first = pending_.size(), n = gn->children.size();
   if (first + n > pending_.capacity())
      pending_.reserve(std::max(first + n, 2 * pending_.capacity()));
   for (const Node *a : gn->children)
      if (!build_instr(a, false, pending_.emplace_back()))
         return false;
   std::span<PGroup> singles(pending_.data() + first, n);
   auto self_copy = [&](const PGroup &g) { /* a copy onto itself: dropped */
      const AluInstr &in = g.instrs[0];
      if (in.op != AluOp::MOV || !g.krefs.empty() || !in.dst.write || in.dst.rel ||
          in.src[0].rel || in.src[0].sel != in.dst.gpr || in.src[0].chan != in.dst.chan ||
          in.src[0].neg || in.src[0].abs || in.dst.clamp || in.dst.omod || in.pred_sel ||
          src_kind(chip_, in.src[0].sel) != SrcKind::Gpr)
         return false;
      return true;
   };
   /* Adds the staged singles in their order, a self-copy dropped.  Inline
    * at its three uses (GNU syntax: C++20 has no attribute place for a
    * lambda's operator()): as a call of its own, its frame cost more than
    * its loop for the one single most groups are. */
   auto commit_staged = [&]() __attribute__((always_inline)) {
      for (size_t j = 0; j < n; j++) {
         if (self_copy(pending_[npend_]))
            pending_.erase(pending_.begin() + std::ptrdiff_t(npend_));
         else if (!commit())
            return false;
      }
      return true;
   };
   if (n == 1) /* most groups: nothing to order */
      return commit_staged();
   /* Each instruction's operand count, looked up once, not per pair. */
   SmallVector<uint8_t, 5> nsrc;
   for (const PGroup &s : singles)
      nsrc.push_back(uint8_t(std::min(3u, unsigned(alu_op_info(s.instrs[0].op).num_src))));
   auto reads = [&](size_t r, unsigned gpr, unsigned chan) {
      const AluInstr &in = singles[r].instrs[0];
      for (unsigned k = 0; k < nsrc[r]; k++)
         if (in.src[k].sel == gpr && in.src[k].chan == chan && !in.src[k].rel)
            return true;
      return false;
   };
   /* Most groups have no read of what a sibling writes and no channel
    * written twice: one pass over a 64-bit filter of the written channels
    * (register * 4 + channel, folded; equal values fold alike, so a read
    * it clears cannot match) shows that without looking at every pair.
    * A bit set by two writes may be a second write, and an instruction's
    * own result (x = x + 1 is common) does not count against its reads. */
   auto fold = [](unsigned reg, unsigned chan) { return uint64_t(1) << ((reg * 4 + chan) & 63); };
   uint64_t written = 0, twice = 0;
   for (const PGroup &s : singles) {
      const AluDst &d = s.instrs[0].dst;
      if (d.write) {
         twice |= written & fold(d.gpr, d.chan);
         written |= fold(d.gpr, d.chan);
      }
   }
   bool maybe = twice != 0;
   for (size_t r = 0; r < n && !maybe; r++) {
      const AluInstr &in = singles[r].instrs[0];
      const uint64_t others = in.dst.write ? written & ~fold(in.dst.gpr, in.dst.chan) : written;
      for (unsigned k = 0; k < nsrc[r]; k++)
         maybe = maybe || (!in.src[k].rel && (others & fold(in.src[k].sel, in.src[k].chan)));
   }
   if (!maybe)
      return commit_staged();
   /* before[r * n + w]: r reads what w overwrites; done[i]: i is emitted
    * (one table, reused: one fill per group). */
   flags_.assign(n * n + n, 0);
   uint8_t *before = flags_.data(), *done = before + n * n;
   bool edges = false;
   for (size_t w = 0; w < n; w++) {
      const AluInstr &wi = singles[w].instrs[0];
      if (!wi.dst.write)
         continue;
      for (size_t r = 0; r < n; r++) {
         if (r == w)
            continue;
         const AluInstr &ri = singles[r].instrs[0];
         if (reads(r, wi.dst.gpr, wi.dst.chan))
            before[r * n + w] = edges = true;
         if (ri.dst.write && ri.dst.gpr == wi.dst.gpr && ri.dst.chan == wi.dst.chan)
            return fail("two instructions of one group write R" + std::to_string(wi.dst.gpr) +
                        "." + "xyzw"[wi.dst.chan & 3]);
      }
   }
   if (!edges) /* no read of what a sibling overwrites (most groups): source order */
      return commit_staged();
   /* The singles leave the staging area to be ordered (rare). */
   std::vector<PGroup> &moved = singles_;
   moved.clear();
   for (PGroup &s : singles)
      moved.push_back(std::move(s));
   pending_.erase(pending_.begin() + std::ptrdiff_t(first), pending_.end());
   singles = moved;
   std::vector<size_t> &order = order_;
   order.clear();
   std::vector<PGroup> fixups;
   SmallVector<const PGroup *, 5> rest; /* kept whole (below), read in place */
   decltype(AluGroup::instrs) whole; /* their instructions as whole_fits left them */
   unsigned deferred = 0;
   while (order.size() + rest.size() < n) {
      size_t pick = n;
      for (size_t i = 0; i < n && pick == n; i++) {
         if (done[i])
            continue;
         bool ready = true;
         for (size_t j = 0; j < n; j++)
            if (!done[j] && before[j * n + i])
               ready = false;
         if (ready)
            pick = i;
      }
      if (pick != n) {
         done[pick] = true;
         order.push_back(pick);
         continue;
      }
      /* Stuck on a cycle (registers swap).  If what is left fits one group
       * it stays one, after the rest: every reader of an emitted result was
       * emitted before it, so only constraints inside it remain, which VLIW
       * keeps.  Otherwise one instruction writes a scratch register first
       * and a MOV puts the result in place after the group. */
      bool consts = false;
      whole.clear();
      for (size_t i = 0; i < n; i++)
         if (!done[i]) {
            whole.push_back(singles[i].instrs[0]);
            consts = consts || !singles[i].krefs.empty();
         }
      if (!consts && whole_fits(whole)) {
         for (size_t i = 0; i < n; i++)
            if (!done[i]) {
               rest.push_back(&singles[i]);
               done[i] = true;
            }
         break;
      }
      size_t w = n;
      for (size_t i = 0; i < n && w == n; i++)
         if (!done[i] && singles[i].instrs[0].dst.write && !singles[i].instrs[0].dst.rel)
            w = i;
      const unsigned scratch = scratch_gpr() + deferred;
      if (w == n || scratch >= kMaxGpr)
         return fail("a group swaps registers and no scratch register is free");
      AluInstr &wi = singles[w].instrs[0];
      PGroup fix;
      AluInstr mov = alu_mov(wi.dst.gpr, wi.dst.chan, scratch);
      fix.instrs.push_back(mov);
      fixups.push_back(std::move(fix));
      wi.dst.gpr = uint8_t(scratch);
      deferred++;
      for (size_t r = 0; r < n; r++)
         before[r * n + w] = 0;
   }
   for (size_t pick : order)
      if (!self_copy(singles[pick]) && !add_group(std::move(singles[pick])))
         return false;
   if (!rest.empty() && !emit_whole({rest.data(), rest.size()}, whole))
      return false;
   for (PGroup &f : fixups)
      if (!add_group(std::move(f)))
         return false;
   return true;
}

unsigned Finalizer::scratch_gpr() const
{
   if (scratch_gpr_ < 0) {
      int top = -1;
      for (const RegAssign &r : alloc_.reg)
         top = std::max(top, int(r.gpr));
      for (const RelArray &r : sh_.arrays)
         top = std::max(top, int(r.first + r.count) - 1);
      scratch_gpr_ = top + 1;
   }
   return unsigned(scratch_gpr_);
}

AluInstr Finalizer::alu_mov(unsigned gpr, unsigned chan, unsigned from) const
{
   AluInstr in;
   in.op = AluOp::MOV;
   in.slot = uint8_t(chan & 3);
   in.dst.gpr = uint8_t(gpr);
   in.dst.chan = uint8_t(chan & 3);
   in.dst.write = true;
   in.src[0] = src_gpr(from, chan & 3);
   return in;
}

/* A group no bank swizzle can serve (typically a DOT4 whose slots read
 * many registers on one channel): operands of its slots are copied, just
 * before it, into scratch registers on the slot's channel, and the group
 * reads the copies.  Tried for src1, then src0, then both (src0 in the
 * first scratch register, src1 in the next).  Each copy is a group of its
 * own (the copies may conflict among themselves; the post_scheduler packs
 * them).  Returns the copy groups with `instrs` rewritten, or nullopt. */
std::optional<std::vector<AluGroup>> Finalizer::port_copies(decltype(AluGroup::instrs) &instrs) const
{
   /* Constant tables, not lists built per call: a big clause asks for
    * every group that no swizzle serves, through r0_port_slots. */
   static constexpr unsigned kSrc1[] = {1}, kSrc0[] = {0}, kBoth[] = {0, 1};
   static constexpr std::span<const unsigned> kTries[] = {kSrc1, kSrc0, kBoth};
   const unsigned first_scratch = scratch_gpr();
   for (const std::span<const unsigned> ks : kTries) {
      if (first_scratch + ks.size() > kMaxGpr)
         continue;
      decltype(AluGroup::instrs) trial = instrs;
      std::vector<AluGroup> copies;
      copies.reserve(trial.size() * ks.size()); /* the most there can be */
      bool ok = true;
      for (AluInstr &in : trial) {
         for (size_t i = 0; i < ks.size() && ok; i++) {
            const unsigned k = ks[i], scratch = first_scratch + unsigned(i);
            if (k >= alu_op_info(in.op).num_src || in.src[k].sel > kSrcGPRLast)
               continue;
            if (in.src[k].rel || in.slot > kSlotW) {
               ok = false;
               break;
            }
            AluGroup g;
            AluInstr mov = alu_mov(scratch, in.slot, in.src[k].sel);
            mov.src[0].chan = in.src[k].chan;
            g.instrs.push_back(mov);
            copies.push_back(std::move(g));
            in.src[k].sel = uint8_t(scratch);
            in.src[k].chan = in.slot;
         }
      }
      if (!ok || copies.empty() || !assign_bank_swizzles(chip_, trial))
         continue;
      instrs = std::move(trial);
      return copies;
   }
   return std::nullopt;
}

/* For an instruction of a group kept whole: its channel's vector slot, else
 * trans (none on Cayman), among the slots not in used; false when neither
 * is free. */
bool Finalizer::whole_slot(AluInstr &in, unsigned &used) const
{
   const unsigned slots = alu_slots(chip_, in.op);
   const unsigned chan = in.dst.chan & 3;
   if ((slots & kSlotV) && !alu_is_trans_only(chip_, in.op) && !(used & (1u << chan)))
      in.slot = uint8_t(chan);
   else if ((slots & kSlotS) && chip_ != ChipClass::Cayman && !(used & (1u << kSlotT)))
      in.slot = kSlotT;
   else
      return false;
   used |= 1u << in.slot;
   return true;
}

/* Whether the instructions can share one group on their channels' slots
 * (or trans) with a legal bank swizzle: instrs are left on those slots, in
 * slot order, with the swizzles found. */
bool Finalizer::whole_fits(decltype(AluGroup::instrs) &instrs) const
{
   unsigned used = 0;
   for (AluInstr &in : instrs)
      if (!whole_slot(in, used))
         return false;
   std::sort(instrs.begin(), instrs.end(),
             [](const AluInstr &x, const AluInstr &y) { return x.slot < y.slot; });
   return assign_bank_swizzles(chip_, instrs);
}

/* A group whose instructions read what their siblings overwrite (a swap)
 * cannot be split without a temporary: it stays one group, each
 * instruction on the slot of its channel (or trans), which keeps the VLIW
 * semantics exactly. */
bool Finalizer::emit_whole(std::span<const PGroup *const> singles,
                           const decltype(AluGroup::instrs) &swizzled)
{
   PGroup g;
   unsigned used = 0;
   for (const PGroup *sp : singles) {
      const PGroup &s = *sp;
      AluInstr in = s.instrs[0];
      if (!whole_slot(in, used))
         return fail("a group swaps registers and cannot be kept whole on its channels");
      for (KRef k : s.krefs) {
         k.instr = uint8_t(g.instrs.size());
         g.krefs.push_back(k);
      }
      for (unsigned k = 0; k < 3 && k < alu_op_info(in.op).num_src; k++) {
         if (in.src[k].sel != kSrc_LITERAL)
            continue;
         const uint32_t bits = s.literals[in.src[k].chan];
         auto it = std::find(g.literals.begin(), g.literals.end(), bits);
         if (it == g.literals.end()) {
            if (g.literals.size() >= 4)
               return fail("a group swaps registers and its literals do not fit one group");
            g.literals.push_back(bits);
            it = g.literals.end() - 1;
         }
         in.src[k].chan = uint8_t(it - g.literals.begin());
      }
      g.instrs.push_back(in);
   }
   sort_by_slot(g); /* slots are distinct here (whole_slot) */
   /* whole_fits searched these very instructions, on the same slots in the
    * same order (the literal indices it saw unmerged read no port): its
    * swizzles stand, and commit() does not search again. */
   for (size_t i = 0; i < g.instrs.size(); i++)
      g.instrs[i].bank_swizzle = swizzled[i].bank_swizzle;
   g.swizzled = true;
   return add_group(std::move(g));
}

bool Finalizer::add_group(PGroup &&g)
{
   pending_.push_back(std::move(g));
   return commit();
}

bool Finalizer::commit()
{
   /* A pointer, not a reference: a flush moves the staged groups. */
   PGroup *gp = &pending_[npend_];
   if (gp->literals.size() > 4)
      return fail("more than four literals in one group");
   /* The copies flush() adds for a group no bank swizzle serves count
    * against the clause's 128 slots now, or the clause may overflow (a
    * kcache operand is still a placeholder read of R0 here, which can only
    * overestimate them). */
   if (gp->swizzled) {
      /* emit_whole's group: whole_fits found its swizzles */
   } else if (vector_swizzle_zero(chip_, *gp)) {
      gp->instrs[0].bank_swizzle = 0;
      gp->swizzled = true;
   } else if (gp->krefs.empty()) {
      /* flush() changes only kcache selectors before assigning swizzles,
       * and there are none: its search would give this same result.  A
       * failed one (rare) leaves nothing that matters: searched again. */
      gp->swizzled = assign_bank_swizzles(chip_, gp->instrs);
      if (!gp->swizzled)
         gp->port_slots = r0_port_slots(*gp);
   } else {
      /* The search looks at constant operands only through which of them
       * are equal (the constant-file pairs) and how many there are; flush()
       * gives equal constants equal selectors and different ones different
       * selectors, so numbering the group's distinct constants KC0[0],
       * KC0[1], ... here finds what flush() would: its search is skipped
       * when this one succeeds.  port_slots keeps its estimate from the
       * placeholder reads (R0, put back after the search: no copy of the
       * group), worked out only when it can matter. */
      const unsigned kc0 = src_kcache(0, 0, 0).sel; /* KC0[n] is kc0 + n */
      for (size_t i = 0; i < gp->krefs.size(); i++) {
         const KRef &k = gp->krefs[i];
         unsigned n = 0;
         while (n < i && (gp->krefs[n].bank != k.bank || gp->krefs[n].cst != k.cst))
            n++;
         gp->instrs[k.instr].src[k.src].sel = uint16_t(kc0 + n);
      }
      gp->swizzled = assign_bank_swizzles(chip_, gp->instrs);
      /* A group whose R0 reads a swizzle provably serves (one vector
       * instruction, most groups here) needs no copies: port_slots is
       * known to be 0 without r0_port_slots' search. */
      gp->port_unknown = gp->swizzled && !swizzle_kept_with_gpr_reads(gp->instrs);
      for (const KRef &k : gp->krefs)
         gp->instrs[k.instr].src[k.src].sel = AluSrc{}.sel; /* operand()'s placeholder */
      if (!gp->swizzled)
         gp->port_slots = r0_port_slots(*gp);
   }
   const unsigned unknown = gp->port_unknown ? 2 * unsigned(gp->instrs.size()) : 0;
   if (npend_ && pending_slots_ + pending_unknown_ + group_slots(*gp) + unknown > 128) {
      resolve_port_slots();
      if (gp->port_unknown) {
         gp->port_slots = r0_port_slots(*gp);
         gp->port_unknown = false;
      }
   }
   /* pending_lines_ always has a lock plan (only lines that passed
    * plan_locks below are kept): a group with no constant off its lines
    * (most groups) needs no new plan and skips the copy. */
   bool new_lines = false;
   for (const KRef &k : gp->krefs)
      new_lines = new_lines || !std::binary_search(pending_lines_.begin(), pending_lines_.end(),
                                                   Line{k.bank, k.cst / 16});
   LineSet &lines = lines_scratch_;
   const unsigned max_sets = is_eg_or_later(chip_) ? 4 : 2;
   auto add_lines = [&](const LineSet &to) { /* into lines (reused): lockable? */
      lines.assign(to.begin(), to.end());
      for (const KRef &k : gp->krefs)
         insert_line(lines, Line{k.bank, k.cst / 16});
      return plan_locks(lines, max_sets, nullptr);
   };
   bool locked = !new_lines || add_lines(pending_lines_);
   if (npend_ && (pending_slots_ + group_slots(*gp) > 128 || !locked)) {
      /* The PRED_SET of an if must end the clause that pushes; a limit
       * split there cannot be rebuilt. */
      for (const PGroup &p : committed())
         if (p.sets_exec)
            return fail("clause limit reached after an exec-mask update");
      if (!flush(CfOp::ALU))
         return false;
      gp = &pending_[npend_];
      ar_lost_ = pred_lost_ = true;
      new_lines = !gp->krefs.empty();
      locked = !new_lines || add_lines(LineSet{});
   }
   if (!locked)
      return fail("one group needs more kcache lines than the clause can lock");
   if (gp->uses_ar && ar_lost_ && !gp->loads_ar)
      return fail("AR read in a clause split after the MOVA that loaded it");
   if (gp->loads_ar)
      ar_lost_ = false;
   if (gp->uses_pred && pred_lost_)
      return fail("predicate read in a clause split after the PRED_SET that set it");
   if (gp->sets_pred)
      pred_lost_ = false;
   if (new_lines)
      std::swap(pending_lines_, lines);
   pending_slots_ += group_slots(*gp);
   if (gp->port_unknown)
      pending_unknown_ += 2 * unsigned(gp->instrs.size());
   npend_++;
   return true;
}

/* add_group's estimate of the copies flush() adds before g: none when a
 * bank swizzle serves the group with its constants read as R0, else
 * port_copies' count. */
unsigned Finalizer::r0_port_slots(const PGroup &g)
{
   decltype(AluGroup::instrs) &probe = probe_;
   probe.assign(g.instrs.begin(), g.instrs.end());
   if (assign_bank_swizzles(chip_, probe))
      return 0;
   auto copies = port_copies(probe);
   return copies ? unsigned(copies->size()) : 0;
}

void Finalizer::resolve_port_slots()
{
   if (!pending_unknown_)
      return;
   for (PGroup &p : committed())
      if (p.port_unknown) {
         p.port_slots = r0_port_slots(p);
         p.port_unknown = false;
         pending_slots_ += p.port_slots;
      }
   pending_unknown_ = 0;
}

bool Finalizer::flush(CfOp op)
{
   if (!npend_)
      return true;
   bool sets_exec = false;
   for (const PGroup &p : committed())
      sets_exec = sets_exec || p.sets_exec;
   if (sets_exec && op != CfOp::ALU_PUSH_BEFORE)
      return fail("an exec-mask update outside the clause that pushes for its if");
   CfInstr c;
   if (pending_src_) {
      c.whole_quad_mode = pending_src_->whole_quad_mode;
      c.valid_pixel_mode = pending_src_->valid_pixel_mode;
   }
   c.op = op;
   c.barrier = true;
   c.end_of_program = pending_eop_;
   const unsigned max_sets = is_eg_or_later(chip_) ? 4 : 2;
   if (!plan_locks(pending_lines_, max_sets, &c.kcache))
      return fail("kcache locks exhausted");
   for (unsigned s = 2; s < 4; s++)
      if (c.kcache[s].mode)
         c.alu_ext = true;
   c.groups.reserve(npend_);
   /* A set's selectors are consecutive from its first (src_kcache_index):
    * looked up once per set, not per constant. */
   unsigned set_sel[4];
   for (unsigned s = 0; s < 4; s++)
      set_sel[s] = src_kcache(s, 0, 0).sel;
   for (PGroup &p : committed()) {
      for (const KRef &k : p.krefs) {
         bool placed = false;
         for (unsigned s = 0; s < 4 && !placed; s++) {
            const KCacheLock &l = c.kcache[s];
            if (!l.mode || l.bank != k.bank || k.cst < l.addr * 16u ||
                k.cst >= l.addr * 16u + (l.mode == 2 ? 32u : 16u))
               continue;
            p.instrs[k.instr].src[k.src].sel = uint16_t(set_sel[s] + k.cst - l.addr * 16u);
            placed = true;
         }
         if (!placed)
            return fail("constant outside the clause's kcache locks");
      }
      if (!p.swizzled && !assign_bank_swizzles(chip_, p.instrs)) {
         if (auto copies = port_copies(p.instrs)) {
            for (AluGroup &cg : *copies)
               c.groups.push_back(std::move(cg));
         } else {
               std::string ops;
            for (const AluInstr &in : p.instrs)
               ops += (ops.empty() ? "" : ", ") + std::string(alu_op_name(in.op));
            return fail("no bank swizzle fits the register reads of the group " + ops);
         }
      }
      /* Built where it stays, its lists moved in as it is made (not made
       * empty, then assigned): a group's lists are inline, so every move
       * copies its instructions.  An odd literal count is padded with 0. */
      c.groups.emplace_back(std::move(p.instrs), std::move(p.literals), 0u);
   }
   emit_cf(std::move(c));
   /* Groups staged for the next clause (commit()) move to the front. */
   pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(npend_));
   npend_ = 0;
   pending_lines_.clear();
   pending_slots_ = 0;
   pending_unknown_ = 0;
   pending_src_ = nullptr;
   pending_eop_ = false;
   return true;
}

bool Finalizer::emit_alu_cf(const Node *n)
{
   if (n->cf) {
      if (!pending_src_)
         pending_src_ = n->cf;
      if (n->cf->end_of_program)
         pending_eop_ = true;
   }
   for (const Node *c : n->children) {
      if (c->kind == NodeKind::Psi)
         continue; /* realized by the predicated instruction (check_values) */
      if (c->kind != NodeKind::AluGroup)
         return fail("an ALU clause holds something other than groups");
      if (!emit_group(c))
         return false;
   }
   return true;
}

/* Psi: the predicated instruction writes the psi's register, which must be
 * the old value's; its temporary must have no other reader. */
bool Finalizer::check_values(const Node *n)
{
   if (n->kind == NodeKind::Psi) {
      if (n->src.size() != 3 || n->dst.empty() || !is_reg_var(n->src[1]) ||
          !is_reg_var(n->dst[0]) || !is_reg_var(n->src[2]))
         return fail("malformed psi");
      RegAssign d = reg(n->dst[0]), o = reg(n->src[2]);
      if (d.gpr != o.gpr || d.chan != o.chan)
         return fail("psi " + name(n->dst[0]) + " and the value it keeps, " +
                     name(n->src[2]) + ", are not in one register");
      psi_of_temp_[sh_.value_id(n->src[1])] = n; /* is_reg_var: has an id */
   }
   /* Instructions, most of the tree, have no children: no call for them.
    * Nor for a group (not a psi itself): its children are looked at here. */
   auto visit = [&](const Node *c) {
      return !(c->kind == NodeKind::Psi || !c->children.empty()) || check_values(c);
   };
   for (const Node *c : n->children) {
      if (c->kind != NodeKind::AluGroup) {
         if (!visit(c))
            return false;
         continue;
      }
      for (const Node *a : c->children)
         if (!visit(a))
            return false;
   }
   return true;
}

bool Finalizer::run()
{
   out_ = Program{};
   out_.chip = chip_;
   if (sh_.prog) /* about the source's CFs come back: room once, not regrown */
      out_.cf.reserve(sh_.prog->cf.size() + 4);
   if (!sh_.root)
      return fail("no tree");
   if (alloc_.reg.size() < sh_.num_values())
      return fail("allocation does not cover every value");
   if (!check_values(sh_.root))
      return false;
   /* A clause has at most 128 slots, so at most 128 groups wait for it:
    * room for them once per thread (FinalizerTables), not regrown (moving every
    * group) per compile. */
   pending_.reserve(128);
   /* A psi's temporary is only the psi's: other readers would see the
    * merged register instead of the predicated result. */
   if (!psi_of_temp_.empty()) {
      std::vector<const Node *> stack{sh_.root};
      while (!stack.empty()) {
         const Node *n = stack.back();
         stack.pop_back();
         for (const Node *c : n->children)
            stack.push_back(c);
         if (n->kind == NodeKind::Psi)
            continue;
         auto check = [&](const Value &v) {
            return !(has_id(v) && psi_of_temp_.count(sh_.value_id(v)));
         };
         for (const Value &v : n->src)
            if (!check(v))
               return fail("a predicated result is read beside its psi");
         if (!n->region_data)
            continue;
         for (const Node *p : n->region().phi)
            for (const Value &v : p->src)
               if (!check(v))
                  return fail("a predicated result is read beside its psi");
         for (const Node *p : n->region().loop_phi)
            for (const Value &v : p->src)
               if (!check(v))
                  return fail("a predicated result is read beside its psi");
      }
   }
   if (!emit_node(sh_.root) || !flush(CfOp::ALU))
      return false;

   bool has_end = false;
   unsigned pushes = 0, loops = 0, max_entries = 0;
   for (const CfInstr &cf : out_.cf) {
      has_end = has_end || cf.end_of_program || cf.op == CfOp::CF_END;
      switch (cf.op) {
      case CfOp::ALU_PUSH_BEFORE: pushes++; break;
      case CfOp::POP: pushes -= std::min<unsigned>(pushes, cf.pop_count); break;
      case CfOp::ALU_POP_AFTER: pushes -= std::min(pushes, 1u); break;
      case CfOp::ALU_POP2_AFTER: pushes -= std::min(pushes, 2u); break;
      case CfOp::LOOP_START_DX10:
      case CfOp::LOOP_START_NO_AL: loops++; break;
      case CfOp::LOOP_END: loops -= std::min(loops, 1u); break;
      default: break;
      }
      max_entries = std::max(max_entries, (pushes + 4 * loops + 3) / 4);
   }
   if (!has_end)
      return fail("the program has no end");
   if (max_entries > info_.stack_size)
      return fail("needs " + std::to_string(max_entries) + " stack entries, the shader has " +
                  std::to_string(info_.stack_size));
   return true;
}

} // namespace finalize

bool bc_finalize(const RegionShader &sh, const Allocation &alloc, const ShaderInfo &info,
                 Program &out, Diagnostics &diags)
{
   finalize::Finalizer f(sh, alloc, info, out, diags);
   return f.run();
}

} // namespace sbcc::r600::sb::region
