"""Round trips between the bridge notations: a board written by
`deckhand export --to pbn|rbn|rbx` and converted again gives the rows of
the board converted from its own notation.

- every bundled real PBN file: PBN -> RBN -> rows, and PBN -> RBX -> rows;
- every RBN and RBX golden file: RBN -> PBN -> rows.

Compared: every bridge table but `score_tables` (PBN's tables, which RBN
has no label for) and `errors`; every column but those in SKIPPED; board by
board in order. Where a board differs, it must be for a reason in REASONS
(what the other notation cannot carry, told by the board's direct rows),
and the number of such boards is exact. docs/notations/rbn.md lists the
same."""

import collections
import os
import subprocess
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("DECKHAND_BIN", str(ROOT / "target" / "debug" / "deckhand"))
REAL = ROOT / "testdata" / "real" / "bridge"
PBN_FILES = sorted(REAL.rglob("*.pbn"))
RBN_FILES = sorted((ROOT / "testdata" / "bridge" / "rbn").glob("*.rb[nx]"))

# Columns left out: provenance, values as written (`*_text`: PBN `Pass` is
# RBN `P`, a date `1993.05.12` is `19930512`; calls.text, plays.text), what
# each notation keeps as written aside (other_tags), and where a
# double-dummy row was read from.
SKIPPED = {
    "boards": {"source_file", "record_index", "byte_offset", "line", "notation",
               "notation_version", "format", "date_text", "vulnerable_text", "deal_text",
               "contract_text", "result_text", "score_text", "other_tags"},
    "calls": {"text"},
    "plays": {"text"},
    "double_dummy": {"source"},
}
TABLES = ["boards", "seats", "calls", "plays", "tricks", "notes", "double_dummy"]
MARKS = ("!", "?", "!!", "??", "!?", "?!", "*")
NAG = {"$1": "!", "$2": "?", "$3": "!!", "$4": "??", "$5": "!?", "$6": "?!"}


def convert(inp, out):
    # Exit status 1: some records were quarantined (written to errors).
    r = subprocess.run([BIN, "convert", str(inp), "-o", str(out), "--force", "-q"],
                       capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr


def export(inp, to, out):
    r = subprocess.run([BIN, "export", "--to", to, str(inp), "-o", str(out), "-q"],
                       capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr


def normalize(cols, r):
    """What the two notations write differently for one value."""
    r = [tuple(v) if isinstance(v, list) else v for v in r]
    for i, c in enumerate(cols):
        v = r[i]
        if isinstance(v, str):
            # An empty RBN value is the bare label (null); a record's
            # trailing white space is its end; PBN's export format writes
            # a value not known as `?`.
            v = v.rstrip() or None
            v = None if v == "?" else v
        if c == "annotation" and v is not None:
            # RBN has one mark a call or play: PBN's suffixes and the NAGs
            # $1-$6 that stand for them (not its other NAGs or ^ marks).
            parts = [NAG.get(p, p) for p in v.split(" ")]
            v = next((p for p in parts if p in MARKS), None)
        r[i] = v
    return tuple(r)


def boards_rows(out):
    """{table: {board position: [rows]}} of a dataset."""
    con = duckdb.connect()
    ids = out / "bridge" / "boards"
    got = {}
    for t in TABLES:
        base = out / "bridge" / t
        by = collections.defaultdict(list)
        got[t] = by
        if not base.exists():
            continue
        cols = [c for c in con.sql(f"select * from '{base}/*.parquet' limit 0").columns
                if c not in SKIPPED.get(t, set()) and c != "board_id"]
        q = f"""
            with b as (select board_id, row_number() over (order by board_id) as k
                       from '{ids}/*.parquet')
            select b.k, {", ".join(f't."{c}"' for c in cols)}
            from '{base}/*.parquet' t join b using (board_id) order by all"""
        for row in con.sql(q).fetchall():
            by[row[0]].append(normalize(cols, row[1:]))
        if t == "double_dummy":
            # PBN may give a board's makes twice (OptimumResultTable and
            # DoubleDummyTricks); RBN's M gives them once.
            for k in by:
                by[k] = sorted(set(by[k]))
    return got


def reasons(out):
    """{board position: {reason}}: what RBN (or PBN) cannot carry of each
    board, from its direct rows."""
    con = duckdb.connect()
    d = out / "bridge"
    q = f"""
        with b as (select board_id, row_number() over (order by board_id) as k, *
                   from '{d}/boards/*.parquet'),
        c as (select * from '{d}/calls/*.parquet'),
        p as (select * from '{d}/plays/*.parquet'),
        n as (select * from '{d}/notes/*.parquet'),
        t as (select * from '{d}/tricks/*.parquet')
        select k, 'irregular' from b where declarer_irregular
           or board_id in (select board_id from c where annotation like '%^%')
           or board_id in (select board_id from p where annotation like '%^%')
        union all select k, 'note_rbn_lacks' from b
           where board_id in (select board_id from n where number is null or number > 9)
           or board_id in (select board_id from c where note_number > 9)
           or board_id in (select board_id from p where note_number > 9)
        union all select k, 'card_not_known' from b
           where board_id in (
              select board_id from (
                 select p.board_id, p.card, p.seat, t.leader,
                        row_number() over (partition by p.board_id, p.trick order by p.seq) - 1 as i
                 from p join t using (board_id, trick))
              where card is null or leader is null
                 or (instr('NESW', leader) - 1 + i) % 4 != instr('NESW', seat) - 1)
           or board_id in (select board_id from t
                           where (board_id, trick) not in (select board_id, trick from p))
        union all select k, 'conventional_mark' from b
           where board_id in (select board_id from c where annotation = '*')
           or board_id in (select board_id from p where annotation = '*')
        union all select k, 'result_when_passed_out' from b
           where contract = 'Pass' and result is not null
        union all select k, 'auction_not_from_dealer' from b
           where board_id in (select c.board_id from c join b using (board_id)
                              where c.seq = 0 and c.seat is distinct from b.dealer)
        union all select k, 'leader_without_contract' from b
           where opening_leader is not null and (contract_strain is null or declarer is null)
        """
    if not (d / "calls").exists() or not (d / "plays").exists() or not (d / "notes").exists():
        return {}
    got = collections.defaultdict(set)
    for k, why in con.sql(q).fetchall():
        got[k].add(why)
    return got


def differing(direct, back):
    """{board position: {tables}} where the two datasets differ."""
    a, b = boards_rows(direct), boards_rows(back)
    out = collections.defaultdict(set)
    for t in TABLES:
        for k in set(a[t]) | set(b[t]):
            if a[t].get(k, []) != b[t].get(k, []):
                out[k].add(t)
    return out


def round_trips(files, to, tmp):
    """Counts of differing boards by reason; unexplained ones listed."""
    counts = collections.Counter()
    unexplained = []
    for f in files:
        work = tmp / f"{f.stem}-{to}"
        convert(f, work / "direct")
        export(f, to, work / f"x.{to}")
        convert(work / f"x.{to}", work / "back")
        why = reasons(work / "direct")
        for k, tables in sorted(differing(work / "direct", work / "back").items()):
            if why.get(k):
                counts.update(why[k])
            else:
                unexplained.append((f.name, k, sorted(tables)))
    return counts, unexplained


# The boards that differ after the round trip, by what the other notation
# cannot carry (a board may have several reasons). PBN -> RBN: PBN's
# irregularity marks (^S ^I ^R ^L), note numbers above 9, a card not known
# ('-') before other cards of its trick or a trick of no card (412 boards
# of example3.pbn), an auction that does not start with the dealer, an
# opening leader without a contract or declarer (RBN's C gives the leader),
# a result for a passed-out board; errors_10.pbn and correct_10.pbn test
# PBN's breaks on purpose. RBN -> PBN: pseudo plays (a card not named) and
# the conventional mark '*' (which ends a PBN section).
PBN_REASONS = {
    "auction_not_from_dealer": 4,
    "card_not_known": 415,
    "irregular": 4,
    "leader_without_contract": 2,
    "note_rbn_lacks": 5,
    "result_when_passed_out": 1,
}
RBN_REASONS = {"card_not_known": 2, "conventional_mark": 1}


def test_pbn_through_rbn_gives_the_same_rows(tmp_path):
    counts, unexplained = round_trips(PBN_FILES, "rbn", tmp_path)
    assert unexplained == []
    assert dict(counts) == PBN_REASONS


def test_pbn_through_rbx_gives_the_same_rows(tmp_path):
    counts, unexplained = round_trips(PBN_FILES, "rbx", tmp_path)
    assert unexplained == []
    assert dict(counts) == PBN_REASONS


def test_rbn_through_pbn_gives_the_same_rows(tmp_path):
    counts, unexplained = round_trips(RBN_FILES, "pbn", tmp_path)
    assert unexplained == []
    assert dict(counts) == RBN_REASONS
