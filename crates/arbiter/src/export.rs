//! Export as one call: `arbiter export`'s options checked once ([`ExportPlan::new`]: the tag
//! columns, the `where` expression, the positions), and what a run needs from them (the columns,
//! the replay options, the number of jobs, a formatter per worker). The command line and the
//! Python package both build their export from an [`ExportPlan`] (and
//! the command line asks [`unfit_output`] about the file it writes).
//!
//! An error names the option as the user wrote it without its dashes (`tags: Foo is given
//! twice`): the command line says `--tags: ...`, the Python package `tags: ...`.
//!
//! # Examples
//!
//! ```
//! use arbiter::{ExportFormat, ExportOptions, ExportPlan};
//!
//! let options = ExportOptions {
//!     tags: vec!["WhiteTitle".into()],
//!     filter: Some("white_elo >= 2500".into()),
//!     ..ExportOptions::default()
//! };
//! let plan = ExportPlan::new(&options, ExportFormat::Csv).unwrap();
//! assert_eq!(plan.columns().last().unwrap().name, "WhiteTitle");
//!
//! let twice = ExportOptions { tags: vec!["Foo".into(), "Foo".into()], ..ExportOptions::default() };
//! let error = ExportPlan::new(&twice, ExportFormat::Csv).err().unwrap();
//! assert_eq!(error.to_string(), "tags: Foo is given twice");
//! ```

use std::fmt;
use std::path::Path;

#[cfg(feature = "parquet")]
use arbiter_io::Compression;

use arbiter_core::replay::{GameReport, ReplayOptions, RulingsWanted};
use arbiter_report::columns::Column;
use arbiter_report::output::{GameFormatter, GameNumber, Output};
use arbiter_report::plies::{PlyColumns, PlyFormatter};
use arbiter_report::record::{ColumnSet, ExportFormat, RecordFormatter};
use arbiter_report::table::Table;

use crate::select::{Keep, KeepError};

/// What to export, as the options of `arbiter export` give it (not yet checked).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct ExportOptions {
    /// One row per main-line ply instead of one per game (`--plies`).
    pub plies: bool,
    /// With `plies`: the FEN after each move (`--fen`).
    pub fen: bool,
    /// With `plies`: the text of each move's comments (`--comments`).
    pub comments: bool,
    /// The lichess dataset's game columns (`--columns lichess`) instead of arbiter's.
    pub lichess: bool,
    /// The computed opening columns (`--eco`; not with `lichess`).
    pub eco: bool,
    /// The movetext column (`--movetext`).
    pub movetext: bool,
    /// Extra tag columns (`--tags`), in this order.
    pub tags: Vec<String>,
    /// Only the games that pass this expression (`--where`).
    pub filter: Option<String>,
    /// Only the games whose main line reaches one of these FENs (`--position`).
    pub positions: Vec<String>,
}

/// A mistake in the export options, named as the user wrote the option (without dashes).
#[derive(Debug, Clone, PartialEq)]
pub enum ExportError {
    /// A bad `tags` list: the message says why.
    Tags(String),
    /// A bad `where` or `position`.
    Keep(KeepError),
    /// `eco` asked with the lichess columns, which have the ECO and Opening tags.
    LichessEco,
    /// `movetext` asked for ply rows, which hold the main line a move a row.
    MovetextOfPlies,
    /// An option of game rows (the lichess columns) asked for ply rows, or an option of ply
    /// rows (`fen`, `comments`) for game rows.
    NotForRows {
        /// The option.
        option: &'static str,
        /// Whether the rows are ply rows.
        plies: bool,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Tags(message) => write!(f, "tags: {message}"),
            ExportError::Keep(error) => error.fmt(f),
            ExportError::LichessEco => f.write_str(
                "eco adds arbiter's opening columns; the lichess columns have the ECO and \
                 Opening tags",
            ),
            ExportError::MovetextOfPlies => f.write_str(
                "movetext applies to game rows: ply rows (plies) hold the main line one move a \
                 row, in their san and uci columns",
            ),
            ExportError::NotForRows {
                option,
                plies: true,
            } => {
                write!(f, "{option} applies to game rows, not to ply rows (plies)")
            }
            ExportError::NotForRows {
                option,
                plies: false,
            } => write!(f, "{option} applies to ply rows (plies), not to game rows"),
        }
    }
}

impl std::error::Error for ExportError {}

/// The `tags` names, trimmed; an error for an empty name, the name of one of `fixed` (the row's
/// standard columns, in any case: `Event` is the `event` column) or a name given twice (in any
/// case: `Foo` and `foo` would be one column to DuckDB).
fn tag_columns(tags: &[String], fixed: &[&str]) -> Result<Vec<String>, ExportError> {
    let mut names: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        let name = tag.trim();
        let error = |message: String| Err(ExportError::Tags(message));
        if name.is_empty() {
            return error(format!("empty tag name in {:?}", tags.join(",")));
        }
        if let Some(field) = fixed.iter().find(|f| f.eq_ignore_ascii_case(name)) {
            return error(format!("{name} is already the standard column {field}"));
        }
        if let Some(same) = names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
            if same == name {
                return error(format!("{name} is given twice"));
            }
            return error(format!(
                "{name} and {same} differ only in case; DuckDB and pandas would not tell the \
                 two columns apart"
            ));
        }
        names.push(name.to_owned());
    }
    Ok(names)
}

/// Checked export options: the rows' columns, and what a run needs to write them.
#[derive(Debug)]
pub struct ExportPlan {
    format: ExportFormat,
    /// The game row's columns, or `None` for ply rows.
    set: Option<ColumnSet>,
    /// The ply row's optional columns.
    wanted: PlyColumns,
    /// The extra tag columns, checked.
    tags: Vec<String>,
    /// The games kept.
    keep: Keep,
    comments: bool,
}

impl ExportPlan {
    /// Checks `options` for rows written as `format`.
    pub fn new(options: &ExportOptions, format: ExportFormat) -> Result<ExportPlan, ExportError> {
        let plies = options.plies;
        if plies && options.movetext {
            return Err(ExportError::MovetextOfPlies);
        }
        let misplaced = [
            ("columns", options.lichess, false),
            ("fen", options.fen, true),
            ("comments", options.comments, true),
        ];
        if let Some((option, ..)) = misplaced
            .iter()
            .find(|(_, given, for_plies)| *given && *for_plies != plies)
        {
            return Err(ExportError::NotForRows { option, plies });
        }
        if options.lichess && options.eco {
            return Err(ExportError::LichessEco);
        }
        let keep =
            Keep::new(options.filter.as_deref(), &options.positions).map_err(ExportError::Keep)?;
        let set = (!plies).then_some(if options.lichess {
            ColumnSet::Lichess
        } else {
            ColumnSet::Arbiter {
                eco: options.eco,
                movetext: options.movetext,
            }
        });
        let wanted = PlyColumns {
            fen: options.fen,
            comment: options.comments,
            opening: options.eco,
            position: keep.has_positions(),
        };
        let tags = match set {
            None => {
                let fixed = wanted.columns(&[]);
                let names: Vec<&str> = fixed.iter().map(|c| c.name.as_str()).collect();
                tag_columns(&options.tags, &names)?
            }
            Some(set) => {
                let fixed = set.columns(keep.has_positions(), &[]);
                let names: Vec<&str> = fixed.iter().map(|c| c.name.as_str()).collect();
                tag_columns(&options.tags, &names)?
            }
        };
        Ok(ExportPlan {
            format,
            set,
            wanted,
            tags,
            keep,
            comments: options.comments,
        })
    }

    /// The columns of every row, in order.
    pub fn columns(&self) -> Vec<Column> {
        match self.set {
            Some(set) => set.columns(self.keep.has_positions(), &self.tags),
            None => self.wanted.columns(&self.tags),
        }
    }

    /// How the games are to be replayed for these rows: both sides of the final position ruled
    /// only when a column or the filter reads them.
    pub fn replay_options(&self) -> ReplayOptions {
        let ruling_column = |column: &Column| Keep::RULING_FIELDS.contains(&column.name.as_str());
        let rulings = if self.columns().iter().any(ruling_column) || self.keep.reads_rulings() {
            RulingsWanted::BothSides
        } else {
            RulingsWanted::VerdictOnly
        };
        ReplayOptions {
            extra_tags: self.tags.clone(),
            plies: self.set.is_none_or(ColumnSet::needs_moves),
            comments: self.comments,
            // The tree only for a filter that reads tags: it knows a tag's presence.
            tree: self.keep.reads_tags(),
            eco: self.set.is_some_and(ColumnSet::has_opening)
                || self.wanted.opening
                || self.keep.reads_opening(),
            positions: self.keep.targets(),
            rulings,
            ..ReplayOptions::default()
        }
    }

    /// The jobs a run may use, given `jobs` ([`Keep::jobs`]).
    pub fn jobs(&self, jobs: usize) -> usize {
        self.keep.jobs(jobs)
    }

    /// The format of the rows.
    pub fn format(&self) -> ExportFormat {
        self.format
    }

    /// Whether the rows are ply rows (`plies`).
    pub fn plies(&self) -> bool {
        self.set.is_none()
    }

    /// The table of the rows: their columns in their format (its header and footer).
    pub fn table(&self) -> Table {
        Table::new(self.format, self.columns())
    }

    /// A formatter of the rows, for one worker.
    pub fn formatter(&self) -> ExportFormatter<'_> {
        ExportFormatter(match self.set {
            None => Rows::Plies(Kept {
                rows: PlyFormatter::new(self.format, self.wanted, &self.tags),
                keep: &self.keep,
            }),
            Some(set) => {
                let position = self.keep.has_positions();
                Rows::Games(Kept {
                    rows: RecordFormatter::with_position(self.format, set, position, &self.tags),
                    keep: &self.keep,
                })
            }
        })
    }
}

/// Why export's rows cannot be written as `format` to the file `path`, if they cannot: Parquet
/// compresses its columns itself, so a Parquet file named with a compression suffix (`.gz`...)
/// is refused rather than compressed twice.
pub fn unfit_output(format: ExportFormat, path: &Path) -> Option<String> {
    #[cfg(feature = "parquet")]
    if format == ExportFormat::Parquet
        && let Some(compression) = Compression::of(path)
    {
        return Some(format!(
            "{}: Parquet compresses its columns itself; leave out the {} suffix",
            path.display(),
            compression.suffix()
        ));
    }
    let _ = (format, path);
    None
}

/// Formats each game as export's rows (one per worker): its record, or its ply rows.
pub struct ExportFormatter<'a>(Rows<'a>);

/// Game rows or ply rows.
enum Rows<'a> {
    /// A record per game that passes the tests.
    Games(Kept<'a, RecordFormatter>),
    /// The ply rows of every game that passes them.
    Plies(Kept<'a, PlyFormatter>),
}

impl GameFormatter for ExportFormatter<'_> {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        match &mut self.0 {
            Rows::Games(rows) => rows.format(source, number, report, out),
            Rows::Plies(plies) => plies.format(source, number, report, out),
        }
    }
}

/// Formats each game that passes `where` and `position` as its rows: its record, or its ply
/// rows.
struct Kept<'a, F> {
    /// The rows' formatter.
    rows: F,
    /// The games kept.
    keep: &'a Keep,
}

impl<F: GameFormatter> GameFormatter for Kept<'_, F> {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        if !self.keep.keeps(source, number, report) {
            return;
        }
        self.rows.format(source, number, report, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(options: ExportOptions) -> Result<ExportPlan, String> {
        ExportPlan::new(&options, ExportFormat::Csv).map_err(|e| e.to_string())
    }

    #[test]
    fn both_sides_are_ruled_only_for_a_column_or_a_filter_that_reads_them() {
        let rulings = |options| plan(options).unwrap().replay_options().rulings;
        let lichess = ExportOptions {
            lichess: true,
            ..ExportOptions::default()
        };
        assert_eq!(rulings(ExportOptions::default()), RulingsWanted::BothSides);
        assert_eq!(rulings(lichess), RulingsWanted::BothSides);
        let plies = |filter: &str| ExportOptions {
            plies: true,
            filter: Some(filter.into()),
            ..ExportOptions::default()
        };
        assert_eq!(rulings(plies("valid")), RulingsWanted::VerdictOnly);
        assert_eq!(
            rulings(plies("white_can_mate == false")),
            RulingsWanted::BothSides
        );
    }

    #[test]
    fn tags_are_trimmed_and_checked_against_the_columns() {
        let tags = |tags: &[&str]| ExportOptions {
            tags: tags.iter().map(|t| t.to_string()).collect(),
            ..ExportOptions::default()
        };
        let columns = plan(tags(&[" WhiteTitle "])).unwrap().columns();
        assert_eq!(columns.last().unwrap().name, "WhiteTitle");
        assert_eq!(
            plan(tags(&["Event"])).unwrap_err(),
            "tags: Event is already the standard column event"
        );
        assert_eq!(
            plan(tags(&["Foo", "foo"])).unwrap_err(),
            "tags: foo and Foo differ only in case; DuckDB and pandas would not tell the two \
             columns apart"
        );
        assert_eq!(
            plan(tags(&["", "x"])).unwrap_err(),
            "tags: empty tag name in \",x\""
        );
        let plies = ExportOptions {
            plies: true,
            ..tags(&["san"])
        };
        assert_eq!(
            plan(plies).unwrap_err(),
            "tags: san is already the standard column san"
        );
    }

    #[test]
    fn game_options_are_not_for_ply_rows() {
        let options = ExportOptions {
            plies: true,
            lichess: true,
            ..ExportOptions::default()
        };
        assert_eq!(
            plan(options).unwrap_err(),
            "columns applies to game rows, not to ply rows (plies)"
        );
        let options = ExportOptions {
            plies: true,
            movetext: true,
            ..ExportOptions::default()
        };
        assert_eq!(
            plan(options).unwrap_err(),
            ExportError::MovetextOfPlies.to_string()
        );
        let options = ExportOptions {
            fen: true,
            ..ExportOptions::default()
        };
        assert_eq!(
            plan(options).unwrap_err(),
            "fen applies to ply rows (plies), not to game rows"
        );
        let options = ExportOptions {
            lichess: true,
            eco: true,
            ..ExportOptions::default()
        };
        assert_eq!(
            plan(options).unwrap_err(),
            ExportError::LichessEco.to_string()
        );
    }

    #[test]
    fn a_bad_position_or_expression_is_named_as_keep_names_it() {
        let options = ExportOptions {
            positions: vec!["8/8/8 w".into()],
            ..ExportOptions::default()
        };
        assert!(
            plan(options)
                .unwrap_err()
                .starts_with("position \"8/8/8 w\": invalid fen: ")
        );
        let options = ExportOptions {
            filter: Some("white_elo >= ".into()),
            ..ExportOptions::default()
        };
        let error = plan(options).unwrap_err();
        assert_eq!(
            error,
            "where: column 14: expected a field or a value, found the end of the expression\n  \
             white_elo >= \n               ^"
        );
    }

    // See: issue 43, point 7.
    #[test]
    fn ply_rows_take_the_filters_and_the_games_opening_and_position_columns() {
        let options = ExportOptions {
            plies: true,
            eco: true,
            positions: vec![arbiter_rules::STARTING_FEN.into()],
            filter: Some("eco_computed == \"C60\"".into()),
            tags: vec!["Annotator".into()],
            ..ExportOptions::default()
        };
        let checked = ExportPlan::new(&options, ExportFormat::Csv).unwrap();
        let names: Vec<String> = checked.columns().into_iter().map(|c| c.name).collect();
        assert_eq!(
            names[names.len() - 5..],
            [
                "offset",
                "eco_computed",
                "opening_computed",
                "position_ply",
                "Annotator"
            ]
        );
        let replay = checked.replay_options();
        assert!(replay.plies && replay.eco && !replay.positions.is_empty());
        // The game's columns are reserved names for tags, as the ply columns are.
        let clash = ExportOptions {
            tags: vec!["ECO_computed".into()],
            ..options
        };
        assert_eq!(
            plan(clash).unwrap_err(),
            "tags: ECO_computed is already the standard column eco_computed"
        );
    }

    #[test]
    fn position_adds_its_column_and_numbers_take_one_job() {
        let options = ExportOptions {
            positions: vec![arbiter_rules::STARTING_FEN.into()],
            filter: Some("index > 3".into()),
            ..ExportOptions::default()
        };
        let plan = ExportPlan::new(&options, ExportFormat::Csv).unwrap();
        assert!(plan.columns().iter().any(|c| c.name == "position_ply"));
        assert_eq!(plan.jobs(8), 1);
        let plain = ExportPlan::new(&ExportOptions::default(), ExportFormat::Csv).unwrap();
        assert_eq!(plain.jobs(8), 8);
        assert_eq!(plain.jobs(0), 1);
    }
}
