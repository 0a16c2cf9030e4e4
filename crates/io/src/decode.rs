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
//! One file per format, each built only with the crate feature of the format's name:
//!
//! - `gz` (feature `gzip`, pure Rust): any number of members, each a header (its optional fields
//!   skipped, its CRC checked when present), raw deflate data, and a trailer whose CRC-32 and
//!   length are checked;
//! - `zst` (feature `zstd`, C): any number of frames, skippable frames included;
//! - `bz2` (feature `bzip2`, pure Rust): any number of streams;
//! - `xz` (feature `xz`, C): any number of streams, with stream padding.
//!
//! A stream in a format whose feature was left out is an error that names the feature.
//!
//! Anything after the last member, frame or stream that does not start another is an error, as is
//! a stream cut short. A failure names the format and where it happened: the compressed bytes the
//! decoder had taken, and the decompressed bytes it had handed out.

// Built with no decoder at all, every stream is refused and the driver below is never used.
#![cfg_attr(
    not(any(feature = "gzip", feature = "zstd", feature = "bzip2", feature = "xz")),
    allow(dead_code, unreachable_code, unused_variables)
)]

#[cfg(feature = "bzip2")]
mod bz2;
#[cfg(feature = "gzip")]
mod gz;
#[cfg(feature = "xz")]
mod xz;
#[cfg(feature = "zstd")]
mod zst;

use std::io::{self, Read};

use crate::compression::Compression;

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
pub(crate) struct Decoder<R> {
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
    pub(crate) fn new(format: Compression, raw: R) -> io::Result<Decoder<R>> {
        Decoder::chunked(format, raw, RAW_CHUNK)
    }

    /// A decoder of `format` over `raw`, taken `chunk` bytes at a time.
    fn chunked(format: Compression, raw: R, chunk: usize) -> io::Result<Decoder<R>> {
        let codec: Box<dyn Codec> = match format {
            #[cfg(feature = "gzip")]
            Compression::Gzip => Box::new(gz::Gzip::new()),
            #[cfg(feature = "zstd")]
            Compression::Zstd => Box::new(zst::Zstd::new()?),
            #[cfg(feature = "bzip2")]
            Compression::Bzip2 => Box::new(bz2::Bzip2::new()),
            #[cfg(feature = "xz")]
            Compression::Xz => Box::new(xz::Xz::new()?),
            #[allow(
                unreachable_patterns,
                reason = "a format whose feature is on is matched above"
            )]
            left_out => return Err(not_built(left_out)),
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

    /// The decoder of a stream that starts `compressed` bytes into a file, after `decompressed`
    /// decoded ones: its failures count from there.
    #[cfg(feature = "zstd")]
    pub(crate) fn starting_at(mut self, compressed: u64, decompressed: u64) -> Decoder<R> {
        self.compressed = compressed;
        self.decompressed = decompressed;
        self
    }

    /// Reads up to `len` first bytes. A failure after some of them waits for the next read; a
    /// failure before any is returned.
    pub(crate) fn head(&mut self, len: usize) -> io::Result<Vec<u8>> {
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

/// The error for a stream in `format` when its decoder was left out of the build: the feature
/// that brings it is named (each format's feature has the format's name).
fn not_built(format: Compression) -> io::Error {
    let name = format.name();
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "the input is {name}-compressed, but this build of arbiter has no {name} decoder \
             (the `{name}` feature of the arbiter crate was left out); decompress it first"
        ),
    )
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

/// What a stream cut short says (zstd's decoder says it in its own words).
#[cfg(any(feature = "gzip", feature = "bzip2", feature = "xz"))]
const CUT_SHORT: &str = "unexpected end of file";

#[cfg(all(
    test,
    feature = "gzip",
    feature = "zstd",
    feature = "bzip2",
    feature = "xz"
))]
mod tests {
    use std::io::Write;

    use super::gz::{Crc, FCOMMENT, FEXTRA, FHCRC, FNAME};
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

/// Holds for any set of features (CI runs it with `--no-default-features` too).
#[cfg(test)]
mod left_out {
    use std::io::Read;

    use super::super::open_stream;
    use super::Compression;

    /// A compressed input whose decoder was left out of the build is a read error that names
    /// the feature; with the feature, the same bytes are read (as damaged data: they are only a
    /// magic number).
    #[test]
    fn a_format_left_out_is_an_input_error_naming_its_feature() {
        for (format, magic, built) in [
            (Compression::Gzip, &[0x1f, 0x8b][..], cfg!(feature = "gzip")),
            (
                Compression::Zstd,
                &[0x28, 0xb5, 0x2f, 0xfd][..],
                cfg!(feature = "zstd"),
            ),
            (Compression::Bzip2, &b"BZh9"[..], cfg!(feature = "bzip2")),
            (
                Compression::Xz,
                &[0xfd, b'7', b'z', b'X', b'Z', 0][..],
                cfg!(feature = "xz"),
            ),
        ] {
            let name = format.name();
            let mut source = open_stream("games.pgn".into(), magic);
            let err = source.reader.read(&mut [0; 64]).unwrap_err().to_string();
            let left_out = format!(
                "the input is {name}-compressed, but this build of arbiter has no {name} decoder \
                 (the `{name}` feature of the arbiter crate was left out); decompress it first"
            );
            if built {
                assert!(
                    err.contains(&format!("corrupt or truncated {name} data")),
                    "{err}"
                );
            } else {
                assert_eq!(err, left_out);
            }
        }
    }
}
