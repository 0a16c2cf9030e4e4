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
//! block type, a block larger than zstd allows, a frame cut short, a window larger than zstd's
//! stream decoder takes, a frame that may decode to or
//! holds more than `MAX_RUN_BOUND` (64 MiB) bytes, a read error) ends the runs: the splitter hands back the rest of the
//! file from that frame's start, to be decoded as one stream as before, where the decoder says what
//! is wrong and where.

use std::io::{self, Read};

use crate::compression::Compression;
use crate::decode::Decoder;
use crate::input::ErrorFirst;

/// A run of frames is closed once what it may decode to reaches this.
pub const RUN_BOUND: usize = 4 << 20;
/// A frame that may decode to more than this is not split off (a file compressed as one frame):
/// the rest of the file is decoded as one stream, so that memory stays flat.
pub(crate) const MAX_RUN_BOUND: usize = 64 << 20;
/// Compressed bytes read from the file at a time.
const READ_CHUNK: usize = 256 << 10;
/// The most a compressed block decodes to (zstd's `Block_Maximum_Size`, at most 128 KiB).
const MAX_BLOCK: usize = 128 << 10;
/// The magic number of a zstd frame, little-endian.
const FRAME_MAGIC: u32 = 0xFD2F_B528;
/// The largest window a zstd stream decoder accepts by default (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`):
/// a frame that asks for more fails as one stream, so it is left to the stream, to fail there
/// the same way (decoded in one call, it would not).
const MAX_WINDOW: u64 = 1 << 27;

/// The window size a frame header's window descriptor asks for.
fn window_size(descriptor: u8) -> u64 {
    let base = 1u64 << (10 + (descriptor >> 3));
    base + base / 8 * u64::from(descriptor & 7)
}

/// Whole frames of a zstd file, decoded on their own.
#[derive(Debug)]
pub struct Run {
    /// Their compressed bytes.
    pub raw: Vec<u8>,
    /// Where they start in the file.
    pub at: u64,
    /// How many frames, skippable ones included.
    pub frames: u64,
    /// The most they decode to.
    pub bound: usize,
}

/// What comes next in a zstd file.
pub enum Next {
    /// A run of whole frames.
    Run(Run),
    /// The file ended after the last run.
    End,
    /// A frame that could not be split off (see the module documentation): the rest of the file,
    /// from its start ([`Splitter::into_rest`]), is to be decoded as one stream.
    Rest,
}

/// Splits a zstd file into runs of whole frames.
pub struct Splitter<R> {
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
    pub fn over(raw: R) -> Splitter<R> {
        Splitter {
            raw,
            buf: Vec::new(),
            at: 0,
            ended: false,
            failure: None,
            done: false,
        }
    }

    /// The next run of frames, closed once it may decode to `bound` bytes or more, or holds that
    /// many compressed bytes (frames that decode to nothing).
    pub fn next_run(&mut self, bound: usize) -> Next {
        if self.done {
            return Next::End;
        }
        let (mut end, mut frames, mut run_bound) = (0, 0, 0);
        while run_bound < bound && end < bound {
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
    pub fn into_rest(self) -> (u64, Box<dyn Read + Send>) {
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
            let len = u32::from_le_bytes(self.buf[start + 4..start + 8].try_into().ok()?) as usize;
            if len > MAX_RUN_BOUND {
                return None;
            }
            let end = start + 8 + len;
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
        if !single_segment && window_size(self.buf[start + 5]) > MAX_WINDOW {
            return None;
        }
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
            if bound > MAX_RUN_BOUND || at - start > MAX_RUN_BOUND {
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
/// context) into `out` (emptied first: a buffer of an earlier run, whose memory is in place
/// already); `None` if it does not decode whole (damaged data: decoded again as one stream, to
/// tell what and where).
pub fn decode(run: &Run, mut out: Vec<u8>) -> Option<Vec<u8>> {
    thread_local! {
        static CONTEXT: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    CONTEXT.with_borrow_mut(|context| {
        if context.is_none() {
            *context = zstd::bulk::Decompressor::new().ok();
        }
        let context = context.as_mut()?;
        out.clear();
        out.reserve(run.bound);
        context.decompress_to_buffer(&run.raw, &mut out).ok()?;
        Some(out)
    })
}

/// The rest of a zstd file (see [`Splitter::into_rest`]), starting at compressed byte `at`,
/// decoded as one stream after `decoded` bytes: a failure names where it happened in the file.
pub fn decode_rest(
    rest: Box<dyn Read + Send>,
    at: u64,
    decoded: u64,
) -> io::Result<Box<dyn Read + Send>> {
    let decoder = Decoder::new(Compression::Zstd, rest)?.starting_at(at, decoded);
    Ok(Box::new(decoder))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` compressed as one frame, in blocks of at most 128 KiB.
    fn frame(text: &[u8]) -> Vec<u8> {
        zstd::encode_all(text, 3).unwrap()
    }

    fn skippable(len: u32) -> Vec<u8> {
        let mut frame = vec![0x53, 0x2a, 0x4d, 0x18];
        frame.extend(len.to_le_bytes());
        frame.resize(8 + len as usize, b'x');
        frame
    }

    /// Text that does not compress to nothing.
    fn text(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b"abcdefgh 12345.\n"[(x % 16) as usize]
            })
            .collect()
    }

    /// Every run of `file`, and the rest, if any, with where it starts.
    fn split(file: &[u8], bound: usize) -> (Vec<Run>, Option<(u64, Vec<u8>)>) {
        let mut splitter = Splitter::over(io::Cursor::new(file.to_vec()));
        let mut runs = Vec::new();
        loop {
            match splitter.next_run(bound) {
                Next::Run(run) => runs.push(run),
                Next::End => return (runs, None),
                Next::Rest => {
                    let (at, mut rest) = splitter.into_rest();
                    let mut bytes = Vec::new();
                    rest.read_to_end(&mut bytes).unwrap();
                    return (runs, Some((at, bytes)));
                }
            }
        }
    }

    #[test]
    fn runs_are_whole_frames_in_order_and_bound_what_they_decode_to() {
        let mut file = skippable(4);
        let mut texts = Vec::new();
        for k in 0..40 {
            let t = text(1000 + k * 7919, k as u64);
            file.extend(frame(&t));
            if k % 3 == 0 {
                file.extend(skippable(k as u32));
            }
            texts.push(t);
        }
        for bound in [1, 100_000, 1 << 20, RUN_BOUND] {
            let (runs, rest) = split(&file, bound);
            assert!(rest.is_none());
            let raw: Vec<u8> = runs.iter().flat_map(|r| r.raw.clone()).collect();
            assert!(raw == file, "bound {bound}: the runs are the file");
            assert_eq!(runs.iter().map(|r| r.frames).sum::<u64>(), 1 + 40 + 14);
            let mut at = 0;
            let mut decoded = Vec::new();
            // Each run is decoded into the buffer of the run before, as the pipeline does: in
            // place when it holds the run, whatever it held.
            let (mut spare, mut in_place) = (Vec::new(), 0);
            for run in &runs {
                assert_eq!(run.at, at);
                at += run.raw.len() as u64;
                let (place, room) = (spare.as_ptr(), spare.capacity());
                let out = decode(run, std::mem::take(&mut spare)).expect("a whole run decodes");
                assert!(out.len() <= run.bound, "bound {bound}");
                if room >= run.bound {
                    assert_eq!(out.as_ptr(), place, "bound {bound}: decoded in place");
                    in_place += 1;
                }
                decoded.extend_from_slice(&out);
                spare = out;
            }
            assert!(
                in_place > 0 || runs.len() < 3,
                "bound {bound}: no run decoded in place"
            );
            assert!(decoded == texts.concat(), "bound {bound}");
        }
    }

    #[test]
    fn what_is_not_whole_well_formed_frames_is_the_rest_from_its_frame() {
        let good = [frame(&text(50_000, 1)), frame(&text(70_000, 2))].concat();
        let last = frame(&text(30_000, 3));
        let mut bad_magic = last.clone();
        bad_magic[0] ^= 1;
        let mut reserved_bit = last.clone();
        reserved_bit[4] |= 0x08;
        let cut = last[..last.len() - 10].to_vec();
        let huge_skippable = [&[0x50, 0x2a, 0x4d, 0x18][..], &u32::MAX.to_le_bytes()].concat();
        let mut reserved_block = last.clone();
        // The first block header follows the magic, the descriptor, the window (unless single
        // segment), the dictionary and the size; its type is bits 1 and 2.
        let window = usize::from(last[4] & 0x20 == 0);
        let dictionary = [0, 1, 2, 4][usize::from(last[4] & 3)];
        reserved_block[5 + window + dictionary + content_size(last[4])] |= 6;
        for (what, tail) in [
            ("another magic number", bad_magic),
            ("a reserved bit", reserved_bit),
            ("a reserved block type", reserved_block),
            ("a frame cut short", cut),
            ("junk", b"junk".to_vec()),
            ("a skippable frame of 4 GiB", huge_skippable),
        ] {
            let file = [&good[..], &tail].concat();
            let (runs, rest) = split(&file, 1);
            assert_eq!(runs.len(), 2, "{what}");
            let (at, bytes) = rest.expect(what);
            assert_eq!(at, good.len() as u64, "{what}");
            assert!(bytes == tail, "{what}");
        }
    }

    /// The bytes of the frame content size field of a frame with descriptor `descriptor`.
    fn content_size(descriptor: u8) -> usize {
        match descriptor >> 6 {
            0 => usize::from(descriptor & 0x20 != 0),
            1 => 2,
            2 => 4,
            _ => 8,
        }
    }

    #[test]
    fn a_frame_too_large_to_hold_is_left_to_the_stream() {
        // A valid skippable frame of 65 MiB: held, it would be 65 MiB in memory.
        let good = frame(&text(50_000, 1));
        let len = MAX_RUN_BOUND as u32 + 1;
        let header = [&[0x50, 0x2a, 0x4d, 0x18][..], &len.to_le_bytes()].concat();
        let file = io::Cursor::new([&good[..], &header].concat())
            .chain(io::repeat(b'x').take(u64::from(len)));
        let mut splitter = Splitter::over(file);
        assert!(matches!(splitter.next_run(1), Next::Run(_)));
        assert!(matches!(splitter.next_run(1), Next::Rest));
        assert!(splitter.buf.len() <= header.len() + READ_CHUNK);
        let (at, rest) = splitter.into_rest();
        assert_eq!(at, good.len() as u64);
        assert_eq!(
            io::copy(&mut rest.take(u64::MAX), &mut io::sink()).unwrap(),
            8 + u64::from(len)
        );
    }

    #[test]
    fn frames_that_decode_to_nothing_still_close_runs() {
        let mut file = Vec::new();
        for _ in 0..100_000 {
            file.extend(skippable(100));
        }
        let (runs, rest) = split(&file, RUN_BOUND);
        assert!(rest.is_none());
        assert!(runs.len() >= 2);
        assert!(runs.iter().all(|r| r.raw.len() <= RUN_BOUND + 108));
    }
}
