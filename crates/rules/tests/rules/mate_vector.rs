//! The unwinnability test vectors (`unwinnable/test-vector.txt` in the shared test data): every
//! side of every position is decided by `can_mate`, and every decided side must agree with the
//! file; every "yes" must carry a line that replays, through our own move generator, to mate.

use std::time::Instant;

use arbiter_rules::mate::replays_to_mate;
use arbiter_rules::{CanMate, Color, MateLimits, Position, can_mate};

/// How many of the 3,606 sides must be decided, in a release build, with [`NODES`] positions
/// per side: all the search decides, which is deterministic (the best-first search alone, before
/// the dives and the exhaustive walk, decided 3,538 with 120,000).
const MIN_DECIDED: usize = 3_548;

/// Positions per side in a release build: a fifth of the default, so that the test takes some
/// fifteen seconds (the undecided sides spend it all). `bench/rulings.sh` runs the default.
const NODES: u64 = 200_000;

/// A debug build is some twenty times slower: it takes every `DEBUG_STEP`-th position only, with
/// `DEBUG_NODES` positions per side, and must decide `DEBUG_MIN_PERCENT` % of those sides.
const DEBUG_STEP: usize = 8;
const DEBUG_NODES: u64 = 20_000;
const DEBUG_MIN_PERCENT: usize = 88;

#[test]
fn mate_vector() {
    let Some(text) = crate::data::read("unwinnable/test-vector.txt") else {
        return;
    };
    let debug = cfg!(debug_assertions);
    let limits = MateLimits {
        nodes: if debug { DEBUG_NODES } else { NODES },
    };
    let mut positions = 0usize;
    let (mut sides, mut decided, mut yes, mut no) = (0usize, 0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    let mut undecided = Vec::new();
    let start = Instant::now();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        positions += 1;
        if debug && positions % DEBUG_STEP != 1 {
            continue;
        }
        let (class, fen) = line.split_at(2);
        // Some lines give only placement and side to move.
        let mut fen = fen.trim().to_owned();
        if fen.split_ascii_whitespace().count() == 2 {
            fen.push_str(" - -");
        }
        let pos = Position::from_fen_lenient(&fen)
            .unwrap_or_else(|err| panic!("line {}: {fen}: {err}", number + 1));
        for (side, expected) in [
            (Color::White, class.as_bytes()[0] == b'W'),
            (Color::Black, class.as_bytes()[1] == b'B'),
        ] {
            sides += 1;
            let answer = can_mate(&pos, side, &limits);
            if let CanMate::Yes(moves) = &answer {
                assert!(
                    replays_to_mate(&pos, side, moves),
                    "line {}: {side} helpmate {moves:?} does not replay to mate",
                    number + 1
                );
            }
            match answer.known() {
                Some(got) => {
                    decided += 1;
                    if got {
                        yes += 1;
                    } else {
                        no += 1;
                    }
                    if got != expected {
                        disagreements.push(format!(
                            "line {}: {side} expected {expected}, got {got}: {fen}",
                            number + 1
                        ));
                    }
                }
                None => undecided.push(format!("line {}: {side} ({class}): {fen}", number + 1)),
            }
        }
    }
    let elapsed = start.elapsed();
    for u in &undecided {
        eprintln!("undecided {u}");
    }
    eprintln!(
        "mate vector: {sides} sides, {decided} decided ({yes} yes, {no} no), {} undecided, {} disagreements, {:.2?}",
        undecided.len(),
        disagreements.len(),
        elapsed
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert_eq!(positions, 1_803);
    if debug {
        assert!(
            decided * 100 >= sides * DEBUG_MIN_PERCENT,
            "only {decided} of {sides} sides decided"
        );
    } else {
        assert_eq!(sides, 3_606);
        assert!(
            decided >= MIN_DECIDED,
            "only {decided} of {sides} sides decided"
        );
    }
}
