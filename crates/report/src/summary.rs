//! What a run of games counted ([`Totals`]), and `validate`'s summary of it: in text, a line per
//! input when there are several, the line of the whole run and the counts per code, errors and
//! warnings apart; in JSON Lines, one object.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use arbiter_core::problem::{Code, CodeCounts, Problem, Severity};
use arbiter_core::replay::GameReport;
use arbiter_core::text::counted;
use arbiter_io::input::InputDigest;
use arbiter_pgn::{LineCol, Location, PgnErrorKind};

use crate::diagnostic::{Diagnostic, DiagnosticFormat, GameNames, is_not_utf8_warning};
use crate::output::{GameNumber, Output};

/// The counts of a run, of a part of one, or of one input: its games, their plies and problems.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Counts {
    /// Games read.
    pub games: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Games with no error.
    pub valid: u64,
    /// Games with an error.
    pub invalid: u64,
    /// Errors (with the warnings the run denied: `--strict`, `--deny`).
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
}

impl Counts {
    /// Counts one game.
    pub fn count(&mut self, report: &GameReport) {
        self.games += 1;
        self.plies += u64::from(report.plies);
        if report.errors == 0 {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.errors += u64::from(report.errors);
        self.warnings += u64::from(report.warnings);
    }

    /// Adds `other`.
    pub fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.plies += other.plies;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.errors += other.errors;
        self.warnings += other.warnings;
    }

    /// `N games, P plies: V valid, I invalid; E errors, W warnings`.
    fn text(&self) -> String {
        format!(
            "{}, {}: {} valid, {} invalid; {}, {}",
            counted(self.games, "game"),
            if self.plies == 1 {
                "1 ply".to_owned()
            } else {
                format!("{} plies", self.plies)
            },
            self.valid,
            self.invalid,
            counted(self.errors, "error"),
            counted(self.warnings, "warning"),
        )
    }

    /// The counts as the fields of a JSON object, by their names.
    fn json(&self, object: &mut serde_json::Map<String, serde_json::Value>) {
        for (name, n) in [
            ("games", self.games),
            ("plies", self.plies),
            ("valid", self.valid),
            ("invalid", self.invalid),
            ("errors", self.errors),
            ("warnings", self.warnings),
        ] {
            object.insert(name.to_owned(), n.into());
        }
    }
}

/// The counts of a run, or of a part of one: its games, their plies, problems and codes, and the
/// inputs that could not be read.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Totals {
    /// Games, plies, valid and invalid games, errors and warnings.
    pub counts: Counts,
    /// Inputs that could not be opened, or read to their end (a corrupt compressed stream, say).
    pub input_errors: u64,
    /// The problems, listed or not, per code and severity.
    pub codes: CodeCounts,
    /// Each input opened, in input order, with its own counts (filled in by the pipeline at the
    /// end of a run; [`Totals::add`] leaves it alone).
    pub inputs: Vec<InputTotals>,
    /// Each input that could not be opened, as named (likewise).
    pub unopened: Vec<String>,
    /// The games with a `not_utf8` warning.
    pub not_utf8: NotUtf8,
}

/// The games read as Windows-1252 with a `not_utf8` warning, which `validate` lists once per
/// input rather than once per game: how many, and the first.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct NotUtf8 {
    /// How many games.
    pub games: u64,
    /// The first of them.
    pub first: Option<FirstGame>,
}

/// The first game of a count, and where its problem stands.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct FirstGame {
    /// The games counted before it, in the counts it belongs to (in an [`InputTotals`], its
    /// number in its input is this plus 1).
    pub before: u64,
    /// Where the game's first byte stands in its (decompressed) input, from 0.
    pub offset: u64,
    /// Where its problem stands.
    pub at: LineCol,
}

impl NotUtf8 {
    /// Adds `other`, which counts games after the `before` games of these counts.
    fn add(&mut self, other: &NotUtf8, before: u64) {
        self.games += other.games;
        if self.first.is_none() {
            self.first = other.first.map(|first| FirstGame {
                before: before + first.before,
                ..first
            });
        }
    }
}

/// The counts of one input of a run.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct InputTotals {
    /// The input's name: the path as found, or `<stdin>`.
    pub name: Arc<str>,
    /// Games, plies, valid and invalid games, errors and warnings.
    pub counts: Counts,
    /// The input could not be read to its end.
    pub failed: bool,
    /// Its games with a `not_utf8` warning.
    pub not_utf8: NotUtf8,
    /// The count and SHA-256 of its bytes as read, when the run asked for them
    /// ([`Destination::digests`](crate::output::Destination::digests)) and the input was
    /// read whole from its start.
    pub digest: Option<InputDigest>,
}

impl InputTotals {
    /// Adds the games and problems of `totals` (a batch of this input's games, after those
    /// counted so far).
    pub fn add(&mut self, totals: &Totals) {
        self.not_utf8.add(&totals.not_utf8, self.counts.games);
        self.counts.add(&totals.counts);
        self.failed |= totals.input_errors > 0;
    }
}

impl Totals {
    /// The inputs not read whole: those that could not be opened, then those that failed on the
    /// way (a corrupt or truncated compressed stream), in input order within each.
    pub fn unread(&self) -> impl Iterator<Item = &str> {
        let failed = self.inputs.iter().filter(|input| input.failed);
        (self.unopened.iter().map(String::as_str)).chain(failed.map(|input| &*input.name))
    }

    /// Counts one game.
    pub fn count(&mut self, report: &GameReport) {
        if let Some(problem) = report.problems.iter().find(|p| is_not_utf8_warning(p)) {
            let game = NotUtf8 {
                games: 1,
                first: Some(FirstGame {
                    before: 0,
                    offset: report.offset,
                    at: problem.at,
                }),
            };
            self.not_utf8.add(&game, self.counts.games);
        }
        self.counts.count(report);
        // Counts by code only where a problem is listed (every counted one leaves one listed).
        if !report.problems.is_empty() {
            self.codes.add_all(&report.codes);
        }
    }

    /// Adds every count of `other` (not its [`Totals::inputs`]), which counts games after these.
    pub fn add(&mut self, other: &Totals) {
        self.not_utf8.add(&other.not_utf8, self.counts.games);
        self.counts.add(&other.counts);
        self.input_errors += other.input_errors;
        self.codes.add_all(&other.codes);
    }

    /// Writes, for each input whose games were read as Windows-1252, its one `not_utf8`
    /// warning: at its first such game, with how many there were (`validate` lists none per
    /// game). Its lines count from each game's first line when `lines_per_game` (`--range`).
    pub fn write_not_utf8(
        &self,
        format: DiagnosticFormat,
        lines_per_game: bool,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut output = Output::default();
        let mut text = String::new();
        for input in &self.inputs {
            let Some(first) = input.not_utf8.first else {
                continue;
            };
            let message = match input.not_utf8.games {
                1 => "the game is not valid UTF-8; read as Windows-1252 (the only such game of \
                      this input)"
                    .to_owned(),
                n => format!(
                    "{n} games of this input are not valid UTF-8 and were read as \
                     Windows-1252; this is the first"
                ),
            };
            let problem = Problem::of_game(
                Location(0),
                first.at,
                Severity::Warning,
                Code::Reader(PgnErrorKind::NotUtf8),
                message,
            );
            let diagnostic = Diagnostic {
                path: &input.name,
                // A diagnostic names a game by its number in its input only.
                game: GameNumber::Known {
                    run: 0,
                    input: first.before + 1,
                },
                // The warning is the input's.
                names: GameNames::default(),
                offset: first.offset,
                lines_per_game,
                problem: &problem,
            };
            match format {
                DiagnosticFormat::Text => diagnostic.write_text(&mut text, &mut output),
                DiagnosticFormat::Jsonl => diagnostic.write_jsonl(&mut output),
            }
        }
        out.write_all(output.bytes())
    }

    /// Writes `validate`'s summary of a run that took `elapsed`. In text: when the run read
    /// more than one input, `NAME: N games, P plies: V valid, I invalid; E errors, W warnings`
    /// for each (`; not read to its end` after one that failed); then `N games, P plies: V valid,
    /// I invalid; E errors, W warnings[, K input errors] in S s (R games/s)`, and when any
    /// problem was counted, `errors by code: CODE N, ...` and `warnings by code: CODE N, ...`.
    /// In JSON Lines, one `{"type":"summary",...}` object, with `"inputs"` (one object per input
    /// opened) and the counts per code: all (`"codes"`), errors and warnings
    /// (`"codes_by_severity"`).
    pub fn write_summary(
        &self,
        format: DiagnosticFormat,
        elapsed: Duration,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let elapsed = elapsed.as_secs_f64();
        let rate = if elapsed > 0.0 {
            self.counts.games as f64 / elapsed
        } else {
            0.0
        };
        let by_severity = |severity| {
            self.codes
                .seen_as(severity)
                .map(|(code, n)| (code.as_str().to_owned(), n.into()))
                .collect::<serde_json::Map<String, serde_json::Value>>()
        };
        match format {
            DiagnosticFormat::Text => {
                if self.inputs.len() > 1 {
                    for input in &self.inputs {
                        writeln!(
                            out,
                            "{}: {}{}",
                            arbiter_core::text::escape_controls(&input.name),
                            input.counts.text(),
                            if input.failed {
                                "; not read to its end"
                            } else {
                                ""
                            },
                        )?;
                    }
                }
                writeln!(
                    out,
                    "{}{} in {elapsed:.3} s ({rate:.0} games/s)",
                    self.counts.text(),
                    if self.input_errors > 0 {
                        format!(", {}", counted(self.input_errors, "input error"))
                    } else {
                        String::new()
                    },
                )?;
                for (severity, label) in [
                    (Severity::Error, "errors by code"),
                    (Severity::Warning, "warnings by code"),
                ] {
                    let by_code: Vec<String> = self
                        .codes
                        .seen_as(severity)
                        .map(|(code, n)| format!("{code} {n}"))
                        .collect();
                    if !by_code.is_empty() {
                        writeln!(out, "{label}: {}", by_code.join(", "))?;
                    }
                }
            }
            DiagnosticFormat::Jsonl => {
                let by_code: serde_json::Map<String, serde_json::Value> = self
                    .codes
                    .seen()
                    .map(|(code, n)| (code.as_str().to_owned(), n.into()))
                    .collect();
                let inputs: Vec<serde_json::Value> = self
                    .inputs
                    .iter()
                    .map(|input| {
                        let mut object = serde_json::Map::new();
                        object.insert("file".to_owned(), (*input.name).into());
                        input.counts.json(&mut object);
                        object.insert("read_to_end".to_owned(), (!input.failed).into());
                        serde_json::Value::Object(object)
                    })
                    .collect();
                let mut summary = serde_json::json!({
                    "type": "summary",
                    "input_errors": self.input_errors,
                    "codes": by_code,
                    "codes_by_severity": {
                        "error": by_severity(Severity::Error),
                        "warning": by_severity(Severity::Warning),
                    },
                    "inputs": inputs,
                    "elapsed_seconds": elapsed,
                    "games_per_second": rate,
                });
                if let serde_json::Value::Object(object) = &mut summary {
                    self.counts.json(object);
                }
                serde_json::to_writer(&mut *out, &summary)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use arbiter_core::games::Games;
    use arbiter_core::problem::{Code, Severities};
    use arbiter_core::replay::ReplayOptions;

    use super::*;

    /// The totals of the games of `pgn`.
    fn totals(pgn: &str) -> Totals {
        let mut totals = Totals::default();
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), ReplayOptions::default());
        while let Some(game) = games.next_game() {
            totals.count(game.expect("no read error"));
        }
        totals
    }

    /// The text summary of `totals`.
    fn text(totals: &Totals) -> String {
        let mut out = Vec::new();
        totals
            .write_summary(DiagnosticFormat::Text, Duration::from_secs(2), &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_text_summary_counts_errors_and_warnings_apart() {
        let mut totals = totals(
            "1. e4 e5 2. Nf3 1-0\n\n1. e4 e5 2. Ke3 0-1\n\n1. 0-0 *\n\n1. e4 e5 2. Nf3+ *\n",
        );
        totals.input_errors = 2;
        assert_eq!(
            text(&totals),
            "4 games, 8 plies: 2 valid, 2 invalid; 2 errors, 1 warning, 2 input errors in 2.000 s (2 games/s)\n\
             errors by code: illegal_move 2\n\
             warnings by code: wrong_check_mark 1\n"
        );
        assert_eq!(
            totals.codes.seen().collect::<Vec<_>>(),
            [(Code::IllegalMove, 2), (Code::WrongCheckMark, 1)]
        );
    }

    #[test]
    fn one_of_each_is_singular() {
        let mut totals = totals("1. e4 e5 2. Ke3 0-1\n");
        totals.input_errors = 1;
        assert!(
            text(&totals).starts_with(
                "1 game, 2 plies: 0 valid, 1 invalid; 1 error, 0 warnings, 1 input error in"
            ),
            "{}",
            text(&totals)
        );
        assert!(text(&self::totals("1. e4 *\n")).starts_with("1 game, 1 ply:"));
    }

    #[test]
    fn under_strict_a_warning_code_is_counted_as_an_error() {
        let options = ReplayOptions {
            severities: Severities::strict(),
            ..ReplayOptions::default()
        };
        let mut strict = Totals::default();
        let pgn = "1. e4 e5 2. Nf3+ *\n";
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), options);
        while let Some(game) = games.next_game() {
            strict.count(game.expect("no read error"));
        }
        assert!(
            text(&strict).ends_with(
                "; 1 error, 0 warnings in 2.000 s (0 games/s)\nerrors by code: wrong_check_mark 1\n"
            ),
            "{}",
            text(&strict)
        );
    }

    #[test]
    fn several_inputs_get_a_line_each() {
        let (a, b) = (totals("1. e4 e5 1-0\n"), totals("1. e4 e5 2. Ke3 0-1\n"));
        let mut sum = Totals::default();
        for (name, part, failed) in [("a.pgn", &a, false), ("b\u{1b}.pgn", &b, true)] {
            sum.add(part);
            let mut input = InputTotals {
                name: name.into(),
                ..InputTotals::default()
            };
            input.add(part);
            input.failed = failed;
            sum.inputs.push(input);
        }
        let summary = text(&sum);
        let lines: Vec<&str> = summary.lines().collect();
        assert_eq!(
            lines[..2],
            [
                "a.pgn: 1 game, 2 plies: 1 valid, 0 invalid; 0 errors, 0 warnings",
                "b\\u001b.pgn: 1 game, 2 plies: 0 valid, 1 invalid; 1 error, 0 warnings; not read to its end",
            ]
        );
        assert!(lines[2].starts_with("2 games, 4 plies:"), "{summary}");
        // One input: no line of its own.
        sum.inputs.truncate(1);
        assert!(text(&sum).starts_with("2 games"));
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
        assert_eq!(value["errors"], 1);
        assert_eq!(
            value["codes_by_severity"],
            serde_json::json!({"error": {"illegal_move": 1}, "warning": {}})
        );
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
