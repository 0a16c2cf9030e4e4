//! The best-first helpmate search: both sides play for `winner`'s mate. A walk of the positions
//! reachable from the start, each visited once, that expands first the ones that look closest to
//! a mate ([`guide`]: few free flights and few legal moves for the losing king's side, a check at
//! hand for the winner, its men near that king); it either finds a line or, when nothing is left
//! to expand, proves that there is none. A position is rated only when it comes first in the
//! queue with its parent's estimate (most generated positions never are), and waits again if its
//! own estimate puts it behind others.
//!
//! It never answers "no mate" from a cut-off: "none" comes only after every position reachable
//! from the start was expanded or set aside by a proof that no mate lies beyond it (material,
//! or the locked-position proof). Positions are told apart by their Zobrist key, which covers
//! placement, side to move, castling rights and a legal en passant square; the clocks play no
//! part in what can be reached. (A key collision could hide a position: with 64-bit keys and
//! at most a few million positions the odds are below one in a million million; a line found
//! is replayed before it is returned, so "yes" never rests on a key.)

use crate::mate::guide::{self, Guide, Prior};
use crate::mate::keys::{KeySet, key_after};
use crate::mate::locked::{self, may_lock, walled_enough};
use crate::mate::queue::BucketQueue;
use crate::mate::statics::material_cannot_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role};

/// Which promotions of the winner's pawns a search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Promotions {
    /// Every one.
    Every,
    /// Only to this role: a search for the mates an underpromotion leads to, where the queen's
    /// many moves drown the walk (or stalemate a loser with few moves).
    Only(Role),
}

impl Promotions {
    /// Whether the winner's move `mv` is played.
    #[inline]
    fn allow(self, mv: Move) -> bool {
        match (self, mv.promotion()) {
            (Promotions::Only(role), Some(to)) => to == role,
            _ => true,
        }
    }
}

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

/// How much the estimate weighs against the depth (greedier when higher; 8 did better than 3
/// and 5, and as well as 12, on chasolver's lichess test set).
const WEIGHT: i32 = 8;

/// For each square, how many king steps the losing king needs from there to a square where
/// `winner` could ever check it (by the locked-position reach of the start position; 0
/// everywhere when there is none or the position is not [`walled_enough`], 8 where no such square
/// is reachable). A guide for the search in locked positions, not a proof of anything.
fn approach_map(pos: &Position, winner: Color) -> [u8; 64] {
    let mut map = [0u8; 64];
    if !walled_enough(pos) {
        return map;
    }
    let Some((_, reach)) = locked::bound_pawns(pos, Some(!winner)) else {
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

/// A position waiting in the queue: the move that leads to it from an expanded position, and
/// its estimate once it has one.
#[derive(Clone, Copy)]
struct Waiting {
    /// Index of the parent in the arena.
    parent: u32,
    /// The move from the parent.
    mv: Move,
    /// Its estimate, or `UNRATED` while it waits with its parent's.
    estimate: i32,
}

/// The estimate of a position that has not been looked at yet.
const UNRATED: i32 = i32::MIN;

/// An expanded position: how it was reached, and its depth.
struct Expanded {
    pos: Position,
    parent: u32,
    mv: Option<Move>,
    depth: u32,
}

/// The search's working memory, kept from one search to the next so that a search allocates
/// nothing once the buffers have grown (memory stays bounded by the largest search's).
pub(crate) struct Searcher {
    arena: Vec<Expanded>,
    seen: KeySet,
    queue: BucketQueue<Waiting>,
    children: Vec<(i32, Move, u64)>,
}

impl Searcher {
    /// Empty buffers.
    pub(crate) fn new() -> Searcher {
        Searcher {
            arena: Vec::new(),
            seen: KeySet::new(),
            queue: BucketQueue::new(),
            children: Vec::new(),
        }
    }

    /// The line from the start to the expanded position `at`, then `last` (in reverse order).
    fn line_to(&self, at: u32, last: &[Move]) -> Vec<Move> {
        let mut line: Vec<Move> = last.to_vec();
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

    /// Walks every position reachable from `pos`, best first, looking for a mate of `winner`'s
    /// opponent; at most `limit` positions are expanded. Positions from which `winner` provably
    /// cannot mate (by material, or, after a capture or pawn move, by the locked-position proof)
    /// are not expanded: no mate lies beyond them. [`Found::None`] means that every reachable
    /// position was visited.
    ///
    /// A position is rated (its estimate computed, [`guide::estimate`]) only when it comes first
    /// in the queue with its parent's estimate: if its own estimate puts it behind others, it
    /// waits again; most generated positions are never rated.
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        winner: Color,
        limit: u64,
        guide: Guide,
    ) -> (Found, u64) {
        self.search_promoting(pos, winner, limit, guide, Promotions::Every)
    }

    /// [`Searcher::search`] where the winner promotes only as `promotions` allows: a line it
    /// finds is a helpmate; "none" from it proves nothing when a promotion was left out, and it
    /// is then reported as [`Found::Unknown`].
    pub(crate) fn search_promoting(
        &mut self,
        pos: &Position,
        winner: Color,
        limit: u64,
        guide: Guide,
        promotions: Promotions,
    ) -> (Found, u64) {
        self.arena.clear();
        self.seen.clear();
        self.queue.clear();
        let (mut found, expanded) = self.walk(pos, winner, limit, guide, promotions);
        if matches!(found, Found::None) && promotions != Promotions::Every {
            found = Found::Unknown;
        }
        let found = (found, expanded);
        if self.arena.capacity() > KEEP_EXPANDED {
            self.arena = Vec::new();
        }
        found
    }

    fn walk(
        &mut self,
        pos: &Position,
        winner: Color,
        limit: u64,
        guide: Guide,
        promotions: Promotions,
    ) -> (Found, u64) {
        let approach = approach_map(pos, winner);
        self.seen.insert(pos.zobrist());
        let priority =
            |estimate: i32, depth: u32| (WEIGHT * estimate).max(0) as usize + depth as usize;
        let (root_estimate, mate) = guide::estimate(pos, winner, guide);
        if let Some(mate) = mate {
            return (Found::Mate(vec![mate]), 0);
        }
        let mut next = Some((pos.clone(), u32::MAX, None, root_estimate));
        let mut expanded = 0;
        loop {
            let Some((node, parent, mv, estimate)) = next.take() else {
                let Some((at_priority, w)) = self.queue.pop_with_priority() else {
                    return (Found::None, expanded);
                };
                let from = &self.arena[w.parent as usize];
                let depth = from.depth + 1;
                let mut child = from.pos.clone();
                child.play_unchecked(w.mv);
                let mut estimate = w.estimate;
                if estimate == UNRATED {
                    if child.turn() != winner && child.is_checkmate() {
                        return (Found::Mate(self.line_to(w.parent, &[w.mv])), expanded);
                    }
                    if material_cannot_mate(&child, winner)
                        || (may_lock(&child, w.mv) && locked::cannot_mate_locked(&child, winner))
                    {
                        continue;
                    }
                    let (rated, mate) = guide::estimate(&child, winner, guide);
                    if let Some(mate) = mate {
                        return (Found::Mate(self.line_to(w.parent, &[mate, w.mv])), expanded);
                    }
                    estimate = rated + 2 * i32::from(approach[child.king_of(!winner).index()]);
                    let own = priority(estimate, depth);
                    if own > at_priority && self.queue.lowest_priority().is_some_and(|p| p < own) {
                        self.queue.push(own, Waiting { estimate, ..w });
                        continue;
                    }
                }
                next = Some((child, w.parent, Some(w.mv), estimate));
                continue;
            };
            if expanded >= limit {
                return (Found::Unknown, expanded);
            }
            expanded += 1;
            let depth = self.arena.get(parent as usize).map_or(0, |p| p.depth + 1);
            let at = self.arena.len() as u32;
            let mut moves = node.legal_moves();
            if promotions != Promotions::Every && node.turn() == winner {
                moves.retain(|&m| promotions.allow(m));
            }
            let prior = Prior::new(&node, winner);
            for &m in moves.iter() {
                let key = key_after(&node, m).unwrap_or_else(|| {
                    let mut child = node.clone();
                    child.play_unchecked(m);
                    child.zobrist()
                });
                let score = prior.score(m);
                self.children.push((score, m, key));
            }
            self.seen.prefetch(self.children.iter().map(|c| c.2));
            // The most promising move last: of one priority, the newest comes first.
            self.children.sort_unstable_by_key(|c| c.0);
            let base = priority(estimate, depth + 1);
            for (_, m, key) in self.children.drain(..) {
                if !self.seen.insert(key) {
                    continue;
                }
                self.queue.push(
                    base,
                    Waiting {
                        parent: at,
                        mv: m,
                        estimate: UNRATED,
                    },
                );
            }
            self.arena.push(Expanded {
                pos: node,
                parent,
                mv,
                depth,
            });
        }
    }
}

/// Expanded positions whose room a searcher keeps for the next search (some 200 bytes each);
/// a larger arena is given back.
const KEEP_EXPANDED: usize = 1 << 14;

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
        let Found::Mate(line) = Searcher::new()
            .search(&pos, Color::White, 20_000, Guide::Shed)
            .0
        else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn finds_a_helpmate_that_needs_the_losers_blocker() {
        // Black's own bishop must block a flight of its king for the knight to mate.
        let pos = fen("4kb2/8/8/8/8/4KN2/8/8 w - - 0 1");
        let Found::Mate(line) = Searcher::new()
            .search(&pos, Color::White, 200_000, Guide::Shed)
            .0
        else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn kings_take_undefended_pawns() {
        // The a-pawns look locked, but either king can take the other's pawn, and White's
        // pawn then promotes: the walk finds that line.
        let pos = fen("k7/8/8/8/8/p7/P7/K7 w - - 0 1");
        let Found::Mate(line) = Searcher::new()
            .search(&pos, Color::White, 100_000, Guide::Shed)
            .0
        else {
            panic!("no mate found");
        };
        assert!(replays_to_mate(&pos, Color::White, &line));
    }

    #[test]
    fn exhausting_means_none() {
        // Every move keeps a lone knight against a bare king, so nothing is left to expand.
        let pos = fen("k7/8/8/8/8/8/8/K5N1 w - - 0 1");
        let (found, expanded) = Searcher::new().search(&pos, Color::White, 1_000, Guide::Shed);
        assert!(matches!(found, Found::None), "{found:?} after {expanded}");
    }
}
