"""The Python package (python/): deckhand.read through pyarrow, Polars, DuckDB
and pandas gives the rows of the CLI's Parquet; deckhand.convert writes what
the CLI writes; a LocalCluster of two worker processes converts the bundled
files in three shards into the dataset of one run; Ctrl-C in convert leaves
no temporary file; every integer column is signed."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pytest

import deckhand

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("DECKHAND_BIN", str(ROOT / "target" / "debug" / "deckhand"))
TESTDATA = ROOT / "testdata"

# Every game's bundled files: (directory, game).
SAMPLES = [
    (TESTDATA / "pinochle", "pinochle"),
    (TESTDATA / "bridge", "bridge"),
    (TESTDATA / "bridge" / "rbn", "bridge"),
    (TESTDATA / "poker" / "valid", "poker"),
    (TESTDATA / "preferans", "preferans"),
]


def sample_files():
    files = []
    for d, game in SAMPLES:
        for p in sorted(d.iterdir()):
            if p.is_file() and p.suffix in {".ppn", ".pbn", ".rbn", ".rbx", ".phh", ".phhs"}:
                files.append((p, game))
    return files


def cli(*args, ok=(0, 1)):
    r = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True)
    assert r.returncode in ok, r.stderr
    return r


def table_of(out, path):
    """A table of a dataset as one pyarrow Table (None: not written)."""
    d = Path(out) / path
    if not d.exists():
        return None
    return ds.dataset(d, format="parquet").to_table()


def test_every_engine_reads_the_rows_the_cli_writes(tmp_path):
    files = sample_files()
    assert len(files) > 30
    read_rows = 0
    for i, (path, game) in enumerate(files):
        out = tmp_path / f"out{i}"
        cli("convert", "-q", "--file-index-base", i, "-o", out, path)
        for t in deckhand.tables(game):
            r = deckhand.read(path, table=t, game=game, file_index=i, threads=2)
            dataset_path = "errors" if t == "errors" else f"{game}/{t}"
            assert r.table == dataset_path
            written = table_of(out, dataset_path)
            got = pa.table(r)
            if written is None:
                assert got.num_rows == 0, (path, t)
                continue
            assert got.schema.equals(written.schema), (path, t)
            assert got.equals(written), (path, t)
            read_rows += got.num_rows
            if got.num_rows == 0:
                continue
            # Polars, pandas and DuckDB read the same object again.
            assert pl.DataFrame(r).equals(pl.from_arrow(written)), (path, t)
            pdf = pd.DataFrame.from_arrow(r)
            assert list(pdf.columns) == written.column_names
            assert pdf.equals(written.to_pandas()), (path, t)
            expected = duckdb.sql("select * from written").fetchall()
            assert duckdb.sql("select * from r").fetchall() == expected, (path, t)
    assert read_rows > 1000


def test_duckdb_scans_one_object_twice():
    r = deckhand.read(TESTDATA / "pinochle" / "sample.ppn", table="tricks")
    first = duckdb.sql("select count(*), sum(trick) from r").fetchall()
    second = duckdb.sql("select count(*), sum(trick) from r").fetchall()
    assert first == second
    assert first[0][0] > 0
    joined = duckdb.sql("select count(*) from r a join r b using (hand_id, trick)")
    assert joined.fetchall() == [(first[0][0],)]


def test_pyarrow_is_not_needed_at_run_time():
    # pyarrow made unimportable: Polars reads the stream through the
    # PyCapsule interface alone.
    script = textwrap.dedent(
        f"""
        import sys
        sys.modules["pyarrow"] = None
        import deckhand, polars as pl
        df = pl.DataFrame(deckhand.read({str(TESTDATA / "preferans" / "deals.ppn")!r}, table="deals"))
        print(df.shape)
        """
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "(18, 24)"


def test_bytes_plain_or_compressed_read_as_the_file(tmp_path):
    import gzip

    path = TESTDATA / "preferans" / "deals.ppn"
    raw = path.read_bytes()
    want = pa.table(deckhand.read(path, table="deals", file_index=5))
    for source in [raw, bytearray(raw), memoryview(raw), gzip.compress(raw)]:
        got = pa.table(
            deckhand.read(source, table="deals", file_index=5, name=str(path))
        )
        assert got.equals(want)


def test_convert_writes_what_the_cli_writes(tmp_path):
    inputs = [d for d, _ in SAMPLES]
    by_cli = tmp_path / "cli"
    cli("convert", "-q", "-o", by_cli, *inputs)
    by_py = tmp_path / "py"
    summary = deckhand.convert([str(p) for p in inputs], by_py, progress=False)
    assert summary["records"] == summary["converted"] + summary["quarantined"]
    assert summary["quarantined"] > 0
    assert summary["notes"] == []
    for t in [p for p in deckhand.tables()]:
        a, b = table_of(by_cli, t), table_of(by_py, t)
        assert (a is None) == (b is None), t
        if a is not None:
            assert a.equals(b), t
            assert summary["rows"][t] == a.num_rows
    # Append: nothing new, said so.
    again = deckhand.convert([str(p) for p in inputs], by_py, append=True, progress=False)
    assert again["notes"][-1].startswith("nothing new for ")


def test_errors_are_the_exceptions_python_expects(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        deckhand.read(tmp_path / "nope.ppn", table="hands")
    assert e.value.filename == str(tmp_path / "nope.ppn")
    with pytest.raises(IsADirectoryError) as e:
        deckhand.read(TESTDATA / "pinochle", table="hands")
    assert (e.value.errno, e.value.filename) == (21, str(TESTDATA / "pinochle"))
    assert e.value.strerror == "a directory: read takes one file (convert takes directories)"
    # A pipe can be read once only (each scan reads afresh): refused at
    # once, not waited on.
    os.mkfifo(tmp_path / "f.ppn")
    with pytest.raises(OSError) as e:
        deckhand.read(tmp_path / "f.ppn", table="hands")
    assert e.value.errno == 22
    assert e.value.strerror.startswith("can be read once only (standard input, a pipe or a device)")
    with pytest.raises(ValueError, match="game 'bridge' has no table 'hands': its tables are boards, "):
        deckhand.read(TESTDATA / "bridge" / "spec_example.pbn", table="hands", game="bridge")
    with pytest.raises(ValueError, match="unknown game 'chess': deckhand's games are bridge, pinochle, poker, preferans"):
        deckhand.schema("chess", "hands")
    with pytest.raises(FileNotFoundError):
        deckhand.convert([tmp_path / "nope.ppn"], tmp_path / "out")
    assert not (tmp_path / "out").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    with pytest.raises(FileExistsError):
        deckhand.convert(TESTDATA / "preferans" / "deals.ppn", tmp_path / "full")
    assert "P036" in deckhand.explain("P036")
    with pytest.raises(ValueError):
        deckhand.explain("Z999")


def test_every_integer_column_is_signed():
    unsigned = {pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()}

    def walk(t):
        if t in unsigned:
            return True
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            return walk(t.value_type)
        if pa.types.is_struct(t):
            return any(walk(f.type) for f in t)
        if pa.types.is_dictionary(t):
            return walk(t.value_type)
        return False

    seen = 0
    for game in deckhand.games():
        for t in deckhand.tables(game):
            s = pa.schema(deckhand.schema(game, t))
            for f in s:
                assert not walk(f.type), (game, t, f)
                seen += 1
    assert seen > 200


def test_a_keyboard_interrupt_in_convert_leaves_no_temporary_file(tmp_path):
    big = tmp_path / "big.ppn"
    cli("generate", "--hands", "60000", "-o", big, ok=(0,))
    out = tmp_path / "out"
    script = textwrap.dedent(
        f"""
        import sys, deckhand
        print("start", flush=True)
        try:
            deckhand.convert([{str(big)!r}], {str(out)!r}, threads=1, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    # Until the conversion has made its temporary files.
    deadline = time.time() + 60
    while time.time() < deadline and not list(out.rglob(".part-*.tmp")):
        time.sleep(0.05)
    assert list(out.rglob(".part-*.tmp")), "no temporary file was made"
    p.send_signal(signal.SIGINT)
    rest = p.stdout.read()
    assert p.wait(timeout=60) == 130, rest
    assert rest.strip() == "interrupted"
    assert list(out.rglob("*.tmp")) == []
    assert list(out.rglob("*.parquet")) == []


def test_dask_converts_shards_into_the_dataset_of_one_run(tmp_path):
    from distributed import Client, LocalCluster

    import deckhand.dask

    inputs = [str(d) for d, _ in SAMPLES]
    files = deckhand.find_inputs(inputs)
    one = tmp_path / "one"
    cli("convert", "-q", "-o", one, *inputs)
    sharded = tmp_path / "sharded"
    per_task = (len(files) + 2) // 3
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        summary = deckhand.dask.convert(inputs, sharded, client=client, files_per_task=per_task, threads=1)
        assert summary["shards"] == 3
        frame = deckhand.dask.read(inputs, table="pinochle/hands", threads=1)
        hands = frame.compute()
        # Inputs and dataset as URLs (fsspec): workers copy their inputs to a
        # local directory and their files to the dataset.
        urls = [(d / "").as_uri() for d in (TESTDATA / "pinochle", TESTDATA / "preferans")]
        by_url = (tmp_path / "by_url").as_uri()
        url_summary = deckhand.dask.convert(urls, by_url, client=client, files_per_task=4, threads=1)
        url_frame = deckhand.dask.read(urls, table="preferans/deals", threads=1).compute()
    assert sorted(p.name for p in (sharded / "errors").iterdir()) == [
        f"part-{i:05}.parquet" for i in (0, per_task, 2 * per_task)
    ]
    for t in deckhand.tables():
        a, b = table_of(one, t), table_of(sharded, t)
        assert (a is None) == (b is None), t
        if a is not None:
            # Rows in file order: the parts sort by their first file index.
            assert a.equals(b), t
    import json

    m1 = json.loads((one / "_deckhand.json").read_text())
    m2 = json.loads((sharded / "_deckhand.json").read_text())
    assert [(i["path"], i["file_index"], i["xxh3"]) for i in m1["inputs"]] == [
        (i["path"], i["file_index"], i["xxh3"]) for i in m2["inputs"]
    ]
    assert not list(sharded.glob("_deckhand.shard-*.json"))
    want = table_of(one, "pinochle/hands")
    assert hands["hand_id"].tolist() == want.column("hand_id").to_pylist()
    # The URL run: the rows of a local run over the same files, their
    # source_file the URLs.
    local = tmp_path / "local"
    cli("convert", "-q", "-o", local, TESTDATA / "pinochle", TESTDATA / "preferans")
    listed = deckhand.dask.list_inputs(urls)
    assert [Path(u[len("file://"):]) for u in listed] == [Path(p) for p in deckhand.find_inputs([TESTDATA / "pinochle", TESTDATA / "preferans"])]
    assert url_summary["shards"] == (len(listed) + 3) // 4
    for t in deckhand.tables():
        a, b = table_of(local, t), table_of(tmp_path / "by_url", t)
        assert (a is None) == (b is None), t
        if a is None:
            continue
        assert a.num_rows == b.num_rows, t
        if "source_file" in a.column_names:
            names = sorted(set(b.column("source_file").to_pylist()))
            assert all(n.startswith("file://") for n in names), names
            a, b = a.drop_columns(["source_file"]), b.drop_columns(["source_file"])
        assert a.equals(b), t
    m = json.loads((tmp_path / "by_url" / "_deckhand.json").read_text())
    assert [i["path"] for i in m["inputs"]] == listed
    assert not list((tmp_path / "by_url").glob("_deckhand.shard-*.json"))
    deals = table_of(local, "preferans/deals")
    assert url_frame["game_id"].tolist() == deals.column("game_id").to_pylist()
    assert summary["records"] == sum(f["records"] for f in summary["files"])
    assert [f["path"] for f in summary["files"]] == files
