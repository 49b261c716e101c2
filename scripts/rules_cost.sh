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
cargo build --release --quiet
bin=target/release/deckhand
data=target/bench-data
mkdir -p "$data"
file=$data/rules-cost-${hands}-seed1.ppn
[ -f "$file" ] || "$bin" generate --hands "$hands" --seed 1 -o "$file" 2>/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
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
