/* The public C API (include/sbcc/sbcc.h) over the target registry. */
#include "sbcc/sbcc.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "driver/target.h"
#include "common/thread_memory.h"

struct sbcc_compiler {
   std::unique_ptr<sbcc::Target> target;
   sbcc::CompileOptions options;
};

namespace {

char *dup_string(const std::string &s)
{
   char *p = static_cast<char *>(std::malloc(s.size() + 1));
   if (p)
      std::memcpy(p, s.c_str(), s.size() + 1);
   return p;
}

} // namespace

extern "C" sbcc_compiler *sbcc_compiler_create(const char *target, const char *chip)
{
   if (!target)
      return nullptr;
   sbcc::Diagnostics diags;
   auto t = sbcc::make_target(target, diags);
   if (!t)
      return nullptr;
   auto *c = new (std::nothrow) sbcc_compiler;
   if (!c)
      return nullptr;
   c->target = std::move(t);
   c->options.target = target;
   c->options.chip = chip ? chip : "";
   sbcc::Diagnostics env_diags; /* unknown switches are warnings only */
   c->options.debug = sbcc::DebugOptions::from_environment(env_diags);
   return c;
}

extern "C" void sbcc_compiler_destroy(sbcc_compiler *compiler)
{
   delete compiler;
}

extern "C" int sbcc_compile_tgsi(sbcc_compiler *compiler, const char *text, size_t len,
                                 unsigned char **out_binary, size_t *out_size,
                                 char **out_stats_text, char **out_error_text)
{
   if (out_binary)
      *out_binary = nullptr;
   if (out_size)
      *out_size = 0;
   if (out_stats_text)
      *out_stats_text = nullptr;
   if (out_error_text)
      *out_error_text = nullptr;
   if (!compiler || (!text && len)) {
      if (out_error_text)
         *out_error_text = dup_string("error: invalid arguments\n");
      return -1;
   }
   sbcc::Diagnostics diags;
   std::string_view src(text ? text : "", len);
   auto shader = sbcc::tgsi::parse_tgsi(src, "<input>", diags);
   std::unique_ptr<sbcc::Executable> exe;
   sbcc::ShaderStats stats;
   if (shader)
      exe = compiler->target->compile(*shader, compiler->options, diags, &stats);
   if (!exe) {
      if (out_error_text)
         *out_error_text = dup_string(diags.str());
      return -1;
   }
   if (out_stats_text)
      *out_stats_text = dup_string(stats.str());
   std::vector<uint8_t> bin = compiler->target->binary(*exe);
   if (!bin.empty() && out_binary) {
      *out_binary = static_cast<unsigned char *>(std::malloc(bin.size()));
      if (*out_binary) {
         std::memcpy(*out_binary, bin.data(), bin.size());
         if (out_size)
            *out_size = bin.size();
      }
   }
   return 0;
}

extern "C" void sbcc_free(void *ptr)
{
   std::free(ptr);
}

extern "C" void sbcc_release_thread_memory(void)
{
   sbcc::release_thread_memory();
}

extern "C" char *sbcc_target_names(void)
{
   std::string s;
   for (const auto &n : sbcc::target_names())
      s += (s.empty() ? "" : ",") + n;
   return dup_string(s);
}
