//! Decompression of gzip, zstd, bzip2 and xz streams that hands out every byte decoded before a
//! failure, and only then the failure.
//!
//! The readers of the decoder crates (flate2, zstd, bzip2, liblzma) drop what one call decoded when
//! the same call fails: the good blocks before a corrupt one, the last block of a zstd frame whose
//! checksum does not match. How much of a damaged stream came through then depended on the sizes of
//! the reads, so one job and two read different games from one file. Here each format's one-step
//! function is driven directly, and a failure waits for the next read when bytes came before it.
//! The compressed bytes are taken in whole chunks, however the source hands them out (a pipe gives
//! what it has), so that a damaged stream fails at the same place, with the same offsets, however
//! it is read.
//!
//! - gzip: any number of members, each a header (its optional fields skipped, its CRC checked when
//!   present), raw deflate data, and a trailer whose CRC-32 and length are checked;
//! - zstd: any number of frames, skippable frames included;
//! - bzip2: any number of streams;
//! - xz: any number of streams, with stream padding.
//!
//! Anything after the last member, frame or stream that does not start another is an error, as is
//! a stream cut short. A failure names the format and where it happened: the compressed bytes the
//! decoder had taken, and the decompressed bytes it had handed out.

use std::io::{self, Read};

use crc32fast::Hasher;
use miniz_oxide::inflate::{self, TINFLStatus, core::DecompressorOxide, core::inflate_flags};
use zstd::stream::raw::{InBuffer, Operation, OutBuffer};

use super::Compression;

/// Compressed bytes read from the source at a time.
const RAW_CHUNK: usize = 64 << 10;

/// The compressed stream, in chunks of a fixed size ([`RAW_CHUNK`]) however its reads come (a pipe
/// hands out what it has): so the decoders see the same chunks, and fail at the same place with
/// the same offsets, however the stream is read.
struct Chunks<R> {
    raw: R,
    buf: Box<[u8]>,
    /// The chunk is `buf[at..len]`.
    at: usize,
    len: usize,
    /// The stream ended (after the chunk).
    ended: bool,
    /// The stream failed after the chunk.
    failure: Option<io::Error>,
}

impl<R: Read> Chunks<R> {
    fn new(raw: R, size: usize) -> Chunks<R> {
        Chunks {
            raw,
            buf: vec![0; size].into_boxed_slice(),
            at: 0,
            len: 0,
            ended: false,
            failure: None,
        }
    }

    /// The rest of the current chunk, or the next one; empty at the end of the stream.
    fn chunk(&mut self) -> io::Result<&[u8]> {
        if self.at == self.len && !self.ended {
            if let Some(error) = self.failure.take() {
                return Err(error);
            }
            (self.at, self.len) = (0, 0);
            while self.len < self.buf.len() {
                match self.raw.read(&mut self.buf[self.len..]) {
                    Ok(0) => {
                        self.ended = true;
                        break;
                    }
                    Ok(n) => self.len += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if self.len == 0 => return Err(e),
                    Err(e) => {
                        self.failure = Some(e);
                        break;
                    }
                }
            }
        }
        Ok(&self.buf[self.at..self.len])
    }

    /// Takes `n` bytes of the current chunk.
    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// A decompressing reader: see the module documentation.
pub(super) struct Decoder<R> {
    raw: Chunks<R>,
    codec: Box<dyn Codec>,
    format: Compression,
    /// Compressed bytes the decoder has taken.
    compressed: u64,
    /// Decompressed bytes handed out.
    decompressed: u64,
    /// A failure that comes after the bytes handed out last.
    pending: Option<io::Error>,
    /// The stream failed (and the failure was handed out): nothing more comes.
    failed: bool,
}

impl<R: Read> Decoder<R> {
    /// A decoder of `format` over the compressed stream `raw`.
    pub(super) fn new(format: Compression, raw: R) -> io::Result<Decoder<R>> {
        Decoder::chunked(format, raw, RAW_CHUNK)
    }

    /// A decoder of `format` over `raw`, taken `chunk` bytes at a time.
    fn chunked(format: Compression, raw: R, chunk: usize) -> io::Result<Decoder<R>> {
        let codec: Box<dyn Codec> = match format {
            Compression::Gzip => Box::new(Gzip::new()),
            Compression::Zstd => Box::new(Zstd::new()?),
            Compression::Bzip2 => Box::new(Bzip2::new()),
            Compression::Xz => Box::new(Xz::new()?),
        };
        Ok(Decoder {
            raw: Chunks::new(raw, chunk),
            codec,
            format,
            compressed: 0,
            decompressed: 0,
            pending: None,
            failed: false,
        })
    }

    /// Reads up to `len` first bytes. A failure after some of them waits for the next read; a
    /// failure before any is returned.
    pub(super) fn head(&mut self, len: usize) -> io::Result<Vec<u8>> {
        let mut head = vec![0; len];
        let mut got = 0;
        while got < len {
            match self.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if got == 0 => return Err(e),
                Err(e) => {
                    self.failed = false;
                    self.pending = Some(e);
                    break;
                }
            }
        }
        head.truncate(got);
        Ok(head)
    }

    /// A failure of the decoder, with where it happened.
    fn failure(&self, message: &str) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "corrupt or truncated {} data near compressed byte {} (decompressed byte {}): \
                 {message}",
                self.format.name(),
                self.compressed,
                self.decompressed
            ),
        )
    }
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(error) = self.pending.take() {
            self.failed = true;
            return Err(error);
        }
        if buf.is_empty() || self.failed {
            return Ok(0);
        }
        loop {
            let input = self.raw.chunk()?;
            let at_end = input.is_empty();
            let given = input.len();
            let step = self.codec.step(input, buf);
            self.raw.consume(step.consumed);
            self.compressed += step.consumed as u64;
            self.decompressed += step.written as u64;
            if let Err(message) = step.result {
                let error = self.failure(&message);
                if step.written > 0 {
                    self.pending = Some(error);
                    return Ok(step.written);
                }
                self.failed = true;
                return Err(error);
            }
            if step.written > 0 || at_end {
                return Ok(step.written);
            }
            if step.consumed == 0 && given > 0 {
                // Input and room for output, and nothing done: the codec is stuck.
                self.failed = true;
                return Err(self.failure("the decoder made no progress"));
            }
        }
    }
}

/// What one step of a codec did.
struct Step {
    /// Compressed bytes taken.
    consumed: usize,
    /// Decompressed bytes written.
    written: usize,
    /// What went wrong, after the bytes written.
    result: Result<(), String>,
}

impl Step {
    fn ok(consumed: usize, written: usize) -> Step {
        Step {
            consumed,
            written,
            result: Ok(()),
        }
    }

    fn failed(consumed: usize, written: usize, message: impl Into<String>) -> Step {
        Step {
            consumed,
            written,
            result: Err(message.into()),
        }
    }
}

/// One compression format, one step at a time.
trait Codec: Send {
    /// Decodes what it can of `input` into `output` (not empty). An empty `input` is the end of
    /// the compressed stream: the codec hands out what it still holds, then fails if the stream
    /// was cut short, or writes nothing if it ended where it may.
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step;
}

/// What a stream cut short says.
const CUT_SHORT: &str = "unexpected end of file";

/// gzip members: a header, raw deflate data, a trailer.
struct Gzip {
    stage: GzipStage,
    inflate: Inflate,
    /// The CRC-32 of the member's header (for its optional CRC-16), then of its data.
    crc: Crc,
    /// The header's fixed part, or the trailer, as far as read.
    fixed: [u8; 10],
    got: usize,
    flags: u8,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum GzipStage {
    /// Between members: the end, or the first byte of the next member's header.
    Between,
    /// The header's first 10 bytes.
    Fixed,
    /// The length of the extra field (2 bytes), then the field itself.
    ExtraLength,
    Extra(usize),
    /// A zero-terminated name, then comment.
    Name,
    Comment,
    /// The header's CRC-16.
    HeaderCrc,
    /// The deflate data.
    Data,
    /// The CRC-32 and length of the data (8 bytes).
    Trailer,
}

const FHCRC: u8 = 0x02;
const FEXTRA: u8 = 0x04;
const FNAME: u8 = 0x08;
const FCOMMENT: u8 = 0x10;

impl Gzip {
    fn new() -> Gzip {
        Gzip {
            stage: GzipStage::Fixed,
            inflate: Inflate::new(),
            crc: Crc::new(),
            fixed: [0; 10],
            got: 0,
            flags: 0,
        }
    }

    /// The header's stage after `stage`, by its flags.
    fn after(&self, stage: GzipStage) -> GzipStage {
        use GzipStage::*;
        let order = [
            (ExtraLength, FEXTRA),
            (Name, FNAME),
            (Comment, FCOMMENT),
            (HeaderCrc, FHCRC),
        ];
        let from = match stage {
            Fixed => 0,
            Extra(_) => 1,
            Name => 2,
            Comment => 3,
            _ => 4,
        };
        order[from..]
            .iter()
            .find(|(_, flag)| self.flags & flag != 0)
            .map_or(Data, |&(stage, _)| stage)
    }

    /// Collects bytes of `input` into `fixed` up to `len` of them; returns how many were taken.
    fn collect(&mut self, input: &[u8], len: usize) -> usize {
        let n = (len - self.got).min(input.len());
        self.fixed[self.got..self.got + n].copy_from_slice(&input[..n]);
        self.got += n;
        n
    }

    /// Reads the header from `input`; returns how many bytes it took, or what is wrong and
    /// where.
    fn header(&mut self, input: &[u8]) -> Result<usize, (usize, String)> {
        use GzipStage::*;
        let mut at = 0;
        while at < input.len() && self.stage != Data {
            let before = at;
            match self.stage {
                Fixed => {
                    at += self.collect(&input[at..], 10);
                    let f = &self.fixed[..self.got];
                    if f.first().is_some_and(|&b| b != 0x1f) || f.get(1).is_some_and(|&b| b != 0x8b)
                    {
                        return Err((before, "not gzip data (invalid gzip header)".into()));
                    }
                    if self.got == 10 {
                        if f[2] != 8 {
                            return Err((
                                before,
                                format!("unknown gzip compression method {}", f[2]),
                            ));
                        }
                        if f[3] & 0xe0 != 0 {
                            return Err((
                                before,
                                "invalid gzip header (reserved flags set)".into(),
                            ));
                        }
                        self.flags = f[3];
                        self.got = 0;
                        self.crc.update(&input[before..at]);
                        self.stage = self.after(Fixed);
                        continue;
                    }
                }
                ExtraLength => {
                    at += self.collect(&input[at..], 2);
                    if self.got == 2 {
                        self.got = 0;
                        let len = u16::from_le_bytes([self.fixed[0], self.fixed[1]]);
                        self.stage = Extra(usize::from(len));
                    }
                }
                Extra(left) => {
                    let n = left.min(input.len() - at);
                    at += n;
                    self.stage = if n == left {
                        self.after(Extra(0))
                    } else {
                        Extra(left - n)
                    };
                }
                Name | Comment => match memchr::memchr(0, &input[at..]) {
                    Some(end) => {
                        at += end + 1;
                        self.stage = self.after(self.stage);
                    }
                    None => at = input.len(),
                },
                HeaderCrc => {
                    // The CRC-16 covers the header before it, not itself.
                    at += self.collect(&input[at..], 2);
                    if self.got == 2 {
                        self.got = 0;
                        let stored = u16::from_le_bytes([self.fixed[0], self.fixed[1]]);
                        if stored != self.crc.sum() as u16 {
                            return Err((
                                before,
                                "the gzip header's checksum does not match".into(),
                            ));
                        }
                        self.stage = Data;
                    }
                    continue;
                }
                Between | Data | Trailer => unreachable!("not a header stage"),
            }
            self.crc.update(&input[before..at]);
        }
        if self.stage == Data {
            self.crc.reset();
        }
        Ok(at)
    }

    /// Checks the trailer against the data.
    fn check_trailer(&self) -> Result<(), String> {
        let f = &self.fixed;
        let crc = u32::from_le_bytes([f[0], f[1], f[2], f[3]]);
        let len = u32::from_le_bytes([f[4], f[5], f[6], f[7]]);
        if crc != self.crc.sum() {
            return Err("the data does not match the checksum of its gzip member".into());
        }
        if len != self.crc.amount() {
            return Err("the data does not match the length of its gzip member".into());
        }
        Ok(())
    }
}

impl Codec for Gzip {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        use GzipStage::*;
        // What was decoded comes first, then whatever went wrong after it.
        if self.inflate.pending() > 0 {
            return Step::ok(0, self.inflate.hand_out(output));
        }
        if let Some(message) = self.inflate.failure.take() {
            return Step::failed(0, 0, message);
        }
        let mut consumed = 0;
        loop {
            let rest = &input[consumed..];
            match self.stage {
                Between if input.is_empty() => return Step::ok(0, 0),
                Between => {
                    self.inflate.reset();
                    self.crc.reset();
                    self.got = 0;
                    self.stage = Fixed;
                }
                // The header took all the input: the data comes with the next.
                Data if rest.is_empty() && consumed > 0 => return Step::ok(consumed, 0),
                Data => {
                    let (taken, ended) = self.inflate.decode(rest, &mut self.crc);
                    consumed += taken;
                    if ended {
                        self.stage = Trailer;
                        self.got = 0;
                    }
                    let written = self.inflate.hand_out(output);
                    if self.inflate.pending() == 0
                        && let Some(message) = self.inflate.failure.take()
                    {
                        return Step::failed(consumed, written, message);
                    }
                    return Step::ok(consumed, written);
                }
                _ if input.is_empty() => return Step::failed(0, 0, CUT_SHORT),
                Trailer => {
                    consumed += self.collect(rest, 8);
                    if self.got < 8 {
                        return Step::ok(consumed, 0);
                    }
                    if let Err(message) = self.check_trailer() {
                        return Step::failed(consumed, 0, message);
                    }
                    self.stage = Between;
                    return Step::ok(consumed, 0);
                }
                Fixed | ExtraLength | Extra(_) | Name | Comment | HeaderCrc => {
                    match self.header(rest) {
                        Ok(n) => consumed += n,
                        Err((n, message)) => return Step::failed(consumed + n, 0, message),
                    }
                    if self.stage != Data {
                        return Step::ok(consumed, 0);
                    }
                }
            }
        }
    }
}

/// The CRC-32 and length (modulo 2^32) of a gzip member's bytes.
#[derive(Default)]
struct Crc {
    hasher: Hasher,
    len: u32,
}

impl Crc {
    fn new() -> Crc {
        Crc::default()
    }

    fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.len = self.len.wrapping_add(bytes.len() as u32);
    }

    fn sum(&self) -> u32 {
        self.hasher.clone().finalize()
    }

    fn amount(&self) -> u32 {
        self.len
    }

    fn reset(&mut self) {
        *self = Crc::default();
    }
}

/// Bytes of decoded deflate data kept: the last 32 KiB are what the data refers back to; the rest
/// lets one call decode more at a time. A power of two.
const RING: usize = 128 << 10;

/// Raw deflate data, decoded into a ring of the last bytes (which later data refers back to) and
/// handed out from there: so every byte decoded before a corruption is found is handed out,
/// whatever the sizes of the reads.
struct Inflate {
    state: Box<DecompressorOxide>,
    ring: Vec<u8>,
    /// Where the next decoded byte goes.
    at: usize,
    /// Decoded bytes not yet handed out: `ring[from..from + pending]` (a call decodes up to the
    /// ring's end, no further).
    from: usize,
    pending: usize,
    /// The data failed after the bytes decoded.
    failure: Option<String>,
}

impl Inflate {
    fn new() -> Inflate {
        Inflate {
            state: Box::default(),
            ring: vec![0; RING],
            at: 0,
            from: 0,
            pending: 0,
            failure: None,
        }
    }

    /// For the next member.
    fn reset(&mut self) {
        self.state.init();
        (self.at, self.from, self.pending) = (0, 0, 0);
    }

    /// Decoded bytes not yet handed out.
    fn pending(&self) -> usize {
        self.pending
    }

    /// Decodes from `input` (the end of the data when empty) into the ring, hashing what it
    /// decodes into `crc`; returns how much input it took, and whether the deflate data ended. A
    /// failure is kept, for after the bytes decoded. Only when nothing is pending.
    fn decode(&mut self, input: &[u8], crc: &mut Crc) -> (usize, bool) {
        debug_assert_eq!(self.pending(), 0);
        let flags = if input.is_empty() {
            0
        } else {
            inflate_flags::TINFL_FLAG_HAS_MORE_INPUT
        };
        let (status, taken, written) =
            inflate::core::decompress(&mut self.state, input, &mut self.ring, self.at, flags);
        crc.update(&self.ring[self.at..self.at + written]);
        (self.from, self.pending) = (self.at, written);
        self.at = (self.at + written) & (RING - 1);
        let failure = match status {
            TINFLStatus::Done => return (taken, true),
            TINFLStatus::NeedsMoreInput | TINFLStatus::HasMoreOutput => return (taken, false),
            TINFLStatus::FailedCannotMakeProgress => CUT_SHORT.to_owned(),
            other => format!("corrupt deflate data ({other:?})"),
        };
        self.failure = Some(failure);
        (taken, false)
    }

    /// Hands out what it can of the pending bytes into `output`; returns how many.
    fn hand_out(&mut self, output: &mut [u8]) -> usize {
        let n = self.pending.min(output.len());
        output[..n].copy_from_slice(&self.ring[self.from..self.from + n]);
        self.from += n;
        self.pending -= n;
        n
    }
}

/// How many bytes start a zstd frame (its magic number and header descriptor): what is given of
/// a frame before zstd says how much more it needs.
const ZSTD_FRAME_START: usize = 5;

/// zstd frames.
///
/// zstd hands out nothing of a call that fails, even bytes it decoded in that call before the
/// failure: so each call is given no more input than zstd asked for (one unit: a header, a block,
/// the checksum), and after a call that filled the output, the next one gets no input at all, so
/// that what zstd still holds is handed out before it decodes on. Then a failing call is one that
/// decoded nothing.
struct Zstd {
    decoder: zstd::stream::raw::Decoder<'static>,
    /// The input zstd asked for next; 0 after a frame, handed out whole.
    hint: usize,
    /// The last call filled the output: zstd may hold more of what it decoded.
    flush_first: bool,
}

impl Zstd {
    fn new() -> io::Result<Zstd> {
        Ok(Zstd {
            decoder: zstd::stream::raw::Decoder::new()?,
            hint: ZSTD_FRAME_START,
            flush_first: false,
        })
    }

    /// One call of zstd on `input`: how much it took and wrote, or what went wrong.
    fn run(&mut self, input: &[u8], output: &mut [u8]) -> Result<(usize, usize), String> {
        let mut src = InBuffer::around(input);
        let mut dst = OutBuffer::around(output);
        let hint = self
            .decoder
            .run(&mut src, &mut dst)
            .map_err(|e| e.to_string())?;
        self.hint = hint;
        self.flush_first = dst.pos() == dst.capacity();
        Ok((src.pos(), dst.pos()))
    }
}

impl Codec for Zstd {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.flush_first || input.is_empty() {
            if input.is_empty() && self.hint == 0 {
                return Step::ok(0, 0);
            }
            let written = match self.run(&[], output) {
                Ok((_, written)) => written,
                Err(message) => return Step::failed(0, 0, message),
            };
            if input.is_empty() && written == 0 && self.hint != 0 {
                return Step::failed(0, 0, "incomplete frame");
            }
            if written > 0 || input.is_empty() {
                return Step::ok(0, written);
            }
        }
        if self.hint == 0 {
            // A frame follows the last one.
            if let Err(e) = self.decoder.reinit() {
                return Step::failed(0, 0, e.to_string());
            }
            self.hint = ZSTD_FRAME_START;
        }
        let given = &input[..input.len().min(self.hint)];
        match self.run(given, output) {
            Ok((consumed, written)) => Step::ok(consumed, written),
            Err(message) => Step::failed(0, 0, message),
        }
    }
}

/// bzip2 streams.
struct Bzip2 {
    stream: bzip2::Decompress,
    /// The last stream ended.
    ended: bool,
}

impl Bzip2 {
    fn new() -> Bzip2 {
        Bzip2 {
            stream: bzip2::Decompress::new(false),
            ended: false,
        }
    }
}

impl Codec for Bzip2 {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.ended {
            if input.is_empty() {
                return Step::ok(0, 0);
            }
            // A stream follows the last one.
            self.stream = bzip2::Decompress::new(false);
            self.ended = false;
        }
        let (before_in, before_out) = (self.stream.total_in(), self.stream.total_out());
        let result = self.stream.decompress(input, output);
        let consumed = (self.stream.total_in() - before_in) as usize;
        let written = (self.stream.total_out() - before_out) as usize;
        match result {
            Ok(bzip2::Status::StreamEnd) => {
                self.ended = true;
                Step::ok(consumed, written)
            }
            Ok(_) if input.is_empty() && written == 0 => Step::failed(0, 0, CUT_SHORT),
            Ok(_) => Step::ok(consumed, written),
            Err(e) => Step::failed(consumed, written, e.to_string()),
        }
    }
}

/// xz streams.
struct Xz {
    stream: liblzma::stream::Stream,
    /// The last stream ended, at the end of the input.
    ended: bool,
}

impl Xz {
    fn new() -> io::Result<Xz> {
        let stream =
            liblzma::stream::Stream::new_auto_decoder(u64::MAX, liblzma::stream::CONCATENATED)?;
        Ok(Xz {
            stream,
            ended: false,
        })
    }
}

impl Codec for Xz {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.ended {
            return Step::ok(0, 0);
        }
        // Streams may follow one another: the last one ends only at the end of the input.
        let action = if input.is_empty() {
            liblzma::stream::Action::Finish
        } else {
            liblzma::stream::Action::Run
        };
        let (before_in, before_out) = (self.stream.total_in(), self.stream.total_out());
        let result = self.stream.process(input, output, action);
        let consumed = (self.stream.total_in() - before_in) as usize;
        let written = (self.stream.total_out() - before_out) as usize;
        match result {
            Ok(liblzma::stream::Status::StreamEnd) => {
                self.ended = true;
                Step::ok(consumed, written)
            }
            Ok(_) if input.is_empty() && written == 0 => Step::failed(0, 0, CUT_SHORT),
            Ok(_) => Step::ok(consumed, written),
            Err(e) => Step::failed(consumed, written, e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// Text that compresses as PGN does, neither trivially nor hardly at all.
    fn text(len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 64);
        let mut x = 12345u64;
        while out.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.extend_from_slice(format!("{}. e4 {{[%clk 0:0{}]}} ", x % 97, x % 10).as_bytes());
            if x.is_multiple_of(5) {
                out.extend_from_slice(b"1-0\n\n[Event \"x\"]\n\n");
            }
        }
        out.truncate(len);
        out
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A gzip member with every optional header field: extra, name, comment and header CRC.
    fn gzip_with_fields(data: &[u8]) -> Vec<u8> {
        let mut member = vec![
            0x1f,
            0x8b,
            8,
            FEXTRA | FNAME | FCOMMENT | FHCRC,
            0,
            0,
            0,
            0,
            0,
            3,
        ];
        member.extend_from_slice(&[4, 0, b'a', b'b', 2, 0]);
        member.extend_from_slice(b"games.pgn\0a comment\0");
        let mut crc = Crc::new();
        crc.update(&member);
        member.extend_from_slice(&(crc.sum() as u16).to_le_bytes());
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        deflate.write_all(data).unwrap();
        member.extend(deflate.finish().unwrap());
        let mut crc = Crc::new();
        crc.update(data);
        member.extend_from_slice(&crc.sum().to_le_bytes());
        member.extend_from_slice(&(data.len() as u32).to_le_bytes());
        member
    }

    fn zstd(data: &[u8]) -> Vec<u8> {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn bzip2(data: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn xz(data: &[u8]) -> Vec<u8> {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A compressor.
    type Encode = fn(&[u8]) -> Vec<u8>;

    /// Each format with its compressor.
    fn formats() -> [(Compression, Encode); 4] {
        [
            (Compression::Gzip, gzip),
            (Compression::Zstd, zstd),
            (Compression::Bzip2, bzip2),
            (Compression::Xz, xz),
        ]
    }

    /// Hands out its bytes a few at a time (1 to 13), as a pipe might.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 = self.1 % 13 + 1;
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Everything `compressed` decodes to, read `size` bytes at a time, and the error it ends with.
    fn read_all(format: Compression, compressed: &[u8], size: usize) -> (Vec<u8>, Option<String>) {
        drain(Decoder::new(format, compressed).unwrap(), size)
    }

    /// Everything `decoder` decodes to, read `size` bytes at a time, and the error it ends with.
    fn drain(mut decoder: Decoder<impl Read>, size: usize) -> (Vec<u8>, Option<String>) {
        let mut out = Vec::new();
        let mut buf = vec![0; size];
        loop {
            match decoder.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    // Nothing comes after the failure.
                    assert_eq!(decoder.read(&mut buf).unwrap(), 0);
                    return (out, Some(e.to_string()));
                }
            }
        }
    }

    /// Read sizes from one byte to more than any block.
    const SIZES: [usize; 6] = [1, 7, 1000, 4096, 50_000, 1 << 20];

    #[test]
    fn every_format_decodes_several_streams_whatever_the_read_sizes() {
        let (a, b) = (text(300_000), text(1_000));
        for (format, encode) in formats() {
            let compressed = [encode(&a), encode(&b), encode(b"")].concat();
            for size in SIZES {
                let (out, error) = read_all(format, &compressed, size);
                assert_eq!(error, None, "{format:?}, reads of {size}");
                assert!(
                    out == [&a[..], &b[..]].concat(),
                    "{format:?}, reads of {size}"
                );
            }
        }
        let compressed = [gzip_with_fields(&a), gzip_with_fields(&b)].concat();
        for size in SIZES {
            let (out, error) = read_all(Compression::Gzip, &compressed, size);
            assert_eq!(error, None, "reads of {size}");
            assert!(out == [&a[..], &b[..]].concat(), "reads of {size}");
        }
        // Every boundary of the compressed streams at the end of a chunk of them, too.
        for chunk in [1, 2, 3, 5, 13] {
            for (format, encode) in formats() {
                let compressed = [encode(&b), encode(&a)].concat();
                let decoder = Decoder::chunked(format, &compressed[..], chunk).unwrap();
                let (out, error) = drain(decoder, 4096);
                assert_eq!(error, None, "{format:?}, chunks of {chunk}");
                assert!(
                    out == [&b[..], &a[..]].concat(),
                    "{format:?}, chunks of {chunk}"
                );
            }
            let compressed = [gzip_with_fields(&b), gzip_with_fields(&a)].concat();
            let decoder = Decoder::chunked(Compression::Gzip, &compressed[..], chunk).unwrap();
            let (out, error) = drain(decoder, 4096);
            assert_eq!(error, None, "chunks of {chunk}");
            assert!(out == [&b[..], &a[..]].concat(), "chunks of {chunk}");
        }
        // zstd: a skippable frame between frames.
        let skippable = [&[0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0][..], b"abc"].concat();
        let compressed = [zstd(&a), skippable, zstd(&b)].concat();
        let (out, error) = read_all(Compression::Zstd, &compressed, 4096);
        assert_eq!(error, None);
        assert!(out == [&a[..], &b[..]].concat());
    }

    #[test]
    fn after_a_whole_stream_junk_is_an_error_after_every_byte() {
        let data = text(200_000);
        for (format, encode) in formats() {
            let compressed = [encode(&data), b"JUNK!".to_vec()].concat();
            for size in SIZES {
                let (out, error) = read_all(format, &compressed, size);
                assert!(
                    out == data,
                    "{format:?}, reads of {size}: {} bytes",
                    out.len()
                );
                let error = error.expect("an error");
                let name = format.name();
                assert!(
                    error.starts_with(&format!("corrupt or truncated {name} data near compressed")),
                    "{error}"
                );
                assert!(
                    error.contains(&format!("(decompressed byte {})", data.len())),
                    "{error}"
                );
            }
        }
    }

    #[test]
    fn a_bad_checksum_is_an_error_after_every_byte() {
        let data = text(200_000);
        // gzip: the trailer's CRC-32; zstd: the frame's checksum, its last 4 bytes.
        for (format, encode, from_end) in [
            (Compression::Gzip, gzip as Encode, 8),
            (Compression::Zstd, zstd, 4),
        ] {
            let mut compressed = encode(&data);
            let at = compressed.len() - from_end;
            compressed[at] ^= 0x55;
            for size in SIZES {
                let (out, error) = read_all(format, &compressed, size);
                assert!(
                    out == data,
                    "{format:?}, reads of {size}: {} bytes",
                    out.len()
                );
                assert!(error.expect("an error").contains("checksum"), "{format:?}");
            }
        }
    }

    #[test]
    fn damaged_data_decodes_to_the_same_bytes_whatever_the_read_sizes() {
        let data = text(400_000);
        for (format, encode) in formats() {
            let compressed = encode(&data);
            for k in 1..=12 {
                let mut damaged = compressed.clone();
                let at = damaged.len() * k / 13;
                damaged[at] ^= 1 << (k % 8);
                let mut cut = compressed.clone();
                cut.truncate(at);
                for input in [&damaged, &cut] {
                    let first = read_all(format, input, SIZES[0]);
                    let trickled = drain(Decoder::new(format, Trickle(input, 0)).unwrap(), 4096);
                    let others = SIZES[1..]
                        .iter()
                        .map(|&size| (format!("reads of {size}"), read_all(format, input, size)))
                        .chain([("compressed bytes trickled in".to_owned(), trickled)]);
                    for (how, other) in others {
                        assert!(
                            other == first,
                            "{format:?}, damaged at {at}: reads of 1 give {} bytes and {:?}, \
                             {how} give {} bytes and {:?}",
                            first.0.len(),
                            first.1,
                            other.0.len(),
                            other.1
                        );
                    }
                }
                let (out, error) = read_all(format, &cut, 4096);
                assert!(data.starts_with(&out), "{format:?}, cut at {at}");
                assert!(error.is_some(), "{format:?}, cut at {at}");
            }
        }
    }

    #[test]
    fn the_first_bytes_come_before_a_failure_right_after_them() {
        let data = b"1. e4 e5 1-0\n1. d4 d5 0-1\n";
        for (format, encode) in formats() {
            let compressed = [encode(data), b"junk".to_vec()].concat();
            let mut decoder = Decoder::new(format, &compressed[..]).unwrap();
            assert_eq!(decoder.head(512).unwrap(), data, "{format:?}");
            let error = decoder.read(&mut [0; 64]).unwrap_err();
            assert!(
                error.to_string().contains("decompressed byte 26"),
                "{error}"
            );
            // A failure before any byte is the head's own.
            let mut decoder = Decoder::new(format, &b"junk"[..]).unwrap();
            assert!(decoder.head(512).is_err(), "{format:?}");
        }
    }
}
