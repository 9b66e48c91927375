#!/usr/bin/env python3
"""check_sb_report_corpus.py SB_REPORT SBCC: sb-report on the real corpus.

The head to head is only fair if sbcc counts Mesa's bytes as Mesa does:
require, per chip, that sbcc's alu_groups, gprs and dw of every nosb image
equal Mesa's, and that the report has its three comparisons.  Exit 77
(skip) when the corpus is absent.
"""
import re
import subprocess
import sys

script, sbcc = sys.argv[1:3]
r = subprocess.run([sys.executable, script, "--sbcc", sbcc], capture_output=True, text=True)
if r.returncode == 77:
    print(r.stderr.strip() or "no corpus")
    sys.exit(77)
errors = []
if r.returncode != 0:
    errors.append(f"sb-report exit {r.returncode}: {r.stderr}")
for chip in ("CYPRESS", "RV770"):
    m = re.search(rf"^== {chip}: (\d+) shaders; .* differs from Mesa's on (.*)$", r.stdout, re.M)
    if not m or int(m.group(1)) == 0:
        errors.append(f"{chip}: no summary line")
    elif m.group(2) != "0 (alu_groups), 0 (gprs), 0 (dw)":
        errors.append(f"{chip}: sbcc counts Mesa's nosb bytes differently: {m.group(2)}")
    for title in ("Mesa nosb -> Mesa sb", "Mesa nosb -> sbcc sb", "Mesa sb -> sbcc sb"):
        if f"== {chip}: {title}\n" not in r.stdout:
            errors.append(f"{chip}: no '{title}' section")
if errors:
    print("\n".join(errors))
    sys.exit(1)
