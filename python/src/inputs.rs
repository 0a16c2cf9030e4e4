//! What every run over games shares: its inputs, checked before any game is read (a missing file,
//! a pattern that matches nothing or a file that is not PGN is an exception at the call, as the
//! command line names it), the jobs, the range, and the input errors met while reading (a corrupt
//! compressed stream), kept to be raised once the rest is read.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::prelude::*;

use crate::errors::{input_error, options_error};
use crate::library::{Observer, sources, unfit_for_range};

/// The inputs of a run, checked.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Files, directories, patterns, as given.
    pub paths: Vec<PathBuf>,
    /// The byte range of the one input, if given.
    pub range: Option<Range<u64>>,
    /// Worker threads.
    pub jobs: usize,
}

impl Inputs {
    /// Checks `paths` (one path or a list), `range` and `jobs` (`None`: every core).
    pub fn new(
        paths: &Bound<'_, PyAny>,
        range: Option<(u64, u64)>,
        jobs: Option<usize>,
    ) -> PyResult<Inputs> {
        let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
            Ok(path) => vec![path],
            Err(_) => paths.extract()?,
        };
        if paths.is_empty() {
            return Err(options_error(
                "no input: give a file, a directory or a pattern (a list of them)",
            ));
        }
        if paths.iter().any(|p| p.as_os_str() == "-") {
            return Err(options_error(
                "\"-\" (standard input) is for the command line; give a file",
            ));
        }
        let range = match range {
            Some((start, end)) if start > end => {
                return Err(options_error(format!(
                    "range: START ({start}) is past END ({end})"
                )));
            }
            Some(_) if let Some(why) = unfit_for_range(&paths) => {
                return Err(options_error(why));
            }
            Some((start, end)) => Some(start..end),
            None => None,
        };
        let jobs = match jobs {
            Some(0) => {
                return Err(options_error(
                    "jobs must be at least 1 (leave it out to use every core)",
                ));
            }
            Some(jobs) => jobs,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        // Every input opened once, as the run will (and closed again): what cannot be read
        // fails here, before any row.
        for source in sources(&paths) {
            source.map_err(|err| input_error(&err))?;
        }
        Ok(Inputs { paths, range, jobs })
    }
}

/// Keeps the input errors of a run (the command line prints them and goes on; here they are
/// raised after the rest is read).
#[derive(Default)]
pub struct InputErrors(Mutex<Vec<String>>);

impl InputErrors {
    /// The errors, one a line; `None` when there were none.
    pub fn take(&self) -> Option<String> {
        let errors = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        (!errors.is_empty()).then(|| errors.join("\n"))
    }
}

impl Observer for InputErrors {
    fn input_error(&self, error: &dyn std::fmt::Display) {
        let mut errors = self.0.lock().unwrap_or_else(|e| e.into_inner());
        errors.push(error.to_string());
    }
}
