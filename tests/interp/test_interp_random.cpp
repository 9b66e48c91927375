/*
 * Robustness: hand-built IR with random opcodes, operands, modifiers,
 * indirect indices and structured control flow (including junk a parser
 * would never produce) must either be refused with a diagnostic or run to
 * completion deterministically; it must never crash or hang.
 */
#include "interp_test_util.h"

#include <algorithm>
#include <cstdlib>
#include <random>

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

Instruction mk(Opcode op)
{
   Instruction in;
   in.opcode = op;
   return in;
}

struct Gen {
   std::mt19937 rng;
   bool junk; /* this shader may contain what the interpreter must refuse */
   explicit Gen(uint32_t seed) : rng(seed) { junk = pick(100) < 25; }

   int pick(int n) { return int(rng() % uint32_t(n)); }
   bool chance(int percent) { return pick(100) < percent; }
   bool bad(int percent) { return junk && chance(percent); }

   static int size(File f)
   {
      switch (f) {
      case File::Immediate: return 3;
      case File::Address:
      case File::SystemValue: return 1;
      case File::Output: return 2;
      default: return 8;
      }
   }

   RegIndex index(int size)
   {
      RegIndex r;
      r.value = bad(3) ? pick(200) - 100 : pick(size);
      if (chance(15)) {
         IndirectRef ind;
         ind.file = chance(90) ? File::Address : File::Temporary;
         ind.index = bad(5) ? 3 : 0;
         ind.swizzle = uint8_t(pick(bad(5) ? 8 : 4));
         r.indirect = ind;
      }
      return r;
   }

   SrcOperand src()
   {
      SrcOperand s;
      static const File files[] = {File::Temporary, File::Temporary, File::Input,
                                   File::Constant,  File::Immediate, File::Address,
                                   File::SystemValue};
      s.file = chance(3) ? File::Output : files[pick(7)];
      s.index = index(size(s.file));
      if (s.file == File::Constant && chance(30))
         s.dimension = index(2);
      for (auto &c : s.swizzle)
         c = uint8_t(pick(4));
      s.negate = chance(20);
      s.absolute = chance(10);
      if (chance(10))
         s.array_id = uint16_t(pick(3));
      return s;
   }

   DstOperand dst(bool address)
   {
      DstOperand d;
      d.file = address ? File::Address : chance(70) ? File::Temporary : File::Output;
      d.index = index(size(d.file));
      d.write_mask = uint8_t(1 + pick(15));
      return d;
   }

   Instruction alu()
   {
      Instruction in;
      for (;;) {
         in.opcode = Opcode(pick(int(kNumOpcodes)));
         const OpcodeInfo &info = opcode_info(in.opcode);
         if (!(info.flags & OPF_BRANCH) && in.opcode != Opcode::NOP)
            break;
      }
      const OpcodeInfo &info = in.info();
      in.saturate = chance(15);
      if (info.num_dst)
         in.dst.push_back(dst(info.flags & OPF_ADDRESS));
      for (unsigned i = 0; i < info.num_src; i++)
         in.src.push_back(src());
      if (info.flags & OPF_TEX) {
         SrcOperand &s = in.src.back();
         s = SrcOperand{};
         s.file = File::Sampler;
         s.index.value = pick(3);
         if (chance(20)) {
            IndirectRef ind;
            s.index.indirect = ind;
         }
         do
            in.tex_target = TextureTarget(1 + pick(int(TextureTarget::Count) - 1));
         while (!junk && (in.tex_target == TextureTarget::Buffer ||
                          in.tex_target == TextureTarget::Msaa2D ||
                          in.tex_target == TextureTarget::MsaaArray2D));
      }
      return in;
   }

   /* A body of n instructions with nested structured control flow. */
   void body(std::vector<Instruction> &out, int n, int depth)
   {
      for (int i = 0; i < n; i++) {
         int r = pick(100);
         Instruction in;
         if (depth < 3 && r < 8) {
            in.opcode = chance(50) ? Opcode::IF : Opcode::UIF;
            in.src.push_back(src());
            out.push_back(in);
            body(out, 1 + pick(4), depth + 1);
            if (chance(50)) {
               out.push_back(mk(Opcode::ELSE));
               body(out, 1 + pick(4), depth + 1);
            }
            out.push_back(mk(Opcode::ENDIF));
         } else if (depth < 3 && r < 12) {
            out.push_back(mk(Opcode::BGNLOOP));
            body(out, 1 + pick(5), depth + 1);
            Instruction brk;
            brk.opcode = Opcode::IF;
            brk.src.push_back(src());
            out.push_back(brk);
            out.push_back(mk(chance(80) ? Opcode::BRK : Opcode::CONT));
            out.push_back(mk(Opcode::ENDIF));
            out.push_back(mk(Opcode::ENDLOOP));
         } else if (r < 14) {
            in.opcode = Opcode::KILL_IF;
            in.src.push_back(src());
            out.push_back(in);
         } else if (r < 15) {
            out.push_back(mk(Opcode::RET));
         } else {
            out.push_back(alu());
         }
      }
   }

   Shader shader()
   {
      Shader sh;
      sh.source_name = "random";
      sh.processor = chance(50) ? Processor::Fragment : Processor::Vertex;
      auto decl = [&](File f, int first, int last, uint16_t array = 0) {
         Declaration d;
         d.file = f;
         d.first = first;
         d.last = last;
         d.array_id = array;
         sh.declarations.push_back(d);
      };
      decl(File::Input, 0, 3);
      decl(File::Output, 0, 1);
      decl(File::Temporary, 0, 3);
      decl(File::Temporary, 4, 7, 1);
      decl(File::Address, 0, 0);
      decl(File::Constant, 0, 7);
      decl(File::Sampler, 0, 1);
      decl(File::SystemValue, 0, 0);
      for (int i = 0; i < 3; i++) {
         Immediate imm;
         imm.type = ImmType(pick(3));
         for (auto &v : imm.value)
            v = chance(50) ? uint32_t(rng()) : f2u(float(pick(9) - 4) * 0.5f);
         sh.immediates.push_back(imm);
      }
      body(sh.instructions, 5 + pick(25), 0);
      sh.instructions.push_back(mk(Opcode::END));
      if (bad(20) && sh.instructions.size() > 2)
         sh.instructions.erase(sh.instructions.begin() + pick(int(sh.instructions.size())));
      return sh;
   }
};

} // namespace

TEST(InterpRandom, RandomProgramsNeverCrash)
{
   tex::TextureSet textures;
   textures.bind(0, std::make_shared<tex::Texture>(
                       tex::Texture::procedural(tex::Kind::Tex2D, 8, 8, 1, true, 3)));
   textures.bind(1, std::make_shared<tex::Texture>(
                       tex::Texture::depth(tex::Kind::Cube, 4, 4, 1, true, 5)));
   Resources res;
   res.textures = &textures;
   res.constants = {{vec4f(1, -2, 0.5f, 3), interp::test::vec4u(1, 2, 3, 0xffffffffu)}};
   RunLimits limits;
   limits.max_loop_iterations = 64;

   int accepted = 0, refused = 0;
   /* SBCC_RANDOM_SEEDS=N runs more programs (e.g. under a sanitizer). */
   uint32_t seeds = 400;
   if (const char *env = getenv("SBCC_RANDOM_SEEDS"))
      seeds = uint32_t(std::max(1, atoi(env)));
   for (uint32_t seed = 1; seed <= seeds; seed++) {
      Gen g(seed);
      Shader sh = g.shader();
      Diagnostics diags;
      auto exe = interp::make_reference_executable(sh, diags);
      if (!exe) {
         EXPECT_TRUE(diags.has_errors()) << "seed " << seed;
         if (getenv("SBCC_TEST_VERBOSE"))
            printf("%s", diags.str().c_str());
         refused++;
         continue;
      }
      accepted++;
      Batch a;
      for (int l = 0; l < 6; l++) {
         Lane lane;
         for (int i = 0; i < 4; i++)
            lane.inputs.push_back(
               {uint32_t(g.rng()), f2u(float(l) * 0.25f), f2u(float(i) - 1.5f), uint32_t(l)});
         lane.system_values.push_back({uint32_t(l), 0, 0, 0});
         a.lanes.push_back(lane);
      }
      Batch b = a;
      RunResult ra = exe->run(res, a, limits);
      RunResult rb = exe->run(res, b, limits);
      EXPECT_NE(ra.status, RunStatus::Error) << "seed " << seed;
      EXPECT_EQ(ra.status, rb.status) << "seed " << seed;
      EXPECT_EQ(ra.instructions, rb.instructions) << "seed " << seed;
      for (size_t l = 0; l < a.lanes.size(); l++) {
         EXPECT_EQ(a.lanes[l].outputs, b.lanes[l].outputs) << "seed " << seed;
         EXPECT_EQ(a.lanes[l].killed, b.lanes[l].killed) << "seed " << seed;
      }
   }
   ::testing::Test::RecordProperty("accepted", accepted);
   ::testing::Test::RecordProperty("refused", refused);
   /* Both paths must actually be exercised. */
   EXPECT_GT(accepted, 100);
   EXPECT_GT(refused, 10);
}
