/*
 * bc_builder: sb IR -> bytecode Program.
 *
 * Fixed groups are emitted as decoded.  Other groups are rebuilt from their
 * nodes: literal slots, PV/PS forwarding and bank swizzles are derived again
 * from the values, so they are right for whatever layout the scheduler
 * chose.  The read-port model here is the one the hardware documents and
 * the validator checks: per cycle one GPR per channel, constant-file pairs
 * shared by the group, and the trans slot spending its first cycles on its
 * constant operands.
 */
#include <algorithm>
#include <array>
#include <cstring>

#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

/* Read cycle of operand i under each vector / trans bank swizzle. */
constexpr uint8_t kVecCycle[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0},
                                     {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
constexpr uint8_t kTransCycle[4][3] = {{2, 1, 0}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}};

/* The search below is run for every candidate the post_scheduler tries,
 * so everything that does not depend on the bank swizzle is worked out
 * once per group: constant-file pairs and the trans slot's constant count
 * are the same whichever swizzles are chosen (a group failing them fails
 * under all of them), and what is left per (instruction, swizzle) is a
 * short list of GPR read-port claims, made when the search first reaches
 * that pair (most groups take swizzle 0 everywhere, so most pairs are
 * never looked at).  The depth-first order over instructions and
 * swizzles is the one the hardware tables list, so the first legal
 * assignment found is always the same. */
constexpr unsigned kMaxSearch = 16; /* instructions: a group has five slots */

using Claim = SwizzleClaim;
using Choice = SwizzleChoice;
constexpr uint8_t kBad = kSwizzleBad;

using Operands = SwizzleOperands;

/* Reads through a constant port (this runs for every operand of every
 * candidate; src_kind is a table lookup). */
bool is_const_port(ChipClass chip, unsigned sel)
{
   const SrcKind k = src_kind(chip, sel);
   return k == SrcKind::KCache || k == SrcKind::ConstFile;
}

bool take_cfile(ChipClass chip, int (&cfile)[4][2], unsigned sel, unsigned chan)
{
   /* R700 and later pair channels xy / zw on two constant ports. */
   const bool r700 = chip != ChipClass::R600;
   const int n = r700 ? 2 : 4;
   const int elem = r700 ? int(chan / 2) : int(chan);
   for (int r = 0; r < n; r++) {
      if (cfile[r][0] == -1) {
         cfile[r][0] = int(sel);
         cfile[r][1] = elem;
         return true;
      }
      if (cfile[r][0] == int(sel) && cfile[r][1] == elem)
         return true;
   }
   return false;
}

/* One operand's part of the swizzle-independent rules (its selector is
 * final): what its claims need, and its constant-file pair joining
 * `cfile`.  False when the pairs need more ports than there are, which
 * depends only on how many distinct pairs the group has, not on the order
 * they are met in.  Inline: try_add runs it per candidate operand, as it
 * converts the operand. */
[[gnu::always_inline]] inline bool analyze_src(ChipClass chip, unsigned s, const AluSrc &src,
                                           int (&cfile)[4][2], Operands &op, unsigned &consts)
{
   const unsigned sel = src.sel;
   if (sel <= kSrcGPRLast) {
      op.gpr[s] = op.reg[s] = true;
      return true;
   }
   op.gpr[s] = false;
   op.reg[s] = sel == kSrc_PV || sel == kSrc_PS;
   /* Inline constants, the literal and PV/PS (the selectors from kSrc_0
    * up) need no constant port: no kind lookup for them. */
   if (sel >= kSrc_0 && sel <= kSrc_PS) {
      consts += sel <= kSrc_LITERAL;
      return true;
   }
   const bool cport = is_const_port(chip, sel);
   if (cport)
      consts++;
   return !cport || take_cfile(chip, cfile, sel, src.chan);
}

/* The rest of the rules once every operand is analyzed: the trans slot
 * reads at most two constants. */
[[gnu::always_inline]] inline bool analyze_end(unsigned nsrc, unsigned consts, bool trans,
                                           Operands &op)
{
   if (trans && consts > 2)
      return false;
   op.nsrc = uint8_t(nsrc);
   op.consts = uint8_t(consts);
   op.trans = trans;
   return true;
}

/* The swizzle-independent rules of one instruction (its constant-file
 * pairs join `cfile`), and what its claims need.  Inline: assign_bank_swizzles
 * runs it for every group bc_finalize makes. */
[[gnu::always_inline]] inline bool analyze_instr(ChipClass chip, const AluInstr &in,
                                             int (&cfile)[4][2], Operands &op)
{
   /* Straight into `op`: on false the caller drops it. */
   const unsigned nsrc = std::min(unsigned(alu_op_info(in.op).num_src), 3u);
   unsigned consts = 0;
   for (unsigned s = 0; s < 3; s++) {
      op.gpr[s] = false;
      op.reg[s] = false;
   }
   for (unsigned s = 0; s < nsrc; s++)
      if (!analyze_src(chip, s, in.src[s], cfile, op, consts))
         return false;
   return analyze_end(nsrc, consts, in.slot == kSlotT, op);
}

/* The claims of an instruction under swizzle bs. */
void make_choice(const AluInstr &in, const Operands &op, unsigned bs, Choice &ch)
{
   ch.n = 0;
   for (unsigned s = 0; s < op.nsrc; s++) {
      const AluSrc &src = in.src[s];
      const unsigned cycle = op.trans ? kTransCycle[bs][s] : kVecCycle[bs][s];
      if (op.trans && op.reg[s] && cycle < op.consts) {
         ch.n = kBad;
         return;
      }
      if (!op.gpr[s])
         continue;
      if (!op.trans && s == 1 && src.sel == in.src[0].sel && src.chan == in.src[0].chan)
         continue;
      ch.c[ch.n++] = Claim{uint8_t(cycle * 4 + (src.chan & 3)), uint8_t(src.sel)};
   }
}

/* Adds a choice's claims to `q` (a copy of the ports so far); false on a
 * conflict. */
bool claim(const Choice &ch, int16_t (&q)[12])
{
   for (unsigned k = 0; k < ch.n; k++) {
      int16_t &port = q[ch.c[k].port];
      if (port != -1 && port != ch.c[k].sel)
         return false;
      port = ch.c[k].sel;
   }
   return true;
}

/* Every GPR operand claims a port of its channel (one per cycle, three)
 * under any swizzle, and a port holds one register: a group reading more
 * than three registers on one channel fits under none.  Groups that fail
 * mostly fail so, and this spares them the full search. */
bool channels_fit(const AluInstr *ins, const Operands *ops, size_t n)
{
   uint16_t seen[4][3];
   unsigned nseen[4] = {};
   for (size_t i = 0; i < n; i++)
      for (unsigned s = 0; s < ops[i].nsrc; s++) {
         if (!ops[i].gpr[s])
            continue;
         const unsigned c = ins[i].src[s].chan & 3;
         const uint16_t sel = ins[i].src[s].sel;
         if (std::find(seen[c], seen[c] + nseen[c], sel) != seen[c] + nseen[c])
            continue;
         if (nseen[c] == 3)
            return false;
         seen[c][nseen[c]++] = sel;
      }
   return true;
}

class SwizzleSearch {
 public:
   SwizzleSearch(ChipClass chip, std::span<AluInstr> g) : chip_(chip), g_(g) {}

   bool run()
   {
      if (g_.size() > kMaxSearch)
         return false;
      if (!prepare())
         return false;
      int16_t ports[12];
      std::fill(ports, ports + 12, int16_t(-1));
      /* Swizzle 0 everywhere, the search's first path, which most groups
       * take: tried in one loop, without the recursion and its copies of
       * the ports. */
      bool zero = true;
      for (size_t i = 0; i < g_.size() && zero; i++) {
         const Choice &ch = choice(i, 0);
         zero = ch.n != kBad && claim(ch, ports);
      }
      if (zero) {
         for (AluInstr &in : g_)
            in.bank_swizzle = 0;
         return true;
      }
      /* Typically a DOT4 that no swizzle serves: failed at once, not
       * after trying every assignment. */
      if (!channels_fit(g_.data(), ops_, g_.size()))
         return false;
      std::fill(ports, ports + 12, int16_t(-1));
      if (!place(0, ports))
         return false;
      for (size_t i = 0; i < g_.size(); i++)
         g_[i].bank_swizzle = chosen_[i];
      return true;
   }

 private:
   /* The swizzle-independent rules, and what the claims need. */
   bool prepare()
   {
      int cfile[4][2];
      for (auto &c : cfile)
         c[0] = c[1] = -1;
      for (size_t i = 0; i < g_.size(); i++) {
         if (!analyze_instr(chip_, g_[i], cfile, ops_[i]))
            return false;
         nchoice_[i] = ops_[i].trans ? 4 : 6;
         made_[i] = 0;
      }
      return true;
   }

   /* The claims of instruction i under swizzle bs (made once). */
   const Choice &choice(size_t i, unsigned bs)
   {
      Choice &ch = choice_[i][bs];
      if (!(made_[i] & (1u << bs))) {
         made_[i] |= uint8_t(1u << bs);
         make_choice(g_[i], ops_[i], bs, ch);
      }
      return ch;
   }

   bool place(size_t i, const int16_t (&p)[12])
   {
      if (i == g_.size())
         return true;
      for (unsigned bs = 0; bs < nchoice_[i]; bs++) {
         const Choice &ch = choice(i, bs);
         if (ch.n == kBad)
            continue;
         int16_t q[12];
         std::copy(p, p + 12, q);
         if (!claim(ch, q))
            continue;
         chosen_[i] = uint8_t(bs);
         if (place(i + 1, q))
            return true;
      }
      return false;
   }

   ChipClass chip_;
   std::span<AluInstr> g_;
   Operands ops_[kMaxSearch];
   uint8_t made_[kMaxSearch]; /* bit bs: choice_[i][bs] is made */
   Choice choice_[kMaxSearch][6];
   unsigned nchoice_[kMaxSearch];
   uint8_t chosen_[kMaxSearch];
};

/* One instruction alone in its group (most of what bc_finalize asks
 * about, before the post_scheduler packs): the search reduces to the
 * first swizzle whose claims are legal on free ports. */
bool assign_single_swizzle(ChipClass chip, AluInstr &in)
{
   int cfile[4][2];
   for (auto &c : cfile)
      c[0] = c[1] = -1;
   Operands op;
   if (!analyze_instr(chip, in, cfile, op))
      return false;
   /* A vector swizzle reads each operand in its own cycle, so the claims
    * never meet on a port: swizzle 0 is always the first legal one. */
   if (!op.trans) {
      in.bank_swizzle = 0;
      return true;
   }
   for (unsigned bs = 0; bs < 4; bs++) {
      Choice ch;
      make_choice(in, op, bs, ch);
      if (ch.n == kBad)
         continue;
      int16_t ports[12];
      std::fill(ports, ports + 12, int16_t(-1));
      if (!claim(ch, ports))
         continue;
      in.bank_swizzle = uint8_t(bs);
      return true;
   }
   return false;
}

} // namespace

/* Flattened: bc_finalize asks for every group it makes, and the claims
 * of each (instruction, swizzle) looked at (make_choice) were a call
 * each.  The post_scheduler's searches keep the call: there inlining it
 * cost more than it saved. */
[[gnu::flatten]] bool assign_bank_swizzles(ChipClass chip, std::span<AluInstr> group)
{
   if (group.size() == 1)
      return assign_single_swizzle(chip, group[0]);
   return SwizzleSearch(chip, group).run();
}

bool swizzle_kept_with_gpr_reads(std::span<const AluInstr> group)
{
   /* One vector-slot instruction: analyze_instr can only fail it on the
    * constant-file pairs, which GPR reads in place of constants only
    * lessen, and assign_single_swizzle then always finds swizzle 0.  The
    * trans slot's rules (constants spend its first cycles) and the ports
    * siblings share are not monotone this way: those are searched. */
   return group.size() == 1 && group[0].slot != kSlotT;
}

namespace {

/* The registers `prev` writes that a read can take from PV/PS, in
 * instruction order (the first match wins), into `out` (room for
 * prev->instrs.size()). */
unsigned pv_writers(const AluGroup *prev, PvWriter *out)
{
   unsigned n = 0;
   if (!prev)
      return 0;
   for (const AluInstr &p : prev->instrs) {
      const bool writes = p.dst.write || alu_is_op3(p.op);
      if (writes && !p.dst.rel && !(alu_op_info(p.op).flags & AF_MOVA))
         out[n++] = PvWriter{p.dst.gpr, p.dst.chan, uint16_t(p.slot == kSlotT ? kSrc_PS : kSrc_PV),
                             uint8_t(p.slot == kSlotT ? 0 : p.slot)};
   }
   return n;
}

/* try_add's analysis (analyze_instr) of the operands convert_node makes,
 * done as it makes each one instead of in a second walk over them. */
struct ConvertAnalysis {
   ChipClass chip;
   int (&cfile)[4][2];
   Operands &op;
};

/* A node in hardware form in `slot`: operands become selectors, a literal
 * the index of its bits in `lits` (the group's literals in order of first
 * use, at most four), a register `prev` writes PV/PS (`forwarded` set).
 * False when a fifth literal is needed or a PV/PS-only operand has no
 * producer in `prev`, and (kAnalyze) as soon as an operand breaks
 * analyze_instr's rules; `an` then says nothing.  Inline, as
 * analyze_instr: try_add runs it per candidate instruction. */
template <bool kAnalyze = false>
[[gnu::always_inline]] inline bool convert_node(const AluNode &n, uint8_t slot,
                                                const AluGroup *prev, const GroupNode *prev_nodes,
                                                const PvWriter *writers, unsigned nwriters,
                                                uint32_t (&lits)[4], unsigned &nlit,
                                                bool &forwarded, AluInstr &in,
                                                ConvertAnalysis *an = nullptr)
{
   in = n.bc;
   in.slot = slot;
   const unsigned nsrc = alu_op_info(in.op).num_src;
   unsigned consts = 0;
   if constexpr (kAnalyze)
      for (unsigned s = 0; s < 3; s++)
         an->op.gpr[s] = an->op.reg[s] = false;
   /* gvn may have turned the node into a MOV: operands it no longer
    * has must not reach the encoder. */
   for (unsigned s = nsrc; s < 3; s++)
      in.src[s] = AluSrc{};
   for (unsigned s = 0; s < nsrc; s++) {
      const Operand &o = n.src[s];
      AluSrc &src = in.src[s];
      src.neg = o.neg;
      src.abs = o.abs;
      src.rel = o.rel;
      src.sel = o.value.sel;
      src.chan = o.value.chan;
      switch (o.value.kind) {
      case ValueKind::Literal: {
         unsigned li = 0;
         while (li < nlit && lits[li] != o.value.bits)
            li++;
         if (li == nlit) {
            if (nlit == 4)
               return false;
            lits[nlit++] = o.value.bits;
         }
         src.sel = kSrc_LITERAL;
         src.chan = uint8_t(li);
         break;
      }
      case ValueKind::Gpr:
         if (prev && !o.rel) {
            for (unsigned w = 0; w < nwriters; w++) {
               if (writers[w].gpr == o.value.sel && writers[w].chan == o.value.chan) {
                  src.sel = writers[w].sel;
                  src.chan = writers[w].pv_chan;
                  forwarded = true;
                  break;
               }
            }
         }
         break;
      case ValueKind::Forward: {
         /* A value the scheduler left in PV/PS only: its producer must
          * sit in the group just before. */
         if (!prev || !prev_nodes || o.rel)
            return false;
         auto it = std::find(prev_nodes->nodes.begin(), prev_nodes->nodes.end(),
                             uint32_t(o.value.node));
         if (it == prev_nodes->nodes.end() || prev_nodes->fixed)
            return false;
         const uint8_t ps = prev_nodes->slots[size_t(it - prev_nodes->nodes.begin())];
         src.sel = ps == kSlotT ? kSrc_PS : kSrc_PV;
         src.chan = ps == kSlotT ? 0 : ps;
         break;
      }
      default: break;
      }
      if constexpr (kAnalyze)
         if (!analyze_src(an->chip, s, src, an->cfile, an->op, consts))
            return false;
   }
   if constexpr (kAnalyze)
      return analyze_end(std::min(nsrc, 3u), consts, slot == kSlotT, an->op);
   return true;
}

/* forwarded: set when an operand was turned into PV/PS, the only thing
 * a retry without the previous group can change. */
bool materialize(ChipClass chip, const AluClause &cl, std::span<const uint32_t> nodes,
                 std::span<const uint8_t> slots, const AluGroup *prev,
                 const GroupNode *prev_nodes, bool &forwarded, AluGroup &g)
{
   /* Called for every candidate the post_scheduler tries: the slot order
    * is sorted on the stack, not in a heap vector. */
   std::pair<uint8_t, uint32_t> small[kMaxSearch];
   std::vector<std::pair<uint8_t, uint32_t>> big;
   std::pair<uint8_t, uint32_t> *order = small;
   if (nodes.size() > kMaxSearch) {
      big.resize(nodes.size());
      order = big.data();
   }
   for (size_t i = 0; i < nodes.size(); i++)
      order[i] = {slots[i], nodes[i]};
   std::sort(order, order + nodes.size());
   g.instrs.clear();
   g.literals.clear();
   g.literal_pad = 0;
   /* One allocation for the group instead of one per doubling. */
   g.instrs.reserve(nodes.size());
   uint32_t lits[4];
   unsigned nlit = 0;
   PvWriter wsmall[kMaxSearch];
   std::vector<PvWriter> wbig;
   PvWriter *writers = wsmall;
   if (prev && prev->instrs.size() > kMaxSearch) {
      wbig.resize(prev->instrs.size());
      writers = wbig.data();
   }
   const unsigned nwriters = pv_writers(prev, writers);
   for (size_t oi = 0; oi < nodes.size(); oi++) {
      const uint8_t slot = order[oi].first;
      const uint32_t id = order[oi].second;
      AluInstr in;
      if (!convert_node(cl.nodes[id], slot, prev, prev_nodes, writers, nwriters, lits, nlit,
                        forwarded, in))
         return false;
      g.instrs.push_back(in);
   }
   g.literals.assign(lits, lits + nlit);
   return assign_bank_swizzles(chip, g.instrs);
}

} // namespace

bool materialize_group_into(ChipClass chip, const AluClause &cl, std::span<const uint32_t> nodes,
                            std::span<const uint8_t> slots, const AluGroup *prev,
                            const GroupNode *prev_nodes, AluGroup &out)
{
   /* PV/PS usually frees read ports, but in the trans slot it competes with
    * constants for the early cycles: without forwarding the group may fit
    * where it did not with it. */
   bool forwarded = false;
   if (materialize(chip, cl, nodes, slots, prev, prev_nodes, forwarded, out))
      return true;
   /* Without a GPR read turned into PV/PS the retry would build the same
    * group (or fail on the same literal or PV-only operand). */
   if (prev && forwarded)
      return materialize(chip, cl, nodes, slots, nullptr, nullptr, forwarded, out);
   return false;
}

std::optional<AluGroup> materialize_group(ChipClass chip, const AluClause &cl,
                                          std::span<const uint32_t> nodes,
                                          std::span<const uint8_t> slots,
                                          const AluGroup *prev, const GroupNode *prev_nodes)
{
   AluGroup g;
   if (!materialize_group_into(chip, cl, nodes, slots, prev, prev_nodes, g))
      return std::nullopt;
   return g;
}

void GroupFit::start(ChipClass chip, const AluGroup *prev, const GroupNode *prev_nodes)
{
   chip_ = chip;
   prev_ = prev;
   prev_nodes_ = prev_nodes;
   /* A previous group too big to tabulate (none is: five slots) leaves
    * every candidate to materialize_group_into itself. */
   whole_ = prev && prev->instrs.size() > kMax;
   nwriters_ = whole_ ? 0 : pv_writers(prev, writers_);
   n_ = 0;
   nlit_ = 0;
   for (auto &c : cfile_)
      c[0] = c[1] = -1;
   forwarded_ = false;
   fwd_fits_ = true;
   all_zero_ = true;
   std::fill(ports_, ports_ + 12, int16_t(-1));
}

/* Made when the search first reaches it, as in SwizzleSearch (the first
 * swizzle usually fits).  Inline, as claim_in_place: the searches call
 * both once per (instruction, swizzle) they look at. */
inline const SwizzleChoice &GroupFit::choice(unsigned i, unsigned bs)
{
   Choice &ch = choice_[i][bs];
   if (!(made_[i] & (1u << bs))) {
      made_[i] |= uint8_t(1u << bs);
      make_choice(ins_[i], ops_[i], bs, ch);
   }
   return ch;
}

/* Claims a choice in place: false on a conflict.  The ports it took go
 * on from set[nset] (three at most), for the caller to free again. */
inline bool claim_in_place(const Choice &ch, int16_t (&ports)[12], uint8_t *set, unsigned &nset)
{
   for (unsigned k = 0; k < ch.n; k++) {
      int16_t &port = ports[ch.c[k].port];
      if (port == -1) {
         port = ch.c[k].sel;
         set[nset++] = ch.c[k].port;
      } else if (port != ch.c[k].sel) {
         return false;
      }
   }
   return true;
}

/* Whether instructions [i, end) can be added around the claims in
 * `ports`: first_fit in index order (`ports` is as it came when false is
 * returned).  The swizzles taken are left in chosen_[i, end), and whether
 * one is other than 0 in extended_nonzero_: finish() takes them as they
 * are where it can (see there) and searches again elsewhere.  Inline in
 * try_add, its only caller, which runs it for almost every try (and for
 * the whole group, i = 0, when the candidate does not fit around the
 * held assignment). */
[[gnu::always_inline]] inline bool GroupFit::extend(unsigned i, unsigned end, int16_t (&ports)[12])
{
   static constexpr std::array<uint8_t, kMax> kInOrder = [] {
      std::array<uint8_t, kMax> a{};
      for (unsigned k = 0; k < kMax; k++)
         a[k] = uint8_t(k);
      return a;
   }();
   if (end == i + 1) {
      /* One instruction (most candidates): its first choice that fits,
       * without the search's bookkeeping. */
      for (unsigned bs = 0; bs < nchoice_[i]; bs++) {
         const Choice &ch = choice(i, bs);
         uint8_t set[3];
         unsigned nset = 0;
         if (ch.n == kBad)
            continue;
         if (claim_in_place(ch, ports, set, nset)) {
            chosen_[i] = uint8_t(bs);
            extended_nonzero_ |= bs != 0;
            return true;
         }
         while (nset)
            ports[set[--nset]] = -1;
      }
      return false;
   }
   /* Swizzle 0 for every instruction, the search's first path, which
    * most units (reductions) take: claimed in one loop, without the
    * search's bookkeeping, and let go again when it fails. */
   uint8_t zero_set[3 * kMax];
   unsigned nzero = 0;
   bool zero = true;
   for (unsigned k = i; k < end && zero; k++) {
      const Choice &ch = choice(k, 0);
      zero = ch.n != kBad && claim_in_place(ch, ports, zero_set, nzero);
   }
   if (zero) {
      std::fill(chosen_ + i, chosen_ + end, uint8_t(0));
      return true;
   }
   while (nzero)
      ports[zero_set[--nzero]] = -1;
   std::fill(owners_, owners_ + 12, uint16_t(0)); /* the claims held stay put */
   uint32_t blame;
   if (!first_fit(kInOrder.data(), i, end, ports, chosen_, blame))
      return false;
   for (unsigned k = i; k < end; k++)
      extended_nonzero_ |= chosen_[k] != 0;
   return true;
}

bool GroupFit::try_add(const AluClause &cl, std::span<const uint32_t> nodes,
                       std::span<const uint8_t> slots, size_t old)
{
   const size_t total = nodes.size();
   if (whole_) {
      const bool ok = materialize_group_into(chip_, cl, nodes, slots, prev_, prev_nodes_, scratch_);
      n_ = ok ? unsigned(total) : n_;
      return ok;
   }
   if (total > kMax || old != n_)
      return false;
   /* The candidate's operands as materialize() makes them, with PV/PS:
    * a literal too many or a PV/PS-only operand without its producer
    * fails the retry without PV/PS too. */
   /* The literal, constant-file and port state are copied whole, with
    * sizeof: std::copy of them (of nlit_ literals, or through pointers to
    * their first elements) is a call to memcpy per try. */
   uint32_t lits[4];
   std::memcpy(lits, lits_, sizeof lits);
   unsigned nlit = nlit_;
   bool forwarded = forwarded_;
   /* Analyzed as they are converted (analyze_instr's rules), unless the
    * group already fits only without PV/PS.  A candidate that breaks
    * them fails at once: they only concern constants (constant-file
    * pairs, the trans slot's constant count), which the retry without
    * PV/PS, turning GPR reads into PV/PS no more, leaves as they are. */
   int cfile[4][2];
   std::memcpy(cfile, cfile_, sizeof cfile);
   for (size_t k = old; k < total; k++) {
      const AluNode &n = cl.nodes[nodes[k]];
      if (!fwd_fits_) {
         if (!convert_node(n, slots[k], prev_, prev_nodes_, writers_, nwriters_, lits, nlit,
                           forwarded, ins_[k]))
            return false;
         continue;
      }
      ConvertAnalysis an{chip_, cfile, ops_[k]};
      if (!convert_node<true>(n, slots[k], prev_, prev_nodes_, writers_, nwriters_, lits, nlit,
                              forwarded, ins_[k], &an))
         return false;
      nchoice_[k] = ops_[k].trans ? 4 : 6;
      made_[k] = 0;
   }
   if (fwd_fits_) {
      /* Around the accepted group's assignment first; else the whole
       * group again, which is what materialize() decides on. */
      int16_t ports[12];
      std::memcpy(ports, ports_, sizeof ports);
      extended_nonzero_ = false;
      bool ok = extend(unsigned(old), unsigned(total), ports);
      bool all_zero = all_zero_ && !extended_nonzero_;
      if (!ok && channels_fit(ins_, ops_, unsigned(total))) {
         /* The first legal assignment of the whole group in the same
          * order, if there is one (the search is complete); a failed
          * search leaves the held swizzles as they were. */
         std::fill(ports, ports + 12, int16_t(-1));
         uint8_t held[kMax];
         std::memcpy(held, chosen_, sizeof held);
         extended_nonzero_ = false;
         ok = extend(0, unsigned(total), ports);
         all_zero = !extended_nonzero_;
         if (!ok)
            std::memcpy(chosen_, held, sizeof held);
      }
      if (ok) {
         all_zero_ = all_zero;
         std::memcpy(ports_, ports, sizeof ports);
         std::memcpy(cfile_, cfile, sizeof cfile);
         std::memcpy(lits_, lits, sizeof lits);
         nlit_ = nlit;
         forwarded_ = forwarded;
         n_ = unsigned(total);
         return true;
      }
   }
   /* materialize_group_into's retry without PV/PS (rare: the corpus never
    * needs it), done as it does it.  The group fails with PV/PS for good
    * then: every constraint only grows with the group. */
   if (!forwarded)
      return false;
   bool dummy = false;
   if (!materialize(chip_, cl, nodes, slots, nullptr, nullptr, dummy, scratch_))
      return false;
   fwd_fits_ = false;
   std::memcpy(lits_, lits, sizeof lits);
   nlit_ = nlit;
   forwarded_ = true;
   n_ = unsigned(total);
   return true;
}

/* SwizzleSearch::place over the accepted instructions in slot order
 * (`order`), claiming in place: the same first legal assignment.
 *
 * With conflict-directed backjumping: a failed choice notes the depths
 * whose claims hold the port it wanted, and a failed subtree the depths
 * its failures come from (`blame`).  When that leaves out the depth
 * whose choice the subtree hangs from, no other choice there can change
 * the outcome and the search returns at once to the deepest depth that
 * can.  It skips only subtrees without a legal assignment, in the same
 * order, so it finds the same first one; depth-first alone could walk
 * every choice of the instructions in between first (thousands of steps
 * for some five-instruction groups of big shaders). */
bool GroupFit::first_fit(const uint8_t *order, unsigned d, unsigned end, int16_t (&ports)[12],
                         uint8_t *chosen, uint32_t &blame)
{
   if (d == end)
      return true;
   const unsigned i = order[d];
   /* The last instruction (the only one, for most candidates extend()
    * tries) needs no call to find that nothing follows. */
   const bool last = d + 1 == end;
   const uint16_t self = uint16_t(1u << d);
   uint32_t why = 0;
   for (unsigned bs = 0; bs < nchoice_[i]; bs++) {
      const Choice &ch = choice(i, bs);
      if (ch.n == kBad)
         continue;
      uint8_t set[3];
      unsigned nset = 0;
      bool ok = true;
      for (unsigned k = 0; k < ch.n && ok; k++) {
         const unsigned p = ch.c[k].port;
         if (ports[p] == -1) {
            ports[p] = ch.c[k].sel;
            owners_[p] = self;
            set[nset++] = uint8_t(p);
         } else if (ports[p] == ch.c[k].sel) {
            owners_[p] |= self;
            set[nset++] = uint8_t(p | kShared);
         } else {
            why |= owners_[p] & ~self;
            ok = false;
         }
      }
      chosen[d] = uint8_t(bs);
      uint32_t below = 0;
      if (ok && (last || first_fit(order, d + 1, end, ports, chosen, below)))
         return true;
      while (nset) {
         const unsigned p = set[--nset];
         if (p & kShared) {
            owners_[p & ~kShared] &= uint16_t(~self);
         } else {
            ports[p] = -1;
            owners_[p] = 0;
         }
      }
      if (!ok)
         continue;
      if (!(below & self)) {
         blame = below;
         return false;
      }
      why |= below & ~uint32_t(self);
   }
   blame = why;
   return false;
}

/* The operands were converted and analyzed when each instruction was
 * accepted, and the claims of the swizzles looked at are kept: what is
 * left of materialize() is the slot order, the literals numbered in it,
 * and the search for the first legal assignment. */
bool GroupFit::finish(const AluClause &cl, std::span<const uint32_t> nodes, AluGroup &g)
{
   if (whole_ || !fwd_fits_ || n_ == 0 || nodes.size() != n_)
      return false;
   /* One instruction per slot: the order materialize() sorts into (an
    * insertion sort: a group has five slots, mostly added in order). */
   uint8_t order[kMax];
   bool in_order = true;
   for (unsigned k = 0; k < n_; k++) {
      unsigned d = k;
      for (; d > 0 && ins_[order[d - 1]].slot > ins_[k].slot; d--)
         order[d] = order[d - 1];
      in_order &= d == k;
      order[d] = uint8_t(k);
   }
   uint8_t searched[kMax] = {}; /* swizzle 0 everywhere unless searched */
   const uint8_t *chosen = searched;
   /* The search's first try is swizzle 0 everywhere: when that is the
    * assignment held, it is the answer.  The held assignment is the
    * first legal one of the whole group in the order the instructions
    * came: try_add searched the whole group in that order, or extend()
    * built it step by step, each step the first legal one around the
    * steps before (one that comes before it would have been found at the
    * first step where the two differ, its part up to that step being
    * legal too).  It is the answer when that order is slot order. */
   if (!all_zero_ && in_order) {
      chosen = chosen_;
   } else if (!all_zero_) {
      int16_t ports[12];
      std::fill(ports, ports + 12, int16_t(-1));
      std::fill(owners_, owners_ + 12, uint16_t(0));
      uint32_t blame;
      if (!first_fit(order, 0, n_, ports, searched, blame))
         return false;
   }
   /* Copied in, not made blank first (resize) and then assigned. */
   g.instrs.clear();
   g.instrs.reserve(n_);
   g.literals.clear();
   g.literal_pad = 0;
   uint8_t renumber[4] = {0xff, 0xff, 0xff, 0xff}; /* try_add's literal index -> final */
   for (unsigned d = 0; d < n_; d++) {
      const unsigned k = order[d];
      g.instrs.push_back(ins_[k]);
      AluInstr &in = g.instrs.back();
      in.bank_swizzle = chosen[d];
      /* Without literals (most groups) there is nothing to renumber. */
      if (!nlit_)
         continue;
      const AluNode &n = cl.nodes[nodes[k]];
      for (unsigned s = 0; s < ops_[k].nsrc; s++) {
         if (n.src[s].value.kind != ValueKind::Literal)
            continue;
         uint8_t &li = renumber[in.src[s].chan];
         if (li == 0xff) {
            li = uint8_t(g.literals.size());
            g.literals.push_back(lits_[in.src[s].chan]);
         }
         in.src[s].chan = li;
      }
   }
   return true;
}

std::optional<std::vector<AluGroup>> build_clause(ChipClass chip, const AluClause &cl)
{
   std::vector<AluGroup> groups;
   groups.reserve(cl.groups.size());
   for (size_t i = 0; i < cl.groups.size(); i++) {
      const GroupNode &gn = cl.groups[i];
      if (gn.fixed) {
         groups.push_back(gn.original);
         continue;
      }
      auto g = materialize_group(chip, cl, gn.nodes, gn.slots,
                                 groups.empty() ? nullptr : &groups.back(),
                                 i ? &cl.groups[i - 1] : nullptr);
      if (!g)
         return std::nullopt;
      groups.push_back(std::move(*g));
   }
   return groups;
}

bool bc_builder(const Shader &sh, Program &out, Diagnostics &diags)
{
   out.chip = sh.chip;
   out.cf.clear();
   out.cf.reserve(sh.cf.size());
   for (size_t ci = 0; ci < sh.cf.size(); ci++) {
      const CfNode &c = sh.cf[ci];
      /* Made in place (the list is reserved), not copied and moved in. */
      CfInstr &cf = out.cf.emplace_back(c.cf);
      if (c.is_alu && !c.alu.built.empty()) {
         cf.groups = std::move(c.alu.built); /* post_scheduler's build of these groups */
      } else if (c.is_alu) {
         auto groups = build_clause(sh.chip, c.alu);
         if (!groups) {
            diags.error("sb bc_builder: CF " + std::to_string(ci) +
                        ": a group breaks the slot/read-port/literal rules");
            return false;
         }
         cf.groups = std::move(*groups);
      }
   }
   return true;
}

} // namespace sbcc::r600::sb
