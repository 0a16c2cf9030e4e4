//! Acting on the verdict (`arbiter select`): keep the games an expression, a position or
//! deduplication picks, and write them back as clean PGN (the game tree and the writer are
//! `tree`'s, the position keys and the opening table `position`'s, both under the replay that
//! records them).
//!
//! The parts, each with a job of its own:
//!
//! - `expr`: the `--where` expression language over export's field names, shared with
//!   `export --where`;
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
mod frame;
mod route;

pub use check::check_round_trip;
pub use choose::{
    Chooser, RecordFields, SelectOptions, needs_numbers, reads_opening, record_schema,
};
pub use dedup::{DedupMode, KeptGames};
pub use expr::{ExprError, Fields, Filter, Schema, Type, Value};
pub use route::{Router, SelectCounts};

#[cfg(test)]
mod round_trip;
