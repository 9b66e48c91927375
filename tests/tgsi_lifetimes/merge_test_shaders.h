/*
 * Generated TGSI programs for the merging tests: a long loop with a fixed
 * live window, and random structured programs (IF/ELSE, nested counted
 * loops, BRK/CONT, partial write masks, reads of never-written channels)
 * that exercise every lifetime rule at once.
 */
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sbcc::tgsi::test {

/* TEMP[0] accumulates across 3 iterations of one loop, TEMP[1] counts them,
 * and TEMP[2..n-1] are computed once per iteration, each read by the next
 * one and by the one `window` places later, so about `window` of them are
 * live at any point.  Every 16th is computed and consumed inside an IF.
 * Declares TEMP[0..n]; TEMP[n] is the exit condition. */
inline std::string make_loop_shader(int n, uint32_t seed, int window)
{
   std::mt19937 rng(seed);
   auto t = [](int i) { return "TEMP[" + std::to_string(i) + "]"; };
   std::string s = "VERT\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0.." + std::to_string(n) +
                   "]\n"
                   "IMM[0] FLT32 {    0.5000,     0.2500,     1.0000,     3.0000}\n"
                   "IMM[1] FLT32 {    0.0000,     0.0000,     0.0000,     0.0000}\n"
                   "MOV TEMP[0], IN[0]\n"
                   "MOV TEMP[1], IMM[1]\n"
                   "BGNLOOP\n";
   std::vector<int> top = {0};
   for (int k = 2; k < n; k++) {
      const int a = top.back();
      const int b = top.size() > static_cast<size_t>(window) ? top[top.size() - window] : 0;
      if (k % 16 == 0) {
         s += "IF " + t(a) + ".xxxx\n";
         s += "  MUL " + t(k) + ", " + t(a) + ", " + t(b) + "\n";
         s += "  MAD TEMP[0], " + t(k) + ", IMM[0].yyyy, TEMP[0]\n";
         s += "ENDIF\n";
         continue;
      }
      switch (rng() % 6) {
      case 0: s += "ADD " + t(k) + ", " + t(a) + ", " + t(b) + "\n"; break;
      case 1: s += "MAD " + t(k) + ", " + t(a) + ", IMM[0].xxxx, " + t(b) + "\n"; break;
      case 2: s += "MIN " + t(k) + ", " + t(a) + ".yzwx, " + t(b) + "\n"; break;
      case 3: s += "MAX " + t(k) + ", " + t(a) + ", -" + t(b) + ".wzyx\n"; break;
      case 4:
         /* Two partial writes that together define the whole register. */
         s += "MUL " + t(k) + ".xy, " + t(a) + ", IMM[0].xyxy\n";
         s += "ADD " + t(k) + ".zw, " + t(b) + ", IN[1]\n";
         break;
      default: s += "LRP " + t(k) + ", IMM[0].yyyy, " + t(a) + ", " + t(b) + "\n"; break;
      }
      top.push_back(k);
   }
   s += "ADD TEMP[0], TEMP[0], " + t(top.back()) + "\n";
   s += "ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].zzzz\n";
   s += "SGE " + t(n) + ".x, TEMP[1].xxxx, IMM[0].wwww\n";
   s += "IF " + t(n) + ".xxxx\n  BRK\nENDIF\nENDLOOP\n";
   s += "MOV OUT[0], TEMP[0]\n";
   s += "MOV OUT[1], " + t(top.back()) + "\n";
   s += "END\n";
   return s;
}

/* A random structured program over `pool` temporaries (plus three loop
 * bookkeeping ones).  Fragment programs also take derivatives and sample a
 * 2D texture, inside branches too. */
class RandomShader {
 public:
   RandomShader(uint32_t seed, int pool, int statements, bool fragment)
      : rng_(seed), pool_(pool), fragment_(fragment)
   {
      counter_[0] = pool;
      counter_[1] = pool + 1;
      cond_ = pool + 2;
      for (int i = 0; i < statements; i++)
         statement(0, 0);
   }

   std::string text() const
   {
      std::string s = fragment_ ? "FRAG\nDCL IN[0..1], GENERIC[0], PERSPECTIVE\n"
                                  "DCL OUT[0..5], GENERIC[0]\nDCL SAMP[0]\n"
                                  "DCL SVIEW[0], 2D, FLOAT\n"
                                : "VERT\nDCL IN[0..1]\nDCL OUT[0..5]\n";
      s += "DCL TEMP[0.." + std::to_string(pool_ + 2) + "]\n";
      s += "IMM[0] FLT32 {    0.5000,    -0.2500,     1.0000,     3.0000}\n"
           "IMM[1] FLT32 {    0.0000,     2.0000,     0.7500,    -1.5000}\n";
      s += body_;
      /* Outputs read temporaries that may or may not have been written. */
      std::mt19937 rng(pool_ * 7919u + static_cast<uint32_t>(body_.size()));
      for (int o = 0; o < 6; o++)
         s += "MOV OUT[" + std::to_string(o) + "], " + temp(static_cast<int>(rng() % pool_)) +
              "\n";
      s += "END\n";
      return s;
   }

 private:
   int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
   static std::string temp(int i) { return "TEMP[" + std::to_string(i) + "]"; }

   std::string swizzle()
   {
      static const char *kSwizzles[] = {"", ".xxxx", ".yzwx", ".wzyx", ".xyxy", ".zzzz", ".wwww"};
      return kSwizzles[pick(7)];
   }

   /* Mostly values written just before, so most temporaries are short
    * lived and merging has something to do; sometimes any temporary, which
    * may never have been written. */
   int some_temp()
   {
      if (!recent_.empty() && pick(20) < 19)
         return recent_[pick(static_cast<int>(recent_.size()))];
      return pick(pool_);
   }

   std::string source()
   {
      int r = pick(8);
      std::string s = pick(6) == 0 ? "-" : "";
      if (r < 5)
         s += temp(some_temp());
      else
         s += (r < 7 ? "IN[" : "IMM[") + std::to_string(pick(2)) + "]";
      s += swizzle();
      return s;
   }

   std::string dst()
   {
      static const char *kMasks[] = {"", "", "", "", "", "", ".x", ".xy", ".zw", ".yzw"};
      const int t = pick(pool_);
      recent_.push_back(t);
      if (recent_.size() > 6)
         recent_.erase(recent_.begin());
      return temp(t) + kMasks[pick(10)];
   }

   void alu()
   {
      static const struct {
         const char *name;
         int srcs;
      } kOps[] = {{"MOV", 1}, {"ADD", 2}, {"MUL", 2}, {"MAD", 3}, {"MIN", 2}, {"MAX", 2},
                  {"DP3", 2}, {"FRC", 1}, {"SLT", 2}, {"CMP", 3}, {"SGE", 2}, {"LRP", 3},
                  {"RCP", 1}, {"DP4", 2}};
      const auto &op = kOps[pick(static_cast<int>(std::size(kOps)))];
      std::string s = std::string(op.name) + " ";
      s += dst();
      for (int i = 0; i < op.srcs; i++)
         s += ", " + source();
      body_ += s + "\n";
   }

   /* Each call to the generator is its own statement: the order in which
    * operands of one expression are evaluated is unspecified. */
   void fragment_op()
   {
      const bool derivative = pick(2) == 0;
      /* Often on a value computed just before, possibly in a branch some
       * lanes of the quad skipped. */
      int operand;
      if (pick(2)) {
         operand = pick(pool_);
         std::string def = "MOV " + temp(operand);
         def += ", " + source();
         body_ += def + "\n";
      } else {
         operand = some_temp();
      }
      std::string s = derivative ? (pick(2) ? "DDX " : "DDY ") : "TEX ";
      s += dst();
      s += ", " + temp(operand) + (derivative ? "" : ", SAMP[0], 2D");
      body_ += s + "\n";
   }

   void statement(int depth, int loop_depth)
   {
      const int r = pick(100);
      if (r < 12 && depth < 3) {
         body_ += "IF " + source() + "\n";
         for (int n = 1 + pick(4); n > 0; n--)
            statement(depth + 1, loop_depth);
         if (pick(2)) {
            body_ += "ELSE\n";
            for (int n = 1 + pick(4); n > 0; n--)
               statement(depth + 1, loop_depth);
         }
         body_ += "ENDIF\n";
      } else if (r < 20 && loop_depth < 2 && depth < 3) {
         const std::string c = temp(counter_[loop_depth]);
         body_ += "MOV " + c + ".x, IMM[1].xxxx\n";
         body_ += "BGNLOOP\n";
         body_ += "ADD " + c + ".x, " + c + ".xxxx, IMM[0].zzzz\n";
         body_ += "SGE " + temp(cond_) + ".x, " + c + ".xxxx, IMM[0].wwww\n";
         body_ += "IF " + temp(cond_) + ".xxxx\nBRK\nENDIF\n";
         for (int n = 2 + pick(5); n > 0; n--)
            statement(depth + 1, loop_depth + 1);
         body_ += "ENDLOOP\n";
      } else if (r < 27 && loop_depth > 0) {
         body_ += "IF " + source() + "\n";
         if (pick(2))
            alu();
         body_ += pick(2) ? "BRK\n" : "CONT\n";
         body_ += "ENDIF\n";
      } else if (r < 33 && fragment_) {
         fragment_op();
      } else if (r < 35 && fragment_ && depth == 0) {
         body_ += "KILL_IF " + source() + "\n";
      } else {
         alu();
      }
   }

   std::mt19937 rng_;
   int pool_;
   bool fragment_;
   int counter_[2];
   int cond_;
   std::string body_;
   std::vector<int> recent_;
};

} // namespace sbcc::tgsi::test
