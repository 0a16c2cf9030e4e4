//! SAN parse + resolve over the moves of real games, against shakmaty's
//! `San::from_ascii(..).to_move(..)`.
//!
//! Run with `cargo bench --bench san`. The data is the first 300 games of
//! `corpora/samples/twic1599_1000k.pgn` in the shared test data (`ARBITER_TESTDATA`, else
//! `../shared/testdata`); the movetext is split into SAN tokens by a crude tokenizer (comments,
//! variations, NAGs, move numbers and results dropped). After the criterion runs, the bench prints
//! the ratio of the two median-free mean times measured over the whole set.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use arbiter_rules::{Position, San};
use criterion::{Criterion, criterion_group};
use shakmaty::Position as _;

/// Every (position, SAN) pair of the games, for both libraries.
struct Corpus {
    ours: Vec<(Position, String)>,
    theirs: Vec<(shakmaty::Chess, String)>,
}

fn data_dir() -> PathBuf {
    std::env::var_os("ARBITER_TESTDATA").map_or_else(
        || arbiter_test_support::workspace_root().join("../shared/testdata"),
        PathBuf::from,
    )
}

/// The SAN tokens of each game's main line.
fn games(text: &str, limit: usize) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        if line.starts_with('[') {
            if !movetext.trim().is_empty() {
                games.push(tokens(&movetext));
                movetext.clear();
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    if !movetext.trim().is_empty() {
        games.push(tokens(&movetext));
    }
    games.truncate(limit);
    games
}

fn tokens(movetext: &str) -> Vec<String> {
    let mut clean = String::new();
    let (mut brace, mut paren) = (false, 0u32);
    for c in movetext.chars() {
        match c {
            '{' => brace = true,
            '}' => brace = false,
            '(' if !brace => paren += 1,
            ')' if !brace => paren = paren.saturating_sub(1),
            _ if brace || paren > 0 => {}
            '.' => clean.push(' '),
            _ => clean.push(c),
        }
    }
    clean
        .split_whitespace()
        .filter(|t| !t.starts_with('$') && !t.chars().all(|c| c.is_ascii_digit()))
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(str::to_string)
        .collect()
}

fn corpus() -> Corpus {
    let path = data_dir().join("corpora/samples/twic1599_1000k.pgn");
    let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let text = String::from_utf8_lossy(&bytes);
    let mut corpus = Corpus {
        ours: Vec::new(),
        theirs: Vec::new(),
    };
    for game in games(&text, 300) {
        let mut ours = Position::startpos();
        let mut theirs = shakmaty::Chess::default();
        for text in game {
            let Ok(san) = text.parse::<San>() else { break };
            let Ok(resolved) = san.resolve(&ours) else {
                break;
            };
            let Ok(their_move) = shakmaty::san::San::from_ascii(text.as_bytes())
                .map_err(|_| ())
                .and_then(|s| s.to_move(&theirs).map_err(|_| ()))
            else {
                break;
            };
            corpus.ours.push((ours.clone(), text.clone()));
            corpus.theirs.push((theirs.clone(), text));
            ours.play_unchecked(resolved.mv);
            theirs.play_unchecked(their_move);
        }
    }
    corpus
}

fn run_ours(corpus: &Corpus) -> usize {
    let mut ok = 0;
    for (pos, text) in &corpus.ours {
        if let Ok(san) = San::from_ascii(text.as_bytes())
            && san.resolve(pos).is_ok()
        {
            ok += 1;
        }
    }
    ok
}

fn run_theirs(corpus: &Corpus) -> usize {
    let mut ok = 0;
    for (pos, text) in &corpus.theirs {
        if let Ok(san) = shakmaty::san::San::from_ascii(text.as_bytes())
            && san.to_move(pos).is_ok()
        {
            ok += 1;
        }
    }
    ok
}

fn bench(c: &mut Criterion) {
    let corpus = corpus();
    assert!(corpus.ours.len() > 10_000, "{} moves", corpus.ours.len());
    assert_eq!(run_ours(&corpus), corpus.ours.len());
    assert_eq!(run_theirs(&corpus), corpus.theirs.len());
    let mut group = c.benchmark_group("san parse+resolve");
    group.bench_function("arbiter", |b| b.iter(|| run_ours(black_box(&corpus))));
    group.bench_function("shakmaty", |b| b.iter(|| run_theirs(black_box(&corpus))));
    group.finish();
}

/// Times both over the corpus (best of several rounds) and prints the ratio.
fn ratio() {
    let corpus = corpus();
    let best = |f: &dyn Fn(&Corpus) -> usize| {
        (0..15)
            .map(|_| {
                let start = Instant::now();
                black_box(f(black_box(&corpus)));
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let ours = best(&run_ours);
    let theirs = best(&run_theirs);
    let n = corpus.ours.len() as f64;
    println!(
        "{} moves: arbiter {:.1} ns/move, shakmaty {:.1} ns/move, arbiter/shakmaty time ratio {:.2}",
        corpus.ours.len(),
        ours / n * 1e9,
        theirs / n * 1e9,
        ours / theirs
    );
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratio();
}
