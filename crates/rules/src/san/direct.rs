//! The commonest moves resolved straight from the board: a piece move with no origin written
//! (`Nf3`, `Qxd5`, `Kg1`), a pawn push (`e4`) and a pawn capture with its file (`exd5`), none
//! promoting. Nearly every move of a real game is one of them, and for these the resolver's work
//! comes down to a few bitboard operations: the origins of the moving piece's kind that reach the
//! square, and one king-safety test for the one origin there usually is.
//!
//! [`resolve`] answers only when its answer is the general resolver's
//! ([`San::resolve_general`]), move and leniency alike, and says `None` for everything else:
//! another form, no legal origin or several, a promotion rank, an en passant capture. A test
//! holds it to that over every written form of every legal move, and of every piece onto every
//! square, along random games.

use super::candidates::{is_safe, pawns, pieces};
use super::{Leniency, NONE, Resolved, San, Shape, Written};
use crate::{Bitboard, Move, Position, Role, attacks};

/// The move a plain SAN names in `pos`, found straight from the board, with the one leniency
/// such a move can have (a missing or superfluous capture mark); `None` when the SAN is not of
/// the commonest forms, or when it names no single legal move. `in_check` is as for
/// [`San::resolve_knowing_check`].
#[inline(always)]
pub(super) fn resolve(san: &San, pos: &Position, in_check: Option<bool>) -> Option<Resolved> {
    if san.shape != Shape::Normal
        || san.promotion.is_some()
        || san.from_rank != NONE
        || san.written.difference(Written::CAPTURE_MARK) != Written::EMPTY
    {
        return None;
    }
    let us = pos.turn();
    let to = san.to;
    if pos.by_color(us).contains(to) {
        return None;
    }
    let capture = pos.role_at(to);
    let marked = san.is_capture();
    let resolved = |role, from| Resolved {
        mv: Move::normal(role, from, capture, to, None),
        leniency: capture_leniency(capture.is_some(), marked),
    };
    let king = pos.king_of(us);
    // Tests rather than a `match` on the role, the commonest first (a jump table cost more).
    let Some(role) = san.role else {
        // A pawn: a push names no file and marks no capture; a capture names both, and takes a
        // piece on the square (so no en passant capture: its square is empty, and a push there
        // finds no pawn, the one that passed it standing in the way).
        let file_given = san.from_file != NONE;
        if file_given != marked
            || file_given != capture.is_some()
            || to.rank() == 0
            || to.rank() == 7
        {
            return None;
        }
        let mut froms = pawns(pos, to);
        if file_given {
            froms &= Bitboard::file(san.from_file);
        }
        let from = froms.single_square()?;
        return is_safe(pos, king, from, to, in_check).then(|| resolved(Role::Pawn, from));
    };
    if san.from_file != NONE || role == Role::Pawn {
        return None;
    }
    if role == Role::King {
        let safe = attacks::king(to).contains(king)
            && pos
                .attackers_to(to, !us, pos.occupied().without(king))
                .is_empty();
        return safe.then(|| resolved(Role::King, king));
    }
    let froms = pieces(pos, role, to);
    if let Some(from) = froms.single_square() {
        return is_safe(pos, king, from, to, in_check).then(|| resolved(role, from));
    }
    // Several pieces reach the square (or none): the one whose move is legal, if one is.
    let mut legal = froms;
    for from in froms {
        if !is_safe(pos, king, from, to, in_check) {
            legal = legal.without(from);
        }
    }
    legal.single_square().map(|from| resolved(role, from))
}

/// The leniency of a capture mark: missing on a capture, or written on a move that captures
/// nothing.
#[inline(always)]
fn capture_leniency(captures: bool, marked: bool) -> Leniency {
    match (captures, marked) {
        (true, false) => Leniency::MISSING_CAPTURE_MARK,
        (false, true) => Leniency::SUPERFLUOUS_CAPTURE_MARK,
        _ => Leniency::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;
    use crate::san::resolve::Unexplained;
    use crate::san::{SanError, write};

    /// Whatever [`resolve`] answers, the general resolver answers too: for every piece letter
    /// (and none) onto every square, with and without a capture mark and an origin file, and for
    /// every legal move as written canonically and with its capture mark dropped or added, in
    /// positions along random games (pins, checks, en passant, promotions, castling), with the
    /// check state known and unknown. And it answers for most legal moves.
    #[test]
    fn agrees_with_the_general_resolver() {
        let mut seed = 0x51af_d7ed_558c_cd1b_u64;
        let (mut answered, mut legal) = (0, 0);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "k7/8/8/2Q1Q3/8/2Q1Q3/8/4K3 w - - 0 1",
            "3qk3/8/8/R2PpK2/8/8/8/8 w - e6 0 1",
        ] {
            let Ok(mut pos) = Position::from_fen(fen) else {
                panic!("{fen}");
            };
            for _ in 0..80 {
                let check = [None, Some(pos.is_check())];
                let agree = |san: San, answered: &mut u32| {
                    for in_check in check {
                        let Some(direct) = resolve(&san, &pos, in_check) else {
                            continue;
                        };
                        *answered += 1;
                        let general = san.resolve_general::<SanError>(&pos, in_check);
                        assert_eq!(Ok(direct), general, "{san} in {}", pos.to_fen());
                        let quick = san.resolve_general::<Unexplained>(&pos, in_check);
                        assert_eq!(Ok(direct), quick, "{san} in {}", pos.to_fen());
                    }
                };
                let mut any = 0;
                for to in Square::all() {
                    for role in [
                        None,
                        Some(Role::Knight),
                        Some(Role::Bishop),
                        Some(Role::Rook),
                    ]
                    .into_iter()
                    .chain([
                        Some(Role::Queen),
                        Some(Role::King),
                        Some(Role::Pawn),
                    ]) {
                        for file in [None, Some(0), Some(3), Some(to.file().wrapping_sub(1))]
                            .into_iter()
                            .chain([Some(to.file() + 1), Some(to.file())])
                        {
                            for written in [Written::EMPTY, Written::CAPTURE_MARK] {
                                let san =
                                    San::normal(role, file, None, to, None).with_written(written);
                                agree(san, &mut any);
                                agree(San::normal(role, file, Some(2), to, None), &mut any);
                            }
                        }
                    }
                }
                for &mv in pos.legal_moves().iter() {
                    let text = write(&pos, mv).as_str().to_owned();
                    let body = text.trim_end_matches(['+', '#']);
                    let toggled = match body.find('x') {
                        Some(at) => format!("{}{}", &body[..at], &body[at + 1..]),
                        None => {
                            let at = body.len().saturating_sub(2);
                            format!("{}x{}", &body[..at], &body[at..])
                        }
                    };
                    legal += 1;
                    let before = answered;
                    for form in [text.as_str(), body, &toggled, &format!("{body}=Q")] {
                        if let Ok(san) = form.parse::<San>() {
                            agree(san, &mut answered);
                        }
                    }
                    // The canonical forms it is for: a piece letter or a pawn's file, an
                    // optional capture mark, the square.
                    let plain = match body.as_bytes() {
                        [b'a'..=b'h', b'1'..=b'8'] => true,
                        [b'N' | b'B' | b'R' | b'Q' | b'K' | b'a'..=b'h', rest @ ..] => {
                            matches!(rest, [b'x', _, _] | [_, _]) && !rest.contains(&b'=')
                        }
                        _ => false,
                    };
                    if plain && !mv.is_en_passant() {
                        assert!(answered > before, "{text} in {}", pos.to_fen());
                    }
                }
                if !crate::san::play_random(&mut pos, &mut seed) {
                    break;
                }
            }
        }
        assert!(answered > legal, "{answered} {legal}");
    }
}
