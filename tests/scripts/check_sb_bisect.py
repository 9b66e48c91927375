#!/usr/bin/env python3
"""Test of scripts/sb-bisect against a fake sbcc (fake_sbcc_bisect.py) whose
failure is tied to known shader numbers, so every bisection outcome can be
checked exactly: a single bad shader, a bug that needs two shaders optimized
together, a crash, nothing to bisect, a failure that is not sb's, TGSI files going
through `sbcc verify`, --dump, --target/--chip, and every bad position for
a few shader counts.

usage: check_sb_bisect.py SB_BISECT FAKE_SBCC
"""
import os
import subprocess
import sys
import tempfile

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}")


def main():
    bisect_script, fake = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        # A wrapper, so the test does not depend on the fake's exec bit.
        sbcc = os.path.join(tmp, "sbcc")
        with open(sbcc, "w") as f:
            f.write(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" "$@"\n')
        os.chmod(sbcc, 0o755)

        def run(name, config, *opts):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(f"fake-sbcc {config}\n")
            env = dict(os.environ)
            for v in ("R600_DEBUG", "R600_SB_DSKIP_MODE", "R600_SB_DSKIP_START", "R600_SB_DSKIP_END"):
                env.pop(v, None)
            r = subprocess.run([sys.executable, bisect_script, "--sbcc", sbcc, *opts, path],
                               capture_output=True, text=True, env=env)
            return r.returncode, r.stdout.replace(tmp + "/", "<TMP>/"), r.stderr

        def expect(name, config, opts, rc, text):
            got_rc, out, err = run(name, config, *opts)
            check(got_rc == rc, f"{name} ({config}): exit {got_rc}, expected {rc}\n{err}")
            check(out == text, f"{name} ({config}): output\n{out}\nexpected\n{text}")

        expect("one.shader_test", "shaders=7 breaks=5", [], 0, """\
7 shader(s) go through sb
  optimizing #1..#4: pass
  optimizing #1..#6: FAIL
  optimizing #1..#5: FAIL
  optimizing #5 alone: FAIL
first bad shader: shader #5 (the stage5 stage): optimizing it alone makes <TMP>/one.shader_test fail on evergreen
reproduce:
  R600_DEBUG=sb R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=5 R600_SB_DSKIP_END=5 <TMP>/sbcc run-test <TMP>/one.shader_test --target=evergreen
sb's IR of the shader after each pass (look at the passes' output for the broken values):
  R600_DEBUG=sb,sbdump R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=5 R600_SB_DSKIP_END=5 <TMP>/sbcc run-test <TMP>/one.shader_test --target=evergreen
10 sbcc runs
""")
        expect("pair.tgsi", "shaders=8 breaks=3,6", ["--dump"], 0, """\
8 shader(s) go through sb
  optimizing #1..#4: pass
  optimizing #1..#6: FAIL
  optimizing #1..#5: pass
  optimizing #6 alone: pass
  optimizing #3..#6: FAIL
  optimizing #4..#6: pass
first bad shader: shader #6 (the stage6 stage), but only with #3..#6 optimized together
reproduce:
  R600_DEBUG=sb R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=3 R600_SB_DSKIP_END=6 <TMP>/sbcc verify <TMP>/pair.tgsi --target=evergreen
sb's IR of the shader after each pass (look at the passes' output for the broken values):
  R600_DEBUG=sb,sbdump R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=6 R600_SB_DSKIP_END=6 <TMP>/sbcc verify <TMP>/pair.tgsi --target=evergreen
sb: shader #6 after bc_parser
  fake IR of shader 6
13 sbcc runs
""")
        expect("single.shader_test", "shaders=1 breaks=1", ["--target", "r700", "--chip", "RV770"], 0, """\
1 shader(s) go through sb
first bad shader: shader #1 (the stage1 stage): optimizing it alone makes <TMP>/single.shader_test fail on r700
reproduce:
  R600_DEBUG=sb R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=1 R600_SB_DSKIP_END=1 <TMP>/sbcc run-test <TMP>/single.shader_test --target=r700 --chip=RV770
sb's IR of the shader after each pass (look at the passes' output for the broken values):
  R600_DEBUG=sb,sbdump R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=1 R600_SB_DSKIP_END=1 <TMP>/sbcc run-test <TMP>/single.shader_test --target=r700 --chip=RV770
6 sbcc runs
""")
        expect("crash.tgsi", "shaders=3 breaks=2 crash", [], 0, """\
3 shader(s) go through sb
  optimizing #1..#2: FAIL
  optimizing #1..#1: pass
  optimizing #2 alone: FAIL
first bad shader: shader #2 (the stage2 stage): optimizing it alone makes <TMP>/crash.tgsi fail on evergreen
sbcc was killed by signal 11 there: a crash, not a wrong result
reproduce:
  R600_DEBUG=sb R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=2 R600_SB_DSKIP_END=2 <TMP>/sbcc verify <TMP>/crash.tgsi --target=evergreen
sb's IR of the shader after each pass (look at the passes' output for the broken values):
  R600_DEBUG=sb,sbdump R600_SB_DSKIP_MODE=2 R600_SB_DSKIP_START=2 R600_SB_DSKIP_END=2 <TMP>/sbcc verify <TMP>/crash.tgsi --target=evergreen
9 sbcc runs
""")
        expect("good.shader_test", "shaders=4", [], 1,
               "<TMP>/good.shader_test passes on evergreen with R600_DEBUG=sb: nothing to bisect\n")
        expect("plain.shader_test", "shaders=3 breaks=1 plain-fails", [], 1,
               "<TMP>/plain.shader_test fails on evergreen with no shader optimized: not an sb problem\n")
        r = subprocess.run([sys.executable, bisect_script, "--sbcc", sbcc, os.path.join(tmp, "nope.shader_test")],
                           capture_output=True, text=True)
        check(r.returncode == 2 and "no such file" in r.stderr, f"missing file: {r.returncode} {r.stderr}")

        # Every position of one bad shader, and every pair, for a few counts
        # (few: each case starts ~10 Python processes).
        for n in (3, 8):
            for bad in range(1, n + 1):
                rc, out, err = run("pos.shader_test", f"shaders={n} breaks={bad}")
                check(rc == 0 and f"first bad shader: shader #{bad} (the stage{bad} stage): optimizing it alone" in out,
                      f"n={n} bad={bad}: exit {rc}\n{out}{err}")
        n = 5
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                rc, out, err = run("pairs.shader_test", f"shaders={n} breaks={a},{b}")
                check(rc == 0 and f"first bad shader: shader #{b} (the stage{b} stage), but only with #{a}..#{b}" in out,
                      f"n={n} breaks={a},{b}: exit {rc}\n{out}{err}")
    print("sb-bisect: all checks passed" if failures == 0 else f"sb-bisect: {failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
