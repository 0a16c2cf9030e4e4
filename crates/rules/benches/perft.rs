//! Perft benchmarks: arbiter's rules core next to shakmaty on the same positions, so the
//! ratio is visible. Each benchmark asserts its node count.
//!
//! Run with `cargo bench --bench perft`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use arbiter_rules::{Position, perft};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn shakmaty_position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("fen")
        .into_position(CastlingMode::Chess960)
        .expect("position")
}

fn bench_perft(c: &mut Criterion) {
    for (name, fen, depth, nodes) in [
        ("startpos d5", STARTPOS, 5, 4_865_609),
        ("kiwipete d4", KIWIPETE, 4, 4_085_603),
    ] {
        let mut group = c.benchmark_group(name);
        let ours = Position::from_fen(fen).expect("fen");
        let theirs = shakmaty_position(fen);
        assert_eq!(perft(&ours, depth), nodes);
        assert_eq!(shakmaty::perft(&theirs, depth), nodes);
        group.bench_function("arbiter", |b| {
            b.iter(|| assert_eq!(perft(black_box(&ours), depth), nodes));
        });
        group.bench_function("shakmaty", |b| {
            b.iter(|| assert_eq!(shakmaty::perft(black_box(&theirs), depth), nodes));
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = bench_perft
}
criterion_main!(benches);
