"""A .phhs archive of at least MB megabytes for scripts/bench.sh: the bundled
real PHH hands (testdata/real/poker, 113 hands of all 11 variants),
each a table `[N]` with N counting up, repeated in name order.

    python scripts/phh_archive.py MB OUT.phhs
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main():
    want = int(sys.argv[1]) * 1_000_000
    files = sorted((ROOT / "testdata" / "real" / "poker").rglob("*.phh"))
    hands = [f.read_text() for f in files]
    n = 0
    size = 0
    with open(sys.argv[2], "w") as out:
        while size < want:
            for h in hands:
                n += 1
                text = f"[{n}]\n{h.rstrip()}\n\n"
                out.write(text)
                size += len(text.encode())
    print(f"{n} hands, {size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
