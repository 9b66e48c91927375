/*
 * Internal to the TGSI translator: the per-shader translation state shared
 * by r600_tgsi.cpp and r600_tgsi_alu.cpp.
 */
#pragma once

#include <array>
#include <string>
#include <vector>

#include "r600/r600_shader_info.h"
#include "r600/r600_tgsi_emit.h"

namespace sbcc::r600::tgsi_backend {

class Translator {
 public:
   Translator(const tgsi::Shader &shader, ChipClass chip, Diagnostics &diags);
   bool run();

   const tgsi::Shader &sh;
   ChipClass chip;
   Diagnostics &diags;
   Builder b;
   ShaderInfo info;
   unsigned num_loops = 0;

 private:
   struct Prep {
      bool replaced = false;
      bool swizzled = false; /* the copy already holds swizzled, modified values */
      unsigned gpr = 0;
   };
   struct Flow {
      bool loop = false;
      size_t jump = 0; /* JUMP of an IF, LOOP_START of a loop */
      size_t els = 0;
      bool has_else = false;
      std::vector<size_t> breaks;
   };

   void error(const SourceLoc &loc, const std::string &msg);
   bool layout();
   unsigned scratch();
   unsigned reg_gpr(tgsi::File f, int index) const;
   bool is_int_src(const tgsi::Instruction &in, unsigned s) const;
   void prepare(const tgsi::Instruction &in, bool op3);
   Opnd read_raw(const tgsi::Instruction &in, unsigned s, unsigned c);
   Opnd src(const tgsi::Instruction &in, unsigned s, unsigned c);
   static uint32_t inline_bits(uint32_t sel);
   void load_indirect(const tgsi::SrcOperand &src, unsigned dst);
   Opnd index_opnd(const tgsi::IndirectRef &r);
   void load_ar(const Opnd &idx);
   void emit_rel_group(bool src_rel);
   void begin_dst(const tgsi::Instruction &in);
   void end_dst(const tgsi::Instruction &in);
   void push_level(bool loop);
   void emit_if(const tgsi::Instruction &in, bool integer);
   void emit_else(const tgsi::Instruction &in);
   void emit_endif(const tgsi::Instruction &in);
   void emit_bgnloop();
   void emit_endloop(const tgsi::Instruction &in);
   void emit_brk_cont(const tgsi::Instruction &in, bool brk);
   void emit_prologue();
   Opnd src_param_opnd(int lds, unsigned c);
   void emit_exports();

   /* r600_tgsi_alu.cpp */
   void translate(const tgsi::Instruction &in);
   bool check_operands(const tgsi::Instruction &in);
   bool translate_alu(const tgsi::Instruction &in);
   void translate_tex(const tgsi::Instruction &in);
   void emit_component(const tgsi::Instruction &in, AluOp op, std::array<int, 3> order);
   void emit_divmod(const tgsi::Instruction &in);
   void emit_bits_r700(const tgsi::Instruction &in);
   void emit_bfe_r700(const tgsi::Instruction &in, bool is_signed);
   bool try_in_place(const tgsi::Instruction &in, AluOp op, std::array<int, 3> order);
   void emit_repl_trans(const tgsi::Instruction &in, AluOp op, const Opnd &a);
   void emit_dot(const tgsi::Instruction &in, unsigned n, bool dph);
   void write_all(const tgsi::Instruction &in, const Opnd &value);
   bool chan_on(const tgsi::Instruction &in, unsigned c) const;
   bool sat(const tgsi::Instruction &in) const;

   unsigned in_base = 0, temp_base = 0, out_base = 0, addr_base = 0, scratch_base = 0;
   unsigned num_gprs = 0;
   unsigned scratch_next = 0;
   std::array<Prep, 4> prep{};
   bool dst_tmp = false;
   unsigned dst_gpr = 0;
   Opnd ar_src;
   std::vector<PInstr> rel_pending;
   bool rel_srcs = false;
   std::vector<Flow> flow;
   unsigned pushes = 0, loops = 0, max_elems = 0;
   bool stack_error = false;
   bool failed = false;
};

} // namespace sbcc::r600::tgsi_backend
