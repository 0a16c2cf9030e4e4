//! What the package uses of the arbiter library, imported here and only here: the rest of the
//! package names these through `crate::library`, so that when the library's crates are split (or
//! renamed) this file is the one to change.

pub use arbiter::arrow::{BATCH_ROWS, Batches, RecordBatch, SchemaRef, schema};
pub use arbiter::rules::mate::{CanMate, MateLimits, can_mate};
pub use arbiter::rules::{Color, Move, Position, San, Uci, perft, san};
pub use arbiter::sink::Sink;
pub use arbiter::sink::inputs::{FileId, input_that_is};
pub use arbiter::{
    Chooser, DEFAULT_RULINGS_BUDGET, DedupMode, Destination, DiagnosticFormat, DiagnosticFormatter,
    ExportFormat, ExportOptions, ExportPlan, InputError, KeptGames, Observer, Output,
    ReplayOptions, Router, SelectOptions, Severities, Status, Targets, Totals, WriteOptions,
    game_tests, needs_numbers, reads_opening, run, sources,
};
