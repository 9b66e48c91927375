/*
 * Structured SSA IR of sb (the classic Mesa sb design, see docs/sb.md
 * "Structured SSA IR"): the control flow of a bytecode Program as a tree of
 * regions, departs, repeats and ifs, with instruction nodes that point back
 * into the bytecode model, and values renamed into SSA versions.
 *
 * Namespace sb::region, separate from sb_ir.h (the clause-local register IR of the existing
 * passes): this is the foundation for SSA-based passes, RA and scheduling.
 * May use: the r600 bytecode model and common.
 */
#pragma once

#include <cassert>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "common/diag.h"
#include "r600/r600_bytecode.h"
#include "r600/sb/sb_block_cache.h"
#include "r600/sb/sb_small_vector.h"

namespace sbcc::r600::sb::region {

/* A storage location before SSA: what a version number is attached to. */
enum class VarKind : uint8_t {
   Gpr,       /* R<index>.<chan> */
   AddrReg,   /* AR.<chan>, written by MOVA* */
   LoopIndex, /* aL, the LOOP_START_DX10 counter */
   Pred,      /* the ALU predicate (PRED_SET* with update_pred) */
   ExecMask,  /* the active mask (PRED_SET* with update_exec_mask) */
   Temp,      /* an unwritten result read through PV/PS */
};

struct Var {
   VarKind kind = VarKind::Gpr;
   unsigned index = 0;
   unsigned chan = 0;
};

enum class ValueKind : uint8_t {
   None,    /* no operand (an ALU result that is not written) */
   Var,     /* a variable at an SSA version */
   Rel,     /* R[AR + base].chan: indirect access to an array */
   KCache,  /* constant through a kcache lock */
   Inline,  /* inline constant selector (0, 1.0, 0.5, ...) */
   Literal, /* literal dword of the group */
};

struct RelParts;

struct Value {
   ValueKind kind = ValueKind::None;
   bool resolved = false;
   bool neg = false, abs = false;
   int var = -1;         /* Var: index into RegionShader::vars */
   unsigned version = 0; /* SSA version; 0 = the value on entry to the shader */
   /* KCache: bank, constant (when the lock resolves it), set/index otherwise. */
   unsigned index = 0;
   uint32_t literal = 0; /* Literal bits; Inline: the selector */
   /* Narrow so that a Value is four words: operand lists copy them a lot. */
   uint8_t bank = 0;
   uint8_t chan = 0;
   uint16_t base = 0; /* Rel: first GPR of the array */

   /* Rel: the address (a Var value) and the array elements the access may
    * read (mayuse) and, for a destination, may write (maydef).  A rel write
    * keeps the old values of the elements it does not hit, so it uses the
    * previous versions too.  All three are empty for any other value. */
   Value *rel() { return rel_ ? rel_addr() : nullptr; }
   const Value *rel() const { return rel_ ? rel_addr() : nullptr; }
   std::span<Value> mayuse();
   std::span<const Value> mayuse() const;
   std::span<Value> maydef();
   std::span<const Value> maydef() const;
   /* The parts to fill in (made on first use) and their removal. */
   RelParts &rel_parts();
   void clear_rel() { rel_.reset(); }

   Value() = default;
   Value(const Value &o) { *this = o; }
   Value &operator=(const Value &o)
   {
      kind = o.kind;
      resolved = o.resolved;
      neg = o.neg;
      abs = o.abs;
      var = o.var;
      version = o.version;
      index = o.index;
      literal = o.literal;
      bank = o.bank;
      chan = o.chan;
      base = o.base;
      if (o.rel_ || rel_)
         copy_rel_parts(o);
      return *this;
   }
   Value(Value &&) = default;
   Value &operator=(Value &&) = default;
   ~Value();

 private:
   /* The parts relative accesses have, in one block that other values do
    * not pay for: Values are copied and destroyed in every pass.  RelParts
    * holds Values, so it is incomplete here: rel_addr is defined after it.
    * The deleter is out of line: inline, its recursion through RelParts'
    * Values kept the compiler from inlining ~unique_ptr, so destroying any
    * Value was a call. */
   struct RelPartsDeleter {
      void operator()(RelParts *p) const;
   };
   std::unique_ptr<RelParts, RelPartsDeleter> rel_;
   Value *rel_addr() const;
   void copy_rel_parts(const Value &o);
};
static_assert(sizeof(Value) <= 32, "a Value should stay four words");

struct RelParts {
   std::unique_ptr<Value> addr;
   std::vector<Value> mayuse, maydef;
};

inline Value::~Value() = default;
inline Value *Value::rel_addr() const { return rel_->addr.get(); }
inline std::span<Value> Value::mayuse()
{
   return rel_ ? std::span<Value>(rel_->mayuse) : std::span<Value>();
}
inline std::span<const Value> Value::mayuse() const
{
   return rel_ ? std::span<const Value>(rel_->mayuse) : std::span<const Value>();
}
inline std::span<Value> Value::maydef()
{
   return rel_ ? std::span<Value>(rel_->maydef) : std::span<Value>();
}
inline std::span<const Value> Value::maydef() const
{
   return rel_ ? std::span<const Value>(rel_->maydef) : std::span<const Value>();
}
inline RelParts &Value::rel_parts()
{
   if (!rel_)
      rel_.reset(new RelParts);
   return *rel_;
}

/* A node's operands stay inside the node (sb_small_vector.h) in the common
 * case: up to three sources, and one destination (only fetches, a few
 * predicate writes and MOVA have more; a second inline destination would
 * cost every node a Value for them). */
using ValueList = SmallVector<Value, 3>;
using DstList = SmallVector<Value, 1>;

enum class NodeKind : uint8_t {
   Root,     /* the whole program: a plain container */
   Region,   /* entered at the top; left only through its departs */
   Depart,   /* run the contents, then leave the target region */
   Repeat,   /* run the contents, then jump to the target region's entry */
   If,       /* run the contents when cond is true for the lane */
   Cf,       /* a CF instruction; clause contents are its children */
   AluGroup, /* one VLIW group: its instructions are its children, and it
              * has no operands (dst, src) of its own */
   Alu,      /* one ALU instruction */
   Fetch,    /* one TEX/VTX fetch */
   Phi,      /* region exit: one source per depart */
   LoopPhi,  /* region entry: source 0 from outside, one per repeat */
   Psi,      /* after a predicated write: dst = PRED == pred_sel ? new : old;
              * src = {PRED, new (a temporary), old}, alu = the instruction */
};

struct Node;
/* Children stay inside the node up to two (most ALU groups, and the
 * copy groups ra_split makes, hold one instruction): a heap allocation per
 * group was most of what building and copying the tree cost.  More inline
 * room would take the Node past four cache lines. */
using NodeList = SmallVector<Node *, 2>;

/* What only a Region has: its phis and the departs/repeats that feed them.
 * Kept apart from Node (RegionShader::create_region makes one per region)
 * because regions are few and these lists would otherwise take a fifth of
 * every node, which large shaders pay for in every walk of the tree. */
struct RegionData {
   std::vector<Node *> loop_phi, phi;
   std::vector<Node *> departs, repeats;
   std::vector<int> defs; /* ssa_prepare: variables written inside, sorted */
};

/* Large shaders have tens of thousands of nodes and every pass walks them
 * all: the fields a walk reads first (kind, children, the bytecode
 * pointers) share the first cache line, and the node is 256 bytes. */
struct Node {
   NodeKind kind = NodeKind::Root;
   bool loop = false; /* Region */
   /* Scratch for the pass running now (a dense index or a mark, e.g.
    * mark_live); meaningless once that pass returns. */
   mutable uint32_t scratch = 0;
   NodeList children;

   /* Bytecode the node stands for (nullptr when synthetic). */
   const CfInstr *cf = nullptr;
   const AluGroup *group = nullptr;
   const AluInstr *alu = nullptr;
   const FetchInstr *fetch = nullptr;

   DstList dst;
   ValueList src;

   unsigned cf_index = 0;
   /* Region: its index in RegionShader::regions.  Depart / Repeat: the
    * position among the target's departs/repeats (the phi / loop_phi source
    * it feeds, minus 1 for repeats).  One field: no node is both, and a
    * Node has no room to spare. */
   union {
      unsigned id = 0;
      unsigned dep_index;
   };
   RegionData *region_data = nullptr; /* set for (and only for) a Region */
   RegionData &region()
   {
      assert(region_data);
      return *region_data;
   }
   const RegionData &region() const
   {
      assert(region_data);
      return *region_data;
   }

   /* Depart / Repeat: the region it leaves or repeats. */
   Node *target = nullptr;

   /* If: the condition, also src[0]. */
};
static_assert(sizeof(Node) <= 256, "a Node should stay four cache lines");

/* Whether an instruction reads or writes a relative-addressed value: a
 * GPR array access, which keeps its group fixed (alu_group_is_fixed, RA's
 * alu_fixes_group). */
inline bool has_rel_operand(const Node *n)
{
   for (const Value &d : n->dst)
      if (d.kind == ValueKind::Rel)
         return true;
   for (const Value &s : n->src)
      if (s.kind == ValueKind::Rel)
         return true;
   return false;
}

/* A TEX, VTX or VTX_TC clause. */
inline bool is_fetch_clause(const Node *n)
{
   return n->kind == NodeKind::Cf && n->cf &&
          (n->cf->op == CfOp::TEX || n->cf->op == CfOp::VTX || n->cf->op == CfOp::VTX_TC);
}

/* Calls fn on root and every node below it: each node before its
 * children, the last child's subtree first (an explicit stack: trees of
 * large shaders are too deep for recursion to be safe). */
template <typename Fn> void for_each_node(const Node *root, Fn &&fn)
{
   std::vector<const Node *> stack{root};
   while (!stack.empty()) {
      const Node *n = stack.back();
      stack.pop_back();
      for (const Node *c : n->children)
         stack.push_back(c);
      fn(n);
   }
}

/* An array that relative GPR addressing may reach: R<first>..R<first+count-1>. */
struct RelArray {
   unsigned first = 0;
   unsigned count = 0;
};

struct RegionShader {
   ChipClass chip = ChipClass::Evergreen;
   const Program *prog = nullptr;
   Node *root = nullptr;
   /* From the thread's block cache, like gpr_var: glibc serves blocks of
    * a few KiB through its slow paths, every shader. */
   CachedVector<Var> vars;
   std::vector<Node *> regions; /* by Region::id; a region a pass removed from the
                                 * tree stays here with no children, phis or departs */
   /* create() takes nodes from blocks, constructing each only when it is
    * handed out (a node is a few hundred bytes, and most of the last block
    * is never used).  Blocks grow from kNodeBlock nodes to kNodeBlock <<
    * kNodeBlockGrowth, so a small shader takes one small block and a big
    * one a few large ones, which the thread's block cache
    * (sb_block_cache.h) keeps for the next shader. */
   static constexpr size_t kNodeBlock = 64;
   static constexpr size_t kNodeBlockGrowth = 6;
   static constexpr size_t node_block_capacity(size_t b)
   {
      return kNodeBlock << (b < kNodeBlockGrowth ? b : kNodeBlockGrowth);
   }
   /* Raw storage for node_block_capacity(index) nodes each: a small
    * shader's few in the list itself. */
   SmallVector<Node *, 4> node_blocks;
   Node *node_next = nullptr;       /* where create() constructs the next node */
   Node *node_end = nullptr;        /* the end of node_blocks.back() */
   size_t nodes_in_full_blocks = 0; /* in every block but the last */
   /* Whether any node's Value may hold relative-access parts: set by the
    * parser when it makes one (every other Value with parts is a copy of
    * one of those).  Without any, the destructor leaves the nodes whose
    * lists stayed inline unvisited past their capacities: destroying
    * every operand to look at its parts took a cache line or two per node. */
   bool has_rel_parts = false;

   RegionShader() = default;
   RegionShader(const RegionShader &) = delete;
   RegionShader &operator=(const RegionShader &) = delete;
   ~RegionShader();
   /* Every node create() has handed out (removed ones included): a bound
    * for per-node tables indexed by a pass's own numbering. */
   size_t node_count() const
   {
      return nodes_in_full_blocks +
             (node_blocks.empty() ? 0 : size_t(node_next - node_blocks.back()));
   }
   /* The GPR arrays relative addressing may reach (from RegionParseOptions).
    * Every variable inside them keeps its register: RA precolours them. */
   std::vector<RelArray> arrays;

   /* ssa_rename: the highest version of each variable (0 = only the entry
    * value).  Passes that create values keep it current (new_temp). */
   std::vector<unsigned> version_count;

   /* Instructions made by passes (copies, selects, folded constants): a
    * synthetic Alu node points its `alu` here.  Only op, slot-independent
    * flags (clamp, omod) and dst.chan of such an instruction matter; its
    * operands are the node's Values. */
   AluInstr *new_alu(AluOp op);
   /* Both made on first use: libstdc++'s deque allocates its map and a
    * first block when it is constructed, and many shaders make no
    * instruction or no region. */
   std::optional<std::deque<AluInstr>> synth_alu;
   std::optional<std::deque<RegionData>> region_data; /* one per create_region() */

   /* Inline: every pass that adds instructions calls it per node, and the
    * block's end is a pointer compare. */
   Node *create(NodeKind kind)
   {
      if (node_next == node_end)
         new_node_block();
      /* Default- rather than value-initialized: every member has its
       * initializer, and value-initialization would first zero the
       * operands' inline storage. */
      Node *n = ::new (static_cast<void *>(node_next)) Node;
      node_next++;
      n->kind = kind;
      return n;
   }
   Node *create_region(bool loop);
   /* The variable of a register channel or other storage, made on first
    * use.  GPR channels are most operands, of every instruction a parse
    * lifts: their ids are read from a flat table, inline (var_id_slow makes
    * the table and its entries, and looks up everything else). */
   int var_id(VarKind kind, unsigned index, unsigned chan)
   {
      if (kind == VarKind::Gpr && index < kFastGprs && chan < 4 && !gpr_var.empty()) {
         const int id = gpr_var[index * 4 + chan];
         if (id >= 0)
            return id;
      }
      return var_id_slow(kind, index, chan);
   }
   int var_id_slow(VarKind kind, unsigned index, unsigned chan);
   void new_node_block();
   /* var_id's tables: GPR channels R0..R127 by index * 4 + chan (-1: none
    * yet); AR, aL, the predicate and the exec mask (index 0) by
    * (kind - 1) * 4 + chan, as id + 1 (0: none yet), which nearly every
    * shader names and a map would allocate for; every other variable in
    * the map. */
   static constexpr unsigned kFastGprs = 128;
   CachedVector<int> gpr_var;
   unsigned special_var[4 * 4] = {};
   std::map<std::tuple<int, unsigned, unsigned>, int> var_map;

   /* A fresh SSA value (a new Temp variable at version 1), for results of
    * instructions a pass creates. */
   Value new_temp();

   /* Dense numbering of SSA values (var, version) for per-value tables:
    * number_values() fixes the numbering (call again after passes created
    * values); value_id() of a Var value; num_values() is the table size. */
   void number_values();
   unsigned value_id(const Value &v) const { return value_base[v.var] + v.version; }
   unsigned value_id(int var, unsigned version) const { return value_base[var] + version; }
   unsigned num_values() const { return value_total; }
   std::vector<unsigned> value_base;
   unsigned value_total = 0;
};

/* True when the variable is a GPR channel inside one of the shader's
 * relative-addressed arrays (those keep their registers throughout). */
bool var_in_array(const RegionShader &sh, int var);

struct RegionParseOptions {
   std::vector<RelArray> arrays;
   /* Take `arrays` from infer_rel_arrays() instead, when the parser meets
    * the first relative access: most programs have none, and the
    * inference walks every instruction. */
   bool infer_arrays = false;
   /* Accept CALL_FS as the first CF (vertex shaders: the fetch shader loads
    * the inputs, which are then entry values).  Off by default: other calls
    * stay refused, and so does CALL_FS unless the caller asks. */
   bool fetch_shader_call = false;
};

/* The arrays relative GPR addressing may reach when nothing declares them:
 * one array from the lowest relative base to the highest GPR the program
 * uses (empty when nothing is addressed relatively). */
std::vector<RelArray> infer_rel_arrays(const Program &prog);

/* Bytecode -> region tree (not yet in SSA).  The program must outlive the
 * result.  Unsupported constructs: nullptr with one diagnostic naming the CF
 * index. */
std::unique_ptr<RegionShader> region_parse(const Program &prog, const RegionParseOptions &opts,
                                           Diagnostics &diag);

/* Collects the variables written in each region and creates the phi and
 * loop_phi nodes (sources unset). */
void ssa_prepare(RegionShader &sh);
/* Assigns SSA versions to every definition and use, and the phi sources. */
void ssa_rename(RegionShader &sh);

std::string value_name(const RegionShader &sh, const Value &v);
/* Indented text dump of the tree with phis and SSA versions. */
std::string region_dump(const RegionShader &sh);

} // namespace sbcc::r600::sb::region
