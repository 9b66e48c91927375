/*
 * The sb passes, one file each, named after the pass.  Every pass reports
 * input it cannot handle through Diagnostics and returns false; the driver
 * (sb_core.cpp) then falls back to the source bytecode.
 */
#pragma once

#include <bitset>
#include <optional>
#include <span>
#include <vector>

#include "common/diag.h"
#include "r600/r600_shader_info.h"
#include "r600/sb/sb_ir.h"

namespace sbcc::r600::sb {

/* Program -> IR: ALU clauses into value-operand nodes, PV/PS resolved to
 * their producers, groups that must stay as they are marked fixed. */
bool bc_parser(const Program &prog, Shader &sh, Diagnostics &diags);

/* Within each ALU clause: a read of a register last written by a plain
 * MOV (no modifiers) from a GPR channel or constant reads that source
 * directly, as long as neither side has been written since. */
bool copy_propagation(Shader &sh, Diagnostics &diags);

/* Value numbering inside each ALU clause: a repeated computation becomes
 * a MOV of the register that already holds its result. */
bool gvn(Shader &sh, Diagnostics &diags);

/* Register liveness over the CF graph (GPR channels; branches and loops as
 * over-approximated edges).  live_out[i] = channels live after CF i.
 * Returns false when the CF uses something the graph does not model
 * (subroutines, jump tables); callers then assume everything is live. */
using LiveSet = std::bitset<128 * 4>;
bool liveness(const Shader &sh, std::vector<LiveSet> &live_out,
              std::vector<LiveSet> *live_in = nullptr);
/* live_out from liveness(), or every channel live after every CF where
 * liveness cannot model the CF.  The first form also gives live_in (left
 * as liveness() leaves it) and says whether liveness could model the CF. */
bool liveness_or_all(const Shader &sh, std::vector<LiveSet> &live_out,
                     std::vector<LiveSet> *live_in = nullptr);
std::vector<LiveSet> live_out_or_all(const Shader &sh);

/* post_scheduler and sched_checker take live_out_or_all() of the shader
 * as post_scheduler found it when the caller has it (nullptr: worked out
 * here).  Scheduling keeps it: it only renames values that live inside a
 * run of one clause, into registers dead there, so no register's
 * liveness at a CF boundary changes. */

/* Removes ALU nodes in non-fixed groups whose result nobody reads, using
 * liveness; empty groups disappear (a clause keeps at least one node). */
bool dce_cleanup(Shader &sh, Diagnostics &diags);
/* The same, also leaving in `after` what liveness_or_all() of the cleaned
 * shader gives (live_out, live_in, and whether liveness could model the
 * CF): the cleanup already walked each clause backwards from its live-out,
 * so only clauses whose live-out it changed are walked again. */
struct ShaderLiveness {
   std::vector<LiveSet> live_out, live_in;
   bool known = false;
};
bool dce_cleanup(Shader &sh, Diagnostics &diags, ShaderLiveness &after);

/* Within each ALU clause, repacks the nodes of every run of non-fixed
 * groups into as few VLIW groups as the slot, read-port, literal and
 * dependency rules allow: values that live only inside the run are renamed
 * apart, list-scheduled by critical path and then given a clause
 * temporary, a free GPR channel or no register at all (read only through
 * PV/PS); a MOV of such a value into a register is folded into its
 * producer.  A clause that cannot be done so keeps the register-order
 * schedule. */
bool post_scheduler(Shader &sh, Diagnostics &diags,
                    const std::vector<LiveSet> *live_out = nullptr);

/* Re-checks every scheduled group against the hardware rules and the
 * dependences of the source order (an independent check of the scheduler). */
bool sched_checker(const Shader &sh, Diagnostics &diags,
                   const std::vector<LiveSet> *live_out = nullptr);

/* IR -> Program: slots, literals, bank swizzles, PV/PS forwarding. */
bool bc_builder(const Shader &sh, Program &out, Diagnostics &diags);

/* The hardware group for scheduled nodes (slots given): operands become
 * selectors, literals are numbered in order of first use, results of
 * `prev` (the group emitted just before, if any) are read through PV/PS,
 * bank swizzles are chosen.  Forward operands (values only in PV/PS) need
 * `prev_nodes`, the IR group of `prev`, to find their producer's slot.
 * nullopt when the group breaks a rule. */
std::optional<AluGroup> materialize_group(ChipClass chip, const AluClause &cl,
                                          std::span<const uint32_t> nodes,
                                          std::span<const uint8_t> slots,
                                          const AluGroup *prev,
                                          const GroupNode *prev_nodes = nullptr);

/* The same into `out` (contents replaced; false: `out` is garbage), so a
 * caller trying many candidates reuses one group's storage. */
bool materialize_group_into(ChipClass chip, const AluClause &cl, std::span<const uint32_t> nodes,
                            std::span<const uint8_t> slots, const AluGroup *prev,
                            const GroupNode *prev_nodes, AluGroup &out);

/* One GPR read-port claim of an instruction under one bank swizzle, and
 * all claims of that choice (n == kSwizzleBad: the swizzle breaks the trans
 * slot's constant cycles).  port = cycle * 4 + channel. */
struct SwizzleClaim {
   uint8_t port;
   uint8_t sel;
};
struct SwizzleChoice {
   uint8_t n;
   SwizzleClaim c[3];
};
constexpr uint8_t kSwizzleBad = 0xff;
/* What the claims of an instruction depend on, besides its selectors. */
struct SwizzleOperands {
   uint8_t nsrc, consts;
   bool trans;
   bool gpr[3], reg[3];
};

/* A register channel the previous group writes: a read of it becomes
 * PV/PS (sel, chan). */
struct PvWriter {
   uint16_t gpr;
   uint8_t chan;
   uint16_t sel;
   uint8_t pv_chan;
};

/* materialize_group_into's yes/no for a group filled one unit at a time,
 * without building it: the post_scheduler tries many candidates per
 * group, and rebuilding the whole group and searching all its bank
 * swizzles again for each cost more than the rest of the pass.  The
 * accepted nodes are kept as literals, constant-file pairs, the read-port
 * claims of each instruction under each swizzle and one legal assignment;
 * a candidate is first fitted around that assignment, and only when that
 * fails is the whole group searched again.  The answer is always the one
 * materialize_group_into would give for the whole group (the retry without
 * PV/PS included); finish() then builds the complete group from the same
 * state instead of materializing it again. */
class GroupFit {
 public:
   static constexpr unsigned kMax = 16; /* instructions, as the swizzle search */

   void start(ChipClass chip, const AluGroup *prev, const GroupNode *prev_nodes);
   /* nodes/slots: the group with the candidate; [0, old) were accepted
    * before.  True: the candidate is accepted into the state. */
   bool try_add(const AluClause &cl, std::span<const uint32_t> nodes,
                std::span<const uint8_t> slots, size_t old);
   /* The accepted group (`nodes`, as given to try_add) in hardware form,
    * as materialize_group_into builds it from the same operands, from the
    * instructions and claims kept here.  False where the state cannot say
    * (the group fits only without PV/PS): the caller materializes it. */
   bool finish(const AluClause &cl, std::span<const uint32_t> nodes, AluGroup &out);

 private:
   const SwizzleChoice &choice(unsigned i, unsigned bs);
   bool extend(unsigned i, unsigned end, int16_t (&ports)[12]);
   bool first_fit(const uint8_t *order, unsigned d, unsigned end, int16_t (&ports)[12],
                  uint8_t *chosen, uint32_t &blame);

   ChipClass chip_ = ChipClass::Evergreen;
   const AluGroup *prev_ = nullptr;
   const GroupNode *prev_nodes_ = nullptr;
   bool whole_ = false;     /* prev_ too big for writers_ */
   PvWriter writers_[kMax]; /* of prev_, worked out once per group */
   unsigned nwriters_ = 0;
   unsigned n_ = 0; /* accepted instructions */
   uint32_t lits_[4] = {}; /* [nlit_, 4): copied along, never read */
   unsigned nlit_ = 0;
   int cfile_[4][2];
   bool forwarded_ = false; /* an accepted read became PV/PS */
   bool fwd_fits_ = true;   /* the accepted group fits with PV/PS reads */
   AluInstr ins_[kMax];     /* accepted, then candidate instructions */
   SwizzleOperands ops_[kMax];
   uint8_t nchoice_[kMax];
   uint8_t made_[kMax];     /* bit bs: choice_[i][bs] is made */
   SwizzleChoice choice_[kMax][6];
   int16_t ports_[12];      /* the claims of one legal assignment */
   /* first_fit(): per port, the search depths that claim it (a bit
    * each; none for claims made before the search), and the flag in its
    * undo list for a port that was claimed already. */
   uint16_t owners_[12];
   static constexpr uint8_t kShared = 0x80;
   bool all_zero_ = true;   /* ... which is swizzle 0 for every instruction */
   bool extended_nonzero_ = false; /* extend() took a swizzle other than 0 */
   /* The swizzles of the held assignment, by instruction: the first
    * legal assignment in the order the instructions were added. */
   uint8_t chosen_[kMax];
   AluGroup scratch_;       /* the retry without PV/PS */
};

/* All groups of a clause in hardware form (fixed ones verbatim). */
std::optional<std::vector<AluGroup>> build_clause(ChipClass chip, const AluClause &cl);

/* Renumbers GPRs downwards to drop unused numbers (not allocation: ranges
 * are not shared); hardware-loaded registers keep theirs, and so does any
 * register in `entry_live` (read before written: loaded from outside).
 * On the built program, before validation. */
bool gpr_compaction(Program &prog, const ShaderInfo &info, const LiveSet &entry_live);

/* Read-port model shared by the scheduler and the builder: picks bank
 * swizzles for a group's instructions (slot order; selectors final).
 * Returns false when no assignment satisfies the GPR and constant ports. */
bool assign_bank_swizzles(ChipClass chip, std::span<AluInstr> group);

/* Whether a group assign_bank_swizzles serves is certain to be served
 * still when any of its constant operands are read from GPRs instead
 * (bc_finalize's placeholder reads of R0), without searching again. */
bool swizzle_kept_with_gpr_reads(std::span<const AluInstr> group);

} // namespace sbcc::r600::sb
