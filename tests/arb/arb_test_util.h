/*
 * Helpers for the ARB front-end tests: one stable text form of a lowered
 * program (TGSI from print_tgsi plus the CONST/IN/OUT bindings), so each test
 * compares a whole expected listing.
 */
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "arb/arb_parse.h"

namespace sbcc::arb::test {

inline std::string fmt_float(float f)
{
   char buf[32];
   std::snprintf(buf, sizeof(buf), "%g", double(f));
   return buf;
}

inline std::string describe_binding(const ParamBinding &b)
{
   switch (b.kind) {
   case ParamBinding::Kind::Env: return "program.env[" + std::to_string(b.index) + "]";
   case ParamBinding::Kind::Local: return "program.local[" + std::to_string(b.index) + "]";
   case ParamBinding::Kind::State: return b.state;
   case ParamBinding::Kind::Literal:
      return "{" + fmt_float(b.value[0]) + ", " + fmt_float(b.value[1]) + ", " +
             fmt_float(b.value[2]) + ", " + fmt_float(b.value[3]) + "}";
   }
   return "?";
}

inline std::string describe(const Program &p)
{
   std::string out = tgsi::print_tgsi(p.shader);
   for (const ParamBinding &b : p.params)
      out += "CONST[" + std::to_string(b.const_index) + "] = " + describe_binding(b) + "\n";
   for (const IoBinding &b : p.inputs)
      out += "IN[" + std::to_string(b.index) + "] = " + b.name + "\n";
   for (const IoBinding &b : p.outputs)
      out += "OUT[" + std::to_string(b.index) + "] = " + b.name + "\n";
   return out;
}

/* The description of a program that must parse, or its diagnostics. */
inline std::string lower(std::string_view text)
{
   Diagnostics diags;
   auto p = parse_arb(text, "test.arb", diags);
   if (!p)
      return "FAILED:\n" + diags.str();
   return describe(*p);
}

/* The diagnostics of a program that must fail. */
inline std::string errors(std::string_view text)
{
   Diagnostics diags;
   auto p = parse_arb(text, "bad.arb", diags);
   if (p)
      return "PARSED";
   return diags.str();
}

} // namespace sbcc::arb::test
