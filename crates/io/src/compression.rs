//! The four compressions arbiter reads and writes, gzip, zstd, bzip2 and xz: recognised on input
//! by their magic bytes ([`Compression::sniff`], whatever the file is called), named on output by
//! the target's suffix ([`Compression::of`]: `-o games.csv.gz` is gzip, `.zst` (or `.zstd`) zstd,
//! `.xz` xz and `.bz2` bzip2, compared without regard to case), and written by an encoder at
//! the level each one's own command-line tool uses by default (gzip 6, zstd 3, xz 6, bzip2 9).
//! The format of an output is named by the extension before the compression suffix
//! (`games.csv.gz` is CSV: [`format_extension`]). Decoding is `decode`'s.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::Path;

/// A compression, of an input or of an output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compression {
    /// `.gz`
    Gzip,
    /// `.zst`, `.zstd`
    Zstd,
    /// `.xz`
    Xz,
    /// `.bz2`
    Bzip2,
}

impl Compression {
    /// The compression the first bytes of a stream show, if any: gzip, zstd (a frame or a
    /// skippable frame), bzip2 or xz.
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        match head {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            // A zstd skippable frame: magic 0x184D2A50..=0x184D2A5F, little-endian.
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Some(Compression::Zstd),
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Some(Compression::Bzip2),
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Compression::Xz),
            _ => None,
        }
    }

    /// The compression `path`'s last extension names, if any.
    pub fn of(path: &Path) -> Option<Compression> {
        Compression::from_extension(path.extension()?)
    }

    fn from_extension(extension: &OsStr) -> Option<Compression> {
        match extension.to_string_lossy().to_ascii_lowercase().as_str() {
            "gz" => Some(Compression::Gzip),
            "zst" | "zstd" => Some(Compression::Zstd),
            "xz" => Some(Compression::Xz),
            "bz2" => Some(Compression::Bzip2),
            _ => None,
        }
    }

    /// Its name, which is also the name of the crate feature that brings its decoder and its
    /// encoder: `gzip`, `zstd`, `xz` or `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// The suffix, as in `.gz`.
    pub fn suffix(self) -> &'static str {
        match self {
            Compression::Gzip => ".gz",
            Compression::Zstd => ".zst",
            Compression::Xz => ".xz",
            Compression::Bzip2 => ".bz2",
        }
    }
}

/// The extension that names `path`'s format, in lowercase: its last one, or the one before a
/// compression suffix (`csv` for `games.csv.gz`).
pub fn format_extension(path: &Path) -> Option<String> {
    let extension = match Compression::of(path) {
        Some(_) => Path::new(path.file_stem()?).extension()?,
        None => path.extension()?,
    };
    Some(extension.to_string_lossy().to_ascii_lowercase())
}

/// The error for an output whose compression was left out of the build: the feature that brings
/// it is named.
fn not_built(compression: Compression) -> io::Error {
    let feature = compression.name();
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "this build of arbiter cannot write {feature} (the `{feature}` feature of the arbiter \
             crate was left out); leave out the {} suffix",
            compression.suffix()
        ),
    )
}

/// A stream, compressed or not. [`Encoder::finish`] writes the compressed stream's end.
pub(crate) enum Encoder<W: Write> {
    Plain(W),
    #[cfg(feature = "gzip")]
    Gzip(flate2::write::GzEncoder<W>),
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::write::Encoder<'static, W>),
    #[cfg(feature = "xz")]
    Xz(liblzma::write::XzEncoder<W>),
    #[cfg(feature = "bzip2")]
    Bzip2(bzip2::write::BzEncoder<W>),
}

impl<W: Write> Encoder<W> {
    /// `out`, compressed with `compression`.
    pub(crate) fn new(out: W, compression: Option<Compression>) -> io::Result<Encoder<W>> {
        Ok(match compression {
            None => Encoder::Plain(out),
            #[cfg(feature = "gzip")]
            Some(Compression::Gzip) => Encoder::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::default(),
            )),
            #[cfg(feature = "zstd")]
            Some(Compression::Zstd) => Encoder::Zstd(zstd::stream::write::Encoder::new(
                out,
                zstd::DEFAULT_COMPRESSION_LEVEL,
            )?),
            #[cfg(feature = "xz")]
            Some(Compression::Xz) => Encoder::Xz(liblzma::write::XzEncoder::new(out, 6)),
            #[cfg(feature = "bzip2")]
            Some(Compression::Bzip2) => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                out,
                bzip2::Compression::best(),
            )),
            #[allow(
                unreachable_patterns,
                reason = "a compression whose feature is on is matched above"
            )]
            Some(left_out) => return Err(not_built(left_out)),
        })
    }

    /// Ends the compressed stream and hands back the output (not flushed).
    pub(crate) fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(out) => Ok(out),
            #[cfg(feature = "gzip")]
            Encoder::Gzip(encoder) => encoder.finish(),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(encoder) => encoder.finish(),
            #[cfg(feature = "xz")]
            Encoder::Xz(encoder) => encoder.finish(),
            #[cfg(feature = "bzip2")]
            Encoder::Bzip2(encoder) => encoder.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(out) => out.write(bytes),
            #[cfg(feature = "gzip")]
            Encoder::Gzip(encoder) => encoder.write(bytes),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(encoder) => encoder.write(bytes),
            #[cfg(feature = "xz")]
            Encoder::Xz(encoder) => encoder.write(bytes),
            #[cfg(feature = "bzip2")]
            Encoder::Bzip2(encoder) => encoder.write(bytes),
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Encoder::Plain(out) => out.write_all(bytes),
            #[cfg(feature = "gzip")]
            Encoder::Gzip(encoder) => encoder.write_all(bytes),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(encoder) => encoder.write_all(bytes),
            #[cfg(feature = "xz")]
            Encoder::Xz(encoder) => encoder.write_all(bytes),
            #[cfg(feature = "bzip2")]
            Encoder::Bzip2(encoder) => encoder.write_all(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(out) => out.flush(),
            #[cfg(feature = "gzip")]
            Encoder::Gzip(encoder) => encoder.flush(),
            #[cfg(feature = "zstd")]
            Encoder::Zstd(encoder) => encoder.flush(),
            #[cfg(feature = "xz")]
            Encoder::Xz(encoder) => encoder.flush(),
            #[cfg(feature = "bzip2")]
            Encoder::Bzip2(encoder) => encoder.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_the_compression_and_the_format() {
        for (name, compression, format) in [
            ("games.csv", None, Some("csv")),
            ("games.csv.gz", Some(Compression::Gzip), Some("csv")),
            ("GAMES.JSONL.ZST", Some(Compression::Zstd), Some("jsonl")),
            ("x.json.zstd", Some(Compression::Zstd), Some("json")),
            ("x.parquet.xz", Some(Compression::Xz), Some("parquet")),
            ("dir.d/x.txt.bz2", Some(Compression::Bzip2), Some("txt")),
            ("x.gz", Some(Compression::Gzip), None),
            ("noext", None, None),
            (".gz", None, None),
        ] {
            let path = Path::new(name);
            assert_eq!(Compression::of(path), compression, "{name}");
            assert_eq!(format_extension(path).as_deref(), format, "{name}");
        }
    }

    #[cfg(all(feature = "gzip", feature = "zstd", feature = "xz", feature = "bzip2"))]
    #[test]
    fn every_compression_round_trips() {
        use std::io::Read;
        let text = "index,file\n1,a.pgn\n".repeat(1000);
        for compression in [
            Compression::Gzip,
            Compression::Zstd,
            Compression::Xz,
            Compression::Bzip2,
        ] {
            let mut encoder = Encoder::new(Vec::new(), Some(compression)).unwrap();
            encoder.write_all(text.as_bytes()).unwrap();
            let bytes = encoder.finish().unwrap();
            assert!(bytes.len() < text.len() / 10, "{compression:?}");
            let mut back = String::new();
            let mut reader: Box<dyn Read> = match compression {
                Compression::Gzip => Box::new(flate2::read::GzDecoder::new(&bytes[..])),
                Compression::Zstd => {
                    Box::new(zstd::stream::read::Decoder::new(&bytes[..]).unwrap())
                }
                Compression::Xz => Box::new(liblzma::read::XzDecoder::new(&bytes[..])),
                Compression::Bzip2 => Box::new(bzip2::read::BzDecoder::new(&bytes[..])),
            };
            reader.read_to_string(&mut back).unwrap();
            assert_eq!(back, text, "{compression:?}");
        }
    }
}
