//! A directory of outputs published whole (`export -o DIR --rows-per-file N`): its files are
//! written into a hidden staging directory beside DIR, `.DIR.arbiter-RANDOM.tmp`, made with a
//! name that cannot be guessed and only if nothing has it, and published by one rename of that
//! directory to DIR ([`StagedDir::publish`]: the commit point). Before it DIR does not exist (or
//! is the empty directory it was); after it DIR holds every file. A run that fails or is stopped
//! (a signal: the staging directory is in the registry [`super::remove_temporaries`] empties)
//! leaves no file and no directory of its own.
//!
//! DIR must not exist, or be an empty directory (the rename replaces it with one of the same
//! permission bits; a symlink to one is followed; the current directory is refused, since a
//! shell in it would be left in a removed directory): nothing the user has is overwritten. Its
//! parent must exist. Two runs into one DIR cannot both publish:
//! the second rename finds DIR not empty and fails, and that run ends with status 2.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::inputs::FileId;
use super::temp::{self, registry};

/// A staging directory for `target`, removed (with everything in it) when dropped unpublished.
#[derive(Debug)]
pub struct StagedDir {
    /// The hidden directory the files are written into.
    staging: PathBuf,
    /// The directory it becomes (symlinks resolved).
    resolved: PathBuf,
    /// The path as the user gave it.
    given: PathBuf,
}

impl StagedDir {
    /// Makes the staging directory of `target`, which must not exist or be an empty directory
    /// (its parent must exist).
    pub fn create(target: &Path) -> io::Result<StagedDir> {
        let given = target.to_path_buf();
        let shown = target.display();
        // An empty directory given is replaced by one with its permission bits.
        let mut permissions = None;
        let resolved = match fs::read_dir(target) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "-o {shown}: the directory is not empty; --rows-per-file writes its \
                             parts into a new or empty directory, never over files that are there"
                        ),
                    ));
                }
                let here = fs::metadata(".").ok().map(|meta| FileId::of(&meta));
                let old = fs::metadata(target)?;
                if here == Some(FileId::of(&old)) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "-o {shown}: the current directory; the parts are published by \
                             replacing the directory, so give a new one (or another empty one)"
                        ),
                    ));
                }
                permissions = Some(old.permissions());
                fs::canonicalize(target)?
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                if fs::symlink_metadata(target).is_ok() {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        format!("-o {shown}: a symbolic link to nothing; not followed"),
                    ));
                }
                target.to_path_buf()
            }
            Err(err) => {
                return Err(io::Error::new(
                    err.kind(),
                    format!("-o {shown}: not a directory ({err})"),
                ));
            }
        };
        let parent = temp::directory(&resolved);
        let name = resolved
            .file_name()
            .map_or_else(|| "parts".into(), |n| n.to_string_lossy());
        let mut registry = registry();
        registry.open()?;
        let ((), staging) =
            temp::fresh(parent, &name, |path| fs::create_dir(path)).map_err(|err| {
                io::Error::new(
                    err.kind(),
                    format!(
                        "-o {shown}: cannot make a staging directory in {}: {err}",
                        parent.display()
                    ),
                )
            })?;
        registry.enter(staging.clone());
        drop(registry);
        let staged = StagedDir {
            staging,
            resolved,
            given,
        };
        if let Some(permissions) = permissions {
            fs::set_permissions(&staged.staging, permissions)?;
        }
        Ok(staged)
    }

    /// The path of the file `name` in the staging directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.staging.join(name)
    }

    /// The directory as the user gave it.
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// Publishes the files written: writes the staging directory to disk, renames it to the
    /// target (replacing it when it is an empty directory; failing when another run filled it
    /// meanwhile), and writes the parent directory to disk.
    pub fn publish(self) -> io::Result<()> {
        let shown = self.given.display().to_string();
        let failed = |err: io::Error, what: &str| {
            io::Error::new(err.kind(), format!("cannot {what} {shown}: {err}"))
        };
        File::open(&self.staging)
            .and_then(|dir| dir.sync_all())
            .map_err(|err| failed(err, "write"))?;
        let mut registry = registry();
        if !registry.leave(&self.staging)? {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted: the staging directory was removed",
            ));
        }
        if let Err(err) = fs::rename(&self.staging, &self.resolved) {
            registry.enter(self.staging.clone());
            drop(registry);
            let err = match err.raw_os_error() {
                Some(errno) if is_not_empty(errno) => io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "the directory is no longer empty (another run wrote into it meanwhile); \
                     nothing of it was changed",
                ),
                _ => err,
            };
            return Err(failed(err, "publish"));
        }
        drop(registry);
        let parent = temp::directory(&self.resolved);
        // The rename is done; a parent that cannot be synced loses nothing that is there now.
        let _ = File::open(parent).and_then(|dir| dir.sync_all());
        Ok(())
    }
}

/// Whether an `errno` is `ENOTEMPTY` or `EEXIST`, what `rename(2)` says of a target directory
/// that is not empty (39 and 17 on Linux; 66 and 17 on the BSDs and macOS).
fn is_not_empty(errno: i32) -> bool {
    matches!(errno, 17 | 39 | 66)
}

impl Drop for StagedDir {
    fn drop(&mut self) {
        if registry().take(&self.staging) {
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn files_appear_only_with_the_directory_and_go_with_it_unpublished() {
        let scratch = tempfile::tempdir().unwrap();
        let target = scratch.path().join("parts");
        let staged = StagedDir::create(&target).unwrap();
        fs::write(staged.path("a"), "a").unwrap();
        assert!(!target.exists());
        let hidden = names(scratch.path());
        assert_eq!(hidden.len(), 1);
        assert!(hidden[0].starts_with(".parts.arbiter-") && hidden[0].ends_with(".tmp"));
        drop(staged);
        assert!(names(scratch.path()).is_empty());

        let staged = StagedDir::create(&target).unwrap();
        fs::write(staged.path("a"), "a").unwrap();
        staged.publish().unwrap();
        assert_eq!(names(scratch.path()), ["parts"]);
        assert_eq!(names(&target), ["a"]);
    }

    /// An empty directory is replaced; one that another run filled meanwhile is not, and the run
    /// that finds it filled fails. See: issue 38, point 8.
    #[test]
    fn two_runs_into_one_directory_cannot_both_publish() {
        let scratch = tempfile::tempdir().unwrap();
        let target = scratch.path().join("parts");
        fs::create_dir(&target).unwrap();
        let first = StagedDir::create(&target).unwrap();
        let second = StagedDir::create(&target).unwrap();
        fs::write(first.path("one"), "1").unwrap();
        fs::write(second.path("two"), "2").unwrap();
        first.publish().unwrap();
        let err = second.publish().unwrap_err();
        assert!(err.to_string().contains("no longer empty"), "{err}");
        assert_eq!(names(&target), ["one"]);
        assert_eq!(names(scratch.path()), ["parts"]);
        fs::write(target.join("mine"), "").unwrap();
        let err = StagedDir::create(&target).unwrap_err();
        assert!(err.to_string().contains("not empty"), "{err}");
    }

    /// An empty directory given is replaced by one with its permission bits.
    #[test]
    fn an_empty_directory_replaced_keeps_its_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let scratch = tempfile::tempdir().unwrap();
        let target = scratch.path().join("parts");
        fs::create_dir(&target).unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o750)).unwrap();
        let staged = StagedDir::create(&target).unwrap();
        fs::write(staged.path("a"), "a").unwrap();
        staged.publish().unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o750);
        assert_eq!(names(&target), ["a"]);
    }
}
