"""Reads deckhand's output back with DuckDB and pandas, through real queries."""

import os
import subprocess
from pathlib import Path

import duckdb
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("DECKHAND_BIN", str(ROOT / "target" / "debug" / "deckhand"))


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "out"
    r = subprocess.run(
        [BIN, "convert", str(ROOT / "testdata" / "pinochle"), "-o", str(out), "-q"],
        capture_output=True,
        text=True,
    )
    # invalid.ppn holds quarantined records: exit status 1, nothing printed with -q.
    assert r.returncode == 1, r.stderr
    assert r.stderr == ""
    return out


PINOCHLE = ["hands", "seats", "bids", "tricks", "notes"]


def q(out, sql):
    con = duckdb.connect()
    for t in PINOCHLE:
        con.execute(f"CREATE VIEW {t} AS FROM read_parquet('{out}/pinochle/{t}/*.parquet')")
    con.execute(f"CREATE VIEW errors AS FROM read_parquet('{out}/errors/*.parquet')")
    return con.execute(sql).fetchall()


def test_the_dataset_has_a_folder_per_game_and_the_shared_errors(out):
    assert sorted(p.name for p in out.iterdir()) == ["_deckhand.json", "errors", "pinochle"]
    assert sorted(p.name for p in (out / "pinochle").iterdir()) == sorted(PINOCHLE)


def test_every_record_is_a_hand_or_an_error(out):
    assert q(out, "SELECT count(*) FROM hands") == [(77,)]
    assert q(out, "SELECT count(*) FROM errors WHERE severity = 'error' AND raw IS NOT NULL") == [(8,)]
    per_file = q(
        out,
        """SELECT regexp_extract(source_file, '[^/]+$') AS f, count(*) FROM hands
           GROUP BY f ORDER BY f""",
    )
    assert per_file == [
        ("auctions.ppn", 9),
        ("constructs.ppn", 3),
        ("crlf_bom_latin1.ppn", 2),
        ("games.ppn", 15),
        ("inherit.ppn", 7),
        ("invalid.ppn", 3),
        ("joined.ppn", 5),
        ("latin1_headers.ppn", 1),
        ("latin1_inherit.ppn", 2),
        ("lone_cr.ppn", 2),
        ("meld_points_alone.ppn", 3),
        ("no_blank.ppn", 5),
        ("players.ppn", 6),
        ("sample.ppn", 8),
        ("spec_example.ppn", 3),
        ("terminated.ppn", 3),
    ]


def test_contracts_and_results_of_the_sample(out):
    rows = q(
        out,
        """SELECT hand_number, declarer, contract, trump, result, hand_scores
           FROM hands WHERE source_file LIKE '%spec_example.ppn' ORDER BY record_index""",
    )
    assert rows == [
        (1, "N", 70, "S", "Saved", [129, 63]),
        (2, "S", 50, "-", "No Trump", [-50, 0]),
        (3, "N", 55, "D", None, None),
    ]


def test_trick_points_join_to_hands(out):
    rows = q(
        out,
        """SELECT h.hand_number, sum(t.points), count(*), sum(len(t.cards))
           FROM tricks t JOIN hands h USING (hand_id)
           WHERE h.source_file LIKE '%spec_example.ppn' GROUP BY 1 ORDER BY 1""",
    )
    assert rows == [(1, 50, 20, 80), (3, 3, 2, 5)]
    # Cards are short strings; unnest and count the aces led in hand 1.
    aces = q(
        out,
        """SELECT count(*) FROM tricks t JOIN hands h USING (hand_id)
           WHERE h.source_file LIKE '%spec_example.ppn' AND h.hand_number = 1 AND t.cards[1] LIKE '_A'""",
    )
    assert aces == [(6,)]  # CA, HA, HA, CA, CA, SA


def test_auction_winner_is_the_last_bid(out):
    rows = q(
        out,
        """SELECT h.hand_number, arg_max(b.seat, b.seq) FILTER (WHERE b.bid IS NOT NULL), max(b.bid)
           FROM bids b JOIN hands h USING (hand_id)
           WHERE h.source_file LIKE '%spec_example.ppn' GROUP BY 1 ORDER BY 1""",
    )
    assert rows == [(1, "N", 70), (2, "S", 50), (3, "E", 55)]


def test_meld_points_by_team(out):
    rows = q(
        out,
        """SELECT s.team, sum(s.meld_points) FROM seats s JOIN hands h USING (hand_id)
           WHERE h.source_file LIKE '%spec_example.ppn' AND h.hand_number = 1 GROUP BY 1 ORDER BY 1""",
    )
    assert rows == [(1, 98), (2, 44)]


def test_pandas_reads_every_table(out):
    hands = pd.read_parquet(out / "pinochle" / "hands", dtype_backend="pyarrow")
    assert len(hands) == 77
    sample = hands[hands.source_file.str.endswith("spec_example.ppn")].sort_values("record_index")
    assert list(sample.contract) == [70, 50, 55]
    assert str(sample.date.iloc[0]) == "2015-08-31"
    assert list(sample.game_scores.iloc[0]) == [0, 0]
    assert list(sample.other_tags.iloc[0]) == []
    # With the pyarrow dtypes, nullable integers stay integers (and the keys
    # are signed).
    assert str(hands.contract.dtype) == "int32[pyarrow]"
    assert hands.contract.isna().any()
    assert str(hands.hand_id.dtype) == "int64[pyarrow]"
    seats = pd.read_parquet(out / "pinochle" / "seats")
    assert len(seats) == q(out, "SELECT sum(players) FROM hands")[0][0]
    notes = pd.read_parquet(out / "pinochle" / "notes")
    chat = notes[(notes.tag == "Chat") & (notes.seat == "W")]
    assert "ty gg" in set(chat.text)
    errors = pd.read_parquet(out / "errors")
    assert set(errors.severity) == {"error", "warning", "info"}
    assert errors[errors.severity == "error"].raw.notna().all()


def test_metadata_names_the_inputs(out):
    import pyarrow.parquet as pq

    md = pq.read_metadata(out / "pinochle" / "hands" / "part-00000.parquet").metadata
    assert md[b"deckhand.schema_version"] == b"2"
    assert md[b"deckhand.table"] == b"hands"
    assert md[b"deckhand.game"] == b"pinochle"
    assert b"spec_example.ppn" in md[b"deckhand.inputs"]
