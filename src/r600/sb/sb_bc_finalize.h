/*
 * bc_finalize's shared state: the Finalizer, the groups of the ALU clause
 * it is building, and the kcache lines that clause locks.  Its ALU side
 * (operands, group splitting, clause limits and locks, bank swizzles) is
 * in sb_bc_finalize.cpp with the pass's description; its CF side
 * (regions, departs and repeats, fetch clauses, exports) in
 * sb_bc_finalize_cf.cpp.
 */
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"
#include "r600/sb/sb_region_passes.h"

namespace sbcc::r600::sb::region::finalize {

constexpr unsigned kMaxGpr = 123; /* 123..127 are clause temporaries on R700+ */

struct KRef {
   uint8_t instr, src, bank; /* a group has at most five instructions */
   unsigned cst;
};

/* A group on its way into a clause: constants are placed when the clause's
 * locks are known. */
struct PGroup {
   /* User-provided, so that std::vector's emplace_back() does not zero
    * the inline lists (a few hundred bytes) before the members' own
    * initializers run. */
   PGroup() {}

   decltype(AluGroup::instrs) instrs;
   decltype(AluGroup::literals) literals;
   SmallVector<KRef, 4> krefs; /* few: no allocation for them */
   std::vector<unsigned> exec_defs; /* ExecMask versions defined here */
   bool loads_ar = false, uses_ar = false;
   bool sets_pred = false, uses_pred = false;
   bool sets_exec = false;
   /* Slots flush() may add before the group: the copies port_copies makes
    * when no bank swizzle serves it. */
   unsigned port_slots = 0;
   /* instrs already carry the bank swizzles flush() would assign: add_group's
    * probe found them (see add_group). */
   bool swizzled = false;
   /* port_slots is not worked out yet (add_group: only when the clause's
    * slot count may come near the limit); at most 2 * instrs.size(). */
   bool port_unknown = false;
};

using Line = std::pair<unsigned, unsigned>; /* (bank, constant / 16) */
/* Sorted, no duplicates: a clause locks at most 4 x 2 lines, so a small
 * vector (copied and merged per group) beats a std::set's node allocations. */
using LineSet = std::vector<Line>;

/* By variable (those with a value_base entry): the highest version
 * has_id accepts (-1: none), the same for a GPR or Temp variable and -1
 * for any other (reg_var's one test of a version, not a kind test and
 * a version test), and the register of its version 0 (when it has one:
 * alloc_.reg at its value_base). */
struct VarIds {
   int64_t max_version = -1;
   int64_t reg_max_version = -1;
   const RegAssign *regs = nullptr;
};

/* Finalizer's lists (room for a clause's 128 groups, tens of kilobytes),
 * kept with the thread between shaders for their storage and lent to each
 * Finalizer: they go back empty, or are sized anew where used. */
struct FinalizerTables {
   /* The pending clause's groups, pending_[0, npend_), then the groups
    * staged for it: emit_group builds its groups where they wait for the
    * clause and commits them there, not one move each into the list. */
   std::vector<PGroup> pending_;
   /* Scratch reused across groups (no allocation per group once grown). */
   LineSet lines_scratch_;
   std::vector<PGroup> singles_;
   std::vector<uint8_t> flags_; /* emit_group's before and done */
   std::vector<size_t> order_;
   std::vector<FetchInstr> fetched_; /* emit_fetch's rebuilt fetches */
   std::vector<VarIds> var_ids_; /* filled anew by each Finalizer */
};

class Finalizer : FinalizerTables {
 public:
   Finalizer(const RegionShader &sh, const Allocation &alloc, const ShaderInfo &info,
             Program &out, Diagnostics &diags)
      : sh_(sh), alloc_(alloc), info_(info), out_(out), diags_(diags), chip_(sh.chip)
   {
      /* has_id's bounds per variable, worked out once: it is asked for
       * every operand. */
      const size_t n = std::min(sh.vars.size(), sh.value_base.size());
      /* The sizes, lists and flag in locals: stores to the table could
       * otherwise alias them, and they would be loaded again for every
       * variable. */
      const size_t nreg = alloc.reg.size(), ncount = sh.version_count.size();
      const Var *vars = sh.vars.data();
      const auto *value_base = sh.value_base.data();
      const auto *version_count = sh.version_count.data();
      const RegAssign *regs = alloc.reg.data();
      bool exec = false;
      var_ids_.clear();
      var_ids_.resize(n);
      for (size_t v = 0; v < n; v++) {
         VarIds &ids = var_ids_[v];
         const VarKind k = vars[v].kind;
         exec |= k == VarKind::ExecMask;
         const size_t base = value_base[v];
         if (base >= nreg)
            continue; /* no version has an id */
         int64_t top = int64_t(nreg - 1 - base);
         if (v < ncount)
            top = std::min(top, int64_t(version_count[v]));
         ids.max_version = top;
         if (k == VarKind::Gpr || k == VarKind::Temp)
            ids.reg_max_version = top;
         ids.regs = regs + base;
      }
      for (size_t v = n; v < sh.vars.size(); v++) /* none numbered: rare */
         exec |= vars[v].kind == VarKind::ExecMask;
      exec_vars_ = exec;
      ids_ = var_ids_;
   }
   ~Finalizer()
   {
      pending_.clear();
      singles_.clear();
   }
   Finalizer(const Finalizer &) = delete;
   Finalizer &operator=(const Finalizer &) = delete;

   bool run();

 private:
   bool fail(const std::string &msg)
   {
      diags_.error("bc_finalize: " + msg);
      return false;
   }

   /* Bad trees (stale numbering, foreign values) must not index out of
    * range: such values have no id and no register.  A negative var
    * becomes a size_t above any table's size: one test for both ends. */
   bool has_id(const Value &v) const
   {
      /* A known variable at a version within its count whose value_id
       * is inside the allocation (ids_). */
      return v.kind == ValueKind::Var && size_t(v.var) < ids_.size() &&
             int64_t(v.version) <= ids_[v.var].max_version;
   }
   std::string name(const Value &v) const
   {
      if (v.kind == ValueKind::Var && (v.var < 0 || size_t(v.var) >= sh_.vars.size()))
         return "<unknown value>";
      return v.kind == ValueKind::Var ? value_name(sh_, v) : "<not a register value>";
   }
   bool is_kind(const Value &v, VarKind k) const
   {
      return v.kind == ValueKind::Var && v.var >= 0 && size_t(v.var) < sh_.vars.size() &&
             sh_.vars[v.var].kind == k;
   }
   RegAssign reg(const Value &v) const
   {
      return has_id(v) ? alloc_.reg[sh_.value_id(v)] : RegAssign{};
   }
   bool is_reg_var(const Value &v) const { return reg_var(v) != nullptr; }
   /* The register of v when it has an id and is a GPR or Temp, else null:
    * one lookup of its variable for both, as every operand asks. */
   const RegAssign *reg_var(const Value &v) const
   {
      if (v.kind != ValueKind::Var || size_t(v.var) >= ids_.size())
         return nullptr;
      const VarIds &ids = ids_[v.var];
      return int64_t(v.version) <= ids.reg_max_version ? ids.regs + v.version : nullptr;
   }

   bool check_values(const Node *n);
   bool check_phis(const Node *region);
   bool emit_list(const NodeList &list, size_t from = 0);
   bool emit_node(const Node *n);
   bool emit_alu_cf(const Node *n);
   bool emit_group(const Node *g);
   bool build_instr(const Node *a, bool fixed, PGroup &g);
   /* Inline in build_instr, its only caller, as it was while the class had
    * internal linkage: one call per operand.  s comes in cleared. */
   [[gnu::always_inline]] inline bool operand(const Value &v, PGroup &g, unsigned instr,
                                              unsigned k, AluSrc &s);
   /* Adds g to the pending clause: staged after it, then commit(). */
   bool add_group(PGroup &&g);
   /* Adds the first staged group (pending_[npend_]) to the pending clause,
    * flushing the clause first when it would not fit. */
   bool commit();
   bool emit_whole(std::span<const PGroup *const> singles,
                   const decltype(AluGroup::instrs) &swizzled);
   bool whole_fits(decltype(AluGroup::instrs) &instrs) const;
   bool whole_slot(AluInstr &in, unsigned &used) const;
   AluInstr alu_mov(unsigned gpr, unsigned chan, unsigned from) const;
   std::optional<std::vector<AluGroup>> port_copies(decltype(AluGroup::instrs) &instrs) const;
   bool may_precede(const Node *alu, std::span<const Node *const> cfs) const;
   /* First register above everything allocated: scratch for breaking a
    * register swap inside one group and for port_copies.  Found when first
    * asked (a look at every value's register), which most shaders never
    * are; -1 until then. */
   unsigned scratch_gpr() const;
   mutable int scratch_gpr_ = -1;
   bool flush(CfOp op);
   bool emit_fetch(const Node *n);
   bool emit_export(const Node *n);
   bool merge_burst(CfInstr &prev, const CfInstr &cur) const;
   bool emit_if(const Node *region);
   bool emit_loop(const Node *region);
   unsigned emit_cf(CfInstr c)
   {
      out_.cf.push_back(std::move(c));
      return unsigned(out_.cf.size() - 1);
   }

   ThreadLend<FinalizerTables> lend_{*this};
   const RegionShader &sh_;
   const Allocation &alloc_;
   const ShaderInfo &info_;
   Program &out_;
   Diagnostics &diags_;
   ChipClass chip_;

   std::map<unsigned, const Node *> psi_of_temp_; /* value_id of psi src[1] -> psi */
   /* var_ids_ once filled, as has_id and reg_var read it for every
    * operand: a span's size is one load, a vector's the distance between
    * its ends divided by the element size. */
   std::span<const VarIds> ids_;
   /* Whether the shader has an ExecMask variable (most have none): only
    * then does build_instr look for one among each instruction's results. */
   bool exec_vars_ = false;

   size_t npend_ = 0;
   std::span<PGroup> committed() { return {pending_.data(), npend_}; }
   LineSet pending_lines_;
   unsigned pending_slots_ = 0; /* group_slots summed over pending_ */
   /* The most the port_slots of pending_ groups with port_unknown add. */
   unsigned pending_unknown_ = 0;
   unsigned r0_port_slots(const PGroup &g);
   void resolve_port_slots();
   decltype(AluGroup::instrs) probe_; /* scratch, as lines_scratch_ */
   const CfInstr *pending_src_ = nullptr;
   bool pending_eop_ = false;
   /* A clause split the source did not have loses AR and the predicate. */
   bool ar_lost_ = false, pred_lost_ = false;

   /* The last CF emitted folded an if's POP into an ALU clause: its index
    * and that if's jumper, so an enclosing if can make it ALU_POP2_AFTER. */
   int folded_cf_ = -1;
   /* The fetch clause emitted last, which the next one may join. */
   int last_fetch_cf_ = -1;
   /* The export emitted last, which the next one may join as a burst;
    * anything emitted in between (an if's POP, a loop's end) stops that. */
   int last_export_cf_ = -1;
   unsigned folded_jumper_ = 0;

   struct LoopCtx {
      const Node *region, *body;
      std::vector<unsigned> jumps;
   };
   std::vector<LoopCtx> loops_;
};

} // namespace sbcc::r600::sb::region::finalize
