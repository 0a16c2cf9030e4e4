//! What the package uses of the arbiter library, imported here and only here: the rest of the
//! package names these through `crate::library`, so that when the library's crates are split (or
//! renamed) this file is the one to change.

pub use arbiter::core::position::{Checks, Status, can_mate_each, named, sorted_moves};
pub use arbiter::core::problem::Severities;
pub use arbiter::core::replay::{DEFAULT_RULINGS_BUDGET, RulingsWanted};
pub use arbiter::io::Sink;
pub use arbiter::io::input::{InputError, sources};
pub use arbiter::io::sink::clash;
pub use arbiter::pipeline::unfit_for_range;
pub use arbiter::report::arrow::{BATCH_ROWS, Batches, RecordBatch, SchemaRef, schema};
pub use arbiter::report::diagnostic::{DiagnosticFormat, DiagnosticFormatter};
pub use arbiter::report::output::{Destination, Output};
pub use arbiter::report::pgn_writer::WriteOptions;
pub use arbiter::rules::mate::{CanMate, MateLimits, Solver, Verdict};
pub use arbiter::rules::{Color, Move, Position, San, Uci, perft, san};
pub use arbiter::select::{Chooser, DedupMode, KeptGames, Router, SelectOptions, SelectPlan};
pub use arbiter::{ExportFormat, ExportOptions, ExportPlan, Observer, ReplayOptions, Totals, run};
