#!/bin/sh
# The main CI job: build, then run every bundled .shader_test on every target
# in the registry (`sbcc targets`, so new backends appear here by themselves),
# printing one row per shader (result + shader-db statistics of each stage)
# and a totals line per target.  Exit status is non-zero when the build fails
# or any test fails or errors (skips are fine).
#
#   BUILD_DIR=build JOBS=2 scripts/main-job.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-2}

if [ ! -f "$build/build.ninja" ]; then
   meson setup "$build" "$root" || exit 1
fi
ninja -C "$build" -j"$jobs" || exit 1
sbcc=$build/src/tools/sbcc

tests=$(ls "$root"/tests/shaders/*.shader_test 2>/dev/null)
if [ -z "$tests" ]; then
   echo "no tests under tests/shaders" >&2
   exit 1
fi

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every target, then the r600-family targets again through the sb optimizer
# (R600_DEBUG=sb), whose rows read "<target>+sb".
for row in $("$sbcc" targets) evergreen+sb r700+sb; do
   target=${row%+sb}
   r600_debug=${R600_DEBUG:-}
   [ "$row" != "$target" ] && r600_debug=sb
   # One process per command for all files; results are joined by file name.
   # shellcheck disable=SC2086
   R600_DEBUG=$r600_debug "$sbcc" run-test --target="$target" $tests >"$tmp/run" 2>"$tmp/run.err"
   # shellcheck disable=SC2086
   R600_DEBUG=$r600_debug "$sbcc" stats --target="$target" -j "$jobs" $tests >"$tmp/stats" 2>"$tmp/stats.err"
   awk -v target="$row" -v base="$target" -v root="$root/" \
       -v gaps="$root/tests/shaders/known-gaps.txt" '
      BEGIN {
         # Tests this target cannot compile yet: reported as GAP, not failed.
         while ((getline g < gaps) > 0)
            if (g !~ /^#/ && split(g, w, " ") >= 2 && w[1] == base)
               gap[w[2]] = 1
      }
      FNR == NR {
         # stats: "<file> - <stage> shader: <n> <stat>, ..."
         split($0, parts, " - ")
         file = parts[1]
         rest = substr($0, length(file) + 4)
         if (file in stats)
            stats[file] = stats[file] "; " rest
         else
            stats[file] = rest
         n = split(substr(rest, index(rest, ": ") + 2), kv, ", ")
         for (i = 1; i <= n; i++) {
            split(kv[i], p, " ")
            if (!(p[2] in total))
               order[++norder] = p[2]
            total[p[2]] += p[1]
         }
         next
      }
      /^(PASS|FAIL|SKIP|ERROR) / {
         res = $1
         file = substr($0, length(res) + 2)
         count[res]++
         name = file
         sub(root "tests/shaders/", "", name)
         if (name in gap) {
            count[res]--
            if (res == "ERROR")
               res = "GAP"
            else
               res = res "(listed in known-gaps.txt)"
            count[res]++
         }
         printf "%-10s %-5s %-45s %s\n", target, res, name, stats[file]
      }
      END {
         line = ""
         for (i = 1; i <= norder; i++)
            line = line (i > 1 ? ", " : "") total[order[i]] " " order[i]
         printf "totals %s: %d passed, %d failed, %d errors, %d skipped, %d known gaps; %s\n",
                target, count["PASS"], count["FAIL"], count["ERROR"], count["SKIP"],
                count["GAP"], line
         if (count["FAIL"] + count["ERROR"] > 0)
            exit 1
      }' "$tmp/stats" "$tmp/run"
   if [ $? -ne 0 ]; then
      status=1
      # The failing probes and diagnostics, for the CI log.
      grep -v '^\(PASS\|SKIP\) ' "$tmp/run" | sed 's/^/  /'
      sed 's/^/  /' "$tmp/run.err"
   fi
done
exit $status
