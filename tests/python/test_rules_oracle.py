"""deckhand's rules engine against an independent reading of the rules.

`pinochle_oracle.py` deals random hands, derives what pinochle-rules.md gives
for them and writes them as PPN; deckhand converts the file and every
computed column and every rule diagnostic must match the oracle's."""

import os
import random
import subprocess
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pinochle_oracle as po

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("DECKHAND_BIN", str(ROOT / "target" / "debug" / "deckhand"))
RULE_CODES = {"P050", "P051", "P052", "P053", "P054", "P055", "P056", "P057", "P058", "P059", "P062", "P063", "P064"}

HOUSE = po.Profile(
    min_bid=30,
    must_head=False,
    counter_points=2,
    last_trick_bonus=10,
    min_play_to_save=0,
    min_meld=30,
    melds={
        "run": [20, 160, 240, 320],
        "royal_marriage": [5, 11, 18, 26],
        "marriage": [3, 7, 12, 18],
        "aces_around": [11, 101, 151, 201],
        "kings_around": [9, 81, 121, 161],
        "queens_around": [7, 61, 91, 121],
        "jacks_around": [5, 41, 61, 81],
        "pinochle": [5, 31, 61, 91],
    },
)


def archive(seed, n, profile, illegal_rate):
    rng = random.Random(seed)
    text, line, hands, written = ["% PPN 1.0\n% IMPORT\n\n"], 4, [], []
    number, total = 0, [0, 0]
    for _ in range(n):
        h = po.random_hand(rng, profile, illegal_rate)
        po.derive(h, profile)
        # Games of about seven hands (a new one at each hand with
        # probability 0.15); GameScores add up the hands' scores,
        # but are missing now and then, or one off (P064 on the values as
        # written: po.game_break).
        if number == 0 or rng.random() < 0.15:
            number, total = 0, [0, 0]
        number += 1
        scores = list(total) if rng.random() < 0.95 else None
        if scores is not None and rng.random() < 0.03:
            scores[1] += 1
        w = po.write_hand(
            rng,
            h,
            line,
            annotate=rng.random() < 0.7,
            lie=rng.random() < 0.2,
            game=(number, scores),
        )
        total = [t + x for t, x in zip(total, h.hand_scores or [0, 0])]
        text.append(w.text + "\n")
        line += w.text.count("\n") + 1
        hands.append(h)
        written.append(w)
    return "".join(text), hands, written


def convert(tmp_path, text, profile_toml=None):
    src = tmp_path / "oracle.ppn"
    src.write_text(text)
    out = tmp_path / "out"
    cmd = [BIN, "convert", str(src), "-o", str(out), "-q"]
    if profile_toml:
        (tmp_path / "house.toml").write_text(profile_toml)
        cmd += ["--rules", str(tmp_path / "house.toml")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    tables = {t: pq.read_table(str(out / "pinochle" / t)).to_pylist() for t in ["hands", "seats", "bids", "tricks"]}
    tables["errors"] = pq.read_table(str(out / "errors")).to_pylist()
    return tables


def compare(tables, hands, written):
    by_id = {r["hand_id"]: r["record_index"] for r in tables["hands"]}
    assert sorted(by_id.values()) == list(range(len(hands)))
    problems = []

    def check(i, what, got, want):
        if got != want:
            problems.append(f"hand {i} {what}: deckhand {got!r}, oracle {want!r}")

    for r in tables["hands"]:
        i, h = r["record_index"], hands[r["record_index"]]
        check(i, "declarer", r["computed_declarer"], h.declarer)
        check(i, "contract", r["computed_contract"], h.contract)
        check(i, "result", r["computed_result"], h.result)
        check(i, "meld_scores", r["computed_meld_scores"], h.meld_scores)
        check(i, "play_scores", r["computed_play_scores"], h.play_scores)
        check(i, "hand_scores", r["computed_hand_scores"], h.hand_scores)
        # the values as written
        w = written[i]
        check(i, "dealer tag", r["dealer"], h.dealer)
        check(i, "trump tag", r["trump"], h.trump)
        for col, name in [
            ("declarer", "Declarer"),
            ("contract", "Contract"),
            ("result", "Result"),
            ("meld_scores", "MeldScores"),
            ("play_scores", "PlayScores"),
            ("hand_scores", "HandScores"),
            ("hand_number", "Hand"),
            ("game_scores", "GameScores"),
        ]:
            check(i, f"{name} tag", r[col], w.tags.get(name))
        check(i, "auction_start", r["auction_start"], po.next_seat(h.dealer))
        check(i, "auction_terminated", r["auction_terminated"], "*" in h.auction)
        check(i, "play_terminated", r["play_terminated"], "play *" in w.tags if h.tricks else None)
        check(i, "play_start", r["play_start"], h.tricks[0][0] if h.tricks else None)
    for r in tables["seats"]:
        i = by_id[r["hand_id"]]
        h = hands[i]
        check(i, f"dealt to {r['seat']}", r["computed_dealt"], [c for s in po.SUITS for q in po.RANKS for c in h.deal[r["seat"]] if c == s + q])
        check(i, f"team of {r['seat']}", r["team"], po.team(r["seat"]) + 1)
        shown = written[i].seat_melds.get(r["seat"])
        check(i, f"meld cards of {r['seat']}", r["meld_cards"], shown and shown[0])
        check(i, f"meld points of {r['seat']}", r["meld_points"], shown and shown[1])
        dealt = h.deal[r["seat"]] if "Deal" in written[i].tags else None
        check(i, f"Deal of {r['seat']}", r["dealt"], dealt and [c for s in po.SUITS for q in po.RANKS for c in dealt if c == s + q])
        want = h.seat_melds.get(r["seat"])
        got = r["computed_melds"]
        got = None if got is None else sorted((m["meld"], m["count"], m["points"]) for m in got)
        check(i, f"melds of {r['seat']}", got, None if want is None else sorted(want))
        check(
            i,
            f"meld points of {r['seat']}",
            r["computed_meld_points"],
            None if want is None else sum(p for _, _, p in want),
        )
    for r in tables["tricks"]:
        i = by_id[r["hand_id"]]
        h, k = hands[i], r["trick"] - 1
        check(i, f"trick {k + 1} winner", r["computed_winner"], h.winners[k] if h.winners else None)
        check(i, f"trick {k + 1} points", r["computed_points"], h.points[k] if h.winners else None)
        note = written[i].trick_notes[k]
        check(i, f"trick {k + 1} cards", r["cards"], h.tricks[k][1])
        # the leader as written: the Play tag's seat, then each annotated winner
        before = written[i].trick_notes[k - 1] if k else None
        lead = h.tricks[0][0] if k == 0 else before and before[0]
        check(i, f"trick {k + 1} leader", r["leader"], lead)
        check(i, f"trick {k + 1} annotation", (r["winner"], r["points"]), note or (None, None))
    bids = {}
    for i, h in enumerate(hands):
        seq, first = 0, po.next_seat(h.dealer)
        for j, c in enumerate(h.auction):
            if c not in ("-", "*"):
                seat = po.next_seat(first, j)
                bids[(i, seq)] = (j // 4 + 1, seat, str(c), c if isinstance(c, int) else None)
                seq += 1
    got_bids = {
        (by_id[r["hand_id"]], r["seq"]): (r["round"], r["seat"], r["call"], r["bid"])
        for r in tables["bids"]
    }
    check("*", "bids", got_bids, bids)
    got_diags = Counter()
    for e in tables["errors"]:
        if e["code"] in RULE_CODES:
            line = e["line"] if e["code"] == "P052" else None
            got_diags[(e["record_index"], e["code"], line)] += 1
    want_diags = Counter()
    for i, (h, w) in enumerate(zip(hands, written)):
        if h.wrong_lead:
            want_diags[(i, "P052", w.trick_lines[0])] += 1
        for k in h.illegal:
            want_diags[(i, "P052", w.trick_lines[k])] += 1
        if i > 0 and po.game_break(written[i - 1], w):
            want_diags[(i, "P064", None)] += 1
        if h.trump_mismatch:
            want_diags[(i, "P063", None)] += 1
        if h.auction_broken:
            want_diags[(i, "P062", None)] += 1
        for code in w.wrong:
            want_diags[(i, code, None)] += 1
    for key in sorted(set(got_diags) | set(want_diags)):
        check(key[0], f"{key[1]} at line {key[2]}", got_diags[key] > 0, want_diags[key] > 0)
    return problems


@pytest.mark.parametrize("seed", [1, 2])
def test_standard_profile_agrees_with_the_oracle(tmp_path, seed):
    text, hands, written = archive(seed, 1500, po.Profile(), illegal_rate=0.01)
    tables = convert(tmp_path, text)
    problems = compare(tables, hands, written)
    assert problems == [], "\n".join(problems[:40])


def test_a_house_profile_agrees_with_the_oracle(tmp_path):
    text, hands, written = archive(3, 1500, HOUSE, illegal_rate=0.01)
    tables = convert(tmp_path, text, HOUSE.toml("House"))
    problems = compare(tables, hands, written)
    assert problems == [], "\n".join(problems[:40])
