//! The helpmate search: both sides play for `winner`'s mate. A best-first walk of the
//! positions reachable from the start, each visited once, expands first the ones that look
//! closest to a mate (few free flights for the losing king, the winner's men near it, few men
//! left to the loser, see `heuristic`); it either finds a line or, when nothing is left to
//! expand, proves that there is none.
//!
//! It never answers "no mate" from a cut-off: "none" comes only after every position reachable
//! from the start was expanded or set aside by a proof that no mate lies beyond it (material,
//! or the locked-position proof). Positions are told apart by their Zobrist key, which covers
//! placement, side to move, castling rights and a legal en passant square; the clocks play no
//! part in what can be reached. (A key collision could hide a position: with 64-bit keys and
//! at most a few million positions the odds are below one in a million million; a line found
//! is replayed before it is returned, so "yes" never rests on a key.)

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::keys::KeySet;
use crate::mate::locked;
use crate::mate::queue::BucketQueue;
use crate::mate::statics::material_cannot_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};
use crate::zobrist;

/// What a search found.
#[derive(Debug)]
pub(crate) enum Found {
    /// A helpmate line from the start position.
    Mate(Vec<Move>),
    /// Every reachable position was visited and none is a mate of the loser.
    None,
    /// The node budget ran out first.
    Unknown,
}

/// The king distance between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32)
        .abs()
        .max((a.rank() as i32 - b.rank() as i32).abs())
}

/// How far `sq` is from the nearest edge (0 on the edge, 3 in the centre).
#[inline]
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f).min(r).min(7 - r)
}

/// How promising `pos` looks for a mate of `winner`'s opponent: lower is better. Each free
/// flight square of the losing king (neither blocked by its own men nor attacked) counts
/// heavily, and so does each man the loser has left besides its king ([`LOSER_MAN`]): a helpmate
/// is near once the loser has shed its material, which the loser's cooperation makes quick;
/// then how far the winner's men are from that king, and how far its pawns are from promotion.
fn heuristic(pos: &Position, winner: Color) -> i32 {
    let loser = !winner;
    let loser_king = pos.king_of(loser);
    let occupied = pos.occupied();
    let mut h = 0;
    for flight in attacks::king(loser_king) & !pos.by_color(loser) {
        if pos.attackers_to(flight, winner, occupied).is_empty() {
            h += 5;
        }
    }
    let mut nearest = 8;
    for sq in pos.by_color(winner) {
        match pos.role_at(sq) {
            Some(Role::Pawn) => {
                let to_go = if winner == Color::White {
                    7 - sq.rank() as i32
                } else {
                    sq.rank() as i32
                };
                h += to_go;
                nearest = nearest.min(distance(sq, loser_king) + 1);
            }
            Some(Role::King) => h += distance(sq, loser_king) / 2,
            Some(_) => {
                let d = distance(sq, loser_king);
                h += d / 2;
                nearest = nearest.min(d);
            }
            None => {}
        }
    }
    h += 2 * nearest + edge_distance(loser_king);
    h += LOSER_MAN * (pos.by_color(loser) & !pos.by_role(Role::King)).count() as i32;
    let heavy = pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if (pos.by_color(winner) & heavy).is_empty() {
        // Minor pieces mate only in or next to a corner.
        let (f, r) = (loser_king.file() as i32, loser_king.rank() as i32);
        h += 3 * f.min(7 - f).max(r.min(7 - r));
    }
    h
}

/// What each of the loser's men but its king adds to the heuristic. Weighed on the final
/// positions of real games (export's rulings, budget 1,000 positions a game, 14,892 sides of
/// `lichess16.pgn` and 52,652 of `master16.pgn`) and on the public test vector: at 3 a piece and
/// 4 a pawn, 10.3 % and 15.5 % of those sides and 79 of the vector's were left undecided; at 12
/// each, 2.2 %, 3.6 % and 74, in half the time. (Between 5 and 20 every choice did better than
/// 3 and 4; 12 did best.)
const LOSER_MAN: i32 = 12;

/// How much the heuristic weighs against the depth (greedier when higher; 3 left fewer sides
/// undecided than 2 or 4 on the same positions).
const WEIGHT: i32 = 3;

/// For each square, how many king steps the losing king needs from there to a square where
/// `winner` could ever check it (by the locked-position reach of the start position; 0
/// everywhere when there is none or the position is not [`walled_enough`], 8 where no such square
/// is reachable). A guide for the search in locked positions, not a proof of anything.
fn approach_map(pos: &Position, winner: Color) -> [u8; 64] {
    let mut map = [0u8; 64];
    if !walled_enough(pos) {
        return map;
    }
    let Some((_, reach)) = locked::bound_pawns(pos) else {
        return map;
    };
    let region = reach.king[(!winner).index()];
    let mut frontier = reach.attack[winner.index()] & region;
    if frontier.is_empty() {
        return map;
    }
    map = [8u8; 64];
    let mut seen = frontier;
    let mut step = 0u8;
    while frontier.any() && step < 8 {
        for sq in frontier {
            map[sq.index()] = step;
        }
        frontier = locked::king_spread(frontier) & region & !seen;
        seen |= frontier;
        step += 1;
    }
    map
}

/// One position waiting to be expanded: how to get there.
#[derive(Clone, Copy)]
struct Waiting {
    /// Index of the parent in the arena.
    parent: u32,
    /// The move from the parent.
    mv: Move,
}

/// Walks every position reachable from `pos`, best first, looking for a mate of `winner`'s
/// opponent; at most `limit` positions are expanded. Positions from which `winner` provably
/// cannot mate (by material, or, after a capture or pawn move, by the locked-position proof)
/// are not expanded: no mate lies beyond them. [`Found::None`] means that every reachable
/// position was visited.
pub(crate) fn search(pos: &Position, winner: Color, limit: u64) -> (Found, u64) {
    let approach = approach_map(pos, winner);
    // The expanded positions, each with its parent, the move from it and its depth.
    let mut arena: Vec<(Position, u32, Option<Move>, u32)> = Vec::new();
    let mut seen = KeySet::new();
    let mut queue: BucketQueue<Waiting> = BucketQueue::new();
    seen.insert(pos.zobrist());
    arena.push((pos.clone(), u32::MAX, None, 0));
    // The moves of the position being expanded, with the keys of the positions they lead to.
    let mut children: Vec<(Move, u64)> = Vec::new();
    let mut expanded = 0;
    let mut next = Some(0u32);
    loop {
        let Some(at) = next.take() else {
            // Take the best waiting position.
            let Some(w) = queue.pop() else {
                return (Found::None, expanded);
            };
            let mv = w.mv;
            let mut child = arena[w.parent as usize].0.clone();
            child.play_unchecked(mv);
            let depth = arena[w.parent as usize].3 + 1;
            arena.push((child, w.parent, Some(mv), depth));
            next = Some((arena.len() - 1) as u32);
            continue;
        };
        if expanded >= limit {
            return (Found::Unknown, expanded);
        }
        expanded += 1;
        let (p, _, _, depth) = &arena[at as usize];
        let depth = *depth;
        for &mv in p.legal_moves().iter() {
            let key = key_after(p, mv).unwrap_or_else(|| {
                let mut child = p.clone();
                child.play_unchecked(mv);
                child.zobrist()
            });
            children.push((mv, key));
        }
        // Fetch all the children's slots at once, rather than one miss after another.
        seen.prefetch(children.iter().map(|c| c.1));
        for (mv, key) in children.drain(..) {
            // Most children were met before (two in three on the public test vector): only the
            // new ones are played.
            if !seen.insert(key) {
                continue;
            }
            let mut child = p.clone();
            child.play_unchecked(mv);
            if child.turn() != winner && child.is_checkmate() {
                let mut line = vec![mv];
                let mut i = at;
                while let Some((_, parent, Some(m), _)) = arena.get(i as usize) {
                    line.push(*m);
                    i = *parent;
                }
                line.reverse();
                return (Found::Mate(line), expanded);
            }
            if material_cannot_mate(&child, winner)
                || (may_lock(&child, mv) && locked::cannot_mate_locked(&child, winner))
            {
                continue;
            }
            let mut h =
                heuristic(&child, winner) + 2 * i32::from(approach[child.king_of(!winner).index()]);
            if child.is_check() && child.turn() != winner {
                h -= 1;
            }
            // Lower first; ties newest first. (The heuristic is never negative.)
            let priority = (WEIGHT * h).max(0) as usize + depth as usize;
            queue.push(priority, Waiting { parent: at, mv });
        }
    }
}

/// The Zobrist key ([`Position::zobrist`]) of the position `mv` leads to from `pos`, without
/// playing it; `None` for castling, en passant and a pawn's double step, which need the position
/// itself (the last may give an en passant square). As [`Position::play_unchecked`]: the mover
/// leaves `from` and lands on `to` as its promotion piece if any, whatever stood on `to` is
/// taken off, castling rights on `from` and `to` (and the mover's own, for a king move) go, and
/// the turn changes.
#[inline]
fn key_after(pos: &Position, mv: Move) -> Option<u64> {
    let (from, to, role) = (mv.from(), mv.to(), mv.role());
    if mv.is_castle()
        || mv.is_en_passant()
        || (role == Role::Pawn && from.index() ^ to.index() == 16)
    {
        return None;
    }
    let us = pos.turn();
    let landing = mv.promotion().unwrap_or(role);
    let mut key = pos.key
        ^ zobrist::black_to_move()
        ^ zobrist::piece(Piece { color: us, role }, from)
        ^ zobrist::piece(
            Piece {
                color: us,
                role: landing,
            },
            to,
        );
    if let Some(taken) = pos.role_at(to) {
        key ^= zobrist::piece(
            Piece {
                color: !us,
                role: taken,
            },
            to,
        );
    }
    let mut rights = pos.castling_rooks().without(from).without(to);
    if role == Role::King {
        rights &= !Bitboard::rank(us.back_rank());
    }
    Some(key ^ zobrist::castling(pos.castling_rooks() ^ rights))
}

/// How many pawns must stand blocked head-on by an enemy pawn before the search tries the
/// locked-position proof on a position or draws the approach map. On the final positions of 700
/// lichess games the proof was tried 28,000 times with one to four blocked pawns and never
/// succeeded (and took three quarters of the search's time); on the public test vector it
/// succeeds with fewer than four some fifty times, always where the search decides anyway.
const LOCK_MIN_BLOCKED: u32 = 4;

/// Whether at least [`LOCK_MIN_BLOCKED`] pawns stand blocked head-on by enemy pawns: walls
/// start from such pawns.
#[inline]
fn walled_enough(pos: &Position) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let white = pawns & pos.by_color(Color::White);
    (white.shift(8) & pawns & pos.by_color(Color::Black)).count() >= LOCK_MIN_BLOCKED
}

/// Whether `mv`, just played to reach `pos`, may have made a locked-position proof possible: a
/// capture by or of a pawn, or a pawn push that ends in front of a pawn, in a position
/// [`walled_enough`]. (Other moves are not worth the proof's cost; skipping the proof only costs
/// search time, never soundness.)
#[inline]
fn may_lock(pos: &Position, mv: Move) -> bool {
    if !walled_enough(pos) {
        return false;
    }
    if mv.is_capture() {
        return mv.role() == Role::Pawn || mv.capture() == Some(Role::Pawn);
    }
    mv.role() == Role::Pawn
        && mv.promotion().is_none()
        && (locked::pushes(!pos.turn(), Bitboard::from_square(mv.to())) & pos.by_role(Role::Pawn))
            .any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::replays_to_mate;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn finds_a_rook_mate() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let Found::Mate(line) = search(&pos, Color::White, 20_000).0 else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn finds_a_helpmate_that_needs_the_losers_blocker() {
        // Black's own bishop must block a flight of its king for the knight to mate.
        let pos = fen("4kb2/8/8/8/8/4KN2/8/8 w - - 0 1");
        let Found::Mate(line) = search(&pos, Color::White, 200_000).0 else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn kings_take_undefended_pawns() {
        // The a-pawns look locked, but either king can take the other's pawn, and White's
        // pawn then promotes: the walk finds that line.
        let pos = fen("k7/8/8/8/8/p7/P7/K7 w - - 0 1");
        let Found::Mate(line) = search(&pos, Color::White, 100_000).0 else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn exhausting_means_none() {
        // Every move keeps a lone knight against a bare king, so nothing is left to expand.
        let pos = fen("k7/8/8/8/8/8/8/K5N1 w - - 0 1");
        let (found, expanded) = search(&pos, Color::White, 1_000);
        assert!(matches!(found, Found::None), "{found:?} after {expanded}");
    }

    /// Along random games from positions with every kind of move (castling both ways,
    /// en passant, promotions with and without capture, rook captures that end a right), the
    /// key computed without playing is the key of the position played.
    #[test]
    fn keys_after_a_move_match_the_played_position() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for start in starts {
            for _ in 0..40 {
                let mut pos = fen(start);
                for _ in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &mv in moves.iter() {
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        if let Some(key) = key_after(&pos, mv) {
                            assert_eq!(key, child.zobrist(), "{} {mv:?}", pos.to_fen());
                            checked += 1;
                        }
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn the_heuristic_prefers_a_boxed_king() {
        let free = fen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
        let boxed = fen("k7/8/8/8/8/8/8/R3K3 b - - 0 1");
        assert!(heuristic(&boxed, Color::White) < heuristic(&free, Color::White));
    }
}
