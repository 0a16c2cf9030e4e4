#!/usr/bin/env python3
"""bench/select-pychess.py — python-chess reads every game `arbiter select` writes.

Usage:  bench/select-pychess.py ARBITER DIR_OR_FILE...

For each PGN file under the given paths (*.pgn, *.pgn.zst; a file arbiter cannot read as PGN is
skipped and counted), it runs `ARBITER select FILE --where valid -o OUT.pgn -q` into a scratch
folder (an invalid game is written unchanged, its original text, so python-chess may well
disagree with it: those are left out and counted), then reads OUT.pgn three ways:

  - `ARBITER export OUT.pgn --format jsonl`: each game's `valid` flag;
  - `ARBITER export OUT.pgn --plies --format jsonl`: each game's main line in SAN;
  - python-chess (`chess.pgn.read_game`, 1.11): each game, its errors and its main line.

Every game must read in python-chess with no error (and no exception) and the same main line,
move for move. Prints the counts and lists every disagreement; exits 1 if a game disagrees.
"""
import json
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn


def pgn_files(paths: list[str]) -> list[str]:
    """The PGN files under `paths`, sorted."""
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
            continue
        for root, _, names in os.walk(path):
            found.extend(
                os.path.join(root, n) for n in names if n.endswith((".pgn", ".pgn.zst"))
            )
    return sorted(found)


def jsonl(command: list[str]) -> list[dict]:
    """The JSON Lines `command` writes on stdout."""
    out = subprocess.run(command, capture_output=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    arbiter, paths = sys.argv[1], sys.argv[2:]
    totals = dict(files=0, skipped=0, valid=0, invalid=0, same=0)
    bad = []
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.pgn")
        for path in pgn_files(paths):
            run = subprocess.run(
                [arbiter, "select", path, "--where", "valid", "-o", out, "-q"],
                capture_output=True,
                check=False,
            )
            if run.returncode == 2:
                totals["skipped"] += 1
                continue
            totals["files"] += 1
            totals["invalid"] += len(
                jsonl([arbiter, "export", path, "--where", "not valid", "--format", "jsonl", "-q"])
            )
            records = jsonl([arbiter, "export", out, "--format", "jsonl", "-q", "--jobs", "1"])
            moves: dict[int, list[str]] = {}
            for row in jsonl(
                [arbiter, "export", out, "--plies", "--format", "jsonl", "-q", "--jobs", "1"]
            ):
                moves.setdefault(row["index"], []).append(row["san"])
            with open(out, encoding="utf-8", errors="replace") as text:
                games = []
                while True:
                    try:
                        game = chess.pgn.read_game(text)
                    except Exception as err:  # python-chess failing is what is looked for
                        bad.append(f"{path}: python-chess fails after {len(games)} games: {err!r}")
                        break
                    if game is None:
                        break
                    games.append(game)
            if len(games) != len(records):
                bad.append(f"{path}: arbiter reads {len(records)} games, python-chess {len(games)}")
            for record, game in zip(records, games):
                totals["valid"] += 1
                board = game.board()
                line = []
                for move in game.mainline_moves():
                    line.append(board.san(move))
                    board.push(move)
                theirs = moves.get(record["index"], [])
                if game.errors or line != theirs:
                    where = next(
                        (i for i, (a, b) in enumerate(zip(line, theirs)) if a != b),
                        min(len(line), len(theirs)),
                    )
                    bad.append(
                        f"{path}: game {record['index']}: python-chess errors {game.errors[:1]}, "
                        f"main lines part at ply {where + 1} ({len(line)} against {len(theirs)} "
                        "plies)"
                    )
                else:
                    totals["same"] += 1
    print(
        f"{totals['files']} files ({totals['skipped']} not PGN, skipped): {totals['valid']} valid "
        f"games written, {totals['same']} of them read by python-chess {chess.__version__} with "
        f"no error and the same main line; {totals['invalid']} invalid games left out"
    )
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
