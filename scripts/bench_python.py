"""The Python package against the CLI, on the same inputs (docs/benchmarks.md).

1. pa.table(deckhand.read(FILE, table=T, threads=1)) against
   `deckhand convert -j1 FILE` (every table to Parquet), in MB/s of FILE.
2. deckhand.dask.convert over a LocalCluster of two one-thread worker
   processes against `deckhand convert -j2`, on a directory of files.

Usage: python scripts/bench_python.py DECKHAND_BIN FILE TABLE DIR (DIR `-`:
no Dask run)
(a release build of the binary, a venv with a release build of the package:
`pip install ./python` and dask, distributed).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyarrow as pa

import deckhand


def best(f, runs=2):
    t = float("inf")
    out = None
    for _ in range(runs):
        s = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - s)
    return t, out


def main():
    binary, path, table, directory = sys.argv[1:5]
    mb = os.path.getsize(path) / 1e6
    tmp = tempfile.mkdtemp()
    try:
        def cli(threads, inputs):
            out = os.path.join(tmp, "cli")
            subprocess.run(
                [binary, "convert", "-q", "--force", "-j", str(threads), "-o", out, *inputs],
                check=False,
            )

        t_cli, _ = best(lambda: cli(1, [path]))
        t_read, rows = best(lambda: pa.table(deckhand.read(path, table=table, threads=1)).num_rows)
        print(f"input {path}: {mb:.1f} MB")
        print(f"cli convert -j1 (all tables to Parquet): {t_cli:.2f} s, {mb / t_cli:.1f} MB/s")
        print(f"pa.table(deckhand.read(table={table!r}, threads=1)): {t_read:.2f} s, {mb / t_read:.1f} MB/s, {rows} rows")

        if directory == "-":
            return
        from distributed import Client, LocalCluster

        from deckhand.dask import convert as dask_convert

        files = deckhand.find_inputs([directory])
        dmb = sum(os.path.getsize(f) for f in files) / 1e6
        t_cli2, _ = best(lambda: cli(2, files))
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, Client(c) as client:
            def dask_run():
                out = os.path.join(tmp, "dask")
                shutil.rmtree(out, ignore_errors=True)
                dask_convert(files, out, client=client, files_per_task=1, threads=1)

            t_dask, _ = best(dask_run)
        print(f"directory {directory}: {len(files)} files, {dmb:.1f} MB")
        print(f"cli convert -j2: {t_cli2:.2f} s, {dmb / t_cli2:.1f} MB/s")
        print(f"deckhand.dask.convert, 2 workers x 1 thread, a file a task: {t_dask:.2f} s, {dmb / t_dask:.1f} MB/s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
