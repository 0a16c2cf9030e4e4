//! `validate`: every problem of every game as a plain Python object, in input order, then the
//! summary `arbiter validate` prints.
//!
//! A producer thread runs the pipeline with validate's options and its JSON Lines diagnostics
//! (the command line's own form of them), and sends each batch's lines through a bounded
//! channel; the iterator turns each line into a `Diagnostic` as it is asked for one. Only
//! problems become Python objects, never games.

use std::io;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Deserialize;

use crate::inputs::{InputErrors, Inputs};
use crate::library::{
    DEFAULT_RULINGS_BUDGET, Destination, DiagnosticFormat, DiagnosticFormatter, Output,
    ReplayOptions, RulingsWanted, Severities, Totals, run,
};

/// What the producer sends: a batch's diagnostics (JSON Lines), then the end.
enum Message {
    Lines(Vec<u8>),
    Done {
        totals: Box<Totals>,
        elapsed: Duration,
        input_errors: Vec<String>,
    },
    Failed(io::Error),
}

/// Each batch's diagnostics, sent on.
struct Lines {
    send: SyncSender<Message>,
    rows: u64,
}

impl Destination for Lines {
    fn write(&mut self, output: &Output, run_before: u64, input_before: u64) -> io::Result<()> {
        if output.is_empty() {
            return Ok(());
        }
        let mut bytes = Vec::with_capacity(output.len() + 64);
        output.write_to(run_before, input_before, &mut self.rows, &mut bytes)?;
        self.send
            .send(Message::Lines(bytes))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the reader was closed"))
    }
}

/// The producer: the whole run, then its totals.
fn produce(inputs: Inputs, options: ReplayOptions, send: SyncSender<Message>) {
    let started = Instant::now();
    let errors = InputErrors::default();
    let mut lines = Lines {
        send: send.clone(),
        rows: 0,
    };
    let per_game = inputs.range.is_some();
    let ran = run(
        &inputs.paths,
        inputs.range.clone(),
        inputs.jobs,
        &options,
        || {
            let formatter = DiagnosticFormatter::new(DiagnosticFormat::Jsonl);
            if per_game {
                formatter.lines_per_game()
            } else {
                formatter
            }
        },
        &mut lines,
        &errors,
    );
    let message = match ran {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return,
        Err(err) => Message::Failed(err),
        Ok(totals) => {
            // Each input's one `not_utf8` warning, after its games' diagnostics (as validate
            // writes it); into memory, which cannot fail.
            let mut notes = Vec::new();
            let _ = totals.write_not_utf8(DiagnosticFormat::Jsonl, per_game, &mut notes);
            if !notes.is_empty() && send.send(Message::Lines(notes)).is_err() {
                return;
            }
            Message::Done {
                totals: Box::new(totals),
                elapsed: started.elapsed(),
                input_errors: errors
                    .take()
                    .map(|e| e.lines().map(str::to_owned).collect())
                    .unwrap_or_default(),
            }
        }
    };
    let _ = send.send(message);
}

/// One diagnostic as its JSON Lines form has it.
#[derive(Deserialize)]
struct Line {
    file: String,
    line: u32,
    column: u32,
    game: u64,
    white: Option<String>,
    black: Option<String>,
    round: Option<String>,
    ply: Option<u32>,
    san: Option<String>,
    variation: Option<VariationLine>,
    severity: String,
    code: String,
    message: String,
    offset: u64,
}

#[derive(Deserialize)]
struct VariationLine {
    depth: u32,
    from_ply: u32,
}

/// One problem of one game, located: `path:line:column: game N (White - Black, round R), ply P
/// "SAN": severity[code]: message`, as `arbiter validate` reports it.
#[pyclass(module = "arbiter._arbiter", frozen, get_all)]
pub struct Diagnostic {
    /// The input's path, as found.
    path: String,
    /// The line of the problem, from 1 (from the game's first line with a `range`).
    line: u32,
    /// The column, from 1.
    column: u32,
    /// The game's number in its input, from 1.
    game: u64,
    /// The game's `White` tag, or None when missing, empty or "?".
    white: Option<String>,
    /// The game's `Black` tag, likewise.
    black: Option<String>,
    /// The game's `Round` tag, or None when missing, empty, "?" or "-".
    round: Option<String>,
    /// The ply of the move, from 1, or None for a problem of the whole game (a bad FEN tag).
    ply: Option<u32>,
    /// The move as written, or None.
    san: Option<String>,
    /// For a move off the main line, (depth, from_ply): how deep its variation is nested (1 for
    /// a variation of the main line) and the ply after which it branches off; else None.
    variation: Option<(u32, u32)>,
    /// The problem's code, such as "illegal_move" (docs/diagnostics.md).
    code: String,
    /// "error" or "warning".
    severity: String,
    /// What is wrong, in plain words.
    message: String,
    /// Where the game's first byte stands in its (decompressed) input, from 0.
    offset: u64,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        let mut text = format!(
            "{}:{}:{}: game {}",
            self.path, self.line, self.column, self.game
        );
        let players = match (&self.white, &self.black) {
            (None, None) => None,
            (white, black) => Some(format!(
                "{} - {}",
                white.as_deref().unwrap_or("?"),
                black.as_deref().unwrap_or("?")
            )),
        };
        let round = self.round.as_ref().map(|round| format!("round {round}"));
        let names: Vec<String> = players.into_iter().chain(round).collect();
        if !names.is_empty() {
            text.push_str(&format!(" ({})", names.join(", ")));
        }
        if let Some(ply) = self.ply {
            text.push_str(&format!(", ply {ply}"));
        }
        if let Some(san) = &self.san {
            text.push_str(&format!(" {san:?}"));
        }
        format!(
            "<Diagnostic {text}: {}[{}]: {}>",
            self.severity, self.code, self.message
        )
    }
}

/// What a validation counted, as `arbiter validate`'s summary says it (`str(summary)` is that
/// summary's text).
#[pyclass(module = "arbiter._arbiter", frozen, get_all)]
pub struct Summary {
    /// Games read.
    games: u64,
    /// Main-line plies replayed.
    plies: u64,
    /// Games with no error.
    valid: u64,
    /// Games with an error.
    invalid: u64,
    /// Errors (every problem with strict=True).
    errors: u64,
    /// Warnings.
    warnings: u64,
    /// The problems per code, such as {"illegal_move": 2}.
    codes: Py<PyDict>,
    /// The inputs that could not be read to their end, each as the command line says it.
    input_errors: Vec<String>,
    /// The summary's text, as `arbiter validate` prints it.
    text: String,
}

#[pymethods]
impl Summary {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Summary {} games: {} valid, {} invalid; {} errors, {} warnings>",
            self.games, self.valid, self.invalid, self.errors, self.warnings
        )
    }
}

/// The running validation: an iterator of `Diagnostic`s, and its `summary()` at the end.
#[pyclass(module = "arbiter._arbiter")]
pub struct Validation {
    /// The producer's batches (in a mutex only to be `Sync`, as a Python object must be).
    batches: Option<Mutex<Receiver<Message>>>,
    producer: Option<JoinHandle<()>>,
    /// The lines of the last batch, and how far they were read.
    lines: Vec<u8>,
    at: usize,
    summary: Option<Py<Summary>>,
}

impl Validation {
    /// The next diagnostic line, or `None` at the end (the summary then kept).
    fn next_line(&mut self, py: Python<'_>) -> PyResult<Option<Line>> {
        loop {
            if let Some(len) = self.lines[self.at..].iter().position(|&b| b == b'\n') {
                let line = &self.lines[self.at..self.at + len];
                self.at += len + 1;
                return serde_json::from_slice(line)
                    .map(Some)
                    .map_err(|err| PyOSError::new_err(format!("a diagnostic line: {err}")));
            }
            let Some(batches) = &self.batches else {
                return Ok(None);
            };
            let message = py.detach(|| batches.lock().unwrap_or_else(|e| e.into_inner()).recv());
            match message {
                Ok(Message::Lines(lines)) => (self.lines, self.at) = (lines, 0),
                Ok(Message::Done {
                    totals,
                    elapsed,
                    input_errors,
                }) => {
                    self.stop();
                    self.summary = Some(Py::new(py, summary(py, &totals, elapsed, input_errors)?)?);
                }
                Ok(Message::Failed(err)) => {
                    self.stop();
                    return Err(PyOSError::new_err(err.to_string()));
                }
                Err(_) => {
                    self.stop();
                    return Err(PyOSError::new_err("the validating thread failed"));
                }
            }
        }
    }

    fn stop(&mut self) {
        self.batches = None;
        if let Some(producer) = self.producer.take() {
            let _ = producer.join();
        }
    }
}

impl Drop for Validation {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The summary of `totals`.
fn summary(
    py: Python<'_>,
    totals: &Totals,
    elapsed: Duration,
    input_errors: Vec<String>,
) -> PyResult<Summary> {
    let codes = PyDict::new(py);
    for (code, count) in totals.codes.seen() {
        codes.set_item(code.as_str(), count)?;
    }
    let mut text = Vec::new();
    totals.write_summary(DiagnosticFormat::Text, elapsed, &mut text)?;
    Ok(Summary {
        games: totals.counts.games,
        plies: totals.counts.plies,
        valid: totals.counts.valid,
        invalid: totals.counts.invalid,
        errors: totals.counts.errors,
        warnings: totals.counts.warnings,
        codes: codes.unbind(),
        input_errors,
        text: String::from_utf8_lossy(&text).trim_end().to_owned(),
    })
}

#[pymethods]
impl Validation {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Diagnostic>> {
        let Some(line) = self.next_line(py)? else {
            return Ok(None);
        };
        Ok(Some(Diagnostic {
            path: line.file,
            line: line.line,
            column: line.column,
            game: line.game,
            white: line.white,
            black: line.black,
            round: line.round,
            ply: line.ply,
            san: line.san,
            variation: line.variation.map(|v| (v.depth, v.from_ply)),
            code: line.code,
            severity: line.severity,
            message: line.message,
            offset: line.offset,
        }))
    }

    /// The summary, once every diagnostic is read: the ones not yet read are read (and
    /// dropped) first.
    fn summary(&mut self, py: Python<'_>) -> PyResult<Py<Summary>> {
        while self.next_line(py)?.is_some() {}
        match &self.summary {
            Some(summary) => Ok(summary.clone_ref(py)),
            None => Err(PyOSError::new_err(
                "the validation ended without its summary",
            )),
        }
    }
}

/// Replays every move of every game and variation of `paths` and reports each problem, as
/// `arbiter validate` does: an iterator of `Diagnostic`s in input order; its `summary()` gives
/// the counts once it is done. With `strict`, every warning is an error.
#[pyfunction]
#[pyo3(signature = (paths, *, strict = false, jobs = None, range = None,
    rulings_budget = DEFAULT_RULINGS_BUDGET))]
pub fn validate(
    paths: &Bound<'_, PyAny>,
    strict: bool,
    jobs: Option<usize>,
    range: Option<(u64, u64)>,
    rulings_budget: u64,
) -> PyResult<Validation> {
    let inputs = Inputs::new(paths, range, jobs)?;
    let options = ReplayOptions {
        severities: if strict {
            Severities::strict()
        } else {
            Severities::default()
        },
        clock_checks: true,
        rulings_budget,
        rulings: RulingsWanted::VerdictOnly,
        final_fen: false,
        ..ReplayOptions::default()
    };
    let (send, batches) = sync_channel(4);
    let producer = std::thread::spawn(move || produce(inputs, options, send));
    Ok(Validation {
        batches: Some(Mutex::new(batches)),
        producer: Some(producer),
        lines: Vec::new(),
        at: 0,
        summary: None,
    })
}
