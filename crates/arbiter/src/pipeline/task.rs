//! What the workers of a run are given ([`Task`]: a part of an input to read, or a run of zstd
//! frames to decode), and where the bytes of an input come from as it is cut into parts
//! ([`Feed`]: a stream read on the reading thread, or a zstd file whose frames the workers decode).

use std::io::{self, Read};
use std::sync::Arc;

use arbiter_pgn::PartEnd;

#[cfg(feature = "zstd")]
use super::decoding::Decoding;
use crate::parallel::Weight;

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
    /// Games that start at or after this offset are not read (`--range`): the last game read
    /// is read to its end past it.
    pub until: u64,
    /// Lines are counted from each game's first line (`--range`: see
    /// `Reader::lines_per_game`).
    pub lines_per_game: bool,
}

/// What the workers are given.
pub(crate) enum Task {
    /// Read, replay and format the games of a part.
    Part(Part),
    /// Decode a run of zstd frames of input number `.1`, for the reading thread to cut into parts.
    #[cfg(feature = "zstd")]
    Decode(Arc<Decoding>, u64),
}

impl Weight for Task {
    /// A part's buffer; a run of frames is bounded by count instead (see `frames`).
    fn weight(&self) -> usize {
        match self {
            Task::Part(part) => part.bytes.capacity(),
            #[cfg(feature = "zstd")]
            Task::Decode(..) => 0,
        }
    }
}

/// Hands a task to the workers if their queue has room ([`Sink::offer`](crate::parallel::Sink::offer)).
pub(super) type Offer<'a> = dyn FnMut(Task) -> Result<bool, Task> + 'a;

/// Where the bytes of an input come from, for [`read_in_parts`](super::parts::read_in_parts).
pub(super) trait Feed {
    /// Appends up to `want` bytes to `buf`, offering any work for the workers to `offer` (see
    /// [`Sink::offer`](crate::parallel::Sink::offer): the task back when their queue is full,
    /// false once the run is shutting down); fewer bytes only at the end of the input or on a
    /// failure, which comes after the bytes before it.
    fn fill(&mut self, buf: &mut Vec<u8>, want: usize, offer: &mut Offer<'_>) -> io::Result<usize>;
    /// The rest of the input, read here.
    fn here(&mut self) -> impl Read + '_;
}

/// A stream's bytes, read on the reading thread.
pub(super) struct Stream<R>(pub(super) R);

impl<R: Read> Feed for Stream<R> {
    fn fill(&mut self, buf: &mut Vec<u8>, want: usize, _: &mut Offer<'_>) -> io::Result<usize> {
        (&mut self.0).take(want as u64).read_to_end(buf)
    }

    fn here(&mut self) -> impl Read + '_ {
        &mut self.0
    }
}
