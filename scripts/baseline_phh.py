"""pokerkit (the reference PHH library) reading a .phhs archive with
`HandHistory.load_all`: the peer of `deckhand convert` in scripts/bench.sh's
PHH section. load_all parses a whole text and builds every hand, so the
archive is given to it a piece at a time (cut before a table header `[`
that starts a line), and each piece's hands are dropped before the next.
Prints "baseline: N hands" to stderr.

    python scripts/baseline_phh.py ARCHIVE.phhs
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
    hands = 0
    for piece in pieces(sys.argv[1]):
        for _ in HandHistory.load_all(io.BytesIO(piece)):
            hands += 1
    print(f"baseline: {hands} hands", file=sys.stderr)


if __name__ == "__main__":
    main()
