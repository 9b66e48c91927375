#!/usr/bin/env python3
"""Totals of the plain r600 backend's statistics (dw, gprs, alu_groups,
loops, cf, stack) over a set of shaders, and over the corpus compared with
Mesa's TGSI backend without sb (mesa-stats-r600-<CHIP>-tgsi-nosb.csv).

usage: r600-backend-stats.py SBCC [--target evergreen] [--corpus DIR] [PATH...]
  PATH...   shader files or directories: print sbcc's totals only
  --corpus  compare with Mesa per shader (both compiled), default
            $SBCC_CORPUS or <source root>/../shared/corpus
"""
import argparse
import csv
import os
import re
import subprocess
import sys

KEYS = ["dw", "gprs", "alu_groups", "loops", "cf", "stack"]
LINE = re.compile(r"^(.*) - (vertex|fragment) shader: (.*)$")


def sbcc_stats(sbcc, target, paths):
    out = subprocess.run([sbcc, "stats", "--target=" + target, "-j", "2"] + paths,
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        vals = dict((k, int(v)) for v, k in re.findall(r"(-?\d+) (\w+)", m.group(3)))
        rows[(m.group(1), m.group(2))] = vals
    return rows


def totals(rows):
    return {k: sum(r.get(k, 0) for r in rows) for k in KEYS}


def fmt(t):
    return ", ".join("%d %s" % (t[k], k) for k in KEYS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sbcc")
    ap.add_argument("--target", default="evergreen")
    ap.add_argument("--chip", default=None, help="Mesa CSV chip (CYPRESS, RV770)")
    ap.add_argument("--corpus", default=None)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_intermixed_args()
    if a.paths:
        rows = sbcc_stats(a.sbcc, a.target, a.paths)
        print("%d shaders: %s" % (len(rows), fmt(totals(rows.values()))))
        return 0
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = a.corpus or os.environ.get("SBCC_CORPUS") or os.path.join(root, "..", "shared", "corpus")
    if not os.path.isdir(corpus):
        print("corpus not found at %s" % corpus)
        return 77
    chip = a.chip or ("RV770" if a.target == "r700" else "CYPRESS")
    rows = sbcc_stats(a.sbcc, a.target, [os.path.join(corpus, "tgsi")])
    mesa = {}
    with open(os.path.join(corpus, "mesa-stats-r600-%s-tgsi-nosb.csv" % chip)) as f:
        for r in csv.DictReader(f):
            mesa[(r["shader"], r["stage"])] = {k: int(r[k]) for k in KEYS}
    ours, theirs = [], []
    for (path, stage), vals in rows.items():
        rel = os.path.relpath(path, os.path.join(corpus, "tgsi"))
        m = re.match(r"(.*)\.(vs|fs)\.tgsi$", rel)
        if not m:
            continue
        key = (m.group(1) + ".shader_test", m.group(2))
        if key in mesa:
            ours.append(vals)
            theirs.append(mesa[key])
    print("%d shaders compiled, %d with a Mesa %s tgsi-nosb row" % (len(rows), len(ours), chip))
    print("sbcc : " + fmt(totals(ours)))
    print("mesa : " + fmt(totals(theirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
