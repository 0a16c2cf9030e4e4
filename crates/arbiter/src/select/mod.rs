//! Acting on the verdict (`arbiter select`): keep the games an expression, a position or
//! deduplication picks, and write them back as clean PGN (the game tree and the position keys are
//! arbiter-core's, recorded by the replay; the PGN writer is arbiter-report's).
//!
//! The parts, each with a job of its own:
//!
//! - `expr`: the `--where` expression language over export's field names, shared with
//!   `export --where`;
//! - `fields`: a game's export record as the fields of an expression, and their schema;
//! - `keep`: which games a run keeps (`--where`, `--position`), for `export` and `select` alike;
//! - `plan`: select's options, checked once, and what a run needs from them;
//! - `dedup`: the set of games kept, for `--dedup`, in a fixed number of bytes per game, every
//!   hash match checked against the game's own key;
//! - `choose`: the formatter a worker runs on each game: the tests, the PGN written, the frame;
//! - `frame`: what a worker hands on for each game (its verdict, its PGN, its original text,
//!   its dedup key), in the batch's output;
//! - `route`: where each game goes, decided in input order (output, `--rejected`,
//!   `--duplicates`), and the counts;
//! - `check`: the round trip select promises, as a check the property test and the
//!   `select_roundtrip` fuzz target both run.

mod check;
mod choose;
mod dedup;
mod expr;
mod fields;
mod frame;
mod keep;
mod plan;
mod route;

pub use check::check_round_trip;
pub use choose::Chooser;
pub use dedup::{DedupMode, KeptGames};
pub use expr::{ExprError, Fields, Filter, Schema, Type, Value};
pub use fields::record_schema;
pub use keep::{Keep, KeepError};
pub use plan::{SelectOptions, SelectPlan};
pub use route::{Router, SelectCounts};

#[cfg(test)]
mod round_trip;
