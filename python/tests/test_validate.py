"""validate against `arbiter validate --format jsonl`: the same diagnostics, in the same order,
and the summary's counts."""

import json

import pytest

import arbiter

FIELDS = ["line", "column", "game", "ply", "san", "severity", "code", "message", "offset"]


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
