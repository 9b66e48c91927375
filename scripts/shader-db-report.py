#!/usr/bin/env python3
"""Compare two sets of shader statistics in shader-db's report format.

Each side is either
  - a file of `sbcc stats` lines:  <file> - <stage> shader: <n> <stat>, ...
  - one of Mesa's CSVs from the shader corpus (mesa-stats-*.csv), whose
    sbstat variants are read from their opt_* columns (what sb produced).

Shaders are matched by <game>/<name>.shader_test and stage (vs/fs), which
both the corpus TGSI paths (tgsi/<game>/<name>.<stage>.tgsi) and the r600
bytecode paths (<chip>-<variant>/<game>/<name>.<stage>.bin.hex) encode.

  scripts/shader-db-report.py mesa-stats-r600-CYPRESS-sfn-sb-sbstat.csv sbcc-eg.txt
  scripts/shader-db-report.py before.txt after.txt --stats alu_groups,gprs --worst 10

For each statistic it prints the totals over shaders present on both sides,
the totals over the affected ones, helped/HURT counts and the medians; with
--worst N, the N shaders where AFTER is furthest above BEFORE.
"""
import argparse
import csv
import os
import re
import statistics
import sys

# sb's sbstat columns (opt_*) under the names the other files use.  sb's own
# "cf" counts only the CF instructions that are not clauses (exports, jumps,
# loops), so it is kept as cf_other and "cf" becomes the count every other
# file means: cf_other + alu_clauses + fetch_clauses.
SBSTAT_NAMES = {"dw": "dw", "gpr": "gprs", "stk": "stack", "alu_groups": "alu_groups",
                "cf": "cf_other", "alu": "alu", "fetch": "fetch", "alu_clauses": "alu_clauses",
                "fetch_clauses": "fetch_clauses"}

STAGES = {"vertex": "vs", "fragment": "fs", "geometry": "gs", "compute": "cs",
          "vs": "vs", "fs": "fs", "gs": "gs", "cs": "cs"}

LINE_RE = re.compile(r"^(?P<file>.+?) - (?P<stage>\w+) shader: (?P<stats>.*)$")
PATH_RE = re.compile(r"(?P<name>[^/]+/(?:[^/]+/)?[^/]+?)\.(?P<stage>vs|fs|gs|cs)\.[\w.]+$")


# Corpus folders that hold <game>[/<sub>]/<name>.<stage>.<ext> trees.
CORPUS_DIR_RE = re.compile(r"^(tgsi|nir|tgsi-r300|nir-r300|nir-vc4|vc4-qpu|r300-code|[A-Z0-9]+-[a-z0-9-]+)$")
NAME_RE = re.compile(r"^(?P<name>.+?)\.(?P<stage>vs|fs|gs|cs)\.[\w.]+$")


def shader_key(path, stage):
    """(<game>/<name>.shader_test, stage) for a corpus-derived path."""
    path = path.replace(os.sep, "/")
    parts = path.split("/")
    # The innermost corpus folder fixes where the shader's name starts, so a
    # game folder with a dash or a sub-folder is not mistaken for one.
    for i in range(len(parts) - 2, -1, -1):
        if CORPUS_DIR_RE.match(parts[i]):
            m = NAME_RE.match("/".join(parts[i + 1:]))
            if m:
                return m.group("name") + ".shader_test", STAGES.get(stage, stage)
            break
    m = PATH_RE.search(path)
    if m:
        name = m.group("name")
        # Drop the corpus folder names (tgsi/, CYPRESS-tgsi-nosb/, ...).
        parts = name.split("/")
        if len(parts) == 3 and ("tgsi" in parts[0] or "-" in parts[0] or parts[0] in ("nir",)):
            parts = parts[1:]
        return "/".join(parts) + ".shader_test", STAGES.get(stage, stage)
    return path, STAGES.get(stage, stage)


def read_sbcc_stats(path):
    data = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = LINE_RE.match(line)
            if not m:
                continue
            values = {}
            for item in m.group("stats").split(","):
                item = item.strip()
                if not item:
                    continue
                num, _, name = item.partition(" ")
                try:
                    values[name.strip()] = int(num)
                except ValueError:
                    sys.exit(f"{path}:{lineno}: bad statistic '{item}'")
            data[shader_key(m.group("file"), m.group("stage"))] = values
    return data


def read_mesa_csv(path):
    data = {}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        sbstat = any(c.startswith("opt_") for c in reader.fieldnames or [])
        for row in reader:
            if row.get("variant", "0") not in ("0", ""):
                continue  # vc4 coordinate shaders and the like
            values = {}
            for col, val in row.items():
                if col in ("shader", "stage", "variant") or val in (None, ""):
                    continue
                if sbstat:
                    if not col.startswith("opt_"):
                        continue
                    col = SBSTAT_NAMES.get(col[4:], col[4:])
                try:
                    values[col] = int(val)
                except ValueError:
                    continue
            if sbstat and "cf_other" in values:
                values["cf"] = (values["cf_other"] + values.get("alu_clauses", 0)
                                + values.get("fetch_clauses", 0))
            data[(row["shader"], STAGES.get(row["stage"], row["stage"]))] = values
    return data


def read_side(path):
    return read_mesa_csv(path) if path.endswith(".csv") else read_sbcc_stats(path)


def pct(before, after):
    if before == 0:
        return "+inf%" if after else "0.00%"
    return f"{(after - before) * 100.0 / before:+.2f}%"


def fmt_median(values):
    # An even count averages the middle two: print .5 only when it occurs.
    m = statistics.median(values)
    return str(int(m)) if m == int(m) else f"{m:.1f}"


def report(stat, before, after, keys, worst):
    pairs = [(k, before[k][stat], after[k][stat]) for k in keys
             if stat in before[k] and stat in after[k]]
    if not pairs:
        return
    tb = sum(b for _, b, _ in pairs)
    ta = sum(a for _, _, a in pairs)
    affected = [(k, b, a) for k, b, a in pairs if a != b]
    ab = sum(b for _, b, _ in affected)
    aa = sum(a for _, _, a in affected)
    helped = sum(1 for _, b, a in affected if a < b)
    hurt = len(affected) - helped
    print(f"total {stat} in shared programs: {tb} -> {ta} ({pct(tb, ta)})")
    print(f"{stat} in affected programs: {ab} -> {aa} ({pct(ab, aa)})")
    print(f"helped: {helped}")
    print(f"HURT: {hurt}")
    print(f"median {stat}: {fmt_median([b for _, b, _ in pairs])} -> "
          f"{fmt_median([a for _, _, a in pairs])} over {len(pairs)} shaders")
    if worst:
        ranked = sorted(affected, key=lambda t: (-(t[2] - t[1]), t[0]))
        ranked = [t for t in ranked if t[2] > t[1]][:worst]
        if ranked:
            print(f"furthest behind in {stat}:")
            for (name, stage), b, a in ranked:
                print(f"  {name} {stage}: {b} -> {a} ({a - b:+d})")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--stats", help="comma-separated statistics (default: all shared ones)")
    ap.add_argument("--worst", type=int, default=0, help="list the N most hurt shaders")
    args = ap.parse_args()

    before, after = read_side(args.before), read_side(args.after)
    keys = sorted(set(before) & set(after))
    print(f"shaders: {len(before)} before, {len(after)} after, {len(keys)} in both")
    if not keys:
        return 1
    if args.stats:
        stats = args.stats.split(",")
    else:
        seen = []
        for k in keys:
            for s in before[k]:
                if s in after[k] and s not in seen:
                    seen.append(s)
        stats = seen
    print()
    for stat in stats:
        report(stat, before, after, keys, args.worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
