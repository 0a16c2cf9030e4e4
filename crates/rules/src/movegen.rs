//! Legal move generation with a check mask and pin masks.
//!
//! Only king moves, en passant and castling are tested by looking at the resulting
//! occupancy; every other move is legal by construction: when in check, non-king moves must land
//! on the checker or between it and the king; a pinned piece may move only along the line
//! through its king and itself; in double check only the king moves.
//!
//! The generator reports moves to a `Sink`, in bulk (a piece and its target set), so the
//! same code fills a [`MoveList`] or just counts (perft's last ply).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{CastlingSide, Color, Piece, Role, Square};

/// Where generated moves go.
pub(crate) trait Sink {
    /// Moves of the `role` on `from` to each of `targets` (a pawn reaching the last rank
    /// stands for its four promotions).
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each from `to - delta`.
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32);
    /// An en passant capture.
    fn en_passant(&mut self, from: Square, to: Square);
    /// Castling of the king on `king` with the rook on `rook`.
    fn castle(&mut self, king: Square, rook: Square);
}

/// Collects moves into a [`MoveList`].
struct ListSink<'a>(&'a mut MoveList);

impl ListSink<'_> {
    #[inline]
    fn pawn_move(&mut self, pos: &Position, from: Square, to: Square) {
        let capture = pos.role_at(to);
        if Bitboard::BACK_RANKS.contains(to) {
            for role in Role::PROMOTIONS {
                self.0
                    .push(Move::normal(Role::Pawn, from, capture, to, Some(role)));
            }
        } else {
            self.0
                .push(Move::normal(Role::Pawn, from, capture, to, None));
        }
    }
}

impl Sink for ListSink<'_> {
    #[inline]
    fn piece(&mut self, pos: &Position, role: Role, from: Square, targets: Bitboard) {
        if role == Role::Pawn {
            for to in targets {
                self.pawn_move(pos, from, to);
            }
        } else {
            for to in targets {
                self.0
                    .push(Move::normal(role, from, pos.role_at(to), to, None));
            }
        }
    }

    #[inline]
    fn pawns(&mut self, pos: &Position, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta) as u8);
            self.pawn_move(pos, from, to);
        }
    }

    #[inline]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.0.push(Move::en_passant(from, to));
    }

    #[inline]
    fn castle(&mut self, king: Square, rook: Square) {
        self.0.push(Move::castle(king, rook));
    }
}

/// Counts moves without listing them.
struct CountSink(u64);

impl Sink for CountSink {
    #[inline]
    fn piece(&mut self, _: &Position, role: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
        if role == Role::Pawn {
            self.0 += 3 * u64::from((targets & Bitboard::BACK_RANKS).count());
        }
    }

    #[inline]
    fn pawns(&mut self, _: &Position, targets: Bitboard, _: i32) {
        self.0 +=
            u64::from(targets.count()) + 3 * u64::from((targets & Bitboard::BACK_RANKS).count());
    }

    #[inline]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }

    #[inline]
    fn castle(&mut self, _: Square, _: Square) {
        self.0 += 1;
    }
}

/// Notes whether there is any move at all.
struct AnySink(bool);

impl Sink for AnySink {
    #[inline]
    fn piece(&mut self, _: &Position, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn pawns(&mut self, _: &Position, targets: Bitboard, _: i32) {
        self.0 |= targets.any();
    }

    #[inline]
    fn en_passant(&mut self, _: Square, _: Square) {
        self.0 = true;
    }

    #[inline]
    fn castle(&mut self, _: Square, _: Square) {
        self.0 = true;
    }
}

/// All roles, as a bit set indexed by [`Role::index`].
const ALL_ROLES: u8 = 0b11_1111;

/// What the sliders' moves need of the generation: our king, our pinned men, the squares a
/// move may land on, and the occupied squares.
struct Lines {
    king: Square,
    pinned: Bitboard,
    target: Bitboard,
    occupied: Bitboard,
}

#[inline]
const fn has(roles: u8, role: Role) -> bool {
    roles & (1 << role as u8) != 0
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true, _>(ALL_ROLES, Bitboard::FULL, &mut ListSink(&mut list));
        list
    }

    /// The legal moves of a `role` piece that land on `to`: pawn moves include promotions and
    /// en passant, king moves include castling whose king lands on `to`.
    pub fn legal_moves_to(&self, role: Role, to: Square) -> MoveList {
        let mut list = MoveList::new();
        self.push_legal_moves_to(role, to, &mut list);
        list
    }

    /// [`Position::legal_moves_to`] pushed onto `list`, for a caller that keeps the list where
    /// it is (a [`MoveList`] returned is a 4 KB copy the compiler does not always spare).
    pub(crate) fn push_legal_moves_to(&self, role: Role, to: Square, list: &mut MoveList) {
        self.generate::<true, _>(
            1 << role as u8,
            Bitboard::from_square(to),
            &mut ListSink(list),
        );
    }

    /// Every move that would be legal if our own king's safety did not matter (the king may move
    /// into check, pinned pieces may move, en passant ignores exposure). Castling is included only
    /// when it is fully legal.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<false, _>(ALL_ROLES, Bitboard::FULL, &mut ListSink(&mut list));
        list
    }

    /// The legal castling move on `side`, if there is one.
    pub fn castling_move(&self, side: CastlingSide) -> Option<Move> {
        self.castling_move_knowing_check(side, None)
    }

    /// [`Position::castling_move`], when whether the side to move is in check may be known:
    /// `in_check` is `None` or `Some(self.is_check())` (SAN resolution knows it, and spares the
    /// test). Looks at the one rook with castling rights on `side`, without the generator.
    #[inline]
    pub fn castling_move_knowing_check(
        &self,
        side: CastlingSide,
        in_check: Option<bool>,
    ) -> Option<Move> {
        let us = self.turn;
        let king = self.king_of(us);
        let rook = self
            .castling_rooks_of(us, king)
            .into_iter()
            .find(|&rook| CastlingSide::of_rook(king, rook) == side)?;
        if in_check.unwrap_or_else(|| self.is_check()) || !self.may_castle(king, rook) {
            return None;
        }
        Some(Move::castle(king, rook))
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut sink = CountSink(0);
        self.generate::<true, _>(ALL_ROLES, Bitboard::FULL, &mut sink);
        sink.0
    }

    /// Whether the side to move has a legal move. Cheaper than counting them, above all in check
    /// (the check-mark test after every checking move): the king's steps come first (against one
    /// attack map where it has two or more), and a safe one answers; in double check nothing else can help; against a single checker
    /// only captures of it and blocks are looked for; castling comes last.
    pub fn has_legal_moves(&self) -> bool {
        const KING: u8 = 1 << Role::King as u8;
        let us = self.turn;
        let them = !us;
        let king = self.king_of(us);
        let occupied = self.occupied();
        let without_king = occupied.without(king);
        // The king's steps first, against one attack map where it has two or more.
        let steps = attacks::king(king) & !self.by_color(us);
        let safe = if steps.more_than_one() {
            (steps & !self.attacked_by(them, without_king)).any()
        } else {
            steps
                .first()
                .is_some_and(|to| self.attackers_to(to, them, without_king).is_empty())
        };
        if safe {
            return true;
        }
        let checkers = self.attackers_to(king, them, occupied);
        if checkers.more_than_one() {
            return false;
        }
        let mut sink = AnySink(false);
        if let Some(checker) = checkers.first() {
            if self.can_answer_check(king, checker, occupied) {
                return true;
            }
            // En passant may capture a checking pawn without landing on its square.
            if let Some(ep) = self.ep {
                self.generate::<true, _>(ALL_ROLES & !KING, Bitboard::from_square(ep), &mut sink);
            }
            return sink.0;
        }
        self.generate::<true, _>(ALL_ROLES & !KING, Bitboard::FULL, &mut sink);
        if !sink.0 {
            // Only castling is left to try (the king's steps were all unsafe).
            self.generate::<true, _>(KING, Bitboard::FULL, &mut sink);
        }
        sink.0
    }

    /// Whether a piece other than the king can capture the single `checker` or step between it
    /// and the `king` (en passant aside). A pinned piece never can: leaving its pin line exposes
    /// the king, and the checker does not stand on that line (the pinned piece would block it).
    fn can_answer_check(&self, king: Square, checker: Square, occupied: Bitboard) -> bool {
        let us = self.turn;
        let helpers =
            self.by_color(us) & !self.pinned_to(king, us, occupied) & !self.by_role(Role::King);
        if (self.attackers_to(checker, us, occupied) & helpers).any() {
            return true;
        }
        let pawns = self.by_role(Role::Pawn) & helpers;
        let (down, fourth) = match us {
            Color::White => (-8, 3),
            Color::Black => (8, 4),
        };
        attacks::between(king, checker).iter().any(|sq| {
            // Onto an empty square a piece goes where it attacks, a pawn only by a push.
            let one = Bitboard::from_square(sq).shift(down);
            (self.attackers_to(sq, us, occupied) & helpers & !pawns).any()
                || (one & pawns).any()
                || sq.rank() == fourth
                    && (one & occupied).is_empty()
                    && (one.shift(down) & pawns).any()
        })
    }

    /// The squares the men of `by` attack, given the occupied squares (a pawn's are the two it
    /// may take on, whether a man stands there or not).
    pub(crate) fn attacked_by(&self, by: Color, occupied: Bitboard) -> Bitboard {
        let ours = self.by_color(by);
        let queens = self.by_role(Role::Queen);
        let pawns = ours & self.by_role(Role::Pawn);
        let (west, east) = (pawns & !Bitboard::FILE_A, pawns & !Bitboard::FILE_H);
        let mut attacked = attacks::king(self.king_of(by))
            | match by {
                Color::White => west.shift(7) | east.shift(9),
                Color::Black => west.shift(-9) | east.shift(-7),
            };
        for sq in ours & self.by_role(Role::Knight) {
            attacked |= attacks::knight(sq);
        }
        for sq in ours & (self.by_role(Role::Bishop) | queens) {
            attacked |= attacks::bishop(sq, occupied);
        }
        for sq in ours & (self.by_role(Role::Rook) | queens) {
            attacked |= attacks::rook(sq, occupied);
        }
        attacked
    }

    /// The pieces of the side to move that are pinned to their king.
    pub fn pinned(&self) -> Bitboard {
        let us = self.turn;
        self.pinned_to(self.king_of(us), us, self.occupied())
    }

    #[inline]
    fn pinned_to(&self, king: Square, us: Color, occupied: Bitboard) -> Bitboard {
        let queens = self.by_role(Role::Queen);
        let snipers = ((attacks::rook(king, Bitboard::EMPTY)
            & (self.by_role(Role::Rook) | queens))
            | (attacks::bishop(king, Bitboard::EMPTY) & (self.by_role(Role::Bishop) | queens)))
            & self.by_color(!us);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & occupied;
            if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & self.by_color(us)
    }

    /// The generator. `LEGAL = false` drops the king-safety rules (pseudo-legal moves).
    /// `roles` is a bit set of the roles to generate, `to_mask` the allowed destinations.
    pub(crate) fn generate<const LEGAL: bool, S: Sink>(
        &self,
        roles: u8,
        to_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours | theirs;
        let king = self.king_of(us);
        let checkers = self.attackers_to(king, them, occupied);

        if has(roles, Role::King) {
            let mut targets = attacks::king(king) & !ours & to_mask;
            if LEGAL {
                // The squares the king may not step to, seen through the king itself: one
                // attack map where it has two steps or more (cheaper than asking each square
                // for its attackers), else the one square asked.
                let without_king = occupied.without(king);
                if targets.more_than_one() {
                    targets &= !self.attacked_by(them, without_king);
                } else if let Some(to) = targets.first()
                    && self.attackers_to(to, them, without_king).any()
                {
                    targets = Bitboard::EMPTY;
                }
            }
            sink.piece(self, Role::King, king, targets);
            if checkers.is_empty() {
                self.castling_moves(king, to_mask, sink);
            }
        }

        if LEGAL && checkers.more_than_one() {
            return;
        }
        let mut target = !ours & to_mask;
        let pinned = if LEGAL {
            if let Some(checker) = checkers.first() {
                target &= attacks::between(king, checker).with(checker);
            }
            self.pinned_to(king, us, occupied)
        } else {
            Bitboard::EMPTY
        };

        if has(roles, Role::Pawn) {
            self.pawn_moves::<LEGAL, S>(king, pinned, target, to_mask, sink);
        }
        if has(roles, Role::Knight) {
            for from in self.by_role(Role::Knight) & ours & !pinned {
                sink.piece(self, Role::Knight, from, attacks::knight(from) & target);
            }
        }
        // One call a role, each with its lines known at compile time (a loop over the three
        // roles was not unrolled: its control cost more than the work on few men).
        let lines = Lines {
            king,
            pinned,
            target,
            occupied,
        };
        if has(roles, Role::Bishop) {
            self.slider_moves(Role::Bishop, false, true, &lines, sink);
        }
        if has(roles, Role::Rook) {
            self.slider_moves(Role::Rook, true, false, &lines, sink);
        }
        if has(roles, Role::Queen) {
            self.slider_moves(Role::Queen, true, true, &lines, sink);
        }
    }

    /// The moves of our men of `role`, which move along the rook's lines (`rook_like`) and
    /// the bishop's (`bishop_like`), onto `lines.target` (along their pin, if pinned).
    #[inline(always)]
    fn slider_moves<S: Sink>(
        &self,
        role: Role,
        rook_like: bool,
        bishop_like: bool,
        lines: &Lines,
        sink: &mut S,
    ) {
        for from in self.by_role(role) & self.by_color(self.turn) {
            let mut targets = lines.target;
            if lines.pinned.contains(from) {
                targets &= attacks::ray(lines.king, from);
            }
            let mut reach = Bitboard::EMPTY;
            if rook_like {
                reach |= attacks::rook(from, lines.occupied);
            }
            if bishop_like {
                reach |= attacks::bishop(from, lines.occupied);
            }
            sink.piece(self, role, from, reach & targets);
        }
    }

    #[inline]
    fn pawn_moves<const LEGAL: bool, S: Sink>(
        &self,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
        to_mask: Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let ours = self.by_color(us);
        let theirs = self.by_color(!us);
        let empty = !(ours | theirs);
        let pawns = self.by_role(Role::Pawn) & ours;
        let free = pawns & !pinned;
        let (up, third, west, east) = match us {
            Color::White => (8, Bitboard::RANK_3, 7, 9),
            Color::Black => (-8, Bitboard::RANK_6, -9, -7),
        };

        let single = free.shift(up) & empty;
        let double = (single & third).shift(up) & empty;
        sink.pawns(self, single & target, up);
        sink.pawns(self, double & target, 2 * up);
        let west_caps = (free & !Bitboard::FILE_A).shift(west) & theirs;
        let east_caps = (free & !Bitboard::FILE_H).shift(east) & theirs;
        sink.pawns(self, west_caps & target, west);
        sink.pawns(self, east_caps & target, east);

        for from in pawns & pinned {
            let mut targets = attacks::pawn(us, from) & theirs;
            let push = Bitboard::from_square(from).shift(up) & empty;
            targets |= push | ((push & third).shift(up) & empty);
            sink.piece(
                self,
                Role::Pawn,
                from,
                targets & target & attacks::ray(king, from),
            );
        }

        if let Some(ep) = self.ep.filter(|&ep| to_mask.contains(ep)) {
            for from in attacks::pawn(!us, ep) & pawns {
                if !LEGAL || self.is_safe_en_passant(from, ep) {
                    sink.en_passant(from, ep);
                }
            }
        }
    }

    /// Castling moves, for a king not in check.
    fn castling_moves<S: Sink>(&self, king: Square, to_mask: Bitboard, sink: &mut S) {
        for rook in self.castling_rooks_of(self.turn, king) {
            let king_to = CastlingSide::of_rook(king, rook).king_to(self.turn);
            if to_mask.contains(king_to) && self.may_castle(king, rook) {
                sink.castle(king, rook);
            }
        }
    }

    /// The rooks `color` may castle with, its king on `king`: those with castling rights on its
    /// back rank, if the king stands there too.
    #[inline]
    fn castling_rooks_of(&self, color: Color, king: Square) -> Bitboard {
        if king.rank() != color.back_rank() {
            return Bitboard::EMPTY;
        }
        self.castling
            & self.by_piece(Piece {
                color,
                role: Role::Rook,
            })
            & Bitboard::rank(color.back_rank())
    }

    /// Whether the king on `king`, not in check, may castle with the rook on `rook` (one of
    /// [`Position::castling_rooks_of`]): the squares between king and destination and between
    /// rook and destination are empty (but for the castling king and rook), and no square the
    /// king passes or lands on is attacked.
    #[inline]
    fn may_castle(&self, king: Square, rook: Square) -> bool {
        let us = self.turn;
        let them = !us;
        let side = CastlingSide::of_rook(king, rook);
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        let occupied = self.occupied();
        let passed = attacks::between(king, king_to);
        let path = (passed | attacks::between(rook, rook_to) | king_to | rook_to)
            .without(king)
            .without(rook);
        if (path & occupied).any() {
            return false;
        }
        let without_king = occupied.without(king);
        if passed
            .iter()
            .any(|sq| self.attackers_to(sq, them, without_king).any())
        {
            return false;
        }
        let after = without_king.without(rook).with(rook_to);
        self.attackers_to(king_to, them, after).is_empty()
    }
}
