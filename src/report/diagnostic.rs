//! One problem found in a game, and its text and JSON Lines forms.
//!
//! Text: `PATH:LINE:COL: game N, ply P "SAN": error: MESSAGE` (the ply and SAN part is left out
//! for problems that belong to the whole game, such as a bad FEN tag).

use std::fmt::Write as _;

use serde::Serialize;

use crate::report::code::Code;
use crate::report::output::{GameNumber, Output};

/// How bad a problem is.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The game (or the variation) is invalid.
    Error,
    /// Accepted, but not what the standard asks for.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One located problem.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Diagnostic {
    /// The input's name: the path as given, or `<stdin>`.
    pub path: String,
    /// 1-based line in the input.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// The game's number: `game N` is its number in the input.
    pub game: GameNumber,
    /// 1-based ply of the move concerned, when the problem belongs to a move.
    pub ply: Option<u32>,
    /// The move text as written, when the problem belongs to a move.
    pub san: Option<String>,
    /// Error or warning.
    pub severity: Severity,
    /// A stable machine-readable code, e.g. `illegal_move`.
    pub code: Code,
    /// What is wrong, in plain words.
    pub message: String,
}

impl Diagnostic {
    /// Appends the text form and a newline to `out`; `text` is scratch space.
    pub fn write_text(&self, text: &mut String, out: &mut Output) {
        text.clear();
        let _ = write!(text, "{}:{}:{}: game ", self.path, self.line, self.column);
        out.extend(text.as_bytes());
        out.input_number(self.game);
        text.clear();
        if let Some(ply) = self.ply {
            let _ = write!(text, ", ply {ply}");
        }
        if let Some(san) = &self.san {
            let _ = write!(text, " \"{san}\"");
        }
        let _ = writeln!(text, ": {}: {}", self.severity.as_str(), self.message);
        out.extend(text.as_bytes());
    }

    /// Appends the JSON Lines form (`{"type":"diagnostic",...}`) and a newline to `out`.
    pub fn write_jsonl(&self, out: &mut Output) {
        // In two halves around the game number, which may be filled in later.
        #[derive(Serialize)]
        struct Before<'a> {
            r#type: &'static str,
            path: &'a str,
            line: u32,
            column: u32,
        }
        #[derive(Serialize)]
        struct After<'a> {
            ply: Option<u32>,
            san: Option<&'a str>,
            severity: Severity,
            code: Code,
            message: &'a str,
        }
        let before = Before {
            r#type: "diagnostic",
            path: &self.path,
            line: self.line,
            column: self.column,
        };
        let after = After {
            ply: self.ply,
            san: self.san.as_deref(),
            severity: self.severity,
            code: self.code,
            message: &self.message,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text `write` gives, the game number known and filled in later alike.
    fn written(diagnostic: &Diagnostic, write: impl Fn(&Diagnostic, &mut Output)) -> String {
        let mut known = Output::default();
        write(diagnostic, &mut known);
        let mut later = Output::default();
        let second = Diagnostic {
            game: GameNumber::Later { in_batch: 1 },
            ..diagnostic.clone()
        };
        write(&second, &mut later);
        let [mut a, mut b] = [Vec::new(), Vec::new()];
        known.write_to(0, 0, &mut 0, &mut a).unwrap();
        later.write_to(28, 1, &mut 0, &mut b).unwrap();
        assert_eq!(a, b);
        String::from_utf8(a).unwrap()
    }

    fn sample() -> Diagnostic {
        Diagnostic {
            path: "games.pgn".into(),
            line: 12,
            column: 5,
            game: GameNumber::Known { run: 30, input: 3 },
            ply: Some(17),
            san: Some("Nbd2".into()),
            severity: Severity::Error,
            code: Code::IllegalMove,
            message: "no knight on the b-file can reach d2".into(),
        }
    }

    #[test]
    fn text_puts_the_location_first() {
        let text = |d: &Diagnostic, out: &mut Output| d.write_text(&mut String::new(), out);
        assert_eq!(
            written(&sample(), text),
            "games.pgn:12:5: game 3, ply 17 \"Nbd2\": error: no knight on the b-file can reach d2\n"
        );
        let warning = Diagnostic {
            ply: None,
            san: None,
            severity: Severity::Warning,
            ..sample()
        };
        assert_eq!(
            written(&warning, text),
            "games.pgn:12:5: game 3: warning: no knight on the b-file can reach d2\n"
        );
    }

    #[test]
    fn jsonl_has_every_field_in_order() {
        assert_eq!(
            written(&sample(), Diagnostic::write_jsonl),
            "{\"type\":\"diagnostic\",\"path\":\"games.pgn\",\"line\":12,\"column\":5,\"game\":3,\
             \"ply\":17,\"san\":\"Nbd2\",\"severity\":\"error\",\"code\":\"illegal_move\",\
             \"message\":\"no knight on the b-file can reach d2\"}\n"
        );
    }
}
