//! Reading the games of one reader into batches: here, in order, with their numbers known (one
//! job, or a stretch no part could be cut in), or one part on a worker, numbers left for later.
//! Each game is read through [`next_game`], so the last line of defence holds on every path.

use std::io::Read;

use arbiter_core::games::{GameReplay, next_game};
use arbiter_core::replay::GameReport;
use arbiter_io::input::StoredBytes;
use arbiter_pgn::Reader;
use arbiter_report::output::GameNumber;

use super::{BatchOutput, GameFormatter, Observer, Part, PartSink};

/// Games per batch read here with one job.
const BATCH_GAMES: usize = 1024;
/// Input bytes per batch read here with one job; output bytes per batch, and per piece of a part
/// read on a worker, as [`Output::footprint`](arbiter_report::output::Output::footprint) counts
/// them: a batch ends after the game that passes them.
const BATCH_BYTES: u64 = 256 << 10;

/// Which input is read, how many bytes the inputs before it held as stored, and the count of its
/// own read so far.
#[derive(Default)]
pub(super) struct Place {
    pub(super) input: u64,
    pub(super) stored_before: u64,
    pub(super) stored: StoredBytes,
}

impl Place {
    /// The bytes of the inputs read so far, as stored (what progress counts).
    pub(super) fn stored(&self) -> u64 {
        self.stored_before + self.stored.get()
    }
}

/// Reads the games of `reader` here, in batches, into `sink`; their numbers are known when
/// `next_index` (the next game's number across all inputs) is given. Returns `None` if the
/// pipeline is shutting down.
pub(super) fn read_here<R: Read, F: GameFormatter>(
    mut reader: Reader<R>,
    at: &Place,
    mut next_index: Option<&mut u64>,
    observer: &dyn Observer,
    sink: &mut PartSink<'_, F>,
) -> Option<()> {
    loop {
        let index = next_index.as_deref_mut();
        if read_batch_here(&mut reader, at, index, observer, sink)? {
            return Some(());
        }
    }
}

/// Reads a batch of games of `reader` here into `sink`, as [`read_here`] does; returns whether the
/// input has ended, or `None` if the pipeline is shutting down.
pub(super) fn read_batch_here<R: Read, F: GameFormatter>(
    reader: &mut Reader<R>,
    at: &Place,
    next_index: Option<&mut u64>,
    observer: &dyn Observer,
    sink: &mut PartSink<'_, F>,
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
        next_index,
        observer,
        &mut output,
        |reader, output| {
            (output.counts.counts.games as usize) < BATCH_GAMES
                && reader.bytes_done() - start < BATCH_BYTES
                && output.output.footprint() < BATCH_BYTES as usize
        },
    );
    observer.input(at.stored());
    if output.counts.counts.games + output.counts.input_errors > 0 && !sink.done(output) {
        return None;
    }
    Some(ended)
}

/// Reads, replays and formats every game of `part` (as the workers of a run with several jobs
/// do); a failure of the input goes to `observer`. The output's game numbers are left for later
/// ([`GameNumber::Later`]), counted in each piece of the output.
///
/// The output goes in pieces, so that a part of many small games does not hold all their output
/// (a 64 KiB part of one-token games formats to tens of megabytes): each time the output passes
/// 256 KiB, the piece so far goes to `pieces`, which says whether to go on (false: the run
/// is over, and the rest of the part is left unread). What is returned is the last piece.
pub(super) fn read_part<V: GameReplay, F: GameFormatter>(
    replay: &mut V,
    formatter: &mut F,
    part: Part,
    observer: &dyn Observer,
    pieces: &mut dyn FnMut(BatchOutput) -> bool,
) -> BatchOutput {
    let mut reader = Reader::part(&*part.source, part.bytes, part.offset, part.line, part.end)
        .range(0..part.until);
    if part.lines_per_game {
        reader = reader.lines_per_game();
    }
    loop {
        let mut output = BatchOutput {
            input: part.input,
            ..BatchOutput::default()
        };
        let ended = read_games(
            &mut reader,
            replay,
            formatter,
            None,
            observer,
            &mut output,
            |_, output| output.output.footprint() < BATCH_BYTES as usize,
        );
        if ended {
            output.spare = reader.into_buffer();
            return output;
        }
        if !pieces(output) {
            return BatchOutput {
                input: part.input,
                ..BatchOutput::default()
            };
        }
    }
}

/// Reads, replays and formats games into `output` while `more` says so; returns whether the input
/// has ended (a failure of the input goes to `observer`, is counted, and ends it); the games'
/// source is the reader's name. Game numbers are
/// known when `next_index` (the next game's number across all inputs) is given, else left for
/// later.
fn read_games<R: Read, V: GameReplay, F: GameFormatter>(
    reader: &mut Reader<R>,
    replay: &mut V,
    formatter: &mut F,
    mut next_index: Option<&mut u64>,
    observer: &dyn Observer,
    output: &mut BatchOutput,
    more: impl Fn(&Reader<R>, &BatchOutput) -> bool,
) -> bool {
    // A game whose replay panicked, reported as an internal error.
    let mut internal = GameReport::default();
    while more(reader, output) {
        let report = match next_game(reader, replay, &mut internal) {
            Ok(Some(report)) => report,
            Ok(None) => return true,
            Err(err) => {
                observer.input_error(&err);
                output.counts.input_errors += 1;
                return true;
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
                in_batch: output.counts.counts.games,
            },
        };
        output.counts.count(report);
        formatter.format(reader.name(), number, report, &mut output.output);
    }
    false
}
