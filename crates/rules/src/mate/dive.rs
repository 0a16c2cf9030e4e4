//! The greedy dive: one line of play, each side choosing its move at once by a simple rule,
//! that often reaches a helpmate where material abounds. With the winner to move, every position
//! is first tested for a plain mate in one ([`plain_mate`]). Only the line's own positions are
//! kept: a move that would lead back to one gives way to the next best (of [`CHOICES`]), and
//! nothing is proved when a dive fails: the search takes over.
//!
//! Three rules for the loser are tried in turn ([`Plan`]): it gives up its men one by one where
//! the winner can take them, or it keeps them and walls in its own king in a corner (its king
//! keeping out of the way of the winner's pawns), or it rushes its king toward the winner's. The
//! winner takes what is offered, promotes to a queen (its most advanced pawn first), and brings
//! its king close while its other men keep a step away from the loser's king (so that the
//! loser, which never captures by choice, is not left only captures).

use crate::bitboard::Bitboard;
use crate::mate::checks::{plain_mate, seen_past_the_king};
use crate::mate::guide::distance;
use crate::mate::keys::key_after;
use crate::movegen::Sink;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// The longest line a dive plays, in plies.
const MAX_PLIES: usize = 80;

/// The room a dive's line starts with: most helpmates a dive finds are shorter (some 24 plies),
/// so the line is rarely grown move by move.
const LINE_ROOM: usize = 32;

/// The loser's rule in a dive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Give up the men where the winner can take them, the most valuable first; then take the
    /// king to the nearest corner.
    Shed,
    /// Keep the men: take the king to the nearest corner, and the men next to it.
    Wall,
    /// Take the king toward the winner's king, into its men; the men stay (tried last: it
    /// finds the mates the others miss where the winner must promote or close in).
    Rush,
}

/// Plays from `pos` by `plan` toward a mate by `winner`, at most `limit` plies (and never more
/// than [`MAX_PLIES`]): the line if it ends in one, and the plies played.
pub(crate) fn dive(
    pos: &Position,
    winner: Color,
    plan: Plan,
    limit: u64,
) -> (Option<Vec<Move>>, u64) {
    let mut line = Vec::with_capacity(LINE_ROOM);
    let mut p = pos.clone();
    let mut keys = [0u64; MAX_PLIES];
    let plies = MAX_PLIES.min(usize::try_from(limit).unwrap_or(MAX_PLIES));
    for ply in 0..plies {
        let choices = if p.turn() == winner {
            let attacked = seen_past_the_king(&p);
            if let Some(mate) = plain_mate(&p, attacked) {
                line.push(mate);
                return (Some(line), ply as u64 + 1);
            }
            winner_best(&p, attacked)
        } else {
            loser_best(&p, winner, plan)
        };
        // The best move that leads to a position not met yet on the line (its key computed
        // without playing it where it can be).
        let mut next = None;
        for mv in choices.into_iter().flatten() {
            let key = key_after(&p, mv).unwrap_or_else(|| {
                let mut child = p.clone();
                child.play_unchecked(mv);
                child.zobrist()
            });
            if !keys[..ply].contains(&key) {
                next = Some((mv, key));
                break;
            }
        }
        let Some((mv, key)) = next else {
            return (None, ply as u64 + 1);
        };
        p.play_unchecked(mv);
        line.push(mv);
        keys[ply] = key;
    }
    (None, plies as u64)
}

/// The [`CHOICES`] legal moves of `pos` that `score` rates highest, best first (the first of
/// equals first), without listing the moves: the plain choice, against which the tests hold
/// the staged ones ([`winner_best`], [`loser_best`]).
#[cfg(test)]
fn best(pos: &Position, score: impl Fn(&Position, Move) -> i32) -> [Option<Move>; CHOICES] {
    let mut choose = Choose {
        score,
        best: [None; CHOICES],
    };
    pos.generate::<true, _>(ALL_ROLES, Bitboard::FULL, &mut choose);
    choose.best.map(|choice| choice.map(|(_, mv)| mv))
}

/// [`best`] with [`loser_score`], for the loser to move by `plan`. Shedding, the men's moves
/// onto squares the winner attacks (which score above every other move) are generated first,
/// and the rest only if fewer than [`CHOICES`] of those exist; shedding or rushing, the king's
/// moves before the other men's.
fn loser_best(pos: &Position, winner: Color, plan: Plan) -> [Option<Move>; CHOICES] {
    const KING: u8 = 1 << Role::King as u8;
    let view = LoserView {
        winner,
        plan,
        attacked: match plan {
            Plan::Shed => pos.attacked_by(winner, pos.occupied()),
            Plan::Wall | Plan::Rush => Bitboard::EMPTY,
        },
        paths: match plan {
            Plan::Shed | Plan::Wall => pawn_paths(pos, winner),
            Plan::Rush => Bitboard::EMPTY,
        },
    };
    let mut choose = Choose {
        score: |pos: &Position, mv| loser_score(pos, &view, mv),
        best: [None; CHOICES],
    };
    let rest = match plan {
        Plan::Wall => {
            pos.generate::<true, _>(ALL_ROLES, Bitboard::FULL, &mut choose);
            return choose.best.map(|choice| choice.map(|(_, mv)| mv));
        }
        Plan::Rush => Bitboard::FULL,
        Plan::Shed => {
            let offered = view.attacked & !pos.occupied();
            if may_step_onto(pos, offered) {
                pos.generate::<true, _>(ALL_ROLES & !KING, offered, &mut choose);
            }
            if choose.best[CHOICES - 1].is_some() {
                return choose.best.map(|choice| choice.map(|(_, mv)| mv));
            }
            // (The king's own moves onto `offered` are illegal: those squares are attacked.)
            !offered
        }
    };
    // The king's moves that take nothing rate above every other move left: the men's moves
    // are generated only if fewer than [`CHOICES`] of those exist.
    pos.generate::<true, _>(KING, rest, &mut choose);
    if choose.best[CHOICES - 1].is_none_or(|(s, _)| s < MAN_ELSEWHERE) {
        pos.generate::<true, _>(ALL_ROLES & !KING, rest, &mut choose);
    }
    choose.best.map(|choice| choice.map(|(_, mv)| mv))
}

/// The [`loser_score`] of a man's move (not the king's) that takes nothing, rushing, or
/// shedding onto a square the winner does not attack: below every such move of the king.
const MAN_ELSEWHERE: i32 = -10;

/// Whether a man of the side to move other than its king may step onto one of the empty
/// squares `onto`: `false` only where it has no such man but pawns, and none of their steps
/// lands there (the shedding loser, once its pieces are gone).
fn may_step_onto(pos: &Position, onto: Bitboard) -> bool {
    let ours = pos.by_color(pos.turn());
    let pawns = ours & pos.by_role(Role::Pawn);
    if ours.without(pos.king_of(pos.turn())) != pawns {
        return true;
    }
    let (step, third) = match pos.turn() {
        Color::White => (8, Bitboard::RANK_3),
        Color::Black => (-8, Bitboard::RANK_6),
    };
    let empty = !pos.occupied();
    let single = pawns.shift(step) & empty;
    let double = (single & third).shift(step) & empty;
    ((single | double) & onto).any()
}

/// What the loser's choice needs of a position, worked out once a ply.
struct LoserView {
    winner: Color,
    plan: Plan,
    /// The squares the winner attacks (shedding only).
    attacked: Bitboard,
    /// The squares in front of the winner's pawns ([`pawn_paths`]; not when rushing).
    paths: Bitboard,
}

/// [`best`] with [`winner_score`], generating the moves that score most first: captures and
/// pawn moves, then, only if fewer than [`CHOICES`] of those score above [`MAX_QUIET`], the
/// other moves (most positions with pawns need no more). `attacked`: the squares the winner
/// attacks ([`seen_past_the_king`]); the captures are looked for only where one of the loser's
/// men stands on them.
fn winner_best(pos: &Position, attacked: Bitboard) -> [Option<Move>; CHOICES] {
    const PAWN: u8 = 1 << Role::Pawn as u8;
    let theirs = pos.by_color(!pos.turn());
    let mut choose = Choose {
        score: winner_score,
        best: [None; CHOICES],
    };
    if (theirs & attacked).without(pos.king_of(!pos.turn())).any() {
        // (Else none of the loser's men is attacked: nothing to take.)
        pos.generate::<true, _>(ALL_ROLES & !PAWN, theirs, &mut choose);
    }
    if (pos.by_color(pos.turn()) & pos.by_role(Role::Pawn)).any() {
        let mut advanced = MostAdvanced {
            choose: &mut choose,
        };
        pos.generate::<true, _>(PAWN, Bitboard::FULL, &mut advanced);
    }
    if choose.best[CHOICES - 1].is_none_or(|(s, _)| s <= MAX_QUIET) {
        let mut nearest = Nearest {
            choose: &mut choose,
            loser_king: pos.king_of(!pos.turn()),
        };
        pos.generate::<true, _>(ALL_ROLES & !PAWN, !theirs, &mut nearest);
    }
    choose.best.map(|choice| choice.map(|(_, mv)| mv))
}

/// Hands the winner's [`Choose`] of its quiet moves, of each man but the king, only the
/// [`CHOICES`] that [`winner_score`] rates highest (the first of equals first): the squares
/// nearest the loser's king at two steps or more, then those next to it. The others could not
/// be chosen: the same moves are chosen as from all of them, without rating every one.
struct Nearest<'a, F> {
    choose: &'a mut Choose<F>,
    loser_king: Square,
}

impl<F: Fn(&Position, Move) -> i32> Sink for Nearest<'_, F> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        let targets = if role == Role::King || targets.count() as usize <= CHOICES {
            targets
        } else {
            nearest_targets(targets, self.loser_king)
        };
        self.choose.piece(pos, role, from, targets);
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        self.choose.pawns(pos, targets, delta);
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.choose.en_passant(from, to);
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.choose.castle(king, rook);
    }
}

/// Hands the winner's [`Choose`] of its pawns' steps (one or two squares forward) only those
/// that promote and the [`CHOICES`] that [`winner_score`] rates highest of the others (the
/// most advanced, the first of equals first); its pawns' captures all. A step rates by the rank
/// it lands on alone: the same moves are chosen as from all of them, without rating every one.
struct MostAdvanced<'a, F> {
    choose: &'a mut Choose<F>,
}

impl<F: Fn(&Position, Move) -> i32> Sink for MostAdvanced<'_, F> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        self.choose.piece(pos, role, from, targets);
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        let targets = if delta % 8 == 0 {
            most_advanced(targets, pos.turn())
        } else {
            targets
        };
        self.choose.pawns(pos, targets, delta);
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.choose.en_passant(from, to);
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.choose.castle(king, rook);
    }
}

/// The squares of `targets` on the last ranks, and the first [`CHOICES`] of the others in the
/// order of a pawn step's [`winner_score`] for `color`: the most advanced rank first, each rank
/// in square order.
fn most_advanced(targets: Bitboard, color: Color) -> Bitboard {
    let mut kept = targets & Bitboard::BACK_RANKS;
    let mut rest = targets & !Bitboard::BACK_RANKS;
    for _ in 0..CHOICES {
        let front = match color {
            Color::White => rest.last(),
            Color::Black => rest.first(),
        };
        let Some(front) = front else {
            break;
        };
        let Some(first) = (rest & Bitboard::rank(front.rank())).first() else {
            break;
        };
        kept = kept.with(first);
        rest = rest.without(first);
    }
    kept
}

/// The first [`CHOICES`] of `targets` in the order of a quiet move's [`winner_score`] for a man
/// other than the king: by the king steps to `loser_king`, from two up (each ring in square
/// order), then those next to it.
fn nearest_targets(targets: Bitboard, loser_king: Square) -> Bitboard {
    let mut kept = Bitboard::EMPTY;
    let mut take = |squares: Bitboard| {
        for sq in squares {
            if kept.count() as usize == CHOICES {
                break;
            }
            kept = kept.with(sq);
        }
        kept.count() as usize == CHOICES
    };
    let next_to = within_steps(loser_king, 1);
    let mut inner = next_to;
    for steps in 2..8 {
        let outer = within_steps(loser_king, steps);
        if take(targets & outer & !inner) {
            return kept;
        }
        inner = outer;
    }
    take(targets & next_to);
    kept
}

/// The squares at most `steps` king steps from `sq`.
fn within_steps(sq: Square, steps: u8) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let (west, east) = (file.saturating_sub(steps), (file + steps).min(7));
    let (south, north) = (rank.saturating_sub(steps), (rank + steps).min(7));
    let files = u64::from((0xffu8 << west) & (0xffu8 >> (7 - east))) * 0x0101_0101_0101_0101;
    let ranks = (u64::MAX << (8 * south)) & (u64::MAX >> (8 * (7 - north)));
    Bitboard(files & ranks)
}

/// The highest [`winner_score`] of a move that takes nothing and moves no pawn: a man other than
/// the king seven steps closer to the loser's king.
const MAX_QUIET: i32 = 14;

/// The moves a dive may try at each ply: when the best leads back to a position of the line,
/// the next best is played instead (a line that only cycles gives up). Two: with three, the
/// lines were as long and the choice dearer (lichess finals' rulings 3% more instructions);
/// with one, a dive gave up too often (96 sides more for the search).
const CHOICES: usize = 2;

/// Every role, as the generator's bit set.
const ALL_ROLES: u8 = 0b11_1111;

/// Keeps the best-rated moves the generator offers, best first.
struct Choose<F> {
    score: F,
    best: [Option<(i32, Move)>; CHOICES],
}

impl<F: Fn(&Position, Move) -> i32> Choose<F> {
    #[inline(always)]
    fn offer(&mut self, pos: &Position, mv: Move) {
        let mut item = ((self.score)(pos, mv), mv);
        if self.best[CHOICES - 1].is_some_and(|last| last.0 >= item.0) {
            return;
        }
        for slot in &mut self.best {
            match slot {
                Some(kept) if kept.0 >= item.0 => {}
                Some(kept) => item = std::mem::replace(kept, item),
                None => {
                    *slot = Some(item);
                    return;
                }
            }
        }
    }

    #[inline]
    fn pawn(&mut self, pos: &Position, from: Square, to: Square) {
        let capture = pos.role_at(to);
        if Bitboard::BACK_RANKS.contains(to) {
            for role in Role::PROMOTIONS {
                self.offer(pos, Move::normal(Role::Pawn, from, capture, to, Some(role)));
            }
        } else {
            self.offer(pos, Move::normal(Role::Pawn, from, capture, to, None));
        }
    }
}

impl<F: Fn(&Position, Move) -> i32> Sink for Choose<F> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            if role == Role::Pawn {
                self.pawn(pos, from, to);
            } else {
                self.offer(pos, Move::normal(role, from, pos.role_at(to), to, None));
            }
        }
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta) as u8);
            self.pawn(pos, from, to);
        }
    }

    /// Never offered, nor castling: neither rule needs them, and a dive left with no other
    /// move gives up (the search takes over).
    #[inline]
    fn en_passant(&mut self, _: Square, _: Square) {}

    #[inline]
    fn castle(&mut self, _: Square, _: Square) {}
}

/// The value of a man taken.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// The winner's choice: take the most, promote to a queen, push pawns (the most advanced first:
/// one pawn marches to its queen), bring the king closer to the loser's, and the other men
/// closer but not next to it.
fn winner_score(pos: &Position, mv: Move) -> i32 {
    let loser_king = pos.king_of(!pos.turn());
    let mut s = 0;
    if let Some(taken) = mv.capture() {
        s += 100 * value(taken);
    }
    match mv.promotion() {
        Some(Role::Queen) => s += 800,
        Some(_) => return -1000,
        None => {}
    }
    let landing = mv.promotion().unwrap_or(mv.role());
    let (from, to) = (mv.from(), mv.to());
    let closer = distance(from, loser_king) - distance(to, loser_king);
    let advance = match pos.turn() {
        Color::White => to.rank() as i32,
        Color::Black => 7 - to.rank() as i32,
    };
    match landing {
        Role::Pawn => s += 20 + advance,
        Role::King => s += 6 * closer,
        _ if distance(to, loser_king) >= 2 => s += 2 * closer,
        _ => s -= 20,
    }
    s
}

/// The loser's choice: never take if it can help it; by the plan, give a man up where the winner
/// can take it (on the squares the winner attacks before the move), or bring the men next to
/// the king; and take the king toward the nearest corner.
fn loser_score(pos: &Position, view: &LoserView, mv: Move) -> i32 {
    let (winner, plan) = (view.winner, view.plan);
    if mv.is_capture() {
        return -1000;
    }
    let (from, to) = (mv.from(), mv.to());
    if plan == Plan::Rush {
        return if mv.role() == Role::King {
            -distance(to, pos.king_of(winner))
        } else {
            MAN_ELSEWHERE
        };
    }
    if mv.role() == Role::King {
        // Out of the way of the winner's pawns, which may have to promote.
        let aside = if view.paths.contains(to) { 4 } else { 0 };
        return -corner_distance(to) - aside;
    }
    match plan {
        Plan::Shed => {
            if view.attacked.contains(to) {
                100 * value(mv.role())
            } else {
                MAN_ELSEWHERE
            }
        }
        Plan::Wall | Plan::Rush => {
            let king = pos.king_of(pos.turn());
            2 * (distance(from, king) - distance(to, king)) - 5
        }
    }
}

/// The squares in front of `winner`'s pawns, up to its last rank.
fn pawn_paths(pos: &Position, winner: Color) -> Bitboard {
    let step = match winner {
        Color::White => 8,
        Color::Black => -8,
    };
    let mut paths = pos.by_color(winner) & pos.by_role(Role::Pawn);
    for _ in 0..6 {
        paths = paths | paths.shift(step);
    }
    paths & !(pos.by_color(winner) & pos.by_role(Role::Pawn))
}

/// King steps from `sq` to the nearest corner.
fn corner_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f).max(r.min(7 - r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::{along_random_games, replays_to_mate};

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn a_full_board_dives_to_a_mate() {
        let pos = Position::startpos();
        let line = dive(&pos, Color::White, Plan::Shed, 100)
            .0
            .expect("a helpmate");
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    /// A final position of lichess16.pgn: Black mates only with a new queen, and the dives find
    /// it once White's king steps out of the pawns' way (before, the search had to).
    #[test]
    fn the_losers_king_steps_out_of_the_pawns_way() {
        let pos = fen("8/8/6b1/5pkp/8/3n2K1/8/8 w - - 2 63");
        let line = [Plan::Shed, Plan::Wall]
            .into_iter()
            .find_map(|plan| dive(&pos, Color::Black, plan, 100).0)
            .expect("a helpmate");
        assert!(replays_to_mate(&pos, Color::Black, &line));
        assert!(pawn_paths(&pos, Color::Black).contains(Square::H1));
        assert!(!pawn_paths(&pos, Color::Black).contains(Square::G3));
    }

    /// A final position of lichess16.pgn: the best moves alone soon lead back to a position of
    /// the line (and the dives gave up, for the search); the next best ones reach a mate.
    #[test]
    fn a_line_that_would_cycle_plays_the_next_best_move() {
        let pos = fen("8/8/8/5k2/4p2R/4K3/8/8 b - - 1 45");
        let line = [Plan::Shed, Plan::Wall]
            .into_iter()
            .find_map(|plan| dive(&pos, Color::White, plan, 100).0)
            .expect("a helpmate");
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    /// A final position of lichess16.pgn: Black mates with a new queen only if White's king
    /// comes to meet it; giving up men or walling in a corner does not get there.
    #[test]
    fn the_loser_rushing_its_king_meets_a_mate() {
        let pos = fen("8/8/8/8/1p6/4K3/2k5/8 w - - 0 56");
        for plan in [Plan::Shed, Plan::Wall] {
            assert!(dive(&pos, Color::Black, plan, 100).0.is_none(), "{plan:?}");
        }
        let line = dive(&pos, Color::Black, Plan::Rush, 100)
            .0
            .expect("a helpmate");
        assert!(replays_to_mate(&pos, Color::Black, &line));
    }

    /// The winner's staged choice picks moves that score as the plain one's, along random
    /// games (the moves themselves may differ among equals).
    #[test]
    fn the_winners_staged_choice_scores_as_the_plain_one() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        ];
        let mut checked = 0;
        along_random_games(&starts, 20, 60, 0x9e37_79b9_7f4a_7c15, |pos, _| {
            let score = |choices: [Option<Move>; CHOICES]| {
                choices.map(|mv| mv.map(|mv| winner_score(pos, mv)))
            };
            let staged = score(winner_best(pos, seen_past_the_king(pos)));
            let plain = score(best(pos, winner_score));
            assert_eq!(staged, plain, "{}", pos.to_fen());
            checked += 1;
        });
        assert!(checked > 2_000, "{checked}");
    }

    /// The loser's choice, staged when shedding, picks moves that score as the plain one's for
    /// every plan, along random games.
    #[test]
    fn the_losers_staged_choice_scores_as_the_plain_one() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
            "4k3/pp4p1/8/8/8/8/6PP/R3K3 b - - 0 1",
        ];
        let (mut checked, mut staged_only) = (0, 0);
        along_random_games(&starts, 20, 60, 0x243f_6a88_85a3_08d3, |pos, _| {
            let winner = !pos.turn();
            for plan in [Plan::Shed, Plan::Wall, Plan::Rush] {
                let view = LoserView {
                    winner,
                    plan,
                    attacked: match plan {
                        Plan::Shed => pos.attacked_by(winner, pos.occupied()),
                        _ => Bitboard::EMPTY,
                    },
                    paths: match plan {
                        Plan::Rush => Bitboard::EMPTY,
                        _ => pawn_paths(pos, winner),
                    },
                };
                let score = |choices: [Option<Move>; CHOICES]| {
                    choices.map(|mv| mv.map(|mv| loser_score(pos, &view, mv)))
                };
                let staged = loser_best(pos, winner, plan);
                let plain = best(pos, |pos, mv| loser_score(pos, &view, mv));
                assert_eq!(score(staged), score(plain), "{plan:?} {}", pos.to_fen());
                let first_only = (view.attacked & !pos.occupied()).any()
                    && staged
                        .iter()
                        .all(|mv| mv.is_some_and(|mv| view.attacked.contains(mv.to())));
                staged_only += usize::from(plan == Plan::Shed && first_only);
            }
            checked += 1;
        });
        assert!(
            checked > 2_000 && staged_only > 100,
            "{checked} {staged_only}"
        );
    }

    /// The winner pushes its most advanced pawn first, for either colour (White's pawns were
    /// pushed from the second rank up, the order the generator gives them: the lines of the
    /// lichess finals' dives 24.2 plies a helpmate then, 20.9 now).
    #[test]
    fn the_winner_pushes_its_most_advanced_pawn_first() {
        for (text, push) in [
            ("4k3/8/7P/8/8/8/P7/4K3 w - - 0 1", "h6h7"),
            ("4k3/p7/8/8/8/7p/8/4K3 b - - 0 1", "h3h2"),
            ("4k3/8/8/8/2P5/8/P7/4K3 w - - 0 1", "c4c5"),
        ] {
            let best = winner_best(&fen(text), seen_past_the_king(&fen(text)))[0]
                .map(|mv| mv.to_uci(false).to_string());
            assert_eq!(best.as_deref(), Some(push), "{text}");
        }
    }

    /// The targets kept for the winner's quiet moves are the first [`CHOICES`] of them by
    /// distance to the loser's king (two steps or more first, each distance in square order),
    /// for every king square and pseudo-random sets of targets.
    #[test]
    fn the_nearest_targets_are_those_the_winner_rates_highest() {
        let mut seed = 0x9b05_688c_2b3e_6c1fu64;
        for king in (0..64).map(Square::from_index) {
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let targets = Bitboard(seed & seed.rotate_left(23));
                let mut ranked: Vec<Square> = targets.into_iter().collect();
                ranked.sort_by_key(|&sq| match distance(sq, king) {
                    d if d >= 2 => d,
                    _ => 8,
                });
                let expected: Bitboard = ranked.into_iter().take(CHOICES).collect();
                assert_eq!(nearest_targets(targets, king), expected, "{king:?}");
            }
        }
    }

    /// The pawn steps kept for the winner are those on the last ranks and the first
    /// [`CHOICES`] of the others by the winner's rating of a step (the most advanced rank
    /// first, each rank in square order), for either colour and pseudo-random sets of targets.
    #[test]
    fn the_most_advanced_steps_are_those_the_winner_rates_highest() {
        let mut seed = 0x3c6e_f372_fe94_f82bu64;
        for _ in 0..2_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let targets = Bitboard(seed & seed.rotate_left(29));
            for color in [Color::White, Color::Black] {
                let advance = |sq: Square| match color {
                    Color::White => sq.rank(),
                    Color::Black => 7 - sq.rank(),
                };
                let mut ranked: Vec<Square> =
                    (targets & !Bitboard::BACK_RANKS).into_iter().collect();
                ranked.sort_by_key(|&sq| std::cmp::Reverse(advance(sq)));
                let expected = ranked
                    .into_iter()
                    .take(CHOICES)
                    .fold(targets & Bitboard::BACK_RANKS, Bitboard::with);
                assert_eq!(most_advanced(targets, color), expected, "{targets:?}");
            }
        }
    }

    #[test]
    fn a_lone_knight_never_mates_a_bare_king() {
        let pos = fen("k7/8/8/8/8/8/8/K5N1 w - - 0 1");
        assert!(dive(&pos, Color::White, Plan::Shed, 100).0.is_none());
        assert!(dive(&pos, Color::White, Plan::Wall, 100).0.is_none());
    }
}
