"""pokerkit (the reference PHH library) reading a .phhs archive with
`HandHistory.load_all`: the peer of `deckhand convert` in scripts/bench.sh's
PHH section. load_all parses a whole text and builds every hand, so the
archive is given to it a piece at a time (cut before a table header `[`
that starts a line), and each piece's hands are dropped before the next.
Prints "baseline: N hands" to stderr. With --replay, each hand is also
replayed: every state of it iterated (`for state in hand`), pokerkit's way of
computing pots and payoffs, the peer of deckhand's rules.

    python scripts/baseline_phh.py [--replay] ARCHIVE.phhs
"""

import io
import sys
import warnings

from pokerkit import HandHistory

PIECE = 8 << 20  # bytes a piece, at least


def pieces(path):
    with open(path, "rb") as f:
        raw = f.read()
    start = 0
    while start < len(raw):
        end = raw.find(b"\n[", start + PIECE)
        end = len(raw) if end < 0 else end + 1
        yield raw[start:end]
        start = end


def main():
    warnings.simplefilter("ignore")
    args = sys.argv[1:]
    replay = "--replay" in args
    path = [a for a in args if a != "--replay"][0]
    hands = 0
    for piece in pieces(path):
        for hh in HandHistory.load_all(io.BytesIO(piece)):
            hands += 1
            if replay:
                try:
                    for _ in hh:
                        pass
                except ValueError:
                    pass
    print(f"baseline: {hands} hands", file=sys.stderr)


if __name__ == "__main__":
    main()
