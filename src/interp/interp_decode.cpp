/*
 * Validation and decoding of a TGSI shader for the reference interpreter.
 * Everything that can be checked statically is checked here, so execution
 * only ever meets well-formed operands (indirect indices are the exception
 * and are bounds-checked at run time).
 */
#include "interp/interp_decode.h"

#include <string>

namespace sbcc::interp {

using namespace tgsi;

namespace {

struct Decoder {
   const Shader &sh;
   DShader &out;
   Diagnostics &diags;
   bool ok = true;

   void error(SourceLoc loc, std::string msg)
   {
      diags.error(sh.source_name, loc, std::move(msg));
      ok = false;
   }

   int32_t file_size(File f) const
   {
      switch (f) {
      case File::Temporary: return out.num_temps;
      case File::Address: return out.num_addrs;
      case File::Output: return out.num_outputs;
      case File::Input: return out.num_inputs;
      case File::Immediate: return static_cast<int32_t>(out.immediates.size());
      default: return sh.file_size(f);
      }
   }

   /* The inclusive index range an indirect access may reach: the ARRAY's
    * declaration when the operand names one, else the whole file. */
   void range(File f, uint16_t array_id, int32_t &lo, int32_t &hi)
   {
      lo = 0;
      hi = file_size(f) - 1;
      if (array_id == 0)
         return;
      for (const Declaration &d : sh.declarations)
         if (d.file == f && d.array_id == array_id) {
            lo = d.first;
            hi = d.last;
            return;
         }
   }

   void indirect(const std::optional<IndirectRef> &ref, DIndirect &di, SourceLoc loc)
   {
      if (!ref)
         return;
      if (ref->file != File::Address && ref->file != File::Temporary) {
         error(loc, "indirect index through " + std::string(file_name(ref->file)) +
                       " is not supported");
         return;
      }
      if (ref->index < 0 || ref->index >= file_size(ref->file)) {
         error(loc, std::string(file_name(ref->file)) + "[" + std::to_string(ref->index) +
                       "] used as an index is not declared");
         return;
      }
      di.present = true;
      di.file = ref->file;
      di.index = ref->index;
      di.chan = ref->swizzle & 3;
   }

   /* Direct accesses must name a declared register; files read from the
    * run-time inputs (IN, SV, CONST) are bounds-checked when read instead. */
   void check_direct(File f, int32_t index, bool indirect, SourceLoc loc)
   {
      if (index < 0 && !indirect) {
         error(loc, "negative register index");
         return;
      }
      bool checked = f == File::Temporary || f == File::Address || f == File::Output ||
                     f == File::Immediate;
      if (checked && !indirect && index >= file_size(f))
         error(loc, std::string(file_name(f)) + "[" + std::to_string(index) +
                       "] is not declared");
   }

   void src(const SrcOperand &s, DSrc &d, bool int_mods)
   {
      switch (s.file) {
      case File::Constant:
      case File::Input:
      case File::Temporary:
      case File::Immediate:
      case File::SystemValue:
      case File::Address:
      case File::Output:
         break;
      default:
         error(s.loc, "source file " + std::string(file_name(s.file)) +
                         " is not supported here");
         return;
      }
      d.file = s.file;
      d.index = s.index.value;
      indirect(s.index.indirect, d.ind, s.loc);
      check_direct(s.file, d.index, d.ind.present, s.loc);
      range(s.file, s.array_id, d.lo, d.hi);
      if (s.dimension) {
         if (s.file != File::Constant) {
            error(s.loc, "two-dimensional " + std::string(file_name(s.file)) +
                            " is not supported");
            return;
         }
         d.dim = s.dimension->value;
         indirect(s.dimension->indirect, d.dim_ind, s.loc);
      }
      for (int c = 0; c < 4; c++)
         d.swz[c] = s.swizzle[c] & 3;
      d.neg = s.negate;
      d.abs = s.absolute;
      if (!d.ind.present && s.file == File::Temporary)
         d.fast = DSrc::kTemp;
      else if (!d.ind.present && s.file == File::Immediate)
         d.fast = DSrc::kImm;
      d.int_mods = int_mods;
   }

   void dst(const DstOperand &s, DDst &d)
   {
      if (s.file != File::Temporary && s.file != File::Output && s.file != File::Address &&
          s.file != File::Null) {
         error(s.loc, "destination file " + std::string(file_name(s.file)) +
                         " is not supported");
         return;
      }
      if (s.dimension) {
         error(s.loc, "two-dimensional destination is not supported");
         return;
      }
      d.file = s.file;
      d.index = s.index.value;
      indirect(s.index.indirect, d.ind, s.loc);
      if (s.file != File::Null)
         check_direct(s.file, d.index, d.ind.present, s.loc);
      range(s.file, s.array_id, d.lo, d.hi);
      d.mask = s.file == File::Null ? 0 : (s.write_mask & 15);
   }
};

bool is_texture_op(Opcode op)
{
   return opcode_info(op).flags & OPF_TEX;
}

/* Sources whose negate/abs act on integers (TGSI types modifiers by the
 * opcode's source type; UCMP's selected values and LDEXP's exponent are
 * the exceptions to the table's per-opcode type). */
bool int_source(Opcode op, unsigned i)
{
   switch (op) {
   case Opcode::UCMP: return i == 0;
   case Opcode::LDEXP: return i == 1;
   default: break;
   }
   OperandType t = opcode_info(op).type;
   return t == OperandType::I32 || t == OperandType::U32;
}

/* Opcodes whose result is a float, so _SAT applies. */
bool float_result(Opcode op)
{
   switch (op) {
   case Opcode::FSLT:
   case Opcode::FSGE:
   case Opcode::FSEQ:
   case Opcode::FSNE:
   case Opcode::F2I:
   case Opcode::F2U:
   case Opcode::ARL:
   case Opcode::TXQ:
      return false;
   case Opcode::I2F:
   case Opcode::U2F:
   case Opcode::MOV:
   case Opcode::TXF:
   case Opcode::TXF_LZ:
      return true;
   default:
      return opcode_info(op).type == OperandType::F32;
   }
}

} // namespace

bool decode_shader(const Shader &sh, DShader &out, Diagnostics &diags)
{
   Decoder dec{sh, out, diags};
   out = DShader{};
   out.processor = sh.processor;
   out.num_temps = sh.file_size(File::Temporary);
   out.num_addrs = sh.file_size(File::Address);
   out.num_outputs = sh.file_size(File::Output);
   out.num_inputs = sh.file_size(File::Input);
   /* Registers are allocated per run; refuse sizes no GPU has rather than
    * let a hand-built IR ask for gigabytes. */
   constexpr int32_t kMaxRegs = 65536;
   if (out.num_temps > kMaxRegs || out.num_addrs > kMaxRegs || out.num_outputs > kMaxRegs) {
      dec.error({}, "more than " + std::to_string(kMaxRegs) + " registers in one file");
      return false;
   }
   for (const Immediate &imm : sh.immediates)
      out.immediates.push_back({imm.value[0], imm.value[1], imm.value[2], imm.value[3]});

   struct Open {
      uint32_t pc;
      bool loop;
      bool has_else;
   };
   std::vector<Open> open;
   out.code.reserve(sh.instructions.size());

   for (uint32_t pc = 0; pc < sh.instructions.size(); pc++) {
      const Instruction &in = sh.instructions[pc];
      DInst d;
      if (static_cast<unsigned>(in.opcode) >= kNumOpcodes) {
         dec.error(in.loc, "invalid opcode");
         out.code.push_back(d);
         continue;
      }
      const OpcodeInfo &info = in.info();
      d.op = in.opcode;
      if (in.dst.size() != info.num_dst || in.src.size() != info.num_src) {
         dec.error(in.loc, std::string(info.name) + " needs " + std::to_string(info.num_dst) +
                              " destination and " + std::to_string(info.num_src) +
                              " source operands");
         out.code.push_back(d);
         continue;
      }
      d.sat = in.saturate && float_result(in.opcode);
      unsigned nvalue_src = info.num_src;
      if (is_texture_op(in.opcode)) {
         /* The last source names the sampler unit. */
         nvalue_src--;
         const SrcOperand &s = in.src.back();
         if ((s.file != File::Sampler && s.file != File::SamplerView) ||
             (s.index.value < 0 && !s.index.indirect)) {
            dec.error(s.loc, "texture unit must be a SAMP or SVIEW register");
         }
         d.unit = static_cast<uint32_t>(s.index.value);
         d.num_units = sh.file_size(s.file);
         dec.indirect(s.index.indirect, d.unit_ind, s.loc);
         d.target = in.tex_target;
         switch (d.target) {
         case TextureTarget::Buffer:
         case TextureTarget::Msaa2D:
         case TextureTarget::MsaaArray2D:
            dec.error(in.loc, "texture target " + std::string(texture_target_name(d.target)) +
                                 " is not supported");
            break;
         default:
            break;
         }
         if (in.tex_offsets.size() > 1)
            dec.error(in.loc, "more than one texture offset is not supported");
         for (const TexOffset &o : in.tex_offsets) {
            if (o.file != File::Immediate || o.index < 0 ||
                o.index >= static_cast<int32_t>(out.immediates.size())) {
               dec.error(in.loc, "texture offsets must be declared immediates");
               break;
            }
            for (int c = 0; c < 3; c++)
               d.offset[c] = static_cast<int32_t>(out.immediates[o.index][o.swizzle[c] & 3]);
         }
      }
      d.nsrc = static_cast<uint8_t>(nvalue_src);
      for (unsigned i = 0; i < nvalue_src; i++)
         dec.src(in.src[i], d.src[i], int_source(in.opcode, i));
      if (info.num_dst) {
         d.has_dst = true;
         dec.dst(in.dst[0], d.dst);
      }

      switch (in.opcode) {
      case Opcode::IF:
      case Opcode::UIF:
         open.push_back({pc, false, false});
         break;
      case Opcode::ELSE:
         if (open.empty() || open.back().loop || open.back().has_else) {
            dec.error(in.loc, "ELSE without IF");
            break;
         }
         out.code[open.back().pc].jump = pc;
         open.back().pc = pc;
         open.back().has_else = true;
         break;
      case Opcode::ENDIF:
         if (open.empty() || open.back().loop) {
            dec.error(in.loc, "ENDIF without IF");
            break;
         }
         out.code[open.back().pc].jump = pc;
         open.pop_back();
         break;
      case Opcode::BGNLOOP:
         open.push_back({pc, true, false});
         break;
      case Opcode::ENDLOOP:
         if (open.empty() || !open.back().loop) {
            dec.error(in.loc, "ENDLOOP without BGNLOOP");
            break;
         }
         out.code[open.back().pc].jump = pc;
         d.jump = open.back().pc;
         open.pop_back();
         break;
      case Opcode::BRK:
      case Opcode::CONT: {
         bool in_loop = false;
         for (const Open &o : open)
            in_loop |= o.loop;
         if (!in_loop)
            dec.error(in.loc, std::string(info.name) + " outside a loop");
         break;
      }
      default:
         break;
      }
      out.max_depth = std::max<uint32_t>(out.max_depth, static_cast<uint32_t>(open.size()));
      out.code.push_back(d);
   }
   if (!open.empty()) {
      const Instruction &in = sh.instructions[open.back().pc];
      dec.error(in.loc, std::string(in.info().name) + " is never closed");
   }
   return dec.ok;
}

} // namespace sbcc::interp
