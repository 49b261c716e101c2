#!/usr/bin/env python3
"""A straightforward PPN to Parquet converter, of the kind a user would write
instead of deckhand: regular expressions over blank-line separated records,
Python lists, pyarrow tables, zstd Parquet. Used by scripts/bench.sh to measure
deckhand side by side on the same file.

usage: baseline_ppn.py INPUT OUT_DIR
"""
import os
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq

TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
SEATS = ["N", "E", "S", "W"]


def records(text):
    # Blank lines separate records; brace comments may hold blank lines.
    text = re.sub(r"\{[^}]*\}", lambda m: m.group(0).replace("\n\n", "\n"), text)
    for block in re.split(r"\n\s*\n", text):
        lines = [l for l in block.splitlines() if not l.startswith("%")]
        if any(l.strip() for l in lines):
            yield "\n".join(lines)


def main(path, out):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    hands = {k: [] for k in ["hand_id", "event", "site", "date", "dealer", "declarer", "contract", "trump", "result", "deal"]}
    bids = {"hand_id": [], "seq": [], "seat": [], "call": []}
    tricks = {"hand_id": [], "trick": [], "cards": [], "winner": [], "points": []}
    for hid, rec in enumerate(records(text)):
        tags = {}
        section = None
        sections = {"Auction": [], "Play": []}
        for line in rec.splitlines():
            found = TAG.findall(line)
            if found:
                for name, value in found:
                    tags.setdefault(name, value)
                    section = name if name in sections else None
                    if section:
                        sections[section].append(value)
            elif section:
                sections[section].append(line)
        hands["hand_id"].append(hid)
        for k, t in [("event", "Event"), ("site", "Site"), ("date", "Date"), ("dealer", "Dealer"),
                     ("declarer", "Declarer"), ("trump", "Trump"), ("result", "Result"), ("deal", "Deal")]:
            hands[k].append(tags.get(t))
        c = tags.get("Contract")
        hands["contract"].append(int(c) if c and c.isdigit() else None)
        auction = sections["Auction"]
        if auction:
            start = SEATS.index(auction[0]) if auction[0] in SEATS else 0
            calls = " ".join(auction[1:]).split()
            for i, call in enumerate(calls):
                if call != "-":
                    bids["hand_id"].append(hid)
                    bids["seq"].append(len(bids["seq"]))
                    bids["seat"].append(SEATS[(start + i) % 4])
                    bids["call"].append(call)
        for k, line in enumerate(sections["Play"][1:]):
            m = re.match(r"^(.*?)\s*\((\w+?)(\d+)\)\s*$", line)
            cards = (m.group(1) if m else line).split()
            tricks["hand_id"].append(hid)
            tricks["trick"].append(k + 1)
            tricks["cards"].append(cards)
            tricks["winner"].append(m.group(2) if m else None)
            tricks["points"].append(int(m.group(3)) if m else None)
    for name, cols in [("hands", hands), ("bids", bids), ("tricks", tricks)]:
        os.makedirs(os.path.join(out, name), exist_ok=True)
        pq.write_table(pa.table(cols), os.path.join(out, name, "part-00000.parquet"), compression="zstd")
    print(f"baseline: {len(hands['hand_id'])} hands", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
