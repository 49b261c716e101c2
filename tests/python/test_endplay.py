"""deckhand against endplay (the PBN reader of the Python bridge world) on every
bundled PBN file: deal, dealer, vulnerability, contract, declarer, result,
calls and plays of every game endplay reads. Every disagreement must be one
of the kinds in REASONS, each a case where deckhand is right
(docs/notations/pbn.md tells them in full), and their numbers are exact: any
other disagreement, or one more or one less, fails the test."""

import os
import subprocess
from pathlib import Path

import duckdb
import pytest
from endplay.parsers import pbn
from endplay.types import Penalty

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("DECKHAND_BIN", str(ROOT / "target" / "debug" / "deckhand"))
REAL = ROOT / "testdata" / "real" / "bridge"
FILES = sorted(REAL.rglob("*.pbn")) + sorted((ROOT / "testdata" / "bridge").glob("*.pbn"))

SEATS = "NESW"
STRAINS = ["S", "H", "D", "C", "NT"]
VUL = ["None", "All", "NS", "EW"]
RISK = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}


def second_table(d, e, field):
    """A game that gives none of Board, Dealer, Vulnerable and Deal but has
    an Auction or Play (example3.pbn writes the second table of a board so):
    deckhand takes them from the game before (B041); endplay leaves the deal
    empty and the dealer and vulnerability unset."""
    empty = {s: frozenset() for s in SEATS}
    return field in ("deal", "vulnerable", "dealer") and d["took_together"] and e[field] in (None, empty)


def empty_contract(d, e, field):
    """[Contract ""] (hand records of BridgeComposer and others, boards not
    played): the contract is not known, and deckhand leaves it null; endplay
    reads it as a passed-out board, which PBN writes [Contract "Pass"]."""
    return field == "contract" and d["contract_text"] == "" and d["contract"] is None and e["contract"] == "Pass"


def unknown_cards(d, e, field):
    """'-' in the Play section (a card not known or not played): deckhand
    makes no plays row for it; endplay makes a card of suit "nt" and rank 2."""
    return field == "plays" and [c for c in e["plays"] if not c.startswith("?")] == d["plays"]


# Why deckhand is right, and how many disagreements of each kind the bundled
# files hold.
REASONS = {
    second_table: 3728 + 3728 + 13,
    empty_contract: 23,
    unknown_cards: 412,
}

# Files endplay cannot read at all (it stops at the first thing it does not
# understand and returns no game of the file): file -> endplay's error.
ENDPLAY_FAILS = {
    "pbn-verifier/correct_10.pbn": "ValueError",
    "pbn-verifier/errors_10.pbn": "PBNDecodeError",
    "dos_latin1.pbn": "ValueError",
    "end_position.pbn": "ValueError",
    "import_forms.pbn": "ValueError",
    "inherit.pbn": "KeyError",
    "invalid.pbn": "ValueError",
    "irregularities.pbn": "ValueError",
    "real_breaks.pbn": "PBNDecodeError",
    "sections.pbn": "ValueError",
}


def name(f):
    try:
        return str(f.relative_to(REAL))
    except ValueError:
        return f.name


def read_text(f):
    raw = f.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    out = tmp_path_factory.mktemp("bridge") / "out"
    r = subprocess.run(
        [BIN, "convert", *map(str, FILES), "-o", str(out), "-q"],
        capture_output=True,
        text=True,
    )
    # errors_10.pbn and invalid.pbn hold a quarantined record each.
    assert r.returncode == 1, r.stderr
    con = duckdb.connect()
    for t in ["boards", "calls", "plays"]:
        con.execute(f"CREATE VIEW {t} AS FROM read_parquet('{out}/bridge/{t}/*.parquet')")
    con.execute(f"CREATE VIEW errors AS FROM read_parquet('{out}/errors/*.parquet')")
    return con


def hands(deal):
    """Seat -> frozenset of cards ('SA'), from a deal in PBN form; a hand
    not given ('-') and an empty one are both no cards."""
    first, rest = deal.split(":")
    start = SEATS.index(first.strip().upper())
    out = {}
    for i, h in enumerate(rest.split()):
        cards = set()
        if h != "-":
            for suit, ranks in zip("SHDC", h.split(".")):
                cards.update(suit + r.upper() for r in ranks)
        out[SEATS[(start + i) % 4]] = frozenset(cards)
    return out


def call_text(bid):
    if hasattr(bid, "level"):
        return f"{bid.level}{STRAINS[bid.denom.value]}"
    return {Penalty.passed: "Pass", Penalty.doubled: "X", Penalty.redoubled: "XX"}[bid.penalty]


def card_text(c):
    # endplay reads some tokens that are not cards as cards of suit "nt".
    return ("SHDC?"[c.suit.value]) + c.rank.name[1]


def endplay_values(b):
    c = b.contract
    if c is None:
        contract = declarer = result = None
    elif c.is_passout():
        contract, declarer, result = "Pass", None, None
    else:
        contract = f"{c.level}{STRAINS[c.denom.value]}{RISK[c.penalty]}"
        declarer = SEATS[c.declarer.value]
        result = c.level + 6 + c.result
    return {
        "deal": hands(b.deal.to_pbn()),
        "dealer": None if b.dealer is None else SEATS[b.dealer.value],
        "vulnerable": None if b.vul is None else VUL[b.vul.value],
        "contract": contract,
        "declarer": declarer,
        "result": result,
        "calls": [call_text(x) for x in b.auction],
        "plays": [card_text(x) for x in b.play],
    }


def deckhand_values(con, f):
    boards = con.execute(
        """SELECT board_id, deal, dealer, vulnerable, contract, declarer, result,
                  contract_text, EXISTS (
                      SELECT 1 FROM errors e WHERE e.source_file = b.source_file
                      AND e.record_index = b.record_index AND e.code = 'B041')
           FROM boards b WHERE source_file = ? ORDER BY record_index""",
        [str(f)],
    ).fetchall()
    calls = {}
    for bid, call in con.execute(
        """SELECT c.board_id, c.call FROM calls c JOIN boards b USING (board_id)
           WHERE b.source_file = ? ORDER BY c.board_id, c.seq""",
        [str(f)],
    ).fetchall():
        calls.setdefault(bid, []).append(call)
    plays = {}
    for bid, card in con.execute(
        """SELECT p.board_id, p.card FROM plays p JOIN boards b USING (board_id)
           WHERE b.source_file = ? AND p.card IS NOT NULL ORDER BY p.board_id, p.seq""",
        [str(f)],
    ).fetchall():
        plays.setdefault(bid, []).append(card)
    out = []
    for bid, deal, dealer, vul, contract, declarer, result, contract_text, together in boards:
        out.append(
            {
                "contract_text": contract_text,
                "took_together": together,
                "deal": hands(deal) if deal else {s: frozenset() for s in SEATS},
                "dealer": dealer,
                "vulnerable": vul,
                "contract": contract,
                "declarer": declarer if contract != "Pass" else None,
                "result": result if contract != "Pass" else None,
                "calls": calls.get(bid, []),
                "plays": plays.get(bid, []),
            }
        )
    return out


def disagreements(con):
    found, fails = {}, {}
    for f in FILES:
        try:
            eb = pbn.loads(read_text(f))
        except Exception as e:  # endplay gives up on the whole file
            fails[name(f)] = type(e).__name__
            continue
        dh = deckhand_values(con, f)
        if len(eb) != len(dh):
            found[(name(f), None, "games")] = ({"games": len(dh)}, {"games": len(eb)})
            continue
        for i, (d, e) in enumerate(zip(dh, [endplay_values(b) for b in eb])):
            for k in e:
                if d[k] != e[k]:
                    found[(name(f), i, k)] = (d, e)
    return found, fails


def test_deckhand_agrees_with_endplay_on_every_game_endplay_reads(con):
    found, fails = disagreements(con)
    assert fails == ENDPLAY_FAILS
    counts = {r: 0 for r in REASONS}
    unexplained = []
    for (f, i, field), (d, e) in sorted(found.items(), key=str):
        reason = next((r for r in REASONS if i is not None and r(d, e, field)), None)
        if reason is None:
            unexplained.append(f"{f} game {i} {field}: deckhand {d[field]!r}, endplay {e[field]!r}")
        else:
            counts[reason] += 1
    assert not unexplained, "\n".join(unexplained[:40])
    assert counts == REASONS


def test_games_compared(con):
    # Every game of the files endplay reads is compared.
    n = sum(len(pbn.loads(read_text(f))) for f in FILES if name(f) not in ENDPLAY_FAILS)
    assert n == 8126


def test_duplicate_scores_match_endplay(tmp_path):
    """Every contract (7 levels x 5 strains x 3 risks), declarer, vulnerability
    and number of tricks: deckhand's computed_score_ns is endplay's
    Contract.score for North-South."""
    from endplay.types import Contract, Denom, Player, Vul

    games, want = [], []
    vuls = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    risks = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}
    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}
    n = 0
    for level in range(1, 8):
        for strain, denom in denoms.items():
            for risk, penalty in risks.items():
                for vul, v in vuls.items():
                    for tricks in range(14):
                        declarer = SEATS[n % 4]
                        n += 1
                        games.append(
                            f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "{vul}"]\n'
                            f'[Declarer "{declarer}"]\n[Contract "{level}{strain}{risk}"]\n'
                            f'[Result "{tricks}"]\n'
                        )
                        c = Contract(
                            level=level,
                            denom=denom,
                            declarer=Player.find(declarer),
                            penalty=penalty,
                            result=tricks - level - 6,
                        )
                        s = c.score(v)
                        want.append(s if declarer in "NS" else -s)
    f = tmp_path / "scores.pbn"
    f.write_text("% PBN 2.1\n\n" + "\n".join(games))
    out = tmp_path / "out"
    r = subprocess.run([BIN, "convert", str(f), "-o", str(out), "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = [
        row[0]
        for row in duckdb.sql(
            f"SELECT computed_score_ns FROM read_parquet('{out}/bridge/boards/*.parquet') ORDER BY record_index"
        ).fetchall()
    ]
    assert len(got) == 7 * 5 * 3 * 4 * 14
    assert got == want
