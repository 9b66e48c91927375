#!/usr/bin/env python3
"""Render the TGSI opcode table (tgsi_opcodes.py) through a Mako template."""
import os
import sys
from types import SimpleNamespace

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tgsi_opcodes import OPCODES  # noqa: E402

MODES = {"comp": "Component", "repl": "Replicate", "chan": "Channel", "none": "None"}
TYPES = {"any": "Any", "f32": "F32", "i32": "I32", "u32": "U32"}
FLAGS = {"branch": "OPF_BRANCH", "tex": "OPF_TEX", "kill": "OPF_KILL", "address": "OPF_ADDRESS",
         "quad": "OPF_QUAD"}


def main():
    template_path, out_path = sys.argv[1], sys.argv[2]
    ops = []
    seen = set()
    for name, dst, src, mode, typ, flags in OPCODES:
        if name in seen:
            sys.exit(f"duplicate TGSI opcode {name}")
        seen.add(name)
        flag_expr = " | ".join(FLAGS[f] for f in flags.split()) or "0"
        ops.append(SimpleNamespace(name=name, ident=name, dst=dst, src=src, mode=MODES[mode],
                                   type=TYPES[typ], flags=flag_expr))
    with open(template_path) as f:
        text = Template(f.read()).render(opcodes=ops)
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
