/*
 * The code ARB options add (position invariance, fog) and the final TGSI
 * shader: declarations, dense IN/OUT numbering, scratch temporaries moved
 * after the program's own.
 */
#include "arb/arb_parser.h"

namespace sbcc::arb {

using tgsi::DstOperand;
using tgsi::File;
using tgsi::Instruction;
using tgsi::Opcode;
using tgsi::SrcOperand;

/* --------------------------------------------------------------- options */

void Parser::emit_position_invariant()
{
   int32_t pos = input_slot(VS_IN_POSITION, "vertex.position", tgsi::Semantic::None, 0,
                            tgsi::Interpolate::None);
   output_slot(VS_OUT_POSITION, "result.position", tgsi::Semantic::Position, 0);
   for (int r = 0; r < 4; r++) {
      ParamBinding b;
      b.kind = ParamBinding::Kind::State;
      b.state = "state.matrix.mvp.row[" + std::to_string(r) + "]";
      b.row = r;
      int32_t c = const_for(b);
      if (c < 0)
         return;
      emit(make(Opcode::DP4, dst_reg(File::Output, VS_OUT_POSITION, uint8_t(1u << r)),
                {src_reg(File::Constant, c), src_reg(File::Input, pos)}, SourceLoc{}));
   }
}

void Parser::emit_fog()
{
   if (fog_ == FogOption::None || fog_temp_ < 0)
      return;
   int32_t fogc = input_slot(FS_IN_FOG, "fragment.fogcoord", tgsi::Semantic::Fog, 0,
                             tgsi::Interpolate::Perspective);
   ParamBinding pb;
   pb.kind = ParamBinding::Kind::State;
   pb.state = "state.fog.params";
   int32_t params = const_for(pb);
   pb.state = "state.fog.color";
   int32_t color = const_for(pb);
   if (params < 0 || color < 0)
      return;
   int32_t f = scratch_temp();
   SourceLoc loc = fog_loc_;
   auto P = [&](uint8_t c) { return src_reg(File::Constant, params, {c, c, c, c}); };
   SrcOperand z = src_reg(File::Input, fogc, {0, 0, 0, 0});
   SrcOperand fx = src_reg(File::Temporary, f, {0, 0, 0, 0});
   DstOperand dfx = dst_reg(File::Temporary, f, tgsi::WM_X);
   if (fog_ == FogOption::Linear) {
      /* f = (end - z) / (end - start) */
      SrcOperand nz = z;
      nz.negate = true;
      emit(make(Opcode::ADD, dfx, {P(2), nz}, loc));
      emit(make(Opcode::MUL, dfx, {fx, P(3)}, loc, true));
   } else {
      /* f = 2^-(d*z * log2(e)), squared exponent for EXP2. */
      int32_t imm = immediate({1.44269504f, 0.0f, 0.0f, 0.0f});
      emit(make(Opcode::MUL, dfx, {P(0), z}, loc));
      if (fog_ == FogOption::Exp2)
         emit(make(Opcode::MUL, dfx, {fx, fx}, loc));
      emit(make(Opcode::MUL, dfx, {fx, src_reg(File::Immediate, imm, {0, 0, 0, 0})}, loc));
      SrcOperand nfx = fx;
      nfx.negate = true;
      emit(make(Opcode::EX2, dfx, {nfx}, loc, true));
   }
   emit(make(Opcode::LRP, dst_reg(File::Output, FS_OUT_COLOR0, tgsi::WM_X | tgsi::WM_Y | tgsi::WM_Z),
             {fx, src_reg(File::Temporary, fog_temp_), src_reg(File::Constant, color)}, loc));
   emit(make(Opcode::MOV, dst_reg(File::Output, FS_OUT_COLOR0, tgsi::WM_W),
             {src_reg(File::Temporary, fog_temp_)}, loc));
}

/* ---------------------------------------------------------------- output */

Program Parser::finish()
{
   Program p;
   p.kind = kind_;
   p.position_invariant = position_invariant_;
   p.fog = fog_;
   p.precision_fastest = precision_fastest_;
   p.precision_nicest = precision_nicest_;
   p.fragment_shadow = fragment_shadow_;

   tgsi::Shader &sh = p.shader;
   sh.processor = kind_ == ProgramKind::Vertex ? tgsi::Processor::Vertex
                                               : tgsi::Processor::Fragment;
   sh.source_name = std::string(file_);
   if (kind_ == ProgramKind::Fragment && inputs_.count(FS_IN_POSITION)) {
      /* fragment.position is GL window coordinates: lower-left origin,
       * pixel centres at .5. */
      tgsi::PropertyDecl origin;
      origin.property = tgsi::Property::FsCoordOrigin;
      origin.name = "FS_COORD_ORIGIN";
      origin.value = 1;
      origin.value_text = "LOWER_LEFT";
      sh.properties.push_back(origin);
      tgsi::PropertyDecl center;
      center.property = tgsi::Property::FsCoordPixelCenter;
      center.name = "FS_COORD_PIXEL_CENTER";
      center.value = 0;
      center.value_text = "HALF_INTEGER";
      sh.properties.push_back(center);
   }

   /* Dense IN/OUT numbering in slot order. */
   std::map<int32_t, int32_t> in_map, out_map;
   for (const auto &[slot, io] : inputs_) {
      int32_t i = int32_t(in_map.size());
      in_map[slot] = i;
      tgsi::Declaration d;
      d.file = File::Input;
      d.first = d.last = i;
      if (kind_ == ProgramKind::Fragment) {
         d.semantic = io.semantic;
         d.semantic_index = io.semantic_index;
         d.interpolate = io.interp;
      }
      sh.declarations.push_back(d);
      p.inputs.push_back(IoBinding{io.name, i, d.semantic, d.semantic_index});
   }
   for (const auto &[slot, io] : outputs_) {
      int32_t i = int32_t(out_map.size());
      out_map[slot] = i;
      tgsi::Declaration d;
      d.file = File::Output;
      d.first = d.last = i;
      d.semantic = io.semantic;
      d.semantic_index = io.semantic_index;
      sh.declarations.push_back(d);
      p.outputs.push_back(IoBinding{io.name, i, io.semantic, io.semantic_index});
   }
   for (const auto &[unit, target] : samplers_) {
      tgsi::Declaration d;
      d.file = File::Sampler;
      d.first = d.last = unit;
      sh.declarations.push_back(d);
   }
   for (const auto &[unit, target] : samplers_) {
      tgsi::Declaration d;
      d.file = File::SamplerView;
      d.first = d.last = unit;
      d.view_target = target;
      sh.declarations.push_back(d);
   }
   if (!params_.empty()) {
      tgsi::Declaration d;
      d.file = File::Constant;
      d.first = 0;
      d.last = int32_t(params_.size()) - 1;
      sh.declarations.push_back(d);
   }
   int32_t total_temps = num_temps_ + num_scratch_;
   if (total_temps > 0) {
      tgsi::Declaration d;
      d.file = File::Temporary;
      d.first = 0;
      d.last = total_temps - 1;
      sh.declarations.push_back(d);
   }
   if (num_address_ > 0) {
      tgsi::Declaration d;
      d.file = File::Address;
      d.first = 0;
      d.last = num_address_ - 1;
      sh.declarations.push_back(d);
   }
   sh.immediates = imms_;

   auto remap = [&](File f, int32_t &index) {
      if (f == File::Input)
         index = in_map[index];
      else if (f == File::Output)
         index = out_map[index];
      else if (f == File::Temporary && index >= kScratchBase)
         index = num_temps_ + (index - kScratchBase);
   };
   for (Instruction &inst : insts_) {
      for (DstOperand &d : inst.dst)
         remap(d.file, d.index.value);
      for (SrcOperand &s : inst.src)
         remap(s.file, s.index.value);
   }
   sh.instructions = std::move(insts_);
   Instruction end;
   end.opcode = Opcode::END;
   sh.instructions.push_back(end);
   p.params = params_;
   return p;
}

} // namespace sbcc::arb
