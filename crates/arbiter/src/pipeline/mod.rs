//! The game pipeline of `validate` and `export`: read every input, replay its games, and write the
//! formatted output in input order.
//!
//! With one job, the calling thread reads, replays and formats every game, most in one pass over
//! their bytes (see [`Reader`]). With more, it reads each input in parts of
//! about 64 KiB, cut where a game surely starts ([`last_game_start`](arbiter_pgn::last_game_start)),
//! and the parts are read, replayed and formatted on every core, the calling thread's included
//! (an ordered parallel run, private to the crate): nothing is cut into games serially. A part
//! does not know how many games came before it, so its records leave their game numbers as holes,
//! filled in as the output is written in order ([`Output`]). A part's output goes on in pieces of
//! about 256 KiB (a 64 KiB part of one-token games is tens of megabytes of records), and the parts
//! and output in flight are bounded by bytes as well as by count, so memory stays flat whatever
//! the input turns into.
//!
//! Every game is read through [`arbiter_core::games`], the one way down. Input problems (an unreadable
//! file, a corrupt compressed stream) go to the [`Observer`] and the run goes on with the next
//! input; they are counted in [`Totals::input_errors`]. Every game the reader finds reaches the
//! formatter, so none is lost. The pipeline never prints: the caller's observer shows progress
//! and messages as it likes.
//!
//! A zstd file of many frames (as `pzstd` makes them) is decoded on every core too with
//! [`FRAMES_FROM_JOBS`] jobs or more: its runs of frames go to the workers beside the parts cut
//! from the runs decoded before (`frames`). With fewer, it is decoded as one stream on the reading
//! thread, as a file of one frame is.
//!
//! With a range of one input (`--range`), the input is read from where a game surely starts at or
//! after START ([`Ranged`]: a plain file seeks there; any other stream is read to it, not cut),
//! and the range's games are read as any others, in parts from its first game with several jobs;
//! every reader stops before the game where the range stops, which is found before any byte past
//! it is handed out. Its lines count per game ([`Reader::lines_per_game`]).
//!
//! The files, bottom up: `task` (what the workers are given, and where an input's bytes come
//! from), `decoding` (a run of zstd frames decoded by whichever thread gets to it), `read` (the
//! games of one reader: a batch here, or a part on a worker), `frames` (a zstd file's runs sent to
//! the workers), `parts` (an input cut into parts); this file runs the whole.

#[cfg(feature = "zstd")]
mod decoding;
#[cfg(feature = "zstd")]
mod frames;
#[cfg(test)]
mod last_defence;
mod parts;
mod read;
mod task;

use std::fmt::Display;
use std::io::{self, Read};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
pub(crate) use task::{Part, Task};

use arbiter_core::replay::{ReplayOptions, Replayer};
use arbiter_io::input;
use arbiter_pgn::{Ranged, ReadError, Reader};
use arbiter_report::output::{Destination, GameFormatter, Output};
use arbiter_report::summary::{InputTotals, Totals};
use parts::{Buffers, Cutting, PART_BYTES, PLY_PART_BYTES, read_in_parts};
use read::read_part;
use read::{Place, read_here};

use crate::parallel::{Sink, Weight, run_ordered};

/// The jobs from which a zstd file of many frames has its frames decoded on the workers. With
/// fewer, the reading thread decodes it as one stream, in small steps between the parts it cuts
/// and computes, and that is faster: decoding is a tenth of the work (lichess ×64 in 8 frames:
/// 250 M of export's 2,470 M instructions), which the reading thread takes on beside its share of the
/// parts as long as it is less than a thread's share of the whole; whereas a run of frames
/// decoded on a worker is one long task (some 4 ms for 8 MiB), behind which the parts queued
/// wait and the parts after them pile up to the window, leaving a core idle (`--jobs 2` on
/// lichess ×64 in 8 frames: 1.52x `--jobs 1`, against 1.82x for one frame).
pub const FRAMES_FROM_JOBS: usize = 4;

/// The bytes in flight with several jobs, at most: parts read and not yet written, and their
/// output (see [`crate::parallel`]; each computing thread may hold a piece of output more).
const IN_FLIGHT_BYTES: usize = 16 << 20;

/// What one batch of games produced: output and counts.
#[derive(Default)]
pub(crate) struct BatchOutput {
    /// Formatted output, game numbers perhaps left to fill in.
    pub(crate) output: Output,
    /// Which input the games come from, counted from 0.
    pub(crate) input: u64,
    /// The batch's games and problems, and the inputs that failed while it was read (a corrupt
    /// compressed stream, say).
    pub(crate) counts: Totals,
    /// The buffer of the part read, to be used again.
    spare: Vec<u8>,
}

impl Weight for BatchOutput {
    fn weight(&self) -> usize {
        self.output.footprint()
    }
}

/// What a run tells its caller as it goes: how far it got, and what went wrong with its inputs.
/// Called from the run's threads, at most once per batch or part (never per game). Every method
/// does nothing unless implemented; `()` observes nothing.
pub trait Observer: Sync {
    /// The inputs were read up to `bytes`, counted over every input as stored (the compressed
    /// bytes of a compressed file, so that they add up to the sizes of the files).
    fn input(&self, bytes: u64) {
        let _ = bytes;
    }
    /// `frames` frames of a zstd input were decoded on the calling thread, in one run of frames
    /// (with several jobs, on a file of many frames).
    fn decoded(&self, frames: u64) {
        let _ = frames;
    }
    /// `games` games are done, `invalid` of them invalid, with `warnings` warnings in all.
    fn games(&self, games: u64, invalid: u64, warnings: u64) {
        let _ = (games, invalid, warnings);
    }
    /// An input could not be opened, or read to its end; `error` names it and says why. The run
    /// goes on with the next input.
    fn input_error(&self, error: &dyn Display) {
        let _ = error;
    }
    /// Every game is done and written.
    fn finish(&self) {}
    /// Input `name` was opened and read to its end, and held no game.
    fn no_games(&self, name: &str) {
        let _ = name;
    }
}

/// Observes nothing.
impl Observer for () {}

/// Why `paths` cannot be read in a range, if they cannot: a range (`--range`) reads one input, a
/// file or standard input, not several inputs nor a directory.
pub fn unfit_for_range(paths: &[PathBuf]) -> Option<&'static str> {
    let several = paths.len() > 1 || paths.first().is_some_and(|path| path.is_dir());
    several.then_some(
        "range reads one input (a file or standard input), not several inputs or a directory",
    )
}

/// Runs every game of `paths` (files, directories, patterns, or standard input when empty: see
/// [`arbiter_io::input`]) through a replayer built with `options`, on `jobs` threads; formats each with
/// a formatter from `make_formatter`, and writes the output to `out` in input order (from whichever
/// thread finished the next batch). An error is one of `out`'s, which stops the run, or an
/// internal error of the threads.
///
/// With a `range`, only the games of that range of the (decompressed) input are read, as
/// [`Reader::ranged`] reads them (from where a game surely starts at or after its start, to where
/// one does at or after its end; lines counted per game): the run reads one input (a second is an
/// input error).
pub fn run<F: GameFormatter>(
    paths: &[PathBuf],
    range: Option<Range<u64>>,
    jobs: usize,
    options: &ReplayOptions,
    make_formatter: impl Fn() -> F + Sync,
    out: &mut (dyn Destination + Send),
    observer: &dyn Observer,
) -> io::Result<Totals> {
    let buffers = Buffers::default();
    let mut counts = Totals::default();
    // The input of the last batch written, and how many of its games came before.
    let (mut input, mut input_before) = (0, 0);
    // Per input: its counts (named once the run is over).
    let mut per_input: Vec<InputTotals> = Vec::new();
    let digests = out.digests();
    let (unopened, opened) = run_ordered(
        jobs,
        IN_FLIGHT_BYTES,
        |sink| {
            let part_bytes = if options.plies {
                PLY_PART_BYTES
            } else {
                PART_BYTES
            };
            let range = range.clone();
            let inputs = input::sources(paths).hashing(digests);
            produce(inputs, range, jobs, part_bytes, observer, &buffers, sink)
        },
        || (Replayer::new(options.clone()), make_formatter()),
        |(replayer, formatter), task: Task, pieces| match task {
            Task::Part(part) => read_part(replayer, formatter, part, observer, pieces),
            #[cfg(feature = "zstd")]
            Task::Decode(run, input) => {
                run.decode(observer);
                BatchOutput {
                    input,
                    ..BatchOutput::default()
                }
            }
        },
        |mut batch: BatchOutput| {
            buffers.put(std::mem::take(&mut batch.spare));
            if batch.input != input {
                (input, input_before) = (batch.input, 0);
            }
            out.write(&batch.output, counts.counts.games, input_before)?;
            input_before += batch.counts.counts.games;
            let slot = batch.input as usize;
            if per_input.len() <= slot {
                per_input.resize(slot + 1, InputTotals::default());
            }
            per_input[slot].add(&batch.counts);
            counts.add(&batch.counts);
            observer.games(
                counts.counts.games,
                counts.counts.invalid,
                counts.counts.warnings,
            );
            Ok(())
        },
    )?;
    observer.finish();
    let range_failures = opened.iter().filter(|opened| opened.3).count();
    for (input, name, stored, failed) in opened {
        let mut totals = per_input
            .get_mut(input as usize)
            .map(std::mem::take)
            .unwrap_or_default();
        // (A range may well hold no game.)
        if totals.counts.games == 0 && !totals.failed && range.is_none() {
            observer.no_games(&name);
        }
        totals.name = name;
        totals.failed |= failed;
        totals.digest = stored.digest();
        counts.inputs.push(totals);
    }
    counts.input_errors += (unopened.len() + range_failures) as u64;
    counts.unopened = unopened;
    Ok(counts)
}

/// The worker state of a run: a replay and a formatter.
type Worker<V, F> = (V, F);

/// Where the reading thread puts its parts and batches.
type PartSink<'s, F> = dyn Sink<Task, BatchOutput, Worker<Replayer, F>> + 's;

/// The number, name and stored bytes (read through, counted and perhaps hashed) of an input
/// opened, and whether its range could not be read (an input error counted here).
type Opened = (u64, Arc<str>, input::StoredBytes, bool);

/// Reads every input into `sink` (only the games of `range` of the one input, when given): with
/// one job as batches read here, else in parts. Returns the inputs that could not be opened (as
/// named), and each input that was.
fn produce<F: GameFormatter>(
    inputs: input::Sources,
    range: Option<Range<u64>>,
    jobs: usize,
    part_bytes: usize,
    observer: &dyn Observer,
    buffers: &Buffers,
    sink: &mut PartSink<'_, F>,
) -> (Vec<String>, Vec<Opened>) {
    let mut unopened = Vec::new();
    let mut opened = Vec::new();
    let mut next_index = 1u64;
    let mut stored_before = 0u64;
    for (input, source) in (0u64..).zip(inputs) {
        #[allow(unused_mut, reason = "taken from only with the zstd feature")]
        let mut source = match source {
            Ok(source) => source,
            Err(err) => {
                observer.input_error(&err);
                unopened.push(err.path().to_owned());
                continue;
            }
        };
        if range.is_some() && input > 0 {
            let error = format!(
                "{}: --range reads one input, and this is a second",
                source.name
            );
            observer.input_error(&error);
            unopened.push(source.name);
            break;
        }
        let name: Arc<str> = Arc::from(source.name.as_str());
        let mut at = Place {
            input,
            stored_before,
            stored: source.stored.clone(),
        };
        let mut failed = false;
        let read = if let Some(range) = &range {
            let (name, state) = (source.name, (jobs, part_bytes, &at, &mut next_index));
            let read = match source.plain.take() {
                Some(file) => {
                    let ranged = Ranged::seeking(file, range.clone());
                    read_range(name, ranged, state, buffers, observer, sink)
                }
                None => {
                    let ranged = Ok(Ranged::new(source.reader, range.clone()));
                    read_range(name, ranged, state, buffers, observer, sink)
                }
            };
            match read {
                Ok(read) => read,
                Err(err) => {
                    observer.input_error(&err);
                    failed = true;
                    Some(())
                }
            }
        } else if jobs <= 1 {
            let reader = Reader::new(source.name, source.reader);
            read_here(reader, &at, Some(&mut next_index), observer, sink)
        } else {
            #[cfg(feature = "zstd")]
            let frames = (jobs >= FRAMES_FROM_JOBS)
                .then(|| frames::FrameFeed::open(&mut source, input, jobs, observer))
                .flatten();
            #[cfg(not(feature = "zstd"))]
            let frames: Option<(task::Stream<std::io::Empty>, _)> = None;
            match frames {
                Some((mut feed, stored)) => {
                    at.stored = stored;
                    let cutting = Cutting::whole(part_bytes);
                    read_in_parts(&mut feed, &name, &at, cutting, observer, buffers, sink)
                }
                None => {
                    let mut feed = task::Stream(source.reader);
                    let cutting = Cutting::whole(part_bytes);
                    read_in_parts(&mut feed, &name, &at, cutting, observer, buffers, sink)
                }
            }
        };
        opened.push((input, name, at.stored.clone(), failed));
        if read.is_none() {
            return (unopened, opened);
        }
        stored_before = at.stored();
    }
    (unopened, opened)
}

/// Reads the games of the range `ranged` of input `name` ([`Reader::ranged`]): with one job here;
/// else in parts from its first game, each read only up to where the range stops. `state` is
/// `produce`'s: the jobs, the bytes per part, the input, the next game's number. An error is the
/// input's, met before the range's first game.
fn read_range<R: Read, F: GameFormatter>(
    name: String,
    ranged: io::Result<Ranged<R>>,
    (jobs, part_bytes, at, next_index): (usize, usize, &Place, &mut u64),
    buffers: &Buffers,
    observer: &dyn Observer,
    sink: &mut PartSink<'_, F>,
) -> Result<Option<()>, ReadError> {
    let reader = match ranged {
        Ok(ranged) => Reader::ranged(name, ranged)?,
        Err(source) => {
            return Err(ReadError {
                name,
                offset: 0,
                source,
            });
        }
    };
    if jobs <= 1 {
        return Ok(read_here(reader, at, Some(next_index), observer, sink));
    }
    let name: Arc<str> = Arc::from(reader.name());
    match reader.into_rest() {
        Ok(rest) => {
            let cutting = Cutting {
                offset: rest.offset,
                line: rest.line,
                until: rest.source.stop(),
                lines_per_game: true,
                part_bytes,
            };
            let mut feed = task::Stream(io::Cursor::new(rest.bytes).chain(rest.source));
            Ok(read_in_parts(
                &mut feed, &name, at, cutting, observer, buffers, sink,
            ))
        }
        Err(reader) => Ok(read_here(*reader, at, Some(next_index), observer, sink)),
    }
}
