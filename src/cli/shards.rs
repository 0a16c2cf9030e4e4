//! `export -o DIR --rows-per-file N`: Parquet parts of at most N rows each, `part-00000.parquet`,
//! `part-00001.parquet`..., and a `_manifest.json` that says how they were made (arbiter's
//! version, the command, each input with its size and SHA-256, games, invalid games, and the rows
//! of each part), so that any shard can be re-run and checked.
//!
//! Nothing the user has is overwritten: DIR must not exist or be empty. Each part is written to a
//! temporary file beside it, and the parts and the manifest are renamed into place together when
//! the run ends with status 0 or 1; after status 2 (or a signal) none of them is left, and a DIR
//! the run created is removed again.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use arbiter::parquet::{ParquetError, ParquetOptions, ParquetWriter, RowSink, Value};
use arbiter::sink::Sink;
use arbiter::{Column, Destination, Output, Totals};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The manifest's file name in DIR.
pub const MANIFEST: &str = "_manifest.json";

/// The parts being written, and those written.
pub struct Shards {
    dir: PathBuf,
    /// Whether this run created DIR (then a failed run removes it again).
    created: bool,
    columns: Vec<Column>,
    rows_per_file: u64,
    /// The part being written (`None` only once finished).
    current: Option<ParquetWriter<Sink>>,
    rows_in_current: u64,
    /// The parts written, not committed yet, and their rows.
    written: Vec<(Sink, u64)>,
}

impl Shards {
    /// Starts the parts of `columns` in `dir` (created when missing; an error when it holds
    /// anything), at most `rows_per_file` rows each.
    pub fn create(dir: &Path, columns: &[Column], rows_per_file: u64) -> anyhow::Result<Shards> {
        let created = match fs::read_dir(dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    bail!(
                        "-o {}: the directory is not empty; --rows-per-file writes its parts into \
                         a new or empty directory, never over files that are there",
                        dir.display()
                    );
                }
                false
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create the directory {}", dir.display()))?;
                true
            }
            Err(err) => {
                return Err(err).with_context(|| format!("-o {}: not a directory", dir.display()));
            }
        };
        let columns = columns.to_vec();
        crate::cli::output::parts_uncommitted(dir, created);
        let current = open_part(dir, 0, &columns).inspect_err(|_| {
            if created {
                let _ = fs::remove_dir(dir);
            }
        })?;
        Ok(Shards {
            dir: dir.to_path_buf(),
            created,
            columns,
            rows_per_file: rows_per_file.max(1),
            current: Some(current),
            rows_in_current: 0,
            written: Vec::new(),
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.written.iter().map(|(_, rows)| rows).sum::<u64>() + self.rows_in_current
    }

    /// Ends the last part and hands over everything to commit (see [`Parts::commit`]). A last
    /// part without rows is left out, unless it is the only one (a run without games still
    /// writes the schema).
    pub fn finish(mut self) -> anyhow::Result<Parts> {
        let current = self.current.take().expect("a part is open until finished");
        if self.rows_in_current > 0 || self.written.is_empty() {
            let sink = current.finish().map_err(arbiter::parquet::io_error)?;
            self.written.push((sink, self.rows_in_current));
        }
        let created = std::mem::replace(&mut self.created, false);
        Ok(Parts {
            dir: self.dir.clone(),
            created,
            parts: std::mem::take(&mut self.written),
        })
    }

    fn current(&mut self) -> &mut ParquetWriter<Sink> {
        self.current
            .as_mut()
            .expect("a part is open until finished")
    }
}

/// `DIR/part-NNNNN.parquet`, opened for `columns`.
fn open_part(dir: &Path, index: usize, columns: &[Column]) -> io::Result<ParquetWriter<Sink>> {
    let sink = Sink::file(&dir.join(part_name(index)))?;
    ParquetWriter::new(sink, columns, ParquetOptions::default()).map_err(arbiter::parquet::io_error)
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
        if self.rows_in_current == self.rows_per_file {
            let next = open_part(&self.dir, self.written.len() + 1, &self.columns)
                .map_err(|err| ParquetError::External(Box::new(err)))?;
            let full = self.current.replace(next).expect("a part is open");
            self.written.push((full.finish()?, self.rows_in_current));
            self.rows_in_current = 0;
        }
        Ok(())
    }
}

impl Drop for Shards {
    /// A run that failed before its parts were finished: their temporary files go, and a
    /// directory this run created goes with them.
    fn drop(&mut self) {
        self.current.take();
        self.written.clear();
        if self.created {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

impl Destination for Shards {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        output
            .write_cells(run_before, input_before, self)
            .map_err(arbiter::parquet::io_error)
    }
}

/// The parts of a run, written to temporary files: committed by [`Parts::commit`], removed when
/// dropped.
pub struct Parts {
    dir: PathBuf,
    created: bool,
    parts: Vec<(Sink, u64)>,
}

/// The manifest, fields in this order.
#[derive(Serialize)]
struct Manifest {
    arbiter: &'static str,
    command: Vec<String>,
    inputs: Vec<ManifestInput>,
    games: u64,
    invalid_games: u64,
    rows: u64,
    parts: Vec<ManifestPart>,
}

/// One input of the manifest: its name as the run gave it, its size and SHA-256 (null for
/// standard input, which cannot be read again).
#[derive(Serialize)]
struct ManifestInput {
    file: String,
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

    /// Renames every part into place, then writes the manifest of a run that counted `totals`.
    pub fn commit(mut self, totals: &Totals) -> anyhow::Result<()> {
        let written = std::mem::take(&mut self.parts);
        let mut parts = Vec::with_capacity(written.len());
        let mut rows = 0;
        for (index, (sink, part_rows)) in written.into_iter().enumerate() {
            sink.finish()?;
            parts.push(ManifestPart {
                file: part_name(index),
                rows: part_rows,
            });
            rows += part_rows;
        }
        let inputs = totals
            .inputs
            .iter()
            .map(|input| describe(&input.name))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let manifest = Manifest {
            arbiter: env!("CARGO_PKG_VERSION"),
            command: std::env::args().collect(),
            inputs,
            games: totals.games,
            invalid_games: totals.invalid,
            rows,
            parts,
        };
        let mut sink = Sink::file(&self.dir.join(MANIFEST))?;
        serde_json::to_writer_pretty(&mut sink, &manifest)?;
        io::Write::write_all(&mut sink, b"\n")?;
        sink.finish()?;
        Ok(())
    }
}

/// An input's size and SHA-256, read once more from the start (standard input cannot be).
fn describe(name: &str) -> anyhow::Result<ManifestInput> {
    if name == "<stdin>" {
        return Ok(ManifestInput {
            file: name.to_owned(),
            bytes: None,
            sha256: None,
        });
    }
    let mut file = fs::File::open(name).with_context(|| format!("cannot read {name} again"))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err).with_context(|| format!("cannot read {name} again")),
        };
        hasher.update(&buffer[..n]);
        bytes += n as u64;
    }
    let digest = hasher.finalize();
    let sha256 = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(ManifestInput {
        file: name.to_owned(),
        bytes: Some(bytes),
        sha256: Some(sha256),
    })
}

impl Drop for Parts {
    /// Parts not committed are removed with their temporary files; a directory this run created
    /// is removed too (when nothing else came into it).
    fn drop(&mut self) {
        if !self.parts.is_empty() {
            self.parts.clear();
            if self.created {
                let _ = fs::remove_dir(&self.dir);
            }
        }
    }
}
