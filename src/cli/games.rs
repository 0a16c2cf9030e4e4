//! What `validate` and `export` share: their common arguments ([`GameRun`]: the inputs, `-o`,
//! `--jobs`, `--quiet`, `--rulings-budget`), the game pipeline as the command line runs it (a line on stderr when
//! standard input is a terminal, the progress bar, a line saying what was kept when a signal
//! ends the run), and what a run leaves to `main` ([`Ran`]), whose totals choose the exit status
//! there.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use arbiter::io::Sink;
use arbiter::report::output::{Destination, GameFormatter};
use arbiter::{ReplayOptions, Totals};
use clap::Args;

use crate::cli::numbers;
use crate::cli::output::{self, Written};
use crate::cli::progress::{Progress, Suspending};
pub(crate) use arbiter::core::text::counted;

/// What arbiter says on stderr when it waits for games typed on a terminal.
const STDIN_NOTICE: &str =
    "arbiter: reading PGN from standard input (no path given); end with Ctrl-D, or see --help";

/// The arguments of every run over games (`validate`, `export`, `select`).
#[derive(Args, Debug)]
pub(crate) struct GameRun {
    /// PGN files, directories (searched for *.pgn, *.pgn.gz, *.pgn.zst, *.pgn.bz2, *.pgn.xz) or
    /// path patterns; `-` or nothing reads standard input.
    pub(crate) paths: Vec<PathBuf>,
    /// Write to FILE instead of standard output: through a temporary file renamed over FILE only
    /// when the run ends with status 0 or 1; compressed when FILE ends in .gz, .zst, .xz or .bz2.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Worker threads, 1 or more (default: the number of available cores).
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub(crate) jobs: Option<usize>,
    /// Show no progress bar, and no line saying what -o FILE received.
    #[arg(long, short = 'q')]
    pub(crate) quiet: bool,
    /// When an input cannot be read whole (missing, not PGN, cut short, corrupt), still write
    /// -o with everything that could be read, and name each input that could not; the status is
    /// still 2. Without it, such a run leaves -o as it was.
    #[arg(long)]
    pub(crate) keep_going: bool,
    /// Read only the games that start between bytes START and END of one input, to split a file
    /// among tasks (--help says more).
    ///
    /// Read only the games whose first byte lies from the first place at or after byte START of
    /// the (decompressed) input where a game surely starts, to the first such place at or after
    /// byte END (counted from 0); the last is read to its end. One input only; a plain file is
    /// not read before START. The ranges of any split of a file together read each of its games
    /// once, as the whole file reads it (the `offset` field names each game the same way); lines
    /// count from each game's first line (validate: PATH@OFFSET:LINE:COL).
    #[arg(long, value_name = "START:END", value_parser = parse_range)]
    pub(crate) range: Option<std::ops::Range<u64>>,
    /// Positions the helpmate search may visit to decide whether each side can still mate in a
    /// game's final position, both sides together (0: the static proofs only); a side left
    /// undecided is null in export and never counted as either answer.
    #[arg(long, value_name = "N", default_value_t = arbiter::core::replay::DEFAULT_RULINGS_BUDGET,
          value_parser = numbers::count)]
    pub(crate) rulings_budget: u64,
}

impl GameRun {
    /// The number of worker threads: `--jobs`, else one per available core.
    pub(crate) fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
            .max(1)
    }

    /// The line said on stderr once `-o FILE` is committed, `wrote WHAT to FILE`: none for
    /// standard output or under `--quiet`.
    pub(crate) fn wrote(&self, what: std::fmt::Arguments<'_>) -> Option<String> {
        let path = output::path(self.output.as_deref()).filter(|_| !self.quiet)?;
        Some(format!("wrote {what} to {}", path.display()))
    }

    /// Opens the output: `-o`, else standard output (see [`output::open`]).
    pub(crate) fn open(&self) -> anyhow::Result<Sink> {
        output::open(self.output.as_deref(), &self.paths)
    }

    /// Runs [`arbiter::run`] over the inputs, with a progress bar unless `--quiet`, and the
    /// final positions ruled on within `--rulings-budget`.
    pub(crate) fn run<F: GameFormatter>(
        &self,
        options: &ReplayOptions,
        make_formatter: impl Fn() -> F + Sync,
        out: &mut (dyn Destination + Send),
    ) -> anyhow::Result<Totals> {
        self.run_on(self.jobs(), options, make_formatter, out)
    }

    /// [`GameRun::run`] on `jobs` worker threads instead of `--jobs`.
    pub(crate) fn run_on<F: GameFormatter>(
        &self,
        jobs: usize,
        options: &ReplayOptions,
        make_formatter: impl Fn() -> F + Sync,
        out: &mut (dyn Destination + Send),
    ) -> anyhow::Result<Totals> {
        if self.range.is_some()
            && let Some(why) = arbiter::pipeline::unfit_for_range(&self.paths)
        {
            anyhow::bail!("--{why}");
        }
        if self.paths.is_empty() && std::io::stdin().is_terminal() {
            let _ = writeln!(std::io::stderr().lock(), "{STDIN_NOTICE}");
        }
        output::watch_signals();
        let progress = Progress::new(&self.paths, self.quiet);
        let options = ReplayOptions {
            rulings_budget: self.rulings_budget,
            ..options.clone()
        };
        // Data for the terminal the bar is on is written with the bar off the screen.
        let to_terminal = output::path(self.output.as_deref()).is_none()
            && progress.shows()
            && std::io::stdout().is_terminal();
        let mut suspending;
        let out: &mut (dyn Destination + Send) = if to_terminal {
            suspending = Suspending { out };
            &mut suspending
        } else {
            out
        };
        Ok(arbiter::run(
            &self.paths,
            self.range.clone(),
            jobs,
            &options,
            make_formatter,
            out,
            &progress,
        )?)
    }
}

/// `--jobs N`: a whole number of at least 1.
pub(crate) fn parse_jobs(text: &str) -> Result<usize, String> {
    match numbers::whole(text, usize::MAX as u64)? {
        0 => Err("must be at least 1 (omit --jobs to use every core)".to_owned()),
        n => Ok(n as usize),
    }
}

/// `--range START:END`: two whole numbers of bytes, START at most END.
pub(crate) fn parse_range(text: &str) -> Result<std::ops::Range<u64>, String> {
    let (start, end) = text
        .split_once(':')
        .ok_or_else(|| "expected START:END, two byte offsets (e.g. 0:1000000)".to_owned())?;
    let number =
        |part: &str, what: &str| numbers::count(part).map_err(|err| format!("{what}: {err}"));
    let (start, end) = (number(start, "START")?, number(end, "END")?);
    if start > end {
        return Err(format!("START ({start}) is past END ({end})"));
    }
    Ok(start..end)
}

/// What a run over games leaves to `main`: its totals, which choose the exit status; its output,
/// committed or left as it was by that status (and `--keep-going`); and the line to say on stderr
/// once it is committed.
pub(crate) struct Ran {
    /// `--keep-going`.
    pub(crate) keep_going: bool,
    /// What the run counted.
    pub(crate) totals: Totals,
    /// The output, not committed yet.
    pub(crate) output: Written,
    /// Said on stderr after the output is committed (`wrote N games to FILE`).
    pub(crate) wrote: Option<String>,
}
