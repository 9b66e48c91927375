#!/usr/bin/env python3
"""check_output.py EXPECTED SCRIPT ARGS...: run a Python script, diff its stdout with EXPECTED."""
import subprocess
import sys

expected, cmd = sys.argv[1], sys.argv[2:]
r = subprocess.run([sys.executable] + cmd, capture_output=True, text=True)
with open(expected) as f:
    want = f.read()
if r.returncode != 0 or r.stdout != want:
    sys.stdout.write(f"exit status {r.returncode}\n{r.stderr}--- expected\n{want}--- got\n{r.stdout}")
    sys.exit(1)
