//! The one rule that keeps a run's outputs from destroying what it reads or writes: no output may
//! be an input, nor another output, however either is named.
//!
//! An output is placed by where it lands: a file that exists by its identity (device and inode, so
//! that a relative or absolute path, a symlink or a hard link name the same place), and one that
//! does not exist yet by its directory's identity plus its name (so that `a.pgn`, `./a.pgn` and
//! `x/../a.pgn` are one place before any of them is made; comparing canonical paths cannot see
//! that, since a file that does not exist has none). Inputs are found as the run finds them
//! (`inputs.rs`).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::inputs::{FileId, input_that_is, standard_output};

/// Where an output lands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    /// A file (or directory, or device) that exists.
    File(FileId),
    /// A name not taken yet in an existing directory.
    Entry {
        /// The directory.
        dir: FileId,
        /// The name in it.
        name: OsString,
    },
}

impl Place {
    /// Where `path` lands; `None` when neither it nor its directory can be looked up (such an
    /// output cannot be created, and opening it says why).
    fn of(path: &Path) -> Option<Place> {
        match fs::metadata(path) {
            Ok(meta) => Some(Place::File(FileId::of(&meta))),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                let name = path.file_name()?.to_os_string();
                let dir = match path.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                let dir = FileId::of(&fs::metadata(dir).ok()?);
                Some(Place::Entry { dir, name })
            }
            Err(_) => None,
        }
    }
}

/// Why a run's outputs were refused.
#[derive(Debug, thiserror::Error)]
pub enum Clash {
    /// Two outputs land in one place.
    #[error("{first} and {second} are the same file ({path}); choose another output")]
    Outputs {
        /// The option of the first (`-o`).
        first: String,
        /// The option of the second (`--rejected`).
        second: String,
        /// The second's path, as given.
        path: String,
    },
    /// An output is an input.
    #[error("{option} {path} is also an input{how}; choose another output")]
    Input {
        /// The output's option (`-o`, `--rejected`...).
        option: String,
        /// Its path, as given.
        path: String,
        /// How: ` (the same file as X)`, ` (standard input reads it)`, or nothing when it is
        /// given as an input under the same name.
        how: String,
    },
    /// Standard output is redirected onto an input.
    #[error("standard output is also an input ({input}); choose another output")]
    StandardOutput {
        /// The input, as the run names it.
        input: String,
    },
}

/// Checks the outputs of a run that reads `inputs`: each `(option, path)` of `outputs` (`None`
/// for standard output, which counts when it is sent to a file) against every input and every
/// output before it. The first clash found is the error.
pub fn check<P: AsRef<Path>>(outputs: &[(&str, Option<&Path>)], inputs: &[P]) -> Result<(), Clash> {
    let mut placed: Vec<(&str, Option<Place>, &Path)> = Vec::new();
    for &(option, path) in outputs {
        let Some(path) = path else {
            // Standard output sent to a file: an input, or another output, may not be that file.
            if let Some(meta) = standard_output().filter(|meta| meta.is_file()) {
                let id = FileId::of(&meta);
                if let Some(input) = input_that_is(id, inputs) {
                    return Err(Clash::StandardOutput { input });
                }
                placed.push(("standard output", Some(Place::File(id)), Path::new("-")));
            }
            continue;
        };
        let place = Place::of(path);
        if let Some(Place::File(id)) = &place
            && let Some(input) = input_that_is(*id, inputs)
        {
            let given = path.display().to_string();
            let how = if input == given {
                String::new()
            } else if input == "<stdin>" {
                " (standard input reads it)".to_owned()
            } else {
                format!(" (the same file as {input})")
            };
            return Err(Clash::Input {
                option: option.to_owned(),
                path: given,
                how,
            });
        }
        for (first, other, other_path) in &placed {
            let same = match (&place, other) {
                (Some(a), Some(b)) => a == b,
                _ => normal(path) == normal(other_path),
            };
            if same {
                return Err(Clash::Outputs {
                    first: (*first).to_owned(),
                    second: option.to_owned(),
                    path: path.display().to_string(),
                });
            }
        }
        placed.push((option, place, path));
    }
    Ok(())
}

/// `path` with its `.` components left out: what is left to compare when a path cannot be looked
/// up.
fn normal(path: &Path) -> PathBuf {
    path.components().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two outputs that do not exist yet are one place under every naming: relative, `./`,
    /// `x/../`, absolute, and through a symlinked directory. See: issue 38, point 1.
    #[test]
    fn outputs_not_made_yet_are_placed_by_directory_and_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("x")).unwrap();
        std::os::unix::fs::symlink(root, root.join("x/up")).unwrap();
        let a = root.join("a.pgn");
        let names = [
            root.join("./a.pgn"),
            root.join("x/../a.pgn"),
            root.join("x/up/a.pgn"),
            a.clone(),
        ];
        for name in &names {
            let outputs = [
                ("-o", Some(a.as_path())),
                ("--rejected", Some(name.as_path())),
            ];
            let err = check::<&Path>(&outputs, &[]).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "-o and --rejected are the same file ({}); choose another output",
                    name.display()
                )
            );
            assert!(!a.exists());
        }
        let b = root.join("b.pgn");
        let apart = [("-o", Some(a.as_path())), ("--rejected", Some(b.as_path()))];
        assert!(check::<&Path>(&apart, &[]).is_ok());
        assert!(check::<&Path>(&[("-o", None), ("--rejected", None)], &[]).is_ok());
    }

    /// An output that is an input is named by its own option, whichever it is.
    #[test]
    fn an_output_that_is_an_input_is_named_by_its_option() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join("games.pgn");
        fs::write(&games, "1. e4 *\n").unwrap();
        let link = dir.path().join("inlink.pgn");
        std::os::unix::fs::symlink(&games, &link).unwrap();
        let out = dir.path().join("out.pgn");
        let outputs = [
            ("-o", Some(out.as_path())),
            ("--rejected", Some(link.as_path())),
        ];
        let err = check(&outputs, std::slice::from_ref(&games)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "--rejected {} is also an input (the same file as {}); choose another output",
                link.display(),
                games.display()
            )
        );
    }
}
