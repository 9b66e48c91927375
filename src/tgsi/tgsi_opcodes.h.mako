/* Generated from tgsi_opcodes.py by gen_tgsi_opcodes.py. Do not edit. */
#pragma once

#include <cstdint>
#include <string_view>

namespace sbcc::tgsi {

enum class Opcode : uint16_t {
% for op in opcodes:
   ${op.ident},
% endfor
   Count
};

enum class OutputMode : uint8_t { Component, Replicate, Channel, None };
enum class OperandType : uint8_t { Any, F32, I32, U32 };

enum OpcodeFlags : uint8_t {
   OPF_BRANCH = 1u << 0,
   OPF_TEX = 1u << 1,
   OPF_KILL = 1u << 2,
   OPF_ADDRESS = 1u << 3,
   OPF_QUAD = 1u << 4, /* reads other lanes of its quad */
};

struct OpcodeInfo {
   std::string_view name;
   uint8_t num_dst;
   uint8_t num_src;
   OutputMode mode;
   OperandType type;
   uint8_t flags;
};

inline constexpr OpcodeInfo kOpcodeInfo[] = {
% for op in opcodes:
   {"${op.name}", ${op.dst}, ${op.src}, OutputMode::${op.mode}, OperandType::${op.type}, ${op.flags}},
% endfor
};

inline constexpr unsigned kNumOpcodes = ${len(opcodes)};

inline const OpcodeInfo &opcode_info(Opcode op) { return kOpcodeInfo[static_cast<unsigned>(op)]; }

/* Derivatives and implicit-LOD sampling read registers of the other lanes of
 * the 2x2 quad, including lanes that are inactive at that point. */
inline bool reads_quad_neighbours(Opcode op) { return opcode_info(op).flags & OPF_QUAD; }

} // namespace sbcc::tgsi
