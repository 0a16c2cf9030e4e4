#!/usr/bin/env python3
"""bench/targets.py — the speed targets of issue 41, measured in one run: instruction counts
(valgrind, steady whatever the machine does) and paired CPU and wall-clock times.

Usage:  bench/targets.py [--rounds N] [--scaling-rounds N] [--baseline BINARY] [--arbiter BINARY]
                         [--no-count] [--no-time] [--quick]

Environment:
  ARBITER_TESTDATA  the shared test data (default /work/shared/testdata)
  TMPDIR            where the corpora are made (a folder removed on exit)

Needs valgrind, python3, pgn-extract (Debian: /usr/games/pgn-extract, its ECO file
/usr/share/pgn-extract/eco.pgn), zstd and pzstd, and cargo unless --arbiter names a build.

What it does:
  1. builds `target/release/arbiter` (unless --arbiter names one) and the peer (the shared
     `bench/peer-shakmaty`, pgn-reader 0.29 + shakmaty 0.30, built from a copy in target/);
  2. makes lichess16 (the lichess sample, with its %clk comments, 16 times: 16 MB, 7,008 games)
     and master16 (the 13,163 pgnmentor master games twice: 16.9 MB), and for the scaling
     lichess64 as a plain file, one zstd frame (`zstd -3`) and many frames (`pzstd -p 2 -3`);
  3. counts the instructions of every job below on both corpora (`valgrind --tool=callgrind`,
     whole process), and what writing a game costs select (a select that keeps every game less
     one that keeps none, per game); with --baseline, the same for that build (the "before"
     column);
  4. times the jobs in paired rounds, each round in a fresh random order: CPU time (user +
     system) of the one-core jobs, tenth percentiles (the speed the runs reach when the shared
     machine leaves them alone; see bench/paired.py); then wall-clock time of --jobs 1 against
     --jobs 2 on the three lichess64 inputs;
  5. prints the figures and each target of issue 41 with its value and whether it is met.

The jobs (all `--jobs 1 -q --rulings-budget 0`, output to /dev/null: the work without the
helpmate search, which the targets leave out):
  peer           peer-shakmaty FILE
  export-jsonl   arbiter export --format jsonl
  export-csv     arbiter export --format csv
  export-parquet arbiter export --format parquet (to a file in the temporary folder)
  validate       arbiter validate (its summary only, with -q)
  select-where   arbiter select --where 'white_elo >= 2000'
  select-dedup   arbiter select --dedup game --eco
  px-validate    pgn-extract -r                  (times only)
  px-where       pgn-extract -s -t 'WhiteElo >= "2000"'
  px-dedup       pgn-extract -s -D -e ECO_FILE

--quick counts lichess16 only and skips the timing of master16.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("ARBITER_TESTDATA", "/work/shared/testdata"))
PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
ECO_FILE = "/usr/share/pgn-extract/eco.pgn"
WHERE = "white_elo >= 2000"
PX_TAGS = 'WhiteElo >= "2000"\n'
ONE = ["--jobs", "1", "-q", "--rulings-budget", "0"]


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def build(arbiter):
    if arbiter is None:
        print("building arbiter (release)...", file=sys.stderr)
        run(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
        arbiter = ROOT / "target" / "release" / "arbiter"
    source = DATA.parent / "bench" / "peer-shakmaty"
    if not source.is_dir():
        sys.exit(f"bench/targets.py: the peer is missing at {source}")
    copy = ROOT / "target" / "peer-shakmaty"
    peer = copy / "target" / "release" / "peer-shakmaty"
    if not peer.exists():
        print("building the peer...", file=sys.stderr)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(source, copy)
        run(["cargo", "build", "--release", "--quiet"], cwd=copy)
    return str(arbiter), str(peer)


def corpora(tmp):
    """The corpora, by name."""
    lichess = (DATA / "corpora" / "samples" / "lichess_db_1000k.pgn").read_bytes()
    master = b"".join(p.read_bytes() for p in sorted((DATA / "corpora" / "pgnmentor-players").glob("*.pgn")))
    files = {"lichess16": lichess * 16, "master16": master * 2, "lichess64": lichess * 64}
    paths = {}
    for name, data in files.items():
        paths[name] = tmp / f"{name}.pgn"
        paths[name].write_bytes(data)
    paths["lichess64.zst"] = tmp / "lichess64.pgn.zst"
    run(["zstd", "-q", "-3", "-f", str(paths["lichess64"]), "-o", str(paths["lichess64.zst"])])
    paths["lichess64.pzstd"] = tmp / "lichess64-frames.pgn.zst"
    run(["pzstd", "-q", "-p", "2", "-3", "-f", str(paths["lichess64"]), "-o", str(paths["lichess64.pzstd"])])
    return paths


def jobs(arbiter, peer, tmp, tags_file):
    """Each job by name: a function of the input path giving the command."""
    out = ["-o", "/dev/null"]
    return {
        "peer": lambda f: [peer, f],
        "export-jsonl": lambda f: [arbiter, "export", "--format", "jsonl", *ONE, *out, f],
        "export-csv": lambda f: [arbiter, "export", "--format", "csv", *ONE, *out, f],
        "export-parquet": lambda f: [arbiter, "export", "--format", "parquet", *ONE, "-o",
                                     str(tmp / f"{Path(f).stem}.{os.getpid()}.parquet"), f],
        "validate": lambda f: [arbiter, "validate", *ONE, f],
        "select-where": lambda f: [arbiter, "select", "--where", WHERE, *ONE, *out, f],
        "select-dedup": lambda f: [arbiter, "select", "--dedup", "game", "--eco", *ONE, *out, f],
        "px-validate": lambda f: [PGN_EXTRACT, "-r", "-s", f],
        "px-where": lambda f: [PGN_EXTRACT, "-s", f"-t{tags_file}", "-o", "/dev/null", f],
        "px-dedup": lambda f: [PGN_EXTRACT, "-s", "-D", f"-e{ECO_FILE}", "-o", "/dev/null", f],
    }


COUNTED = ["peer", "export-jsonl", "export-csv", "export-parquet", "validate", "select-where",
           "select-dedup"]


def instructions(command):
    """The instructions `command` executes (valgrind's callgrind, whole process)."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}",
                        *command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for line in Path(out.name).read_text(errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"no instruction count for {' '.join(command)}")


def writer_per_game(arbiter, path):
    """What writing a game costs select, in instructions: a select that keeps every game
    (`plies >= 0`) less one that keeps none (`plies < 0`), both reading and judging every game
    alike, per game written."""
    def select(where):
        return [arbiter, "select", "--where", where, "--jobs", "1", "--rulings-budget", "0",
                "-o", "/dev/null", path]
    games = sum(1 for line in open(path, "rb") if line.startswith(b"[Event "))
    return (instructions(select("plies >= 0")) - instructions(select("plies < 0"))) / games


def count_all(arbiter, peer, paths, tmp, tags_file, names):
    from concurrent.futures import ThreadPoolExecutor
    job = jobs(arbiter, peer, tmp, tags_file)
    todo = [(name, corpus) for corpus in names for name in COUNTED
            if not (name == "peer" and peer is None)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {key: pool.submit(instructions, job[key[0]](str(paths[key[1]]))) for key in todo}
        writer = {corpus: pool.submit(writer_per_game, arbiter, str(paths[corpus]))
                  for corpus in names}
        counts = {key: f.result() for key, f in futures.items()}
        counts.update({("writer", corpus): f.result() for corpus, f in writer.items()})
    return counts


def cpu_or_wall(command, wall):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed (status {status})")
    return elapsed if wall else usage.ru_utime + usage.ru_stime


def tenth(times):
    return sorted(times)[(len(times) - 1) // 10]


def paired(commands, rounds, wall):
    """Each command's tenth percentile over `rounds` rounds in random order."""
    times = {name: [] for name in commands}
    for _ in range(rounds):
        order = list(commands)
        random.shuffle(order)
        for name in order:
            times[name].append(cpu_or_wall(commands[name], wall))
    return {name: tenth(t) for name, t in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--scaling-rounds", type=int, default=15)
    parser.add_argument("--baseline")
    parser.add_argument("--arbiter")
    parser.add_argument("--no-count", action="store_true")
    parser.add_argument("--no-time", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    arbiter, peer = build(args.arbiter)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        tags_file = tmp / "tags.txt"
        tags_file.write_text(PX_TAGS)
        print("making the corpora...", file=sys.stderr)
        paths = corpora(tmp)
        names = ["lichess16"] if args.quick else ["lichess16", "master16"]
        lines = [f"arbiter: {arbiter}; peer: {peer}; load average at the start "
                 f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)", ""]
        verdicts = []

        def target(text, value, ok, unit="x"):
            verdicts.append(f"| {text} | {value:.2f}{unit} | {'met' if ok else 'MISSED'} |")

        if not args.no_count:
            print("counting instructions (valgrind)...", file=sys.stderr)
            counts = count_all(arbiter, peer, paths, tmp, tags_file, names)
            base = (count_all(args.baseline, None, paths, tmp, tags_file, names)
                    if args.baseline else {})
            lines += ["Instructions (M), whole process, `--jobs 1 --rulings-budget 0`:", ""]
            head = "| job | " + " | ".join(
                f"{c}{' before | ' + c + ' after' if base else ''}" for c in names) + " |"
            lines += [head, "|" + " --- |" * (1 + len(names) * (2 if base else 1))]
            for name in COUNTED + ["writer"]:
                cells = []
                for corpus in names:
                    scale = 1 if name == "writer" else 1e6
                    fmt = (lambda v: f"{v:,.0f} a game") if name == "writer" else (lambda v: f"{v:,.1f}")
                    if base:
                        b = base.get((name, corpus))
                        cells.append(fmt(b / scale) if b else "")
                    cells.append(fmt(counts[(name, corpus)] / scale))
                lines.append(f"| {name} | " + " | ".join(cells) + " |")
            lines.append("")
            for corpus in names:
                c = lambda n: counts[(n, corpus)]
                target(f"{corpus}: export jsonl / peer instructions (≤ 0.6x)",
                       c("export-jsonl") / c("peer"), c("export-jsonl") <= 0.6 * c("peer"))
                target(f"{corpus}: export csv / peer instructions (≤ 0.6x)",
                       c("export-csv") / c("peer"), c("export-csv") <= 0.6 * c("peer"))
                target(f"{corpus}: export parquet / jsonl instructions (≤ 1.10x)",
                       c("export-parquet") / c("export-jsonl"),
                       c("export-parquet") <= 1.1 * c("export-jsonl"))
                target(f"{corpus}: validate / export jsonl instructions (≤ 0.9x)",
                       c("validate") / c("export-jsonl"), c("validate") <= 0.9 * c("export-jsonl"))
                target(f"{corpus}: select --where / export jsonl instructions (≤ 1.11x)",
                       c("select-where") / c("export-jsonl"),
                       c("select-where") * 0.9 <= c("export-jsonl"))
                target(f"{corpus}: PGN writer, instructions a game (≤ 15,000)",
                       c("writer"), c("writer") <= 15_000, unit="")

        if not args.no_time:
            job = jobs(arbiter, peer, tmp, tags_file)
            timed = ["peer", "export-jsonl", "export-csv", "export-parquet", "validate",
                     "select-where", "select-dedup", "px-validate", "px-where", "px-dedup"]
            lines += ["CPU time (ms), tenth percentile of "
                      f"{args.rounds} paired rounds in random order:", ""]
            lines += ["| job | " + " | ".join(names) + " |", "|" + " --- |" * (1 + len(names))]
            results = {}
            for corpus in names:
                print(f"timing {corpus}, {args.rounds} rounds...", file=sys.stderr)
                commands = {n: job[n](str(paths[corpus])) for n in timed}
                results[corpus] = paired(commands, args.rounds, wall=False)
            for n in timed:
                lines.append(f"| {n} | " + " | ".join(f"{results[c][n] * 1000:,.1f}" for c in names) + " |")
            lines.append("")
            for corpus in names:
                t = results[corpus]
                for fmt in ["jsonl", "csv"]:
                    v = t["peer"] / t[f"export-{fmt}"]
                    target(f"{corpus}: export {fmt} speed / peer (≥ 1.5x)", v, v >= 1.5)
                v = t["export-jsonl"] / t["export-parquet"]
                target(f"{corpus}: export parquet speed / jsonl (≥ 0.91x)", v, v >= 1 / 1.1)
                v = t["px-validate"] / t["validate"]
                target(f"{corpus}: validate speed / pgn-extract -r (≥ 8x)", v, v >= 8)
                v = t["export-jsonl"] / t["select-where"]
                target(f"{corpus}: select --where speed / export jsonl (≥ 0.9x)", v, v >= 0.9)
                v = t["px-where"] / t["select-where"]
                target(f"{corpus}: select --where speed / pgn-extract -t (≥ 10x)", v, v >= 10)
                v = t["px-dedup"] / t["select-dedup"]
                target(f"{corpus}: select --dedup game --eco speed / pgn-extract -D -e (≥ 10x)",
                       v, v >= 10)
            print(f"timing --jobs 2 against --jobs 1, {args.scaling_rounds} rounds...",
                  file=sys.stderr)
            lines += ["Wall-clock time (ms) of export jsonl on lichess64, tenth percentile of "
                      f"{args.scaling_rounds} paired rounds:", "",
                      "| input | --jobs 1 | --jobs 2 | ratio |", "| --- | --- | --- | --- |"]
            for name in ["lichess64", "lichess64.zst", "lichess64.pzstd"]:
                f = str(paths[name])
                commands = {j: [arbiter, "export", "--format", "jsonl", "--jobs", j, "-q",
                                "--rulings-budget", "0", "-o", "/dev/null", f] for j in "12"}
                t = paired(commands, args.scaling_rounds, wall=True)
                ratio = t["1"] / t["2"]
                lines.append(f"| {name} | {t['1'] * 1000:,.1f} | {t['2'] * 1000:,.1f} | {ratio:.2f}x |")
                target(f"{name}: --jobs 2 / --jobs 1 (≥ 1.85x)", ratio, ratio >= 1.85)
            lines.append("")
        load = os.getloadavg()
        lines.append(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        lines += ["", "| target (issue 41) | value | |", "| --- | ---: | --- |", *verdicts]
        print("\n".join(lines))


if __name__ == "__main__":
    main()
