/*
 * bc_finalize's CF side: if and loop regions back into JUMP / ELSE / POP
 * and LOOP_START / LOOP_END, departs and repeats into LOOP_BREAK /
 * LOOP_CONTINUE, the ALU clauses that may run before the exports and
 * fetches just before them, fetch clauses (registers, joining the one
 * before) and exports (registers, bursts).  The ALU clauses themselves
 * and the pass's description are in sb_bc_finalize.cpp.
 */
#include <algorithm>
#include <bitset>
#include <string>

#include "r600/sb/sb_bc_finalize.h"

namespace sbcc::r600::sb::region::finalize {

namespace {

/* Register channels (GPR * 4 + channel), asked of every operand of a
 * clause: a bit for each channel of the GPR file, a list for any beyond
 * it (none in a valid allocation). */
struct ChanSet {
   std::bitset<512> bits;
   SmallVector<unsigned, 2> beyond;
   void add(unsigned c)
   {
      if (c < bits.size())
         bits[c] = true;
      else
         beyond.push_back(c);
   }
   bool has(int c) const
   {
      if (c < 0)
         return false;
      return size_t(c) < bits.size() ? bits[size_t(c)]
                                     : std::find(beyond.begin(), beyond.end(), unsigned(c)) !=
                                          beyond.end();
   }
};

} // namespace

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
   std::vector<FetchInstr> &fetched = fetched_;
   fetched.clear();
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
   for (const PGroup &p : committed())
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
   if (npend_) {
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
   /* The register channel of a GPR or Temp value, -1 for any other or
    * one without a register: worked out once per value. */
   auto chan_of = [&](const Value &v) {
      const RegAssign *r = reg_var(v);
      return r && r->gpr >= 0 ? int(unsigned(r->gpr) * 4 + r->chan) : -1;
   };
   /* The channels the CFs read and write (a few) first, then the clause
    * against them: one that reads what a fetch before it wrote, the usual
    * case, stops at that read instead of being scanned whole. */
   ChanSet cf_reads, cf_writes;
   auto note = [&](const Node *n) {
      for (const Value &v : n->src)
         if (const int c = chan_of(v); c >= 0)
            cf_reads.add(unsigned(c));
      for (const Value &d : n->dst)
         if (const int c = chan_of(d); c >= 0)
            cf_writes.add(unsigned(c));
   };
   for (const Node *c : cfs)
      if (cf_op_info(c->cf->op).flags & CF_FETCH)
         std::for_each(c->children.begin(), c->children.end(), note);
      else
         note(c);
   auto in = [](const ChanSet &l, int c) { return l.has(c); };
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
            const int c = chan_of(d);
            if (in(cf_reads, c) || in(cf_writes, c))
               return false;
         }
         for (const Value &v : a->src)
            if (in(cf_writes, chan_of(v)))
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

} // namespace sbcc::r600::sb::region::finalize
