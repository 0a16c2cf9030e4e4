//! The quick "has any legal move" test (king steps first, then only captures of a single checker
//! and blocks) against the general rule, `legal_moves().is_empty()`, on every position of the
//! perft suites, their children and grandchildren, and random games played from each of them
//! to their end (where the mates and stalemates are).

use arbiter_rules::Position;

use crate::perft::{SUITES, suite_positions};

/// Checks one position; returns whether it is a mate or a stalemate.
fn check(pos: &Position, source: &str) -> bool {
    let stuck = pos.legal_moves().is_empty();
    assert_eq!(pos.has_legal_moves(), !stuck, "{source}: {}", pos.to_fen());
    assert_eq!(
        pos.is_checkmate(),
        stuck && pos.is_check(),
        "{source}: {}",
        pos.to_fen()
    );
    assert_eq!(
        pos.is_stalemate(),
        stuck && !pos.is_check(),
        "{source}: {}",
        pos.to_fen()
    );
    stuck
}

#[test]
fn has_legal_moves_is_the_general_rule() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let (mut positions, mut ends) = (0u64, 0u64);
    for file in SUITES {
        let Some(suite) = suite_positions(file) else {
            return;
        };
        for (source, start) in &suite {
            for mv in start.legal_moves().iter() {
                let mut child = start.clone();
                child.play_unchecked(*mv);
                // Grandchildren too in release builds (a debug build would take minutes).
                let grandchildren = if cfg!(debug_assertions) {
                    Default::default()
                } else {
                    child.legal_moves()
                };
                for mv in grandchildren.iter() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(*mv);
                    check(&grandchild, source);
                    positions += 1;
                }
                check(&child, source);
            }
            let mut pos = start.clone();
            for _ in 0..300 {
                positions += 1;
                if check(&pos, source) {
                    ends += 1;
                    break;
                }
                let moves = pos.legal_moves();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
    eprintln!("{positions} positions, {ends} random games ended on the board");
    assert!(
        ends > 100,
        "only {ends} random games reached a mate or stalemate"
    );
}
