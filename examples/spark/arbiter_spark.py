"""Export chess games to Parquet on a Spark cluster, one `arbiter export` per task.

The driver lists the inputs (files, directories searched for `*.pgn`, `*.pgn.gz`, `*.pgn.zst`,
`*.pgn.bz2`, `*.pgn.xz` as arbiter searches them, and path patterns), makes one task per file (or
per byte range of a file, with `--split-bytes`, when the binary has `export --range`), and each
task runs

    arbiter export FILE [--range START:END] -o OUT/_attempts/task-NNNNN-ATTEMPT/ \
        --format parquet --rows-per-file N --jobs CPUS -q

then renames its directory to `OUT/task-NNNNN/` (parts `part-00000.parquet`... and arbiter's
`_manifest.json`), so that a retried or speculative attempt never leaves half a task or a task
twice. The driver then writes `OUT/_job.json` (the tasks, their inputs, games and rows), reads
the parts back with Spark SQL and prints a summary, also written to `OUT/_summary.json`: games
by speed and outcome, and the flag falls whose winner could not mate (`time_forfeit` games with
a decisive Result that arbiter rules drawn: FIDE Law 6.9, see arbiter's docs/outcomes.md).

Every node needs the arbiter binary (`--arbiter`, default `arbiter` on the PATH) and the inputs
and OUT at the same path (a shared file system): arbiter reads and writes local paths.

Run: `spark-submit [--master URL] arbiter_spark.py INPUT... --out DIR` (examples/spark/README.md).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import uuid

# The names arbiter reads from a directory (crates/io/src/input.rs), compared in lowercase.
PGN_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".pgn.xz")

# Magic bytes of the compressions arbiter decodes: a compressed file's decompressed size is not
# known before reading it, so it is never cut into byte ranges.
COMPRESSED_MAGIC = (
    b"\x1f\x8b",  # gzip
    b"\x28\xb5\x2f\xfd",  # zstd
    b"BZh",  # bzip2
    b"\xfd7zXZ\x00",  # xz
)

# Games by speed and outcome.
BY_SPEED_SQL = """
SELECT speed, outcome, count(*) AS games
FROM games GROUP BY speed, outcome ORDER BY speed NULLS LAST, games DESC, outcome
"""

# Games by the hour of the day they started (UTC), from `utc_time`: a Parquet TIME, which Spark
# reads when `spark.sql.timeType.enabled` is on (the job turns it on).
BY_HOUR_SQL = """
SELECT hour(utc_time) AS hour, count(*) AS games FROM games GROUP BY 1 ORDER BY 1 NULLS LAST
"""

# Flag falls the Result calls decisive, and those whose winner could not mate by any series of
# legal moves (Law 6.9: arbiter rules them drawn, `winner` is `draw`).
FLAG_FALLS_SQL = """
SELECT count_if(outcome = 'time_forfeit' AND result IN ('1-0', '0-1')) AS flag_falls,
       count_if(outcome = 'time_forfeit' AND result IN ('1-0', '0-1')
                AND winner = 'draw') AS winner_could_not_mate
FROM games
"""


class JobError(Exception):
    """A reason the job cannot run or finish, said in plain words."""


def list_inputs(paths):
    """The files arbiter would read for `paths`: a file as given, a directory's PGN files below
    it (recursively, sorted), a pattern's matches (sorted; each may be a directory)."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs.sort()
                for name in names:
                    full = os.path.join(root, name)
                    if name.lower().endswith(PGN_SUFFIXES) and os.path.isfile(full):
                        found.append(full)
            if not found:
                raise JobError(f"no PGN file (*.pgn, *.pgn.gz, ...) in directory {path}")
            files.extend(sorted(found))
        elif os.path.exists(path):
            files.append(path)
        elif any(c in path for c in "*?["):
            matches = sorted(glob.glob(path))
            if not matches:
                raise JobError(f"no file matches {path}")
            files.extend(list_inputs(matches))
        else:
            raise JobError(f"no such file or directory: {path}")
    return files


def supports_range(arbiter):
    """Whether `arbiter export` takes `--range START:END` (read from its --help)."""
    try:
        proc = subprocess.run(
            [arbiter, "export", "--help"], capture_output=True, text=True, check=False
        )
    except OSError as e:
        raise JobError(f"cannot run {arbiter}: {e}") from e
    if proc.returncode != 0:
        raise JobError(f"{arbiter} export --help failed: {proc.stderr.strip()}")
    return "--range" in proc.stdout


def is_compressed(path):
    """Whether the file starts with the magic bytes of a compression arbiter decodes."""
    with open(path, "rb") as f:
        head = f.read(6)
    return any(head.startswith(magic) for magic in COMPRESSED_MAGIC)


def cut(size, split_bytes):
    """Byte ranges [start, end) of at most `split_bytes` each that cover [0, size)."""
    if size <= split_bytes:
        return [(0, size)]
    return [(start, min(start + split_bytes, size)) for start in range(0, size, split_bytes)]


def plan_tasks(files, split_bytes, ranges):
    """One task per file, or with `split_bytes` and `ranges` (the binary has --range), one per
    byte range of each uncompressed file larger than `split_bytes`."""
    tasks = []
    for path in files:
        spans = [None]
        if split_bytes and ranges and not is_compressed(path):
            size = os.path.getsize(path)
            if size > split_bytes:
                spans = cut(size, split_bytes)
        for span in spans:
            tasks.append({"task": len(tasks), "file": path, "range": span})
    return tasks


def task_dir(out, task):
    """The directory a task's parts end up in."""
    return os.path.join(out, f"task-{task['task']:05d}")


def read_manifest(directory):
    """arbiter's _manifest.json of a finished task."""
    with open(os.path.join(directory, "_manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def run_task(task, arbiter, out, rows_per_file, jobs, attempt):
    """Runs `arbiter export` for one task into a directory of its own, renamed into place when
    arbiter ends with status 0 (every game valid) or 1 (some invalid, all written). Returns the
    task with its directory, status, games and rows. A task already in place (an earlier attempt
    finished it) is kept as it is."""
    final = task_dir(out, task)
    scratch = os.path.join(out, "_attempts", f"task-{task['task']:05d}-{attempt}")
    command = [arbiter, "export", task["file"]]
    if task["range"] is not None:
        command += ["--range", f"{task['range'][0]}:{task['range'][1]}"]
    command += ["-o", scratch + os.sep, "--format", "parquet", "--rows-per-file",
                str(rows_per_file), "--jobs", str(jobs), "-q"]
    status = None
    if not os.path.isdir(final):
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        if proc.returncode not in (0, 1):
            shutil.rmtree(scratch, ignore_errors=True)
            raise JobError(
                f"task {task['task']} ({task['file']}): arbiter exited with status "
                f"{proc.returncode}: {proc.stderr.strip()}"
            )
        status = proc.returncode
        try:
            os.rename(scratch, final)
        except OSError:
            # Another attempt of this task renamed its directory first: keep that one.
            if not os.path.isdir(final):
                raise
            shutil.rmtree(scratch, ignore_errors=True)
    manifest = read_manifest(final)
    return dict(
        task,
        directory=final,
        status=status,
        games=manifest["games"],
        invalid_games=manifest["invalid_games"],
        rows=manifest["rows"],
        parts=len(manifest["parts"]),
    )


def prepare_output(out):
    """Makes OUT (new or empty) and its scratch directory for attempts."""
    if "://" in out:
        raise JobError(f"--out must be a path on a shared file system, not a URI: {out}")
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise JobError(f"--out {out} must be a new or empty directory")
    os.makedirs(os.path.join(out, "_attempts"))


def part_paths(done):
    """The Parquet parts the finished tasks' manifests list, as file:// URIs."""
    return [
        "file://" + os.path.join(task["directory"], part["file"])
        for task in done
        for part in read_manifest(task["directory"])["parts"]
    ]


def summarise(spark, parts):
    """Reads the parts back with Spark SQL: games by speed and outcome, by hour, and flag
    falls."""
    spark.read.parquet(*parts).createOrReplaceTempView("games")
    by_speed = [row.asDict() for row in spark.sql(BY_SPEED_SQL).collect()]
    by_hour = [row.asDict() for row in spark.sql(BY_HOUR_SQL).collect()]
    flags = spark.sql(FLAG_FALLS_SQL).collect()[0].asDict()
    falls, could_not = flags["flag_falls"], flags["winner_could_not_mate"]
    return {
        "games": sum(row["games"] for row in by_speed),
        "by_speed_and_outcome": by_speed,
        "by_hour": by_hour,
        "flag_falls": falls,
        "winner_could_not_mate": could_not,
        "share_could_not_mate": could_not / falls if falls else None,
    }


def print_summary(summary):
    """The summary as a few lines of text on standard output."""
    print(f"games: {summary['games']}")
    print(f"{'speed':<16}{'outcome':<24}{'games':>10}")
    for row in summary["by_speed_and_outcome"]:
        print(f"{row['speed'] or '(unknown)':<16}{row['outcome'] or '(none)':<24}"
              f"{row['games']:>10}")
    print("games by hour (UTC): " + ", ".join(
        f"{'?' if row['hour'] is None else row['hour']}: {row['games']}"
        for row in summary["by_hour"]))
    share = summary["share_could_not_mate"]
    print(f"flag falls with a winner: {summary['flag_falls']}, of which the winner could not "
          f"mate: {summary['winner_could_not_mate']}"
          + (f" ({share:.2%})" if share is not None else ""))


def parse_args(argv):
    """The job's command line."""
    parser = argparse.ArgumentParser(
        description="Export PGN archives to Parquet with one arbiter export per Spark task.")
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="PGN files, directories or path patterns")
    parser.add_argument("--out", required=True,
                        help="new or empty output directory, on a file system every node shares")
    parser.add_argument("--arbiter", default="arbiter",
                        help="the arbiter binary, at this path on every node (default: arbiter)")
    parser.add_argument("--rows-per-file", type=int, default=1_000_000, metavar="N",
                        help="at most N rows per Parquet part (default 1000000)")
    parser.add_argument("--split-bytes", type=int, default=None, metavar="N",
                        help="cut uncompressed files larger than N bytes into ranges of N bytes, "
                             "one task each (needs a binary with export --range)")
    args = parser.parse_args(argv)
    if args.rows_per_file < 1:
        parser.error("--rows-per-file must be 1 or more")
    if args.split_bytes is not None and args.split_bytes < 1:
        parser.error("--split-bytes must be 1 or more")
    return args


def main(argv=None):
    """Runs the job: plan on the driver, export on the executors, summary with Spark SQL."""
    from pyspark import TaskContext
    from pyspark.sql import SparkSession

    args = parse_args(argv)
    out = os.path.abspath(args.out)
    files = list_inputs(args.inputs)
    ranges = False
    if args.split_bytes is not None:
        ranges = supports_range(args.arbiter)
        if not ranges:
            print(f"arbiter_spark: {args.arbiter} has no export --range: one task per whole "
                  "file", file=sys.stderr)
    tasks = plan_tasks(files, args.split_bytes, ranges)
    prepare_output(out)

    spark = (SparkSession.builder.appName("arbiter export")
             .config("spark.sql.timeType.enabled", "true").getOrCreate())
    jobs = int(spark.sparkContext.getConf().get("spark.task.cpus", "1"))
    arbiter, rows_per_file = args.arbiter, args.rows_per_file

    def export(task):
        context = TaskContext.get()
        attempt = f"{context.attemptNumber()}-{uuid.uuid4().hex[:8]}"
        return run_task(task, arbiter, out, rows_per_file, jobs, attempt)

    done = spark.sparkContext.parallelize(tasks, len(tasks)).map(export).collect()
    shutil.rmtree(os.path.join(out, "_attempts"), ignore_errors=True)
    with open(os.path.join(out, "_job.json"), "w", encoding="utf-8") as f:
        json.dump({"arbiter": args.arbiter, "inputs": args.inputs, "ranges": ranges,
                   "games": sum(t["games"] for t in done), "rows": sum(t["rows"] for t in done),
                   "tasks": done}, f, indent=2)

    summary = summarise(spark, part_paths(done))
    with open(os.path.join(out, "_summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    print_summary(summary)
    spark.stop()


if __name__ == "__main__":
    try:
        main()
    except JobError as e:
        print(f"arbiter_spark: error: {e}", file=sys.stderr)
        sys.exit(2)
