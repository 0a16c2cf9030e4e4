//! The rulings on real final positions: the final position of every game of
//! `corpora/pgnmentor-players/*.pgn` (replayed with the crate's own reader), ruled for both
//! sides as export rules them ([`Solver::rule`] under the default budget): which stage decided
//! how many sides and what each cost, then criterion's timing of the rulings of a sample.
//!
//! Run with `cargo bench --bench mate`. The data comes from the shared test data
//! (`ARBITER_TESTDATA`, else `../shared/testdata`).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use arbiter::core::replay::DEFAULT_RULINGS_BUDGET;
use arbiter::core::{ReplayOptions, Replayer};
use arbiter::pgn::{Splitter, parse_game};
use arbiter::rules::mate::{Solver, Tier};
use arbiter::rules::{Color, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Final positions given to criterion.
const SAMPLE: usize = 2_000;

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
    let mut replayer = Replayer::new(ReplayOptions {
        rulings_budget: 0,
        ..ReplayOptions::default()
    });
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

fn bench_rulings(c: &mut Criterion) {
    let positions = final_positions();
    assert!(positions.len() > 1000, "{} positions", positions.len());
    // The tier table: sides decided by each stage, and the time they took.
    let mut solver = Solver::new();
    let mut tiers: BTreeMap<Tier, (usize, Duration)> = BTreeMap::new();
    let mut undecided = 0;
    let start = Instant::now();
    for pos in &positions {
        let t = Instant::now();
        let ruling = solver.rule(pos, DEFAULT_RULINGS_BUDGET);
        let spent = t.elapsed() / 2;
        for side in Color::ALL {
            let entry = tiers.entry(ruling.tiers[side.index()]).or_default();
            entry.0 += 1;
            entry.1 += spent;
            undecided += usize::from(ruling.can_mate[side.index()].is_none());
        }
    }
    eprintln!(
        "{} final positions ruled in {:.2} s ({:.1} µs a position), {undecided} sides undecided",
        positions.len(),
        start.elapsed().as_secs_f64(),
        1e6 * start.elapsed().as_secs_f64() / positions.len() as f64
    );
    for (tier, (sides, time)) in &tiers {
        eprintln!(
            "  {:<10} {sides:>6} sides  {:>9.1} µs a side",
            tier.name(),
            1e6 * time.as_secs_f64() / *sides as f64
        );
    }

    let sample: Vec<&Position> = positions.iter().take(SAMPLE).collect();
    let mut group = c.benchmark_group("rulings");
    group.throughput(Throughput::Elements(sample.len() as u64));
    group.bench_function(
        format!("both sides, {} final positions", sample.len()),
        |b| {
            b.iter(|| {
                for pos in &sample {
                    black_box(solver.rule(black_box(pos), DEFAULT_RULINGS_BUDGET));
                }
            });
        },
    );
    group.finish();
}

criterion_group!(benches, bench_rulings);
criterion_main!(benches);
