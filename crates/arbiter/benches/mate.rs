//! The dead-position filter on real final positions: `certainly_not_dead` over the final
//! position of every game of `corpora/pgnmentor-players/*.pgn` (replayed with the crate's own
//! reader), how often it answers "don't know", and what the full decision (`is_dead`) costs on a
//! sample of those.
//!
//! Run with `cargo bench --bench mate`. The data comes from the shared test data
//! (`ARBITER_TESTDATA`, else `../shared/testdata`).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use arbiter::core::{ReplayOptions, Replayer};
use arbiter::pgn::{Splitter, parse_game};
use arbiter::rules::mate::{cannot_mate_quick, certainly_not_dead};
use arbiter::rules::{Color, MateLimits, Position, is_dead};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Final positions given to the full decision.
const SAMPLE: usize = 300;

fn data_dir() -> PathBuf {
    std::env::var_os("ARBITER_TESTDATA").map_or_else(
        || arbiter_test_support::workspace_root().join("../shared/testdata"),
        PathBuf::from,
    )
}

/// The final position of every game that replays without error.
fn final_positions() -> Vec<Position> {
    let dir = data_dir().join("corpora/pgnmentor-players");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    paths.sort();
    let mut replayer = Replayer::new(ReplayOptions::default());
    let mut positions = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        for game in Splitter::new(&bytes[..]) {
            parse_game(&game.expect("in-memory read"), &mut replayer);
            let report = replayer.report();
            if !report.main_line_valid {
                continue;
            }
            if let Ok(pos) = Position::from_fen(&report.final_fen) {
                positions.push(pos);
            }
        }
    }
    positions
}

fn bench_filter(c: &mut Criterion) {
    let positions = final_positions();
    assert!(positions.len() > 1000, "{} positions", positions.len());
    let unknown: Vec<&Position> = positions
        .iter()
        .filter(|p| !certainly_not_dead(p))
        .collect();
    eprintln!(
        "{} final positions; certainly_not_dead false on {} ({:.1} %)",
        positions.len(),
        unknown.len(),
        100.0 * unknown.len() as f64 / positions.len() as f64
    );

    // The quick per-side check on every position the filter leaves open.
    let start = Instant::now();
    let mut proved = [0usize; 2];
    for pos in &unknown {
        for (i, side) in [Color::White, Color::Black].into_iter().enumerate() {
            if cannot_mate_quick(pos, side) {
                proved[i] += 1;
            }
        }
    }
    eprintln!(
        "cannot_mate_quick on those, both sides: {:.2} µs per position; proved no mate for \
         White in {}, for Black in {}",
        1e6 * start.elapsed().as_secs_f64() / unknown.len().max(1) as f64,
        proved[0],
        proved[1]
    );

    // The full decision on a sample of the positions the filter leaves open.
    let step = (unknown.len() / SAMPLE).max(1);
    let sample: Vec<&Position> = unknown.iter().step_by(step).take(SAMPLE).copied().collect();
    let limits = MateLimits::default();
    let (mut dead, mut alive, mut open) = (0, 0, 0);
    let mut worst = 0.0f64;
    let start = Instant::now();
    for pos in &sample {
        let t = Instant::now();
        match is_dead(pos, &limits) {
            Some(true) => dead += 1,
            Some(false) => alive += 1,
            None => open += 1,
        }
        worst = worst.max(t.elapsed().as_secs_f64());
    }
    let total = start.elapsed().as_secs_f64();
    eprintln!(
        "is_dead on {} of them: {dead} dead, {alive} not dead, {open} undecided; \
         {:.1} µs each on average, {:.1} ms at worst",
        sample.len(),
        1e6 * total / sample.len().max(1) as f64,
        1e3 * worst
    );

    let mut group = c.benchmark_group("dead-position filter");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(
        format!("certainly_not_dead, {} final positions", positions.len()),
        |b| {
            b.iter(|| {
                black_box(&positions)
                    .iter()
                    .filter(|p| certainly_not_dead(p))
                    .count()
            });
        },
    );
    group.finish();
}

criterion_group!(benches, bench_filter);
criterion_main!(benches);
