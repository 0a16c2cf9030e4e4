//! Can a side still checkmate (FIDE Laws 5.2.2 and 6.9)? A position is *dead* when neither side
//! can mate by any series of legal moves; a player whose flag falls loses only if the opponent
//! can still mate.
//!
//! [`can_mate`] answers per side, soundly: [`CanMate::Yes`] carries a helpmate line (both sides
//! cooperating) that replays to mate, [`CanMate::No`] comes only from a proof, and
//! [`CanMate::Unknown`] when the node limit ran out first. [`judge`] says which stage decided
//! ([`Tier`]); a [`Solver`] keeps the working memory from one position to the next. The work
//! goes from cheap to dear, each side stopping at the first stage that decides it:
//!
//! 1. the board: a checkmate or a stalemate;
//! 2. material facts ([`statics`]): a lone king, a lone knight against a king and queens,
//!    bishops all on one colour with no knights or pawns on the board;
//! 3. locked positions ([`locked`]): pawns that never leave their file, kings and pieces that
//!    can never move, the squares every other unit can ever reach behind them, and the proof
//!    that the side can never check, or never without leaving the king a flight;
//! 4. one move ahead ([`lookahead`]): every legal move leaves the game over or the side without
//!    mating material;
//! 5. the probe (a private module, `probe`): a few short mates planned backwards from the
//!    loser's king (a winner's man that can check it within two moves, the king's open squares
//!    filled by the loser's men), each played move by move, kept only if it ends in mate;
//! 6. three greedy dives: one line of play each, by a simple rule, tested for a plain mate in one
//!    at every move of the winner (most positions of real games are decided here, in
//!    microseconds);
//! 7. the search: a best-first walk of the reachable positions guided toward mates, then an
//!    exhaustive depth-first walk that either meets a mate or proves, by visiting every
//!    reachable position, that none exists, and last a walk aimed at one planned mate
//!    (a private module, `aim`), which can only find one.
//!
//! [`rule`] judges a position for both sides under one node budget (the ruling `export` gives
//! every game's final position); [`Solver::rule_for`] only the sides a game's verdict reads
//! ([`Wanted::Verdict`]: `validate`'s).
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

mod aim;
mod checks;
mod dive;
mod exhaust;
mod facts;
pub mod filter;
mod guide;
mod keys;
pub mod locked;
pub mod lookahead;
mod mirror;
mod probe;
mod queue;
pub mod ruling;
mod search;
pub mod shorten;
mod solver;
pub mod statics;

use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;

pub use filter::certainly_not_dead;
pub use locked::{cannot_check, cannot_mate_locked};
pub use lookahead::cannot_mate_after_any_move;
pub use ruling::{OnBoard, Ruling, Wanted, rule};
pub use shorten::shortened;
pub use solver::Solver;
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
    /// 1,000,000 positions per side: some seconds at most, and under 100 MB, on the hardest
    /// positions known (none of the real games' final positions measured needs a fifth of it);
    /// most answers come in some microseconds.
    fn default() -> MateLimits {
        MateLimits { nodes: 1_000_000 }
    }
}

/// Which stage decided a side: the proof behind a "cannot mate", the work that found a "can
/// mate" line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// The game is over on the board: a checkmate (by the side, or of it) or a stalemate.
    Over,
    /// The material on the board ([`material_cannot_mate`]).
    Material,
    /// A blocked position: the locked-position proof ([`cannot_mate_locked`]), at once where
    /// many pawns are blocked, else after the search's first stage did not decide.
    Blocked,
    /// One move ahead: every legal move leaves the position over, or the side without mating
    /// material ([`cannot_mate_after_any_move`]).
    LookAhead,
    /// The probe: a short mate planned backwards from the loser's king, played to mate.
    Probe,
    /// The greedy dive: one line of play that ends in a mate.
    Dive,
    /// The first [`QUICK_NODES`] positions of the search: a helpmate found, or (rarely) every
    /// reachable position visited.
    Quick,
    /// The rest of the search: a helpmate found, or every reachable position visited without
    /// one; or, when undecided, the search's node limit reached.
    Search,
}

impl Tier {
    /// The stage's name in output: `over`, `material`, `blocked`, `look_ahead`, `probe`,
    /// `dive`, `quick`, `search`.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Over => "over",
            Tier::Material => "material",
            Tier::Blocked => "blocked",
            Tier::LookAhead => "look_ahead",
            Tier::Probe => "probe",
            Tier::Dive => "dive",
            Tier::Quick => "quick",
            Tier::Search => "search",
        }
    }

    /// The proof behind a "cannot mate" this stage gave, in words: `too little material`,
    /// `a blocked position`, `no position it can reach is a mate`...
    pub fn proof(self) -> &'static str {
        match self {
            Tier::Over => "the game is over",
            Tier::Material => "too little material",
            Tier::Blocked => "a blocked position",
            Tier::LookAhead => "every legal move leaves too little material or ends the game",
            Tier::Probe | Tier::Dive | Tier::Quick | Tier::Search => {
                "no position it can reach is a mate"
            }
        }
    }
}

/// Positions the search may expand and still count as [`Tier::Quick`]: its greedy dive, a few
/// dozen positions.
pub const QUICK_NODES: u64 = 64;

/// A side's answer, with the stage that gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The answer.
    pub answer: CanMate,
    /// The stage that decided it (for [`CanMate::Unknown`], [`Tier::Search`]).
    pub tier: Tier,
    /// Positions the search expanded.
    pub nodes: u64,
}

/// Whether `side` can still checkmate its opponent from `pos`, and which stage decided it.
/// (For many positions, [`Solver::judge`] keeps its working memory from one to the next.)
pub fn judge(pos: &Position, side: Color, limits: &MateLimits) -> Verdict {
    Solver::new().judge(pos, side, limits)
}

/// Whether `side` can still checkmate its opponent from `pos` by some series of legal moves.
pub fn can_mate(pos: &Position, side: Color, limits: &MateLimits) -> CanMate {
    judge(pos, side, limits).answer
}

/// Whether `line` is a series of legal moves from `pos` ending in checkmate of `side`'s
/// opponent.
pub fn replays_to_mate(pos: &Position, side: Color, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    for &mv in line {
        if !pos.is_legal(mv) {
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

/// Every position along random games, for tests: `games` games of at most `plies` plies from
/// each of `starts`, each move drawn by a xorshift from `seed` (kept from game to game); `visit`
/// sees each position and its legal moves before the move is drawn. A position without a
/// legal move ends its game.
#[cfg(test)]
pub(crate) fn along_random_games(
    starts: &[&str],
    games: usize,
    plies: usize,
    mut seed: u64,
    mut visit: impl FnMut(&Position, &crate::moves::MoveList),
) {
    for start in starts {
        for _ in 0..games {
            let mut pos = Position::from_fen_lenient(start).expect("a start position");
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                visit(&pos, &moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
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
        assert_eq!(
            can_mate(&pos, Color::White, &MateLimits { nodes: 0 }),
            CanMate::Unknown
        );
    }
}
