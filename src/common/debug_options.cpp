#include "common/debug_options.h"

#include <charconv>
#include <cstdlib>

namespace sbcc {

template <typename Fn> static void for_each_name(std::string_view list, Fn &&fn)
{
   while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view name = list.substr(0, comma);
      while (!name.empty() && name.front() == ' ')
         name.remove_prefix(1);
      while (!name.empty() && name.back() == ' ')
         name.remove_suffix(1);
      if (!name.empty())
         fn(name);
      if (comma == std::string_view::npos)
         break;
      list.remove_prefix(comma + 1);
   }
}

void DebugOptions::apply_r600_debug(std::string_view list, Diagnostics &diags)
{
   for_each_name(list, [&](std::string_view name) {
      if (name == "sb")
         sb = true;
      else if (name == "nosb")
         sb = false;
      else if (name == "sbcl")
         sb_cl = true;
      else if (name == "sbdry")
         sb_dry = true;
      else if (name == "sbstat")
         sb_stat = true;
      else if (name == "sbdump")
         sb_dump = true;
      else
         diags.warning("R600_DEBUG", {}, "unknown option '" + std::string(name) + "' ignored");
   });
}

void DebugOptions::apply_sbcc_debug(std::string_view list, Diagnostics &diags)
{
   for_each_name(list, [&](std::string_view name) {
      if (name == "nomerge")
         merge_temps = false;
      else if (name == "merge")
         merge_temps = true;
      else if (name == "nossa")
         sb_ssa = false;
      else if (name == "ssa")
         sb_ssa = true;
      else
         diags.warning("SBCC_DEBUG", {}, "unknown option '" + std::string(name) + "' ignored");
   });
}

static bool read_uint(const char *var, uint32_t &out, Diagnostics &diags)
{
   const char *s = std::getenv(var);
   if (!s || !*s)
      return false;
   std::string_view sv(s);
   uint32_t v = 0;
   auto [ptr, ec] = std::from_chars(sv.data(), sv.data() + sv.size(), v);
   if (ec != std::errc() || ptr != sv.data() + sv.size()) {
      diags.warning(var, {}, "expected an unsigned number, got '" + std::string(sv) + "'");
      return false;
   }
   out = v;
   return true;
}

DebugOptions DebugOptions::from_environment(Diagnostics &diags)
{
   DebugOptions o;
   if (const char *s = std::getenv("R600_DEBUG"))
      o.apply_r600_debug(s, diags);
   if (const char *s = std::getenv("SBCC_DEBUG"))
      o.apply_sbcc_debug(s, diags);
   uint32_t mode = 0;
   if (read_uint("R600_SB_DSKIP_MODE", mode, diags)) {
      if (mode > 2)
         diags.warning("R600_SB_DSKIP_MODE", {}, "must be 0, 1 or 2; ignored");
      else
         o.sb_dskip_mode = static_cast<int>(mode);
   }
   read_uint("R600_SB_DSKIP_START", o.sb_dskip_start, diags);
   read_uint("R600_SB_DSKIP_END", o.sb_dskip_end, diags);
   return o;
}

bool DebugOptions::sb_should_optimize(uint32_t seq) const
{
   bool in_range = seq >= sb_dskip_start && seq <= sb_dskip_end;
   switch (sb_dskip_mode) {
   case 1: return !in_range;
   case 2: return in_range;
   default: return true;
   }
}

} // namespace sbcc
