"""A second, independent reading of docs/rules/pinochle-rules.md.

Written in Python from the spec alone (not from deckhand's Rust code), so that
deckhand's rules engine can be checked against it: `test_rules_oracle.py`
deals random hands here (stacked deals for the large melds, auctions of every
shape, legal and illegal plays, right and wrong annotations), writes them as
PPN, converts them with deckhand and compares every computed value and every
rule diagnostic with what this module derives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SUITS = "CDSH"  # dot-syntax order
RANKS = "ATKQJ"  # high to low
SEATS = "NESW"  # clockwise
MELD_KEYS = [
    "run",
    "royal_marriage",
    "marriage",
    "aces_around",
    "kings_around",
    "queens_around",
    "jacks_around",
    "pinochle",
]
STANDARD_MELDS = {
    "run": [15, 150, 225, 300],
    "royal_marriage": [4, 8, 12, 16],
    "marriage": [2, 4, 6, 8],
    "aces_around": [10, 100, 150, 200],
    "kings_around": [8, 80, 120, 160],
    "queens_around": [6, 60, 90, 120],
    "jacks_around": [4, 40, 60, 80],
    "pinochle": [4, 30, 60, 90],
}


@dataclass
class Profile:
    min_bid: int = 50
    must_head: bool = True
    counter_points: int = 1
    last_trick_bonus: int = 2
    min_play_to_save: int = 20
    min_meld: int = 20
    melds: dict = field(default_factory=lambda: {k: list(v) for k, v in STANDARD_MELDS.items()})

    def toml(self, name: str) -> str:
        lines = [
            f'name = "{name}"',
            f"min_bid = {self.min_bid}",
            f"must_head = {'true' if self.must_head else 'false'}",
            f"counter_points = {self.counter_points}",
            f"last_trick_bonus = {self.last_trick_bonus}",
            f"min_play_to_save = {self.min_play_to_save}",
            f"min_meld = {self.min_meld}",
            "[melds]",
        ]
        lines += [f"{k} = {self.melds[k]}" for k in MELD_KEYS]
        return "\n".join(lines) + "\n"


def team(seat: str) -> int:
    """0 for North-South (team 1), 1 for East-West (team 2)."""
    return SEATS.index(seat) % 2


def next_seat(seat: str, k: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + k) % 4]


# ---------------------------------------------------------------- melds


def count(cards, suit, rank):
    return sum(1 for c in cards if c == suit + rank)


def melds(cards, trump, profile):
    """[(meld name, sets, points)] for one player's 20 cards, in table order."""
    tbl = profile.melds

    def pts(key, n):
        return tbl[key][n - 1] if n > 0 else 0

    out = []
    if trump in SUITS:
        runs = min(count(cards, trump, r) for r in RANKS)
        royal = min(count(cards, trump, "K"), count(cards, trump, "Q")) - runs
        if runs:
            out.append(("run", runs, pts("run", runs)))
        if royal:
            out.append(("royal marriage", royal, pts("royal_marriage", royal)))
    married = [
        min(count(cards, s, "K"), count(cards, s, "Q")) for s in SUITS if s != trump
    ]
    if sum(married):
        out.append(("marriage", sum(married), sum(pts("marriage", n) for n in married)))
    for rank, key, name in [
        ("A", "aces_around", "aces around"),
        ("K", "kings_around", "kings around"),
        ("Q", "queens_around", "queens around"),
        ("J", "jacks_around", "jacks around"),
    ]:
        n = min(count(cards, s, rank) for s in SUITS)
        if n:
            out.append((name, n, pts(key, n)))
    n = min(count(cards, "S", "Q"), count(cards, "D", "J"))
    if n:
        out.append(("pinochle", n, pts("pinochle", n)))
    return out


def has_marriage(cards):
    return any(count(cards, s, "K") and count(cards, s, "Q") for s in SUITS)


def shown(cards, trump):
    """The cards a player lays down for `melds(cards, trump)`: each card as
    many times as the class that uses it most needs it."""
    uses = []  # one Counter of cards per class
    seq = {}
    if trump in SUITS:
        runs = min(count(cards, trump, r) for r in RANKS)
        for r in RANKS:
            seq[trump + r] = runs
        royal = min(count(cards, trump, "K"), count(cards, trump, "Q"))
        seq[trump + "K"] = seq[trump + "Q"] = royal
    for s in SUITS:
        if s != trump:
            seq[s + "K"] = seq[s + "Q"] = min(count(cards, s, "K"), count(cards, s, "Q"))
    uses.append(seq)
    arounds = {}
    for r in "AKQJ":
        n = min(count(cards, s, r) for s in SUITS)
        for s in SUITS:
            arounds[s + r] = n
    uses.append(arounds)
    n = min(count(cards, "S", "Q"), count(cards, "D", "J"))
    uses.append({"SQ": n, "DJ": n})
    out = []
    for s in SUITS:
        for r in RANKS:
            out += [s + r] * max(u.get(s + r, 0) for u in uses)
    return out


# ---------------------------------------------------------------- tricks


def beats(card, best, trump):
    """True when `card`, played later, beats `best` (the card winning so far)."""
    if card[0] == best[0]:
        return RANKS.index(card[1]) < RANKS.index(best[1])
    return card[0] == trump


def winner_index(cards, trump):
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def legal(hand, played, trump, profile):
    """The cards of `hand` that may be played after `played` (play order)."""
    if not played:
        return sorted(set(hand))
    best = played[winner_index(played, trump)]
    for pool in (
        [c for c in hand if c[0] == played[0][0]],
        [c for c in hand if c[0] == trump],
    ):
        if pool:
            if profile.must_head:
                up = [c for c in pool if beats(c, best, trump)]
                if up:
                    return sorted(set(up))
            return sorted(set(pool))
    return sorted(set(hand))


def trick_points(cards, profile):
    return profile.counter_points * sum(1 for c in cards if c[1] in "ATK")


# ---------------------------------------------------------------- a hand


@dataclass
class Hand:
    dealer: str
    deal: dict  # seat -> list of 20 cards
    auction: list  # calls in order from the dealer's left: "Pass", "-", or an int
    trump: str | None = None  # "C".."H", "-", or None when thrown in
    tricks: list = field(default_factory=list)  # (leader, [cards in play order])
    illegal: list = field(default_factory=list)  # trick number (1-based) of each illegal card
    auction_broken: bool = False  # spoil_auction broke a bidding rule
    wrong_lead: bool = False  # the first trick led by another seat than the declarer
    trump_mismatch: bool = False  # Trump named without a marriage, or `-` with one
    # what the rules give
    declarer: str | None = None
    contract: int | None = None
    result: str | None = None
    seat_melds: dict = field(default_factory=dict)  # seat -> [(name, sets, points)]
    meld_scores: list | None = None
    play_scores: list | None = None
    hand_scores: list | None = None
    winners: list = field(default_factory=list)
    points: list = field(default_factory=list)


def auction_outcome(calls, first):
    """(declarer, contract) of an auction, or (None, None) when no bid counts.
    The rules: the last remaining bidder wins at their highest bid. A seat
    that passes, or shows "-", is out for good: its later calls do not
    count, nor do calls after the auction is over (one bidder left in, or
    nobody). A "-" is taken with the call after it, as deckhand's P062 check
    takes it. Cut short ("*", or the calls run out) with two or more seats
    in: the seat in with the latest bid. Nobody in: the highest bid that
    counted, the first to make it."""
    out, best, latest = set(), {}, {}
    high = None
    over = False
    seat = first
    for n, c in enumerate(calls):
        if c == "*":
            break
        if c == "-":
            out.add(seat)
        else:
            if over:
                break
            if seat not in out:
                if c == "Pass":
                    out.add(seat)
                elif isinstance(c, int):
                    best[seat] = max(best.get(seat, c), c)
                    latest[seat] = n
                    if high is None or c > high[1]:
                        high = (seat, c)
            over = len(out) == 4 or (len(out) == 3 and high is not None)
        seat = next_seat(seat)
    left = [s for s in latest if s not in out]
    if left:
        s = max(left, key=lambda s: latest[s])
        return s, best[s]
    return high if high else (None, None)


def derive(h: Hand, profile: Profile):
    """Fill in everything the rules give for `h` (its deal, auction, trump, play)."""
    h.declarer, h.contract = auction_outcome(h.auction, next_seat(h.dealer))
    if h.declarer is None:
        # Thrown in (every seat passed, no bid): nobody melds or plays, every
        # score is 0 and there is no result.
        if h.auction == ["Pass"] * 4:
            h.meld_scores, h.play_scores, h.hand_scores = [0, 0], [0, 0], [0, 0]
        return
    # No Trump is the declarer's cards' doing, whatever the Trump tag says
    # (a mismatch is P063); a `-` for a declarer with a marriage leaves the
    # melds without trump and the hand to be played.
    no_marriage = not has_marriage(h.deal[h.declarer])
    trump = "-" if no_marriage else h.trump
    h.seat_melds = {s: melds(h.deal[s], trump, profile) for s in SEATS}
    meld = [0, 0]
    for s in SEATS:
        meld[team(s)] += sum(p for _, _, p in h.seat_melds[s])
    d = team(h.declarer)
    if no_marriage or meld[d] < profile.min_meld:
        h.result = "No Trump" if no_marriage else "No Board"
        h.meld_scores = [0, 0]
        h.meld_scores[1 - d] = meld[1 - d] if meld[1 - d] >= profile.min_meld else 0
        h.play_scores = [0, 0]
        h.hand_scores = list(h.meld_scores)
        h.hand_scores[d] = -h.contract
        return
    play = [0, 0]
    for k, (leader, cards) in enumerate(h.tricks):
        w = next_seat(leader, winner_index(cards, h.trump))
        p = trick_points(cards, profile)
        if k == 19:
            p += profile.last_trick_bonus
        h.winners.append(w)
        h.points.append(p)
        play[team(w)] += p
    if len(h.tricks) != 20:
        return  # scores need the whole play
    saved = [play[t] >= profile.min_play_to_save for t in (0, 1)]
    h.meld_scores = [meld[t] if saved[t] else 0 for t in (0, 1)]
    h.play_scores = [play[t] if saved[t] else 0 for t in (0, 1)]
    h.hand_scores = [h.meld_scores[t] + h.play_scores[t] for t in (0, 1)]
    if h.hand_scores[d] >= h.contract:
        h.result = "Saved"
    else:
        h.result = "Set"
        h.hand_scores[d] = -h.contract


# ---------------------------------------------------------------- random hands

DECK = [s + r for s in SUITS for r in RANKS for _ in range(4)]


def random_deal(rng: random.Random, first: str):
    deck = list(DECK)
    stacked = []
    kind = rng.randrange(11)
    if kind == 0:  # four runs: every trump card
        s = rng.choice(SUITS)
        stacked = [s + r for r in RANKS for _ in range(4)]
    elif kind == 1:  # several sets of arounds
        rank = rng.choice(RANKS[:1] + RANKS[2:])
        n = rng.randint(2, 4)
        stacked = [s + rank for s in SUITS for _ in range(n)]
    elif kind == 2:  # pinochles
        n = rng.randint(2, 4)
        stacked = ["SQ"] * n + ["DJ"] * n
    elif kind == 3:  # runs with extra kings and queens of the suit
        s = rng.choice(SUITS)
        n = rng.randint(1, 3)
        stacked = [s + r for r in RANKS for _ in range(n)] + [s + "K", s + "Q"][: rng.randint(0, 2)]
    elif kind == 4:  # marriages in several suits
        for s in rng.sample(SUITS, rng.randint(2, 4)):
            n = rng.randint(1, 2)
            stacked += [s + "K"] * n + [s + "Q"] * n
    elif kind == 5:  # four royal marriages, or runs and royal marriages
        s = rng.choice(SUITS)
        stacked = [s + "K"] * 4 + [s + "Q"] * 4 + [s + r for r in "ATJ" for _ in range(rng.randint(0, 2))]
    elif kind == 6:  # no marriage at all: no kings
        stacked = [c for c in deck if c[1] != "K"]
        rng.shuffle(stacked)
        stacked = stacked[:20]
    for c in stacked:
        deck.remove(c)
    rng.shuffle(deck)
    hands = {}
    seats = [next_seat(first, k) for k in range(4)]
    lucky = rng.choice(seats)
    for s in seats:
        if s == lucky and stacked:
            hands[s] = stacked + deck[: 20 - len(stacked)]
            del deck[: 20 - len(stacked)]
    for s in seats:
        if s not in hands:
            hands[s] = deck[:20]
            del deck[:20]
    return hands


def random_auction(rng: random.Random, profile: Profile):
    """Calls from the dealer's left until one bidder is left (or all pass)."""
    calls, active, high, seat_bid = [], [True] * 4, None, [None] * 4
    i = 0
    if rng.random() < 0.03:
        return ["Pass"] * 4
    while True:
        k = i % 4
        if not active[k]:
            calls.append("-")
        else:
            if high is not None and sum(active) == 1 and seat_bid[k] == high:
                return calls
            if high is None and sum(active) == 1:
                calls.append(profile.min_bid + rng.randint(0, 3))  # the last one bids
                return calls
            stop = 0.2 if high is None else min(0.9, 0.3 + (high - profile.min_bid) / 40)
            if rng.random() < stop:
                calls.append("Pass")
                active[k] = False
                if sum(active) == 0:
                    return calls
                if sum(active) == 1 and high is not None and seat_bid[active.index(True)] == high:
                    return calls
            else:
                base = profile.min_bid - 1 if high is None else high
                bid = base + (1 if rng.random() < 0.6 else rng.randint(2, 25))
                if rng.random() < 0.02:
                    bid += 250
                high = bid
                seat_bid[k] = bid
                calls.append(bid)
        i += 1


def spoil_auction(rng: random.Random, calls, profile: Profile):
    """Breaks one bidding rule in a legal auction; False if it cannot."""
    bids = [i for i, c in enumerate(calls) if isinstance(c, int)]
    kind = rng.randrange(4)
    if kind == 0 and bids:  # opening below the minimum
        calls[bids[0]] = profile.min_bid - rng.randint(1, 10)
    elif kind == 1 and len(bids) > 1:  # a bid that does not rise
        j = rng.choice(bids[1:])
        calls[j] = max(c for c in calls[:j] if isinstance(c, int)) - rng.randint(0, 5)
    elif kind == 2:  # a call after the end
        calls.append("Pass")
    elif kind == 3 and calls[-1] == "Pass" and len(calls) > 1:  # cut short
        calls.pop()
        while calls and calls[-1] == "-":
            calls.pop()
        if rng.random() < 0.5:
            calls.append("*")  # and said so: not a broken rule
            return False
    else:
        return False
    return True


def game_break(before: Written, this: Written):
    """Rule 6 as deckhand checks it (P064), on the values as written: the
    hand after hand n, numbered n+1, starts at hand n's GameScores plus its
    HandScores, unless its GameScores are all zeros (a new game)."""
    b, t = before.tags, this.tags
    if not all(k in b for k in ("Hand", "GameScores", "HandScores")):
        return False
    if t.get("Hand") != b["Hand"] + 1 or "GameScores" not in t:
        return False
    if all(g == 0 for g in t["GameScores"]):
        return False  # all zeros start a new game
    end = [g + x for g, x in zip(b["GameScores"], b["HandScores"])]
    return t["GameScores"] != end


def random_hand(rng: random.Random, profile: Profile, illegal_rate: float) -> Hand:
    dealer = rng.choice(SEATS)
    deal = random_deal(rng, next_seat(dealer))
    h = Hand(dealer=dealer, deal=deal, auction=random_auction(rng, profile))
    if rng.random() < 0.05:
        h.auction_broken = spoil_auction(rng, h.auction, profile)
    decl, _ = auction_outcome(h.auction, next_seat(dealer))
    if decl is None:
        return h
    mine = deal[decl]
    married = [s for s in SUITS if count(mine, s, "K") and count(mine, s, "Q")]
    if not married:
        h.trump = "-"
        if rng.random() < 0.1:  # names trump all the same (P063)
            h.trump = rng.choice(SUITS)
            h.trump_mismatch = True
            return h
    elif rng.random() < 0.02:  # leaves trump unnamed all the same (P063)
        h.trump = "-"
        h.trump_mismatch = True
    elif rng.random() < 0.05:
        h.trump = rng.choice(SUITS)  # a suit without its marriage: allowed
    else:
        h.trump = rng.choice(married)
    if h.trump == "-":
        return h
    ms = [0, 0]
    for s in SEATS:
        ms[team(s)] += sum(p for _, _, p in melds(deal[s], h.trump, profile))
    if ms[team(decl)] < profile.min_meld:
        return h  # No Board: not played
    held = {s: list(deal[s]) for s in SEATS}
    leader = decl
    if rng.random() < 0.03:  # someone else leads the first trick (P052)
        leader = next_seat(decl, rng.randint(1, 3))
        h.wrong_lead = True
    n_tricks = 20 if rng.random() < 0.97 else rng.randint(0, 19)
    for k in range(n_tricks):
        cards = []
        for j in range(4):
            s = next_seat(leader, j)
            ok = legal(held[s], cards, h.trump, profile)
            wrong = sorted(set(held[s]) - set(ok))
            if wrong and rng.random() < illegal_rate:
                c = rng.choice(wrong)
                h.illegal.append(k + 1)
            else:
                c = rng.choice(ok)
            held[s].remove(c)
            cards.append(c)
        h.tricks.append((leader, cards))
        leader = next_seat(leader, winner_index(cards, h.trump))
    return h


# ---------------------------------------------------------------- PPN text


def dots(cards):
    parts = []
    for s in SUITS:
        parts.append("".join(r * count(cards, s, r) for r in RANKS))
    return ".".join(parts)


@dataclass
class Written:
    text: str
    wrong: set  # codes of the annotations written wrong on purpose
    trick_lines: dict  # trick number -> 1-based line in the file (0: the Play tag)
    tags: dict  # tag name -> the value written (ints and lists as such)
    seat_melds: dict  # seat -> (cards shown, points) as written in Melds
    trick_notes: list  # (winner, points) written after each trick, or None


def score_text(v):
    return ":".join(str(x) for x in v) if isinstance(v, list) else str(v)


def write_hand(
    rng: random.Random, h: Hand, line0: int, annotate: bool, lie: bool, game=None
) -> Written:
    """PPN text of `h`. `annotate` writes the tags the rules give (right,
    unless `lie` changes one of them); `line0` is the file line it starts on;
    `game`, if given, is (hand number in its game, GameScores or None)."""
    out, wrong, trick_lines, tags, seat_melds, notes = [], set(), {}, {}, {}, []
    if game is not None:
        number, scores = game
        tags["Hand"] = number
        out.append(f'[Hand "{number}"]')
        if scores is not None:
            tags["GameScores"] = scores
            out.append(f'[GameScores "{score_text(scores)}"]')
    out.append(f'[Dealer "{h.dealer}"]')
    first = next_seat(h.dealer)
    if len(h.tricks) < 20 or rng.random() < 0.7:
        lead = first if rng.random() < 0.8 else rng.choice(SEATS)
        out.append(f'[Deal "{lead}:' + " ".join(dots(h.deal[next_seat(lead, k)]) for k in range(4)) + '"]')
        tags["Deal"] = True

    def tag(name, value, code, bad_value):
        if lie and code not in wrong and rng.random() < 0.3:
            wrong.add(code)
            value = bad_value
        tags[name] = value
        out.append(f'[{name} "{score_text(value)}"]')

    if annotate and h.declarer is not None:
        tag("Declarer", h.declarer, "P058", next_seat(h.declarer))
        tag("Contract", h.contract, "P059", h.contract + 1)
    if h.trump is not None:
        out.append(f'[Trump "{h.trump}"]')
    if annotate and h.seat_melds:
        start = rng.choice([first, "N"])
        lied = lie and rng.random() < 0.3
        if lied:
            wrong.add("P055")
        shows = []
        for k in range(4):
            seat = next_seat(start, k)
            pts = sum(p for _, _, p in h.seat_melds[seat])
            cards = shown(h.deal[seat], h.trump)
            if lied and k == 0:
                not_dealt = [c for c in DECK if c not in h.deal[seat]]
                if rng.random() < 0.5 or not not_dealt:
                    pts += 1
                else:  # shows a card it was not dealt
                    cards = sorted(cards + [rng.choice(not_dealt)], key=lambda c: (SUITS.index(c[0]), RANKS.index(c[1])))
            seat_melds[seat] = (cards, pts)
            shows.append(f"{dots(cards)}({pts})")
        out.append(f'[Melds "{start}:' + " ".join(shows) + '"]')
    if annotate and h.result is not None:
        other = {"Saved": "Set", "Set": "Saved", "No Board": "No Trump", "No Trump": "No Board"}
        ms, ps, hs = h.meld_scores, h.play_scores, h.hand_scores
        tag("MeldScores", ms, "P056", [ms[0] + 1, ms[1]])
        tag("PlayScores", ps, "P056", [ps[0], ps[1] + 2])
        tag("Result", h.result, "P057", other[h.result])
        tag("HandScores", hs, "P056", [hs[0] - 1, hs[1]])
    out.append(f'[Auction "{first}"]')
    calls = [str(c) for c in h.auction]
    for k in range(0, len(calls), 4):
        out.append(" ".join(calls[k : k + 4]))
    if h.tricks:
        trick_lines[0] = line0 + len(out)
        out.append(f'[Play "{h.tricks[0][0]}"]')
        for k, (_, cards) in enumerate(h.tricks):
            row = " ".join(cards)
            note = None
            if annotate and h.winners:
                w, p = h.winners[k], h.points[k]
                if lie and rng.random() < 0.02:
                    if rng.random() < 0.5:
                        w = next_seat(w)
                        wrong.add("P053")
                    else:
                        p += 1
                        wrong.add("P054")
                row += f" ({w}{p})"
                note = (w, p)
            notes.append(note)
            trick_lines[k + 1] = line0 + len(out)
            out.append(row)
        if len(h.tricks) < 20 and rng.random() < 0.5:
            out.append("*")  # the play was cut short, and says so
            tags["play *"] = True
    return Written("\n".join(out) + "\n", wrong, trick_lines, tags, seat_melds, notes)
