/*
 * bc_parser: bytecode Program -> sb IR.
 *
 * ALU operands become values: literals carry their bits, PV/PS reads are
 * resolved to the node of the previous group that produced them and, when
 * that node also wrote its register, turned into a plain register read (the
 * register holds the same value from then on; the builder puts PV back when
 * the producer ends up in the previous group again).  Everything the
 * scheduler cannot reason about keeps its group verbatim ("fixed").
 */
#include <algorithm>
#include <iterator>

#include "common/thread_memory.h"
#include "r600/sb/sb_passes.h"

namespace sbcc::r600::sb {

namespace {

/* The part of is_movable that depends only on the op and chip.  Read
 * from the op table itself (alu_op_info() and alu_slots() are not
 * constexpr), so that the table of it below is made at compile time. */
constexpr bool op_movable(ChipClass chip, AluOp op)
{
   const AluOpInfo &info = kAluOpInfo[unsigned(op)];
   const uint32_t special = AF_PRED | AF_PRED_PUSH | AF_KILL | AF_MOVA | AF_INTERP |
                            AF_PREV_NEXT | AF_PREV_INTERLEAVE | AF_F64;
   if (info.flags & special)
      return false;
   const unsigned slots = info.slots[chip_index(chip)];
   if (!slots || (slots & (kSlot4 | kSlotXY | kSlotZW)))
      return false;
   /* Cayman replicates trans operations over several vector slots. */
   if (chip == ChipClass::Cayman && !(slots & kSlotV))
      return false;
   if (!(slots & (kSlotV | kSlotS)))
      return false;
   const std::string_view name = info.name;
   return !name.starts_with("LDS") && !name.starts_with("GDS") &&
          !name.starts_with("SET_CF_IDX") && op != AluOp::ALU_NOP;
}

/* The op part of is_movable for each chip, by op: it is asked for every
 * instruction.  Made at compile time: built at run time, once per
 * process, it cost as much as parsing a median shader's clauses. */
struct MovableOps {
   uint8_t op[kNumChipClasses][kNumAluOps] = {};
   constexpr MovableOps()
   {
      for (unsigned c = 0; c < kNumChipClasses; c++)
         for (unsigned o = 0; o < kNumAluOps; o++)
            op[c][o] = op_movable(ChipClass(c), AluOp(o));
   }
};
inline constexpr MovableOps kMovableOps{};

const uint8_t *movable_ops(ChipClass chip) { return kMovableOps.op[chip_index(chip)]; }

/* The value kind of the selector kinds up to Inline, which keep their
 * selector and channel as they are. */
constexpr ValueKind kPlainKind[] = {
   ValueKind::Gpr,       /* Gpr */
   ValueKind::Gpr,       /* ClauseTemp */
   ValueKind::KCache,    /* KCache */
   ValueKind::ConstFile, /* ConstFile */
   ValueKind::Param,     /* Param */
   ValueKind::Inline,    /* Inline */
};
static_assert(unsigned(SrcKind::Gpr) == 0 && unsigned(SrcKind::ClauseTemp) == 1 &&
                 unsigned(SrcKind::KCache) == 2 && unsigned(SrcKind::ConstFile) == 3 &&
                 unsigned(SrcKind::Param) == 4 && unsigned(SrcKind::Inline) == 5 &&
                 std::size(kPlainKind) == 6,
              "kPlainKind follows SrcKind's order");

/* Instructions the post-scheduler may move: ordinary one-slot operations
 * whose only effect is their destination register.  A relative operand
 * also makes an instruction immovable; the parser's operand loop sees
 * those. */
bool is_movable(const uint8_t *movable_op, const AluInstr &in)
{
   return movable_op[unsigned(in.op)] && !(alu_has_control_fields(in) | in.dst.rel);
}

/* The CF instruction without its ALU groups, which live in the IR: copying
 * the whole instruction only to clear them cost an allocation per group
 * and literal list.  The size check fails when CfInstr gains a field, so
 * that the field is added here too. */
void copy_cf_header(const CfInstr &cf, CfInstr &h)
{
   static_assert(sizeof(CfInstr) == 128, "CfInstr changed: copy the new field below");
   h.op = cf.op;
   h.target = cf.target;
   h.addr = cf.addr;
   h.pop_count = cf.pop_count;
   h.cf_const = cf.cf_const;
   h.cond = cf.cond;
   h.count = cf.count;
   h.call_count = cf.call_count;
   h.jumptable_sel = cf.jumptable_sel;
   h.barrier = cf.barrier;
   h.valid_pixel_mode = cf.valid_pixel_mode;
   h.whole_quad_mode = cf.whole_quad_mode;
   h.end_of_program = cf.end_of_program;
   h.mark = cf.mark;
   h.alt_const = cf.alt_const;
   h.alu_ext = cf.alu_ext;
   h.kcache = cf.kcache;
   h.groups.clear();
   h.fetches = cf.fetches;
   h.exp = cf.exp;
   h.cf_addr = cf.cf_addr;
   h.clause_addr = cf.clause_addr;
}

} // namespace

bool bc_parser(const Program &prog, Shader &sh, Diagnostics &diags)
{
   sh.chip = prog.chip;
   const uint8_t *movable_op = movable_ops(prog.chip);
   sh.cf.clear();
   sh.cf.reserve(prog.cf.size());
   for (size_t ci = 0; ci < prog.cf.size(); ci++) {
      const CfInstr &cf = prog.cf[ci];
      /* Filled in place (the list is reserved), not moved in. */
      CfNode &node = sh.cf.emplace_back();
      node.is_alu = cf_op_info(cf.op).enc == CfEncoding::Alu;
      if (!node.is_alu) {
         node.cf = cf;
         continue;
      }
      copy_cf_header(cf, node.cf);
      AluClause &cl = node.alu;
      /* Whether each group reads PV/PS: bytes, not vector<bool>.  Kept
       * with the thread: an allocation per clause otherwise. */
      struct Tables {
         std::vector<uint8_t> reads_forward;
      };
      std::vector<uint8_t> &reads_forward = thread_kept<Tables>().reads_forward;
      reads_forward.assign(cf.groups.size(), 0);
      /* Some group after the first is fixed and reads PV/PS: see below. */
      bool chained = false;
      size_t ninstrs = 0;
      for (const AluGroup &g : cf.groups)
         ninstrs += g.instrs.size();
      cl.nodes.reserve(ninstrs);
      cl.groups.reserve(cf.groups.size());
      /* Nodes of the previous group by slot, for PV/PS; the current
       * group's are noted as its nodes are made. */
      int prev_slot[5] = {-1, -1, -1, -1, -1};
      for (size_t gi = 0; gi < cf.groups.size(); gi++) {
         const AluGroup &g = cf.groups[gi];
         int cur_slot[5] = {-1, -1, -1, -1, -1};
         bool fixed = false;
         /* In place, like the nodes (the list is reserved). */
         GroupNode &gn = cl.groups.emplace_back();
         for (const AluInstr &in : g.instrs) {
            /* Built in place (the list is reserved: references into it
             * stay valid) instead of copied in at the end.  Copied from
             * a blank node, a block copy, rather than value-initialized
             * (zeroed, then each default set) or built field by field. */
            static const AluNode blank{};
            const uint32_t id = uint32_t(cl.nodes.size());
            AluNode &n = cl.nodes.emplace_back(blank);
            n.bc = in;
            n.id = id;
            n.group = uint32_t(gi);
            if (!is_movable(movable_op, in))
               fixed = true;
            const unsigned nsrc = alu_op_info(in.op).num_src;
            for (unsigned s = 0; s < nsrc; s++) {
               const AluSrc &src = in.src[s];
               Operand &o = n.src[s];
               if (src.rel)
                  fixed = true;
               o.neg = src.neg;
               o.abs = src.abs;
               o.rel = src.rel;
               o.value.sel = src.sel;
               o.value.chan = src.chan;
               /* GPRs, most operands, are below the clause temporaries on
                * every chip: no kind lookup for them. */
               if (src.sel < kSrcClauseTempFirst) {
                  o.value.kind = ValueKind::Gpr;
                  continue;
               }
               const SrcKind sk = src_kind(prog.chip, src.sel);
               /* Most others are taken as they are too: a table load
                * rather than the switch's jump. */
               if (sk <= SrcKind::Inline) {
                  o.value.kind = kPlainKind[unsigned(sk)];
                  continue;
               }
               switch (sk) {
               case SrcKind::Literal:
                  o.value.kind = ValueKind::Literal;
                  if (src.chan >= g.literals.size()) {
                     diags.error("CF " + std::to_string(ci) + " group " + std::to_string(gi) +
                                 ": LITERAL." + std::to_string(src.chan) +
                                 " beyond the group's literals");
                     return false;
                  }
                  o.value.bits = g.literals[src.chan];
                  o.value.chan = 0;
                  break;
               case SrcKind::PV:
               case SrcKind::PS: {
                  const int slot = src.sel == kSrc_PS ? int(kSlotT) : int(src.chan & 3);
                  reads_forward[gi] = true;
                  if (prev_slot[slot] < 0) {
                     /* Nothing to resolve against: keep the group verbatim
                      * and let the validator judge it. */
                     o.value.kind = ValueKind::Special;
                     fixed = true;
                     break;
                  }
                  const AluNode &p = cl.nodes[prev_slot[slot]];
                  if (p.writes_gpr() && !p.bc.dst.rel &&
                      !(alu_op_info(p.bc.op).flags & AF_MOVA)) {
                     o.value.kind = ValueKind::Gpr;
                     o.value.sel = p.bc.dst.gpr;
                     o.value.chan = p.bc.dst.chan;
                  } else {
                     /* The value lives only in PV: producer and consumer
                      * must stay in adjacent groups as they are. */
                     o.value.kind = ValueKind::Forward;
                     o.value.node = int32_t(p.id);
                     fixed = true;
                  }
                  break;
               }
               default:
                  o.value.kind = ValueKind::Special;
                  fixed = true;
                  break;
               }
            }
            gn.nodes.push_back(n.id);
            gn.slots.push_back(in.slot);
            cur_slot[in.slot] = int(id);
         }
         /* Only fixed groups are emitted from their decoded form. */
         gn.fixed = fixed;
         if (fixed) {
            gn.original = g;
            chained |= gi && reads_forward[gi];
         }
         std::copy(cur_slot, cur_slot + 5, prev_slot);
      }
      /* A verbatim group that reads PV/PS needs its predecessor verbatim too,
       * and so on backwards along the chain. */
      if (chained)
         for (size_t gi = cf.groups.size(); gi-- > 1;) {
            GroupNode &before = cl.groups[gi - 1];
            if (cl.groups[gi].fixed && reads_forward[gi] && !before.fixed) {
               before.fixed = true;
               before.original = cf.groups[gi - 1];
            }
         }
   }
   return true;
}

} // namespace sbcc::r600::sb
