#!/usr/bin/env python3
"""Run shader-db-report.py on fixed inputs and diff against the expected text."""
import subprocess
import sys

script, before, after, expected = sys.argv[1:5]
out = subprocess.run([sys.executable, script, before, after, "--stats", "alu_groups,gprs",
                      "--worst", "2"], capture_output=True, text=True, check=True).stdout
with open(expected) as f:
    want = f.read()
if out != want:
    sys.stdout.write("--- expected\n" + want + "--- got\n" + out)
    sys.exit(1)
