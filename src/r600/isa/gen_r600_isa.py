#!/usr/bin/env python3
"""Render the r600 ISA description (r600_isa.py) through a Mako template.

Usage: gen_r600_isa.py TEMPLATE OUTPUT

Checks the description for the mistakes that would otherwise surface as
wrong machine code: duplicate names, opcodes used twice on one chip class,
fields that overlap or leave the 32-bit word, unknown tokens.
"""
import os
import sys
from types import SimpleNamespace

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import r600_isa as isa  # noqa: E402

SLOT_TOKENS = {"-": "0", "V": "kSlotV", "S": "kSlotS", "VS": "kSlotV | kSlotS",
               "4V": "kSlotV | kSlot4", "XY": "kSlotV | kSlotXY", "ZW": "kSlotV | kSlotZW"}
ALU_FLAGS = ["comm", "assoc", "ieee", "dx10", "set", "pred", "pred_push", "kill", "cmov",
             "cc_e", "cc_gt", "cc_ge", "cc_ne", "cc_lt", "cc_le", "int_cmp", "uint_cmp",
             "int_dst", "uint_dst", "mova", "f64", "i24", "repl", "interp", "prev_next",
             "prev_interleave", "cvt"]
FETCH_FLAGS = ["setgrad", "getgrad", "usegrad", "offsets"]
CF_FLAGS = ["clause", "fetch", "vtx", "branch", "loop", "loop_start", "call", "emit",
            "uncond", "ext", "target"]
CF_ENC = {"cf": "Cf", "alu": "Alu", "exp": "Export", "mem": "Mem"}


def fail(msg):
    sys.exit(f"r600_isa.py: {msg}")


def flag_expr(prefix, allowed, text, what):
    names = text.split()
    for n in names:
        if n not in allowed:
            fail(f"{what}: unknown flag '{n}'")
    return " | ".join(f"{prefix}{n.upper()}" for n in names) or "0"


def opc(v):
    return "-1" if v is None else hex(v)


def check_unique(items, what):
    seen = set()
    for name in items:
        if name in seen:
            fail(f"duplicate {what} {name}")
        seen.add(name)


def build():
    check_unique([o[0] for o in isa.ALU_OPS], "ALU op")
    check_unique([o[0] for o in isa.FETCH_OPS], "fetch op")
    check_unique([o[0] for o in isa.CF_OPS], "CF op")

    alu = []
    used = {}
    for name, nsrc, opcs, slots, flags in isa.ALU_OPS:
        toks = slots.split()
        if len(toks) != 4 or any(t not in SLOT_TOKENS for t in toks):
            fail(f"ALU {name}: bad slots '{slots}'")
        for ci, tok in enumerate(toks):
            if tok == "-":
                continue
            code = opcs[ci >> 1]
            if code is None:
                fail(f"ALU {name}: available on {isa.CHIPS[ci]} but has no opcode")
            key = (ci, nsrc == 3, code)
            if key in used:
                fail(f"ALU {name}: opcode {code:#x} already used by {used[key]} on {isa.CHIPS[ci]}")
            used[key] = name
        limit = 0x20 if nsrc == 3 else 0x800
        for code in opcs:
            if code is not None and code >= limit:
                fail(f"ALU {name}: opcode {code:#x} does not fit")
        alu.append(SimpleNamespace(name=name, nsrc=nsrc, opc=[opc(c) for c in opcs],
                                   slots=[SLOT_TOKENS[t] for t in toks],
                                   flags=flag_expr("AF_", ALU_FLAGS, flags, f"ALU {name}")))

    fetch = []
    used = {}
    for name, kind, opcs, flags in isa.FETCH_OPS:
        if kind not in ("tex", "vtx") or len(opcs) != 4:
            fail(f"fetch {name}: bad kind or opcode list")
        for ci, code in enumerate(opcs):
            if code is None:
                continue
            if (code & 0x1f) | (code & 0x300) != code:
                fail(f"fetch {name}: opcode {code:#x} has bits outside INST and INST_MOD")
            key = (ci, code)
            if key in used:
                fail(f"fetch {name}: opcode {code:#x} already used by {used[key]}")
            used[key] = name
        fetch.append(SimpleNamespace(name=name, vtx="true" if kind == "vtx" else "false",
                                     opc=[opc(c) for c in opcs],
                                     flags=flag_expr("FF_", FETCH_FLAGS, flags, f"fetch {name}")))

    cf = []
    used = {}
    for name, enc, opcs, flags in isa.CF_OPS:
        if enc not in CF_ENC or len(opcs) != 4:
            fail(f"CF {name}: bad encoding or opcode list")
        for ci, code in enumerate(opcs):
            if code is None:
                continue
            key = (ci, enc == "alu", code)
            if key in used:
                fail(f"CF {name}: opcode {code:#x} already used by {used[key]}")
            used[key] = name
        cf.append(SimpleNamespace(name=name, enc=CF_ENC[enc], opc=[opc(c) for c in opcs],
                                  flags=flag_expr("CF_", CF_FLAGS, flags, f"CF {name}")))

    words = []
    for wname, fields in isa.WORDS.items():
        mask = 0
        fl = []
        check_unique([f[0] for f in fields], f"field in {wname}")
        for fname, lo, width in fields:
            fmask = ((1 << width) - 1) << lo
            if lo + width > 32 or width <= 0:
                fail(f"{wname}.{fname} leaves the word")
            if mask & fmask:
                fail(f"{wname}.{fname} overlaps another field")
            mask |= fmask
            fl.append(SimpleNamespace(name=fname, lo=lo, width=width))
        words.append(SimpleNamespace(name=wname, fields=fl, mask=f"0x{mask:08x}u"))

    def chip_mask(text):
        m = 0
        for c in text.split():
            if c not in isa.CHIPS:
                fail(f"unknown chip class {c}")
            m |= 1 << isa.CHIPS.index(c)
        return m

    ranges = [SimpleNamespace(name=n, first=a, last=b, chips=chip_mask(c))
              for n, a, b, c in isa.SRC_RANGES]
    inline = [SimpleNamespace(name=n, sel=s, chips=chip_mask(c), text=t)
              for n, s, c, t in isa.SRC_INLINE]
    fams = []
    for fam, cls in isa.FAMILIES:
        if cls not in isa.CHIPS:
            fail(f"family {fam}: unknown chip class {cls}")
        fams.append(SimpleNamespace(name=fam, cls=["R600", "R700", "Evergreen", "Cayman"][isa.CHIPS.index(cls)]))

    return dict(alu=alu, fetch=fetch, cf=cf, words=words, ranges=ranges, inline=inline,
                families=fams, alu_flags=ALU_FLAGS, fetch_flags=FETCH_FLAGS, cf_flags=CF_FLAGS,
                export_types=isa.EXPORT_TYPES, mem_export_types=isa.MEM_EXPORT_TYPES,
                clause_temp_first=isa.CLAUSE_TEMP_FIRST)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_r600_isa.py TEMPLATE OUTPUT")
    template_path, out_path = sys.argv[1], sys.argv[2]
    with open(template_path) as f:
        text = Template(f.read()).render(**build())
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
