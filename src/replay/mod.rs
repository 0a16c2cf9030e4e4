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
//! - the first illegal move of a line ends that line: on the main line it makes the outcome
//!   `invalid`, in a variation it is reported and the rest of the variation is skipped; junk
//!   among the main line's moves breaks the main line too;
//! - at the end, what the board says against the Result tag (`result_contradicts_board`) and what
//!   the Termination tag says against it (`termination_contradicts_result`) are warnings.
//!
//! Repetitions are counted on Zobrist keys since the last capture or pawn move. While the game is
//! running, each new position is compared with the positions of the same side to move since then
//! (fewer than 75 while the 75-move rule has not struck), so the work stays linear in the length of
//! the game however long it is.

mod claims;
mod dead;

use std::fmt::Write as _;

use crate::outcome::{self, BoardFacts, Classification, Outcome, termination};
use crate::pgn::{Flow, GameInfo, GameResult, LineCol, Location, PgnError, Visitor};
use crate::report::code::Code;
use crate::report::diagnostic::Severity;
use crate::rules::san::{self, Leniency, ParseSanError, Resolved, San, Suffix};
use crate::rules::{Color, Position};

/// How strictly a replay judges, and what it keeps. Variations are always replayed: `validate`
/// and `export` judge a game alike.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Turn every warning into an error (`validate --strict`).
    pub strict: bool,
    /// Tags whose values the report keeps, in this order (`export --tags`).
    pub extra_tags: Vec<String>,
}

/// One located problem of a game, without the path (the caller knows the source).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Problem {
    /// Where, within the game's bytes.
    pub location: Location,
    /// Where, in the source (filled in when the game ends).
    pub at: LineCol,
    /// The ply of the move concerned (counted from the game's start along its line), if any.
    pub ply: Option<u32>,
    /// The move as written, if the problem belongs to a move.
    pub san: Option<String>,
    /// Error or warning.
    pub severity: Severity,
    /// A stable code, e.g. `illegal_move`.
    pub code: Code,
    /// What is wrong, in plain words.
    pub message: String,
}

/// The seven tags export writes, plus the ones asked for.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Tags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`.
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `Result`, or the termination marker when the tag is missing.
    pub result: String,
    /// Values of [`ReplayOptions::extra_tags`], in order (empty when absent).
    pub extra: Vec<String>,
}

/// Everything known about one game once it is replayed.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    /// The game's number in its input stream, from 1.
    pub index: u64,
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
    /// The outcome, winner and result consistency.
    pub classification: Option<Classification>,
    /// Every problem, in source order (the game's own verdicts, found at its end, last).
    pub problems: Vec<Problem>,
    /// How many of `problems` are errors.
    pub errors: u32,
    /// How many of `problems` are warnings.
    pub warnings: u32,
}

/// One line being replayed: the main line, or a variation.
#[derive(Clone, Debug)]
struct Line {
    /// The position now.
    pos: Position,
    /// The position before the last move played (where a variation starts).
    before: Position,
    /// The last move played on this line (by SAN), if any.
    last_move: Option<crate::rules::Move>,
    /// Plies from the game's start to `pos`.
    ply: u32,
    /// Whether the side to move in `pos` is in check, when known: found after every move played
    /// from SAN (replay needs it for the check mark), and handed to the next move's resolution.
    in_check: Option<bool>,
    /// A move of this line failed: the rest of it is skipped.
    dead: bool,
    /// A move has been played on this line (a variation before any move has nothing to replace).
    moved: bool,
}

/// Replays games; reusable from one game to the next so that buffers are allocated once.
pub struct Replayer {
    options: ReplayOptions,
    report: GameReport,
    /// The main line is `lines[0]`; each variation being replayed pushes one.
    lines: Vec<Line>,
    /// Variations inside a variation that is not replayed (dead, or opened before any move).
    skipped_depth: u32,
    /// Zobrist keys of the main line since the last capture or pawn move, the current one last.
    history: Vec<u64>,
    /// The ply at which the game ended automatically, and how, if it did.
    automatic_end: Option<(u32, Outcome)>,
    /// The main line's first position, and its moves with where each was written (for the first
    /// dead ply, looked for only when the final position is dead).
    start: Position,
    main_moves: Vec<(crate::rules::Move, Location)>,
    /// The main line holds a null move (which the move list cannot hold).
    main_null: bool,
    /// The warning about moves after the automatic end was given.
    warned_after_end: bool,
    /// The index in `problems` of the game's first error, if any.
    first_error: Option<usize>,
    /// The main line hit an error: the outcome is `invalid`.
    main_line_broken: bool,
    /// Where the Result tag stands.
    result_tag_at: Location,
    /// Where the Termination tag stands.
    termination_at: Location,
    fen_tag: Option<String>,
    variant_tag: Option<String>,
    termination: Option<String>,
    result_tag: Option<String>,
    marker: Option<(GameResult, Location)>,
    /// Problems counted but not listed, past [`MAX_PROBLEMS`], and where the first of them is.
    unlisted: Option<(u64, Location)>,
    /// The warning about variations nested too deep was given.
    warned_too_deep: bool,
}

impl Replayer {
    /// A replayer with these options.
    pub fn new(options: ReplayOptions) -> Replayer {
        Replayer {
            options,
            report: GameReport::default(),
            lines: Vec::new(),
            skipped_depth: 0,
            history: Vec::new(),
            automatic_end: None,
            start: Position::startpos(),
            main_moves: Vec::new(),
            main_null: false,
            warned_after_end: false,
            first_error: None,
            main_line_broken: false,
            result_tag_at: Location(0),
            termination_at: Location(0),
            fen_tag: None,
            variant_tag: None,
            termination: None,
            result_tag: None,
            marker: None,
            unlisted: None,
            warned_too_deep: false,
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

    /// Records a problem with its code's severity (an error under `--strict`).
    fn problem(
        &mut self,
        location: Location,
        ply: Option<u32>,
        san: Option<&str>,
        code: Code,
        message: String,
    ) {
        let severity = if self.options.strict {
            Severity::Error
        } else {
            code.severity()
        };
        match severity {
            Severity::Error => self.report.errors += 1,
            Severity::Warning => self.report.warnings += 1,
        }
        // The first error is always listed: the report quotes it.
        let first_error = severity == Severity::Error && self.first_error.is_none();
        if first_error {
            self.first_error = Some(self.report.problems.len());
        }
        if self.report.problems.len() >= MAX_PROBLEMS && !first_error {
            let unlisted = self.unlisted.get_or_insert((0, location));
            unlisted.0 += 1;
            return;
        }
        self.report.problems.push(Problem {
            location,
            at: LineCol::default(),
            ply,
            san: san.map(|san| clip(san, MAX_SAN_CHARS)),
            severity,
            code,
            message: clip_owned(message, MAX_MESSAGE_CHARS),
        });
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
        if let Some(line) = self.lines.first_mut() {
            line.dead = true;
        }
        self.main_line_broken = true;
        self.problem(location, ply, san, code, message);
    }

    /// Records an error on the current line, and skips the rest of that line.
    fn line_error(&mut self, location: Location, ply: u32, san: &str, code: Code, message: String) {
        if self.lines.len() <= 1 {
            self.main_line_error(location, Some(ply), Some(san), code, message);
        } else {
            if let Some(line) = self.lines.last_mut() {
                line.dead = true;
            }
            self.problem(location, Some(ply), Some(san), code, message);
        }
    }

    /// Sets up the starting position from the tags.
    fn start(&mut self) {
        let at = Location(0);
        let chess960 = match self.variant_tag.as_deref().map(variant_kind) {
            None | Some(VariantKind::Standard) => false,
            Some(VariantKind::Chess960) => true,
            Some(VariantKind::Other) => {
                let variant = self.variant_tag.clone().unwrap_or_default();
                let message = format!(
                    "unsupported variant {variant}: only standard chess and Chess960 are played"
                );
                self.main_line_error(at, None, None, Code::UnsupportedVariant, message);
                return;
            }
        };
        let read = if chess960 {
            Position::from_fen_chess960
        } else {
            Position::from_fen
        };
        let mut pos = match self.fen_tag.as_deref() {
            None => Position::startpos(),
            Some(fen) => match read(fen) {
                Ok(pos) => pos,
                Err(err) => {
                    let message = format!("bad FEN tag \"{fen}\": {err}");
                    self.main_line_error(at, None, None, Code::BadFen, message);
                    return;
                }
            },
        };
        if chess960 {
            pos.set_chess960(true);
        }
        self.history.push(pos.zobrist());
        self.automatic_end = automatic_end_now(&pos).map(|outcome| (0, outcome));
        self.start.clone_from(&pos);
        self.lines.push(Line {
            before: pos.clone(),
            pos,
            ply: 0,
            last_move: None,
            in_check: None,
            dead: false,
            moved: false,
        });
    }

    /// The line moves are played on now, unless it is dead or skipped.
    fn live_line(&self) -> Option<usize> {
        if self.skipped_depth > 0 {
            return None;
        }
        let index = self.lines.len().checked_sub(1)?;
        (!self.lines[index].dead).then_some(index)
    }

    /// Plays one move written in SAN. The rare paths (a bad or illegal move, a non-standard form,
    /// a wrong check mark) live in cold functions of their own, so that the path every move takes
    /// stays short.
    fn play_text(&mut self, text: &str, location: Location) {
        let Some(index) = self.live_line() else {
            return;
        };
        let main = index == 0;
        let ply = self.lines[index].ply + 1;
        let parsed = match San::from_ascii(text.as_bytes()) {
            Ok(parsed) => parsed,
            Err(err) => return self.bad_san(text, location, ply, err),
        };
        if parsed.is_null() {
            self.play_null_move(text, location);
            return;
        }
        if main && self.automatic_end.is_some() {
            self.warn_after_end(text, location, ply);
        }
        let line = &self.lines[index];
        let Some(resolved) = parsed.try_resolve_knowing_check(&line.pos, line.in_check) else {
            return self.illegal_move(index, text, location, ply, parsed);
        };
        let mv = resolved.mv;
        if !resolved.leniency.is_empty() {
            self.warn_leniency(index, text, location, ply, resolved);
        }
        let line = &mut self.lines[index];
        // A variation starts from the position before the last move.
        line.before.clone_from(&line.pos);
        line.pos.play_unchecked(mv);
        line.last_move = Some(mv);
        line.ply = ply;
        line.moved = true;
        let written = parsed.suffix();
        let in_check = line.pos.is_check();
        line.in_check = Some(in_check);
        if written.is_some() || in_check {
            let actual = Suffix::knowing_check(&line.pos, in_check);
            if written != actual {
                self.warn_check_mark(index, text, location, ply, written, actual);
            }
        }
        if main {
            self.report.plies = ply;
            self.main_moves.push((mv, location));
            let material_changed = mv.is_capture() || mv.promotion().is_some();
            self.after_main_line_move(mv.is_zeroing(), material_changed);
        }
    }

    /// Text that is no move at all.
    #[cold]
    #[inline(never)]
    fn bad_san(&mut self, text: &str, location: Location, ply: u32, err: ParseSanError) {
        let message = format!("{text}: {err}");
        self.line_error(location, ply, text, Code::BadSan, message);
    }

    /// A move that is not legal on line `index` (the hot path resolved it without asking why).
    #[cold]
    #[inline(never)]
    fn illegal_move(&mut self, index: usize, text: &str, location: Location, ply: u32, san: San) {
        let line = &self.lines[index];
        let message = match (
            game_over(&line.pos),
            san.resolve_knowing_check(&line.pos, line.in_check),
        ) {
            (Some(over), _) => format!("{text}: the game is already over: {over}"),
            (None, Err(err)) => err.to_string(),
            // The same resolver, asked again for its explanation, cannot succeed this time.
            (None, Ok(_)) => unreachable!("{text} resolved only the second time"),
        };
        self.line_error(location, ply, text, Code::IllegalMove, message);
    }

    /// One warning per non-standard form of a legal move, before it is played on line `index`;
    /// an `e.p.` mark on a move that is no en passant capture is an error (the move still
    /// stands).
    #[cold]
    #[inline(never)]
    fn warn_leniency(
        &mut self,
        index: usize,
        text: &str,
        location: Location,
        ply: u32,
        resolved: Resolved,
    ) {
        let canonical = san::write(&self.lines[index].pos, resolved.mv);
        for form in resolved.leniency.iter() {
            if form == Leniency::EN_PASSANT_MARK && !resolved.mv.is_en_passant() {
                let message = format!(
                    "{text}: the e.p. mark follows a move that is not an en passant capture; \
                     the move is {canonical}"
                );
                self.problem(
                    location,
                    Some(ply),
                    Some(text),
                    Code::WrongEnPassantMark,
                    message,
                );
                continue;
            }
            let message = form.warning(text, canonical.as_str()).to_string();
            self.problem(
                location,
                Some(ply),
                Some(text),
                Code::NonStandardSan,
                message,
            );
        }
    }

    /// A check mark that does not match the position after the move just played on line
    /// `index`: the message names the move's standard form, the same as its other warnings do.
    #[cold]
    #[inline(never)]
    fn warn_check_mark(
        &mut self,
        index: usize,
        text: &str,
        location: Location,
        ply: u32,
        written: Option<Suffix>,
        actual: Option<Suffix>,
    ) {
        let line = &self.lines[index];
        let Some(mv) = line.last_move else {
            return;
        };
        let canonical = san::write(&line.before, mv);
        let message = suffix_message(text, written, actual, canonical.as_str());
        self.problem(
            location,
            Some(ply),
            Some(text),
            Code::WrongCheckMark,
            message,
        );
    }

    /// An `e.p.` written as a token of its own after a move: a warning after an en passant
    /// capture (the mark is not standard), an error after anything else.
    fn en_passant_mark(&mut self, location: Location) {
        let Some(index) = self.live_line() else {
            return;
        };
        let line = &self.lines[index];
        let ply = line.ply;
        let Some(mv) = line.last_move.filter(|_| line.moved) else {
            let message = "e.p.: an e.p. mark with no move before it".to_owned();
            self.problem(
                location,
                None,
                Some("e.p."),
                Code::WrongEnPassantMark,
                message,
            );
            return;
        };
        let canonical = san::write(&line.before, mv);
        if mv.is_en_passant() {
            let message = Leniency::EN_PASSANT_MARK
                .warning(&format!("{canonical} e.p."), canonical.as_str())
                .to_string();
            self.problem(
                location,
                Some(ply),
                Some("e.p."),
                Code::NonStandardSan,
                message,
            );
        } else {
            let message = format!(
                "e.p.: the e.p. mark follows {canonical}, which is not an en passant capture"
            );
            self.problem(
                location,
                Some(ply),
                Some("e.p."),
                Code::WrongEnPassantMark,
                message,
            );
        }
    }

    fn play_null_move(&mut self, text: &str, location: Location) {
        let Some(index) = self.live_line() else {
            return;
        };
        let line = &mut self.lines[index];
        let ply = line.ply + 1;
        line.before.clone_from(&line.pos);
        line.pos.play_null();
        line.last_move = None;
        line.in_check = None;
        line.ply = ply;
        line.moved = true;
        if index == 0 {
            self.report.plies = ply;
            self.main_null = true;
            self.problem(
                location,
                Some(ply),
                Some(text),
                Code::NullMove,
                format!(
                    "{text}: a null move in the main line passes the turn; it is not a legal move"
                ),
            );
            self.after_main_line_move(false, false);
        }
    }

    /// Warns once about moves played after the game ended automatically.
    #[cold]
    #[inline(never)]
    fn warn_after_end(&mut self, text: &str, location: Location, ply: u32) {
        if self.warned_after_end {
            return;
        }
        if let Some((end_ply, outcome)) = self.automatic_end {
            self.warned_after_end = true;
            let how = match outcome {
                Outcome::InsufficientMaterial => "insufficient material",
                Outcome::SeventyfiveMoves => "the 75-move rule",
                Outcome::FivefoldRepetition => "fivefold repetition",
                _ => outcome.as_str(),
            };
            let when = if end_ply == 0 {
                "in its starting position".to_owned()
            } else {
                format!("at ply {end_ply}")
            };
            self.problem(
                location,
                Some(ply),
                Some(text),
                Code::MoveAfterEnd,
                format!("{text}: the game already ended {when} by {how}; later moves do not count"),
            );
        }
    }

    /// After a main-line move: the key joins the history, and an automatic end is noted.
    /// Always inlined: it runs once per ply, and as a call it cost about 2% of the replay.
    #[inline(always)]
    fn after_main_line_move(&mut self, zeroing: bool, material_changed: bool) {
        // The history restarts after a capture or pawn move. A length to keep, chosen without a
        // branch: which moves zero the clock is a coin toss to the branch predictor.
        let keep = std::hint::select_unpredictable(zeroing, 0, self.history.len());
        self.history.truncate(keep);
        let pos = &self.lines[0].pos;
        self.history.push(pos.zobrist());
        // A position recurs at the earliest four plies later (each side must move away and
        // back), so a fifth occurrence needs sixteen plies without a capture or pawn move.
        if self.automatic_end.is_none()
            && (material_changed && pos.is_insufficient_material()
                || pos.halfmoves() >= 150
                || pos.halfmoves() >= 16 && repetitions(&self.history) >= 5)
        {
            self.note_automatic_end(material_changed);
        }
    }

    /// Records which automatic end the last main-line move brought, the first that applies.
    #[cold]
    #[inline(never)]
    fn note_automatic_end(&mut self, material_changed: bool) {
        let line = &self.lines[0];
        let pos = &line.pos;
        let outcome = if material_changed && pos.is_insufficient_material() {
            Outcome::InsufficientMaterial
        } else if pos.halfmoves() >= 150 {
            Outcome::SeventyfiveMoves
        } else {
            Outcome::FivefoldRepetition
        };
        self.automatic_end = Some((line.ply, outcome));
    }

    fn check_move_number(&mut self, number: u32, location: Location) {
        let Some(index) = self.live_line() else {
            return;
        };
        let line = &self.lines[index];
        let expected = line.pos.fullmoves();
        if number != expected {
            self.warn_move_number(number, expected, line.ply + 1, location);
        }
    }

    #[cold]
    #[inline(never)]
    fn warn_move_number(&mut self, number: u32, expected: u32, ply: u32, location: Location) {
        self.problem(
            location,
            Some(ply),
            None,
            Code::WrongMoveNumber,
            format!("move number {number} should be {expected}"),
        );
    }

    /// Classifies the game and locates its problems.
    fn finish(&mut self, game: &GameInfo<'_>) {
        if self.lines.is_empty() && !self.main_line_broken {
            // A game without movetext never reached `end_tags`.
            self.start();
        }
        if let Some((marker, location)) = self.marker {
            match self.result_tag.as_deref() {
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
        self.judge(declared);
        if let Some((count, location)) = self.unlisted.take() {
            // A note, not a problem of its own: the counts already hold the unlisted ones.
            self.report.problems.push(Problem {
                location,
                at: LineCol::default(),
                ply: None,
                san: None,
                severity: Severity::Warning,
                code: Code::ProblemsNotListed,
                message: format!(
                    "{count} more problems from here on are counted but not listed (at most \
                     {MAX_PROBLEMS} are listed per game)"
                ),
            });
        }
        for problem in &mut self.report.problems {
            problem.at = game.locate(problem.location);
        }
        let report = &mut self.report;
        report.main_line_valid = !self.main_line_broken;
        if let Some(index) = self.first_error {
            let problem = &report.problems[index];
            let error = &mut report.first_error;
            let _ = write!(error, "{}: ", problem.at);
            if let Some(ply) = problem.ply {
                let _ = write!(error, "ply {ply} ");
            }
            if let Some(san) = &problem.san {
                let _ = write!(error, "\"{san}\": ");
            }
            error.push_str(&problem.message);
        }
        if let Some(line) = self.lines.first() {
            report.final_fen.clear();
            line.pos.write_fen(&mut report.final_fen);
        }
    }

    /// Classifies the game and reports what the tags say against the board: the first automatic
    /// end of the main line decides, else its final position, else the tags.
    fn judge(&mut self, declared: GameResult) {
        let termination = self.termination.as_deref().map(|text| {
            let tags = &self.report.tags;
            termination::read(text, &tags.white, &tags.black)
        });
        let line = match self.lines.first() {
            Some(line) if !self.main_line_broken => line,
            _ => {
                self.report.classification = Some(outcome::classify_invalid(declared));
                return;
            }
        };
        let mut ended = self.automatic_end.filter(|&(ply, _)| ply < line.ply);
        let dead_at_end = ended.is_none() && dead::is_dead(&line.pos);
        if dead_at_end && !self.main_null {
            let moves: Vec<crate::rules::Move> =
                self.main_moves.iter().map(|&(mv, _)| mv).collect();
            let first = dead::first_dead_ply(&self.start, &moves);
            if first < line.ply {
                ended = Some((first, Outcome::DeadPosition));
                let (_, at) = self.main_moves[first as usize];
                let message = format!(
                    "the game already ended at ply {first} in a dead position (neither side can \
                     mate by any series of legal moves); later moves do not count"
                );
                self.problem(at, Some(first + 1), None, Code::MoveAfterEnd, message);
            }
        }
        let Some(line) = self.lines.first() else {
            return;
        };
        let classification = match ended {
            Some((ply, outcome)) => {
                self.report.end_ply = Some(ply);
                outcome::classify_ended(outcome, declared)
            }
            None => {
                let facts = self.final_facts(&line.pos, declared, dead_at_end);
                outcome::classify(&facts, declared, termination.as_ref())
            }
        };
        self.report.classification = Some(classification);
        let at = self.marker.map_or(self.result_tag_at, |(_, at)| at);
        let end_ply = ended.map(|(ply, _)| ply);
        if let Some(message) = outcome::contradiction(&classification, declared, end_ply) {
            self.problem(at, None, None, Code::ResultContradictsBoard, message);
        }
        let implied = termination.and_then(|t| t.implies);
        if let (Some(implied), Some(text)) = (implied, self.termination.as_deref())
            && declared != GameResult::Unknown
            && outcome::declared_winner(declared) != implied
        {
            let message = format!(
                "the Termination tag \"{text}\" says {}, but the Result is {}",
                winner_words(implied),
                declared.as_str()
            );
            self.problem(
                self.termination_at,
                None,
                None,
                Code::TerminationContradictsResult,
                message,
            );
        }
    }

    /// What the final position `pos` of the main line tells (`dead`: it is a proved dead
    /// position). The claims are looked at only for a drawn result, where they count.
    fn final_facts(&self, pos: &Position, declared: GameResult, dead: bool) -> BoardFacts {
        let stuck = !pos.has_legal_moves();
        let check = pos.is_check();
        let repetitions = repetitions(&self.history);
        let drawn = declared == GameResult::Draw;
        BoardFacts {
            checkmate: stuck && check,
            stalemate: stuck && !check,
            insufficient_material: pos.is_insufficient_material(),
            dead_position: dead,
            halfmove_clock: pos.halfmoves(),
            repetitions,
            fifty_claimable: drawn && !stuck && claims::fifty(pos),
            threefold_claimable: drawn && !stuck && claims::threefold(pos, &self.history),
            white_to_move: pos.turn() == Color::White,
            white_cannot_mate: dead::cannot_mate(pos, Color::White),
            black_cannot_mate: dead::cannot_mate(pos, Color::Black),
        }
    }
}

/// `White won`, `Black won`, `the game was drawn`.
fn winner_words(winner: outcome::Winner) -> &'static str {
    match winner {
        outcome::Winner::White => "White won",
        outcome::Winner::Black => "Black won",
        outcome::Winner::Draw => "the game was drawn",
        outcome::Winner::Unknown => "nothing about the result",
    }
}

/// Why no move can be played: `white is checkmated`, `the position is stalemate`.
fn game_over(pos: &Position) -> Option<String> {
    if pos.is_checkmate() {
        Some(format!("{} is checkmated", color_name(pos.turn())))
    } else if pos.is_stalemate() {
        Some(format!("{} is stalemated", color_name(pos.turn())))
    } else {
        None
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The warning for a check mark that does not match the position after the move, whose
/// standard form (with the right mark) is `standard`.
fn suffix_message(
    text: &str,
    written: Option<Suffix>,
    actual: Option<Suffix>,
    standard: &str,
) -> String {
    match actual {
        None => format!("{text}: the move gives no check; the standard form is {standard}"),
        Some(Suffix::Check) if written.is_none() => {
            format!("{text}: the move gives check; the standard form is {standard}")
        }
        Some(Suffix::Check) => {
            format!("{text}: the move gives check, not mate; the standard form is {standard}")
        }
        Some(Suffix::Checkmate) => {
            format!("{text}: the move gives checkmate; the standard form is {standard}")
        }
    }
}

/// How a `Variant` tag is played.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum VariantKind {
    Standard,
    Chess960,
    Other,
}

/// Reads a `Variant` tag: case, spaces and hyphens do not matter.
fn variant_kind(variant: &str) -> VariantKind {
    let key: String = variant
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "orthodox" => VariantKind::Standard,
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc" => {
            VariantKind::Chess960
        }
        _ => VariantKind::Other,
    }
}

/// Variations nested deeper than this are read but not replayed: each level holds two positions,
/// and a 64 MB game of `(d4 ` would need gigabytes. Real games nest a few levels.
const MAX_VARIATION_DEPTH: usize = 1_000;

/// At most this many problems are listed per game; the rest are counted. A 64 MB game of stray
/// `)` would otherwise hold 30 million problems (gigabytes) in memory.
const MAX_PROBLEMS: usize = 10_000;

/// At most this many characters of the move text go into a problem: a 50 MB "move" (a line of
/// garbage) must not become a 50 MB diagnostic.
const MAX_SAN_CHARS: usize = 32;
/// At most this many characters of a problem's message (which quotes the move or a tag value).
const MAX_MESSAGE_CHARS: usize = 512;

/// `text` cut to `max` characters, with `…` when something was cut.
fn clip(text: &str, max: usize) -> String {
    clip_owned(text.chars().take(max + 1).collect(), max)
}

/// Like [`clip`], in place.
fn clip_owned(mut text: String, max: usize) -> String {
    if let Some((end, _)) = text.char_indices().nth(max) {
        text.truncate(end);
        text.push('…');
    }
    text
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

impl Visitor for Replayer {
    type Output = ();

    fn begin_game(&mut self, game: &GameInfo<'_>) {
        let extra_count = self.options.extra_tags.len();
        let report = &mut self.report;
        report.index = game.index();
        let tags = &mut report.tags;
        for field in [
            &mut tags.event,
            &mut tags.site,
            &mut tags.date,
            &mut tags.round,
            &mut tags.white,
            &mut tags.black,
            &mut tags.result,
        ] {
            field.clear();
        }
        tags.extra.iter_mut().for_each(String::clear);
        tags.extra.resize(extra_count, String::new());
        report.plies = 0;
        report.final_fen.clear();
        report.main_line_valid = true;
        report.first_error.clear();
        report.end_ply = None;
        report.classification = None;
        report.problems.clear();
        report.errors = 0;
        report.warnings = 0;
        self.lines.clear();
        self.skipped_depth = 0;
        self.history.clear();
        self.automatic_end = None;
        self.main_moves.clear();
        self.main_null = false;
        self.warned_after_end = false;
        self.first_error = None;
        self.main_line_broken = false;
        self.result_tag_at = Location(0);
        self.termination_at = Location(0);
        self.unlisted = None;
        self.warned_too_deep = false;
        self.fen_tag = None;
        self.variant_tag = None;
        self.termination = None;
        self.result_tag = None;
        self.marker = None;
    }

    fn tag(&mut self, name: &str, value: &str, location: Location) {
        let tags = &mut self.report.tags;
        let field = match name {
            "Event" => Some(&mut tags.event),
            "Site" => Some(&mut tags.site),
            "Date" => Some(&mut tags.date),
            "Round" => Some(&mut tags.round),
            "White" => Some(&mut tags.white),
            "Black" => Some(&mut tags.black),
            "Result" => {
                self.result_tag = Some(value.to_owned());
                self.result_tag_at = location;
                Some(&mut tags.result)
            }
            "FEN" => {
                self.fen_tag = Some(value.to_owned());
                None
            }
            "Variant" => {
                self.variant_tag = Some(value.to_owned());
                None
            }
            "Termination" => {
                self.termination = Some(value.to_owned());
                self.termination_at = location;
                None
            }
            _ => None,
        };
        if let Some(field) = field {
            field.clear();
            field.push_str(value);
        }
        for (wanted, slot) in self.options.extra_tags.iter().zip(&mut tags.extra) {
            if wanted == name {
                slot.clear();
                slot.push_str(value);
            }
        }
    }

    fn end_tags(&mut self) -> Flow {
        self.start();
        Flow::Continue
    }

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

    fn wants_comments(&self) -> bool {
        false
    }

    /// `begin_game` resets every per-game field.
    fn one_pass(&self) -> bool {
        true
    }

    fn begin_variation(&mut self, location: Location) -> Flow {
        let too_deep = self.lines.len() > MAX_VARIATION_DEPTH;
        let walk = self
            .live_line()
            .map(|index| &self.lines[index])
            .filter(|line| line.moved);
        match walk {
            Some(_) if too_deep => {
                self.skipped_depth += 1;
                if !self.warned_too_deep {
                    self.warned_too_deep = true;
                    let message = format!(
                        "variations nested deeper than {MAX_VARIATION_DEPTH} levels are not replayed"
                    );
                    self.problem(location, None, None, Code::DeepVariation, message);
                }
            }
            Some(parent) => {
                let line = Line {
                    pos: parent.before.clone(),
                    before: parent.before.clone(),
                    ply: parent.ply - 1,
                    last_move: None,
                    in_check: None,
                    dead: false,
                    moved: false,
                };
                self.lines.push(line);
            }
            None => self.skipped_depth += 1,
        }
        Flow::Continue
    }

    fn end_variation(&mut self, _location: Location) {
        if self.skipped_depth > 0 {
            self.skipped_depth -= 1;
        } else if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    fn result(&mut self, result: GameResult, location: Location) {
        self.marker = Some((result, location));
    }

    fn error(&mut self, error: PgnError) {
        let ply = self.lines.last().map(|line| line.ply + 1);
        let code = pgn_code(&error);
        if breaks_main_line(&error, self.lines.len() <= 1 && self.skipped_depth == 0) {
            self.main_line_error(error.location, ply, None, code, error.message);
        } else {
            self.problem(error.location, ply, None, code, error.message);
        }
    }

    fn end_game(&mut self, game: &GameInfo<'_>) {
        self.finish(game);
    }
}

/// Whether a reader defect breaks the main line, so that its outcome is `invalid`: it cost the
/// main line some of its moves, or (`in_main_line`) it is junk among the main line's moves. Other
/// defects (a broken tag, a bad NAG, junk in a variation or after the result) make the game
/// invalid, but the main line replays as written and keeps its outcome.
fn breaks_main_line(error: &PgnError, in_main_line: bool) -> bool {
    use crate::pgn::PgnErrorKind as K;
    match error.kind {
        K::UnterminatedComment | K::UnclosedVariation | K::GameTooLarge => true,
        K::UnexpectedText => in_main_line,
        _ => false,
    }
}

/// A stable code for each kind of reader defect.
fn pgn_code(error: &PgnError) -> Code {
    use crate::pgn::PgnErrorKind as K;
    match error.kind {
        K::NotUtf8 => Code::NotUtf8,
        K::NoResult => Code::NoResult,
        K::BrokenTag => Code::BrokenTag,
        K::UnterminatedComment => Code::UnterminatedComment,
        K::UnclosedVariation => Code::UnclosedVariation,
        K::UnopenedVariation => Code::UnopenedVariation,
        K::ResultInVariation => Code::ResultInVariation,
        K::TextAfterResult => Code::TextAfterResult,
        K::BadNag => Code::BadNag,
        K::BadMoveNumber => Code::BadMoveNumber,
        K::UnexpectedText => Code::UnexpectedText,
        K::GameTooLarge => Code::GameTooLarge,
    }
}
