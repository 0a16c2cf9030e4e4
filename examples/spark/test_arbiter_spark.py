"""Tests of arbiter_spark.py: the job run with spark-submit in Spark's local mode (local[2]) on the
lichess sample repeated in several files (plain, in a subdirectory, gzip-compressed) and a few
games of flag falls, against one plain `arbiter export` of the same directory.

    ARBITER_TESTDATA=/path/to/shared/testdata python examples/spark/test_arbiter_spark.py -v

The binary is ARBITER_BIN, else target/ci/arbiter. It needs pyspark and duckdb in this Python and
java on the PATH (examples/spark/ci.sh installs them): under CI=true a missing one fails the
tests, elsewhere the tests that need it are skipped.
"""

import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the job

import arbiter_spark as job  # noqa: E402

IN_CI = os.environ.get("CI") == "true"

# Flag falls: a lone king wins on time (it could not mate: drawn, result_consistent false), a rook
# wins on time (it could), and a game with an illegal move, which makes arbiter exit with status 1.
FLAG_FALLS = """[Event "Rated bullet game"]
[Site "https://example.org/flag0001"]
[Result "1-0"]
[SetUp "1"]
[FEN "7r/8/8/4k3/8/8/8/K7 w - - 0 1"]
[TimeControl "60+0"]
[Termination "Time forfeit"]

1. Kb2 Rh2+ 2. Kc3 1-0

[Event "Rated bullet game"]
[Site "https://example.org/flag0002"]
[Result "0-1"]
[SetUp "1"]
[FEN "7r/8/8/4k3/8/8/8/K7 w - - 0 1"]
[TimeControl "60+0"]
[Termination "Time forfeit"]

1. Kb2 Rh2+ 2. Kc3 0-1

[Event "Rated blitz game"]
[Site "https://example.org/illegal"]
[Result "1-0"]
[TimeControl "180+0"]

1. e4 e5 2. Ke3 1-0
"""


def missing_tools():
    """What the Spark and DuckDB tests need and this machine lacks."""
    missing = []
    for module in ("pyspark", "duckdb"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"python module {module} "
                           "(pip install -r examples/spark/requirements.txt)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing.append("java (Debian: apt-get install openjdk-17-jre-headless)")
    return missing


def need_tools(test):
    """Skips `test` when a tool is missing, or fails it under CI=true."""
    missing = missing_tools()
    if not missing:
        return
    message = "missing " + ", ".join(missing)
    if IN_CI:
        test.fail(message)
    raise unittest.SkipTest(message)


def arbiter_binary():
    """The arbiter binary under test."""
    path = os.environ.get("ARBITER_BIN", os.path.join(REPO, "target", "ci", "arbiter"))
    if not os.access(path, os.X_OK):
        raise AssertionError(
            f"no arbiter binary at {path}: cargo build --profile ci, or set ARBITER_BIN")
    return path


def lichess_sample():
    """The lichess sample of the shared test data."""
    data = os.environ.get("ARBITER_TESTDATA",
                          os.path.join(os.path.dirname(REPO), "shared", "testdata"))
    path = os.path.join(data, "corpora", "samples", "lichess_db_1000k.pgn")
    if not os.path.isfile(path):
        raise AssertionError(f"no lichess sample at {path}: set ARBITER_TESTDATA")
    with open(path, "rb") as f:
        return f.read()


def make_inputs(root):
    """The inputs: the sample twice, once with the flag falls, three times gzip-compressed in a
    subdirectory, and a file that is no PGN (not read)."""
    sample = lichess_sample()
    inputs = os.path.join(root, "in")
    os.makedirs(os.path.join(inputs, "sub"))
    with open(os.path.join(inputs, "a.pgn"), "wb") as f:
        f.write(sample + b"\n" + sample)
    with open(os.path.join(inputs, "b.pgn"), "wb") as f:
        f.write(sample + b"\n" + FLAG_FALLS.encode())
    with gzip.open(os.path.join(inputs, "sub", "c.pgn.gz"), "wb") as f:
        f.write(sample + b"\n" + sample + b"\n" + sample)
    with open(os.path.join(inputs, "notes.txt"), "w") as f:
        f.write("not a game\n")
    return inputs


def differences(duck, parts_glob, plain, key):
    """How the records of the parts differ from those of the plain export, as sets keyed by
    `key` (whose columns are compared too), every column but `index` compared: an empty list
    when they are equal. With ranges (`offset` in the key), `game` counts within a task and
    `error` is compared without its line, which a range counts from the game's first line."""
    dropped = "index, game" if "offset" in key else "index"
    error = (" REPLACE (regexp_replace(error, '^[0-9]+:', '') AS error)"
             if "offset" in key else "")
    duck.execute(f"CREATE OR REPLACE VIEW parts AS SELECT * EXCLUDE ({dropped}){error} "
                 f"FROM read_parquet('{parts_glob}')")
    duck.execute(f"CREATE OR REPLACE VIEW plain AS SELECT * EXCLUDE ({dropped}){error} "
                 f"FROM read_parquet('{plain}')")
    found = []
    # Quoted: `offset` is a keyword of DuckDB's SQL.
    columns = ", ".join(f'"{name}"' for name in key)
    for view in ("parts", "plain"):
        total, keys = duck.execute(
            f"SELECT count(*), count(DISTINCT ({columns})) FROM {view}").fetchone()
        if total != keys:
            found.append(f"{view}: {total} records but {keys} distinct keys ({columns})")
    for left, right in (("parts", "plain"), ("plain", "parts")):
        rows = duck.execute(f"SELECT {columns} FROM (SELECT * FROM {left} EXCEPT ALL "
                            f"SELECT * FROM {right}) ORDER BY ALL").fetchall()
        if rows:
            found.append(f"{len(rows)} records in {left} and not in {right}, first {rows[:3]}")
    return found


class Planning(unittest.TestCase):
    """The driver's side: listing inputs and cutting them into tasks."""

    def test_cut_covers_the_file_in_ranges_of_at_most_n_bytes(self):
        self.assertEqual(job.cut(10, 3), [(0, 3), (3, 6), (6, 9), (9, 10)])
        self.assertEqual(job.cut(5, 10), [(0, 5)])
        for size in (1, 7, 64, 1000, 4097):
            for n in (1, 2, 5, 64, 4096):
                spans = job.cut(size, n)
                self.assertEqual(spans[0][0], 0)
                self.assertEqual(spans[-1][1], size)
                for (s, e), (s2, _) in zip(spans, spans[1:]):
                    self.assertEqual(e, s2)
                self.assertTrue(all(0 < e - s <= n for s, e in spans))

    def test_ranges_only_for_uncompressed_files_and_only_when_the_binary_has_them(self):
        with tempfile.TemporaryDirectory() as root:
            inputs = make_inputs(root)
            files = job.list_inputs([inputs])
            whole = job.plan_tasks(files, 100_000, ranges=False)
            self.assertEqual([t["file"] for t in whole], files)
            self.assertTrue(all(t["range"] is None for t in whole))
            cut = job.plan_tasks(files, 100_000, ranges=True)
            self.assertEqual([t["task"] for t in cut], list(range(len(cut))))
            for path in files:
                spans = [t["range"] for t in cut if t["file"] == path]
                if path.endswith(".gz"):
                    self.assertEqual(spans, [None])
                else:
                    self.assertEqual(spans, job.cut(os.path.getsize(path), 100_000))
                    self.assertGreater(len(spans), 1)

    def test_inputs_listed_as_arbiter_reads_them(self):
        with tempfile.TemporaryDirectory() as root:
            inputs = make_inputs(root)
            files = job.list_inputs([inputs])
            plain = os.path.join(root, "plain.jsonl")
            exported = subprocess.run([arbiter_binary(), "export", inputs, "-q", "-o", plain],
                                      check=False)
            self.assertEqual(exported.returncode, 1)  # the illegal move
            with open(plain, encoding="utf-8") as f:
                named = sorted({json.loads(line)["file"] for line in f})
            self.assertEqual(sorted(files), named)
            self.assertEqual(len(files), 3)
            pattern = job.list_inputs([os.path.join(inputs, "*.pgn")])
            self.assertEqual(pattern,
                             [os.path.join(inputs, "a.pgn"), os.path.join(inputs, "b.pgn")])
            with self.assertRaisesRegex(job.JobError, "no file matches"):
                job.list_inputs([os.path.join(inputs, "*.zst")])


class Task(unittest.TestCase):
    """One task: arbiter export into a directory of its own, renamed into place."""

    def test_a_second_attempt_keeps_the_first_and_a_failure_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as root:
            inputs = make_inputs(root)
            out = os.path.join(root, "out")
            job.prepare_output(out)
            task = {"task": 0, "file": os.path.join(inputs, "b.pgn"), "range": None}
            first = job.run_task(task, arbiter_binary(), out, 100, 1, "a")
            self.assertEqual(first["status"], 1)  # the illegal move
            self.assertEqual(first["games"], 441)
            self.assertEqual(first["parts"], 5)
            parts = sorted(os.listdir(first["directory"]))
            again = job.run_task(task, arbiter_binary(), out, 100, 1, "b")
            self.assertIsNone(again["status"])
            self.assertEqual(again["games"], 441)
            self.assertEqual(sorted(os.listdir(first["directory"])), parts)
            self.assertEqual(os.listdir(os.path.join(out, "_attempts")), [])

            gone = {"task": 1, "file": os.path.join(inputs, "gone.pgn"), "range": None}
            with self.assertRaisesRegex(job.JobError, r"task 1 .*gone\.pgn.*status 2"):
                job.run_task(gone, arbiter_binary(), out, 100, 1, "a")
            self.assertFalse(os.path.exists(job.task_dir(out, gone)))
            self.assertEqual(os.listdir(os.path.join(out, "_attempts")), [])

    def test_output_must_be_new_or_empty(self):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "x"), "w"):
                pass
            with self.assertRaisesRegex(job.JobError, "new or empty"):
                job.prepare_output(root)


class SparkJob(unittest.TestCase):
    """The whole job with spark-submit --master local[2], against one plain arbiter export."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        root = cls.scratch.name
        cls.inputs = make_inputs(root)
        cls.out = os.path.join(root, "out")
        cls.plain = os.path.join(root, "plain.parquet")
        cls.ranges = job.supports_range(arbiter_binary())
        exported = subprocess.run([arbiter_binary(), "export", cls.inputs, "-q", "-o", cls.plain],
                                  check=False)
        assert exported.returncode == 1, "the plain export ends with status 1 (an illegal move)"
        if missing_tools():
            cls.submitted = None
            return
        import pyspark

        submit = os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-submit")
        env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
                   SPARK_LOCAL_IP="127.0.0.1", SPARK_LOCAL_DIRS=root)
        started = time.monotonic()
        cls.submitted = subprocess.run(
            [submit, "--master", "local[2]", "--conf", "spark.ui.enabled=false",
             os.path.join(HERE, "arbiter_spark.py"), cls.inputs, "--out", cls.out,
             "--arbiter", arbiter_binary(), "--rows-per-file", "300", "--split-bytes", "400000"],
            capture_output=True, text=True, env=env, cwd=root, timeout=900, check=False)
        cls.seconds = time.monotonic() - started
        print(f"\nspark: the job took {cls.seconds:.1f} s in local[2]", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def setUp(self):
        need_tools(self)
        # The Python driver's stderr comes out on spark-submit's stdout.
        self.assertEqual(self.submitted.returncode, 0,
                         self.submitted.stdout[-3000:] + self.submitted.stderr[-1000:])
        import duckdb

        self.duck = duckdb.connect()

    def key(self):
        """Records are named by file, site and game; by file and offset once tasks are ranges
        (game then counts within a range)."""
        return ["file", "offset"] if self.ranges else ["file", "site", "game"]

    def test_records_equal_one_plain_export(self):
        parts = os.path.join(self.out, "*", "*.parquet")
        self.assertEqual(differences(self.duck, parts, self.plain, self.key()), [])
        games = self.duck.execute(f"SELECT count(*) FROM read_parquet('{parts}')").fetchone()[0]
        self.assertEqual(games, 438 * 6 + 3)

    def test_tasks_are_whole_files_unless_the_binary_has_ranges(self):
        with open(os.path.join(self.out, "_job.json"), encoding="utf-8") as f:
            done = json.load(f)
        files = job.list_inputs([self.inputs])
        self.assertEqual(done["ranges"], self.ranges)
        self.assertEqual(done["games"], 438 * 6 + 3)
        if self.ranges:
            self.assertGreater(len(done["tasks"]), len(files))
        else:
            # spark-submit sends the Python driver's stderr to its own stdout.
            self.assertIn("has no export --range: one task per whole file",
                          self.submitted.stdout + self.submitted.stderr)
            self.assertEqual([t["file"] for t in done["tasks"]], files)
        self.assertEqual(sorted(os.listdir(self.out)),
                         ["_job.json", "_summary.json"]
                         + [f"task-{i:05d}" for i in range(len(done["tasks"]))])

    def test_summary_equals_duckdb_on_the_plain_export(self):
        with open(os.path.join(self.out, "_summary.json"), encoding="utf-8") as f:
            summary = json.load(f)
        plain = f"read_parquet('{self.plain}')"
        by_speed = self.duck.execute(
            f"SELECT speed, outcome, count(*) FROM {plain} GROUP BY ALL ORDER BY ALL").fetchall()
        self.assertEqual(sorted((r["speed"] or "", r["outcome"] or "", r["games"])
                                for r in summary["by_speed_and_outcome"]),
                         sorted((s or "", o or "", n) for s, o, n in by_speed))
        by_hour = self.duck.execute(
            f"SELECT hour(utc_time), count(*) FROM {plain} GROUP BY ALL").fetchall()
        self.assertEqual(sorted((r["hour"] if r["hour"] is not None else -1, r["games"])
                                for r in summary["by_hour"]),
                         sorted((h if h is not None else -1, n) for h, n in by_hour))
        falls, could_not = self.duck.execute(
            f"SELECT count(*) FILTER (WHERE outcome = 'time_forfeit' AND result <> '1/2-1/2'), "
            f"count(*) FILTER (WHERE outcome = 'time_forfeit' AND result <> '1/2-1/2' "
            f"AND winner = 'draw' AND NOT result_consistent) FROM {plain}").fetchone()
        self.assertEqual((summary["flag_falls"], summary["winner_could_not_mate"]),
                         (falls, could_not))
        self.assertEqual(could_not, 1)
        self.assertEqual(summary["games"], 438 * 6 + 3)
        self.assertIn(f"of which the winner could not mate: 1 ({1 / falls:.2%})",
                      self.submitted.stdout)

    def test_a_dropped_or_doubled_part_is_caught(self):
        with tempfile.TemporaryDirectory() as copy:
            out = os.path.join(copy, "out")
            shutil.copytree(self.out, out)
            parts = os.path.join(out, "*", "*.parquet")
            first, second = sorted(glob.glob(parts))[:2]
            rows = {path: self.duck.execute(f"SELECT count(*) FROM read_parquet('{path}')")
                    .fetchone()[0] for path in (first, second)}
            os.remove(first)
            found = differences(self.duck, parts, self.plain, self.key())
            self.assertEqual(found[1:], [])
            self.assertRegex(found[0], rf"^{rows[first]} records in plain and not in parts")
            shutil.copy(second, first)
            found = differences(self.duck, parts, self.plain, self.key())
            self.assertEqual(len(found), 3, found)
            self.assertRegex(found[0], rf"^parts: \d+ records but \d+ distinct keys")
            self.assertRegex(found[1], rf"^{rows[second]} records in parts and not in plain")
            self.assertRegex(found[2], rf"^{rows[first]} records in plain and not in parts")

if __name__ == "__main__":
    started = time.monotonic()
    result = unittest.main(exit=False).result
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    print(f"ci: the Spark example's test took {time.monotonic() - started:.0f} s")
    print(f"spark: {result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
    sys.exit(0 if result.wasSuccessful() else 1)
