//! The checks of the side to move: whether one mates, and whether there is any. The helpmate
//! search asks it of every position it rates ([`super::guide`]), so it generates only the moves
//! that may give check (those landing where their piece attacks the king, those that may uncover
//! a line, promotions, castling, en passant) and plays only those. The greedy dives ask a
//! cheaper test that may miss a mate ([`plain_mate`]), given the squares the side to move
//! attacks seen through the enemy king ([`seen_past_the_king`]).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::locked::pawn_attacks;
use crate::movegen::Sink;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// A move of the side to move that checkmates, if there is one, and whether it has any check.
/// `open` holds the enemy king's [`open_squares`] (the caller often has them at hand).
///
/// A check by a man alone (one that opens no line) is no mate where the king can take it
/// ([`king_takes`]) or step to a square next to it that nothing attacks after the move
/// ([`leaves_flight`]): such checks are told without playing them.
pub(crate) fn threat(pos: &Position, open: Bitboard) -> (Option<Move>, bool) {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let seen_through = pos.occupied().without(king);
    debug_assert_eq!(open, open_squares(pos));
    let (mut mate, mut any) = (None, false);
    let sink = |pos: &Position, mv: Move, uncovers: bool| {
        if mate.is_some() {
            return;
        }
        if !uncovers && mv.promotion().is_none() {
            // A check: the man checks from where it lands (see `checking_moves`).
            any = true;
            if king_takes(pos, mv) || leaves_flight(pos, mv, open, seen_through) {
                return;
            }
        } else if any && normal(mv) && leaves_flight(pos, mv, open, seen_through) {
            // No mate, and a check is known already.
            return;
        }
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if !child.is_check() {
            return;
        }
        any = true;
        if !child.has_legal_moves() {
            mate = Some(mv);
        }
    };
    checking_moves(pos, ALL_ROLES, [Bitboard::FULL; 6], sink);
    (mate, any)
}

/// The squares next to the enemy king (of the side to move) that neither its own men hold nor
/// the side to move attacks (seen through that king, which is not in check: the same as with
/// it on the board).
pub(crate) fn open_squares(pos: &Position) -> Bitboard {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let seen_through = pos.occupied().without(king);
    attacks::king(king) & !pos.by_color(!us) & !pos.attacked_by(us, seen_through)
}

/// Whether the side to move has a check: [`threat`]'s second answer, without looking for a
/// mate (a check by a man alone is one without playing it).
pub(crate) fn any_check(pos: &Position) -> bool {
    let mut any = false;
    let sink = |pos: &Position, mv: Move, uncovers: bool| {
        if any {
            return;
        }
        if !uncovers && mv.promotion().is_none() {
            any = true;
            return;
        }
        let mut child = pos.clone();
        child.play_unchecked(mv);
        any = child.is_check();
    };
    checking_moves(pos, ALL_ROLES, [Bitboard::FULL; 6], sink);
    any
}

/// Whether, after `mv` (neither castling nor en passant), the enemy king can step to one of
/// the `open` squares next to it (neither held by its own men nor attacked before the move,
/// seen through the king: `seen_through` is the occupied squares without it) other than the one
/// `mv` lands on: one that neither the man moved, from where it lands (as its promotion piece,
/// if any), nor any other man of the side to move attacks once the move is played (a line
/// through the square it leaves included). Then `mv` is no mate, whether it checks or not.
#[inline]
fn leaves_flight(pos: &Position, mv: Move, open: Bitboard, seen_through: Bitboard) -> bool {
    let us = pos.turn();
    let (from, to) = (mv.from(), mv.to());
    let occupied = seen_through.without(from).with(to);
    let covered = reach(mv.promotion().unwrap_or(mv.role()), us, to, occupied);
    (open.without(to) & !covered).into_iter().any(|flight| {
        pos.attackers_to(flight, us, occupied)
            .without(from)
            .is_empty()
    })
}

/// Whether `mv` is neither castling nor en passant.
#[inline]
fn normal(mv: Move) -> bool {
    !mv.is_castle() && !mv.is_en_passant()
}

/// A move of the side to move that checkmates, looked for only among the moves that plainly
/// can: a mate leaves the enemy king no square to step to, so where more than [`MAX_OPEN`]
/// squares next to it are neither its own men's nor attacked by ours, none is looked for, and
/// a check by one man alone is played only when that man, from where it lands, attacks every
/// such square. A mate that also needs a line the move opens, or a castling, an en passant
/// capture or a promotion, may be missed: `None` proves nothing. A move returned mates.
///
/// For the greedy dives, which ask it at every move of the winner: there the king mostly has
/// open squares, and this plays few moves, or none, where [`threat`] plays every check.
/// `attacked`: the squares the side to move attacks, [`seen_past_the_king`] (the dives use them
/// again).
pub(crate) fn plain_mate(pos: &Position, attacked: Bitboard) -> Option<Move> {
    debug_assert_eq!(attacked, seen_past_the_king(pos));
    plain_mate_among(pos, attacked, mating_alone)
}

/// The squares the side to move attacks, seen through the enemy king (as [`plain_mate`] needs
/// them).
pub(crate) fn seen_past_the_king(pos: &Position) -> Bitboard {
    let us = pos.turn();
    pos.attacked_by(us, pos.occupied().without(pos.king_of(!us)))
}

/// [`plain_mate`], given the [`seen_past_the_king`] squares, looking at the moves of the roles
/// `roles` gives for the number of open squares, where no line can be uncovered.
fn plain_mate_among(
    pos: &Position,
    attacked: Bitboard,
    roles: impl Fn(&Position, u32) -> u8,
) -> Option<Move> {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let around = attacks::king(king) & !pos.by_color(!us);
    let seen_through = pos.occupied().without(king);
    let open = around & !attacked;
    if open.count() > MAX_OPEN {
        return None;
    }
    let roles = roles(pos, open.count());
    let within = covering_squares(us, open);
    let mut mate = None;
    let sink = |pos: &Position, mv: Move, uncovers: bool| {
        if mate.is_some() {
            return;
        }
        let alone = !uncovers && !mv.is_en_passant() && !mv.is_castle();
        if alone && mv.promotion().is_none() {
            let (from, to) = (mv.from(), mv.to());
            let reach = reach(mv.role(), us, to, seen_through.without(from).with(to));
            if (open.without(to) & !reach).any() || king_takes(pos, mv) {
                return;
            }
        } else if normal(mv) && leaves_flight(pos, mv, open, seen_through) {
            return;
        }
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if child.is_check() && !child.has_legal_moves() {
            mate = Some(mv);
        }
    };
    checking_moves(pos, roles, within, sink);
    mate
}

/// For each role ([`Role::index`] order), the squares from which a man of `us` could attack
/// every one of the `open` squares but the one it stands on, on an empty board: a check by a man
/// alone from elsewhere leaves the king a square, and [`plain_mate`] need not look at it.
fn covering_squares(us: Color, open: Bitboard) -> [Bitboard; 6] {
    let mut within = [Bitboard::FULL; 6];
    for sq in open {
        within[Role::Pawn.index()] &= attacks::pawn(!us, sq).with(sq);
        within[Role::Knight.index()] &= attacks::knight(sq).with(sq);
        within[Role::Bishop.index()] &= attacks::bishop(sq, Bitboard::EMPTY).with(sq);
        within[Role::Rook.index()] &= attacks::rook(sq, Bitboard::EMPTY).with(sq);
        within[Role::Queen.index()] &= attacks::queen(sq, Bitboard::EMPTY).with(sq);
    }
    within
}

/// The roles of the side to move whose moves [`plain_mate`] looks at when no line can be
/// uncovered, the enemy king having `open` squares to step to: those whose man, checking alone,
/// can take them all from the king (the square it lands on counted). A queen takes at most six,
/// a rook four (next to the king: its own, the square behind the king and the two beside it),
/// a bishop two (its own or the one between, and the one behind the king), a knight or a pawn
/// one. The king's moves are castling (the caller keeps them only with castling rights), and
/// pawns are kept where one may promote or take en passant (such moves are all played).
fn mating_alone(pos: &Position, open: u32) -> u8 {
    let us = pos.turn();
    let seventh = match us {
        Color::White => Bitboard::rank(6),
        Color::Black => Bitboard::rank(1),
    };
    let mut roles = 1 << Role::Queen as u8 | 1 << Role::King as u8;
    if open <= 4 {
        roles |= 1 << Role::Rook as u8;
    }
    if open <= 2 {
        roles |= 1 << Role::Bishop as u8;
    }
    let promotes = (pos.by_color(us) & pos.by_role(Role::Pawn) & seventh).any();
    if open <= 1 || promotes || pos.ep_square().is_some() {
        roles |= 1 << Role::Knight as u8 | 1 << Role::Pawn as u8;
    }
    roles
}

/// Whether the enemy king can take the man that `mv` (a move that opens no line, not castling
/// nor en passant) brings next to it: no other man of the side to move guards the square it
/// lands on, seen through the king's own square (which the king leaves). Then a check by that
/// man alone is no mate.
#[inline]
fn king_takes(pos: &Position, mv: Move) -> bool {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let (from, to) = (mv.from(), mv.to());
    if !attacks::king(king).contains(to) {
        return false;
    }
    let occupied = pos.occupied().without(from).without(king).with(to);
    pos.attackers_to(to, us, occupied).without(from).is_empty()
}

/// The most open squares next to the enemy king for [`plain_mate`] to look further: one man
/// covers six of them at most (a queen next to the king: the square it lands on, and five the
/// king cannot step to along its lines); more need a second line opened.
const MAX_OPEN: u32 = 6;

/// The squares a `role` of `color` on `sq` attacks, given the occupied squares.
fn reach(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn(color, sq),
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occupied),
        Role::Rook => attacks::rook(sq, occupied),
        Role::Queen => attacks::queen(sq, occupied),
        Role::King => attacks::king(sq),
    }
}

/// Offers `sink` the legal moves of the side to move that may give check (see [`CheckSink`]),
/// each with whether the man moved may uncover a check; where no man can uncover one, only the
/// moves of `alone` (a set of roles: the others cannot give the check looked for). A man that
/// opens no line is offered only where it lands on `within[role]` (a pawn: unless it promotes).
fn checking_moves(
    pos: &Position,
    alone: u8,
    within: [Bitboard; 6],
    sink: impl FnMut(&Position, Move, bool),
) {
    let us = pos.turn();
    let king = pos.king_of(!us);
    let occupied = pos.occupied();
    let ours = pos.by_color(us);
    let sliders =
        ours & (pos.by_role(Role::Bishop) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen));
    // Our men alone on a line between one of our sliders and their king: moving one may uncover
    // a check.
    let mut uncover = Bitboard::EMPTY;
    for slider in sliders & attacks::queen(king, Bitboard::EMPTY) {
        let between = attacks::between(king, slider) & occupied;
        if !between.more_than_one() {
            uncover |= between & ours;
        }
    }
    let checks = [
        attacks::pawn(!us, king) & within[Role::Pawn.index()],
        attacks::knight(king) & within[Role::Knight.index()],
        attacks::bishop(king, occupied) & within[Role::Bishop.index()],
        attacks::rook(king, occupied) & within[Role::Rook.index()],
        attacks::queen(king, occupied) & within[Role::Queen.index()],
        Bitboard::EMPTY,
    ];
    // With no line to uncover, only the squares a man checks from count, and the last ranks
    // (promotions, castling), and the en passant square; the king moves only to castle.
    let (mut roles, mut to_mask) = (ALL_ROLES, Bitboard::FULL);
    if uncover.is_empty() {
        roles = alone;
        to_mask = checks
            .iter()
            .fold(Bitboard::BACK_RANKS, |mask, &squares| mask | squares);
        if let Some(ep) = pos.ep_square() {
            to_mask = to_mask.with(ep);
        }
        if (pos.castling_rooks() & ours).is_empty() {
            roles &= !(1 << Role::King as u8);
        }
        if roles & 1 << Role::King as u8 == 0
            && pos.ep_square().is_none()
            && !may_land_on_checks(pos, roles, &checks)
        {
            // No man can reach a square it checks from, nor promote: the generator would
            // offer nothing.
            return;
        }
    }
    let mut sink = CheckSink {
        king,
        checks,
        uncover,
        offer: sink,
        special: [None; 4],
    };
    pos.generate::<true, _>(roles, to_mask, &mut sink);
    for mv in sink.special.into_iter().flatten() {
        (sink.offer)(pos, mv, true);
    }
}

/// Whether a man of the side to move of one of `roles` (its king aside) may land on a square
/// `checks` gives for its role (see [`CheckSink`]), or promote: from its attacks on the board
/// (a pawn: its steps and captures), pins and its own men's squares aside. `false` only where
/// [`checking_moves`], with no line to uncover, would offer no move but castling and en passant.
fn may_land_on_checks(pos: &Position, roles: u8, checks: &[Bitboard; 6]) -> bool {
    let us = pos.turn();
    let ours = pos.by_color(us);
    let occupied = pos.occupied();
    let has = |role: Role| roles & 1 << role as u8 != 0;
    let men = |role: Role| ours & pos.by_role(role);
    if has(Role::Pawn) {
        let pawns = men(Role::Pawn);
        let (up, seventh) = match us {
            Color::White => (8, Bitboard::rank(6)),
            Color::Black => (-8, Bitboard::rank(1)),
        };
        let steps = pawns.shift(up) | pawns.shift(2 * up) | pawn_attacks(us, pawns);
        if (pawns & seventh).any() || (steps & checks[Role::Pawn.index()]).any() {
            return true;
        }
    }
    let lands = |role: Role, attacks: fn(Square, Bitboard) -> Bitboard| {
        let onto = checks[role.index()] & !ours;
        has(role)
            && onto.any()
            && men(role)
                .into_iter()
                .any(|sq| (attacks(sq, occupied) & onto).any())
    };
    lands(Role::Knight, |sq, _| attacks::knight(sq))
        || lands(Role::Bishop, attacks::bishop)
        || lands(Role::Rook, attacks::rook)
        || lands(Role::Queen, attacks::queen)
}

/// Every role, as the generator's bit set.
const ALL_ROLES: u8 = 0b11_1111;

/// Offers `offer` the moves that may give check to the king on `king`: `checks[role]` holds the
/// squares from which a `role` attacks it (pawn, knight, bishop, rook, queen, in [`Role::index`]
/// order; those the caller looks at); moves of the men on `uncover` may open a line. Never a move
/// onto the king's square (which a turned position could offer). Castling and en passant captures
/// (at most two of each) wait in `special` for the position, which the generator does not give with
/// them.
struct CheckSink<F> {
    king: Square,
    checks: [Bitboard; 6],
    uncover: Bitboard,
    offer: F,
    special: [Option<Move>; 4],
}

impl<F: FnMut(&Position, Move, bool)> CheckSink<F> {
    #[inline]
    fn pawn(&mut self, pos: &Position, from: Square, to: Square) {
        let capture = pos.role_at(to);
        let uncovers = self.uncover.contains(from);
        if Bitboard::BACK_RANKS.contains(to) {
            // Promotions are few, and the pawn may have stood on the new piece's line: they are
            // all tried, but for a rook and a bishop: a queen on the same square checks wherever
            // either would, and mates wherever either would (it takes every square either takes,
            // and pins every man either pins), and it comes first.
            for role in [Role::Queen, Role::Knight] {
                let mv = Move::normal(Role::Pawn, from, capture, to, Some(role));
                (self.offer)(pos, mv, uncovers);
            }
        } else if uncovers || self.checks[Role::Pawn.index()].contains(to) {
            (self.offer)(
                pos,
                Move::normal(Role::Pawn, from, capture, to, None),
                uncovers,
            );
        }
    }

    /// Keeps a castling or an en passant capture in `special`.
    #[inline]
    fn keep(&mut self, mv: Move) {
        if let Some(slot) = self.special.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some(mv);
        }
    }
}

impl<F: FnMut(&Position, Move, bool)> Sink for CheckSink<F> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        let targets = targets.without(self.king);
        if role == Role::Pawn {
            for to in targets {
                self.pawn(pos, from, to);
            }
            return;
        }
        let uncovers = self.uncover.contains(from);
        let hits = if uncovers {
            targets
        } else {
            targets & self.checks[role.index()]
        };
        for to in hits {
            (self.offer)(
                pos,
                Move::normal(role, from, pos.role_at(to), to, None),
                uncovers,
            );
        }
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        for to in targets.without(self.king) {
            let from = Square::from_index((to.index() as i32 - delta) as u8);
            self.pawn(pos, from, to);
        }
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.keep(Move::en_passant(from, to));
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.keep(Move::castle(king, rook));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::along_random_games;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    /// Starts of random games for the tests of which men can mate alone: a middle game, a back
    /// rank, a rook and a lone king, minor pieces, a king beside its pawns.
    const MATING_STARTS: [&str; 5] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "4k3/8/8/8/8/8/8/1NB1KB2 w - - 0 1",
        "7k/5Kpp/8/8/8/8/6P1/8 w - - 0 1",
    ];

    /// Along random games, the checks found are exactly the legal moves that give check: a mate
    /// is reported exactly when some legal move mates, and "a check" (by `threat` and by
    /// `any_check`) exactly when one checks.
    #[test]
    fn agrees_with_playing_every_move() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        ];
        let (mut checked, mut mates, mut plain) = (0, 0, 0);
        along_random_games(&starts, 40, 40, 0x2545_f491_4f6c_dd1d, |pos, moves| {
            let (mut mate, mut any) = (false, false);
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                any |= child.is_check();
                mate |= child.is_checkmate();
            }
            let (found, has) = threat(pos, open_squares(pos));
            assert_eq!((found.is_some(), has), (mate, any), "{}", pos.to_fen());
            assert_eq!(any_check(pos), any, "{}", pos.to_fen());
            if let Some(mv) = found {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                assert!(child.is_checkmate() && child.turn() != pos.turn());
                mates += 1;
            }
            if let Some(mv) = plain_mate(pos, seen_past_the_king(pos)) {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                assert!(child.is_checkmate(), "{} {mv:?}", pos.to_fen());
                plain += 1;
            }
            checked += 1;
        });
        assert!(checked > 5_000 && mates > 0, "{checked} {mates}");
        // The plain test misses only the rare mates that need a line opened.
        assert!(
            plain <= mates && 10 * plain >= 9 * mates,
            "{plain} of {mates}"
        );
    }

    /// Along random games, looking only at the roles that can mate alone finds the same mate
    /// (the same move) as looking at every role, and mates by rooks, bishops, knights and pawns
    /// are among them.
    /// Every move whose man, from where it lands, takes all the open squares from the enemy king
    /// (the one it lands on aside) lands where [`covering_squares`] says: [`plain_mate`] misses
    /// none of them by looking there only. Along random games, with the moves checked counted.
    #[test]
    fn the_covering_squares_hold_every_man_that_takes_the_open_squares() {
        let (mut covering, mut narrowed) = (0, 0);
        along_random_games(
            &MATING_STARTS,
            40,
            60,
            0x510e_527f_ade6_82d1,
            |pos, moves| {
                let us = pos.turn();
                let seen_through = pos.occupied().without(pos.king_of(!us));
                let open = open_squares(pos);
                let within = covering_squares(us, open);
                for &mv in moves.iter() {
                    if mv.role() == Role::King || !normal(mv) || mv.promotion().is_some() {
                        continue;
                    }
                    let (from, to) = (mv.from(), mv.to());
                    let covered = reach(mv.role(), us, to, seen_through.without(from).with(to));
                    if (open.without(to) & !covered).is_empty() {
                        covering += 1;
                        assert!(
                            within[mv.role().index()].contains(to),
                            "{} {mv:?}",
                            pos.to_fen()
                        );
                    } else if !within[mv.role().index()].contains(to) {
                        narrowed += 1;
                    }
                }
            },
        );
        assert!(
            covering > 1_000 && narrowed > 1_000,
            "{covering} {narrowed}"
        );
    }

    #[test]
    fn the_roles_that_cannot_mate_alone_are_not_looked_at() {
        let mut by_role = [0; 6];
        along_random_games(&MATING_STARTS, 40, 60, 0x6a09_e667_f3bc_c908, |pos, _| {
            let found = plain_mate(pos, seen_past_the_king(pos));
            assert_eq!(
                found,
                plain_mate_among(pos, seen_past_the_king(pos), |_, _| ALL_ROLES),
                "{}",
                pos.to_fen()
            );
            if let Some(mv) = found {
                by_role[mv.role().index()] += 1;
            }
        });
        let [pawn, knight, bishop, rook, queen, _] = by_role;
        assert!(
            pawn + knight > 0 && bishop > 0 && rook > 0 && queen > 0,
            "{by_role:?}"
        );
        // A man alone takes as many open squares as it can: a bishop two (Black's king on c5
        // has b4 and d6: Ba3 takes b4, and d6 behind the king), a knight one (White's king on
        // d3 has c4; Ne5 takes it).
        for (text, open, mate) in [
            (
                "8/8/1p2Bp1p/p1k1p3/B1pp4/6p1/8/2B2KB1 w - - 0 19",
                2,
                "c1a3",
            ),
            (
                "bk6/3n4/4p1p1/8/Pp1p3r/1P1K2Pp/2P2r1P/R4R2 b - - 1 31",
                1,
                "d7e5",
            ),
        ] {
            let pos = fen(text);
            assert_eq!(open_squares(&pos).count(), open, "{text}");
            let found =
                plain_mate(&pos, seen_past_the_king(&pos)).map(|mv| mv.to_uci(false).to_string());
            assert_eq!(found.as_deref(), Some(mate), "{text}");
        }
    }

    /// Where no man may land on a square it checks from, nor promote, no legal move of a man
    /// (the king's and en passant aside) does, along random games; and that answer is common.
    #[test]
    fn no_man_lands_on_a_check_where_none_may() {
        let (mut none, mut some) = (0, 0);
        along_random_games(
            &MATING_STARTS,
            40,
            60,
            0x1f83_d9ab_fb41_bd6b,
            |pos, moves| {
                let king = pos.king_of(!pos.turn());
                let occupied = pos.occupied();
                let checks = [
                    attacks::pawn(!pos.turn(), king),
                    attacks::knight(king),
                    attacks::bishop(king, occupied),
                    attacks::rook(king, occupied),
                    attacks::queen(king, occupied),
                    Bitboard::EMPTY,
                ];
                let roles = ALL_ROLES & !(1 << Role::King as u8);
                let lands = moves.iter().any(|mv| {
                    mv.role() != Role::King
                        && !mv.is_en_passant()
                        && (mv.promotion().is_some() || checks[mv.role().index()].contains(mv.to()))
                });
                if may_land_on_checks(pos, roles, &checks) {
                    some += 1;
                } else {
                    assert!(!lands, "{}", pos.to_fen());
                    none += 1;
                }
            },
        );
        assert!(none > 500 && some > 500, "{none} {some}");
    }

    #[test]
    fn the_king_takes_an_unguarded_checker_next_to_it() {
        let takes = |text: &str, uci: &str| {
            let pos = fen(text);
            let mv = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|mv| mv.to_uci(false).to_string() == uci)
                .expect("a legal move");
            king_takes(&pos, mv)
        };
        // Qd7+ next to the king on e8, guarded by nothing: the king takes it.
        assert!(takes("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2d7"));
        // Guarded by the rook on d1 (through the queen's own square, which it leaves).
        assert!(!takes("4k3/8/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d7"));
        // Guarded by the knight on e5.
        assert!(!takes("4k3/8/8/4N3/8/8/3Q4/4K3 w - - 0 1", "d2d7"));
        // Not next to the king: nothing to take.
        assert!(!takes("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1a4"));
    }

    #[test]
    fn plain_mates_are_found() {
        for (text, mate) in [
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"),
            ("k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8"),
            ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "b1b8"),
            ("6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", "g5f7"),
        ] {
            let found = plain_mate(&fen(text), seen_past_the_king(&fen(text)))
                .map(|mv| mv.to_uci(false).to_string());
            assert_eq!(found.as_deref(), Some(mate), "{text}");
        }
    }
}
