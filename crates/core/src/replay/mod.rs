//! Replay: the one place where the PGN reader meets the rules core. A [`Replayer`] is a PGN
//! [`Visitor`] that plays every move of a game and of every variation on a [`Position`], tracks
//! repetitions on the main line, and leaves a [`GameReport`]: the tags export needs, the final
//! position's facts, the classification, and every located problem. `validate` and `export` run
//! the same replay, so that they judge every game alike.
//!
//! What it checks, beyond legality:
//!
//! - a game starts from the standard position or from its `FEN` tag (read as Chess960 when the
//!   `Variant` tag says so); a `Variant` other than standard or Chess960 makes the game invalid;
//! - each non-standard SAN form accepted, a `+`/`#` that does not match the position, a wrong
//!   move number, a null move in the main line, a termination marker that differs from the Result
//!   tag, and moves played after an automatic end (fivefold repetition, the 75-move rule,
//!   insufficient material) are warnings; an `e.p.` mark after a move that is no en passant
//!   capture is an error;
//! - a null move while in check is an illegal move (the king could be taken); on the main line
//!   one after the game ended is a move after the end, and at a checkmate or stalemate it is not
//!   played and the main line stops;
//! - the first illegal move of a line ends that line: on the main line it makes the outcome
//!   `invalid`, in a variation it is reported and the rest of the variation is skipped; junk
//!   among the main line's moves breaks the main line too;
//! - at the end, what the board says against the Result tag (`result_contradicts_board`) and what
//!   the Termination tag says against it (`termination_contradicts_result`) are warnings;
//! - the main line's comments are read for `[%clk]`, `[%emt]` and `[%eval]` (`notes`): each
//!   side's last clock always, and with [`ReplayOptions::clock_checks`] every command strictly and
//!   the clocks against the `TimeControl` and `Termination` tags (warnings, docs/clocks.md).
//!
//! The parts with a job of their own: `lines` holds the main line and the variations with the
//! repetition history, `game_tags` captures the tags, `problems` logs the problems (severity,
//! `--strict`, limits), `notes` reads the annotations, `warnings` words what goes wrong along the
//! way, `judge` gives the verdict at the end, and `claims` and `dead` judge the draws that need a
//! look ahead. Each is tested on its own; this file plays the moves and resets every part at
//! each game's start (`begin_game`).

mod claims;
mod dead;
mod game_tags;
mod judge;
mod lines;
mod notes;
mod problems;
mod warnings;

pub use game_tags::Tags;
pub use notes::{PlyLog, PlyNote};

use std::fmt;
use std::sync::Arc;

use arbiter_pgn::{Flow, GameInfo, GameResult, LineCol, Location, PgnError, PgnErrorKind, Visitor};
use arbiter_rules::MAX_FEN_BYTES;
use arbiter_rules::mate::Solver;
use arbiter_rules::san::{self, San, Suffix};
use arbiter_rules::{Color, Position};
use game_tags::{TagCapture, VariantKind, variant_kind};
use lines::{LineStack, MAX_VARIATION_DEPTH, Opened};
use notes::MainLineNotes;
use problems::{Place, ProblemLog};
use warnings::breaks_main_line;

use crate::clocks::{Millis, Period, Speed};
use crate::outcome::Classification;
use crate::position::Targets;
use crate::position::{Classifier, Opening};
use crate::problem::{Code, CodeCounts, Problem, Severities, Variation};
use crate::text::clip;
use crate::tree::GameTree;

/// The default of [`ReplayOptions::rulings_budget`] (and of `--rulings-budget`): positions the
/// dives and the helpmate search may visit on one game's final position, both sides together. A
/// safety valve against positions built to be slow (a few seconds at most): no real game's final
/// position measured came near it (docs/outcomes.md).
pub const DEFAULT_RULINGS_BUDGET: u64 = 2_000_000;

/// The codes only [`ReplayOptions::clock_checks`] reports (the `TimeControl` tag read here, the
/// rest in `notes`).
pub const CLOCK_CHECK_CODES: [Code; 5] = [
    Code::BadTimeControl,
    Code::MalformedCommand,
    Code::ClockRise,
    Code::ClockAboveTimeGiven,
    Code::TimeLeftAtForfeit,
];

/// How strictly a replay judges, and what it keeps. Variations are always replayed: `validate`
/// and `export` judge a game alike.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// The severity each code is reported with: its own, or as `--strict` (every warning an
    /// error), `--deny` and `--allow` change it. Validate and export judge a game alike only
    /// with the same severities.
    pub severities: Severities,
    /// Tags whose values the report keeps, in this order (`export --tags`).
    pub extra_tags: Vec<String>,
    /// Check the clocks against the time control and read every comment command strictly:
    /// problems that are only ever warnings, which `validate` shows and `export` does not (it
    /// then only reads each side's last clock). They are checked anyway when `severities` makes
    /// one of their codes ([`CLOCK_CHECK_CODES`]) an error, since that error makes a game invalid.
    pub clock_checks: bool,
    /// Keep the main line ply by ply in [`GameReport::ply_log`] (`export --plies`).
    pub plies: bool,
    /// With `plies`, keep each ply's comment text too.
    pub comments: bool,
    /// Keep each game's tags and movetext, moves in canonical SAN, in [`GameReport::tree`], and
    /// its original text in [`GameReport::source`] (`select`).
    pub tree: bool,
    /// With `tree`, keep a game's movetext in the tree only when its tags pass this test (made
    /// once they are read): select builds the tree only for the games it may keep. The tags
    /// and the original text are kept for every game; `None` keeps every game's movetext. A
    /// game whose tags fail is replayed for its problems, but not judged when no problem of the
    /// judgment can be an error ([`GameReport::classification`] `None`, no final FEN).
    pub movetext_if: Option<TagTest>,
    /// Name each game's opening from the opening table ([`GameReport::opening`]).
    pub eco: bool,
    /// Positions looked for on the main line ([`GameReport::position_ply`]).
    pub positions: Targets,
    /// Positions the helpmate searches may expand to rule on a game's final position (can each
    /// side still mate?), both sides together; 0 for the static proofs only (docs/outcomes.md).
    pub rulings_budget: u64,
    /// Which answers of that ruling the caller needs: both sides' in
    /// [`GameReport::can_mate`] (export's columns), or only what the verdict reads.
    pub rulings: RulingsWanted,
    /// Write the final position's FEN in [`GameReport::final_fen`] (else it stays empty; no
    /// verdict or problem reads it: validate does without it).
    pub final_fen: bool,
}

/// Which answers of a game's final ruling a replay gives ([`ReplayOptions::rulings`]). The
/// verdict (outcome, winner, problems) is the same either way.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum RulingsWanted {
    /// Both sides ruled: [`GameReport::can_mate`] holds both answers.
    #[default]
    BothSides,
    /// Only the sides the verdict reads
    /// ([`Wanted::Verdict`](arbiter_rules::mate::Wanted::Verdict)): [`GameReport::can_mate`] is
    /// `None` for a side not ruled. No side is ruled when the main line ended before its last
    /// move (the verdict then does not look at the final position).
    VerdictOnly,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            severities: Severities::default(),
            extra_tags: Vec::new(),
            clock_checks: false,
            plies: false,
            comments: false,
            tree: false,
            movetext_if: None,
            eco: false,
            positions: Targets::default(),
            rulings_budget: DEFAULT_RULINGS_BUDGET,
            rulings: RulingsWanted::BothSides,
            final_fen: true,
        }
    }
}

/// A test of a game's report once its tags are read ([`ReplayOptions::movetext_if`]): its
/// [`GameReport::tags`], the tags in its tree, and its `TimeControl` read
/// ([`GameReport::speed`], [`GameReport::base_and_increment`]) are filled in; the rest is not.
#[derive(Clone)]
pub struct TagTest(Arc<dyn Fn(&GameReport) -> bool + Send + Sync>);

impl TagTest {
    /// A test that passes the games for which `test` is true.
    pub fn new(test: impl Fn(&GameReport) -> bool + Send + Sync + 'static) -> TagTest {
        TagTest(Arc::new(test))
    }

    /// Whether the game of `report` passes.
    pub fn passes(&self, report: &GameReport) -> bool {
        (self.0)(report)
    }
}

impl fmt::Debug for TagTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TagTest(..)")
    }
}

/// Everything known about one game once it is replayed.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    /// The game's number in its input stream (in the range read, with `--range`), from 1.
    pub index: u64,
    /// Where the game's first byte stands in its (decompressed) input stream, from 0: the same
    /// whether the whole stream or a range of it is read.
    pub offset: u64,
    /// The tags export writes.
    pub tags: Tags,
    /// Plies played on the main line (up to the first error).
    pub plies: u32,
    /// FEN of the last main-line position reached (empty if the game never got a position).
    pub final_fen: String,
    /// The main line replayed to its end: no illegal move, no junk, no lost moves (else the
    /// outcome is `invalid`).
    pub main_line_valid: bool,
    /// The first error of the game (main line, variation or tag), as
    /// `LINE:COL: ply P "SAN": message`; empty for a valid game.
    pub first_error: String,
    /// The ply at which an automatic end (insufficient material, 75-move rule, fivefold
    /// repetition) ended the game while moves followed it.
    pub end_ply: Option<u32>,
    /// The outcome, winner and result consistency (`None` for a game not judged: see
    /// [`ReplayOptions::movetext_if`]).
    pub classification: Option<Classification>,
    /// Whether White and Black can still mate in the final position: proved yes, proved no, or
    /// `None` (not decided within the rulings budget, not ruled for a verdict only
    /// ([`RulingsWanted::VerdictOnly`]), or the main line was not replayed).
    pub can_mate: [Option<bool>; 2],
    /// Every problem, in source order (the game's own verdicts, found at its end, last).
    pub problems: Vec<Problem>,
    /// How many of `problems` are errors.
    pub errors: u32,
    /// How many of `problems` are warnings.
    pub warnings: u32,
    /// How many problems of each code the game has, listed or not (a summary of unexpected text
    /// and the problems past the listing limit count each problem they stand for), and the
    /// `problems_not_listed` note once; `validate`'s count by code adds these up.
    pub codes: CodeCounts,
    /// The `TimeControl` tag's first period, as (seconds, increment), when it can be read and
    /// is timed.
    pub base_and_increment: Option<(u32, u32)>,
    /// The speed class of the `TimeControl` tag, when it can be read and is not `?`.
    pub speed: Option<Speed>,
    /// White's and Black's last `[%clk]` on the main line.
    pub final_clocks: [Option<Millis>; 2],
    /// The main line ply by ply, when asked for ([`ReplayOptions::plies`]).
    pub ply_log: PlyLog,
    /// The tags and movetext, when asked for ([`ReplayOptions::tree`]).
    pub tree: GameTree,
    /// The game's text as in the source, when the tree is asked for.
    pub source: Vec<u8>,
    /// Where the game's result is written, when the tree is asked for: its `Result` tag, else
    /// its termination marker, else the game's start.
    pub result_at: LineCol,
    /// The opening the table names, when asked for ([`ReplayOptions::eco`]).
    pub opening: Option<&'static Opening>,
    /// The first ply at which the main line reaches one of [`ReplayOptions::positions`] (0: its
    /// start).
    pub position_ply: Option<u32>,
    /// Whether the game's tags passed [`ReplayOptions::movetext_if`], when they were tested (a
    /// game without movetext never is).
    pub tags_passed: Option<bool>,
}

/// Replays games; reusable from one game to the next so that buffers are allocated once.
pub struct Replayer {
    options: ReplayOptions,
    report: GameReport,
    /// The main line and the variations being replayed.
    stack: LineStack,
    /// The warning about moves after the automatic end was given.
    warned_after_end: bool,
    /// The main line hit an error: the outcome is `invalid`.
    main_line_broken: bool,
    /// The tags the replay reads.
    tags: TagCapture,
    /// The movetext's termination marker, and where it stands.
    marker: Option<(GameResult, Location)>,
    /// The problems' bookkeeping.
    log: ProblemLog,
    /// The main line's annotations and clocks.
    notes: MainLineNotes,
    /// The warning about variations nested too deep was given.
    warned_too_deep: bool,
    /// The opening of the game so far (with [`ReplayOptions::eco`]).
    opening: Classifier,
    /// The main-line plies up to this one are looked at for the opening (the first
    /// [`MAX_PLIES`](crate::position::MAX_PLIES)) or the positions looked for (all); 0 for
    /// none.
    hooks_until: u32,
    /// The can-mate solver of the rulings, its search buffers kept from one game to the next.
    solver: Solver,
    /// This game's movetext goes into the tree ([`ReplayOptions::tree`] and
    /// [`ReplayOptions::movetext_if`]).
    tree_movetext: bool,
}

impl Replayer {
    /// A replayer with these options.
    pub fn new(options: ReplayOptions) -> Replayer {
        Replayer {
            report: GameReport::default(),
            stack: LineStack::default(),
            warned_after_end: false,
            main_line_broken: false,
            tags: TagCapture::default(),
            marker: None,
            log: ProblemLog::new(options.severities),
            notes: MainLineNotes::new(
                options.clock_checks || options.severities.denies_any(&CLOCK_CHECK_CODES),
                options.plies,
                options.comments,
                options.tree,
            ),
            warned_too_deep: false,
            opening: Classifier::default(),
            hooks_until: if !options.positions.is_empty() {
                u32::MAX
            } else if options.eco {
                crate::position::MAX_PLIES
            } else {
                0
            },
            solver: Solver::new(),
            tree_movetext: options.tree,
            options,
        }
    }

    /// The report of the game last replayed.
    pub fn report(&self) -> &GameReport {
        &self.report
    }

    /// The options this replayer was built with.
    pub fn options(&self) -> &ReplayOptions {
        &self.options
    }

    /// Records a problem with the severity the run gives its code; one at a ply
    /// inside a replayed variation says which.
    fn problem(
        &mut self,
        location: Location,
        ply: Option<u32>,
        san: Option<&str>,
        code: Code,
        message: String,
    ) {
        let lines = &self.stack.lines;
        let variation = match lines.last() {
            Some(line) if ply.is_some() && lines.len() > 1 => Some(Variation {
                depth: u32::try_from(lines.len() - 1).unwrap_or(u32::MAX),
                from_ply: line.from_ply,
            }),
            _ => None,
        };
        let place = Place {
            location,
            ply,
            san,
            variation,
        };
        self.log.record(&mut self.report, place, code, message);
    }

    /// Records an error of the main line: the main line stops here, and the game's outcome is
    /// `invalid`.
    fn main_line_error(
        &mut self,
        location: Location,
        ply: Option<u32>,
        san: Option<&str>,
        code: Code,
        message: String,
    ) {
        if let Some(line) = self.stack.lines.first_mut() {
            line.dead = true;
        }
        self.notes.disarm();
        self.main_line_broken = true;
        self.problem(location, ply, san, code, message);
    }

    /// Records an error on the current line, and skips the rest of that line.
    fn line_error(&mut self, location: Location, ply: u32, san: &str, code: Code, message: String) {
        if self.stack.lines.len() <= 1 {
            self.main_line_error(location, Some(ply), Some(san), code, message);
        } else {
            if let Some(line) = self.stack.lines.last_mut() {
                line.dead = true;
            }
            self.problem(location, Some(ply), Some(san), code, message);
        }
    }

    /// Sets up the starting position from the tags.
    fn set_up(&mut self) {
        // A defect of the FEN or Variant tag is reported at that tag, else at the game's start.
        let game_start = Location(0);
        let chess960 = match self.tags.variant.as_deref().map(variant_kind) {
            None | Some(VariantKind::Standard) => false,
            Some(VariantKind::Chess960) => true,
            Some(VariantKind::Other) => {
                let variant = self.tags.variant.clone().unwrap_or_default();
                let message = format!(
                    "unsupported variant {variant}: only standard chess and Chess960 are played"
                );
                let at = self.tags.variant_at.unwrap_or(game_start);
                self.main_line_error(at, None, None, Code::UnsupportedVariant, message);
                return;
            }
        };
        let read = if chess960 {
            Position::from_fen_chess960
        } else {
            Position::from_fen
        };
        let mut pos = match self.tags.fen.as_deref() {
            None => Position::startpos(),
            Some(fen) => match read(fen) {
                Ok(pos) => pos,
                Err(err) => {
                    // Quoted as far as it can be read as a FEN: it may be 60 MB of junk, and the
                    // message must still say why after the quote.
                    let fen = clip(fen, MAX_FEN_BYTES);
                    let message = format!("bad FEN tag \"{fen}\": {err}");
                    let at = self.tags.fen_at.unwrap_or(game_start);
                    self.main_line_error(at, None, None, Code::BadFen, message);
                    return;
                }
            },
        };
        if chess960 {
            pos.set_chess960(true);
        }
        if self.options.tree {
            self.report.tree.start(&pos);
        }
        if self.options.positions.contains(&pos, pos.zobrist()) {
            self.report.position_ply = Some(0);
        }
        let tags = &self.report.tags;
        let time_control = self
            .tags
            .time_control_at
            .map(|_| tags.time_control.as_str());
        match self.notes.start(&pos, time_control) {
            Ok(tc) => {
                self.report.speed = tc.and_then(|tc| tc.speed());
                self.report.base_and_increment = tc
                    .filter(|tc| {
                        tc.periods()
                            .iter()
                            .all(|p| matches!(p, Period::Timed { .. }))
                    })
                    .and_then(|tc| Some((tc.base_seconds()?, tc.increment_seconds()?)));
            }
            Err(message) => {
                let at = self.tags.time_control_at.unwrap_or(game_start);
                self.problem(at, None, None, Code::BadTimeControl, message);
            }
        }
        self.stack.start(pos);
    }

    /// Plays one move written in SAN. The rare paths (a bad or illegal move, a non-standard form,
    /// a wrong check mark) live in cold functions of their own, so that the path every move takes
    /// stays short.
    fn play_text(&mut self, text: &str, location: Location) {
        let Some(index) = self.stack.live() else {
            self.not_replayed();
            return;
        };
        let main = index == 0;
        let ply = self.stack.lines[index].ply + 1;
        let parsed = match San::from_ascii(text.as_bytes()) {
            Ok(parsed) => parsed,
            Err(err) => return self.bad_san(text, location, ply, err),
        };
        if parsed.is_null() {
            self.play_null_move(text, location);
            return;
        }
        if main && self.stack.automatic_end.is_some() {
            self.warn_after_end(text, location, ply);
        }
        let line = &self.stack.lines[index];
        let Some(resolved) = parsed.try_resolve_knowing_check(&line.pos, line.in_check) else {
            return self.illegal_move(index, text, location, ply, parsed);
        };
        let mv = resolved.mv;
        // For the tree, a move written in a non-standard form is written anew, from the
        // position before it (the canonical SAN without its suffix); any other is canonical as
        // written, once its suffix is set right.
        let rewritten = (self.tree_movetext && !resolved.leniency.is_empty())
            .then(|| san::write_without_suffix(&line.pos, mv));
        if !resolved.leniency.is_empty() {
            self.warn_leniency(index, text, location, ply, resolved);
        }
        let line = &mut self.stack.lines[index];
        // The check state before the move is known after a move (not at a line's start, nor
        // after a null move): then the side to move next was not in check before this move.
        let after_a_move = line.in_check.is_some();
        // A variation starts from the position before the last move: kept as what undoes it.
        line.undo = line.pos.undo();
        line.pos.play_unchecked(mv);
        line.last_move = Some(mv);
        line.ply = ply;
        line.moved = true;
        let written = parsed.suffix();
        let in_check = if after_a_move {
            line.pos.is_check_after(mv)
        } else {
            line.pos.is_check()
        };
        line.in_check = Some(in_check);
        let actual = if written.is_some() || in_check {
            Suffix::knowing_check(&line.pos, in_check)
        } else {
            None
        };
        if self.tree_movetext {
            let base = rewritten
                .as_deref()
                .unwrap_or_else(|| text.trim_end_matches(['+', '#']));
            self.report.tree.played(base, actual, ply);
        }
        if written != actual {
            self.warn_check_mark(index, text, location, ply, written, actual);
        }
        if main {
            self.report.plies = ply;
            if let Some(moves) = &mut self.stack.main_moves {
                moves.push((Some(mv), location));
            }
            let material_changed = mv.is_capture() || mv.promotion().is_some();
            self.stack
                .after_main_line_move(mv.is_zeroing(), material_changed);
            let mover = !self.stack.lines[0].pos.turn();
            self.note_move(ply, mover, Some(mv));
            if ply <= self.hooks_until {
                self.after_main_line_ply(ply);
            }
        }
    }

    /// What select asks of each main-line ply: the opening, and the positions looked for.
    #[inline(never)]
    fn after_main_line_ply(&mut self, ply: u32) {
        let pos = &self.stack.lines[0].pos;
        // The position's Zobrist key, which the history of the repetition rule holds.
        let key = self.stack.history.last().copied().unwrap_or_default();
        if self.options.eco {
            self.opening.after_ply(ply, pos, key);
        }
        if self.report.position_ply.is_none() && self.options.positions.contains(pos, key) {
            self.report.position_ply = Some(ply);
        }
    }

    /// A move was not replayed (its line is dead, or a variation that replaces no move): the
    /// tree cannot give its canonical SAN.
    #[cold]
    fn not_replayed(&mut self) {
        if self.tree_movetext {
            self.report.tree.set_incomplete();
        }
    }

    /// Tells the notes a main-line move was played (its problems go to the log).
    #[inline]
    fn note_move(&mut self, ply: u32, mover: Color, mv: Option<arbiter_rules::Move>) {
        let (log, report) = (&mut self.log, &mut self.report);
        self.notes
            .move_played(ply, mover, mv, &mut |at, ply, code, message| {
                log.record(report, Place::main_line(at, ply), code, message)
            });
    }

    /// Plays a null move: it passes the turn. One that would leave the mover in check is an
    /// illegal move; one on the main line after the game ended is a move after the end (at a
    /// checkmate or stalemate the main line stops there, never reaching a position where a king
    /// can be taken).
    fn play_null_move(&mut self, text: &str, location: Location) {
        let Some(index) = self.stack.live() else {
            self.not_replayed();
            return;
        };
        let line = &self.stack.lines[index];
        let ply = line.ply + 1;
        if index == 0 && !line.pos.has_legal_moves() {
            if self.tree_movetext {
                // Kept as written: the main line stops there, and a rewrite says so again.
                self.report.tree.null_move(ply);
            }
            return self.null_move_after_mate_or_stalemate(text, location, ply);
        }
        if line.in_check.unwrap_or_else(|| line.pos.is_check()) {
            let message =
                format!("{text}: a null move while in check would leave the king in check");
            return self.line_error(location, ply, text, Code::IllegalMove, message);
        }
        if index == 0 && self.stack.automatic_end.is_some() {
            self.warn_after_end(text, location, ply);
        }
        if self.tree_movetext {
            self.report.tree.null_move(ply);
        }
        let line = &mut self.stack.lines[index];
        line.undo = line.pos.undo();
        line.pos.play_null();
        line.last_move = None;
        line.in_check = None;
        line.ply = ply;
        line.moved = true;
        if index == 0 {
            self.report.plies = ply;
            if let Some(moves) = &mut self.stack.main_moves {
                moves.push((None, location));
            }
            let mover = !self.stack.lines[0].pos.turn();
            self.note_move(ply, mover, None);
            self.problem(
                location,
                Some(ply),
                Some(text),
                Code::NullMove,
                format!(
                    "{text}: a null move in the main line passes the turn; it is not a legal move"
                ),
            );
            self.stack.after_main_line_move(false, false);
            if ply <= self.hooks_until {
                self.after_main_line_ply(ply);
            }
        }
    }

    #[inline(always)]
    fn check_move_number(&mut self, number: u32, location: Location) {
        let Some(index) = self.stack.live() else {
            return;
        };
        let line = &self.stack.lines[index];
        let expected = line.pos.fullmoves();
        if number != expected {
            self.warn_move_number(number, expected, line.ply + 1, location);
        }
    }

    /// A comment handed out by the reader (`movetext` when it stands in the movetext). When
    /// only the last clocks are wanted ([`MainLineNotes::deferred`]) but the tree keeps the
    /// comments, a main-line comment is noted where the tree keeps its text, to be read at the
    /// game's end as a skipped comment is.
    ///
    /// Inlined for the comments of a game without a tree (validate reads every clock: as a call
    /// this cost 25 instructions a comment); the tree's comments take a call of their own.
    #[inline(always)]
    fn take_comment(&mut self, text: &str, location: Location, movetext: bool) {
        if self.tree_movetext {
            return self.take_kept_comment(text, location, movetext);
        }
        if !self.stack.on_main_line() {
            return;
        }
        self.read_comment(text, location);
    }

    /// [`Replayer::take_comment`] when the tree keeps the comments.
    #[inline(never)]
    fn take_kept_comment(&mut self, text: &str, location: Location, movetext: bool) {
        let span = self.report.tree.comment(text);
        if !self.stack.on_main_line() {
            return;
        }
        if movetext && self.notes.deferred() {
            self.notes.note(span.range());
            return;
        }
        self.read_comment(text, location);
    }

    /// A main-line comment goes to the notes (its problems to the log).
    #[inline(always)]
    fn read_comment(&mut self, text: &str, location: Location) {
        let (log, report) = (&mut self.log, &mut self.report);
        self.notes
            .comment(text, location, &mut |at, ply, code, message| {
                log.record(report, Place::main_line(at, ply), code, message)
            });
    }

    /// Classifies the game and locates its problems.
    fn finish(&mut self, game: &GameInfo<'_>) {
        if self.stack.lines.is_empty() && !self.main_line_broken {
            // A game without movetext never reached `end_tags`.
            self.set_up();
        }
        if let Some((marker, location)) = self.marker {
            let tag = self
                .tags
                .result_at
                .map(|_| self.report.tags.result.as_str());
            match tag {
                Some(tag) if tag.trim() != marker.as_str() => {
                    let message = format!(
                        "the movetext ends with {} but the Result tag says {tag}",
                        marker.as_str()
                    );
                    self.problem(location, None, None, Code::ResultMismatch, message);
                }
                Some(_) => {}
                None => {
                    let tags = &mut self.report.tags;
                    tags.result.clear();
                    tags.result.push_str(marker.as_str());
                }
            }
        }
        let declared = GameResult::from_tag(&self.report.tags.result);
        let judged = !self.unjudged();
        if judged {
            self.judge(declared, game.bytes());
        }
        // Taken out for the call, so that the problems it finds can go to the report.
        let termination = std::mem::take(&mut self.report.tags.termination);
        let at = self.tags.termination_at.unwrap_or(Location(0));
        // The deferred comments lie in the tree's text when the tree keeps them (taken out
        // for the call, and put back).
        let tree = std::mem::take(&mut self.report.tree);
        let comments = if self.tree_movetext {
            tree.all_text()
        } else {
            game.bytes()
        };
        let (log, report) = (&mut self.log, &mut self.report);
        let clocks = self.notes.end_game(
            self.tags.termination_at.map(|_| termination.as_str()),
            at,
            declared,
            &mut |at, ply, code, message| {
                log.record(report, Place::main_line(at, ply), code, message)
            },
            comments,
        );
        self.report.tree = tree;
        self.report.tags.termination = termination;
        if self.options.tree {
            self.report.source.clear();
            self.report.source.extend_from_slice(game.bytes());
            let at = self.tags.result_at.or(self.marker.map(|(_, at)| at));
            self.report.result_at = at.map_or(
                LineCol {
                    line: game.first_line(),
                    column: game.first_column(),
                },
                |at| game.locate_once(at),
            );
        }
        self.report.opening = self.opening.opening();
        self.notes.hand_over(&mut self.report.ply_log);
        self.report.final_clocks = clocks;
        self.log.finish(&mut self.report, game);
        let report = &mut self.report;
        report.main_line_valid = !self.main_line_broken;
        if let Some(line) = self
            .stack
            .main()
            .filter(|_| self.options.final_fen && judged)
        {
            report.final_fen.clear();
            line.pos.write_fen(&mut report.final_fen);
        }
    }
}

impl Visitor for Replayer {
    type Output = ();

    fn begin_game(&mut self, game: &GameInfo<'_>) {
        let report = &mut self.report;
        report.index = game.index();
        report.offset = game.offset();
        self.tags
            .reset(&mut report.tags, self.options.extra_tags.len());
        report.plies = 0;
        report.final_fen.clear();
        report.main_line_valid = true;
        report.first_error.clear();
        report.end_ply = None;
        report.classification = None;
        report.can_mate = [None; 2];
        // Every problem counted leaves one listed (the first of a game always is), so a game
        // with none listed has nothing counted to forget.
        if !report.problems.is_empty() {
            report.codes = CodeCounts::default();
        }
        report.problems.clear();
        report.errors = 0;
        report.warnings = 0;
        report.base_and_increment = None;
        report.speed = None;
        report.final_clocks = [None; 2];
        report.tree.clear();
        report.opening = None;
        report.position_ply = None;
        report.tags_passed = None;
        self.opening.reset();
        self.log.reset();
        self.notes.reset();
        self.stack.reset();
        self.warned_after_end = false;
        self.main_line_broken = false;
        self.warned_too_deep = false;
        self.marker = None;
        self.tree_movetext = self.options.tree;
    }

    fn tag(&mut self, name: &str, value: &str, location: Location) {
        if self.options.tree {
            self.report.tree.tag(name, value);
        }
        let wanted = &self.options.extra_tags;
        self.tags
            .tag(&mut self.report.tags, wanted, name, value, location);
    }

    fn end_tags(&mut self) -> Flow {
        self.set_up();
        if let Some(test) = self
            .options
            .movetext_if
            .as_ref()
            .filter(|_| self.options.tree)
        {
            let passed = test.passes(&self.report);
            self.report.tags_passed = Some(passed);
            self.tree_movetext = passed;
        }
        Flow::Continue
    }

    /// Always inlined: it runs for nearly every move, and as a call it cost more than its test.
    #[inline(always)]
    fn move_number(&mut self, number: u32, _dots: u8, location: Location) {
        self.check_move_number(number, location);
    }

    fn san(&mut self, text: &str, location: Location) {
        self.play_text(text, location);
    }

    fn null_move(&mut self, text: &str, location: Location) {
        self.play_null_move(text, location);
    }

    fn en_passant_mark(&mut self, location: Location) {
        Replayer::en_passant_mark(self, location);
    }

    fn nag(&mut self, nag: u8, _location: Location) {
        if self.tree_movetext {
            self.report.tree.nag(nag);
        }
        if self.stack.on_main_line() {
            self.notes.nag(nag);
        }
    }

    fn wants_comments(&self) -> bool {
        self.tree_movetext || !self.notes.deferred()
    }

    /// Always inlined: it runs for nearly every move of an online archive.
    #[inline(always)]
    fn comment_skipped(&mut self, _location: Location, text: std::ops::Range<usize>) {
        if self.stack.on_main_line() {
            self.notes.note(text);
        }
    }

    fn comment(&mut self, text: &str, location: Location) {
        // A lichess evaluation and clock, the ply's first clock on the main line: the notes take
        // it at once (as `take_comment` would, without its tests).
        if self.notes.armed_comment(text, location) {
            return;
        }
        self.take_comment(text, location, true);
    }

    /// Nearly every comment of a lichess archive, read by the reader: a main-line clock taken
    /// here costs a test and the clock's check, inlined into the reader's loop. The notes are
    /// armed from a main-line move until its first clock is taken, a variation opens or the
    /// main line stops, never with a tree (`MainLineNotes::armed_clock`); else the tests
    /// follow.
    #[inline(always)]
    fn clock_comment(&mut self, clock: u32, text: &str, location: Location) {
        if self.notes.armed_clock(clock, location) {
            return;
        }
        if !self.tree_movetext
            && self.stack.on_main_line()
            && self.notes.clock_comment(clock, location)
        {
            return;
        }
        self.take_comment(text, location, true);
    }

    fn text_after_result(&mut self, text: &str, location: Location) {
        // Kept as a comment on the last move (select writes `Nc6 { (time) } 1-0`), located as a
        // comment is, at the byte before its text (a `{`'s place); never read for a clock.
        let before = Location::at(location.offset().saturating_sub(1));
        self.take_comment(text, before, false);
    }

    /// `begin_game` resets every per-game field.
    fn one_pass(&self) -> bool {
        true
    }

    fn begin_variation(&mut self, location: Location) -> Flow {
        self.notes.disarm();
        if self.tree_movetext {
            self.report.tree.open_variation();
        }
        if self.stack.open_variation() == Opened::TooDeep && !self.warned_too_deep {
            self.warned_too_deep = true;
            let message = format!(
                "variations nested deeper than {MAX_VARIATION_DEPTH} levels are not replayed"
            );
            self.problem(location, None, None, Code::DeepVariation, message);
        }
        Flow::Continue
    }

    fn end_variation(&mut self, _location: Location) {
        if self.tree_movetext {
            self.report.tree.close_variation();
        }
        self.stack.close_variation();
    }

    fn result(&mut self, result: GameResult, location: Location) {
        if self.tree_movetext {
            self.report.tree.marker(result);
        }
        self.marker = Some((result, location));
    }

    fn error(&mut self, error: PgnError) {
        // A missing result and text after the result are the game's, at no ply: the ply after
        // the last move does not exist.
        let ply = match error.kind {
            PgnErrorKind::NoResult | PgnErrorKind::TextAfterResult => None,
            _ => self.stack.lines.last().map(|line| line.ply + 1),
        };
        let code = Code::Reader(error.kind);
        if breaks_main_line(
            &error,
            self.stack.lines.len() <= 1 && self.stack.skipped_depth == 0,
        ) {
            self.main_line_error(error.location, ply, None, code, error.message);
        } else {
            self.problem(error.location, ply, None, code, error.message);
        }
    }

    fn end_game(&mut self, game: &GameInfo<'_>) {
        self.finish(game);
    }
}

#[cfg(test)]
mod tests;
