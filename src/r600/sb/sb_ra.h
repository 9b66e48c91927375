/*
 * Register allocation of sb's SSA stage (classic sb: split, coalesce,
 * colour, check), shared state of sb_ra_split.cpp, sb_ra_coalesce.cpp,
 * sb_ra_init.cpp, sb_ra_checker.cpp and the allocation liveness of
 * sb_region_liveness.cpp.
 *
 * What the allocation promises bc_finalize (see sb_region_passes.h):
 *  - Every phi / loop_phi of an allocated variable has its destination and
 *    all sources in one register channel; ra_split made each source a copy
 *    (an Alu MOV in a new clause at the end of the depart / repeat, or just
 *    before the loop region for loop_phi source 0), one MOV per AluGroup,
 *    so running them in order is correct.  A source whose depart never
 *    reaches its end (it ends in another depart/repeat) is replaced by a
 *    fresh value that nothing defines: it needs no code.
 *  - psi: dst, src[1] and src[2] share one register channel; src[2] is a
 *    copy made just before the predicated instruction's group.
 *  - Fetch sources (per fetch) and export sources (per burst element) are
 *    copies in a new clause just before the CF; they share one GPR with
 *    distinct channels (finalize rewrites src_sel / swizzle): distinct
 *    values read by one CF are live together, so they need distinct
 *    channels anyway, while one value read twice is copied once.  Fetch
 *    destinations share one GPR with distinct channels.  Exports with
 *    burst_count > 1 keep their original registers (precoloured copies).
 *  - Operands of single exports and TEX coordinates need no register when
 *    they are an unwritten channel (the entry value of a GPR ShaderInfo
 *    does not preload: ValueKind::None) or a plain MOV of 0.0 / 1.0
 *    (ValueKind::Literal with those bits; the MOV goes when nothing else
 *    reads it).  bc_finalize emits SEL_MASK for an unwritten export
 *    channel, SEL_0 for an unwritten coordinate (what the emulator's
 *    zeroed register gives), SEL_0 / SEL_1 for the constants; a CF that
 *    then reads no register names R0 (a TEX: its result GPR).  VTX
 *    addresses and burst exports are left as they were.
 *  - Values defined in a group for which alu_group_is_fixed() holds keep
 *    channel = slot (vector slots); their GPR is free.
 *  - A MOV whose source and destination got the same register channel (and
 *    has no modifiers) is a no-op: finalize may drop it.  Such a copy's
 *    result does not interfere with its source (same bits), so the two may
 *    share a channel even while both are live.
 *  - A fetch result nothing reads has gpr -1: finalize masks it (dst_sel 7).
 *  - Results of one group finalize may split prefer distinct channels, so
 *    the group can be kept whole on its channels if it swaps registers
 *    (a preference only: a fixed or precoloured channel wins).
 *
 * Allocation method: the values are SSA and the interference graph comes
 * from exact live sets, so a greedy colouring in definition order (after
 * precoloured values and vector groups) is what the chordal structure
 * rewards.  Vector groups are biased: the GPRs their copies' partners
 * (sources or destinations ra_coalesce could not merge) already hold come
 * first, and within one a partner's channel, so the copy is a no-op; src/ra's class-based colouring works on register classes of a
 * flat IR and has no notion of "same GPR, distinct channels" groups, so it
 * is not used here.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "r600/sb/sb_block_cache.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

/* GPRs the allocator may hand out: 124..127 are clause temporaries on R700+. */
constexpr unsigned kRaMaxGprs = 124;

struct RaCopy {
   unsigned dst = 0, src = 0; /* value ids */
   unsigned cost = 1;         /* 1 + 10 * loop depth */
};

/* Neighbour lists of every value in one array (compressed rows): one
 * allocation for the whole graph instead of one per value, and lists that
 * sit next to each other in memory.  adj[v] is a range over v's list. */
struct RaAdjacency {
   std::vector<uint32_t> start; /* num_values + 1 offsets into list */
   /* Through the thread's block cache (sb_block_cache.h): on a large
    * shader this is megabytes, and its allocator leaves resize()d
    * elements unwritten (they are sized first and then written in full;
    * zeroing them was a tenth of ra_split). */
   CachedVector<unsigned> list;

   struct Range {
      const unsigned *b, *e;
      const unsigned *begin() const { return b; }
      const unsigned *end() const { return e; }
      size_t size() const { return size_t(e - b); }
      bool empty() const { return b == e; }
   };
   Range operator[](unsigned v) const
   {
      const unsigned *d = list.data();
      return {d + start[v], d + start[v + 1]};
   }
   size_t size() const { return start.empty() ? 0 : start.size() - 1; }
   /* Lists that are all empty. */
   void clear(unsigned nv)
   {
      start.assign(size_t(nv) + 1, 0);
      list.clear();
   }
};

/* RaContext's tables, apart from the rest so that a thread keeps their
 * storage from shader to shader (a context gives it to the thread when it
 * goes, and ra_split takes it back): allocating them afresh was some
 * twenty allocations per shader. */
struct RaTables {
   /* Values that get a register (Gpr/Temp variables that something defines
    * or reads); array values are precoloured and left out of the graph. */
   std::vector<uint8_t> allocatable; /* bytes: set and read per operand */
   RaAdjacency adj; /* interference, each list sorted */
   /* Results of one splittable VLIW group: distinct channels (bc_finalize
    * may have to keep the group whole, one slot per channel).  Lists in no
    * particular order, duplicates possible: only membership counts. */
   RaAdjacency chan_excl;
   std::vector<unsigned> def_order;        /* program point of the definition */
   std::vector<unsigned> loop_depth;

   /* Constraints by value id. */
   std::vector<int16_t> pre_gpr; /* -1: free */
   std::vector<int8_t> pre_chan;
   std::vector<int8_t> fixed_chan;                 /* -1: any */
   std::vector<int> vec_group;                     /* -1: none */
   std::vector<std::vector<unsigned>> vec_groups;  /* same GPR, distinct channels */
   std::vector<std::vector<unsigned>> forced;      /* phi/psi: one register channel */
   std::vector<RaCopy> copies;                     /* coalescing candidates */
   std::vector<uint8_t> reserved_gpr;              /* array GPRs (bytes: read per GPR) */
   /* (predicated result, old value) of each psi: written over each other on
    * purpose, so they do not interfere. */
   std::vector<std::pair<unsigned, unsigned>> psi_pairs;

   /* Coalescing classes (union-find over value ids). */
   std::vector<unsigned> parent;
};

struct RaContext : RaTables {
   RaContext() = default;
   RaContext(const RaContext &) = default;
   RaContext(RaContext &&) = default;
   RaContext &operator=(const RaContext &) = default;
   RaContext &operator=(RaContext &&) = default;
   /* Leaves the tables' storage with the thread (sb_ra_split.cpp). */
   ~RaContext();

   unsigned num_values = 0;
   /* The class of v (union-find over `parent`).  Inline: ra_coalesce's
    * interference test between two classes asks it for every neighbour
    * of every member. */
   unsigned find(unsigned v)
   {
      while (parent[v] != v) {
         parent[v] = parent[parent[v]];
         v = parent[v];
      }
      return v;
   }

   bool live_converged = false; /* ra_build_interference reached its fixpoint */
   /* Set by ra_split while it runs ra_build_interference: Node::scratch of
    * each ALU group is 1 + alu_group_fixed, or 0 when not known, so the
    * liveness walk does not look at every instruction again. */
   bool group_fixed_in_scratch = false;

   /* Statistics for tests and the driver. */
   unsigned split_copies = 0;
   unsigned coalesced = 0;
   /* Export / TEX operands that need no register: unwritten channels
    * (SEL_MASK, or SEL_0 for a coordinate) and copies of 0.0 / 1.0. */
   unsigned undef_operands = 0;
   unsigned const_operands = 0;
};

/* var_in_array without its call for a shader without relative arrays
 * (most): asked for every variable and many operands. */
inline bool in_rel_array(const RegionShader &sh, int var)
{
   return !sh.arrays.empty() && var_in_array(sh, var);
}

/* The part of alu_group_fixed that depends only on the op (and the chip):
 * asked for every instruction of every group, so tabulated.  constexpr
 * (from the ISA tables): a function-local table cost alu_group_fixed a
 * guard test, and the registers its cold initialisation needed were
 * saved and restored on every call. */
constexpr bool alu_op_keeps_group_fixed(ChipClass chip, AluOp op)
{
   /* bc_finalize's list, and more: Cayman's replicated transcendentals
    * even alone, AF_REPL ops, and the chip's own multi-slot ops. */
   if (alu_op_group_traits(op) != 0)
      return true;
   const AluOpInfo &info = kAluOpInfo[unsigned(op)]; /* alu_op_info is not constexpr */
   return (info.flags & AF_REPL) ||
          (info.slots[chip_index(chip)] & (kSlot4 | kSlotXY | kSlotZW));
}

/* alu_op_keeps_group_fixed by chip and op: a row of bytes looked up once
 * per group, not a bit extracted per instruction. */
inline constexpr std::array<uint8_t, kNumChipClasses * kNumAluOps> kAluFixedOps = [] {
   std::array<uint8_t, kNumChipClasses * kNumAluOps> t{};
   for (unsigned c = 0; c < kNumChipClasses; c++)
      for (unsigned o = 0; o < kNumAluOps; o++)
         t[c * kNumAluOps + o] = alu_op_keeps_group_fixed(ChipClass(c), AluOp(o));
   return t;
}();

/* The chip's row of kAluFixedOps, for alu_fixes_group. */
inline const uint8_t *alu_fixed_ops(ChipClass chip)
{
   return kAluFixedOps.data() + chip_index(chip) * kNumAluOps;
}

/* Whether instruction `a` of a group makes the group fixed (`ops`:
 * alu_fixed_ops of the shader's chip).  Inline: ra_split's walk of the
 * tree asks it for each instruction of each group as it takes the
 * instruction's operands, instead of a second walk of the group. */
inline bool alu_fixes_group(const uint8_t *ops, const Node *a)
{
   if (a->kind != NodeKind::Alu || !a->alu)
      return true;
   const AluInstr *in = a->alu;
   if (ops[unsigned(in->op)])
      return true;
   /* One test for all the fields (bitwise or): most groups are free,
    * so every instruction reads them all anyway. */
   static_assert(std::tuple_size_v<decltype(in->src)> == 3);
   if (alu_has_control_fields(*in) | in->dst.rel | in->src[0].rel | in->src[1].rel |
       in->src[2].rel)
      return true;
   return has_rel_operand(a);
}

/* A superset of bc_finalize's alu_group_is_fixed (sb_region_passes.h):
 * groups whose vector-slot results keep channel = slot (one instruction
 * for which alu_fixes_group holds).  A superset is safe for RA (it only
 * fixes more channels).  Must stay a superset: a group finalize keeps
 * whole needs its results on their slots' channels. */
bool alu_group_fixed(const RegionShader &sh, const Node *group);

/* The instruction nodes dce keeps (marked from effects through uses), and
 * the values they read (= liveness_used). */
std::set<const Node *> live_instructions(const RegionShader &sh, std::vector<bool> &used);

/* Live sets over the tree (backward, fixpoint over loops) and the
 * interference graph, def order and loop depth of every value, into ctx
 * (numbering must be current).  Interference edges are added at each
 * definition against the values live after it, so the cost is the sum of
 * live-set sizes at definitions, not quadratic in the number of values.
 * A graph of up to `matrix_values` values is gathered in a bit matrix, a
 * larger one as rows of neighbours; both give the same lists (a parameter
 * so that tests can compare the two). */
constexpr unsigned kRaMatrixValues = 2048;
void ra_build_interference(const RegionShader &sh, RaContext &ctx,
                           unsigned matrix_values = kRaMatrixValues);
/* Inline: ra_coalesce looks up each pair of two small classes. */
inline bool ra_interfere(const RaContext &ctx, unsigned a, unsigned b)
{
   const RaAdjacency::Range l = ctx.adj[a];
   return std::binary_search(l.begin(), l.end(), b);
}
/* An ALU MOV without modifiers, predicate or relative source: its result
 * is its source's bits, so the two may share a register while both live.
 * Inline: the liveness walk and ra_checker ask it for every instruction,
 * and most are no MOV. */
inline bool alu_is_plain_copy(const Node *a)
{
   const AluInstr *in = a->alu;
   if (a->kind != NodeKind::Alu || !in || in->op != AluOp::MOV || in->dst.clamp ||
       in->dst.omod || in->pred_sel || a->src.size() != 1 || a->dst.size() != 1)
      return false;
   const Value &s = a->src[0], &d = a->dst[0];
   return s.kind == ValueKind::Var && !s.neg && !s.abs && !s.rel() && d.kind == ValueKind::Var;
}
/* Whether the value gets a register at all (Gpr/Temp, not an array).
 * Inline: ra_split asks it for every fetch and export operand it
 * copies, and most answers come from the first tests. */
inline bool ra_value_allocatable(const RegionShader &sh, const Value &v)
{
   if (v.kind != ValueKind::Var || v.var < 0 || size_t(v.var) >= sh.vars.size())
      return false;
   const VarKind k = sh.vars[v.var].kind;
   if (k != VarKind::Gpr && k != VarKind::Temp)
      return false;
   return !in_rel_array(sh, v.var);
}

/* `info` (may be null) says which GPRs the hardware loads: the entry value
 * of any other GPR read by an export or TEX operand is unwritten and needs
 * no register. */
bool ra_split(RegionShader &sh, RaContext &ctx, Diagnostics &diags,
              const ShaderInfo *info = nullptr);
bool ra_coalesce(RegionShader &sh, RaContext &ctx, Diagnostics &diags);
bool ra_init(RegionShader &sh, RaContext &ctx, Allocation &alloc, Diagnostics &diags);
bool ra_checker(const RegionShader &sh, const Allocation &alloc, Diagnostics &diags);

/* The four in order. */
bool register_allocation(RegionShader &sh, const ShaderInfo &info, Allocation &alloc,
                         Diagnostics &diags);

} // namespace sbcc::r600::sb::region
