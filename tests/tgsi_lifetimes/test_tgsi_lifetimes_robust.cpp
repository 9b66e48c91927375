/*
 * Hostile IR: random opcodes, operands, indices (negative, huge, indirect
 * through any file, unknown array ids), declarations and control flow.  The
 * analysis and merging must never crash or hang; when merging succeeds every
 * direct TEMP reference must be inside the new declarations.
 */
#include <random>

#include <gtest/gtest.h>

#include "tgsi/tgsi_lifetimes.h"
#include "tgsi/tgsi_merge_temps.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

class IrFuzzer {
 public:
   explicit IrFuzzer(uint32_t seed) : rng_(seed) {}

   Shader make()
   {
      Shader s;
      s.source_name = "fuzz";
      s.processor = pick(2) ? Processor::Fragment : Processor::Vertex;
      for (int n = pick(5); n > 0; n--) {
         Declaration d;
         d.file = pick(4) ? File::Temporary : File::Input;
         d.first = index();
         d.last = pick(4) ? d.first + pick(6) : index();
         d.array_id = pick(3) == 0 ? static_cast<uint16_t>(pick(3)) : 0;
         s.declarations.push_back(d);
      }
      for (int n = pick(60); n > 0; n--)
         s.instructions.push_back(instruction());
      return s;
   }

 private:
   int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }

   int32_t index()
   {
      switch (pick(40)) {
      case 0: return -pick(5);
      case 1: return 1 << 20;
      case 2: return pick(70000);
      default: return pick(12);
      }
   }

   RegIndex reg_index()
   {
      RegIndex r;
      r.value = index();
      if (pick(6) == 0) {
         IndirectRef ind;
         ind.file = pick(2) ? File::Temporary : File::Address;
         ind.index = index();
         ind.swizzle = static_cast<uint8_t>(pick(4));
         ind.array_id = static_cast<uint16_t>(pick(3));
         r.indirect = ind;
      }
      return r;
   }

   File file() { return pick(3) ? File::Temporary : static_cast<File>(pick(10)); }

   Instruction instruction()
   {
      Instruction inst;
      /* Control flow often, so scopes nest and mismatch. */
      static const Opcode kFlow[] = {Opcode::IF, Opcode::ELSE, Opcode::ENDIF, Opcode::BGNLOOP,
                                     Opcode::ENDLOOP, Opcode::BRK, Opcode::CONT, Opcode::KILL_IF};
      inst.opcode = pick(8) == 0 ? kFlow[pick(8)] : static_cast<Opcode>(pick(kNumOpcodes));
      for (int n = pick(3); n > 0; n--) {
         DstOperand d;
         d.file = file();
         d.index = reg_index();
         d.write_mask = static_cast<uint8_t>(pick(16));
         d.array_id = static_cast<uint16_t>(pick(3));
         inst.dst.push_back(d);
      }
      for (int n = pick(5); n > 0; n--) {
         SrcOperand s;
         s.file = file();
         s.index = reg_index();
         if (pick(5) == 0)
            s.dimension = reg_index();
         for (auto &c : s.swizzle)
            c = static_cast<uint8_t>(pick(4));
         s.array_id = static_cast<uint16_t>(pick(3));
         inst.src.push_back(s);
      }
      if (pick(4) == 0) {
         TexOffset o;
         o.file = file();
         o.index = index();
         inst.tex_offsets.push_back(o);
      }
      inst.tex_target = static_cast<TextureTarget>(pick(static_cast<int>(TextureTarget::Count)));
      return inst;
   }

   std::mt19937 rng_;
};

TEST(TgsiLifetimesRobust, RandomIrNeverCrashes)
{
   int analysed = 0, merged = 0;
   for (uint32_t seed = 0; seed < 3000; seed++) {
      Shader s = IrFuzzer(seed).make();
      Diagnostics diags;
      if (compute_temp_lifetimes(s, diags))
         analysed++;
      else
         EXPECT_TRUE(diags.has_errors()) << "seed " << seed;

      MergeStats stats;
      Diagnostics mdiags;
      if (!merge_temps(s, &mdiags, &stats) || !stats.changed)
         continue;
      merged++;
      for (const Instruction &inst : s.instructions) {
         for (const SrcOperand &o : inst.src) {
            if (o.file == File::Temporary && !o.index.indirect) {
               EXPECT_LT(o.index.value, stats.temps_after) << "seed " << seed;
            }
         }
         for (const DstOperand &o : inst.dst) {
            if (o.file == File::Temporary && !o.index.indirect) {
               EXPECT_LT(o.index.value, stats.temps_after) << "seed " << seed;
            }
         }
      }
      if (HasFailure())
         break;
   }
   /* The generator must reach both outcomes for this to test anything. */
   EXPECT_GT(analysed, 100);
   EXPECT_GT(merged, 20);
}

} // namespace
