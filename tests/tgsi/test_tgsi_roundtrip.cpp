/*
 * print_tgsi: exact tgsi_dump layout for a shader built in code, text that
 * prints back unchanged, and parse_tgsi(print_tgsi(s)) == s for a few
 * thousand randomly generated valid shaders.
 */
#include <random>

#include <gtest/gtest.h>

#include "common/exec.h"
#include "tgsi/tgsi_compare.h"
#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

std::optional<Shader> reparse(const Shader &s, std::string *text = nullptr)
{
   std::string printed = print_tgsi(s);
   if (text)
      *text = printed;
   Diagnostics diags;
   auto again = parse_tgsi(printed, "printed", diags);
   EXPECT_TRUE(again.has_value()) << diags.str() << "\n" << printed;
   return again;
}

void expect_same_text(const std::string &text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "t", diags);
   ASSERT_TRUE(s) << diags.str();
   EXPECT_EQ(print_tgsi(*s), text);
}

Declaration decl(File f, int32_t first, int32_t last)
{
   Declaration d;
   d.file = f;
   d.first = first;
   d.last = last;
   return d;
}

SrcOperand src(File f, int32_t index, std::array<uint8_t, 4> swz = {0, 1, 2, 3})
{
   SrcOperand s;
   s.file = f;
   s.index.value = index;
   s.swizzle = swz;
   return s;
}

DstOperand dst(File f, int32_t index, uint8_t mask = WM_XYZW)
{
   DstOperand d;
   d.file = f;
   d.index.value = index;
   d.write_mask = mask;
   return d;
}

Instruction inst(Opcode op, std::vector<DstOperand> d, std::vector<SrcOperand> s)
{
   Instruction i;
   i.opcode = op;
   i.dst = std::move(d);
   i.src = std::move(s);
   return i;
}

TEST(TgsiRoundTrip, SimpleText)
{
   expect_same_text("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n");
}

TEST(TgsiRoundTrip, BuiltShaderPrintsInTgsiDumpLayout)
{
   Shader s;
   s.processor = Processor::Fragment;
   PropertyDecl origin;
   origin.property = Property::FsCoordOrigin;
   origin.value = 1;
   s.properties.push_back(origin);
   PropertyDecl other;
   other.property = Property::Other;
   other.name = "FS_POST_DEPTH_COVERAGE";
   other.value = 1;
   s.properties.push_back(other);

   Declaration in = decl(File::Input, 0, 0);
   in.usage_mask = WM_X | WM_Y;
   in.semantic = Semantic::Generic;
   in.semantic_index = 3;
   in.interpolate = Interpolate::Perspective;
   in.location = InterpLocation::Centroid;
   s.declarations.push_back(in);
   Declaration out = decl(File::Output, 0, 0);
   out.semantic = Semantic::Color;
   out.invariant = true;
   s.declarations.push_back(out);
   Declaration arr = decl(File::Temporary, 0, 3);
   arr.array_id = 1;
   s.declarations.push_back(arr);
   s.declarations.push_back(decl(File::Temporary, 4, 4));
   s.declarations.push_back(decl(File::Address, 0, 0));
   Declaration cb = decl(File::Constant, 0, 15);
   cb.dimension = 1;
   s.declarations.push_back(cb);
   s.declarations.push_back(decl(File::Sampler, 0, 0));
   Declaration view = decl(File::SamplerView, 0, 0);
   view.view_target = TextureTarget::Array2D;
   view.view_return = {ReturnType::Uint, ReturnType::Uint, ReturnType::Uint, ReturnType::Sint};
   s.declarations.push_back(view);

   Immediate f;
   f.value = {f2u(1.0f), f2u(-0.5f), f2u(0.123456789f), 0x7fc00001u};
   s.immediates.push_back(f);
   Immediate u;
   u.type = ImmType::Uint32;
   u.count = 2;
   u.value = {1065353216u, 4294967295u, 0, 0};
   s.immediates.push_back(u);
   Immediate i;
   i.type = ImmType::Int32;
   i.count = 1;
   i.value = {0xfffffffeu, 0, 0, 0};
   s.immediates.push_back(i);

   Instruction mad = inst(Opcode::MAD, {dst(File::Temporary, 4, WM_X | WM_W)},
                          {src(File::Input, 0, {0, 1, 1, 1}), src(File::Constant, 2),
                           src(File::Immediate, 0, {2, 2, 2, 2})});
   mad.saturate = true;
   mad.src[0].negate = true;
   mad.src[1].dimension = RegIndex{1, std::nullopt};
   mad.src[1].absolute = true;
   mad.src[2].negate = true;
   mad.src[2].absolute = true;
   s.instructions.push_back(mad);

   Instruction arl = inst(Opcode::UARL, {dst(File::Address, 0, WM_X)},
                          {src(File::Immediate, 1, {0, 0, 0, 0})});
   s.instructions.push_back(arl);

   Instruction mov = inst(Opcode::MOV, {dst(File::Temporary, 2)}, {src(File::Constant, -3)});
   mov.src[0].dimension = RegIndex{1, std::nullopt};
   mov.src[0].index.indirect = IndirectRef{File::Address, 0, SWZ_X, 0};
   mov.dst[0].index.indirect = IndirectRef{File::Address, 0, SWZ_X, 1};
   mov.dst[0].array_id = 1;
   mov.precise = true;
   s.instructions.push_back(mov);

   Instruction uif = inst(Opcode::UIF, {}, {src(File::Temporary, 4, {0, 0, 0, 0})});
   uif.label = 7;
   s.instructions.push_back(uif);
   Instruction loop = inst(Opcode::BGNLOOP, {}, {});
   loop.label = 6;
   s.instructions.push_back(loop);
   s.instructions.push_back(inst(Opcode::BRK, {}, {}));
   Instruction endloop = inst(Opcode::ENDLOOP, {}, {});
   endloop.label = 4;
   s.instructions.push_back(endloop);
   Instruction els = inst(Opcode::ELSE, {}, {});
   els.label = 9;
   s.instructions.push_back(els);
   Instruction tex = inst(Opcode::TXF, {dst(File::Output, 0)},
                          {src(File::Temporary, 4), src(File::Sampler, 0)});
   tex.tex_target = TextureTarget::Array2D;
   TexOffset off;
   off.index = 1;
   off.swizzle = {SWZ_X, SWZ_Y, SWZ_Y};
   tex.tex_offsets.push_back(off);
   s.instructions.push_back(tex);
   s.instructions.push_back(inst(Opcode::ENDIF, {}, {}));
   s.instructions.push_back(inst(Opcode::END, {}, {}));

   std::string text;
   auto again = reparse(s, &text);
   EXPECT_EQ(text,
             "FRAG\n"
             "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"
             "PROPERTY FS_POST_DEPTH_COVERAGE 1\n"
             "DCL IN[0].xy, GENERIC[3], PERSPECTIVE, CENTROID\n"
             "DCL OUT[0], COLOR, INVARIANT\n"
             "DCL TEMP[0..3], ARRAY(1)\n"
             "DCL TEMP[4]\n"
             "DCL ADDR[0]\n"
             "DCL CONST[1][0..15]\n"
             "DCL SAMP[0]\n"
             "DCL SVIEW[0], 2D_ARRAY, UINT, UINT, UINT, SINT\n"
             "IMM[0] FLT32 {    1.0000,    -0.5000, 0.123456791, 0x7fc00001}\n"
             "IMM[1] UINT32 {1065353216, 4294967295}\n"
             "IMM[2] INT32 {-2}\n"
             "  0: MAD_SAT TEMP[4].xw, -IN[0].xyyy, |CONST[1][2]|, -|IMM[0].zzzz|\n"
             "  1: UARL ADDR[0].x, IMM[1].xxxx\n"
             "  2: MOV_PRECISE TEMP[ADDR[0].x+2](1), CONST[1][ADDR[0].x-3]\n"
             "  3: UIF TEMP[4].xxxx :7\n"
             "  4:   BGNLOOP :6\n"
             "  5:     BRK\n"
             "  6:   ENDLOOP :4\n"
             "  7: ELSE :9\n"
             "  8:   TXF OUT[0], TEMP[4], SAMP[0], 2D_ARRAY, IMM[1].xyy\n"
             "  9: ENDIF\n"
             " 10: END\n");
   ASSERT_TRUE(again);
   EXPECT_EQ(test::shader_diff(s, *again), "");
}

TEST(TgsiRoundTrip, HandWrittenTextPrintsBack)
{
   expect_same_text("GEOM\n"
                    "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n"
                    "PROPERTY NEXT_SHADER FRAG\n"
                    "DCL IN[][0], POSITION\n"
                    "DCL IN[][1..2], GENERIC[0]\n"
                    "DCL OUT[0], POSITION\n"
                    "DCL OUT[1], VIEWPORT_INDEX\n"
                    "DCL SV[0], PRIMID\n"
                    "DCL TEMP[0..7], ARRAY(3)\n"
                    "DCL TEMP[8], LOCAL\n"
                    "DCL ADDR[0]\n"
                    "IMM[0] FLT32 {1000000015047466219876688855040.0000,     0.0000, -1.00000001e-10,    -0.0000}\n"
                    "  0: MOV TEMP[ADDR[0].x+2](3), IN[2][1].wzyx\n"
                    "  1: MOV OUT[0], TEMP[ADDR[0].y-1](3)\n"
                    "  2: MOV OUT[1].x, SV[0].xxxx\n"
                    "  3: END\n");
}

/* Random valid shaders: every operand form the printer can produce, so
 * print and parse are each other's inverse over the whole IR. */
class Generator {
 public:
   explicit Generator(uint32_t seed) : rng_(seed) {}

   Shader make()
   {
      Shader s;
      s.processor = pick<Processor>({Processor::Vertex, Processor::Fragment, Processor::Compute});
      if (coin()) {
         PropertyDecl p;
         p.property = Property::NumClipdistEnabled;
         p.value = uniform(0, 8);
         s.properties.push_back(p);
      }
      Declaration in = decl(File::Input, 0, uniform(0, 5));
      in.usage_mask = static_cast<uint8_t>(uniform(1, 15));
      s.declarations.push_back(in);
      Declaration out = decl(File::Output, 0, uniform(0, 3));
      out.semantic = Semantic::Generic;
      out.semantic_index = uniform(0, 30);
      s.declarations.push_back(out);
      s.declarations.push_back(decl(File::Temporary, 0, 9));
      Declaration arr = decl(File::Temporary, 10, 19);
      arr.array_id = 1;
      s.declarations.push_back(arr);
      s.declarations.push_back(decl(File::Address, 0, 1));
      Declaration cb = decl(File::Constant, 0, 31);
      cb.dimension = uniform(0, 2);
      s.declarations.push_back(cb);
      s.declarations.push_back(decl(File::Sampler, 0, 1));
      num_const_buf_ = *cb.dimension;

      unsigned nimm = uniform(1, 4);
      for (unsigned i = 0; i < nimm; i++) {
         Immediate imm;
         imm.type = pick<ImmType>({ImmType::Float32, ImmType::Uint32, ImmType::Int32});
         imm.count = static_cast<uint8_t>(uniform(1, 4));
         for (unsigned k = 0; k < imm.count; k++)
            imm.value[k] = random_bits(imm.type);
         s.immediates.push_back(imm);
      }
      num_imm_ = nimm;

      int depth = 0;
      unsigned n = uniform(0, 40);
      for (unsigned k = 0; k < n; k++) {
         unsigned r = uniform(0, 9);
         if (r == 0) {
            Instruction i = inst(coin() ? Opcode::IF : Opcode::UIF, {}, {random_src()});
            if (coin())
               i.label = uniform(0, 1000);
            s.instructions.push_back(i);
            depth++;
         } else if (r == 1 && depth > 0) {
            s.instructions.push_back(inst(Opcode::ENDIF, {}, {}));
            depth--;
         } else if (r == 2) {
            Instruction i = inst(Opcode::TEX, {random_dst()}, {random_src(), src(File::Sampler, uniform(0, 1))});
            i.tex_target = pick<TextureTarget>({TextureTarget::Tex2D, TextureTarget::Shadow2D,
                                                TextureTarget::Cube, TextureTarget::Array2D});
            s.instructions.push_back(i);
         } else {
            static const Opcode ops[] = {Opcode::MOV, Opcode::ADD, Opcode::MAD, Opcode::DP4,
                                         Opcode::UCMP, Opcode::FSLT, Opcode::RCP};
            Opcode op = ops[uniform(0, std::size(ops) - 1)];
            Instruction i;
            i.opcode = op;
            i.dst.push_back(random_dst());
            for (unsigned a = 0; a < i.info().num_src; a++)
               i.src.push_back(random_src());
            i.saturate = uniform(0, 4) == 0;
            i.precise = uniform(0, 6) == 0;
            s.instructions.push_back(i);
         }
      }
      while (depth-- > 0)
         s.instructions.push_back(inst(Opcode::ENDIF, {}, {}));
      s.instructions.push_back(inst(Opcode::END, {}, {}));
      return s;
   }

 private:
   unsigned uniform(unsigned lo, unsigned hi)
   {
      return std::uniform_int_distribution<unsigned>(lo, hi)(rng_);
   }
   bool coin() { return uniform(0, 1) == 1; }
   template <typename T> T pick(std::initializer_list<T> list)
   {
      return *(list.begin() + uniform(0, static_cast<unsigned>(list.size()) - 1));
   }

   uint32_t random_bits(ImmType type)
   {
      if (type != ImmType::Float32 || coin())
         return static_cast<uint32_t>(rng_());
      /* Mostly "nice" floats, the ones tgsi_dump's %10.4f reproduces. */
      return f2u(static_cast<float>(static_cast<int>(uniform(0, 80000)) - 40000) / 16.0f);
   }

   IndirectRef random_indirect(uint16_t array_id)
   {
      return IndirectRef{File::Address, static_cast<int32_t>(uniform(0, 1)),
                         static_cast<uint8_t>(uniform(0, 3)), array_id};
   }

   DstOperand random_dst()
   {
      DstOperand d;
      d.write_mask = static_cast<uint8_t>(uniform(1, 15));
      switch (uniform(0, 3)) {
      case 0: d.file = File::Output; d.index.value = 0; break;
      case 1:
         d.file = File::Temporary;
         d.index.value = static_cast<int32_t>(uniform(10, 19)) - 10;
         d.index.indirect = random_indirect(1);
         d.array_id = 1;
         d.index.value += 10;
         break;
      default: d.file = File::Temporary; d.index.value = uniform(0, 9); break;
      }
      return d;
   }

   SrcOperand random_src()
   {
      SrcOperand s;
      for (auto &c : s.swizzle)
         c = static_cast<uint8_t>(uniform(0, 3));
      s.negate = coin();
      s.absolute = uniform(0, 3) == 0;
      switch (uniform(0, 5)) {
      case 0: s.file = File::Input; s.index.value = 0; break;
      case 1: s.file = File::Immediate; s.index.value = uniform(0, num_imm_ - 1); break;
      case 2:
         s.file = File::Constant;
         s.index.value = uniform(0, 31);
         s.dimension = RegIndex{static_cast<int32_t>(num_const_buf_), std::nullopt};
         if (coin()) {
            s.index.indirect = random_indirect(0);
            s.index.value = static_cast<int32_t>(uniform(0, 10)) - 5;
         }
         break;
      case 3:
         s.file = File::Temporary;
         s.index.value = 10 + uniform(0, 9);
         s.index.indirect = random_indirect(1);
         s.array_id = 1;
         break;
      default: s.file = File::Temporary; s.index.value = uniform(0, 9); break;
      }
      return s;
   }

   std::mt19937 rng_;
   unsigned num_imm_ = 1;
   unsigned num_const_buf_ = 0;
};

TEST(TgsiRoundTrip, RandomShadersSurvivePrintAndParse)
{
   for (uint32_t seed = 1; seed <= 2000; seed++) {
      Generator gen(seed);
      Shader s = gen.make();
      std::string text;
      auto again = reparse(s, &text);
      ASSERT_TRUE(again) << "seed " << seed;
      ASSERT_EQ(test::shader_diff(s, *again), "") << "seed " << seed << "\n" << text;
      /* And printing is stable: text -> IR -> text is the identity. */
      ASSERT_EQ(print_tgsi(*again), text) << "seed " << seed;
   }
}

TEST(TgsiRoundTrip, AwkwardFloatBitsAreExact)
{
   const uint32_t bits[] = {
      0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu,
      0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fa00001u,
      0x3dcccccdu, 0x3e9e0652u, 0x4b800001u, 0x501502f9u, 0xc2f6e979u, 0x38d1b717u,
   };
   Shader s;
   for (size_t i = 0; i < std::size(bits); i += 4) {
      Immediate imm;
      imm.count = static_cast<uint8_t>(std::min<size_t>(4, std::size(bits) - i));
      for (unsigned k = 0; k < imm.count; k++)
         imm.value[k] = bits[i + k];
      s.immediates.push_back(imm);
   }
   s.instructions.push_back(inst(Opcode::END, {}, {}));
   std::string text;
   auto again = reparse(s, &text);
   ASSERT_TRUE(again);
   EXPECT_EQ(test::shader_diff(s, *again), "") << text;
}

} // namespace
