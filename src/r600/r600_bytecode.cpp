/*
 * Opcode lookups and small helpers of the r600 bytecode model.  The tables
 * themselves are generated from isa/r600_isa.py; here we only build the
 * reverse maps the decoder needs.
 */
#include "r600/r600_bytecode.h"

#include <algorithm>
#include <cctype>

namespace sbcc::r600 {

namespace {

bool iequal(std::string_view a, std::string_view b)
{
   if (a.size() != b.size())
      return false;
   for (size_t i = 0; i < a.size(); i++) {
      if (std::tolower(static_cast<unsigned char>(a[i])) !=
          std::tolower(static_cast<unsigned char>(b[i])))
         return false;
   }
   return true;
}

/* Reverse maps, opcode -> op + 1 (0 = unknown), per chip class.  Built once
 * from the generated tables so the tables stay the single source. */
struct ReverseMaps {
   uint16_t alu_op2[kNumChipClasses][2048] = {};
   uint16_t alu_op3[kNumChipClasses][32] = {};
   uint16_t fetch_tex[kNumChipClasses][1024] = {};
   uint16_t fetch_vtx[kNumChipClasses][1024] = {};
   uint16_t cf[kNumChipClasses][256] = {};
   uint16_t cf_alu[kNumChipClasses][16] = {};

   ReverseMaps()
   {
      for (unsigned c = 0; c < kNumChipClasses; c++) {
         for (unsigned i = 0; i < kNumAluOps; i++) {
            const AluOpInfo &info = kAluOpInfo[i];
            if (!info.slots[c])
               continue;
            int opc = info.opcode[c >> 1];
            if (info.num_src == 3)
               alu_op3[c][opc] = i + 1;
            else
               alu_op2[c][opc] = i + 1;
         }
         for (unsigned i = 0; i < kNumFetchOps; i++) {
            const FetchOpInfo &info = kFetchOpInfo[i];
            int opc = info.opcode[c];
            if (opc < 0)
               continue;
            /* A VTX clause holds only vertex fetches; a TEX clause holds both
             * (Evergreen and later fetch vertices through the texture cache). */
            if (info.vtx)
               fetch_vtx[c][opc] = i + 1;
            fetch_tex[c][opc] = i + 1;
         }
         for (unsigned i = 0; i < kNumCfOps; i++) {
            const CfOpInfo &info = kCfOpInfo[i];
            int opc = info.opcode[c];
            if (opc < 0)
               continue;
            if (info.enc == CfEncoding::Alu)
               cf_alu[c][opc] = i + 1;
            else
               cf[c][opc] = i + 1;
         }
      }
   }
};

const ReverseMaps &maps()
{
   static const ReverseMaps m;
   return m;
}

template <typename Op, size_t N>
std::optional<Op> lookup(const uint16_t (&table)[N], unsigned opcode)
{
   if (opcode >= N || table[opcode] == 0)
      return std::nullopt;
   return static_cast<Op>(table[opcode] - 1);
}

} // namespace

std::optional<ChipClass> chip_class_from_name(std::string_view name)
{
   static constexpr std::string_view kClassNames[] = {"r600", "r700", "evergreen", "cayman"};
   for (unsigned i = 0; i < kNumChipClasses; i++) {
      if (iequal(name, kClassNames[i]))
         return static_cast<ChipClass>(i);
   }
   for (const FamilyInfo &f : kFamilies) {
      if (iequal(name, f.name))
         return f.cls;
   }
   return std::nullopt;
}

std::string_view chip_class_name(ChipClass cls)
{
   switch (cls) {
   case ChipClass::R600: return "r600";
   case ChipClass::R700: return "r700";
   case ChipClass::Evergreen: return "evergreen";
   case ChipClass::Cayman: return "cayman";
   }
   return "?";
}

int fetch_opcode(ChipClass cls, FetchOp op) { return fetch_op_info(op).opcode[chip_index(cls)]; }
int cf_opcode(ChipClass cls, CfOp op) { return cf_op_info(op).opcode[chip_index(cls)]; }

std::optional<AluOp> alu_op_from_opcode(ChipClass cls, bool op3, unsigned opcode)
{
   if (op3)
      return lookup<AluOp>(maps().alu_op3[chip_index(cls)], opcode);
   return lookup<AluOp>(maps().alu_op2[chip_index(cls)], opcode);
}

std::optional<FetchOp> fetch_op_from_opcode(ChipClass cls, bool vtx, unsigned opcode)
{
   if (vtx)
      return lookup<FetchOp>(maps().fetch_vtx[chip_index(cls)], opcode);
   return lookup<FetchOp>(maps().fetch_tex[chip_index(cls)], opcode);
}

std::optional<CfOp> cf_op_from_opcode(ChipClass cls, bool alu, unsigned opcode)
{
   if (alu)
      return lookup<CfOp>(maps().cf_alu[chip_index(cls)], opcode);
   return lookup<CfOp>(maps().cf[chip_index(cls)], opcode);
}

std::optional<AluOp> alu_op_from_name(std::string_view name)
{
   for (unsigned i = 0; i < kNumAluOps; i++) {
      if (kAluOpInfo[i].name == name)
         return static_cast<AluOp>(i);
   }
   return std::nullopt;
}

std::optional<FetchOp> fetch_op_from_name(std::string_view name)
{
   for (unsigned i = 0; i < kNumFetchOps; i++) {
      if (kFetchOpInfo[i].name == name)
         return static_cast<FetchOp>(i);
   }
   return std::nullopt;
}

std::optional<CfOp> cf_op_from_name(std::string_view name)
{
   for (unsigned i = 0; i < kNumCfOps; i++) {
      if (kCfOpInfo[i].name == name)
         return static_cast<CfOp>(i);
   }
   return std::nullopt;
}

FetchRegs fetch_regs(const FetchInstr &f)
{
   FetchRegs r;
   const std::array<uint8_t, 4> *dst_sel;
   if (const TexInstr *t = std::get_if<TexInstr>(&f)) {
      r.src_gpr = t->src_gpr, r.dst_gpr = t->dst_gpr;
      r.src_rel = t->src_rel, r.dst_rel = t->dst_rel;
      for (uint8_t s : t->src_sel)
         if (s <= kSelW)
            r.reads |= 1u << s;
      dst_sel = &t->dst_sel;
   } else {
      const VtxInstr &v = std::get<VtxInstr>(f);
      r.src_gpr = v.src_gpr, r.dst_gpr = v.dst_gpr;
      r.src_rel = v.src_rel, r.dst_rel = v.dst_rel;
      r.reads = 1u << (v.src_sel_x & 3);
      dst_sel = &v.dst_sel;
   }
   for (unsigned c = 0; c < 4; c++)
      if ((*dst_sel)[c] != kSelMask)
         r.writes |= 1u << c;
   return r;
}

namespace {

/* Every group is counted several times per compile (validator, assembler,
 * clause sizes): the per-instruction test is inline in the header, where
 * the validator shares it, and the group's count and size are inline in
 * the clause's loop rather than two calls per group. */
[[gnu::always_inline]] inline unsigned literals_needed(const AluGroup &g)
{
   unsigned n = 0;
   for (const AluInstr &in : g.instrs)
      n = std::max(n, alu_instr_literals_needed(in));
   return n;
}

[[gnu::always_inline]] inline unsigned group_dwords(const AluGroup &g)
{
   return alu_group_dwords(g, literals_needed(g));
}

} // namespace

unsigned group_literals_needed(const AluGroup &g) { return literals_needed(g); }

unsigned alu_group_dwords(const AluGroup &g) { return group_dwords(g); }

unsigned alu_clause_dwords(const std::vector<AluGroup> &groups)
{
   unsigned n = 0;
   for (const AluGroup &g : groups)
      n += group_dwords(g);
   return n;
}


AluSrc src_kcache(unsigned set, unsigned index, unsigned chan)
{
   unsigned base = set < 2 ? kSrcKCACHE0First + 32 * set : kSrcKCACHE2First + 32 * (set - 2);
   return AluSrc{static_cast<uint16_t>(base + index), static_cast<uint8_t>(chan), false, false,
                 false};
}

std::string_view alu_op_name(AluOp op) { return alu_op_info(op).name; }
std::string_view fetch_op_name(FetchOp op) { return fetch_op_info(op).name; }
std::string_view cf_op_name(CfOp op) { return cf_op_info(op).name; }

} // namespace sbcc::r600
