/*
 * liveness: which GPR channels may still be read after each CF instruction.
 *
 * The CF graph is over-approximated on purpose (extra edges only make more
 * registers live, which is safe): every instruction falls through to the
 * next unless it ends the program, every instruction with a target may also
 * continue at the target and the one after it, and loops add edges from
 * LOOP_END back into the body and from BREAK/CONTINUE to both sides of their
 * LOOP_END.  Per lane, the hardware's masked execution follows one path of
 * this graph, so ordinary backward liveness holds.  Predicated and relative
 * writes never kill; a relative read makes everything live.
 */
#include "common/thread_memory.h"
#include "r600/sb/sb_local_passes.h"

namespace sbcc::r600::sb {

const LiveSet &alu_clause_temps()
{
   static const LiveSet temps = [] {
      LiveSet m;
      for (unsigned k = 123 * 4; k < 128 * 4; k++)
         m.set(k);
      return m;
   }();
   return temps;
}

namespace {

/* Separate setters rather than one taking the value: the sinks below
 * call them for every operand, and these stay small enough to inline. */
inline void set_reg(LiveSet &s, unsigned gpr, unsigned chan)
{
   if (gpr < 128)
      s[gpr * 4 + (chan & 3)] = true; /* in range: no checked set() */
}

inline void reset_reg(LiveSet &s, unsigned gpr, unsigned chan)
{
   if (gpr < 128)
      s[gpr * 4 + (chan & 3)] = false;
}

/* The walks below run backwards through a CF instruction and tell a
 * sink what they see: a write kills its channel (write_all a set of
 * them), a read makes it live, a relative read makes everything live.
 * Two sinks: the live set itself (one sweep, no loops), and a Transfer. */
struct DirectLive {
   LiveSet &live;
   void write(unsigned gpr, unsigned chan) { reset_reg(live, gpr, chan); }
   void read(unsigned gpr, unsigned chan) { set_reg(live, gpr, chan); }
   void write_all(const LiveSet &m) { live &= ~m; }
   void read_all() { live.set(); }
};

/* A CF instruction's transfer (LiveTransfer) as a sink: worked out once
 * per instruction when there are loops, so the fixpoint's iterations are
 * bitset operations instead of walks over the clauses.  A write (seen
 * backwards) also takes its channel out of gen: nothing before it reads
 * it. */
struct Transfer {
   LiveTransfer &t;
   void write(unsigned gpr, unsigned chan)
   {
      set_reg(t.kill, gpr, chan);
      reset_reg(t.gen, gpr, chan);
   }
   void read(unsigned gpr, unsigned chan) { set_reg(t.gen, gpr, chan); }
   void write_all(const LiveSet &m)
   {
      t.kill |= m;
      t.gen &= ~m;
   }
   void read_all() { t.gen.set(); }
};

/* The group walk of sb_local_passes.h tells its steps with the node;
 * both sinks above take every node. */
template <typename Sink> struct EveryNode {
   Sink &t;
   void kill(const AluNode &, unsigned gpr, unsigned chan) { t.write(gpr, chan); }
   void gen(const AluNode &, unsigned gpr, unsigned chan) { t.read(gpr, chan); }
   void gen_all(const AluNode &) { t.read_all(); }
};

template <typename Sink> void alu_transfer(const CfNode &c, Sink &t)
{
   t.write_all(alu_clause_temps());
   const AluClause &cl = c.alu;
   EveryNode<Sink> every{t};
   for (size_t gi = cl.groups.size(); gi-- > 0;)
      alu_group_liveness(cl, cl.groups[gi], every);
}

template <typename Sink> void fetch_transfer(const CfInstr &cf, Sink &t)
{
   for (size_t i = cf.fetches.size(); i-- > 0;) {
      const FetchRegs r = fetch_regs(cf.fetches[i]);
      if (!r.dst_rel)
         for (unsigned c = 0; c < 4; c++)
            if (r.writes & (1u << c))
               t.write(r.dst_gpr, c);
      if (r.src_rel)
         t.read_all();
      else
         for (unsigned c = 0; c < 4; c++)
            t.read(r.src_gpr, c);
   }
}

/* Any CF instruction. */
template <typename Sink> void cf_transfer(const CfNode &c, Sink &t)
{
   const CfEncoding enc = cf_op_info(c.cf.op).enc;
   if (c.is_alu) {
      alu_transfer(c, t);
   } else if (cf_op_info(c.cf.op).flags & CF_FETCH) {
      fetch_transfer(c.cf, t);
   } else if (enc == CfEncoding::Export || enc == CfEncoding::Mem) {
      if (c.cf.exp.rw_rel)
         t.read_all();
      for (unsigned k = 0; k < c.cf.exp.burst_count; k++)
         for (unsigned ch = 0; ch < 4; ch++)
            t.read(c.cf.exp.gpr + k, ch);
      for (unsigned ch = 0; ch < 4; ch++)
         t.read(c.cf.exp.index_gpr, ch);
   }
}

} // namespace

namespace {

/* A live-out and the live-in it gives, per CF, from an earlier walk. */
struct KnownTransfer {
   const std::vector<LiveSet> &out, &in;
};

/* The transfers of the fixpoint over loops, kept by the caller: `tr`
 * ends holding every CF's; given `redo` (one flag per CF) and as many
 * transfers as CFs, only those of the flagged CFs are worked out again. */
struct KeptTransfers {
   std::vector<LiveTransfer> &tr;
   const std::vector<uint8_t> *redo;
};

bool liveness_impl(const Shader &sh, std::vector<LiveSet> &live_out,
                   std::vector<LiveSet> *live_in_out, const KnownTransfer *known,
                   const ClauseSweep *sweep = nullptr, bool *swept = nullptr,
                   const KeptTransfers *kept_tr = nullptr)
{
   const size_t n = sh.cf.size();
   live_out.assign(n, LiveSet());
   /* At most seven successors (next, target and target + 1, a loop's
    * start and body, a break's end and the CF after it): a fixed array
    * per CF instead of a vector each. */
   struct Succ {
      size_t to[7];
      unsigned n = 0;
   };
   /* The graph's lists are kept with the thread: liveness runs up to
    * twice per shader (dce_cleanup), and they are only scratch. */
   struct Tables {
      std::vector<Succ> succ;
      std::vector<size_t> loops, loop_of, loop_end;
   };
   Tables &kept = thread_kept<Tables>();
   std::vector<Succ> &succ = kept.succ;
   std::vector<size_t> &loops = kept.loops, &loop_of = kept.loop_of, &loop_end = kept.loop_end;
   succ.assign(n, Succ{});
   loops.clear();
   loop_of.assign(n, SIZE_MAX);
   loop_end.assign(n, SIZE_MAX);
   for (size_t i = 0; i < n; i++) {
      const CfInstr &cf = sh.cf[i].cf;
      if (cf.op == CfOp::LOOP_START || cf.op == CfOp::LOOP_START_DX10 ||
          cf.op == CfOp::LOOP_START_NO_AL)
         loops.push_back(i);
      loop_of[i] = loops.empty() ? SIZE_MAX : loops.back();
      if (cf.op == CfOp::LOOP_END) {
         if (loops.empty())
            return false;
         loop_end[loops.back()] = i;
         loops.pop_back();
      }
   }
   if (!loops.empty())
      return false;
   bool backward = false; /* some edge goes back: a loop, so iterate */
   auto add = [&](size_t from, size_t to) {
      if (to < n && succ[from].n < 7) {
         succ[from].to[succ[from].n++] = to;
         backward |= to <= from;
      }
   };
   for (size_t i = 0; i < n; i++) {
      const CfInstr &cf = sh.cf[i].cf;
      const uint32_t flags = cf_op_info(cf.op).flags;
      if ((flags & CF_CALL) && cf.op != CfOp::CALL_FS)
         return false;
      if (cf.op == CfOp::JUMPTABLE)
         return false;
      if (!cf.end_of_program && cf.op != CfOp::CF_END)
         add(i, i + 1);
      if (flags & CF_TARGET) {
         add(i, cf.target);
         add(i, cf.target + 1);
      }
      if (cf.op == CfOp::LOOP_END) {
         /* Back into the body of the loop this ends. */
         for (size_t s = i; s-- > 0;)
            if (loop_end[s] == i) {
               add(i, s);
               add(i, s + 1);
               break;
            }
      }
      if (cf.op == CfOp::LOOP_BREAK || cf.op == CfOp::LOOP_CONTINUE) {
         if (loop_of[i] == SIZE_MAX)
            return false;
         const size_t e = loop_end[loop_of[i]];
         add(i, e);
         add(i, e + 1);
      }
   }
   std::vector<LiveSet> live_in(n);
   if (!backward) {
      /* No back edges: one backward sweep sees every successor final. */
      for (size_t i = n; i-- > 0;) {
         LiveSet &out = live_in[i];
         for (unsigned k = 0; k < succ[i].n; k++)
            out |= live_in[succ[i].to[k]];
         live_out[i] = out;
         if (known && out == known->out[i]) {
            out = known->in[i];
            continue;
         }
         if (sweep && sh.cf[i].is_alu) {
            sweep->clause(sweep->ctx, i, out);
            continue;
         }
         DirectLive d{out};
         cf_transfer(sh.cf[i], d);
      }
      if (swept)
         *swept = sweep != nullptr;
      if (live_in_out)
         *live_in_out = std::move(live_in);
      return true;
   }
   std::vector<LiveTransfer> own;
   std::vector<LiveTransfer> &tr = kept_tr ? kept_tr->tr : own;
   const bool reuse = kept_tr && kept_tr->redo && tr.size() == n;
   if (!reuse)
      tr.assign(n, LiveTransfer{});
   for (size_t i = 0; i < n; i++) {
      if (reuse) {
         if (!(*kept_tr->redo)[i])
            continue;
         tr[i] = LiveTransfer{};
      }
      Transfer t{tr[i]};
      cf_transfer(sh.cf[i], t);
   }
   bool changed = true;
   while (changed) {
      changed = false;
      for (size_t i = n; i-- > 0;) {
         LiveSet out;
         for (unsigned k = 0; k < succ[i].n; k++)
            out |= live_in[succ[i].to[k]];
         live_out[i] = out;
         out = (out & ~tr[i].kill) | tr[i].gen;
         if (out != live_in[i]) {
            live_in[i] = out;
            changed = true;
         }
      }
   }
   if (live_in_out)
      *live_in_out = std::move(live_in);
   return true;
}

} // namespace

bool liveness(const Shader &sh, std::vector<LiveSet> &live_out, std::vector<LiveSet> *live_in_out)
{
   return liveness_impl(sh, live_out, live_in_out, nullptr);
}

bool liveness_from(const Shader &sh, const std::vector<LiveSet> &before_out,
                   const std::vector<LiveSet> &before_in, std::vector<LiveTransfer> &transfers,
                   const std::vector<uint8_t> &changed, std::vector<LiveSet> &live_out,
                   std::vector<LiveSet> *live_in)
{
   const KnownTransfer known{before_out, before_in};
   const KeptTransfers kept{transfers, &changed};
   return liveness_impl(sh, live_out, live_in, &known, nullptr, nullptr, &kept);
}

bool liveness_sweep(const Shader &sh, std::vector<LiveSet> &live_out,
                    std::vector<LiveSet> &live_in, const ClauseSweep &sweep, bool &swept,
                    std::vector<LiveTransfer> &transfers)
{
   swept = false;
   const KeptTransfers kept{transfers, nullptr};
   return liveness_impl(sh, live_out, &live_in, nullptr, &sweep, &swept, &kept);
}

bool liveness_or_all(const Shader &sh, std::vector<LiveSet> &live_out,
                     std::vector<LiveSet> *live_in)
{
   if (liveness(sh, live_out, live_in))
      return true;
   live_out.assign(sh.cf.size(), LiveSet());
   for (LiveSet &l : live_out)
      l.set();
   return false;
}

std::vector<LiveSet> live_out_or_all(const Shader &sh)
{
   std::vector<LiveSet> live_out;
   liveness_or_all(sh, live_out);
   return live_out;
}

} // namespace sbcc::r600::sb
