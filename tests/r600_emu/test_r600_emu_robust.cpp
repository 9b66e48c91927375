/*
 * Random hand-built programs (fields anywhere in their storage range, ops
 * possibly outside the tables) through the validator and the emulator: they
 * must refuse or run, never crash, and run deterministically.
 */
#include <gtest/gtest.h>

#include "r600/r600_bytecode.h"
#include "r600_emu/r600_emu_build.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::test;

class Rng {
 public:
   explicit Rng(uint32_t s) : s_(s ? s : 1) {}
   uint32_t next()
   {
      s_ ^= s_ << 13;
      s_ ^= s_ >> 17;
      s_ ^= s_ << 5;
      return s_;
   }
   uint32_t below(uint32_t n) { return n ? next() % n : 0; }

 private:
   uint32_t s_;
};

Program random_program(Rng &rng)
{
   static const CfOp kOps[] = {CfOp::ALU, CfOp::ALU_PUSH_BEFORE, CfOp::ALU_POP_AFTER,
                               CfOp::ALU_POP2_AFTER, CfOp::ALU_ELSE_AFTER, CfOp::ALU_BREAK,
                               CfOp::TEX, CfOp::VTX, CfOp::JUMP, CfOp::ELSE, CfOp::POP,
                               CfOp::PUSH, CfOp::LOOP_START_DX10, CfOp::LOOP_END,
                               CfOp::LOOP_BREAK, CfOp::LOOP_CONTINUE, CfOp::EXPORT,
                               CfOp::EXPORT_DONE, CfOp::KILL, CfOp::RET, CfOp::CALL_FS};
   Program p;
   p.chip = static_cast<ChipClass>(rng.below(4));
   unsigned n = 1 + rng.below(10);
   for (unsigned i = 0; i < n; i++) {
      CfInstr cf;
      cf.op = kOps[rng.below(sizeof(kOps) / sizeof(kOps[0]))];
      cf.target = rng.below(n + 3);
      cf.pop_count = uint8_t(rng.below(4));
      for (KCacheLock &k : cf.kcache)
         k = KCacheLock{uint8_t(rng.below(4)), uint8_t(rng.below(4)), uint8_t(rng.below(8)),
                        uint8_t(rng.below(3))};
      if (cf_op_info(cf.op).enc == CfEncoding::Alu) {
         unsigned ng = 1 + rng.below(4);
         for (unsigned g = 0; g < ng; g++) {
            AluGroup grp;
            unsigned ni = 1 + rng.below(7);
            for (unsigned k = 0; k < ni; k++) {
               AluInstr in;
               in.op = static_cast<AluOp>(rng.below(kNumAluOps + 2));
               in.slot = uint8_t(rng.below(7));
               for (AluSrc &s : in.src)
                  s = AluSrc{uint16_t(rng.below(512)), uint8_t(rng.below(8)), rng.below(2) == 0,
                             rng.below(2) == 0, rng.below(4) == 0};
               in.dst = AluDst{uint8_t(rng.below(256)), uint8_t(rng.below(8)), rng.below(2) == 0,
                               rng.below(4) == 0, rng.below(2) == 0, uint8_t(rng.below(4))};
               in.bank_swizzle = uint8_t(rng.below(8));
               in.pred_sel = uint8_t(rng.below(4));
               in.index_mode = uint8_t(rng.below(8));
               in.update_exec_mask = rng.below(2) == 0;
               in.update_pred = rng.below(2) == 0;
               grp.instrs.push_back(in);
            }
            for (unsigned k = rng.below(6); k > 0; k--)
               grp.literals.push_back(rng.next());
            cf.groups.push_back(grp);
         }
      } else if (cf.op == CfOp::TEX || cf.op == CfOp::VTX) {
         for (unsigned k = rng.below(4); k > 0; k--) {
            if (rng.below(2)) {
               TexInstr t;
               t.op = static_cast<FetchOp>(rng.below(kNumFetchOps + 1));
               t.resource_id = uint8_t(rng.below(40));
               t.src_gpr = uint8_t(rng.below(256));
               t.dst_gpr = uint8_t(rng.below(256));
               t.src_rel = rng.below(4) == 0;
               for (uint8_t &s : t.src_sel)
                  s = uint8_t(rng.below(8));
               for (uint8_t &s : t.dst_sel)
                  s = uint8_t(rng.below(8));
               cf.fetches.push_back(t);
            } else {
               VtxInstr v;
               v.buffer_id = uint8_t(rng.below(20));
               v.src_gpr = uint8_t(rng.below(256));
               v.dst_gpr = uint8_t(rng.below(256));
               v.data_format = uint8_t(rng.below(64));
               v.offset = uint16_t(rng.next());
               cf.fetches.push_back(v);
            }
         }
      } else if (cf.op == CfOp::EXPORT || cf.op == CfOp::EXPORT_DONE) {
         cf.exp.type = uint8_t(rng.below(4));
         cf.exp.array_base = uint16_t(rng.below(70));
         cf.exp.gpr = uint8_t(rng.below(256));
         cf.exp.burst_count = uint8_t(rng.below(17));
         for (uint8_t &s : cf.exp.swizzle)
            s = uint8_t(rng.below(8));
      }
      cf.end_of_program = i + 1 == n && rng.below(4) != 0;
      p.cf.push_back(cf);
   }
   return p;
}

TEST(R600EmuRobust, RandomProgramsRefuseOrRunDeterministically)
{
   Rng rng(12345);
   unsigned ran = 0, refused = 0;
   for (int iter = 0; iter < 2000; iter++) {
      Program p = random_program(rng);
      ShaderInfo info = vs_info(p.chip, rng.below(4));
      if (rng.below(2)) {
         info.stage = tgsi::Processor::Fragment;
         info.num_ij = rng.below(3);
         info.inputs[0].lds_pos = int(rng.below(3)) - 1;
         info.inputs[0].ij_index = int(rng.below(4)) - 1;
      }
      Diagnostics d;
      validate_program(p, info, d);
      Resources res;
      res.constants.assign(2, std::vector<Vec4>(8, vec4f(1, 2, 3, 4)));
      RunLimits lim;
      lim.max_loop_iterations = 8;
      std::vector<Vec4> in;
      for (int l = 0; l < 8; l++)
         in.push_back(vec4f(float(l) - 3.5f, 1.0f, -2.0f, 0.5f));
      Batch a = batch_of(in), b = batch_of(in);
      RunResult ra = emulate(p, info, res, a, lim), rb = emulate(p, info, res, b, lim);
      EXPECT_EQ(ra.status, rb.status) << iter;
      EXPECT_EQ(ra.message, rb.message) << iter;
      for (size_t l = 0; l < a.lanes.size(); l++) {
         EXPECT_EQ(a.lanes[l].outputs, b.lanes[l].outputs) << iter;
         EXPECT_EQ(a.lanes[l].killed, b.lanes[l].killed) << iter;
      }
      (ra.status == RunStatus::Error ? refused : ran)++;
   }
   /* Both outcomes must actually occur for the test to mean something. */
   EXPECT_GT(ran, 20u);
   EXPECT_GT(refused, 20u);
}

} // namespace
