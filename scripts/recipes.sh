#!/usr/bin/env bash
# Runs the Spark and Ray recipes of docs/python.md (docs/recipes/) against
# the bundled files, in a venv of their own (target/recipes-venv: PySpark 4
# needs Java 17 or later). Not part of CI: PySpark and Ray are large.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/recipes-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check pyspark==4.3.0 "ray[data]==2.60.0" pyarrow==26.0.1 pandas==3.1.1
"$venv/bin/pip" install --quiet --disable-pip-version-check ./python
cargo build --release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bridge=(testdata/bridge testdata/bridge/rbn)
poker=(testdata/poker/valid)
target/release/deckhand convert -q -o "$out/bridge" "${bridge[@]}" || [ $? -eq 1 ]
target/release/deckhand convert -q -o "$out/poker" "${poker[@]}" || [ $? -eq 1 ]
"$venv/bin/python" docs/recipes/spark_datasource.py "$out/bridge" "${bridge[@]}"
"$venv/bin/python" docs/recipes/ray_datasource.py "$out/poker" "${poker[@]}"
