/*
 * r600 decoder and disassembler: dwords -> bytecode model -> listing.
 *
 * The decoder follows the CF program from dword 0 to END_OF_PROGRAM (or
 * Cayman's CF_END), then every clause its CF instructions point at.  Bad
 * input (unknown opcodes, reserved bits, addresses out of range, clauses
 * running past the end, a missing end of program) is reported through
 * Diagnostics; it never crashes or loops.
 *
 * The listing follows Mesa's r600_bytecode_disasm layout (Mesa 22.3) so it
 * can be compared line by line with Mesa's dumps; attributes Mesa does not
 * print are appended only when they differ from their usual value.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/diag.h"
#include "r600/r600_bytecode.h"

namespace sbcc::r600 {

/* Decodes a whole program.  cf_addr/clause_addr of every CF instruction hold
 * the addresses found in the input.  `file` prefixes diagnostics. */
std::optional<Program> decode_program(std::span<const uint32_t> words, ChipClass chip,
                                      Diagnostics &diag, std::string_view file = {});

/* Listing of a decoded program; `words` are the dwords it was decoded from
 * (or assembled to), printed in the hex columns. */
std::string print_program(const Program &prog, std::span<const uint32_t> words);

/* decode_program + print_program: what `sbcc disasm` prints. */
std::optional<std::string> disassemble(std::span<const uint32_t> words, ChipClass chip,
                                       Diagnostics &diag, std::string_view file = {});

/* Text of one ALU source operand / destination, as in the listing. */
std::string format_alu_src(ChipClass chip, const AluInstr &in, unsigned idx,
                           const AluGroup &group);
std::string format_alu_dst(ChipClass chip, const AluInstr &in);

} // namespace sbcc::r600
