//! Comment-command throughput: every `{...}` comment of the lichess sample (28,538 comments, each
//! with a `[%clk]`, 2,216 with an `[%eval]` too) read with `read_commands` and with
//! `MoveAnnotations::read`, and the same comments with their `[` made `(`, which hold no command
//! and cost one byte search. Throughput is in comments: criterion's time per element is the cost
//! of one comment.
//!
//! Run with `cargo bench --bench clocks`. The data is `corpora/samples/lichess_db_1000k.pgn` in
//! the shared test data (`ARBITER_TESTDATA`, else `../shared/testdata`). Each benchmark checks its
//! answer (clocks and evals read) first.

use std::hint::black_box;
use std::path::PathBuf;

use arbiter::core::clocks::{Command, MoveAnnotations, read_commands};
use criterion::{Criterion, Throughput};

/// The text between each `{` and its `}` (lichess comments hold no `}`).
fn comments(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        found.push(&rest[open + 1..open + close]);
        rest = &rest[open + close + 1..];
    }
    found
}

/// Reads every comment; returns (clocks, evals, malformed).
fn read_all(comments: &[&str]) -> (u64, u64, u64) {
    let mut counts = (0, 0, 0);
    for comment in comments {
        read_commands(black_box(comment), |command| match command {
            Command::Clock(_) | Command::Emt(_) => counts.0 += 1,
            Command::Eval { .. } => counts.1 += 1,
            Command::Malformed(_) => counts.2 += 1,
        });
    }
    counts
}

/// Reads every comment into a `MoveAnnotations`, as a visitor would; returns the sum of clocks
/// in seconds.
fn annotate_all(comments: &[&str]) -> u64 {
    let mut notes = MoveAnnotations::default();
    let mut sum = 0;
    for comment in comments {
        notes.clear();
        notes.read(black_box(comment), |_| {});
        sum += u64::from(notes.clock.unwrap_or(0) / 1000);
    }
    sum
}

fn main() {
    let dir = std::env::var_os("ARBITER_TESTDATA").map_or_else(
        || arbiter_test_support::workspace_root().join("../shared/testdata"),
        PathBuf::from,
    );
    let path = dir.join("corpora/samples/lichess_db_1000k.pgn");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} not found; nothing to measure", path.display());
        return;
    };
    let lichess = comments(&text);
    assert_eq!(lichess.len(), 28_538);
    assert_eq!(read_all(&lichess), (28_538, 2_216, 0));
    let plain_text: Vec<String> = lichess.iter().map(|c| c.replace('[', "(")).collect();
    let plain: Vec<&str> = plain_text.iter().map(String::as_str).collect();
    assert_eq!(read_all(&plain), (0, 0, 0));
    let clock_seconds = annotate_all(&lichess);
    eprintln!(
        "{} comments, {} bytes, clocks summing to {clock_seconds} s",
        lichess.len(),
        lichess.iter().map(|c| c.len()).sum::<usize>()
    );

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("comments");
    group.throughput(Throughput::Elements(lichess.len() as u64));
    group.bench_function("read_commands/lichess", |b| {
        b.iter(|| read_all(black_box(&lichess)))
    });
    group.bench_function("MoveAnnotations::read/lichess", |b| {
        b.iter(|| annotate_all(black_box(&lichess)))
    });
    group.bench_function("read_commands/no_command", |b| {
        b.iter(|| read_all(black_box(&plain)))
    });
    group.finish();
    c.final_summary();
}
