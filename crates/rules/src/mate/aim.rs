//! The aimed search: a best-first walk toward one planned mate, for the constructed positions
//! where the guides of the general search wander (many pieces of the winner, every move of
//! theirs alike to them).
//!
//! The plan comes from the locked-position reach ([`locked::bound_pawns`]): of the squares
//! where the loser's king can ever be checked, the one whose flights (neighbours the winner can
//! never take from it) the loser's men can fill with the fewest of them, nearest its king. A
//! position is then rated by how far the loser's king is from that square (each step onto a
//! square the winner attacks now counting [`HOT_STEP`]: the winner gains by clearing the way)
//! and how many moves the loser's men need to fill the flights. The walk itself proves
//! nothing: a line it finds is replayed before it is returned, and when it runs out it says
//! "unknown", never "no".

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mate::keys::{KeySet, key_after};
use crate::mate::locked::{self, can_fill, king_spread};
use crate::mate::queue::BucketQueue;
use crate::mate::search::Found;
use crate::mate::statics::material_cannot_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// The mate the walk aims at: the square of the loser's king, and the flights its own men
/// must fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    pub target: Square,
    pub flights: Bitboard,
}

/// What a step of the loser's king onto a square the winner attacks counts (the winner must
/// first take its attack away).
const HOT_STEP: u32 = 3;

/// The distance given when the loser's king cannot reach the target at all.
const FAR: i32 = 40;

/// How much the rating weighs against the depth.
const WEIGHT: i32 = 6;

/// The plans for `winner` in `pos`, at most `most`, best first: the squares the
/// locked-position reach leaves where a mate may be possible, by fewest flights, then nearest to
/// the loser's king. The winner's king takes flights away only where it is shut in on two
/// squares at most (a king that roams would seem to take every one).
pub(crate) fn plans(pos: &Position, winner: Color, most: usize) -> Vec<Plan> {
    let loser = !winner;
    let Some((bound, reach)) = locked::bound_pawns(pos, Some(loser)) else {
        return Vec::new();
    };
    let region = reach.king[loser.index()];
    let attack = reach.attack[winner.index()];
    let own_king = reach.king[winner.index()];
    let cover = if own_king.count() <= 2 {
        attack | king_spread(own_king)
    } else {
        attack
    };
    let open = !cover & !bound.walls;
    let units = &reach.units[loser.index()];
    let king = pos.king_of(loser);
    let mut plans: Vec<Plan> = (attack & region)
        .into_iter()
        .filter_map(|target| {
            let flights = attacks::king(target) & open;
            can_fill(flights, units).then_some(Plan { target, flights })
        })
        .collect();
    plans.sort_by_key(|plan| (plan.flights.count(), distance(king, plan.target)));
    plans.truncate(most);
    plans
}

/// The king distance between two squares.
fn distance(a: Square, b: Square) -> u32 {
    (a.file() as i32 - b.file() as i32)
        .unsigned_abs()
        .max((a.rank() as i32 - b.rank() as i32).unsigned_abs())
}

/// How far `pos` is from the planned mate (lower is nearer).
fn rating(pos: &Position, winner: Color, plan: &Plan) -> i32 {
    let loser = !winner;
    let occupied = pos.occupied();
    let theirs = pos.by_color(winner);
    let hot = pos.attacked_by(winner, occupied) & !theirs;
    let free = !theirs & !hot;
    // King steps to the target, a hot square costing HOT_STEP: layers of a breadth-first
    // spread, remembering the last HOT_STEP layers.
    let goal = Bitboard::from_square(plan.target);
    let mut layers = [Bitboard::from_square(pos.king_of(loser)); HOT_STEP as usize];
    let mut king_steps = FAR;
    for step in 0..FAR {
        let last = layers[(step as usize) % layers.len()];
        if (last & goal).any() {
            king_steps = step;
            break;
        }
        let older = layers[(step as usize + 1) % layers.len()];
        let next = last | (king_spread(last) & (free | goal)) | (king_spread(older) & hot);
        layers[(step as usize + 1) % layers.len()] = next;
    }
    // The loser's men to the flights, each to one, greedily.
    let mut men = pos.by_color(loser) & !pos.by_role(Role::King) & !pos.by_role(Role::Pawn);
    let mut fill = 0;
    for flight in plan.flights & !(men & plan.flights) {
        let best = men.into_iter().filter_map(|sq| {
            let role = pos.role_at(sq)?;
            moves_to(role, sq, flight, occupied).map(|n| (n, sq))
        });
        match best.min() {
            Some((n, sq)) => {
                fill += n;
                men = men.without(sq);
            }
            None => fill += 4,
        }
    }
    king_steps + fill
}

/// About how many moves a `role` on `from` needs to reach `to`: 1 if it attacks it now, 2
/// otherwise; `None` for a bishop of the other colour and for pawns.
fn moves_to(role: Role, from: Square, to: Square, occupied: Bitboard) -> Option<i32> {
    let attacked = match role {
        Role::Knight => attacks::knight(from),
        Role::Bishop => {
            let light = Bitboard::LIGHT_SQUARES;
            if light.contains(from) != light.contains(to) {
                return None;
            }
            attacks::bishop(from, occupied)
        }
        Role::Rook => attacks::rook(from, occupied),
        Role::Queen => attacks::queen(from, occupied),
        Role::Pawn | Role::King => return None,
    };
    Some(if attacked.contains(to) { 1 } else { 2 })
}

/// A position waiting in the queue: the move that leads to it from an expanded position.
#[derive(Clone, Copy)]
struct Waiting {
    parent: u32,
    mv: Move,
}

/// An expanded position: how it was reached, and its depth.
struct Expanded {
    pos: Position,
    parent: u32,
    mv: Option<Move>,
    depth: u32,
}

/// The aimed walk's working memory, kept from one walk to the next.
pub(crate) struct Aimer {
    arena: Vec<Expanded>,
    seen: KeySet,
    queue: BucketQueue<Waiting>,
}

impl Aimer {
    /// Empty buffers.
    pub(crate) fn new() -> Aimer {
        Aimer {
            arena: Vec::new(),
            seen: KeySet::new(),
            queue: BucketQueue::new(),
        }
    }

    /// Walks toward `plan` from `pos`, expanding at most `limit` positions: a helpmate line by
    /// `winner` if one is met, else [`Found::Unknown`].
    pub(crate) fn walk(
        &mut self,
        pos: &Position,
        winner: Color,
        plan: &Plan,
        limit: u64,
    ) -> (Found, u64) {
        self.arena.clear();
        self.seen.clear();
        self.queue.clear();
        let found = self.walk_from(pos, winner, plan, limit);
        self.arena = Vec::new();
        found
    }

    fn walk_from(
        &mut self,
        pos: &Position,
        winner: Color,
        plan: &Plan,
        limit: u64,
    ) -> (Found, u64) {
        self.seen.insert(pos.zobrist());
        self.arena.push(Expanded {
            pos: pos.clone(),
            parent: u32::MAX,
            mv: None,
            depth: 0,
        });
        let mut expanded = 0;
        let mut at = 0u32;
        loop {
            if expanded >= limit {
                return (Found::Unknown, expanded);
            }
            expanded += 1;
            let node = &self.arena[at as usize];
            let depth = node.depth + 1;
            let parent_pos = node.pos.clone();
            for &mv in parent_pos.legal_moves().iter() {
                let key = key_after(&parent_pos, mv).unwrap_or_else(|| {
                    let mut child = parent_pos.clone();
                    child.play_unchecked(mv);
                    child.zobrist()
                });
                if !self.seen.insert(key) {
                    continue;
                }
                let mut child = parent_pos.clone();
                child.play_unchecked(mv);
                if child.turn() != winner && child.is_checkmate() {
                    return (Found::Mate(self.line_to(at, mv)), expanded);
                }
                if material_cannot_mate(&child, winner) {
                    continue;
                }
                let priority = WEIGHT * rating(&child, winner, plan) + depth as i32;
                self.queue
                    .push(priority as usize, Waiting { parent: at, mv });
            }
            let Some((_, next)) = self.queue.pop_with_priority() else {
                return (Found::Unknown, expanded);
            };
            let from = &self.arena[next.parent as usize];
            let mut pos = from.pos.clone();
            pos.play_unchecked(next.mv);
            let depth = from.depth + 1;
            at = self.arena.len() as u32;
            self.arena.push(Expanded {
                pos,
                parent: next.parent,
                mv: Some(next.mv),
                depth,
            });
        }
    }

    /// The line from the start to the expanded position `at`, then `last`.
    fn line_to(&self, at: u32, last: Move) -> Vec<Move> {
        let mut line = vec![last];
        let mut i = at;
        while let Some(Expanded {
            parent,
            mv: Some(m),
            ..
        }) = self.arena.get(i as usize)
        {
            line.push(*m);
            i = *parent;
        }
        line.reverse();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::replays_to_mate;

    fn fen(s: &str) -> Position {
        Position::from_fen_lenient(s).unwrap()
    }

    /// White's eight dark bishops can only mate the black king on h8, with Black's two light
    /// bishops on g8 and h7: the king walks over from a8 while White clears its way.
    #[test]
    fn walks_the_king_to_the_one_mating_square() {
        let pos = fen("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1");
        let plan = plans(&pos, Color::White, 1)[0];
        // c1 (with c2 and d1 to fill, b1 next to the white king) comes before h8.
        assert_eq!(plan.target, Square::C1);
        let (found, nodes) = Aimer::new().walk(&pos, Color::White, &plan, 10_000);
        let Found::Mate(line) = found else {
            panic!("{found:?} after {nodes}");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }
}
