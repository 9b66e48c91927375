/*
 * TGSI -> r600 bytecode: register layout, operand access, control flow,
 * texture fetches and exports.  ALU opcode lowering is in r600_tgsi_alu.cpp.
 */
#include "r600/r600_tgsi.h"

#include <algorithm>

#include "r600/r600_asm.h"
#include "r600/r600_tgsi_impl.h"
#include "tgsi/tgsi_merge_temps.h"

namespace sbcc::r600::tgsi_backend {

using namespace tgsi;

/* GPRs 124-127 are the clause temporaries. */
constexpr unsigned kMaxGprs = 124;
constexpr unsigned kNumScratch = 10;
/* Hardware stack entries the translator will use; deeper nesting is refused. */
constexpr unsigned kMaxStackEntries = 32;

Translator::Translator(const Shader &shader, ChipClass chip, Diagnostics &diags)
   : sh(shader), chip(chip), diags(diags), b(chip, diags)
{
}

void Translator::error(const SourceLoc &loc, const std::string &msg)
{
   diags.error(sh.source_name, loc, msg);
   failed = true;
}

bool Translator::layout()
{
   const bool frag = sh.processor == Processor::Fragment;
   if (sh.processor != Processor::Vertex && !frag) {
      error({}, "r600 backend: only vertex and fragment shaders are supported");
      return false;
   }
   info.stage = sh.processor;
   info.chip = chip;
   const int num_in = sh.file_size(File::Input);
   unsigned next = 0;
   if (!frag) {
      next = 1; /* R0 holds the vertex id */
      info.has_fetch_shader = true;
   }
   /* Evergreen barycentrics: one pair per distinct interpolation mode. */
   std::vector<std::pair<Interpolate, InterpLocation>> ij;
   std::vector<int> in_ij(size_t(num_in), -1);
   bool eg_interp = frag && is_eg_or_later(chip);
   if (eg_interp) {
      for (int i = 0; i < num_in; i++) {
         const Declaration *d = sh.find_declaration(File::Input, i);
         if (!d || d->semantic == Semantic::Position || d->semantic == Semantic::Face)
            continue;
         if (d->interpolate == Interpolate::Constant)
            continue;
         Interpolate mode = d->interpolate == Interpolate::Linear ? Interpolate::Linear
                                                                  : Interpolate::Perspective;
         auto key = std::make_pair(mode, d->location);
         auto it = std::find(ij.begin(), ij.end(), key);
         if (it == ij.end()) {
            ij.push_back(key);
            it = ij.end() - 1;
         }
         in_ij[size_t(i)] = int(it - ij.begin());
      }
      info.num_ij = unsigned(ij.size());
      next = (info.num_ij + 1) / 2;
   }
   int lds = 0;
   for (int i = 0; i < num_in; i++) {
      ShaderIo io;
      const Declaration *d = sh.find_declaration(File::Input, i);
      io.tgsi_index = i;
      io.gpr = uint8_t(next + unsigned(i));
      if (d) {
         io.semantic = d->semantic;
         io.semantic_index = d->semantic_index;
         io.interpolate = d->interpolate;
         io.location = d->location;
         io.write_mask = d->usage_mask;
      }
      /* Flat inputs are SPI-loaded too: the emulator reads INTERP_LOAD_P0's
       * parameter from src1, which its one-source encoding does not have. */
      bool spi = !d || d->semantic == Semantic::Position || d->semantic == Semantic::Face ||
                 d->interpolate == Interpolate::Constant;
      if (eg_interp && !spi) {
         io.lds_pos = lds++;
         io.ij_index = in_ij[size_t(i)];
      }
      info.inputs.push_back(io);
   }
   /* Vertex and instance id arrive in R0.x and R0.w. */
   for (const Declaration &d : sh.declarations) {
      if (d.file != File::SystemValue)
         continue;
      if (frag || (d.semantic != Semantic::VertexId && d.semantic != Semantic::InstanceId)) {
         error(d.loc, "r600 backend: system value " + std::string(semantic_name(d.semantic)) +
                         " is not supported");
         return false;
      }
      for (int i = d.first; i <= d.last; i++) {
         ShaderIo io;
         io.semantic = d.semantic;
         io.tgsi_index = i;
         io.gpr = 0;
         info.inputs.push_back(io);
      }
   }
   in_base = next;
   temp_base = next + unsigned(std::max(num_in, 0));
   out_base = temp_base + unsigned(sh.file_size(File::Temporary));
   addr_base = out_base + unsigned(sh.file_size(File::Output));
   scratch_base = addr_base + unsigned(sh.file_size(File::Address));
   num_gprs = scratch_base + kNumScratch + 3;
   b.fallback_gpr = scratch_base + kNumScratch - 1; /* uses +1..+3 */
   if (num_gprs > kMaxGprs) {
      error({}, "shader needs " + std::to_string(num_gprs) +
                   " GPRs after temporary merging; the hardware limit is " +
                   std::to_string(kMaxGprs));
      return false;
   }
   return true;
}

unsigned Translator::scratch()
{
   if (scratch_next >= kNumScratch - 1) {
      diags.error("internal: out of scratch registers");
      failed = true;
      return scratch_base;
   }
   return scratch_base + scratch_next++;
}

unsigned Translator::reg_gpr(File f, int index) const
{
   switch (f) {
   case File::Input: return in_base + unsigned(index);
   case File::Temporary: return temp_base + unsigned(index);
   case File::Output: return out_base + unsigned(index);
   case File::Address: return addr_base + unsigned(index);
   default: return 0;
   }
}

bool Translator::is_int_src(const Instruction &in, unsigned s) const
{
   const OpcodeInfo &oi = in.info();
   if (in.opcode == Opcode::UCMP)
      return s == 0;
   if (in.opcode == Opcode::LDEXP)
      return s == 1;
   return oi.type == OperandType::I32 || oi.type == OperandType::U32;
}

/* Operands the ALU cannot read directly (indirect TEMP/IN/OUT/CONST,
 * integer modifiers, abs on an OP3 source) are copied to scratch first. */
void Translator::prepare(const Instruction &in, bool op3)
{
   for (unsigned s = 0; s < in.src.size() && s < 4; s++) {
      prep[s] = Prep{};
      const SrcOperand &src = in.src[s];
      if (src.file == File::Sampler || src.file == File::SamplerView)
         continue;
      if (src.index.indirect || (src.dimension && src.dimension->indirect)) {
         unsigned t = scratch();
         load_indirect(src, t);
         prep[s].replaced = true;
         prep[s].gpr = t;
      }
      bool intmod = is_int_src(in, s) && (src.negate || src.absolute);
      bool absop3 = op3 && src.absolute;
      if (intmod || absop3) {
         unsigned t = scratch();
         for (unsigned c = 0; c < 4; c++) {
            Opnd raw = read_raw(in, s, c);
            if (intmod) {
               if (src.absolute) {
                  b.add(AluOp::SUB_INT, t, c, {inl(kSrc_0), raw});
                  b.flush();
                  b.add(AluOp::MAX_INT, t, c, {raw, gpr(t, c)});
               } else {
                  b.add(AluOp::SUB_INT, t, c, {inl(kSrc_0), raw});
               }
               if (src.absolute && src.negate) {
                  b.flush();
                  b.add(AluOp::SUB_INT, t, c, {inl(kSrc_0), gpr(t, c)});
               }
            } else {
               raw.abs = true;
               raw.neg = src.negate;
               b.add(AluOp::MOV, t, c, {raw});
            }
         }
         b.flush();
         prep[s].replaced = true;
         prep[s].gpr = t;
         prep[s].swizzled = true;
      }
   }
}

/* Value of source s for result channel c, ignoring its modifiers. */
Opnd Translator::read_raw(const Instruction &in, unsigned s, unsigned c)
{
   const SrcOperand &src = in.src[s];
   unsigned sw = src.swizzle[c & 3];
   if (prep[s].replaced)
      return gpr(prep[s].gpr, prep[s].swizzled ? c : sw);
   switch (src.file) {
   case File::Input:
   case File::Temporary:
   case File::Output:
   case File::Address: return gpr(reg_gpr(src.file, src.index.value), sw);
   case File::Constant: {
      Opnd o;
      o.kind = Opnd::Const;
      o.sel = uint32_t(src.index.value);
      o.bank = src.dimension ? uint32_t(src.dimension->value) : 0;
      o.chan = uint8_t(sw);
      return o;
   }
   case File::Immediate: {
      if (src.index.value < 0 || size_t(src.index.value) >= sh.immediates.size())
         return inl(kSrc_0);
      return imm(sh.immediates[size_t(src.index.value)].value[sw]);
   }
   case File::SystemValue: {
      const Declaration *d = sh.find_declaration(File::SystemValue, src.index.value);
      return gpr(0, d && d->semantic == Semantic::InstanceId ? 3 : 0);
   }
   default: return inl(kSrc_0);
   }
}

Opnd Translator::src(const Instruction &in, unsigned s, unsigned c)
{
   Opnd o = read_raw(in, s, c);
   if (prep[s].swizzled)
      return o;
   const SrcOperand &sop = in.src[s];
   if (sop.absolute) {
      o.abs = true;
      /* A literal/inline value has no abs bit in Evergreen's encoding of
       * OP3, but here it is applied to the bits directly. */
      if (o.kind == Opnd::Lit || o.kind == Opnd::Inline) {
         uint32_t v = o.kind == Opnd::Lit ? o.value : inline_bits(o.sel);
         o = imm(v & 0x7fffffffu);
      }
   }
   if (sop.negate) {
      if (o.kind == Opnd::Lit || o.kind == Opnd::Inline) {
         uint32_t v = o.kind == Opnd::Lit ? o.value : inline_bits(o.sel);
         o = imm(v ^ 0x80000000u);
      } else {
         o.neg = true;
      }
   }
   return o;
}

uint32_t Translator::inline_bits(uint32_t sel)
{
   switch (sel) {
   case kSrc_1: return 0x3f800000u;
   case kSrc_0_5: return 0x3f000000u;
   case kSrc_1_INT: return 1;
   case kSrc_M_1_INT: return 0xffffffffu;
   default: return 0;
   }
}

/* Relative reads go through AR (TEMP/IN/OUT arrays) or a constant-buffer
 * vertex fetch (CONST, as Mesa does on Evergreen); the whole vec4 lands in
 * `dst`. */
void Translator::load_indirect(const SrcOperand &src, unsigned dst)
{
   if (src.dimension && src.dimension->indirect) {
      error(src.loc, "r600 backend: indirect constant buffer selection is not supported");
      return;
   }
   Opnd idx = index_opnd(*src.index.indirect);
   if (src.file == File::Constant) {
      unsigned t = dst;
      b.add(AluOp::ADD_INT, t, 0, {idx, imm(uint32_t(src.index.value))});
      b.close_alu();
      VtxInstr v;
      v.op = FetchOp::VFETCH;
      v.buffer_id = uint8_t(src.dimension ? src.dimension->value : 0);
      v.fetch_type = 2;
      v.src_gpr = uint8_t(t);
      v.src_sel_x = 0;
      v.mega_fetch_count = 16;
      v.dst_gpr = uint8_t(dst);
      v.data_format = 35; /* 32_32_32_32_FLOAT */
      v.num_format_all = 2;
      v.format_comp_all = false;
      v.srf_mode_all = true;
      b.add_fetch(v, t, dst);
      return;
   }
   if (src.file != File::Temporary && src.file != File::Input && src.file != File::Output) {
      error(src.loc, "r600 backend: indirect addressing of this register file is not supported");
      return;
   }
   load_ar(idx);
   unsigned base = reg_gpr(src.file, src.index.value);
   for (unsigned c = 0; c < 4; c++) {
      PInstr p;
      p.op = AluOp::MOV;
      p.src[0] = gpr(base, c);
      p.dst.gpr = uint8_t(dst);
      p.dst.chan = uint8_t(c);
      rel_pending.push_back(p);
   }
   emit_rel_group(true);
}

Opnd Translator::index_opnd(const IndirectRef &r)
{
   if (r.file == File::Address)
      return gpr(reg_gpr(File::Address, r.index), r.swizzle);
   if (r.file == File::Temporary)
      return gpr(reg_gpr(File::Temporary, r.index), r.swizzle);
   error({}, "r600 backend: unsupported index register file");
   return inl(kSrc_0);
}

void Translator::load_ar(const Opnd &idx)
{
   b.flush();
   ar_src = idx;
}

/* MOVA_INT and the group using AR go into the same clause, back to back,
 * so AR never has to survive a clause boundary. */
void Translator::emit_rel_group(bool src_rel)
{
   b.flush();
   /* Ensure both groups land in one clause: a fresh clause holds them. */
   b.close_alu();
   b.add(AluOp::MOVA_INT, 0, 0, {ar_src}, false, false);
   b.flush();
   for (PInstr &p : rel_pending) {
      if (src_rel) {
         p.src[0].kind = Opnd::Gpr;
         rel_srcs = true;
      }
      b.add(p);
   }
   b.flush();
   /* The builder emits AluInstr without rel; patch the last group. */
   CfInstr &cf = b.prog.cf.back();
   AluGroup &g = cf.groups.back();
   for (AluInstr &in : g.instrs) {
      if (src_rel)
         in.src[0].rel = true;
      else
         in.dst.rel = true;
      in.index_mode = 0; /* AR.x */
   }
   rel_pending.clear();
   rel_srcs = false;
   b.close_alu();
}

/* ---- Destinations ------------------------------------------------------ */

void Translator::begin_dst(const Instruction &in)
{
   dst_tmp = false;
   if (in.dst.empty())
      return;
   const DstOperand &d = in.dst[0];
   if (d.file == File::Address) {
      dst_gpr = reg_gpr(File::Address, d.index.value);
      return;
   }
   bool alias = d.index.indirect.has_value();
   /* Dot products are one group (never split): they may write a source. */
   const bool atomic = in.opcode == Opcode::DP2 || in.opcode == Opcode::DP3 ||
                       in.opcode == Opcode::DP4 || in.opcode == Opcode::DPH;
   for (unsigned s = 0; s < in.src.size(); s++) {
      const SrcOperand &src = in.src[s];
      if (prep[s].replaced)
         continue;
      if (src.file == d.file && src.index.value == d.index.value && !atomic)
         alias = true;
   }
   if (alias) {
      dst_tmp = true;
      dst_gpr = scratch();
   } else {
      dst_gpr = reg_gpr(d.file, d.index.value);
   }
}

void Translator::end_dst(const Instruction &in)
{
   if (!dst_tmp || in.dst.empty())
      return;
   b.flush();
   const DstOperand &d = in.dst[0];
   unsigned real = reg_gpr(d.file, d.index.value);
   if (d.index.indirect) {
      load_ar(index_opnd(*d.index.indirect));
      for (unsigned c = 0; c < 4; c++) {
         if (!(d.write_mask & (1u << c)))
            continue;
         PInstr p;
         p.op = AluOp::MOV;
         p.src[0] = gpr(dst_gpr, c);
         p.dst.gpr = uint8_t(real);
         p.dst.chan = uint8_t(c);
         rel_pending.push_back(p);
      }
      emit_rel_group(false);
      return;
   }
   for (unsigned c = 0; c < 4; c++)
      if (d.write_mask & (1u << c))
         b.add(AluOp::MOV, real, c, {gpr(dst_gpr, c)});
   b.flush();
}

/* ---- Control flow ------------------------------------------------------ */

void Translator::push_level(bool loop)
{
   if (loop)
      loops++;
   else
      pushes++;
   unsigned elems = pushes + 4 * loops;
   max_elems = std::max(max_elems, elems);
   if ((elems + 3) / 4 + 1 > kMaxStackEntries && !stack_error) {
      stack_error = true;
      error({}, "control flow nested too deeply: needs more than the " +
                   std::to_string(kMaxStackEntries) + " hardware stack entries");
   }
}

void Translator::emit_if(const Instruction &in, bool integer)
{
   b.close_alu();
   b.open_alu(CfOp::ALU_PUSH_BEFORE);
   PInstr p;
   p.op = integer ? AluOp::PRED_SETNE_INT : AluOp::PRED_SETNE;
   p.src[0] = src(in, 0, 0);
   p.src[1] = inl(kSrc_0);
   p.dst.gpr = uint8_t(scratch_base);
   p.dst.write = false;
   p.update_exec = true;
   p.update_pred = true;
   b.add(p);
   b.close_alu();
   push_level(false);
   Flow f;
   f.jump = b.emit_cf(CfOp::JUMP);
   flow.push_back(f);
}

void Translator::emit_else(const Instruction &in)
{
   if (flow.empty() || flow.back().loop) {
      error(in.loc, "ELSE without IF");
      return;
   }
   size_t e = b.emit_cf(CfOp::ELSE);
   b.prog.cf[e].pop_count = 1;
   b.prog.cf[flow.back().jump].target = uint32_t(e);
   flow.back().els = e;
   flow.back().has_else = true;
}

void Translator::emit_endif(const Instruction &in)
{
   if (flow.empty() || flow.back().loop) {
      error(in.loc, "ENDIF without IF");
      return;
   }
   b.close_alu();
   Flow f = flow.back();
   flow.pop_back();
   pushes--;
   auto &cfs = b.prog.cf;
   size_t after;
   /* Fold the POP into a trailing plain ALU clause, as Mesa does. */
   if (!cfs.empty() && cfs.back().op == CfOp::ALU && cfs.size() - 1 > (f.has_else ? f.els : f.jump)) {
      cfs.back().op = CfOp::ALU_POP_AFTER;
      after = cfs.size();
   } else {
      size_t p = b.emit_cf(CfOp::POP);
      cfs[p].pop_count = 1;
      cfs[p].target = uint32_t(p + 1);
      after = p + 1;
   }
   if (f.has_else) {
      cfs[f.els].target = uint32_t(after);
   } else {
      cfs[f.jump].target = uint32_t(after);
      cfs[f.jump].pop_count = 1;
   }
}

void Translator::emit_bgnloop()
{
   push_level(true);
   num_loops++;
   Flow f;
   f.loop = true;
   f.jump = b.emit_cf(CfOp::LOOP_START_DX10);
   flow.push_back(f);
}

void Translator::emit_endloop(const Instruction &in)
{
   if (flow.empty() || !flow.back().loop) {
      error(in.loc, "ENDLOOP without BGNLOOP");
      return;
   }
   Flow f = flow.back();
   flow.pop_back();
   loops--;
   size_t e = b.emit_cf(CfOp::LOOP_END);
   auto &cfs = b.prog.cf;
   cfs[e].target = uint32_t(f.jump + 1);
   cfs[f.jump].target = uint32_t(e + 1);
   for (size_t k : f.breaks)
      cfs[k].target = uint32_t(e);
}

void Translator::emit_brk_cont(const Instruction &in, bool brk)
{
   Flow *loop = nullptr;
   for (size_t i = flow.size(); i-- > 0;)
      if (flow[i].loop) {
         loop = &flow[i];
         break;
      }
   if (!loop) {
      error(in.loc, std::string(brk ? "BRK" : "CONT") + " outside a loop");
      return;
   }
   size_t k = b.emit_cf(brk ? CfOp::LOOP_BREAK : CfOp::LOOP_CONTINUE);
   loop->breaks.push_back(k);
}

/* ---- Program start and end --------------------------------------------- */

void Translator::emit_prologue()
{
   if (info.has_fetch_shader)
      b.emit_cf(CfOp::CALL_FS);
   if (sh.processor != Processor::Fragment)
      return;
   for (const ShaderIo &io : info.inputs) {
      if (io.semantic == Semantic::Position) {
         /* The SPI delivers 1/w in w. */
         b.add(AluOp::RECIP_IEEE, io.gpr, 3, {gpr(io.gpr, 3)});
         b.flush();
      }
      if (io.lds_pos < 0)
         continue;
      if (io.interpolate == Interpolate::Constant) {
         for (unsigned c = 0; c < 4; c++)
            b.add(AluOp::INTERP_LOAD_P0, io.gpr, c,
                  {src_param_opnd(io.lds_pos, c), src_param_opnd(io.lds_pos, c)});
         b.flush();
         continue;
      }
      unsigned ijg = unsigned(io.ij_index) / 2, ijc = (unsigned(io.ij_index) % 2) * 2;
      for (int pass = 0; pass < 2; pass++) {
         std::array<PInstr, 4> ps;
         for (unsigned c = 0; c < 4; c++) {
            PInstr &p = ps[c];
            p.op = pass == 0 ? AluOp::INTERP_ZW : AluOp::INTERP_XY;
            p.src[0] = gpr(ijg, (c % 2 == 0) ? ijc + 1 : ijc);
            p.src[1] = src_param_opnd(io.lds_pos, c);
            p.dst.gpr = io.gpr;
            p.dst.chan = uint8_t(c);
            p.dst.write = pass == 0 ? c >= 2 : c < 2;
         }
         b.add_reduction(ps);
      }
   }
}

Opnd Translator::src_param_opnd(int lds, unsigned c)
{
   Opnd o = inl(kSrcPARAMFirst + unsigned(lds));
   o.chan = uint8_t(c);
   return o;
}

void Translator::emit_exports()
{
   b.close_alu();
   const bool frag = sh.processor == Processor::Fragment;
   struct Exp {
      uint8_t type;
      uint16_t base;
      unsigned gpr;
      std::array<uint8_t, 4> swz;
   };
   std::vector<Exp> pos, param, pix;
   int next_param = 0;
   const int num_out = sh.file_size(File::Output);
   for (int i = 0; i < num_out; i++) {
      const Declaration *d = sh.find_declaration(File::Output, i);
      ShaderIo io;
      io.tgsi_index = i;
      io.gpr = uint8_t(reg_gpr(File::Output, i));
      Semantic sem = d ? d->semantic : Semantic::Generic;
      io.semantic = sem;
      io.semantic_index = d ? d->semantic_index : 0;
      io.write_mask = d ? d->usage_mask : 0xf;
      Exp e{0, 0, io.gpr, {0, 1, 2, 3}};
      if (frag) {
         if (sem == Semantic::Color) {
            e.base = uint16_t(io.semantic_index);
            pix.insert(pix.begin() + std::ptrdiff_t(std::count_if(pix.begin(), pix.end(), [](const Exp &x) {
                          return x.base < 61;
                       })), e);
         } else if (sem == Semantic::Position) {
            e.base = 61;
            e.swz = {2, 7, 7, 7};
            pix.push_back(e);
         } else if (sem == Semantic::Stencil) {
            e.base = 61;
            e.swz = {7, 1, 7, 7};
            pix.push_back(e);
         } else {
            continue;
         }
         io.export_type = 0;
         io.export_base = e.base;
      } else {
         if (sem == Semantic::Position) {
            e.type = 1;
            e.base = 60;
            pos.push_back(e);
         } else if (sem == Semantic::PSize) {
            e.type = 1;
            e.base = 61;
            pos.push_back(e);
         } else {
            e.type = 2;
            e.base = uint16_t(next_param++);
            param.push_back(e);
         }
         io.export_type = e.type;
         io.export_base = e.base;
      }
      info.outputs.push_back(io);
   }
   auto emit = [&](std::vector<Exp> &list, uint8_t type, uint16_t dummy_base,
                   std::array<uint8_t, 4> dummy_swz) {
      if (list.empty())
         list.push_back(Exp{type, dummy_base, 0, dummy_swz});
      for (size_t i = 0; i < list.size(); i++) {
         size_t k = b.emit_cf(i + 1 == list.size() ? CfOp::EXPORT_DONE : CfOp::EXPORT);
         CfInstr &cf = b.prog.cf[k];
         cf.exp.type = type;
         cf.exp.array_base = list[i].base;
         cf.exp.gpr = uint8_t(list[i].gpr);
         cf.exp.swizzle = list[i].swz;
         cf.exp.burst_count = 1;
      }
   };
   if (frag) {
      emit(pix, 0, 0, {4, 4, 4, 5});
   } else {
      emit(pos, 1, 60, {4, 4, 4, 5});
      emit(param, 2, 0, {4, 4, 4, 5});
   }
   if (chip == ChipClass::Cayman)
      b.emit_cf(CfOp::CF_END); /* Cayman ends on CF_END, not a flag */
   else
      b.prog.cf.back().end_of_program = true;
}

/* ---- Driver ------------------------------------------------------------ */

bool Translator::run()
{
   if (!layout())
      return false;
   emit_prologue();
   /* RET in the main program: the body runs inside a one-trip loop and RET
    * breaks out of it, so returning lanes still reach the exports. */
   bool wrap = false;
   int depth = 0;
   for (const Instruction &in : sh.instructions) {
      if (in.opcode == Opcode::BGNLOOP)
         depth++;
      else if (in.opcode == Opcode::ENDLOOP)
         depth--;
      else if (in.opcode == Opcode::RET) {
         if (depth > 0) {
            error(in.loc, "r600 backend: RET inside a loop is not supported");
            return false;
         }
         wrap = true;
      }
   }
   if (wrap)
      emit_bgnloop();
   for (const Instruction &in : sh.instructions) {
      scratch_next = 0;
      translate(in);
      if (failed || b.failed)
         return false;
      if (in.opcode == Opcode::END)
         break;
   }
   if (wrap) {
      Instruction brk;
      brk.opcode = Opcode::BRK;
      emit_brk_cont(brk, true);
      emit_endloop(brk);
      num_loops--;
   }
   if (!flow.empty()) {
      error({}, "unterminated IF or BGNLOOP at the end of the shader");
      return false;
   }
   emit_exports();
   if (b.failed || failed)
      return false;
   /* GPRs actually referenced (scratch registers are reserved generously
    * but usually few are touched); relative addressing may reach any TEMP. */
   unsigned used = in_base + unsigned(std::max(sh.file_size(File::Input), 0));
   auto see = [&](unsigned r) {
      if (r < kMaxGprs)
         used = std::max(used, r + 1);
   };
   for (const CfInstr &cf : b.prog.cf) {
      for (const AluGroup &g : cf.groups)
         for (const AluInstr &a : g.instrs) {
            if (a.dst.write || alu_is_op3(a.op))
               see(a.dst.gpr);
            for (unsigned k = 0; k < alu_op_info(a.op).num_src; k++)
               if (a.src[k].sel < 128)
                  see(a.src[k].sel);
            if (a.dst.rel || a.src[0].rel || a.src[1].rel || a.src[2].rel)
               see(out_base - 1);
         }
      for (const FetchInstr &f : cf.fetches) {
         if (const TexInstr *t = std::get_if<TexInstr>(&f)) {
            see(t->src_gpr);
            see(t->dst_gpr);
         } else {
            const VtxInstr &v = std::get<VtxInstr>(f);
            see(v.src_gpr);
            see(v.dst_gpr);
         }
      }
      if (cf.op == CfOp::EXPORT || cf.op == CfOp::EXPORT_DONE)
         see(cf.exp.gpr);
   }
   info.num_gprs = used;
   info.stack_size = max_elems ? (max_elems + 3) / 4 + 1 : 0;
   return true;
}

} // namespace sbcc::r600::tgsi_backend

namespace sbcc::r600 {

std::optional<TgsiCompiled> tgsi_to_r600(const tgsi::Shader &shader, ChipClass chip,
                                         const DebugOptions &debug, Diagnostics &diags)
{

   tgsi::Shader sh = shader;
   if (!tgsi::merge_temps(sh, debug, &diags))
      return std::nullopt;
   tgsi_backend::Translator t(sh, chip, diags);
   if (!t.run())
      return std::nullopt;
   TgsiCompiled out;
   out.prog = std::move(t.b.prog);
   out.info = t.info;
   auto dw = layout_program(out.prog, diags);
   if (!dw)
      return std::nullopt;
   out.stats.set("dw", *dw);
   out.stats.set("gprs", out.info.num_gprs);
   out.stats.set("alu_groups", t.b.alu_groups);
   out.stats.set("loops", t.num_loops);
   out.stats.set("cf", int64_t(out.prog.cf.size()));
   out.stats.set("stack", out.info.stack_size);
   return out;
}

} // namespace sbcc::r600
