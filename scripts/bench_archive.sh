#!/usr/bin/env bash
# Builds deckhand (release) and makes sure a generated archive exists under
# target/bench-data/ (made once, then reused); prints its path.
#   scripts/bench_archive.sh NAME HANDS SEED   ->  target/bench-data/NAME.ppn
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 hands=$2 seed=$3
cargo build --release --quiet
data=target/bench-data
mkdir -p "$data"
file=$data/$name.ppn
[ -f "$file" ] || target/release/deckhand generate --hands "$hands" --seed "$seed" -o "$file" >&2
echo "$file"
