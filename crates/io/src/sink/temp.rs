//! The temporary file an output is written to before it is renamed over its target.
//!
//! Its name, `.NAME.arbiter-RANDOM.tmp` beside the target (hidden, on the target's file system
//! so that the rename is atomic), cannot be guessed, and it is created only if nothing has that
//! name (`O_EXCL`): a symlink planted in the directory is never followed, whoever runs arbiter.
//! It starts with the mode a new file gets (0666 less the umask), or, when it replaces a file,
//! that file's permission bits (and its owner and group, where the system lets us).
//!
//! Every live temporary file, and every staging directory (`staged.rs`), is listed in one
//! registry, so that [`remove_all`], called when a signal ends the process, can remove them;
//! after it, none is committed or created.

use std::fs::{self, File, Metadata, OpenOptions, Permissions};
use std::hash::{BuildHasher, RandomState};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The temporary files and staging directories not yet committed or removed, and whether
/// [`remove_all`] has run.
pub(super) struct Registry {
    live: Vec<PathBuf>,
    closed: bool,
}

impl Registry {
    /// `Err` once [`remove_all`] has run: nothing may be created after.
    pub(super) fn open(&self) -> io::Result<()> {
        if self.closed {
            return Err(interrupted());
        }
        Ok(())
    }

    /// Lists `path` (a temporary file or a staging directory, just created while the registry
    /// was [open](Registry::open)).
    pub(super) fn enter(&mut self, path: PathBuf) {
        self.live.push(path);
    }

    /// Whether `path` is listed; it no longer is after this. `Err` once [`remove_all`] has run.
    pub(super) fn leave(&mut self, path: &Path) -> io::Result<bool> {
        if self.closed {
            return Err(interrupted());
        }
        Ok(self.take(path))
    }

    /// Whether `path` is listed; it no longer is after this.
    pub(super) fn take(&mut self, path: &Path) -> bool {
        match self.live.iter().position(|p| p == path) {
            Some(at) => {
                self.live.swap_remove(at);
                true
            }
            None => false,
        }
    }
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: Vec::new(),
    closed: false,
});

/// The registry, even if a thread panicked while holding it (its list is still right).
pub(super) fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The error of a sink used after [`remove_all`].
fn interrupted() -> io::Error {
    io::Error::new(
        io::ErrorKind::Interrupted,
        "interrupted: the temporary file was removed",
    )
}

/// A temporary file beside its target, removed when dropped uncommitted.
#[derive(Debug)]
pub(super) struct Temporary {
    path: PathBuf,
    /// The file it replaces (a symlink's target, resolved).
    target: PathBuf,
}

impl Temporary {
    /// Creates the temporary file for `target` (a regular file's path, its symlinks resolved);
    /// `old` is the file it will replace, if there is one.
    pub(super) fn create(target: &Path, old: Option<&Metadata>) -> io::Result<(File, Temporary)> {
        let dir = directory(target);
        let name = target
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy());
        let mut registry = registry();
        registry.open()?;
        let (file, path) = create_new(dir, &name)?;
        registry.enter(path.clone());
        drop(registry);
        let temporary = Temporary {
            path,
            target: target.to_path_buf(),
        };
        if let Some(old) = old {
            // The owner first: changing it may clear the set-user-ID bits set after.
            let new = file.metadata()?;
            if (new.uid(), new.gid()) != (old.uid(), old.gid()) {
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            file.set_permissions(Permissions::from_mode(old.mode() & 0o7777))?;
        }
        Ok((file, temporary))
    }

    /// Writes `file` (this temporary file) to disk and closes it: what is left is the rename
    /// ([`Temporary::rename`]).
    pub(super) fn sync(&self, file: File) -> io::Result<()> {
        file.sync_all()
    }

    /// Renames this temporary file (written and synced) over the target.
    pub(super) fn rename(self) -> io::Result<()> {
        let mut registry = registry();
        if !registry.leave(&self.path)? {
            return Err(interrupted());
        }
        let renamed = fs::rename(&self.path, &self.target);
        if renamed.is_err() {
            // Still ours: dropping it removes it.
            registry.enter(self.path.clone());
        }
        drop(registry);
        renamed
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if registry().take(&self.path) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The directory of `target`, where its temporary file goes.
pub(super) fn directory(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// How many names are tried before giving up: another is drawn only when one exists already.
const ATTEMPTS: usize = 100;

/// Creates `dir/.NAME.arbiter-RANDOM.tmp`, a name nothing has (`O_CREAT | O_EXCL`: an existing
/// name, a symlink too, is an error, and another is drawn), with the mode a new file gets.
fn create_new(dir: &Path, name: &str) -> io::Result<(File, PathBuf)> {
    fresh(dir, name, |path| {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(path)
    })
}

/// `make(dir/.NAME.arbiter-RANDOM.tmp)` for a name nothing has: another is drawn while `make`
/// finds the name taken.
pub(super) fn fresh<T>(
    dir: &Path,
    name: &str,
    make: impl Fn(&Path) -> io::Result<T>,
) -> io::Result<(T, PathBuf)> {
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let path = dir.join(format!(".{name}.arbiter-{}.tmp", random_word()));
        match make(&path) {
            Ok(made) => return Ok((made, path)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = Some(err),
            Err(err) => return Err(err),
        }
    }
    Err(last.unwrap_or_else(|| io::ErrorKind::AlreadyExists.into()))
}

/// Twelve letters and digits no one can guess: SipHash under the secret keys the standard
/// library draws from the system's random source (each [`RandomState`] gets fresh keys).
fn random_word() -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut bits = u128::from(RandomState::new().hash_one(0u8)) << 64
        | u128::from(RandomState::new().hash_one(1u8));
    (0..12)
        .map(|_| {
            let c = ALPHABET[(bits % ALPHABET.len() as u128) as usize];
            bits /= ALPHABET.len() as u128;
            char::from(c)
        })
        .collect()
}

/// Removes every temporary file and staging directory not yet committed, and keeps any from
/// being committed or created after: for a signal that ends the process (see the command line's
/// signal handling).
pub fn remove_all() {
    let mut registry = registry();
    registry.closed = true;
    for path in registry.live.drain(..) {
        if fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_dir()) {
            let _ = fs::remove_dir_all(path);
        } else {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("arbiter-temp-")
            .tempdir()
            .unwrap()
    }

    #[test]
    fn names_are_hidden_fresh_and_removed_when_dropped() {
        let dir = scratch();
        let target = dir.path().join("out.csv");
        let (_, a) = Temporary::create(&target, None).unwrap();
        let (_, b) = Temporary::create(&target, None).unwrap();
        assert_ne!(a.path, b.path);
        for t in [&a, &b] {
            let name = t.path.file_name().unwrap().to_str().unwrap();
            assert!(name.starts_with(".out.csv.arbiter-") && name.ends_with(".tmp"));
            assert_eq!(name.len(), ".out.csv.arbiter-".len() + 12 + ".tmp".len());
            assert!(t.path.exists());
        }
        drop((a, b));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_replacement_keeps_the_old_permission_bits() {
        let dir = scratch();
        let target = dir.path().join("out.csv");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        let old = fs::metadata(&target).unwrap();
        let (file, temporary) = Temporary::create(&target, Some(&old)).unwrap();
        assert_eq!(file.metadata().unwrap().mode() & 0o7777, 0o640);
        temporary.sync(file).unwrap();
        temporary.rename().unwrap();
        assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, 0o640);
        assert_eq!(fs::read_to_string(&target).unwrap(), "");
    }
}
