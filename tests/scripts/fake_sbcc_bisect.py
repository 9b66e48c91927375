#!/usr/bin/env python3
"""A stand-in for sbcc that scripts/sb-bisect's test drives (--sbcc).

It reads what to pretend from the shader file it is given, one line
  fake-sbcc shaders=N breaks=A[,B...] [plain-fails] [crash]
and honours R600_DEBUG (sb, sbstat, sbdump) and R600_SB_DSKIP_MODE/START/END
with sbcc's meaning (src/common/debug_options.cpp): shaders are numbered
1..N in the process; mode 1 skips the range, mode 2 optimizes only it.  The
"test" fails exactly when every shader listed in breaks is optimized (or
always, with plain-fails), so the shader bisection must find is known; with
crash it fails by dying of SIGSEGV, as a crashing sb pass would.

  run-test FILE ...  'PASS FILE' / 'FAIL FILE', exit 0 / 1
  verify FILE ...    'PASS FILE' / 'FAIL FILE: ...', exit 0 / 1
  compile FILE ...   one '; FILE - stageK shader: ...' block per shader
"""
import os
import re
import signal
import sys


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("run-test", "verify", "compile"):
        print("fake sbcc: usage: run-test|verify|compile FILE [options]", file=sys.stderr)
        return 2
    cmd, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        m = re.search(r"^fake-sbcc shaders=(\d+)(?: breaks=([\d,]+))?( plain-fails)?( crash)?", f.read(), re.M)
    if not m:
        print(f"fake sbcc: {path}: no 'fake-sbcc' line", file=sys.stderr)
        return 2
    n = int(m.group(1))
    breaks = [int(x) for x in m.group(2).split(",")] if m.group(2) else []
    plain_fails = bool(m.group(3))
    crash = bool(m.group(4))

    debug = [x.strip() for x in os.environ.get("R600_DEBUG", "").split(",")]
    sb = "sb" in debug
    mode = int(os.environ.get("R600_SB_DSKIP_MODE", "0") or 0)
    start = int(os.environ.get("R600_SB_DSKIP_START", "0") or 0)
    end = int(os.environ.get("R600_SB_DSKIP_END", "0") or 0)

    optimized = set()
    for seq in range(1, n + 1) if sb else ():
        in_range = start <= seq <= end
        opt = {1: not in_range, 2: in_range}.get(mode, True)
        if opt:
            optimized.add(seq)
        if "sbstat" in debug:
            print(f"sb: shader #{seq}" + (": alu_groups 4 -> 3" if opt else " skipped (DSKIP)"),
                  file=sys.stderr)
        if "sbdump" in debug and opt:
            print(f"sb: shader #{seq} after bc_parser\n  fake IR of shader {seq}", file=sys.stderr)

    if cmd == "compile":
        for seq in range(1, n + 1):
            state = "sb" if seq in optimized else "plain"
            print(f"; {path} - stage{seq} shader: 1 dw\n  {state} code of shader {seq}")
        return 0
    fails = plain_fails or (bool(breaks) and all(b in optimized for b in breaks))
    if fails and crash:
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    print(("FAIL " if fails else "PASS ") + path + (": probe differs" if fails and cmd == "verify" else ""))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
