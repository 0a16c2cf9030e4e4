//! Where output goes: standard output, or `-o FILE`. Nothing the user has is lost or overwritten
//! by a run that fails:
//!
//! - A regular file (or a new one) the user may write is written to a fresh temporary file beside it (`temp.rs`: a
//!   name that cannot be guessed, created only if nothing has it, so that a planted symlink is
//!   never followed) and renamed over it only by [`Sink::finish`], which the caller calls only
//!   when the run succeeded; dropping the sink unfinished removes the temporary file and leaves
//!   the old file as it was. The replacement keeps the old file's permission bits.
//! - A symlink is written through: its target is replaced and the link stays, as `cp` and shells
//!   do. A dangling symlink is refused (as `cp` refuses it) rather than followed to create a file
//!   where it points.
//! - A device or a FIFO (`-o /dev/null`) is written directly, never replaced; a path that is this
//!   process's standard output (`-o /dev/stdout`) is standard output, so that a `>>` redirection
//!   is appended to rather than replaced.
//! - A name ending in `.gz`, `.zst`, `.xz` or `.bz2` is compressed that way ([`Compression`]).
//! - Errors name the path the user gave, never the temporary file, or "standard output"; their
//!   kind is kept, so that a closed pipe is still told apart.
//! - Several outputs of one run are committed together ([`finish_all`]): each is completed
//!   ([`Sink::complete`]: written and synced), and only when all are is any renamed into place.
//! - A directory of outputs (Parquet parts) is written into a staging directory and published
//!   whole ([`StagedDir`]).
//!
//! An output that is also an input, or another output, is the caller's to refuse before reading:
//! see [`clash`].

pub mod clash;
mod full;
mod inputs;
mod staged;
mod temp;

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use staged::StagedDir;
pub use temp::remove_all as remove_temporaries;

use inputs::FileId;
use temp::Temporary;

use crate::compression::{Compression, Encoder};

/// An output destination. Call [`Sink::finish`] to commit it; dropping it unfinished removes the
/// temporary file and leaves the target as it was.
pub struct Sink {
    writer: BufWriter<Encoder<Stream>>,
    /// The temporary file renamed over the target by [`Sink::finish`].
    temporary: Option<Temporary>,
    /// Whether [`Sink::complete`] writes the file to disk without a temporary file to rename (a
    /// file of a [`StagedDir`], published with it).
    sync: bool,
    /// The path as the user gave it; `None` for standard output.
    target: Option<PathBuf>,
}

/// The stream under the (optional) compression.
enum Stream {
    Stdout(io::Stdout),
    File(File),
    /// A file whose writes fail as on a full disk (a test hook: see `full.rs`).
    Full(File),
}

impl Stream {
    /// `file`, written at `path`: [`Stream::Full`] when the test hook names it (`full.rs`).
    fn file(file: File, path: &Path) -> Stream {
        if full::is_full(path) {
            Stream::Full(file)
        } else {
            Stream::File(file)
        }
    }
}

impl Write for Stream {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Stdout(out) => out.write(bytes),
            Stream::File(out) => out.write(bytes),
            Stream::Full(_) => Err(full::error()),
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Stream::Stdout(out) => out.write_all(bytes),
            Stream::File(out) => out.write_all(bytes),
            Stream::Full(_) => Err(full::error()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Stdout(out) => out.flush(),
            Stream::File(out) => out.flush(),
            Stream::Full(_) => Err(full::error()),
        }
    }
}

/// The buffer in front of the stream.
const BUFFER: usize = 1 << 16;

impl Sink {
    /// Standard output.
    pub fn stdout() -> Sink {
        Sink {
            writer: BufWriter::with_capacity(BUFFER, Encoder::Plain(Stream::Stdout(io::stdout()))),
            temporary: None,
            sync: false,
            target: None,
        }
    }

    /// `path`: through a temporary file if it is (or will be) a regular file, compressed as its
    /// name says; see the module documentation.
    pub fn file(path: &Path) -> io::Result<Sink> {
        let old = match fs::metadata(path) {
            Ok(meta) => Some(meta),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                if let Ok(to) = fs::read_link(path) {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!(
                            "cannot write {}: it is a symbolic link to {}, which does not exist; \
                             not followed",
                            path.display(),
                            to.display()
                        ),
                    ));
                }
                None
            }
            Err(err) => return Err(saying(err, "cannot open", path, " for writing")),
        };
        let compression = Compression::of(path);
        let sink = |stream, temporary| -> io::Result<Sink> {
            let encoder = Encoder::new(stream, compression)
                .map_err(|e| saying(e, "cannot write", path, ""))?;
            Ok(Sink {
                writer: BufWriter::with_capacity(BUFFER, encoder),
                temporary,
                sync: false,
                target: Some(path.to_path_buf()),
            })
        };
        if let Some(meta) = &old {
            let id = FileId::of(meta);
            if inputs::standard_output().is_some_and(|out| FileId::of(&out) == id) {
                return sink(Stream::Stdout(io::stdout()), None);
            }
            // Opened for writing, not truncated: a device or a FIFO is written to, and a file
            // the user may not write (read-only) is not replaced, as a shell would not write it.
            let file = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| saying(e, "cannot open", path, " for writing"))?;
            if !meta.is_file() {
                return sink(Stream::File(file), None);
            }
        }
        let target = match fs::symlink_metadata(path) {
            Ok(link) if link.is_symlink() => {
                fs::canonicalize(path).map_err(|e| saying(e, "cannot open", path, ""))?
            }
            _ => path.to_path_buf(),
        };
        let (file, temporary) = Temporary::create(&target, old.as_ref()).map_err(|e| {
            let dir = temp::directory(&target).display();
            saying(
                e,
                "cannot create",
                path,
                &format!(": cannot make a temporary file in {dir}"),
            )
        })?;
        sink(Stream::file(file, path), Some(temporary))
    }

    /// The file `name` of `staged`, created only if nothing has that name, written in place (not
    /// compressed) and written to disk by [`Sink::complete`]; it is published with the directory.
    pub fn staged(staged: &StagedDir, name: &str) -> io::Result<Sink> {
        let path = staged.path(name);
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| saying(e, "cannot create", &path, ""))?;
        Ok(Sink {
            writer: BufWriter::with_capacity(BUFFER, Encoder::Plain(Stream::file(file, &path))),
            temporary: None,
            sync: true,
            target: Some(staged.given().join(name)),
        })
    }

    /// Whether [`Sink::finish`] renames a temporary file over the target (so that a sink dropped
    /// unfinished leaves the target as it was).
    pub fn replaces_on_finish(&self) -> bool {
        self.temporary.is_some()
    }

    /// Flushes, ends the compressed stream, and renames the temporary file into place.
    pub fn finish(self) -> io::Result<()> {
        self.complete()?.commit()
    }

    /// Flushes, ends the compressed stream, and writes the temporary file to disk: everything but
    /// the rename ([`Completed::commit`]), so that several outputs can be committed together
    /// ([`finish_all`]).
    pub fn complete(self) -> io::Result<Completed> {
        let Sink {
            writer,
            temporary,
            sync,
            target,
        } = self;
        let named = |err| named(target.as_deref(), err);
        let encoder = writer.into_inner().map_err(|e| named(e.into_error()))?;
        let mut stream = encoder.finish().map_err(named)?;
        stream.flush().map_err(named)?;
        if let Stream::File(file) | Stream::Full(file) = stream {
            match &temporary {
                Some(temporary) => temporary.sync(file).map_err(named)?,
                None if sync => file.sync_all().map_err(named)?,
                None => {}
            }
        }
        Ok(Completed { temporary, target })
    }
}

/// An output whose bytes are all written and on disk, not yet renamed into place: dropped
/// uncommitted, its temporary file is removed and the target left as it was.
pub struct Completed {
    temporary: Option<Temporary>,
    target: Option<PathBuf>,
}

impl Completed {
    /// Renames the temporary file (if any) over the target.
    pub fn commit(self) -> io::Result<()> {
        match self.temporary {
            Some(temporary) => temporary
                .rename()
                .map_err(|err| named(self.target.as_deref(), err)),
            None => Ok(()),
        }
    }
}

/// Commits every output of a run, all or none: each is completed first (its bytes written and on
/// disk), and only when every one is are they renamed into place, in order, `committed` told the
/// target of each. An error before the renames (a full disk at the last write of the last output)
/// replaces none of the targets.
pub fn finish_all(sinks: Vec<Sink>, mut committed: impl FnMut(&Path)) -> io::Result<()> {
    let completed = sinks
        .into_iter()
        .map(Sink::complete)
        .collect::<io::Result<Vec<_>>>()?;
    for done in completed {
        let target = done
            .temporary
            .is_some()
            .then(|| done.target.clone())
            .flatten();
        done.commit()?;
        if let Some(target) = target {
            committed(&target);
        }
    }
    Ok(())
}

/// `err`, its message prefixed with the path the user gave, or "standard output".
fn named(target: Option<&Path>, err: io::Error) -> io::Error {
    match target {
        Some(path) => saying(err, "cannot write", path, ""),
        None => io::Error::new(err.kind(), format!("cannot write standard output: {err}")),
    }
}

/// `err` as `WHAT PATH[AFTER]: err`, its kind kept (so that a closed pipe is still told apart).
fn saying(err: io::Error, what: &str, path: &Path, after: &str) -> io::Error {
    io::Error::new(
        err.kind(),
        format!("{what} {}{after}: {err}", path.display()),
    )
}

/// Writes go through the buffer; `finish` commits them. Errors name the path the user gave.
impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.writer
            .write(bytes)
            .map_err(|e| named(self.target.as_deref(), e))
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.writer
            .write_all(bytes)
            .map_err(|e| named(self.target.as_deref(), e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer
            .flush()
            .map_err(|e| named(self.target.as_deref(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("arbiter-sink-")
            .tempdir()
            .unwrap()
    }

    #[test]
    fn file_appears_only_when_finished() {
        let dir = scratch();
        let target = dir.path().join("out.csv");
        let mut sink = Sink::file(&target).unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.flush().unwrap();
        assert!(!target.exists());
        assert!(sink.replaces_on_finish());
        sink.finish().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "a,b\n");

        let mut abandoned = Sink::file(&target).unwrap();
        abandoned.write_all(b"half").unwrap();
        drop(abandoned);
        assert_eq!(fs::read_to_string(&target).unwrap(), "a,b\n");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temporary file left behind"
        );
    }

    #[test]
    fn devices_are_written_in_place() {
        let mut sink = Sink::file(Path::new("/dev/null")).unwrap();
        assert!(!sink.replaces_on_finish());
        sink.write_all(b"x").unwrap();
        sink.finish().unwrap();
        assert!(Path::new("/dev/null").exists());
    }

    #[test]
    fn a_symlink_is_written_through_and_a_dangling_one_refused() {
        let dir = scratch();
        let real = dir.path().join("real.csv");
        let link = dir.path().join("link.csv");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        let mut sink = Sink::file(&link).unwrap();
        sink.write_all(b"new").unwrap();
        sink.finish().unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");

        let dangling = dir.path().join("dangling.csv");
        std::os::unix::fs::symlink("nowhere/x.csv", &dangling).unwrap();
        let err = Sink::file(&dangling).err().unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot write {}: it is a symbolic link to nowhere/x.csv, which does not exist; \
                 not followed",
                dangling.display()
            )
        );
    }

    /// An output whose compression was left out of the build is refused before anything is
    /// written, naming the feature (run with `--no-default-features`).
    #[test]
    fn a_compression_left_out_is_refused_naming_its_feature() {
        let dir = scratch();
        for compression in [
            Compression::Gzip,
            Compression::Zstd,
            Compression::Xz,
            Compression::Bzip2,
        ] {
            let target = dir.path().join(format!("out.csv{}", compression.suffix()));
            let feature = compression.name();
            let built = match compression {
                Compression::Gzip => cfg!(feature = "gzip"),
                Compression::Zstd => cfg!(feature = "zstd"),
                Compression::Xz => cfg!(feature = "xz"),
                Compression::Bzip2 => cfg!(feature = "bzip2"),
            };
            match Sink::file(&target) {
                Ok(sink) => {
                    assert!(built, "{feature}");
                    drop(sink);
                }
                Err(err) => {
                    assert!(!built, "{feature}: {err}");
                    assert_eq!(
                        err.to_string(),
                        format!(
                            "cannot write {}: this build of arbiter cannot write {feature} (the \
                             `{feature}` feature of the arbiter crate was left out); leave out the \
                             {} suffix",
                            target.display(),
                            compression.suffix()
                        )
                    );
                    assert!(!target.exists());
                }
            }
        }
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn compressed_by_name() {
        let dir = scratch();
        let target = dir.path().join("out.csv.gz");
        let mut sink = Sink::file(&target).unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.finish().unwrap();
        let mut text = String::new();
        io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(File::open(&target).unwrap()),
            &mut text,
        )
        .unwrap();
        assert_eq!(text, "a,b\n");
    }

    #[test]
    fn write_errors_name_the_output() {
        if !Path::new("/dev/full").exists() {
            return;
        }
        let mut sink = Sink::file(Path::new("/dev/full")).unwrap();
        let err = sink.write_all(&[b'x'; 3 * BUFFER]).unwrap_err();
        assert!(
            err.to_string().starts_with("cannot write /dev/full: "),
            "{err}"
        );
        assert_eq!(
            named(None, io::Error::from(io::ErrorKind::BrokenPipe)).kind(),
            io::ErrorKind::BrokenPipe
        );
    }
}
