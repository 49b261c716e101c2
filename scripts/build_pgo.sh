#!/usr/bin/env bash
# Builds deckhand with profile-guided optimization (PGO) and prints the
# binary's path (target/pgo/release/deckhand); progress goes to stderr.
#
#   1. an instrumented build (target/pgo-gen/), which counts branches and calls;
#   2. training: that binary runs every command on generated archives (EXPORT
#      and IMPORT style, comments, chat, inheritance, terminated and malformed
#      records, a gzip stream), with and without the rules, every codec; and
#      converts and checks the bundled PBN files;
#   3. llvm-profdata merges the counts (rustup's llvm-tools component, which
#      matches rustc's LLVM; installed if missing);
#   4. the final build (target/pgo/) optimizes with them: likely branches laid
#      out straight, hot calls inlined, cold paths moved aside.
#
# Same output bytes as `cargo build --release` (PGO changes no semantics);
# 6-14% faster in the README's alternated runs ("Profile-guided build").
# Functions the training never runs are treated as cold, so it runs every
# subcommand once. Re-running it does nothing while the sources, Cargo.lock and
# the compiler stay the same.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { echo "build_pgo: $*" >&2; }

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$sysroot/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
  say "installing rustup's llvm-tools component (for llvm-profdata)"
  rustup component add llvm-tools >&2
fi
[ -x "$profdata" ] || { say "llvm-profdata not found at $profdata"; exit 2; }

# Two trainings of the same code give profiles that are not byte-identical
# (seen even with one worker thread), so a rebuild is skipped by a stamp of
# the sources and the compiler instead of by comparing profiles.
bin=target/pgo/release/deckhand
stamp_file=target/pgo-data/stamp
stamp=$( { rustc -vV; cat scripts/build_pgo.sh Cargo.toml Cargo.lock; find src testdata/bridge -type f | sort | xargs cat; } | sha256sum | cut -d' ' -f1)
if [ -x "$bin" ] && [ "$(cat "$stamp_file" 2>/dev/null)" = "$stamp" ]; then
  say "up to date"
  echo "$bin"
  exit 0
fi
mkdir -p target/pgo-data
rm -f "$stamp_file"

raw=$root/target/pgo-data/raw
merged=$root/target/pgo-data/deckhand.profdata
say "instrumented build (target/pgo-gen)"
RUSTFLAGS="-Cprofile-generate=$raw" cargo build --release --quiet --target-dir target/pgo-gen
gen=target/pgo-gen/release/deckhand

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$raw"
say "training run"
# For convert, check and export, status 1 means records were quarantined (the
# archives have malformed ones on purpose); 2 is a real failure.
run() { "$@" >/dev/null || [ $? -eq 1 ]; }
run "$gen" generate --hands 40000 --seed 7 -o "$work/export.ppn"
run "$gen" generate --hands 10000 --seed 8 --import --inherit --crlf --comments 0.1 \
  --chat 0.1 --terminated 0.05 --malformed 0.02 -o "$work/import.ppn"
run "$gen" generate --hands 10000 --seed 9 --terminated 0.05 --malformed 0.02 -o "$work/stress.ppn"
gzip -c "$work/stress.ppn" >"$work/stress.ppn.gz"
run "$gen" convert -q -j 1 "$work/export.ppn" -o "$work/o1"
run "$gen" convert -q -j 1 --no-rules "$work/export.ppn" -o "$work/o2"
run "$gen" convert -q -j 1 --compression snappy "$work/import.ppn" -o "$work/o3"
run "$gen" convert -q -j 1 --compression none "$work/stress.ppn.gz" -o "$work/o4"
run "$gen" check -j 1 "$work/import.ppn"
run "$gen" export -q -j 1 "$work/import.ppn" -o "$work/export2.ppn"
run "$gen" bench "$work/export.ppn" -j 1 --runs 1
# PBN: the bundled real files (testdata/real/bridge), five
# times over so that its code weighs as much as pinochle's, and the fixtures.
bridge=testdata/real/bridge
if [ -d "$bridge" ]; then
  for _ in 1 2 3 4 5; do
    for f in "$bridge"/*/*.pbn; do cat "$f"; echo; echo; done
  done >"$work/bridge.pbn"
  run "$gen" convert -q -j 1 "$work/bridge.pbn" -o "$work/o5"
  run "$gen" convert -q -j 1 --no-rules testdata/bridge -o "$work/o6"
  run "$gen" check -j 1 --info testdata/bridge "$bridge"
fi
"$profdata" merge -o "$merged" "$raw"

say "optimized build (target/pgo)"
RUSTFLAGS="-Cprofile-use=$merged" cargo build --release --quiet --target-dir target/pgo
echo "$stamp" >"$stamp_file"
echo "$bin"
