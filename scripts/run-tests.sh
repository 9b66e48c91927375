#!/usr/bin/env bash
# Builds sbcc and runs the whole test suite.  This is the README's test
# command and exactly what CI runs.  The corpus suite runs when ../shared/corpus
# is present and reports itself skipped otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

builddir=${SBCC_BUILDDIR:-build}
jobs=${SBCC_JOBS:-$(nproc)}

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" --buildtype=debugoptimized || exit 1
fi
ninja -C "$builddir" -j "$jobs" || exit 1

meson test -C "$builddir" --num-processes "$jobs" --print-errorlogs "$@"
status=$?

# One plain closing line, counted from Meson's own log.
python3 - "$builddir/meson-logs/testlog.json" <<'PY'
import json, sys
passed = failed = skipped = 0
try:
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line).get("result", "")
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r == "SKIP":
                skipped += 1
            else:
                failed += 1
except OSError:
    pass
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
