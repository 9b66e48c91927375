/*
 * bc_finalize: region tree + register allocation -> bytecode Program
 * (alu_group_is_fixed, operand_const_sel and identity_allocation, which
 * other passes use too, are in sb_bc_finalize_shared.cpp).
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
#include <map>
#include <span>
#include <string>

#include "r600/sb/sb_passes.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

constexpr unsigned kMaxGpr = 123; /* 123..127 are clause temporaries on R700+ */

struct KRef {
   uint8_t instr, src, bank; /* a group has at most five instructions */
   unsigned cst;
};

/* A group on its way into a clause: constants are placed when the clause's
 * locks are known. */
struct PGroup {
   decltype(AluGroup::instrs) instrs;
   decltype(AluGroup::literals) literals;
   SmallVector<KRef, 4> krefs; /* few: no allocation for them */
   std::vector<unsigned> exec_defs; /* ExecMask versions defined here */
   bool loads_ar = false, uses_ar = false;
   bool sets_pred = false, uses_pred = false;
   bool sets_exec = false;
   /* Slots flush() may add before the group: the copies port_copies makes
    * when no bank swizzle serves it. */
   unsigned port_slots = 0;
   /* instrs already carry the bank swizzles flush() would assign: add_group's
    * probe found them (see add_group). */
   bool swizzled = false;
   /* port_slots is not worked out yet (add_group: only when the clause's
    * slot count may come near the limit); at most 2 * instrs.size(). */
   bool port_unknown = false;
};

using Line = std::pair<unsigned, unsigned>; /* (bank, constant / 16) */
/* Sorted, no duplicates: a clause locks at most 4 x 2 lines, so a small
 * vector (copied and merged per group) beats a std::set's node allocations. */
using LineSet = std::vector<Line>;

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

class Finalizer {
 public:
   Finalizer(const RegionShader &sh, const Allocation &alloc, const ShaderInfo &info,
             Program &out, Diagnostics &diags)
      : sh_(sh), alloc_(alloc), info_(info), out_(out), diags_(diags), chip_(sh.chip)
   {
      /* has_id's bounds per variable, worked out once: it is asked for
       * every operand. */
      const size_t n = std::min(sh.vars.size(), sh.value_base.size());
      var_ids_.resize(n);
      for (size_t v = 0; v < n; v++) {
         VarIds &ids = var_ids_[v];
         const VarKind k = sh.vars[v].kind;
         ids.reg_kind = k == VarKind::Gpr || k == VarKind::Temp;
         const size_t base = sh.value_base[v];
         if (base >= alloc.reg.size())
            continue; /* no version has an id */
         int64_t top = int64_t(alloc.reg.size() - 1 - base);
         if (v < sh.version_count.size())
            top = std::min(top, int64_t(sh.version_count[v]));
         ids.max_version = top;
      }
   }

   bool run();

 private:
   bool fail(const std::string &msg)
   {
      diags_.error("bc_finalize: " + msg);
      return false;
   }

   /* Bad trees (stale numbering, foreign values) must not index out of
    * range: such values have no id and no register. */
   bool has_id(const Value &v) const
   {
      /* A known variable at a version within its count whose value_id
       * is inside the allocation (var_ids_). */
      return v.kind == ValueKind::Var && v.var >= 0 && size_t(v.var) < var_ids_.size() &&
             int64_t(v.version) <= var_ids_[v.var].max_version;
   }
   std::string name(const Value &v) const
   {
      if (v.kind == ValueKind::Var && (v.var < 0 || size_t(v.var) >= sh_.vars.size()))
         return "<unknown value>";
      return v.kind == ValueKind::Var ? value_name(sh_, v) : "<not a register value>";
   }
   bool is_kind(const Value &v, VarKind k) const
   {
      return v.kind == ValueKind::Var && v.var >= 0 && size_t(v.var) < sh_.vars.size() &&
             sh_.vars[v.var].kind == k;
   }
   RegAssign reg(const Value &v) const
   {
      return has_id(v) ? alloc_.reg[sh_.value_id(v)] : RegAssign{};
   }
   bool is_reg_var(const Value &v) const { return has_id(v) && var_ids_[v.var].reg_kind; }

   bool check_values(const Node *n);
   bool check_phis(const Node *region);
   bool emit_list(const NodeList &list, size_t from = 0);
   bool emit_node(const Node *n);
   bool emit_alu_cf(const Node *n);
   bool emit_group(const Node *g);
   bool build_instr(const Node *a, bool fixed, PGroup &g);
   bool operand(const Value &v, PGroup &g, unsigned instr, unsigned k, AluSrc &s);
   bool add_group(PGroup &&g);
   bool emit_whole(std::vector<PGroup> singles);
   bool whole_fits(std::vector<AluInstr> instrs) const;
   bool whole_slot(AluInstr &in, unsigned &used) const;
   AluInstr alu_mov(unsigned gpr, unsigned chan, unsigned from) const;
   std::optional<std::vector<AluGroup>> port_copies(decltype(AluGroup::instrs) &instrs) const;
   bool may_precede(const Node *alu, std::span<const Node *const> cfs) const;
   /* First register above everything allocated: scratch for breaking a
    * register swap inside one group. */
   unsigned scratch_gpr_ = 0;
   bool flush(CfOp op);
   bool emit_fetch(const Node *n);
   bool emit_export(const Node *n);
   bool merge_burst(CfInstr &prev, const CfInstr &cur) const;
   bool emit_if(const Node *region);
   bool emit_loop(const Node *region);
   unsigned emit_cf(CfInstr c)
   {
      out_.cf.push_back(std::move(c));
      return unsigned(out_.cf.size() - 1);
   }

   const RegionShader &sh_;
   const Allocation &alloc_;
   const ShaderInfo &info_;
   Program &out_;
   Diagnostics &diags_;
   ChipClass chip_;

   std::map<unsigned, const Node *> psi_of_temp_; /* value_id of psi src[1] -> psi */

   /* By variable (those with a value_base entry): the highest version
    * has_id accepts (-1: none), and whether it is a GPR or Temp. */
   struct VarIds {
      int64_t max_version = -1;
      bool reg_kind = false;
   };
   std::vector<VarIds> var_ids_;

   std::vector<PGroup> pending_;
   LineSet pending_lines_;
   unsigned pending_slots_ = 0; /* group_slots summed over pending_ */
   /* The most the port_slots of pending_ groups with port_unknown add. */
   unsigned pending_unknown_ = 0;
   unsigned r0_port_slots(const PGroup &g);
   void resolve_port_slots();
   /* Scratch reused across groups (no allocation per group once grown). */
   LineSet lines_scratch_;
   decltype(AluGroup::instrs) probe_, spare_;
   std::vector<PGroup> singles_;
   std::vector<uint8_t> flags_; /* emit_group's before and done */
   std::vector<size_t> order_;
   const CfInstr *pending_src_ = nullptr;
   bool pending_eop_ = false;
   /* A clause split the source did not have loses AR and the predicate. */
   bool ar_lost_ = false, pred_lost_ = false;

   /* The last CF emitted folded an if's POP into an ALU clause: its index
    * and that if's jumper, so an enclosing if can make it ALU_POP2_AFTER. */
   int folded_cf_ = -1;
   /* The fetch clause emitted last, which the next one may join. */
   int last_fetch_cf_ = -1;
   /* The export emitted last, which the next one may join as a burst;
    * anything emitted in between (an if's POP, a loop's end) stops that. */
   int last_export_cf_ = -1;
   unsigned folded_jumper_ = 0;

   struct LoopCtx {
      const Node *region, *body;
      std::vector<unsigned> jumps;
   };
   std::vector<LoopCtx> loops_;
};

bool Finalizer::operand(const Value &v, PGroup &g, unsigned instr, unsigned k, AluSrc &s)
{
   s = AluSrc{};
   s.neg = v.neg;
   s.abs = v.abs;
   switch (v.kind) {
   case ValueKind::Var: {
      if (!is_reg_var(v))
         return fail("an ALU operand names a " +
                     std::string(is_kind(v, VarKind::AddrReg) ? "AR" : "non-GPR") + " value");
      RegAssign r = alloc_.reg[sh_.value_id(v)]; /* is_reg_var: v has an id */
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
   for (unsigned k = 0; k < nsrc; k++)
      if (!operand(a->src[k], g, idx, k, in.src[k]))
         return false;
   /* A pass may have turned an OP3 into an OP2 (MULADD(a, b, 0) -> MUL):
    * the operands it no longer has must not reach the encoder. */
   for (unsigned k = nsrc; k < 3; k++)
      in.src[k] = AluSrc{};
   if (info.flags & AF_MOVA)
      g.loads_ar = true;
   if (alu_writes_pred(in.op) && in.update_pred)
      g.sets_pred = true;
   if (in.pred_sel == 2 || in.pred_sel == 3)
      g.uses_pred = true;
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
   } else if (is_reg_var(d)) {
      RegAssign r = alloc_.reg[sh_.value_id(d)]; /* is_reg_var: d has an id */
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
   for (const Node *a : gn->children)
      if (a->kind != NodeKind::Alu || !a->alu)
         return fail("an ALU group holds something other than instructions");
   if (gn->children.empty())
      return true;
   if (alu_group_is_fixed(gn)) {
      PGroup g;
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
      return add_group(std::move(g));
   }

   /* One instruction per group, reads of the original group before the
    * writes that would overwrite them. */
   std::vector<PGroup> &singles = singles_;
   singles.clear();
   for (const Node *a : gn->children) {
      singles.emplace_back().instrs.swap(spare_); /* a dropped copy's buffer, if any */
      if (!build_instr(a, false, singles.back()))
         return false;
   }
   const size_t n = singles.size();
   auto self_copy = [&](PGroup &g) { /* a copy onto itself: dropped, buffer kept */
      const AluInstr &in = g.instrs[0];
      if (in.op != AluOp::MOV || !g.krefs.empty() || !in.dst.write || in.dst.rel ||
          in.src[0].rel || in.src[0].sel != in.dst.gpr || in.src[0].chan != in.dst.chan ||
          in.src[0].neg || in.src[0].abs || in.dst.clamp || in.dst.omod || in.pred_sel ||
          src_kind(chip_, in.src[0].sel) != SrcKind::Gpr)
         return false;
      g.instrs.clear();
      spare_.swap(g.instrs);
      return true;
   };
   if (n == 1) /* most groups: nothing to order */
      return self_copy(singles[0]) || add_group(std::move(singles[0]));
   auto reads = [&](const AluInstr &in, unsigned gpr, unsigned chan) {
      for (unsigned k = 0; k < alu_op_info(in.op).num_src && k < 3; k++)
         if (in.src[k].sel == gpr && in.src[k].chan == chan && !in.src[k].rel)
            return true;
      return false;
   };
   /* before[r * n + w]: r reads what w overwrites; done[i]: i is emitted
    * (one table, reused: one fill per group). */
   flags_.assign(n * n + n, 0);
   uint8_t *before = flags_.data(), *done = before + n * n;
   for (size_t w = 0; w < n; w++) {
      const AluInstr &wi = singles[w].instrs[0];
      if (!wi.dst.write)
         continue;
      for (size_t r = 0; r < n; r++) {
         if (r == w)
            continue;
         const AluInstr &ri = singles[r].instrs[0];
         if (reads(ri, wi.dst.gpr, wi.dst.chan))
            before[r * n + w] = 1;
         if (ri.dst.write && ri.dst.gpr == wi.dst.gpr && ri.dst.chan == wi.dst.chan)
            return fail("two instructions of one group write R" + std::to_string(wi.dst.gpr) +
                        "." + "xyzw"[wi.dst.chan & 3]);
      }
   }
   std::vector<size_t> &order = order_;
   order.clear();
   std::vector<PGroup> fixups, rest;
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
      std::vector<AluInstr> left;
      bool consts = false;
      for (size_t i = 0; i < n; i++)
         if (!done[i]) {
            left.push_back(singles[i].instrs[0]);
            consts = consts || !singles[i].krefs.empty();
         }
      if (!consts && whole_fits(left)) {
         for (size_t i = 0; i < n; i++)
            if (!done[i]) {
               rest.push_back(std::move(singles[i]));
               done[i] = true;
            }
         break;
      }
      size_t w = n;
      for (size_t i = 0; i < n && w == n; i++)
         if (!done[i] && singles[i].instrs[0].dst.write && !singles[i].instrs[0].dst.rel)
            w = i;
      if (w == n || scratch_gpr_ + deferred >= kMaxGpr)
         return fail("a group swaps registers and no scratch register is free");
      AluInstr &wi = singles[w].instrs[0];
      PGroup fix;
      AluInstr mov = alu_mov(wi.dst.gpr, wi.dst.chan, scratch_gpr_ + deferred);
      fix.instrs.push_back(mov);
      fixups.push_back(std::move(fix));
      wi.dst.gpr = uint8_t(scratch_gpr_ + deferred++);
      for (size_t r = 0; r < n; r++)
         before[r * n + w] = 0;
   }
   for (size_t pick : order)
      if (!self_copy(singles[pick]) && !add_group(std::move(singles[pick])))
         return false;
   if (!rest.empty() && !emit_whole(std::move(rest)))
      return false;
   for (PGroup &f : fixups)
      if (!add_group(std::move(f)))
         return false;
   return true;
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
   const std::vector<std::vector<unsigned>> tries = {{1}, {0}, {0, 1}};
   for (const auto &ks : tries) {
      if (scratch_gpr_ + ks.size() > kMaxGpr)
         continue;
      decltype(AluGroup::instrs) trial = instrs;
      std::vector<AluGroup> copies;
      bool ok = true;
      for (AluInstr &in : trial) {
         for (size_t i = 0; i < ks.size() && ok; i++) {
            const unsigned k = ks[i], scratch = scratch_gpr_ + unsigned(i);
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
 * (or trans) with a legal bank swizzle. */
bool Finalizer::whole_fits(std::vector<AluInstr> instrs) const
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
bool Finalizer::emit_whole(std::vector<PGroup> singles)
{
   PGroup g;
   unsigned used = 0;
   for (PGroup &s : singles) {
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
   return add_group(std::move(g));
}

bool Finalizer::add_group(PGroup &&g)
{
   if (g.literals.size() > 4)
      return fail("more than four literals in one group");
   /* The copies flush() adds for a group no bank swizzle serves count
    * against the clause's 128 slots now, or the clause may overflow (a
    * kcache operand is still a placeholder read of R0 here, which can only
    * overestimate them). */
   if (g.krefs.empty()) {
      /* flush() changes only kcache selectors before assigning swizzles,
       * and there are none: its search would give this same result.  A
       * failed one (rare) leaves nothing that matters: searched again. */
      g.swizzled = assign_bank_swizzles(chip_, g.instrs);
      if (!g.swizzled)
         g.port_slots = r0_port_slots(g);
   } else {
      /* The search looks at constant operands only through which of them
       * are equal (the constant-file pairs) and how many there are; flush()
       * gives equal constants equal selectors and different ones different
       * selectors, so numbering the group's distinct constants KC0[0],
       * KC0[1], ... here finds what flush() would: its search is skipped
       * when this one succeeds.  port_slots keeps its estimate from the
       * placeholder reads (R0, put back after the search: no copy of the
       * group), worked out only when it can matter. */
      for (size_t i = 0; i < g.krefs.size(); i++) {
         const KRef &k = g.krefs[i];
         unsigned n = 0;
         while (n < i && (g.krefs[n].bank != k.bank || g.krefs[n].cst != k.cst))
            n++;
         AluSrc &src = g.instrs[k.instr].src[k.src];
         src.sel = src_kcache(0, n, src.chan).sel;
      }
      g.swizzled = g.port_unknown = assign_bank_swizzles(chip_, g.instrs);
      for (const KRef &k : g.krefs)
         g.instrs[k.instr].src[k.src].sel = AluSrc{}.sel; /* operand()'s placeholder */
      if (!g.swizzled)
         g.port_slots = r0_port_slots(g);
   }
   const unsigned unknown = g.port_unknown ? 2 * unsigned(g.instrs.size()) : 0;
   if (!pending_.empty() && pending_slots_ + pending_unknown_ + group_slots(g) + unknown > 128) {
      resolve_port_slots();
      if (g.port_unknown) {
         g.port_slots = r0_port_slots(g);
         g.port_unknown = false;
      }
   }
   /* pending_lines_ always has a lock plan (only lines that passed
    * plan_locks below are kept): a group with no constant off its lines
    * (most groups) needs no new plan and skips the copy. */
   bool new_lines = false;
   for (const KRef &k : g.krefs)
      new_lines = new_lines || !std::binary_search(pending_lines_.begin(), pending_lines_.end(),
                                                   Line{k.bank, k.cst / 16});
   LineSet &lines = lines_scratch_;
   const unsigned max_sets = is_eg_or_later(chip_) ? 4 : 2;
   auto add_lines = [&](const LineSet &to) { /* into lines (reused): lockable? */
      lines.assign(to.begin(), to.end());
      for (const KRef &k : g.krefs)
         insert_line(lines, Line{k.bank, k.cst / 16});
      return plan_locks(lines, max_sets, nullptr);
   };
   bool locked = !new_lines || add_lines(pending_lines_);
   if (!pending_.empty() && (pending_slots_ + group_slots(g) > 128 || !locked)) {
      /* The PRED_SET of an if must end the clause that pushes; a limit
       * split there cannot be rebuilt. */
      for (const PGroup &p : pending_)
         if (p.sets_exec)
            return fail("clause limit reached after an exec-mask update");
      if (!flush(CfOp::ALU))
         return false;
      ar_lost_ = pred_lost_ = true;
      new_lines = !g.krefs.empty();
      locked = !new_lines || add_lines(LineSet{});
   }
   if (!locked)
      return fail("one group needs more kcache lines than the clause can lock");
   if (g.uses_ar && ar_lost_ && !g.loads_ar)
      return fail("AR read in a clause split after the MOVA that loaded it");
   if (g.loads_ar)
      ar_lost_ = false;
   if (g.uses_pred && pred_lost_)
      return fail("predicate read in a clause split after the PRED_SET that set it");
   if (g.sets_pred)
      pred_lost_ = false;
   if (new_lines)
      std::swap(pending_lines_, lines);
   pending_slots_ += group_slots(g);
   if (g.port_unknown)
      pending_unknown_ += 2 * unsigned(g.instrs.size());
   pending_.push_back(std::move(g));
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
   for (PGroup &p : pending_)
      if (p.port_unknown) {
         p.port_slots = r0_port_slots(p);
         p.port_unknown = false;
         pending_slots_ += p.port_slots;
      }
   pending_unknown_ = 0;
}

bool Finalizer::flush(CfOp op)
{
   if (pending_.empty())
      return true;
   bool sets_exec = false;
   for (const PGroup &p : pending_)
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
   c.groups.reserve(pending_.size());
   for (PGroup &p : pending_) {
      for (const KRef &k : p.krefs) {
         bool placed = false;
         for (unsigned s = 0; s < 4 && !placed; s++) {
            const KCacheLock &l = c.kcache[s];
            if (!l.mode || l.bank != k.bank || k.cst < l.addr * 16u ||
                k.cst >= l.addr * 16u + (l.mode == 2 ? 32u : 16u))
               continue;
            AluSrc &src = p.instrs[k.instr].src[k.src];
            AluSrc ks = src_kcache(s, k.cst - l.addr * 16u, src.chan);
            src.sel = ks.sel;
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
      AluGroup g;
      g.instrs = std::move(p.instrs);
      g.literals = std::move(p.literals);
      if (g.literals.size() % 2)
         g.literal_pad = 0;
      c.groups.push_back(std::move(g));
   }
   emit_cf(std::move(c));
   pending_.clear();
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

bool Finalizer::emit_fetch(const Node *n)
{
   if (!flush(CfOp::ALU))
      return false;
   const unsigned max_fetch = chip_ == ChipClass::R600 ? 8 : 16;
   CfInstr c = *n->cf;
   c.fetches.clear();
   c.groups.clear();
   auto close = [&]() {
      if (c.fetches.empty())
         return;
      /* Moved out (no copy of the fetch list); c keeps its header fields
       * for the next clause. */
      emit_cf(std::move(c));
      c.fetches.clear();
      c.groups.clear();
   };
   std::vector<FetchInstr> fetched;
   fetched.reserve(n->children.size());
   for (const Node *f : n->children) {
      if (f->kind != NodeKind::Fetch || !f->fetch)
         return fail("a fetch clause holds something other than fetches");
      FetchInstr fi = *f->fetch;
      size_t si = 0, di = 0;
      int src_gpr = -1, dst_gpr = -1;
      auto src_of = [&](uint8_t &sel) -> bool {
         /* ra_split: a TEX coordinate nothing wrote reads 0.0 (what the
          * unwritten register holds in the emulator), constants SEL_0/1. */
         if (si < f->src.size() && std::holds_alternative<TexInstr>(fi)) {
            int c = operand_const_sel(f->src[si]);
            if (c >= 0) {
               sel = uint8_t(c == kSelMask ? kSel0 : c);
               si++;
               return true;
            }
         }
         if (si >= f->src.size() || !is_reg_var(f->src[si]))
            return fail("fetch operand without a register value");
         RegAssign r = reg(f->src[si++]);
         if (r.gpr < 0 || (src_gpr >= 0 && r.gpr != src_gpr))
            return fail("fetch address components in different registers");
         src_gpr = r.gpr;
         sel = r.chan;
         return true;
      };
      std::array<uint8_t, 4> new_dst{kSelMask, kSelMask, kSelMask, kSelMask};
      auto dst_of = [&](const std::array<uint8_t, 4> &old) -> bool {
         for (unsigned ch = 0; ch < 4; ch++) {
            if (old[ch] == kSelMask)
               continue;
            if (di >= f->dst.size() || !is_reg_var(f->dst[di]))
               return fail("fetch result without a register value");
            RegAssign r = reg(f->dst[di++]);
            if (r.gpr < 0)
               continue; /* unused: not written */
            if ((dst_gpr >= 0 && r.gpr != dst_gpr) || new_dst[r.chan] != kSelMask)
               return fail("fetch results not in distinct channels of one register");
            dst_gpr = r.gpr;
            new_dst[r.chan] = old[ch];
         }
         return true;
      };
      if (TexInstr *t = std::get_if<TexInstr>(&fi)) {
         for (unsigned ch = 0; ch < 4; ch++)
            if (t->src_sel[ch] < 4 && !src_of(t->src_sel[ch]))
               return false;
         if (!dst_of(t->dst_sel))
            return false;
         if (dst_gpr >= 0)
            t->dst_gpr = uint8_t(dst_gpr);
         /* Coordinates all constant (TXQ, a fixed lod): the GPR is not read,
          * so it need not keep the source's register in use. */
         if (src_gpr < 0)
            src_gpr = dst_gpr >= 0 ? dst_gpr : 0;
         t->src_gpr = uint8_t(src_gpr);
         t->dst_sel = new_dst;
      } else {
         VtxInstr &v = std::get<VtxInstr>(fi);
         uint8_t sel = 0;
         if (!src_of(sel))
            return false;
         v.src_sel_x = sel;
         v.src_gpr = uint8_t(src_gpr);
         if (!dst_of(v.dst_sel))
            return false;
         if (dst_gpr >= 0)
            v.dst_gpr = uint8_t(dst_gpr);
         v.dst_sel = new_dst;
      }
      if (si != f->src.size() || di != f->dst.size())
         return fail("fetch values do not match its selects");
      fetched.push_back(std::move(fi));
   }

   /* Join the fetch clause emitted just before when nothing here reads a
    * GPR channel it writes (a fetch must not take its address from a result
    * of its own clause; other channels of that GPR are fine, as Mesa's sb
    * ships: the validator checks the same rule) or writes a channel it
    * writes.  Fetches of a clause run in order, so a later fetch may
    * overwrite what an earlier one read.  One CF less, same results. */
   if (last_fetch_cf_ >= 0 && unsigned(last_fetch_cf_) + 1 == out_.cf.size()) {
      const CfInstr &prev = out_.cf.back();
      bool ok = prev.op == c.op && prev.valid_pixel_mode == c.valid_pixel_mode &&
                prev.whole_quad_mode == c.whole_quad_mode &&
                prev.fetches.size() + fetched.size() <= max_fetch;
      std::array<uint8_t, 128> written{}; /* GPR -> channels */
      for (const FetchInstr &f : prev.fetches) {
         const FetchRegs r = fetch_regs(f);
         if (r.dst_gpr < 128)
            written[r.dst_gpr] |= uint8_t(r.writes);
      }
      for (const FetchInstr &f : fetched) {
         const FetchRegs r = fetch_regs(f);
         ok = ok && r.src_gpr < 128 && !(written[r.src_gpr] & r.reads) &&
              (!r.writes || (r.dst_gpr < 128 && !(written[r.dst_gpr] & r.writes)));
         if (ok && r.writes)
            written[r.dst_gpr] |= uint8_t(r.writes);
      }
      if (ok) {
         c.fetches = std::move(out_.cf.back().fetches); /* prev, about to go */
         out_.cf.pop_back();
      }
   }
   for (FetchInstr &fi : fetched) {
      if (c.fetches.size() >= max_fetch)
         close();
      c.fetches.push_back(std::move(fi));
   }
   close();
   last_fetch_cf_ = int(out_.cf.size()) - 1;
   return true;
}

bool Finalizer::emit_export(const Node *n)
{
   if (!flush(CfOp::ALU))
      return false;
   CfInstr c = *n->cf;
   ExportInfo &e = c.exp;
   size_t vi = 0;
   int base = -1;
   std::array<uint8_t, 4> swz = e.swizzle;
   for (unsigned b = 0; b < e.burst_count; b++)
      for (unsigned ch = 0; ch < 4; ch++) {
         if (e.swizzle[ch] >= 4)
            continue;
         if (e.burst_count == 1 && vi < n->src.size()) {
            int c = operand_const_sel(n->src[vi]);
            if (c >= 0) {
               swz[ch] = uint8_t(c);
               vi++;
               continue;
            }
         }
         if (vi >= n->src.size() || !is_reg_var(n->src[vi]))
            return fail("export component without a register value");
         RegAssign r = reg(n->src[vi++]);
         if (r.gpr < 0 || r.gpr < int(b) || (base >= 0 && r.gpr - int(b) != base))
            return fail("export elements not in consecutive registers");
         base = r.gpr - int(b);
         if (b == 0)
            swz[ch] = r.chan;
         else if (swz[ch] != r.chan)
            return fail("burst export elements with different channels");
      }
   if (vi != n->src.size())
      return fail("export values do not match its swizzle");
   /* Nothing read from a register (all masked or constant): R0, rather
    * than keep the source's register counted as used. */
   e.gpr = uint8_t(base >= 0 ? base : 0);
   e.swizzle = swz;
   if (base >= 0 && last_export_cf_ >= 0 && unsigned(last_export_cf_) + 1 == out_.cf.size() &&
       merge_burst(out_.cf.back(), c))
      return true;
   last_export_cf_ = int(emit_cf(std::move(c)));
   return true;
}

/* Two exports in a row become one burst when the hardware would read the
 * same thing: one type and swizzle, consecutive array bases in consecutive
 * GPRs (either order), at most 16 elements (Mesa's r600_bytecode_add_output
 * rule).  EXPORT then EXPORT or EXPORT_DONE merge as the second (the done
 * bit then covers the burst, whose last element is the last of its type
 * either way); a done export takes no later one, since exports of its type
 * after it would then come before the done.  MEM exports never merge. */
bool Finalizer::merge_burst(CfInstr &prev, const CfInstr &cur) const
{
   const ExportInfo &a = prev.exp, &b = cur.exp;
   if (prev.op != CfOp::EXPORT || prev.end_of_program ||
       (cur.op != CfOp::EXPORT && cur.op != CfOp::EXPORT_DONE))
      return false;
   if (a.type != b.type || a.swizzle != b.swizzle || a.elem_size != b.elem_size ||
       a.comp_mask != b.comp_mask || a.rw_rel || b.rw_rel || a.burst_count + b.burst_count > 16 ||
       prev.barrier != cur.barrier || prev.valid_pixel_mode != cur.valid_pixel_mode ||
       prev.whole_quad_mode != cur.whole_quad_mode || prev.mark != cur.mark)
      return false;
   /* An export that reads no register names R0 without reading it: its
    * GPR is no anchor for a burst. */
   bool reads = false;
   for (uint8_t s : a.swizzle)
      reads = reads || s < 4;
   if (!reads)
      return false;
   ExportInfo m = a;
   if (a.gpr + a.burst_count == b.gpr && a.array_base + a.burst_count == b.array_base) {
      /* cur follows prev */
   } else if (b.gpr + b.burst_count == a.gpr && b.array_base + b.burst_count == a.array_base) {
      m.gpr = b.gpr;
      m.array_base = b.array_base;
   } else {
      return false;
   }
   m.burst_count = uint8_t(a.burst_count + b.burst_count);
   prev.exp = m;
   prev.op = cur.op;
   prev.end_of_program = cur.end_of_program;
   return true;
}

bool Finalizer::check_phis(const Node *region)
{
   auto one = [&](const Node *p) -> bool {
      if (p->dst.empty() || !is_reg_var(p->dst[0]))
         return true; /* AR, loop index: hardware state */
      RegAssign d = reg(p->dst[0]);
      if (d.gpr < 0)
         return true; /* unused */
      for (const Value &s : p->src) {
         RegAssign r = reg(s);
         if (!is_reg_var(s) || r.gpr != d.gpr || r.chan != d.chan)
            return fail("phi " + name(p->dst[0]) + " and its source " +
                        name(s) + " are not in one register");
      }
      return true;
   };
   for (const Node *p : region->region().phi)
      if (!one(p))
         return false;
   for (const Node *p : region->region().loop_phi)
      if (!one(p))
         return false;
   return true;
}

bool Finalizer::emit_if(const Node *reg)
{
   if (reg->children.size() != 1 || reg->children[0]->kind != NodeKind::Depart ||
       reg->children[0]->target != reg)
      return fail("region is neither a loop nor an if");
   const Node *d1 = reg->children[0];
   if (d1->children.empty() || d1->children[0]->kind != NodeKind::If)
      return fail("region is neither a loop nor an if");
   const Node *n_if = d1->children[0];
   if (n_if->children.size() != 1 || n_if->children[0]->kind != NodeKind::Depart ||
       n_if->children[0]->target != reg || n_if->src.empty())
      return fail("if without its depart");
   const Node *d0 = n_if->children[0];
   const Value &cond = n_if->src[0];
   if (!is_kind(cond, VarKind::ExecMask))
      return fail("if condition is not an exec mask");
   bool found = false;
   for (const PGroup &p : pending_)
      for (unsigned v : p.exec_defs)
         found = found || v == cond.version;
   if (!found)
      return fail("the PRED_SET of " + name(cond) +
                  " is not in the ALU clause just before its if");
   if (!flush(CfOp::ALU_PUSH_BEFORE))
      return false;
   CfInstr j;
   j.op = CfOp::JUMP;
   const unsigned jump = emit_cf(j);
   if (!emit_list(d0->children))
      return false;
   const bool has_else = d1->children.size() > 1;
   unsigned jumper = jump;
   if (has_else) {
      if (!flush(CfOp::ALU))
         return false;
      CfInstr e;
      e.op = CfOp::ELSE;
      e.pop_count = 1;
      jumper = emit_cf(e);
      out_.cf[jump].target = jumper;
      if (!emit_list(d1->children, 1))
         return false;
   }
   unsigned after;
   if (!pending_.empty()) {
      if (!flush(CfOp::ALU_POP_AFTER))
         return false;
      after = unsigned(out_.cf.size());
      folded_cf_ = int(after - 1);
      folded_jumper_ = jumper;
   } else if (folded_cf_ >= 0 && unsigned(folded_cf_) + 1 == out_.cf.size() &&
              out_.cf[folded_cf_].op == CfOp::ALU_POP_AFTER &&
              out_.cf.size() - 1 > jumper) {
      /* The inner if ended in that clause too: it pops both, and the
       * inner if's jump past it must pop both as well. */
      out_.cf[folded_cf_].op = CfOp::ALU_POP2_AFTER;
      out_.cf[folded_jumper_].pop_count = 2;
      after = unsigned(out_.cf.size());
      folded_cf_ = -1;
   } else {
      CfInstr p;
      p.op = CfOp::POP;
      p.pop_count = 1;
      const unsigned pi = emit_cf(p);
      out_.cf[pi].target = pi + 1;
      after = pi + 1;
      folded_cf_ = -1;
   }
   out_.cf[jumper].target = after;
   if (!has_else)
      out_.cf[jump].pop_count = 1;
   return true;
}

bool Finalizer::emit_loop(const Node *reg)
{
   if (reg->children.size() != 1 || reg->children[0]->kind != NodeKind::Repeat ||
       reg->children[0]->target != reg)
      return fail("loop region without its body repeat");
   if (!flush(CfOp::ALU))
      return false;
   CfInstr s;
   s.op = CfOp::LOOP_START_DX10;
   if (sh_.prog && reg->cf_index < sh_.prog->cf.size()) {
      const CfInstr &o = sh_.prog->cf[reg->cf_index];
      if (o.op == CfOp::LOOP_START_DX10 || o.op == CfOp::LOOP_START_NO_AL) {
         s = o;
         s.groups.clear();
         s.fetches.clear();
      }
   }
   const unsigned start = emit_cf(s);
   loops_.push_back(LoopCtx{reg, reg->children[0], {}});
   if (!emit_list(reg->children[0]->children) || !flush(CfOp::ALU))
      return false;
   CfInstr e;
   e.op = CfOp::LOOP_END;
   e.target = start + 1;
   const unsigned end = emit_cf(e);
   out_.cf[start].target = end + 1;
   for (unsigned k : loops_.back().jumps)
      out_.cf[k].target = end;
   loops_.pop_back();
   folded_cf_ = -1;
   return true;
}

/* An ALU clause right after exports or fetch clauses may run before them
 * when it writes nothing they read or write and reads nothing they write
 * (register channels, after allocation): it then joins the clause before
 * them instead of opening a new one.  Vertex shaders whose last output
 * copies come after the position export save a CF this way, and the
 * coordinate copies ra_split puts before each TEX move up so the fetches
 * meet and share a clause.  Clauses that change the active lanes (PRED_SET
 * with an exec update, KILL), relative writes and AR stay. */
bool Finalizer::may_precede(const Node *alu, std::span<const Node *const> cfs) const
{
   if (alu->kind != NodeKind::Cf || (alu->cf && cf_op_info(alu->cf->op).enc != CfEncoding::Alu) ||
       (alu->cf && alu->cf->op != CfOp::ALU))
      return false;
   auto chan_of = [&](const Value &v) {
      const RegAssign r = reg(v);
      return r.gpr >= 0 ? int(unsigned(r.gpr) * 4 + r.chan) : -1;
   };
   /* The channels the CFs read and write (a few) first, then the clause
    * against them: one that reads what a fetch before it wrote, the usual
    * case, stops at that read instead of being scanned whole. */
   SmallVector<unsigned, 16> cf_reads, cf_writes;
   auto note = [&](const Node *n) {
      for (const Value &v : n->src)
         if (is_reg_var(v) && chan_of(v) >= 0)
            cf_reads.push_back(unsigned(chan_of(v)));
      for (const Value &d : n->dst)
         if (is_reg_var(d) && chan_of(d) >= 0)
            cf_writes.push_back(unsigned(chan_of(d)));
   };
   for (const Node *c : cfs)
      if (cf_op_info(c->cf->op).flags & CF_FETCH)
         std::for_each(c->children.begin(), c->children.end(), note);
      else
         note(c);
   auto in = [&](const SmallVector<unsigned, 16> &l, const Value &v) {
      const int c = chan_of(v);
      return c >= 0 && std::find(l.begin(), l.end(), unsigned(c)) != l.end();
   };
   for (const Node *g : alu->children) {
      if (g->kind != NodeKind::AluGroup)
         return false;
      for (const Node *a : g->children) {
         if (a->alu && (alu_op_info(a->alu->op).flags & AF_KILL))
            return false;
         for (const Value &d : a->dst) {
            if (d.kind == ValueKind::Rel ||
                (d.kind == ValueKind::Var && has_id(d) &&
                 (sh_.vars[d.var].kind == VarKind::ExecMask ||
                  sh_.vars[d.var].kind == VarKind::AddrReg)))
               return false;
            if (is_reg_var(d) && (in(cf_reads, d) || in(cf_writes, d)))
               return false;
         }
         for (const Value &v : a->src)
            if (is_reg_var(v) && in(cf_writes, v))
               return false;
      }
   }
   return true;
}

bool Finalizer::emit_list(const NodeList &list_in, size_t from)
{
   /* A region's CF nodes: few, so no allocation for them. */
   SmallVector<const Node *, 16> list(list_in.begin() +
                                         std::ptrdiff_t(std::min(from, list_in.size())),
                                      list_in.end());
   auto passable = [](const Node *n) {
      if (n->kind != NodeKind::Cf || !n->cf)
         return false;
      const CfOpInfo &info = cf_op_info(n->cf->op);
      if (info.enc == CfEncoding::Export)
         return !n->cf->exp.rw_rel && !n->cf->end_of_program;
      return (info.flags & CF_FETCH) && info.enc != CfEncoding::Alu;
   };
   for (size_t j = 1; j < list.size(); j++) {
      size_t i = j;
      while (i > 0 && passable(list[i - 1]))
         i--;
      if (i == j)
         continue;
      if (!may_precede(list[j], std::span(list.begin() + i, list.begin() + j)))
         continue;
      /* list[j] moves to i, the CF nodes it passes one place on. */
      std::rotate(list.begin() + i, list.begin() + j, list.begin() + j + 1);
   }
   for (const Node *n : list)
      if (!emit_node(n))
         return false;
   return true;
}

bool Finalizer::emit_node(const Node *n)
{
   switch (n->kind) {
   case NodeKind::Root:
      return emit_list(n->children);
   case NodeKind::Cf: {
      if (!n->cf || cf_op_info(n->cf->op).enc == CfEncoding::Alu)
         return emit_alu_cf(n);
      if (cf_op_info(n->cf->op).flags & CF_FETCH)
         return emit_fetch(n);
      const CfEncoding enc = cf_op_info(n->cf->op).enc;
      if (enc == CfEncoding::Export) {
         if (n->cf->exp.rw_rel)
            return fail("relative export");
         return emit_export(n);
      }
      if (n->cf->op == CfOp::NOP || n->cf->op == CfOp::CF_END || n->cf->op == CfOp::CALL_FS) {
         if (!flush(CfOp::ALU))
            return false;
         CfInstr c = *n->cf;
         c.target = 0;
         emit_cf(std::move(c));
         return true;
      }
      return fail("CF " + std::string(cf_op_name(n->cf->op)) + " cannot be rebuilt");
   }
   case NodeKind::Region:
      if (!check_phis(n))
         return false;
      return n->loop ? emit_loop(n) : emit_if(n);
   case NodeKind::Depart:
   case NodeKind::Repeat: {
      if (!n->target || !n->target->loop)
         return fail("depart/repeat to a non-loop region outside its if");
      if (!emit_list(n->children))
         return false;
      const bool body = !loops_.empty() && loops_.back().body == n;
      if (body)
         return true;
      LoopCtx *ctx = nullptr;
      for (LoopCtx &l : loops_)
         if (l.region == n->target)
            ctx = &l;
      if (!ctx || &loops_.back() != ctx)
         return fail("break/continue out of a loop that is not the innermost");
      if (!flush(CfOp::ALU))
         return false;
      CfInstr c;
      c.op = n->kind == NodeKind::Depart ? CfOp::LOOP_BREAK : CfOp::LOOP_CONTINUE;
      ctx->jumps.push_back(emit_cf(c));
      return true;
   }
   default:
      return fail("unexpected node outside a clause");
   }
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
   /* Instructions, most of the tree, have no children: no call for them. */
   for (const Node *c : n->children)
      if ((c->kind == NodeKind::Psi || !c->children.empty()) && !check_values(c))
         return false;
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
   int top = -1;
   for (const RegAssign &r : alloc_.reg)
      top = std::max(top, int(r.gpr));
   for (const RelArray &r : sh_.arrays)
      top = std::max(top, int(r.first + r.count) - 1);
   scratch_gpr_ = unsigned(top + 1);
   /* A clause has at most 128 slots, so at most 128 groups wait for it:
    * room for them once, not regrown (moving every group) per compile. */
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

} // namespace

bool bc_finalize(const RegionShader &sh, const Allocation &alloc, const ShaderInfo &info,
                 Program &out, Diagnostics &diags)
{
   Finalizer f(sh, alloc, info, out, diags);
   return f.run();
}

} // namespace sbcc::r600::sb::region
