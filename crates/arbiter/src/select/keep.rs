//! Which games a run keeps: `--where` (an expression over export's fields and the tags) and
//! `--position` (the main line reaches one of the positions), checked once ([`Keep::new`]) and
//! applied to every game the same way by `export` and `select` ([`Keep::keeps`]).
//!
//! An error names the option as the user wrote it without its dashes (`where: column 14: ...`,
//! `position "8/8/8 w": invalid fen: ...`): the command line adds them, the Python package does
//! not.

use std::fmt;
use std::sync::Arc;

use arbiter_core::position::Targets;
use arbiter_core::replay::{GameReport, TagTest};
use arbiter_report::output::GameNumber;
use arbiter_report::record::{COLUMNS, ExportRecord, FIELDS, TAG_FIELDS, WHERE_FIELDS};
use arbiter_rules::{FenError, Position};

use super::expr::{ExprError, Filter};
use super::fields::{RecordFields, record_schema};

/// The tests a game must pass to be kept: `where` and `position`.
#[derive(Debug, Default)]
pub struct Keep {
    filter: Option<Filter>,
    positions: Vec<Position>,
}

/// A `where` or a `position` that cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum KeepError {
    /// A `position` that is no valid FEN.
    Position {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A `where` expression that does not parse or does not fit the columns.
    Where {
        /// What is wrong, and where.
        error: ExprError,
        /// The expression with a caret under the mistake ([`ExprError::show`]).
        shown: String,
    },
}

impl fmt::Display for KeepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeepError::Position { fen, error } => {
                write!(f, "position {fen:?}: invalid fen: {error}")
            }
            KeepError::Where { error, shown } => write!(f, "where: {error}\n{shown}"),
        }
    }
}

impl std::error::Error for KeepError {}

impl Keep {
    /// The `where` expression and the `position` FENs, checked (the expression knows
    /// `position_ply` when a position is given).
    pub fn new(filter: Option<&str>, fens: &[String]) -> Result<Keep, KeepError> {
        let mut positions = Vec::new();
        for fen in fens {
            match Position::from_fen(fen) {
                Ok(pos) => positions.push(pos),
                Err(error) => {
                    return Err(KeepError::Position {
                        fen: fen.clone(),
                        error,
                    });
                }
            }
        }
        let filter = match filter {
            None => None,
            Some(text) => match Filter::parse(text, &record_schema(!positions.is_empty())) {
                Ok(filter) => Some(filter),
                Err(error) => {
                    let shown = error.show(text);
                    return Err(KeepError::Where { error, shown });
                }
            },
        };
        Ok(Keep { filter, positions })
    }

    /// Whether the game of `report`, numbered `number` in the input `source`, passes both tests
    /// (the expression tests its export record).
    pub fn keeps(&self, source: &str, number: GameNumber, report: &GameReport) -> bool {
        let position = self.has_positions();
        if position && report.position_ply.is_none() {
            return false;
        }
        self.filter.as_ref().is_none_or(|filter| {
            let record = ExportRecord::from_report(source, number, report);
            let tags = |name: &str| report.tree.tag_value(name);
            filter.matches(&RecordFields::new(
                &record,
                filter.fields(),
                position,
                &tags,
            ))
        })
    }

    /// Whether the tags alone decide which games are kept: no position is looked for, and the
    /// expression reads only fields the tags decide ([`TAG_FIELDS`]) and tags.
    pub fn decided_by_tags(&self) -> bool {
        let tag_field = |&field: &usize| FIELDS.get(field).is_some_and(|f| TAG_FIELDS.contains(f));
        !self.has_positions()
            && self
                .filter
                .as_ref()
                .is_some_and(|f| f.fields().iter().all(tag_field))
    }

    /// When the tags alone decide ([`Keep::decided_by_tags`]), the test of `keep` a game's tags
    /// pass exactly when [`Keep::keeps`] keeps the game (the replay then builds the tree only for
    /// the games kept).
    pub fn tag_test(keep: &Arc<Keep>) -> Option<TagTest> {
        keep.decided_by_tags().then(|| {
            let keep = Arc::clone(keep);
            TagTest::new(move |report| keep.keeps("", GameNumber::default(), report))
        })
    }

    /// Whether `position` was given (a game must reach one, and rows have `position_ply`).
    pub fn has_positions(&self) -> bool {
        !self.positions.is_empty()
    }

    /// The positions looked for, as the replay looks for them.
    pub fn targets(&self) -> Targets {
        Targets::new(&self.positions)
    }

    /// Whether the expression reads a tag (the replay must then keep the game's tree, which
    /// knows whether a tag is present).
    pub fn reads_tags(&self) -> bool {
        self.filter.as_ref().is_some_and(|f| !f.tags().is_empty())
    }

    /// Whether the expression reads the opening columns, which only a replay that names openings
    /// ([`ReplayOptions::eco`](arbiter_core::ReplayOptions::eco)) fills.
    pub fn reads_opening(&self) -> bool {
        let filter = self.filter.as_ref();
        filter.is_some_and(|f| (COLUMNS.len()..WHERE_FIELDS).any(|field| f.reads(field)))
    }

    /// The fields that hold the final position's ruling (can White mate, can Black mate),
    /// which a replay for the verdict only leaves unknown
    /// ([`RulingsWanted::VerdictOnly`](arbiter_core::replay::RulingsWanted::VerdictOnly)).
    pub(crate) const RULING_FIELDS: [&str; 2] = ["white_can_mate", "black_can_mate"];

    /// Whether the expression reads a side's ruling (`white_can_mate` or `black_can_mate`).
    pub fn reads_rulings(&self) -> bool {
        self.filter.as_ref().is_some_and(|f| {
            let ruling = |(field, name): (usize, &&str)| {
                Keep::RULING_FIELDS.contains(name) && f.reads(field)
            };
            FIELDS.iter().enumerate().any(ruling)
        })
    }

    /// The jobs a run may use, given `jobs`: one when the expression reads `index` or `game`,
    /// which are known on one job only (the games of a part of an input are numbered later).
    pub fn jobs(&self, jobs: usize) -> usize {
        let numbers = self
            .filter
            .as_ref()
            .is_some_and(|f| f.reads(0) || f.reads(2));
        if numbers { 1 } else { jobs.max(1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_position_or_expression_is_named() {
        let error = Keep::new(None, &["8/8/8 w".into()])
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("position \"8/8/8 w\": invalid fen: "),
            "{error}"
        );
        let error = Keep::new(Some("white_elo >= "), &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "where: column 14: expected a field or a value, found the end of the expression\n  \
             white_elo >= \n               ^"
        );
    }

    #[test]
    fn numbers_take_one_job_and_the_opening_columns_ask_for_the_table() {
        let keep = |text: &str| Keep::new(Some(text), &[]).unwrap();
        assert_eq!(keep("index > 3").jobs(8), 1);
        assert_eq!(keep("game == 2").jobs(8), 1);
        assert_eq!(keep("white_elo > 3").jobs(8), 8);
        assert_eq!(Keep::default().jobs(0), 1);
        assert!(keep("eco_computed == \"B20\"").reads_opening());
        assert!(!keep("eco == \"B20\"").reads_opening());
        assert!(keep("tag(\"WhiteTitle\") == \"GM\"").reads_tags());
        assert!(!keep("valid").reads_tags());
    }

    #[test]
    fn the_ruling_fields_are_found_in_the_expression() {
        let keep = |text: &str| Keep::new(Some(text), &[]).unwrap();
        assert!(keep("white_can_mate == false").reads_rulings());
        assert!(keep("valid and not black_can_mate").reads_rulings());
        assert!(!keep("outcome == \"dead_position\" or winner == \"draw\"").reads_rulings());
        assert!(!Keep::default().reads_rulings());
    }

    /// Each field of `TAG_FIELDS` has its final value once the tags are read: games with and
    /// without a `Result` tag, a time control, a date and time, a bad FEN and a broken main line.
    #[test]
    fn the_tag_fields_are_known_once_the_tags_are_read() {
        use std::sync::Mutex;

        use arbiter_core::{Games, ReplayOptions};

        let pgn = "[Event \"Rated Blitz\"]\n[Site \"https://lichess.org/x\"]\n\
                   [Date \"2024.01.02\"]\n[Round \"-\"]\n[White \"a\"]\n[Black \"b\"]\n\
                   [Result \"1-0\"]\n[UTCDate \"2024.01.02\"]\n[UTCTime \"10:11:12\"]\n\
                   [WhiteElo \"2100\"]\n[BlackElo \"1900\"]\n[WhiteRatingDiff \"+5\"]\n\
                   [BlackRatingDiff \"-5\"]\n[WhiteTitle \"FM\"]\n[ECO \"C20\"]\n\
                   [Opening \"King's Pawn\"]\n[TimeControl \"180+2\"]\n\
                   [Termination \"Normal\"]\n\n\
                   1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Qh5 Nc6 3. Bc4 Nf6 \
                   4. Qxf7# 1-0\n\n\
                   [White \"c\"]\n[TimeControl \"40/7200:3600\"]\n\n1. d4 d5 2. Kd3 Kd7 *\n\n\
                   [FEN \"8/8/8 w\"]\n[Date \"2001.??.??\"]\n\n1. e4 1/2-1/2\n\n\
                   [Black \"d\"]\n\n1. e4 e5 2. Ke3 Nf6 3. Qxf7 0-1\n";
        let early = Arc::new(Mutex::new(Vec::new()));
        let tag_cells = |report: &GameReport| -> Vec<String> {
            let record = ExportRecord::from_report("", GameNumber::default(), report);
            (0..COLUMNS.len())
                .filter(|&field| TAG_FIELDS.contains(&FIELDS[field]))
                .map(|field| format!("{:?}", record.cell(field)))
                .collect()
        };
        let seen = Arc::clone(&early);
        let options = ReplayOptions {
            tree: true,
            movetext_if: Some(TagTest::new(move |report| {
                seen.lock().unwrap().push(tag_cells(report));
                true
            })),
            ..ReplayOptions::default()
        };
        let mut last = Vec::new();
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), options);
        while let Some(game) = games.next_game() {
            last.push(tag_cells(game.unwrap()));
        }
        assert_eq!(last.len(), 4);
        assert_eq!(*early.lock().unwrap(), last);
        assert_eq!(
            TAG_FIELDS.iter().filter(|f| FIELDS.contains(f)).count(),
            TAG_FIELDS.len(),
            "every tag field is an export field"
        );
    }

    #[test]
    fn the_tree_holds_the_movetext_of_the_games_the_tags_keep() {
        use arbiter_core::{Games, ReplayOptions};

        let pgn = "[WhiteElo \"2600\"]\n\n1. e4 e5 *\n\n[WhiteElo \"2400\"]\n\n1. d4 d5 *\n";
        let keep = |text: &str, fens: &[String]| Arc::new(Keep::new(Some(text), fens).unwrap());
        let strong = keep("white_elo >= 2500 and tag(\"Event\") == null", &[]);
        assert!(strong.decided_by_tags());
        assert!(!keep("plies > 2", &[]).decided_by_tags());
        assert!(!keep("result == \"1-0\"", &[]).decided_by_tags());
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -".to_owned();
        assert!(!keep("white_elo >= 2500", &[e4]).decided_by_tags());
        let options = ReplayOptions {
            tree: true,
            movetext_if: Keep::tag_test(&strong),
            ..ReplayOptions::default()
        };
        let mut moves = Vec::new();
        let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), options);
        while let Some(game) = games.next_game() {
            let game = game.unwrap();
            assert!(game.tree.tag_value("WhiteElo").is_some());
            moves.push((game.tree.main_line().count(), game.tags_passed));
        }
        assert_eq!(moves, [(2, Some(true)), (0, Some(false))]);
    }

    #[test]
    fn a_game_is_kept_when_it_passes_both_tests() {
        use arbiter_core::{Games, ReplayOptions};

        let pgn = "[WhiteElo \"2600\"]\n\n1. e4 e5 *\n\n[WhiteElo \"2400\"]\n\n1. d4 d5 *\n";
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
        let kept = |keep: &Keep| {
            let options = ReplayOptions {
                positions: keep.targets(),
                tree: keep.reads_tags(),
                ..ReplayOptions::default()
            };
            let mut kept = Vec::new();
            let mut games = Games::from_reader("t.pgn", pgn.as_bytes(), options);
            while let Some(game) = games.next_game() {
                let game = game.unwrap();
                kept.push(keep.keeps("t.pgn", GameNumber::default(), game));
            }
            kept
        };
        assert_eq!(kept(&Keep::default()), [true, true]);
        let strong = Keep::new(Some("white_elo >= 2500"), &[]).unwrap();
        assert_eq!(kept(&strong), [true, false]);
        let e4 = Keep::new(None, &[after_e4.into()]).unwrap();
        assert_eq!(kept(&e4), [true, false]);
        let both = Keep::new(Some("white_elo < 2500"), &[after_e4.into()]).unwrap();
        assert_eq!(kept(&both), [false, false]);
    }
}
