"""endplay (the Python bridge library) reading a PBN archive: the peer of
`deckhand convert` in scripts/bench.sh's PBN section. endplay's reader takes a
whole text and returns every board at once, so the archive is given to it a
piece at a time (cut where a `% PBN` file header starts a line: the archive is
files joined into one), and each piece's boards are dropped before the next;
one call on 500 MB would hold every board in memory at once. Prints
"baseline: N boards" to stderr.

    python scripts/baseline_pbn.py ARCHIVE.pbn
"""

import sys

from endplay.parsers import pbn

PIECE = 8 << 20  # characters a piece, at least


def pieces(path):
    with open(path, "rb") as f:
        raw = f.read()
    start = 0
    while start < len(raw):
        end = raw.find(b"\n% PBN", start + PIECE)
        end = len(raw) if end < 0 else end + 1
        chunk = raw[start:end]
        try:
            yield chunk.decode("utf-8")
        except UnicodeDecodeError:
            yield chunk.decode("latin-1")
        start = end


def main():
    boards = 0
    for text in pieces(sys.argv[1]):
        boards += len(pbn.loads(text))
    print(f"baseline: {boards} boards", file=sys.stderr)


if __name__ == "__main__":
    main()
