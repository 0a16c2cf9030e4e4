"""arbiter for Python: PGN chess archives into Arrow tables of games and plies at native speed.

The functions read files, directories and patterns (``games/*.pgn``), compressed or not
(.gz, .zst, .bz2, .xz), as the ``arbiter`` command line does, on every core, with the GIL
released; no Python object is built per game.

- :func:`read_games`: the rows ``arbiter export --format parquet`` writes (one per game, or one
  per ply with ``plies=True``), streamed as a ``pyarrow.RecordBatchReader`` that polars, DuckDB
  and pyarrow read without a copy; :func:`to_polars` and :func:`to_pandas` for a whole table.
- :func:`validate`: every problem of every game as a :class:`Diagnostic`, then a :class:`Summary`.
- :class:`Position`: legal moves in SAN and UCI, status, ``can_mate`` with its helpmate, perft.
- :func:`select`: the games an expression, a position or deduplication keeps, as clean PGN.

Errors are exceptions: :class:`FenError`, :class:`MoveError` and :class:`OptionsError` are
``ValueError`` subclasses; an input that cannot be read is an ``OSError``
(``FileNotFoundError`` for a missing file). Their messages are the command line's.

See docs/python.md for a walk-through.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Optional, Sequence, Tuple, Union

import pyarrow

from arbiter._arbiter import (
    BATCH_ROWS,
    DEFAULT_RULINGS_BUDGET,
    Diagnostic,
    FenError,
    GameStream,
    LegalMove,
    MateAnswer,
    MoveError,
    OptionsError,
    Position,
    SelectSummary,
    Summary,
    Validation,
    __version__,
    select,
    validate,
)
from arbiter import _arbiter

if TYPE_CHECKING:  # pragma: no cover
    import pandas
    import polars

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]

__all__ = [
    "BATCH_ROWS",
    "DEFAULT_RULINGS_BUDGET",
    "Diagnostic",
    "FenError",
    "GameStream",
    "LegalMove",
    "MateAnswer",
    "MoveError",
    "OptionsError",
    "Position",
    "SelectSummary",
    "Summary",
    "Validation",
    "__version__",
    "game_stream",
    "read_games",
    "select",
    "to_pandas",
    "to_polars",
    "validate",
]


def game_stream(
    paths: Paths,
    *,
    plies: bool = False,
    columns: str = "arbiter",
    tags: Iterable[str] = (),
    where: Optional[str] = None,
    position: Iterable[str] = (),
    eco: bool = False,
    movetext: bool = False,
    fen: bool = False,
    comments: bool = False,
    jobs: Optional[int] = None,
    range: Optional[Tuple[int, int]] = None,
    rulings_budget: int = DEFAULT_RULINGS_BUDGET,
    batch_rows: int = BATCH_ROWS,
) -> GameStream:
    """The rows of :func:`read_games` as a bare :class:`GameStream`: an object with
    ``__arrow_c_stream__`` (the Arrow PyCapsule protocol), for readers that take one without
    pyarrow (``polars.from_arrow`` 1.x, ``duckdb``, ``pyarrow.table``). Same arguments."""
    return _arbiter.read_games(
        paths,
        plies=plies,
        columns=columns,
        tags=list(tags),
        where=where,
        position=list(position),
        eco=eco,
        movetext=movetext,
        fen=fen,
        comments=comments,
        jobs=jobs,
        range=range,
        rulings_budget=rulings_budget,
        batch_rows=batch_rows,
    )


def read_games(
    paths: Paths,
    *,
    plies: bool = False,
    columns: str = "arbiter",
    tags: Iterable[str] = (),
    where: Optional[str] = None,
    position: Iterable[str] = (),
    eco: bool = False,
    movetext: bool = False,
    fen: bool = False,
    comments: bool = False,
    jobs: Optional[int] = None,
    range: Optional[Tuple[int, int]] = None,
    rulings_budget: int = DEFAULT_RULINGS_BUDGET,
    batch_rows: int = BATCH_ROWS,
) -> pyarrow.RecordBatchReader:
    """Read every game of ``paths`` into the rows ``arbiter export --format parquet`` writes.

    Returns a streaming ``pyarrow.RecordBatchReader`` with exactly export's columns and types
    (docs/export-fields.md): read it batch by batch in flat memory, or hand it whole to
    ``pyarrow.Table.from_batches``/``reader.read_all()``, ``polars.from_arrow(reader)`` or
    ``duckdb.sql("select ... from reader")``.

    paths: a file, a directory (its ``*.pgn``, ``*.pgn.gz``, ``*.pgn.zst``, ``*.pgn.bz2`` and
        ``*.pgn.xz`` files, searched recursively) or a pattern, or a list of them.
    plies: one row per main-line ply (``export --plies``) instead of one per game; with
        ``fen=True`` the FEN after each move, with ``comments=True`` the comments' text.
    columns: ``"arbiter"`` (export's own) or ``"lichess"`` (the lichess games dataset's names and
        types, then arbiter's verdict: ``--columns lichess``).
    tags: extra tag columns, in this order (``--tags``).
    where: only the games that pass this expression (``--where``, docs/select.md).
    position: only the games whose main line reaches one of these FENs, with the
        ``position_ply`` column (``--position``).
    eco: add ``eco_computed`` and ``opening_computed`` (``--eco``).
    movetext: add the ``movetext`` column (``--movetext``).
    jobs: worker threads (default: every core).
    range: ``(start, end)``: only the games of that byte range of one input (``--range``).
    rulings_budget: positions the helpmate search may visit per final position
        (``--rulings-budget``).
    batch_rows: rows per record batch.

    A missing file, a pattern that matches nothing or a file that is not PGN raises an
    ``OSError`` (``FileNotFoundError``) here; bad options raise :class:`OptionsError`. An input
    that fails while it is read (a corrupt compressed stream) ends the stream with an
    ``OSError`` saying so, after every other row.
    """
    stream = game_stream(
        paths,
        plies=plies,
        columns=columns,
        tags=tags,
        where=where,
        position=position,
        eco=eco,
        movetext=movetext,
        fen=fen,
        comments=comments,
        jobs=jobs,
        range=range,
        rulings_budget=rulings_budget,
        batch_rows=batch_rows,
    )
    return pyarrow.RecordBatchReader.from_stream(stream)


def to_polars(paths: Paths, **options) -> "polars.DataFrame":
    """:func:`read_games` into a ``polars.DataFrame`` (needs polars: ``pip install polars``).
    Takes the same options."""
    try:
        import polars
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("to_polars needs polars: pip install polars") from err
    return polars.from_arrow(read_games(paths, **options))


def to_pandas(paths: Paths, **options) -> "pandas.DataFrame":
    """:func:`read_games` into a ``pandas.DataFrame`` (needs pandas: ``pip install pandas``).
    Takes the same options."""
    try:
        import pandas  # noqa: F401
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas needs pandas: pip install pandas") from err
    return read_games(paths, **options).read_pandas()
