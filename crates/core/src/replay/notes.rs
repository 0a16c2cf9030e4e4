//! The main line's annotations, read as they come: the `[%clk]`, `[%emt]` and `[%eval]` commands
//! of the comments after each move (a malformed one is a warning at its place), the clock
//! evidence against the `TimeControl` and `Termination` tags, each side's last clock, and, for
//! `export --plies`, one [`PlyNote`] per main-line ply with its NAGs and comment text.
//!
//! Comments before the first move and comments in variations are not read for commands. Nothing
//! here allocates per move or per game once its buffers have grown.
//!
//! When nothing but each side's last clock is wanted (export without `--plies`), a comment is not
//! read as it comes: the reader skips it and hands over where its text lies in the game's bytes,
//! which is noted (a few instructions), and at the game's end the last comments of each side are
//! read from there until a clock is found, usually one comment a side. Reading every comment cost
//! export a sixth of its speed on lichess games. Where a comment ends is the reader's to say:
//! nothing here looks for it.

use std::ops::Range;

use arbiter_pgn::{GameResult, Location, lichess_clock};
use arbiter_rules::{Color, Move, Position};

use crate::clocks::annotations::lichess_eval_and_clock;
use crate::clocks::{ClockEvidence, ClockWarning, Eval, Millis, MoveAnnotations, TimeControl};
use crate::problem::Code;

/// Where a problem found here goes: location, ply, code and message.
pub type Report<'a> = &'a mut dyn FnMut(Location, Option<u32>, Code, String);

/// One main-line ply as kept for ply rows.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct PlyNote {
    /// The move, `None` for a null move.
    pub mv: Option<Move>,
    /// The clock, time spent and evaluation of its comments.
    pub notes: MoveAnnotations,
    /// Its NAGs, in [`PlyLog::nags`].
    nags: Range<u32>,
    /// Its comments' text, in [`PlyLog::comment`].
    comment: Range<u32>,
}

/// The main line ply by ply, kept when the replay is asked for it ([`super::ReplayOptions::plies`]).
#[derive(Clone, Debug, Default)]
pub struct PlyLog {
    /// The position the main line starts from.
    pub start: Position,
    /// One note per ply replayed, in order.
    pub plies: Vec<PlyNote>,
    nags: Vec<u8>,
    comments: String,
}

impl PlyLog {
    /// The NAGs of `ply` (`!` is 1, `$14` is 14), in order.
    pub fn nags(&self, ply: &PlyNote) -> &[u8] {
        &self.nags[ply.nags.start as usize..ply.nags.end as usize]
    }

    /// The text of the comments after `ply`, each trimmed, joined by a space (kept only when the
    /// replay is asked for comments, [`super::ReplayOptions::comments`]).
    pub fn comment(&self, ply: &PlyNote) -> &str {
        &self.comments[ply.comment.start as usize..ply.comment.end as usize]
    }

    fn clear(&mut self) {
        self.plies.clear();
        self.nags.clear();
        self.comments.clear();
    }
}

/// The annotation state of the game being replayed.
#[derive(Clone, Debug, Default)]
pub struct MainLineNotes {
    /// Keep a [`PlyNote`] per ply.
    keep_plies: bool,
    /// Keep the comments' text too.
    keep_comments: bool,
    /// Check the clocks and the commands (warnings); else only each side's last clock is kept.
    checks: bool,
    /// Checks made and no comment text kept: a ply's first lichess clock is all a clock comment
    /// gives ([`MainLineNotes::clock_comment`]).
    clocks_alone: bool,
    /// A main-line move arms the notes ([`MainLineNotes::armed`]): clocks alone, and the
    /// replay keeps no tree (set by [`MainLineNotes::new`]).
    arms: bool,
    /// The mover of the last main-line ply, from that move until its first clock is taken, a
    /// variation opens or the main line stops ([`MainLineNotes::disarm`]), when
    /// [`MainLineNotes::arms`]: a clock comment that comes then is that ply's first clock on
    /// the main line, taken at once ([`MainLineNotes::armed_clock`]) without the replay's tests.
    armed: Option<Color>,
    /// The notes arm and keep no ply rows (validate): a main-line move needs nothing but the
    /// clocks' state set, unless a warning is held.
    plain_plies: bool,
    /// [`MainLineNotes::plain_plies`], and no warning is held ([`MainLineNotes::held`]; set
    /// again once it is given out): see [`MainLineNotes::move_played`].
    plain_ply: bool,
    /// Each side's last clock so far, when comments are read as they come and the clocks are
    /// not checked (else the evidence keeps them).
    last_clocks: [Option<Millis>; 2],
    /// Only the last clocks are wanted: comments are noted here, each as its ply and where its
    /// text lies in the game's bytes, and read at the game's end.
    deferred: bool,
    noted: Vec<Noted>,
    /// Black makes the first move (and every odd ply): the game starts from a FEN.
    black_first: bool,
    /// The last main-line ply (0 before the first move), who made it, and its annotations so far.
    ply: u32,
    mover: Option<Color>,
    pending: MoveAnnotations,
    /// The clocks' checks, handed each reading as it is read.
    evidence: ClockEvidence,
    /// The warning about the last ply's clock, given out once the ply is complete (when the
    /// next move is played, or at the game's end), where it was given out when the checks were
    /// made then.
    held: Option<(Location, ClockWarning)>,
    /// The last `TimeControl` value read, and what it was read as: games of one archive share a
    /// few values, so each is parsed once in a row.
    time_control_text: String,
    time_control: Option<Result<TimeControl, &'static str>>,
    /// The plies being kept (swapped with the report's at the game's end).
    log: PlyLog,
}

impl MainLineNotes {
    /// Notes that check the clocks and commands when `checks` is set, keep ply rows when `plies`
    /// is set, with their comments' text when `comments` is set too; `tree` when the replay
    /// keeps the game's tree (then every comment comes through the tree, and a clock comment is
    /// never taken at once: [`MainLineNotes::armed_clock`]).
    pub fn new(checks: bool, plies: bool, comments: bool, tree: bool) -> MainLineNotes {
        let clocks_alone = checks && !(plies && comments);
        MainLineNotes {
            checks,
            keep_plies: plies,
            keep_comments: plies && comments,
            clocks_alone,
            arms: clocks_alone && !tree,
            plain_plies: clocks_alone && !tree && !plies,
            plain_ply: clocks_alone && !tree && !plies,
            deferred: !checks && !plies,
            ..MainLineNotes::default()
        }
    }

    /// Forgets the last game: until [`MainLineNotes::start`], nothing is read.
    pub fn reset(&mut self) {
        self.ply = 0;
        self.mover = None;
        self.armed = None;
        self.pending.clear();
        self.log.clear();
        self.last_clocks = [None; 2];
        self.noted.clear();
        self.evidence.begin_game(None);
        self.held = None;
        self.plain_ply = self.plain_plies;
    }

    /// Starts a game from `start`, with its `TimeControl` tag's value (`None` when there is
    /// none). Returns what the value was read as, or why it cannot be read (then no clock is
    /// checked against it).
    pub fn start(
        &mut self,
        start: &Position,
        time_control: Option<&str>,
    ) -> Result<Option<&TimeControl>, String> {
        if self.keep_plies {
            self.log.start.clone_from(start);
        }
        self.black_first = start.turn() == Color::Black;
        let Some(text) = time_control else {
            return Ok(None);
        };
        if self.time_control.is_none() || self.time_control_text != text {
            self.time_control_text.clear();
            self.time_control_text.push_str(text);
            self.time_control = Some(TimeControl::parse(text).map_err(|e| e.reason));
        }
        match &self.time_control {
            Some(Ok(tc)) => {
                self.evidence.begin_game(Some(tc));
                Ok(Some(tc))
            }
            Some(Err(_)) if !self.checks => Ok(None),
            Some(Err(reason)) => Err(format!("TimeControl \"{text}\": {reason}")),
            None => Ok(None),
        }
    }

    /// A main-line move was played: ply `ply` by `mover` (`mv` is `None` for a null move). The
    /// previous ply's annotations are complete now.
    ///
    /// The clocks are checked as they are read ([`MainLineNotes::comment`]): a ply costs only
    /// what ends the previous one. Handing every ply to the evidence, to count it, cost validate
    /// 70 instructions a ply on lichess games; a ply of validate's now sets four fields
    /// ([`MainLineNotes::plain_ply`]).
    #[inline]
    pub fn move_played(&mut self, ply: u32, mover: Color, mv: Option<Move>, report: Report<'_>) {
        if self.deferred {
            // Comments are only noted, with this ply: nothing else is kept per move.
            self.ply = ply;
            return;
        }
        if self.plain_ply {
            // What the rest does without a warning held nor ply rows, armed.
            self.pending.clock = None;
            self.ply = ply;
            self.mover = Some(mover);
            self.armed = Some(mover);
            return;
        }
        self.flush(report);
        self.ply = ply;
        self.mover = Some(mover);
        if self.arms {
            // (A branch: `then_some` cost five instructions a ply.)
            self.armed = Some(mover);
        }
        if self.keep_plies {
            let nags = self.log.nags.len() as u32;
            let comment = self.log.comments.len() as u32;
            self.log.plies.push(PlyNote {
                mv,
                notes: MoveAnnotations::default(),
                nags: nags..nags,
                comment: comment..comment,
            });
        }
    }

    /// A comment on the main line, at `location` (its `{` or `;`). (When comments are
    /// [`MainLineNotes::deferred`], they come to [`MainLineNotes::note`] instead, and this reads
    /// nothing: no move has been noted as made.)
    #[inline(always)]
    pub fn comment(&mut self, text: &str, location: Location, report: Report<'_>) {
        let Some(mover) = self.mover else {
            return;
        };
        if self.pending.clock.is_none() && !self.keep_comments {
            // Nearly every comment of an online archive: ` [%clk 0:03:00] ` and nothing else.
            if let Some(ms) = lichess_clock(text.as_bytes()) {
                self.clock_read(mover, ms, location);
                return;
            }
            // A lichess game with computer analysis: ` [%eval 0.17] [%clk 0:03:00] `, read as
            // `MoveAnnotations::read` reads it (well formed: no warning), without its call.
            if let Some((eval, depth, ms)) = lichess_eval_and_clock(text.as_bytes()) {
                self.eval_read(eval, depth);
                self.clock_read(mover, ms, location);
                return;
            }
        }
        self.read_comment(text, location, report);
    }

    /// A main-line comment while the notes are [`MainLineNotes::armed`]: when it is lichess's
    /// evaluation and clock (` [%eval 0.17] [%clk 0:03:00] `), both are taken at once, as
    /// [`MainLineNotes::comment`] takes them, without the replay's tests of where the comment
    /// stands. Returns `false` for any other comment, and when the notes are not armed: then the
    /// replay hands the comment over as before.
    #[inline(always)]
    pub fn armed_comment(&mut self, text: &str, location: Location) -> bool {
        let Some(mover) = self.armed else {
            return false;
        };
        let Some((eval, depth, ms)) = lichess_eval_and_clock(text.as_bytes()) else {
            return false;
        };
        self.eval_read(eval, depth);
        self.pending.clock = Some(ms);
        self.check_clock(mover, ms, location);
        true
    }

    /// The last ply's evaluation reads `eval` (at `depth`): kept if it is the ply's first.
    #[inline(always)]
    fn eval_read(&mut self, eval: Eval, depth: Option<u32>) {
        if self.pending.eval.is_none() {
            self.pending.eval = Some(eval);
            self.pending.eval_depth = depth;
        }
    }

    /// A clock comment, read by the reader as `ms` ([`arbiter_pgn::Visitor::clock_comment`]),
    /// while the notes are [`MainLineNotes::armed`]: the main line's last ply's first clock,
    /// taken at once (the replay need not test where the comment stands). Returns `false` when
    /// the notes are not armed: then the replay hands the comment over as any other
    /// ([`MainLineNotes::clock_comment`]).
    #[inline(always)]
    pub fn armed_clock(&mut self, ms: Millis, location: Location) -> bool {
        let Some(mover) = self.armed else {
            return false;
        };
        self.pending.clock = Some(ms);
        self.check_clock(mover, ms, location);
        true
    }

    /// The main line's last ply may take no clock comment at once any more (a variation opens,
    /// or the main line stops): see [`MainLineNotes::armed`].
    #[inline]
    pub fn disarm(&mut self) {
        self.armed = None;
    }

    /// A main-line comment that is exactly lichess's clock, read by the reader as `ms`
    /// ([`arbiter_pgn::Visitor::clock_comment`]): taken at once when it is the ply's first
    /// clock and its text is not kept. Returns `false` when the comment is to be read as any
    /// other ([`MainLineNotes::comment`]).
    #[inline(always)]
    pub fn clock_comment(&mut self, ms: Millis, location: Location) -> bool {
        if !self.clocks_alone || self.pending.clock.is_some() {
            return false;
        }
        if let Some(mover) = self.mover {
            self.pending.clock = Some(ms);
            self.check_clock(mover, ms, location);
        }
        true
    }

    /// The last ply's first clock shows `ms`, read at `location`: it is checked now, and a
    /// warning held until the ply is complete.
    #[inline(always)]
    fn clock_read(&mut self, mover: Color, ms: Millis, location: Location) {
        self.pending.clock = Some(ms);
        if self.checks {
            self.check_clock(mover, ms, location);
        } else {
            self.last_clocks[mover as usize] = Some(ms);
        }
    }

    /// [`MainLineNotes::clock_read`] when the clocks are checked: the ply has its first clock
    /// (the notes are armed no more).
    #[inline(always)]
    fn check_clock(&mut self, mover: Color, ms: Millis, location: Location) {
        self.armed = None;
        // Moves alternate from ply 1, as the evidence asks.
        if !self.evidence.common_reading(self.ply, mover, ms) {
            self.check_clock_fully(mover, ms, location);
        }
    }

    /// [`MainLineNotes::check_clock`] for any reading but the common one: a warning is held
    /// until the ply is complete.
    #[inline(never)]
    fn check_clock_fully(&mut self, mover: Color, ms: Millis, location: Location) {
        let (held, plain_ply) = (&mut self.held, &mut self.plain_ply);
        self.evidence.reading(self.ply, mover, ms, |warning| {
            *held = Some((location, warning));
            *plain_ply = false;
        });
    }

    /// Whether comments are only noted, to be read at the game's end (only each side's last clock
    /// is wanted): the reader need not hand out their text.
    pub fn deferred(&self) -> bool {
        self.deferred
    }

    /// Notes a main-line comment the reader skipped, whose text lies at `text` in the game's
    /// bytes (or in the game tree's text, when the tree keeps the comments), to be read at the
    /// game's end if need be.
    #[inline(always)]
    pub fn note(&mut self, text: Range<usize>) {
        if self.ply > 0 {
            // A game is under 4 GiB (the reader's size limit), so its offsets fit.
            self.noted.push(Noted {
                ply: self.ply,
                start: text.start as u32,
                end: text.end as u32,
            });
        }
    }

    /// [`MainLineNotes::comment`] for any comment.
    #[inline(never)]
    fn read_comment(&mut self, text: &str, location: Location, report: Report<'_>) {
        let had_clock = self.pending.clock.is_some();
        let (ply, checks) = (self.ply, self.checks);
        self.pending.read(text, |bad| {
            if checks {
                let at = Location(location.0.saturating_add(1 + bad.offset as u32));
                report(at, Some(ply), Code::MalformedCommand, bad.to_string());
            }
        });
        if !had_clock
            && let Some(ms) = self.pending.clock
            && let Some(mover) = self.mover
        {
            self.clock_read(mover, ms, location);
        }
        if self.keep_comments
            && let Some(note) = self.log.plies.last_mut()
        {
            let text = text.trim();
            if !text.is_empty() {
                if note.comment.end > note.comment.start {
                    self.log.comments.push(' ');
                }
                self.log.comments.push_str(text);
                note.comment.end = self.log.comments.len() as u32;
            }
        }
    }

    /// A NAG after the last main-line move.
    pub fn nag(&mut self, nag: u8) {
        if self.keep_plies
            && self.mover.is_some()
            && let Some(note) = self.log.plies.last_mut()
        {
            self.log.nags.push(nag);
            note.nags.end = self.log.nags.len() as u32;
        }
    }

    /// The last ply's annotations are complete: its clock's warning is given out, and its
    /// annotations go to the ply log. Without ply rows only the clock is cleared (nothing else
    /// of the annotations is read then).
    #[inline]
    fn flush(&mut self, report: Report<'_>) {
        if self.held.is_some() || self.keep_plies {
            self.flush_read(report);
        }
        self.pending.clock = None;
    }

    /// [`MainLineNotes::flush`] for a ply with a warning, or when ply rows are kept.
    #[inline(never)]
    fn flush_read(&mut self, report: Report<'_>) {
        if let Some((at, warning)) = self.held.take() {
            report(at, Some(warning.ply()), code(&warning), warning.to_string());
            self.plain_ply = self.plain_plies;
        }
        if self.keep_plies
            && self.mover.is_some()
            && let Some(note) = self.log.plies.last_mut()
        {
            note.notes = self.pending;
        }
        self.pending.clear();
    }

    /// The game is over, with this `Termination` tag (standing at `at`) and result: the clocks
    /// are checked against a loss on time. Returns each side's last clock (`game` holds the
    /// bytes the deferred comments were noted in: the game's, or the game tree's text).
    pub fn end_game(
        &mut self,
        termination: Option<&str>,
        at: Location,
        result: GameResult,
        report: Report<'_>,
        game: &[u8],
    ) -> [Option<Millis>; 2] {
        self.flush(report);
        if self.deferred {
            self.read_last_clocks(game);
        }
        if self.checks {
            self.last_clocks = [Color::White, Color::Black].map(|c| self.evidence.final_clock(c));
            let last_ply = self.mover.map(|mover| (self.ply, mover));
            self.evidence
                .end_game_after(last_ply, termination, result, |warning| {
                    report(at, Some(warning.ply()), code(&warning), warning.to_string())
                });
        }
        self.last_clocks
    }

    /// Reads the noted comments from the end of `game` (its bytes), for each side until its last
    /// ply with a clock is found; the first clock of that ply counts.
    fn read_last_clocks(&mut self, game: &[u8]) {
        let mut found: [Option<(u32, Millis)>; 2] = [None; 2];
        for &Noted { ply, start, end } in self.noted.iter().rev() {
            // White is side 0: the first mover's side for odd plies.
            let side = usize::from((ply % 2 == 0) != self.black_first);
            if found[side].is_some_and(|(at, _)| at != ply) {
                if found[0].is_some() && found[1].is_some() {
                    break;
                }
                continue;
            }
            let text = game.get(start as usize..end as usize).unwrap_or_default();
            let clock = lichess_clock(text).or_else(|| {
                let mut notes = MoveAnnotations::default();
                notes.read(&String::from_utf8_lossy(text), |_| {});
                notes.clock
            });
            if let Some(ms) = clock {
                found[side] = Some((ply, ms));
            }
        }
        self.last_clocks = found.map(|clock| clock.map(|(_, ms)| ms));
    }

    /// Hands the game's ply log over to `log`, whose buffers are taken for the next game.
    pub fn hand_over(&mut self, log: &mut PlyLog) {
        std::mem::swap(log, &mut self.log);
    }
}

/// A comment noted to be read at the game's end: the ply it follows, and where its text lies in
/// the game's bytes (the bytes: a game that is not UTF-8 has ASCII commands all the same).
#[derive(Copy, Clone, Debug)]
struct Noted {
    ply: u32,
    start: u32,
    end: u32,
}

/// The code of a clock warning.
fn code(warning: &ClockWarning) -> Code {
    match warning {
        ClockWarning::Rise { .. } => Code::ClockRise,
        ClockWarning::AboveTimeGiven { .. } => Code::ClockAboveTimeGiven,
        ClockWarning::TimeLeftAtForfeit { .. } => Code::TimeLeftAtForfeit,
    }
}
