/*
 * bc_finalize on whole programs: random structured programs (nests of ifs
 * with and without else, loops with counted exits, breaks and continues,
 * laid out as the plain backend does) finalized with identity_allocation
 * and packed by the clause-local stage, against their source in the
 * emulator; and the round trip of every stage of every bundled
 * .shader_test through region_parse -> ssa -> identity allocation ->
 * bc_finalize (alone, and followed by the clause-local bc_parser ->
 * post_scheduler -> bc_builder), checked by the validator and against the
 * reference interpreter inside the real compile pipeline.  Part of the
 * test_sb_finalize executable (see test_sb_finalize.cpp); shared helpers
 * in sb_finalize_test_util.h.
 */
#include <bit>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "interp/interp.h"
#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"
#include "r600/r600_target.h"
#include "r600/sb/sb_region_passes.h"
#include "r600/sb/sb.h"
#include "r600/sb/sb_ra.h"
#include "runner/shader_run.h"
#include "runner/shader_test.h"
#include "runner/verify.h"
#include "sb/sb_finalize_test_util.h"
#include "sb/sb_test_util.h"

#ifndef SBCC_SOURCE_ROOT
#define SBCC_SOURCE_ROOT "."
#endif

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

/* ---- Random structured programs ------------------------------------------ */

/* Random nests of ifs (with and without else), loops with counted exits,
 * breaks and continues, laid out the way the plain backend does (POP folded
 * into a trailing ALU clause), over R2..R5 seeded from the input. */
struct RandomProgram {
   std::mt19937 rng;
   ChipClass chip;
   Program p;
   unsigned loops = 0;

   unsigned pick(unsigned n) { return unsigned(rng() % n); }
   AluSrc reg() { return src_gpr(2 + pick(4), pick(4)); }
   uint32_t small_float() { return std::bit_cast<uint32_t>(float(int(pick(9)) - 4) * 0.5f); }

   void alu_content(bool fresh)
   {
      static const AluOp ops[] = {AluOp::ADD, AluOp::MUL, AluOp::MAX, AluOp::MIN};
      if (fresh || p.cf.empty() || p.cf.back().op != CfOp::ALU)
         p.cf.push_back(alu_clause({}));
      unsigned n = 1 + pick(3);
      for (unsigned i = 0; i < n; i++) {
         AluGroup g;
         unsigned used = 0;
         for (unsigned k = 0; k < 1 + pick(3); k++) {
            unsigned chan = pick(4);
            if (used & (1u << chan))
               continue;
            used |= 1u << chan;
            AluSrc b = pick(2) ? reg() : src_literal(0);
            g.instrs.push_back(alu(ops[pick(4)], chan, dst(2 + pick(4), chan), reg(), b));
         }
         std::sort(g.instrs.begin(), g.instrs.end(),
                   [](const AluInstr &x, const AluInstr &y) { return x.slot < y.slot; });
         g.literals = {small_float()};
         /* Bank swizzles the validator accepts, as any producer must give. */
         if (!sb::assign_bank_swizzles(chip, g.instrs))
            continue;
         p.cf.back().groups.push_back(g);
      }
      if (p.cf.back().groups.empty())
         p.cf.back().groups.push_back(
            group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), one())}));
   }

   void push(AluSrc a, uint32_t lit)
   {
      AluInstr c = alu(AluOp::PRED_SETGT, kSlotX, dst(0, 0, false), a, src_literal(0));
      c.update_exec_mask = c.update_pred = true;
      if (p.cf.empty() || p.cf.back().op != CfOp::ALU || pick(2))
         p.cf.push_back(alu_clause({}));
      p.cf.back().op = CfOp::ALU_PUSH_BEFORE;
      p.cf.back().groups.push_back(group({c}, {lit}));
   }

   /* cond { then } [else { other }], with the plain backend's end. */
   template <typename A, typename B> void if_else(bool has_else, A &&then, B &&other)
   {
      push(reg(), small_float());
      size_t jump = p.cf.size();
      p.cf.push_back(cf_op(CfOp::JUMP));
      then();
      size_t els = 0;
      if (has_else) {
         els = p.cf.size();
         p.cf.push_back(cf_op(CfOp::ELSE, 0, 1));
         p.cf[jump].target = uint32_t(els);
         other();
      }
      size_t after;
      if (p.cf.back().op == CfOp::ALU && p.cf.size() - 1 > (has_else ? els : jump)) {
         p.cf.back().op = CfOp::ALU_POP_AFTER;
         after = p.cf.size();
      } else {
         p.cf.push_back(cf_op(CfOp::POP, uint32_t(p.cf.size() + 1), 1));
         after = p.cf.size();
      }
      if (has_else) {
         p.cf[els].target = uint32_t(after);
      } else {
         p.cf[jump].target = uint32_t(after);
         p.cf[jump].pop_count = 1;
      }
   }

   void block(unsigned depth, std::vector<size_t> *exits)
   {
      unsigned n = 1 + pick(3);
      for (unsigned i = 0; i < n; i++) {
         unsigned what = depth >= 4 ? 0 : pick(exits ? 5 : 4);
         if (what == 0) {
            alu_content(pick(3) == 0);
         } else if (what == 1 || what == 2) {
            if_else(what == 2, [&] { block(depth + 1, exits); },
                    [&] { block(depth + 1, exits); });
         } else if (what == 3 && loops < 2) {
            /* counter R6.<loops> = 0; loop { if (counter > bound) break;
             * counter += 1; body } */
            unsigned chan = loops++;
            p.cf.push_back(alu_clause(
               {group({alu(AluOp::MOV, chan, dst(6, chan), zero())})}));
            size_t start = p.cf.size();
            p.cf.push_back(cf_op(CfOp::LOOP_START_DX10));
            std::vector<size_t> inner;
            if_else(false, [&] {
               inner.push_back(p.cf.size());
               p.cf.push_back(cf_op(CfOp::LOOP_BREAK));
            }, [] {});
            /* The condition is counter > 1.5 + k: at most four trips. */
            p.cf[start + 1].groups.back().instrs[0].src[0] = src_gpr(6, chan);
            p.cf[start + 1].groups.back().literals = {
               std::bit_cast<uint32_t>(1.5f + float(pick(3)))};
            p.cf.push_back(alu_clause({group({alu(AluOp::ADD, chan, dst(6, chan),
                                                  src_gpr(6, chan), one())})}));
            block(depth + 1, &inner);
            size_t end = p.cf.size();
            p.cf.push_back(cf_op(CfOp::LOOP_END, uint32_t(start + 1)));
            p.cf[start].target = uint32_t(end + 1);
            for (size_t k : inner)
               p.cf[k].target = uint32_t(end);
            loops--;
         } else if (exits) {
            bool brk = pick(2);
            if_else(false, [&] {
               exits->push_back(p.cf.size());
               p.cf.push_back(cf_op(brk ? CfOp::LOOP_BREAK : CfOp::LOOP_CONTINUE));
            }, [] {});
         } else {
            alu_content(false);
         }
      }
   }

   Program make(unsigned seed)
   {
      rng.seed(seed);
      p = program(chip, {});
      std::vector<AluGroup> init;
      for (unsigned r = 2; r < 6; r++)
         init.push_back(group({alu(AluOp::MOV, kSlotX, dst(r, 0), src_gpr(1, (r + 1) % 4)),
                               alu(AluOp::MOV, kSlotY, dst(r, 1), src_gpr(1, r % 4)),
                               alu(AluOp::MOV, kSlotZ, dst(r, 2), src_gpr(1, (r + 3) % 4)),
                               alu(AluOp::MOV, kSlotW, dst(r, 3), src_gpr(1, (r + 2) % 4))}));
      p.cf.push_back(alu_clause(init));
      block(0, nullptr);
      p.cf.push_back(alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0),
                                            src_gpr(3, 1)),
                                        alu(AluOp::ADD, kSlotY, dst(2, 1), src_gpr(4, 2),
                                            src_gpr(5, 3))})}));
      p.cf.push_back(export_done(2));
      return p;
   }
};

TEST(SbFinalize, RandomStructuredProgramsAgreeWithTheirSource)
{
   unsigned programs = 0, pop2 = 0;
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700, ChipClass::R600,
                          ChipClass::Cayman}) {
      for (unsigned seed = 1; seed <= 150; seed++) {
         RandomProgram gen;
         gen.chip = chip;
         Program src = gen.make(seed);
         ShaderInfo info = vs_info(chip, 16);
         Diagnostics d;
         if (!validate_program(src, info, d))
            continue; /* the generator's own slip: not bc_finalize's input */
         std::string refused, error;
         auto out = finalize(src, info, &refused, &error);
         ASSERT_TRUE(out) << "seed " << seed << ": " << refused << error;
         for (const CfInstr &cf : out->cf)
            pop2 += cf.op == CfOp::ALU_POP2_AFTER;
         std::vector<Vec4> in;
         for (int k = 0; k < 8; k++)
            in.push_back(Vec4{std::bit_cast<uint32_t>(float(k % 5) - 2.0f),
                              std::bit_cast<uint32_t>(float(k % 3) - 1.0f),
                              std::bit_cast<uint32_t>(float(k) * 0.5f),
                              std::bit_cast<uint32_t>(1.5f - float(k % 4))});
         auto want = outputs_of(src, info, in);
         ASSERT_EQ(outputs_of(*out, info, in), want) << "seed " << seed << "\n" << listing(src)
                                                     << "finalized:\n" << listing(*out);
         sb::Shader sh;
         Program packed;
         ASSERT_TRUE(sb::bc_parser(*out, sh, d) && sb::post_scheduler(sh, d) &&
                     sb::bc_builder(sh, packed, d))
            << d.str();
         EXPECT_EQ(outputs_of(packed, info, in), want) << "seed " << seed;
         programs++;
      }
   }
   EXPECT_GT(programs, 500u);
   EXPECT_GT(pop2, 0u);
   std::cout << programs << " random programs, " << pop2 << " ALU_POP2_AFTER\n";
}

/* ---- Round trip of the bundled shader tests ----------------------------- */

struct RoundTrip {
   unsigned stages = 0, compiled = 0, refused = 0, finalized = 0, failed = 0, invalid = 0;
   unsigned verified = 0, mismatches = 0, plain_mismatches = 0;
   unsigned cf[2] = {}, groups[2] = {};
   std::map<std::string, unsigned> reasons;
   std::vector<std::string> plain_names; /* stages the plain code gets wrong too */
   std::vector<std::string> errors;
};

/* The reason without the CF index: "ALU_PUSH_BEFORE not followed by ...". */
std::string reason_of(const std::string &diag)
{
   std::string s = diag.substr(0, diag.find('\n'));
   size_t p = s.find("): ");
   return p == std::string::npos ? s : s.substr(s.find(" (") + 2);
}

void round_trip(ChipClass chip, bool clause_local, RoundTrip &t)
{
   namespace fs = std::filesystem;
   const fs::path dir = fs::path(SBCC_SOURCE_ROOT) / "tests" / "shaders";
   std::ifstream list(dir / "list.txt");
   ASSERT_TRUE(list) << "no " << (dir / "list.txt");
   std::string name;
   while (std::getline(list, name)) {
      if (name.empty() || name[0] == '#')
         continue;
      std::string text;
      Diagnostics d;
      if (!runner::read_file((dir / name).string(), text, d))
         continue;
      auto test = runner::parse_shader_test(text, name, d);
      if (!test)
         continue;
      auto stages = runner::load_stages(*test, d);
      if (!stages)
         continue;
      for (const runner::LoadedStage &st : *stages) {
         t.stages++;
         std::string where = name + " (" + (st.vertex ? "vertex" : "fragment") + ")";
         bool ran = false, ok = false;
         BytecodeOptimizer opt = [&](const Program &prog, const ShaderInfo &info,
                                     ShaderStats *) -> std::optional<Program> {
            ran = true;
            std::string refused, error;
            auto out = finalize(prog, info, &refused, &error);
            if (!out) {
               if (!refused.empty()) {
                  t.refused++;
                  t.reasons[reason_of(refused)]++;
               } else {
                  t.failed++;
                  t.errors.push_back(where + ": " + error);
               }
               return std::nullopt;
            }
            if (clause_local) {
               Diagnostics cd;
               sb::Shader sh;
               Program packed;
               if (!sb::bc_parser(*out, sh, cd) || !sb::post_scheduler(sh, cd) ||
                   !sb::sched_checker(sh, cd) || !sb::bc_builder(sh, packed, cd)) {
                  t.failed++;
                  t.errors.push_back(where + ": clause-local: " + cd.str());
                  return std::nullopt;
               }
               out = std::move(packed);
            }
            /* What runs is what the decoder reads back from the words. */
            Diagnostics vd;
            auto words = assemble(*out, vd);
            if (!words || !decode_program(*words, out->chip, vd)) {
               t.invalid++;
               t.errors.push_back(where + ": does not assemble: " + vd.str());
               return std::nullopt;
            }
            if (!validate_program(*out, info, vd)) {
               t.invalid++;
               t.errors.push_back(where + ": invalid: " + vd.str());
               return std::nullopt;
            }
            if (const char *dump = std::getenv("SBCC_FINALIZE_DUMP"); dump && name == dump) {
               /* Debugging aid: both programs as disassembly. */
               Diagnostics dd;
               auto w0 = assemble(prog, dd), w1 = assemble(*out, dd);
               if (w0 && w1)
                  std::cerr << "plain:\n" << print_program(prog, *w0) << "finalized:\n"
                            << print_program(*out, *w1);
            }
            t.finalized++;
            const sb::ShaderCounts a = sb::count_program(prog), b = sb::count_program(*out);
            t.cf[0] += a.cf;
            t.cf[1] += b.cf;
            t.groups[0] += a.alu_groups;
            t.groups[1] += b.alu_groups;
            ok = true;
            return out;
         };
         DebugOptions debug;
         Diagnostics cd;
         ShaderStats stats;
         auto exe = compile_tgsi_for_r600(st.shader, chip, "", debug, cd, &stats, nullptr, &opt);
         if (!exe)
            continue; /* the plain backend does not support it on this chip */
         t.compiled++;
         if (!ran || !ok)
            continue;
         Diagnostics rd;
         auto ref = interp::make_reference_executable(st.shader, rd);
         if (!ref)
            continue;
         runner::VerifyOptions vo;
         auto r = runner::verify_shader(st.shader, *ref, *exe, vo);
         if (r.status == runner::VerifyStatus::Pass) {
            t.verified++;
            continue;
         }
         /* Only a difference the plain code does not have is sb's. */
         auto plain = compile_tgsi_for_r600(st.shader, chip, "", debug, cd, nullptr);
         if (plain && runner::verify_shader(st.shader, *ref, *plain, vo).status !=
                         runner::VerifyStatus::Pass) {
            t.plain_mismatches++;
            t.plain_names.push_back(where);
            continue;
         }
         t.mismatches++;
         t.errors.push_back(where + ": differs from the reference: " + r.message);
      }
   }
}

class SbFinalizeShaders
   : public ::testing::TestWithParam<std::tuple<const char *, bool>> {};

TEST_P(SbFinalizeShaders, RoundTripAgreesWithReference)
{
   auto chip = chip_class_from_name(std::get<0>(GetParam()));
   ASSERT_TRUE(chip);
   const bool clause_local = std::get<1>(GetParam());
   RoundTrip t;
   round_trip(*chip, clause_local, t);
   std::ostringstream s;
   s << std::get<0>(GetParam()) << (clause_local ? " +clause-local" : "") << ": " << t.stages
     << " stages, " << t.compiled << " compiled, " << t.finalized << " finalized, " << t.refused
     << " refused by the parser, " << t.verified << " verified (" << t.plain_mismatches
     << " where the plain code differs too); cf " << t.cf[0] << " -> " << t.cf[1]
     << ", alu_groups " << t.groups[0] << " -> " << t.groups[1] << "\n";
   for (const auto &[why, n] : t.reasons)
      s << "  refused " << n << "x: " << why << "\n";
   for (const std::string &n : t.plain_names)
      s << "  not judged (the plain code differs from the reference too): " << n << "\n";
   std::cout << s.str();
   for (const std::string &e : t.errors)
      ADD_FAILURE() << e;
   EXPECT_EQ(t.failed, 0u);
   EXPECT_EQ(t.invalid, 0u);
   EXPECT_EQ(t.mismatches, 0u);
   EXPECT_GT(t.finalized, t.compiled / 2) << "most stages must get through";
}

INSTANTIATE_TEST_SUITE_P(Chips, SbFinalizeShaders,
                         ::testing::Combine(::testing::Values("evergreen", "r700", "r600",
                                                              "cayman"),
                                            ::testing::Bool()),
                         [](const auto &info) {
                            return std::string(std::get<0>(info.param)) +
                                   (std::get<1>(info.param) ? "_clause_local" : "");
                         });

} // namespace
