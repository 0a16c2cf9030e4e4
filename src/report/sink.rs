//! Where output goes: stdout, or `-o FILE` written to a temporary file beside it and renamed into
//! place when the run completes, so an interrupted run never leaves a half-written file. A device
//! or a pipe (`-o /dev/null`, a FIFO) is written directly and never replaced. Errors name the path
//! the user gave, never the temporary file.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// An output destination. Call [`Sink::finish`] to commit it; dropping it unfinished removes the
/// temporary file.
pub struct Sink {
    writer: BufWriter<Box<dyn Write + Send>>,
    commit: Option<(PathBuf, PathBuf)>,
    /// The path as the user gave it; `None` for stdout.
    target: Option<PathBuf>,
}

impl Sink {
    /// Standard output.
    pub fn stdout() -> Sink {
        Sink {
            writer: BufWriter::with_capacity(1 << 16, Box::new(io::stdout())),
            commit: None,
            target: None,
        }
    }

    /// `path`, through a temporary file beside it if it is (or will be) a regular file.
    pub fn file(path: &Path) -> io::Result<Sink> {
        let is_special = fs::metadata(path).is_ok_and(|meta| !meta.is_file());
        if is_special {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| saying(e, "cannot open", path, " for writing"))?;
            return Ok(Sink {
                writer: BufWriter::with_capacity(1 << 16, Box::new(file)),
                commit: None,
                target: Some(path.to_path_buf()),
            });
        }
        let temp = temp_path(path);
        let file = File::create(&temp).map_err(|e| saying(e, "cannot create", path, ""))?;
        Ok(Sink {
            writer: BufWriter::with_capacity(1 << 16, Box::new(file)),
            commit: Some((temp, path.to_path_buf())),
            target: Some(path.to_path_buf()),
        })
    }

    /// Flushes, and renames the temporary file into place.
    pub fn finish(mut self) -> io::Result<()> {
        self.writer.flush().map_err(|e| self.named(e))?;
        if let Some((temp, target)) = self.commit.take() {
            fs::rename(&temp, &target).map_err(|e| saying(e, "cannot create", &target, ""))?;
        }
        Ok(())
    }

    /// `err`, its message prefixed with the path the user gave (its kind kept, so that a closed
    /// pipe is still told apart).
    fn named(&self, err: io::Error) -> io::Error {
        match &self.target {
            Some(path) => saying(err, "cannot write", path, ""),
            None => err,
        }
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
        self.writer.write(bytes).map_err(|e| self.named(e))
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.writer.write_all(bytes).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush().map_err(|e| self.named(e))
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Some((temp, _)) = self.commit.take() {
            let _ = fs::remove_file(temp);
        }
    }
}

/// `dir/.name.arbiter-PID.tmp`: hidden, beside the target so the rename stays on one file system.
fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_owned());
    path.with_file_name(format!(".{name}.arbiter-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_appears_only_when_finished() {
        let dir = std::env::temp_dir().join(format!("arbiter-sink-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.csv");
        let mut sink = Sink::file(&target).unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.writer.flush().unwrap();
        assert!(!target.exists());
        sink.finish().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "a,b\n");

        let mut abandoned = Sink::file(&target).unwrap();
        abandoned.write_all(b"half").unwrap();
        drop(abandoned);
        assert_eq!(fs::read_to_string(&target).unwrap(), "a,b\n");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "temporary file left behind"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn devices_are_written_in_place() {
        let mut sink = Sink::file(Path::new("/dev/null")).unwrap();
        sink.write_all(b"x").unwrap();
        sink.finish().unwrap();
        assert!(Path::new("/dev/null").exists());
    }
}
