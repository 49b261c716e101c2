#!/usr/bin/env bash
# Runs every test: formatting, lints, Rust unit/integration tests (the core
# crate's and the page writers', pages/), bench builds,
# the Python package (python/, built into a venv under target/ by maturin, a
# debug build sharing target/ with the core crate), and the Python tests:
# read-back with DuckDB/pandas, peers, the package with pyarrow, Polars,
# DuckDB, pandas and Dask.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pyenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt

cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo clippy -p deckhand-pages --all-targets -- -D warnings
# The binding crate needs a Python interpreter to build against (abi3).
PYO3_PYTHON="$PWD/$venv/bin/python" cargo clippy -p deckhand-python --all-targets -- -D warnings
cargo test
cargo test -p deckhand-pages
# The golden and equivalence suites again with every column written by the
# Arrow writer (`--writer arrow`): the fallback, and the oracle of the fast path.
DECKHAND_WRITER=arrow cargo test --test pinochle --test pipeline -- golden:: equivalence::
cargo bench --no-run
cargo bench -p deckhand-pages --no-run

(cd python && VIRTUAL_ENV="$PWD/../$venv" PATH="$PWD/../$venv/bin:$PATH" maturin develop --quiet)
DECKHAND_BIN="$PWD/target/debug/deckhand" "$venv/bin/python" -m pytest -q tests/python
