//! Where games come from: files, directories (searched recursively) and standard input, with
//! gzip, zstd and bzip2 decompressed in process.
//!
//! - A path that names a file is read whatever its name (a FIFO or a device too); a directory
//!   contributes every regular file named `*.pgn`, `*.pgn.gz`, `*.pgn.zst` and `*.pgn.bz2` below
//!   it (names compared without regard to case), in sorted order so that runs are repeatable.
//! - `-`, or no path at all, means standard input.
//! - The compression is recognised by its magic bytes, not by the name: gzip (several members),
//!   zstd (several frames, skippable frames) and bzip2 (several streams) are decoded as one stream.
//! - Nothing here is fatal: an unreadable file or directory, or a symlink loop, is an
//!   [`InputError`] in the sequence, and the sources after it follow. A corrupt or truncated
//!   compressed file shows up as a read error (naming the compressed and decompressed offsets) when
//!   its bytes are read, after the games before the damage.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One input stream: its name and its decompressed bytes.
pub struct Source {
    /// The path as given (for a file found in a directory, the directory as given joined with the
    /// rest), or `<stdin>`.
    pub name: String,
    /// The decompressed bytes.
    pub reader: Box<dyn Read + Send>,
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
}

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
}

/// The iterator returned by [`sources`].
#[derive(Debug)]
pub struct Sources {
    /// A stack: the next item is last.
    pending: Vec<Pending>,
    /// Canonical paths of the directories entered, so none is read twice.
    visited: HashSet<PathBuf>,
}

impl Iterator for Sources {
    type Item = Result<Source, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(item) = self.pending.pop() {
            let (path, given) = match item {
                Pending::Given(path) => (path, true),
                Pending::Found(path) => (path, false),
                Pending::Failed(error) => return Some(Err(error)),
            };
            if given && path.as_os_str() == "-" {
                return Some(Ok(open_stream("<stdin>".into(), io::stdin())));
            }
            let name = path.display().to_string();
            let meta = match fs::metadata(&path) {
                Ok(meta) => meta,
                Err(source) => return Some(Err(InputError::Io { path: name, source })),
            };
            if meta.is_dir() {
                if let Err(e) = self.enter(&path) {
                    return Some(Err(e));
                }
            } else if given || (meta.is_file() && is_pgn_name(&path)) {
                // Found in a directory, only regular files are read: a FIFO would block for a
                // writer that never comes, and a device (a link to /dev/zero) never ends.
                return Some(match File::open(&path) {
                    Ok(file) => Ok(open_stream(name, file)),
                    Err(source) => Err(InputError::Io { path: name, source }),
                });
            }
        }
        None
    }
}

impl Sources {
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

/// Whether a file found in a directory is one to read: `*.pgn`, `*.pgn.gz`, `*.pgn.zst`, `*.pgn.bz2`.
fn is_pgn_name(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let name = name.to_string_lossy().to_ascii_lowercase();
    [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The compressions recognised by their magic bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Compression {
    Gzip,
    Zstd,
    Bzip2,
}

impl Compression {
    /// Recognises a compression from the first bytes of a stream.
    fn sniff(head: &[u8]) -> Option<Compression> {
        match head {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            // A zstd skippable frame: magic 0x184D2A50..=0x184D2A5F, little-endian.
            [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Some(Compression::Zstd),
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Some(Compression::Bzip2),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// Wraps a raw stream in the decompressor its first bytes call for. Nothing is read until the
/// first read, so opening standard input does not block.
pub fn open_stream<R: Read + Send + 'static>(name: String, raw: R) -> Source {
    Source {
        name,
        reader: Box::new(Sniffing::Pending(Some(raw))),
    }
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
            *self = Sniffing::Ready(decompressed(raw)?);
        }
        match self {
            Sniffing::Ready(reader) => reader.read(buf),
            Sniffing::Pending(_) => Ok(0),
        }
    }
}

/// Reads the first bytes of `raw` and wraps it in the decompressor they call for.
fn decompressed<R: Read + Send + 'static>(mut raw: R) -> io::Result<Box<dyn Read + Send>> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < head.len() {
        match raw.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let compressed_read = Arc::new(AtomicU64::new(0));
    let counted = Counting {
        inner: io::Cursor::new(head).take(got as u64).chain(raw),
        count: Arc::clone(&compressed_read),
    };
    Ok(match Compression::sniff(&head[..got]) {
        None => Box::new(counted),
        Some(format) => {
            let decoder: Box<dyn Read + Send> = match format {
                Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(counted)),
                Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(counted)?),
                Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(counted)),
            };
            Box::new(Decompressed {
                inner: decoder,
                format,
                compressed_read,
                decompressed: 0,
            })
        }
    })
}

/// Counts the bytes read through it.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A decompressor whose errors say where in both streams they happened.
struct Decompressed {
    inner: Box<dyn Read + Send>,
    format: Compression,
    compressed_read: Arc<AtomicU64>,
    decompressed: u64,
}

impl Read for Decompressed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.decompressed += n as u64;
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => Err(io::Error::new(
                e.kind(),
                format!(
                    "corrupt or truncated {} data near compressed byte {} (decompressed byte {}): {e}",
                    self.format.name(),
                    self.compressed_read.load(Ordering::Relaxed),
                    self.decompressed
                ),
            )),
        }
    }
}
