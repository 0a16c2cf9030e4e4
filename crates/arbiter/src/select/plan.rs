//! Select as one call: `arbiter select`'s options checked once ([`SelectPlan::new`]: the
//! `where` expression and the positions), and what a run needs from them (the replay options,
//! the number of jobs, what each worker does with a game). The command line and the Python
//! package both build their select from a [`SelectPlan`].
//!
//! # Examples
//!
//! ```
//! use arbiter::select::{SelectOptions, SelectPlan};
//!
//! let options = SelectOptions {
//!     filter: Some("game > 2".into()),
//!     eco: true,
//!     ..SelectOptions::default()
//! };
//! let plan = SelectPlan::new(options)?;
//! assert_eq!(plan.jobs(8), 1, "game numbers are known on one job only");
//! assert!(plan.replay_options().eco);
//! # Ok::<(), arbiter::select::KeepError>(())
//! ```

use std::sync::Arc;

use arbiter_core::replay::{ReplayOptions, RulingsWanted};
use arbiter_report::pgn_writer::WriteOptions;

use super::dedup::DedupMode;
use super::keep::{Keep, KeepError};

/// What select is asked to do, as the options of `arbiter select` give it (not yet checked).
#[derive(Clone, Debug, Default)]
pub struct SelectOptions {
    /// Keep the games that pass this expression (`--where`).
    pub filter: Option<String>,
    /// Keep the games whose main line reaches one of these FENs (`--position`).
    pub positions: Vec<String>,
    /// Drop the duplicates of games kept before (`--dedup`).
    pub dedup: Option<DedupMode>,
    /// Write the ECO and Opening tags the table names (`--eco`).
    pub eco: bool,
    /// Write the board's result where it decides one and the Result says otherwise
    /// (`--fix-result`).
    pub fix_result: bool,
    /// What the PGN writer keeps (comments, commands, variations, NAGs).
    pub write: WriteOptions,
    /// A `--rejected` or `--duplicates` file wants the original text of games.
    pub keep_source: bool,
}

/// Checked select options.
#[derive(Debug)]
pub struct SelectPlan {
    /// The games kept.
    pub(super) keep: Arc<Keep>,
    /// The options, as given.
    pub(super) options: SelectOptions,
}

impl SelectPlan {
    /// Checks `options`.
    pub fn new(options: SelectOptions) -> Result<SelectPlan, KeepError> {
        let keep = Keep::new(options.filter.as_deref(), &options.positions)?;
        Ok(SelectPlan {
            keep: Arc::new(keep),
            options,
        })
    }

    /// How the games are to be replayed: with their trees (select writes from them; the
    /// movetext only for the games whose tags pass, when the tags alone decide), naming openings
    /// for `eco` or an expression that reads them, looking for the positions, ruling both sides
    /// of the final position only for an expression that reads them (the verdict is the same).
    pub fn replay_options(&self) -> ReplayOptions {
        ReplayOptions {
            tree: true,
            movetext_if: Keep::tag_test(&self.keep),
            eco: self.options.eco || self.keep.reads_opening(),
            positions: self.keep.targets(),
            rulings: if self.keep.reads_rulings() {
                RulingsWanted::BothSides
            } else {
                RulingsWanted::VerdictOnly
            },
            ..ReplayOptions::default()
        }
    }

    /// The jobs a run may use, given `jobs` ([`Keep::jobs`]).
    pub fn jobs(&self, jobs: usize) -> usize {
        self.keep.jobs(jobs)
    }

    /// `dedup`.
    pub fn dedup(&self) -> Option<DedupMode> {
        self.options.dedup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_are_ruled_only_for_an_expression_that_reads_them() {
        let rulings = |filter: Option<&str>| {
            let options = SelectOptions {
                filter: filter.map(str::to_owned),
                ..SelectOptions::default()
            };
            SelectPlan::new(options).unwrap().replay_options().rulings
        };
        assert_eq!(rulings(None), RulingsWanted::VerdictOnly);
        assert_eq!(
            rulings(Some("winner == \"draw\"")),
            RulingsWanted::VerdictOnly
        );
        assert_eq!(
            rulings(Some("black_can_mate == false")),
            RulingsWanted::BothSides
        );
    }
}
