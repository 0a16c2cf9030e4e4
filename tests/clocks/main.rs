//! Integration tests of `arbiter::clocks` on real data: every main-line ply of the lichess sample
//! read through arbiter's PGN reader and `MoveAnnotations`, compared with python-chess's reading
//! (`expected/lichess_plies.jsonl`), the clock evidence of the same games, and those plies written
//! as Parquet and read back.

#[path = "../common/shared_data.rs"]
mod shared_data;

mod lichess;
mod parquet;
