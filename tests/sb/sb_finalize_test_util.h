/*
 * Helpers shared by the bc_finalize tests (test_sb_finalize.cpp,
 * test_sb_finalize_exports_fetches.cpp, test_sb_finalize_roundtrip.cpp):
 * the region_parse -> ssa -> identity allocation -> bc_finalize chain, a
 * one-line-per-CF listing of a program, and the input lanes the hand-built
 * programs run on in the emulator.
 */
#pragma once

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "r600/r600_target.h"
#include "r600/sb/sb_ra.h"
#include "r600/sb/sb_region_passes.h"
#include "sb/sb_test_util.h"

namespace sbcc::r600::sb::test {

inline constexpr ChipClass kEg = ChipClass::Evergreen;

/* region_parse -> ssa_prepare -> ssa_rename -> identity_allocation ->
 * bc_finalize.  `refused` gets the parser's diagnostic when it refuses.
 * SBCC_FINALIZE_RA=1 puts dce_cleanup and the real register allocation
 * (sb_ra.h) in place of the identity one: an integration check of the
 * allocator's output against bc_finalize's contract, off by default so this
 * test judges bc_finalize alone. */
inline std::optional<Program> finalize(const Program &p, const ShaderInfo &info,
                                       std::string *refused, std::string *error)
{
   using namespace sbcc::r600::sb::region;
   Diagnostics d;
   RegionParseOptions o;
   o.arrays = infer_rel_arrays(p);
   o.fetch_shader_call = true;
   auto sh = region_parse(p, o, d);
   if (!sh) {
      if (refused)
         *refused = d.str();
      return std::nullopt;
   }
   ssa_prepare(*sh);
   ssa_rename(*sh);
   Allocation a = identity_allocation(*sh);
   if (std::getenv("SBCC_FINALIZE_RA")) {
      if (!dce_cleanup(*sh, d) || !register_allocation(*sh, info, a, d)) {
         if (refused)
            *refused = "RA: " + d.str();
         return std::nullopt;
      }
   }
   Program out;
   if (!bc_finalize(*sh, a, info, out, d)) {
      if (error)
         *error = d.str();
      return std::nullopt;
   }
   return out;
}

/* One line per CF: index, op, clause size, target and pop count, export. */
inline std::string listing(const Program &p)
{
   std::string s;
   for (size_t i = 0; i < p.cf.size(); i++) {
      const CfInstr &cf = p.cf[i];
      s += std::to_string(i) + " " + std::string(cf_op_name(cf.op));
      const auto &info = cf_op_info(cf.op);
      if (info.enc == CfEncoding::Alu)
         s += " groups=" + std::to_string(cf.groups.size());
      if (info.flags & CF_FETCH)
         s += " fetches=" + std::to_string(cf.fetches.size());
      if (info.flags & CF_TARGET)
         s += " @" + std::to_string(cf.target);
      if (cf.pop_count)
         s += " pop=" + std::to_string(cf.pop_count);
      if (info.enc == CfEncoding::Export) {
         s += " R" + std::to_string(cf.exp.gpr) + ".";
         for (uint8_t c : cf.exp.swizzle)
            s += "xyzw01?_"[c & 7];
      }
      if (cf.end_of_program)
         s += " EOP";
      s += "\n";
   }
   return s;
}

inline Vec4 fvec(float x, float y)
{
   return Vec4{std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y), 0, 0};
}

inline std::vector<Vec4> lanes()
{
   return {fvec(1, 1), fvec(1, -1), fvec(-1, 1), fvec(-1, -1), fvec(0, 2), fvec(3, 0.5f)};
}

} // namespace sbcc::r600::sb::test
