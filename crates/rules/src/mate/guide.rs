//! What guides the helpmate search: how near a position looks to a mate of the loser (lower is
//! nearer). A guide only orders the search; it proves nothing, and a poor estimate only costs
//! time.
//!
//! The estimate adds up, each weighed:
//!
//! - the loser's king's *flights*: neighbours neither held by its own men nor attacked;
//! - the loser's *mobility*: how many moves it has, or would have were it to move: its king's
//!   flights and the squares its other men reach (pins aside; its legal moves when it is in
//!   check). A king boxed in by its own men has few;
//! - the winner's *threat*: whether it has a check (were it to move), and a mate ends the
//!   estimate at once;
//! - how far the winner's men are from the loser's king, and its most advanced pawn from
//!   promotion when it has no queen;
//! - the loser's men. Two guides differ here ([`Guide`]): with a queen, a rook or pawns the
//!   winner mates most easily once the loser has shed its men, so each counts against
//!   ([`Guide::Shed`]); with minor pieces only, the loser's men are the blockers a bishop or a
//!   knight mates against, in a corner: how many king steps the loser's king, one of its men and
//!   the winner's king need to stand in a corner's mating pattern counts instead. The other
//!   guide ([`Guide::Block`]) counts the loser's men by their distance to their king and the
//!   king's distance to a corner (one the winner's bishops can check in, when it has no knight)
//!   whenever the winner has no queen or rook: the search tries it when the first fails (first,
//!   when the winner has minor pieces only), for the helpmates in which the loser's own men wall
//!   in its king.
//!
//! The weights were tuned on chasolver's lichess test set (every tenth position), on the
//! positions expanded and the time taken; see `bench/rulings.sh`.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::checks::{any_check, threat};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Which estimate of the loser's men (see the module doc).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Guide {
    /// The loser sheds its men; with minor pieces only, the corner pattern.
    Shed,
    /// The loser's men gather round their king whenever the winner has no queen or rook.
    Block,
}

/// A free flight of the loser's king.
const FLIGHT: i32 = 5;
/// A legal move of the loser.
const MOBILITY: i32 = 1;
/// No check for the winner (were it to move).
const NO_CHECK: i32 = 24;
/// A check for the winner that does not mate.
const CHECK: i32 = 12;
/// A man the loser keeps, when it should shed them.
const LOSER_MAN: i32 = 6;
/// A king step of a loser's man toward its king, when it should block.
const BLOCKER: i32 = 2;
/// A king step of the corner pattern, or of the loser's king toward a corner.
const CORNER: i32 = 10;
/// A rank the most advanced pawn of a winner without a queen has to go.
const PAWN: i32 = 6;

/// The estimate for `pos` (see the module doc), and, with the winner to move and a mating check
/// on the board, that check.
pub(crate) fn estimate(pos: &Position, winner: Color, guide: Guide) -> (i32, Option<Move>) {
    let loser = !winner;
    let loser_king = pos.king_of(loser);
    let occupied = pos.occupied();
    let ours = pos.by_color(winner);
    let open =
        attacks::king(loser_king) & !pos.by_color(loser) & !pos.attacked_by(winner, occupied);
    let flights = open.count() as i32;
    let mut h = FLIGHT * flights;
    let mut nearest = 8;
    let mut pawn_to_go = 8;
    let pawns = ours & pos.by_role(Role::Pawn);
    h += distance(pos.king_of(winner), loser_king) / 2;
    for sq in ours & !pawns & !pos.by_role(Role::King) {
        let d = distance(sq, loser_king);
        h += d / 2;
        nearest = nearest.min(d);
    }
    for sq in pawns {
        let to_go = match winner {
            Color::White => 7 - sq.rank() as i32,
            Color::Black => sq.rank() as i32,
        };
        pawn_to_go = pawn_to_go.min(to_go);
        nearest = nearest.min(distance(sq, loser_king) + 1);
    }
    h += 2 * nearest + edge_distance(loser_king);
    if (ours & pos.by_role(Role::Queen)).is_empty() && pawn_to_go < 8 {
        h += PAWN * pawn_to_go;
    }
    let loser_men = pos.by_color(loser) & !pos.by_role(Role::King);
    let heavy = pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let lines = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    match guide {
        Guide::Shed if (ours & heavy).is_empty() => h += CORNER * corner_pattern(pos, winner),
        Guide::Shed => h += LOSER_MAN * loser_men.count() as i32,
        Guide::Block if (ours & lines).is_empty() => {
            for sq in loser_men {
                h += BLOCKER * distance(sq, loser_king);
            }
            h += CORNER * corner_distance(pos, winner, loser_king);
        }
        Guide::Block => h += LOSER_MAN * loser_men.count() as i32,
    }
    // Mobility and threat, the position turned to the side they are about when needed (not when
    // the side to move is in check: turned, the side not to move would be).
    let check = pos.is_check();
    let turned = |turn| {
        let mut turned = pos.clone();
        turned.ep = None;
        turned.set_turn(turn);
        turned
    };
    let (mobility, has_check) = if pos.turn() == winner {
        // The loser's king is not in check: its open squares are the flights counted above.
        let (mate, has_check) = threat(pos, open);
        if mate.is_some() {
            return (0, mate);
        }
        let mobility = if check {
            CHECKED_MOBILITY
        } else {
            flights + men_mobility(pos, loser)
        };
        (mobility, has_check)
    } else {
        // The winner's checks matter once the king is nearly boxed in.
        let has_check =
            check || (flights <= 1 && (check_at_hand(pos, winner) || any_check(&turned(winner))));
        let mobility = if check {
            pos.count_legal_moves() as i32
        } else {
            flights + men_mobility(pos, loser)
        };
        (mobility, has_check)
    };
    h += MOBILITY * mobility + if has_check { CHECK } else { NO_CHECK };
    (h, None)
}

/// Whether `winner`, were it to move, has a knight, bishop, rook or queen that can step
/// straight to a square from which it checks the loser's king (on a diagonal for a bishop or a
/// queen, on a line for a rook or a queen), none of them standing between its own king and an
/// enemy line piece that could pin it: a check at hand, told without generating moves. `false`
/// says nothing (a pawn's check, a discovered one or a pinned man's are [`any_check`]'s to
/// find). Asked with the loser to move and not in check, so the winner's king is not in check
/// either.
fn check_at_hand(pos: &Position, winner: Color) -> bool {
    let king = pos.king_of(!winner);
    let own_king = pos.king_of(winner);
    let ours = pos.by_color(winner);
    let occupied = pos.occupied();
    let queens = pos.by_role(Role::Queen);
    let diagonal = pos.by_role(Role::Bishop) | queens;
    let straight = pos.by_role(Role::Rook) | queens;
    let snipers = ((attacks::bishop(own_king, Bitboard::EMPTY) & diagonal)
        | (attacks::rook(own_king, Bitboard::EMPTY) & straight))
        & pos.by_color(!winner);
    let mut movers = ours;
    for sniper in snipers {
        movers &= !attacks::between(own_king, sniper);
    }
    let free = !ours;
    let knight_checks = attacks::knight(king) & free;
    let diagonal_checks = attacks::bishop(king, occupied) & free;
    let straight_checks = attacks::rook(king, occupied) & free;
    (movers & pos.by_role(Role::Knight))
        .into_iter()
        .any(|sq| (attacks::knight(sq) & knight_checks).any())
        || (movers & diagonal)
            .into_iter()
            .any(|sq| (attacks::bishop(sq, occupied) & diagonal_checks).any())
        || (movers & straight)
            .into_iter()
            .any(|sq| (attacks::rook(sq, occupied) & straight_checks).any())
}

/// The moves of `side`'s men other than its king, counted from their reach alone (the squares
/// each attacks that its own men do not hold; a pawn's steps and captures, a promotion once),
/// pins and checks aside: with the king's flights, the loser's mobility, at a fraction of the
/// cost of counting its legal moves.
#[inline]
fn men_mobility(pos: &Position, side: Color) -> i32 {
    let ours = pos.by_color(side);
    let occupied = pos.occupied();
    let free = !ours;
    let queens = pos.by_role(Role::Queen);
    let mut count = 0;
    for sq in ours & pos.by_role(Role::Knight) {
        count += (attacks::knight(sq) & free).count();
    }
    for sq in ours & (pos.by_role(Role::Bishop) | queens) {
        count += (attacks::bishop(sq, occupied) & free).count();
    }
    for sq in ours & (pos.by_role(Role::Rook) | queens) {
        count += (attacks::rook(sq, occupied) & free).count();
    }
    let pawns = ours & pos.by_role(Role::Pawn);
    let empty = !occupied;
    let theirs = pos.by_color(!side);
    let (up, third, west, east) = match side {
        Color::White => (8, Bitboard::RANK_3, 7, 9),
        Color::Black => (-8, Bitboard::RANK_6, -9, -7),
    };
    let single = pawns.shift(up) & empty;
    let double = (single & third).shift(up) & empty;
    let west_captures = (pawns & !Bitboard::FILE_A).shift(west) & theirs;
    let east_captures = (pawns & !Bitboard::FILE_H).shift(east) & theirs;
    count += single.count() + double.count() + west_captures.count() + east_captures.count();
    count as i32
}

/// How promising each move of one position looks for a mate of `winner`'s opponent, from the
/// move alone (higher first): the order in which the searches try the positions one position
/// leads to. For the winner, steps toward the loser's king, attacks on its neighbourhood,
/// captures and promotions; for the loser, king steps toward the edge among its own men, men
/// stepping next to their king, and never a capture. What the moves share (the loser's king
/// and its neighbourhood, the occupied squares) is worked out once per position.
pub(crate) struct Prior {
    /// Whether the side to move is the winner.
    winner_moves: bool,
    /// The side to move.
    us: Color,
    loser_king: Square,
    /// The loser's king's square and its neighbours.
    zone: Bitboard,
    occupied: Bitboard,
    /// The men of the side to move.
    ours: Bitboard,
}

impl Prior {
    /// The ordering of the moves of `pos`.
    #[inline]
    pub(crate) fn new(pos: &Position, winner: Color) -> Prior {
        let loser_king = pos.king_of(!winner);
        let us = pos.turn();
        Prior {
            winner_moves: us == winner,
            us,
            loser_king,
            zone: attacks::king(loser_king).with(loser_king),
            occupied: pos.occupied(),
            ours: pos.by_color(us),
        }
    }

    /// How promising `mv` (a move of the position) looks.
    #[inline]
    pub(crate) fn score(&self, mv: Move) -> i32 {
        let (from, to) = (mv.from(), mv.to());
        let mut s = 0;
        if self.winner_moves {
            let landing = mv.promotion().unwrap_or(mv.role());
            if landing != Role::King {
                s += 2 * (distance(from, self.loser_king) - distance(to, self.loser_king));
                let occupied = self.occupied;
                let reach = match landing {
                    Role::Knight => attacks::knight(to),
                    Role::Bishop => attacks::bishop(to, occupied),
                    Role::Rook => attacks::rook(to, occupied),
                    Role::Queen => attacks::queen(to, occupied),
                    _ => attacks::pawn(self.us, to),
                };
                s += 3 * (reach & self.zone).count() as i32;
            }
            if mv.promotion() == Some(Role::Queen) {
                s += 10;
            }
            if mv.is_capture() {
                s += 4;
            }
        } else {
            if mv.role() == Role::King {
                s += 2 * (edge_distance(from) - edge_distance(to));
                s += (attacks::king(to) & self.ours).count() as i32;
            } else if self.zone.without(self.loser_king).contains(to) {
                s += 4;
            }
            if mv.is_capture() {
                s -= 6;
            }
        }
        s
    }
}

/// The loser's mobility counted for a winner in check (whose position cannot be turned).
const CHECKED_MOBILITY: i32 = 8;

/// With minor pieces only, the winner mates in a corner (one its bishops can reach, when it has
/// no knight): the loser's king in it, one of the loser's men beside it (a bishop only on a
/// square of its colour), the winner's king a knight's jump away. The fewest king steps the
/// three need, over the corners.
fn corner_pattern(pos: &Position, winner: Color) -> i32 {
    let loser = !winner;
    let loser_king = pos.king_of(loser);
    let winner_king = pos.king_of(winner);
    let ours = pos.by_color(winner);
    let bishops = ours & pos.by_role(Role::Bishop);
    let knights = ours & pos.by_role(Role::Knight);
    let loser_men = pos.by_color(loser) & !pos.by_role(Role::King);
    let bishops_of_loser = loser_men & pos.by_role(Role::Bishop);
    let mut best = None;
    for (corner, beside, cover) in CORNERS {
        if knights.is_empty() && (bishops & shade_of(corner)).is_empty() {
            continue;
        }
        let mut blocker = 8;
        for man in loser_men {
            for b in beside {
                // A bishop never stands on a square of the other colour.
                if !bishops_of_loser.contains(man) || same_shade(man, b) {
                    blocker = blocker.min(distance(man, b));
                }
            }
        }
        let d = distance(loser_king, corner) + blocker + distance(winner_king, cover);
        best = Some(best.map_or(d, |b: i32| b.min(d)));
    }
    best.unwrap_or(0)
}

/// Each corner, the two squares beside it on the edges, and the square a knight's jump from it
/// toward the centre's side (where the winner's king covers the rest).
const CORNERS: [(Square, [Square; 2], Square); 4] = [
    (Square::A1, [Square::A2, Square::B1], Square::C2),
    (Square::H1, [Square::H2, Square::G1], Square::F2),
    (Square::A8, [Square::A7, Square::B8], Square::C7),
    (Square::H8, [Square::H7, Square::G8], Square::F7),
];

/// The king steps from `sq` to the nearest corner where `winner`'s minor pieces can check (of
/// its bishops' colour, when it has no knight).
fn corner_distance(pos: &Position, winner: Color, sq: Square) -> i32 {
    let ours = pos.by_color(winner);
    let bishops = ours & pos.by_role(Role::Bishop);
    let any = (ours & pos.by_role(Role::Knight)).any() || bishops.is_empty();
    let mut best = 8;
    for (corner, _, _) in CORNERS {
        if any || (bishops & shade_of(corner)).any() {
            best = best.min(distance(sq, corner));
        }
    }
    best
}

/// The squares of the colour of `sq`.
fn shade_of(sq: Square) -> Bitboard {
    if Bitboard::LIGHT_SQUARES.contains(sq) {
        Bitboard::LIGHT_SQUARES
    } else {
        Bitboard::DARK_SQUARES
    }
}

/// Whether two squares have the same colour.
fn same_shade(a: Square, b: Square) -> bool {
    Bitboard::LIGHT_SQUARES.contains(a) == Bitboard::LIGHT_SQUARES.contains(b)
}

/// The king distance between two squares.
#[inline]
pub(crate) fn distance(a: Square, b: Square) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    #[test]
    fn a_boxed_king_looks_nearer() {
        let free = fen("8/8/8/4k3/8/8/8/R3K3 b - - 0 1");
        let boxed = fen("k7/8/8/8/8/8/8/R3K3 b - - 0 1");
        let of = |pos: &Position| estimate(pos, Color::White, Guide::Shed).0;
        assert!(of(&boxed) < of(&free));
    }

    #[test]
    fn a_mate_in_one_is_returned() {
        let pos = fen("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        let (h, mate) = estimate(&pos, Color::White, Guide::Shed);
        assert_eq!(h, 0);
        let mate = mate.expect("Rh8 mates");
        let mut after = pos.clone();
        after.play_unchecked(mate);
        assert!(after.is_checkmate());
    }

    /// The men's reach holds every legal move of a man other than the king (a promotion
    /// counted once), and no more than that where nothing is pinned.
    #[test]
    fn men_mobility_holds_the_mens_legal_moves() {
        assert_eq!(men_mobility(&Position::startpos(), Color::White), 20);
        // The knight on e2 is pinned: its six squares count, though it may not move.
        let pinned = fen("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(men_mobility(&pinned, Color::White), 6);
        assert_eq!(pinned.count_legal_moves(), 4);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut checked = 0;
        crate::mate::along_random_games(&starts, 20, 60, 0x5851_f42d_4c95_7f2d, |pos, moves| {
            let men = moves
                .iter()
                .filter(|mv| {
                    mv.role() != Role::King
                        && !mv.is_en_passant()
                        && mv.promotion().is_none_or(|role| role == Role::Queen)
                })
                .count();
            assert!(
                men_mobility(pos, pos.turn()) >= men as i32,
                "{}",
                pos.to_fen()
            );
            checked += 1;
        });
        assert!(checked > 2_000, "{checked}");
    }

    /// A check at hand is a check: along random games, wherever the side to move is not in
    /// check and [`check_at_hand`] finds one for the other side, that side, were it to move,
    /// has a checking move ([`any_check`]); and it finds most of the knights' and line pieces'
    /// checks.
    #[test]
    fn a_check_at_hand_is_a_check() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let (mut at_hand, mut checks) = (0, 0);
        crate::mate::along_random_games(&starts, 20, 60, 0x2c1b_3c6d_9e37_79b9, |pos, _| {
            if pos.is_check() {
                return;
            }
            let winner = !pos.turn();
            let mut turned = pos.clone();
            turned.ep = None;
            turned.set_turn(winner);
            let any = any_check(&turned);
            if check_at_hand(pos, winner) {
                assert!(any, "{}", pos.to_fen());
                at_hand += 1;
            }
            checks += usize::from(any);
        });
        assert!(
            at_hand > 100 && 2 * at_hand > checks,
            "{at_hand} of {checks}"
        );
    }

    /// A pinned knight's check is not at hand (it may not move), nor a pawn's; a free
    /// knight's is.
    #[test]
    fn a_pinned_mans_check_is_not_at_hand() {
        // White's knight on e2 would check from c3 or f4, but Black's rook on e8 pins it.
        let pinned = fen("4r3/8/8/3k4/8/8/4N3/4K3 b - - 0 1");
        assert!(!check_at_hand(&pinned, Color::White));
        let free = fen("7r/8/8/3k4/8/8/4N3/4K3 b - - 0 1");
        assert!(check_at_hand(&free, Color::White));
        let pawn = fen("8/8/8/3k4/8/4P3/8/4K3 b - - 0 1");
        assert!(!check_at_hand(&pawn, Color::White));
    }

    #[test]
    fn a_knight_corner_pattern_counts_steps() {
        // White: king c7 (the cover square of a8), knight; Black: king a8, pawn a7 beside it.
        let pos = fen("k7/p1K5/8/8/8/8/8/6N1 w - - 0 1");
        assert_eq!(corner_pattern(&pos, Color::White), 0);
        // The white king two steps from its square.
        let pos = fen("k7/p3K3/8/8/8/8/8/6N1 w - - 0 1");
        assert_eq!(corner_pattern(&pos, Color::White), 2);
    }

    /// With bishops alone, only the corners of their colour count; with a knight, every corner.
    #[test]
    fn corner_distance_counts_the_corners_the_bishops_check() {
        // White's bishop on c4 is light: a8 and h1 count, a1 and h8 do not.
        let pos = fen("8/8/8/8/2B5/8/1k6/6K1 w - - 0 1");
        assert_eq!(corner_distance(&pos, Color::White, Square::B2), 6);
        assert_eq!(corner_distance(&pos, Color::White, Square::G7), 6);
        assert_eq!(corner_distance(&pos, Color::White, Square::G2), 1);
        let pos = fen("8/8/8/8/2B5/8/1k6/4N1K1 w - - 0 1");
        assert_eq!(corner_distance(&pos, Color::White, Square::B2), 1);
    }

    /// A bishop of the loser blocks only on a square of its colour: White's light bishop on b7
    /// never stands on a7 or b8 (dark) beside its king on a8, so a8 counts no blocker (8), and
    /// the other corners are farther.
    #[test]
    fn a_bishop_blocks_only_on_its_colour() {
        let pos = fen("K7/1Bk5/8/8/8/8/8/6n1 b - - 0 1");
        assert_eq!(corner_pattern(&pos, Color::Black), 8);
        // A knight on b7 reaches a7 in one step.
        let pos = fen("K7/1Nk5/8/8/8/8/8/6n1 b - - 0 1");
        assert_eq!(corner_pattern(&pos, Color::Black), 1);
    }
}
