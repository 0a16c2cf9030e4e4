//! Parquet parts of at most N rows each (`export -o DIR --rows-per-file N`),
//! `part-00000.parquet`, `part-00001.parquet`..., and a `_manifest.json` that says how they were
//! made (arbiter's version, the command, each input with its size and SHA-256, the inputs not
//! read whole, games, invalid games, and the rows of each part), so that any shard can be re-run
//! and checked.
//!
//! All or nothing: the parts and the manifest are written into a staging directory
//! ([`StagedDir`]) and published by one rename once the manifest is written; a DIR that exists
//! has every part and its manifest, and a run that fails or is stopped leaves neither parts nor a
//! directory of its own. Each part is written to disk and closed as soon as it is full, so that a
//! run holds one part open however many it writes. An input's size and SHA-256 are those of the
//! bytes the run read ([`InputDigest`]), null where it was not read whole from its start.

use std::io;
use std::ops::Range;
use std::path::Path;

use arbiter_io::input::InputDigest;
use arbiter_io::sink::{Sink, StagedDir};
use serde::Serialize;

use crate::columnar::{ColumnBuffers, Fill};
use crate::columns::Column;
use crate::output::{Destination, Output};
use crate::parquet::{
    ColumnSink, ParquetError, ParquetOptions, ParquetWriter, RowSink, Value, io_error,
};
use crate::summary::Totals;

/// The manifest's file name in DIR.
pub(crate) const MANIFEST: &str = "_manifest.json";

/// The parts being written, and the rows of those written.
pub struct Shards {
    staged: StagedDir,
    columns: Vec<Column>,
    rows_per_file: u64,
    /// The part being written (`None` only once finished).
    current: Option<ParquetWriter<Sink>>,
    rows_in_current: u64,
    /// The rows of each part written, closed and on disk.
    written: Vec<u64>,
}

impl Shards {
    /// Starts the parts of `columns` for `dir` (which must not exist or be empty), at most
    /// `rows_per_file` rows each.
    pub fn create(dir: &Path, columns: &[Column], rows_per_file: u64) -> io::Result<Shards> {
        let staged = StagedDir::create(dir)?;
        let current = open_part(&staged, 0, columns)?;
        Ok(Shards {
            staged,
            columns: columns.to_vec(),
            rows_per_file: rows_per_file.max(1),
            current: Some(current),
            rows_in_current: 0,
            written: Vec::new(),
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.written.iter().sum::<u64>() + self.rows_in_current
    }

    /// Ends the last part: [`Parts::commit`] publishes them. A last part without rows is left
    /// out, unless it is the only one (a run without games still writes the schema).
    pub fn finish(mut self) -> io::Result<Parts> {
        let current = self.current.take().expect("a part is open until finished");
        if self.rows_in_current > 0 || self.written.is_empty() {
            close_part(current)?;
            self.written.push(self.rows_in_current);
        } else {
            drop(current);
            std::fs::remove_file(self.staged.path(&part_name(self.written.len())))?;
        }
        Ok(Parts {
            staged: self.staged,
            parts: self.written,
        })
    }

    fn current(&mut self) -> &mut ParquetWriter<Sink> {
        self.current
            .as_mut()
            .expect("a part is open until finished")
    }
}

/// Part `index` in `staged`, opened for `columns`.
fn open_part(
    staged: &StagedDir,
    index: usize,
    columns: &[Column],
) -> io::Result<ParquetWriter<Sink>> {
    let sink = Sink::staged(staged, &part_name(index))?;
    ParquetWriter::new(sink, columns, ParquetOptions::default()).map_err(io_error)
}

/// Ends a full part: its footer written, the file on disk and closed.
fn close_part(part: ParquetWriter<Sink>) -> io::Result<()> {
    part.finish().map_err(io_error)?.complete()?;
    Ok(())
}

/// The file name of part `index`: `part-00000.parquet`.
fn part_name(index: usize) -> String {
    format!("part-{index:05}.parquet")
}

impl RowSink for Shards {
    fn columns(&self) -> &[Column] {
        &self.columns
    }

    fn push_value(&mut self, value: Value<'_>) {
        self.current().push(value);
    }

    fn end_row(&mut self) -> Result<(), ParquetError> {
        self.current().end_row()?;
        self.rows_in_current += 1;
        self.next_part_if_full()
    }
}

impl ColumnSink for Shards {
    fn room(&self) -> (usize, usize) {
        let current = self
            .current
            .as_ref()
            .expect("a part is open until finished");
        let (rows, bytes) = current.room();
        let left_in_file = usize::try_from(self.rows_per_file - self.rows_in_current);
        (rows.min(left_in_file.unwrap_or(usize::MAX)), bytes)
    }

    fn append(
        &mut self,
        from: &ColumnBuffers,
        rows: Range<usize>,
        fills: &[Fill],
    ) -> Result<usize, ParquetError> {
        let count = rows.len() as u64;
        let bytes = self.current().append(from, rows, fills)?;
        self.rows_in_current += count;
        self.next_part_if_full()?;
        Ok(bytes)
    }
}

impl Shards {
    /// Closes the current part when it holds its rows, and opens the next.
    fn next_part_if_full(&mut self) -> Result<(), ParquetError> {
        if self.rows_in_current == self.rows_per_file {
            let full = self.current.take().expect("a part is open");
            close_part(full).map_err(|err| ParquetError::External(Box::new(err)))?;
            self.written.push(self.rows_in_current);
            self.rows_in_current = 0;
            let next = open_part(&self.staged, self.written.len(), &self.columns)
                .map_err(|err| ParquetError::External(Box::new(err)))?;
            self.current = Some(next);
        }
        Ok(())
    }
}

impl Destination for Shards {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        output
            .write_cells(run_before, input_before, self)
            .map_err(io_error)
    }

    fn digests(&self) -> bool {
        true
    }
}

/// The parts of a run, closed in the staging directory: published by [`Parts::commit`], removed
/// when dropped.
pub struct Parts {
    staged: StagedDir,
    /// The rows of each part.
    parts: Vec<u64>,
}

/// The manifest, fields in this order.
#[derive(Serialize)]
struct Manifest<'a> {
    arbiter: &'static str,
    command: &'a [String],
    inputs: Vec<ManifestInput<'a>>,
    /// The inputs not read whole (only under `--keep-going` is such a run committed).
    unread: Vec<&'a str>,
    games: u64,
    invalid_games: u64,
    rows: u64,
    parts: Vec<ManifestPart>,
}

/// One input of the manifest: its name as the run gave it, and the size and SHA-256 of the bytes
/// read (null when it was not read whole).
#[derive(Serialize)]
struct ManifestInput<'a> {
    file: &'a str,
    bytes: Option<u64>,
    sha256: Option<String>,
}

/// One part of the manifest.
#[derive(Serialize)]
struct ManifestPart {
    file: String,
    rows: u64,
}

impl Parts {
    /// How many parts there are.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether there is none (never: a run without rows writes one part).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The directory as the user gave it.
    pub fn dir(&self) -> &Path {
        self.staged.given()
    }

    /// Writes the manifest of a run that counted `totals`, made by `command`, and publishes the
    /// directory (the commit point: before it there is no DIR, after it DIR is whole).
    pub fn commit(self, totals: &Totals, command: &[String]) -> io::Result<()> {
        let parts = (self.parts.iter().enumerate())
            .map(|(index, &rows)| ManifestPart {
                file: part_name(index),
                rows,
            })
            .collect();
        let inputs = (totals.inputs.iter())
            .map(|input| ManifestInput {
                file: &input.name,
                bytes: input.digest.map(|d| d.bytes),
                sha256: input.digest.as_ref().map(InputDigest::sha256_hex),
            })
            .collect();
        let manifest = Manifest {
            arbiter: env!("CARGO_PKG_VERSION"),
            command,
            inputs,
            unread: totals.unread().collect(),
            games: totals.counts.games,
            invalid_games: totals.counts.invalid,
            rows: self.parts.iter().sum(),
            parts,
        };
        let mut sink = Sink::staged(&self.staged, MANIFEST)?;
        serde_json::to_writer_pretty(&mut sink, &manifest).map_err(io::Error::from)?;
        io::Write::write_all(&mut sink, b"\n")?;
        sink.complete()?;
        self.staged.publish()
    }
}
