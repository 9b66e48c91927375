/*
 * .bin.hex and raw binary readers for r600 machine code.
 */
#include "r600/r600_binary.h"

#include <fstream>
#include <iterator>

namespace sbcc::r600 {

namespace {

int hex_digit(char c)
{
   if (c >= '0' && c <= '9')
      return c - '0';
   if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
   if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
   return -1;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

} // namespace

std::optional<std::vector<uint32_t>> read_bin_hex(std::string_view text, Diagnostics &diag,
                                                  std::string_view file)
{
   std::vector<uint32_t> out;
   uint32_t line = 0;
   size_t pos = 0;
   while (pos < text.size()) {
      line++;
      size_t eol = text.find('\n', pos);
      if (eol == std::string_view::npos)
         eol = text.size();
      std::string_view l = text.substr(pos, eol - pos);
      pos = eol + 1;

      size_t i = 0;
      while (i < l.size() && is_blank(l[i]))
         i++;
      if (i == l.size()) {
         diag.error(file, {line, static_cast<uint32_t>(i + 1)}, "empty line, expected a hex dword");
         return std::nullopt;
      }
      bool prefixed = i + 1 < l.size() && l[i] == '0' && (l[i + 1] == 'x' || l[i + 1] == 'X');
      if (prefixed)
         i += 2;
      size_t start = i;
      uint64_t v = 0;
      while (i < l.size() && hex_digit(l[i]) >= 0) {
         v = v << 4 | hex_digit(l[i]);
         i++;
         if (i - start > 8) {
            diag.error(file, {line, static_cast<uint32_t>(start + 1)},
                       "hex number longer than 8 digits");
            return std::nullopt;
         }
      }
      if (i == start) {
         if (i == l.size() || is_blank(l[i]))
            diag.error(file, {line, static_cast<uint32_t>(i + 1)}, "expected hex digits after 0x");
         else
            diag.error(file, {line, static_cast<uint32_t>(i + 1)},
                       "expected a hex dword, found '" + std::string(1, l[i]) + "'");
         return std::nullopt;
      }
      while (i < l.size() && is_blank(l[i]))
         i++;
      if (i != l.size()) {
         diag.error(file, {line, static_cast<uint32_t>(i + 1)},
                    "unexpected '" + std::string(1, l[i]) + "' after the hex dword");
         return std::nullopt;
      }
      out.push_back(static_cast<uint32_t>(v));
   }
   return out;
}

std::optional<std::vector<uint32_t>> read_raw(std::span<const uint8_t> bytes, Diagnostics &diag,
                                              std::string_view file)
{
   if (bytes.size() % 4) {
      diag.error(file, {}, "size " + std::to_string(bytes.size()) +
                              " bytes is not a multiple of 4");
      return std::nullopt;
   }
   std::vector<uint32_t> out(bytes.size() / 4);
   for (size_t i = 0; i < out.size(); i++) {
      out[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
               uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
   }
   return out;
}

std::optional<std::vector<uint32_t>> read_binary_file(const std::string &path, Diagnostics &diag)
{
   std::ifstream in(path, std::ios::binary);
   if (!in) {
      diag.error(path, {}, "cannot open file");
      return std::nullopt;
   }
   std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
   bool hex = path.size() >= 4 && path.compare(path.size() - 4, 4, ".hex") == 0;
   if (hex)
      return read_bin_hex(data, diag, path);
   return read_raw(std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(data.data()),
                                            data.size()),
                   diag, path);
}

} // namespace sbcc::r600
