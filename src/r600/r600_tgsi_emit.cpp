/*
 * ALU group and clause building for the TGSI translator: slot choice,
 * literal and kcache placement, bank swizzles, clause limits.
 */
#include "r600/r600_tgsi_emit.h"

#include <algorithm>
#include <set>

namespace sbcc::r600::tgsi_backend {

namespace {

/* Mesa keeps ALU clauses below the 128-slot COUNT field; so do we, with a
 * margin for the group being added. */
constexpr unsigned kMaxClauseSlots = 120;
constexpr unsigned kMaxTexFetches = 8;

/* Source -> read cycle, per bank swizzle (Mesa's cycle_for_bank_swizzle). */
constexpr int kVecCycle[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
constexpr int kSclCycle[4][3] = {{2, 1, 0}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}};

struct Ports {
   int gpr[3][4];
   int cfile_sel[4];
   int cfile_chan[4];
   Ports()
   {
      for (auto &c : gpr)
         for (int &v : c)
            v = -1;
      for (int i = 0; i < 4; i++)
         cfile_sel[i] = cfile_chan[i] = -1;
   }
};

bool is_gpr_sel(unsigned sel) { return sel < 128; }

/* kcache and constant-file reads share the constant read ports; treating
 * kcache like the constant file is stricter than needed, never looser. */
bool is_cfile_sel(ChipClass chip, unsigned sel)
{
   SrcKind k = src_kind(chip, sel);
   return k == SrcKind::KCache || k == SrcKind::ConstFile;
}

bool reserve_gpr(Ports &p, unsigned sel, unsigned chan, int cycle)
{
   int &slot = p.gpr[cycle][chan & 3];
   if (slot == -1) {
      slot = int(sel);
      return true;
   }
   return slot == int(sel);
}

bool reserve_cfile(ChipClass chip, Ports &p, unsigned sel, unsigned chan)
{
   int num = 4;
   if (chip >= ChipClass::R700) {
      num = 2;
      chan /= 2;
   }
   for (int r = 0; r < num; r++) {
      if (p.cfile_sel[r] == -1) {
         p.cfile_sel[r] = int(sel);
         p.cfile_chan[r] = int(chan);
         return true;
      }
      if (p.cfile_sel[r] == int(sel) && p.cfile_chan[r] == int(chan))
         return true;
   }
   return false;
}

bool check_vector(ChipClass chip, const AluInstr &in, Ports &p, int bs)
{
   unsigned n = alu_op_info(in.op).num_src;
   for (unsigned s = 0; s < n; s++) {
      const AluSrc &src = in.src[s];
      if (is_gpr_sel(src.sel)) {
         if (s == 1 && src.sel == in.src[0].sel && src.chan == in.src[0].chan)
            continue;
         if (!reserve_gpr(p, src.sel, src.chan, kVecCycle[bs][s]))
            return false;
      } else if (is_cfile_sel(chip, src.sel)) {
         if (!reserve_cfile(chip, p, src.sel, src.chan))
            return false;
      }
   }
   return true;
}

bool check_scalar(ChipClass chip, const AluInstr &in, Ports &p, int bs)
{
   unsigned n = alu_op_info(in.op).num_src;
   int consts = 0;
   for (unsigned s = 0; s < n; s++) {
      const AluSrc &src = in.src[s];
      bool cf = is_cfile_sel(chip, src.sel);
      if (cf || (src.sel >= kSrc_0 && src.sel <= kSrc_LITERAL)) {
         if (consts >= 2)
            return false;
         consts++;
      }
      if (cf && !reserve_cfile(chip, p, src.sel, src.chan))
         return false;
   }
   for (unsigned s = 0; s < n; s++) {
      const AluSrc &src = in.src[s];
      int cycle = kSclCycle[bs][s];
      if (is_gpr_sel(src.sel)) {
         if (cycle < consts || !reserve_gpr(p, src.sel, src.chan, cycle))
            return false;
      } else if ((src.sel == kSrc_PV || src.sel == kSrc_PS) && cycle < consts) {
         return false;
      }
   }
   return true;
}

bool search(ChipClass chip, AluGroup &g, size_t i, const Ports &p)
{
   if (i == g.instrs.size())
      return true;
   AluInstr &in = g.instrs[i];
   const bool trans = in.slot == kSlotT;
   const int n = trans ? 4 : 6;
   for (int bs = 0; bs < n; bs++) {
      Ports q = p;
      if (!(trans ? check_scalar(chip, in, q, bs) : check_vector(chip, in, q, bs)))
         continue;
      in.bank_swizzle = uint8_t(bs);
      if (search(chip, g, i + 1, q))
         return true;
   }
   return false;
}

} // namespace

bool assign_bank_swizzles(ChipClass chip, AluGroup &g)
{
   /* Evergreen interpolation reads its pair through a fixed swizzle. */
   bool interp = false;
   for (const AluInstr &in : g.instrs)
      interp |= (alu_op_info(in.op).flags & AF_INTERP) != 0;
   if (interp) {
      for (AluInstr &in : g.instrs)
         in.bank_swizzle = 5; /* VEC_210, as Mesa */
      return true;
   }
   return search(chip, g, 0, Ports{});
}

Opnd imm(uint32_t bits)
{
   switch (bits) {
   case 0: return inl(kSrc_0);
   case 0x3f800000u: return inl(kSrc_1);
   case 0x3f000000u: return inl(kSrc_0_5);
   case 1: return inl(kSrc_1_INT);
   case 0xffffffffu: return inl(kSrc_M_1_INT);
   default: break;
   }
   Opnd o;
   o.kind = Opnd::Lit;
   o.value = bits;
   return o;
}

static void collect(const std::vector<PInstr> &g, std::vector<uint32_t> &lits,
                    std::set<std::pair<uint32_t, uint32_t>> &lines)
{
   for (const PInstr &p : g)
      for (unsigned s = 0; s < alu_op_info(p.op).num_src; s++) {
         const Opnd &o = p.src[s];
         if (o.kind == Opnd::Lit && std::find(lits.begin(), lits.end(), o.value) == lits.end())
            lits.push_back(o.value);
         if (o.kind == Opnd::Const)
            lines.insert({o.bank, o.sel / 16});
      }
}

bool Builder::fits(const PInstr &p, int &slot) const
{
   unsigned slots = alu_slots(chip_, p.op);
   bool used[5] = {};
   for (const PInstr &q : pending_)
      used[q.slot] = true;
   slot = -1;
   if ((slots & kSlotV) && !used[p.dst.chan & 3])
      slot = p.dst.chan & 3;
   else if ((slots & kSlotS) && chip_ != ChipClass::Cayman && !used[kSlotT])
      slot = kSlotT;
   if (slot < 0)
      return false;
   std::vector<PInstr> g = pending_;
   g.push_back(p);
   std::vector<uint32_t> lits;
   std::set<std::pair<uint32_t, uint32_t>> lines;
   collect(g, lits, lines);
   return lits.size() <= 4 && lines.size() <= 2;
}

void Builder::add(const PInstr &in)
{
   const unsigned slots = alu_slots(chip_, in.op);
   if (chip_ == ChipClass::Cayman &&
       ((slots & kSlot4) || ((slots & kSlotS) && !(slots & kSlotV)))) {
      /* Cayman has no trans unit: the op runs in x, y, z (and w for a
       * reduction or a w result), every slot computing the same value; only
       * the slot of the wanted channel writes. */
      flush();
      unsigned n = (slots & kSlot4) || (in.dst.chan & 3) == 3 ? 4 : 3;
      for (unsigned k = 0; k < n; k++) {
         PInstr p = in;
         p.slot = int(k);
         p.dst.chan = uint8_t(k);
         p.dst.write = in.dst.write && k == (in.dst.chan & 3u);
         pending_.push_back(p);
      }
      flush();
      return;
   }
   int slot;
   if (!fits(in, slot)) {
      flush();
      if (!fits(in, slot)) {
         diags_.error("internal: ALU operation " + std::string(alu_op_name(in.op)) +
                      " has no legal slot on this chip");
         failed = true;
         return;
      }
   }
   PInstr p = in;
   p.slot = slot;
   pending_.push_back(p);
}

void Builder::add(AluOp op, unsigned dst_gpr, unsigned dst_chan, std::initializer_list<Opnd> srcs,
                  bool clamp, bool write)
{
   PInstr p;
   p.op = op;
   unsigned i = 0;
   for (const Opnd &o : srcs)
      if (i < 3)
         p.src[i++] = o;
   p.dst.gpr = uint8_t(dst_gpr);
   p.dst.chan = uint8_t(dst_chan);
   p.dst.clamp = clamp;
   p.dst.write = write;
   add(p);
}

void Builder::add_reduction(const std::array<PInstr, 4> &ps)
{
   flush();
   for (unsigned i = 0; i < 4; i++) {
      pending_.push_back(ps[i]);
      pending_.back().slot = int(i);
   }
   flush();
}

void Builder::flush()
{
   if (pending_.empty())
      return;
   std::vector<PInstr> g;
   g.swap(pending_);
   std::sort(g.begin(), g.end(), [](const PInstr &a, const PInstr &b) { return a.slot < b.slot; });
   emit_group(std::move(g));
}

unsigned Builder::clause_slots(const CfInstr &cf) const
{
   if (alu_cf_ < 0 || &cf != &prog.cf[size_t(alu_cf_)] || cf.groups.size() < counted_groups_)
      return alu_clause_dwords(cf.groups) / 2; /* not the open clause: count it all */
   for (; counted_groups_ < cf.groups.size(); counted_groups_++)
      counted_dwords_ += alu_group_dwords(cf.groups[counted_groups_]);
   return counted_dwords_ / 2;
}

CfInstr &Builder::alu_clause()
{
   if (alu_cf_ < 0)
      open_alu(CfOp::ALU);
   return prog.cf[size_t(alu_cf_)];
}

void Builder::open_alu(CfOp op)
{
   flush();
   CfInstr cf;
   cf.op = op;
   prog.cf.push_back(cf);
   alu_cf_ = int(prog.cf.size() - 1);
   counted_groups_ = 0;
   counted_dwords_ = 0;
   tex_cf_ = -1;
}

void Builder::close_alu()
{
   flush();
   alu_cf_ = -1;
}

/* Builds a group for a clause with the kcache locks `kcache` (literals,
 * bank swizzles), adding the locks its constants need.  False, with
 * `kcache` unchanged, when the locks cannot cover its constants or no
 * swizzle fits. */
bool Builder::place_group(const std::vector<PInstr> &g, AluGroup &out,
                          std::array<KCacheLock, 4> &kcache)
{
   out = AluGroup{};
   std::vector<uint32_t> lits;
   std::set<std::pair<uint32_t, uint32_t>> lines;
   collect(g, lits, lines);
   if (lits.size() > 4)
      return false;
   /* Map each needed 16-constant line onto lock 0/1 of the clause. */
   std::array<KCacheLock, 4> locks = kcache;
   std::vector<std::pair<std::pair<uint32_t, uint32_t>, unsigned>> line_set;
   for (const auto &ln : lines) {
      int found = -1;
      for (unsigned k = 0; k < 2; k++)
         if (locks[k].mode == 1 && locks[k].bank == ln.first && locks[k].addr == ln.second)
            found = int(k);
      if (found < 0)
         for (unsigned k = 0; k < 2; k++)
            if (locks[k].mode == 0) {
               locks[k].mode = 1;
               locks[k].bank = uint8_t(ln.first);
               locks[k].addr = uint8_t(ln.second);
               found = int(k);
               break;
            }
      if (found < 0 || ln.second > 255 || ln.first > 15)
         return false;
      line_set.push_back({ln, unsigned(found)});
   }
   for (const PInstr &p : g) {
      AluInstr in;
      in.op = p.op;
      in.slot = uint8_t(p.slot);
      in.dst = p.dst;
      in.update_pred = p.update_pred;
      in.update_exec_mask = p.update_exec;
      /* INTERP_LOAD_P0 names its parameter in src1 like the other INTERP ops. */
      const unsigned nsrc = p.op == AluOp::INTERP_LOAD_P0 ? 2 : alu_op_info(p.op).num_src;
      for (unsigned s = 0; s < 3; s++) {
         const Opnd &o = p.src[s];
         AluSrc a;
         if (s < nsrc) {
            switch (o.kind) {
            case Opnd::Gpr: a = src_gpr(o.sel, o.chan); break;
            case Opnd::Inline:
               a = src_inline(AluSrcSel(o.sel));
               a.chan = o.chan; /* PARAM selectors use it */
               break;
            case Opnd::Lit: {
               unsigned idx = unsigned(std::find(lits.begin(), lits.end(), o.value) - lits.begin());
               a = src_literal(idx);
               break;
            }
            case Opnd::Const: {
               unsigned set = 0;
               for (const auto &ls : line_set)
                  if (ls.first.first == o.bank && ls.first.second == o.sel / 16)
                     set = ls.second;
               a = src_kcache(set, o.sel % 16, o.chan);
               break;
            }
            }
            a.neg = o.neg;
            a.abs = o.abs && !alu_is_op3(p.op);
         }
         in.src[s] = a;
      }
      out.instrs.push_back(in);
   }
   out.literals = lits;
   if (!assign_bank_swizzles(chip_, out))
      return false;
   kcache = locks;
   return true;
}

void Builder::emit_group(std::vector<PInstr> g)
{
   if (failed)
      return;
   CfInstr *cf = &alu_clause();
   unsigned need = unsigned(g.size()) + 2;
   bool fresh = cf->groups.empty();
   if (!fresh && clause_slots(*cf) + need > kMaxClauseSlots) {
      open_alu(CfOp::ALU);
      cf = &prog.cf.back();
      fresh = true;
   }
   AluGroup out;
   if (place_group(g, out, cf->kcache)) {
      cf->groups.push_back(out);
      alu_groups++;
      return;
   }
   if (!fresh && cf->op == CfOp::ALU) {
      /* Constants may fit in a clause of their own. */
      std::array<KCacheLock, 4> fresh_locks{};
      if (place_group(g, out, fresh_locks)) {
         open_alu(CfOp::ALU);
         cf = &prog.cf.back();
         cf->kcache = fresh_locks;
         cf->groups.push_back(out);
         alu_groups++;
         return;
      }
   }
   if (g.size() >= 3 && (alu_is_reduction(chip_, g[0].op) ||
                         (chip_ == ChipClass::Cayman && g[0].op == g.back().op &&
                          (alu_slots(chip_, g[0].op) & (kSlotS | kSlot4)) &&
                          !(alu_slots(chip_, g[0].op) & kSlotV)))) {
      /* A reduction cannot be split: gather its sources into two registers
       * (source k of slot c in channel c), which always reads legally. */
      bool copied = false;
      for (unsigned k = 0; k < 2; k++)
         for (unsigned c = 0; c < g.size(); c++) {
            Opnd &o = g[c].src[k];
            if (o.kind == Opnd::Inline)
               continue;
            if (o.kind == Opnd::Gpr && o.sel == fallback_gpr + 1 + k)
               continue;
            Opnd plain = o;
            plain.neg = plain.abs = false;
            PInstr mv;
            mv.op = AluOp::MOV;
            mv.src[0] = plain;
            mv.dst.gpr = uint8_t(fallback_gpr + 1 + k);
            mv.dst.chan = uint8_t(c);
            mv.slot = int(c);
            emit_group({mv});
            o.kind = Opnd::Gpr;
            o.sel = fallback_gpr + 1 + k;
            o.chan = uint8_t(c);
            copied = true;
         }
      if (copied) {
         emit_group(g);
         return;
      }
      diags_.error("internal: no legal bank swizzle for a reduction");
      failed = true;
      return;
   }
   if (g.size() > 1) {
      /* Sources are never written inside a group, so issuing the
       * instructions one group each computes the same values. */
      for (const PInstr &p : g)
         emit_group({p});
      return;
   }
   /* One instruction whose operands collide on read ports: copy its GPR and
    * constant sources to the fallback registers (each copy legal on its own). */
   PInstr p = g[0];
   bool copied = false;
   for (unsigned s = 1; s < alu_op_info(p.op).num_src; s++) {
      Opnd &o = p.src[s];
      if (o.kind != Opnd::Gpr && o.kind != Opnd::Const)
         continue;
      Opnd plain = o;
      plain.neg = plain.abs = false;
      PInstr mv;
      mv.op = AluOp::MOV;
      mv.src[0] = plain;
      mv.dst.gpr = uint8_t(fallback_gpr + s);
      mv.dst.chan = o.chan;
      mv.slot = o.chan;
      emit_group({mv});
      o.kind = Opnd::Gpr;
      o.sel = fallback_gpr + s;
      copied = true;
   }
   if (copied) {
      emit_group({p});
      return;
   }
   diags_.error("internal: no legal bank swizzle for " + std::string(alu_op_name(p.op)));
   failed = true;
}

bool Builder::try_group(std::vector<PInstr> ps)
{
   flush();
   if (failed || ps.empty())
      return false;
   bool used[5] = {};
   for (PInstr &p : ps) {
      unsigned slots = alu_slots(chip_, p.op);
      if ((slots & kSlot4) || (chip_ == ChipClass::Cayman && !(slots & kSlotV)))
         return false; /* reductions and Cayman's replicated ops: never in place */
      int slot = -1;
      if ((slots & kSlotV) && !used[p.dst.chan & 3])
         slot = p.dst.chan & 3;
      else if ((slots & kSlotS) && chip_ != ChipClass::Cayman && !used[kSlotT])
         slot = kSlotT;
      if (slot < 0)
         return false;
      used[slot] = true;
      p.slot = slot;
   }
   std::sort(ps.begin(), ps.end(), [](const PInstr &a, const PInstr &b) { return a.slot < b.slot; });
   CfInstr *cf = &alu_clause();
   if (!cf->groups.empty() && clause_slots(*cf) + unsigned(ps.size()) + 2 > kMaxClauseSlots) {
      open_alu(CfOp::ALU);
      cf = &prog.cf.back();
   }
   AluGroup out;
   if (place_group(ps, out, cf->kcache)) {
      cf->groups.push_back(out);
      alu_groups++;
      return true;
   }
   if (!cf->groups.empty() && cf->op == CfOp::ALU) {
      std::array<KCacheLock, 4> fresh_locks{};
      if (place_group(ps, out, fresh_locks)) {
         open_alu(CfOp::ALU);
         prog.cf.back().kcache = fresh_locks;
         prog.cf.back().groups.push_back(out);
         alu_groups++;
         return true;
      }
   }
   return false;
}

size_t Builder::emit_cf(CfOp op)
{
   close_alu();
   tex_cf_ = -1;
   CfInstr cf;
   cf.op = op;
   prog.cf.push_back(cf);
   return prog.cf.size() - 1;
}

void Builder::add_fetch(const FetchInstr &f, unsigned src_gpr, unsigned dst_gpr)
{
   close_alu();
   bool vtx = std::holds_alternative<VtxInstr>(f);
   /* Cayman has no VTX clause: vertex fetches go into TEX clauses. */
   CfOp op = vtx && chip_ != ChipClass::Cayman ? CfOp::VTX : CfOp::TEX;
   bool reuse = tex_cf_ >= 0 && size_t(tex_cf_) == prog.cf.size() - 1 &&
                prog.cf[size_t(tex_cf_)].op == op &&
                prog.cf[size_t(tex_cf_)].fetches.size() < kMaxTexFetches &&
                std::find(tex_written_.begin(), tex_written_.end(), src_gpr) == tex_written_.end();
   if (!reuse) {
      CfInstr cf;
      cf.op = op;
      prog.cf.push_back(cf);
      tex_cf_ = int(prog.cf.size() - 1);
      tex_written_.clear();
   }
   prog.cf[size_t(tex_cf_)].fetches.push_back(f);
   tex_written_.push_back(dst_gpr);
}

} // namespace sbcc::r600::tgsi_backend
