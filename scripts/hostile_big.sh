#!/usr/bin/env bash
# Large hostile inputs, generated rather than committed, each converted with
# its peak memory reported (scripts/peak_mem.sh): a record of SIZE_MB megabytes
# (default 500) between two good records, and a line of LINE_MB megabytes
# (default 50) in a tag value; each read mapped, gzip-compressed and from stdin.
# Expect: every run exits 1 (one record quarantined, P009, or 0 for the long
# line with a P100 warning), the good records convert, and peak anonymous
# memory stays far below the input size.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-500}
LINE_MB=${LINE_MB:-50}
DIR=${DIR:-target/hostile_big}
mkdir -p "$DIR"
cargo build --release --quiet
BIN=target/release/deckhand

good_a='[Event "a"]
[Dealer "N"]'
good_b='[Event "b"]
[Dealer "E"]'

{
  printf '%s\n\n[Event "big"]\n{' "$good_a"
  head -c $((SIZE_MB << 20)) /dev/zero | tr '\0' 'x'
  printf '}\n\n%s\n' "$good_b"
} > "$DIR/huge_record.ppn"
{
  printf '%s\n\n[Event "' "$good_a"
  head -c $((LINE_MB << 20)) /dev/zero | tr '\0' 'y'
  printf '"]\n[Dealer "S"]\n\n%s\n' "$good_b"
} > "$DIR/long_line.ppn"
for f in huge_record long_line; do
  gzip -1 -c "$DIR/$f.ppn" > "$DIR/$f.ppn.gz"
done

run() {
  local label=$1; shift
  echo "== $label"
  set +e
  scripts/peak_mem.sh "$@" 2>&1 | grep -E "records in|converted|peak_rss"
  set -e
}
for f in huge_record long_line; do
  run "$f mapped" "$BIN" convert --force -o "$DIR/out" "$DIR/$f.ppn"
  run "$f gzip" "$BIN" convert --force -o "$DIR/out" "$DIR/$f.ppn.gz"
  run "$f stdin" sh -c "exec '$BIN' convert --force -o '$DIR/out' - < '$DIR/$f.ppn'"
done
