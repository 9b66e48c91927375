/*
 * gvn: value numbering inside an ALU clause.
 *
 * Two non-fixed nodes computing the same operation on the same values (same
 * modifiers, clamp and output modifier; operands of commutative operations
 * in either order) produce the same bits, so the later one becomes a MOV of
 * the earlier one's register while that register and the operands are
 * unchanged; copy_propagation and dce_cleanup then usually remove the MOV.
 * A group is processed as the hardware runs it: lookups with the values
 * before the group, then its writes end entries that mention what they
 * write, then its own results enter the table.
 *
 * Not here yet: constant folding and algebraic rules (they need the
 * hardware's exact float behaviour, denormals and non-IEEE multiplies).
 */
#include <algorithm>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

/* What numbering compares of an operand: its value (kind, selector,
 * channel, literal bits) and modifiers, packed into one word (kind 3
 * bits, channel 8, neg, abs, selector 16, bits 32: no two operands that
 * differ share one).  A word rather than a formatted string or a struct
 * of fields: no allocation per instruction, and a key compares and
 * hashes a word per operand. */
using OperandKey = uint64_t;

struct NodeKey {
   uint32_t head = 0; /* op, clamp, output modifier, operand count */
   OperandKey ops[3] = {}; /* the unused ones 0 */

   bool operator==(const NodeKey &o) const
   {
      return head == o.head && ops[0] == o.ops[0] && ops[1] == o.ops[1] && ops[2] == o.ops[2];
   }
};

struct NodeKeyHash {
   size_t operator()(const NodeKey &k) const
   {
      uint64_t h = k.head;
      for (const OperandKey o : k.ops) {
         h = (h ^ o) * 0x9e3779b97f4a7c15ull;
         h ^= h >> 29;
      }
      return size_t(h);
   }
};

/* The key of a node numbering may replace, in one walk over its operands;
 * false for a node it may not (no register result, relative or
 * predicated, a MOV already, or an operand that is relative, PV/PS-only
 * or special).  Operands of commutative operations are ordered, so
 * either order gives the same key. */
bool node_key(const AluNode &n, NodeKey &k)
{
   if (!n.writes_gpr() || n.bc.dst.rel || n.bc.pred_sel || n.bc.op == AluOp::MOV)
      return false;
   const AluOpInfo &info = alu_op_info(n.bc.op);
   const unsigned nsrc = info.num_src;
   for (unsigned s = 0; s < nsrc; s++) {
      const Operand &o = n.src[s];
      const Value &v = o.value;
      if (o.rel || v.kind == ValueKind::Forward || v.kind == ValueKind::Special)
         return false;
      if (s < 3)
         k.ops[s] = uint64_t(v.kind) | uint64_t(v.chan) << 3 | uint64_t(o.neg) << 11 |
                    uint64_t(o.abs) << 12 | uint64_t(v.sel) << 13 | uint64_t(v.bits) << 29;
   }
   const unsigned num = std::min(nsrc, 3u);
   for (unsigned s = num; s < 3; s++)
      k.ops[s] = 0;
   k.head = uint32_t(n.bc.op) << 16 | uint32_t(n.bc.dst.omod) << 8 |
            uint32_t(n.bc.dst.clamp) << 4 | num;
   if ((info.flags & AF_COMM) && num >= 2 && k.ops[1] < k.ops[0])
      std::swap(k.ops[0], k.ops[1]);
   return true;
}

unsigned reg_key(unsigned sel, unsigned chan) { return sel * 4 + (chan & 3); }

/* Registers a key can name: dst.gpr is 8 bits. */
constexpr unsigned kRegKeys = 256 * 4;

struct Entry {
   NodeKey key;
   uint16_t gpr;
   uint8_t chan;
   uint8_t nregs;
   unsigned regs[4];    /* registers the value depends on, dst included */
   uint32_t gens[4];    /* their write generations when entered */
   uint32_t epoch;
};

/* The table of one clause.  Entries are never removed: a write bumps its
 * register's generation and an entry holds while the generations it saw
 * are current (a relative or AR write starts a new epoch).  That keeps a
 * write O(1) instead of a scan of the whole table per group, and the
 * open-addressed index allocates only when it grows.  At most one entry
 * per key holds at a time: a key already held is not entered again.
 * One table serves all clauses of every shader the thread numbers
 * (next_clause()), keeping its storage; generations and the epoch simply
 * go on counting. */
struct Table {
   std::vector<Entry> entries;
   std::vector<int32_t> slots; /* entry index or -1; size a power of two */
   uint32_t gen[kRegKeys];
   uint32_t epoch = 0;

   Table() { std::fill(gen, gen + kRegKeys, 0u); }

   bool holds(const Entry &e) const
   {
      if (e.epoch != epoch)
         return false;
      for (unsigned k = 0; k < e.nregs; k++)
         if (gen[e.regs[k]] != e.gens[k])
            return false;
      return true;
   }

   const Entry *find(const NodeKey &key, size_t h) const
   {
      if (slots.empty())
         return nullptr;
      const size_t mask = slots.size() - 1;
      for (size_t i = h & mask; slots[i] >= 0; i = (i + 1) & mask) {
         const Entry &e = entries[size_t(slots[i])];
         if (e.key == key && holds(e))
            return &e;
      }
      return nullptr;
   }

   void place(int32_t idx, size_t h)
   {
      const size_t mask = slots.size() - 1;
      size_t i = h & mask;
      while (slots[i] >= 0)
         i = (i + 1) & mask;
      slots[i] = idx;
   }

   void insert(const Entry &e, size_t h)
   {
      if (2 * (entries.size() + 1) > slots.size()) {
         slots.assign(std::max<size_t>(16, 2 * slots.size()), -1);
         for (size_t k = 0; k < entries.size(); k++)
            place(int32_t(k), NodeKeyHash{}(entries[k].key));
      }
      entries.push_back(e);
      place(int32_t(entries.size() - 1), h);
   }

   void write(unsigned r) { gen[r]++; }
   void clear() { epoch++; }
   /* Empty, for the next clause: no entry refers to generations any more,
    * so they need no reset. */
   void next_clause()
   {
      entries.clear();
      slots.clear();
   }
};

void number_clause(AluClause &cl, Table &table)
{
   table.next_clause();
   table.entries.reserve(cl.nodes.size());
   unsigned written[5 * 2];
   /* The keys of a group's numberable nodes, taken once for the lookup
    * and kept for the entry: the group's writes change neither. */
   struct Keyed {
      bool numbered = false;
      bool entered = false; /* its entry went into the table */
      NodeKey key;
      size_t hash = 0;
   };
   SmallVector<Keyed, 5> keyed;
   for (GroupNode &g : cl.groups) {
      if (!g.fixed) {
         if (keyed.size() < g.nodes.size())
            keyed.resize(g.nodes.size());
         for (size_t j = 0; j < g.nodes.size(); j++) {
            AluNode &n = cl.nodes[g.nodes[j]];
            Keyed &kd = keyed[j];
            kd.numbered = node_key(n, kd.key);
            if (!kd.numbered)
               continue;
            kd.hash = NodeKeyHash{}(kd.key);
            const Entry *it = table.find(kd.key, kd.hash);
            if (!it)
               continue;
            /* A MOV now: numbered no longer. */
            kd.numbered = false;
            n.bc.op = AluOp::MOV;
            n.bc.dst.clamp = false;
            n.bc.dst.omod = 0;
            n.src = {};
            n.src[0].value.kind = ValueKind::Gpr;
            n.src[0].value.sel = it->gpr;
            n.src[0].value.chan = it->chan;
         }
      }
      /* The group's writes end what they touch.  A relative or AR write
       * ends everything: the generations bumped before it then only
       * count on, as no entry of the new epoch saw them. */
      unsigned nwritten = 0;
      for (uint32_t id : g.nodes) {
         const AluNode &n = cl.nodes[id];
         if (n.bc.dst.rel || (alu_op_info(n.bc.op).flags & AF_MOVA)) {
            table.clear();
            nwritten = 0;
            break;
         }
         if (n.writes_gpr() && nwritten < 10) {
            written[nwritten] = reg_key(n.bc.dst.gpr, n.bc.dst.chan);
            table.write(written[nwritten++]);
         }
      }
      if (g.fixed)
         continue;
      for (size_t j = 0; j < g.nodes.size(); j++) {
         const AluNode &n = cl.nodes[g.nodes[j]];
         Keyed &kd = keyed[j];
         kd.entered = false;
         if (!kd.numbered)
            continue;
         Entry e{};
         e.gpr = n.bc.dst.gpr;
         e.chan = n.bc.dst.chan;
         e.regs[e.nregs++] = reg_key(n.bc.dst.gpr, n.bc.dst.chan);
         bool stale = false;
         /* The key holds the operand count (at most three). */
         const unsigned nsrc = kd.key.head & 3;
         for (unsigned s = 0; s < nsrc; s++) {
            const Value &v = n.src[s].value;
            if (v.kind != ValueKind::Gpr)
               continue;
            const unsigned r = reg_key(v.sel, v.chan);
            /* Read before this group wrote it: the key no longer
             * describes the register's new contents. */
            for (unsigned w = 0; w < nwritten; w++)
               stale |= written[w] == r;
            stale |= r >= kRegKeys; /* no such GPR: never numbered */
            if (r < kRegKeys)
               e.regs[e.nregs++] = r;
         }
         if (stale)
            continue;
         /* The key is held already: the first entry stays.  Only an
          * entry of this group's can hold it: none did at the lookup,
          * and the group's writes since can only end entries. */
         bool held = false;
         for (size_t p = 0; p < j; p++)
            held |= keyed[p].entered && keyed[p].key == kd.key;
         if (held)
            continue;
         e.key = kd.key;
         for (unsigned k = 0; k < e.nregs; k++)
            e.gens[k] = table.gen[e.regs[k]];
         e.epoch = table.epoch;
         table.insert(e, kd.hash);
         kd.entered = true;
      }
   }
}

} // namespace

bool gvn(Shader &sh, Diagnostics &diags)
{
   (void)diags;
   for (CfNode &c : sh.cf)
      c.alu.built.clear(); /* post_scheduler's build no longer matches */
   /* Kept with the thread, as the scheduler's lists are: the table then
    * allocates and clears its generations once, not for every shader. */
   Table &table = thread_kept<Table>();
   for (CfNode &c : sh.cf)
      if (c.is_alu)
         number_clause(c.alu, table);
   return true;
}

} // namespace sbcc::r600::sb
