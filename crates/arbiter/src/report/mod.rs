//! Output formats shared by `validate` and `export`: diagnostics as text or JSON Lines, export
//! records as CSV, JSON or JSON Lines, and the `-o FILE` sink that never leaves a half file.
//!
//! Every writer formats into a caller-owned [`output::Output`], so records can be formatted on
//! worker threads and written to the output in input order by one thread, game numbers filled in
//! then where they were not known.

pub mod code;
pub mod columns;
pub mod date;
pub mod diagnostic;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod record;
pub mod sink;
pub mod table;
pub mod text;
