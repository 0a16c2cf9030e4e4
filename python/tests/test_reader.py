"""read_games against `arbiter export --format parquet`: the same rows, column for column and
type for type, as pyarrow reads the command line's Parquet file; compressed files and
directories read as the command line reads them; polars and DuckDB take the reader."""

import pyarrow
import pyarrow.parquet
import pytest

import arbiter


def exported(run_cli, tmp_path, paths, *args):
    """The command line's Parquet export of `paths`, as pyarrow reads it."""
    out = tmp_path / "export.parquet"
    run_cli("export", *paths, "-o", out, "-q", *args)
    return pyarrow.parquet.read_table(out)


def assert_same(expected: pyarrow.Table, got: pyarrow.Table):
    assert got.schema.names == expected.schema.names
    for want, have in zip(expected.schema, got.schema):
        assert have.type == want.type, have.name
        assert have.nullable == want.nullable, have.name
    assert got.num_rows == expected.num_rows
    for name in expected.schema.names:
        assert got[name].equals(expected[name]), name


CASES = {
    "lichess games": ("corpora/samples/lichess_db_1000k.pgn", {}, []),
    "lichess plies": (
        "corpora/samples/lichess_db_1000k.pgn",
        {"plies": True, "fen": True, "comments": True},
        ["--plies", "--fen", "--comments"],
    ),
    "lichess columns": (
        "corpora/samples/lichess_db_1000k.pgn",
        {"columns": "lichess", "tags": ["Annotator"]},
        ["--columns", "lichess", "--tags", "Annotator"],
    ),
    "masters with eco and movetext": (
        "corpora/pgnmentor-players/Morphy.pgn",
        {"eco": True, "movetext": True, "tags": ["WhiteTitle"]},
        ["--eco", "--movetext", "--tags", "WhiteTitle"],
    ),
    "masters where": (
        "corpora/pgnmentor-players/Tal.pgn",
        {"where": 'winner == "white" and plies > 60'},
        ["--where", 'winner == "white" and plies > 60'],
    ),
    "twic plies": ("corpora/samples/twic1599_1000k.pgn", {"plies": True}, ["--plies"]),
    "plies of the games kept, with their opening": (
        "corpora/pgnmentor-players/Tal.pgn",
        {"plies": True, "eco": True, "where": 'eco_computed ~ "^B" and year < 1970'},
        ["--plies", "--eco", "--where", 'eco_computed ~ "^B" and year < 1970'],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_rows_equal_the_command_lines_parquet_export(case, testdata, run_cli, tmp_path):
    path, options, args = CASES[case]
    expected = exported(run_cli, tmp_path, [testdata / path], *args)
    got = arbiter.read_games(testdata / path, **options).read_all()
    assert expected.num_rows > 0
    assert_same(expected, got)


def test_a_zst_file_and_a_directory_read_as_the_command_line_reads_them(
    testdata, run_cli, tmp_path
):
    zst = testdata / "corpora/tcec/TCEC_Match_1.pgn.zst"
    assert_same(exported(run_cli, tmp_path, [zst]), arbiter.read_games(str(zst)).read_all())
    directory = testdata / "corpora/pgnmentor-players"
    expected = exported(run_cli, tmp_path, [directory], "--plies")
    got = arbiter.read_games(directory, plies=True, jobs=2, batch_rows=10_000).read_all()
    assert len(set(expected["file"].to_pylist())) == 10
    assert_same(expected, got)


def test_batches_have_batch_rows_rows_and_every_job_count_gives_the_same_rows(testdata):
    path = testdata / "corpora/samples/lichess_db_1000k.pgn"
    reader = arbiter.read_games(path, plies=True, batch_rows=1000, jobs=2)
    sizes = [batch.num_rows for batch in reader]
    assert set(sizes[:-1]) == {1000} and 0 < sizes[-1] <= 1000
    one = arbiter.read_games(path, plies=True, jobs=1).read_all()
    assert one.num_rows == sum(sizes)
    assert one.equals(arbiter.read_games(path, plies=True, jobs=2).read_all())


def test_polars_and_duckdb_read_the_reader(testdata):
    polars = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    path = testdata / "corpora/samples/lichess_db_1000k.pgn"
    expected = arbiter.read_games(path).read_all()
    frame = polars.from_arrow(arbiter.read_games(path))
    assert frame.height == expected.num_rows
    assert frame["outcome"].to_list() == expected["outcome"].to_pylist()
    # The bare stream, through the PyCapsule protocol.
    assert polars.from_arrow(arbiter.game_stream(path)).height == expected.num_rows
    reader = arbiter.read_games(path)
    counts = duckdb.sql(
        "select outcome, count(*) as n from reader group by outcome order by outcome"
    ).fetchall()
    want = expected.group_by("outcome").aggregate([("outcome", "count")]).sort_by("outcome")
    assert counts == list(zip(want["outcome"].to_pylist(), want["outcome_count"].to_pylist()))
    assert arbiter.to_polars(path, plies=True).height == arbiter.read_games(
        path, plies=True
    ).read_all().num_rows
    assert len(arbiter.to_pandas(path)) == expected.num_rows


def test_a_stream_is_read_once_and_can_be_dropped_early(testdata):
    path = testdata / "corpora/samples/lichess_db_1000k.pgn"
    stream = arbiter.game_stream(path, plies=True, batch_rows=100)
    assert stream.column_names[:3] == arbiter.read_games(path, plies=True).schema.names[:3]
    reader = pyarrow.RecordBatchReader.from_stream(stream)
    with pytest.raises(ValueError, match="read already"):
        stream.__arrow_c_stream__()
    assert reader.read_next_batch().num_rows == 100
    del reader  # the producer stops and is joined; nothing is left running


def test_bad_inputs_raise_with_the_command_lines_message(testdata, tmp_path, run_cli):
    missing = tmp_path / "missing.pgn"
    with pytest.raises(FileNotFoundError) as raised:
        arbiter.read_games(missing)
    cli = run_cli("export", missing, check=False)
    assert cli.returncode == 2
    assert str(raised.value) in cli.stderr.decode()
    with pytest.raises(OSError, match="no file matches"):
        arbiter.read_games(str(tmp_path / "*.pgn"))
    # A zstd stream cut in the middle: the rows before the cut, then the error.
    whole = (testdata / "corpora/tcec/TCEC_Match_1.pgn.zst").read_bytes()
    cut = tmp_path / "cut.pgn.zst"
    cut.write_bytes(whole[: len(whole) // 2])
    reader = arbiter.read_games(cut)
    rows = 0
    with pytest.raises(OSError) as raised:
        for batch in reader:
            rows += batch.num_rows
    cli = run_cli("export", cut, "--format", "jsonl", check=False)
    assert cli.returncode == 2
    assert rows == len(cli.stdout.splitlines()) > 0
    assert str(raised.value).split("\n")[0].split(": ", 1)[-1] in cli.stderr.decode()


def test_bad_options_raise_options_errors_with_the_command_lines_words(testdata):
    path = testdata / "corpora/samples/lichess_db_1000k.pgn"
    with pytest.raises(arbiter.OptionsError, match="^tags: Event is already the standard column event$"):
        arbiter.read_games(path, tags=["Event"])
    with pytest.raises(ValueError, match="^where: column 14: expected a field or a value"):
        arbiter.read_games(path, where="white_elo >= ")
    with pytest.raises(arbiter.OptionsError, match='^position "8/8 w": invalid fen: '):
        arbiter.read_games(path, position=["8/8 w"])
    with pytest.raises(arbiter.OptionsError, match="applies to game rows, not to ply rows"):
        arbiter.read_games(path, plies=True, columns="lichess")
    with pytest.raises(arbiter.OptionsError, match="^movetext applies to game rows: ply rows"):
        arbiter.read_games(path, plies=True, movetext=True)
    with pytest.raises(arbiter.OptionsError, match='"nope" is not a set of columns'):
        arbiter.read_games(path, columns="nope")
    with pytest.raises(arbiter.OptionsError, match="jobs must be at least 1"):
        arbiter.read_games(path, jobs=0)
    with pytest.raises(arbiter.OptionsError, match="range reads one input"):
        arbiter.read_games([path, path], range=(0, 10))


def test_a_range_reads_the_games_the_command_line_reads(testdata, run_cli, tmp_path):
    path = testdata / "corpora/samples/lichess_db_1000k.pgn"
    expected = exported(run_cli, tmp_path, [path], "--range", "200000:600000")
    got = arbiter.read_games(path, range=(200_000, 600_000)).read_all()
    assert 0 < got.num_rows < arbiter.read_games(path).read_all().num_rows
    assert_same(expected, got)


def test_help_shows_the_docstrings():
    assert "arrow" in arbiter.read_games.__doc__.lower()
    assert "FEN" in arbiter.Position.from_fen.__doc__
    assert "Diagnostic" in arbiter.validate.__doc__
    assert "clean PGN" in arbiter.select.__doc__
