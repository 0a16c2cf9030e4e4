//! The line stack: the main line and the variations being replayed, each with its position, and
//! the main line's repetition history and automatic end (insufficient material, the 75-move rule,
//! fivefold repetition), and its moves when asked for. It knows nothing of PGN: moves come in as
//! [`Move`]s, and variations are opened and closed.
//!
//! Repetitions are counted on Zobrist keys since the last capture or pawn move. Each new position
//! is compared with the positions of the same side to move since then (fewer than 150 while the
//! 75-move rule has not struck), so the work stays linear in the length of the game.

use arbiter_pgn::Location;
use arbiter_rules::{Move, Position, Undo};

use crate::outcome::{self, BoardFacts, Outcome};

/// Variations nested deeper than this are read but not replayed: each level holds a position,
/// and a 64 MB game of `(d4 ` would need gigabytes. Real games nest a few levels.
pub const MAX_VARIATION_DEPTH: usize = 1_000;

/// One line being replayed: the main line, or a variation.
#[derive(Clone, Debug)]
pub struct Line {
    /// The position now.
    pub pos: Position,
    /// What taking back the last move or null move played needs (see [`Line::before`]).
    pub undo: Undo,
    /// The last move played on this line (by SAN), if any.
    pub last_move: Option<Move>,
    /// Plies from the game's start to `pos`.
    pub ply: u32,
    /// Plies from the game's start to where the line begins (for a variation, the ply after
    /// which it branches off its parent).
    pub from_ply: u32,
    /// Whether the side to move in `pos` is in check, when known: found after every move played
    /// from SAN (replay needs it for the check mark), and handed to the next move's resolution.
    pub in_check: Option<bool>,
    /// A move of this line failed: the rest of it is skipped.
    pub dead: bool,
    /// A move has been played on this line (a variation before any move has nothing to replace).
    pub moved: bool,
}

impl Line {
    /// A line at `pos`, `ply` plies from the game's start, before any move of its own.
    fn at(pos: Position, ply: u32) -> Line {
        Line {
            undo: pos.undo(),
            pos,
            ply,
            from_ply: ply,
            last_move: None,
            in_check: None,
            dead: false,
            moved: false,
        }
    }

    /// The position before the last move or null move played on this line (where a variation
    /// starts); `pos` itself before any.
    pub fn before(&self) -> Position {
        let mut before = self.pos.clone();
        before.unplay(self.last_move, self.undo);
        before
    }
}

/// What opening a variation did.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Opened {
    /// It is replayed from the position before the parent line's last move.
    Replayed,
    /// It is read but not replayed: its parent is dead or skipped, or made no move yet.
    Skipped,
    /// It is not replayed: variations nest deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

/// The lines of the game being replayed; see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct LineStack {
    /// The main line is `lines[0]`; each variation being replayed pushes one.
    pub lines: Vec<Line>,
    /// Variations inside a variation that is not replayed (dead, or opened before any move).
    pub skipped_depth: u32,
    /// Zobrist keys of the main line since the last capture or pawn move, the current one last.
    pub history: Vec<u64>,
    /// The ply at which the game ended automatically, and how, if it did.
    pub automatic_end: Option<(u32, Outcome)>,
    /// The main line's first position.
    pub start: Position,
    /// The main line's moves, with where each was written, kept only when asked for (for the
    /// first dead ply: see `judge`, which replays a game again to get them); `None` for a null
    /// move.
    pub main_moves: Option<Vec<(Option<Move>, Location)>>,
    /// The main line stopped at a checkmate or stalemate that a null move followed: the game
    /// ended there, and nothing after it is replayed.
    pub stopped_at_end: bool,
}

impl LineStack {
    /// Forgets the last game (keeping the buffers).
    pub fn reset(&mut self) {
        self.lines.clear();
        self.skipped_depth = 0;
        self.history.clear();
        self.automatic_end = None;
        if let Some(moves) = &mut self.main_moves {
            moves.clear();
        }
        self.stopped_at_end = false;
    }

    /// The main line starts at `pos` (which may show an automatic end already).
    pub fn start(&mut self, pos: Position) {
        self.history.push(pos.zobrist());
        self.automatic_end = automatic_end_now(&pos).map(|outcome| (0, outcome));
        self.start.clone_from(&pos);
        self.lines.push(Line::at(pos, 0));
    }

    /// The line moves are played on now (its index), unless it is dead or skipped.
    #[inline]
    pub fn live(&self) -> Option<usize> {
        if self.skipped_depth > 0 {
            return None;
        }
        let index = self.lines.len().checked_sub(1)?;
        (!self.lines[index].dead).then_some(index)
    }

    /// Whether moves are played on the main line now.
    #[inline]
    pub fn on_main_line(&self) -> bool {
        self.skipped_depth == 0 && self.lines.len() == 1 && !self.lines[0].dead
    }

    /// The main line, once the game has started.
    pub fn main(&self) -> Option<&Line> {
        self.lines.first()
    }

    /// A `(`: a variation replaces the last move of the line being played.
    pub fn open_variation(&mut self) -> Opened {
        let parent = self
            .live()
            .map(|index| &self.lines[index])
            .filter(|line| line.moved);
        match parent {
            Some(_) if self.lines.len() > MAX_VARIATION_DEPTH => {
                self.skipped_depth += 1;
                Opened::TooDeep
            }
            Some(parent) => {
                // A line that moved is at least one ply from the start.
                let line = Line::at(parent.before(), parent.ply.saturating_sub(1));
                self.lines.push(line);
                Opened::Replayed
            }
            None => {
                self.skipped_depth += 1;
                Opened::Skipped
            }
        }
    }

    /// A `)`: the innermost variation ends.
    pub fn close_variation(&mut self) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
        } else if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    /// After a main-line move (already played on `lines[0]`): the key joins the history, and an
    /// automatic end is noted. Always inlined: it runs once per ply, and as a call it cost about
    /// 2% of the replay.
    #[inline(always)]
    pub fn after_main_line_move(&mut self, zeroing: bool, material_changed: bool) {
        // The history restarts after a capture or pawn move. A length to keep, chosen without a
        // branch: which moves zero the clock is a coin toss to the branch predictor.
        let keep = std::hint::select_unpredictable(zeroing, 0, self.history.len());
        self.history.truncate(keep);
        let pos = &self.lines[0].pos;
        self.history.push(pos.zobrist());
        if self.automatic_end.is_none()
            && (material_changed && pos.is_insufficient_material()
                || pos.halfmoves() >= outcome::SEVENTY_FIVE_MOVES
                || pos.halfmoves() >= FIVEFOLD_PLIES
                    && repetitions(&self.history) >= outcome::FIVEFOLD)
        {
            self.note_automatic_end(material_changed);
        }
    }

    /// Records which automatic end the last main-line move brought, the first that applies
    /// ([`outcome::automatic_end`]). Material that did not change cannot have become
    /// insufficient (the start was judged on its own), so it is looked at only after a capture
    /// or a promotion.
    #[cold]
    #[inline(never)]
    fn note_automatic_end(&mut self, material_changed: bool) {
        let line = &self.lines[0];
        let pos = &line.pos;
        let facts = BoardFacts {
            insufficient_material: material_changed && pos.is_insufficient_material(),
            halfmove_clock: pos.halfmoves(),
            repetitions: repetitions(&self.history),
            ..BoardFacts::default()
        };
        if let Some(outcome) = outcome::automatic_end(&facts) {
            self.automatic_end = Some((line.ply, outcome));
        }
    }

    /// How many times the main line's position occurs since the last capture or pawn move.
    pub fn repetitions(&self) -> u32 {
        repetitions(&self.history)
    }
}

/// How many times the last position of `history` occurs in it (positions of the same side to
/// move stand two apart).
fn repetitions(history: &[u64]) -> u32 {
    let Some(&last) = history.last() else {
        return 0;
    };
    history
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&k| k == last)
        .count() as u32
}

/// A position recurs at the earliest four plies later (each side must move away and back), so a
/// fifth occurrence needs sixteen plies without a capture or pawn move.
const FIVEFOLD_PLIES: u32 = 4 * (outcome::FIVEFOLD - 1);

/// An automatic end a starting position shows on its own (a game set up from a FEN may start
/// ended).
fn automatic_end_now(pos: &Position) -> Option<Outcome> {
    let facts = BoardFacts {
        insufficient_material: pos.is_insufficient_material(),
        halfmove_clock: pos.halfmoves(),
        repetitions: 1,
        ..BoardFacts::default()
    };
    outcome::automatic_end(&facts)
}

#[cfg(test)]
mod tests {
    use arbiter_rules::san::San;

    use super::*;

    /// Plays `moves` (SAN) on the main line as the replay does.
    fn play(stack: &mut LineStack, moves: &str) {
        for text in moves.split_whitespace() {
            let line = &mut stack.lines[0];
            let mv = San::from_ascii(text.as_bytes())
                .unwrap()
                .resolve(&line.pos)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .mv;
            line.undo = line.pos.undo();
            line.pos.play_unchecked(mv);
            line.last_move = Some(mv);
            line.ply += 1;
            line.moved = true;
            let material = mv.is_capture() || mv.promotion().is_some();
            stack.after_main_line_move(mv.is_zeroing(), material);
        }
    }

    fn started(fen: Option<&str>) -> LineStack {
        let mut stack = LineStack::default();
        let pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
        stack.start(pos);
        stack
    }

    #[test]
    fn a_variation_replaces_the_last_move() {
        let mut stack = started(None);
        assert_eq!(
            stack.open_variation(),
            Opened::Skipped,
            "no move to replace yet"
        );
        stack.close_variation();
        assert_eq!(stack.skipped_depth, 0);
        play(&mut stack, "e4 e5");
        assert_eq!(stack.open_variation(), Opened::Replayed);
        let variation = &stack.lines[1];
        assert_eq!(variation.ply, 1);
        assert_eq!(variation.pos, stack.lines[0].before());
        assert!(!stack.on_main_line() && stack.live() == Some(1));
        // A variation in a variation that made no move yet is skipped, and closes in order.
        assert_eq!(stack.open_variation(), Opened::Skipped);
        assert_eq!(stack.live(), None);
        stack.close_variation();
        stack.close_variation();
        assert!(stack.on_main_line());
        stack.close_variation();
        assert_eq!(stack.lines.len(), 1, "a stray ) never closes the main line");
    }

    #[test]
    fn variations_nest_up_to_the_limit() {
        let mut stack = started(None);
        play(&mut stack, "e4");
        for _ in 0..MAX_VARIATION_DEPTH {
            assert_eq!(stack.open_variation(), Opened::Replayed);
            // As if the variation made its first move.
            let index = stack.lines.len() - 1;
            stack.lines[index].moved = true;
            stack.lines[index].ply += 1;
        }
        assert_eq!(stack.open_variation(), Opened::TooDeep);
        assert_eq!(stack.live(), None);
    }

    #[test]
    fn fivefold_repetition_ends_the_game_at_its_ply() {
        let mut stack = started(None);
        play(
            &mut stack,
            "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        );
        assert_eq!(stack.repetitions(), 4);
        assert_eq!(stack.automatic_end, None);
        play(&mut stack, "Nf3 Nf6 Ng1 Ng8");
        assert_eq!(stack.automatic_end, Some((16, Outcome::FivefoldRepetition)));
        // A pawn move starts the history afresh.
        play(&mut stack, "e4");
        assert_eq!((stack.history.len(), stack.repetitions()), (1, 1));
    }

    #[test]
    fn insufficient_material_after_a_capture_and_from_the_start() {
        let mut stack = started(Some("8/8/8/4k3/8/8/4K3/3nR3 b - - 0 1"));
        assert_eq!(stack.automatic_end, None);
        play(&mut stack, "Nf2 Kxf2");
        assert_eq!(stack.automatic_end, None, "K+R against K is no draw");
        let mut stack = started(Some("8/8/8/4k3/8/8/4K3/3rN3 w - - 0 1"));
        play(&mut stack, "Kxd1");
        assert_eq!(
            stack.automatic_end,
            Some((1, Outcome::InsufficientMaterial))
        );
        let stack = started(Some("8/8/8/4k3/8/8/4K3/8 w - - 0 1"));
        assert_eq!(
            stack.automatic_end,
            Some((0, Outcome::InsufficientMaterial))
        );
    }

    #[test]
    fn the_seventy_five_move_rule_strikes_at_150_plies() {
        let mut stack = started(Some("8/8/8/4k3/8/8/4K3/4R3 w - - 148 90"));
        play(&mut stack, "Ra1");
        assert_eq!(stack.automatic_end, None);
        play(&mut stack, "Kd5");
        assert_eq!(stack.automatic_end, Some((2, Outcome::SeventyfiveMoves)));
    }
}
