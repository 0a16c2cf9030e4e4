//! Where games come from: files, directories (searched recursively), path patterns and standard
//! input, with gzip, zstd, bzip2 and xz decompressed in process.
//!
//! - A path that names a file is read whatever its name (a FIFO or a device too); a directory
//!   contributes every regular file named `*.pgn`, `*.pgn.gz`, `*.pgn.zst`, `*.pgn.bz2` and
//!   `*.pgn.xz` below it (names compared without regard to case), in sorted order so that runs are
//!   repeatable. A directory with no such file is an error naming it.
//! - A path that does not exist but holds `*`, `?` or `[` is a pattern (`games/*.pgn`, for shells
//!   that leave it unexpanded): its matches are read in sorted order, and a pattern that matches
//!   nothing is an error naming it.
//! - `-`, or no path at all, means standard input.
//! - The compression is recognised by its magic bytes, not by the name: gzip (several members),
//!   zstd (several frames, skippable frames), bzip2 (several streams) and xz (several streams) are
//!   decoded as one stream.
//! - A file that is evidently not PGN (NUL bytes in its first bytes, an executable such as an
//!   ELF, Mach-O or PE file, an archive such as zip, tar, 7z or rar, a PDF or an image, or text
//!   such as a web page or an e-mail: no tag pair in its first 16 KiB, and more unreadable words
//!   than moves) is one [`InputError::NotPgn`] naming what it looks like, instead of thousands of
//!   syntax errors.
//! - Nothing here is fatal: an unreadable file or directory, or a symlink loop, is an
//!   [`InputError`] in the sequence, and the sources after it follow. A corrupt or truncated
//!   compressed file shows up as a read error (naming the compressed and decompressed offsets) when
//!   its bytes are read, after every byte decoded before the damage, however the stream is read
//!   (the decoders are driven in `decode`, so that none drops what it decoded with its failure).
//! - Each source counts the bytes read of it as stored ([`StoredBytes`]: compressed bytes for a
//!   compressed file), so that progress can be told against the sizes of the files.
//! - A zstd file is also opened a second time, so that a run with several jobs can split it into
//!   runs of whole frames and decode them on every core (`frames`).

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use arbiter_pgn::{
    self as pgn, GameInfo, Location, PartEnd, PgnError, PgnErrorKind, Reader, Visitor,
};
use sha2::{Digest, Sha256};

use crate::compression::Compression;
use crate::decode::Decoder;

/// One input stream: its name and its decompressed bytes.
pub struct Source {
    /// The path as given (for a file found in a directory, the directory as given joined with the
    /// rest), or `<stdin>`.
    pub name: String,
    /// The decompressed bytes.
    pub reader: Box<dyn Read + Send>,
    /// How many bytes of the input as stored (compressed, for a compressed file) were read so far.
    pub stored: StoredBytes,
    /// A zstd file opened again, to be split into frames (see [`crate::frames`]).
    #[cfg(feature = "zstd")]
    pub zstd: Option<File>,
    /// A plain (not compressed) regular file opened again, to be read from a place (`--range`),
    /// its reads counted in `stored`.
    pub plain: Option<Counted<File>>,
}

impl Source {
    /// A source named `name` whose bytes are those of `reader`, counted in `stored` as read.
    fn new(name: String, reader: Box<dyn Read + Send>, stored: StoredBytes) -> Source {
        Source {
            name,
            reader,
            stored,
            #[cfg(feature = "zstd")]
            zstd: None,
            plain: None,
        }
    }
}

/// A count of the bytes read of an input as stored, shared with the thread that reads it, and,
/// when the run asks for it, their [`InputDigest`].
#[derive(Clone, Debug, Default)]
pub struct StoredBytes(Arc<Stored>);

/// What [`StoredBytes`] shares.
#[derive(Debug, Default)]
struct Stored {
    bytes: AtomicU64,
    /// Whether the bytes are hashed as they are read.
    hashing: bool,
    /// Set once a stream hashed them from the first byte to the end.
    digest: Mutex<Option<InputDigest>>,
}

/// The bytes of an input as stored (compressed, for a compressed file), read once from the first
/// to the last as the run read them: their count and SHA-256. Hashed as they are read, never by
/// reading the input again, so that it is right for standard input, a FIFO and a file replaced
/// while the run reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InputDigest {
    /// How many bytes.
    pub bytes: u64,
    /// Their SHA-256.
    pub sha256: [u8; 32],
}

impl InputDigest {
    /// The SHA-256 in lowercase hexadecimal, as `sha256sum` prints it.
    pub fn sha256_hex(&self) -> String {
        self.sha256.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl StoredBytes {
    /// A count whose bytes are hashed as they are read when `hashing`.
    fn new(hashing: bool) -> StoredBytes {
        StoredBytes(Arc::new(Stored {
            hashing,
            ..Stored::default()
        }))
    }

    /// A fresh count for a second reading of the same input, hashed if this one is.
    pub fn fresh(&self) -> StoredBytes {
        StoredBytes::new(self.0.hashing)
    }

    /// The bytes read so far.
    pub fn get(&self) -> u64 {
        self.0.bytes.load(Ordering::Relaxed)
    }

    /// The count and SHA-256 of the bytes read, once one stream counted here has read the input
    /// from its first byte to its end (and the run asked for hashing); `None` otherwise (an input
    /// read in a range, or not to its end).
    pub fn digest(&self) -> Option<InputDigest> {
        *self.0.digest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `raw`, its reads counted here (and hashed, if asked).
    pub fn counting<R: Read>(&self, raw: R) -> Counted<R> {
        Counted {
            raw,
            stored: self.clone(),
            hasher: self.0.hashing.then(|| (Sha256::new(), 0)),
        }
    }
}

/// A stream whose reads are counted, and hashed when its count asks.
pub struct Counted<R> {
    raw: R,
    stored: StoredBytes,
    /// The hash of the bytes read so far, all of them from the first, and their count; `None`
    /// when not hashing, once the end is reached, or once the stream seeks.
    hasher: Option<(Sha256, u64)>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.raw.read(buf)?;
        self.stored.0.bytes.fetch_add(n as u64, Ordering::Relaxed);
        if let Some((hasher, bytes)) = &mut self.hasher {
            if n > 0 {
                hasher.update(&buf[..n]);
                *bytes += n as u64;
            } else if !buf.is_empty() {
                let (hasher, bytes) = self.hasher.take().expect("hashing");
                let digest = InputDigest {
                    bytes,
                    sha256: hasher.finalize().into(),
                };
                *self
                    .stored
                    .0
                    .digest
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(digest);
            }
        }
        Ok(n)
    }
}

/// A stream that seeks is not read whole in order: it is hashed no more.
impl<R: io::Seek> io::Seek for Counted<R> {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        self.hasher = None;
        self.raw.seek(to)
    }
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A source that could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A file or directory could not be opened or listed.
    #[error("{path}: {source}")]
    Io {
        /// The path as given or found.
        path: String,
        /// What went wrong.
        #[source]
        source: io::Error,
    },
    /// A symbolic link leads back into a directory that contains it; it is not followed.
    #[error("{path}: symlink loop: it leads back to {target}; not followed")]
    SymlinkLoop {
        /// The link.
        path: String,
        /// Where it leads.
        target: String,
    },
    /// A directory given on the command line holds no PGN file.
    #[error(
        "{path}: no PGN files in this directory (looked for *.pgn, *.pgn.gz, *.pgn.zst, \
         *.pgn.bz2, *.pgn.xz)"
    )]
    NoPgnFiles {
        /// The directory as given.
        path: String,
    },
    /// A path pattern matched no file.
    #[error("{pattern}: no file matches this pattern")]
    NoMatch {
        /// The pattern as given.
        pattern: String,
    },
    /// A file that is evidently not PGN.
    #[error("{path}: not a PGN file: {what}; skipped")]
    NotPgn {
        /// The path as given or found.
        path: String,
        /// What it looks like.
        what: &'static str,
    },
}

impl InputError {
    /// The path (or pattern) as given or found.
    pub fn path(&self) -> &str {
        match self {
            InputError::Io { path, .. }
            | InputError::SymlinkLoop { path, .. }
            | InputError::NoPgnFiles { path }
            | InputError::NotPgn { path, .. } => path,
            InputError::NoMatch { pattern } => pattern,
        }
    }
}

/// The reason a stream was refused as not PGN, carried inside an [`io::Error`].
#[derive(Debug, thiserror::Error)]
#[error("not a PGN file: {0}")]
pub struct NotPgn(pub &'static str);

/// The sources named by `paths`, in order (directories expanded lazily, one level at a time). No
/// path, or `-`, means standard input.
pub fn sources<P: AsRef<Path>>(paths: &[P]) -> Sources {
    let mut pending: Vec<Pending> = paths
        .iter()
        .rev()
        .map(|p| Pending::Given(p.as_ref().to_path_buf()))
        .collect();
    if pending.is_empty() {
        pending.push(Pending::Given(PathBuf::from("-")));
    }
    Sources {
        pending,
        visited: HashSet::new(),
        found: 0,
        hashing: false,
    }
}

/// What is left to visit.
#[derive(Debug)]
enum Pending {
    /// A path from the command line: read whatever it is.
    Given(PathBuf),
    /// A path found in a directory: a directory to descend into, or a file to read if its name fits.
    Found(PathBuf),
    /// A directory entry that could not be read, reported in its turn.
    Failed(InputError),
    /// The end of a directory given on the command line, and how many sources were found before
    /// it was entered.
    DirEnd(PathBuf, u64),
}

/// The iterator returned by [`sources`].
#[derive(Debug)]
pub struct Sources {
    /// A stack: the next item is last.
    pending: Vec<Pending>,
    /// Canonical paths of the directories entered, so none is read twice.
    visited: HashSet<PathBuf>,
    /// How many sources were found so far.
    found: u64,
    /// Whether each source's bytes are hashed as they are read ([`StoredBytes::digest`]).
    hashing: bool,
}

impl Sources {
    /// These sources, each hashed as it is read when `hashing` ([`StoredBytes::digest`]).
    pub fn hashing(self, hashing: bool) -> Sources {
        Sources { hashing, ..self }
    }
}

impl Iterator for Sources {
    type Item = Result<Source, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(item) = self.pending.pop() {
            let (path, given) = match item {
                Pending::Given(path) => (path, true),
                Pending::Found(path) => (path, false),
                Pending::Failed(error) => return Some(Err(error)),
                Pending::DirEnd(path, found) => {
                    if self.found == found {
                        return Some(Err(InputError::NoPgnFiles {
                            path: path.display().to_string(),
                        }));
                    }
                    continue;
                }
            };
            if given && path.as_os_str() == "-" {
                self.found += 1;
                let stored = StoredBytes::new(self.hashing);
                return Some(Ok(open_counted("<stdin>".into(), io::stdin(), stored)));
            }
            let name = path.display().to_string();
            let meta = match fs::metadata(&path) {
                Ok(meta) => meta,
                Err(source) if given && source.kind() == io::ErrorKind::NotFound => {
                    match self.expand(&name) {
                        Some(Ok(())) => continue,
                        Some(Err(e)) => return Some(Err(e)),
                        None => return Some(Err(InputError::Io { path: name, source })),
                    }
                }
                Err(source) => return Some(Err(InputError::Io { path: name, source })),
            };
            if meta.is_dir() {
                if given {
                    self.pending.push(Pending::DirEnd(path.clone(), self.found));
                }
                if let Err(e) = self.enter(&path) {
                    return Some(Err(e));
                }
            } else if given || (meta.is_file() && is_pgn_name(&path)) {
                // Found in a directory, only regular files are read: a FIFO would block for a
                // writer that never comes, and a device (a link to /dev/zero) never ends.
                self.found += 1;
                let file = match File::open(&path) {
                    Ok(file) => file,
                    Err(source) => return Some(Err(InputError::Io { path: name, source })),
                };
                let stored = StoredBytes::new(self.hashing);
                if !meta.is_file() {
                    return Some(Ok(open_counted(name, file, stored)));
                }
                // A regular file is looked at now, so that one that is not PGN is one input error.
                return Some(match decompressed(stored.counting(file)) {
                    Ok((reader, format)) => {
                        let mut source = Source::new(name, reader, stored);
                        #[cfg(feature = "zstd")]
                        if format == Some(Compression::Zstd) {
                            source.zstd = File::open(&path).ok();
                        }
                        if format.is_none() {
                            let stored = source.stored.clone();
                            source.plain = File::open(&path).ok().map(|f| stored.counting(f));
                        }
                        Ok(source)
                    }
                    Err(source) => Err(match source.get_ref().and_then(|e| e.downcast_ref()) {
                        Some(NotPgn(what)) => InputError::NotPgn { path: name, what },
                        None => InputError::Io { path: name, source },
                    }),
                });
            }
        }
        None
    }
}

impl Sources {
    /// Queues the matches of `pattern`, a path that does not exist; `None` if it holds no
    /// pattern characters.
    fn expand(&mut self, pattern: &str) -> Option<Result<(), InputError>> {
        if !pattern.contains(['*', '?', '[']) {
            return None;
        }
        let no_match = || InputError::NoMatch {
            pattern: pattern.to_owned(),
        };
        let Ok(paths) = glob::glob(pattern) else {
            return Some(Err(no_match()));
        };
        let mut matches: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
        if matches.is_empty() {
            return Some(Err(no_match()));
        }
        matches.sort();
        self.pending
            .extend(matches.into_iter().rev().map(Pending::Given));
        Some(Ok(()))
    }

    /// Lists a directory and queues its entries in sorted order.
    fn enter(&mut self, dir: &Path) -> Result<(), InputError> {
        let io_err = |source| InputError::Io {
            path: dir.display().to_string(),
            source,
        };
        let canonical = fs::canonicalize(dir).map_err(io_err)?;
        if is_symlink(dir) {
            let parent = dir.parent().and_then(|p| fs::canonicalize(p).ok());
            if parent.is_some_and(|p| p.starts_with(&canonical)) {
                return Err(InputError::SymlinkLoop {
                    path: dir.display().to_string(),
                    target: canonical.display().to_string(),
                });
            }
        }
        if !self.visited.insert(canonical.clone()) {
            return Err(InputError::SymlinkLoop {
                path: dir.display().to_string(),
                target: canonical.display().to_string(),
            });
        }
        let mut entries = Vec::new();
        let mut failed = Vec::new();
        for entry in fs::read_dir(dir).map_err(io_err)? {
            match entry {
                Ok(entry) => entries.push(entry.path()),
                Err(e) => failed.push(Pending::Failed(io_err(e))),
            }
        }
        entries.sort();
        self.pending.extend(failed);
        self.pending
            .extend(entries.into_iter().rev().map(Pending::Found));
        Ok(())
    }
}

/// Whether `path` is a symbolic link.
fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Whether a file found in a directory is one to read: `*.pgn`, `*.pgn.gz`, `*.pgn.zst`,
/// `*.pgn.bz2`, `*.pgn.xz`.
pub(crate) fn is_pgn_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.to_string_lossy().to_ascii_lowercase();
    [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".pgn.xz"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Wraps a raw stream in the decompressor its first bytes call for. Nothing is read until the
/// first read, so opening standard input does not block.
pub fn open_stream<R: Read + Send + 'static>(name: String, raw: R) -> Source {
    open_counted(name, raw, StoredBytes::default())
}

/// [`open_stream`], its bytes counted (and perhaps hashed) in `stored`.
fn open_counted<R: Read + Send + 'static>(name: String, raw: R, stored: StoredBytes) -> Source {
    let raw = stored.counting(raw);
    Source::new(name, Box::new(Sniffing::Pending(Some(raw))), stored)
}

/// A stream whose compression is recognised on the first read.
enum Sniffing<R> {
    /// Not read yet.
    Pending(Option<R>),
    /// Recognised: the (decompressed) stream.
    Ready(Box<dyn Read + Send>),
}

impl<R: Read + Send + 'static> Read for Sniffing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Sniffing::Pending(raw) = self {
            let Some(raw) = raw.take() else {
                return Err(io::Error::other("stream failed while being opened"));
            };
            *self = Sniffing::Ready(decompressed(raw)?.0);
        }
        match self {
            Sniffing::Ready(reader) => reader.read(buf),
            Sniffing::Pending(_) => Ok(0),
        }
    }
}

/// How many first bytes are looked at to recognise a compression or a file that is not PGN (a tar
/// header's `ustar` stands at byte 257).
const HEAD: usize = 512;

/// Reads up to [`HEAD`] bytes of `raw`.
fn read_head(raw: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; HEAD];
    let mut got = 0;
    while got < head.len() {
        match raw.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(got);
    Ok(head)
}

/// What the first bytes of a (decompressed) stream say it is, when it is evidently not PGN.
fn not_pgn(head: &[u8]) -> Option<&'static str> {
    let what = match head {
        [0x7f, b'E', b'L', b'F', ..] => "an executable (ELF)",
        [0xfe, 0xed, 0xfa, 0xce | 0xcf, ..]
        | [0xce | 0xcf, 0xfa, 0xed, 0xfe, ..]
        | [0xca, 0xfe, 0xba, 0xbe, ..] => "an executable (Mach-O)",
        [b'M', b'Z', ..] if head.contains(&0) => "an executable (PE, Windows)",
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => "a zip archive (unzip it first)",
        [b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c, ..] => "a 7z archive (extract it first)",
        [b'R', b'a', b'r', b'!', 0x1a, 0x07, ..] => "a rar archive (extract it first)",
        [0x04, 0x22, 0x4d, 0x18, ..] => "lz4 data (not read; decompress it first)",
        [b'%', b'P', b'D', b'F', b'-', ..] => "a PDF document",
        [0x89, b'P', b'N', b'G', ..] | [0xff, 0xd8, 0xff, ..] | [b'G', b'I', b'F', b'8', ..] => {
            "an image"
        }
        [0xff, 0xfe, ..] | [0xfe, 0xff, ..] => "UTF-16 text (convert it to UTF-8 first)",
        [
            b'S',
            b'Q',
            b'L',
            b'i',
            b't',
            b'e',
            b' ',
            b'f',
            b'o',
            b'r',
            b'm',
            b'a',
            b't',
            b' ',
            b'3',
            0,
            ..,
        ] => "an SQLite database",
        _ if head.get(257..262) == Some(b"ustar") => "a tar archive (extract it first)",
        _ if head.contains(&0) && !starts_like_text(head) => {
            "binary data (NUL bytes in its first bytes)"
        }
        _ => return None,
    };
    Some(what)
}

/// Whether the first byte after a UTF-8 byte order mark and white space is one a PGN token may
/// start with, by the reader's own byte classes ([`pgn::is_space`], [`pgn::may_start_token`]).
/// Such a file is read even with NUL bytes early on (they are reported where they stand).
fn starts_like_text(head: &[u8]) -> bool {
    text_start(head)
        .first()
        .is_none_or(|&b| pgn::may_start_token(b))
}

/// `head` from its first byte that is neither white space ([`pgn::is_space`]) nor part of a
/// leading UTF-8 byte order mark.
fn text_start(head: &[u8]) -> &[u8] {
    let head = head.strip_prefix(pgn::BOM).unwrap_or(head);
    let space = head.iter().take_while(|&&b| pgn::is_space(b)).count();
    &head[space..]
}

/// At most this many first bytes of a text stream are read for a tag pair before it is judged
/// (see [`text_verdict`]).
const TEXT_HEAD: usize = 16 << 10;

/// A text stream is refused only with at least this many unreadable tokens in its first bytes: a
/// few stray words, as in a small broken file, are reported where they stand; a web page or an
/// e-mail has hundreds.
const MIN_UNREADABLE: u64 = 16;

/// What the PGN reader finds in the first bytes of a text stream: whether a tag pair, and how many
/// moves (what the reader takes for one: `e4`, but also `style1`) and unreadable tokens.
#[derive(Debug, Default)]
struct FirstBytes {
    tag: bool,
    moves: u64,
    unreadable: u64,
}

impl Visitor for FirstBytes {
    type Output = ();

    fn tag(&mut self, _name: &str, _value: &str, _location: Location) {
        self.tag = true;
    }

    fn san(&mut self, _san: &str, _location: Location) {
        self.moves += 1;
    }

    fn error(&mut self, error: PgnError) {
        if error.kind == PgnErrorKind::UnexpectedText {
            self.unreadable += 1;
        }
    }

    fn end_game(&mut self, _game: &GameInfo<'_>) {}
}

/// What the first bytes of a text stream tell.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Read it.
    Pgn,
    /// Refuse it: it is evidently not PGN, but this.
    NotPgn(&'static str),
    /// More bytes must be read to tell.
    Unsure,
}

/// What the first bytes of a text stream, `head` (all of it when `whole`), tell. It is evidently
/// not PGN (a web page, an e-mail) when its first [`TEXT_HEAD`] bytes hold no tag pair, at least
/// [`MIN_UNREADABLE`] unreadable tokens, and more of them than moves.
///
/// Read as PGN, such a file is thousands of "unexpected text" diagnostics, one per word; real
/// archives whose first game has no tags (a list of games as bare movetext), begins after a long
/// comment or `%` lines, or has a few stray words, are all read.
fn text_verdict(head: &[u8], whole: bool) -> Verdict {
    let mut first = FirstBytes::default();
    let mut reader = Reader::part("", head.to_vec(), 0, 1, PartEnd::Last(None));
    while !first.tag && matches!(reader.read_game(&mut first), Ok(Some(()))) {}
    if first.tag {
        return Verdict::Pgn;
    }
    if !whole && head.len() < TEXT_HEAD {
        return Verdict::Unsure;
    }
    if first.unreadable < MIN_UNREADABLE || first.unreadable <= first.moves {
        return Verdict::Pgn;
    }
    let text = text_start(head);
    Verdict::NotPgn(if text.starts_with(b"<") {
        "a web page or other markup (no tag pair in its first 16 KiB, and more unreadable words \
         than moves)"
    } else if is_mail_header(text) {
        "an e-mail message (no tag pair in its first 16 KiB, and more unreadable words than moves)"
    } else {
        "text with no tag pair in its first 16 KiB, and more unreadable words than moves"
    })
}

/// Whether `text` starts with a mail header line: `From ` (a mailbox), or a name of letters,
/// digits and `-` followed by `: ` (`MIME-Version: 1.0`, `Received: from ...`).
fn is_mail_header(text: &[u8]) -> bool {
    let name = text
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-'))
        .unwrap_or(text.len());
    text.starts_with(b"From ")
        || (name > 0 && text[0].is_ascii_alphabetic() && text[name..].starts_with(b": "))
}

/// `head` and what follows it in `rest`, as far as [`text_verdict`] must read to tell: the bytes
/// read, or the [`NotPgn`] error they call for. A stream with a tag pair early on (nearly every
/// one) is read no further than `head` here. A read error on the way (corrupt compressed data)
/// is handed back with the bytes read before it, so that it comes after them, in its turn.
fn read_text_head(
    mut head: Vec<u8>,
    rest: &mut impl Read,
) -> io::Result<(Vec<u8>, Option<io::Error>)> {
    let mut whole = head.len() < HEAD;
    loop {
        match text_verdict(&head, whole) {
            Verdict::Pgn => return Ok((head, None)),
            Verdict::NotPgn(what) => {
                return Err(io::Error::new(io::ErrorKind::InvalidData, NotPgn(what)));
            }
            Verdict::Unsure => {
                let want = (head.len() * 2).clamp(HEAD, TEXT_HEAD);
                let before = head.len();
                let read = rest
                    .by_ref()
                    .take((want - before) as u64)
                    .read_to_end(&mut head);
                if let Err(error) = read {
                    return Ok((head, Some(error)));
                }
                whole = head.len() < want;
            }
        }
    }
}

/// A stream whose next read fails with `error`, if any, then goes on with `rest`.
pub(crate) struct ErrorFirst<R> {
    pub(crate) error: Option<io::Error>,
    pub(crate) rest: R,
}

impl<R: Read> Read for ErrorFirst<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.error.take() {
            Some(error) => Err(error),
            None => self.rest.read(buf),
        }
    }
}

/// `head` then the rest of `rest`, or the [`NotPgn`] error the first bytes call for.
fn checked(head: Vec<u8>, mut rest: impl Read + Send + 'static) -> io::Result<impl Read + Send> {
    if let Some(what) = not_pgn(&head) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, NotPgn(what)));
    }
    let (head, error) = read_text_head(head, &mut rest)?;
    Ok(io::Cursor::new(head).chain(ErrorFirst { error, rest }))
}

/// The decompressed stream.
type Decompressed = Box<dyn Read + Send>;

/// Reads the first bytes of `raw` and wraps it in the decompressor they call for (returned with
/// it); refuses a stream whose first (decompressed) bytes are evidently not PGN.
fn decompressed<R: Read + Send + 'static>(
    mut raw: R,
) -> io::Result<(Decompressed, Option<Compression>)> {
    let head = read_head(&mut raw)?;
    let Some(format) = Compression::sniff(&head) else {
        return Ok((Box::new(checked(head, raw)?), None));
    };
    let mut decoder = Decoder::new(format, io::Cursor::new(head).chain(raw))?;
    let head = decoder.head(HEAD)?;
    Ok((Box::new(checked(head, decoder)?), Some(format)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_starts_are_judged_with_the_readers_byte_classes() {
        // A vertical tab or a form feed is white space to the reader: the tag after it makes the
        // file text, whatever NUL bytes come later.
        for head in [
            &b"\x0b[Event \"a\"]\n\0 *\n"[..],
            b"\x0c\x0b 1. e4 {\0} *\n",
        ] {
            assert!(starts_like_text(head), "{head:?}");
            assert_eq!(not_pgn(head), None, "{head:?}");
        }
        // Every byte a token may start with, after a byte order mark and white space.
        for first in b"[{;%()$*!?.-e1" {
            let head = [b"\xef\xbb\xbf \t\r\n".as_slice(), &[*first, 0, 0]].concat();
            assert!(starts_like_text(&head), "{}", *first as char);
        }
        for first in [b'}', b']', b'"', 0, 0xff] {
            let head = [first, 0, 0];
            assert!(!starts_like_text(&head), "{first}");
            assert_eq!(
                not_pgn(&head),
                Some("binary data (NUL bytes in its first bytes)")
            );
        }
        assert_eq!(text_start(b"\xef\xbb\xbf\x0b\x0c <html>"), b"<html>");
    }
}
