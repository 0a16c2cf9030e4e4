//! Acting on the verdict (`arbiter select`): keep the games an expression, a position or
//! deduplication picks, name their openings, and write them back as clean PGN.
//!
//! The parts, each with a job of its own:
//!
//! - `position`: a position's identity as the repetition rule sees it ([`position::PositionKey`]),
//!   for `--position` and the opening table;
//! - `eco`: the opening table built into the library and the classifier (`--eco`);
//! - `tree`: one game as select writes it ([`tree::GameTree`]): tags in input order, and the
//!   movetext with canonical SAN, comments, NAGs and variations, recorded as the replay goes;
//! - `write`: the PGN writer (export format of the PGN standard, section 8);
//! - `expr`: the `--where` expression language over export's field names, shared with
//!   `export --where`;
//! - `dedup`: the set of games kept, for `--dedup`, in a fixed number of bytes per game, every
//!   hash match checked against the game's own key;
//! - `frame`: what a worker hands on for each game (its verdict, its PGN, its original text,
//!   its dedup key), in the batch's output;
//! - `route`: where each game goes, decided in input order (output, `--rejected`,
//!   `--duplicates`), and the counts.

pub mod choose;
pub mod dedup;
pub mod eco;
pub mod expr;
pub mod frame;
pub mod position;
pub mod route;
pub mod tree;
pub mod write;
