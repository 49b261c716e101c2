#!/usr/bin/env bash
# Runs every test: formatting, lints, Rust unit/integration tests, bench build,
# and the DuckDB/pandas read-back tests (in a venv under target/).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo test
# The golden and equivalence suites again with every column written by the
# Arrow writer (`--writer arrow`): the fallback, and the oracle of the fast path.
DECKHAND_WRITER=arrow cargo test --test golden --test equivalence
cargo bench --no-run

venv=target/pyenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
DECKHAND_BIN="$PWD/target/debug/deckhand" "$venv/bin/python" -m pytest -q tests/python
