/*
 * if_conversion in whole programs: TGSI through the plain backend, then
 * region tree -> if_conversion -> dce -> RA -> bc_finalize, which must
 * agree with the plain bytecode in the emulator.  Small TGSI cases (work
 * both sides share, across nesting levels too, a speculated constant
 * fetch, thirty instructions a side) count their conversions exactly; the
 * bundled tests/shaders, random TGSI and the corpus TGSI (when
 * SBCC_IFC_CORPUS is set) print the number of converted ifs.  Also gcm
 * moving a fetch clause before ALU work it does not read, checked through
 * the whole sb pipeline in the emulator.
 *
 * Part of the test_sb_if_conversion executable (the hand-built unit cases
 * are in test_sb_if_conversion.cpp); shared helpers in
 * sb_if_conversion_test_util.h.
 */
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "r600/r600_target.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_passes.h"
#include "r600_backend/random_tgsi_gen.h"
#include "sb/sb_if_conversion_test_util.h"
#include "sb/sb_test_util.h"
#include "tgsi/tgsi_ir.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::sb::region;
using namespace sbcc::r600::sb::test;

/* ---------------------------------------------------------------------- */
/* Whole programs: plain backend -> region tree -> if_conversion -> dce ->  */
/* RA -> bc_finalize, against the plain bytecode in the emulator           */
/* ---------------------------------------------------------------------- */

struct WholeStats {
   unsigned stages = 0, parsed = 0, ifs = 0, converted = 0, with_conversion = 0;
   unsigned finalized = 0, compared = 0, not_comparable = 0, fallback = 0;
   unsigned fallback_caused = 0; /* the unconverted tree finalizes */
   unsigned cf[2] = {}, groups[2] = {}; /* finalized without / with conversion */
   unsigned packed = 0, packed_groups[2] = {};
   unsigned wrong_without_conversion = 0; /* other passes' bugs, not conversion's */
   std::map<std::string, unsigned> kept;
   std::string failures;
};

unsigned count_ifs(const Node *n)
{
   unsigned c = n->kind == NodeKind::If ? 1 : 0;
   for (const Node *k : n->children)
      c += count_ifs(k);
   return c;
}

Batch make_batch(const ShaderInfo &info)
{
   /* Inputs in [-1, 1) so conditions on them go both ways across lanes. */
   return random_lanes(info, 3, -1.0f, 1.0f);
}

/* Whether the pipeline finalizes the program without if_conversion: tells
 * the fallbacks conversion causes from those it does not. */
bool finalizes_unconverted(const Program &prog, const ShaderInfo &info, Program *result = nullptr,
                           unsigned *gprs = nullptr)
{
   Diagnostics d;
   RegionParseOptions opts;
   opts.arrays = infer_rel_arrays(prog);
   opts.fetch_shader_call = info.has_fetch_shader; /* as sb_optimize does */
   auto sh = region_parse(prog, opts, d);
   if (!sh)
      return false;
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation alloc;
   Program out;
   if (!dce_cleanup(*sh, d) || !register_allocation(*sh, info, alloc, d) ||
       !bc_finalize(*sh, alloc, info, out, d))
      return false;
   if (result)
      *result = std::move(out);
   if (gprs)
      *gprs = std::max(alloc.num_gprs, 1u);
   return true;
}

void convert_stage(const Program &prog, const ShaderInfo &info, const std::string &what,
                   WholeStats &st)
{
   st.stages++;
   Diagnostics d;
   RegionParseOptions opts;
   opts.arrays = infer_rel_arrays(prog);
   opts.fetch_shader_call = info.has_fetch_shader; /* as sb_optimize does */
   auto sh = region_parse(prog, opts, d);
   if (!sh)
      return;
   st.parsed++;
   ssa_prepare(*sh);
   ssa_rename(*sh);
   st.ifs += count_ifs(sh->root);
   const char *dump = std::getenv("SBCC_IFC_DUMP"); /* a stage name: print its trees */
   if (dump && what == dump)
      std::cerr << what << " before:\n" << region_dump(*sh);
   IfConversionStats ic;
   if (!if_conversion(*sh, d, &ic)) {
      st.failures += what + ": if_conversion: " + d.str();
      return;
   }
   if (dump && what == dump)
      std::cerr << what << " after:\n" << region_dump(*sh);
   st.converted += ic.converted;
   for (auto &[why, n] : ic.kept)
      st.kept[why] += n;
   if (!ic.converted)
      return;
   st.with_conversion++;
   Allocation alloc;
   if (!dce_cleanup(*sh, d) || !register_allocation(*sh, info, alloc, d)) {
      st.fallback++;
      st.fallback_caused += finalizes_unconverted(prog, info);
      if (std::getenv("SBCC_IFC_VERBOSE"))
         std::cerr << what << ": RA: " << d.str();
      return;
   }
   Program out;
   if (!bc_finalize(*sh, alloc, info, out, d)) {
      st.fallback++;
      st.fallback_caused += finalizes_unconverted(prog, info);
      if (std::getenv("SBCC_IFC_VERBOSE"))
         std::cerr << what << ": bc_finalize: " << d.str();
      return;
   }
   st.finalized++;
   /* Size against the same pipeline without conversion (both unpacked:
    * the post_scheduler packs them later). */
   Program plain;
   if (finalizes_unconverted(prog, info, &plain)) {
      st.cf[0] += unsigned(plain.cf.size());
      st.cf[1] += unsigned(out.cf.size());
      st.groups[0] += num_groups(plain);
      st.groups[1] += num_groups(out);
      /* And packed by the clause-local post_scheduler, as the driver will. */
      auto pack = [](const Program &p) -> std::optional<Program> {
         Diagnostics pd;
         sb::Shader ps;
         Program po;
         if (!sb::bc_parser(p, ps, pd) || !sb::post_scheduler(ps, pd) ||
             !sb::sched_checker(ps, pd) || !sb::bc_builder(ps, po, pd))
            return std::nullopt;
         return po;
      };
      auto pa = pack(plain), pb = pack(out);
      if (pa && pb) {
         st.packed++;
         st.packed_groups[0] += num_groups(*pa);
         st.packed_groups[1] += num_groups(*pb);
      }
   }
   ShaderInfo fin = info;
   fin.num_gprs = std::max(alloc.num_gprs, 1u);
   if (!validate_program(out, fin, d)) {
      st.failures += what + ": validator: " + d.str();
      return;
   }
   /* Run the plain program, then a finalized one; "" when they agree. */
   auto differs = [&](const Program &o, const ShaderInfo &oi, bool &runnable) -> std::string {
      Resources res = random_constants(7);
      RunLimits lim;
      lim.max_loop_iterations = 256;
      Batch a = make_batch(info), b = make_batch(info);
      RunResult ra = emulate(prog, info, res, a, lim);
      runnable = ra.status == RunStatus::Ok;
      if (!runnable)
         return ""; /* textures, budgets: the plain code does not run alone */
      RunResult rb = emulate(o, oi, res, b, lim);
      if (rb.status != RunStatus::Ok)
         return "does not run: " + rb.message;
      for (size_t l = 0; l < a.lanes.size(); l++)
         if (a.lanes[l].outputs != b.lanes[l].outputs || a.lanes[l].killed != b.lanes[l].killed)
            return "lane " + std::to_string(l) + " differs";
      return "";
   };
   bool runnable = false;
   std::string bad = differs(out, fin, runnable);
   if (!runnable) {
      st.not_comparable++;
      return;
   }
   if (!bad.empty()) {
      /* Wrong code the unconverted pipeline produces as well is not this
       * pass's: counted apart, so the suite sees what conversion breaks. */
      Program plain_out;
      ShaderInfo plain_info = info;
      if (finalizes_unconverted(prog, info, &plain_out, &plain_info.num_gprs)) {
         bool r2 = false;
         if (!differs(plain_out, plain_info, r2).empty()) {
            st.wrong_without_conversion++;
            if (std::getenv("SBCC_IFC_VERBOSE"))
               std::cerr << what << ": wrong without conversion too: " << bad << "\n";
            return;
         }
      }
      st.failures += what + ": converted code " + bad + "\n";
      return;
   }
   st.compared++;
}

void compile_and_convert(const std::string &text, const std::string &what, ChipClass chip,
                         WholeStats &st)
{
   with_plain_bytecode(text, what, chip, [&](const Program &p, const ShaderInfo &info) {
      convert_stage(p, info, what, st);
   });
}

std::string summary(const WholeStats &st)
{
   std::ostringstream o;
   o << st.stages << " stages, " << st.parsed << " parsed, ifs " << st.ifs << ", converted "
     << st.converted << " in " << st.with_conversion << " stages; finalized " << st.finalized
     << " (fallback " << st.fallback << ", of which "
     << st.fallback_caused << " only with conversion), emulator-compared " << st.compared
     << " (not runnable alone " << st.not_comparable << ", wrong without conversion too "
     << st.wrong_without_conversion << ")";
   o << "; finalized stages: CF " << st.cf[0] << " -> " << st.cf[1] << ", ALU groups "
     << st.groups[0] << " -> " << st.groups[1] << " (packed, " << st.packed << " stages: "
     << st.packed_groups[0] << " -> " << st.packed_groups[1] << ")";
   for (auto &[why, n] : st.kept)
      o << "\n  kept " << n << ": " << why;
   return o.str();
}

std::optional<std::filesystem::path> source_dir(const char *sub)
{
   std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
   for (auto p : {here / ".." / sub, std::filesystem::path("tests") / sub,
                  std::filesystem::path("../tests") / sub})
      if (std::filesystem::is_directory(p))
         return p;
   return std::nullopt;
}

/* The [vertex shader tgsi] / [fragment shader tgsi] sections of a file. */
std::vector<std::filesystem::path> files_with(const std::filesystem::path &dir,
                                              const std::string &ext)
{
   std::vector<std::filesystem::path> files;
   for (auto &e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ext)
         files.push_back(e.path());
   std::sort(files.begin(), files.end());
   return files;
}

/* The same in TGSI through the whole SSA stage: both sides normalize the
 * input by one RSQ and differ after it.  The pipeline's result agrees with
 * the plain code in the emulator, and the RSQ runs once. */
TEST(SbIfConversion, SharedSideWorkRunsLikeThePlainCode)
{
   std::string text = "FRAG\n"
                      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                      "DCL OUT[0], COLOR\n"
                      "DCL TEMP[0..2]\n"
                      "IMM[0] FLT32 {    0.5000,     0.2500,     0.0000,    -0.7500}\n"
                      "  0: FSLT TEMP[1].x, IN[0].xxxx, IMM[0].zzzz\n"
                      "  1: UIF TEMP[1].xxxx :5\n"
                      "  2:   RSQ TEMP[2].x, |IN[0].yyyy|\n"
                      "  3:   MUL TEMP[0], IN[0], TEMP[2].xxxx\n"
                      "  4: ELSE :7\n"
                      "  5:   RSQ TEMP[2].x, |IN[0].yyyy|\n"
                      "  6:   MAD TEMP[0], IN[0], TEMP[2].xxxx, IMM[0].yyyy\n"
                      "  7: ENDIF\n"
                      "  8: MOV OUT[0], TEMP[0]\n"
                      "  9: END\n";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      WholeStats st;
      compile_and_convert(text, "rsq", chip, st);
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.ifs, 1u);
      EXPECT_EQ(st.converted, 1u);
      EXPECT_EQ(st.compared, 1u);
      /* RSQs in the tree before conversion, and after conversion and dce. */
      unsigned rsq[2] = {};
      with_plain_bytecode(text, "rsq", chip, [&](const Program &p, const ShaderInfo &) {
         Diagnostics d;
         auto sh = region_parse(p, {}, d);
         ASSERT_TRUE(sh) << d.str();
         ssa_prepare(*sh);
         ssa_rename(*sh);
         rsq[0] = count_lines(region_dump(*sh), "RECIPSQRT");
         IfConversionStats ic;
         ASSERT_TRUE(if_conversion(*sh, d, &ic) && dce_cleanup(*sh, d)) << d.str();
         EXPECT_EQ(ic.converted, 1u);
         rsq[1] = count_lines(region_dump(*sh), "RECIPSQRT");
      });
      EXPECT_EQ(rsq[0], 2u);
      EXPECT_EQ(rsq[1], 1u);
   }
}

/* Sharing across nesting levels: the outer ELSE holds an inner if (already
 * converted when the outer one is tried, so its work and selects sit on the
 * outer ELSE side) after the same RSQ -> MUL chain THEN computes.  The MUL
 * matches only once its RSQ operand is renamed to THEN's, so both run once;
 * the result agrees with the plain code in the emulator. */
TEST(SbIfConversion, SharedChainAcrossNestedLevels)
{
   std::string text = "FRAG\n"
                      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                      "DCL OUT[0], COLOR\n"
                      "DCL TEMP[0..3]\n"
                      "IMM[0] FLT32 {    0.5000,     0.2500,     0.0000,    -0.7500}\n"
                      "  0: FSLT TEMP[1].x, IN[0].xxxx, IMM[0].zzzz\n"
                      "  1: UIF TEMP[1].xxxx :6\n"
                      "  2:   RSQ TEMP[2].x, |IN[0].yyyy|\n"
                      "  3:   MUL TEMP[3].x, TEMP[2].xxxx, IN[0].zzzz\n"
                      "  4:   MUL TEMP[0], IN[0], TEMP[3].xxxx\n"
                      "  5: ELSE :15\n"
                      "  6:   FSLT TEMP[1].y, IN[0].wwww, IMM[0].zzzz\n"
                      "  7:   RSQ TEMP[2].x, |IN[0].yyyy|\n"
                      "  8:   MUL TEMP[3].x, TEMP[2].xxxx, IN[0].zzzz\n"
                      "  9:   UIF TEMP[1].yyyy :12\n"
                      " 10:     MAD TEMP[0], IN[0], TEMP[3].xxxx, IMM[0].yyyy\n"
                      " 11:   ELSE :13\n"
                      " 12:     ADD TEMP[0], IN[0], TEMP[3].xxxx\n"
                      " 13:   ENDIF\n"
                      " 14: ENDIF\n"
                      " 15: MOV OUT[0], TEMP[0]\n"
                      " 16: END\n";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      WholeStats st;
      compile_and_convert(text, "nested rsq", chip, st);
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.ifs, 2u);
      EXPECT_EQ(st.converted, 2u);
      EXPECT_EQ(st.compared, 1u);
      /* RSQs and MULs in the tree before conversion, and after conversion
       * and dce. */
      unsigned rsq[2] = {}, mul[2] = {};
      with_plain_bytecode(text, "nested rsq", chip, [&](const Program &p, const ShaderInfo &) {
         Diagnostics d;
         auto sh = region_parse(p, {}, d);
         ASSERT_TRUE(sh) << d.str();
         ssa_prepare(*sh);
         ssa_rename(*sh);
         std::string dump = region_dump(*sh);
         rsq[0] = count_lines(dump, "RECIPSQRT");
         mul[0] = count_lines(dump, "MUL");
         IfConversionStats ic;
         ASSERT_TRUE(if_conversion(*sh, d, &ic) && dce_cleanup(*sh, d)) << d.str();
         EXPECT_EQ(ic.converted, 2u);
         dump = region_dump(*sh);
         rsq[1] = count_lines(dump, "RECIPSQRT");
         mul[1] = count_lines(dump, "MUL");
      });
      EXPECT_EQ(rsq[0], 2u);
      EXPECT_EQ(rsq[1], 1u);
      EXPECT_EQ(mul[1] + 1, mul[0]);
   }
}

/* An indirect constant read in TGSI (the plain backend loads it with a
 * VFETCH from the constant buffer) inside an if, as the dolphin
 * ubershaders select colour sources: the if converts, and the pipeline's
 * result agrees with the plain code in the emulator on lanes taking both
 * sides, including lanes whose speculated index is out of the buffer. */
TEST(SbIfConversion, SpeculatedConstantFetchRunsLikeThePlainCode)
{
   std::string text = "FRAG\n"
                      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                      "DCL OUT[0], COLOR\n"
                      "DCL CONST[1][0..7]\n"
                      "DCL TEMP[0..2]\n"
                      "DCL ADDR[0]\n"
                      "IMM[0] FLT32 {    0.5000,     0.2500,     0.0000,   400.0000}\n"
                      "  0: MOV TEMP[0], IN[0]\n"
                      "  1: FSLT TEMP[1].x, IN[0].xxxx, IMM[0].zzzz\n"
                      "  2: MUL TEMP[2].x, IN[0].yyyy, IMM[0].wwww\n"
                      "  3: F2I TEMP[2].x, TEMP[2].xxxx\n"
                      "  4: UIF TEMP[1].xxxx :8\n"
                      "  5:   UARL ADDR[0].x, TEMP[2].xxxx\n"
                      "  6:   MOV TEMP[0], CONST[1][ADDR[0].x+2]\n"
                      "  7: ELSE :9\n"
                      "  8:   MUL TEMP[0], IN[0], IMM[0].xxxx\n"
                      "  9: ENDIF\n"
                      " 10: MOV OUT[0], TEMP[0]\n"
                      " 11: END\n";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      WholeStats st;
      compile_and_convert(text, "vfetch", chip, st);
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.ifs, 1u);
      EXPECT_EQ(st.converted, 1u) << summary(st);
      EXPECT_EQ(st.compared, 1u) << summary(st);
      /* JUMP, ELSE and POP go; the fetch clause stays, in line. */
      EXPECT_GE(st.cf[0], st.cf[1] + 2) << summary(st);
   }
}

/* gcm: in straight code [F1][B][F2][C] a fetch clause F2 that reads
 * nothing B computes moves before B, and B and C become one clause.  Here
 * two constant-buffer fetches whose indices come from the inputs, the
 * first one's result used before the second: after gcm the fetches are
 * neighbours, the ALU work after them one clause, and the whole sb
 * pipeline agrees with the source in the emulator. */
TEST(SbGcm, FetchMovesBeforeAluItDoesNotRead)
{
   auto vfetch = [](unsigned src, unsigned dst) {
      VtxInstr v;
      v.buffer_id = 1;
      v.src_gpr = uint8_t(src);
      v.src_sel_x = 0;
      v.dst_gpr = uint8_t(dst);
      v.data_format = 35;
      CfInstr c = cf_op(CfOp::VTX);
      c.fetches.push_back(v);
      return c;
   };
   Program p = program(ChipClass::Evergreen, {
      alu_clause({group({alu(AluOp::FLT_TO_INT, kSlotX, dst(3, 0), src_gpr(1, 0)),
                         alu(AluOp::FLT_TO_INT, kSlotY, dst(4, 0), src_gpr(1, 1))})}),
      vfetch(3, 5),
      alu_clause({group({alu(AluOp::MUL_IEEE, kSlotX, dst(2, 0), src_gpr(5, 0), src_gpr(5, 1))})}),
      vfetch(4, 6),
      alu_clause({group({alu(AluOp::ADD, kSlotX, dst(2, 0), src_gpr(2, 0), src_gpr(6, 2)),
                         alu(AluOp::MOV, kSlotY, dst(2, 1), src_gpr(6, 3))})}),
      export_done(2),
   });
   Diagnostics d;
   auto sh = region_parse(p, {}, d);
   ASSERT_TRUE(sh) << d.str();
   ssa_prepare(*sh);
   ssa_rename(*sh);
   ASSERT_TRUE(gcm(*sh, d)) << d.str();
   EXPECT_EQ(region_dump(*sh),
             "cf 0 ALU\n"
             "  group\n"
             "    x: FLT_TO_INT R3.x.1 = R1.x.0\n"
             "    y: FLT_TO_INT R4.x.1 = R1.y.0\n"
             "cf 1 VTX\n"
             "  VFETCH R5.x.1, R5.y.1, R5.z.1, R5.w.1 = R3.x.1\n"
             "cf 3 VTX\n"
             "  VFETCH R6.x.1, R6.y.1, R6.z.1, R6.w.1 = R4.x.1\n"
             "cf 2 ALU\n"
             "  group\n"
             "    x: MUL_IEEE R2.x.1 = R5.x.1, R5.y.1\n"
             "  group\n"
             "    x: ADD R2.x.2 = R2.x.1, R6.z.1\n"
             "    y: MOV R2.y.1 = R6.w.1\n"
             "cf 5 EXPORT_DONE R2.x.2, R2.y.1, R2.z.0, R2.w.0\n");

   /* The whole pipeline: one VTX clause, same results as the source on
    * indices inside and outside the buffer. */
   ShaderInfo info = vs_info(ChipClass::Evergreen);
   DebugOptions opts;
   opts.sb = opts.sb_stat = true;
   sb::SbStats stats;
   auto out = sb::sb_optimize(p, info, opts, &stats, d);
   ASSERT_TRUE(out) << d.str() << stats.log;
   EXPECT_TRUE(stats.ssa) << stats.log;
   std::string ops;
   for (const CfInstr &c : out->cf)
      ops += std::string(cf_op_name(c.op)) + " ";
   /* B and C in one ALU clause; whether the two VTX clauses join is
    * bc_finalize's (it keeps them apart when the second fetch's result
    * reuses the register the first one read). */
   EXPECT_TRUE(ops == "ALU VTX VTX ALU EXPORT_DONE " || ops == "ALU VTX ALU EXPORT_DONE ")
      << ops;
   ShaderInfo out_info = info;
   out_info.num_gprs = std::max(sb::program_gprs(*out), 1u);
   Resources res = random_constants(5);
   std::vector<Vec4> inputs;
   for (float a : {0.0f, 3.0f, 255.0f, 300.0f, -2.0f})
      for (float b : {1.0f, 7.0f, 256.0f})
         inputs.push_back(vec4f(a, b, 0, 0));
   Batch src = batch_of(inputs), opt = batch_of(inputs);
   RunLimits lim;
   ASSERT_EQ(emulate(p, info, res, src, lim).status, RunStatus::Ok);
   RunResult r = emulate(*out, out_info, res, opt, lim);
   ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
   for (size_t l = 0; l < inputs.size(); l++)
      EXPECT_EQ(src.lanes[l].outputs, opt.lanes[l].outputs) << "lane " << l;
}

/* An if with 30 MADs on each side, in TGSI: converted once, and the
 * pipeline's result agrees with the plain code in the emulator. */
TEST(SbIfConversion, ThirtyInstructionSidesRunLikeThePlainCode)
{
   std::string text = "FRAG\n"
                      "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                      "DCL OUT[0], COLOR\n"
                      "DCL TEMP[0..1]\n"
                      "IMM[0] FLT32 {    0.5000,     0.2500,     0.0000,    -0.7500}\n"
                      "  0: MOV TEMP[0], IN[0]\n"
                      "  1: FSLT TEMP[1].x, IN[0].xxxx, IMM[0].zzzz\n"
                      "  2: UIF TEMP[1].xxxx :33\n";
   unsigned n = 3;
   for (unsigned i = 0; i < 30; i++)
      text += "  " + std::to_string(n++) + ":   MAD TEMP[0], TEMP[0], IMM[0].xxxx, IMM[0].yyyy\n";
   text += "  " + std::to_string(n++) + ": ELSE :64\n";
   for (unsigned i = 0; i < 30; i++)
      text += "  " + std::to_string(n++) + ":   MAD TEMP[0], TEMP[0], IMM[0].xxxx, IMM[0].wwww\n";
   text += "  " + std::to_string(n++) + ": ENDIF\n";
   text += "  " + std::to_string(n++) + ": MOV OUT[0], TEMP[0]\n";
   text += "  " + std::to_string(n++) + ": END\n";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      WholeStats st;
      compile_and_convert(text, "mad30", chip, st);
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.ifs, 1u);
      EXPECT_EQ(st.converted, 1u);
      EXPECT_EQ(st.compared, 1u);
      /* At least the JUMP and the ELSE go (whether the branch's POP is a
       * CF of its own or folded into ALU_POP_AFTER is bc_finalize's). */
      EXPECT_GE(st.cf[0], st.cf[1] + 2) << summary(st);
   }
}

TEST(SbIfConversionWhole, ShaderTestStages)
{
   auto dir = source_dir("shaders");
   if (!dir)
      GTEST_SKIP() << "tests/shaders not found from the working directory";
   for (ChipClass chip : {ChipClass::Evergreen, ChipClass::R700}) {
      WholeStats st;
      for (auto &f : files_with(*dir, ".shader_test"))
         for (auto &text : tgsi_sections(f))
            compile_and_convert(text, f.filename().string(), chip, st);
      std::cout << chip_class_name(chip) << ": " << summary(st) << "\n";
      EXPECT_EQ(st.failures, "");
      EXPECT_EQ(st.fallback_caused, 0u);
      EXPECT_GT(st.converted, 0u);
      EXPECT_GT(st.compared, 0u);
   }
}

TEST(SbIfConversionWhole, RandomPrograms)
{
   WholeStats st;
   for (uint32_t seed = 1; seed <= 300; seed++)
      compile_and_convert(sbcc::test::random_tgsi_program(seed), "random " + std::to_string(seed),
                          ChipClass::Evergreen, st);
   std::cout << summary(st) << "\n";
   EXPECT_EQ(st.failures, "");
   EXPECT_EQ(st.fallback_caused, 0u);
   EXPECT_GT(st.compared, 0u);
}

/* The corpus TGSI (about 500 shaders): a measurement rather than a unit
 * test, so it runs only on request (SBCC_IFC_CORPUS=1); the corpus is found
 * through SBCC_CORPUS or <source root>/../shared/corpus. */
TEST(SbIfConversionWhole, CorpusTgsi)
{
   if (!std::getenv("SBCC_IFC_CORPUS"))
      GTEST_SKIP() << "set SBCC_IFC_CORPUS=1 to count conversions on the corpus TGSI";
   std::filesystem::path dir;
   if (const char *e = std::getenv("SBCC_CORPUS"); e && *e)
      dir = e;
   else if (auto shaders = source_dir("shaders")) /* <source root>/tests/shaders */
      dir = *shaders / ".." / ".." / ".." / "shared" / "corpus";
   if (!std::filesystem::is_directory(dir / "tgsi"))
      GTEST_SKIP() << "corpus not found (set SBCC_CORPUS or put it at ../shared/corpus)";
   WholeStats st;
   for (auto &f : files_with(dir / "tgsi", ".tgsi")) {
      std::ifstream in(f);
      std::ostringstream ss;
      ss << in.rdbuf();
      compile_and_convert(ss.str(), f.string(), ChipClass::Evergreen, st);
   }
   std::cout << "corpus evergreen: " << summary(st) << "\n";
   EXPECT_EQ(st.failures, "");
   EXPECT_EQ(st.fallback_caused, 0u);
}

} // namespace
