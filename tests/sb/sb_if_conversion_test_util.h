/*
 * Helpers shared by the if_conversion tests (test_sb_if_conversion.cpp and
 * test_sb_if_conversion_pipeline.cpp).
 */
#pragma once

#include <cstddef>
#include <string>

namespace sbcc::r600::sb::test {

/* How many times `what` occurs in `text`. */
inline unsigned count_lines(const std::string &text, const std::string &what)
{
   unsigned n = 0;
   for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
      n++;
   return n;
}

} // namespace sbcc::r600::sb::test
