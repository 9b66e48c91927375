/*
 * Seeded generator of well-formed TGSI programs for the randomized
 * differential tests (tests/r600_backend/test_r600_backend_random.cpp for the
 * plain r600 backend, tests/sb/test_sb_differential.cpp for sb).  One seed
 * always gives the same program, so a failing seed printed by either test
 * can be replayed.  Programs mix float and integer ALU, IF/ELSE, counted
 * loops with BRK/CONT, indirect TEMP arrays through ARL/UARL, indirect
 * constants, 2D textures (TEX/TXP/TXB/TXL) and, in fragment shaders,
 * KILL_IF.  Every loop is counted (at most 3 trips), so no program may hit
 * an emulator budget.
 *
 * Header only: the tests are separate executables in different suites.
 */
#pragma once

#include <cstdint>
#include <string>

namespace sbcc::test {

class Rng {
 public:
   explicit Rng(uint32_t seed) : s_(seed * 2654435761u + 0x9e3779b9u) {}
   uint32_t next()
   {
      s_ ^= s_ << 13;
      s_ ^= s_ >> 17;
      s_ ^= s_ << 5;
      return s_;
   }
   uint32_t range(uint32_t n) { return n ? next() % n : 0; }
   bool coin() { return next() & 1; }

 private:
   uint32_t s_;
};

constexpr int kTemps = 6;   /* TEMP[0..5] plain */
constexpr int kArray = 4;   /* TEMP[6..9] ARRAY(1) */
constexpr int kInputs = 3;
constexpr int kConsts = 20;

struct RandomTgsiGen {
   Rng r;
   bool frag;
   std::string body;
   int depth = 0;
   int loops = 0;
   int loop_counter = 0;
   bool killed = false; /* after a kill, quads are partial: explicit LOD only */

   bool division = true; /* Cayman has no RECIP_UINT */

   RandomTgsiGen(uint32_t seed, bool div) : r(seed), frag(r.coin()), division(div) {}

   std::string swz()
   {
      static const char c[] = "xyzw";
      std::string s = ".";
      for (int i = 0; i < 4; i++)
         s += c[r.range(4)];
      return s;
   }
   std::string mask()
   {
      static const char *m[] = {".x", ".y", ".xy", ".xyz", ".xyzw", ".zw", ".w", ".xw", ""};
      return m[r.range(9)];
   }
   std::string fsrc()
   {
      std::string s;
      uint32_t k = r.range(10);
      if (k < 4)
         s = "TEMP[" + std::to_string(r.range(kTemps)) + "]";
      else if (k < 6)
         s = "IN[" + std::to_string(r.range(kInputs)) + "]";
      else if (k < 8)
         s = "CONST[0][" + std::to_string(r.range(kConsts)) + "]";
      else
         s = "IMM[" + std::to_string(r.range(2)) + "]";
      s += swz();
      uint32_t m = r.range(8);
      if (m == 0)
         s = "-" + s;
      else if (m == 1)
         s = "|" + s + "|";
      return s;
   }
   std::string fdst() { return "TEMP[" + std::to_string(r.range(kTemps)) + "]" + mask(); }

   void line(const std::string &s) { body += "  " + s + "\n"; }

   void alu()
   {
      static const char *op2[] = {"ADD", "MUL", "MIN", "MAX", "SLT", "SGE", "SEQ", "SNE",
                                  "DP2", "DP3", "DP4", "DPH", "SGT", "SLE", "DST"};
      static const char *op1[] = {"MOV", "FRC", "FLR", "CEIL", "TRUNC", "ROUND", "ABS",
                                  "RCP", "EX2", "SSG", "EXP"};
      static const char *op3[] = {"MAD", "CMP", "LRP"};
      std::string sat = r.range(6) == 0 ? "_SAT" : "";
      uint32_t k = r.range(10);
      if (k < 5)
         line(std::string(op2[r.range(15)]) + sat + " " + fdst() + ", " + fsrc() + ", " + fsrc());
      else if (k < 7)
         line(std::string(op1[r.range(11)]) + sat + " " + fdst() + ", " + fsrc());
      else if (k < 8)
         /* Range reduction of huge angles legitimately differs: inputs only. */
         line(std::string(r.coin() ? "SIN" : "COS") + sat + " " + fdst() + ", IN[" +
              std::to_string(r.range(kInputs)) + "]" + swz());
      else
         line(std::string(op3[r.range(3)]) + sat + " " + fdst() + ", " + fsrc() + ", " + fsrc() +
              ", " + fsrc());
   }

   void integer()
   {
      /* Integers derived from floats, combined, converted back. */
      static const char *op[] = {"UADD", "AND", "OR", "XOR", "IMAX", "IMIN", "UMIN",
                                 "ISLT", "USGE", "USEQ", "UMUL", "SHL", "USHR",
                                 "UDIV", "UMOD", "IDIV", "MOD"};
      /* TEMP[13] holds the integers; float instructions never read it
       * (integer bits as floats are denormals and NaNs, where hardware and
       * reference legitimately differ). */
      std::string T = "TEMP[13]";
      line("F2I " + T + ", " + fsrc());
      static const char *un[] = {"BREV", "POPC", "LSB", "UMSB", "IMSB", "INEG", "IABS", "ISSG"};
      uint32_t form = r.range(6);
      if (form == 0)
         line(std::string(un[r.range(8)]) + " " + T + mask() + ", " + T + swz());
      else if (form == 1)
         line(std::string(r.coin() ? "UBFE " : "IBFE ") + T + mask() + ", " + T + swz() + ", " +
              T + swz() + ", " + T + swz());
      else if (form == 2)
         line("BFI " + T + mask() + ", " + T + swz() + ", " + T + swz() + ", " + T + swz() + ", " +
              T + swz());
      else
         line(std::string(op[r.range(division ? 17 : 13)]) + " " + T + mask() + ", " + T + swz() +
              ", " + T + swz());
      line("I2F " + fdst() + ", " + T + swz());
   }

   void indirect()
   {
      /* Index in [0, 3]: clamp a float, then ARL (floor). */
      std::string t = "TEMP[" + std::to_string(r.range(kTemps)) + "]";
      line("MAX " + t + ".x, " + fsrc() + ", IMM[1].yyyy");
      line("MIN " + t + ".x, " + t + ".xxxx, IMM[1].zzzz");
      line("ARL ADDR[0].x, " + t + ".xxxx");
      if (r.coin())
         line("MOV TEMP[ADDR[0].x+6]" + mask() + ", " + fsrc());
      else
         line("ADD " + fdst() + ", TEMP[ADDR[0].x+6]" + swz() + ", " + fsrc());
      if (r.range(3) == 0)
         line("ADD " + fdst() + ", CONST[0][ADDR[0].x+" + std::to_string(r.range(kConsts - 4)) +
              "]" + swz() + ", " + fsrc());
   }

   void tex()
   {
      static const char *op[] = {"TEX", "TXP", "TXB", "TXL"};
      /* Implicit derivatives are undefined in divergent control flow:
       * only explicit LOD inside IF and loops. */
      const char *o = op[frag && depth == 0 && !killed ? r.range(4) : 3];
      std::string c = "TEMP[" + std::to_string(r.range(kTemps)) + "]";
      line(std::string("MOV ") + c + ", " + fsrc());
      /* TXP divides by w: keep it away from 0 (RECIP+MUL vs a true divide
       * must not decide which texel wraps in). */
      if (std::string(o) == "TXP")
         line("ADD " + c + ".w, |" + c + ".wwww|, IMM[1].xxxx");
      line(std::string(o) + " " + fdst() + ", " + c + ", SAMP[0], 2D");
   }

   void block(int n)
   {
      for (int i = 0; i < n; i++) {
         uint32_t k = r.range(20);
         if (k < 9)
            alu();
         else if (k < 11)
            integer();
         else if (k < 13)
            indirect();
         else if (k < 15)
            tex();
         else if (k < 17 && depth < 3) {
            depth++;
            line("IF " + fsrc().substr(0, 0) + "TEMP[" + std::to_string(r.range(kTemps)) +
                 "].xxxx");
            block(int(r.range(3)) + 1);
            if (r.coin()) {
               line("ELSE");
               block(int(r.range(3)) + 1);
            }
            line("ENDIF");
            depth--;
         } else if (k < 19 && depth < 3 && loops < 2) {
            /* A counted loop: TEMP[10].x counts, the exit is a BRK under IF. */
            depth++;
            loops++;
            std::string cnt = "TEMP[" + std::to_string(10 + loop_counter++) + "].x";
            line("MOV " + cnt + ", IMM[1].yyyy");
            line("BGNLOOP");
            line("ADD " + cnt + ", " + cnt + ", IMM[1].wwww");
            line("SGE TEMP[12].x, " + cnt + ", IMM[1].zzzz");
            line("IF TEMP[12].xxxx");
            line("BRK");
            line("ENDIF");
            block(int(r.range(3)) + 1);
            if (r.range(3) == 0) {
               line("IF TEMP[" + std::to_string(r.range(kTemps)) + "].yyyy");
               line("CONT");
               line("ENDIF");
            }
            alu();
            line("ENDLOOP");
            depth--;
         } else if (frag && r.range(4) == 0) {
            line("KILL_IF " + fsrc());
            killed = true;
         } else {
            alu();
         }
      }
   }

   std::string program()
   {
      std::string s = frag ? "FRAG\n" : "VERT\n";
      for (int i = 0; i < kInputs; i++)
         s += "DCL IN[" + std::to_string(i) + "]" +
              (frag ? ", GENERIC[" + std::to_string(i) + "], PERSPECTIVE\n"
                    : "\n");
      s += frag ? "DCL OUT[0], COLOR\n" : "DCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n";
      s += "DCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n";
      s += "DCL CONST[0][0.." + std::to_string(kConsts - 1) + "]\n";
      s += "DCL TEMP[0.." + std::to_string(kTemps - 1) + "]\n";
      s += "DCL TEMP[6..9], ARRAY(1)\n";
      s += "DCL TEMP[10..13]\n";
      s += "DCL ADDR[0]\n";
      s += "IMM[0] FLT32 {0.5, 1.5, -2.0, 3.25}\n";
      s += "IMM[1] FLT32 {1.0, 0.0, 3.0, 1.0}\n";
      for (int t = 0; t < kTemps; t++)
         body += "  MOV TEMP[" + std::to_string(t) + "], IN[" + std::to_string(t % kInputs) +
                 "]\n";
      for (int t = 6; t < 6 + kArray; t++)
         body += "  MOV TEMP[" + std::to_string(t) + "], CONST[0][" + std::to_string(t) + "]\n";
      block(int(r.range(8)) + 3);
      line("MOV OUT[0], TEMP[" + std::to_string(r.range(kTemps)) + "]");
      if (!frag)
         line("ADD OUT[1], TEMP[" + std::to_string(r.range(kTemps)) + "], TEMP[7]");
      line("END");
      return s + body;
   }
};

/* The program for one seed; `division` off leaves out UDIV/UMOD/IDIV/MOD
 * (Cayman has no RECIP_UINT). */
inline std::string random_tgsi_program(uint32_t seed, bool division = true)
{
   return RandomTgsiGen(seed, division).program();
}

} // namespace sbcc::test
