/*
 * The SSA passes of sb over the structured region tree (sb_region_ir.h),
 * one file each, in pipeline order:
 *
 *   region_parse -> ssa_prepare -> ssa_rename
 *   -> gvn (+ peephole) -> if_conversion -> dce_cleanup -> gcm
 *   -> ra_split -> ra_coalesce -> ra_init -> ra_checker
 *   -> bc_finalize                         (tree + allocation -> Program)
 *
 * after which the clause-local passes of sb_passes.h (bc_parser on the
 * finalized program, post_scheduler, bc_builder) pack the VLIW groups.
 *
 * Contract between the passes, so each can be written and tested alone:
 *  - Values of VarKind Gpr at version 0 are the registers on entry
 *    (hardware-loaded inputs); they keep their register.  So does every
 *    value of a variable inside a relative-addressed array (var_in_array):
 *    passes must not extend such a value's life past a later definition of
 *    the same variable, and RA precolours them.
 *  - AddrReg, LoopIndex, Pred and ExecMask values are not allocated.
 *  - New instructions: an Alu node whose `alu` points into
 *    RegionShader::synth_alu (new_alu), inside an AluGroup node (group ==
 *    nullptr when synthetic).  A new ALU clause is a Cf node with cf ==
 *    nullptr whose children are AluGroup (and Psi) nodes.  An AluGroup is
 *    one VLIW group: all of its instructions read before any writes.
 *  - An Alu node's operands are its Values (src[i], with neg/abs); the
 *    instruction's own src selectors, dst gpr and bank swizzle are stale
 *    after the first pass and must not be read.  op, clamp, omod, pred_sel,
 *    update_exec_mask/update_pred and index_mode stay authoritative.
 *  - Every pass returns false with a diagnostic for input it cannot handle;
 *    the driver then uses the clause-local pipeline on the source program.
 *
 * May use: the r600 model, common, src/ra.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"
#include "r600/r600_shader_info.h"
#include "r600/sb/sb_region_ir.h"

namespace sbcc::r600::sb::region {

/* ---- liveness and dce_cleanup (sb_region_liveness.cpp, sb_region_dce_cleanup.cpp) ---- */

/* Per SSA value (value_id): whether anything reads it.  Loops are handled
 * through their loop_phis.  Fills `used`, sized num_values(). */
void liveness_used(const RegionShader &sh, std::vector<bool> &used);
/* dce's marking (as live_instructions in sb_ra.h, without building a set):
 * fills `used` as liveness_used does, numbers every node in the tree (phis
 * included) in Node::scratch and sets live[Node::scratch] to 1 when live
 * code needs the node, else 0.  `live` is resized, not cleared: entries
 * past the nodes are left as they were. */
void mark_live(const RegionShader &sh, std::vector<bool> &used, std::vector<uint8_t> &live);

/* Removes instructions (and phis) whose every result is unused and that
 * have no other effect (no exec-mask/predicate/AR write that is read, no
 * kill, no fetch, no export, no relative write).  Iterates to a fixpoint. */
bool dce_cleanup(RegionShader &sh, Diagnostics &diags);

/* ---- gvn and peephole (sb_region_gvn.cpp, sb_peephole.cpp) ---- */

/* Global value numbering over the dominator order of the tree, with
 * constant folding and algebraic simplification driven by a rule table;
 * MOV copies are propagated into their uses where the operand kinds allow. */
bool gvn(RegionShader &sh, Diagnostics &diags);
/* Local rewrites gvn leaves: modifier folding (MOV -x into a use's neg),
 * SETcc + PRED_SETNE pairs into one PRED_SETcc, and the like. */
bool peephole(RegionShader &sh, Diagnostics &diags);

/* ---- if_conversion (sb_if_conversion.cpp) ---- */

/* Small ALU-only if/else regions become straight-line code: both sides run
 * speculatively and each phi becomes a CNDxx select on the condition. */
bool if_conversion(RegionShader &sh, Diagnostics &diags);
/* The same, adding the number of ifs it converted to `stats` (for sbstat). */
struct IfConversionStats {
   unsigned converted = 0;
   std::map<std::string, unsigned> kept; /* why regions stayed branches: count */
};
bool if_conversion(RegionShader &sh, Diagnostics &diags, IfConversionStats *stats);

/* ---- gcm (sb_gcm.cpp) ---- */

/* Global code motion: effect-free ALU work whose operands do not change in
 * a loop moves into a new ALU clause before the loop (inner loops first).
 * Clause grouping is bc_finalize's. */
bool gcm(RegionShader &sh, Diagnostics &diags);

/* ---- register allocation (sb_ra_split.cpp, sb_ra_coalesce.cpp, sb_ra_init.cpp,
 *      sb_ra_checker.cpp; shared state in sb_ra.h) ---- */

/* Where an SSA value lives after allocation. */
struct RegAssign {
   int16_t gpr = -1; /* -1: not a register value (AR, loop index, pred, exec mask, unused) */
   uint8_t chan = 0;
};

struct Allocation {
   std::vector<RegAssign> reg; /* by value_id */
   unsigned num_gprs = 0;      /* highest allocated GPR + 1 */
};

/* The allocation the source program already had: every value stays in its
 * variable's register; Temp values (results read only through PV/PS) get
 * channels of registers above all others.  Valid only while no pass has
 * moved or merged values (bc_finalize's round-trip tests use it).
 * Implemented in sb_bc_finalize_shared.cpp. */
Allocation identity_allocation(const RegionShader &sh);

/* ---- bc_finalize (sb_bc_finalize.cpp) ---- */

/* An AluGroup node whose instructions must stay in one group on their
 * slots: reductions (DOT4, CUBE, MAX4, ...), INTERP_*, Cayman's replicated
 * transcendentals, MOVA*, PRED_SET*, KILL*, relative GPR addressing,
 * predicated or exec-mask/predicate-updating instructions.  Shared by RA
 * (values defined there keep the slot's channel) and bc_finalize (keeps
 * the group; other groups may be split one instruction per group).
 * Implemented in sb_bc_finalize_shared.cpp. */
bool alu_group_is_fixed(const Node *group);

/* What alu_group_is_fixed asks of an op, by op (and, as a superset, RA's
 * alu_op_keeps_group_fixed, sb_ra.h): the one list of the ops that keep
 * their group whole.  constexpr, from the ISA tables (alu_op_info is not
 * constexpr), so both tabulate it at compile time. */
enum : uint8_t {
   kOpFixesGroup = 1,      /* keeps its group fixed, whatever its operands */
   kOpReplicatedTrans = 2, /* Cayman runs it replicated over x..z(w) (no trans slot) */
};
constexpr uint8_t alu_op_group_traits(AluOp op)
{
   const AluOpInfo &info = kAluOpInfo[unsigned(op)];
   const uint32_t special = AF_PRED | AF_PRED_PUSH | AF_KILL | AF_MOVA | AF_INTERP |
                            AF_PREV_NEXT | AF_PREV_INTERLEAVE | AF_F64;
   const unsigned multi = kSlot4 | kSlotXY | kSlotZW;
   const std::string_view name = info.name;
   const unsigned cayman = info.slots[chip_index(ChipClass::Cayman)];
   const bool fixes = (info.flags & special) ||
                      (info.slots[chip_index(ChipClass::Evergreen)] & multi) ||
                      (cayman & multi) || op == AluOp::ALU_NOP || name.starts_with("LDS") ||
                      name.starts_with("GDS") || name.starts_with("SET_CF_IDX");
   const bool replicated = (cayman & kSlotS) && !(cayman & kSlotV);
   return uint8_t((fixes ? kOpFixesGroup : 0) | (replicated ? kOpReplicatedTrans : 0));
}

/* The select a fetch or export operand takes without a register:
 * SEL_MASK for an unwritten channel (ValueKind::None), SEL_0 / SEL_1 for a
 * plain 0.0 / 1.0 literal; -1 when it needs one.  Shared by ra_init (burst
 * layouts) and bc_finalize (the swizzles it emits).  Implemented in
 * sb_bc_finalize_shared.cpp. */
int operand_const_sel(const Value &v);

/* Tree + allocation -> a Program: regions back into ALU_PUSH_BEFORE/JUMP/
 * ELSE/POP (ALU_POP_AFTER where it saves a CF) and LOOP_START_DX10/
 * LOOP_END/LOOP_BREAK/LOOP_CONTINUE, registers and fetch/export swizzles
 * from the allocation, kcache locks recomputed per clause, literals per
 * group.  Groups that must stay together (reductions, interpolation, AR
 * loads, predicate writers) are kept; other instructions may be emitted
 * one per group in an order that preserves the VLIW read-before-write
 * semantics, for the post_scheduler to pack.  The result is valid
 * bytecode on its own (the validator accepts it). */
bool bc_finalize(const RegionShader &sh, const Allocation &alloc, const ShaderInfo &info,
                 Program &out, Diagnostics &diags);

} // namespace sbcc::r600::sb::region
