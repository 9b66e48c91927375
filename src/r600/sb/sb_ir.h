/*
 * sb: the r600 bytecode optimizer -- its intermediate representation.
 *
 * This first stage of sb works on the program as Mesa's plain backend laid
 * it out: the CF list stays as it is (branches, loops, exports, fetch
 * clauses are carried through untouched), and each ALU clause is lifted into
 * groups of ALU nodes whose operands are values rather than selectors.
 * What the value form buys is independence from the group layout: a PV/PS
 * read names the node that produced it, a literal carries its bits instead
 * of a LITERAL.chan index, so the post-scheduler can move instructions
 * between groups and rebuild slots, literals, bank swizzles and PV
 * forwarding from scratch.
 *
 * Groups the scheduler must not touch (predicate/AR/kill/exec-mask
 * writers, reductions, interpolation, relative addressing, PV chains whose
 * value never reaches a register) are marked `fixed` and are emitted
 * verbatim; they also bound the stretches the scheduler repacks.
 *
 * Not yet here (see docs/sb.md): the structured region/depart/repeat tree
 * and SSA form with phi/loop_phi/psi, which register allocation needs.
 *
 * Owns: src/r600/sb.  May use: common, tgsi (enums), the r600 model.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "r600/r600_bytecode.h"
#include "r600/sb/sb_block_cache.h"
#include "r600/sb/sb_small_vector.h"

namespace sbcc::r600::sb {

enum class ValueKind : uint8_t {
   Gpr,      /* sel = GPR index (clause temporaries included), chan */
   KCache,   /* sel = kcache selector, chan */
   ConstFile,/* R600/R700 constant file, sel, chan */
   Param,    /* Evergreen interpolation parameter */
   Inline,   /* 0, 1, 0.5, 1_INT, -1_INT and other special selectors */
   Literal,  /* bits */
   Forward,  /* PV/PS: node = index of the producing ALU node in the clause */
   Special,  /* any other selector (LDS queues, hardware ids): kept verbatim */
};

/* The two bytes first, so that the Value packs into three words: an
 * AluNode holds six of them (the operands and the source order's), and
 * the scheduler and its checker walk big clauses' nodes. */
struct Value {
   ValueKind kind = ValueKind::Gpr;
   uint8_t chan = 0;
   uint16_t sel = 0;
   uint32_t bits = 0;  /* Literal */
   int32_t node = -1;  /* Forward */

   bool operator==(const Value &) const = default;
};

struct Operand {
   Value value;
   bool neg = false;
   bool abs = false;
   bool rel = false;
};

struct AluNode {
   /* The instruction as decoded: op, destination, modifiers.  Its src[]
    * selectors are only authoritative for nodes in fixed groups. */
   AluInstr bc;
   std::array<Operand, 3> src{};
   uint32_t id = 0;   /* position in the clause, in program order */
   uint32_t group = 0;/* index of the group it was decoded from */
   bool dead = false; /* removed by dce_cleanup; in no group */
   /* Set by post_scheduler when it renames clause-local values or folds a
    * copy: the destination and operands of the source order, so that
    * sched_checker can compare the schedule with what the source meant.
    * A MOV folded into its operand's producer is dead with folded_into
    * naming that producer. */
   bool has_pre = false;
   AluDst pre_dst{};
   std::array<Operand, 3> pre_src{};
   int32_t folded_into = -1;
   bool writes_gpr() const { return bc.dst.write || alu_is_op3(bc.op); }
};

/* A group's node ids and slots: a group has at most five instructions,
 * so the lists live inside the group (two heap lists per group were most
 * of the parser's time and much of the scheduler's). */
using GroupNodeIds = SmallVector<uint32_t, 5>;
using GroupSlots = SmallVector<uint8_t, 5>;

struct GroupNode {
   /* User-provided, so that a value-initialized group (emplace_back())
    * is not zeroed first: its ~300 bytes are mostly inline storage that
    * the member initializers leave unused. */
   GroupNode() {}

   GroupNodeIds nodes; /* ids into AluClause::nodes, slot order */
   /* Slot of each node (non-fixed groups).  `fixed` may take the list's
    * tail padding: with it the fields every pass reads of a group fit in
    * its first 64 bytes, not 65. */
   [[no_unique_address]] GroupSlots slots;
   bool fixed = false;
   AluGroup original;           /* emitted verbatim when fixed; empty otherwise */
};

/* The clause lists come from the thread's block cache (sb_block_cache.h):
 * a median shader's are a few KiB each, which malloc served through its
 * slow paths every shader. */
struct AluClause {
   CachedVector<AluNode> nodes;
   CachedVector<GroupNode> groups;
   /* The hardware form of `groups` that post_scheduler built to check the
    * clause's size, reused by bc_builder instead of building it again.
    * Empty when there is none; a pass that changes the clause after
    * post_scheduler must clear it (the clause-local passes before it do).
    * bc_builder moves it out, hence mutable. */
   mutable std::vector<AluGroup> built;
};

struct CfNode {
   CfInstr cf;       /* groups emptied for ALU clauses: they live in `alu` */
   AluClause alu;
   bool is_alu = false;
};

struct Shader {
   ChipClass chip = ChipClass::Evergreen;
   CachedVector<CfNode> cf;
};

/* Structural statistics of a shader, as shader-db reports them. */
struct ShaderCounts {
   unsigned alu_groups = 0;
   unsigned alu_instrs = 0;
   unsigned cf = 0;
   unsigned fetches = 0;
   unsigned literals = 0;
};
ShaderCounts count_shader(const Shader &sh);
ShaderCounts count_program(const Program &prog);

/* The sbdump listing: one line per CF node, group and ALU node, operands
 * as values (PV/PS as @node references, literals as hex bits). */
std::string dump_shader(const Shader &sh);

} // namespace sbcc::r600::sb
