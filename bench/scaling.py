#!/usr/bin/env python3
"""bench/scaling.py — where `--jobs 2` loses against twice `--jobs 1`: overhead or idling.

Usage:  bench/scaling.py ROUNDS BINARY[,BINARY...] FILE [FILE...]

Runs `BINARY export --format jsonl --jobs J -q --rulings-budget 0 -o /dev/null FILE` for J = 1
and 2, every binary on every file, in paired rounds (each round in a fresh random order), and
prints per binary and file, from the tenth percentiles of the rounds:

  wall 1, wall 2   wall-clock time at --jobs 1 and 2, and their ratio (the speed-up);
  cpu 1, cpu 2     CPU time (user + system) at --jobs 1 and 2: cpu 2 / cpu 1 above 1 is work
                   that --jobs 2 adds (cutting the parts, handing them over, the game numbers
                   filled in as the output is written, caches missed across cores);
  busy             cpu 2 / wall 2: the cores kept busy at --jobs 2, 2.00 at most; below that,
                   a core idled (waiting for a part, for room in the window, for a decoded run).

The speed-up is busy / (cpu 2 / cpu 1) when --jobs 1 keeps its core busy (cpu 1 = wall 1), so
the two columns say which to work on. On a
shared machine other work takes cores too: quote the load (printed at the start and the end),
and compare builds in the same run rather than across runs.
"""
import os
import random
import sys

from paired import run, tenth_percentile


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rounds, binaries, files = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[3:]
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    runs = [(binary, path, jobs) for binary in binaries for path in files for jobs in "12"]
    times: dict[tuple[str, str, str], list[tuple[float, float]]] = {key: [] for key in runs}
    for _ in range(rounds):
        random.shuffle(runs)
        for binary, path, jobs in runs:
            command = [binary, "export", "--format", "jsonl", "--jobs", jobs, "-q",
                       "--rulings-budget", "0", "-o", "/dev/null", path]
            times[(binary, path, jobs)].append(run(command))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n{rounds} rounds, tenth percentiles (ms)\n")
    print("| build | input | wall 1 | wall 2 | speed-up | cpu 1 | cpu 2 | cpu 2 / cpu 1 | busy |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for binary in binaries:
        for path in files:
            wall = {j: tenth_percentile([w for w, _ in times[(binary, path, j)]]) for j in "12"}
            cpu = {j: tenth_percentile([c for _, c in times[(binary, path, j)]]) for j in "12"}
            busy = cpu["2"] / wall["2"]
            print(f"| {binary} | {os.path.basename(path)} | {wall['1'] * 1000:.1f} | "
                  f"{wall['2'] * 1000:.1f} | {wall['1'] / wall['2']:.2f}x | "
                  f"{cpu['1'] * 1000:.1f} | {cpu['2'] * 1000:.1f} | {cpu['2'] / cpu['1']:.3f} | "
                  f"{busy:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
