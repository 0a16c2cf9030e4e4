//! Helpers: generated games, running the binary under a time limit with its peak memory watched,
//! and the checks every hostile case shares.

use std::path::{Path, PathBuf};
use std::process::Stdio;

pub use arbiter_test_support::run::{Input, Run, binary, command, run_command};

use arbiter::io::sources;
use arbiter::pgn::Splitter;
use serde_json::Value;

/// A short, valid game with a distinctive Event tag.
pub fn good_game(n: usize) -> String {
    format!(
        "[Event \"good {n}\"]\n[Site \"hostile\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
    )
}

/// `count` good games numbered from `from`.
pub fn good_games(from: usize, count: usize) -> String {
    (from..from + count).map(good_game).collect()
}

/// Runs `arbiter args` with stdout to `stdout` (piped when `None`), as [`run_command`] does,
/// `--quiet` added to `validate` and `export`.
pub fn run_to(args: &[&str], input: Input<'_>, stdout: Option<Stdio>) -> Run {
    let mut command = command();
    command
        .args(args)
        .args(["--quiet"].iter().filter(|_| wants_quiet(args)));
    run_command(command, input, stdout)
}

/// Runs `arbiter args` in the directory `dir`, as [`run_to`] does.
pub fn run_in(dir: &Path, args: &[&str], input: Input<'_>, stdout: Option<Stdio>) -> Run {
    let mut command = command();
    command
        .current_dir(dir)
        .args(args)
        .args(["--quiet"].iter().filter(|_| wants_quiet(args)));
    run_command(command, input, stdout)
}

fn wants_quiet(args: &[&str]) -> bool {
    matches!(args.first(), Some(&"validate" | &"export")) && !args.contains(&"--quiet")
}

/// Runs `arbiter args` with stdout piped.
pub fn run(args: &[&str], input: Input<'_>) -> Run {
    run_to(args, input, None)
}

/// Parses JSON Lines output.
pub fn json_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// How many games the reader finds in `paths` (with the same input layer as the binary), and how
/// many inputs failed to open or read.
pub fn reader_games<P: AsRef<Path>>(paths: &[P]) -> (u64, u64) {
    let (mut games, mut failures) = (0, 0);
    for source in sources(paths) {
        let Ok(source) = source else {
            failures += 1;
            continue;
        };
        for game in Splitter::new(source.reader) {
            match game {
                Ok(_) => games += 1,
                Err(_) => {
                    failures += 1;
                    break;
                }
            }
        }
    }
    (games, failures)
}

/// What `export` and `validate` made of one input.
pub struct Checked {
    /// Export's JSON Lines records, in order.
    pub records: Vec<Value>,
    /// Validate's diagnostics (JSON Lines, without the summary).
    pub diagnostics: Vec<Value>,
    /// Validate's summary.
    pub summary: Value,
    pub export: Run,
    pub validate: Run,
}

impl Checked {
    /// The records whose Event is `good N`, with N.
    pub fn good(&self) -> Vec<(usize, &Value)> {
        self.records
            .iter()
            .filter_map(|r| {
                let n = r["event"].as_str()?.strip_prefix("good ")?.parse().ok()?;
                Some((n, r))
            })
            .collect()
    }

    /// Asserts that good games `0..count` each have exactly one valid record, in order, ending in
    /// checkmate.
    pub fn assert_good_games(&self, count: usize, what: &str) {
        let good = self.good();
        let numbers: Vec<usize> = good.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            numbers,
            (0..count).collect::<Vec<_>>(),
            "{what}: good games exported"
        );
        for (n, record) in good {
            assert_eq!(record["valid"], true, "{what}: good {n}: {record}");
            assert_eq!(record["outcome"], "checkmate", "{what}: good {n}: {record}");
            assert_eq!(record["plies"], 7, "{what}: good {n}: {record}");
        }
    }

    /// The validate diagnostics that are errors.
    pub fn errors(&self) -> Vec<&Value> {
        self.diagnostics
            .iter()
            .filter(|d| d["severity"] == "error")
            .collect()
    }
}

/// Runs `export --format jsonl` and `validate --format jsonl` on `path` (or on `stdin` when
/// `path` is `-`), and checks what every run must satisfy: a clean exit, one record per game the
/// reader finds, consecutive indices, and a summary that adds up.
pub fn check(path: &Path, stdin: Option<&[u8]>, what: &str) -> Checked {
    let path_str = path.to_str().expect("UTF-8 path");
    let input = || stdin.map_or(Input::Null, Input::Bytes);
    let export = run(&["export", path_str, "--format", "jsonl"], input());
    export.assert_clean(&format!("{what}: export"));
    let validate = run(&["validate", path_str, "--format", "jsonl"], input());
    validate.assert_clean(&format!("{what}: validate"));
    let records = json_lines(&export.stdout);
    let mut diagnostics = json_lines(&validate.stdout);
    let summary = diagnostics.pop().expect("a summary");
    assert_eq!(summary["type"], "summary", "{what}");

    let found = match stdin {
        Some(bytes) => Splitter::new(bytes).filter(Result::is_ok).count() as u64,
        None => reader_games(&[path]).0,
    };
    assert_eq!(
        records.len() as u64,
        found,
        "{what}: one record per game read"
    );
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record["index"], i as u64 + 1, "{what}: record order");
    }
    assert_summary_adds_up(&summary, found, what);
    for d in &diagnostics {
        assert!(
            d["line"].as_u64().is_some_and(|l| l >= 1) && d["column"].as_u64().is_some(),
            "{what}: unlocated diagnostic {d}"
        );
        assert!(d["game"].as_u64().is_some_and(|g| g >= 1 && g <= found));
    }
    let invalid_main_lines = records.iter().filter(|r| r["valid"] == false).count();
    let expected = if export.stderr.contains("error") {
        2
    } else if invalid_main_lines > 0 {
        1
    } else {
        0
    };
    assert_eq!(
        export.code(),
        Some(expected),
        "{what}: export exit code: {}",
        export.stderr
    );
    Checked {
        records,
        diagnostics,
        summary,
        export,
        validate,
    }
}

/// `games == valid + invalid == found`, and the other counts are there.
pub fn assert_summary_adds_up(summary: &Value, found: u64, what: &str) {
    let get = |k: &str| {
        summary[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{what}: summary lacks {k}: {summary}"))
    };
    assert_eq!(get("games"), found, "{what}: summary games");
    assert_eq!(
        get("games"),
        get("valid") + get("invalid"),
        "{what}: {summary}"
    );
    let _ = get("warnings");
}

/// A scratch directory removed at the end of the test.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("arbiter-hostile-")
        .tempdir()
        .expect("temp dir")
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write test input");
    path
}

/// A deterministic byte generator (xorshift), so that failures reproduce.
pub struct Bytes(u64);

impl Bytes {
    pub fn new(seed: u64) -> Bytes {
        Bytes(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn fill(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Running as root, where permission bits do not stop reads.
pub fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|u| u == "0"))
        })
        .unwrap_or(false)
}
