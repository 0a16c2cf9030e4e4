//! Writers shared by `validate` and `export`: diagnostics as text or JSON Lines and the run's
//! summary, export records and ply rows as CSV, JSON, JSON Lines or Parquet, and the `-o FILE`
//! sink that never leaves a half file.
//!
//! Every writer formats into a caller-owned [`Output`](output::Output), so records can be
//! formatted on worker threads and written to the output in input order by one thread, game
//! numbers filled in then where they were not known.
//!
//! The files form a one-way stack, each using only those before it: `date`, `moment` (times
//! of day and instants), `columns` (a table's schema), `columnar` (rows held column by column, for
//! the Parquet writer and the Arrow batches), `parquet` (the Parquet writer, with the `parquet`
//! feature), `output` (a batch's output, its cells and where it goes), `arrow` (rows as Arrow record
//! batches, with the `arrow` feature), `table` (a row's
//! cells in each format), `movetext` (a main line in SAN), then the writers: `record` (a row per
//! game), `plies` (a row per ply), `diagnostic` (a problem located), `summary` (what a run
//! counted); `sink` (the `-o FILE` output, and a directory published whole); and `parts`
//! (Parquet parts and their manifest, with the `parquet` feature).

#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "parquet")]
pub mod columnar;
pub mod columns;
pub mod date;
pub mod diagnostic;
pub mod moment;
pub mod movetext;
pub mod output;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "parquet")]
pub mod parts;
pub mod plies;
pub mod record;
pub mod sink;
pub mod summary;
pub mod table;
