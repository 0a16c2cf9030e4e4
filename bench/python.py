#!/usr/bin/env python3
"""bench/python.py — the Python package's speed (issue 42): games per second into a pyarrow table
and a polars DataFrame, against python-chess and rust-pgn-reader-python-binding, and its CPU
against the command line's Parquet export of the same file.

Usage:  bench/python.py ARBITER_BINARY SAMPLE.pgn [COPIES] [ROUNDS]

Run it with a Python that has the package installed (`pip install ./python`, a release build),
pyarrow, polars, python-chess and rust-pgn-reader-python-binding 4.1 (`pip install
rust-pgn-reader-python-binding==4.1.0`); ARBITER_BINARY is a release build of the command line.
The input is SAMPLE repeated COPIES times (default 16) in a scratch folder; each figure is the
median of ROUNDS runs (default 5), the tools in a fresh random order each round. Prints one line
per figure.

- arbiter -> pyarrow: `arbiter.read_games(FILE).read_all()`, every core.
- arbiter -> polars: `arbiter.to_polars(FILE)`.
- python-chess: `chess.pgn.read_game` for each game of SAMPLE (once: it is slow), its headers, its
  main line (`game.mainline_moves()` played on a board) and `board.outcome()`.
- rust-pgn-reader-python-binding: `parse_games_from_strings(games, num_threads=2)`, the games
  already split into strings before the clock starts (as that package needs them), then each
  game's `outcome` read; and `parse_games` over a pyarrow array of the same strings.
- CPU: user + system time of `read_games(FILE, jobs=1).read_all()` in this process (the
  pipeline's threads included), against `ARBITER export FILE --format parquet --jobs 1 -o OUT`
  (children's CPU), in the same rounds; and the CPU time of `read_games(FILE, jobs=2)` against the
  binding's on the strings (games per CPU second: a figure the machine's load changes less than
  the wall clock).
"""
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn
import pyarrow

import arbiter


def games_of(text):
    """The games of `text` as strings, cut before each `[Event ` that opens a line."""
    parts = text.split("\n[Event ")
    games = [parts[0]] + ["[Event " + part for part in parts[1:]]
    return [game for game in games if game.strip()]


def python_chess(path):
    """Games read by python-chess: headers, main line played, outcome."""
    games = 0
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return games
            _ = dict(game.headers)
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            _ = board.outcome()
            games += 1


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, sample = sys.argv[1], sys.argv[2]
    copies = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    scratch = tempfile.mkdtemp(prefix="arbiter-bench-")
    big = os.path.join(scratch, "sample.pgn")
    data = open(sample, "rb").read()
    with open(big, "wb") as out:
        for _ in range(copies):
            out.write(data)
    games = arbiter.read_games(big).read_all().num_rows
    sample_games = arbiter.read_games(sample).read_all().num_rows
    text = open(big, encoding="utf-8").read()
    strings = games_of(text)
    print(f"input: {sample} x{copies}: {games} games, {len(data) * copies / 1e6:.1f} MB; "
          f"{len(strings)} game strings for the binding; {os.cpu_count()} cores")

    import polars
    import rust_pgn_reader_python_binding as binding

    array = pyarrow.chunked_array([pyarrow.array(strings)])

    def timed(run):
        started = time.perf_counter()
        count = run()
        return time.perf_counter() - started, count

    def cpu(run):
        """The CPU time (user + system, every thread of this process) of `run()`."""
        before = resource.getrusage(resource.RUSAGE_SELF)
        run()
        after = resource.getrusage(resource.RUSAGE_SELF)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def cpu_arbiter():
        return cpu(lambda: arbiter.read_games(big, jobs=1).read_all())

    def cpu_cli():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([binary, "export", big, "--format", "parquet", "--jobs", "1", "-q",
                        "-o", os.path.join(scratch, "out.parquet")], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def binding_strings():
        parsed = binding.parse_games_from_strings(strings, num_threads=2)
        return len([game.outcome for game in parsed])

    tools = {
        "arbiter -> pyarrow table": lambda: timed(lambda: arbiter.read_games(big).read_all().num_rows),
        "arbiter -> polars DataFrame": lambda: timed(lambda: arbiter.to_polars(big).height),
        "rust-pgn-reader-python-binding 4.1 (strings, 2 threads)": lambda: timed(binding_strings),
        "rust-pgn-reader-python-binding 4.1 (arrow array, 2 threads)": lambda: timed(
            lambda: len(binding.parse_games(array, num_threads=2))),
        "cpu: arbiter read_games jobs=1": lambda: (cpu_arbiter(), games),
        "cpu: arbiter read_games jobs=2": lambda: (
            cpu(lambda: arbiter.read_games(big, jobs=2).read_all()), games),
        "cpu: rust-pgn-reader-python-binding 4.1 (strings, 2 threads)": lambda: (
            cpu(binding_strings), games),
        "cpu: arbiter export --format parquet --jobs 1": lambda: (cpu_cli(), games),
    }
    times = {name: [] for name in tools}
    counts = {}
    for _ in range(rounds):
        order = list(tools)
        random.shuffle(order)
        for name in order:
            seconds, count = tools[name]()
            times[name].append(seconds)
            counts[name] = count
    seconds, counted = timed(lambda: python_chess(sample))
    rates = {}
    for name, values in times.items():
        median = statistics.median(values)
        rates[name] = counts[name] / median
        print(f"{name}: {counts[name]} games, median {median * 1000:.1f} ms, "
              f"{rates[name]:,.0f} games/s")
    rates["python-chess"] = counted / seconds
    print(f"python-chess 1.11 (headers, main line, outcome; {sample} once): {counted} games, "
          f"{seconds:.2f} s, {rates['python-chess']:,.0f} games/s")
    table = rates["arbiter -> pyarrow table"]
    print(f"arbiter -> pyarrow / python-chess: {table / rates['python-chess']:.0f}x")
    print(f"arbiter -> polars / python-chess: "
          f"{rates['arbiter -> polars DataFrame'] / rates['python-chess']:.0f}x")
    strings_rate = rates["rust-pgn-reader-python-binding 4.1 (strings, 2 threads)"]
    print(f"arbiter -> pyarrow / binding (strings): {table / strings_rate:.2f}x")
    ours = statistics.median(times["cpu: arbiter read_games jobs=1"])
    cli = statistics.median(times["cpu: arbiter export --format parquet --jobs 1"])
    print(f"CPU, read_games / export --format parquet: {ours / cli:.3f} "
          f"({(ours / cli - 1) * 100:+.1f} %)")
    both = statistics.median(times["cpu: arbiter read_games jobs=2"])
    theirs = statistics.median(times["cpu: rust-pgn-reader-python-binding 4.1 (strings, 2 threads)"])
    print(f"games per CPU second, read_games jobs=2 / binding (strings): {theirs / both:.2f}x")
    assert sample_games * copies == games


if __name__ == "__main__":
    main()
