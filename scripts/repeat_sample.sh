#!/usr/bin/env bash
# Writes an archive of at least SIZE_MB megabytes by repeating the bundled sample
# (until `deckhand generate` exists): scripts/repeat_sample.sh 1024 /tmp/big.ppn
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:?size in MB}; out=${2:?output file}
unit=$(mktemp); trap 'rm -f "$unit"' EXIT
for _ in $(seq 1 1000); do cat testdata/pinochle/sample.ppn; echo; done > "$unit"
: > "$out"
need=$((size_mb * 1000000))
while [ "$(stat -c %s "$out")" -lt "$need" ]; do cat "$unit" >> "$out"; done
ls -l "$out"
