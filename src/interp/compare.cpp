/*
 * Output comparison for the verifier: see compare.h and docs/semantics.md.
 */
#include "interp/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sbcc::interp {

using namespace tgsi;

namespace {

/* Ordered so that merging two possible sources of a value is max(). */
enum Kind : uint8_t { K_NONE, K_INT, K_FLOAT, K_TRANS };

bool is_transcendental(Opcode op)
{
   switch (op) {
   case Opcode::RCP:
   case Opcode::RSQ:
   case Opcode::SQRT:
   case Opcode::EX2:
   case Opcode::LG2:
   case Opcode::POW:
   case Opcode::SIN:
   case Opcode::COS:
   case Opcode::EXP:
   case Opcode::LOG:
   case Opcode::LIT:
      return true;
   default:
      return false;
   }
}

/* Opcodes producing integers (or bit masks) whatever their inputs. */
bool int_result(Opcode op)
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
      return true;
   case Opcode::I2F:
   case Opcode::U2F:
   case Opcode::MOV:
   case Opcode::UCMP:
   case Opcode::TXF:
   case Opcode::TXF_LZ:
      return false;
   default: {
      OperandType t = opcode_info(op).type;
      return t == OperandType::I32 || t == OperandType::U32;
   }
   }
}

/* Opcodes whose result is one of their sources' values, bit for bit. */
bool is_select(Opcode op)
{
   return op == Opcode::MOV || op == Opcode::UCMP || op == Opcode::CMP;
}

struct Analysis {
   const Shader &sh;
   std::vector<std::array<uint8_t, 4>> temps, outs;
   bool changed = false;

   explicit Analysis(const Shader &s)
      : sh(s), temps(size_t(std::max(0, s.file_size(File::Temporary)))),
        outs(size_t(std::max(0, s.file_size(File::Output))))
   {
      for (auto &t : temps)
         t.fill(K_NONE);
      for (auto &o : outs)
         o.fill(K_NONE);
   }

   uint8_t src_kind(const SrcOperand &s, unsigned chan) const
   {
      unsigned c = s.swizzle[chan] & 3;
      switch (s.file) {
      case File::Temporary: {
         if (s.index.indirect) {
            uint8_t k = K_NONE;
            for (const auto &t : temps)
               k = std::max(k, t[c]);
            return k;
         }
         int32_t i = s.index.value;
         return i >= 0 && size_t(i) < temps.size() ? temps[size_t(i)][c] : uint8_t(K_NONE);
      }
      case File::Input: {
         /* Interpolated fragment inputs are recomputed by the target's own
          * interpolation hardware (Evergreen INTERP_*), so they carry a
          * float rounding of their own. */
         if (sh.processor != Processor::Fragment)
            return K_INT;
         if (s.index.indirect)
            return K_FLOAT;
         const Declaration *d = sh.find_declaration(File::Input, s.index.value);
         bool interpolated = d && (d->interpolate == Interpolate::Linear ||
                                   d->interpolate == Interpolate::Perspective ||
                                   d->interpolate == Interpolate::Color);
         return interpolated ? K_FLOAT : K_INT;
      }
      default:
         /* CONST, SV, immediates (and non-interpolated inputs) reach an output unchanged only
          * through bit-exact moves and selects, which every target performs
          * exactly; a tolerance here would let small integers (denormal bit
          * patterns) compare equal.  Arithmetic on them is classified by the
          * opcode instead. */
         return K_INT;
      }
   }

   void merge(std::vector<std::array<uint8_t, 4>> &file, const DstOperand &d, unsigned c,
              uint8_t k)
   {
      auto one = [&](size_t i) {
         if (k > file[i][c]) {
            file[i][c] = k;
            changed = true;
         }
      };
      if (d.index.indirect) {
         for (size_t i = 0; i < file.size(); i++)
            one(i);
      } else if (d.index.value >= 0 && size_t(d.index.value) < file.size()) {
         one(size_t(d.index.value));
      }
   }

   void pass()
   {
      for (const Instruction &in : sh.instructions) {
         if (static_cast<unsigned>(in.opcode) >= kNumOpcodes || in.dst.empty())
            continue;
         const OpcodeInfo &info = in.info();
         const bool tex = info.flags & OPF_TEX;
         size_t nsrc = tex && !in.src.empty() ? in.src.size() - 1 : in.src.size();
         const bool per_comp = info.mode == OutputMode::Component;
         for (unsigned c = 0; c < 4; c++) {
            if (!(in.dst[0].write_mask & (1u << c)))
               continue;
            uint8_t k;
            if (int_result(in.opcode)) {
               k = K_INT;
            } else if (is_select(in.opcode)) {
               k = K_NONE;
               for (size_t i = in.opcode == Opcode::MOV ? 0 : 1; i < nsrc; i++)
                  k = std::max(k, src_kind(in.src[i], c));
               if (k == K_NONE)
                  k = K_FLOAT;
            } else {
               k = is_transcendental(in.opcode) ? K_TRANS : K_FLOAT;
               for (size_t i = 0; i < nsrc; i++) {
                  if (per_comp) {
                     if (src_kind(in.src[i], c) == K_TRANS)
                        k = K_TRANS;
                  } else {
                     for (unsigned j = 0; j < 4; j++)
                        if (src_kind(in.src[i], j) == K_TRANS)
                           k = K_TRANS;
                  }
               }
            }
            if (in.dst[0].file == File::Temporary)
               merge(temps, in.dst[0], c, k);
            else if (in.dst[0].file == File::Output)
               merge(outs, in.dst[0], c, k);
         }
      }
   }
};

} // namespace

bool values_match(uint32_t ref, uint32_t got, Tolerance tol)
{
   if (ref == got)
      return true;
   if (tol == Tolerance::Exact)
      return false;
   const float a = u2f(ref), b = u2f(got);
   if (std::isnan(a) || std::isnan(b))
      return std::isnan(a) && std::isnan(b);
   if (std::isinf(a) || std::isinf(b)) {
      /* RCP/RSQ of 0 may give FLT_MAX instead of infinity on hardware. */
      const float big = 0x1p126f;
      return std::signbit(a) == std::signbit(b) && std::fabs(a) >= big && std::fabs(b) >= big;
   }
   const float rel = tol == Tolerance::Float ? kFloatRelTolerance : kTranscendentalRelTolerance;
   return std::fabs(double(a) - double(b)) <= double(rel) * std::max(1.0, std::fabs(double(a)));
}

OutputTolerances derive_tolerances(const Shader &shader)
{
   Analysis a(shader);
   /* A loop can carry a value around once per pass; the lattice has four
    * levels, so this settles quickly. */
   for (int i = 0; i < 16; i++) {
      a.changed = false;
      a.pass();
      if (!a.changed)
         break;
   }
   OutputTolerances t;
   t.outputs.resize(a.outs.size());
   for (size_t i = 0; i < a.outs.size(); i++)
      for (unsigned c = 0; c < 4; c++) {
         uint8_t k = a.outs[i][c];
         t.outputs[i][c] = k == K_FLOAT   ? Tolerance::Float
                           : k == K_TRANS ? Tolerance::Transcendental
                                          : Tolerance::Exact;
      }
   return t;
}

std::string Mismatch::str() const
{
   char buf[160];
   if (output < 0) {
      std::snprintf(buf, sizeof(buf), "lane %zu: killed %s in the reference, %s in the result",
                    lane, ref ? "true" : "false", got ? "true" : "false");
   } else {
      std::snprintf(buf, sizeof(buf), "lane %zu: OUT[%d].%c reference 0x%08x (%g) got 0x%08x (%g)",
                    lane, output, "xyzw"[chan & 3], ref, double(u2f(ref)), got,
                    double(u2f(got)));
   }
   return buf;
}

std::optional<Mismatch> compare_batches(const Batch &ref, const Batch &got,
                                        const OutputTolerances &tol)
{
   const size_t n = std::min(ref.lanes.size(), got.lanes.size());
   for (size_t l = 0; l < n; l++) {
      const Lane &a = ref.lanes[l], &b = got.lanes[l];
      if (a.helper || a.undefined)
         continue;
      if (a.killed != b.killed)
         return Mismatch{l, -1, 0, a.killed, b.killed};
      if (a.killed)
         continue;
      for (size_t o = 0; o < a.outputs.size(); o++)
         for (unsigned c = 0; c < 4; c++) {
            uint32_t r = a.outputs[o][c];
            uint32_t g = o < b.outputs.size() ? b.outputs[o][c] : 0;
            if (!values_match(r, g, tol.at(o, c)))
               return Mismatch{l, int(o), c, r, g};
         }
   }
   if (ref.lanes.size() != got.lanes.size())
      return Mismatch{n, -1, 0, 0, 0};
   return std::nullopt;
}

} // namespace sbcc::interp
