//! Can a side still checkmate (FIDE Laws 5.2.2 and 6.9)? A position is *dead* when neither side
//! can mate by any series of legal moves; a player whose flag falls loses only if the opponent
//! can still mate.
//!
//! [`can_mate`] answers per side, soundly: [`CanMate::Yes`] carries a helpmate line (both sides
//! cooperating) that replays to mate, [`CanMate::No`] comes only from a proof, and
//! [`CanMate::Unknown`] when the node budget ran out first. The work goes from cheap to dear:
//!
//! 1. material facts ([`statics`]): a lone king, a lone knight against a king and queens,
//!    bishops all on one colour with no knights or pawns on the board;
//! 2. locked positions ([`locked`]): pawns that never leave their file, kings and pieces that
//!    can never move, the squares every other unit can ever reach behind them, and the proof
//!    that the side can never check, or never without leaving the king a flight;
//! 3. the helpmate search ([`search`]): a best-first walk of the reachable positions, guided
//!    toward mates, that either finds a line or proves, by visiting every reachable position,
//!    that none exists.
//!
//! [`rule`] judges a position for both sides under one node budget (the ruling `export` gives
//! every game's final position), reporting which stage decided.
//!
//! [`certainly_not_dead`] is the cheap filter for archives: `true` only when some side can
//! provably mate, by an argument that needs no search.
//!
//! ```
//! use arbiter_rules::Position;
//! use arbiter_rules::mate::{CanMate, MateLimits, can_mate, is_dead};
//! use arbiter_rules::Color;
//!
//! // Locked pawns, kings on either side of the wall.
//! let pos = Position::from_fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1").unwrap();
//! assert_eq!(can_mate(&pos, Color::White, &MateLimits::default()), CanMate::No);
//! assert_eq!(is_dead(&pos, &MateLimits::default()), Some(true));
//!
//! // A rook can mate: the answer carries a line that proves it.
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
//! assert!(matches!(can_mate(&pos, Color::White, &MateLimits::default()), CanMate::Yes(_)));
//! ```

pub mod filter;
mod keys;
pub mod locked;
mod queue;
pub mod ruling;
pub mod search;
pub mod statics;

use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;

pub use filter::certainly_not_dead;
pub use locked::{cannot_check, cannot_mate_locked};
pub use ruling::{Ruling, Stage, rule};
pub use statics::material_cannot_mate;

/// Whether a side can still checkmate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CanMate {
    /// Yes: a helpmate line from the position (both sides' moves, starting with the side to
    /// move) that ends in the other side being checkmated. Empty when it already is.
    Yes(Vec<Move>),
    /// No, proved: no series of legal moves ends in a mate by this side.
    No,
    /// The node budget ran out before either answer.
    Unknown,
}

impl CanMate {
    /// `Some(true)` for yes, `Some(false)` for no, `None` when unknown.
    pub fn known(&self) -> Option<bool> {
        match self {
            CanMate::Yes(_) => Some(true),
            CanMate::No => Some(false),
            CanMate::Unknown => None,
        }
    }
}

/// How much work [`can_mate`] may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateLimits {
    /// Positions the searches may visit, per side.
    pub nodes: u64,
}

impl Default for MateLimits {
    /// 120,000 positions expanded per side: at most about 0.2 s and some 55 MB in a release
    /// build, on the hardest positions; most answers come in well under a millisecond.
    fn default() -> MateLimits {
        MateLimits { nodes: 120_000 }
    }
}

/// The cheap per-side check: whether `side` provably cannot mate by the static rules alone
/// (material, then the locked-position proof), without any search. `false` means "not
/// proved". Answers "no mate" wherever [`can_mate`] would without searching.
pub fn cannot_mate_quick(pos: &Position, side: Color) -> bool {
    material_cannot_mate(pos, side) || cannot_mate_locked(pos, side)
}

/// Whether `side` can still checkmate its opponent from `pos` by some series of legal moves.
pub fn can_mate(pos: &Position, side: Color, limits: &MateLimits) -> CanMate {
    if !pos.has_legal_moves() {
        // The game is over: mated already (by `side`, if the side to move is the other one),
        // or stalemate.
        let mated = pos.is_check() && pos.turn() != side;
        return if mated {
            CanMate::Yes(Vec::new())
        } else {
            CanMate::No
        };
    }
    if cannot_mate_quick(pos, side) {
        return CanMate::No;
    }
    match search::search(pos, side, limits.nodes).0 {
        search::Found::Mate(line) => verified(pos, side, line),
        search::Found::None => CanMate::No,
        search::Found::Unknown => CanMate::Unknown,
    }
}

/// `Yes(line)` if `line` replays legally from `pos` to a mate of `side`'s opponent, else
/// `Unknown` (a guard against a Zobrist collision in the searches).
fn verified(pos: &Position, side: Color, line: Vec<Move>) -> CanMate {
    if replays_to_mate(pos, side, &line) {
        CanMate::Yes(line)
    } else {
        CanMate::Unknown
    }
}

/// Whether `line` is a series of legal moves from `pos` ending in checkmate of `side`'s
/// opponent.
pub fn replays_to_mate(pos: &Position, side: Color, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    for &mv in line {
        if !pos.legal_moves().contains(&mv) {
            return false;
        }
        pos.play_unchecked(mv);
    }
    pos.turn() != side && pos.is_checkmate()
}

/// Whether `pos` is dead: `Some(true)` only when neither side can mate (both proved),
/// `Some(false)` when some side can (a line found), `None` when undecided.
pub fn is_dead(pos: &Position, limits: &MateLimits) -> Option<bool> {
    if certainly_not_dead(pos) {
        return Some(false);
    }
    let white = can_mate(pos, Color::White, limits).known();
    if white == Some(true) {
        return Some(false);
    }
    let black = can_mate(pos, Color::Black, limits).known();
    match (white, black) {
        (_, Some(true)) => Some(false),
        (Some(false), Some(false)) => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn a_mate_on_the_board_is_yes_with_an_empty_line() {
        let pos = fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(
            can_mate(&pos, Color::White, &MateLimits::default()),
            CanMate::Yes(Vec::new())
        );
        assert_eq!(
            can_mate(&pos, Color::Black, &MateLimits::default()),
            CanMate::No
        );
    }

    #[test]
    fn stalemate_is_dead() {
        let pos = fen("k7/P7/K7/8/8/8/8/8 b - - 0 1");
        assert_eq!(is_dead(&pos, &MateLimits::default()), Some(true));
    }

    #[test]
    fn yes_lines_replay() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
        let CanMate::Yes(line) = can_mate(&pos, Color::White, &MateLimits::default()) else {
            panic!("expected a line");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
        assert!(!replays_to_mate(&pos, Color::Black, &line));
    }

    #[test]
    fn a_tiny_budget_gives_unknown() {
        let pos = Position::startpos();
        assert_eq!(
            can_mate(&pos, Color::White, &MateLimits { nodes: 1 }),
            CanMate::Unknown
        );
    }
}
