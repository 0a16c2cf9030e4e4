//! Whether an output is one of the inputs: `arbiter export games.pgn -o games.pgn` would read the
//! archive while replacing it. Files are told apart by identity (device and inode), so a relative
//! or absolute path, a symlink or a hard link to an input, standard input redirected from it, a
//! pattern that matches it or a directory that holds it are all caught. The inputs are looked up
//! the way [`crate::input::sources`] finds them, without opening or reading any.

use std::collections::HashSet;
use std::fs::{self, File, Metadata};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::input;

/// A file's identity: its device and inode numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The identity of the file `meta` describes.
    pub(crate) fn of(meta: &Metadata) -> FileId {
        FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        }
    }
}

/// What standard output is (`None` if it cannot be looked at).
pub(crate) fn standard_output() -> Option<Metadata> {
    metadata_of(io::stdout().as_fd())
}

/// What standard input is.
fn standard_input() -> Option<Metadata> {
    metadata_of(io::stdin().as_fd())
}

fn metadata_of(fd: BorrowedFd<'_>) -> Option<Metadata> {
    File::from(fd.try_clone_to_owned().ok()?).metadata().ok()
}

/// The first input that is the file `output`, named as the run would name it (the path as given
/// or found, `<stdin>` for standard input); `None` if no input is. `inputs` are taken as
/// [`crate::input::sources`] takes them: no path or `-` is standard input, a directory
/// contributes its PGN files at any depth, a path that does not exist and holds `*`, `?` or `[`
/// is a pattern. Inputs that cannot be looked up are passed over (the run reports them).
pub(crate) fn input_that_is<P: AsRef<Path>>(output: FileId, inputs: &[P]) -> Option<String> {
    // (path, given on the command line)
    let mut pending: Vec<(PathBuf, bool)> = inputs
        .iter()
        .map(|p| (p.as_ref().to_path_buf(), true))
        .collect();
    if pending.is_empty() {
        pending.push((PathBuf::from("-"), true));
    }
    let mut entered = HashSet::new();
    while let Some((path, given)) = pending.pop() {
        if given && path.as_os_str() == "-" {
            if standard_input().is_some_and(|meta| FileId::of(&meta) == output) {
                return Some("<stdin>".to_owned());
            }
            continue;
        }
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(err) if given && err.kind() == io::ErrorKind::NotFound => {
                pending.extend(matches(&path).into_iter().map(|p| (p, true)));
                continue;
            }
            Err(_) => continue,
        };
        if meta.is_dir() {
            if entered.insert(FileId::of(&meta))
                && let Ok(entries) = fs::read_dir(&path)
            {
                pending.extend(entries.filter_map(Result::ok).map(|e| (e.path(), false)));
            }
        } else if (given || (meta.is_file() && input::is_pgn_name(&path)))
            && FileId::of(&meta) == output
        {
            return Some(path.display().to_string());
        }
    }
    None
}

/// The matches of `path` taken as a pattern, if it holds pattern characters.
fn matches(path: &Path) -> Vec<PathBuf> {
    let pattern = path.to_string_lossy();
    if !pattern.contains(['*', '?', '[']) {
        return Vec::new();
    }
    glob::glob(&pattern).map_or_else(
        |_| Vec::new(),
        |paths| paths.filter_map(Result::ok).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_to_name_an_input_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("archive/deep")).unwrap();
        let games = root.join("archive/deep/games.pgn");
        fs::write(&games, "1. e4 *\n").unwrap();
        fs::write(root.join("other.pgn"), "1. d4 *\n").unwrap();
        fs::hard_link(&games, root.join("hard.csv")).unwrap();
        std::os::unix::fs::symlink(&games, root.join("link.pgn")).unwrap();
        let id = FileId::of(&fs::metadata(&games).unwrap());
        let is = |inputs: &[PathBuf]| input_that_is(id, inputs);

        assert_eq!(
            is(std::slice::from_ref(&games)),
            Some(games.display().to_string())
        );
        assert!(is(&[root.join("archive/deep/../deep/./games.pgn")]).is_some());
        assert!(is(&[root.join("link.pgn")]).is_some());
        assert!(is(&[root.join("hard.csv")]).is_some(), "a hard link given");
        assert!(is(&[root.join("other.pgn"), root.join("archive")]).is_some());
        assert!(is(&[root.join("arch*/*/g?mes.pgn")]).is_some());
        assert!(is(&[root.join("other.pgn")]).is_none());
        assert!(is(&[root.join("missing.pgn")]).is_none());
        // Found in a directory, only PGN names are read: the hard link named .csv is not.
        let csv = FileId::of(&fs::metadata(root.join("hard.csv")).unwrap());
        fs::remove_file(&games).unwrap();
        fs::remove_file(root.join("link.pgn")).unwrap();
        assert_eq!(input_that_is(csv, &[root.to_path_buf()]), None);
    }
}
