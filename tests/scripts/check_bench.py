#!/usr/bin/env python3
"""check_bench.py SBCC: `sbcc bench --sb` and its shader generator.

The generator must give exactly the requested number of TGSI instructions,
with loops and branches, and shaders that compile and agree with the
reference on evergreen and r700, with and without sb.  The bench output must
have its rows and columns; its times are never checked (no timing in tests).
"""
import os
import re
import subprocess
import sys
import tempfile

sbcc = sys.argv[1]
errors = []


def run(*args):
    return subprocess.run([sbcc, *args], capture_output=True, text=True)


def check(cond, what):
    if not cond:
        errors.append(what)


INSTR = re.compile(r"^\s*(\d+): +(\w+)")
with tempfile.TemporaryDirectory(prefix="sbcc-bench-test-") as tmp:
    files = []
    for size, seed in ((12, 1), (100, 1), (100, 2), (600, 3)):
        r = run("bench", "--generate", str(size), "--seed", str(seed))
        check(r.returncode == 0, f"--generate {size}: exit {r.returncode}: {r.stderr}")
        ops = [INSTR.match(l) for l in r.stdout.splitlines()]
        ops = [(int(m.group(1)), m.group(2)) for m in ops if m]
        check([i for i, _ in ops] == list(range(size)),
              f"--generate {size} --seed {seed}: {len(ops)} instructions, not 0..{size - 1}")
        check(ops and ops[-1][1] == "END", f"--generate {size}: does not end with END")
        names = {op for _, op in ops}
        if size >= 100:
            for op in ("BGNLOOP", "BRK", "ENDLOOP", "IF", "ENDIF"):
                check(op in names, f"--generate {size} --seed {seed}: no {op}")
        again = run("bench", "--generate", str(size), "--seed", str(seed)).stdout
        check(again == r.stdout, f"--generate {size} --seed {seed} is not deterministic")
        path = os.path.join(tmp, f"gen-{size}-{seed}.tgsi")
        with open(path, "w") as f:
            f.write(r.stdout)
        files.append(path)

    for target in ("evergreen", "r700"):
        for debug in ("", "sb"):
            r = run("verify", "--target", target, "--r600-debug", debug, *files)
            check(r.returncode == 0 and r.stdout.endswith(f"{len(files)} passed, 0 failed, 0 budget, 0 error\n"),
                  f"verify {target} {debug!r} on generated shaders: exit {r.returncode}\n{r.stdout}{r.stderr}")

    # The directory mode on the generated shaders: one row per pass sb
    # recorded (a fallback stage may reach only some shaders) plus the whole
    # call over all 4.
    r = run("bench", "--sb", "--runs", "1", tmp)
    lines = r.stdout.splitlines()
    check(r.returncode == 0, f"bench --sb {tmp}: exit {r.returncode}: {r.stderr}")
    check(lines[:2] == [f"sb bench: 4 shaders from {tmp} (evergreen), median of 1 runs per shader",
                        "pass                    shaders    median ms       p99 ms"],
          "bench --sb header:\n" + "\n".join(lines[:2]))
    rows = [l.split() for l in lines[2:] if re.match(r"^\S+( \S+)*\s+\d+\s+[\d.]+\s+[\d.]+$", l)]
    check(len(rows) >= 2 and all(1 <= int(row[-3]) <= 4 for row in rows),
          "bench --sb rows:\n" + r.stdout)
    check(any(re.match(r"^sb_optimize \(whole\) +4 ", l) for l in lines),
          "no whole-call row over 4 shaders:\n" + r.stdout)
    check(any(l.startswith("sb kept the source on ") for l in lines), "no source-kept line")

# Scaling on tiny sizes: the size header is exact, every pass row has one
# number per size and a growth factor.
r = run("bench", "--sb", "--scaling", "--sizes", "50,200", "--runs", "1")
lines = r.stdout.splitlines()
check(r.returncode == 0, f"bench --scaling: exit {r.returncode}: {r.stderr}")
check(lines[1:2] == ["TGSI instructions                50          200"],
      "scaling size row:\n" + r.stdout)
check(lines[3:4] == ["ns per TGSI instruction; growth = last / first"], "scaling legend:\n" + r.stdout)
rows = [l for l in lines[4:] if not l.startswith(("sb gave up", "(-: "))]
# A pass a stage did not reach at some size shows '-' and no growth.
check(len(rows) >= 2 and all(re.match(r"^.{22}( +[\d.]+){2}   x[\d.]+$", l) or
                             re.match(r"^.{22}( +([\d.]+|-)){2}$", l) for l in rows),
      "scaling rows:\n" + r.stdout)
check(re.match(r"^sb_optimize \(whole\) +[\d.]+ +[\d.]+   x[\d.]+$", rows[-1] if rows else ""),
      "scaling: whole-call row:\n" + r.stdout)

# Bad arguments are usage errors, a missing directory an error; no crash.
for args, code, msg in ((["--sb", "--scaling", "--sizes", "5"], 2, "--sizes entries must be 12..1000000"),
                        (["--sb", "--runs", "0"], 2, "--runs must be 1..1000"),
                        (["--scaling"], 2, "--scaling needs --sb"),
                        (["--sb", "--target", "nv50"], 2, "unknown r600 chip 'nv50'"),
                        (["--sb", "/nonexistent-sbcc-dir"], 1, "cannot read '/nonexistent-sbcc-dir'")):
    r = run("bench", *args)
    check(r.returncode == code and msg in r.stderr,
          f"bench {' '.join(args)}: exit {r.returncode}, stderr {r.stderr!r}")

if errors:
    print("\n".join(errors))
    sys.exit(1)
