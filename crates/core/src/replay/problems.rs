//! The problem log of a game's replay: each [`Problem`] recorded with the severity the run gives
//! its code ([`Severities`]: an allowed warning is dropped here), counted, and listed up to a limit, so
//! that a hostile game cannot fill the memory with problems. At the game's end the problems are
//! located in the source and the first error is quoted for export's `error` field.
//!
//! Unexpected text (`unexpected_text`) is listed for the first [`MAX_UNEXPECTED_LISTED`] tokens of
//! a game only: a web page or an e-mail read as PGN is thousands of unreadable words, one
//! diagnostic each. The rest are summed up, where the first of them stands, in one problem that
//! says how many more there are (exactly) and the line of the last: `and 1640 more unexpected
//! tokens up to line 533`. This is the one place of that rule, so that every output (text, JSON
//! Lines, export's counts) agrees.

use std::fmt::Write as _;

use arbiter_pgn::{GameInfo, LineCol, Location, PgnErrorKind};

use crate::problem::{Code, MAX_PROBLEMS, Problem, Severities, Severity, Variation};
use crate::replay::GameReport;
use crate::text::{MAX_ECHO_CHARS, clip, clip_owned};

/// At most this many characters of the move text go into a problem: a 50 MB "move" (a line of
/// garbage) must not become a 50 MB diagnostic.
const MAX_SAN_CHARS: usize = 32;
/// At most this many characters of a problem's message (which quotes the move or a tag value).
const MAX_MESSAGE_CHARS: usize = MAX_ECHO_CHARS;

/// At most this many `unexpected_text` problems are listed one by one per game; the others are
/// summed up in one problem.
const MAX_UNEXPECTED_LISTED: u32 = 3;

/// Where a problem stands: in the game's bytes, and at which ply and move of which line.
#[derive(Copy, Clone, Debug, Default)]
pub struct Place<'a> {
    /// Where, within the game's bytes.
    pub location: Location,
    /// The ply of the move concerned, if any.
    pub ply: Option<u32>,
    /// The move as written, if the problem belongs to a move.
    pub san: Option<&'a str>,
    /// The variation the move stands in, off the main line.
    pub variation: Option<Variation>,
}

impl Place<'_> {
    /// At `location`, and at `ply` of the main line if given.
    pub fn main_line(location: Location, ply: Option<u32>) -> Place<'static> {
        Place {
            location,
            ply,
            ..Place::default()
        }
    }
}

/// What the log needs to remember within a game, besides the problems the report holds.
#[derive(Clone, Debug, Default)]
pub struct ProblemLog {
    /// The severity of each code in this run (`--strict`, `--deny`, `--allow`).
    severities: Severities,
    /// The index in the report's problems of the game's first error, if any.
    first_error: Option<usize>,
    /// Problems counted but not listed, past [`MAX_PROBLEMS`], and where the first of them is.
    unlisted: Option<(u64, Location)>,
    /// The game's `unexpected_text` problems.
    unexpected: Unexpected,
}

/// The `unexpected_text` problems of a game: how many were listed, and those summed up.
#[derive(Clone, Debug, Default)]
struct Unexpected {
    /// How many were listed one by one (at most [`MAX_UNEXPECTED_LISTED`]).
    listed: u32,
    /// Where the summary stands in the report's problems, once there is one.
    summary: Option<usize>,
    /// How many the summary stands for.
    more: u64,
    /// Where the last of them is.
    last: Location,
}

impl ProblemLog {
    /// A log that records each problem with the severity `severities` gives its code.
    pub fn new(severities: Severities) -> ProblemLog {
        ProblemLog {
            severities,
            ..ProblemLog::default()
        }
    }

    /// Forgets the last game.
    pub fn reset(&mut self) {
        self.first_error = None;
        self.unlisted = None;
        self.unexpected = Unexpected::default();
    }

    /// Records a problem at `place` in `report` with the severity the run gives its code; nothing
    /// when the run allows it.
    pub fn record(
        &mut self,
        report: &mut GameReport,
        place: Place<'_>,
        code: Code,
        message: String,
    ) {
        let Place {
            location,
            ply,
            san,
            variation,
        } = place;
        let Some(severity) = self.severities.of(code) else {
            return;
        };
        match severity {
            Severity::Error => report.errors += 1,
            Severity::Warning => report.warnings += 1,
        }
        report.codes.add(code, severity);
        // The first error is always listed: the report quotes it.
        let first_error = severity == Severity::Error && self.first_error.is_none();
        if first_error {
            self.first_error = Some(report.problems.len());
        }
        if code == Code::Reader(PgnErrorKind::UnexpectedText)
            && self.summed_up(report, location, severity)
        {
            return;
        }
        if report.problems.len() >= MAX_PROBLEMS && !first_error {
            let unlisted = self.unlisted.get_or_insert((0, location));
            unlisted.0 += 1;
            return;
        }
        report.problems.push(Problem {
            location,
            at: LineCol::default(),
            ply,
            san: san.map(|san| clip(san, MAX_SAN_CHARS)),
            variation,
            severity,
            code,
            message: clip_owned(message, MAX_MESSAGE_CHARS),
        });
    }

    /// Whether an `unexpected_text` problem at `location` goes into the summary rather than the
    /// list: past the first [`MAX_UNEXPECTED_LISTED`] of the game. The summary is put in the
    /// list where the first of them stands; [`ProblemLog::finish`] words it.
    fn summed_up(
        &mut self,
        report: &mut GameReport,
        location: Location,
        severity: Severity,
    ) -> bool {
        let unexpected = &mut self.unexpected;
        if unexpected.listed < MAX_UNEXPECTED_LISTED {
            unexpected.listed += 1;
            return false;
        }
        if unexpected.summary.is_none() {
            unexpected.summary = Some(report.problems.len());
            report.problems.push(Problem::of_game(
                location,
                LineCol::default(),
                severity,
                Code::Reader(PgnErrorKind::UnexpectedText),
                String::new(),
            ));
        }
        unexpected.more += 1;
        unexpected.last = location;
        true
    }

    /// The game is over: words the summary of unexpected text, notes the problems counted but
    /// not listed, locates every problem in `game`'s source, and quotes the first error in
    /// `report.first_error` (its [`Display`](fmt::Display) form).
    pub fn finish(&mut self, report: &mut GameReport, game: &GameInfo<'_>) {
        let unexpected = std::mem::take(&mut self.unexpected);
        if let Some(index) = unexpected.summary {
            report.problems[index].message = format!(
                "and {} more unexpected tokens up to line {}, each skipped to the next token \
                 (only the first {MAX_UNEXPECTED_LISTED} of a game are quoted)",
                unexpected.more,
                game.locate(unexpected.last).line
            );
        }
        if let Some((count, location)) = self.unlisted.take() {
            // A note, not a problem of its own: the counts already hold the unlisted ones.
            report.codes.add(Code::ProblemsNotListed, Severity::Warning);
            report.problems.push(Problem::of_game(
                location,
                LineCol::default(),
                Severity::Warning,
                Code::ProblemsNotListed,
                format!(
                    "{count} more problems from here on are counted but not listed (at most \
                     {MAX_PROBLEMS} are listed per game)"
                ),
            ));
        }
        for problem in &mut report.problems {
            problem.at = game.locate(problem.location);
        }
        if let Some(index) = self.first_error {
            let _ = write!(report.first_error, "{}", report.problems[index]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(log: &mut ProblemLog, report: &mut GameReport, code: Code, at: u32) {
        let place = Place::main_line(Location(at), None);
        log.record(report, place, code, "m".repeat(600));
    }

    #[test]
    fn severity_follows_the_code_unless_the_run_changes_it() {
        let mut report = GameReport::default();
        let mut log = ProblemLog::new(Severities::default());
        record(&mut log, &mut report, Code::WrongCheckMark, 1);
        record(&mut log, &mut report, Code::IllegalMove, 2);
        assert_eq!((report.errors, report.warnings), (1, 1));
        assert_eq!(report.problems[0].severity, Severity::Warning);
        assert_eq!(
            report.problems[0].message.chars().count(),
            513,
            "clipped with …"
        );

        let mut strict = ProblemLog::new(Severities::strict());
        let mut report = GameReport::default();
        record(&mut strict, &mut report, Code::WrongCheckMark, 1);
        assert_eq!((report.errors, report.warnings), (1, 0));

        // An allowed warning is neither listed nor counted; a denied one is the game's first
        // error, which the report quotes.
        let mut severities = Severities::default();
        severities.allow(Code::WrongCheckMark);
        severities.deny(Code::WrongMoveNumber);
        let mut log = ProblemLog::new(severities);
        let mut report = GameReport::default();
        record(&mut log, &mut report, Code::WrongCheckMark, 1);
        record(&mut log, &mut report, Code::WrongMoveNumber, 2);
        assert_eq!((report.errors, report.warnings), (1, 0));
        let codes: Vec<(Code, Severity)> = report
            .problems
            .iter()
            .map(|p| (p.code, p.severity))
            .collect();
        assert_eq!(codes, [(Code::WrongMoveNumber, Severity::Error)]);
        assert_eq!(
            report.codes.seen().collect::<Vec<_>>(),
            [(Code::WrongMoveNumber, 1)]
        );
        assert_eq!(log.first_error, Some(0));
    }

    #[test]
    fn the_text_leaves_out_the_ply_and_the_move_when_there_are_none() {
        let problem = Problem::sample();
        assert_eq!(
            problem.to_string(),
            "12:5: ply 17 \"Nbd2\": no knight on the b-file can reach d2"
        );
        let whole_game = Problem {
            ply: None,
            san: None,
            message: "bad FEN".into(),
            ..problem
        };
        assert_eq!(whole_game.to_string(), "12:5: bad FEN");
    }

    #[test]
    fn unexpected_text_past_the_first_three_is_summed_up_where_the_fourth_stands() {
        let mut report = GameReport::default();
        let mut log = ProblemLog::new(Severities::default());
        for at in 0..3 {
            record(
                &mut log,
                &mut report,
                Code::Reader(PgnErrorKind::UnexpectedText),
                at,
            );
        }
        record(&mut log, &mut report, Code::Reader(PgnErrorKind::BadNag), 3);
        for at in 4..1004 {
            record(
                &mut log,
                &mut report,
                Code::Reader(PgnErrorKind::UnexpectedText),
                at,
            );
        }
        record(
            &mut log,
            &mut report,
            Code::Reader(PgnErrorKind::NoResult),
            2000,
        );
        let codes: Vec<Code> = report.problems.iter().map(|p| p.code).collect();
        assert_eq!(
            codes,
            [
                Code::Reader(PgnErrorKind::UnexpectedText),
                Code::Reader(PgnErrorKind::UnexpectedText),
                Code::Reader(PgnErrorKind::UnexpectedText),
                Code::Reader(PgnErrorKind::BadNag),
                Code::Reader(PgnErrorKind::UnexpectedText),
                Code::Reader(PgnErrorKind::NoResult)
            ]
        );
        let summary = &report.problems[4];
        assert_eq!((summary.location, summary.ply), (Location(4), None));
        assert_eq!(
            (log.unexpected.more, log.unexpected.last),
            (1000, Location(1003))
        );
        // Each counts as an error, and as one of its code; the next game starts afresh.
        assert_eq!(report.errors, 1004);
        let counted: Vec<(Code, u64)> = report.codes.seen().collect();
        let mut expected = vec![
            (Code::Reader(PgnErrorKind::UnexpectedText), 1003),
            (Code::Reader(PgnErrorKind::BadNag), 1),
            (Code::Reader(PgnErrorKind::NoResult), 1),
        ];
        expected.sort_by_key(|(code, _)| code.index());
        assert_eq!(counted, expected);
        log.reset();
        assert!(log.unexpected.summary.is_none() && log.unexpected.listed == 0);
    }

    #[test]
    fn past_the_limit_problems_are_counted_and_the_first_error_still_listed() {
        let mut report = GameReport::default();
        let mut log = ProblemLog::new(Severities::default());
        for i in 0..MAX_PROBLEMS as u32 + 5 {
            record(&mut log, &mut report, Code::WrongMoveNumber, i);
        }
        record(&mut log, &mut report, Code::BadSan, 99_999);
        assert_eq!(report.problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(report.warnings, MAX_PROBLEMS as u32 + 5);
        assert_eq!(report.errors, 1);
        let counted: Vec<(Code, u64)> = report.codes.seen().collect();
        let mut expected = vec![
            (Code::WrongMoveNumber, MAX_PROBLEMS as u64 + 5),
            (Code::BadSan, 1),
        ];
        expected.sort_by_key(|(code, _)| code.index());
        assert_eq!(counted, expected);
        assert_eq!(log.unlisted, Some((5, Location(MAX_PROBLEMS as u32))));
        assert_eq!(log.first_error, Some(MAX_PROBLEMS));
    }
}
