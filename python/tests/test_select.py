"""select against `arbiter select`: the same files, byte for byte, and the same counts."""

import pytest

import arbiter


def test_select_writes_what_the_command_line_writes(testdata, run_cli, tmp_path):
    path = testdata / "corpora/pgnmentor-players/Morphy.pgn"
    where = 'winner == "white" and plies > 40'
    cli_out, cli_rejected = tmp_path / "cli.pgn", tmp_path / "cli-rejected.pgn"
    run_cli("select", path, "--where", where, "--eco", "--no-comments", "-q",
            "-o", cli_out, "--rejected", cli_rejected)
    out, rejected = tmp_path / "py.pgn", tmp_path / "py-rejected.pgn"
    summary = arbiter.select(path, out, where=where, eco=True, comments=False,
                             rejected=rejected, jobs=2)
    assert out.read_bytes() == cli_out.read_bytes()
    assert rejected.read_bytes() == cli_rejected.read_bytes()
    assert summary.written == out.read_text().count("[Event ") > 0
    assert summary.rejected == rejected.read_text().count("[Event ") > 0
    assert summary.games == summary.written + summary.rejected


def test_dedup_and_compressed_output(testdata, run_cli, tmp_path):
    path = testdata / "corpora/pgnmentor-players"
    cli_out = tmp_path / "cli.pgn.zst"
    run_cli("select", path, "--dedup", "moves", "-q", "-o", cli_out)
    out = tmp_path / "py.pgn.zst"
    summary = arbiter.select([path], out, dedup="moves")
    assert out.read_bytes()[:4] == b"\x28\xb5\x2f\xfd"
    assert out.read_bytes() == cli_out.read_bytes()
    assert summary.duplicates > 0
    kept = arbiter.read_games(out).read_all().num_rows
    assert kept == summary.written == summary.games - summary.duplicates


def test_outputs_are_checked_before_anything_is_read(testdata, tmp_path):
    path = testdata / "corpora/pgnmentor-players/Morphy.pgn"
    with pytest.raises(arbiter.OptionsError, match="is also an input"):
        arbiter.select(path, path)
    out = tmp_path / "out.pgn"
    with pytest.raises(arbiter.OptionsError, match="another output"):
        arbiter.select(path, out, rejected=out)
    with pytest.raises(arbiter.OptionsError, match='"both" is no mode'):
        arbiter.select(path, out, dedup="both")
    with pytest.raises(arbiter.OptionsError, match="^where: "):
        arbiter.select(path, out, where="nonsense >")
    assert not out.exists()
