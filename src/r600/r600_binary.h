/*
 * Readers for r600 machine code: raw little-endian binaries and `.bin.hex`
 * text (one 32-bit hex word per line, index = dword address, as in the
 * corpus).  Errors carry the file name and line/column.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diag.h"

namespace sbcc::r600 {

/* One hex dword per line (optional 0x prefix, surrounding blanks and a final
 * newline allowed). */
std::optional<std::vector<uint32_t>> read_bin_hex(std::string_view text, Diagnostics &diag,
                                                  std::string_view file = {});

/* Little-endian dwords; the size must be a multiple of 4. */
std::optional<std::vector<uint32_t>> read_raw(std::span<const uint8_t> bytes, Diagnostics &diag,
                                              std::string_view file = {});

/* Reads a file: `.hex` names through read_bin_hex, anything else raw. */
std::optional<std::vector<uint32_t>> read_binary_file(const std::string &path, Diagnostics &diag);

} // namespace sbcc::r600
