#!/usr/bin/env bash
# What the rules engine costs in `convert`: the same generated archive
# converted with and without the rules, alternating, RUNS times each; prints
# the best and median wall and CPU (user+sys) seconds and the extra.
#   HANDS=46000 RUNS=6 THREADS=2 scripts/rules_cost.sh   (defaults; about 40 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
hands=${HANDS:-46000}
runs=${RUNS:-6}
threads=${THREADS:-2}
file=$(scripts/bench_archive.sh "rules-cost-${hands}-seed1" "$hands" 1 2>/dev/null)
bin=target/release/deckhand
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One untimed run of each first: the first run after a build pays for a cold
# page cache and heap (on 2,000 hands it took 0.25 s against 0.05 s after).
for flag in "" --no-rules; do
  "$bin" convert -q --force -j"$threads" $flag "$file" -o "$out/ds" >/dev/null 2>&1
done
echo "archive: $file ($(($(stat -c %s "$file") / 1000000)) MB), -j$threads, $runs runs each"
for _ in $(seq "$runs"); do
  for mode in rules no-rules; do
    flag=()
    [ "$mode" = no-rules ] && flag=(--no-rules)
    /usr/bin/time -f "$mode %e %U %S" "$bin" convert -q --force -j"$threads" "${flag[@]}" \
      "$file" -o "$out/ds" 2>&1 >/dev/null | tail -1
  done
done | python3 -c '
import sys, statistics as st
wall, cpu = {}, {}
for line in sys.stdin:
    mode, w, u, s = line.split()
    wall.setdefault(mode, []).append(float(w))
    cpu.setdefault(mode, []).append(float(u) + float(s))
for mode in ("rules", "no-rules"):
    print("%-9s best wall %.3f s cpu %.3f s; median wall %.3f s cpu %.3f s" % (
        mode, min(wall[mode]), min(cpu[mode]), st.median(wall[mode]), st.median(cpu[mode])))
def extra(f, d):
    return 100 * (f(d["rules"]) / f(d["no-rules"]) - 1)
print("extra: best wall %+.1f%% cpu %+.1f%%; median wall %+.1f%% cpu %+.1f%%" % (
    extra(min, wall), extra(min, cpu), extra(st.median, wall), extra(st.median, cpu)))
'
