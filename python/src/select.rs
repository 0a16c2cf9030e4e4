//! `select`: `arbiter select` from Python: the games an expression, a position or deduplication
//! keeps, written as clean PGN to a path (compressed as its name says), the others to `rejected`
//! and `duplicates` when given. Each file is written through a temporary file renamed into place
//! only when the run read every input (as the command line commits its outputs only then).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;

use crate::errors::{options_error, os_error};
use crate::inputs::{InputErrors, Inputs};
use crate::library::{
    Chooser, DEFAULT_RULINGS_BUDGET, DedupMode, KeptGames, ReplayOptions, Router, SelectOptions,
    SelectPlan, Sink, WriteOptions, clash, run,
};

/// What a select run did.
#[pyclass(module = "arbiter._arbiter", frozen, get_all)]
pub struct SelectSummary {
    /// Games read.
    games: u64,
    /// Games written to the output.
    written: u64,
    /// Of those, games written as they were (invalid, or not expressible as clean PGN).
    unchanged: u64,
    /// Of those, games whose result `fix_result` replaced.
    fixed: u64,
    /// Games `where` or `position` turned down.
    rejected: u64,
    /// Games dropped as duplicates of a game kept before.
    duplicates: u64,
    /// Invalid games read.
    invalid: u64,
    /// The warnings the command line prints on stderr (a result fixed, say), one a line.
    warnings: Vec<String>,
}

#[pymethods]
impl SelectSummary {
    fn __repr__(&self) -> String {
        format!(
            "<SelectSummary {} games read, {} written, {} rejected, {} duplicates, {} invalid>",
            self.games, self.written, self.rejected, self.duplicates, self.invalid
        )
    }
}

/// Keeps the games of `paths` that pass `where` (the expression of `arbiter select --where`, over
/// export's fields and the tags) and reach one of the `position` FENs, drops the duplicates with
/// `dedup` ("moves" or "game"), names openings with `eco`, fixes results with `fix_result`, and
/// writes them to `output` as clean PGN; the games turned down go to `rejected`, the duplicates
/// to `duplicates`, when given. Returns what happened as a `SelectSummary`.
#[pyfunction]
#[pyo3(signature = (
    paths, output, *, r#where = None, position = Vec::new(), dedup = None, eco = false,
    fix_result = false, rejected = None, duplicates = None, comments = true,
    keep_commands = false, variations = true, nags = true, jobs = None,
    rulings_budget = DEFAULT_RULINGS_BUDGET
))]
#[allow(clippy::too_many_arguments)]
pub fn select(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    output: PathBuf,
    r#where: Option<String>,
    position: Vec<String>,
    dedup: Option<String>,
    eco: bool,
    fix_result: bool,
    rejected: Option<PathBuf>,
    duplicates: Option<PathBuf>,
    comments: bool,
    keep_commands: bool,
    variations: bool,
    nags: bool,
    jobs: Option<usize>,
    rulings_budget: u64,
) -> PyResult<SelectSummary> {
    let dedup = match dedup.as_deref() {
        None => None,
        Some("moves") => Some(DedupMode::Moves),
        Some("game") => Some(DedupMode::Game),
        Some(other) => {
            return Err(options_error(format!(
                "dedup: {other:?} is no mode; say \"moves\" or \"game\""
            )));
        }
    };
    if keep_commands && comments {
        return Err(options_error(
            "keep_commands keeps the commands of comments left out: give comments=False too",
        ));
    }
    let plan = SelectPlan::new(SelectOptions {
        filter: r#where,
        positions: position,
        dedup,
        eco,
        fix_result,
        write: WriteOptions {
            comments,
            keep_commands,
            variations,
            nags,
        },
        keep_source: rejected.is_some() || duplicates.is_some(),
    })
    .map_err(options_error)?;
    let inputs = Inputs::new(paths, None, jobs)?;
    let outputs = [
        ("output", Some(output.as_path())),
        ("rejected", rejected.as_deref()),
        ("duplicates", duplicates.as_deref()),
    ];
    let named: Vec<_> = outputs
        .into_iter()
        .filter(|(_, path)| path.is_some())
        .collect();
    clash::check(&named, &inputs.paths).map_err(options_error)?;
    let replay = ReplayOptions {
        rulings_budget,
        ..plan.replay_options()
    };
    let open = |path: &Path| Sink::file(path).map_err(|err| os_error(err.kind(), err.to_string()));
    let out = open(&output)?;
    let rejected = rejected.as_deref().map(open).transpose()?;
    let duplicates = duplicates.as_deref().map(open).transpose()?;
    let kept = match plan.dedup() {
        Some(_) => Some(KeptGames::new().map_err(|err| os_error(err.kind(), err.to_string()))?),
        None => None,
    };
    let warnings = Arc::new(Mutex::new(Vec::new()));
    let kept_warnings = Arc::clone(&warnings);
    let warn = Box::new(move |warning: &str| {
        let mut warnings = kept_warnings.lock().unwrap_or_else(|e| e.into_inner());
        warnings.push(warning.to_owned());
    });
    let mut router = Router::new(out, rejected, duplicates, kept, warn);
    let errors = InputErrors::default();
    let ran = py.detach(|| {
        run(
            &inputs.paths,
            None,
            plan.jobs(inputs.jobs),
            &replay,
            || Chooser::new(&plan),
            &mut router,
            &errors,
        )
    });
    let totals = ran.map_err(|err| os_error(err.kind(), err.to_string()))?;
    if let Some(errors) = errors.take() {
        // As the command line: no output is committed when an input could not be read.
        return Err(os_error(std::io::ErrorKind::Other, errors));
    }
    let counts = router.counts();
    let (out, rejected, duplicates) = router.into_outputs();
    for sink in [Some(out), rejected, duplicates].into_iter().flatten() {
        py.detach(|| sink.finish())
            .map_err(|err| os_error(err.kind(), err.to_string()))?;
    }
    let warnings = std::mem::take(&mut *warnings.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(SelectSummary {
        games: totals.counts.games,
        written: counts.written,
        unchanged: counts.unchanged,
        fixed: counts.fixed,
        rejected: counts.rejected,
        duplicates: counts.duplicates,
        invalid: totals.counts.invalid,
        warnings,
    })
}
