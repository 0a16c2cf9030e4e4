//! The game pipeline shared by `validate` and `export`: read every input, replay its games, and
//! write the formatted output in input order.
//!
//! With one job, this thread reads, replays and formats every game, most in one pass over their
//! bytes (see [`Reader`]). With more, it reads each input in parts of about `PART_BYTES`, cut
//! where a game surely starts ([`last_game_start`]), and the parts are read, replayed and
//! formatted on every core, this thread's included ([`crate::parallel`]): nothing is cut into
//! games serially. A part does not know how many games came before it, so its records leave their
//! game numbers as holes, filled in as the output is written in order ([`Output`]).
//!
//! Input problems (an unreadable file, a corrupt compressed stream) are reported on stderr and the
//! run goes on with the next input; they make the exit code 2 at the end. Every game the reader
//! finds reaches the formatter, so none is lost.

use std::io::{self, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crate::cli::progress::Progress;
use crate::input;
use crate::outcome;
use crate::parallel::{Sink, run_ordered};
use crate::pgn::{
    LineCol, Location, PartEnd, RawGame, Reader, Visitor, last_game_start, line_ends,
};
use crate::replay::{GameReport, Problem, ReplayOptions, Replayer};
use crate::report::code::{Code, CodeCounts};
use crate::report::diagnostic::Severity;
use crate::report::output::{Destination, GameNumber, Output};

/// Games per batch read here with one job.
const BATCH_GAMES: usize = 1024;
/// Input bytes per batch read here with one job.
const BATCH_BYTES: u64 = 256 << 10;
/// Input bytes per part handed to a worker (a part and its output stay within a core's cache).
const PART_BYTES: usize = 64 << 10;
/// Input bytes per part when every ply is a row: ply rows are some twenty times the size of the
/// PGN they come from, and the parts in flight must not hold tens of megabytes.
const PLY_PART_BYTES: usize = PART_BYTES / 4;
/// A part grows up to this size while no place is found where a game surely starts (a huge game,
/// or a file laid out in a way [`last_game_start`] cannot vouch for); then that stretch is read
/// here, in order, as with one job, and parts resume at the first game after it that starts a
/// line.
const MAX_PART_BYTES: usize = 4 << 20;

/// A part of one input, to be read on a worker.
pub struct Part {
    /// The input's name, for diagnostics.
    pub source: Arc<str>,
    /// Which input it is, counted from 0 (game numbers restart with each input).
    pub input: u64,
    /// The part's bytes.
    pub bytes: Vec<u8>,
    /// Where they start in the input: at a game's start, at the start of this line.
    pub offset: u64,
    /// The line they start on, from 1.
    pub line: u64,
    /// How the input goes on after them.
    pub end: PartEnd,
}

/// What one batch of games produced: output and counts.
#[derive(Default)]
pub struct BatchOutput {
    /// Formatted output, game numbers perhaps left to fill in.
    pub output: Output,
    /// Which input the games come from, counted from 0.
    pub input: u64,
    /// Games in the batch.
    pub games: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Games with no error.
    pub valid: u64,
    /// Games with an error.
    pub invalid: u64,
    /// Warnings.
    pub warnings: u64,
    /// Inputs that failed while the batch was read (a corrupt compressed stream, say).
    pub input_errors: u64,
    /// The problems listed, per code.
    pub codes: CodeCounts,
    /// The buffer of the part read, to be used again.
    spare: Vec<u8>,
}

impl BatchOutput {
    /// Counts one game.
    fn count(&mut self, report: &GameReport) {
        self.games += 1;
        self.plies += u64::from(report.plies);
        if report.errors == 0 {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.warnings += u64::from(report.warnings);
        for problem in &report.problems {
            self.codes.add(problem.code);
        }
    }

    fn add(&mut self, other: &BatchOutput) {
        self.games += other.games;
        self.plies += other.plies;
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.warnings += other.warnings;
        self.input_errors += other.input_errors;
        self.codes.add_all(&other.codes);
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
    /// Appends the output for `report`, read from `source`, whose numbers are `number`.
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output);
}

/// What replays the games: the replayer, or in tests a stand-in that fails on purpose.
pub trait GameReplay: Visitor<Output = ()> {
    /// The report of the game just read.
    fn report(&self) -> &GameReport;
    /// Starts afresh, after a panic left the state half-way through a game.
    fn reset(&mut self);
}

impl GameReplay for Replayer {
    fn report(&self) -> &GameReport {
        Replayer::report(self)
    }

    fn reset(&mut self) {
        *self = Replayer::new(self.options().clone());
    }
}

/// Runs every game of `paths` through a replayer built with `options`, formats each with a
/// formatter from `make_formatter`, and writes the output to `out` in input order (from whichever
/// thread finished the next batch).
pub fn run<F: GameFormatter>(
    paths: &[PathBuf],
    jobs: usize,
    quiet: bool,
    options: &ReplayOptions,
    make_formatter: impl Fn() -> F + Sync,
    out: &mut (dyn Destination + Send),
) -> anyhow::Result<RunTotals> {
    let progress = Progress::new(total_size(paths), quiet);
    let buffers = Buffers::default();
    let mut counts = BatchOutput::default();
    // The input of the last batch written, and how many of its games came before.
    let (mut input, mut input_before) = (0, 0);
    // Per input: games read, and whether reading it failed (then the failure said enough).
    let mut per_input: Vec<(u64, bool)> = Vec::new();
    let (input_errors, opened) = run_ordered(
        jobs,
        |sink| {
            let part_bytes = if options.plies {
                PLY_PART_BYTES
            } else {
                PART_BYTES
            };
            produce(paths, jobs, part_bytes, &progress, &buffers, sink)
        },
        || (Replayer::new(options.clone()), make_formatter()),
        |(replayer, formatter), part: Part| read_part(replayer, formatter, part),
        |mut batch: BatchOutput| {
            buffers.put(std::mem::take(&mut batch.spare));
            if batch.input != input {
                (input, input_before) = (batch.input, 0);
            }
            out.write(&batch.output, counts.games, input_before)?;
            input_before += batch.games;
            let slot = batch.input as usize;
            if per_input.len() <= slot {
                per_input.resize(slot + 1, (0, false));
            }
            per_input[slot].0 += batch.games;
            per_input[slot].1 |= batch.input_errors > 0;
            counts.add(&batch);
            progress.games(counts.games, counts.invalid, counts.warnings);
            Ok(())
        },
    )?;
    progress.finish();
    for (input, name) in opened {
        if per_input
            .get(input as usize)
            .is_none_or(|&(games, failed)| games == 0 && !failed)
        {
            let _ = writeln!(
                io::stderr().lock(),
                "arbiter: warning: {name}: no games found"
            );
        }
    }
    Ok(RunTotals {
        input_errors: input_errors + counts.input_errors,
        counts,
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

/// Reads every input into `sink`: with one job as batches read here, else in parts. Returns how
/// many inputs could not be opened, and the number and name of each input that was.
fn produce<F: GameFormatter>(
    paths: &[PathBuf],
    jobs: usize,
    part_bytes: usize,
    progress: &Progress,
    buffers: &Buffers,
    sink: &mut dyn Sink<Part, BatchOutput, (Replayer, F)>,
) -> (u64, Vec<(u64, Arc<str>)>) {
    let mut input_errors = 0;
    let mut opened = Vec::new();
    let mut next_index = 1u64;
    let mut bytes_before = 0u64;
    for (input, source) in (0u64..).zip(input::sources(paths)) {
        let source = match source {
            Ok(source) => source,
            Err(err) => {
                crate::cli::report_error(format_args!("{err}"));
                input_errors += 1;
                continue;
            }
        };
        let name: Arc<str> = Arc::from(source.name.as_str());
        opened.push((input, Arc::clone(&name)));
        let at = Place {
            input,
            bytes_before,
        };
        let read = if jobs <= 1 {
            let reader = Reader::new(source.name, source.reader);
            read_here(reader, &name, at, Some(&mut next_index), progress, sink)
        } else {
            read_in_parts(
                source.reader,
                &name,
                at,
                part_bytes,
                progress,
                buffers,
                sink,
            )
        };
        let Some(read) = read else {
            return (input_errors, opened);
        };
        bytes_before += read;
    }
    (input_errors, opened)
}

/// Reads the games of `reader` here, in batches, into `sink`; their numbers are known when
/// `next_index` (the next game's number across all inputs) is given. Returns how many bytes were
/// read, or `None` if the pipeline is shutting down.
fn read_here<R: Read, F: GameFormatter>(
    mut reader: Reader<R>,
    source: &str,
    at: Place,
    mut next_index: Option<&mut u64>,
    progress: &Progress,
    sink: &mut dyn Sink<Part, BatchOutput, (Replayer, F)>,
) -> Option<u64> {
    loop {
        let index = next_index.as_deref_mut();
        if read_batch_here(&mut reader, source, at, index, progress, sink)? {
            return Some(reader.bytes_read());
        }
    }
}

/// Which input is read, and how many bytes the inputs before it held.
#[derive(Copy, Clone)]
struct Place {
    input: u64,
    bytes_before: u64,
}

/// Reads a batch of games of `reader` here into `sink`, as [`read_here`] does; returns whether the
/// input has ended, or `None` if the pipeline is shutting down.
fn read_batch_here<R: Read, F: GameFormatter>(
    reader: &mut Reader<R>,
    source: &str,
    at: Place,
    next_index: Option<&mut u64>,
    progress: &Progress,
    sink: &mut dyn Sink<Part, BatchOutput, (Replayer, F)>,
) -> Option<bool> {
    let (replayer, formatter) = sink.worker();
    let mut output = BatchOutput {
        input: at.input,
        ..BatchOutput::default()
    };
    let start = reader.bytes_done();
    let ended = read_games(
        reader,
        replayer,
        formatter,
        source,
        next_index,
        &mut output,
        |reader, output| {
            (output.games as usize) < BATCH_GAMES
                && reader.bytes_done() - start < BATCH_BYTES
                && output.output.len() < BATCH_BYTES as usize
        },
    );
    progress.input(at.bytes_before + reader.bytes_read());
    if output.games + output.input_errors > 0 && !sink.done(output) {
        return None;
    }
    Some(ended)
}

/// Reads `source` in parts of about `part_bytes`, each handed to `sink` (a worker, or this thread
/// when the workers are busy). Returns how many bytes were read, or `None` if the pipeline is
/// shutting down.
fn read_in_parts<R: Read, F: GameFormatter>(
    mut source: R,
    name: &Arc<str>,
    at: Place,
    part_bytes: usize,
    progress: &Progress,
    buffers: &Buffers,
    sink: &mut dyn Sink<Part, BatchOutput, (Replayer, F)>,
) -> Option<u64> {
    // The bytes of the next part so far, from a game's start at `offset`, on line `line`.
    let mut pending = buffers.get(part_bytes);
    let (mut offset, mut line) = (0u64, 1u64);
    // Where in `pending` to look for the next game's start: bytes before were looked at.
    let mut from = 0;
    loop {
        let (ended, error) = match (&mut source)
            .take(part_bytes as u64)
            .read_to_end(&mut pending)
        {
            Ok(n) => (n < part_bytes, None),
            Err(error) => (true, Some(error)),
        };
        progress.input(at.bytes_before + offset + pending.len() as u64);
        let part = |bytes, end| Part {
            source: Arc::clone(name),
            input: at.input,
            bytes,
            offset,
            line,
            end,
        };
        if ended {
            let read = offset + pending.len() as u64;
            if pending.is_empty() && error.is_none() {
                return Some(read);
            }
            return sink
                .send(part(pending, PartEnd::Last(error)))
                .then_some(read);
        }
        match last_game_start(&pending, from) {
            Some(start) => {
                let mut rest = buffers.get(pending.len() - start + part_bytes);
                rest.extend_from_slice(&pending[start..]);
                pending.truncate(start);
                let lines = line_ends(&pending);
                let bytes = std::mem::replace(&mut pending, rest);
                if !sink.send(part(bytes, PartEnd::MoreFollows)) {
                    return None;
                }
                offset += start as u64;
                line += lines;
                from = 0;
            }
            None if pending.len() >= MAX_PART_BYTES => {
                // Read here, in order, past these bytes; then on in parts from the first game
                // that starts a line.
                let past = offset + pending.len() as u64;
                let rest = io::Cursor::new(pending).chain(source);
                let mut reader = Reader::new(name.to_string(), rest).starting_at(offset, line);
                let rest = loop {
                    if read_batch_here(&mut reader, name, at, None, progress, sink)? {
                        return Some(reader.bytes_read());
                    }
                    if reader.bytes_done() < past {
                        continue;
                    }
                    match reader.into_rest() {
                        Ok(rest) => break rest,
                        Err(still) => reader = *still,
                    }
                };
                let (unread, rest_of_source) = rest.source.into_inner();
                let unread = &unread.get_ref()[unread.position() as usize..];
                pending = buffers.get(rest.bytes.len() + unread.len() + part_bytes);
                pending.extend_from_slice(&rest.bytes);
                pending.extend_from_slice(unread);
                source = rest_of_source;
                (offset, line, from) = (rest.offset, rest.line, 0);
            }
            // A tag line cut short at the end is looked at again.
            None => from = pending.len().saturating_sub(MAX_TAG_LINE),
        }
    }
}

/// How far back a look for a game's start goes again: past a tag line cut short by the last read.
const MAX_TAG_LINE: usize = crate::pgn::MAX_TAG_LINE + 2;

/// Buffers of parts done with, for the next parts: the same few go round, so that memory does not
/// creep up with the size of the input (as fresh buffers, freed on other threads, make it do).
#[derive(Default)]
struct Buffers(Mutex<Vec<Vec<u8>>>);

impl Buffers {
    /// An empty buffer with room for `room` bytes.
    fn get(&self, room: usize) -> Vec<u8> {
        let spare = self.0.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let mut buffer = spare.unwrap_or_default();
        buffer.clear();
        buffer.reserve(room);
        buffer
    }

    /// Keeps `buffer` for later, unless enough are kept (those of a window of parts) or it grew
    /// large (for a part in which a game started only after many reads).
    fn put(&self, buffer: Vec<u8>) {
        let mut spare = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if (1..=4 * PART_BYTES).contains(&buffer.capacity()) && spare.len() < 16 {
            spare.push(buffer);
        }
    }
}

/// Reads, replays and formats every game of `part`.
pub fn read_part<V: GameReplay, F: GameFormatter>(
    replay: &mut V,
    formatter: &mut F,
    part: Part,
) -> BatchOutput {
    let mut reader = Reader::part(&*part.source, part.bytes, part.offset, part.line, part.end);
    let mut output = BatchOutput {
        input: part.input,
        ..BatchOutput::default()
    };
    read_games(
        &mut reader,
        replay,
        formatter,
        &part.source,
        None,
        &mut output,
        |_, _| true,
    );
    output.spare = reader.into_buffer();
    output
}

/// Reads, replays and formats games into `output` while `more` says so; returns whether the input
/// has ended (a read error is reported and counted, and ends it). Game numbers are known when
/// `next_index` (the next game's number across all inputs) is given, else left for later.
///
/// The replay is restartable, so the reader takes most games in one pass over their bytes. The
/// last line of defence lives here: a panic while reading one game (a bug of ours) is caught,
/// reported as that game's internal error, and reading goes on with a fresh replay.
fn read_games<R: Read, V: GameReplay, F: GameFormatter>(
    reader: &mut Reader<R>,
    replay: &mut V,
    formatter: &mut F,
    source: &str,
    mut next_index: Option<&mut u64>,
    output: &mut BatchOutput,
    more: impl Fn(&Reader<R>, &BatchOutput) -> bool,
) -> bool {
    while more(reader, output) {
        let read = panic::catch_unwind(AssertUnwindSafe(|| reader.read_game(replay)));
        let internal;
        let report = match read {
            Ok(Ok(Some(()))) => replay.report(),
            Ok(Ok(None)) => return true,
            Ok(Err(err)) => {
                crate::cli::report_error(format_args!("{err}"));
                output.input_errors += 1;
                return true;
            }
            Err(payload) => {
                replay.reset();
                let Some(game) = reader.recover() else {
                    crate::cli::report_error(format_args!(
                        "{source}: internal error while reading after byte {}; the rest of this \
                         input is skipped; please report it",
                        reader.bytes_read()
                    ));
                    output.input_errors += 1;
                    return true;
                };
                internal = internal_error_report(game, &*payload);
                &internal
            }
        };
        let number = match next_index.as_deref_mut() {
            Some(next) => {
                *next += 1;
                GameNumber::Known {
                    run: *next - 1,
                    input: report.index,
                }
            }
            None => GameNumber::Later {
                in_batch: output.games,
            },
        };
        output.count(report);
        formatter.format(source, number, report, &mut output.output);
    }
    false
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
            code: Code::InternalError,
            message,
        }],
        errors: 1,
        ..GameReport::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats nothing.
    struct Nothing;

    impl GameFormatter for Nothing {
        fn format(&mut self, _: &str, _: GameNumber, _: &GameReport, _: &mut Output) {}
    }

    /// A sink that keeps the parts sent, and counts the games read here.
    struct Recording {
        parts: Vec<(u64, u64, bool)>,
        games_here: u64,
        worker: (Replayer, Nothing),
    }

    impl Sink<Part, BatchOutput, (Replayer, Nothing)> for Recording {
        fn send(&mut self, part: Part) -> bool {
            let last = matches!(part.end, PartEnd::Last(_));
            self.parts.push((part.offset, part.line, last));
            true
        }
        fn worker(&mut self) -> &mut (Replayer, Nothing) {
            &mut self.worker
        }
        fn done(&mut self, result: BatchOutput) -> bool {
            self.games_here += result.games;
            true
        }
    }

    fn games(event: &str, comment: &str, bytes: usize) -> String {
        let mut text = String::new();
        while text.len() < bytes {
            text.push_str(&format!(
                "[Event \"{event}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {comment} \
                 4. Qxf7# 1-0\n\n"
            ));
        }
        text
    }

    #[test]
    fn parts_start_where_games_start_and_come_back_after_a_stretch_read_in_order() {
        // Plain games, then 6 MB in which no game surely starts (each ends on a line with a
        // quote), then plain games again.
        let text = [
            games("a", "{ok}", 1 << 20),
            games("b", "{\"quoted\"}", 6 << 20),
            games("c", "{ok}", 2 << 20),
        ]
        .concat();
        let mut sink = Recording {
            parts: Vec::new(),
            games_here: 0,
            worker: (Replayer::new(ReplayOptions::default()), Nothing),
        };
        let progress = Progress::new(None, true);
        let read = read_in_parts(
            text.as_bytes(),
            &Arc::from("test.pgn"),
            Place {
                input: 0,
                bytes_before: 0,
            },
            PART_BYTES,
            &progress,
            &Buffers::default(),
            &mut sink,
        );
        assert_eq!(read, Some(text.len() as u64));
        let bytes = text.as_bytes();
        for &(offset, line, _) in &sink.parts {
            let offset = offset as usize;
            assert_eq!(bytes[offset], b'[', "a part at {offset}");
            assert!(offset == 0 || bytes[offset - 1] == b'\n');
            let lines = memchr::memchr_iter(b'\n', &bytes[..offset]).count() as u64;
            assert_eq!(line, 1 + lines, "the line of the part at {offset}");
        }
        let in_order = 1 << 20..(1 << 20) + (6 << 20);
        let before = sink.parts.iter().filter(|p| p.0 < in_order.start as u64);
        let after = sink.parts.iter().filter(|p| p.0 >= in_order.end as u64);
        assert!(before.count() >= 4, "{:?}", sink.parts);
        assert!(after.count() >= 8, "{:?}", sink.parts);
        assert!(
            sink.parts.last().is_some_and(|p| p.2),
            "the last part ends the input"
        );
        // Read here: at least the 4 MiB after which parts gave up, and at most the stretch.
        let game = games("b", "{\"quoted\"}", 1).len() as u64;
        assert!(
            sink.games_here * game >= 4 << 20,
            "{} games here",
            sink.games_here
        );
        assert!(
            sink.games_here * game <= 6 << 20,
            "{} games here",
            sink.games_here
        );
    }
}
