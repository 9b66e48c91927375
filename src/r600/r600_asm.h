/*
 * r600 assembler: bytecode model -> machine dwords.
 *
 * Layout follows Mesa's r600_bytecode_build: the CF program first (2 dwords
 * per instruction, 4 for an ALU_EXT-prefixed ALU clause), then every clause
 * body in CF order, fetch clauses aligned to 4 dwords.
 */
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/diag.h"
#include "r600/r600_bytecode.h"

namespace sbcc::r600 {

/* Fills cf_addr and clause_addr of every CF instruction; returns the total
 * size in dwords, or nullopt (with a diagnostic) when the program is too
 * large for the address fields. */
std::optional<uint32_t> layout_program(Program &prog, Diagnostics &diag);

/* The size in dwords layout_program gives, without writing the program
 * (no check of the address fields). */
uint32_t program_dwords(const Program &prog);

/* Encodes the program.  Reports the first field that does not fit, an op
 * that does not exist on the chip class, or an invalid ALU group (slot
 * order, slot class, literal index) and returns nullopt. */
std::optional<std::vector<uint32_t>> assemble(const Program &prog, Diagnostics &diag);

} // namespace sbcc::r600
