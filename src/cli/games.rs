//! The game pipeline as `validate` and `export` run it from the command line: a line on stderr
//! when standard input is a terminal, the progress bar, and the number of jobs.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use arbiter::{Destination, GameFormatter, ReplayOptions, Totals};

use crate::cli::progress::Progress;

/// What arbiter says on stderr when it waits for games typed on a terminal.
const STDIN_NOTICE: &str =
    "arbiter: reading PGN from standard input (no path given); end with Ctrl-D, or see --help";

/// Runs [`arbiter::run`] over `paths` on `jobs` threads, with a progress bar unless `quiet`.
pub fn run<F: GameFormatter>(
    paths: &[PathBuf],
    jobs: usize,
    quiet: bool,
    options: &ReplayOptions,
    make_formatter: impl Fn() -> F + Sync,
    out: &mut (dyn Destination + Send),
) -> anyhow::Result<Totals> {
    let progress = Progress::new(paths, quiet);
    if paths.is_empty() && std::io::stdin().is_terminal() {
        let _ = writeln!(std::io::stderr().lock(), "{STDIN_NOTICE}");
    }
    Ok(arbiter::run(
        paths,
        jobs,
        options,
        make_formatter,
        out,
        &progress,
    )?)
}
