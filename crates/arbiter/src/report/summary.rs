//! What a run of games counted ([`Totals`]), and `validate`'s summary of it: one line of text and
//! the count per code, or one JSON object.

use std::io::{self, Write};
use std::time::Duration;

use crate::problem::CodeCounts;
use crate::replay::GameReport;
use crate::report::diagnostic::DiagnosticFormat;

/// The counts of a run, or of a part of one: its games, their plies, problems and codes, and the
/// inputs that could not be read.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Totals {
    /// Games read.
    pub games: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Games with no error.
    pub valid: u64,
    /// Games with an error.
    pub invalid: u64,
    /// Warnings.
    pub warnings: u64,
    /// Inputs that could not be opened, or read to their end (a corrupt compressed stream, say).
    pub input_errors: u64,
    /// The problems listed, per code.
    pub codes: CodeCounts,
}

impl Totals {
    /// Counts one game.
    pub fn count(&mut self, report: &GameReport) {
        self.games += 1;
        self.plies += u64::from(report.plies);
        if report.errors == 0 {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.warnings += u64::from(report.warnings);
        self.codes.add_all(&report.codes);
    }

    /// Adds every count of `other`.
    pub fn add(&mut self, other: &Totals) {
        self.games += other.games;
        self.plies += other.plies;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.input_errors += other.input_errors;
        self.codes.add_all(&other.codes);
    }

    /// Writes `validate`'s summary of a run that took `elapsed`: in text, `N games, P plies: V
    /// valid, I invalid, W warnings[, E input errors] in S s (R games/s)` and, when any problem
    /// was listed, `by code: CODE N, ...`; in JSON Lines, one `{"type":"summary",...}` object.
    pub fn write_summary(
        &self,
        format: DiagnosticFormat,
        elapsed: Duration,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let elapsed = elapsed.as_secs_f64();
        let rate = if elapsed > 0.0 {
            self.games as f64 / elapsed
        } else {
            0.0
        };
        match format {
            DiagnosticFormat::Text => {
                writeln!(
                    out,
                    "{} games, {} plies: {} valid, {} invalid, {} warnings{} in {elapsed:.3} s ({rate:.0} games/s)",
                    self.games,
                    self.plies,
                    self.valid,
                    self.invalid,
                    self.warnings,
                    if self.input_errors > 0 {
                        format!(", {} input errors", self.input_errors)
                    } else {
                        String::new()
                    },
                )?;
                let by_code: Vec<String> = self
                    .codes
                    .seen()
                    .map(|(code, n)| format!("{code} {n}"))
                    .collect();
                if !by_code.is_empty() {
                    writeln!(out, "by code: {}", by_code.join(", "))?;
                }
            }
            DiagnosticFormat::Jsonl => {
                let by_code: serde_json::Map<String, serde_json::Value> = self
                    .codes
                    .seen()
                    .map(|(code, n)| (code.as_str().to_owned(), n.into()))
                    .collect();
                let summary = serde_json::json!({
                    "type": "summary",
                    "games": self.games,
                    "plies": self.plies,
                    "valid": self.valid,
                    "invalid": self.invalid,
                    "warnings": self.warnings,
                    "input_errors": self.input_errors,
                    "codes": by_code,
                    "elapsed_seconds": elapsed,
                    "games_per_second": rate,
                });
                serde_json::to_writer(&mut *out, &summary)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Code;
    use crate::{Games, ReplayOptions};

    /// The totals of the games of `pgn`.
    fn totals(pgn: &str) -> Totals {
        let mut totals = Totals::default();
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), ReplayOptions::default());
        while let Some(game) = games.next_game() {
            totals.count(game.expect("no read error"));
        }
        totals
    }

    #[test]
    fn the_text_summary_counts_games_plies_problems_and_codes() {
        let mut totals = totals("1. e4 e5 2. Nf3 1-0\n\n1. e4 e5 2. Ke3 0-1\n\n1. 0-0 *\n");
        totals.input_errors = 2;
        let mut out = Vec::new();
        totals
            .write_summary(DiagnosticFormat::Text, Duration::from_secs(2), &mut out)
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3 games, 5 plies: 1 valid, 2 invalid, 0 warnings, 2 input errors in 2.000 s (2 games/s)\n\
             by code: illegal_move 2\n"
        );
        assert_eq!(
            totals.codes.seen().collect::<Vec<_>>(),
            [(Code::IllegalMove, 2)]
        );
    }

    #[test]
    fn the_json_summary_is_one_object_with_its_codes() {
        let totals = totals("1. e4 e5 2. Ke3 0-1\n");
        let mut out = Vec::new();
        totals
            .write_summary(DiagnosticFormat::Jsonl, Duration::from_secs(1), &mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("}\n") && text.lines().count() == 1, "{text}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["type"], "summary");
        assert_eq!(
            (value["games"].as_u64(), value["invalid"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(value["codes"], serde_json::json!({"illegal_move": 1}));
        assert_eq!(value["games_per_second"], 1.0);
    }

    #[test]
    fn totals_add_up() {
        let (a, b) = (totals("1. e4 e5 1-0\n"), totals("1. e4 e5 2. Ke3 0-1\n"));
        let mut sum = a.clone();
        sum.add(&b);
        assert_eq!(sum, totals("1. e4 e5 1-0\n\n1. e4 e5 2. Ke3 0-1\n"));
    }
}
