/*
 * Helpers shared by the r600 tests.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "r600/r600_asm.h"
#include "r600/r600_disasm.h"

namespace sbcc::r600::test {

/* Small deterministic generator (xorshift32) so failures reproduce. */
class Rng {
 public:
   explicit Rng(uint32_t seed) : s_(seed ? seed : 0x9e3779b9u) {}
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

/* Listing lines without the header, trailing blanks removed. */
inline std::vector<std::string> listing_lines(const std::string &text)
{
   std::vector<std::string> out;
   size_t pos = 0;
   bool first = true;
   while (pos < text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string::npos)
         eol = text.size();
      std::string l = text.substr(pos, eol - pos);
      pos = eol + 1;
      while (!l.empty() && l.back() == ' ')
         l.pop_back();
      if (first) {
         first = false;
         continue;
      }
      out.push_back(l);
   }
   return out;
}

} // namespace sbcc::r600::test
