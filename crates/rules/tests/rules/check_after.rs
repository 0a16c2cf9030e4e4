//! The check test after a move (`Position::is_check_after`: the moved piece from where it landed,
//! a slider behind the square it left) against the full test (`Position::is_check`) on every
//! child and grandchild of the perft suites' positions: direct, discovered and double checks,
//! checks by promotion, by castling and by en passant captures.

use arbiter_rules::Position;

use crate::perft::{SUITES, suite_positions};

/// Plays `mv` in a copy of `pos` and compares the two tests; returns the position and whether
/// it is check.
fn play_and_compare(pos: &Position, mv: arbiter_rules::Move, source: &str) -> (Position, bool) {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let check = after.is_check();
    assert_eq!(
        after.is_check_after(mv),
        check,
        "{source}: {mv:?} from {}",
        pos.to_fen()
    );
    (after, check)
}

#[test]
fn the_check_after_a_move_is_the_full_check_test() {
    let (mut moves, mut checks) = (0u64, 0u64);
    for file in SUITES {
        let Some(suite) = suite_positions(file) else {
            return;
        };
        for (source, start) in &suite {
            for &mv in start.legal_moves().iter() {
                let (child, check) = play_and_compare(start, mv, source);
                moves += 1;
                checks += u64::from(check);
                for &mv in child.legal_moves().iter() {
                    let (_, check) = play_and_compare(&child, mv, source);
                    moves += 1;
                    checks += u64::from(check);
                }
            }
        }
    }
    eprintln!("{moves} moves, {checks} of them giving check");
    assert!(
        moves > 100_000 && checks > 5_000,
        "{moves} moves, {checks} checks"
    );
}
