/*
 * Per-op ALU semantics of the emulator, exact bit patterns, and the source
 * and destination modifiers through a whole program.
 */
#include <cfloat>
#include <cmath>

#include <gtest/gtest.h>

#include "r600/r600_emu_alu.h"
#include "r600_emu/r600_emu_build.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::test;

struct Case {
   AluOp op;
   uint32_t a, b, c;
   uint32_t want;
   ChipClass chip = ChipClass::Evergreen;
};

uint32_t F(float f) { return f2u(f); }

TEST(R600EmuAlu, OpResults)
{
   const uint32_t nan = 0x7fc00000u;
   const Case cases[] = {
      {AluOp::MUL, F(0), 0x7f800000u, 0, F(0)},
      {AluOp::MUL_IEEE, F(2), F(3), 0, F(6)},
      {AluOp::MULADD, F(0), nan, F(1.5f), F(1.5f)},
      {AluOp::MAX, F(1), F(2), 0, F(2)},
      {AluOp::MIN_DX10, nan, F(-3), 0, F(-3)},
      {AluOp::MAX_DX10, F(4), nan, 0, F(4)},
      {AluOp::SETGT, F(2), F(1), 0, F(1)},
      {AluOp::SETGE, F(1), F(2), 0, F(0)},
      {AluOp::SETNE_DX10, F(1), F(2), 0, 0xffffffffu},
      {AluOp::SETGE_INT, 0xffffffffu, 0, 0, 0},
      {AluOp::SETGE_UINT, 0xffffffffu, 0, 0, 0xffffffffu},
      {AluOp::CNDE, F(0), F(5), F(6), F(5)},
      {AluOp::CNDGT_INT, 0xffffffffu, 1, 2, 2},
      {AluOp::FRACT, F(-1.25f), 0, 0, F(0.75f)},
      {AluOp::RNDNE, F(2.5f), 0, 0, F(2)},
      {AluOp::FLT_TO_INT, F(-2.7f), 0, 0, 0xfffffffeu},
      {AluOp::FLT_TO_INT, nan, 0, 0, 0},
      {AluOp::FLT_TO_UINT, F(-5), 0, 0, 0},
      {AluOp::INT_TO_FLT, 0xfffffffdu, 0, 0, F(-3)},
      {AluOp::UINT_TO_FLT, 3, 0, 0, F(3)},
      {AluOp::ASHR_INT, 0x80000000u, 33, 0, 0xc0000000u},
      {AluOp::LSHL_INT, 1, 4, 0, 16},
      {AluOp::BFE_UINT, 0xabcd, 4, 8, 0xbc},
      {AluOp::BFE_INT, 0xf0, 4, 4, 0xffffffffu},
      {AluOp::BFI_INT, 0xff00, 0x1234, 0xabcd, 0x12cd},
      {AluOp::MULHI_UINT, 0x80000000u, 4, 0, 2},
      {AluOp::MULLO_INT, 0xffffffffu, 3, 0, 0xfffffffdu},
      {AluOp::RECIP_UINT, 3, 0, 0, 0x55555555u},
      {AluOp::RECIP_CLAMPED, F(0), 0, 0, F(FLT_MAX)},
      {AluOp::RECIP_IEEE, F(0), 0, 0, 0x7f800000u},
      {AluOp::LOG_CLAMPED, F(0), 0, 0, F(-FLT_MAX)},
      {AluOp::EXP_IEEE, F(3), 0, 0, F(8)},
      {AluOp::SQRT_IEEE, F(16), 0, 0, F(4)},
      {AluOp::MUL_LIT, F(2), F(3), F(-1), F(-FLT_MAX)},
      {AluOp::MUL_LIT, F(2), F(3), F(1), F(6)},
      {AluOp::FLT32_TO_FLT16, F(1), 0, 0, 0x3c00},
      {AluOp::FLT16_TO_FLT32, 0xc000, 0, 0, F(-2)},
      {AluOp::SIN, F(0.25f), 0, 0, F(1), ChipClass::R700},
      {AluOp::COS, F(0), 0, 0, F(1), ChipClass::R600},
      {AluOp::MOVA_FLOOR, F(-0.5f), 0, 0, 0xffffffffu, ChipClass::R700},
   };
   for (const Case &c : cases) {
      emu::SlotResult r;
      ASSERT_TRUE(emu::alu_eval(c.chip, c.op, c.a, c.b, c.c, r)) << alu_op_name(c.op);
      EXPECT_EQ(r.value, c.want) << alu_op_name(c.op) << " " << std::hex << c.a << " " << c.b
                                 << " " << c.c;
   }
   emu::SlotResult r;
   ASSERT_TRUE(emu::alu_eval(ChipClass::R600, AluOp::SIN, F(float(M_PI / 2)), 0, 0, r));
   EXPECT_NEAR(u2f(r.value), 1.0f, 1e-6f);
   EXPECT_FALSE(emu::alu_eval(ChipClass::Evergreen, AluOp::ADD_64, 0, 0, 0, r));
}

TEST(R600EmuAlu, ModifiersAndOutputModifiers)
{
   /* |x| then negate on sources; omod *2 /2 *4 and clamp on the result. */
   auto mov = [](unsigned chan, AluSrc s, unsigned omod, bool clamp) {
      AluInstr in = alu(AluOp::MOV, chan, dst(2, chan), s);
      in.dst.omod = uint8_t(omod);
      in.dst.clamp = clamp;
      return in;
   };
   AluSrc absneg = src_gpr(1, 0, true, true);
   Program p;
   p.chip = ChipClass::Evergreen;
   p.cf = {alu_clause({group({mov(0, absneg, 1, false), mov(1, src_gpr(1, 1), 3, false),
                              mov(2, src_gpr(1, 2), 2, true), mov(3, src_gpr(1, 3, true), 0, true)})}),
           export_done(2)};
   Batch b = batch_of({vec4f(-3, 5, 0.125f, 0.5f)});
   RunResult r = emulate(p, vs_info(ChipClass::Evergreen), {}, b, {});
   ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
   EXPECT_EQ(b.lanes[0].outputs[0], vec4f(-6, 2.5f, 0.5f, 0));
}

} // namespace
