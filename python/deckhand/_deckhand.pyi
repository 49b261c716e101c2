"""Type stubs of deckhand's native module (re-exported by ``deckhand``)."""

import os
from typing import Any, Iterable, Optional, Union

__version__: str

_Path = Union[str, "os.PathLike[str]"]

class Reader:
    """One table of one input, read afresh by each consumer.

    Implements the Arrow PyCapsule interface: ``pyarrow.table(r)``,
    ``polars.DataFrame(r)``, ``duckdb.sql("from r")`` and
    ``pandas.DataFrame.from_arrow(r)`` read it; each stream parses the input
    again, so an engine may scan it more than once.
    """

    @property
    def table(self) -> str:
        """The table's path in a dataset (``pinochle/hands``, ``errors``)."""
    @property
    def source(self) -> str:
        """The input's name (its path, or the ``name`` given with bytes)."""
    @property
    def columns(self) -> list[str]:
        """The column names."""
    @property
    def schema(self) -> "Schema":
        """The table's schema."""
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...

class Schema:
    """A table's Arrow schema (``pyarrow.schema(s)`` reads it)."""

    @property
    def table(self) -> str: ...
    @property
    def names(self) -> list[str]: ...
    def __arrow_c_schema__(self) -> object: ...

def read(
    source: Union[_Path, bytes, bytearray, memoryview],
    *,
    table: str,
    game: Optional[str] = None,
    file_index: int = 0,
    threads: Optional[int] = None,
    name: Optional[str] = None,
    rules: bool = True,
) -> Reader:
    """One table of one input, with the values ``convert`` writes for that
    file at ``file_index`` (the high bits of its record keys).

    ``source`` is a path (compressed or not) or the bytes of a file (then
    ``name`` is its ``source_file`` and helps route it). ``table`` is a
    table's name (``hands``), ``<game>/<table>`` or ``errors``; a name
    several games have is taken from the input's game unless ``game`` says.
    ``threads``: threads that parse records (default: one per core).
    ``rules=False`` skips the rules engines (their columns are null).

    Raises ``FileNotFoundError`` for a missing path and ``ValueError`` for
    an unknown table or game (naming the valid ones). Bad records are rows
    of the ``errors`` table, as in the CLI.
    """

def convert(
    inputs: Union[_Path, Iterable[_Path]],
    out: _Path,
    *,
    threads: Optional[int] = None,
    file_index_base: Optional[int] = None,
    append: bool = False,
    force: bool = False,
    progress: bool = True,
    tables: Optional[list[str]] = None,
    rules: bool = True,
    names: Optional[list[str]] = None,
) -> dict[str, Any]:
    """``deckhand convert INPUTS -o OUT`` in-process, the GIL released.

    Returns the summary (``--summary-json``'s content, with ``notes``).
    ``file_index_base=N`` converts a shard of a larger run (file indices
    from N, part files ``part-N.parquet`` beside other shards', a manifest
    fragment that ``merge_manifests`` joins); None is a whole run.
    ``append`` adds only inputs the dataset does not hold. ``names``: the
    names the inputs (files) carry in ``source_file`` and the manifest, one
    an input, instead of their paths (inputs copied from an object store).
    Ctrl-C raises
    ``KeyboardInterrupt`` and leaves no temporary file.
    """

def merge_manifests(out: _Path) -> dict[str, Any]:
    """Joins the shards' manifest fragments into ``OUT/_deckhand.json``
    (``deckhand manifest merge OUT``) and returns the manifest."""

def schema(game: str, table: str) -> Schema:
    """The Arrow schema of ``table`` of ``game``."""

def tables(game: Optional[str] = None) -> list[str]:
    """The tables of ``game`` (names, ``errors`` last), or of every game
    (as ``<game>/<table>``)."""

def games() -> list[str]:
    """The games deckhand has tables for."""

def explain(code: str) -> str:
    """What a diagnostic code of the ``errors`` table means."""

def find_inputs(inputs: Union[_Path, Iterable[_Path]], *, rules: bool = True) -> list[str]:
    """The files ``convert`` reads for ``inputs`` (directories searched as
    the CLI searches them), in its order: a file's position is its file
    index."""

def extensions() -> list[str]:
    """The file name extensions deckhand reads (with the dot: ``.ppn``),
    compressed forms (``.gz``, ``.zst``, ``.bz2``, ``.xz`` after them) aside."""
