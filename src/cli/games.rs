//! The game pipeline shared by `validate` and `export`: read every input, cut it into games,
//! replay the games in batches on worker threads, and hand the formatted output back in input
//! order. The reading thread computes too: when no worker has room it reads, replays and formats
//! a batch itself, most games in one pass over their bytes (see [`Reader`]); with one job it does
//! all the work that way.
//!
//! Input problems (an unreadable file, a corrupt compressed stream) are reported on stderr as they
//! happen and the run goes on with the next input; they make the exit code 2 at the end. Every game
//! the reader finds reaches the formatter, so none is lost.

use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use crate::cli::progress::Progress;
use crate::input;
use crate::outcome;
use crate::parallel::{Sink, run_ordered};
use crate::pgn::{LineCol, Location, RawGame, Reader, parse_game};
use crate::replay::{GameReport, Problem, ReplayOptions, Replayer};
use crate::report::diagnostic::Severity;

/// Games per batch handed to a worker.
const BATCH_GAMES: usize = 1024;
/// Bytes per batch handed to a worker.
const BATCH_BYTES: usize = 256 << 10;

/// Games cut from one input, on their way to a worker.
pub struct Batch {
    /// The input's name, for diagnostics.
    pub source: Arc<str>,
    /// The games, in order.
    pub games: Vec<RawGame>,
    /// The number of the first game across all inputs, from 1.
    pub first_index: u64,
}

/// What one batch produced: output bytes and counts.
#[derive(Default)]
pub struct BatchOutput {
    /// Formatted output, written as is.
    pub bytes: Vec<u8>,
    /// Games in the batch.
    pub games: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Games with no error.
    pub valid: u64,
    /// Games with an error.
    pub invalid: u64,
    /// Games whose main line has an error (export's `valid=false`).
    pub invalid_main_lines: u64,
    /// Warnings.
    pub warnings: u64,
}

impl BatchOutput {
    /// Counts one game.
    fn count(&mut self, report: &GameReport) {
        self.games += 1;
        if !report.main_line_valid {
            self.invalid_main_lines += 1;
        }
        self.plies += u64::from(report.plies);
        if report.errors == 0 {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.warnings += u64::from(report.warnings);
    }

    fn add(&mut self, other: &BatchOutput) {
        self.games += other.games;
        self.plies += other.plies;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.invalid_main_lines += other.invalid_main_lines;
        self.warnings += other.warnings;
    }
}

/// Totals over the whole run.
#[derive(Default)]
pub struct RunTotals {
    /// Counts summed over every batch.
    pub counts: BatchOutput,
    /// Inputs that could not be opened or read to the end.
    pub input_errors: u64,
}

/// Formats one replayed game into the batch's output.
pub trait GameFormatter {
    /// Appends the output for `report`, the game number `index` across all inputs, read from
    /// `source`.
    fn format(&mut self, source: &str, index: u64, report: &GameReport, out: &mut Vec<u8>);
}

/// Runs every game of `paths` through a replayer built with `options`, formats each with a
/// formatter from `make_formatter`, and passes each batch's output to `emit` in input order.
pub fn run<F: GameFormatter>(
    paths: &[PathBuf],
    jobs: usize,
    quiet: bool,
    options: &ReplayOptions,
    make_formatter: impl Fn() -> F + Sync,
    mut emit: impl FnMut(&BatchOutput) -> anyhow::Result<()>,
) -> anyhow::Result<RunTotals> {
    let progress = Progress::new(total_size(paths), quiet);
    let mut counts = BatchOutput::default();
    let input_errors = run_ordered(
        jobs,
        |sink| produce(paths, &progress, sink),
        || (Replayer::new(options.clone()), make_formatter()),
        |(replayer, formatter), batch: Batch| replay_batch(replayer, formatter, batch),
        |output: BatchOutput| {
            counts.add(&output);
            emit(&output)
        },
    )?;
    progress.finish();
    Ok(RunTotals {
        counts,
        input_errors,
    })
}

/// The sum of the sizes of the given regular files, when every path is one (for the progress
/// bar's ETA); `None` for stdin and directories.
fn total_size(paths: &[PathBuf]) -> Option<u64> {
    if paths.is_empty() {
        return None;
    }
    paths.iter().try_fold(0u64, |sum, path| {
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then(|| sum + meta.len())
    })
}

/// Reads every input and puts its games into `sink` in batches; returns how many inputs failed.
/// While a worker has room the games are cut and sent; otherwise this thread replays and formats a
/// batch's worth itself, reading it in one pass (see [`Reader`]). With one job that is every game.
fn produce<F: GameFormatter>(
    paths: &[PathBuf],
    progress: &Progress,
    sink: &mut dyn Sink<Batch, BatchOutput, (Replayer, F)>,
) -> u64 {
    let mut input_errors = 0;
    let mut next_index = 1u64;
    let mut bytes_before = 0u64;
    for source in input::sources(paths) {
        let source = match source {
            Ok(source) => source,
            Err(err) => {
                crate::cli::report_error(format_args!("{err}"));
                input_errors += 1;
                continue;
            }
        };
        let name: Arc<str> = Arc::from(source.name.as_str());
        let mut reader = Reader::new(source.name, source.reader);
        loop {
            let first_index = next_index;
            let (more, ended) = if sink.has_room() {
                let (games, ended) = cut_batch(&mut reader, &mut input_errors);
                next_index += games.len() as u64;
                let more = games.is_empty()
                    || sink.send(Batch {
                        source: Arc::clone(&name),
                        games,
                        first_index,
                    });
                (more, ended)
            } else {
                let (replayer, formatter) = sink.worker();
                let mut output = BatchOutput::default();
                let ended = read_batch_here(
                    &mut reader,
                    replayer,
                    formatter,
                    &name,
                    &mut next_index,
                    &mut output,
                    &mut input_errors,
                );
                (output.games == 0 || sink.done(output), ended)
            };
            progress.update(bytes_before + reader.bytes_read(), next_index - 1);
            if !more {
                return input_errors;
            }
            if ended {
                break;
            }
        }
        bytes_before += reader.bytes_read();
    }
    input_errors
}

/// Cuts up to a batch of games for a worker; returns them, and whether the input has ended (a read
/// error is reported and counted, and ends it).
fn cut_batch<R: std::io::Read>(
    reader: &mut Reader<R>,
    input_errors: &mut u64,
) -> (Vec<RawGame>, bool) {
    let mut games = Vec::with_capacity(BATCH_GAMES);
    let mut bytes = 0;
    while games.len() < BATCH_GAMES && bytes < BATCH_BYTES {
        let mut game = RawGame::default();
        match reader.cut_game(&mut game) {
            Ok(true) => {
                bytes += game.bytes.len();
                games.push(game);
            }
            Ok(false) => return (games, true),
            Err(err) => {
                crate::cli::report_error(format_args!("{err}"));
                *input_errors += 1;
                return (games, true);
            }
        }
    }
    (games, false)
}

/// Reads, replays and formats up to a batch of games here, into `output`; returns whether the
/// input has ended. A batch here spans as much input as one cut for a worker, so that this thread
/// comes back to feed the workers before their queue runs dry. The replayer is restartable, so the
/// reader takes most games in one pass over their bytes. A panic while replaying a game is caught
/// as in [`replay_batch_with`].
fn read_batch_here<R: std::io::Read, F: GameFormatter>(
    reader: &mut Reader<R>,
    replayer: &mut Replayer,
    formatter: &mut F,
    source: &str,
    next_index: &mut u64,
    output: &mut BatchOutput,
    input_errors: &mut u64,
) -> bool {
    let start = reader.bytes_done();
    while (output.games as usize) < BATCH_GAMES
        && reader.bytes_done() - start < BATCH_BYTES as u64
        && output.bytes.len() < BATCH_BYTES
    {
        let read = panic::catch_unwind(AssertUnwindSafe(|| reader.read_game(replayer)));
        let internal;
        let report = match read {
            Ok(Ok(Some(()))) => replayer.report(),
            Ok(Ok(None)) => return true,
            Ok(Err(err)) => {
                crate::cli::report_error(format_args!("{err}"));
                *input_errors += 1;
                return true;
            }
            Err(payload) => {
                // A bug of ours: report it against this game, start afresh, and go on.
                *replayer = Replayer::new(replayer.options().clone());
                let Some(game) = reader.recover() else {
                    crate::cli::report_error(format_args!(
                        "{source}: internal error while reading after byte {}; the rest of this \
                         input is skipped; please report it",
                        reader.bytes_read()
                    ));
                    *input_errors += 1;
                    return true;
                };
                internal = internal_error_report(game, &*payload);
                &internal
            }
        };
        output.count(report);
        formatter.format(source, *next_index, report, &mut output.bytes);
        *next_index += 1;
    }
    false
}

/// Replays and formats one batch.
fn replay_batch<F: GameFormatter>(
    replayer: &mut Replayer,
    formatter: &mut F,
    batch: Batch,
) -> BatchOutput {
    replay_batch_with(replayer, formatter, batch, |replayer, game| {
        parse_game(game, replayer)
    })
}

/// Replays (with `replay`) and formats one batch. The last line of defence lives here: a panic
/// while replaying one game is caught, reported as that game's internal error, and the batch goes
/// on with a fresh replayer. Public so that tests can drive it with a replay that panics.
pub fn replay_batch_with<F: GameFormatter>(
    replayer: &mut Replayer,
    formatter: &mut F,
    batch: Batch,
    replay: impl Fn(&mut Replayer, &RawGame),
) -> BatchOutput {
    let mut output = BatchOutput::default();
    for (offset, game) in batch.games.iter().enumerate() {
        let index = batch.first_index + offset as u64;
        let caught = panic::catch_unwind(AssertUnwindSafe(|| replay(replayer, game)));
        let internal;
        let report = match caught {
            Ok(()) => replayer.report(),
            Err(payload) => {
                // A bug of ours: report it against this game, start afresh, and go on.
                *replayer = Replayer::new(replayer.options().clone());
                internal = internal_error_report(game, &*payload);
                &internal
            }
        };
        output.count(report);
        formatter.format(&batch.source, index, report, &mut output.bytes);
    }
    output
}

/// The report of a game whose replay panicked: invalid, with an internal error at its start.
fn internal_error_report(game: &RawGame, payload: &(dyn std::any::Any + Send)) -> GameReport {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    let message = format!("internal error while replaying this game ({what}); please report it");
    let at = LineCol {
        line: game.first_line,
        column: game.first_column,
    };
    GameReport {
        index: game.index,
        main_line_valid: false,
        first_error: format!("{at}: {message}"),
        classification: Some(outcome::classify_invalid(outcome::GameResult::Unknown)),
        problems: vec![Problem {
            location: Location(0),
            at,
            ply: None,
            san: None,
            severity: Severity::Error,
            code: "internal_error",
            message,
        }],
        errors: 1,
        ..GameReport::default()
    }
}
