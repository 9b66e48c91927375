#!/usr/bin/env bash
# Builds sbcc and runs the whole test suite.  This is the README's test
# command and exactly what CI runs.
#
#  1. The normal build runs every suite.  The corpus suite reads
#     ../shared/corpus when it is present and reports itself skipped otherwise.
#  2. A second build with AddressSanitizer and UndefinedBehaviorSanitizer runs
#     every suite except the corpus and the per-file shader_test runs (their
#     code paths are covered there by the unit, random and fuzz-regression
#     suites at a fraction of the time).  SBCC_SANITIZE=0 skips it.
set -uo pipefail
cd "$(dirname "$0")/.."

builddir=${SBCC_BUILDDIR:-build}
sanbuilddir=${SBCC_SAN_BUILDDIR:-build-san}
jobs=${SBCC_JOBS:-$(nproc)}
status=0

configure() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" || return 1
  fi
}

echo "== build ($builddir)"
configure "$builddir" --buildtype=debugoptimized || exit 1
ninja -C "$builddir" -j "$jobs" || exit 1
echo "== tests ($builddir)"
meson test -C "$builddir" --num-processes "$jobs" --print-errorlogs "$@" || status=1

logs=("$builddir/meson-logs/testlog.json")
if [ "${SBCC_SANITIZE:-1}" != 0 ]; then
  echo "== build with ASan+UBSan ($sanbuilddir)"
  # -O1 without debug info: sanitizers find the same errors at half the build time.
  configure "$sanbuilddir" --buildtype=debugoptimized -Doptimization=1 -Ddebug=false \
    -Db_sanitize=address,undefined -Db_lundef=false || exit 1
  ninja -C "$sanbuilddir" -j "$jobs" || exit 1
  echo "== tests under ASan+UBSan ($sanbuilddir)"
  suites=$(meson test -C "$sanbuilddir" --list 2>/dev/null |
           sed -n 's/^sbcc:\([^ /]*\).*/\1/p' | tr '+' '\n' | sort -u |
           grep -v -e '^corpus$' -e '^shaders')
  args=()
  for s in $suites; do args+=(--suite "$s"); done
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C "$sanbuilddir" --no-rebuild --num-processes "$jobs" --print-errorlogs \
      --timeout-multiplier 4 "${args[@]}" || status=1
  logs+=("$sanbuilddir/meson-logs/testlog.json")
fi

# One plain closing line, counted from Meson's own logs.
python3 - "${logs[@]}" <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line).get("result", "")
                if r in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif r == "SKIP":
                    skipped += 1
                else:
                    failed += 1
    except OSError:
        failed += 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
