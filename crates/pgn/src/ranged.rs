//! A range of an input (`--range START:END`), found from the input's bytes alone: it runs from
//! `S(START)` to `S(END)`, where `S(x)` is the first place at or after `x` where a game surely
//! starts ([`sure_start`]: a rule that depends on the bytes of the input only, never on where
//! reading began), `S(0)` is 0, and `S(x)` is the end of the input when no such place follows. A
//! game ends where the next one surely starts, so the games of a range are exactly those of the
//! whole input whose first byte lies in `[S(START), S(END))`, and the ranges of any split of an
//! input hold each of its games once.
//!
//! [`Ranged`] hands out the bytes from `S(START)` on, as a stream, and the bytes up to the end of
//! the look-ahead after `S(END)`, then ends; `S(END)` is known ([`RangeStop`]) before any byte
//! past it is handed out, so a reader stops before the game there. A file that can seek is read
//! from [`RANGE_LOOK_BEHIND`] bytes before START ([`Ranged::seeking`]), after a search back for its
//! last brace before that (a byte search: at once in a file of comments, to its start in a file
//! without braces); any other stream is read from its start, the bytes before `S(START)` searched
//! but not cut into games. Memory stays flat: a few hundred kilobytes.

use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::boundary::{RANGE_LOOK_AHEAD, RANGE_LOOK_BEHIND, sure_start};
use super::lex::last_brace;

/// Bytes read from the stream at a time.
const CHUNK: usize = 256 << 10;
/// The first block read back for the last brace before a seeking range ([`Ranged::seeking`]):
/// in a file of comments, one is that close.
pub const FIRST_BACK: usize = 4 << 10;

/// Where a range's games stop: `S(END)` once found, `u64::MAX` until then (and for no range).
/// Shared by the [`Ranged`] stream that finds it and the readers of its bytes.
#[derive(Clone, Debug)]
pub struct RangeStop(Arc<AtomicU64>);

impl Default for RangeStop {
    /// No stop: every game is read.
    fn default() -> RangeStop {
        RangeStop(Arc::new(AtomicU64::new(u64::MAX)))
    }
}

impl RangeStop {
    /// `S(END)` if found, else `u64::MAX`: a game that starts at or after it is not in the range.
    /// A game that starts before the bytes handed out so far end is known to be in the range or
    /// not by this alone.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    fn set(&self, at: u64) {
        self.0.store(at, Ordering::Release);
    }
}

/// The bytes of a range of an input, from `S(START)` on (see the module documentation).
#[derive(Debug)]
pub struct Ranged<R> {
    inner: R,
    /// Bytes of the input in hand, from offset `base`.
    buf: Vec<u8>,
    base: u64,
    /// The last brace of the input before `base`.
    brace_before: Option<u8>,
    /// The input ended after `buf`.
    eof: bool,
    range: Range<u64>,
    /// `S(START)`, once found.
    start: Option<u64>,
    /// The next byte to hand out (an offset).
    pos: u64,
    /// The line starts at or after `range.end` and before this offset were judged: no game
    /// surely starts at any; bytes before it may be handed out.
    judged: u64,
    stop: RangeStop,
    /// How many bytes were read from the stream.
    read: u64,
}

/// What [`Ranged::judge`] found.
enum Judged {
    /// A game surely starts there (or the input ends there).
    At(u64),
    /// No game surely starts before this offset.
    NoneBefore(u64),
}

impl<R: Read> Ranged<R> {
    /// The range `range` of the input `inner`, read from its start.
    pub fn new(inner: R, range: Range<u64>) -> Ranged<R> {
        Ranged::at(inner, 0, None, range)
    }

    /// The range `range` of an input of which `inner` holds the bytes from offset `base` on, the
    /// last brace before them being `brace_before`.
    fn at(inner: R, base: u64, brace_before: Option<u8>, range: Range<u64>) -> Ranged<R> {
        Ranged {
            inner,
            buf: Vec::new(),
            base,
            brace_before,
            eof: false,
            judged: range.end,
            range,
            start: None,
            pos: base,
            stop: RangeStop::default(),
            read: 0,
        }
    }

    /// Reads on to `S(START)` and returns it: the range's bytes start there.
    pub fn start(&mut self) -> io::Result<u64> {
        if let Some(start) = self.start {
            return Ok(start);
        }
        let start = if self.range.start == 0 {
            0
        } else {
            let mut from = self.range.start;
            loop {
                match self.judge(from, u64::MAX)? {
                    Judged::At(at) => break at,
                    Judged::NoneBefore(to) => from = to,
                }
            }
        };
        self.start = Some(start);
        self.pos = start;
        // `S(START)` is `S(x)` for every `x` from START to it: so for END too, if it lies there.
        if self.range.end <= start {
            self.stop.set(start);
        }
        Ok(start)
    }

    /// Where the range's games stop, shared: see [`RangeStop`].
    pub fn stop(&self) -> RangeStop {
        self.stop.clone()
    }

    /// How many bytes were read from the stream: those before `S(START)` and the look-behind too,
    /// from where reading began.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// Judges the line starts from offset `from` on, over the bytes in hand after reading more
    /// (keeping those from `keep` on, and the look-behind of `from`).
    fn judge(&mut self, from: u64, keep: u64) -> io::Result<Judged> {
        let at = loop {
            self.drop_before(keep.min(from.saturating_sub(RANGE_LOOK_BEHIND as u64)));
            let at = (from - self.base) as usize;
            if self.eof || self.buf.len() >= at + RANGE_LOOK_AHEAD + CHUNK {
                break at;
            }
            self.read_more()?;
        };
        let until = if self.eof {
            self.buf.len()
        } else {
            self.buf.len() - RANGE_LOOK_AHEAD
        };
        let starts_input = self.base == 0;
        Ok(
            match sure_start(&self.buf, at, until, starts_input, self.brace_before) {
                Some(start) => Judged::At(self.base + start as u64),
                None if self.eof => Judged::At(self.base + self.buf.len() as u64),
                None => Judged::NoneBefore(self.base + until as u64),
            },
        )
    }

    /// Lets go of the bytes before offset `offset`, if in hand, keeping their last brace.
    fn drop_before(&mut self, offset: u64) {
        if offset <= self.base {
            return;
        }
        let len = ((offset - self.base) as usize).min(self.buf.len());
        self.brace_before = last_brace(&self.buf[..len]).or(self.brace_before);
        self.buf.drain(..len);
        self.base += len as u64;
    }

    /// Reads a chunk more, or marks the end of the input.
    fn read_more(&mut self) -> io::Result<()> {
        let n = (&mut self.inner)
            .take(CHUNK as u64)
            .read_to_end(&mut self.buf)?;
        self.read += n as u64;
        self.eof = n == 0;
        Ok(())
    }
}

impl<R: Read + Seek> Ranged<R> {
    /// The range `range` of the file `file`, read from [`RANGE_LOOK_BEHIND`] bytes before START
    /// on, after a search back for the last brace before them: the bytes before are not read
    /// unless that search has to.
    pub fn seeking(mut file: R, range: Range<u64>) -> io::Result<Ranged<R>> {
        let len = file.seek(SeekFrom::End(0))?;
        let base = range
            .start
            .saturating_sub(RANGE_LOOK_BEHIND as u64)
            .min(len);
        let brace_before = last_brace_before(&mut file, base)?;
        file.seek(SeekFrom::Start(base))?;
        Ok(Ranged::at(file, base, brace_before, range))
    }
}

/// The last brace of `file` before offset `at`, searched back from there in blocks of
/// [`FIRST_BACK`] bytes and more, up to [`CHUNK`].
fn last_brace_before<R: Read + Seek>(file: &mut R, mut at: u64) -> io::Result<Option<u8>> {
    let mut block = Vec::with_capacity(CHUNK);
    let mut want = FIRST_BACK;
    while at > 0 {
        let len = at.min(want as u64);
        want = (want * 2).min(CHUNK);
        at -= len;
        file.seek(SeekFrom::Start(at))?;
        block.clear();
        (&mut *file).take(len).read_to_end(&mut block)?;
        if let Some(brace) = last_brace(&block) {
            return Ok(Some(brace));
        }
    }
    Ok(None)
}

impl<R: Read> Read for Ranged<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.start()?;
        loop {
            let found = self.stop.get() != u64::MAX;
            let end = self.base + self.buf.len() as u64;
            let limit = if found { end } else { self.judged.min(end) };
            if self.pos < limit {
                let from = (self.pos - self.base) as usize;
                let n = out.len().min((limit - self.pos) as usize);
                out[..n].copy_from_slice(&self.buf[from..from + n]);
                self.pos += n as u64;
                return Ok(n);
            }
            if found || out.is_empty() {
                return Ok(0);
            }
            if self.judged > end {
                // END lies past the bytes in hand: read on to it.
                let behind = self.judged.saturating_sub(RANGE_LOOK_BEHIND as u64);
                self.drop_before(self.pos.min(behind));
                if self.eof {
                    self.stop.set(end);
                } else {
                    self.read_more()?;
                }
                continue;
            }
            match self.judge(self.judged, self.pos)? {
                Judged::At(at) => self.stop.set(at),
                Judged::NoneBefore(to) => self.judged = to,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes `Ranged` hands out for `range` of `text`, where they start, and where it stops.
    fn hand_out(text: &[u8], range: Range<u64>, seek: bool) -> (u64, u64, Vec<u8>) {
        let mut ranged = if seek {
            Ranged::seeking(io::Cursor::new(text), range).unwrap()
        } else {
            Ranged::new(io::Cursor::new(text), range)
        };
        let start = ranged.start().unwrap();
        let mut bytes = Vec::new();
        ranged.read_to_end(&mut bytes).unwrap();
        (start, ranged.stop().get(), bytes)
    }

    #[test]
    fn a_range_starts_and_stops_where_games_surely_start() {
        let game = |n: usize| format!("[Event \"{n}\"]\n\n1. e4 {{ c }} e5 1-0\n\n");
        let text: String = (0..5).map(game).collect();
        let starts: Vec<u64> = (0..5)
            .map(|n| text.find(&format!("[Event \"{n}\"]")).unwrap() as u64)
            .collect();
        let len = text.len() as u64;
        for seek in [false, true] {
            let (start, stop, bytes) = hand_out(text.as_bytes(), 1..starts[2] + 1, seek);
            assert_eq!((start, stop), (starts[1], starts[3]));
            assert!(text.as_bytes()[start as usize..].starts_with(&bytes));
            assert!(bytes.len() as u64 >= stop - start);
            assert_eq!(hand_out(text.as_bytes(), 0..0, seek).1, 0);
            let (start, stop, _) = hand_out(text.as_bytes(), starts[4]..len + 9, seek);
            assert_eq!((start, stop), (starts[4], len));
            let (start, stop, bytes) = hand_out(text.as_bytes(), len + 5..len + 9, seek);
            assert_eq!((start >= len, stop >= len, bytes.len()), (true, true, 0));
        }
    }
}
