/*
 * copy_propagation: reads through plain MOVs inside an ALU clause.
 *
 * Mesa's plain backend moves values between temporaries a lot.  After
 * `R2.x = MOV R12.x`, later reads of R2.x in the clause can read R12.x (or
 * the constant the MOV loaded) as long as neither register has been written
 * since; dce_cleanup then drops MOVs nobody reads any more.  Groups are
 * stepped as wholes (reads before writes), and only non-fixed nodes are
 * rewritten, since fixed groups are emitted as decoded.
 */
#include <algorithm>
#include <iterator>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

bool is_plain_copy(const AluNode &n)
{
   if (n.bc.op != AluOp::MOV || !n.bc.dst.write || n.bc.dst.rel || n.bc.dst.clamp ||
       n.bc.dst.omod || n.bc.pred_sel)
      return false;
   const Operand &o = n.src[0];
   if (o.rel)
      return false;
   switch (o.value.kind) {
   case ValueKind::Gpr:
   case ValueKind::KCache:
   case ValueKind::ConstFile:
   case ValueKind::Inline:
   case ValueKind::Literal: return true;
   default: return false;
   }
}

unsigned key(unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); }

/* Folds the copy's neg/abs into the reading operand: reading
 * neg_c(abs_c(neg(abs(x)))) is neg_c(abs x) with abs_c, else
 * (neg_c ^ neg)(abs? |x| : x).  Only for float operations (integer ones
 * would see the sign flip as data) and only where the encoding has the
 * modifier (abs: src0/src1 of two-source operations). */
bool fold_modifiers(const AluNode &n, unsigned s, Operand &o, const Operand &copy)
{
   if (!copy.neg && !copy.abs) {
      o.value = copy.value;
      return true;
   }
   const uint32_t int_flags = AF_INT_DST | AF_UINT_DST | AF_INT_CMP | AF_UINT_CMP | AF_CVT |
                              AF_MOVA | AF_F64;
   if ((alu_op_info(n.bc.op).flags & int_flags) || n.bc.op == AluOp::MOV)
      return false;
   if (o.abs) {
      o.value = copy.value;
      return true;
   }
   if (copy.abs && (alu_is_op3(n.bc.op) || s > 1))
      return false;
   o.value = copy.value;
   o.neg = o.neg != copy.neg;
   o.abs = copy.abs;
   return true;
}

/* Nodes that share a source group may have to move together (see the
 * post-scheduler's units), so the whole group must still fit. */
bool group_fits(ChipClass chip, const AluClause &cl, const GroupNode &g)
{
   return materialize_group(chip, cl, g.nodes, g.slots, nullptr).has_value();
}

/* Destination register channel -> the value it holds a copy of.  A dense
 * list of the copies with an index by key: a lookup is one load, and the
 * scan a write makes for copies of what it overwrites walks the copies
 * alone (a hash map allocated a node per copy and walked its buckets).
 * Order in the list means nothing: a removal moves the last copy into
 * the gap. */
class CopyMap {
 public:
   static constexpr unsigned kKeys = 256 * 4; /* dst.gpr is 8 bits */

   CopyMap() { std::fill(std::begin(pos_), std::end(pos_), int16_t(-1)); }

   bool empty() const { return list_.empty(); }

   /* nullptr when k holds no copy. */
   const Operand *find(unsigned k) const
   {
      return k < kKeys && pos_[k] >= 0 ? &list_[size_t(pos_[k])].copy : nullptr;
   }

   void set(unsigned k, const Operand &o)
   {
      if (pos_[k] >= 0) {
         list_[size_t(pos_[k])].copy = o;
         return;
      }
      pos_[k] = int16_t(list_.size());
      list_.push_back({uint16_t(k), o});
   }

   void erase(unsigned k)
   {
      if (k < kKeys && pos_[k] >= 0)
         remove_at(size_t(pos_[k]));
   }

   /* Ends every copy whose source is register channel k. */
   void erase_copies_of(unsigned k)
   {
      for (size_t i = 0; i < list_.size();) {
         const Operand &o = list_[i].copy;
         if (o.value.kind == ValueKind::Gpr && key(o.value.sel, o.value.chan) == k)
            remove_at(i);
         else
            i++;
      }
   }

   void clear()
   {
      for (const Entry &e : list_)
         pos_[e.key] = -1;
      list_.clear();
   }

 private:
   struct Entry {
      uint16_t key;
      Operand copy;
   };

   void remove_at(size_t i)
   {
      pos_[list_[i].key] = -1;
      if (i + 1 != list_.size()) {
         list_[i] = list_.back();
         pos_[list_[i].key] = int16_t(i);
      }
      list_.pop_back();
   }

   int16_t pos_[kKeys];
   std::vector<Entry> list_;
};

/* The fetch clause right after an ALU clause reads registers the clause
 * often only filled with MOVs (Mesa's backend gathers coordinates that
 * way): when every channel a fetch reads is a plain copy of a channel of
 * one register, the fetch reads that register with its swizzle instead.
 * Each fetch's own writes end the copies they touch. */
void propagate_into_fetches(CfInstr &cf, CopyMap &copies)
{
   auto kill = [&](unsigned gpr, unsigned chan) {
      const unsigned k = key(gpr, chan);
      copies.erase(k);
      copies.erase_copies_of(k);
   };
   auto source_of = [&](unsigned gpr, unsigned chan, int &reg, unsigned &src_chan) {
      const Operand *c = copies.find(key(gpr, chan));
      /* Clause temporaries (123-127) do not outlive their ALU clause. */
      if (!c || c->value.kind != ValueKind::Gpr || c->neg || c->abs || c->value.sel >= 123)
         return false;
      if (reg >= 0 && reg != c->value.sel)
         return false;
      reg = c->value.sel;
      src_chan = c->value.chan;
      return true;
   };
   for (FetchInstr &f : cf.fetches) {
      if (auto *t = std::get_if<TexInstr>(&f)) {
         if (!t->src_rel) {
            int reg = -1;
            std::array<uint8_t, 4> sel = t->src_sel;
            bool ok = true;
            for (unsigned c = 0; c < 4 && ok; c++) {
               if (t->src_sel[c] > kSelW)
                  continue;
               unsigned ch = 0;
               ok = source_of(t->src_gpr, t->src_sel[c], reg, ch);
               sel[c] = uint8_t(ch);
            }
            if (ok && reg >= 0) {
               t->src_gpr = uint8_t(reg);
               t->src_sel = sel;
            }
         }
         if (t->dst_rel)
            copies.clear();
         else
            for (unsigned c = 0; c < 4; c++)
               if (t->dst_sel[c] != kSelMask)
                  kill(t->dst_gpr, c);
      } else if (auto *v = std::get_if<VtxInstr>(&f)) {
         int reg = -1;
         unsigned ch = 0;
         if (!v->src_rel && v->src_sel_x <= kSelW && source_of(v->src_gpr, v->src_sel_x, reg, ch)) {
            v->src_gpr = uint8_t(reg);
            v->src_sel_x = uint8_t(ch);
         }
         if (v->dst_rel)
            copies.clear();
         else
            for (unsigned c = 0; c < 4; c++)
               if (v->dst_sel[c] != kSelMask)
                  kill(v->dst_gpr, c);
      }
   }
}

/* An EXPORT of one register whose read channels are all plain copies of
 * one other register's channels exports that register with the swizzle
 * adjusted (Mesa's backend copies outputs into their export registers). */
void propagate_into_export(CfInstr &cf, CopyMap &copies)
{
   ExportInfo &e = cf.exp;
   if (e.burst_count != 1 || e.rw_rel)
      return;
   int reg = -1;
   std::array<uint8_t, 4> swz = e.swizzle;
   for (unsigned c = 0; c < 4; c++) {
      if (e.swizzle[c] > kSelW)
         continue;
      const Operand *cp = copies.find(key(e.gpr, e.swizzle[c]));
      if (!cp || cp->value.kind != ValueKind::Gpr || cp->neg || cp->abs ||
          cp->value.sel >= 123 || (reg >= 0 && reg != cp->value.sel))
         return;
      reg = cp->value.sel;
      swz[c] = cp->value.chan;
   }
   if (reg < 0)
      return;
   e.gpr = uint8_t(reg);
   e.swizzle = swz;
}

void propagate_clause(ChipClass chip, AluClause &cl, CopyMap &copies)
{
   /* A node's operands before folding, saved only when one may change:
    * most nodes read no copy. */
   std::array<Operand, 3> before;
   for (GroupNode &g : cl.groups) {
      /* Without copies (a clause's start, or after a relative write)
       * nothing can be read through one. */
      if (!g.fixed && !copies.empty()) {
         for (uint32_t id : g.nodes) {
            AluNode &n = cl.nodes[id];
            bool changed = false;
            const unsigned nsrc = alu_op_info(n.bc.op).num_src;
            for (unsigned s = 0; s < nsrc; s++) {
               Operand &o = n.src[s];
               if (o.value.kind != ValueKind::Gpr || o.rel)
                  continue;
               const Operand *c = copies.find(key(o.value.sel, o.value.chan));
               if (!c)
                  continue;
               if (!changed)
                  before = n.src;
               if (fold_modifiers(n, s, o, *c))
                  changed = true;
            }
            /* Constants and literals have their own limits: the source group
             * must still fit, or the node keeps reading the copy. */
            if (changed && !group_fits(chip, cl, g))
               n.src = before;
         }
      }
      /* Writes of this group end copies into or out of what they write;
       * a relative write may hit anything.  Once no copy is left there
       * is nothing for the rest to end. */
      for (size_t j = 0; j < g.nodes.size() && !copies.empty(); j++) {
         const AluNode &n = cl.nodes[g.nodes[j]];
         if (!n.writes_gpr() && !(alu_op_info(n.bc.op).flags & AF_MOVA))
            continue;
         if (n.bc.dst.rel || (alu_op_info(n.bc.op).flags & AF_MOVA)) {
            copies.clear();
            continue;
         }
         const unsigned k = key(n.bc.dst.gpr, n.bc.dst.chan);
         copies.erase(k);
         copies.erase_copies_of(k);
      }
      for (uint32_t id : g.nodes) {
         const AluNode &n = cl.nodes[id];
         if (!is_plain_copy(n))
            continue;
         const Value &v = n.src[0].value;
         bool src_written = false;
         if (v.kind == ValueKind::Gpr)
            for (uint32_t other : g.nodes) {
               const AluNode &w = cl.nodes[other];
               if (w.writes_gpr() && w.bc.dst.gpr == v.sel && w.bc.dst.chan == v.chan)
                  src_written = true;
            }
         /* A copy of a register onto itself or of a just-overwritten
          * source says nothing about later values. */
         if (src_written || (v.kind == ValueKind::Gpr && v.sel == n.bc.dst.gpr &&
                             v.chan == n.bc.dst.chan))
            continue;
         copies.set(key(n.bc.dst.gpr, n.bc.dst.chan), n.src[0]);
      }
   }
}

} // namespace

bool copy_propagation(Shader &sh, Diagnostics &diags)
{
   (void)diags;
   for (CfNode &c : sh.cf)
      c.alu.built.clear(); /* post_scheduler's build no longer matches */
   /* CF instructions control may reach from elsewhere: lanes arriving
    * there did not run the clause before them. */
   /* Kept with the thread: an allocation per run otherwise, and for the
    * copies also the fill of their 1024-entry index (the pass runs twice
    * per shader).  Each clause clears the copies before it starts, so
    * what the last run left in them does not matter. */
   struct Tables {
      std::vector<uint8_t> target;
      CopyMap copies;
   };
   Tables &tables = thread_kept<Tables>();
   std::vector<uint8_t> &target = tables.target;
   target.assign(sh.cf.size() + 1, 0);
   for (const CfNode &n : sh.cf)
      if (cf_op_info(n.cf.op).enc != CfEncoding::Alu &&
          cf_op_info(n.cf.op).enc != CfEncoding::Export &&
          cf_op_info(n.cf.op).enc != CfEncoding::Mem && !(cf_op_info(n.cf.op).flags & CF_FETCH) &&
          n.cf.target < target.size())
         target[n.cf.target] = 1;
   CopyMap &copies = tables.copies; /* clearing it touches only its copies */
   for (size_t i = 0; i < sh.cf.size(); i++) {
      if (!sh.cf[i].is_alu)
         continue;
      copies.clear();
      propagate_clause(sh.chip, sh.cf[i].alu, copies);
      /* Fetch clauses and exports right after the clause still see the
       * clause's copies (exports write no registers) -- unless the clause
       * changes the active lanes on its way out (ALU_POP_AFTER ends a
       * branch whose other side never ran these copies, ALU_BREAK,
       * ...), or other paths join in between. */
      if (sh.cf[i].cf.op != CfOp::ALU)
         continue;
      for (size_t j = i + 1; j < sh.cf.size() && !copies.empty() && !target[j]; j++) {
         CfInstr &next = sh.cf[j].cf;
         if (cf_op_info(next.op).flags & CF_FETCH)
            propagate_into_fetches(next, copies);
         else if (cf_op_info(next.op).enc == CfEncoding::Export)
            propagate_into_export(next, copies);
         else
            break;
      }
   }
   return true;
}

} // namespace sbcc::r600::sb
