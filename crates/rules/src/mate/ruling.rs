//! One position judged for both sides at a bounded cost: the ruling `export` and `validate` give
//! on every game's final position (can White mate, can Black mate, is it dead).
//!
//! Each side goes through the stages of [`Solver::judge`] (the board, material, the
//! locked-position proof, one move ahead, the dives, the search) and stops at the first that
//! decides it. Every "yes" carries a helpmate line that was replayed to mate, every "no" is a
//! proof; `None` means the budget ran out first. The budget counts the positions the dives and
//! the search visit, for the two sides together: White's may use up to half of it, Black's what
//! White left.

use crate::mate::{MateLimits, Solver, Tier};
use crate::position::Position;
use crate::types::Color;

/// The ruling on one position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Whether White and Black (in [`Color::index`] order) can still mate: `Some(true)` proved
    /// by a helpmate line, `Some(false)` proved impossible, `None` not decided within the
    /// budget.
    pub can_mate: [Option<bool>; 2],
    /// The stage that decided each side (for an undecided side, [`Tier::Search`]).
    pub tiers: [Tier; 2],
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

    /// When `side` is proved unable to mate, the proof in words ([`Tier::proof`]).
    pub fn cannot_mate_proof(&self, side: Color) -> Option<&'static str> {
        self.cannot_mate(side)
            .then(|| self.tiers[side.index()].proof())
    }

    /// The dearest stage either side needed.
    pub fn tier(&self) -> Tier {
        self.tiers[0].max(self.tiers[1])
    }
}

/// Judges `pos` for both sides, the searches expanding at most `budget` positions in all
/// (0: no search; only the static proofs decide).
pub fn rule(pos: &Position, budget: u64) -> Ruling {
    Solver::new().rule(pos, budget)
}

impl Solver {
    /// [`rule`], with this solver's working memory.
    pub fn rule(&mut self, pos: &Position, budget: u64) -> Ruling {
        let mut ruling = Ruling {
            can_mate: [None; 2],
            tiers: [Tier::Search; 2],
            nodes: 0,
        };
        for side in Color::ALL {
            let left = budget - ruling.nodes;
            let nodes = match side {
                Color::White => left.div_ceil(2),
                Color::Black => left,
            };
            let verdict = self.judge(pos, side, &MateLimits { nodes });
            ruling.nodes += verdict.nodes;
            ruling.can_mate[side.index()] = verdict.answer.known();
            ruling.tiers[side.index()] = verdict.tier;
        }
        ruling
    }
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
        assert_eq!(mated.tier(), Tier::Over);
        let stalemate = rule(&fen("k7/P7/K7/8/8/8/8/8 b - - 0 1"), 0);
        assert!(stalemate.dead());
    }

    #[test]
    fn static_proofs_need_no_budget() {
        let wall = rule(&fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1"), 0);
        assert!(wall.dead());
        assert_eq!((wall.tier(), wall.nodes), (Tier::Blocked, 0));
        let bare = rule(&fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), 0);
        assert_eq!(bare.can_mate, [None, Some(false)]);
        assert_eq!(bare.tiers[1], Tier::Material);
    }

    #[test]
    fn the_search_decides_within_the_budget() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let ruling = rule(&pos, 20_000);
        assert_eq!(ruling.can_mate, [Some(true), Some(false)]);
        assert!(ruling.tiers[0] >= Tier::Dive);
        assert!(ruling.nodes > 0 && ruling.nodes <= 20_000);
        let start = Position::startpos();
        let tiny = rule(&start, 2);
        assert_eq!(tiny.can_mate, [None, None]);
        assert!(tiny.nodes <= 2);
    }

    /// Final positions of real games (lichess16.pgn) with plenty of material on both sides: a
    /// dive or the first few dozen positions of the search reach a helpmate.
    #[test]
    fn full_boards_are_decided_quickly() {
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
            assert!(ruling.tiers[side.index()] <= Tier::Quick, "{fen_text}");
        }
    }
}
