"""validate against `arbiter validate --format jsonl`: the same diagnostics, in the same order,
and the summary's counts."""

import json

import pytest

import arbiter

FIELDS = ["line", "column", "game", "white", "black", "round", "ply", "san", "severity", "code", "message", "offset"]


def cli_diagnostics(run_cli, *args):
    done = run_cli("validate", "--format", "jsonl", *args)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return [l for l in lines if l["type"] == "diagnostic"], lines[-1]


@pytest.mark.parametrize(
    "path, strict",
    [
        ("edge/python-chess", False),
        ("corpora/annotated", True),
        ("edge/pgn-extract", False),
    ],
)
def test_diagnostics_and_summary_equal_the_command_lines(path, strict, testdata, run_cli):
    args = [testdata / path] + (["--strict"] if strict else [])
    expected, summary = cli_diagnostics(run_cli, *args)
    validation = arbiter.validate(testdata / path, strict=strict, jobs=2)
    got = list(validation)
    assert len(expected) > 0
    assert len(got) == len(expected)
    for want, have in zip(expected, got):
        assert have.path == want["file"]
        for field in FIELDS:
            assert getattr(have, field) == want[field], field
        variation = want["variation"]
        assert have.variation == (
            None if variation is None else (variation["depth"], variation["from_ply"])
        )
    counts = validation.summary()
    for field in ["games", "plies", "valid", "invalid", "errors", "warnings"]:
        assert getattr(counts, field) == summary[field], field
    assert sum(counts.codes.values()) == counts.errors + counts.warnings
    assert f"{counts.games} games" in str(counts)


def test_summary_reads_what_is_left(testdata, run_cli):
    path = testdata / "edge/python-chess"
    _, summary = cli_diagnostics(run_cli, path)
    validation = arbiter.validate(path)
    next(validation)
    assert validation.summary().games == summary["games"]
    assert list(validation) == []


def test_a_missing_input_raises(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.pgn: No such file"):
        arbiter.validate([tmp_path / "missing.pgn"])


def test_games_read_as_windows_1252_get_one_warning_per_input(tmp_path, run_cli):
    # See: issue 43, point 11.
    game = b'[White "M\xfcller"]\n[Result "*"]\n\n1. e4 *\n\n'
    path = tmp_path / "latin1.pgn"
    path.write_bytes(b'[Result "*"]\n\n1. d4 *\n\n' + game * 3)
    expected, _ = cli_diagnostics(run_cli, path)
    got = [d for d in arbiter.validate(path) if d.code == "not_utf8"]
    assert [(d.game, d.message) for d in got] == [
        (w["game"], w["message"]) for w in expected if w["code"] == "not_utf8"
    ]
    assert [(d.game, d.ply, d.line) for d in got] == [(2, None, 5)]
    assert "3 games of this input" in got[0].message
