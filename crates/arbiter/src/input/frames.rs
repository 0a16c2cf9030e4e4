//! Splitting a zstd file into runs of whole frames by their headers alone, so that each run can be
//! decoded on its own thread (a file made with `pzstd`, as lichess's monthly files are: a
//! skippable frame, then one frame per 32 MiB or so of games).
//!
//! A frame's extent follows from its header and its block headers (zstd's format, RFC 8878): the
//! frame header's length from its descriptor byte, then blocks of three-byte headers, each giving
//! the block's type and size, the last one marked, then a four-byte checksum when the descriptor
//! says so; a skippable frame (magic `0x184D2A50` to `0x184D2A5F`) gives its length after its
//! magic. Nothing is decoded. The block headers also bound what a frame decodes to: a raw or RLE
//! block decodes to its size, a compressed block to at most 128 KiB.
//!
//! Whatever does not look like whole, well-formed frames (another magic number, a reserved bit or
//! block type, a block larger than zstd allows, a frame cut short, a frame that may decode to more
//! than [`MAX_RUN_BOUND`], a read error) ends the runs: the splitter hands back the rest of the
//! file from that frame's start, to be decoded as one stream as before, where the decoder says what
//! is wrong and where.

use std::io::{self, Read};

use super::decode::Decoder;
use super::{Compression, ErrorFirst};

/// A run of frames is closed once what it may decode to reaches this.
pub(crate) const RUN_BOUND: usize = 4 << 20;
/// A frame that may decode to more than this is not split off (a file compressed as one frame):
/// the rest of the file is decoded as one stream, so that memory stays flat.
pub(crate) const MAX_RUN_BOUND: usize = 64 << 20;
/// Compressed bytes read from the file at a time.
const READ_CHUNK: usize = 256 << 10;
/// The most a compressed block decodes to (zstd's `Block_Maximum_Size`, at most 128 KiB).
const MAX_BLOCK: usize = 128 << 10;
/// The magic number of a zstd frame, little-endian.
const FRAME_MAGIC: u32 = 0xFD2F_B528;

/// Whole frames of a zstd file, decoded on their own.
#[derive(Debug)]
pub(crate) struct Run {
    /// Their compressed bytes.
    pub(crate) raw: Vec<u8>,
    /// Where they start in the file.
    pub(crate) at: u64,
    /// How many frames, skippable ones included.
    pub(crate) frames: u64,
    /// The most they decode to.
    pub(crate) bound: usize,
}

/// What comes next in a zstd file.
pub(crate) enum Next {
    /// A run of whole frames.
    Run(Run),
    /// The file ended after the last run.
    End,
    /// A frame that could not be split off (see the module documentation): the rest of the file,
    /// from its start ([`Splitter::into_rest`]), is to be decoded as one stream.
    Rest,
}

/// Splits a zstd file into runs of whole frames.
pub(crate) struct Splitter<R> {
    /// The file after `buf`; taken with the rest.
    raw: R,
    /// Bytes read and not handed out yet; `buf[0]` is at compressed byte `at`.
    buf: Vec<u8>,
    at: u64,
    /// The file ended (after `buf`).
    ended: bool,
    /// The file failed to read after `buf`.
    failure: Option<io::Error>,
    /// No run comes any more.
    done: bool,
}

impl<R: Read + Send + 'static> Splitter<R> {
    /// A splitter of the zstd stream `raw`.
    pub(crate) fn over(raw: R) -> Splitter<R> {
        Splitter {
            raw,
            buf: Vec::new(),
            at: 0,
            ended: false,
            failure: None,
            done: false,
        }
    }

    /// The next run of frames, closed once it may decode to `bound` bytes or more.
    pub(crate) fn next_run(&mut self, bound: usize) -> Next {
        if self.done {
            return Next::End;
        }
        let (mut end, mut frames, mut run_bound) = (0, 0, 0);
        while run_bound < bound {
            match self.frame_at(end) {
                Some(Some((len, frame_bound))) if run_bound + frame_bound <= MAX_RUN_BOUND => {
                    end += len;
                    frames += 1;
                    run_bound += frame_bound;
                }
                // The file ended after the last frame.
                Some(None) => break,
                _ if frames > 0 => break,
                _ => {
                    self.done = true;
                    return Next::Rest;
                }
            }
        }
        if frames == 0 {
            self.done = true;
            return Next::End;
        }
        let rest = self.buf.split_off(end);
        let raw = std::mem::replace(&mut self.buf, rest);
        let at = self.at;
        self.at += end as u64;
        Next::Run(Run {
            raw,
            at,
            frames,
            bound: run_bound,
        })
    }

    /// Where the rest of the file starts (compressed), and the rest: after [`Next::Rest`], from the
    /// frame that could not be split off; a read error met on the way comes in its turn.
    pub(crate) fn into_rest(self) -> (u64, Box<dyn Read + Send>) {
        let rest = io::Cursor::new(self.buf).chain(ErrorFirst {
            error: self.failure,
            rest: self.raw,
        });
        (self.at, Box::new(rest))
    }

    /// The length of the frame at `buf[start..]` and the most it decodes to; `Some(None)` if the
    /// file ends at `start`, `None` if no whole, well-formed frame starts there.
    fn frame_at(&mut self, start: usize) -> Option<Option<(usize, usize)>> {
        if !self.has(start + 1) {
            return (self.failure.is_none()).then_some(None);
        }
        if !self.has(start + 8) {
            return None;
        }
        let magic = u32::from_le_bytes(self.buf[start..start + 4].try_into().ok()?);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let len = u32::from_le_bytes(self.buf[start + 4..start + 8].try_into().ok()?);
            let end = start + 8 + len as usize;
            return self.has(end).then_some(Some((end - start, 0)));
        }
        if magic != FRAME_MAGIC {
            return None;
        }
        let descriptor = self.buf[start + 4];
        if descriptor & 0x08 != 0 {
            return None;
        }
        let single_segment = descriptor & 0x20 != 0;
        let content_size = match descriptor >> 6 {
            0 => usize::from(single_segment),
            1 => 2,
            2 => 4,
            _ => 8,
        };
        let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
        let window = usize::from(!single_segment);
        let mut at = start + 5 + window + dictionary + content_size;
        let mut bound = 0usize;
        loop {
            if !self.has(at + 3) {
                return None;
            }
            let header = u32::from(self.buf[at])
                | u32::from(self.buf[at + 1]) << 8
                | u32::from(self.buf[at + 2]) << 16;
            let size = (header >> 3) as usize;
            if size > MAX_BLOCK {
                return None;
            }
            let (len, decoded) = match (header >> 1) & 3 {
                0 => (size, size),
                1 => (1, size),
                2 => (size, MAX_BLOCK),
                _ => return None,
            };
            at += 3 + len;
            bound += decoded;
            if bound > MAX_RUN_BOUND {
                return None;
            }
            if header & 1 == 1 {
                break;
            }
        }
        if descriptor & 0x04 != 0 {
            at += 4;
        }
        self.has(at).then_some(Some((at - start, bound)))
    }

    /// Whether `buf` holds `len` bytes, reading on as needed.
    fn has(&mut self, len: usize) -> bool {
        while self.buf.len() < len && !self.ended && self.failure.is_none() {
            let want = (len - self.buf.len()).max(READ_CHUNK);
            match (&mut self.raw).take(want as u64).read_to_end(&mut self.buf) {
                Ok(0) => self.ended = true,
                Ok(_) => {}
                Err(error) => self.failure = Some(error),
            }
        }
        self.buf.len() >= len
    }
}

/// What `run` decodes to, decoded here in one call per frame (on this thread's own decoding
/// context); `None` if it does not decode whole (damaged data: decoded again as one stream, to
/// tell what and where).
pub(crate) fn decode(run: &Run) -> Option<Vec<u8>> {
    thread_local! {
        static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    CONTEXT.with_borrow_mut(|context| {
        if context.is_none() {
            *context = zstd::bulk::Decompressor::new().ok();
        }
        let context = context.as_mut()?;
        let mut out = Vec::with_capacity(run.bound);
        context.decompress_to_buffer(&run.raw, &mut out).ok()?;
        Some(out)
    })
}

/// The rest of a zstd file (see [`Splitter::into_rest`]), starting at compressed byte `at`,
/// decoded as one stream after `decoded` bytes: a failure names where it happened in the file.
pub(crate) fn decode_rest(
    rest: Box<dyn Read + Send>,
    at: u64,
    decoded: u64,
) -> io::Result<Box<dyn Read + Send>> {
    let decoder = Decoder::new(Compression::Zstd, rest)?.starting_at(at, decoded);
    Ok(Box::new(decoder))
}
