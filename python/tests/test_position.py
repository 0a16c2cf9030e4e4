"""Position against python-chess (legal moves in SAN and UCI, check, mate, stalemate,
insufficient material) on the shared FEN suites, can_mate against the unwinnability vectors
(each helpmate replayed by python-chess), perft against the shared suites, and the command
line's error messages."""

import csv
import itertools

import chess
import pytest

import arbiter
from arbiter import Position

SUITES = [
    "pychess__GetMated.epd.tsv",
    "python-chess__bratko-kopec.epd.tsv",
    "python-chess__endgame.epd.tsv",
    "stockfish-books__endgames-first1000.epd.tsv",
    "stockfish-books__stalemates_200d30_v1.epd.tsv",
    "sunfish__mate1.fen.tsv",
    "sunfish__stalemate1.fen.tsv",
    "sunfish__terminal_bench.epd.tsv",
    "sunfish__win_at_chess_test.epd.tsv",
    "sunfish__chessathome_openings.fen.tsv",
]

# Positions per suite: a fixed sample (every k-th line), to keep the test to seconds.
PER_SUITE = 400


def fens(testdata, suite):
    with open(testdata / "fen/_reference" / suite, newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["valid"] == "1"]
    step = max(1, len(rows) // PER_SUITE)
    return [r["fen"] for r in rows[::step]]


@pytest.mark.parametrize("suite", SUITES)
def test_python_chess_agrees_on_moves_and_statuses(suite, testdata):
    checked = 0
    for fen in fens(testdata, suite):
        board = chess.Board(fen)
        pos = Position.from_fen(fen)
        moves = pos.legal_moves()
        assert {m.uci for m in moves} == {m.uci() for m in board.legal_moves}, fen
        assert {m.san for m in moves} == {board.san(m) for m in board.legal_moves}, fen
        assert [m.san.encode() for m in moves] == sorted(m.san.encode() for m in moves)
        assert pos.is_check == board.is_check(), fen
        assert pos.is_checkmate == board.is_checkmate(), fen
        assert pos.is_stalemate == board.is_stalemate(), fen
        assert pos.is_insufficient_material == board.is_insufficient_material(), fen
        status = pos.status(limit=0)
        if board.is_checkmate():
            assert status == "checkmate", fen
        elif board.is_stalemate():
            assert status == "stalemate", fen
        elif board.is_insufficient_material():
            assert status == "insufficient_material", fen
        else:
            assert status in ("dead_position", "seventyfive_moves", "ongoing"), fen
        assert pos.fen.split()[:4] == board.fen().split()[:4], fen
        checked += 1
    assert checked > 0


def test_push_plays_san_and_uci_as_python_chess_does():
    pos = Position.startpos()
    board = chess.Board()
    for move in ["e4", "e7e5", "Nf3", "b8c6", "Bb5", "a6", "O-O", "g8f6", "Re1"]:
        san = pos.push(move)
        is_uci = len(move) == 4 and move[1].isdigit() and move[3].isdigit()
        played = board.parse_uci(move) if is_uci else board.parse_san(move)
        assert san == board.san(played)
        board.push(played)
        assert pos.fen == board.fen()
    assert pos.turn == "black"


def test_can_mate_matches_the_unwinnability_vectors(testdata):
    lines = (testdata / "unwinnable/test-vector.txt").read_text().splitlines()
    vectors = [l for l in lines if l and not l.startswith("#")][::12]
    decided = 0
    for line in vectors:
        label, fen = line[:2], line[3:]
        try:
            pos = Position.from_fen(fen)
        except arbiter.FenError:
            # A few vectors have more promoted pieces than missing pawns allow: not a position
            # of chess, and an invalid FEN here (the command line says so too).
            continue
        for color, letter in (("white", label[0]), ("black", label[1])):
            answer = pos.can_mate(color, limit=20_000)
            if answer.can_mate is None:
                assert answer.helpmate is None and "not decided within" in answer.text
                continue
            decided += 1
            assert answer.can_mate == (letter != "-"), (color, line)
            if answer.can_mate:
                board = chess.Board(fen)
                for uci in answer.helpmate:
                    board.push_uci(uci)
                assert board.is_checkmate() and board.turn != (color == "white"), line
                assert bool(answer)
            else:
                assert answer.text.startswith(f"{color} cannot mate (proved: "), answer.text
                assert answer.proof in ("over", "material", "blocked", "look_ahead", "quick", "search")
    assert decided > len(vectors)


def test_perft_counts_the_shared_suite(testdata):
    text = (testdata / "perft/python-chess/tricky.perft").read_text()
    counted = 0
    for block in text.split("\n\n"):
        fields = dict(
            (l.split(" ", 1)[0], l.split(" ", 1)[1])
            for l in block.splitlines()
            if l and not l.startswith("#")
        )
        if "epd" not in fields:
            continue
        chess960 = fields.get("id", "").startswith("xfen")
        try:
            pos = Position.from_fen(fields["epd"], chess960=chess960)
        except arbiter.FenError:
            # A few are positions no game reaches (an impossible check), refused as FENs.
            continue
        for line in block.splitlines():
            if line.startswith("perft "):
                _, depth, nodes = line.split()
                if int(nodes) <= 200_000:
                    assert pos.perft(int(depth)) == int(nodes), fields["epd"]
                    counted += 1
    assert counted >= 20


def test_bad_fens_and_moves_raise_value_errors_with_the_command_lines_message(run_cli):
    for fen in ["bad fen", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"]:
        with pytest.raises(arbiter.FenError) as raised:
            Position.from_fen(fen)
        assert isinstance(raised.value, ValueError)
        cli = run_cli("moves", fen, check=False)
        assert cli.returncode == 2
        assert cli.stderr.decode() == f"arbiter: error: {raised.value}\n"
    pos = Position.startpos()
    with pytest.raises(arbiter.MoveError, match="Nbd2"):
        pos.push("Nbd2")
    with pytest.raises(arbiter.MoveError, match="e2e5"):
        pos.push("e2e5")
    with pytest.raises(ValueError, match="null move"):
        pos.push("--")
    assert pos.fen == chess.STARTING_FEN
    with pytest.raises(arbiter.OptionsError, match="not a color"):
        pos.can_mate("red")


def test_status_and_can_mate_match_the_command_lines_json(run_cli):
    import json

    for fen in [
        "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "8/8/8/8/8/8/8/k6K w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ]:
        want = json.loads(run_cli("moves", fen, "--format", "json").stdout)
        pos = Position.from_fen(fen)
        assert pos.status() == want["status"]
        assert [m.san for m in pos.legal_moves()] == [m["san"] for m in want["moves"]]
        for color in ("white", "black"):
            answer = pos.can_mate(color)
            assert answer.can_mate == want["can_mate"][color]
            assert answer.helpmate == want["helpmate"][color]
            assert answer.proof == want["proof"][color]
        dead = want["status"] == "dead_position" or want["status"] == "insufficient_material"
        assert pos.is_dead() == dead


def test_chess960_castles_king_to_rook():
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"
    pos = Position.from_fen(fen, chess960=True)
    board = chess.Board(fen, chess960=True)
    assert pos.chess960
    assert {m.uci for m in pos.legal_moves()} == {m.uci() for m in board.legal_moves}
    assert {"e1g1", "e1b1"} <= {m.uci for m in pos.legal_moves()}
    assert pos.perft(2) == sum(
        _after(board, m) for m in board.legal_moves
    )
    copy = pos.copy()
    assert copy.push("O-O") == "O-O"
    assert copy != pos and pos.fen == fen


def _after(board, move):
    board.push(move)
    count = board.legal_moves.count()
    board.pop()
    return count
