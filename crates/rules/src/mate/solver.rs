//! The decision for one side, stage by stage from cheap to dear ([`Solver::judge`]), with the
//! working memory the search keeps from one position to the next.

use crate::mate::aim::{Aimer, plans};
use crate::mate::dive::{Plan, dive};
use crate::mate::exhaust::Exhauster;
use crate::mate::facts::PositionFacts;
use crate::mate::guide::Guide;
use crate::mate::locked::{blocked_pawns, cannot_mate_locked};
use crate::mate::mirror::{line_back, mirrored};
use crate::mate::probe::probe;
use crate::mate::search::{Found, Promotions, Searcher};
use crate::mate::shorten::shortened;
use crate::mate::statics::material_cannot_mate;
use crate::mate::{CanMate, MateLimits, QUICK_NODES, Tier, Verdict, replays_to_mate};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role};

/// The can-mate decision with its working memory (the search's buffers), kept from one
/// position to the next: once warmed up, judging a position allocates little beyond the
/// helpmate line it returns.
pub struct Solver {
    searcher: Searcher,
    exhauster: Exhauster,
    aimer: Aimer,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// The locked-position proof is asked before the search only when at least this many pawns
/// stand blocked head-on by an enemy pawn (walls start from such pawns; elsewhere the proof
/// rarely succeeds and costs some microseconds; the search asks it again where pawns lock).
const LOCK_MIN_BLOCKED: u32 = 4;

impl Solver {
    /// A solver with empty buffers.
    pub fn new() -> Solver {
        Solver {
            searcher: Searcher::new(),
            exhauster: Exhauster::new(),
            aimer: Aimer::new(),
        }
    }

    /// Whether `side` can still checkmate its opponent from `pos`, and which stage decided it:
    /// the game over on the board, material, the locked-position proof (when pawns are blocked),
    /// one move ahead, then, within `limits` (0: none of them), the short-helpmate probe, three
    /// greedy dives and the search.
    pub fn judge(&mut self, pos: &Position, side: Color, limits: &MateLimits) -> Verdict {
        self.judge_with(&mut PositionFacts::new(pos), side, limits)
    }

    /// [`Solver::judge`] on the position of `facts`, reading what it asks of the position itself
    /// from them (so that the other side's judgment need not find it again).
    pub(crate) fn judge_with(
        &mut self,
        facts: &mut PositionFacts,
        side: Color,
        limits: &MateLimits,
    ) -> Verdict {
        let pos = facts.pos();
        let verdict = |answer, tier, nodes| Verdict {
            answer,
            tier,
            nodes,
        };
        if facts.stuck() {
            // Mated already (by `side`, if the side to move is the other one), or stalemate.
            let mated = facts.check() && pos.turn() != side;
            let answer = if mated {
                CanMate::Yes(Vec::new())
            } else {
                CanMate::No
            };
            return verdict(answer, Tier::Over, 0);
        }
        if material_cannot_mate(pos, side) {
            return verdict(CanMate::No, Tier::Material, 0);
        }
        if blocked_pawns(pos) >= LOCK_MIN_BLOCKED && cannot_mate_locked(pos, side) {
            return verdict(CanMate::No, Tier::Blocked, 0);
        }
        if facts.cannot_mate_after_any_move(side) {
            return verdict(CanMate::No, Tier::LookAhead, 0);
        }
        if limits.nodes == 0 {
            return verdict(CanMate::Unknown, Tier::Search, 0);
        }
        let (line, mut spent) = probe(pos, side, limits.nodes);
        if let Some(line) = line {
            // Played move by move from the legal moves, ending in mate.
            debug_assert!(replays_to_mate(pos, side, &line));
            return verdict(CanMate::Yes(line), Tier::Probe, spent);
        }
        for plan in [Plan::Shed, Plan::Wall, Plan::Rush] {
            let (line, plies) = dive(pos, side, plan, limits.nodes - spent);
            spent += plies;
            if let Some(line) = line {
                // Played move by move from the legal moves, no key involved: a mate by
                // construction.
                debug_assert!(replays_to_mate(pos, side, &line));
                return verdict(CanMate::Yes(line), Tier::Dive, spent);
            }
        }
        let (found, nodes, tier) = self.search(pos, side, limits.nodes - spent);
        let answer = match found {
            Found::Mate(line) => verified(pos, side, line),
            Found::None => CanMate::No,
            Found::Unknown => CanMate::Unknown,
        };
        let tier = if tier == Tier::Search && nodes <= QUICK_NODES && answer != CanMate::Unknown {
            Tier::Quick
        } else {
            tier
        };
        verdict(answer, tier, spent + nodes)
    }

    /// The search under `limit` positions, stage after stage (each starts afresh; "none" from any
    /// is a proof, the guides only order the walk): the best-first search with the shedding guide;
    /// the locked-position proof, if it was skipped before; the best-first search with the blocking
    /// guide, then the shedding one again, each with a share of what is left; and then the
    /// exhaustive walk with all but two [`AIM_SHARE`]-ths of the rest (three when the winner has a
    /// pawn); and, if it did not decide, each with one of those shares: the best-first search once
    /// for each underpromotion (rook, knight, bishop: the winner's pawns promote to that role only;
    /// when the winner has a pawn), the first stage's search of the mirrored position (colours
    /// swapped, ranks turned over: the same mates, walked in another order), then the aimed walk
    /// toward each of the [`AIM_PLANS`] best planned mates. A side with minor pieces only (no rook,
    /// no queen, no pawn free to step forward: [`minor_pieces_only`]), which mates against the
    /// loser's own men, starts with the blocking guide instead, then the shedding one, then the
    /// blocking one again. In a position with pawn walls, where the answer is most often that no
    /// mate exists, the exhaustive walk follows the first stage at once. Returns what was found,
    /// the positions expanded, and the stage that decided: [`Tier::Blocked`] when the
    /// locked-position proof did (a "no" then names that proof), else [`Tier::Search`].
    fn search(&mut self, pos: &Position, side: Color, limit: u64) -> (Found, u64, Tier) {
        let walled = blocked_pawns(pos) >= WALLED;
        let schedule: &[Stage] = if walled {
            &[
                Stage::First(Guide::Shed),
                Stage::Exhaust,
                Stage::Under,
                Stage::Mirror,
                Stage::Aim,
            ]
        } else if minor_pieces_only(pos, side) {
            &[
                Stage::First(Guide::Block),
                Stage::Later(Guide::Shed),
                Stage::Later(Guide::Block),
                Stage::Exhaust,
                Stage::Under,
                Stage::Mirror,
                Stage::Aim,
            ]
        } else {
            &[
                Stage::First(Guide::Shed),
                Stage::Later(Guide::Block),
                Stage::Later(Guide::Shed),
                Stage::Exhaust,
                Stage::Under,
                Stage::Mirror,
                Stage::Aim,
            ]
        };
        // The stages after the exhaustive walk, each with an [`AIM_SHARE`]-th of what the walk
        // is given: the underpromoting searches (when the winner has a pawn), the search of the
        // mirrored position and the aimed walk.
        let promotes = (pos.by_color(side) & pos.by_role(Role::Pawn)).any();
        let late = u64::from(promotes) + 2;
        let mut share = 0;
        let mut spent = 0;
        let mut found = Found::Unknown;
        for (i, &stage) in schedule.iter().enumerate() {
            if i == 1 && blocked_pawns(pos) < LOCK_MIN_BLOCKED && cannot_mate_locked(pos, side) {
                // The locked-position proof, skipped before for its cost, once the search did not
                // decide quickly.
                return (Found::None, spent, Tier::Blocked);
            }
            let left = limit - spent;
            let (result, more) = match stage {
                Stage::First(guide) => {
                    self.searcher
                        .search(pos, side, FIRST_NODES.min(left), guide)
                }
                Stage::Later(guide) => {
                    let nodes = LATER_NODES.min(left / BEST_SHARE);
                    self.searcher.search(pos, side, nodes, guide)
                }
                Stage::Exhaust => {
                    share = left / AIM_SHARE;
                    self.exhauster.walk(pos, side, left - late * share)
                }
                Stage::Under if promotes => self.underpromote(pos, side, share),
                Stage::Under => (Found::Unknown, 0),
                Stage::Mirror => self.mirrored(pos, side, share.min(left), schedule),
                Stage::Aim => self.aim(pos, side, left),
            };
            spent += more;
            found = result;
            if !matches!(found, Found::Unknown) || spent >= limit {
                break;
            }
        }
        (found, spent, Tier::Search)
    }
}

/// Whether `side` has no rook, no queen and no pawn free to step forward (a pawn blocked head-on
/// counts for nothing here): it mates with minor pieces, against the loser's own men.
fn minor_pieces_only(pos: &Position, side: Color) -> bool {
    let ours = pos.by_color(side);
    let behind_a_man = match side {
        Color::White => pos.occupied().shift(-8),
        Color::Black => pos.occupied().shift(8),
    };
    let free_pawns = ours & pos.by_role(Role::Pawn) & !behind_a_man;
    (ours & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen))).is_empty()
        && free_pawns.is_empty()
}

/// A stage of the search: the best-first search with a guide, first or later (with at most
/// [`FIRST_NODES`] or [`LATER_NODES`] positions), the exhaustive walk with all that is left but
/// the later stages' shares, the searches where the winner underpromotes, the first stage's
/// search of the mirrored position, or the aimed walk.
#[derive(Copy, Clone)]
enum Stage {
    First(Guide),
    Later(Guide),
    Exhaust,
    Under,
    Mirror,
    Aim,
}

/// The roles the underpromoting searches promote to, one search each: the queen's many moves
/// drown the walk, or stalemate a loser whose every other move mates the winner.
const UNDERPROMOTIONS: [Role; 3] = [Role::Rook, Role::Knight, Role::Bishop];

/// The aimed walk's share of what the exhaustive walk is given: a 64th (15,625 positions of the
/// default limit, some 50 ms on the hardest positions: it rates every position it generates;
/// no side the exhaustive walk decides on chasolver's sets needs more than 90% of its limit).
const AIM_SHARE: u64 = 64;

/// Planned mates the aimed walk tries, each with an equal part of its share.
const AIM_PLANS: usize = 2;

/// Positions of the first best-first stage (most helpmates in real games are found here, or by
/// a dive before it).
const FIRST_NODES: u64 = 2_000;

/// Positions of each later best-first stage, at most (and at most a [`BEST_SHARE`]-th of what
/// is left): the best-first search keeps every
/// position it expands and generates (about a kilobyte each), the exhaustive walk some tens of
/// bytes, so most of a large limit goes to the walk.
const LATER_NODES: u64 = 20_000;

/// See [`LATER_NODES`].
const BEST_SHARE: u64 = 8;

/// Blocked pawns from which a position counts as walled (see [`Solver::search`]).
const WALLED: u32 = 3;

impl Solver {
    /// The first best-first stage of `schedule` on the mirrored position (colours swapped,
    /// ranks turned over), under `limit` positions: a line (turned back), or unknown.
    fn mirrored(
        &mut self,
        pos: &Position,
        side: Color,
        limit: u64,
        schedule: &[Stage],
    ) -> (Found, u64) {
        let guide = match schedule.first() {
            Some(&Stage::First(guide)) => guide,
            _ => Guide::Shed,
        };
        let Some(turned) = mirrored(pos) else {
            return (Found::Unknown, 0);
        };
        let (found, nodes) = self.searcher.search(&turned, !side, limit, guide);
        match found {
            Found::Mate(line) => match line_back(pos, &line) {
                Some(line) => (Found::Mate(line), nodes),
                None => (Found::Unknown, nodes),
            },
            Found::None => (Found::None, nodes),
            Found::Unknown => (Found::Unknown, nodes),
        }
    }

    /// The best-first search (shedding guide) once for each underpromotion, the winner's
    /// pawns promoting to that role only, under `limit` positions in all: a line, or unknown
    /// (a search that leaves promotions out proves nothing).
    fn underpromote(&mut self, pos: &Position, side: Color, limit: u64) -> (Found, u64) {
        let mut spent = 0;
        for role in UNDERPROMOTIONS {
            let share = limit / UNDERPROMOTIONS.len() as u64;
            let only = Promotions::Only(role);
            let (found, more) = self
                .searcher
                .search_promoting(pos, side, share, Guide::Shed, only);
            spent += more;
            if let Found::Mate(_) = found {
                return (found, spent);
            }
        }
        (Found::Unknown, spent)
    }

    /// The aimed walk toward each planned mate in turn, under `limit` positions in all: a line,
    /// or unknown (it never proves that none exists).
    fn aim(&mut self, pos: &Position, side: Color, limit: u64) -> (Found, u64) {
        let mut spent = 0;
        for plan in plans(pos, side, AIM_PLANS) {
            let (found, more) = self.aimer.walk(pos, side, &plan, limit / AIM_PLANS as u64);
            spent += more;
            if let Found::Mate(_) = found {
                return (found, spent);
            }
        }
        (Found::Unknown, spent)
    }
}

/// `Yes(line)` if `line` replays legally from `pos` to a mate of `side`'s opponent, else
/// `Unknown` (a guard against a Zobrist collision in the search). A line longer than
/// [`LONG_LINE`] plies (the exhaustive walk's path) is shortened first.
fn verified(pos: &Position, side: Color, line: Vec<Move>) -> CanMate {
    if !replays_to_mate(pos, side, &line) {
        return CanMate::Unknown;
    }
    if line.len() <= LONG_LINE {
        return CanMate::Yes(line);
    }
    let short = shortened(pos, line);
    debug_assert!(replays_to_mate(pos, side, &short));
    CanMate::Yes(short)
}

/// Lines the solver shortens (see [`shortened`]): longer than any dive's.
const LONG_LINE: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_pieces_only_counts_no_blocked_pawn() {
        let of = |text: &str, side| minor_pieces_only(&Position::from_fen(text).unwrap(), side);
        // Black's pawns on f4 and h4 stand blocked by White's on f3 and h3; White's on c4 is free.
        let pos = "2K5/8/1b1k4/8/2P1Bp1p/5P1P/8/8 w - - 10 70";
        assert!(of(pos, Color::Black));
        assert!(!of(pos, Color::White));
        assert!(of("3k4/8/2B5/K7/n7/8/8/8 w - - 0 86", Color::White));
        assert!(!of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::White));
    }

    /// A final position of a master game: Black, with a lone bishop, mates only against White's
    /// own men. The blocking guide, first for a side with minor pieces only, finds it in some
    /// 6,000 positions (the shedding guide first: 13,472).
    #[test]
    fn minor_pieces_search_with_the_blocking_guide_first() {
        let pos = Position::from_fen("5N2/4k3/8/1KP3b1/P7/8/8/8 w - - 1 84").unwrap();
        let verdict = Solver::new().judge(&pos, Color::Black, &MateLimits::default());
        let CanMate::Yes(line) = &verdict.answer else {
            panic!("{verdict:?}");
        };
        assert!(replays_to_mate(&pos, Color::Black, line));
        assert!(verdict.nodes < 10_000, "{}", verdict.nodes);
    }

    /// chasolver's hard set: Black's every piece move mates White (the knight's and the h-rook's
    /// uncover or give a rook check White cannot meet), so Black has only its f-pawn to move
    /// while White's g-pawn promotes. A queen drowns the walk; a rook goes to b8, meets the
    /// knight's discovered checks on b1 and takes Black's men one by one, then mates the bare
    /// king. Undecided within the default limit before the underpromoting searches.
    #[test]
    fn a_pawn_that_must_become_a_rook_is_found() {
        let pos = Position::from_fen("8/5p2/8/6P1/6pp/6pk/p5pr/rn4K1 b - - 0 1").unwrap();
        let verdict = Solver::new().judge(&pos, Color::White, &MateLimits::default());
        let CanMate::Yes(line) = &verdict.answer else {
            panic!("{verdict:?}");
        };
        assert!(replays_to_mate(&pos, Color::White, line));
    }

    /// The same family, colours and files turned round, the pawn a step further or another
    /// Black pawn beside a2: the underpromoting searches find each line within a few thousand
    /// positions, where the search with every promotion finds none within three times as many.
    #[test]
    fn underpromoting_searches_find_the_family() {
        for (text, side) in [
            ("1k4NR/RP5P/KP6/PP6/1p6/8/2P5/8 w - - 0 1", Color::Black),
            ("8/5p2/6P1/8/6pp/6pk/p5pr/rn4K1 b - - 0 1", Color::White),
            ("8/2p5/8/1P6/pp6/kp6/rp4pp/1K4nr b - - 0 1", Color::White),
        ] {
            let pos = Position::from_fen(text).unwrap();
            let mut solver = Solver::new();
            let (found, nodes) = solver.underpromote(&pos, side, 15_000);
            let Found::Mate(line) = found else {
                panic!("{text}: {found:?} after {nodes}");
            };
            assert!(replays_to_mate(&pos, side, &line), "{text}");
            let (every, _) = solver.searcher.search(&pos, side, 45_000, Guide::Shed);
            assert!(matches!(every, Found::Unknown), "{text}: {every:?}");
        }
    }

    /// chasolver's hard set: White's nine bishops mate on h8 with the battery b2-c3-d4 once
    /// Black has given up its queen and rooks and White's king has walked to f7. The first
    /// stage's search (blocking guide) finds the line in the mirrored position (Black's bishops
    /// mating on h8's mirror, h1) within 15,000 positions, where the search of the position
    /// itself finds none (and the whole default limit did not decide it before); so does a
    /// relative turned left to right with Black's f-rook gone.
    #[test]
    fn the_mirrored_search_finds_what_the_search_misses() {
        for text in [
            "4k3/1b1rqr1b/2b3b1/8/3B4/B1B1B3/1B1B1B2/1KB1B3 w - - 0 1",
            "3k4/b2qr1b1/1b3b2/8/4B3/3B1B1B/2B1B1B1/3B1BK1 w - - 0 1",
        ] {
            let pos = Position::from_fen(text).unwrap();
            let mut solver = Solver::new();
            // Minor pieces only: the schedule starts with the blocking guide.
            assert!(minor_pieces_only(&pos, Color::White));
            let first = [Stage::First(Guide::Block)];
            let (found, nodes) = solver.mirrored(&pos, Color::White, 15_000, &first);
            let Found::Mate(line) = found else {
                panic!("{text}: {found:?} after {nodes}");
            };
            assert!(replays_to_mate(&pos, Color::White, &line), "{text}");
            let (plain, _) = solver
                .searcher
                .search(&pos, Color::White, 15_000, Guide::Shed);
            assert!(matches!(plain, Found::Unknown), "{text}: {plain:?}");
        }
    }

    /// A final position of a master game: Black mates with its lone knight only once White's own
    /// light bishop stands beside White's king in a1 or h8. The guides count only the corners
    /// and blocking squares the bishops can reach; the search finds it in some 3,500 positions
    /// (44,462 when they counted every corner).
    #[test]
    fn a_lone_knight_mates_against_the_losers_own_bishop() {
        let pos = Position::from_fen("3k4/8/2B5/K7/n7/8/8/8 w - - 0 86").unwrap();
        let verdict = Solver::new().judge(&pos, Color::Black, &MateLimits::default());
        let CanMate::Yes(line) = &verdict.answer else {
            panic!("{verdict:?}");
        };
        assert!(replays_to_mate(&pos, Color::Black, line));
        assert!(verdict.nodes < 10_000, "{}", verdict.nodes);
    }
}
