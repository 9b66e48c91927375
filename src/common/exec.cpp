#include "common/exec.h"

namespace sbcc {

void ShaderStats::set(const std::string &name, int64_t value)
{
   for (auto &kv : values) {
      if (kv.first == name) {
         kv.second = value;
         return;
      }
   }
   values.emplace_back(name, value);
}

int64_t ShaderStats::get(const std::string &name) const
{
   for (const auto &kv : values)
      if (kv.first == name)
         return kv.second;
   return 0;
}

std::string ShaderStats::str() const
{
   std::string out;
   for (const auto &kv : values) {
      if (!out.empty())
         out += ", ";
      out += std::to_string(kv.second);
      out += ' ';
      out += kv.first;
   }
   return out;
}

} // namespace sbcc
