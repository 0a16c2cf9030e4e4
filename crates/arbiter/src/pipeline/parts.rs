//! Cutting one input into parts for the workers: each part ends where a game surely starts
//! ([`last_game_start`]), so that no thread has to cut the games first. Where no such place turns
//! up for a long stretch, that stretch is read on this thread, in order, and parts resume after it.
//! The bytes come from a [`Feed`]: a stream ([`Stream`](super::task::Stream)), or a zstd file whose
//! frames are decoded on the workers (`frames`), which then get [`Task::Decode`]s beside the parts.

use std::io::{self, Read};
use std::sync::{Arc, Mutex, PoisonError};

use arbiter_pgn::{PartEnd, RangeStop, Reader, TAG_LINE_LOOK_BACK, last_game_start, line_ends};

use super::read::{Place, read_batch_here};
use super::task::{Feed, Part, Task};
use super::{GameFormatter, Observer, PartSink};

/// Input bytes per part handed to a worker (a part and its output stay within a core's cache).
pub(super) const PART_BYTES: usize = 64 << 10;
/// Input bytes per part when every ply is a row: ply rows are some twenty times the size of the
/// PGN they come from, and the parts in flight must not hold tens of megabytes.
pub(super) const PLY_PART_BYTES: usize = PART_BYTES / 4;
/// A part grows up to this size while no place is found where a game surely starts (a huge game,
/// or a file laid out in a way [`last_game_start`] cannot vouch for); then that stretch is read
/// here, in order, as with one job, and parts resume at the first game after it that starts a
/// line.
const MAX_PART_BYTES: usize = 4 << 20;

/// How an input is cut into parts: where the first part starts (at a game's start, at the start
/// of its line), where the games to read end, and the size of a part.
#[derive(Clone, Debug)]
pub(super) struct Cutting {
    /// The stream offset of the first part.
    pub(super) offset: u64,
    /// Its line, from 1.
    pub(super) line: u64,
    /// Games that start at or after this offset are not read: see [`Part::until`]. Found as the
    /// input is read, before its bytes are handed out ([`RangeStop`]).
    pub(super) until: RangeStop,
    /// See [`Part::lines_per_game`].
    pub(super) lines_per_game: bool,
    /// Input bytes per part, about.
    pub(super) part_bytes: usize,
}

impl Cutting {
    /// The whole of an input, in parts of about `part_bytes`.
    pub(super) fn whole(part_bytes: usize) -> Cutting {
        Cutting {
            offset: 0,
            line: 1,
            until: RangeStop::default(),
            lines_per_game: false,
            part_bytes,
        }
    }
}

/// Reads `source` in parts as `cutting` says, each handed to `sink` (a worker, or this thread
/// when the workers are busy); `source` starts at `cutting.offset`. Returns `None` if the
/// pipeline is shutting down.
pub(super) fn read_in_parts<F: GameFormatter>(
    source: &mut impl Feed,
    name: &Arc<str>,
    at: &Place,
    cutting: Cutting,
    observer: &dyn Observer,
    buffers: &Buffers,
    sink: &mut PartSink<'_, F>,
) -> Option<()> {
    let Cutting {
        part_bytes,
        until,
        lines_per_game,
        ..
    } = cutting;
    // The bytes of the next part so far, `pending[..filled]`, from a game's start at `offset`,
    // on line `line`; the rest of `pending` is room to read into, initialised.
    let mut pending = buffers.get(part_bytes);
    let mut filled = 0;
    let (mut offset, mut line) = (cutting.offset, cutting.line);
    // Where in `pending` to look for the next game's start: bytes before were looked at.
    let mut from = 0;
    loop {
        if offset >= until.get() {
            // Every game from here on starts past the games to read.
            return Some(());
        }
        if pending.len() < filled + part_bytes {
            pending.resize(filled + part_bytes, 0);
        }
        let room = &mut pending[filled..filled + part_bytes];
        let (read, error) = source.fill(room, &mut |task| sink.offer(task));
        filled += read;
        let ended = read < part_bytes || error.is_some();
        observer.input(at.stored());
        let part = |bytes, end| Part {
            source: Arc::clone(name),
            input: at.input,
            bytes,
            offset,
            line,
            end,
            // The bytes of the part were handed out: so where the range stops is known for them.
            until: until.get(),
            lines_per_game,
        };
        if ended {
            if filled == 0 && error.is_none() {
                return Some(());
            }
            pending.truncate(filled);
            return sink
                .send(Task::Part(part(pending, PartEnd::Last(error))))
                .then_some(());
        }
        match last_game_start(&pending[..filled], from) {
            Some(start) => {
                let carried = filled - start;
                let mut rest = buffers.get(carried + part_bytes);
                rest[..carried].copy_from_slice(&pending[start..filled]);
                pending.truncate(start);
                let lines = line_ends(&pending);
                let bytes = std::mem::replace(&mut pending, rest);
                if !sink.send(Task::Part(part(bytes, PartEnd::MoreFollows))) {
                    return None;
                }
                offset += start as u64;
                line += lines;
                (filled, from) = (carried, 0);
            }
            None if filled >= MAX_PART_BYTES => {
                // Read here, in order, past these bytes; then on in parts from the first game
                // that starts a line.
                let past = offset + filled as u64;
                pending.truncate(filled);
                let rest = io::Cursor::new(pending).chain(source.here());
                let mut reader = Reader::new(name.to_string(), rest)
                    .starting_at(offset, line)
                    .until(until.clone());
                if lines_per_game {
                    reader = reader.lines_per_game();
                }
                let rest = loop {
                    if read_batch_here(&mut reader, at, None, observer, sink)? {
                        return Some(());
                    }
                    if reader.bytes_done() < past {
                        continue;
                    }
                    match reader.into_rest() {
                        Ok(rest) => break rest,
                        Err(still) => reader = *still,
                    }
                };
                let (unread, _) = rest.source.into_inner();
                let unread = &unread.get_ref()[unread.position() as usize..];
                let (read, carried) = (rest.bytes.len(), rest.bytes.len() + unread.len());
                pending = buffers.get(carried + part_bytes);
                pending[..read].copy_from_slice(&rest.bytes);
                pending[read..carried].copy_from_slice(unread);
                (offset, line, filled, from) = (rest.offset, rest.line, carried, 0);
            }
            // A tag line cut short at the end is looked at again.
            None => from = filled.saturating_sub(TAG_LINE_LOOK_BACK),
        }
    }
}

/// Buffers of parts done with, for the next parts: the same few go round, so that memory does not
/// creep up with the size of the input (as fresh buffers, freed on other threads, make it do).
/// They keep their bytes, so that the next part is read into them as they are: a buffer is zeroed
/// only where no part held bytes before (a 64 KiB memset a part, when each was cleared and read
/// into through `read_to_end`).
#[derive(Default)]
pub(super) struct Buffers(Mutex<Vec<Vec<u8>>>);

impl Buffers {
    /// A buffer of at least `room` bytes, all initialised (what they hold is of no use), to read
    /// into. A new one has a quarter more, for the start of a game carried over from the part
    /// before: a buffer kept is too small only after a long game, and is then replaced, not grown
    /// (growing doubles it, and copies what it holds).
    pub(super) fn get(&self, room: usize) -> Vec<u8> {
        let spare = self.0.lock().unwrap_or_else(PoisonError::into_inner).pop();
        match spare {
            Some(mut buffer) if buffer.capacity() >= room => {
                if buffer.len() < room {
                    buffer.resize(room, 0);
                }
                buffer
            }
            _ => vec![0; room + room / 4],
        }
    }

    /// Keeps `buffer` for later, unless enough are kept (those of a window of parts) or it grew
    /// large (for a part in which a game started only after many reads).
    pub(super) fn put(&self, buffer: Vec<u8>) {
        let mut spare = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if (1..=4 * PART_BYTES).contains(&buffer.capacity()) && spare.len() < 16 {
            spare.push(buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_core::replay::{GameReport, ReplayOptions, Replayer};
    use arbiter_report::output::{GameNumber, Output};

    use super::*;
    use crate::parallel::Sink;
    use crate::pipeline::BatchOutput;
    use crate::pipeline::task::Stream;

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

    impl Sink<Task, BatchOutput, (Replayer, Nothing)> for Recording {
        fn send(&mut self, task: Task) -> bool {
            match task {
                Task::Part(part) => {
                    let last = matches!(part.end, PartEnd::Last(_));
                    self.parts.push((part.offset, part.line, last));
                    true
                }
                #[cfg(feature = "zstd")]
                Task::Decode(..) => panic!("a stream has no frames to decode"),
            }
        }
        fn offer(&mut self, task: Task) -> Result<bool, Task> {
            Ok(self.send(task))
        }
        fn worker(&mut self) -> &mut (Replayer, Nothing) {
            &mut self.worker
        }
        fn done(&mut self, result: BatchOutput) -> bool {
            self.games_here += result.counts.counts.games;
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
    fn a_buffer_kept_comes_back_as_it_was_and_one_too_small_is_replaced() {
        let buffers = Buffers::default();
        // A new buffer: room to read into, and a quarter more for a game carried over.
        let new = buffers.get(PART_BYTES);
        assert_eq!(new.len(), PART_BYTES + PART_BYTES / 4);
        // A part's buffer comes back with its bytes, cut where the part ended: it is read into
        // as it is, zeroed only past where it was cut.
        let mut part = new;
        part.fill(b'x');
        part.truncate(PART_BYTES - 100);
        let capacity = part.capacity();
        buffers.put(part);
        let again = buffers.get(PART_BYTES);
        assert_eq!(again.capacity(), capacity, "the same buffer");
        assert_eq!(again.len(), PART_BYTES);
        assert!(again[..PART_BYTES - 100].iter().all(|&b| b == b'x'));
        assert!(again[PART_BYTES - 100..].iter().all(|&b| b == 0));
        // Too small for the room asked: a new one, not the old one grown.
        buffers.put(again);
        let room = 2 * PART_BYTES;
        let larger = buffers.get(room);
        assert_eq!(larger.len(), room + room / 4);
        assert!(larger.iter().all(|&b| b == 0));
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
        let read = read_in_parts(
            &mut Stream(text.as_bytes()),
            &Arc::from("test.pgn"),
            &Place::default(),
            Cutting::whole(PART_BYTES),
            &(),
            &Buffers::default(),
            &mut sink,
        );
        assert_eq!(read, Some(()));
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
