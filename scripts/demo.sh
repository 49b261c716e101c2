#!/usr/bin/env bash
# Converts the bundled samples (a pinochle archive, the PBN spec's example
# game, the RBN spec's records, the PHH standard's example hands, the Preferans
# PPN spec's example game) and shows DuckDB queries of them; then
# writes the PBN game as RBN.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/sample}

cargo build --release --quiet
target/release/deckhand convert testdata/pinochle/sample.ppn testdata/bridge/spec_example.pbn \
  testdata/bridge/rbn/spec_belles.rbn testdata/poker/valid/spec_dwan_ivey.phh \
  testdata/poker/valid/variants.phhs testdata/preferans/spec_example.ppn -o "$out" --force

venv=target/pyenv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
"$venv/bin/python" - "$out" <<'PY'
import sys, duckdb
out = sys.argv[1]
sql = f"""
SELECT h.hand_number, h.declarer, h.contract, h.trump, h.result,
       count(t.trick) AS tricks, sum(t.points) AS trick_points
FROM '{out}/pinochle/hands/*.parquet' h
LEFT JOIN '{out}/pinochle/tricks/*.parquet' t USING (hand_id)
GROUP BY ALL ORDER BY h.hand_number
"""
print(sql.strip())
duckdb.sql(sql).show()
sql = f"""
SELECT b.notation, b.board, b.contract, b.declarer, b.result, b.computed_score_ns,
       string_agg(c.call, ' ' ORDER BY c.seq) AS auction
FROM '{out}/bridge/boards/*.parquet' b
JOIN '{out}/bridge/calls/*.parquet' c USING (board_id)
GROUP BY ALL
"""
print(sql.strip())
duckdb.sql(sql).show()
sql = f"""
SELECT h.hand_id, h.variant, h.section, count(*) FILTER (a.action = 'cbr') AS raises,
       max(a.street) AS last_street, h.board
FROM '{out}/poker/hands/*.parquet' h
JOIN '{out}/poker/actions/*.parquet' a USING (hand_id)
GROUP BY ALL ORDER BY h.hand_id
"""
print(sql.strip())
duckdb.sql(sql).show()
sql = f"""
SELECT d.deal, d.contract_name, d.kontra_level, d.value, s.player, s.role, s.tricks, s.computed_tricks
FROM '{out}/preferans/deals/*.parquet' d
JOIN '{out}/preferans/seats/*.parquet' s USING (game_id, seq)
WHERE s.role <> 'none' ORDER BY d.seq, s.player
"""
print(sql.strip())
duckdb.sql(sql).show()
PY
echo "The PBN game as RBN (deckhand export --to rbn):"
target/release/deckhand export --to rbn testdata/bridge/spec_example.pbn -o - -q
