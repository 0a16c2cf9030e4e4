//! The short-helpmate probe, asked before the greedy dives: a few mates planned backwards from
//! the loser's king and played to check. Many final positions of real games have a helpmate of
//! a few plies where a dive plays some twenty; the probe looks only where one is plain, from the
//! attack maps alone, and so costs a fraction of a dive where it finds nothing.
//!
//! A plan ([`Plan`]): the loser's king is mated where it stands or after one step, only where it
//! sits in a net (at most [`NET_OPEN`] open squares next to it: neither held by its own men nor
//! attacked by the winner). A man of the winner (queen, rook, bishop or knight) reaches, in one
//! or two of its moves, a square from which it checks the king, where the king cannot take it;
//! one man of the loser that could take it or step between leaves (or steps onto that square, to
//! be taken); each square next to the king the check leaves open gets a man of the loser that
//! can step there in one move. The shortest plans are played, at most [`TRIES`] of them: the
//! king's step, the man leaving and the fills first, the winner's approach last, a spare move
//! where one side must wait; every move is taken from the legal moves, and a line is kept only
//! if it ends in mate. Nothing is proved when the probe finds no line. A winner in check is
//! left to the dives.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::locked::{king_spread, pawn_attacks, pushes};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// The most open squares next to the king a plan leaves for the loser's men to fill.
const MAX_FILLS: usize = 2;

/// The most open squares next to the king a check from farther than two steps covers (those on
/// its line, one each side of the king).
const FAR_COVER: u32 = 2;

/// The most open squares next to the king a check by a `role` piece covers: a queen next to
/// it, its own square and five more; a rook next to it, its own, the two beside and the one
/// behind the king; a bishop next to it, its own, the one beside and the one behind; a knight,
/// two.
fn most_cover(role: Role) -> u32 {
    match role {
        Role::Queen => 6,
        Role::Rook => 4,
        Role::Bishop => 3,
        _ => 2,
    }
}

/// The most open squares (neither the loser's men's nor attacked by the winner) next to the
/// square where a plan mates the king (where it stands or one step away).
const NET_OPEN: u32 = 2;

/// The longest line a plan may need, in plies.
const MAX_PLIES: u32 = 6;

/// The plans played at most (the shortest ones). Export's instructions, lichess16 / master16:
/// two plans 1,316.5 / 6,865.9 M, three 1,312.8 / 6,839.6 M, four 1,311.2 / 6,838.8 M.
const TRIES: usize = 4;

/// A planned mate: the loser's king takes its `step` (if any), the loser's man on `away` (if
/// any) leaves, the one that could take the checker or step between; the winner's man goes from
/// `from` (by `via`, if it needs two moves) to `to`, where it checks the king; the loser's men
/// fill the king's open squares (`fills`, from and to, the first `filled` of them); `plies` the
/// line's length.
#[derive(Copy, Clone, Debug)]
struct Plan {
    plies: u32,
    step: Option<(Square, Square)>,
    away: Option<Square>,
    from: Square,
    via: Option<Square>,
    to: Square,
    fills: Fills,
    filled: usize,
}

/// The loser's men's moves that fill the king's open squares (from, to).
type Fills = [(Square, Square); MAX_FILLS];

/// Looks for a short helpmate by `winner` from `pos` with at most `limit` plies played (every
/// plan played counts its plies): the line if one ends in mate, and the plies played.
pub(crate) fn probe(pos: &Position, winner: Color, limit: u64) -> (Option<Vec<Move>>, u64) {
    let mut plans: [Option<Plan>; TRIES] = [None; TRIES];
    collect(pos, winner, &mut plans);
    let mut spent = 0;
    let mut list = MoveList::new();
    for plan in plans.into_iter().flatten() {
        if spent + u64::from(plan.plies) > limit {
            break;
        }
        let (line, plies) = play(pos, winner, &plan, &mut list);
        spent += plies;
        if line.is_some() {
            return (line, spent);
        }
    }
    (None, spent)
}

/// Fills `plans` with the shortest plans (fewest plies first; the first found among equals):
/// the king mated where it stands, or after one step to an empty square the winner does not
/// attack. A loser in check, to move, must answer it first: by the king's step, or by the man
/// that leaves (it may take the checker or step between).
fn collect(pos: &Position, winner: Color, plans: &mut [Option<Plan>; TRIES]) {
    let loser = !winner;
    let king = pos.king_of(loser);
    let occupied = pos.occupied();
    let attacked = pos.attacked_by(winner, occupied.without(king));
    let losers = pos.by_color(!winner).without(king);
    // The king mated where it stands, or after a step, only in a net: few open squares next to
    // it (neither its men's nor attacked by the winner).
    let in_net = |square| !more_than(attacks::king(square) & !losers & !attacked, NET_OPEN);
    let mut steps = Bitboard::EMPTY;
    for to in attacks::king(king) & !occupied & !attacked {
        if in_net(to) {
            steps = steps.with(to);
        }
    }
    let stay = in_net(king);
    if (!stay && steps.is_empty()) || (pos.turn() == winner && pos.is_check()) {
        // (The winner in check must answer it first: left to the dives.)
        return;
    }
    let evading = pos.turn() != winner && pos.is_check();
    let near = Near {
        evading,
        reach: loser_reach(pos, !winner, occupied),
    };
    let men = Men::of(pos, winner);
    if stay {
        collect_at(pos, winner, None, &near, &men, plans);
    }
    for to in steps {
        collect_at(pos, winner, Some((king, to)), &near, &men, plans);
    }
}

/// The winner's pieces (queens, rooks, bishops, knights; the first [`Men::MOST`]), each with
/// what the winner's other men cover once it has left its square (seen through the loser's
/// king: the same wherever that king steps next to its square) and the squares it reaches in
/// one move.
struct Men {
    pieces: [(Square, Role, Bitboard, Bitboard); Men::MOST],
    count: usize,
    fixed: Bitboard,
    seen: Bitboard,
}

impl Men {
    const MOST: usize = 16;

    fn of(pos: &Position, winner: Color) -> Men {
        let ours = pos.by_color(winner);
        let occupied = pos.occupied();
        let seen = occupied.without(pos.king_of(!winner));
        let fixed = attacks::king(pos.king_of(winner))
            | pawn_attacks(winner, ours & pos.by_role(Role::Pawn));
        let mut men = Men {
            pieces: [(Square::A1, Role::Pawn, Bitboard::EMPTY, Bitboard::EMPTY); Men::MOST],
            count: 0,
            fixed,
            seen,
        };
        for from in ours & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King)) {
            if let Some(role) = pos.role_at(from)
                && men.count < Men::MOST
            {
                let first = piece_reach(role, from, occupied) & !ours;
                men.pieces[men.count] = (from, role, Bitboard::EMPTY, first);
                men.count += 1;
            }
        }
        for i in 0..men.count {
            // The sliders whose line the man's square blocks see through it once it moves.
            let from = men.pieces[i].0;
            men.pieces[i].2 = men.others_over(i, seen.without(from));
        }
        men
    }

    /// What the men but the `i`-th cover over `seen`.
    fn others_over(&self, i: usize, seen: Bitboard) -> Bitboard {
        let mut all = self.fixed;
        for (j, &(from, role, _, _)) in self.pieces[..self.count].iter().enumerate() {
            if j != i {
                all |= piece_reach(role, from, seen);
            }
        }
        all
    }
}

/// What [`collect_at`] knows of the loser before its king steps: whether it is in check, to
/// move (`evading`), and the squares its men (not its king) may move to (`reach`: where a man
/// of it might take the checker or step between; none elsewhere).
struct Near {
    evading: bool,
    reach: Bitboard,
}

/// The squares the men of `color` but its king attack or push a pawn to, over `occupied`.
fn loser_reach(pos: &Position, color: Color, occupied: Bitboard) -> Bitboard {
    let men = pos.by_color(color).without(pos.king_of(color));
    let pawns = men & pos.by_role(Role::Pawn);
    let one = pushes(color, pawns) & !occupied;
    let mut reach = pawn_attacks(color, pawns) | one | pushes(color, one);
    for sq in men & !pawns {
        if let Some(role) = pos.role_at(sq) {
            reach |= piece_reach(role, sq, occupied);
        }
    }
    reach
}

/// [`collect`]'s plans with the loser's king on the square `step` takes it to (if any), the
/// winner's `men` as they stand (a line the moving man opens is not counted: such a plan is only
/// not found).
fn collect_at(
    pos: &Position,
    winner: Color,
    step: Option<(Square, Square)>,
    near: &Near,
    men: &Men,
    plans: &mut [Option<Plan>; TRIES],
) {
    let loser = !winner;
    let (occupied, king) = match step {
        Some((from, to)) => (pos.occupied().without(from).with(to), to),
        None => (pos.occupied(), pos.king_of(loser)),
    };
    let ours = pos.by_color(winner);
    let losers = pos.by_color(loser) & occupied.without(king);
    let zone = attacks::king(king) & !losers;
    let winner_to_move = pos.turn() == winner;
    let stepped = u32::from(step.is_some());
    for (i, &(from, role, others, first)) in men.pieces[..men.count].iter().enumerate() {
        let clear = occupied.without(from);
        let open = zone & !others;
        // The squares from which the man would check the king: only those within two steps of
        // it where the check must cover more than [`FAR_COVER`] open squares (from farther, a
        // man covers the squares on its line only).
        let need = open.count().saturating_sub(MAX_FILLS as u32 - stepped);
        if need > most_cover(role) {
            continue;
        }
        let mut checks = piece_reach(role, king, clear) & !ours;
        let close = king_spread(attacks::king(king));
        if need > FAR_COVER {
            checks &= close;
        }
        let far = if role == Role::Knight {
            Bitboard::EMPTY
        } else {
            !close
        };
        for to in checks {
            // From farther than two steps, a slider covers the squares on its line only.
            let covered = if far.contains(to) {
                attacks::ray(to, king)
            } else {
                piece_reach(role, to, clear.with(to).without(king))
            };
            if more_than(open & !covered, MAX_FILLS as u32 - stepped) {
                // Too many flights (a man taken on the way may open a line: not looked for).
                continue;
            }
            let direct = first.contains(to);
            let via = if direct {
                None
            } else {
                // A square on the way that gives no check yet (the loser must be free to fill),
                // an empty one if there is one.
                let steps = first & !checks & piece_reach(role, to, clear);
                match (steps & !occupied).first().or(steps.first()) {
                    Some(step) => Some(step),
                    None => continue,
                }
            };
            // A man of the loser taken on the way leaves its square empty.
            let (others, open, clear, left) = match via.filter(|&via| occupied.contains(via)) {
                Some(taken) => {
                    // The lines through its square, opened.
                    let others = men.others_over(i, men.seen.without(from).without(taken));
                    (
                        others,
                        zone & !others,
                        clear.without(taken),
                        losers.without(taken),
                    )
                }
                None => (others, open, clear, losers),
            };
            if attacks::king(king).contains(to) && !others.contains(to) {
                // The king takes the checker.
                continue;
            }
            let after = clear.with(to);
            let flights = open & !piece_reach(role, to, after.without(king));
            if more_than(flights, MAX_FILLS as u32 - stepped) {
                continue;
            }
            // The loser's men that could take the checker or step between (not the one it
            // takes): one may leave, or fill a flight.
            let left = left.without(to);
            let line = if role == Role::Knight {
                Bitboard::EMPTY
            } else {
                attacks::between(to, king)
            };
            let mut guards = Bitboard::EMPTY;
            if (line.with(to) & near.reach).any() {
                guards |= pos.attackers_to(to, loser, after) & left;
                for square in line & near.reach {
                    guards |= steppers(pos, loser, square, after) & left;
                }
            }
            if guards.more_than_one() {
                continue;
            }
            let Some((fills, filled, used)) = fillers_of(pos, loser, flights, left, occupied)
            else {
                continue;
            };
            let away = (guards & !used).first();
            if near.evading && step.is_none() && away.is_none() {
                // The loser, in check, must answer it first.
                continue;
            }
            let moves = 1 + u32::from(via.is_some());
            let loser_moves = filled as u32 + stepped + u32::from(away.is_some());
            let plies = if winner_to_move {
                2 * moves.max(loser_moves + 1) - 1
            } else {
                2 * moves.max(loser_moves)
            };
            if plies > MAX_PLIES {
                continue;
            }
            let plan = Plan {
                plies,
                step,
                away,
                from,
                via,
                to,
                fills,
                filled,
            };
            keep(plans, plan);
        }
    }
}

/// Whether `squares` holds more than `n` squares (`n` small: cheaper than counting them all).
fn more_than(squares: Bitboard, n: u32) -> bool {
    let mut rest = squares.0;
    for _ in 0..n {
        rest &= rest.wrapping_sub(1);
    }
    rest != 0
}

/// Puts `plan` among the shortest `plans` (sorted by plies), if it is one of them.
fn keep(plans: &mut [Option<Plan>; TRIES], plan: Plan) {
    let Some(at) = plans
        .iter()
        .position(|kept| kept.is_none_or(|kept| kept.plies > plan.plies))
    else {
        return;
    };
    plans[at..].rotate_right(1);
    plans[at] = Some(plan);
}

/// For each of `flights`, a man of `losers` (a different one each) that can step there in one
/// move: the pairs (from, to), how many, and the men used; `None` if some flight has none.
fn fillers_of(
    pos: &Position,
    loser: Color,
    flights: Bitboard,
    losers: Bitboard,
    occupied: Bitboard,
) -> Option<(Fills, usize, Bitboard)> {
    let mut fills = [(Square::A1, Square::A1); MAX_FILLS];
    let mut used = Bitboard::EMPTY;
    for (i, flight) in flights.into_iter().enumerate() {
        let from = (steppers(pos, loser, flight, occupied) & losers & !used).first()?;
        used = used.with(from);
        fills[i] = (from, flight);
    }
    Some((fills, flights.count() as usize, used))
}

/// The men of `color` (its king too) that may move to `square` in one move over `occupied`,
/// by their attacks (pawns: a capture where an enemy man stands, else a push).
fn steppers(pos: &Position, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    let pawns = pos.by_color(color) & pos.by_role(Role::Pawn);
    let attackers = pos.attackers_to(square, color, occupied);
    if pos.by_color(!color).contains(square) {
        return attackers;
    }
    let one = Bitboard::from_square(square);
    let behind = pushes(!color, one);
    let start = match color {
        Color::White => Bitboard::rank(1),
        Color::Black => Bitboard::rank(6),
    };
    let two = if (behind & occupied).is_empty() {
        pushes(!color, behind) & start
    } else {
        Bitboard::EMPTY
    };
    (attackers & !pawns) | (pawns & (behind | two))
}

/// The squares a `role` piece (not a pawn, not a king) on `sq` attacks over `occupied`.
fn piece_reach(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occupied),
        Role::Rook => attacks::rook(sq, occupied),
        Role::Queen => attacks::queen(sq, occupied),
        Role::Pawn | Role::King => Bitboard::EMPTY,
    }
}

/// Plays `plan` from `pos`: the winner's spare moves, then its approach; the loser's king step,
/// the man leaving and the fills, then its spare moves; every move legal. The line if it ends in
/// a mate by `winner`, and the plies played (a move not found counts as one).
fn play(
    pos: &Position,
    winner: Color,
    plan: &Plan,
    list: &mut MoveList,
) -> (Option<Vec<Move>>, u64) {
    let king = plan.step.map_or(pos.king_of(!winner), |(_, to)| to);
    let path = match plan.via {
        Some(via) => [(plan.from, via), (via, plan.to)],
        None => [(plan.from, plan.to), (plan.from, plan.to)],
    };
    let approach = &path[..1 + usize::from(plan.via.is_some())];
    let winner_moves = plan.plies.div_ceil(2) as usize;
    let waits = winner_moves - approach.len();
    // The squares a spare move must leave alone: the king's, those next to it, the checker's
    // path, the line of its check, the fills' squares.
    let zone = attacks::king(king).with(king);
    let line = attacks::between(plan.to, king).with(plan.to);
    let mut keep_off = zone | line | Bitboard::from_square(plan.from);
    if let Some(via) = plan.via {
        keep_off = keep_off.with(via) | attacks::between(plan.from, via);
        keep_off |= attacks::between(via, plan.to);
    } else {
        keep_off |= attacks::between(plan.from, plan.to);
    }
    // The loser's moves: the king's step, the man leaving (from its square: its move is found
    // when it is due), then the fills.
    let mut moves = [None; MAX_FILLS + 2];
    let away = plan.away.map(|from| (from, None));
    let step = plan.step.map(|(from, to)| (from, Some(to)));
    let fills = plan.fills[..plan.filled]
        .iter()
        .map(|&(from, to)| (from, Some(to)));
    for (i, (from, to)) in step.into_iter().chain(away).chain(fills).enumerate() {
        keep_off = keep_off.with(from) | to.map_or(Bitboard::EMPTY, Bitboard::from_square);
        moves[i] = Some((from, to));
    }
    let watch = Watch {
        keep_off,
        zone,
        line,
        king,
        to: plan.to,
    };
    let mut p = pos.clone();
    let mut played = Vec::with_capacity(plan.plies as usize);
    let (mut winner_ply, mut loser_ply) = (0, 0);
    for _ in 0..plan.plies {
        let mv = if p.turn() == winner {
            winner_ply += 1;
            if winner_ply <= waits {
                spare(&p, winner, &watch, None)
            } else {
                let (from, to) = approach[winner_ply - waits - 1];
                legal(&p, from, to, list)
            }
        } else {
            loser_ply += 1;
            match moves.get(loser_ply - 1).copied().flatten() {
                Some((from, Some(to))) => legal(&p, from, to, list),
                Some((from, None)) => spare(&p, winner, &watch, Some(from)),
                None => spare(&p, winner, &watch, None),
            }
        };
        let Some(mv) = mv else {
            return (None, played.len() as u64 + 1);
        };
        p.play_unchecked(mv);
        played.push(mv);
    }
    let plies = played.len() as u64;
    if p.turn() != winner && p.is_checkmate() {
        (Some(played), plies)
    } else {
        (None, plies)
    }
}

/// The legal move of the man on `from` to `to` (a pawn promoting: to a queen).
fn legal(pos: &Position, from: Square, to: Square, list: &mut MoveList) -> Option<Move> {
    let role = pos.role_at(from)?;
    list.clear();
    pos.push_legal_moves_to(role, to, list);
    list.iter()
        .copied()
        .find(|mv| mv.from() == from && mv.promotion().is_none_or(|role| role == Role::Queen))
}

/// What a spare move must leave alone: the squares it may neither leave nor land on
/// (`keep_off`), the mated king's square and those next to it (`zone`, on `king`), the checker's
/// square `to` and the squares between it and the king (`line`).
struct Watch {
    keep_off: Bitboard,
    zone: Bitboard,
    line: Bitboard,
    king: Square,
    to: Square,
}

/// A spare move of the side to move (or the move of the loser's man on `leaving` away from the
/// checker's square and line) that leaves the plan alone: no king move, no capture, nothing from
/// or to `watch.keep_off` (but the man leaving); a man of `winner` that covers no square of the
/// king's zone nor the checker's square before it moves, and gives no check; a man of the loser
/// that attacks neither the checker's square nor the line of its check where it lands. The man
/// leaving steps onto the checker's square first, if it can (the checker takes it there).
fn spare(pos: &Position, winner: Color, watch: &Watch, leaving: Option<Square>) -> Option<Move> {
    let us = pos.turn();
    let occupied = pos.occupied();
    let moves = pos.legal_moves();
    if let Some(from) = leaving
        && let Some(&mv) = moves
            .iter()
            .find(|mv| mv.from() == from && mv.to() == watch.to && mv.promotion().is_none())
    {
        return Some(mv);
    }
    moves.iter().copied().find(|mv| {
        let from = mv.from();
        if leaving.is_some_and(|leaving| from != leaving)
            || mv.role() == Role::King
            || mv.is_capture()
            || mv.promotion().is_some()
            || (leaving.is_none() && watch.keep_off.contains(from))
            || watch.keep_off.contains(mv.to())
        {
            return false;
        }
        let attacks = |square, occupied| match mv.role() {
            Role::Pawn => attacks::pawn(us, square),
            role => piece_reach(role, square, occupied),
        };
        let lands = attacks(mv.to(), occupied.without(from).with(mv.to()));
        if us == winner {
            (attacks(from, occupied) & watch.zone.with(watch.to)).is_empty()
                && !lands.contains(watch.king)
        } else {
            (lands & watch.line).is_empty()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::replays_to_mate;

    fn probed(fen: &str, winner: Color) -> Option<Vec<Move>> {
        let pos = Position::from_fen(fen).unwrap();
        let (line, spent) = probe(&pos, winner, u64::MAX);
        assert!(
            spent <= (TRIES as u64) * u64::from(MAX_PLIES),
            "{fen}: {spent}"
        );
        if let Some(line) = &line {
            assert!(replays_to_mate(&pos, winner, line), "{fen}: {line:?}");
        }
        line
    }

    fn uci(line: &[Move]) -> Vec<String> {
        line.iter().map(|mv| mv.to_uci(false).to_string()).collect()
    }

    /// Final positions of lichess games, one for each kind of plan, with the line the probe
    /// plays (where a dive played from 5 to 25 plies).
    #[test]
    fn each_kind_of_plan_replays_to_mate() {
        for (fen, winner, want) in [
            // The king stays; the knight that guards g7 leaves; the queen takes on g7.
            (
                "r3r1k1/1b3ppp/3Nq3/p3B1Qn/1p6/1P6/2P2PPP/R3R1K1 b - - 11 22",
                Color::White,
                &["h5g3", "g5g7"][..],
            ),
            // The king steps out of check into the corner of its men; the queen checks on e8.
            (
                "4r3/3QRkpp/8/5r2/8/8/PPP3P1/4R1K1 b - - 0 30",
                Color::White,
                &["f7f8", "d7e8"],
            ),
            // The rook fills c8, the king's last flight; the rook checks on d7.
            (
                "r2kn3/pp1n1R1Q/2p1p1p1/3p4/3PP1q1/2N5/PPPB4/2K5 b - - 1 23",
                Color::White,
                &["a8c8", "f7d7"],
            ),
            // In check, the queen steps between onto d8, where White's queen takes it, mating.
            (
                "Q6k/4q1pp/p2p4/1p2p3/8/P1P4P/1P4P1/6K1 b - - 1 31",
                Color::White,
                &["e7d8", "a8d8"],
            ),
            // Black mates: White's queen, which guards b2, steps onto it, and Black's takes it.
            (
                "1r5r/p1p1kp2/3pp2p/2n5/5R2/q1P1P1P1/P2Q1P2/2KR4 w - - 8 25",
                Color::Black,
                &["d2b2", "a3b2"],
            ),
        ] {
            let line = probed(fen, winner).unwrap_or_else(|| panic!("{fen}: no line"));
            assert_eq!(uci(&line), want, "{fen}");
        }
    }

    /// No line where none is short or none exists: a king in the open (a rook against a bare
    /// king), a side that cannot mate at all (the bishops behind a wall of chasolver's hard set),
    /// and a winner in check (its first move must answer it: left to the dives).
    #[test]
    fn no_line_where_no_short_mate_is_plain() {
        for (fen, winner) in [
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Color::White),
            (
                "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1",
                Color::White,
            ),
            (
                "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1",
                Color::Black,
            ),
            (
                "r2r3k/ppp2Qpp/2n5/8/2B3q1/1P6/P2p1P2/3R2K1 w - - 3 25",
                Color::White,
            ),
        ] {
            assert_eq!(probed(fen, winner), None, "{fen} {winner}");
        }
    }

    /// Against chasolver's lichess set (every 40th position): every line the probe finds
    /// replays to mate, only for a side labelled able to mate, and it finds one for more than an
    /// eighth of the sides.
    #[test]
    fn lines_agree_with_chasolvers_labels() {
        let Some(path) = arbiter_test_support::chasolver_lichess() else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let (mut sides, mut found) = (0, 0);
        let labelled = text.lines().filter(|line| !line.starts_with('#'));
        for line in labelled.step_by(40) {
            let (label, fen) = line.split_at(2);
            let pos = Position::from_fen(fen.trim()).unwrap();
            for (i, winner) in Color::ALL.into_iter().enumerate() {
                sides += 1;
                let (line, _) = probe(&pos, winner, u64::MAX);
                if let Some(line) = line {
                    found += 1;
                    assert!(replays_to_mate(&pos, winner, &line), "{fen} {winner}");
                    assert_ne!(label.as_bytes()[i], b'-', "{fen} {winner}");
                }
            }
        }
        // 668 of 3,278 sides when written.
        assert!(found * 8 > sides, "{found} of {sides}");
    }

    /// The plies played count against the limit: none is played beyond it.
    #[test]
    fn the_limit_bounds_the_plies_played() {
        let pos = Position::from_fen("4r3/3QRkpp/8/5r2/8/8/PPP3P1/4R1K1 b - - 0 30").unwrap();
        assert_eq!(probe(&pos, Color::White, 1), (None, 0));
        assert!(probe(&pos, Color::White, 2).0.is_some());
    }
}
