/*
 * The Mesa `; INFO` loader on small synthetic dumps: semantic and
 * interpolation translation, Evergreen ij numbering, TGSI register matching,
 * export targets from EXPORT GPRs and from Mesa's order, and errors.
 */
#include <gtest/gtest.h>

#include "r600/r600_mesa_info.h"
#include "r600_emu/r600_emu_build.h"

namespace {

using namespace sbcc;
using namespace sbcc::r600;
using namespace sbcc::r600::test;

const char *kDump = "; shader: x\n"
                    "; TGSI\n"
                    "FRAG\n"
                    "DCL IN[0], GENERIC[3], LINEAR\n"
                    "DCL IN[1], COLOR, PERSPECTIVE\n"
                    "DCL IN[2], POSITION\n"
                    "DCL IN[3], GENERIC[4], CONSTANT\n"
                    "DCL OUT[0], COLOR\n"
                    "  0: MOV OUT[0], IN[0]\n"
                    "  1: END\n"
                    "; INFO\n"
                    "void f(struct r600_shader *shader)\n"
                    "{\n"
                    "  shader->processor_type=4;\n"
                    "  shader->ninput=4;\n"
                    "  shader->noutput=1;\n"
                    "  shader->input[0].name =5;\n"
                    "  shader->input[0].sid =3;\n"
                    "  shader->input[0].gpr =2;\n"
                    "  shader->input[0].interpolate =1;\n"
                    "  shader->input[1].name =1;\n"
                    "  shader->input[1].gpr =3;\n"
                    "  shader->input[1].interpolate =2;\n"
                    "  shader->input[1].lds_pos =1;\n"
                    "  shader->input[2].gpr =4;\n"
                    "  shader->input[3].name =5;\n"
                    "  shader->input[3].sid =4;\n"
                    "  shader->input[3].gpr =5;\n"
                    "  shader->input[3].lds_pos =2;\n"
                    "  shader->output[0].name =1;\n"
                    "  shader->output[0].gpr =6;\n"
                    "  shader->output[0].write_mask =15;\n"
                    "}\n"
                    "; BYTECODE\n"
                    "bytecode 10 dw -- 7 gprs -- 2 nstack -------------\n";

TEST(R600MesaInfo, Sections)
{
   EXPECT_EQ(mesa_dump_section(kDump, "BYTECODE"),
             "bytecode 10 dw -- 7 gprs -- 2 nstack -------------\n");
   EXPECT_EQ(mesa_dump_section(kDump, "TGSI").substr(0, 5), "FRAG\n");
   EXPECT_EQ(mesa_dump_section(kDump, "NONE"), "");
   EXPECT_EQ(semantic_from_mesa(7), tgsi::Semantic::Face);
   EXPECT_EQ(semantic_from_mesa(19), tgsi::Semantic::TexCoord);
   EXPECT_FALSE(semantic_from_mesa(15).has_value());
}

TEST(R600MesaInfo, LoadsAFragmentShader)
{
   Diagnostics d;
   auto sh = tgsi::parse_tgsi(mesa_dump_section(kDump, "TGSI"), "x", d);
   ASSERT_TRUE(sh) << d.str();
   Program p;
   p.chip = ChipClass::Evergreen;
   p.cf = {export_done(6, 0, 0)};
   auto info = load_mesa_info(mesa_dump_section(kDump, "INFO"), mesa_dump_section(kDump, "BYTECODE"),
                              *sh, p, {}, d, "x.txt");
   ASSERT_TRUE(info) << d.str();
   EXPECT_EQ(info->stage, tgsi::Processor::Fragment);
   EXPECT_EQ(info->num_gprs, 7u);
   EXPECT_EQ(info->stack_size, 2u);
   ASSERT_EQ(info->inputs.size(), 4u);
   const ShaderIo &g3 = info->inputs[0], &col = info->inputs[1], &pos = info->inputs[2],
                  &flat = info->inputs[3];
   EXPECT_EQ(g3.semantic, tgsi::Semantic::Generic);
   EXPECT_EQ(g3.semantic_index, 3u);
   EXPECT_EQ(g3.tgsi_index, 0);
   EXPECT_EQ(g3.interpolate, tgsi::Interpolate::Linear);
   EXPECT_EQ(col.tgsi_index, 1);
   EXPECT_EQ(pos.semantic, tgsi::Semantic::Position);
   EXPECT_EQ(pos.tgsi_index, 2);
   EXPECT_EQ(pos.lds_pos, -1);
   EXPECT_EQ(flat.interpolate, tgsi::Interpolate::Constant);
   EXPECT_EQ(flat.tgsi_index, 3);
   /* Perspective centre is pair 0, linear centre pair 1; flat has none. */
   EXPECT_EQ(col.ij_index, 0);
   EXPECT_EQ(g3.ij_index, 1);
   EXPECT_EQ(flat.ij_index, -1);
   EXPECT_EQ(info->num_ij, 2u);
   EXPECT_EQ(g3.lds_pos, 0);
   EXPECT_EQ(col.lds_pos, 1);
   EXPECT_EQ(flat.lds_pos, 2);
   ASSERT_EQ(info->outputs.size(), 1u);
   EXPECT_EQ(info->outputs[0].tgsi_index, 0);
   EXPECT_EQ(info->outputs[0].export_type, 0);
   EXPECT_EQ(info->outputs[0].export_base, 0);
}

TEST(R600MesaInfo, VertexExportsByGprAndByMesaOrder)
{
   const char *tgsi_text = "VERT\n"
                           "DCL IN[0]\n"
                           "DCL OUT[0], POSITION\n"
                           "DCL OUT[1], GENERIC[0]\n"
                           "DCL OUT[2], GENERIC[1]\n"
                           "  0: MOV OUT[0], IN[0]\n"
                           "  1: END\n";
   const char *info_text = "  shader->ninput=1;\n"
                           "  shader->noutput=3;\n"
                           "  shader->input[0].gpr =1;\n"
                           "  shader->output[0].gpr =2;\n"
                           "  shader->output[1].name =5;\n"
                           "  shader->output[1].gpr =3;\n"
                           "  shader->output[2].name =5;\n"
                           "  shader->output[2].sid =1;\n"
                           "  shader->output[2].gpr =9;\n";
   Diagnostics d;
   auto sh = tgsi::parse_tgsi(tgsi_text, "v", d);
   ASSERT_TRUE(sh) << d.str();
   Program p;
   p.chip = ChipClass::R700;
   CfInstr pos = export_done(2, 1, 60, false);
   CfInstr par = export_done(3, 2, 1, false); /* GENERIC[0] goes to PARAM 1 here */
   CfInstr par2 = export_done(4, 2, 0);       /* no output has GPR 4 */
   p.cf = {cf_op(CfOp::CALL_FS), pos, par, par2};
   auto info = load_mesa_info(info_text, "bytecode 8 dw -- 10 gprs -- 0 nstack", *sh, p, {}, d);
   ASSERT_TRUE(info) << d.str();
   EXPECT_TRUE(info->has_fetch_shader);
   ASSERT_EQ(info->outputs.size(), 3u);
   EXPECT_EQ(info->outputs[0].export_type, 1);
   EXPECT_EQ(info->outputs[0].export_base, 60);
   EXPECT_EQ(info->outputs[1].export_type, 2);
   EXPECT_EQ(info->outputs[1].export_base, 1);
   /* Unmatched: Mesa's order makes it the second parameter. */
   EXPECT_EQ(info->outputs[2].export_type, 2);
   EXPECT_EQ(info->outputs[2].export_base, 1);
   EXPECT_EQ(info->outputs[2].tgsi_index, 2);
}

TEST(R600MesaInfo, ReportsMalformedLines)
{
   Diagnostics d;
   auto sh = tgsi::parse_tgsi("VERT\nDCL IN[0]\n  0: END\n", "v", d);
   ASSERT_TRUE(sh);
   Program p;
   EXPECT_FALSE(load_mesa_info("  shader->ninput=1;\n  shader->input[0].gpr =x;\n",
                               "1 gprs -- 0 nstack", *sh, p, {}, d, "f.txt"));
   EXPECT_EQ(d.str(), "f.txt:2:25: error: INFO: expected an integer after 'input[0].gpr='\n");
   d.clear();
   EXPECT_FALSE(load_mesa_info("  shader->ninput=1;\n  shader->input[0].name =15;\n",
                               "1 gprs -- 0 nstack", *sh, p, {}, d, "f.txt"));
   EXPECT_EQ(d.str(), "f.txt: error: INFO: input 0 has semantic 15 sbcc does not know\n");
   d.clear();
   EXPECT_FALSE(load_mesa_info("  shader->ninput=2000000000;\n", "1 gprs -- 0 nstack", *sh, p, {},
                               d, "f.txt"));
   EXPECT_EQ(d.str(), "f.txt: error: INFO: ninput/noutput out of range (2000000000, 0)\n");
   d.clear();
   EXPECT_FALSE(load_mesa_info("", "no header", *sh, p, {}, d, "f.txt"));
   EXPECT_EQ(d.str(), "f.txt: error: BYTECODE: no 'N gprs' / 'N nstack' header\n");
}

} // namespace
