#!/usr/bin/env python3
"""bench/differential.py — arbiter against python-chess and the standard, on generated games.

Usage:  python3 bench/differential.py [--cases N] [--seed S] [--binary PATH] [--report FILE] [-v] [--keep DIR]

Generates N cases (default 2000) in the families of issue 30, points 1-9, each one game in one PGN
file with a `Case` tag, and reads that file with arbiter (`export`, `export --plies --fen`,
`validate`, all `--format jsonl`) and each case's text with python-chess (`chess.pgn`):

  multiline_tags     a tag pair over lines, `[Site` newline `"Here"]` and the other forms (PGN
                     8.1); a string over lines, `[Site "He` newline `re"]`, which is no string
                     (PGN 7); values with `\\"` and `\\\\` escapes (PGN 7)
  quoting_comments   a `{ }` comment that quotes whole games (tag sections, results, blank lines)
  broken_commands    `[%clk 0:00:05 [%emt 0:00:12] [%eval 0.17]}`: a command without its `]`
  big_evals          `[%eval -21474836.48]`, `[%eval #-2147483648]` and the other 32-bit extremes
  blocked_pawn       a pawn push written for a blocked pawn where a capture to that square is legal,
                     for every file and both sides (an illegal move, not the capture)
  null_moves         `--` after every automatic end, and a `--` that leaves the mover in check
  termination_names  Termination sentences whose players' names hold keywords (`Anna Flagg`)
  law_6_9            a flag fall where the winner's material alone cannot mate (K+N v K+Q...)
  escapes            tag values with `\\"` and `\\\\` on one line (PGN 7)

Each case carries what the standard says (the PGN standard, the FIDE Laws): tags, moves (SAN and
UCI), final FEN, outcome, winner and result consistency, clocks and evaluations per ply, the
warnings and errors that must or must not come. arbiter is compared with that; so is python-chess,
where it has a say (it judges outcomes only from the final position, and has no Termination
reading). Where python-chess differs from the standard the report says so per case, with the rule
that decides (two examples of each kind on standard output, all with -v or in --report FILE);
where arbiter differs, that is a failure (exit status 1), each case printed.

The binary defaults to target/release/arbiter of this checkout (build it first). Needs
python-chess (`pip install chess`); it is not needed by the test suite.
"""

import argparse
import collections
import io
import json
import logging
import os
import random
import subprocess
import sys
import tempfile

try:
    import chess
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.exit("differential.py needs python-chess: pip install chess")

# python-chess logs each illegal move it meets; the report says what matters.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- Generating games ----------------------------------------------------------------------------


def random_moves(rng, board, plies, avoid_end=True):
    """Up to `plies` random legal moves from `board` (changed in place), never ending the game."""
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        rng.shuffle(legal)
        for move in legal:
            board.push(move)
            over = board.is_game_over(claim_draw=False) or board.can_claim_draw()
            if avoid_end and over:
                board.pop()
                continue
            moves.append(move)
            break
        else:
            break
    return moves


def movetext(start, moves, comments=None, null_at=()):
    """Movetext of `moves` from `start` in SAN with move numbers; `comments[i]` after ply i (from
    1); a `--` before ply i for i in `null_at` (pushed on a copy of the board)."""
    comments = comments or {}
    board = start.copy()
    out = []
    first = True
    for i, move in enumerate(moves, 1):
        if board.turn == chess.WHITE:
            out.append(f"{board.fullmove_number}.")
        elif first:
            out.append(f"{board.fullmove_number}...")
        first = False
        out.append("--" if move == chess.Move.null() else board.san(move))
        board.push(move)
        if i in comments:
            out.append(comments[i])
    return " ".join(out)


def tags_text(tags):
    return "".join(f'[{name} "{value}"]\n' for name, value in tags)


WORDS = ["Hoogeveen", "Wijk", "Linares", "Tal", "Petrosian", "Open", "Blitz", "Memorial", "Cup", "Rapid"]


def words(rng, n=2):
    return " ".join(rng.choice(WORDS) for _ in range(n))


class Case:
    """One generated game and what the standard says of it."""

    def __init__(self, category, text, **truth):
        self.category = category
        self.text = text
        # tags: {name: value}; sans, ucis: lists; fen; outcome, winner, consistent; valid;
        # clocks: [(clock, emt, cp, mate)] per ply; must / must_not: sets of codes; error_ply.
        self.truth = truth
        # Where python-chess is known to stand against the standard: {kind: rule}.
        self.note = {}


def roster(rng, case_id, **over):
    tags = [
        ("Event", words(rng)),
        ("Site", words(rng, 1)),
        ("Date", "2026.12.01"),
        ("Round", str(rng.randint(1, 9))),
        ("White", words(rng, 1) + ", A"),
        ("Black", words(rng, 1) + ", B"),
        ("Result", "*"),
        ("Case", str(case_id)),
    ]
    return [(n, over.get(n, v)) for n, v in tags]


def game_truth(start, moves):
    board = start.copy()
    sans, ucis = [], []
    for move in moves:
        sans.append(board.san(move))
        ucis.append(move.uci())
        board.push(move)
    return dict(sans=sans, ucis=ucis, fen=board.fen())


def case_multiline_tags(rng, cid):
    tags = roster(rng, cid)
    start = chess.Board()
    moves = random_moves(rng, start.copy(), rng.randint(2, 40))
    i = rng.randrange(0, 6)
    name, value = tags[i]
    escaped = rng.random() < 0.3
    if escaped:
        value = f'{value} \\"the {rng.choice(WORDS)}\\" \\\\ x'
        plain = value.replace('\\"', '"').replace("\\\\", "\\")
    else:
        plain = value
    form = rng.randrange(5)
    nl = rng.choice(["\n", "\r\n"])
    pair = [
        f'[{name}{nl}"{value}"]',
        f'[{name} "{value}"{nl}]',
        f'[{nl}{name}{nl}{nl}"{value}"{nl}]',
        f'[ {name}\t{nl} "{value}" {nl} ]',
        None,
    ][form]
    truth = game_truth(start, moves)
    expected = {n: v for n, v in tags}
    note = {}
    if pair is None:
        # A string holds no line end (PGN 7): no tag; the broken tag ends the tag section, so
        # the pair is put last.
        cut = rng.randrange(1, len(value)) if len(value) > 1 else 1
        pair = f'[{name} "{value[:cut]}{nl}{value[cut:]}"]'
        others = [t for t in tags if t[0] != name]
        text = tags_text(others) + pair + "\n\n" + movetext(start, moves) + " *\n"
        del expected[name]
        # The main line is replayed up to the game's first error, here before its first move.
        truth.update(sans=None, fen=chess.STARTING_FEN)
        case = Case("multiline_tags", text, tags=expected, valid=False, must={"broken_tag"}, **truth)
        case.note["split"] = "a string never holds a line end (PGN 7): the tag pair is broken, the game one"
        return case
    lines = tags_text(tags).splitlines(keepends=True)
    lines[i] = pair + "\n"
    text = "".join(lines) + "\n" + movetext(start, moves) + " *\n"
    expected[name] = plain
    case = Case("multiline_tags", text, tags=expected, valid=True, must_not={"broken_tag"}, **truth)
    case.note["split"] = "white space, line ends included, may separate a tag pair's tokens (PGN 8.1)"
    if escaped:
        case.note["escape"] = '`\\"` and `\\\\` in a string stand for `"` and `\\` (PGN 7)'
    return case


def case_escapes(rng, cid):
    """Tag values with `\\"` and `\\\\` escapes, on one line."""
    white = f'{rng.choice(WORDS)} \\"{rng.choice(WORDS)}\\" {rng.choice(WORDS)}'
    site = f'C:\\\\{rng.choice(WORDS)}'
    tags = roster(rng, cid, White=white, Site=site)
    start = chess.Board()
    moves = random_moves(rng, start.copy(), rng.randint(2, 30))
    text = tags_text(tags) + "\n" + movetext(start, moves) + " *\n"
    expected = {n: v.replace('\\"', '"').replace("\\\\", "\\") for n, v in tags}
    case = Case("escapes", text, tags=expected, valid=True, **game_truth(start, moves))
    case.note["escape"] = '`\\"` and `\\\\` in a string stand for `"` and `\\` (PGN 7)'
    return case


def quoted_game(rng, number):
    board = chess.Board()
    moves = random_moves(rng, board, rng.randint(1, 12))
    result = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    tags = [("Event", f"Game {chr(64 + number)}"), ("White", words(rng, 1)), ("Result", result)]
    return tags_text(tags[: rng.randint(1, 3)]) + "\n" + movetext(chess.Board(), moves) + f" {result}\n"


def case_quoting_comments(rng, cid):
    tags = roster(rng, cid)
    start = chess.Board()
    moves = random_moves(rng, start.copy(), rng.randint(2, 40))
    quotes = "\n".join(quoted_game(rng, n) for n in range(1, rng.randint(2, 4)))
    at = rng.randint(1, len(moves) - 1) if len(moves) > 1 else 1
    closing = rng.choice(["}", "\n}", "\n\n}"])
    comment = "{Compare the classics:\n" + quotes + closing + rng.choice([" ", "\n"])
    text = tags_text(tags) + "\n" + movetext(start, moves, {at: comment}) + " *\n"
    return Case(
        "quoting_comments",
        text,
        tags=dict(tags),
        valid=True,
        must_not={"unterminated_comment", "unexpected_text"},
        **game_truth(start, moves),
    )


def clock(seconds):
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def case_broken_commands(rng, cid):
    tags = roster(rng, cid)
    start = chess.Board()
    moves = random_moves(rng, start.copy(), rng.randint(4, 40))
    comments, clocks = {}, []
    malformed = 0
    for ply in range(1, len(moves) + 1):
        clk, emt = rng.randint(0, 7200), rng.randint(0, 600)
        cp = rng.randint(-2000, 2000)
        eval_text = f"{cp / 100:.2f}"
        kind = rng.randrange(4)
        if kind == 0:
            body = f"[%clk {clock(clk)}] [%emt {clock(emt)}] [%eval {eval_text}]"
            clocks.append((clk, emt, cp, None))
        elif kind == 1:
            body = f"[%clk {clock(clk)} [%emt {clock(emt)}] [%eval {eval_text}]"
            clocks.append((None, emt, cp, None))
            malformed += 1
        elif kind == 2:
            body = f"[%clk {clock(clk)}] [%emt {clock(emt)} [%eval {eval_text}]"
            clocks.append((clk, None, cp, None))
            malformed += 1
        else:
            body = f"[%clk {clock(clk)}] [%eval {eval_text}"
            clocks.append((clk, None, None, None))
            malformed += 1
        comments[ply] = "{" + body + "}"
    text = tags_text(tags) + "\n" + movetext(start, moves, comments) + " *\n"
    case = Case(
        "broken_commands",
        text,
        tags=dict(tags),
        valid=True,
        clocks=clocks,
        must={"malformed_command"} if malformed else set(),
        **game_truth(start, moves),
    )
    return case


EXTREMES = [
    ("-21474836.48", -2147483648, None),
    ("21474836.47", 2147483647, None),
    ("#-2147483648", None, -2147483648),
    ("#2147483647", None, 2147483647),
    ("-0.00", 0, None),
    ("#-1", None, -1),
]


def case_big_evals(rng, cid):
    tags = roster(rng, cid)
    start = chess.Board()
    moves = random_moves(rng, start.copy(), rng.randint(2, 30))
    comments, clocks = {}, []
    for ply in range(1, len(moves) + 1):
        if rng.random() < 0.5:
            text, cp, mate = rng.choice(EXTREMES)
        else:
            cp = rng.randint(-2147483648, 2147483647)
            sign = "-" if cp < 0 else ""
            text, mate = f"{sign}{abs(cp) // 100}.{abs(cp) % 100:02}", None
        comments[ply] = "{ [%eval " + text + "] }"
        clocks.append((None, None, cp, mate))
    text = tags_text(tags) + "\n" + movetext(start, moves, comments) + " *\n"
    return Case(
        "big_evals",
        text,
        tags=dict(tags),
        valid=True,
        clocks=clocks,
        must_not={"malformed_command"},
        **game_truth(start, moves),
    )


def case_blocked_pawn(rng, cid, file, white, side):
    """The pawn on `file` blocked by an enemy piece on its push square, which a pawn of the
    neighbouring file (`side`: -1 or +1) may capture: the push, written, is illegal."""
    board = chess.Board(None)
    board.set_piece_at(chess.E1 if file != 4 else chess.D1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.E8 if file != 4 else chess.D8, chess.Piece(chess.KING, chess.BLACK))
    us, them = (chess.WHITE, chess.BLACK) if white else (chess.BLACK, chess.WHITE)
    rank, push = (1, 2) if white else (6, 5)
    board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, us))
    board.set_piece_at(chess.square(file + side, rank), chess.Piece(chess.PAWN, us))
    blocker = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK])
    board.set_piece_at(chess.square(file, push), chess.Piece(blocker, them))
    board.turn = us
    if not board.is_valid():
        return None
    fen = board.fen()
    san = chess.square_name(chess.square(file, push))
    capture = chess.Move(chess.square(file + side, rank), chess.square(file, push))
    assert capture in board.legal_moves
    number = "1." if white else "1..."
    tags = roster(rng, cid) + [("SetUp", "1"), ("FEN", fen)]
    text = tags_text(tags) + f"\n{number} {san} *\n"
    expected = {n: v for n, v in tags}
    return Case(
        "blocked_pawn", text, tags=expected, valid=False, must={"illegal_move"}, error_ply=1,
        sans=[], ucis=[], fen=fen,
    )


def null_case(rng, cid, fen, moves_text, outcome, winner, consistent, end_ply, final_fen, result, valid=True,
              must=(), why=""):
    tags = roster(rng, cid, Result=result)
    if fen:
        tags += [("SetUp", "1"), ("FEN", fen)]
    text = tags_text(tags) + "\n" + moves_text + f" {result}\n"
    case = Case(
        "null_moves", text, tags=dict(tags), valid=valid, outcome=outcome, winner=winner,
        consistent=consistent, end_ply=end_ply, fen=final_fen, must=set(must),
    )
    if why:
        case.note["outcome"] = why
    return case


def null_cases(rng, first_id):
    """A `--` after every kind of automatic end, and in check."""
    after_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    out = []
    cid = first_id
    law = "the first automatic end decides (Laws 5.1.1, 5.2.1, 5.2.2, 9.6); python-chess judges the final position"
    out.append(null_case(rng, cid, None, "1. f3 e5 2. g4 Qh4# 3. --", "checkmate", "black", True, 4, after_mate,
                         "0-1", must={"move_after_end"}, why=law))
    cid += 1
    out.append(null_case(rng, cid, stalemate, "1... -- 2. Qf8#", "stalemate", "draw", False, 0, stalemate, "1-0",
                         must={"move_after_end"}, why=law))
    cid += 1
    # Insufficient material at the start, then a null move and a move.
    fen = "8/8/4k3/8/8/3NK3/8/8 w - - 0 1"
    board = chess.Board(fen)
    board.push(chess.Move.null())
    board.push_san("Kd5")
    out.append(null_case(rng, cid, fen, "1. -- Kd5", "insufficient_material", "draw", True, 0, board.fen(),
                         "1/2-1/2", must={"move_after_end"}, why=law))
    cid += 1
    # The 75-move rule reached at ply 1, then a null move.
    fen = "8/8/4k3/8/8/3NK3/1R6/8 w - - 149 120"
    board = chess.Board(fen)
    board.push_san("Rb3")
    board.push(chess.Move.null())
    out.append(null_case(rng, cid, fen, "120. Rb3 --", "seventyfive_moves", "draw", True, 1, board.fen(),
                         "1/2-1/2", must={"move_after_end"}, why=law))
    cid += 1
    # Fivefold repetition, then null moves.
    shuffle = "Nf3 Nf6 Ng1 Ng8 " * 4
    board = chess.Board()
    for san in shuffle.split():
        board.push_san(san)
    board.push(chess.Move.null())
    board.push(chess.Move.null())
    text = movetext(chess.Board(), list(board.move_stack))
    out.append(null_case(rng, cid, None, text, "fivefold_repetition", "draw", True, 16, board.fen(), "1/2-1/2",
                         must={"move_after_end"}, why=law))
    cid += 1
    # A null move that leaves the mover in check: an illegal move (Laws 1.2, 3.9).
    board = chess.Board()
    moves = random_moves(rng, board, rng.randint(2, 20))
    checks = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_check() and not board.is_game_over(claim_draw=False):
            checks.append(move)
        board.pop()
    if checks:
        moves.append(rng.choice(checks))
        text = movetext(chess.Board(), moves + [chess.Move.null()])
        case = null_case(rng, cid, None, text, "invalid", "", True, None, None, "*", valid=False,
                         must={"illegal_move"})
        case.truth["error_ply"] = len(moves) + 1
        case.note["valid"] = "a null move may not leave the mover in check (Laws 1.2, 3.9): python-chess plays it"
        out.append(case)
    return out


NAMES = ["Anna Flagg", "Jon Timerman", "Drawnik", "Abandon Pasha", "Adjudicata Olsen", "Tim Timeout",
         "Flaggy Drawson", "Lost Horizon", "Wins Worth"]


def case_termination_names(rng, cid):
    white, black = rng.sample(NAMES, 2)
    board = chess.Board()
    moves = random_moves(rng, board, rng.randint(10, 40))
    winner_white = rng.random() < 0.5
    subject = white if winner_white else black
    phrase, outcome = rng.choice([
        ("won by resignation", "resignation"),
        ("won on time", "time_forfeit"),
        ("won by adjudication", "adjudication"),
        ("won - game abandoned", "abandoned"),
        ("wins by resignation", "resignation"),
    ])
    result = "1-0" if winner_white else "0-1"
    loser = chess.BLACK if winner_white else chess.WHITE
    winner = "white" if winner_white else "black"
    consistent = True
    if outcome == "time_forfeit" and board.has_insufficient_material(not loser):
        consistent = False
    tags = roster(rng, cid, White=white, Black=black, Result=result) + [("Termination", f"{subject} {phrase}")]
    text = tags_text(tags) + "\n" + movetext(chess.Board(), moves) + f" {result}\n"
    case = Case(
        "termination_names", text, tags=dict(tags), valid=True, outcome=outcome, winner=winner,
        consistent=consistent, must_not={"termination_contradicts_result"}, **game_truth(chess.Board(), moves),
    )
    return case


MATERIAL = {
    "K": [],
    "K+N": [chess.KNIGHT],
    "K+B": [chess.BISHOP],
    "K+N+N": [chess.KNIGHT, chess.KNIGHT],
    "K+R": [chess.ROOK],
    "K+Q": [chess.QUEEN],
    "K+Q+Q": [chess.QUEEN, chess.QUEEN],
    "K+P": [chess.PAWN],
    "K+B+B": [chess.BISHOP, chess.BISHOP],
}


def case_law_6_9(rng, cid):
    for _ in range(100):
        ours, theirs = rng.choice(list(MATERIAL)), rng.choice(list(MATERIAL))
        winner = rng.choice([chess.WHITE, chess.BLACK])
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, winner))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, not winner))
        for color, pieces in ((winner, MATERIAL[ours]), (not winner, MATERIAL[theirs])):
            for piece in pieces:
                square = squares.pop()
                if piece == chess.PAWN and chess.square_rank(square) in (0, 7):
                    square = chess.square(chess.square_file(square), 3)
                    if board.piece_at(square):
                        break
                board.set_piece_at(square, chess.Piece(piece, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        # No check at the start: python-chess takes a FEN in check by two knights, which no move
        # can give (arbiter refuses it); that is not what this family is about.
        if not board.is_valid() or board.is_check() or board.is_game_over(claim_draw=False):
            continue
        start = board.copy()
        moves = random_moves(rng, board, rng.randint(1, 6))
        if not moves or board.is_game_over(claim_draw=False):
            continue
        result = "1-0" if winner == chess.WHITE else "0-1"
        if board.is_insufficient_material():
            outcome, win, consistent = "insufficient_material", "draw", False
        else:
            outcome = "time_forfeit"
            win = "white" if winner == chess.WHITE else "black"
            consistent = not board.has_insufficient_material(winner)
        tags = roster(rng, cid, Result=result) + [
            ("Termination", "time forfeit"), ("SetUp", "1"), ("FEN", start.fen())]
        text = tags_text(tags) + "\n" + movetext(start, moves) + f" {result}\n"
        case = Case(
            "law_6_9", text, tags=dict(tags), valid=True, outcome=outcome, winner=win, consistent=consistent,
            flag_fall=winner, **game_truth(start, moves),
        )
        case.truth["material"] = f"{ours} v {theirs}"
        return case
    return None


def generate(count, seed):
    rng = random.Random(seed)
    cases = []
    cid = 1
    # The fixed families first: every file, both sides, both neighbours; null moves after every end.
    for white in (True, False):
        for file in range(8):
            for side in (-1, 1):
                if 0 <= file + side < 8:
                    case = case_blocked_pawn(rng, cid, file, white, side)
                    if case:
                        cases.append(case)
                        cid += 1
    while len(cases) < count:
        kind = rng.randrange(8)
        if kind == 0:
            new = [case_multiline_tags(rng, cid)]
        elif kind == 1:
            new = [case_quoting_comments(rng, cid)]
        elif kind == 2:
            new = [case_broken_commands(rng, cid)]
        elif kind == 3:
            new = [case_big_evals(rng, cid)]
        elif kind == 4 and rng.random() < 0.25:
            new = null_cases(rng, cid)
        elif kind == 4:
            new = [case_multiline_tags(rng, cid)]
        elif kind == 5:
            new = [case_termination_names(rng, cid)]
        elif kind == 6:
            new = [case_law_6_9(rng, cid)]
        else:
            new = [case_escapes(rng, cid)]
        for case in new:
            if case is not None:
                cases.append(case)
                cid += 1
    return cases


# ---- Reading -------------------------------------------------------------------------------------


def run_arbiter(binary, path, *args):
    out = subprocess.run([binary, *args, "--format", "jsonl", "--jobs", "1", "-q", path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"arbiter failed ({out.returncode}): {out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def read_python_chess(text):
    stream = io.StringIO(text)
    games = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return games
        games.append(game)


FIELDS = {"Event": "event", "Site": "site", "Date": "date", "Round": "round", "White": "white",
          "Black": "black", "Result": "result"}


def python_chess_outcome(board):
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return None
    names = {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
        chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
        chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
    }
    return names.get(outcome.termination, str(outcome.termination))


def compare(case, record, plies, codes):
    """What arbiter gets wrong against the standard: a list of words (empty when it agrees)."""
    t = case.truth
    wrong = []
    if record is None:
        return ["no record"]
    for name, value in t["tags"].items():
        if name in FIELDS and record[FIELDS[name]] != value:
            wrong.append(f"tag {name}: {record[FIELDS[name]]!r}, standard {value!r}")
        if name == "Case" and record.get("Case") != value:
            wrong.append("Case tag")
    if record["valid"] != t["valid"]:
        wrong.append(f"valid {record['valid']}, standard {t['valid']} ({record['error']})")
    if "error_ply" in t and f"ply {t['error_ply']} " not in record["error"]:
        wrong.append(f"error not at ply {t['error_ply']}: {record['error']}")
    if t.get("sans") is not None and t["valid"]:
        got = [(p["san"], p["uci"]) for p in plies]
        want = list(zip(t["sans"], t["ucis"]))
        if got != want:
            wrong.append(f"moves {got[:3]}..., standard {want[:3]}...")
    if t.get("fen") and record["final_fen"] != t["fen"]:
        wrong.append(f"final FEN {record['final_fen']}, standard {t['fen']}")
    for key, field in (("outcome", "outcome"), ("winner", "winner"), ("consistent", "result_consistent")):
        if key in t and record[field] != t[key]:
            wrong.append(f"{field} {record[field]!r}, standard {t[key]!r}")
    if "end_ply" in t and t["end_ply"] is not None and record["end_ply"] != t["end_ply"]:
        wrong.append(f"end_ply {record['end_ply']}, standard {t['end_ply']}")
    if "clocks" in t:
        got = [(p["clock"], p["emt"], p["eval_cp"], p["eval_mate"]) for p in plies]
        if got != t["clocks"]:
            wrong.append(f"clocks/evals {got}, standard {t['clocks']}")
    for code in t.get("must", ()):
        if code not in codes:
            wrong.append(f"no {code}")
    for code in t.get("must_not", ()):
        if code in codes:
            wrong.append(f"{code} given")
    return wrong


def python_chess_view(case):
    """Where python-chess stands against the standard: a list of (kind, words)."""
    t = case.truth
    games = read_python_chess(case.text)
    if len(games) != 1:
        return [("split", f"python-chess reads {len(games)} games")]
    game = games[0]
    differ = []
    for name, value in t["tags"].items():
        got = game.headers.get(name)
        if got != value:
            kind = "escape" if got is not None and "\\" in got else "tags"
            differ.append((kind, f"tag {name}: {got!r}, standard {value!r}"))
    board = game.board()
    nodes = list(game.mainline())
    valid = not game.errors
    for node in nodes:
        board.push(node.move)
    if valid != t["valid"]:
        differ.append(("valid", f"python-chess valid {valid}, standard {t['valid']}"))
    if t["valid"] and t.get("sans") is not None:
        replay = game.board()
        got = []
        for node in nodes:
            got.append((replay.san(node.move), node.move.uci()))
            replay.push(node.move)
        if got != list(zip(t["sans"], t["ucis"])):
            differ.append(("moves", "python-chess moves differ"))
        if t.get("fen") and board.fen() != t["fen"]:
            differ.append(("fen", f"python-chess final FEN {board.fen()}"))
    if "clocks" in t:
        got = []
        for node in nodes:
            score = node.eval()
            cp = mate = None
            if score is not None:
                white = score.white()
                cp, mate = white.score(), white.mate()
            clk, emt = node.clock(), node.emt()
            got.append((None if clk is None else int(clk), None if emt is None else int(emt), cp, mate))
        if got != t["clocks"]:
            differ.append(("clocks", "python-chess clocks/evals differ"))
    # Outcomes python-chess decides: automatic ends of the final position, and Law 6.9 by material.
    if t.get("outcome") in ("checkmate", "stalemate", "insufficient_material", "seventyfive_moves",
                            "fivefold_repetition") and t["valid"]:
        if python_chess_outcome(board) != t["outcome"]:
            differ.append(("outcome", f"python-chess outcome {python_chess_outcome(board)}, standard {t['outcome']}"))
    if "flag_fall" in t and t["outcome"] == "time_forfeit":
        if (not board.has_insufficient_material(t["flag_fall"])) != t["consistent"]:
            differ.append(("law_6_9", "python-chess material verdict differs"))
    return differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "arbiter"))
    parser.add_argument("--report", help="write one line per case where python-chess or arbiter differs")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every such line")
    parser.add_argument("--keep", help="keep the generated PGN in this directory")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no arbiter binary at {args.binary}: cargo build --release, or --binary PATH")

    cases = generate(args.cases, args.seed)
    workdir = args.keep or tempfile.mkdtemp(prefix="arbiter-differential-")
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "differential.pgn")
    with open(path, "w", newline="") as out:
        for case in cases:
            out.write(case.text + "\n")

    records = run_arbiter(args.binary, path, "export", "--tags", "Case")
    plies = collections.defaultdict(list)
    for row in run_arbiter(args.binary, path, "export", "--plies", "--fen", "--tags", "Case"):
        plies[row["index"]].append(row)
    codes = collections.defaultdict(set)
    for row in run_arbiter(args.binary, path, "validate"):
        if row.get("type") == "diagnostic":
            codes[row["game"]].add(row["code"])
    by_case, extra = {}, 0
    for record in records:
        if record.get("Case"):
            by_case.setdefault(record["Case"], []).append(record)
        else:
            extra += 1

    stats = collections.defaultdict(collections.Counter)
    lines = []
    arbiter_wrong = 0
    for number, case in enumerate(cases, 1):
        cid = str(number)
        found = by_case.get(cid, [])
        record = found[0] if len(found) == 1 else None
        wrong = compare(case, record, plies[record["index"]] if record else [],
                        codes[record["index"]] if record else set())
        s = stats[case.category]
        s["cases"] += 1
        if wrong:
            arbiter_wrong += 1
            s["arbiter differs"] += 1
            lines.append(f"case {cid} ({case.category}): ARBITER DIFFERS from the standard: {'; '.join(wrong)}")
        else:
            s["arbiter agrees"] += 1
        differ = python_chess_view(case)
        if not differ:
            s["python-chess agrees"] += 1
        for kind, words in differ:
            rule = case.note.get(kind) or case.note.get("outcome") or case.note.get("split")
            if rule is None:
                rule = "no rule noted: look at this case"
                s["python-chess differs, unexplained"] += 1
            s[f"python-chess differs: {kind}"] += 1
            lines.append(f"case {cid} ({case.category}): {words}; the standard decides: {rule}")
        if s["cases"] and differ:
            s["python-chess differs"] += 1

    total = len(cases)
    plies_total = sum(len(v) for v in plies.values())
    print(f"{total} cases, {len(records)} arbiter records ({extra} without a Case tag), {plies_total} ply rows")
    for category in sorted(stats):
        s = stats[category]
        print(f"  {category:18} {s['cases']:5} cases: arbiter agrees with the standard in {s['arbiter agrees']}, "
              f"python-chess (where it has a say) in {s['python-chess agrees']}")
        for key in sorted(k for k in s if k.startswith("python-chess differs:") or "unexplained" in k):
            print(f"      {key}: {s[key]}")
    shown = collections.Counter()
    hidden = 0
    for line in lines:
        kind = line.split(": ")[0].split("(")[-1]
        if not args.verbose and "ARBITER" not in line and shown[kind] >= 2:
            hidden += 1
            continue
        shown[kind] += 1
        print("  " + line)
    if hidden:
        print(f"  ... and {hidden} more lines like these (-v prints them all, --report FILE writes them)")
    if args.report:
        with open(args.report, "w") as out:
            out.write("\n".join(lines) + "\n")
        print(f"one line per differing case in {args.report}")
    if not args.keep:
        os.remove(path)
        os.rmdir(workdir)
    unexplained = sum(s["python-chess differs, unexplained"] for s in stats.values())
    if arbiter_wrong or extra or unexplained:
        print(f"FAIL: arbiter differs from the standard in {arbiter_wrong} cases; {extra} records without a "
              f"case; {unexplained} python-chess differences without a rule")
        return 1
    print("arbiter agrees with the standard in every case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
