//! Integration tests of per-ply data: every main-line ply of the lichess sample read through
//! arbiter's PGN reader and `arbiter_core::clocks`, compared with python-chess's reading
//! (`expected/lichess_plies.jsonl`), the clock evidence of the same games, and the Parquet writer
//! (`arbiter_report::parquet`), on its own and with those plies; and hostile text, which never
//! makes them panic.

use arbiter_test_support as shared_data;

mod hostile;
mod lichess;
mod parquet;
mod parquet_writer;
