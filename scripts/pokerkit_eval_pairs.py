"""Pairs of poker hands compared by pokerkit's evaluators, the reference the
evaluators of `games::poker::eval` are tested against
(tests/poker/eval_pokerkit.rs). Writes testdata/poker/eval_pairs.txt:
one line a pair, `kind cards1 cards2 cmp`, cmp `>` `=` `<` as pokerkit
orders the two (greater: the better hand; a hand that cannot be formed,
an eight-or-better low that does not qualify, is below every hand).
Card sets are drawn with a fixed seed; hole and board cards are written
as `hole/board`.

    target/pyenv/bin/python scripts/pokerkit_eval_pairs.py > testdata/poker/eval_pairs.txt
"""

import random
import warnings

from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# kind: (pokerkit class, hole cards, board cards, short deck)
KINDS = {
    "high": (StandardHighHand, 2, 5, False),
    "short": (ShortDeckHoldemHand, 2, 5, True),
    "omaha": (OmahaHoldemHand, 4, 5, False),
    "omaha8": (OmahaEightOrBetterLowHand, 4, 5, False),
    "stud8": (EightOrBetterLowHand, 7, 0, False),
    "razz": (RegularLowHand, 7, 0, False),
    "deuce": (StandardLowHand, 5, 0, False),
    "badugi": (BadugiHand, 4, 0, False),
}
PAIRS = 600


def deck(short):
    ranks = RANKS[4:] if short else RANKS
    return [r + s for r in ranks for s in SUITS]


def best(cls, hole, board):
    try:
        return cls.from_game("".join(hole), "".join(board))
    except ValueError:
        return None


def main():
    warnings.simplefilter("ignore")
    rng = random.Random(46)
    for kind, (cls, nh, nb, short) in KINDS.items():
        for _ in range(PAIRS):
            hands = []
            for _ in range(2):
                cards = rng.sample(deck(short), nh + nb)
                # Low kinds: often draw from the low ranks, so that lows
                # qualify and tie.
                if kind in ("stud8", "omaha8", "razz", "badugi", "deuce") and rng.random() < 0.6:
                    low = [c for c in deck(short) if c[0] in "A2345678"]
                    cards = rng.sample(low, nh + nb)
                hands.append((cards[:nh], cards[nh:]))
            h1, h2 = (best(cls, h, b) for h, b in hands)
            if h1 is None and h2 is None:
                cmp = "="
            elif h1 is None:
                cmp = "<"
            elif h2 is None:
                cmp = ">"
            else:
                cmp = ">" if h1 > h2 else "<" if h1 < h2 else "="
            text = ["".join(h) + "/" + "".join(b) for h, b in hands]
            print(kind, text[0], text[1], cmp)


if __name__ == "__main__":
    main()
