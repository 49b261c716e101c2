"""Conversion and reading on a Dask cluster (``pip install deckhand[dask]``).

``convert`` maps shards of the inputs over the cluster's workers, each
converting its files with ``deckhand.convert(..., file_index_base=...)``
into one dataset, then joins the shards' manifests: the dataset equals a
single ``deckhand convert`` over the same inputs in the same order, keys
included. ``read`` gives one table of many files as a Dask DataFrame, a
partition a file, through ``dask.dataframe.from_map``.

Inputs and the dataset may be local paths (a file system every worker and
the driver see) or URLs of any file system fsspec knows (``s3://``,
``gs://``, ``file://``...): a worker then copies its inputs to a local
temporary directory (their URLs stay their ``source_file``), converts them
there and copies its part files and manifest fragment to the dataset.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Iterable, Optional, Sequence, Union

import deckhand

_Path = Union[str, "os.PathLike[str]"]

_COMPRESSED = (".gz", ".zst", ".bz2", ".xz")


def _is_url(p: str) -> bool:
    return "://" in p


def _fs(url: str):
    import fsspec.core

    return fsspec.core.url_to_fs(url)


def _deckhand_name(name: str) -> bool:
    """Whether a file name has an extension deckhand reads (compressed or not)."""
    n = name.lower()
    for c in _COMPRESSED:
        if n.endswith(c):
            n = n[: -len(c)]
            break
    return any(n.endswith(e) for e in deckhand.extensions())


def list_inputs(paths: Union[_Path, Iterable[_Path]], *, rules: bool = True) -> list[str]:
    """The files a conversion of ``paths`` reads, in its order (a file's
    position is its file index): local paths as ``deckhand.find_inputs``
    finds them; for a URL of a directory, the files under it whose names
    deckhand reads, sorted."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    files: list[str] = []
    for p in paths:
        if not _is_url(p):
            files.extend(deckhand.find_inputs([p], rules=rules))
            continue
        fs, root = _fs(p)
        if fs.isdir(root):
            found = sorted(f for f in fs.find(root) if _deckhand_name(f.rsplit("/", 1)[-1]))
            files.extend(fs.unstrip_protocol(f) for f in found)
        elif fs.exists(root):
            files.append(p)
        else:
            raise FileNotFoundError(2, "No such file or directory", p)
    seen: set[str] = set()
    return [f for f in files if not (f in seen or seen.add(f))]


def _put_tree(local: str, out: str) -> None:
    """Copies the files under ``local`` to the URL ``out``, file by file (the
    dataset holds other shards' files)."""
    fs, root = _fs(out)
    for d, _, names in os.walk(local):
        for n in names:
            src = os.path.join(d, n)
            rel = os.path.relpath(src, local).replace(os.sep, "/")
            dst = f"{root.rstrip('/')}/{rel}"
            fs.makedirs(dst.rsplit("/", 1)[0], exist_ok=True)
            fs.put_file(src, dst)


def _convert_shard(
    first: int,
    files: Sequence[str],
    out: str,
    threads: Optional[int],
    rules: bool,
    force: bool,
) -> dict[str, Any]:
    import deckhand as d

    if not _is_url(out) and not any(_is_url(f) for f in files):
        return d.convert(
            list(files),
            out,
            file_index_base=first,
            threads=threads,
            rules=rules,
            force=force,
            progress=False,
        )
    with tempfile.TemporaryDirectory(prefix="deckhand-shard-") as tmp:
        local = []
        for i, f in enumerate(files):
            if _is_url(f):
                fs, p = _fs(f)
                dst = os.path.join(tmp, "in", f"{first + i}-{f.rsplit('/', 1)[-1]}")
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                fs.get_file(p, dst)
                local.append(dst)
            else:
                local.append(f)
        target = os.path.join(tmp, "out") if _is_url(out) else out
        summary = d.convert(
            local,
            target,
            file_index_base=first,
            threads=threads,
            rules=rules,
            force=force,
            progress=False,
            names=list(files),
        )
        if _is_url(out):
            _put_tree(target, out)
        return summary


def _merge_summaries(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One summary of the shards' summaries (each ``convert``'s): counts
    added, files in file-index order, rows added per table; ``seconds`` is
    the longest shard's."""
    merged: dict[str, Any] = {"rows": {}, "files": [], "left_out": [], "notes": []}
    for p in parts:
        for k, v in p.items():
            if k == "seconds":
                merged[k] = max(merged.get(k, 0.0), v)
            elif k == "rows":
                for t, n in v.items():
                    merged["rows"][t] = merged["rows"].get(t, 0) + n
            elif isinstance(v, list):
                merged.setdefault(k, []).extend(v)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                merged[k] = merged.get(k, 0) + v
            else:
                merged.setdefault(k, v)
    merged["shards"] = len(parts)
    return merged


def _merge_remote(out: str) -> None:
    """``deckhand.merge_manifests`` for a dataset at a URL: its manifest and
    fragments are merged in a local directory, the manifest copied back and
    the fragments removed."""
    fs, root = _fs(out)
    root = root.rstrip("/")
    names = [
        f.rsplit("/", 1)[-1]
        for f in fs.ls(root, detail=False)
        if f.rsplit("/", 1)[-1] == "_deckhand.json"
        or (f.rsplit("/", 1)[-1].startswith("_deckhand.shard-") and f.endswith(".json"))
    ]
    with tempfile.TemporaryDirectory(prefix="deckhand-merge-") as tmp:
        for n in names:
            fs.get_file(f"{root}/{n}", os.path.join(tmp, n))
        deckhand.merge_manifests(tmp)
        fs.put_file(os.path.join(tmp, "_deckhand.json"), f"{root}/_deckhand.json")
    for n in names:
        if n != "_deckhand.json":
            fs.rm_file(f"{root}/{n}")


def convert(
    paths: Union[_Path, Iterable[_Path]],
    out: _Path,
    *,
    client: Any = None,
    files_per_task: int = 64,
    threads: Optional[int] = None,
    rules: bool = True,
    force: bool = False,
) -> dict[str, Any]:
    """Converts ``paths`` (files or directories, local or URLs) into the
    dataset ``out`` (a local directory every worker and the driver see, or
    a URL) on a Dask cluster, ``files_per_task`` files a task.

    ``client``: a ``dask.distributed.Client`` (default: the current one).
    ``threads``: threads a task parses with (default: one per core of its
    worker). Returns the shards' summaries joined (``convert``'s keys:
    counts added, files in order, rows per table; ``seconds`` of the
    longest shard; ``shards``).
    """
    from distributed import get_client

    if files_per_task < 1:
        raise ValueError("files_per_task must be at least 1")
    files = list_inputs(paths, rules=rules)
    if not files:
        raise ValueError("no input files found")
    out = os.fspath(out)
    if _is_url(out):
        fs, root = _fs(out)
        fs.makedirs(root, exist_ok=True)
    else:
        os.makedirs(out, exist_ok=True)
    client = client if client is not None else get_client()
    firsts = list(range(0, len(files), files_per_task))
    shards = [files[i : i + files_per_task] for i in firsts]
    futures = client.map(
        _convert_shard,
        firsts,
        shards,
        out=out,
        threads=threads,
        rules=rules,
        force=force,
        pure=False,
    )
    parts = client.gather(futures)
    if _is_url(out):
        _merge_remote(out)
    else:
        deckhand.merge_manifests(out)
    return _merge_summaries(parts)


def _read_partition(
    path: str,
    file_index: int,
    table: str,
    game: Optional[str],
    threads: Optional[int],
    rules: bool,
):
    import pandas as pd
    import pyarrow as pa

    import deckhand as d

    source: Any = path
    if _is_url(path):
        fs, p = _fs(path)
        with fs.open(p, "rb") as f:
            source = f.read()
    r = d.read(
        source,
        table=table,
        game=game,
        file_index=file_index,
        threads=threads,
        name=path,
        rules=rules,
    )
    return pa.table(r).to_pandas(types_mapper=pd.ArrowDtype)


def read(
    paths: Union[_Path, Iterable[_Path]],
    *,
    table: str,
    game: Optional[str] = None,
    threads: Optional[int] = 1,
    rules: bool = True,
):
    """One table of ``paths`` (files or directories, local or URLs) as a
    ``dask.dataframe.DataFrame``, a partition a file, each file at the file
    index ``convert`` gives it (its position among the files). Columns have
    pandas' Arrow dtypes (exact integers, nulls kept). ``threads``: threads
    a partition parses with (default 1: Dask runs partitions in parallel).
    """
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa

    files = list_inputs(paths, rules=rules)
    if not files:
        raise ValueError("no input files found")
    if _is_url(files[0]):
        meta = _read_partition(files[0], 0, table, game, 1, rules).iloc[:0]
    else:
        # The schema only: nothing is parsed (a table name several games
        # have is the first file's game's).
        s = pa.schema(deckhand.read(files[0], table=table, game=game, rules=rules))
        meta = s.empty_table().to_pandas(types_mapper=pd.ArrowDtype)
    return dd.from_map(
        _read_partition,
        files,
        list(range(len(files))),
        table=table,
        game=game,
        threads=threads,
        rules=rules,
        meta=meta,
        enforce_metadata=False,
    )
