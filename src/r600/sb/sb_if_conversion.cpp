/*
 * if_conversion over the region tree (classic sb's sb_if_conversion.cpp).
 *
 * The region parser turns ALU_PUSH_BEFORE; JUMP; then; ELSE; else; POP into
 *
 *   cf  ALU_PUSH_BEFORE { ... PRED_SETcc _, EXEC.k, PRED.k = a, b }
 *   region R { depart #1 { if EXEC.k { depart #0 { THEN } } ELSE } }
 *   phi v = then_value, else_value        (one per variable written inside)
 *
 * When THEN and ELSE are short ALU-only code, branching costs more than
 * running both sides for every lane: the JUMP, ELSE and POP CF instructions,
 * the clause switches around each side, and the stack push.  Then the
 * PRED_SETcc becomes SETcc into a new temporary (same group, same operands),
 * the groups of both sides move to the end of the clause that held it, and
 * each phi becomes CNDE_INT(cond, else_value, then_value) defining the phi's
 * own value, so nothing after the region needs renaming (a MOV when both
 * sides give the same value: no select needed).  An integer compare of x
 * with zero needs no SETcc: the PRED_SET goes and the selects test x with
 * CNDE_INT, CNDGT_INT or CNDGE_INT.
 *
 * CNDE_INT rather than CNDE even for a float condition: the float SETcc
 * result is exactly 1.0 or +0.0, whose integer zero test is the same as the
 * float one, and an integer select passes the chosen bits through untouched
 * (integer data, NaNs and denormals included), which a float select need not.
 *
 * Speculation is only safe for code without effects: no export, kill,
 * AR or predicate write, LDS/GDS access, interpolation, predicated (psi) or
 * relative access, and no control flow; fetches only where running them for
 * every lane cannot fault or change a result (fetch_speculable: constant and
 * vertex buffer VFETCH, explicit-LOD texture fetches).  A fetch clause then
 * stays a clause of its own in the straight code.  Values inside relative-addressed
 * arrays keep their registers (sb_region_passes.h), so both sides writing
 * one would clobber each other: such ifs stay branches too.
 *
 * Innermost ifs go first, so an outer if whose side held a converted one
 * may become ALU-only and convert as well.  The clause that held the
 * PRED_SET keeps its Cf node (and its ALU_PUSH_BEFORE op): bc_finalize
 * rebuilds the CF instructions from the tree's shape, not from that op.
 *
 * Threshold, as classic sb reasons: removing the branch saves the JUMP,
 * ELSE and POP CF instructions (or folds them into ALU_POP_AFTER) and a
 * CF instruction costs about as much as 40 ALU groups, so ~120 groups or
 * ~360 instructions at three per group; speculation adds at worst the
 * side not taken.  So an if converts when both sides together, inner
 * converted ifs included, hold at most kMaxRealAlu (400) instructions
 * other than plain copies (which coalescing mostly removes).  No cost
 * model below that: a per-side limit of 12 kept most ifs of real shaders
 * (the dolphin ubershaders' switch chains) as branches.
 *
 * Register pressure: both sides' results live until the selects.  Copies
 * feeding a phi are read by the select directly where that does not hurt
 * packing (see try_convert); the conditions of nested converted ifs stay
 * live until their selects after the inner ones, one channel per level.
 */
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <variant>

#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region {

namespace {

/* Instructions (plain copies not counted) over both sides of a convertible if. */
constexpr unsigned kMaxRealAlu = 400;
/* Sharing the work both sides of a converted if do alike (try_convert).
 * It was off while bc_finalize did not count the scratch copies a DOT4
 * may need against the 128-slot clause limit (sharing made more dolphin
 * ubershader VS clauses overflow and fall back); bc_finalize counts them
 * now. */
constexpr bool kShareSideWork = true;
/* THEN-side constant copies feeding phis from which selects read constants. */
constexpr unsigned kMinConstCopies = 4;
/* What one speculated fetch counts against kMaxRealAlu.  A fetch clause
 * inside straight code costs a CF instruction (about 40 groups) unless it
 * joins a neighbour; counting each fetch as 10 instructions lets a chain of
 * small arms that each load one constant-buffer vector convert (dolphin's
 * ubershaders: a switch over sources whose arms fetch a colour), while an
 * if whose sides are mostly fetches stays a branch. */
constexpr unsigned kFetchCost = 10;

using ValueKey = std::pair<int, unsigned>;

struct ValueKeyHash {
   size_t operator()(const ValueKey &k) const
   {
      return std::hash<uint64_t>()(uint64_t(uint32_t(k.first)) << 32 | k.second);
   }
};

/* The SETcc that computes what a PRED_SETcc puts into the exec mask; its
 * float form writes 1.0/0.0, the integer forms ~0/0. */
bool set_op_for(AluOp pred, AluOp &set)
{
   switch (pred) {
   case AluOp::PRED_SETE: set = AluOp::SETE; return true;
   case AluOp::PRED_SETGT: set = AluOp::SETGT; return true;
   case AluOp::PRED_SETGE: set = AluOp::SETGE; return true;
   case AluOp::PRED_SETNE: set = AluOp::SETNE; return true;
   case AluOp::PRED_SETE_INT: set = AluOp::SETE_INT; return true;
   case AluOp::PRED_SETGT_INT: set = AluOp::SETGT_INT; return true;
   case AluOp::PRED_SETGE_INT: set = AluOp::SETGE_INT; return true;
   case AluOp::PRED_SETNE_INT: set = AluOp::SETNE_INT; return true;
   case AluOp::PRED_SETGT_UINT: set = AluOp::SETGT_UINT; return true;
   case AluOp::PRED_SETGE_UINT: set = AluOp::SETGE_UINT; return true;
   default: return false;
   }
}

/* Ops whose execution has an effect beyond their result, or that depend on
 * more than their operands (neighbouring slots, interpolation state).
 * constexpr, from the ISA tables (alu_op_info is not), so that
 * kHasSideEffect below answers it by op with one load. */
constexpr bool op_has_side_effect(AluOp op)
{
   const uint32_t flags = kAluOpInfo[unsigned(op)].flags;
   if (flags & (AF_MOVA | AF_KILL | AF_PRED | AF_PRED_PUSH | AF_INTERP | AF_PREV_NEXT |
                AF_PREV_INTERLEAVE))
      return true;
   switch (op) {
   case AluOp::GROUP_BARRIER:
   case AluOp::GROUP_SEQ_BEGIN:
   case AluOp::GROUP_SEQ_END:
   case AluOp::SET_MODE:
   case AluOp::SET_CF_IDX0:
   case AluOp::SET_CF_IDX1:
   case AluOp::SET_LDS_SIZE:
   case AluOp::STORE_FLAGS:
   case AluOp::LOAD_STORE_FLAGS:
   case AluOp::LDS_1A:
   case AluOp::LDS_1A1D:
   case AluOp::LDS_2A:
   case AluOp::LDS_IDX_OP:
   case AluOp::INTERP_LOAD_P0:
   case AluOp::INTERP_LOAD_P10:
   case AluOp::INTERP_LOAD_P20:
   case AluOp::MUL_PREV:
   case AluOp::MUL_IEEE_PREV:
   case AluOp::ADD_PREV:
   case AluOp::MULADD_PREV:
   case AluOp::MULADD_IEEE_PREV:
   case AluOp::BCNT_ACCUM_PREV_INT:
   case AluOp::MBCNT_32LO_ACCUM_PREV_INT:
   case AluOp::SAD_ACCUM_PREV_UINT:
      return true;
   default: return false;
   }
}

/* op_has_side_effect by op: check_group asks it for every instruction on
 * a side. */
constexpr auto kHasSideEffect = [] {
   std::array<bool, kNumAluOps> t{};
   for (unsigned op = 0; op < kNumAluOps; op++)
      t[op] = op_has_side_effect(AluOp(op));
   return t;
}();

bool has_side_effect(AluOp op) { return kHasSideEffect[unsigned(op)]; }

/* A value an instruction may read anywhere: plain SSA values and resolved
 * constants.  Unresolved kcache references are relative to their clause's
 * locks and would change meaning in another clause. */
bool movable_src(const Value &v)
{
   /* None, Var, Inline and Literal may; two tests rather than a switch
    * over the six kinds (asked for every operand on a side). */
   return v.kind != ValueKind::Rel && (v.kind != ValueKind::KCache || v.resolved);
}

/* Two operands that read the same bits (no modifiers involved). */
bool same_value(const Value &a, const Value &b)
{
   if (a.kind != b.kind || a.neg || a.abs || b.neg || b.abs)
      return false;
   switch (a.kind) {
   case ValueKind::Var: return a.var == b.var && a.version == b.version;
   case ValueKind::Inline:
   case ValueKind::Literal: return a.literal == b.literal;
   case ValueKind::KCache:
      return a.resolved && b.resolved && a.bank == b.bank && a.index == b.index &&
             a.chan == b.chan;
   default: return false;
   }
}

bool is_zero(const Value &v)
{
   if (v.neg || v.abs)
      return false;
   return (v.kind == ValueKind::Inline && v.literal == kSrc_0) ||
          (v.kind == ValueKind::Literal && v.literal == 0);
}

/* For a PRED_SET that compares an integer x with zero: the select that
 * tests x directly (CNDE_INT x, a, b = x == 0 ? a : b; CNDGT_INT and
 * CNDGE_INT signed), whether it takes THEN as its first choice, and x.
 * Float compares stay SETcc: CNDE's float test and the integer one differ
 * on -0.0. */
bool direct_condition(const Node *pred, AluOp &op, bool &then_first, Value &x)
{
   const Value &a = pred->src[0], &b = pred->src[1];
   const bool a_zero = is_zero(a), b_zero = is_zero(b);
   const Value &v = b_zero ? a : b;
   if (a_zero == b_zero || !movable_src(v) || v.kind == ValueKind::None || v.neg || v.abs)
      return false;
   switch (pred->alu->op) {
   case AluOp::PRED_SETNE_INT: op = AluOp::CNDE_INT; then_first = false; break;
   case AluOp::PRED_SETE_INT: op = AluOp::CNDE_INT; then_first = true; break;
   /* unsigned x > 0 is x != 0 */
   case AluOp::PRED_SETGT_UINT:
      if (!b_zero)
         return false;
      op = AluOp::CNDE_INT;
      then_first = false;
      break;
   case AluOp::PRED_SETGT_INT:
      if (!b_zero)
         return false;
      op = AluOp::CNDGT_INT;
      then_first = true;
      break;
   case AluOp::PRED_SETGE_INT:
      if (!b_zero)
         return false;
      op = AluOp::CNDGE_INT;
      then_first = true;
      break;
   default: return false;
   }
   x = v;
   return true;
}

/* Sharing work (try_convert) looks for instructions that compute the same
 * thing: equal op, output modifiers and operands (same_work), hence equal
 * results.  work_hash says whether an instruction may be shared at all (a
 * single SSA result, not predicated, no relative or clause-bound operands)
 * and hashes what usually tells instructions apart.  It runs for every
 * instruction of the THEN side and the candidate ELSE instructions of every
 * converted if (nested sides again at each level), so it builds no key:
 * only instructions with equal hashes are compared field by field. */
bool work_hash(const Node *a, uint64_t &hash)
{
   /* ALU instructions have at most three operands. */
   if (a->kind != NodeKind::Alu || !a->alu || a->dst.size() != 1 ||
       a->dst[0].kind != ValueKind::Var || a->alu->pred_sel || a->src.size() > 3)
      return false;
   /* FNV-1a */
   uint64_t h = (0xcbf29ce484222325ull ^ uint32_t(a->alu->op)) * 0x100000001b3ull;
   for (const Value &v : a->src) {
      if (v.rel() || (v.kind == ValueKind::KCache && !v.resolved))
         return false;
      h = (h ^ (uint64_t(v.kind) << 32 | uint32_t(v.var))) * 0x100000001b3ull;
      h = (h ^ (uint64_t(v.version) << 32 | (v.literal ^ v.index))) * 0x100000001b3ull;
   }
   hash = h;
   return true;
}

/* For two instructions work_hash accepts. */
bool same_work(const Node *a, const Node *b)
{
   const AluInstr &x = *a->alu, &y = *b->alu;
   if (x.op != y.op || x.dst.clamp != y.dst.clamp || x.dst.omod != y.dst.omod ||
       a->src.size() != b->src.size())
      return false;
   for (size_t i = 0; i < a->src.size(); i++) {
      const Value &u = a->src[i], &v = b->src[i];
      if (u.kind != v.kind || u.var != v.var || u.version != v.version || u.bank != v.bank ||
          u.index != v.index || u.chan != v.chan || u.literal != v.literal || u.neg != v.neg ||
          u.abs != v.abs)
         return false;
   }
   return true;
}

/* is_plain_copy for a MOV node. */
[[gnu::noinline]] bool is_plain_mov(const Node *a)
{
   const AluInstr &in = *a->alu;
   if (in.dst.clamp || in.dst.omod || in.pred_sel || a->src.size() != 1 || a->dst.size() != 1)
      return false;
   const Value &s = a->src[0];
   return !s.neg && !s.abs && movable_src(s) && s.kind != ValueKind::None;
}

/* One of 64 bits for an instruction's op and first operand, which
 * same_work compares among others: instructions doing the same work have
 * the same bit, so an ELSE instruction whose bit no THEN instruction set
 * needs no work_hash (cheaper than work_hash, and most candidates of a
 * common op such as MUL read other values than THEN's). */
[[gnu::always_inline]] inline uint64_t work_bit(const Node *a)
{
   uint64_t x = uint64_t(a->alu->op);
   if (!a->src.empty()) {
      const Value &v = a->src[0];
      x ^= uint64_t(v.kind) << 8 ^ uint64_t(uint32_t(v.var)) << 12 ^ uint64_t(v.version) << 40 ^
           uint64_t(v.literal ^ v.index) << 20;
   }
   return uint64_t(1) << ((x * 0x9e3779b97f4a7c15ull) >> 58);
}

/* A MOV that passes its operand through unchanged.  Asked of every node
 * index() walks and every instruction on a side, most of them no MOV:
 * that test is inline, the rest (is_plain_mov) is not. */
inline bool is_plain_copy(const Node *a)
{
   return a->kind == NodeKind::Alu && a->alu && a->alu->op == AluOp::MOV && is_plain_mov(a);
}

/* A fetch that may run for lanes whose branch was not taken: it only
 * reads memory, and what it reads for those lanes is thrown away by the
 * selects.
 *  - VFETCH: the hardware clamps every vertex/constant-buffer access to
 *    the resource's size (out of range reads 0, as the emulator models),
 *    so a garbage index from a lane that skipped the branch cannot fault.
 *  - TEX LD and the explicit-LOD samples (SAMPLE_L/LZ, SAMPLE_C_L/LZ): no
 *    implicit derivatives, so a lane's result depends on its own
 *    coordinates alone, not on which quad neighbours are active; the
 *    sampler clamps or wraps any coordinate.  Implicit-LOD samples are
 *    kept in their branch: their derivatives would come from lanes the
 *    program never ran there; gradient setters change state.
 * Indexed resources (CF_IDX) and relative GPRs stay branches too. */
bool fetch_speculable(const FetchInstr &f)
{
   if (const VtxInstr *v = std::get_if<VtxInstr>(&f))
      return v->op == FetchOp::VFETCH && !v->src_rel && !v->dst_rel &&
             v->buffer_index_mode == 0;
   const TexInstr &t = std::get<TexInstr>(f);
   if (t.src_rel || t.dst_rel || t.resource_index_mode || t.sampler_index_mode)
      return false;
   switch (t.op) {
   case FetchOp::LD:
   case FetchOp::SAMPLE_L:
   case FetchOp::SAMPLE_LZ:
   case FetchOp::SAMPLE_C_L:
   case FetchOp::SAMPLE_C_LZ: return true;
   default: return false;
   }
}

struct SideCost {
   unsigned alu = 0;
   unsigned fetches = 0;
   unsigned copies = 0; /* plain MOVs: coalescing usually removes them */
   unsigned groups = 0;
   unsigned clauses = 0;
};

/* What side_ok learns from one ALU group.  A group's instructions do not
 * change once it sits on a side (a converted if moves the group whole into
 * its clause; sharing renames Var operands to other Var values, which no
 * check here looks at), so each group is checked once, not again at every
 * nesting level whose side holds it. */
struct GroupInfo {
   const Node *group = nullptr;
   const char *why = nullptr; /* the first reason the group cannot move */
   unsigned alu = 0, copies = 0;
   bool whole = false; /* alu_group_is_fixed with more than one instruction */
};

/* What side_ok learned from one ALU clause, so that the clause a converted
 * if moved its sides into is not walked group by group again at the next
 * level out (in a chain of if/else-if it holds every inner level's work).
 * The groups [head, end) add up to groups/alu/copies and none has a
 * reason to stay; those before head and from end on are still to be
 * looked at (the clause's own groups and the selects, which side_ok checks
 * only when some if outside asks).  Valid while the clause has `size`
 * groups. */
struct ClauseSum {
   const Node *cf = nullptr;
   size_t size = 0, head = 0, end = 0;
   unsigned groups = 0, alu = 0, copies = 0;
};

struct Converter {
   Converter(RegionShader &shader, std::map<std::string, unsigned> *kept_why)
      : sh(shader), kept(kept_why)
   {
   }

   RegionShader &sh;
   /* The tables below are built by one walk over the tree (index()) when
    * the first if gets as far as its PRED_SET, so shaders with nothing to
    * convert do not pay for it.  An if that gets past its PRED_SET always
    * converts, so the tree is then still as parsed (only operands renamed):
    * no block is half rebuilt by run(). */
   bool indexed = false;
   std::unordered_map<ValueKey, unsigned, ValueKeyHash> uses; /* of exec-mask and predicate values */
   /* Every plain copy with its position in a preorder walk of the tree,
    * and each region's span of positions.  A region's sides hold exactly
    * the nodes of its span (inner converted ifs move their work into a
    * clause of the same span; the selects they make take the inner
    * region's position), so "a copy made on a side" is a lookup, not a
    * walk over the nest. */
   std::vector<std::pair<const Node *, unsigned>> copies;
   /* By value id (sh.value_id): index + 1 into copies of the copy that
    * defines the value, 0 for none.  A table rather than a hash map: a
    * big shader holds thousands of copies, and the walk stays one pass of
    * stores. */
   std::vector<uint32_t> copy_of;
   std::vector<std::pair<unsigned, unsigned>> span; /* by region id: [first, end) */
   unsigned numbered_vars = 0; /* value_id's bound, set by index_tree */
   unsigned order = 0;
   unsigned converted = 0;
   unsigned shared = 0; /* ELSE instructions THEN already computes */
   /* try_convert's tables for sharing work, members so that each if
    * reuses their storage: THEN's work by key (the first instruction with
    * each) and the ops THEN's work uses (then_op_mark[op] == then_op_gen). */
   struct ThenWork {
      uint64_t hash; /* work_hash */
      uint32_t seq;  /* position on the THEN side */
      const Node *alu;
   };
   std::vector<ThenWork> then_work; /* by hash, then seq */
   std::vector<unsigned> then_op_mark;
   unsigned then_op_gen = 0;
   /* ELSE values renamed to THEN's.  Once one is, every Var operand on the
    * ELSE side is looked up, so by value id (index_tree sizes them): an
    * entry counts while same_as_gen[id] == then_op_gen.  Values the
    * numbering does not cover (SETcc results made here) go to same_as_new. */
   std::vector<uint32_t> same_as_gen;
   std::vector<ValueKey> same_as_to;
   std::unordered_map<ValueKey, ValueKey, ValueKeyHash> same_as_new;
   /* By variable: then_op_gen when a value of it is renamed for this if.
    * Most ELSE operands read no renamed value; this answers that for them
    * without numbering the value. */
   std::vector<uint32_t> renamed_var_gen;
   /* With renamed_var_gen: the version renamed, kManyVersions when more
    * than one was (a variable such as R0.x has many versions; most
    * operands read another than the renamed one). */
   static constexpr unsigned kManyVersions = ~0u;
   std::vector<unsigned> renamed_var_version;
   bool same_as_any = false; /* for the if being converted */
   /* Bit var % 64 for each variable with a renamed value (this if): most
    * operands are told apart by it without a lookup in renamed_var_gen. */
   uint64_t renamed_bits = 0;
   NodeList spare_list; /* run()'s rebuilt children list */
   /* try_convert's select operands (then, else), kept for their storage. */
   std::vector<std::pair<const Value *, const Value *>> sel_src;
   /* GroupInfo of the groups checked so far; a group's Node::scratch is its
    * index + 1.  Scratch is left over from earlier passes until then, so an
    * entry counts only when it names the group: nothing clears the tree. */
   std::vector<GroupInfo> group_infos;
   /* ClauseSums, found as group_infos are (a clause's scratch is its index
    * + 1; clauses and groups are distinct nodes). */
   std::vector<ClauseSum> clause_sums;
   std::map<std::string, unsigned> *kept = nullptr;
   mutable const char *why = nullptr;

   bool no(const char *reason) const
   {
      why = reason;
      return false;
   }

   /* A relative operand's address (AR or the loop index) and the array
    * elements it may read (GPRs) are never an exec mask or predicate
    * (region_parse), so only the operand itself can be one. */
   void count_uses(const Value &v)
   {
      if (v.kind == ValueKind::Var) {
         VarKind k = sh.vars[v.var].kind;
         if (k == VarKind::ExecMask || k == VarKind::Pred)
            uses[{v.var, v.version}]++;
      }
   }

   /* The id of a value the numbering covers, else ~0u.  ssa_rename numbers
    * the values; those created here (SETcc results) are never copies. */
   unsigned value_id(const Value &v) const
   {
      /* numbered_vars: see index_tree. */
      if (v.kind != ValueKind::Var || unsigned(v.var) >= numbered_vars ||
          v.version > sh.version_count[v.var])
         return ~0u;
      return sh.value_id(v);
   }

   void note_copy(const Value &d, const Node *n, unsigned pos)
   {
      if (const unsigned id = value_id(d); id < copy_of.size()) {
         copies.emplace_back(n, pos);
         copy_of[id] = uint32_t(copies.size());
      }
   }

   /* The copy defining v with its position, or nullptr. */
   const std::pair<const Node *, unsigned> *copy_defining(const Value &v) const
   {
      const unsigned id = value_id(v);
      return id < copy_of.size() && copy_of[id] ? &copies[copy_of[id] - 1] : nullptr;
   }

   void index_tree()
   {
      if (sh.value_base.size() != sh.vars.size())
         sh.number_values();
      /* The variables the numbering covers; version_count has an entry
       * for each (number_values).  Only new temporaries are added until
       * the numbering is made again after converting. */
      numbered_vars = unsigned(sh.value_base.size());
      copy_of.assign(sh.num_values(), 0);
      same_as_gen.assign(sh.num_values(), 0);
      same_as_to.resize(sh.num_values());
      index(sh.root);
   }

   /* index() of the node itself, not of what it holds; its position. */
   [[gnu::always_inline]] unsigned index_node(const Node *n)
   {
      const unsigned pos = order++;
      for (const Value &s : n->src)
         count_uses(s);
      if (is_plain_copy(n))
         note_copy(n->dst[0], n, pos);
      return pos;
   }

   /* uses, copies and span in one preorder walk.  A clause's groups and
    * their instructions, most of the tree, are walked in loops rather
    * than by a call each.  Regions are told by kind, not by region_data
    * (which only they have): it sits in a node's last cache line, which
    * most instructions and groups are not otherwise read from, and a big
    * shader's tree is far larger than the caches. */
   void index(const Node *n)
   {
      if (n->kind == NodeKind::Cf) {
         index_node(n);
         for (const Node *g : n->children) {
            if (g->kind == NodeKind::Region) {
               index(g);
               continue;
            }
            /* A group has no operands of its own (ssa_rename renames
             * none), only a position: its operand lists sit in cache
             * lines the walk reads for nothing else.  Psis and fetches
             * have operands. */
            if (g->kind == NodeKind::AluGroup)
               order++;
            else
               index_node(g);
            for (const Node *a : g->children) {
               if (a->kind == NodeKind::Region || !a->children.empty())
                  index(a);
               else
                  index_node(a);
            }
         }
         return;
      }
      const unsigned pos = index_node(n);
      if (n->kind == NodeKind::Region)
         for (const Node *p : n->region().loop_phi)
            index(p);
      for (const Node *c : n->children)
         index(c);
      if (n->kind == NodeKind::Region) {
         for (const Node *p : n->region().phi)
            index(p);
         if (span.size() <= n->id)
            span.resize(n->id + 1);
         span[n->id] = {pos, order};
      }
   }

   bool movable_dst(const Value &d) const
   {
      if (d.kind == ValueKind::None)
         return true;
      if (d.kind != ValueKind::Var)
         return false;
      VarKind k = sh.vars[d.var].kind;
      if (k != VarKind::Gpr && k != VarKind::Temp)
         return false;
      /* Most shaders have no arrays: no call per instruction then. */
      return k != VarKind::Gpr || sh.arrays.empty() || !var_in_array(sh, d.var);
   }

   /* Every operand of n may leave its branch. */
   bool operands_movable(const Node *n) const
   {
      for (const Value &v : n->src)
         if (!movable_src(v))
            return no("side reads relative or clause-bound operands");
      for (const Value &d : n->dst)
         if (!movable_dst(d))
            return no("side writes AR, predicate, exec mask, an array or relatively");
      return true;
   }

   /* A fetch clause whose fetches may all run speculatively. */
   bool fetch_clause_ok(const Node *cf, SideCost &cost) const
   {
      for (const Node *f : cf->children) {
         if (f->kind != NodeKind::Fetch || !f->fetch || !fetch_speculable(*f->fetch))
            return no("side has a fetch that cannot run speculatively");
         if (!operands_movable(f))
            return false;
         cost.fetches++;
      }
      return true;
   }

   /* One side of the if: ALU clauses of effect-free instructions and
    * fetch clauses that may run speculatively (fetch_speculable). */
   bool side_ok(const NodeList &nodes, size_t first, SideCost &cost)
   {
      /* Control flow first, so an if kept inside counts as nested control
       * flow rather than as its PRED_SET. */
      for (size_t i = first; i < nodes.size(); i++)
         if (nodes[i]->kind != NodeKind::Cf)
            return no(nodes[i]->kind == NodeKind::Region
                         ? "side has nested control flow"
                         : "side has a break, continue or other node");
      for (size_t i = first; i < nodes.size(); i++) {
         const Node *cf = nodes[i];
         if (is_fetch_clause(cf)) {
            if (!fetch_clause_ok(cf, cost))
               return false;
            cost.clauses++;
            continue;
         }
         if (cf->cf) {
            switch (cf->cf->op) {
            case CfOp::ALU:
            case CfOp::ALU_PUSH_BEFORE: /* left over from an if converted before */
            case CfOp::ALU_POP_AFTER:
            case CfOp::ALU_POP2_AFTER: break;
            default: return no("side has a non-ALU clause");
            }
         }
         cost.clauses++;
         const NodeList &groups = cf->children;
         ClauseSum *sum = clause_sum(cf);
         if (!sum) {
            if (!add_groups(groups, 0, groups.size(), cost))
               return false;
            continue;
         }
         const SideCost before = cost;
         if (!add_groups(groups, 0, sum->head, cost))
            return false;
         cost.groups += sum->groups;
         cost.alu += sum->alu;
         cost.copies += sum->copies;
         if (!add_groups(groups, sum->end, groups.size(), cost))
            return false;
         /* Every group is fine now: the next level out takes the sum. */
         sum->head = 0;
         sum->end = groups.size();
         sum->groups = cost.groups - before.groups;
         sum->alu = cost.alu - before.alu;
         sum->copies = cost.copies - before.copies;
      }
      return true;
   }

   /* side_ok over the groups [first, end) of one ALU clause. */
   bool add_groups(const NodeList &groups, size_t first, size_t end, SideCost &cost)
   {
      for (size_t i = first; i < end; i++) {
         const GroupInfo &gi = group_info(groups[i]);
         if (gi.why)
            return no(gi.why);
         cost.groups++;
         cost.alu += gi.alu;
         cost.copies += gi.copies;
      }
      return true;
   }

   void set_clause_sum(const ClauseSum &sum)
   {
      const uint32_t i = sum.cf->scratch;
      if (i && i <= clause_sums.size() && clause_sums[i - 1].cf == sum.cf) {
         clause_sums[i - 1] = sum;
         return;
      }
      clause_sums.push_back(sum);
      sum.cf->scratch = uint32_t(clause_sums.size());
   }

   ClauseSum *clause_sum(const Node *cf)
   {
      const uint32_t i = cf->scratch;
      if (i && i <= clause_sums.size() && clause_sums[i - 1].cf == cf &&
          clause_sums[i - 1].size == cf->children.size())
         return &clause_sums[i - 1];
      return nullptr;
   }

   GroupInfo check_group(const Node *g) const
   {
      GroupInfo gi;
      gi.group = g;
      if (g->kind != NodeKind::AluGroup) {
         gi.why = "side has a psi or fetch";
         return gi;
      }
      for (const Node *a : g->children) {
         if (a->kind != NodeKind::Alu || !a->alu) {
            gi.why = "side has a psi or fetch";
            return gi;
         }
         const AluInstr &in = *a->alu;
         if (in.pred_sel != 0) {
            gi.why = "side has a predicated write";
            return gi;
         }
         if (has_side_effect(in.op) || in.update_exec_mask || in.update_pred) {
            gi.why = "side has an instruction with effects";
            return gi;
         }
         if (!operands_movable(a)) {
            gi.why = why;
            return gi;
         }
         gi.alu++;
         if (is_plain_copy(a))
            gi.copies++;
      }
      gi.whole = g->children.size() > 1 && alu_group_is_fixed(g);
      return gi;
   }

   /* check_group, once per group.  The lookup is most calls (a chain of
    * if/else-if asks again for every group of its ELSE side at each
    * level), so it stays small enough to inline and the check does not. */
   const GroupInfo &group_info(const Node *g)
   {
      const uint32_t i = g->scratch;
      if (i && i <= group_infos.size() && group_infos[i - 1].group == g)
         return group_infos[i - 1];
      return add_group_info(g);
   }

   [[gnu::noinline]] const GroupInfo &add_group_info(const Node *g)
   {
      group_infos.push_back(check_group(g));
      g->scratch = uint32_t(group_infos.size());
      return group_infos.back();
   }

   /* The PRED_SET in `cf` that defines the exec-mask value `cond`, with its
    * group; false when it is not there or is needed otherwise. */
   bool find_pred_set(Node *cf, const Value &cond, Node *&group, size_t &slot) const
   {
      for (Node *g : cf->children) {
         if (g->kind != NodeKind::AluGroup)
            continue;
         for (size_t i = 0; i < g->children.size(); i++) {
            const Node *a = g->children[i];
            bool defines = false;
            for (const Value &d : a->dst)
               defines |= d.kind == ValueKind::Var && d.var == cond.var &&
                          d.version == cond.version;
            if (!defines)
               continue;
            group = g;
            slot = i;
            return true;
         }
      }
      return false;
   }

   bool pred_set_ok(const Node *a) const
   {
      AluOp set;
      if (a->kind != NodeKind::Alu || !a->alu || !set_op_for(a->alu->op, set))
         return no("condition is not a single PRED_SETcc");
      if (a->alu->pred_sel != 0 || a->src.size() != 2)
         return no("condition is not a single PRED_SETcc");
      /* A written PRED_SET result is 1.0/0.0 even for integer compares;
       * the backends never write it, so such code just stays a branch. */
      if (a->dst.empty() || a->dst[0].kind != ValueKind::None)
         return no("PRED_SET result is written");
      for (size_t i = 1; i < a->dst.size(); i++) {
         const Value &d = a->dst[i];
         if (d.kind != ValueKind::Var)
            return no("condition is not a single PRED_SETcc");
         VarKind k = sh.vars[d.var].kind;
         if (k != VarKind::ExecMask && k != VarKind::Pred)
            return no("condition is not a single PRED_SETcc");
         /* The If is the exec mask's only reader; the predicate must
          * have none, since it disappears with the PRED_SET. */
         auto it = uses.find({d.var, d.version});
         unsigned n = it == uses.end() ? 0 : it->second;
         if (n != (k == VarKind::ExecMask ? 1u : 0u))
            return no("exec mask or predicate read elsewhere");
      }
      return true;
   }

   /* Tries to convert the region r, which follows the nodes in `out` (its
    * parent's children before it, already visited).  On success the nodes
    * replacing r are appended to `out`; on failure `out` is unchanged. */
   bool try_convert(NodeList &out, Node *r)
   {
      if (r->kind != NodeKind::Region)
         return no("not an if region");
      RegionData &rd = r->region();
      if (r->loop || !rd.repeats.empty() || !rd.loop_phi.empty() || rd.departs.size() != 2 ||
          r->children.size() != 1 || out.empty())
         return no("not an if region");
      Node *dep_else = r->children[0];
      if (dep_else->kind != NodeKind::Depart || dep_else->target != r ||
          dep_else->dep_index != 1 || dep_else->children.empty())
         return no("not an if region");
      Node *n_if = dep_else->children[0];
      if (n_if->kind != NodeKind::If || n_if->src.size() != 1 || n_if->children.size() != 1)
         return no("not an if region");
      Node *dep_then = n_if->children[0];
      if (dep_then->kind != NodeKind::Depart || dep_then->target != r ||
          dep_then->dep_index != 0)
         return no("not an if region");
      const Value &cond = n_if->src[0];
      if (cond.kind != ValueKind::Var || sh.vars[cond.var].kind != VarKind::ExecMask ||
          cond.neg || cond.abs)
         return no("not an if region");

      for (const Node *phi : rd.phi) {
         if (phi->src.size() != 2 || phi->dst.size() != 1 ||
             phi->dst[0].kind != ValueKind::Var)
            return no("phi with modifiers or relative sources");
         for (const Value &s : phi->src)
            if (!movable_src(s) || s.neg || s.abs)
               return no("phi with modifiers or relative sources");
      }

      SideCost then_cost, else_cost;
      if (!side_ok(dep_then->children, 0, then_cost) ||
          !side_ok(dep_else->children, 1, else_cost))
         return false; /* side_ok said why */
      if (then_cost.alu + else_cost.alu - then_cost.copies - else_cost.copies +
             kFetchCost * (then_cost.fetches + else_cost.fetches) >
          kMaxRealAlu)
         return no("over 400 ALU instructions");

      Node *cfn = out.back();
      if (cfn->kind != NodeKind::Cf)
         return no("no ALU clause before the region");
      if (cfn->cf && cfn->cf->op != CfOp::ALU_PUSH_BEFORE && cfn->cf->op != CfOp::ALU)
         return no("no ALU clause before the region");
      Node *pgroup = nullptr;
      size_t pslot = 0;
      if (!find_pred_set(cfn, cond, pgroup, pslot))
         return no("condition is not a single PRED_SETcc");
      if (!indexed) {
         index_tree();
         indexed = true;
      }
      if (!pred_set_ok(pgroup->children[pslot]))
         return false; /* pred_set_ok said why */

      /* Work both sides do alike (the same ADD or RSQ at the start of THEN
       * and ELSE) runs once: ELSE's instruction is left to dce and its
       * readers, and the phis, read THEN's result.  Only instructions of
       * groups that need not stay whole (a DOT4 keeps its slots). */
      then_work.clear();
      same_as_new.clear();
      same_as_any = false;
      renamed_bits = 0;
      /* The ops THEN's work uses, and its work_bits: an ELSE instruction
       * with another op, or whose bit THEN did not set, cannot match, so
       * its key is not needed.  In a chain of if/else-if the ELSE side
       * holds all the inner levels' work while THEN is one arm; without
       * this every level would hash all of it. */
      then_op_gen++;
      uint64_t then_bits = 0;
      /* Every op has an entry: the ELSE scan tests without a bound. */
      if (then_op_mark.empty())
         then_op_mark.assign(kNumAluOps, 0);
      if (else_cost.alu)
         for (const Node *cf : dep_then->children)
            for (const Node *g : cf->children)
               if (g->kind == NodeKind::AluGroup &&
                   (g->children.size() <= 1 || !group_info(g).whole))
                  for (const Node *a : g->children)
                     if (uint64_t h; work_hash(a, h)) {
                        then_work.push_back({h, uint32_t(then_work.size()), a});
                        then_op_mark[size_t(a->alu->op)] = then_op_gen;
                        then_bits |= work_bit(a);
                     }
      /* Of THEN instructions doing the same work, the first is the one
       * ELSE's are renamed to: equal hashes stay in THEN's order (seq
       * rather than stable_sort, which takes a buffer from the heap). */
      std::sort(then_work.begin(), then_work.end(), [](const ThenWork &x, const ThenWork &y) {
         return x.hash < y.hash || (x.hash == y.hash && x.seq < y.seq);
      });
      auto then_same = [&](const Node *a, uint64_t h) -> const Node * {
         auto it = std::lower_bound(then_work.begin(), then_work.end(), h,
                                    [](const ThenWork &x, uint64_t k) { return x.hash < k; });
         for (; it != then_work.end() && it->hash == h; ++it)
            if (same_work(it->alu, a))
               return it->alu;
         return nullptr;
      };
      /* Whether v's variable had a value renamed (most operands: no), a
       * test small enough to sit in the loops below rather than in a call. */
      auto may_rename = [&](const Value &v) {
         if (v.kind != ValueKind::Var || !(renamed_bits >> (unsigned(v.var) & 63) & 1) ||
             size_t(v.var) >= renamed_var_gen.size() ||
             renamed_var_gen[size_t(v.var)] != then_op_gen)
            return false;
         const unsigned version = renamed_var_version[size_t(v.var)];
         return version == v.version || version == kManyVersions;
      };
      auto rename = [&](Value &v) {
         if (!may_rename(v))
            return;
         const ValueKey *to = nullptr;
         if (const unsigned id = value_id(v); id < same_as_gen.size()) {
            if (same_as_gen[id] == then_op_gen)
               to = &same_as_to[id];
         } else if (auto it = same_as_new.find({v.var, v.version}); it != same_as_new.end()) {
            to = &it->second;
         }
         if (to) {
            v.var = to->first;
            v.version = to->second;
         }
      };
      /* With no THEN work to match nothing is shared or renamed. */
      for (size_t i = 1; i < dep_else->children.size() && !then_work.empty(); i++)
         for (Node *g : dep_else->children[i]->children) {
            if (g->kind != NodeKind::AluGroup)
               continue; /* a fetch: its operands are not renamed */
            /* Whether the group must stay whole, asked only once one of its
             * instructions could match (-1 until then).  A group of one
             * instruction is never whole: no lookup. */
            int whole = !kShareSideWork ? 1 : g->children.size() > 1 ? -1 : 0;
            for (Node *a : g->children) {
               if (same_as_any)
                  for (Value &v : a->src)
                     if (may_rename(v))
                        rename(v);
               if (a->kind != NodeKind::Alu || !a->alu ||
                   then_op_mark[size_t(a->alu->op)] != then_op_gen ||
                   !(then_bits & work_bit(a)))
                  continue;
               if (whole < 0)
                  whole = group_info(g).whole;
               if (whole)
                  continue;
               if (uint64_t h; work_hash(a, h))
                  if (const Node *t_node = then_same(a, h)) {
                     const Value &t = t_node->dst[0], &d = a->dst[0];
                     if (const unsigned id = value_id(d); id < same_as_gen.size()) {
                        same_as_gen[id] = then_op_gen;
                        same_as_to[id] = {t.var, t.version};
                     } else {
                        same_as_new[{d.var, d.version}] = {t.var, t.version};
                     }
                     if (renamed_var_gen.size() <= size_t(d.var)) {
                        renamed_var_gen.resize(size_t(d.var) + 1, 0);
                        renamed_var_version.resize(size_t(d.var) + 1);
                     }
                     unsigned &version = renamed_var_version[size_t(d.var)];
                     if (renamed_var_gen[size_t(d.var)] != then_op_gen)
                        version = d.version;
                     else if (version != d.version)
                        version = kManyVersions;
                     renamed_var_gen[size_t(d.var)] = then_op_gen;
                     renamed_bits |= uint64_t(1) << (unsigned(d.var) & 63);
                     same_as_any = true;
                     shared++;
                  }
            }
         }
      if (same_as_any)
         for (Node *phi : rd.phi)
            rename(phi->src[1]);

      /* Phi sources that are plain copies made on a side are read by the
       * select directly when that costs no packing: always for a copy of a
       * register; for a constant when the other side's source is a
       * constant too (one select instead of two copies and a select), or
       * when the THEN side loads kMinConstCopies or more constants for
       * the selects (a table lookup lowered to a chain of ifs: each
       * level's constants would stay live through all of its ELSE side,
       * inner levels included).  Elsewhere selects reading constants pack
       * worse than the copies did (at most four literals and two constant
       * pairs per group).  dce drops the copies no longer read. */
      const auto [r_first, r_end] = r->id < span.size() ? span[r->id]
                                                        : std::pair<unsigned, unsigned>{0, 0};
      auto through_copy = [&](const Value &v) -> const Value & {
         if (v.kind != ValueKind::Var)
            return v;
         const auto *c = copy_defining(v);
         if (!c || c->second < r_first || c->second >= r_end)
            return v;
         return c->first->src[0];
      };
      /* then, else: operands of the phis or of copies on the sides, which
       * stay in place until the selects are built.  First what the copies
       * give, then the choice that needs const_copies. */
      sel_src.clear();
      unsigned const_copies = 0;
      for (const Node *phi : rd.phi) {
         const Value *then_v = &through_copy(phi->src[0]);
         const_copies += phi->src[0].kind == ValueKind::Var && then_v->kind != ValueKind::Var;
         sel_src.emplace_back(then_v, &through_copy(phi->src[1]));
      }
      const bool constants = const_copies >= kMinConstCopies;
      for (size_t k = 0; k < rd.phi.size(); k++) {
         const Value *&then_v = sel_src[k].first, *&else_v = sel_src[k].second;
         if (!constants && then_v->kind != ValueKind::Var && else_v->kind == ValueKind::Var)
            then_v = &rd.phi[k]->src[0];
         if (!constants && else_v->kind != ValueKind::Var && then_v->kind == ValueKind::Var)
            else_v = &rd.phi[k]->src[1];
      }

      /* The condition as a value.  An integer compare against zero (what
       * UIF becomes: PRED_SETNE_INT x, 0) needs no new value: the select
       * tests x itself with the matching CNDxx_INT, and the PRED_SET goes.
       * x then lives up to the selects instead of a SETcc result doing so,
       * so this never costs a register.  Otherwise the PRED_SETcc becomes
       * SETcc into a new temporary, in its place so the group still reads
       * the operands before anything writes. */
      const Node *pred = pgroup->children[pslot];
      AluOp sel_op = AluOp::CNDE_INT;
      bool then_first = false; /* select operands: cond, then, else */
      Value bool_val;
      /* cfn changes below: what side_ok summed of it no longer holds (a
       * new sum is made once its groups are in). */
      if (ClauseSum *sum = clause_sum(cfn))
         sum->cf = nullptr;
      /* (With no phi nothing would be left of an emptied clause.) */
      if (!rd.phi.empty() && direct_condition(pred, sel_op, then_first, bool_val)) {
         pgroup->children.erase(pgroup->children.begin() + long(pslot));
         pgroup->scratch = 0; /* checked again if a side holds it */
         if (pgroup->children.empty())
            cfn->children.erase(std::find(cfn->children.begin(), cfn->children.end(), pgroup));
      } else {
         AluOp set_op = AluOp::SETNE;
         set_op_for(pred->alu->op, set_op);
         AluInstr *set = sh.new_alu(set_op);
         set->slot = pred->alu->slot;
         set->dst.write = true;
         Node *set_node = sh.create(NodeKind::Alu);
         set_node->alu = set;
         set_node->cf_index = pred->cf_index;
         set_node->src = pred->src;
         set_node->dst.push_back(sh.new_temp());
         set->dst.chan = uint8_t(sh.vars[set_node->dst[0].var].chan);
         bool_val = set_node->dst[0];
         pgroup->children[pslot] = set_node;
         pgroup->scratch = 0;
      }

      /* ALU work joins the clause that held the PRED_SET; a fetch clause
       * follows it in the parent, and the ALU work after a fetch goes into
       * a new clause after that (bc_finalize joins neighbouring clauses
       * where it can).  Sides without fetches stay in cfn alone. */
      std::vector<Node *> after; /* new nodes after cfn, in order */
      Node *alu_to = cfn;
      size_t left = 0; /* groups still to move, and the selects */
      auto new_clause = [&](unsigned cf_index) {
         alu_to = sh.create(NodeKind::Cf);
         alu_to->cf_index = cf_index;
         alu_to->children.reserve(left); /* as cfn's below */
         after.push_back(alu_to);
      };
      auto move_groups = [&](const NodeList &nodes, size_t first) {
         for (size_t i = first; i < nodes.size(); i++) {
            if (is_fetch_clause(nodes[i])) {
               after.push_back(nodes[i]);
               alu_to = nullptr;
               continue;
            }
            const NodeList &groups = nodes[i]->children;
            if (groups.empty())
               continue;
            if (!alu_to)
               new_clause(nodes[i]->cf_index);
            /* A clause's groups in one copy, not a push_back each: in a
             * chain of if/else-if each level moves all of its ELSE side. */
            NodeList &to = alu_to->children;
            const size_t at = to.size();
            to.resize(at + groups.size());
            std::copy(groups.begin(), groups.end(), to.begin() + long(at));
            left -= groups.size();
         }
      };
      /* cfn takes (at most) every group of both sides and the selects:
       * one allocation instead of one per doubling. */
      size_t joining = rd.phi.size();
      for (const Node *c : dep_then->children)
         joining += c->children.size();
      for (const Node *c : dep_else->children)
         joining += c->children.size();
      cfn->children.reserve(cfn->children.size() + joining);
      left = joining;
      const size_t own = cfn->children.size();
      move_groups(dep_then->children, 0);
      move_groups(dep_else->children, 1);
      const size_t moved_end = cfn->children.size();
      if (!alu_to && !rd.phi.empty())
         new_clause(cfn->cf_index);

      /* One select per group: bc_finalize and the post_scheduler pack them.
       * A phi whose sides agree needs no select, only a copy (which
       * coalescing usually removes). */
      for (size_t k = 0; k < rd.phi.size(); k++) {
         /* The phi goes with the region: its value moves to the select. */
         Value &d = rd.phi[k]->dst[0];
         const Value &then_v = *sel_src[k].first;
         const Value &else_v = *sel_src[k].second;
         const bool same = same_value(then_v, else_v);
         AluInstr *sel = sh.new_alu(same ? AluOp::MOV : sel_op);
         sel->dst.write = true;
         sel->dst.chan = uint8_t(sh.vars[d.var].chan & 3);
         sel->slot = sel->dst.chan;
         Node *a = sh.create(NodeKind::Alu);
         a->alu = sel;
         a->cf_index = alu_to->cf_index;
         if (same) {
            a->src.push_back(then_v);
         } else {
            /* In place (the list holds three inline), not a push_back call
             * each: a big shader makes thousands of selects. */
            a->src.resize(3);
            a->src[0] = bool_val;
            a->src[1] = then_first ? then_v : else_v;
            a->src[2] = then_first ? else_v : then_v;
         }
         a->dst.push_back(std::move(d));
         Node *g = sh.create(NodeKind::AluGroup);
         g->children.push_back(a);
         alu_to->children.push_back(g);
         if (same && is_plain_copy(a))
            note_copy(a->dst[0], a, r_first);
      }

      /* Without fetches every group of both sides went to cfn, and side_ok
       * above added them up. */
      if (!then_cost.fetches && !else_cost.fetches) {
         ClauseSum sum;
         sum.cf = cfn;
         sum.size = cfn->children.size();
         sum.head = own;
         sum.end = moved_end;
         sum.groups = then_cost.groups + else_cost.groups;
         sum.alu = then_cost.alu + else_cost.alu;
         sum.copies = then_cost.copies + else_cost.copies;
         set_clause_sum(sum);
      }

      /* The PRED_SET was cfn's only work and a fetch came first: an empty
       * clause would still cost a CF instruction. */
      if (cfn->children.empty())
         out.pop_back();
      out.insert(out.end(), after.begin(), after.end());
      /* sh.regions is indexed by region id (liveness keeps per-region
       * sets), so the region stays there, emptied: nothing to walk. */
      rd.phi.clear();
      r->children.clear();
      rd.departs.clear();
      converted++;
      return true;
   }

   void run(Node *n, unsigned depth)
   {
      /* The parser bounds nesting; this guards trees built by other passes. */
      if (depth > 256)
         return;
      /* A clause holds groups or fetches, never a region. */
      if (n->kind == NodeKind::Cf)
         return;
      bool regions = false;
      for (Node *c : n->children) {
         run(c, depth + 1);
         regions |= c->kind == NodeKind::Region;
      }
      /* Only a region can convert; most lists (groups, clauses) hold none. */
      if (!regions)
         return;
      /* The children list is rebuilt in one pass rather than edited in
       * place: a block of many ifs in a row would otherwise move its tail
       * once per converted if.  It is built in spare_list, which then keeps
       * the old list's storage for the next list: no allocation per list
       * (the recursion above is done before this list is built). */
      NodeList &out = spare_list;
      out.clear();
      out.reserve(n->children.size());
      for (Node *c : n->children) {
         why = nullptr;
         if (try_convert(out, c))
            continue;
         if (why && kept && c->kind == NodeKind::Region && !c->loop)
            (*kept)[why]++;
         out.push_back(c);
      }
      n->children.swap(out);
   }
};

} // namespace

namespace {

/* `kept` (why regions stayed branches) only when a caller asks: counting
 * into a map of strings costs an allocation per kept region. */
bool convert(RegionShader &sh, Diagnostics &diags, std::map<std::string, unsigned> *kept,
             unsigned &converted)
{
   if (!sh.root) {
      diags.error("if_conversion: no region tree");
      return false;
   }
   Converter c(sh, kept);
   c.run(sh.root, 0);
   if (c.converted)
      sh.number_values();
   converted = c.converted;
   return true;
}

} // namespace

bool if_conversion(RegionShader &sh, Diagnostics &diags, IfConversionStats *stats)
{
   unsigned n = 0;
   if (!convert(sh, diags, stats ? &stats->kept : nullptr, n))
      return false;
   if (stats)
      stats->converted += n;
   return true;
}

/* The pipeline's entry (sb_core.cpp).  Converted sides now sit in one
 * block, so the same work done by sibling or nested arms (not only at the
 * start of THEN and ELSE, which try_convert shares) is numbered once by a
 * second gvn: the dolphin ubershaders compute one light vector's DP3 and
 * RSQ in several arms of a switch chain (CYPRESS corpus alu_groups
 * 89603 -> 88764 alone, 81621 with gvn's numbering of whole dot products).
 * The stats overload converts only, so its tests see conversion alone. */
bool if_conversion(RegionShader &sh, Diagnostics &diags)
{
   unsigned n = 0;
   if (!convert(sh, diags, nullptr, n))
      return false;
   return !n || gvn(sh, diags);
}

} // namespace sbcc::r600::sb::region
