"""Conversion and reading on a Dask cluster (``pip install deckhand[dask]``).

``convert`` maps shards of the inputs over the cluster's workers, each
converting its files with ``deckhand.convert(..., file_index_base=...)``
into one dataset directory (on a file system every worker and the driver
see), then joins the shards' manifests: the dataset equals a single
``deckhand convert`` over the same inputs in the same order, keys
included. ``read`` gives one table of many files as a Dask DataFrame, a
partition a file, through ``dask.dataframe.from_map``.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Sequence, Union

import deckhand

_Path = Union[str, "os.PathLike[str]"]


def _convert_shard(
    first: int,
    files: Sequence[str],
    out: str,
    threads: Optional[int],
    rules: bool,
    force: bool,
) -> dict[str, Any]:
    import deckhand as d

    return d.convert(
        list(files),
        out,
        file_index_base=first,
        threads=threads,
        rules=rules,
        force=force,
        progress=False,
    )


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
    """Converts ``paths`` (files or directories) into the dataset ``out`` on
    a Dask cluster, ``files_per_task`` files a task.

    ``client``: a ``dask.distributed.Client`` (default: the current one).
    ``out`` must be a directory every worker can write and the driver can
    read (a shared file system). ``threads``: threads a task parses with
    (default: one per core of its worker). Returns the shards' summaries
    joined (``convert``'s keys: counts added, files in order, rows per
    table; ``seconds`` of the longest shard; ``shards``).
    """
    from distributed import get_client

    if files_per_task < 1:
        raise ValueError("files_per_task must be at least 1")
    files = deckhand.find_inputs(paths, rules=rules)
    if not files:
        raise ValueError("no input files found")
    out = os.fspath(out)
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
    if "://" in path and not path.startswith("file://"):
        import fsspec

        with fsspec.open(path, "rb") as f:
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
    """One table of ``paths`` as a ``dask.dataframe.DataFrame``, a partition
    a file, each file at the file index ``convert`` gives it (its position
    among the files). Columns have pandas' Arrow dtypes (exact integers,
    nulls kept). Paths with a protocol (``s3://...``) are read through
    fsspec. ``threads``: threads a partition parses with (default 1: Dask
    runs partitions in parallel).
    """
    import dask.dataframe as dd
    import pandas as pd
    import pyarrow as pa

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    local = [p for p in paths if "://" not in p or p.startswith("file://")]
    files = (
        deckhand.find_inputs(paths, rules=rules) if len(local) == len(paths) else paths
    )
    if not files:
        raise ValueError("no input files found")
    if "://" in files[0] and not files[0].startswith("file://"):
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
