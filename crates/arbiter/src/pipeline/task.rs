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
    /// Fills `buf` with the input's next bytes, offering any work for the workers to `offer` (see
    /// [`Sink::offer`](crate::parallel::Sink::offer): the task back when their queue is full,
    /// false once the run is shutting down). Returns how many bytes it put there, fewer than
    /// `buf.len()` only at the end of the input or on a failure, which comes after them.
    fn fill(&mut self, buf: &mut [u8], offer: &mut Offer<'_>) -> (usize, Option<io::Error>);
    /// The rest of the input, read here.
    fn here(&mut self) -> impl Read + '_;
}

/// A stream's bytes, read on the reading thread.
pub(super) struct Stream<R>(pub(super) R);

impl<R: Read> Feed for Stream<R> {
    fn fill(&mut self, buf: &mut [u8], _: &mut Offer<'_>) -> (usize, Option<io::Error>) {
        fill_from(&mut self.0, buf)
    }

    fn here(&mut self) -> impl Read + '_ {
        &mut self.0
    }
}

/// Fills `buf` from `reader` with plain reads into it (no buffer of its own, nothing zeroed:
/// `buf` is initialised already): how many bytes, fewer only at the end of the stream or on a
/// failure, which comes after them.
pub(super) fn fill_from(reader: &mut impl Read, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return (filled, Some(error)),
        }
    }
    (filled, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives out `bytes` a few at a time, interrupted every other read, then fails (if `fails`).
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        reads: usize,
        fails: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            if self.reads.is_multiple_of(2) {
                return Err(io::ErrorKind::Interrupted.into());
            }
            if self.at == self.bytes.len() && self.fails {
                return Err(io::Error::other("broken"));
            }
            let n = buf.len().min(3).min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn trickle(text: &str, fails: bool) -> Trickle {
        Trickle {
            bytes: text.as_bytes().to_vec(),
            at: 0,
            reads: 0,
            fails,
        }
    }

    #[test]
    fn a_fill_reads_on_past_short_and_interrupted_reads_and_keeps_the_bytes_before_a_failure() {
        // Filled whole, over short and interrupted reads; what the buffer held is overwritten.
        let mut buf = vec![b'#'; 8];
        let mut source = trickle("[Event \"a\"]", false);
        let (n, error) = fill_from(&mut source, &mut buf);
        assert_eq!((n, error.is_none()), (8, true));
        assert_eq!(&buf, b"[Event \"");
        // The end of the stream: fewer bytes, no failure.
        let (n, error) = fill_from(&mut source, &mut buf);
        assert_eq!((n, error.is_none()), (3, true));
        assert_eq!(&buf[..n], b"a\"]");
        // A failure after some bytes: the bytes, then the failure.
        let mut source = trickle("1. e4", true);
        let (n, error) = fill_from(&mut source, &mut buf);
        assert_eq!(&buf[..n], b"1. e4");
        assert_eq!(error.map(|e| e.to_string()), Some("broken".to_owned()));
    }
}
