//! One position judged for both sides at a bounded cost: the ruling `export` and `validate` give
//! on every game's final position (can White mate, can Black mate, is it dead).
//!
//! The stages go from cheap to dear, and each side stops at the first that decides it:
//!
//! 1. *over*: no legal move: the side to move is mated (its opponent "can mate", with the empty
//!    line) or stalemated (neither can);
//! 2. *material* ([`material_cannot_mate`]): the side has too little to mate, for ever;
//! 3. *locked* ([`cannot_mate_locked`]): asked here only when every pawn stands head-on against
//!    an enemy pawn (a wall: the proof is dear, and it rarely succeeds on other shapes, which
//!    the search's own use of it covers);
//! 4. *search* ([`search`]): the helpmate search, with what is left of the position's budget.
//!
//! Every "yes" carries a helpmate line that was replayed to mate, every "no" is a proof; `None`
//! means the budget ran out first. The budget counts positions expanded by the search, for the
//! two sides together: White's search may use up to half of it, Black's what White left. No
//! state survives from one call to the next, so memory is bounded by one position's search.

use crate::mate::search::{self, Found};
use crate::mate::{cannot_mate_locked, material_cannot_mate, replays_to_mate};
use crate::position::Position;
use crate::types::{Color, Role};

/// The dearest stage a ruling needed, for either side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The game is over on the board (checkmate or stalemate).
    Over,
    /// Material alone decided (both sides, or one side with the other by material too).
    Material,
    /// The locked-position proof decided a side.
    Locked,
    /// The helpmate search ran for a side (whether or not it decided).
    Search,
}

/// The ruling on one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Whether White and Black (in [`Color::index`] order) can still mate: `Some(true)` proved
    /// by a helpmate line, `Some(false)` proved impossible, `None` not decided within the
    /// budget.
    pub can_mate: [Option<bool>; 2],
    /// The dearest stage reached.
    pub stage: Stage,
    /// Positions the searches expanded.
    pub nodes: u64,
}

impl Ruling {
    /// Whether the position is proved dead: neither side can mate.
    pub fn dead(&self) -> bool {
        self.can_mate == [Some(false), Some(false)]
    }

    /// Whether `side` is proved unable to mate.
    pub fn cannot_mate(&self, side: Color) -> bool {
        self.can_mate[side.index()] == Some(false)
    }
}

/// Judges `pos` for both sides, the searches expanding at most `budget` positions in all
/// (0: no search; only the static proofs decide).
pub fn rule(pos: &Position, budget: u64) -> Ruling {
    if !pos.has_legal_moves() {
        let mut can_mate = [Some(false); 2];
        if pos.is_check() {
            can_mate[(!pos.turn()).index()] = Some(true);
        }
        return Ruling {
            can_mate,
            stage: Stage::Over,
            nodes: 0,
        };
    }
    let mut ruling = Ruling {
        can_mate: [None; 2],
        stage: Stage::Material,
        nodes: 0,
    };
    let mut open = [false; 2];
    for side in Color::ALL {
        if material_cannot_mate(pos, side) {
            ruling.can_mate[side.index()] = Some(false);
        } else if walled(pos) && cannot_mate_locked(pos, side) {
            ruling.can_mate[side.index()] = Some(false);
            ruling.stage = ruling.stage.max(Stage::Locked);
        } else {
            open[side.index()] = true;
        }
    }
    for side in Color::ALL {
        if !open[side.index()] || budget == 0 {
            continue;
        }
        ruling.stage = Stage::Search;
        let left = budget - ruling.nodes;
        let limit = match side {
            Color::White => left.div_ceil(2),
            Color::Black => left,
        };
        let (found, expanded) = search::search(pos, side, limit);
        ruling.nodes += expanded;
        ruling.can_mate[side.index()] = match found {
            Found::Mate(line) => replays_to_mate(pos, side, &line).then_some(true),
            Found::None => Some(false),
            Found::Unknown => None,
        };
    }
    ruling
}

/// Whether pawns of both colours stand, each of them, head-on against an enemy pawn: the shape
/// of the locked walls that make dead positions in real games, and the only one where the
/// locked-position proof is asked before the search (it is dear, and elsewhere it rarely
/// succeeds; the search asks it again where pawns lock). A few instructions.
fn walled(pos: &Position) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let white = pawns & pos.by_color(Color::White);
    let black = pawns & pos.by_color(Color::Black);
    white.any() && white.shift(8) == black
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn over_on_the_board() {
        let mated = rule(&fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), 0);
        assert_eq!(mated.can_mate, [Some(true), Some(false)]);
        assert_eq!(mated.stage, Stage::Over);
        let stalemate = rule(&fen("k7/P7/K7/8/8/8/8/8 b - - 0 1"), 0);
        assert!(stalemate.dead());
    }

    #[test]
    fn static_proofs_need_no_budget() {
        let wall = rule(&fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"), 0);
        assert!(wall.dead());
        assert_eq!((wall.stage, wall.nodes), (Stage::Locked, 0));
        let bare = rule(&fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), 0);
        assert_eq!(bare.can_mate, [None, Some(false)]);
        assert_eq!(bare.stage, Stage::Material);
    }

    #[test]
    fn the_search_decides_within_the_budget() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let ruling = rule(&pos, 20_000);
        assert_eq!(ruling.can_mate, [Some(true), Some(false)]);
        assert_eq!(ruling.stage, Stage::Search);
        assert!(ruling.nodes > 0 && ruling.nodes <= 20_000);
        let start = Position::startpos();
        let tiny = rule(&start, 2);
        assert_eq!(tiny.can_mate, [None, None]);
        assert!(tiny.nodes <= 2);
    }

    /// Final positions of real games (lichess16.pgn) with plenty of material on both sides: the
    /// search reaches a helpmate within export's budget of 1,000 positions by having the loser
    /// shed its men first (with the weights before, 3 a piece and 4 a pawn, both were left
    /// undecided).
    #[test]
    fn full_boards_are_decided_within_a_small_budget() {
        for (fen_text, side) in [
            (
                "r2qkbnr/ppp2ppp/4p3/5b2/1n1Pp3/1PN5/PBP2PPP/2RQKBNR w Kkq - 0 7",
                Color::White,
            ),
            (
                "4r1k1/1p4bp/pB4p1/3p1p2/8/1P5P/P2Q1PP1/4R1K1 b - - 0 31",
                Color::Black,
            ),
        ] {
            let ruling = rule(&fen(fen_text), 1_000);
            assert_eq!(ruling.can_mate[side.index()], Some(true), "{fen_text}");
        }
    }
}
