//! One position judged for both sides at a bounded cost: the ruling `export` and `validate` give
//! on every game's final position (can White mate, can Black mate, is it dead).
//!
//! Each side goes through the stages of [`Solver::judge`] (the board, material, the
//! locked-position proof, one move ahead, the dives, the search) and stops at the first that
//! decides it. Every "yes" carries a helpmate line that was replayed to mate, every "no" is a
//! proof; `None` means the budget ran out first. The budget counts the positions the dives and
//! the search visit, for the two sides together: White's may use up to half of it, Black's what
//! White left.
//!
//! A game's verdict needs less than both answers ([`Wanted::Verdict`]): whether the position is
//! dead, and for a flag fall whether the winner cannot mate. [`Solver::rule_for`] then rules a
//! side only where its answer can change these, with the budget the both-sides ruling gives it,
//! so that every answer it gives is that ruling's.

use crate::mate::facts::PositionFacts;
use crate::mate::{MateLimits, Solver, Tier};
use crate::position::Position;
use crate::types::Color;

/// The ruling on one position. A side not ruled ([`Solver::rule_for`]) is `None` with
/// [`Tier::Search`], as an undecided one.
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
    /// What the ruling found of the position itself for the sides it ruled (`None` when it
    /// ruled neither), so that a caller need not look again.
    pub on_board: Option<OnBoard>,
}

/// Whether the game is over on the board, and whether the side to move is in check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OnBoard {
    /// Whether the side to move has no legal move: mated (in check) or stalemated.
    pub stuck: bool,
    /// Whether the side to move is in check.
    pub check: bool,
}

impl OnBoard {
    /// What `pos` shows, looked at afresh.
    pub fn of(pos: &Position) -> OnBoard {
        OnBoard {
            stuck: !pos.has_legal_moves(),
            check: pos.is_check(),
        }
    }
}

impl Ruling {
    /// The ruling before either side is ruled: both undecided, no position searched.
    pub fn unruled() -> Ruling {
        Ruling {
            can_mate: [None; 2],
            tiers: [Tier::Search; 2],
            nodes: 0,
            on_board: None,
        }
    }

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

/// What a caller needs of a ruling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// Both sides' answers (export's `white_can_mate` and `black_can_mate` columns).
    BothSides,
    /// Only what a game's verdict reads: whether the position is dead (both sides proved unable
    /// to mate), and, when a flag fell, whether `flag_winner` (the side the Result names as the
    /// winner) is proved unable to mate (Law 6.9).
    Verdict {
        /// The winner of a flag fall, `None` when no flag fell.
        flag_winner: Option<Color>,
    },
}

/// Judges `pos` for both sides, the searches expanding at most `budget` positions in all
/// (0: no search; only the static proofs decide).
pub fn rule(pos: &Position, budget: u64) -> Ruling {
    Solver::new().rule(pos, budget)
}

impl Solver {
    /// [`rule`], with this solver's working memory.
    pub fn rule(&mut self, pos: &Position, budget: u64) -> Ruling {
        self.rule_for(pos, budget, Wanted::BothSides)
    }

    /// Judges `pos` for the sides `wanted` needs, the searches expanding at most `budget`
    /// positions in all. Every answer given is the one [`Solver::rule`] gives (a side not ruled
    /// is `None`).
    ///
    /// For [`Wanted::Verdict`], the second side is ruled only when the first is proved unable to
    /// mate (the position may be dead), or when it won a flag fall (its own proof decides the
    /// game): otherwise neither `dead` nor the flag fall's proof can depend on its answer, since
    /// `dead` needs both sides proved unable and the first is not. White goes first, as in
    /// [`Solver::rule`], so that each side searches with the budget that ruling gives it; only
    /// without a search (`budget` 0: every stage is a proof on the position alone, whatever the
    /// order) does a flag fall's winner go first, so that its opponent is ruled only where the
    /// position may be dead. The winner of a flag fall is thus always ruled.
    pub fn rule_for(&mut self, pos: &Position, budget: u64, wanted: Wanted) -> Ruling {
        let first = match wanted {
            Wanted::Verdict {
                flag_winner: Some(Color::Black),
            } if budget == 0 => Color::Black,
            _ => Color::White,
        };
        let mut facts = PositionFacts::new(pos);
        let mut ruling = Ruling {
            on_board: Some(OnBoard {
                stuck: facts.stuck(),
                check: facts.check(),
            }),
            ..Ruling::unruled()
        };
        for side in [first, first.other()] {
            if side != first
                && let Wanted::Verdict { flag_winner } = wanted
                && !ruling.cannot_mate(first)
                && flag_winner != Some(side)
            {
                break;
            }
            let left = budget - ruling.nodes;
            let nodes = match side {
                Color::White => left.div_ceil(2),
                Color::Black => left,
            };
            let verdict = self.judge_with(&mut facts, side, &MateLimits { nodes });
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

    /// Positions of every kind the ruling meets: over on the board, dead by material, by a
    /// wall, one move ahead, one side bare, full boards.
    const KINDS: [&str; 14] = [
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        "k7/P7/K7/8/8/8/8/8 b - - 0 1",
        "8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
        "8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
        "k7/1R6/8/8/8/8/8/7K b - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r2qkbnr/ppp2ppp/4p3/5b2/1n1Pp3/1PN5/PBP2PPP/2RQKBNR w Kkq - 0 7",
        "4r1k1/1p4bp/pB4p1/3p1p2/8/1P5P/P2Q1PP1/4R1K1 b - - 0 31",
    ];

    #[test]
    fn the_verdict_gets_the_both_sides_answers_it_reads() {
        let wanted = [None, Some(Color::White), Some(Color::Black)]
            .map(|flag_winner| Wanted::Verdict { flag_winner });
        for fen_text in KINDS {
            let pos = fen(fen_text);
            for budget in [0, 2_000] {
                let both = rule(&pos, budget);
                for wanted in wanted {
                    let verdict = Solver::new().rule_for(&pos, budget, wanted);
                    let case = format!("{fen_text}, budget {budget}, {wanted:?}");
                    for side in Color::ALL {
                        let i = side.index();
                        if verdict.can_mate[i].is_some() {
                            assert_eq!(verdict.can_mate[i], both.can_mate[i], "{case}");
                            assert_eq!(verdict.tiers[i], both.tiers[i], "{case}");
                        }
                    }
                    assert_eq!(verdict.dead(), both.dead(), "{case}");
                    if both.dead() {
                        assert_eq!(verdict.tier(), both.tier(), "{case}");
                    }
                    if let Wanted::Verdict {
                        flag_winner: Some(winner),
                    } = wanted
                    {
                        // The flag fall's winner is ruled: its proof is the both-sides one.
                        let i = winner.index();
                        assert_eq!(verdict.can_mate[i], both.can_mate[i], "{case}");
                        assert_eq!(
                            verdict.cannot_mate_proof(winner),
                            both.cannot_mate_proof(winner),
                            "{case}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_verdict_rules_a_second_side_only_where_it_counts() {
        let verdict = |fen_text, budget, flag_winner| {
            Solver::new()
                .rule_for(&fen(fen_text), budget, Wanted::Verdict { flag_winner })
                .can_mate
        };
        // White can mate: the position is not dead, Black's answer changes nothing...
        let rook = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        assert_eq!(rule(&fen(rook), 2_000).can_mate, [Some(true), Some(false)]);
        assert_eq!(verdict(rook, 2_000, None), [Some(true), None]);
        assert_eq!(verdict(rook, 2_000, Some(Color::White)), [Some(true), None]);
        // ... unless Black won a flag fall: its proof then draws the game.
        assert_eq!(
            verdict(rook, 2_000, Some(Color::Black)),
            [Some(true), Some(false)]
        );
        // Without a search, the winner of a flag fall goes first; White, undecided, is not
        // ruled once Black is not proved unable.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(verdict(start, 0, Some(Color::Black)), [None, None]);
        assert_eq!(verdict(rook, 0, Some(Color::Black)), [None, Some(false)]);
        // White proved unable: Black decides whether the position is dead.
        let black_rook = "4k3/8/8/8/8/8/8/r3K3 w - - 0 1";
        assert_eq!(verdict(black_rook, 2_000, None), [Some(false), Some(true)]);
        let wall = "8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1";
        assert_eq!(verdict(wall, 0, None), [Some(false), Some(false)]);
    }
}
