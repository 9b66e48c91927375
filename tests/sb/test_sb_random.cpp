/*
 * Random ALU programs through the whole of sb: whenever the source
 * validates, sb's result (if it gives one) must validate too and compute
 * bit-identical outputs in the emulator.  Fixed seeds, so failures
 * reproduce; SBCC_RANDOM_SEEDS=N runs more.
 */
#include <iostream>
#include <random>

#include "r600/r600_disasm.h"
#include "sb/sb_test_util.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb;
using namespace sbcc::r600::sb::test;

struct Gen {
   std::mt19937 rng;
   explicit Gen(uint32_t seed) : rng(seed) {}
   unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng); }

   AluSrc source(const AluGroup *prev, AluGroup &g)
   {
      switch (pick(6)) {
      case 0: return src_inline(pick(2) ? kSrc_1 : kSrc_0_5);
      case 1:
         if (g.literals.size() < 4) {
            g.literals.push_back(0x3f000000u + pick(1u << 20));
            return lit(unsigned(g.literals.size() - 1));
         }
         return src_gpr(1, pick(4));
      case 2:
         if (prev && !prev->instrs.empty()) {
            const AluInstr &p = prev->instrs[pick(unsigned(prev->instrs.size()))];
            return p.slot == kSlotT ? ps() : pv(p.slot);
         }
         return src_gpr(1, 0);
      default: return src_gpr(1 + pick(5), pick(4));
      }
   }

   Program program(ChipClass chip)
   {
      static const AluOp vec_ops[] = {AluOp::ADD, AluOp::MUL, AluOp::MOV, AluOp::MAX,
                                      AluOp::MULADD, AluOp::FRACT, AluOp::SETGT, AluOp::CNDE};
      std::vector<AluGroup> groups;
      const unsigned ngroups = 1 + pick(10);
      for (unsigned gi = 0; gi < ngroups; gi++) {
         const AluGroup *prev = groups.empty() ? nullptr : &groups.back();
         AluGroup g;
         bool written[8][4] = {};
         const unsigned nslots = chip == ChipClass::Cayman ? 4 : 5;
         for (unsigned s = 0; s < nslots; s++) {
            if (pick(3) == 0)
               continue;
            AluOp op = s == kSlotT ? (pick(2) ? AluOp::RECIP_IEEE : AluOp::ADD)
                                   : vec_ops[pick(8)];
            unsigned chan = s == kSlotT ? pick(4) : s;
            if (s == kSlotT) {
               /* trans only holds what its channel's vector slot cannot. */
               bool taken = false;
               for (const AluInstr &in : g.instrs)
                  taken |= in.slot == chan;
               if (!taken && op != AluOp::RECIP_IEEE)
                  continue;
            }
            unsigned gpr = 2 + pick(5);
            if (written[gpr][chan])
               continue;
            written[gpr][chan] = true;
            AluInstr in = alu(op, s, dst(gpr, chan, pick(5) != 0));
            for (unsigned k = 0; k < alu_op_info(op).num_src; k++)
               in.src[k] = source(prev, g);
            g.instrs.push_back(in);
         }
         if (g.instrs.empty())
            g.instrs.push_back(alu(AluOp::MOV, kSlotX, dst(2, 0), src_gpr(1, 0)));
         if (!assign_bank_swizzles(chip, g.instrs))
            continue;
         groups.push_back(g);
      }
      return sb::test::program(chip, {alu_clause(groups), export_done(2)});
   }
};

TEST(SbRandom, OptimizedProgramsComputeTheSame)
{
   unsigned seeds = 300;
   if (const char *e = std::getenv("SBCC_RANDOM_SEEDS"))
      seeds = unsigned(std::atoi(e));
   unsigned checked = 0, optimized = 0;
   for (ChipClass chip : {ChipClass::R700, ChipClass::Evergreen, ChipClass::Cayman}) {
      for (uint32_t seed = 1; seed <= seeds; seed++) {
         Gen gen(seed * 7919u + unsigned(chip));
         Program p = gen.program(chip);
         ShaderInfo info = vs_info(chip);
         Diagnostics vd;
         if (!validate_program(p, info, vd))
            continue;
         checked++;
         DebugOptions o;
         o.sb = true;
         SbStats st;
         Diagnostics d;
         auto out = sb_optimize(p, info, o, &st, d);
         EXPECT_FALSE(d.has_errors()) << d.str();
         if (!out)
            continue;
         optimized++;
         const std::vector<Vec4> in = {vec4f(1, 2, 3, 4), vec4f(-0.5f, 0.25f, 8, -3)};
         EXPECT_EQ(outputs_of(*out, info, in), outputs_of(p, info, in))
            << "chip " << chip_class_name(chip) << " seed " << seed;
      }
   }
   std::cout << checked << " valid random programs, " << optimized << " optimized\n";
   /* Most random programs are valid and all of those go through sb. */
   EXPECT_GT(checked, seeds);
   EXPECT_EQ(optimized, checked);
}

TEST(SbRandom, DecodedGarbageNeverBreaksSb)
{
   /* Random dwords that happen to decode: sb must either refuse (source
    * kept) or hand out a program the validator accepts; never crash. */
   std::mt19937 rng(12345);
   unsigned decoded = 0;
   for (int i = 0; i < 3000; i++) {
      std::vector<uint32_t> words(8 + rng() % 56);
      for (uint32_t &w : words)
         w = rng();
      Diagnostics d;
      auto prog = decode_program(words, ChipClass::Evergreen, d);
      if (!prog)
         continue;
      decoded++;
      ShaderInfo info = vs_info(ChipClass::Evergreen, 64);
      DebugOptions o;
      o.sb = true;
      SbStats st;
      Diagnostics sd;
      auto out = sb_optimize(*prog, info, o, &st, sd);
      EXPECT_FALSE(sd.has_errors());
      if (out) {
         Diagnostics vd;
         EXPECT_TRUE(validate_program(*out, info, vd)) << vd.str();
      }
   }
   std::cout << decoded << " of 3000 random images decoded\n";
}

} // namespace
