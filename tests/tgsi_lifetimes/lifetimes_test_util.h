/*
 * Helpers shared by the lifetime and merging tests.
 */
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tgsi/tgsi_ir.h"
#include "tgsi/tgsi_lifetimes.h"

namespace sbcc::tgsi::test {

inline Shader parse_or_fail(const std::string &text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "t.tgsi", diags);
   EXPECT_TRUE(s.has_value()) << diags.str() << "\n" << text;
   return s ? std::move(*s) : Shader{};
}

/* (begin, end) per TEMP; an unused temporary is written as (-2, -2). */
using Ranges = std::vector<std::pair<int, int>>;
constexpr std::pair<int, int> kUnused = {-2, -2};

inline Ranges ranges_of(const std::vector<Lifetime> &lts)
{
   Ranges r;
   for (const Lifetime &l : lts)
      r.push_back(l.unused ? kUnused : std::make_pair(l.begin, l.end));
   return r;
}

inline Ranges lifetimes_of(const std::string &text)
{
   Shader s = parse_or_fail(text);
   Diagnostics diags;
   auto lt = compute_temp_lifetimes(s, diags);
   EXPECT_TRUE(lt.has_value()) << diags.str();
   EXPECT_EQ(diags.str(), "");
   return lt ? ranges_of(lt->temps) : Ranges{};
}

} // namespace sbcc::tgsi::test
