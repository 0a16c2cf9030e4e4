//! arbiter-io: where arbiter's games come from and where its output goes, and nothing of chess.
//!
//! - [`input`]: files, directories (searched for `*.pgn`, `*.pgn.gz`...), path patterns and
//!   standard input as a series of [`Source`]s, each decompressed in process whatever its name
//!   says (gzip, zstd, bzip2, xz: [`Compression::sniff`]), its stored bytes counted (and, when
//!   asked, hashed), and refused at once when it is evidently not PGN;
//! - [`frames`] (with the `zstd` feature): a zstd file cut into runs of whole frames, each decoded
//!   on its own thread;
//! - [`sink`]: standard output or `-o FILE`, written through a temporary file renamed over the
//!   target only when the run succeeds, compressed as the name says, and [`sink::clash`]: the rule
//!   that an output may be neither an input nor another output;
//! - [`compression`]: the four compressions, recognised by magic bytes or named by a suffix.
//!
//! Each codec is a crate feature of its name (`gzip`, `zstd`, `bzip2`, `xz`), all on by default;
//! a stream in a format whose feature was left out is an error that names the feature.
//!
//! # Examples
//!
//! Open any reader as a PGN source (compressed or not) and read its decompressed bytes:
//!
//! ```
//! use std::io::Read;
//!
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 *\n";
//! let mut source = arbiter_io::open_stream("game.pgn".to_owned(), &pgn[..]);
//! let mut text = String::new();
//! source.reader.read_to_string(&mut text)?;
//! assert_eq!(text.as_bytes(), pgn);
//! assert_eq!(source.stored.get(), pgn.len() as u64);
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]
#![doc(test(attr(deny(warnings))))]

pub mod compression;
mod decode;
#[cfg(feature = "zstd")]
pub mod frames;
pub mod input;
pub mod sink;

pub use compression::Compression;
pub use input::{InputError, Source, Sources, open_stream, sources};
pub use sink::Sink;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules, bottom up: each may use only those before it.
    const LAYERS: [&str; 5] = ["compression", "decode", "input", "frames", "sink"];

    #[test]
    fn modules_use_only_the_modules_under_them() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let found = arbiter_test_support::layers::violations(&src, &LAYERS);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
