//! What `select` does with each game once it is replayed, on the worker that replayed it: test it
//! against `--where` and `--position`, name its opening, fix its result where the board decides,
//! write it as clean PGN (or as it was), and compute its dedup key; the verdict goes on as a
//! [`Frame`] for the [`Router`](super::route::Router) to act on in input order.
//!
//! `--where` tests the game's export record ([`RecordFields`](super::fields::RecordFields)): the
//! same fields, with the same values, as `export` writes.

use arbiter_core::outcome::{Outcome, Winner};
use arbiter_core::replay::GameReport;
use arbiter_pgn::GameResult;
use arbiter_report::output::{GameFormatter, GameNumber, Output};
use arbiter_report::pgn_writer::write_game;

use super::dedup::key;
use super::frame::{Frame, Warning};
use super::plan::SelectPlan;

/// Makes each game's verdict (a frame for the [`Router`](super::Router)); one per worker, reusing its buffers.
pub struct Chooser<'a> {
    plan: &'a SelectPlan,
    key: Vec<u8>,
    place: String,
    message: String,
}

impl<'a> Chooser<'a> {
    /// A chooser doing what `plan` asks.
    pub fn new(plan: &'a SelectPlan) -> Chooser<'a> {
        Chooser {
            plan,
            key: Vec::new(),
            place: String::new(),
            message: String::new(),
        }
    }
}

/// The result the board decides, when it decides one: mate, stalemate, insufficient material,
/// a dead position, fivefold repetition, the 75-move rule, and the draw of a flag fall against
/// a side that cannot mate (Law 6.9).
fn board_result(report: &GameReport) -> Option<GameResult> {
    let judged = report.classification?;
    let decided = matches!(
        judged.outcome,
        Outcome::Checkmate
            | Outcome::Stalemate
            | Outcome::InsufficientMaterial
            | Outcome::DeadPosition
            | Outcome::FivefoldRepetition
            | Outcome::SeventyfiveMoves
    ) || judged.unwinnable_flag_fall.is_some();
    match judged.winner {
        _ if !decided => None,
        Winner::White => Some(GameResult::WhiteWins),
        Winner::Black => Some(GameResult::BlackWins),
        Winner::Draw => Some(GameResult::Draw),
        Winner::Unknown => None,
    }
}

/// How the board's end is named in a warning.
fn named(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Checkmate => "checkmate",
        Outcome::Stalemate => "stalemate",
        Outcome::InsufficientMaterial => "insufficient material",
        Outcome::DeadPosition => "a dead position",
        Outcome::FivefoldRepetition => "fivefold repetition",
        Outcome::SeventyfiveMoves => "the 75-move rule",
        Outcome::TimeForfeit => "a flag fall against a side that cannot mate (Law 6.9)",
        other => other.as_str(),
    }
}

/// Appends `bytes` and ends them with a blank line (a line end, then an empty line), unless
/// they end so already: a game written as it was is kept apart from the next.
pub fn with_blank_line(bytes: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(bytes);
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let body = &out[..out.len() - 1];
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    if !body.is_empty() && !body.ends_with(b"\n") {
        out.push(b'\n');
    }
}

impl GameFormatter for Chooser<'_> {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let plan = self.plan;
        let options = &plan.options;
        let tree = &report.tree;
        let invalid = report.errors > 0;
        // The tags' test at their end gave the answer already when the tags alone decide.
        let passes = report
            .tags_passed
            .unwrap_or_else(|| plan.keep.keeps(source, number, report));
        let original: &[u8] = if options.keep_source {
            &report.source
        } else {
            &[]
        };
        if !passes {
            let frame = Frame {
                rejected: true,
                invalid,
                source: original,
                ..Frame::default()
            };
            frame.write(out.bytes_mut());
            return;
        }
        let declared = tree.declared_result();
        let fixed = board_result(report)
            .filter(|&board| options.fix_result && !invalid && declared != Some(board));
        let Some(result) = fixed
            .or(declared)
            .filter(|_| !invalid && tree.is_complete())
        else {
            let frame = Frame {
                invalid,
                unchanged: true,
                ..Frame::default()
            };
            frame.write_with(out.bytes_mut(), |out| with_blank_line(&report.source, out));
            return;
        };
        let opening = options
            .eco
            .then_some(report.opening)
            .flatten()
            .map(|o| (o.eco, o.name));
        self.key.clear();
        if let Some(mode) = options.dedup {
            key(tree, mode, result.as_str(), &mut self.key);
        }
        let warning = match (fixed, report.classification) {
            (Some(fixed), Some(judged)) => {
                self.place = format!("{source}:{}", report.result_at);
                let old = tree.tag_value("Result").unwrap_or("");
                self.message = format!(
                    "Result \"{old}\" replaced by \"{}\": the board shows {}",
                    fixed.as_str(),
                    named(judged.outcome)
                );
                Some(Warning {
                    number,
                    place: &self.place,
                    message: &self.message,
                })
            }
            _ => None,
        };
        let frame = Frame {
            fixed: fixed.is_some(),
            source: if options.dedup.is_some() {
                original
            } else {
                &[]
            },
            key: options.dedup.map(|_| &self.key[..]),
            warning,
            ..Frame::default()
        };
        frame.write_with(out.bytes_mut(), |out| {
            write_game(tree, result, opening, &options.write, out)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_written_as_it_was_ends_with_one_blank_line() {
        for (bytes, expected) in [
            (&b"1. e4 *"[..], &b"1. e4 *\n\n"[..]),
            (b"1. e4 *\n", b"1. e4 *\n\n"),
            (b"1. e4 *\n\n", b"1. e4 *\n\n"),
            (b"1. e4 *\n\n\n", b"1. e4 *\n\n\n"),
            (b"1. e4 *\r\n", b"1. e4 *\r\n\n"),
            (b"1. e4 *\r\n\r\n", b"1. e4 *\r\n\r\n"),
            (b"", b"\n"),
        ] {
            let mut out = Vec::new();
            with_blank_line(bytes, &mut out);
            assert_eq!(out, expected, "{:?}", String::from_utf8_lossy(bytes));
            // Twice is once.
            let mut again = Vec::new();
            with_blank_line(&out, &mut again);
            assert_eq!(again, out);
        }
    }
}
