"""How fast Arrow's C++ Parquet writer (pyarrow) writes deckhand's tables.

The tables of a converted archive are read into memory, then written again
to memory with zstd, one thread, best of 5; throughput is in bytes of the PPN
input the tables came from, so it compares directly with `deckhand convert`
and with the `write_only` criterion bench (deckhand's own writer on the same
batches). Used to show what any Parquet writer costs on this data.

    python scripts/pyarrow_write.py ARCHIVE.ppn DATASET_DIR
"""

import glob
import io
import os
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq

TABLES = ["hands", "seats", "bids", "tricks", "notes", "errors"]


def main() -> None:
    archive, dataset = sys.argv[1], sys.argv[2]
    size = os.path.getsize(archive)
    tables = {}
    for name in TABLES:
        files = sorted(glob.glob(os.path.join(dataset, name, "*.parquet")))
        tables[name] = pa.concat_tables(pq.read_table(f) for f in files)
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    print(f"pyarrow {pa.__version__}, input {size / 1e6:.1f} MB, one thread, best of 5")
    for label, kw in [
        ("defaults (dictionary, statistics)", {}),
        ("no statistics", {"write_statistics": False}),
        ("no dictionary, no statistics", {"use_dictionary": False, "write_statistics": False}),
    ]:
        best, out = float("inf"), 0
        for _ in range(5):
            start = time.perf_counter()
            out = 0
            for t in tables.values():
                buf = io.BytesIO()
                pq.write_table(t, buf, compression="zstd", row_group_size=1 << 20, **kw)
                out += buf.tell()
            best = min(best, time.perf_counter() - start)
        print(f"{label:40s} {best:8.3f} s {size / 1e6 / best:8.1f} MB/s  output {out / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
