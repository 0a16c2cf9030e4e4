//! Replay benchmarks: one game replayed (parse + SAN resolution + repetition + classification),
//! and `export`'s whole per-game work on a slice of a corpus held in memory (split, parse, replay,
//! classify, format JSON Lines), so that the cost per game is visible without I/O or threads.
//!
//! Run with `cargo bench --bench replay`. The data is `corpora/pgnmentor-players/Kasparov.pgn` in
//! the shared test data (`ARBITER_TESTDATA`, else `../shared/testdata`). Each benchmark checks its
//! answer (plies replayed, records written).

use std::hint::black_box;
use std::path::PathBuf;

use arbiter::core::{ReplayOptions, Replayer};
use arbiter::pgn::{RawGame, Splitter, parse_game};
use arbiter::report::record::{ColumnSet, ExportRecord, RecordFormatter};
use arbiter::report::{ExportFormat, GameNumber, Output};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Games in the in-memory export slice.
const SLICE_GAMES: usize = 1000;

fn data_dir() -> PathBuf {
    std::env::var_os("ARBITER_TESTDATA").map_or_else(
        || arbiter_test_support::workspace_root().join("../shared/testdata"),
        PathBuf::from,
    )
}

fn corpus() -> Vec<u8> {
    let path = data_dir().join("corpora/pgnmentor-players/Kasparov.pgn");
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The first `n` games of `bytes`, as the splitter cuts them.
fn raw_games(bytes: &[u8], n: usize) -> Vec<RawGame> {
    Splitter::new(bytes)
        .take(n)
        .map(|game| game.expect("in-memory read"))
        .collect()
}

fn export_options() -> ReplayOptions {
    ReplayOptions::default()
}

fn bench_one_game(c: &mut Criterion) {
    let bytes = corpus();
    // A long, ordinary game: the longest of the first hundred.
    let game = raw_games(&bytes, 100)
        .into_iter()
        .max_by_key(|g| g.bytes.len())
        .expect("games");
    let mut replayer = Replayer::new(export_options());
    parse_game(&game, &mut replayer);
    let plies = replayer.report().plies;
    assert!(replayer.report().main_line_valid && plies > 60, "{plies}");
    let mut group = c.benchmark_group("replay one game");
    group.throughput(Throughput::Elements(u64::from(plies)));
    group.bench_function(format!("main line, {plies} plies"), |b| {
        b.iter(|| {
            parse_game(black_box(&game), &mut replayer);
            assert_eq!(replayer.report().plies, plies);
        });
    });
    let mut validating = Replayer::new(ReplayOptions {
        clock_checks: true,
        ..export_options()
    });
    group.bench_function(format!("clocks checked, {plies} plies"), |b| {
        b.iter(|| {
            parse_game(black_box(&game), &mut validating);
            assert_eq!(validating.report().plies, plies);
        });
    });
    group.finish();
}

fn bench_export_slice(c: &mut Criterion) {
    let bytes = corpus();
    let slice_len = {
        let games = raw_games(&bytes, SLICE_GAMES);
        assert_eq!(games.len(), SLICE_GAMES);
        games.iter().map(|g| g.bytes.len()).sum::<usize>()
    };
    let mut group = c.benchmark_group("export in memory");
    group.throughput(Throughput::Elements(SLICE_GAMES as u64));
    group.sample_size(20);
    let mut replayer = Replayer::new(export_options());
    let mut formatter = RecordFormatter::new(ExportFormat::Jsonl, ColumnSet::default(), &[]);
    let mut out = Output::default();
    let mut game = RawGame::default();
    group.bench_function(
        format!("{SLICE_GAMES} games, jsonl ({slice_len} bytes)"),
        |b| {
            b.iter(|| {
                out.clear();
                let mut splitter = Splitter::new(black_box(&bytes[..]));
                let mut index = 0;
                while index < SLICE_GAMES && splitter.next_into(&mut game).expect("read") {
                    index += 1;
                    parse_game(&game, &mut replayer);
                    let number = GameNumber::Known {
                        run: index as u64,
                        input: index as u64,
                    };
                    formatter.record(
                        &ExportRecord::from_report("bench.pgn", number, replayer.report()),
                        &mut out,
                    );
                }
                assert_eq!(memchr_count(out.bytes()), SLICE_GAMES);
            });
        },
    );
    group.finish();
}

fn memchr_count(out: &[u8]) -> usize {
    out.iter().filter(|&&b| b == b'\n').count()
}

criterion_group!(benches, bench_one_game, bench_export_slice);
criterion_main!(benches);
