#!/usr/bin/env bash
# End-to-end benchmark on a fixed generated archive (made once, then reused):
# split-only, parse-only (with and without the rules engine) and convert (zstd,
# snappy, none) with 1 and 2 threads, with peak RSS, peak anonymous memory and
# output size; then the same job done by scripts/baseline_ppn.py on the same file.
# A first row times zstd (or md5sum) on the archive: the machine's speed that hour.
# Then the PBN section: `deckhand convert` of a PBN archive made by repeating the
# bundled real files endplay reads (endplay's example2/3 and zdenecek's files),
# with 1 and 2 threads, against endplay reading the same archive
# (scripts/baseline_pbn.py).
# Each deckhand row is the best of RUNS runs (wall times on a shared VM vary by
# 10-40% from run to run); memory is the largest of them. The Python baseline
# runs once.
#   SIZE_MB=1024 SEED=1 RUNS=2 BUILD=pgo PBN_MB=512 SECTIONS="ppn pbn" scripts/bench.sh
#   (defaults; SIZE_MB=100 for a quick run; BUILD=release for the plain build;
#   SECTIONS=pbn for the PBN section alone; SECTIONS=rbn for RBN against
#   PBN on the same boards; SECTIONS=phh for PHH against pokerkit, on a
#   .phhs archive of PHH_MB MB, default 512, made by repeating the bundled
#   real hands: scripts/phh_archive.py; SECTIONS=preferans for Portable
#   Preferans Notation, on a generated archive of PREFERANS_DEALS deals,
#   default 5,200,000: about 630 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${SIZE_MB:-1024}
seed=${SEED:-1}
runs=${RUNS:-2}
sections=" ${SECTIONS:-ppn pbn} "
pbn_mb=${PBN_MB:-512}
phh_mb=${PHH_MB:-512}
# About 870 bytes a hand.
file=""
if [[ $sections == *" ppn "* ]]; then
  file=$(scripts/bench_archive.sh "ppn-${size_mb}mb-seed${seed}" $((size_mb * 1150)) "$seed")
fi
# The profile-guided build by default (what the README's figures are of);
# BUILD=release measures plain `cargo build --release`.
build=${BUILD:-pgo}
if [ "$build" = pgo ] && ! bin=$(scripts/build_pgo.sh); then
  echo "bench.sh: the PGO build failed; measuring the release build" >&2
  build=release
fi
if [ "$build" != pgo ]; then
  cargo build --release --quiet
  bin=target/release/deckhand
fi
echo "binary: $bin ($build build)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The machine's speed in this hour, by a program that does not change from
# one run of this script to the next: zstd -1 on one thread over the archive
# (md5sum where zstd is missing), best of RUNS. Wall times on a shared VM
# drift by up to 2x from hour to hour; compare tables by this row too.
reference() {
  local tool=(md5sum) name=md5sum best="" i start end
  if command -v zstd >/dev/null; then
    tool=(zstd -1 --single-thread -q -c) name="zstd -1"
  fi
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s.%N)
    "${tool[@]}" "$file" >/dev/null
    end=$(date +%s.%N)
    best=$(awk -v b="$best" -v w="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" \
      'BEGIN { print (b == "" || w < b) ? w : b }')
  done
  awk -v n="reference: $name (1 thread)" -v w="$best" -v b="$bytes" \
    'BEGIN { printf "%-36s %8.2f %9.1f %11s %9s %9s %9s\n", n, w, b / 1e6 / w, "-", "-", "-", "-" }'
}
run() { # name, runs, command...
  local name=$1 n=$2; shift 2
  local best="" rss=0 anon=0 hands="" size="" i
  for ((i = 0; i < n; i++)); do
    rm -rf "$out/ds"
    local log start end r a
    start=$(date +%s.%N)
    log=$( { scripts/peak_mem.sh "$@"; } 2>&1 >/dev/null )
    end=$(date +%s.%N)
    best=$(awk -v b="$best" -v w="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" \
      'BEGIN { print (b == "" || w < b) ? w : b }')
    r=$(sed -n 's/.*peak_rss_mb=\([0-9]*\).*/\1/p' <<<"$log")
    a=$(sed -n 's/.*peak_anon_mb=\([0-9]*\).*/\1/p' <<<"$log")
    [ "${r:-0}" -gt "$rss" ] && rss=$r
    [ "${a:-0}" -gt "$anon" ] && anon=$a
    hands=$(sed -n 's/.*deckhand: \([0-9]*\) converted.*/\1/p; s/^baseline: \([0-9]*\) \(hands\|boards\).*/\1/p' <<<"$log" | tail -1)
    size=$(du -sm "$out/ds" 2>/dev/null | cut -f1 || true)
  done
  awk -v n="$name" -v w="$best" -v b="$bytes" -v h="${hands:-0}" -v r="$rss" -v a="$anon" -v o="${size:--}" \
    'BEGIN { printf "%-36s %8.2f %9.1f %11.0f %9s %9s %9s\n", n, w, b / 1e6 / w, h / w, r, a, o }'
}
if [[ $sections == *" ppn "* ]]; then
bytes=$(stat -c %s "$file")
echo
echo "archive: $file ($((bytes / 1000000)) MB)"
printf '%-36s %8s %9s %11s %9s %9s %9s\n' job seconds MB/s hands/s rss_MB anon_MB out_MB
reference
bench_rows() { # label suffix ("" or " --no-rules"), then deckhand bench options
  local suffix=$1; shift
  "$bin" bench "$file" -j 1,2 --runs "$runs" "$@" >"$out/bench"
  # "split (1 thread) 0.043 2330.1 2677422" or "parse (2 threads) ..."
  grep -E '^(split|tokenize|parse) ' "$out/bench" | while read -r a b c d e f; do
    printf '%-36s %8s %9s %11s %9s %9s %9s\n' "$a$suffix $b $c" "$d" "$e" "$f" - - -
  done
  # The size of the columns a parse built, printed below the table.
  sed -n "s/^columns built by a parse: /parse$suffix: /p" "$out/bench" >>"$out/columns"
}
bench_rows ""
# Parsing without the rules engine (the notation alone, no computed columns).
bench_rows " --no-rules" --no-rules | grep '^parse'
for threads in 1 2; do
  for codec in zstd snappy none; do
    run "convert $codec ($threads thread$([ $threads = 1 ] || echo s))" "$runs" \
      "$bin" convert "$file" -o "$out/ds" -j "$threads" --compression "$codec"
  done
done
run "convert zstd --no-rules (2 threads)" "$runs" "$bin" convert "$file" -o "$out/ds" -j 2 --no-rules
# What two cores give work that shares nothing: two one-thread converts of the
# file at once, as separate processes. MB/s and hands/s count both; memory is
# the larger of the two. The ceiling for "2 threads against 1" on this machine.
pair() {
  local best="" rss=0 anon=0 size="" hands="" i
  for ((i = 0; i < runs; i++)); do
    rm -rf "$out/p1" "$out/p2"
    local start end l1 l2 r a
    start=$(date +%s.%N)
    scripts/peak_mem.sh "$bin" convert "$file" -o "$out/p1" -j 1 2>"$out/l1" &
    local p1=$!
    scripts/peak_mem.sh "$bin" convert "$file" -o "$out/p2" -j 1 2>"$out/l2" || true
    wait "$p1" || true
    end=$(date +%s.%N)
    best=$(awk -v b="$best" -v w="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" \
      'BEGIN { print (b == "" || w < b) ? w : b }')
    l1=$(cat "$out/l1"); l2=$(cat "$out/l2")
    r=$(sed -n 's/.*peak_rss_mb=\([0-9]*\).*/\1/p' <<<"$l1"$'\n'"$l2" | sort -n | tail -1)
    a=$(sed -n 's/.*peak_anon_mb=\([0-9]*\).*/\1/p' <<<"$l1"$'\n'"$l2" | sort -n | tail -1)
    [ "${r:-0}" -gt "$rss" ] && rss=$r
    [ "${a:-0}" -gt "$anon" ] && anon=$a
    size=$(du -sm "$out/p1" 2>/dev/null | cut -f1)
    hands=$(sed -n 's/.*deckhand: \([0-9]*\) converted.*/\1/p' <<<"$l2")
    rm -rf "$out/p1" "$out/p2"
  done
  awk -v w="$best" -v b="$bytes" -v h="${hands:-0}" -v r="$rss" -v a="$anon" -v o="${size:--}" \
    'BEGIN { printf "%-36s %8.2f %9.1f %11.0f %9s %9s %9s\n", "convert zstd (2 procs x 1 thread)", w, 2 * b / 1e6 / w, 2 * h / w, r, a, o }'
}
pair
venv=target/pyenv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyarrow
run "python baseline (1 thread)" 1 "$venv/bin/python" scripts/baseline_ppn.py "$file" "$out/ds"
echo
echo "columns built (values and bytes of Arrow arrays):"
cat "$out/columns"
fi

# A PBN archive of at least PBN_MB MB: the bundled real files endplay reads,
# each followed by a blank line, repeated (made once, then reused).
pbn=target/bench-data/pbn-${pbn_mb}mb.pbn
pbn_archive() {
  if [ ! -f "$pbn" ]; then
    mkdir -p target/bench-data
    local unit
    unit=$(mktemp)
    for f in testdata/real/bridge/endplay/example{2,3}.pbn testdata/real/bridge/zdenecek-pbn/*.pbn; do
      cat "$f"; echo; echo
    done >"$unit"
    : >"$pbn.part"
    while [ "$(stat -c %s "$pbn.part")" -lt $((pbn_mb * 1000000)) ]; do cat "$unit" >>"$pbn.part"; done
    rm -f "$unit"
    mv "$pbn.part" "$pbn"
  fi
}

if [[ $sections == *" pbn "* ]]; then
  pbn_archive
  file=$pbn
  bytes=$(stat -c %s "$file")
  echo
  echo "PBN archive: $file ($((bytes / 1000000)) MB, the bundled real files repeated)"
  printf '%-36s %8s %9s %11s %9s %9s %9s\n' job seconds MB/s games/s rss_MB anon_MB out_MB
  reference
  for threads in 1 2; do
    run "convert pbn zstd ($threads thread$([ $threads = 1 ] || echo s))" "$runs" \
      "$bin" convert "$file" -o "$out/ds" -j "$threads" | tee -a "$out/pbn_rows"
  done
  venv=target/pyenv
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  run "endplay 0.5.12 (1 thread)" 1 "$venv/bin/python" scripts/baseline_pbn.py "$file" | tee -a "$out/pbn_rows"
  # MB/s of deckhand at 2 threads over endplay's, in this run.
  awk '/2 threads/ { d = $(NF-4) } /^endplay/ { e = $(NF-4) }
    END { if (e > 0) printf "deckhand convert (2 threads) / endplay: %.1fx\n", d / e }' "$out/pbn_rows"
fi

if [[ $sections == *" rbn "* ]]; then
  # The same deals in RBN: the PBN archive written by `deckhand export --to
  # rbn` (made once, then reused); RBN and PBN convert side by side, per
  # board (the files differ in size: RBN is the compact one).
  pbn_archive
  rbn=target/bench-data/rbn-${pbn_mb}mb.rbn
  if [ ! -f "$rbn" ]; then
    "$bin" export --to rbn "$pbn" -o "$rbn.part" -q || true
    mv "$rbn.part" "$rbn"
  fi
  echo
  echo "RBN archive: $rbn ($(($(stat -c %s "$rbn") / 1000000)) MB), the PBN archive's boards exported"
  printf '%-36s %8s %9s %11s %9s %9s %9s\n' job seconds MB/s boards/s rss_MB anon_MB out_MB
  for threads in 1 2; do
    for f in "$pbn" "$rbn"; do
      file=$f
      bytes=$(stat -c %s "$file")
      run "convert ${f##*.} zstd ($threads thread$([ $threads = 1 ] || echo s))" "$runs" \
        "$bin" convert "$file" -o "$out/ds" -j "$threads" | tee -a "$out/rbn_rows"
    done
  done
  # Boards a second, RBN over PBN, by thread count.
  awk '/^convert pbn/ { p[$4] = $(NF-3) } /^convert rbn/ { r[$4] = $(NF-3) }
    END { for (t in p) if (p[t] > 0) printf "RBN / PBN boards a second, %s threads): %.2f\n", t, r[t] / p[t] }' "$out/rbn_rows"
fi

if [[ $sections == *" phh "* ]]; then
  # A .phhs archive of at least $1 MB: the bundled real hands, each a table
  # [N], repeated (made once, then reused); it becomes $file, with its
  # heading ($2) and the table's.
  phh_archive() {
    file=target/bench-data/phh-$1mb.phhs
    if [ ! -f "$file" ]; then
      mkdir -p target/bench-data
      python3 scripts/phh_archive.py "$1" "$file.part"
      mv "$file.part" "$file"
    fi
    bytes=$(stat -c %s "$file")
    echo
    echo "$2: $file ($((bytes / 1000000)) MB, the bundled real hands repeated)"
    printf '%-36s %8s %9s %11s %9s %9s %9s\n' job seconds MB/s hands/s rss_MB anon_MB out_MB
  }
  phh_archive "$phh_mb" "PHH archive"
  reference
  for threads in 1 2; do
    run "convert phh zstd ($threads thread$([ $threads = 1 ] || echo s))" "$runs" \
      "$bin" convert "$file" -o "$out/ds" -j "$threads" | tee -a "$out/phh_rows"
  done
  run "convert phh --no-rules (2 threads)" "$runs" \
    "$bin" convert "$file" -o "$out/ds" --no-rules | tee -a "$out/phh_rows"
  venv=target/pyenv
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  run "pokerkit 0.7.7 load_all (1 thread)" 1 "$venv/bin/python" scripts/baseline_phh.py "$file" | tee -a "$out/phh_rows"
  awk '/2 threads/ && !/no-rules/ { d = $(NF-4) } /no-rules/ { n = $(NF-4) } /^pokerkit/ { p = $(NF-4) }
    END { if (p > 0) printf "deckhand convert (2 threads) / pokerkit load: %.1fx\n", d / p
          if (n > 0) printf "rules cost over --no-rules: %.0f%%\n", (n / d - 1) * 100 }' "$out/phh_rows"
  # The rules against pokerkit's replay (load and iterate every state, about
  # 1,000 hands a second): on a smaller archive, PHH_REPLAY_MB (default 16).
  phh_archive "${PHH_REPLAY_MB:-16}" "PHH replay"
  run "convert phh, rules (2 threads)" "$runs" "$bin" convert "$file" -o "$out/ds" | tee "$out/replay_rows"
  run "convert phh --no-rules (2 threads)" "$runs" \
    "$bin" convert "$file" -o "$out/ds" --no-rules | tee -a "$out/replay_rows"
  run "pokerkit 0.7.7 replay (1 thread)" 1 "$venv/bin/python" scripts/baseline_phh.py --replay "$file" | tee -a "$out/replay_rows"
  awk '/, rules/ { d = $(NF-4) } /no-rules/ { n = $(NF-4) } /^pokerkit/ { p = $(NF-4) }
    END { if (p > 0) printf "deckhand convert with rules / pokerkit replay: %.1fx\n", d / p
          if (n > 0) printf "rules cost over --no-rules: %.0f%%\n", (n / d - 1) * 100 }' "$out/replay_rows"
fi
if [[ $sections == *" preferans "* ]]; then
  deals=${PREFERANS_DEALS:-5200000}
  file=target/bench-data/preferans-$deals.ppn
  if [ ! -f "$file" ]; then
    mkdir -p target/bench-data
    "$bin" generate --game preferans --hands "$deals" --seed "$seed" -o "$file.part"
    mv "$file.part" "$file"
  fi
  bytes=$(stat -c %s "$file")
  echo
  echo "Preferans archive: $file ($((bytes / 1000000)) MB, $deals deals, deckhand generate --game preferans)"
  printf '%-36s %8s %9s %11s %9s %9s %9s\n' job seconds MB/s games/s rss_MB anon_MB out_MB
  reference
  for threads in 1 2; do
    run "convert preferans zstd ($threads thread$([ $threads = 1 ] || echo s))" "$runs" \
      "$bin" convert "$file" -o "$out/ds" -j "$threads" | tee -a "$out/preferans_rows"
  done
  run "convert preferans --no-rules (2 threads)" "$runs" \
    "$bin" convert "$file" -o "$out/ds" --no-rules | tee -a "$out/preferans_rows"
  awk -v d="$deals" '/^convert/ { printf "%s: %.0f deals/s\n", substr($0, 1, 36), d / $(NF-5) }' "$out/preferans_rows"
fi
