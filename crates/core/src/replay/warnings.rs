//! The problems a replay finds along the way, in plain words: a token that is no move, an
//! illegal move (with why), a non-standard form of a legal move, a wrong check mark or `e.p.`
//! mark, a wrong move number, moves after the game ended; and which code each reader defect gets.
//! These are the rare paths: cold functions of their own, so that the path every move takes stays
//! short.

use arbiter_pgn::{Location, PgnError};
use arbiter_rules::san::{self, Leniency, ParseSanError, Resolved, San, Suffix};
use arbiter_rules::{Color, Position};

use crate::outcome::Outcome;
use crate::problem::Code;
use crate::replay::Replayer;

impl Replayer {
    /// Text that is no move at all.
    #[cold]
    #[inline(never)]
    pub(super) fn bad_san(&mut self, text: &str, location: Location, ply: u32, err: ParseSanError) {
        let message = format!("{text}: {err}");
        self.line_error(location, ply, text, Code::BadSan, message);
    }

    /// A move that is not legal on line `index` (the hot path resolved it without asking why).
    #[cold]
    #[inline(never)]
    pub(super) fn illegal_move(
        &mut self,
        index: usize,
        text: &str,
        location: Location,
        ply: u32,
        san: San,
    ) {
        let line = &self.stack.lines[index];
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
    pub(super) fn warn_leniency(
        &mut self,
        index: usize,
        text: &str,
        location: Location,
        ply: u32,
        resolved: Resolved,
    ) {
        let canonical = san::write(&self.stack.lines[index].pos, resolved.mv);
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
    pub(super) fn warn_check_mark(
        &mut self,
        index: usize,
        text: &str,
        location: Location,
        ply: u32,
        written: Option<Suffix>,
        actual: Option<Suffix>,
    ) {
        let line = &self.stack.lines[index];
        let Some(mv) = line.last_move else {
            return;
        };
        let canonical = san::write(&line.before(), mv);
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
    pub(super) fn en_passant_mark(&mut self, location: Location) {
        let Some(index) = self.stack.live() else {
            return;
        };
        let line = &self.stack.lines[index];
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
        let canonical = san::write(&line.before(), mv);
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

    /// Warns once about moves played after the game ended automatically.
    #[cold]
    #[inline(never)]
    pub(super) fn warn_after_end(&mut self, text: &str, location: Location, ply: u32) {
        if let Some(end) = self.stack.automatic_end {
            self.warn_after_end_at(text, location, ply, end);
        }
    }

    /// Warns once about moves played after the game ended at `end` (its ply and how).
    fn warn_after_end_at(
        &mut self,
        text: &str,
        location: Location,
        ply: u32,
        (end_ply, outcome): (u32, Outcome),
    ) {
        if self.warned_after_end {
            return;
        }
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

    /// A null move on the main line where the side to move has no legal move: the game ended
    /// at the ply before, by checkmate or stalemate (unless an automatic end came first). The
    /// null move is not played, and the main line stops: passing the turn out of a checkmate
    /// would let the king be taken.
    #[cold]
    #[inline(never)]
    pub(super) fn null_move_after_mate_or_stalemate(
        &mut self,
        text: &str,
        location: Location,
        ply: u32,
    ) {
        let line = &mut self.stack.lines[0];
        line.dead = true;
        self.notes.disarm();
        self.stack.stopped_at_end = true;
        let outcome = if line.pos.is_check() {
            Outcome::Checkmate
        } else {
            Outcome::Stalemate
        };
        let end = self.stack.automatic_end.unwrap_or((line.ply, outcome));
        self.warn_after_end_at(text, location, ply, end);
    }

    #[cold]
    #[inline(never)]
    pub(super) fn warn_move_number(
        &mut self,
        number: u32,
        expected: u32,
        ply: u32,
        location: Location,
    ) {
        self.problem(
            location,
            Some(ply),
            None,
            Code::WrongMoveNumber,
            format!("move number {number} should be {expected}"),
        );
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

/// Whether a reader defect breaks the main line, so that its outcome is `invalid`: it cost the
/// main line some of its moves, or (`in_main_line`) it is junk among the main line's moves. Other
/// defects (a broken tag, a bad NAG, junk in a variation or after the result) make the game
/// invalid, but the main line replays as written and keeps its outcome.
pub(super) fn breaks_main_line(error: &PgnError, in_main_line: bool) -> bool {
    use arbiter_pgn::PgnErrorKind as K;
    match error.kind {
        K::UnterminatedComment | K::UnclosedVariation | K::GameTooLarge => true,
        K::UnexpectedText => in_main_line,
        _ => false,
    }
}
