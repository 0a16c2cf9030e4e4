#!/usr/bin/env python3
"""bench/select-speed.py — `arbiter select` against `arbiter export` and pgn-extract, in paired runs.

Usage:  bench/select-speed.py ROUNDS FILE ARBITER [PGN_EXTRACT]

Each round runs every command below once on FILE, in a fresh random order, and measures it:

  export        ARBITER export --format jsonl --jobs 1 -q -o /dev/null FILE   (the reference)
  where         ARBITER select --where 'white_elo >= 2000' --jobs 1 -q -o /dev/null FILE
  dedup-eco     ARBITER select --dedup game --eco --jobs 1 -q -o /dev/null FILE
  px-where      PGN_EXTRACT -s -t TAGS -o /dev/null FILE        (TAGS: WhiteElo >= "2000")
  px-dedup-eco  PGN_EXTRACT -s -D -e ECO_FILE -o /dev/null FILE (Debian's eco.pgn)
  export-j2, where-j2, dedup-eco-j2: the three arbiter commands with --jobs 2

Times are CPU time (user + system) for the one-job commands and pgn-extract, and wall-clock time
for the --jobs 2 ones (CPU time would hide what the second core gains). For each command it
prints the median and the tenth percentile, then the ratios the issue asks for: select's
throughput against export's, against pgn-extract's on the same job, and --jobs 2 against
--jobs 1 for export and select (the scaling). On a shared machine the tenth percentile, the speed
the runs reach when left alone, is the steadiest figure (see bench/paired.py).

PGN_EXTRACT defaults to /usr/games/pgn-extract; its ECO file is /usr/share/pgn-extract/eco.pgn.
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ECO_FILE = "/usr/share/pgn-extract/eco.pgn"
WHERE = "white_elo >= 2000"


def seconds(command: list[str], wall: bool) -> float:
    """The wall-clock time of one run of `command` if `wall`, else its CPU time."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0 and os.waitstatus_to_exitcode(status) not in (1,):
        raise SystemExit(f"{' '.join(command)} failed (status {status})")
    return elapsed if wall else usage.ru_utime + usage.ru_stime


def tenth_percentile(times: list[float]) -> float:
    return sorted(times)[(len(times) - 1) // 10]


def commands(arbiter: str, pgn_extract: str, tags: str, path: str) -> dict[str, tuple[list[str], bool]]:
    """Each command by name, with whether it is timed by the wall clock."""
    def select(jobs: str, *options: str) -> list[str]:
        return [arbiter, "select", *options, "--jobs", jobs, "-q", "-o", "/dev/null", path]

    def export(jobs: str) -> list[str]:
        return [arbiter, "export", "--format", "jsonl", "--jobs", jobs, "-q", "-o", "/dev/null", path]

    return {
        "export": (export("1"), False),
        "where": (select("1", "--where", WHERE), False),
        "dedup-eco": (select("1", "--dedup", "game", "--eco"), False),
        "px-where": ([pgn_extract, "-s", f"-t{tags}", "-o", "/dev/null", path], False),
        "px-dedup-eco": ([pgn_extract, "-s", "-D", f"-e{ECO_FILE}", "-o", "/dev/null", path], False),
        "export-j2": (export("2"), True),
        "where-j2": (select("2", "--where", WHERE), True),
        "dedup-eco-j2": (select("2", "--dedup", "game", "--eco"), True),
    }


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rounds, path, arbiter = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    pgn_extract = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/pgn-extract"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tags:
        tags.write('WhiteElo >= "2000"\n')
    try:
        runs = commands(arbiter, pgn_extract, tags.name, path)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(rounds):
            order = list(runs)
            random.shuffle(order)
            for name in order:
                command, wall = runs[name]
                times[name].append(seconds(command, wall))
    finally:
        os.unlink(tags.name)
    median = {name: statistics.median(t) for name, t in times.items()}
    low = {name: tenth_percentile(t) for name, t in times.items()}
    for name in runs:
        print(f"{name}: median {median[name] * 1000:.1f} ms, "
              f"10th percentile {low[name] * 1000:.1f} ms")
    print()
    for label, fast, slow in [
        ("select --where vs export jsonl (target >= 0.8x)", "where", "export"),
        ("select --dedup game --eco vs export jsonl (target >= 0.6x)", "dedup-eco", "export"),
        ("select --where vs pgn-extract -t (target >= 10x)", "where", "px-where"),
        ("select --dedup game --eco vs pgn-extract -D -e (target >= 10x)", "dedup-eco", "px-dedup-eco"),
        ("export --jobs 2 vs --jobs 1 (wall vs CPU)", "export-j2", "export"),
        ("select --where --jobs 2 vs --jobs 1 (wall vs CPU)", "where-j2", "where"),
        ("select --dedup game --eco --jobs 2 vs --jobs 1 (wall vs CPU)", "dedup-eco-j2", "dedup-eco"),
    ]:
        print(f"{label}: {median[slow] / median[fast]:.2f}x (medians), "
              f"{low[slow] / low[fast]:.2f}x (10th percentiles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
