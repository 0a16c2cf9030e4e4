//! From a parsed [`San`] to a legal [`Move`] of a position, with the non-standard forms used.
//!
//! The commonest moves are found straight from the board (`direct`); the general path asks only
//! for the legal moves of one piece kind onto one square (`candidates`, as
//! [`Position::legal_moves_to`] gives them); the slower explanation of a failure lives in
//! `explain`.

use super::error::SanError;
use super::{Leniency, San, Shape, Written, candidates, direct, explain};
use crate::{Bitboard, CastlingSide, Move, Position, Role};

/// A move read from SAN and found legal, with the non-standard forms its text used.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Resolved {
    /// The legal move.
    pub mv: Move,
    /// The non-standard forms used; empty for canonical SAN.
    pub leniency: Leniency,
}

/// What a failed resolution gives back: the whole [`SanError`], or nothing ([`Unexplained`]).
///
/// The resolver is written once, generic over this. [`San::try_resolve_knowing_check`] asks for
/// no explanation, so its result is a `Result<Resolved, Unexplained>`: sixteen bytes, handed back
/// in two registers. A `Result<Resolved, SanError>` is larger and comes back through memory, where
/// the replay read the move as one eight-byte load over the narrower stores that built it, a
/// store-forwarding stall that cost several percent of the whole replay.
pub(super) trait Failure: Sized {
    /// The failure; `explain` says what is wrong, for the implementations that want to know.
    fn new(explain: impl FnOnce() -> SanError) -> Self;
}

impl Failure for SanError {
    #[inline(always)]
    fn new(explain: impl FnOnce() -> SanError) -> SanError {
        explain()
    }
}

/// A failure without its explanation (see [`Failure`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) struct Unexplained;

impl Failure for Unexplained {
    #[inline(always)]
    fn new(_explain: impl FnOnce() -> SanError) -> Unexplained {
        Unexplained
    }
}

/// Resolves castling to `side`.
#[inline(always)]
fn castle<E: Failure>(
    pos: &Position,
    san: San,
    side: CastlingSide,
    leniency: Leniency,
    in_check: Option<bool>,
) -> Result<Resolved, E> {
    match pos.castling_move_knowing_check(side, in_check) {
        Some(mv) => Ok(Resolved { mv, leniency }),
        None => Err(E::new(|| explain::castling(pos, san, side))),
    }
}

/// The leniency flags that follow from the writing alone.
fn written_leniency(written: Written) -> Leniency {
    const MAP: [(Written, Leniency); 6] = [
        (Written::ZEROS, Leniency::CASTLING_WITH_ZEROS),
        (
            Written::PROMOTION_WITHOUT_EQUALS,
            Leniency::PROMOTION_WITHOUT_EQUALS,
        ),
        (Written::LOWERCASE_PROMOTION, Leniency::LOWERCASE_PROMOTION),
        (Written::EN_PASSANT_MARK, Leniency::EN_PASSANT_MARK),
        (Written::DOUBLE_PLUS, Leniency::DOUBLE_PLUS),
        (Written::PAWN_LETTER, Leniency::PAWN_LETTER),
    ];
    const ANY: Written = {
        let mut any = Written::EMPTY;
        let mut i = 0;
        while i < MAP.len() {
            any = any.union(MAP[i].0);
            i += 1;
        }
        any
    };
    let mut leniency = Leniency::EMPTY;
    if written.bits() & ANY.bits() == 0 {
        // Nearly every move: no flag here (a capture mark alone says nothing non-standard).
        return leniency;
    }
    for (w, l) in MAP {
        if written.contains(w) {
            leniency |= l;
        }
    }
    leniency
}

impl San {
    /// The legal move this SAN names in `pos`, and the non-standard forms it used.
    ///
    /// A null move is not a move: check [`San::is_null`] first and call
    /// [`Position::play_null`].
    pub fn resolve(&self, pos: &Position) -> Result<Resolved, SanError> {
        self.resolve_knowing_check(pos, None)
    }

    /// Like [`San::resolve`], for a caller that knows whether the side to move is in check:
    /// `in_check` must be `None` or `Some(pos.is_check())`. Knowing it spares most candidate moves
    /// their king-safety query.
    pub fn resolve_knowing_check(
        &self,
        pos: &Position,
        in_check: Option<bool>,
    ) -> Result<Resolved, SanError> {
        self.resolve_with(pos, in_check)
    }

    /// Like [`San::resolve_knowing_check`], without saying what is wrong when the move does not
    /// resolve: the same answer in a smaller value, for the replay's hot path (see `Failure`).
    /// Ask [`San::resolve_knowing_check`] for the error.
    #[inline]
    pub fn try_resolve_knowing_check(
        &self,
        pos: &Position,
        in_check: Option<bool>,
    ) -> Option<Resolved> {
        self.resolve_with::<Unexplained>(pos, in_check).ok()
    }

    /// The resolver itself, for either kind of [`Failure`]: the commonest moves straight from
    /// the board ([`direct::resolve`]), the rest by [`San::resolve_general`].
    #[inline(always)]
    fn resolve_with<E: Failure>(
        &self,
        pos: &Position,
        in_check: Option<bool>,
    ) -> Result<Resolved, E> {
        debug_assert!(in_check.is_none_or(|check| check == pos.is_check()));
        match direct::resolve(self, pos, in_check) {
            Some(resolved) => Ok(resolved),
            None => self.resolve_general(pos, in_check),
        }
    }

    /// The general resolver: every form, every failure explained (when `E` wants it).
    #[inline(always)]
    pub(super) fn resolve_general<E: Failure>(
        &self,
        pos: &Position,
        in_check: Option<bool>,
    ) -> Result<Resolved, E> {
        let san = *self;
        let base = written_leniency(self.written);
        match self.shape {
            Shape::Null => Err(E::new(|| SanError::NullMove { san })),
            Shape::KingSide => castle(pos, san, CastlingSide::KingSide, base, in_check),
            Shape::QueenSide => castle(pos, san, CastlingSide::QueenSide, base, in_check),
            Shape::Normal => self.resolve_normal(pos, base, in_check),
        }
    }

    /// Like [`San::resolve`], but any non-standard form is an error
    /// ([`SanError::NotStandard`]).
    pub fn resolve_strict(&self, pos: &Position) -> Result<Move, SanError> {
        let resolved = self.resolve(pos)?;
        match resolved.leniency.iter().next() {
            None => Ok(resolved.mv),
            Some(form) => Err(SanError::NotStandard { san: *self, form }),
        }
    }

    /// The piece that moves: the letter, else the piece on a given origin square, else a pawn.
    pub(super) fn moving_role(&self, pos: &Position) -> Role {
        match (self.role, self.from_square()) {
            (Some(role), _) => role,
            (None, Some(from)) => match pos.piece_at(from) {
                Some(piece) if piece.color == pos.turn() => piece.role,
                _ => Role::Pawn,
            },
            (None, None) => Role::Pawn,
        }
    }

    /// Whether `mv` (a normal move, not castling) fits the origin and promotion given.
    pub(super) fn fits(&self, mv: &Move) -> bool {
        !mv.is_castle()
            && self.from_file().is_none_or(|f| f == mv.from().file())
            && self.from_rank().is_none_or(|r| r == mv.from().rank())
            && mv.promotion() == self.promotion
    }

    #[inline(always)]
    fn resolve_normal<E: Failure>(
        &self,
        pos: &Position,
        mut leniency: Leniency,
        in_check: Option<bool>,
    ) -> Result<Resolved, E> {
        let san = *self;
        let role = self.moving_role(pos);
        if let Some(promotion) = self.promotion {
            if matches!(promotion, Role::King | Role::Pawn) {
                return Err(E::new(|| SanError::BadPromotion {
                    san,
                    role: promotion,
                }));
            }
            if role == Role::Pawn && self.to.rank() != (!pos.turn()).back_rank() {
                return Err(E::new(|| SanError::PromotionNotOnLastRank { san }));
            }
        }
        let moves = candidates::legal_moves_to(pos, role, self.to, in_check);
        if let Some(mv) = self.single_fit(&moves) {
            leniency |= self.form_leniency(&mv, moves.froms);
            if !self.forgives(leniency) {
                return Err(E::new(|| explain::no_move(pos, san, role)));
            }
            return Ok(Resolved { mv, leniency });
        }
        let mut found = None;
        let mut count = 0;
        let mut same_capture = 0;
        // Only the origins the text allows: a pawn without file or capture mark pushes.
        let allowed = |mv: &Move| {
            self.fits(mv)
                && self
                    .implied_from_file(role)
                    .is_none_or(|f| f == mv.from().file())
        };
        for mv in moves.moves().filter(allowed) {
            count += 1;
            if mv.is_capture() == self.is_capture() {
                same_capture += 1;
                found = Some(mv);
            } else if found.is_none_or(|f: Move| f.is_capture() != self.is_capture()) {
                found = Some(mv);
            }
        }
        let mv = match found {
            Some(mv) if count == 1 || same_capture == 1 => mv,
            Some(_) => {
                return Err(E::new(|| SanError::Ambiguous {
                    san,
                    role,
                    candidates: moves
                        .moves()
                        .filter(allowed)
                        .filter(|mv| same_capture == 0 || mv.is_capture() == self.is_capture())
                        .map(|mv| mv.from())
                        .collect(),
                }));
            }
            None if role == Role::King => match self.castling_as_king_move(pos) {
                Some(mv) => {
                    return Ok(Resolved {
                        mv,
                        leniency: leniency | Leniency::CASTLING_AS_KING_MOVE,
                    });
                }
                None => return Err(E::new(|| explain::no_move(pos, san, role))),
            },
            None => return Err(E::new(|| explain::no_move(pos, san, role))),
        };
        leniency |= self.form_leniency(&mv, moves.froms);
        Ok(Resolved { mv, leniency })
    }

    /// Whether the non-standard forms `leniency` may be forgiven: leniency forgives how a move
    /// is written, never a different origin. A pawn written without file or capture mark is a
    /// push from the destination's file (see [`San::implied_from_file`]), so a capture found for
    /// it (`a3` for `bxa3`) is no fit. (The direct resolution never gives a pawn capture without
    /// its file, and the general search leaves such origins out: the check costs the common moves
    /// nothing.)
    #[inline(always)]
    fn forgives(&self, leniency: Leniency) -> bool {
        !leniency.contains(Leniency::PAWN_CAPTURE_WITHOUT_FILE) || self.is_capture()
    }

    /// The move, when exactly one of `moves` fits the origin and promotion given (the common
    /// case, decided on the origin squares alone); `None` sends the caller to the general search.
    #[inline]
    fn single_fit(&self, moves: &candidates::Candidates) -> Option<Move> {
        let mut froms = moves.froms;
        if let Some(file) = self.from_file() {
            froms &= Bitboard::file(file);
        }
        if let Some(rank) = self.from_rank() {
            froms &= Bitboard::rank(rank);
        }
        if froms.is_empty() || froms.more_than_one() {
            return None;
        }
        // One move per origin square, or one per promotion piece: exactly one fits when the
        // promotion given is there exactly when the move promotes.
        if moves.promotes() != self.promotion.is_some() {
            return None;
        }
        let mv = moves.move_from(froms.first()?, self.promotion);
        debug_assert!(self.fits(&mv));
        Some(mv)
    }

    /// Castling written as a king move to its destination or onto its rook: `e1g1`, `Ke1h1`.
    fn castling_as_king_move(&self, pos: &Position) -> Option<Move> {
        CastlingSide::ALL
            .iter()
            .filter_map(|&side| pos.castling_move(side))
            .find(|mv| {
                (mv.to() == self.to || mv.castling_rook() == Some(self.to))
                    && self.from_file().is_none_or(|f| f == mv.from().file())
                    && self.from_rank().is_none_or(|r| r == mv.from().rank())
                    && self.promotion.is_none()
            })
    }

    /// The leniency of how `mv` was written, given every legal move of its kind onto its square.
    #[inline(always)]
    fn form_leniency(&self, mv: &Move, froms: Bitboard) -> Leniency {
        let mut leniency = Leniency::EMPTY;
        match (mv.is_capture(), self.is_capture()) {
            (true, false) => leniency |= Leniency::MISSING_CAPTURE_MARK,
            (false, true) => leniency |= Leniency::SUPERFLUOUS_CAPTURE_MARK,
            _ => {}
        }
        let (need_file, need_rank) = disambiguation(mv, froms);
        let given = (self.from_file().is_some(), self.from_rank().is_some());
        if given == (true, true) && (need_file, need_rank) != (true, true) {
            leniency |= Leniency::LONG_ALGEBRAIC;
        } else if given != (need_file, need_rank) {
            if need_file && mv.role() == Role::Pawn && !given.0 {
                leniency |= Leniency::PAWN_CAPTURE_WITHOUT_FILE;
            }
            if given.0 && !need_file || given.1 && !need_rank {
                leniency |= Leniency::OVER_DISAMBIGUATED;
            }
        } else if self.written.contains(Written::HYPHEN) {
            leniency |= Leniency::HYPHEN;
        }
        leniency
    }
}

/// Whether the canonical SAN of `mv` names the origin file, and the origin rank, given the
/// origin squares of the legal moves of the same kind of piece onto the same square.
pub(super) fn disambiguation(mv: &Move, froms: Bitboard) -> (bool, bool) {
    if mv.role() == Role::Pawn {
        return (mv.is_capture(), false);
    }
    let from = mv.from();
    let others = froms.without(from);
    if others.is_empty() {
        (false, false)
    } else if (others & Bitboard::file(from.file())).is_empty() {
        (true, false)
    } else if (others & Bitboard::rank(from.rank())).is_empty() {
        (false, true)
    } else {
        (true, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    /// The quick resolution without explanation gives the move exactly when the full one does,
    /// for castling and for every piece letter (and none) onto every square, with and without a
    /// capture mark, along random games.
    #[test]
    fn try_resolve_agrees_with_resolve() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let (mut ok, mut err) = (0, 0);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let Ok(mut pos) = Position::from_fen(fen) else {
                panic!("{fen}");
            };
            for _ in 0..40 {
                for side in CastlingSide::ALL {
                    let san = San::castle(side);
                    let full = san.resolve_knowing_check(&pos, None);
                    assert_eq!(san.try_resolve_knowing_check(&pos, None), full.ok());
                }
                for to in Square::all() {
                    let roles = [
                        None,
                        Some(Role::Knight),
                        Some(Role::Queen),
                        Some(Role::King),
                    ];
                    for role in roles {
                        for written in [Written::EMPTY, Written::CAPTURE_MARK] {
                            let san = San::normal(role, None, None, to, None).with_written(written);
                            for hint in [None, Some(pos.is_check())] {
                                let full = san.resolve_knowing_check(&pos, hint);
                                let quick = san.try_resolve_knowing_check(&pos, hint);
                                assert_eq!(quick, full.ok(), "{san} in {}", pos.to_fen());
                                if quick.is_some() { ok += 1 } else { err += 1 }
                            }
                        }
                    }
                }
                if !crate::san::play_random(&mut pos, &mut seed) {
                    break;
                }
            }
        }
        assert!(ok > 1_000 && err > 1_000, "{ok} {err}");
    }
}
