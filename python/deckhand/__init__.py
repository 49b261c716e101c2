"""deckhand: card-game hand records into Arrow tables and Parquet datasets.

Reads Portable Pinochle Notation, Portable Bridge Notation, Richard's Bridge
Notation (RBN, RBX), Portable Preferans Notation and the Poker Hand History
format, checks every record against the rules of its game, and hands the
rows over as Arrow streams (no copy through Python objects) or writes them
as a Parquet dataset, ``OUT/<game>/<table>/``.

>>> import deckhand, pyarrow as pa
>>> hands = pa.table(deckhand.read("games.ppn", table="hands"))
>>> summary = deckhand.convert(["archive/"], "out")

``read`` returns an object with the Arrow PyCapsule interface: pyarrow,
Polars, DuckDB and pandas read it directly. ``deckhand.dask`` converts and
reads many files on a Dask cluster.
"""

from ._deckhand import (
    Reader,
    Schema,
    __version__,
    convert,
    explain,
    extensions,
    find_inputs,
    games,
    merge_manifests,
    read,
    schema,
    tables,
)

__all__ = [
    "Reader",
    "Schema",
    "__version__",
    "convert",
    "explain",
    "extensions",
    "find_inputs",
    "games",
    "merge_manifests",
    "read",
    "schema",
    "tables",
]
