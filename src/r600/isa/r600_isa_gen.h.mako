/* Generated from r600_isa.py by gen_r600_isa.py. Do not edit. */
#pragma once

#include <cstdint>
#include <string_view>

namespace sbcc::r600 {

enum class ChipClass : uint8_t { R600, R700, Evergreen, Cayman };
inline constexpr unsigned kNumChipClasses = 4;

/* ---- ALU ---------------------------------------------------------------- */

enum class AluOp : uint16_t {
% for op in alu:
   ${op.name},
% endfor
   Count
};

/* Slot classes per chip (bits may combine). */
enum AluSlotBits : uint8_t {
   kSlotV = 1u << 0,  /* vector slots x y z w */
   kSlotS = 1u << 1,  /* trans slot t (R600-EG); replicated xyz(w) on Cayman */
   kSlot4 = 1u << 2,  /* reduction over all four vector slots */
   kSlotXY = 1u << 3, /* x/y pair only */
   kSlotZW = 1u << 4, /* z/w pair only */
};

enum AluFlags : uint32_t {
% for i, f in enumerate(alu_flags):
   AF_${f.upper()} = 1u << ${i},
% endfor
};

struct AluOpInfo {
   std::string_view name;
   uint8_t num_src;
   int16_t opcode[2]; /* [0] R600/R700, [1] Evergreen/Cayman; -1 = absent */
   uint8_t slots[kNumChipClasses];
   uint32_t flags;
};

inline constexpr AluOpInfo kAluOpInfo[] = {
% for op in alu:
   {"${op.name}", ${op.nsrc}, {${op.opc[0]}, ${op.opc[1]}}, {${", ".join(op.slots)}}, ${op.flags}},
% endfor
};
inline constexpr unsigned kNumAluOps = ${len(alu)};

/* ---- Fetch (TEX/VTX clauses) -------------------------------------------- */

enum class FetchOp : uint16_t {
% for op in fetch:
   ${op.name},
% endfor
   Count
};

enum FetchFlags : uint32_t {
% for i, f in enumerate(fetch_flags):
   FF_${f.upper()} = 1u << ${i},
% endfor
};

struct FetchOpInfo {
   std::string_view name;
   bool vtx;                            /* VTX_WORD layout instead of TEX_WORD */
   int16_t opcode[kNumChipClasses];     /* INST | INST_MOD << 8; -1 = absent */
   uint32_t flags;
};

inline constexpr FetchOpInfo kFetchOpInfo[] = {
% for op in fetch:
   {"${op.name}", ${op.vtx}, {${", ".join(op.opc)}}, ${op.flags}},
% endfor
};
inline constexpr unsigned kNumFetchOps = ${len(fetch)};

/* ---- CF ------------------------------------------------------------------ */

enum class CfOp : uint16_t {
% for op in cf:
   ${op.name},
% endfor
   Count
};

/* Which word pair encodes the instruction. */
enum class CfEncoding : uint8_t { Cf, Alu, Export, Mem };

enum CfFlags : uint32_t {
% for i, f in enumerate(cf_flags):
   CF_${f.upper()} = 1u << ${i},
% endfor
};

struct CfOpInfo {
   std::string_view name;
   CfEncoding enc;
   int16_t opcode[kNumChipClasses]; /* -1 = absent */
   uint32_t flags;
};

inline constexpr CfOpInfo kCfOpInfo[] = {
% for op in cf:
   {"${op.name}", CfEncoding::${op.enc}, {${", ".join(op.opc)}}, ${op.flags}},
% endfor
};
inline constexpr unsigned kNumCfOps = ${len(cf)};

/* ---- Word layouts --------------------------------------------------------- */

struct Field {
   uint8_t lo;
   uint8_t width;
   constexpr uint32_t max() const { return width >= 32 ? 0xffffffffu : (1u << width) - 1u; }
   constexpr uint32_t get(uint32_t w) const { return (w >> lo) & max(); }
   constexpr bool fits(uint32_t v) const { return v <= max(); }
   /* The value placed in the word; the caller checks fits() first. */
   constexpr uint32_t put(uint32_t v) const { return (v & max()) << lo; }
};

namespace word {
% for w in words:
namespace ${w.name} {
%   for f in w.fields:
inline constexpr Field ${f.name}{${f.lo}, ${f.width}};
%   endfor
/* Bits covered by some field; the others are reserved and must be zero. */
inline constexpr uint32_t kUsedMask = ${w.mask};
inline constexpr std::string_view kName = "${w.name}";
} // namespace ${w.name}
% endfor
} // namespace word

/* ---- ALU source selectors ------------------------------------------------ */

enum AluSrcSel : uint16_t {
% for s in inline:
   kSrc_${s.name} = ${s.sel},
% endfor
% for r in ranges:
   kSrc${r.name}First = ${r.first},
   kSrc${r.name}Last = ${r.last},
% endfor
   kSrcClauseTempFirst = ${clause_temp_first},
};

struct SrcInlineInfo {
   uint16_t sel;
   uint8_t chips; /* bit per ChipClass */
   std::string_view name;
   std::string_view text; /* as Mesa's listing prints it */
};

inline constexpr SrcInlineInfo kSrcInline[] = {
% for s in inline:
   {${s.sel}, ${s.chips}, "${s.name}", "${s.text}"},
% endfor
};

/* ---- Names ----------------------------------------------------------------- */

struct FamilyInfo {
   std::string_view name;
   ChipClass cls;
};

inline constexpr FamilyInfo kFamilies[] = {
% for f in families:
   {"${f.name}", ChipClass::${f.cls}},
% endfor
};

inline constexpr std::string_view kExportTypeNames[] = {
% for t in export_types:
   "${t}",
% endfor
};

inline constexpr std::string_view kMemExportTypeNames[] = {
% for t in mem_export_types:
   "${t}",
% endfor
};

inline const AluOpInfo &alu_op_info(AluOp op) { return kAluOpInfo[static_cast<unsigned>(op)]; }
inline const FetchOpInfo &fetch_op_info(FetchOp op) { return kFetchOpInfo[static_cast<unsigned>(op)]; }
inline const CfOpInfo &cf_op_info(CfOp op) { return kCfOpInfo[static_cast<unsigned>(op)]; }

} // namespace sbcc::r600
