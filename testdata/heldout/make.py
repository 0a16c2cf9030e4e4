#!/usr/bin/env python3
"""Makes testdata/heldout/rulings.pgn: games built around labelled positions, for the rulings.

Usage:  testdata/heldout/make.py PEER > testdata/heldout/rulings.pgn

PEER is the chasolver yardstick (`peer-chasolver` of the shared bench folder, built), used only
to label the positions a random playout reaches (category "dead mid-game" below). Needs
python-chess 1.11.2 (`pip install chess==1.11.2`) for legal moves and SAN.

Every game has an `Expect` tag (`outcome winner result_consistent end_ply`, as export writes
them, `-` for null) and a `Can` tag (`white_can_mate black_can_mate`), both from the labels of
chasolver's test sets (MIT; testdata/chasolver/README.md) or, for the positions a playout reaches, from
chasolver itself; arbiter's answers are not used. Four kinds of game, each from a fixed random
sample:

- `dead final`: the game ends in a position labelled dead (`--`) beyond material, with a drawn
  Result (consistent) or a decisive one (inconsistent: the game ended before any flag fall);
- `dead mid-game`: a playout from a position labelled alive reaches a dead one (labelled by
  chasolver) after some moves, and a few more moves follow it: the game ended at that ply;
- `flag fall lost`: the winner on time can mate (labelled): the 1-0 or 0-1 stands;
- `flag fall drawn`: the winner on time cannot mate (labelled): drawn by Law 6.9.
"""
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent
SETS = HERE.parent / "chasolver"
# chasolver's lichess set is not in the repository (3.4 MB): bench/chasolver-sets.sh prints its
# folder, which ARBITER_CHASOLVER names.
LICHESS_SET = os.environ.get("ARBITER_CHASOLVER") or subprocess.run(
    ["bash", str(HERE.parent.parent / "bench" / "chasolver-sets.sh")],
    capture_output=True, text=True, check=True,
).stdout.strip()


def plausible(board):
    """Whether arbiter's FEN reader accepts the board as a position of chess (python-chess
    accepts more): no side has more men than an initial set and its promotions explain, bishops
    counted by square colour (one of each colour in the set), and no two checkers that are both
    pawns or knights (no single move gives such a check)."""
    for color in (chess.WHITE, chess.BLACK):
        pawns = len(board.pieces(chess.PAWN, color))
        bishops = board.pieces(chess.BISHOP, color)
        light = len(bishops & chess.BB_LIGHT_SQUARES)
        extra = max(0, light - 1) + max(0, len(bishops) - light - 1) + sum(
            max(0, len(board.pieces(role, color)) - initial)
            for role, initial in ((chess.QUEEN, 1), (chess.ROOK, 2), (chess.KNIGHT, 2))
        )
        if pawns > 8 or extra > 8 - pawns:
            return False
    leapers = [sq for sq in board.checkers() if board.piece_type_at(sq) in (chess.PAWN, chess.KNIGHT)]
    return len(leapers) < 2


def labelled(name):
    """(label, board) of every valid position of a chasolver test set."""
    out = []
    folder = Path(LICHESS_SET) if name == "lichess.txt" else SETS
    for line in (folder / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, fen = line[:2], line[3:].strip()
        if len(fen.split()) == 4:
            fen += " 0 1"
        try:
            board = chess.Board(fen)
        except ValueError:
            continue
        if board.is_valid() and plausible(board):
            out.append((label, board))
    return out


def over(board):
    """Whether the board ends the game on its own (mate, stalemate, material, clocks)."""
    return (
        board.is_checkmate()
        or board.is_stalemate()
        or board.is_insufficient_material()
        or board.halfmove_clock >= 150
    )


def game(event, board, moves, result, termination, expect, can):
    """One game's PGN text."""
    tags = [
        ("Event", event),
        ("Site", "arbiter held-out rulings"),
        ("Result", result),
        ("SetUp", "1"),
        ("FEN", board.fen()),
    ]
    if termination:
        tags.append(("Termination", termination))
    tags += [("Expect", expect), ("Can", can)]
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags) + "\n"
    b = board.copy()
    parts = []
    for i, mv in enumerate(moves):
        if b.turn == chess.WHITE:
            parts.append(f"{b.fullmove_number}.")
        elif i == 0:
            parts.append(f"{b.fullmove_number}...")
        parts.append(b.san(mv))
        b.push(mv)
    parts.append(result)
    return text + " ".join(parts) + "\n\n"


def can_words(label):
    return f"{'true' if label[0] == 'W' else 'false'} {'true' if label[1] == 'B' else 'false'}"


def chasolver_labels(peer, fens):
    """chasolver's label of each FEN (two characters, `?` where undecided); None when it takes
    more than a few seconds (the playout is then left out)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("".join(fen + "\n" for fen in fens))
        f.flush()
        try:
            run = subprocess.run(
                [peer, f.name], capture_output=True, text=True, check=True, timeout=5
            )
        except subprocess.TimeoutExpired:
            return None
    return [line[:2] for line in run.stdout.splitlines()]


def main():
    peer = sys.argv[1]
    rng = random.Random(40)
    lichess = labelled("lichess.txt")
    hard = labelled("positions.txt")
    games = []

    # Dead final positions: labelled dead, not dead by material or over on the board.
    dead = [(l, b) for l, b in hard if l == "--" and not over(b)]
    for i, (label, board) in enumerate(rng.sample(dead, 60)):
        drawn = i % 2 == 0
        result = "1/2-1/2" if drawn else rng.choice(["1-0", "0-1"])
        expect = f"dead_position draw {'true' if drawn else 'false'} -"
        games.append(game(f"dead final {i + 1}", board, [], result, None, expect, "false false"))

    # Flag falls: the winner on time can mate (the result stands) or cannot (a draw).
    alive = [(l, b) for l, b in lichess + hard if l in ("W-", "-B", "WB") and not over(b)]
    lost, drawn = [], []
    for label, board in rng.sample(alive, len(alive)):
        for winner, index in (("white", 0), ("black", 1)):
            can = label[index] != "-"
            pool = lost if can else drawn
            if len(pool) < 100:
                pool.append((label, board, winner, can))
    for pool, kind in ((lost, "flag fall lost"), (drawn, "flag fall drawn")):
        for i, (label, board, winner, can) in enumerate(pool):
            result = "1-0" if winner == "white" else "0-1"
            expect = f"time_forfeit {winner if can else 'draw'} {'true' if can else 'false'} -"
            games.append(
                game(f"{kind} {i + 1}", board, [], result, "Time forfeit", expect, can_words(label))
            )

    # Dead mid-game: random playouts from positions with a blocked pawn or more, labelled by
    # chasolver move by move; the first dead position ends the game, a few moves follow.
    def blocked(board):
        white = board.pieces(chess.PAWN, chess.WHITE)
        black = board.pieces(chess.PAWN, chess.BLACK)
        return sum(1 for sq in white if sq + 8 < 64 and (sq + 8) in black)

    starts = [(l, b) for l, b in alive if blocked(b) >= 3]
    rng.shuffle(starts)
    made = 0
    for label, board in starts:
        if made >= 80:
            break
        b = board.copy()
        line = []
        for _ in range(30):
            moves = list(b.legal_moves)
            if not moves or over(b):
                break
            mv = rng.choice(moves)
            b.push(mv)
            line.append(mv)
        if len(line) < 2:
            continue
        fens = []
        b = board.copy()
        for mv in line:
            b.push(mv)
            fens.append(b.fen())
        labels = chasolver_labels(peer, fens)
        if labels is None or "?" in "".join(labels):
            continue
        first = next((i for i, l in enumerate(labels) if l == "--"), None)
        if first is None or first + 1 >= len(line):
            continue
        # The first dead ply must not be an end of its own by material or on the board.
        b = board.copy()
        for mv in line[: first + 1]:
            b.push(mv)
        if over(b):
            continue
        end = first + 1
        line = line[: end + rng.randint(1, 3)]
        b = board.copy()
        for mv in line:
            b.push(mv)
        if b.is_checkmate() or b.is_stalemate():
            continue
        result = "1/2-1/2"
        expect = f"dead_position draw true {end}"
        games.append(game(f"dead mid-game {made + 1}", board, line, result, None, expect, "false false"))
        made += 1
        print(f"dead mid-game {made}", file=sys.stderr)

    sys.stdout.write(
        "% Held-out rulings (issue 40): games built by testdata/heldout/make.py from\n"
        "% chasolver's labelled test sets (testdata/chasolver, MIT); the positions a playout\n"
        "% reaches labelled by chasolver 3.0.0 itself. Tags: Expect (outcome winner\n"
        "% result_consistent end_ply), Can (white_can_mate black_can_mate).\n\n"
    )
    sys.stdout.write("".join(games))


if __name__ == "__main__":
    main()
