//! Locked positions: pawns that never leave their file, kings and pieces that can never move,
//! the squares every other unit can ever reach behind them, and the proof that a side can never
//! mate there.
//!
//! The argument, in three steps (a greatest fixed point, checked by induction):
//!
//! 1. *Assumptions.* Some pawns are assumed *bound*: they never capture (so never leave their
//!    file) and are never captured. A bound pawn can only walk up its file to just below the
//!    nearest enemy bound pawn ahead, own bound pawn that never moves, or frozen unit (below):
//!    that is its *segment*; a pawn whose walk reaches the last rank is not bound. Some kings
//!    and pieces are assumed *frozen*: they never move and are never captured. A bound pawn
//!    whose segment is its own square, and every frozen unit, is a *wall*.
//! 2. *Reach.* With the walls as the only obstacles, flood every other unit: a king steps onto
//!    any square that is not a wall and not attacked by an enemy pawn wall (it may never move
//!    into check); a knight, bishop, rook or queen moves as it does on a board whose only
//!    blockers are the walls; a free pawn pushes onto any square that is neither a wall nor an
//!    enemy bound pawn (which never leaves the file ahead of it), captures onto any square some
//!    enemy non-king unit can reach, and on the last rank may become a queen or a knight (which
//!    between them move like any promotion piece). Captures by pawns depend on where enemy
//!    units can be, so the floods are repeated until nothing grows. Fewer blockers only ever add
//!    squares, so each set contains every square the unit can really occupy or attack in any
//!    game, as long as the assumptions hold.
//! 3. *Checking the assumptions.* A bound pawn is dropped if an enemy unit can attack a square
//!    of its segment, or the enemy king can step next to one where no wall of its own guards it
//!    for good (unless taking it ends the game without the winner's mate: the side that loses
//!    the wall is left without a move), or an enemy unit can stand where it could capture. A
//!    frozen king is thawed if a neighbour is neither its own wall nor attacked by an enemy pawn
//!    wall or frozen king, or if it may castle; a frozen piece if some square it attacks (walls
//!    as blockers) is not its own wall, or it can be taken as a pawn can. Everything is
//!    recomputed until nothing changes. Then the assumptions hold by induction over the moves
//!    of any game: the first move that would break one needs a unit on a square its flood
//!    excludes.
//!
//! Asked whether the winner can mate, a move of the loser that mates the winner ends the game
//! first, so it breaks nothing: when the winner's king is frozen, a loser's piece stays frozen
//! if its every move checks that king from a knight's jump or from next to it, and a loser's
//! pawn's segment ends below a square where its push would check it. Such a check cannot be
//! blocked, the king cannot step out (its way out is held by the loser's walls: for a pushed
//! pawn, by the walls without it), and it is kept only where no unit of the winner can take
//! the checker there, through the lines the checker opens by leaving. Likewise, when the winner
//! has one piece besides its king and no pawn, taking that piece ends its hopes: the loser's
//! pawns may take it, and it may take a wall next to the loser's frozen king from which it
//! checks that king (the loser must take it back, and can).
//!
//! With that, a side can never check when none of its units can attack a square the other king
//! can reach ([`cannot_check`]), and never mate when around every such square the king keeps a
//! flight nothing can take away, or, when that king is the loser's only unit that moves and has
//! two squares, the winner's king alone can take the other square from it and a king that
//! stands next to that square cannot have let the loser's king leave it ([`cannot_mate_locked`]).
//!
//! A position with an en passant square is left alone (the capture could break an assumption).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// The squares one step ahead of `pawns` of `color`.
#[inline]
pub(crate) fn pushes(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    }
}

/// The squares `pawns` of `color` attack.
#[inline]
pub(crate) fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let west = pawns & !Bitboard::FILE_A;
    let east = pawns & !Bitboard::FILE_H;
    match color {
        Color::White => west.shift(7) | east.shift(9),
        Color::Black => west.shift(-9) | east.shift(-7),
    }
}

/// The squares of `squares` and every square next to one of them.
#[inline]
pub(crate) fn king_spread(squares: Bitboard) -> Bitboard {
    let west = squares & !Bitboard::FILE_A;
    let east = squares & !Bitboard::FILE_H;
    let row = squares | west.shift(-1) | east.shift(1);
    row | row.shift(8) | row.shift(-8)
}

/// The squares a `role` piece on `sq` attacks when only `blockers` stand on the board.
#[inline]
fn piece_attacks(role: Role, sq: Square, blockers: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, blockers),
        Role::Rook => attacks::rook(sq, blockers),
        Role::Queen => attacks::queen(sq, blockers),
        Role::King => attacks::king(sq),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// Every square a `role` piece starting on any square of `from` can reach, and every square it
/// can attack from one of them, when the only obstacles are `walls` (which it never enters).
fn flood_piece(role: Role, from: Bitboard, walls: Bitboard) -> (Bitboard, Bitboard) {
    let mut reach = from;
    let mut frontier = from;
    let mut attacked = Bitboard::EMPTY;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            let a = piece_attacks(role, sq, walls);
            attacked |= a;
            next |= a;
        }
        next = next & !walls & !reach;
        reach |= next;
        frontier = next;
    }
    (reach, attacked)
}

/// The squares a king on any square of `from` can reach stepping only on `allowed` squares
/// (its starting squares are kept even if not allowed).
pub(crate) fn flood_king(from: Bitboard, allowed: Bitboard) -> Bitboard {
    let mut reach = from;
    loop {
        let next = reach | (king_spread(reach) & allowed);
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// What the units of each side can ever do, given the bound pawns.
#[derive(Debug)]
pub(crate) struct Reach {
    /// Squares the non-king units of each side can ever stand on.
    pub occupy: [Bitboard; 2],
    /// Squares those units can ever attack.
    pub attack: [Bitboard; 2],
    /// Squares each king can ever stand on.
    pub king: [Bitboard; 2],
    /// For each unit but the kings, the squares it can ever stand on (a promoted pawn stays
    /// one unit): a bound pawn its segment, a wall its square.
    pub units: [Vec<Bitboard>; 2],
}

/// Pawns that never leave their file and are never captured, and where they can be.
#[derive(Debug, Default)]
pub(crate) struct Bound {
    /// The bound pawns, both colours.
    pub pawns: Bitboard,
    /// The squares each side's bound pawns can stand on.
    pub segments: [Bitboard; 2],
    /// The bound pawns that can never move at all.
    pub pawn_walls: Bitboard,
    /// Those pawns and the kings and pieces that can never move: walls for everything else.
    pub walls: Bitboard,
    /// Each bound pawn with its segment.
    pub list: Vec<(Square, Bitboard)>,
}

impl Bound {
    /// The segment of every pawn of `candidates`: the squares from it up to, not including,
    /// the nearest enemy candidate ahead on its file, or the nearest own candidate that can
    /// never move (whose segment is its square). Pawns without one are dropped (they might
    /// promote). Kings and pieces in `frozen` (assumed never to move) close segments too, and
    /// are walls; so do the squares of `mating` for the pawns of `loser` (a push there mates).
    fn new(
        pos: &Position,
        mut candidates: Bitboard,
        frozen: Bitboard,
        loser: Option<Color>,
        mating: Bitboard,
    ) -> Bound {
        // Own pawns that never move, closing the segments behind them: found from the
        // segments, so grown until nothing changes (started afresh when candidates drop out).
        let mut stops = Bitboard::EMPTY;
        loop {
            let mut segs = Vec::new();
            let mut kept = Bitboard::EMPTY;
            let mut still = Bitboard::EMPTY;
            for sq in candidates {
                let Some(color) = pos.piece_at(sq).map(|p| p.color) else {
                    continue;
                };
                let mut closers =
                    (candidates & pos.by_color(!color)) | frozen | (stops & pos.by_color(color));
                if loser == Some(color) {
                    closers |= mating;
                }
                let mut seg = Bitboard::from_square(sq);
                let mut cur = Bitboard::from_square(sq);
                let mut closed = false;
                loop {
                    cur = pushes(color, cur);
                    if cur.is_empty() {
                        break;
                    }
                    if (cur & closers).any() {
                        closed = true;
                        break;
                    }
                    seg |= cur;
                }
                if closed {
                    kept = kept.with(sq);
                    segs.push((sq, seg));
                    if seg.count() == 1 {
                        still = still.with(sq);
                    }
                }
            }
            if kept != candidates {
                candidates = kept;
                stops = Bitboard::EMPTY;
                continue;
            }
            if (still & !stops).any() {
                stops = still;
                continue;
            }
            let mut bound = Bound {
                pawns: kept,
                walls: frozen | still,
                pawn_walls: still,
                ..Bound::default()
            };
            for &(sq, seg) in &segs {
                if let Some(piece) = pos.piece_at(sq) {
                    bound.segments[piece.color.index()] |= seg;
                }
            }
            bound.list = segs;
            return bound;
        }
    }
}

impl Reach {
    /// The least fixed point of the floods, with the walls of `bound` as the only obstacles.
    pub(crate) fn compute(pos: &Position, bound: &Bound) -> Reach {
        let kings = pos.by_role(Role::King);
        let walls = bound.walls;
        let mut occupy = [Color::White, Color::Black]
            .map(|c| (pos.by_color(c) & !kings & !bound.pawns) | bound.segments[c.index()]);
        let mut king = [Bitboard::EMPTY; 2];
        for color in [Color::White, Color::Black] {
            let enemy_walls = bound.pawn_walls & pos.by_color(!color);
            let allowed = !walls & !pawn_attacks(!color, enemy_walls);
            king[color.index()] = flood_king(Bitboard::from_square(pos.king_of(color)), allowed);
        }
        // Pieces move the same whatever the others do: flood them once.
        let mut piece_attack = [Bitboard::EMPTY; 2];
        let mut units: [Vec<Bitboard>; 2] = [Vec::new(), Vec::new()];
        for color in [Color::White, Color::Black] {
            let ci = color.index();
            let pieces = pos.by_color(color) & !kings & !pos.by_role(Role::Pawn);
            for sq in pieces {
                if let Some(role) = pos.role_at(sq) {
                    // A frozen piece stays (one whose moves all mate may attack beyond walls).
                    let (r, a) = if walls.contains(sq) {
                        (Bitboard::from_square(sq), piece_attacks(role, sq, walls))
                    } else {
                        flood_piece(role, Bitboard::from_square(sq), walls)
                    };
                    occupy[ci] |= r;
                    piece_attack[ci] |= a;
                    units[ci].push(r);
                }
            }
            for &(sq, seg) in &bound.list {
                if pos.by_color(color).contains(sq) {
                    units[ci].push(seg);
                }
            }
        }
        // Pawns capture only where enemy units can be: grow until nothing changes.
        loop {
            let mut attack = [Color::White, Color::Black]
                .map(|c| pawn_attacks(c, bound.segments[c.index()]) | piece_attack[c.index()]);
            let mut next = occupy;
            let mut pawn_units: [Vec<Bitboard>; 2] = [Vec::new(), Vec::new()];
            for color in [Color::White, Color::Black] {
                let ci = color.index();
                let pawns = pos.by_color(color) & pos.by_role(Role::Pawn) & !bound.pawns;
                let last = Bitboard::rank(if color == Color::White { 7 } else { 0 });
                let targets = occupy[(!color).index()] & !walls;
                // An enemy bound pawn ahead never leaves the file: no passing it.
                let stops = walls | (bound.pawns & pos.by_color(!color));
                let mut promoted = Bitboard::EMPTY;
                for sq in pawns {
                    let mut cone = Bitboard::from_square(sq);
                    loop {
                        let walk = cone & !last;
                        let grown = cone
                            | (pushes(color, walk) & !stops)
                            | (pawn_attacks(color, walk) & targets);
                        if grown == cone {
                            break;
                        }
                        cone = grown;
                    }
                    attack[ci] |= pawn_attacks(color, cone & !last);
                    next[ci] |= cone;
                    promoted |= cone & last;
                    pawn_units[ci].push(cone);
                }
                if promoted.any() {
                    for role in [Role::Queen, Role::Knight] {
                        let (r, a) = flood_piece(role, promoted, walls);
                        next[ci] |= r;
                        attack[ci] |= a;
                    }
                }
            }
            if next == occupy {
                // Each free pawn is one unit: its cone, and where its promotion can go.
                for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
                    let last = Bitboard::rank(if color == Color::White { 7 } else { 0 });
                    for &cone in &pawn_units[ci] {
                        let mut unit = cone;
                        if (cone & last).any() {
                            for role in [Role::Queen, Role::Knight] {
                                unit |= flood_piece(role, cone & last, walls).0;
                            }
                        }
                        units[ci].push(unit);
                    }
                }
                return Reach {
                    occupy,
                    attack,
                    king,
                    units,
                };
            }
            occupy = next;
        }
    }
}

/// The pawns that never leave their file and are never captured, in any game from `pos` (see
/// the module doc), with the reach of everything else. `None` when an en passant square is set.
///
/// With `loser`, the question is whether the other side (the winner) can mate, and a wall that
/// only the enemy king can take does not count as taken when taking it ends the game without
/// the winner's mate ([`spared`]): the game goes on only while the wall stands.
pub(crate) fn bound_pawns(pos: &Position, loser: Option<Color>) -> Option<(Bound, Reach)> {
    if pos.ep_square().is_some() {
        return None;
    }
    // Every pawn is a candidate (those that could promote drop out at once).
    let candidates = pos.by_role(Role::Pawn);
    // Candidates for never moving: kings without castling rights and every piece.
    let kings = pos.by_role(Role::King);
    let mut frozen = pos.occupied() & !pos.by_role(Role::Pawn) & !kings;
    for color in [Color::White, Color::Black] {
        if (pos.castling_rooks() & pos.by_color(color)).is_empty() {
            frozen |= pos.king_of(color);
        }
    }
    Some(fixed_point(pos, loser, candidates, frozen, Bitboard::EMPTY))
}

/// The greatest fixed point of the assumptions (see the module doc), from the pawns
/// `candidates` and the kings and pieces `frozen`. The pieces of `kept` are assumed never to be
/// taken (the caller answers for the games in which one is): they thaw only if they can move.
fn fixed_point(
    pos: &Position,
    loser: Option<Color>,
    mut candidates: Bitboard,
    mut frozen: Bitboard,
    kept: Bitboard,
) -> (Bound, Reach) {
    let kings = pos.by_role(Role::King);
    // Squares where a loser's pawn pushed would mate, found not to (some unit of the winner
    // could take it there).
    let mut refused = Bitboard::EMPTY;
    loop {
        let mating = loser.map_or(Bitboard::EMPTY, |loser| {
            mating_pushes(pos, loser, frozen) & !refused
        });
        let bound = Bound::new(pos, candidates, frozen, loser, mating);
        // A frozen king has no square to go to: each neighbour holds one of its own walls, or
        // is attacked by an enemy pawn wall or frozen king (which also covers an enemy unit
        // that stands there defended). A frozen piece has no square to go to: every square it
        // attacks (with the walls as blockers) holds one of its own walls.
        let mut thawed = Bitboard::EMPTY;
        for unit in frozen {
            let Some(piece) = pos.piece_at(unit) else {
                continue;
            };
            let color = piece.color;
            let own = bound.walls & pos.by_color(color);
            let exits = if piece.role == Role::King {
                let covered = pawn_attacks(!color, bound.pawn_walls & pos.by_color(!color))
                    | frozen_guard(frozen & kings & pos.by_color(!color));
                attacks::king(unit) & !own & !covered
            } else {
                // (No piece ever moves onto a king; a frozen one holds its square for good.)
                let kept_king = frozen & Bitboard::from_square(pos.king_of(!color));
                let exits = piece_attacks(piece.role, unit, bound.walls) & !own & !kept_king;
                // A loser's piece whose every move checks the winner's frozen king where
                // nothing can ever take it or step between: each move mates (checked below).
                let mating = loser == Some(color)
                    && frozen.contains(pos.king_of(!color))
                    && (exits & !checking_squares(piece.role, pos.king_of(!color))).is_empty();
                if mating { Bitboard::EMPTY } else { exits }
            };
            if exits.any() {
                thawed = thawed.with(unit);
            }
        }
        if thawed.any() {
            frozen &= !thawed;
            continue;
        }
        let reach = Reach::compute(pos, &bound);
        // With a lone piece, the winner loses its last hope when the loser takes it: the
        // loser's walls may take it, and it may take those that cost it its life at once.
        let lone = loser.is_some_and(|loser| lone_piece(pos, !loser).is_some());
        let sacrifices = loser.map_or(Bitboard::EMPTY, |loser| {
            fatal_takes(pos, &bound, &reach, frozen, loser)
        });
        let mut dropped = Bitboard::EMPTY;
        for &(sq, seg) in &bound.list {
            let Some(color) = pos.piece_at(sq).map(|p| p.color) else {
                continue;
            };
            let enemy = (!color).index();
            let losers = Some(color) == loser;
            let defended = guarded(pos, &bound, color);
            // Captured by an enemy piece or pawn, or by the enemy king where no wall defends
            // (unless that ends the game).
            let by_king = (seg & king_spread(reach.king[enemy]) & !defended).any()
                && !(seg.count() == 1 && spared(pos, &bound, &reach, loser, sq, color));
            let harmless = if losers { sacrifices } else { Bitboard::EMPTY };
            let captured = (seg & reach.attack[enemy] & !harmless).any() || by_king;
            // Capturing: an enemy unit can stand on one of its capture squares.
            let captures =
                (pawn_attacks(color, seg) & reach.occupy[enemy]).any() && !(losers && lone);
            if captured || captures {
                dropped = dropped.with(sq);
            }
        }
        // A piece frozen because its every move mates: no unit of the winner can take it on
        // the square it moves to (the lines through the square it leaves open then).
        if let Some(loser) = loser {
            for unit in frozen & !kings & pos.by_color(loser) {
                let Some(role) = pos.role_at(unit) else {
                    continue;
                };
                let own = bound.walls & pos.by_color(loser);
                let exits = piece_attacks(role, unit, bound.walls)
                    & !own
                    & !Bitboard::from_square(pos.king_of(!loser));
                if exits.any() && (exits & takes_after(pos, &bound, !loser, unit)).any() {
                    thawed = thawed.with(unit);
                }
            }
        }
        // A loser's pawn stopped below a square where its push would mate: no unit of the
        // winner can take it there.
        if let Some(loser) = loser {
            let ours = pos.by_color(loser);
            for &(sq, seg) in &bound.list {
                let ahead = pushes(loser, seg) & !seg;
                if !ours.contains(sq) || (ahead & mating).is_empty() {
                    continue;
                }
                let Some(top) = pushes(!loser, ahead).into_iter().next() else {
                    continue;
                };
                // The king's every way out stays guarded without the pawn where it stood.
                let winner_walls = bound.walls & pos.by_color(!loser);
                let guard = guarded_but(pos, &bound, loser, Bitboard::from_square(top))
                    | pawn_attacks(loser, ahead);
                let out = attacks::king(pos.king_of(!loser)) & !winner_walls & !guard;
                if out.any() || (ahead & takes_after(pos, &bound, !loser, top)).any() {
                    refused |= ahead;
                }
            }
        }
        // A frozen piece must never be taken either.
        for unit in frozen & !kings & !kept {
            let Some(color) = pos.piece_at(unit).map(|p| p.color) else {
                continue;
            };
            let enemy = (!color).index();
            let defended = guarded(pos, &bound, color);
            let by_king = (king_spread(reach.king[enemy]) & !defended).contains(unit)
                && !spared(pos, &bound, &reach, loser, unit, color);
            let harmless = if Some(color) == loser {
                sacrifices
            } else {
                Bitboard::EMPTY
            };
            if (reach.attack[enemy] & !harmless).contains(unit) || by_king {
                thawed = thawed.with(unit);
            }
        }
        if dropped.is_empty() && thawed.is_empty() && (mating & refused).is_empty() {
            return (bound, reach);
        }
        candidates &= !dropped;
        frozen &= !thawed;
    }
}

/// Whether the enemy king taking `owner`'s wall on `sq` ends the game without a mate by the
/// winner (the side other than `loser`; no wall is spared without one).
///
/// `owner` is then left without a legal move: every other unit of it is a wall, its king may
/// not castle, and of the squares its king can ever stand on, at most one (`t`) is not next to
/// `sq`. (The king stands on `t`, as kings never stand side by side, and every other square it
/// could step to is next to the taker; the walls stay where they were, and a wall pawn's square
/// ahead or a frozen piece's exit is still held, now by the taker where the wall stood.) When
/// the loser takes, the game is over without the winner's mate. When the winner takes, its king
/// move must not uncover a check of the king on `t` ([`discovers_check`]): a stalemate.
fn spared(
    pos: &Position,
    bound: &Bound,
    reach: &Reach,
    loser: Option<Color>,
    sq: Square,
    owner: Color,
) -> bool {
    let Some(loser) = loser else {
        return false;
    };
    let kings = pos.by_role(Role::King);
    let stays = reach.king[owner.index()] & !king_spread(Bitboard::from_square(sq));
    let ends = (pos.by_color(owner) & !kings & !bound.walls).is_empty()
        && (pos.castling_rooks() & pos.by_color(owner)).is_empty()
        && stays.count() <= 1;
    if !ends {
        return false;
    }
    let taker = !owner;
    taker == loser
        || stays.into_iter().all(|t| {
            let from = attacks::king(sq) & reach.king[taker.index()];
            !discovers_check(pos, bound, reach, taker, t, from, Bitboard::from_square(sq))
        })
}

/// Whether `side`'s king, stepping from a square of `from` to one of `to` (`from` within the
/// squares it can ever stand on), may uncover a check by one of its sliders (or a queen a pawn
/// of it may become) on the enemy king on `k`: the square it leaves lies on a line to `k` with
/// no wall between, two steps or more from `k`.
fn discovers_check(
    pos: &Position,
    bound: &Bound,
    reach: &Reach,
    side: Color,
    k: Square,
    from: Bitboard,
    to: Bitboard,
) -> bool {
    let ours = pos.by_color(side);
    let promotes = (ours & pos.by_role(Role::Pawn) & !bound.walls).any();
    let queens = pos.by_role(Role::Queen);
    let diagonal = promotes || (ours & (pos.by_role(Role::Bishop) | queens)).any();
    let straight = promotes || (ours & (pos.by_role(Role::Rook) | queens)).any();
    let mut lines = Bitboard::EMPTY;
    if diagonal {
        lines |= attacks::bishop(k, bound.walls);
    }
    if straight {
        lines |= attacks::rook(k, bound.walls);
    }
    let king = reach.king[side.index()];
    (lines & from & king & !attacks::king(k))
        .into_iter()
        .any(|s| (attacks::king(s) & to).any())
}

/// Whether the loser, whose only moving unit is its king, on at most two squares, can never be
/// mated on `k` for want of a tempo: the other square `r` is a flight unless the winner's king
/// stands next to it (no other unit of the winner can ever attack it, nor stand there
/// defended); a mate on `k` follows the loser's king move from `r` to `k` (its only move), made
/// while the winner's king was not next to `r`, so the mating move is a king move, which gives
/// check only by uncovering a slider ([`discovers_check`]). On a single square the loser never
/// moves at all, and only a mate in one from `pos` is possible. The caller checks the rest:
/// the loser's other units are walls, neither side may castle, no mate in one.
fn no_tempo(pos: &Position, bound: &Bound, reach: &Reach, winner: Color, k: Square) -> bool {
    let region = reach.king[(!winner).index()];
    let others = region & !Bitboard::from_square(k);
    if others.is_empty() {
        return true;
    }
    let Some(r) = others.into_iter().next().filter(|_| others.count() == 1) else {
        return false;
    };
    !reach.attack[winner.index()].contains(r)
        && !discovers_check(
            pos,
            bound,
            reach,
            winner,
            k,
            reach.king[winner.index()],
            attacks::king(r) & !king_spread(Bitboard::from_square(k)) & reach.king[winner.index()],
        )
}

/// Whether the loser (the side other than `winner`) can only ever move its king, on at most two
/// squares, neither side may castle, and `winner` has no mate in one from `pos` (nor has mated
/// already): the conditions of [`no_tempo`].
fn lone_king(pos: &Position, bound: &Bound, reach: &Reach, winner: Color) -> bool {
    let loser = !winner;
    let kings = pos.by_role(Role::King);
    if (pos.by_color(loser) & !kings & !bound.walls).any()
        || pos.castling_rooks().any()
        || reach.king[loser.index()].count() > 2
    {
        return false;
    }
    if pos.turn() == loser {
        return !pos.is_checkmate();
    }
    let moves = pos.legal_moves();
    moves.iter().all(|&mv| {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        !child.is_checkmate()
    })
}

/// The squares `color`'s walls guard for good: attacked by its pawn walls, its frozen king, or
/// its frozen pieces (through the walls).
fn guarded(pos: &Position, bound: &Bound, color: Color) -> Bitboard {
    guarded_but(pos, bound, color, Bitboard::EMPTY)
}

/// The squares `color`'s walls but those on `gone` guard for good (see [`guarded`]).
fn guarded_but(pos: &Position, bound: &Bound, color: Color, gone: Bitboard) -> Bitboard {
    let own = pos.by_color(color) & !gone;
    let mut guard = pawn_attacks(color, bound.pawn_walls & own);
    for unit in bound.walls & own & !bound.pawn_walls {
        if let Some(role) = pos.role_at(unit) {
            // Only the first square of each line: nothing can step between. (A frozen piece
            // attacks no further, but one whose every move mates looks past its empty exits.)
            guard |= piece_attacks(role, unit, Bitboard::FULL);
        }
    }
    guard
}

/// The square of `side`'s only unit besides its king, when it has exactly one and it is not a
/// pawn: taking it leaves `side` a bare king, which never mates.
fn lone_piece(pos: &Position, side: Color) -> Option<Square> {
    let men = pos.by_color(side) & !pos.by_role(Role::King);
    let sq = men.into_iter().next().filter(|_| men.count() == 1)?;
    (pos.role_at(sq) != Some(Role::Pawn)).then_some(sq)
}

/// The loser's walls the winner's lone piece ([`lone_piece`]) can take only to be taken at
/// once: next to the loser's frozen king, so that the piece landing there checks it from next
/// to it (no block, and the king's other squares hold its own walls or are guarded for good:
/// the loser must take the piece), and where the loser can: its king, when the square is next
/// to it and the winner's king can never stand next to the square (nothing else of the winner
/// guards it), or another of its walls but the king that guards it (a wall next to the square
/// along a line, or a knight's jump away: nothing steps between, and only the taken piece could
/// pin it). Whichever takes, the winner is left a bare king.
fn fatal_takes(
    pos: &Position,
    bound: &Bound,
    reach: &Reach,
    frozen: Bitboard,
    loser: Color,
) -> Bitboard {
    let king = pos.king_of(loser);
    let Some(piece) = lone_piece(pos, !loser) else {
        return Bitboard::EMPTY;
    };
    if !frozen.contains(king) {
        return Bitboard::EMPTY;
    }
    let Some(role) = pos.role_at(piece) else {
        return Bitboard::EMPTY;
    };
    let walls = bound.walls & pos.by_color(loser) & checking_squares(role, king);
    let near_winner = king_spread(reach.king[(!loser).index()]);
    walls
        .into_iter()
        .filter(|&w| {
            let by_king = attacks::king(king).contains(w) && !near_winner.contains(w);
            let gone = Bitboard::from_square(w).with(king);
            by_king || guarded_but(pos, bound, loser, gone).contains(w)
        })
        .fold(Bitboard::EMPTY, Bitboard::with)
}

/// The squares from which a `role` piece checks a king on `king` with no square between (a
/// knight's, or next to the king), so that the check cannot be blocked.
fn checking_squares(role: Role, king: Square) -> Bitboard {
    match role {
        Role::Knight => attacks::knight(king),
        _ => piece_attacks(role, king, Bitboard::EMPTY) & attacks::king(king),
    }
}

/// The squares where a pawn of `loser`, pushed one step, checks the other king, when that king
/// is in `frozen` (it never moves): a check no unit can step into and the king cannot answer
/// by taking (the squares next to a frozen king that are not its own walls are guarded). Not
/// where a double step could land (an en passant capture could take the pawn).
fn mating_pushes(pos: &Position, loser: Color, frozen: Bitboard) -> Bitboard {
    let king = pos.king_of(!loser);
    if !frozen.contains(king) {
        return Bitboard::EMPTY;
    }
    let double_step = Bitboard::rank(if loser == Color::White { 3 } else { 4 });
    pawn_attacks(!loser, Bitboard::from_square(king)) & !double_step
}

/// The squares some unit of `winner` other than its king may ever take on, once the wall on
/// `freed` has left it: its pawns' captures from their segments, and its pieces' attacks from
/// every square they can reach (reached with the walls of `bound` as obstacles, as the game
/// went until then) through the walls less `freed`. Every square when a pawn of `winner` is not
/// bound (its promotions are not followed here).
fn takes_after(pos: &Position, bound: &Bound, winner: Color, freed: Square) -> Bitboard {
    let ours = pos.by_color(winner);
    let pawns = ours & pos.by_role(Role::Pawn);
    if (pawns & !bound.pawns).any() {
        return Bitboard::FULL;
    }
    let open = bound.walls.without(freed);
    let mut takes = pawn_attacks(winner, bound.segments[winner.index()]);
    for sq in ours & !pawns & !pos.by_role(Role::King) {
        if let Some(role) = pos.role_at(sq) {
            let (reach, _) = flood_piece(role, Bitboard::from_square(sq), bound.walls);
            for from in reach {
                takes |= piece_attacks(role, from, open);
            }
        }
    }
    takes
}

/// The squares next to the frozen kings `kings`: they guard them for good.
#[inline]
fn frozen_guard(kings: Bitboard) -> Bitboard {
    kings
        .into_iter()
        .fold(Bitboard::EMPTY, |guard, king| guard | attacks::king(king))
}

/// Whether `winner` can never give check to the other king, whatever both sides play: proved
/// with the bound pawns and the reach of every unit (see the module doc).
pub fn cannot_check(pos: &Position, winner: Color) -> bool {
    let Some((_, reach)) = bound_pawns(pos, Some(!winner)) else {
        return false;
    };
    (reach.attack[winner.index()] & reach.king[(!winner).index()]).is_empty()
}

/// Whether `winner` can never mate, whatever both sides play: on every square where the losing
/// king could ever be checked, it keeps a flight that nothing can ever take from it.
///
/// A *flight* of a square `k` is a neighbour that no unit of `winner` (king included) can ever
/// attack and that is not a wall. Attacks are flooded with the walls as the only blockers, so a
/// slider's attack runs on through the checked king's square as it does in a real check. A king
/// checked on `k` is mated only if every flight holds a man of its own (an empty flight, or one
/// holding an enemy unit it may take, is a way out). Each of the loser's men stands on one
/// square at a time, and only on squares of its reach, so when the flights cannot be matched
/// each to a different man that can ever stand there, the king always keeps one: no mate on
/// `k`. Where the flights can be filled, a loser that only ever moves its king, between two
/// squares, may still never be mated on `k` for want of a tempo (`no_tempo`). If either holds
/// on every square of the king's reach that `winner` can ever attack, no mate is possible. This
/// contains [`cannot_check`] (no such square).
pub fn cannot_mate_locked(pos: &Position, winner: Color) -> bool {
    !open_mate_square(pos, winner) && locked_proof(pos, winner)
}

/// [`cannot_mate_locked`] without the cheap test that shows it cannot succeed: the fixed
/// point, its proof and the proof on either side of a capture.
fn locked_proof(pos: &Position, winner: Color) -> bool {
    let Some((bound, reach)) = bound_pawns(pos, Some(!winner)) else {
        return false;
    };
    no_mate(pos, &bound, &reach, winner, true) || no_mate_either_side_of_a_capture(pos, winner)
}

/// Whether the locked-position proof certainly fails for `winner`, shown without its fixed
/// point: a square the loser's king can reach that the winner can attack, whose every
/// neighbour the winner can attack too (its king by stepping there) or holds a man of the
/// loser, while the loser's king has more than two squares or castling is allowed.
///
/// Each part is what any fixed point ([`fixed_point`], whatever it assumes) is sure to hold
/// at least, since its walls stand only on occupied squares: the king's squares flooded
/// through empty squares that no pawn of the other side attacks (its flood avoids only walls
/// and the squares enemy pawn walls attack); the winner's pawns' attacks from where they stand
/// and from each empty square ahead up to the first man (a pawn's segment or cone holds those
/// squares short of the last rank: only the loser's pawns stop short of an empty square); each
/// piece's attacks with the men on the board as blockers, flooded through the empty squares
/// for a piece that attacks one (such a piece is never frozen: that empty square is an exit)
/// and from its square for the rest; the winner's king covering the squares next to its
/// squares. Each of the loser's men is a unit that can stand on its own square. On that
/// square `no_mate` then finds every flight covered, or filled by a man of the loser's own,
/// one each, and no want of a tempo (the loser's king has more than two squares, or castling
/// is allowed): no proof, for the position itself nor for the first part of the proof on
/// either side of a capture, which asks `no_mate` of the position too.
fn open_mate_square(pos: &Position, winner: Color) -> bool {
    let loser = !winner;
    let occupied = pos.occupied();
    let kings = pos.by_role(Role::King);
    let pawns = pos.by_role(Role::Pawn);
    let empty = !occupied;
    let king_squares = |color: Color| {
        let enemy_pawns = pawns & pos.by_color(!color);
        let allowed = empty & !pawn_attacks(!color, enemy_pawns);
        flood_king(Bitboard::from_square(pos.king_of(color)), allowed)
    };
    let region = king_squares(loser);
    if region.count() <= 2 && pos.castling_rooks().is_empty() {
        return false;
    }
    let ours = pos.by_color(winner);
    let last = Bitboard::rank(if winner == Color::White { 7 } else { 0 });
    let mut walk = ours & pawns;
    loop {
        let next = walk | (pushes(winner, walk & !last) & empty);
        if next == walk {
            break;
        }
        walk = next;
    }
    let mut attack = pawn_attacks(winner, walk & !last);
    for sq in ours & !kings & !pawns {
        let Some(role) = pos.role_at(sq) else {
            continue;
        };
        let direct = piece_attacks(role, sq, occupied);
        attack |= if (direct & empty).any() {
            flood_piece(role, Bitboard::from_square(sq), occupied).1
        } else {
            direct
        };
    }
    let held = attack | king_spread(king_squares(winner)) | (pos.by_color(loser) & !kings);
    (attack & region)
        .into_iter()
        .any(|k| (attacks::king(k) & !held).is_empty())
}

/// Whether no square where the loser's king can be checked (by the reach of `bound`) can be a
/// mate: the flights cannot be filled, or (with `tempo`, where `pos` is the position itself)
/// the winner lacks the tempo.
fn no_mate(pos: &Position, bound: &Bound, reach: &Reach, winner: Color, tempo: bool) -> bool {
    let loser = (!winner).index();
    let region = reach.king[loser];
    let attack = reach.attack[winner.index()];
    let cover = attack | king_spread(reach.king[winner.index()]);
    let open = !cover & !bound.walls;
    let units = &reach.units[loser];
    let mut lone = None;
    (attack & region).into_iter().all(|k| {
        !can_fill(attacks::king(k) & open, units)
            || (tempo
                && *lone.get_or_insert_with(|| lone_king(pos, bound, reach, winner))
                && no_tempo(pos, bound, reach, winner, k))
    })
}

/// The proof in two parts when a piece boxed in by its own men can be taken (a rook in the
/// corner behind its king and a bishop, say): while it stands, it is assumed never to be taken
/// (so it and what it boxes in never move), and no mate is possible; once it is taken, the
/// position is ruled afresh without it, every pawn and frozen unit of the first part at most
/// still bound or frozen (so that every other unit, wherever the first part let it go, is
/// within its new reach, the taker on the piece's square included: the taker's side may have no
/// pawn that is not bound), and no mate is possible either. Each boxed piece that can be taken is
/// tried (at most [`BOXED_TRIES`]); none where castling is allowed.
fn no_mate_either_side_of_a_capture(pos: &Position, winner: Color) -> bool {
    if pos.castling_rooks().any() || pos.ep_square().is_some() {
        return false;
    }
    let kings = pos.by_role(Role::King);
    let pawns = pos.by_role(Role::Pawn);
    let occupied = pos.occupied();
    let boxed = (occupied & !kings & !pawns).into_iter().filter(|&sq| {
        let Some(piece) = pos.piece_at(sq) else {
            return false;
        };
        let exits = piece_attacks(piece.role, sq, occupied) & !pos.by_color(piece.color);
        let mating = piece.color != winner
            && (exits & !checking_squares(piece.role, pos.king_of(winner))).is_empty();
        exits.is_empty() || mating
    });
    let mut frozen = occupied & !pawns & !kings;
    for color in Color::ALL {
        frozen |= pos.king_of(color);
    }
    let loser = Some(!winner);
    boxed.take(BOXED_TRIES).any(|piece_sq| {
        let kept = Bitboard::from_square(piece_sq);
        let Some(piece) = pos.piece_at(piece_sq) else {
            return false;
        };
        let (bound, reach) = fixed_point(pos, loser, pawns, frozen, kept);
        let still = frozen & bound.walls;
        // A pawn that takes the piece would stand where no flood of the second part need bring
        // it (it moves there only by that capture): the taker's pawns must all be bound.
        let loose_pawns = pawns & pos.by_color(!piece.color) & !bound.pawns;
        if !still.contains(piece_sq)
            || loose_pawns.any()
            || !no_mate(pos, &bound, &reach, winner, true)
        {
            return false;
        }
        let mut after = pos.clone();
        after.take(piece_sq, piece);
        let (bound, reach) =
            fixed_point(&after, loser, bound.pawns, still & !kept, Bitboard::EMPTY);
        no_mate(&after, &bound, &reach, winner, false)
    })
}

/// Boxed pieces [`no_mate_either_side_of_a_capture`] tries at most.
const BOXED_TRIES: usize = 2;

/// Whether each square of `squares` can get a unit of its own among `units` (each given by the
/// squares it can stand on), no unit serving two squares: a bipartite matching, by augmenting
/// paths.
pub(crate) fn can_fill(squares: Bitboard, units: &[Bitboard]) -> bool {
    if squares.is_empty() {
        return true;
    }
    let useful: Vec<Bitboard> = units
        .iter()
        .map(|&u| u & squares)
        .filter(|u| u.any())
        .collect();
    if (squares.count() as usize) > useful.len() {
        return false;
    }
    // `taken[i]`: the square unit `i` fills, if any.
    let mut taken: Vec<Option<Square>> = vec![None; useful.len()];
    for sq in squares {
        let mut seen = vec![false; useful.len()];
        if !augment(sq, &useful, &mut taken, &mut seen) {
            return false;
        }
    }
    true
}

/// Finds a unit for `sq`, moving other units to other squares if need be.
fn augment(
    sq: Square,
    units: &[Bitboard],
    taken: &mut [Option<Square>],
    seen: &mut [bool],
) -> bool {
    for i in 0..units.len() {
        if seen[i] || !units[i].contains(sq) {
            continue;
        }
        seen[i] = true;
        let free = match taken[i] {
            None => true,
            Some(other) => augment(other, units, taken, seen),
        };
        if free {
            taken[i] = Some(sq);
            return true;
        }
    }
    false
}

/// How many pawns must stand blocked head-on by an enemy pawn before the search tries the
/// locked-position proof on a position or draws the approach map. On the final positions of 700
/// lichess games the proof was tried 28,000 times with one to four blocked pawns and never
/// succeeded (and took three quarters of the search's time); on the public test vector it
/// succeeds with fewer than four some fifty times, always where the search decides anyway.
pub(crate) const LOCK_MIN_BLOCKED: u32 = 4;

/// Whether at least [`LOCK_MIN_BLOCKED`] pawns stand blocked head-on by enemy pawns: walls
/// start from such pawns.
#[inline]
pub(crate) fn walled_enough(pos: &Position) -> bool {
    blocked_pawns(pos) >= LOCK_MIN_BLOCKED
}

/// How many pawns stand blocked head-on by an enemy pawn.
#[inline]
pub(crate) fn blocked_pawns(pos: &Position) -> u32 {
    let pawns = pos.by_role(Role::Pawn);
    ((pawns & pos.by_color(Color::White)).shift(8) & pawns & pos.by_color(Color::Black)).count()
}

/// Whether `mv`, just played to reach `pos`, may have made a locked-position proof possible: a
/// capture (one unit fewer to break a wall), or a pawn push that ends in front of a pawn, in a
/// position [`walled_enough`]. (Other moves are not worth the proof's cost; skipping the proof
/// only costs search time, never soundness.)
#[inline]
pub(crate) fn may_lock(pos: &Position, mv: Move) -> bool {
    if !walled_enough(pos) {
        return false;
    }
    if mv.is_capture() {
        return true;
    }
    mv.role() == Role::Pawn
        && mv.promotion().is_none()
        && (pushes(!pos.turn(), Bitboard::from_square(mv.to())) & pos.by_role(Role::Pawn)).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    /// Flights are filled by a matching: each man fills one square at a time, and a man that
    /// could take either of two squares is moved aside when another can only take one of them.
    #[test]
    fn flights_are_filled_one_man_each() {
        let sq = Bitboard::from_square;
        let (a, b, c) = (Square::A1, Square::B1, Square::C1);
        assert!(can_fill(Bitboard::EMPTY, &[]));
        // One man for two squares is not enough, whatever he can reach.
        assert!(!can_fill(sq(a) | b, &[sq(a) | b]));
        // The first man could take a or b; the second only a: the first moves to b.
        assert!(can_fill(sq(a) | b, &[sq(a) | b, sq(a)]));
        // Two men who can only ever stand on a leave b open.
        assert!(!can_fill(sq(a) | b, &[sq(a), sq(a)]));
        // Three squares, three men, one arrangement only.
        assert!(can_fill(sq(a) | b | c, &[sq(a) | b | c, sq(a) | b, sq(a)]));
        assert!(can_fill(sq(a) | b | c, &[sq(a) | b, sq(a) | b, sq(c) | a]));
        assert!(!can_fill(sq(a) | b | c, &[sq(a) | b, sq(a) | b, sq(a) | b]));
    }

    #[test]
    fn a_full_wall_keeps_both_kings_home() {
        let pos = fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1");
        assert!(cannot_check(&pos, Color::White));
        assert!(cannot_check(&pos, Color::Black));
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert_eq!(bound.walls.count(), 8);
    }

    #[test]
    fn a_bishop_of_the_wrong_colour_stays_behind_the_wall() {
        // The light bishop never passes a6, c6, e6, g6 (its own pawns), and the black king
        // never leaves the eighth rank (b7, d7, f7, h7 are attacked by white pawns).
        let pos = fen("3k4/p1p1p1p1/P1P1P1P1/8/8/8/P1P1P1P1/3K1B2 w - - 0 1");
        assert!(cannot_check(&pos, Color::White));
    }

    #[test]
    fn a_knight_jumps_the_wall() {
        let pos = fen("3k4/p1p1p1p1/P1P1P1P1/8/8/8/8/3K1N2 w - - 0 1");
        assert!(!cannot_check(&pos, Color::White));
    }

    #[test]
    fn pawns_facing_each_other_from_afar_are_bound() {
        // c2 and e2 never leave their files (nothing black ever stands where they could take)
        // and stop below their own walls c6 and e6; c5 and e5 may be taken by the white king,
        // but until then they cannot pass c2 and e2. White never checks.
        let pos = fen("2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P3/8 w - - 0 1");
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert_eq!(bound.pawns.count(), 10);
        assert!(!bound.pawns.contains(Square::C5));
        assert!(cannot_check(&pos, Color::White));
        assert!(!cannot_check(&pos, Color::Black));
    }

    #[test]
    fn a_check_with_a_flight_left_is_no_mate() {
        // Black's e3 pawn can check the white king on d2 or f2, but nothing black ever covers
        // c1 or g1 (or takes them away), so the king always escapes.
        let pos = fen("8/8/4k3/p1p1p1p1/P1P1P1P1/4p3/4P3/3K4 w - - 0 1");
        assert!(!cannot_check(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::White));
    }

    #[test]
    fn a_pawn_a_rook_can_take_is_not_a_wall() {
        // The rook reaches h5 and takes g5, so the g-pawns and the wall are not proved.
        let pos = fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/7R w - - 0 1");
        assert!(!cannot_check(&pos, Color::White));
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert!(bound.walls.count() < 8);
    }

    #[test]
    fn a_pawn_that_can_capture_breaks_the_wall() {
        // A black knight can come to b3 or d3, where c2 takes it.
        let pos = fen("8/8/4k3/p1p1p1p1/P1P1P1P1/8/2P5/3K2n1 w - - 0 1");
        assert!(!cannot_check(&pos, Color::White));
    }

    #[test]
    fn own_pawns_block_one_flight_each() {
        // Black's rank-5 pawns walk down to meet White's rank-2 pawns and may check the white
        // king, but around any checked square the king has more open flights than the white
        // pawns whose files touch them can fill, one square each.
        let pos = fen("3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1");
        assert!(!cannot_check(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::White));
    }

    #[test]
    fn a_king_that_can_never_move_is_a_wall() {
        // The white king on a1 is shut in for good (a2 is guarded by b3, b1 by a2, b2 is its
        // own blocked pawn), so the a2 pawn never promotes; Black's light bishop can never
        // check a dark a1, and the white bishop never reaches the black king's light escape.
        let pos = fen("k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1");
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert!(bound.walls.contains(Square::A1));
        assert!(cannot_check(&pos, Color::Black));
    }

    #[test]
    fn a_boxed_bishop_is_a_wall_and_guards() {
        // The bishops on e4 and e5 are shut in by their own blocked pawns for good; the white
        // one guards d5 and f5, the black one d4 and f4, so no king can take a wall pawn, and
        // Black, with nothing else, can never check.
        let pos = fen("4k3/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1");
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert!(bound.walls.contains(Square::E4) && bound.walls.contains(Square::E5));
        assert_eq!(bound.walls.count(), 10);
        assert!(cannot_check(&pos, Color::Black));
        // White's free bishop on e2 may check the black king, which can walk round the wall.
        assert!(!cannot_check(&pos, Color::White));
    }

    #[test]
    fn one_blocker_cannot_fill_two_flights() {
        // The wall b4-h4/b5-h5 keeps each king on its side; Black's bishops are light, so they
        // never attack a dark square. Wherever they check the white king (on a light square),
        // it has at least two dark neighbours that are not walls, and White has one man that
        // can stand on dark squares (the bishop on d2): the king always keeps a flight.
        let pos = fen("8/4kb2/8/1p1p1p1p/1P1P1P1P/1b6/3B1K2/8 b - - 0 1");
        assert!(cannot_mate_locked(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::White));
        // A second white dark-squared bishop could fill both flights of h1 (g1 and h2).
        let pos = fen("8/4kb2/8/1p1p1p1p/1P1P1P1P/1b6/3B1K2/2B5 b - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::Black));
    }

    #[test]
    fn filling_is_a_matching_not_a_count() {
        let (a, b, c) = (Square::A1, Square::B1, Square::C1);
        let abc = Bitboard::from_square(a).with(b).with(c);
        let only_a = Bitboard::from_square(a);
        // Three units for three squares, but two of them can only stand on a1.
        assert!(!can_fill(abc, &[abc, only_a, only_a]));
        assert!(can_fill(
            abc,
            &[abc, only_a, Bitboard::from_square(b).with(c)]
        ));
        assert!(can_fill(Bitboard::EMPTY, &[]));
        assert!(!can_fill(only_a, &[Bitboard::from_square(b)]));
    }

    /// Black's f5 stands behind its own f4, which White's f3 blocks: neither ever moves.
    #[test]
    fn a_pawn_behind_its_own_wall_is_a_wall() {
        let pos = fen("8/8/3b3p/4bp1P/5p1K/4bPp1/5bP1/5k2 b - - 0 1");
        let (bound, _) = bound_pawns(&pos, Some(Color::Black)).unwrap();
        assert!(bound.pawn_walls.contains(Square::F5));
        assert!(bound.pawn_walls.contains(Square::F4));
    }

    /// The black king may take g2 or h5, but the white king, which only ever stands on h3 and
    /// h4, then has no move (nor anything else of White): a stalemate. So White, whose pawns
    /// never move while the game goes on, never checks.
    #[test]
    fn a_capture_that_ends_the_game_breaks_no_wall() {
        let pos = fen("8/8/3b3p/4bp1P/5p1K/4bPp1/5bP1/5k2 b - - 0 1");
        assert!(cannot_check(&pos, Color::White));
        // Asked without a winner, g2 is taken and the wall falls.
        let (bound, _) = bound_pawns(&pos, None).unwrap();
        assert!(!bound.pawns.contains(Square::G2));
    }

    /// Black's bishops check the white king on h4, and the black king covers h3 from h2, but
    /// the white king only moves between h3 and h4: coming to h4 from h3, it left h3 while the
    /// black king was not next to it, and a king move checks only by uncovering a slider.
    #[test]
    fn a_lone_king_on_two_squares_is_not_mated_without_a_tempo() {
        let pos = fen("8/8/3b3p/4bp1P/5p1K/4bPp1/5bP1/5k2 b - - 0 1");
        assert!(!cannot_check(&pos, Color::Black));
        assert!(cannot_mate_locked(&pos, Color::Black));
        // The black king moves between a6 and a5 only; mated on a5 it needs a6 covered, which
        // only the white king (from a7) can do.
        let pos = fen("1K6/1p4B1/kPp2B2/2P1B3/p1PB4/P1B5/8/8 w - - 0 1");
        assert!(cannot_mate_locked(&pos, Color::White));
    }

    /// A black rook on the h-file checks h4 and covers h3 behind it in one move; and the black
    /// king taking g2 may uncover the rook's check: neither proof holds.
    #[test]
    fn a_rook_that_covers_the_other_square_leaves_no_proof() {
        let pos = fen("8/8/3b3p/4bp1P/5p1K/4bPp1/5bP1/r4k2 b - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::Black));
    }

    /// The white rook on a1, boxed in by its king and bishop, can be taken by the black bishop
    /// from b2; until then the white king, bishop and rook never move, and afterwards the king
    /// and bishop only walk the first two ranks behind the wall. Neither side ever mates, on
    /// either side of the capture; the proof that thaws the rook at once proves nothing.
    #[test]
    fn a_boxed_rook_is_ruled_on_either_side_of_its_capture() {
        let pos = fen("B2b4/8/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB4b1 b - - 0 1");
        for side in Color::ALL {
            let (bound, reach) = bound_pawns(&pos, Some(!side)).unwrap();
            assert!(!no_mate(&pos, &bound, &reach, side, true), "{side}");
            assert!(cannot_mate_locked(&pos, side), "{side}");
        }
    }

    /// The black rook's only move, to a1, checks the white king on b1, which can never move
    /// (a2, c1 and c2 are guarded by Black's walls) nor take it (b2 guards a1): a mate, which
    /// ends the game. So the rook never moves while the game goes on, the a3 pawn never
    /// promotes behind it, and White's light bishops, shut above the wall with the black king
    /// and its dark bishop, never mate it: every light square has two dark neighbours.
    #[test]
    fn a_piece_whose_every_move_mates_is_a_wall() {
        let pos = fen("6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/rp6/1K2b3 b - - 0 1");
        let (bound, _) = bound_pawns(&pos, Some(Color::Black)).unwrap();
        assert!(bound.walls.contains(Square::A2) && bound.walls.contains(Square::A3));
        assert!(cannot_mate_locked(&pos, Color::White));
        // Without the b2 pawn the king takes the rook on a1, walks out, and White mates.
        let pos = fen("6B1/b7/2k5/p1p1p1pB/P1P1P1P1/pp6/r7/1K2b3 b - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::White));
    }

    /// The black knight on h2 mates from either square it can go to (f1 and g4 check the
    /// white king, shut in on e3); a white bishop may take it from g3. On either side of that
    /// capture, White's dark bishops never mate: Black's king has two light neighbours wherever
    /// they check it, and Black has one light bishop.
    #[test]
    fn a_piece_whose_every_move_mates_is_ruled_on_either_side_of_its_capture() {
        let pos = fen("6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B7 w - - 0 1");
        assert!(cannot_mate_locked(&pos, Color::White));
        // The knight on h7 fills a light flight of h8 (mate: Bg7, guarded from h6).
        let pos = fen("6b1/7n/1k6/3p1p2/3PpP1B/3pKp2/3P1P2/B7 w - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::White));
    }

    /// Black's c3 pawn, pushed to c2, mates the white king shut in on b1 (b3 guards c2, the
    /// a1 bishop b2): it never moves while the game goes on, so it never promotes, and the
    /// squares behind it stay closed to White's dark bishops.
    #[test]
    fn a_pawn_whose_push_mates_is_a_wall() {
        for turn in ["w", "b"] {
            let pos = fen(&format!(
                "8/B4b2/2k5/1p1p4/1P1Pp1pB/1pp1P1P1/1p6/bK3b2 {turn} - - 0 1"
            ));
            let (bound, _) = bound_pawns(&pos, Some(Color::Black)).unwrap();
            assert!(bound.pawn_walls.contains(Square::C3), "{turn}");
            assert!(cannot_mate_locked(&pos, Color::White), "{turn}");
        }
        // Without the b3 pawn the king takes on c2 and walks out, and White mates.
        let pos = fen("8/B4b2/2k5/1p1p4/1P1Pp1pB/2p1P1P1/1p6/bK3b2 w - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::White));
    }

    /// White's only man is the queen, its king shut in on c1; the black king, shut in on b3 by
    /// its own men, is never checked: to reach it the queen must take a man next to it, which
    /// checks it from next to it, and Black, with no other way out, takes the queen back.
    /// Black's pawns may take the queen too. Either way White is left a bare king.
    #[test]
    fn a_lone_piece_that_takes_next_to_the_king_is_taken() {
        for fen_text in [
            "8/6pp/8/8/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1",
            "8/4b3/6r1/4q3/ppp5/bkp4Q/qnp5/n1K5 b - - 0 1",
        ] {
            let pos = fen(fen_text);
            assert!(cannot_mate_locked(&pos, Color::White), "{fen_text}");
        }
        // A rook taking a4 or c4 gives no check, so Black need not take it back: White mates.
        let pos = fen("8/6pp/8/8/ppp5/bkp4R/qnp5/n1K5 b - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::White));
        // With a knight beside the queen, taking the queen leaves White mating material.
        let pos = fen("8/6pp/8/8/ppp5/bkp4Q/qnp5/n1K2N2 b - - 0 1");
        assert!(!cannot_mate_locked(&pos, Color::White));
    }

    /// The cheap test that the proof fails ([`open_mate_square`]) never turns a proof down: on
    /// chasolver's hard set (where the proof succeeds some hundreds of times) and along random
    /// games from walled positions, for both sides, the answer with it is the answer without;
    /// and it does answer for some of them.
    #[test]
    fn an_open_mate_square_turns_no_proof_down() {
        let hard =
            std::fs::read_to_string(arbiter_test_support::fixture("chasolver/positions.txt"))
                .expect("chasolver's hard set");
        let mut positions: Vec<Position> = hard
            .lines()
            .filter(|line| !line.starts_with('#') && line.len() > 3)
            .filter_map(|line| Position::from_fen(&crate::epd_to_fen(&line[3..])).ok())
            .collect();
        let walled = [
            "2r3k1/5pp1/1p2p2p/pPp1P3/P1P2P2/3R2P1/5K1P/8 w - - 0 40",
            "r4rk1/1b3ppp/pq1p4/1p1Pp3/1P2P3/P2B1N2/5PPP/R2Q1RK1 b - - 3 19",
            "8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1",
            "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1",
            "4k3/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/4K3 w - - 0 1",
            "3k4/p1p1p1p1/P1P1P1P1/8/8/8/P1P1P1P1/3K1B2 w - - 0 1",
        ];
        crate::mate::along_random_games(&walled, 6, 40, 0x2545_f491, |pos, _| {
            positions.push(pos.clone());
        });
        let (mut proved, mut turned) = (0, 0);
        for pos in &positions {
            for side in Color::ALL {
                let proof = locked_proof(pos, side);
                let open = open_mate_square(pos, side);
                assert!(!(open && proof), "{side:?} {}", pos.to_fen());
                assert_eq!(cannot_mate_locked(pos, side), proof);
                proved += usize::from(proof);
                turned += usize::from(open);
            }
        }
        assert!(
            proved > 100 && turned > 100,
            "{proved} proofs, {turned} turned down"
        );
    }

    #[test]
    fn en_passant_is_left_alone() {
        let pos = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert!(bound_pawns(&pos, None).is_none());
    }
}
