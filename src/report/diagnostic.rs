//! One problem found in a game, and its text and JSON Lines forms.
//!
//! Text: `PATH:LINE:COL: game N, ply P "SAN": error: MESSAGE` (the ply and SAN part is left out
//! for problems that belong to the whole game, such as a bad FEN tag).

use std::fmt::Write as _;

use serde::Serialize;

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
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
pub struct Diagnostic {
    /// The input's name: the path as given, or `<stdin>`.
    pub path: String,
    /// 1-based line in the input.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// 1-based game number in the input.
    pub game: u64,
    /// 1-based ply of the move concerned, when the problem belongs to a move.
    pub ply: Option<u32>,
    /// The move text as written, when the problem belongs to a move.
    pub san: Option<String>,
    /// Error or warning.
    pub severity: Severity,
    /// A stable machine-readable code, e.g. `illegal_move`.
    pub code: &'static str,
    /// What is wrong, in plain words.
    pub message: String,
}

impl Diagnostic {
    /// Appends the text form and a newline to `out`.
    pub fn write_text(&self, out: &mut String) {
        let _ = write!(
            out,
            "{}:{}:{}: game {}",
            self.path, self.line, self.column, self.game
        );
        if let Some(ply) = self.ply {
            let _ = write!(out, ", ply {ply}");
        }
        if let Some(san) = &self.san {
            let _ = write!(out, " \"{san}\"");
        }
        let _ = writeln!(out, ": {}: {}", self.severity.as_str(), self.message);
    }

    /// Appends the JSON Lines form (`{"type":"diagnostic",...}`) and a newline to `out`.
    pub fn write_jsonl(&self, out: &mut Vec<u8>) {
        #[derive(Serialize)]
        struct Line<'a> {
            r#type: &'static str,
            #[serde(flatten)]
            diagnostic: &'a Diagnostic,
        }
        // Serialising plain strings and numbers into a Vec cannot fail.
        let _ = serde_json::to_writer(
            &mut *out,
            &Line {
                r#type: "diagnostic",
                diagnostic: self,
            },
        );
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Diagnostic {
        Diagnostic {
            path: "games.pgn".into(),
            line: 12,
            column: 5,
            game: 3,
            ply: Some(17),
            san: Some("Nbd2".into()),
            severity: Severity::Error,
            code: "illegal_move",
            message: "no knight on the b-file can reach d2".into(),
        }
    }

    #[test]
    fn text_puts_the_location_first() {
        let mut out = String::new();
        sample().write_text(&mut out);
        assert_eq!(
            out,
            "games.pgn:12:5: game 3, ply 17 \"Nbd2\": error: no knight on the b-file can reach d2\n"
        );
        let mut out = String::new();
        Diagnostic {
            ply: None,
            san: None,
            severity: Severity::Warning,
            ..sample()
        }
        .write_text(&mut out);
        assert_eq!(
            out,
            "games.pgn:12:5: game 3: warning: no knight on the b-file can reach d2\n"
        );
    }

    #[test]
    fn jsonl_has_every_field_in_order() {
        let mut out = Vec::new();
        sample().write_jsonl(&mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"type\":\"diagnostic\",\"path\":\"games.pgn\",\"line\":12,\"column\":5,\"game\":3,\
             \"ply\":17,\"san\":\"Nbd2\",\"severity\":\"error\",\"code\":\"illegal_move\",\
             \"message\":\"no knight on the b-file can reach d2\"}\n"
        );
    }
}
