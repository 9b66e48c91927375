/*
 * Where the optional real-shader corpus lives: $SBCC_CORPUS if set, else
 * <source root>/../shared/corpus.  Corpus tests call corpus_dir() and skip
 * when it returns nullopt, so the suite passes on machines without it.
 */
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#ifndef SBCC_SOURCE_ROOT
#define SBCC_SOURCE_ROOT "."
#endif

namespace sbcc::test {

inline std::optional<std::filesystem::path> corpus_dir()
{
   std::filesystem::path dir;
   if (const char *env = std::getenv("SBCC_CORPUS"); env && *env)
      dir = env;
   else
      dir = std::filesystem::path(SBCC_SOURCE_ROOT) / ".." / "shared" / "corpus";
   std::error_code ec;
   if (!std::filesystem::is_directory(dir, ec))
      return std::nullopt;
   return dir;
}

/* Every regular file under dir/sub whose name ends in ext, sorted. */
inline std::vector<std::filesystem::path> corpus_files(const std::filesystem::path &dir,
                                                       const std::string &sub,
                                                       const std::string &ext)
{
   std::vector<std::filesystem::path> out;
   std::error_code ec;
   if (!std::filesystem::is_directory(dir / sub, ec))
      return out;
   for (auto it = std::filesystem::recursive_directory_iterator(dir / sub, ec);
        !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_regular_file(ec) && name.size() >= ext.size() &&
          name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
         out.push_back(it->path());
   }
   std::sort(out.begin(), out.end());
   return out;
}

} // namespace sbcc::test
