//! A problem as `validate` writes it: the game's [`Problem`] seen with its input's path and the
//! game's number, in its text and JSON Lines forms.
//!
//! Text: `PATH:LINE:COL: game N (WHITE - BLACK, round R), ply P "SAN": error[CODE]: MESSAGE`,
//! the players and round where the game's tags give them (in a range of the input,
//! `--range`, whose lines count per game: `PATH@OFFSET:LINE:COL: ...`, line 1 being the first
//! line of the game at byte OFFSET), with `(variation from ply B)`
//! after the ply for a move off the main line (the ply and SAN part is left out
//! for problems that belong to the whole game, such as a bad FEN tag), with the control
//! characters of the input escaped as JSON escapes them (`\u001b`), so that what a file holds
//! cannot act on the terminal. JSON Lines: one object, escaped by JSON itself, with the
//! players and round as fields of their own (`white`, `black`, `round`).

use std::fmt::Write as _;
use std::path::Path;

use arbiter_core::problem::{Code, Problem, Severity, Variation};
use arbiter_core::replay::GameReport;
use arbiter_core::text::escape_controls;
use arbiter_io::compression::format_extension;
use arbiter_pgn::PgnErrorKind;
use serde::Serialize;

use crate::output::{GameFormatter, GameNumber, Output};

/// How `validate` writes diagnostics and its summary.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum DiagnosticFormat {
    /// `PATH:LINE:COL: game N (WHITE - BLACK, round R), ply P "SAN": error[CODE]: MESSAGE`
    /// lines, then a summary line.
    Text,
    /// One JSON object per diagnostic, then a summary object.
    Jsonl,
}

impl DiagnosticFormat {
    /// The format an output file's name asks for: JSON Lines for `.jsonl` or `.ndjson` (before
    /// a compression suffix), text for any other; an error, naming the extension, for the name
    /// of a format only export writes (`.csv`, `.json`, `.parquet`).
    pub fn of_output(path: &Path) -> Result<DiagnosticFormat, String> {
        match format_extension(path).as_deref() {
            Some("jsonl" | "ndjson") => Ok(DiagnosticFormat::Jsonl),
            Some(extension @ ("csv" | "json" | "parquet")) => Err(format!(
                "{}: validate writes text or JSON Lines, not {extension}; name the file .jsonl \
                 (or .txt), or give --format",
                path.display()
            )),
            _ => Ok(DiagnosticFormat::Text),
        }
    }
}

/// Formats a game's problems as diagnostics.
#[derive(Debug)]
pub struct DiagnosticFormatter {
    format: DiagnosticFormat,
    /// Lines count per game (see [`Diagnostic::lines_per_game`]).
    lines_per_game: bool,
    /// Scratch text.
    text: String,
}

impl DiagnosticFormatter {
    /// A formatter writing `format`.
    pub fn new(format: DiagnosticFormat) -> DiagnosticFormatter {
        DiagnosticFormatter {
            format,
            lines_per_game: false,
            text: String::new(),
        }
    }

    /// The lines of the problems count from each game's first line (a range of the input, read
    /// with [`arbiter_pgn::Reader::lines_per_game`]): the text form names the game's offset.
    pub fn lines_per_game(mut self) -> DiagnosticFormatter {
        self.lines_per_game = true;
        self
    }
}

impl GameFormatter for DiagnosticFormatter {
    /// Writes the game's problems but a `not_utf8` warning: an input's games read as
    /// Windows-1252 get one warning for them all, with their count, after the games
    /// ([`Totals::write_not_utf8`](crate::summary::Totals::write_not_utf8)).
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let listed = (report.problems.iter()).filter(|problem| !is_not_utf8_warning(problem));
        for problem in listed {
            let diagnostic = Diagnostic {
                path: source,
                game: number,
                names: GameNames {
                    white: &report.tags.white,
                    black: &report.tags.black,
                    round: &report.tags.round,
                },
                offset: report.offset,
                lines_per_game: self.lines_per_game,
                problem,
            };
            match self.format {
                DiagnosticFormat::Text => diagnostic.write_text(&mut self.text, out),
                DiagnosticFormat::Jsonl => diagnostic.write_jsonl(out),
            }
        }
    }
}

/// Whether `problem` is a `not_utf8` warning, which validate lists once per input.
pub(crate) fn is_not_utf8_warning(problem: &Problem) -> bool {
    problem.code == Code::Reader(PgnErrorKind::NotUtf8) && problem.severity == Severity::Warning
}

/// The tags by which a person names a game (a tournament director thinks in players and
/// rounds): `White`, `Black` and `Round` as written, empty when missing.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct GameNames<'a> {
    /// The `White` tag.
    pub white: &'a str,
    /// The `Black` tag.
    pub black: &'a str,
    /// The `Round` tag.
    pub round: &'a str,
}

/// At most this many characters of a player's name or a round go into a diagnostic's text.
const NAME_CHARS: usize = 48;

impl<'a> GameNames<'a> {
    /// A tag's value when it names something: not empty, `?` (unknown) or `-` (no round).
    fn known(value: &'a str) -> Option<&'a str> {
        let value = value.trim();
        (!matches!(value, "" | "?" | "-")).then_some(value)
    }

    /// The players and round known, as the text form has them: ` (White - Black, round R)`,
    /// `?` for one player unknown, the round alone, or nothing.
    fn write_text(&self, text: &mut String) {
        let (white, black) = (Self::known(self.white), Self::known(self.black));
        let round = Self::known(self.round);
        if white.is_none() && black.is_none() && round.is_none() {
            return;
        }
        text.push_str(" (");
        if white.is_some() || black.is_some() {
            write_short(white.unwrap_or("?"), text);
            text.push_str(" - ");
            write_short(black.unwrap_or("?"), text);
            if round.is_some() {
                text.push_str(", ");
            }
        }
        if let Some(round) = round {
            text.push_str("round ");
            write_short(round, text);
        }
        text.push(')');
    }
}

/// Appends `value`'s first [`NAME_CHARS`] characters, `…` marking a cut, control characters
/// escaped.
fn write_short(value: &str, text: &mut String) {
    let cut = value.char_indices().nth(NAME_CHARS).map(|(at, _)| at);
    text.push_str(&escape_controls(&value[..cut.unwrap_or(value.len())]));
    if cut.is_some() {
        text.push('…');
    }
}

/// One problem, located: a view of the game's [`Problem`] with what the game does not know.
#[derive(Copy, Clone, Debug)]
pub struct Diagnostic<'a> {
    /// The input's name: the path as given, or `<stdin>`.
    pub path: &'a str,
    /// The game's number: `game N` is its number in the input.
    pub game: GameNumber,
    /// The game's players and round, when its tags give them.
    pub names: GameNames<'a>,
    /// Where the game's first byte stands in its (decompressed) input, from 0 (in the text form
    /// only when `lines_per_game`).
    pub offset: u64,
    /// The problem's line counts from the game's first line, line 1, not from the input's start:
    /// the text form then says `PATH@OFFSET:LINE:COL`.
    pub lines_per_game: bool,
    /// The problem, located in the input.
    pub problem: &'a Problem,
}

impl Diagnostic<'_> {
    /// Appends the text form and a newline to `out`; `text` is scratch space. What comes from the
    /// input (the path, the move, the quotes in the message) has its control characters escaped,
    /// as in JSON: a move `\x1bc` must not reset the terminal.
    pub fn write_text(&self, text: &mut String, out: &mut Output) {
        let problem = self.problem;
        let (line, column) = self.line_column();
        text.clear();
        let path = escape_controls(self.path);
        if self.lines_per_game {
            let _ = write!(text, "{path}@{}:{line}:{column}: game ", self.offset);
        } else {
            let _ = write!(text, "{path}:{line}:{column}: game ");
        }
        out.extend(text.as_bytes());
        out.input_number(self.game);
        text.clear();
        self.names.write_text(text);
        if let Some(ply) = problem.ply {
            let _ = write!(text, ", ply {ply}");
        }
        if let Some(variation) = problem.variation {
            let _ = write!(text, " {variation}");
        }
        if let Some(san) = &problem.san {
            let _ = write!(text, " \"{}\"", escape_controls(san));
        }
        let severity = problem.severity.as_str();
        let code = problem.code.as_str();
        let message = escape_controls(&problem.message);
        let _ = writeln!(text, ": {severity}[{code}]: {message}");
        out.extend(text.as_bytes());
    }

    /// Appends the JSON Lines form (`{"type":"diagnostic",...}`) and a newline to `out`.
    pub fn write_jsonl(&self, out: &mut Output) {
        // In two halves around the game number, which may be filled in later.
        #[derive(Serialize)]
        struct Before<'a> {
            r#type: &'static str,
            file: &'a str,
            line: u32,
            column: u32,
        }
        #[derive(Serialize)]
        struct After<'a> {
            white: Option<&'a str>,
            black: Option<&'a str>,
            round: Option<&'a str>,
            ply: Option<u32>,
            san: Option<&'a str>,
            variation: Option<Variation>,
            severity: Severity,
            code: Code,
            message: &'a str,
            offset: u64,
        }
        let problem = self.problem;
        let (line, column) = self.line_column();
        let before = Before {
            r#type: "diagnostic",
            file: self.path,
            line,
            column,
        };
        let after = After {
            white: GameNames::known(self.names.white),
            black: GameNames::known(self.names.black),
            round: GameNames::known(self.names.round),
            ply: problem.ply,
            san: problem.san.as_deref(),
            variation: problem.variation,
            severity: problem.severity,
            code: problem.code,
            message: &problem.message,
            offset: self.offset,
        };
        // Serialising plain strings and numbers into a Vec cannot fail; each half is an object,
        // `{...}`, of which the braces between the halves are dropped.
        let bytes = out.bytes_mut();
        let _ = serde_json::to_writer(&mut *bytes, &before);
        bytes.pop();
        bytes.extend_from_slice(b",\"game\":");
        out.input_number(self.game);
        let bytes = out.bytes_mut();
        let mark = bytes.len();
        let _ = serde_json::to_writer(&mut *bytes, &after);
        bytes[mark] = b',';
        bytes.push(b'\n');
    }

    /// The line and column, each at most `u32::MAX` as the written forms have it.
    fn line_column(&self) -> (u32, u32) {
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        (clamp(self.problem.at.line), clamp(self.problem.at.column))
    }
}

#[cfg(test)]
mod tests {
    use arbiter_pgn::{LineCol, Location};

    use super::*;

    /// An illegal move at line 12, column 5, ply 17.
    fn sample() -> Problem {
        Problem {
            location: Location(40),
            at: LineCol {
                line: 12,
                column: 5,
            },
            ply: Some(17),
            san: Some("Nbd2".into()),
            variation: None,
            severity: Severity::Error,
            code: Code::IllegalMove,
            message: "no knight on the b-file can reach d2".into(),
        }
    }

    /// The text `write` gives for `problem`, the game number known and filled in later alike.
    fn written(problem: &Problem, write: impl Fn(&Diagnostic<'_>, &mut Output)) -> String {
        written_as(problem, false, write)
    }

    /// The text `write` gives for `problem`, its lines counted per game or not.
    fn written_as(
        problem: &Problem,
        lines_per_game: bool,
        write: impl Fn(&Diagnostic<'_>, &mut Output),
    ) -> String {
        written_named(problem, GameNames::default(), lines_per_game, write)
    }

    /// The text `write` gives for `problem` of a game named by `names`.
    fn written_named(
        problem: &Problem,
        names: GameNames<'_>,
        lines_per_game: bool,
        write: impl Fn(&Diagnostic<'_>, &mut Output),
    ) -> String {
        let diagnostic = |game| Diagnostic {
            path: "games.pgn",
            game,
            names,
            offset: 7,
            lines_per_game,
            problem,
        };
        let mut known = Output::default();
        write(
            &diagnostic(GameNumber::Known { run: 30, input: 3 }),
            &mut known,
        );
        let mut later = Output::default();
        write(&diagnostic(GameNumber::Later { in_batch: 1 }), &mut later);
        let [mut a, mut b] = [Vec::new(), Vec::new()];
        known.write_to(0, 0, &mut 0, &mut a).unwrap();
        later.write_to(28, 1, &mut 0, &mut b).unwrap();
        assert_eq!(a, b);
        String::from_utf8(a).unwrap()
    }

    #[test]
    fn text_puts_the_location_first() {
        let text = |d: &Diagnostic<'_>, out: &mut Output| d.write_text(&mut String::new(), out);
        assert_eq!(
            written(&sample(), text),
            "games.pgn:12:5: game 3, ply 17 \"Nbd2\": error[illegal_move]: no knight on the b-file can reach d2\n"
        );
        let warning = Problem {
            ply: None,
            san: None,
            severity: Severity::Warning,
            ..sample()
        };
        assert_eq!(
            written(&warning, text),
            "games.pgn:12:5: game 3: warning[illegal_move]: no knight on the b-file can reach d2\n"
        );
        assert_eq!(
            written_as(&warning, true, text),
            "games.pgn@7:12:5: game 3: warning[illegal_move]: no knight on the b-file can reach d2\n"
        );
    }

    // See: issue 43, point 5.
    #[test]
    fn the_game_is_named_by_its_players_and_round_where_its_tags_give_them() {
        let text = |d: &Diagnostic<'_>, out: &mut Output| d.write_text(&mut String::new(), out);
        let named = |white, black, round| {
            let names = GameNames {
                white,
                black,
                round,
            };
            let line = written_named(&sample(), names, false, text);
            let start = "games.pgn:12:5: game 3";
            let end =
                ", ply 17 \"Nbd2\": error[illegal_move]: no knight on the b-file can reach d2\n";
            assert!(line.starts_with(start) && line.ends_with(end), "{line}");
            line[start.len()..line.len() - end.len()].to_owned()
        };
        assert_eq!(
            named("Carlsen", "Caruana", "3"),
            " (Carlsen - Caruana, round 3)"
        );
        assert_eq!(named("Carlsen", "?", "?"), " (Carlsen - ?)");
        assert_eq!(named("", " ", "5.2"), " (round 5.2)");
        assert_eq!(named("?", "?", "-"), "");
        assert_eq!(named("", "", ""), "");
        let long = "x".repeat(60);
        assert_eq!(
            named(&long, "B\u{1b}c", "1"),
            format!(" ({}… - B\\u001bc, round 1)", "x".repeat(48))
        );
        // JSON Lines: each tag as written, null when unknown.
        let names = GameNames {
            white: "Carlsen",
            black: "?",
            round: "3",
        };
        let line = written_named(&sample(), names, false, |d, out| d.write_jsonl(out));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        assert_eq!(
            (&value["white"], &value["black"], &value["round"]),
            (
                &serde_json::json!("Carlsen"),
                &serde_json::Value::Null,
                &serde_json::json!("3")
            )
        );
    }

    #[test]
    fn jsonl_has_every_field_in_order() {
        assert_eq!(
            written(&sample(), |d, out| d.write_jsonl(out)),
            "{\"type\":\"diagnostic\",\"file\":\"games.pgn\",\"line\":12,\"column\":5,\"game\":3,\
             \"white\":null,\"black\":null,\"round\":null,\"ply\":17,\"san\":\"Nbd2\",\"variation\":null,\"severity\":\"error\",\"code\":\"illegal_move\",\
             \"message\":\"no knight on the b-file can reach d2\",\"offset\":7}\n"
        );
    }

    #[test]
    fn text_escapes_the_control_characters_of_the_input() {
        let hostile = Problem {
            san: Some("\u{1b}c".into()),
            message: "unexpected text `\u{1b}c\u{9b}2J` at 12:5".into(),
            ..sample()
        };
        let text = |d: &Diagnostic<'_>, out: &mut Output| d.write_text(&mut String::new(), out);
        assert_eq!(
            written(&hostile, text),
            "games.pgn:12:5: game 3, ply 17 \"\\u001bc\": error[illegal_move]: unexpected text \
             `\\u001bc\\u009b2J` at 12:5\n"
        );
        // JSON Lines escapes them itself, and so keeps them exactly.
        let jsonl = written(&hostile, |d, out| d.write_jsonl(out));
        let value: serde_json::Value = serde_json::from_str(&jsonl).unwrap_or_default();
        assert_eq!(value["san"], "\u{1b}c");
    }

    #[test]
    fn a_line_past_u32_is_clamped() {
        let far = Problem {
            at: LineCol {
                line: 1 << 40,
                column: 3,
            },
            ..sample()
        };
        let text = |d: &Diagnostic<'_>, out: &mut Output| d.write_text(&mut String::new(), out);
        assert!(written(&far, text).starts_with("games.pgn:4294967295:3: game 3,"));
    }
}
