//! `arbiter validate [PATH...] [-o FILE]`: replay every move of every game and variation, and
//! report each problem with its location, then one summary, on stdout or in FILE (see
//! [`crate::cli::output`] for how the file is written).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};

use crate::cli::exit::Exit;
use crate::cli::{games, output};
use arbiter::{Bytes, DiagnosticFormat, DiagnosticFormatter, ReplayOptions};

/// Arguments of `arbiter validate`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter validate games.pgn\n  \
    arbiter validate archive/ --strict\n  \
    arbiter validate games.pgn.xz --format jsonl -o problems.jsonl\n  \
    zstdcat lichess.pgn.zst | arbiter validate --format jsonl > problems.jsonl")]
pub struct ValidateArgs {
    /// PGN files, directories (searched for *.pgn, *.pgn.gz, *.pgn.zst, *.pgn.bz2, *.pgn.xz) or
    /// path patterns; `-` or nothing reads standard input.
    pub paths: Vec<PathBuf>,
    /// Output format of the diagnostics and the summary.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub format: ValidateFormat,
    /// Write the diagnostics and the summary to FILE instead of standard output: through a
    /// temporary file renamed over FILE only when the run ends with status 0 or 1; compressed
    /// when FILE ends in .gz, .zst, .xz or .bz2.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Worker threads, 1 or more (default: the number of available cores).
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Treat every warning (non-standard SAN, wrong check marks, move numbers...) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Output formats of `validate`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum ValidateFormat {
    /// `PATH:LINE:COL: game N, ply P "SAN": error: MESSAGE` lines, then a summary line.
    Text,
    /// One JSON object per diagnostic, then a summary object.
    Jsonl,
}

impl From<ValidateFormat> for DiagnosticFormat {
    fn from(format: ValidateFormat) -> DiagnosticFormat {
        match format {
            ValidateFormat::Text => DiagnosticFormat::Text,
            ValidateFormat::Jsonl => DiagnosticFormat::Jsonl,
        }
    }
}

/// `--jobs N`: a whole number of at least 1.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1 (omit --jobs to use every core)".to_owned()),
        Ok(n) => Ok(n),
        Err(err) => Err(err.to_string()),
    }
}

/// The number of worker threads: `--jobs`, else one per available core.
pub fn jobs(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1)
}

/// Runs `arbiter validate`.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Exit> {
    let started = Instant::now();
    let options = ReplayOptions {
        strict: args.strict,
        clock_checks: true,
        ..ReplayOptions::default()
    };
    // Batches are written from whichever thread finished them (stdout is not locked: each write
    // through the sink's buffer takes the lock once).
    let mut destination = Bytes {
        out: output::open(args.output.as_deref(), &args.paths)?,
        rows: 0,
    };
    let totals = games::run(
        &args.paths,
        jobs(args.jobs),
        args.quiet,
        &options,
        || DiagnosticFormatter::new(args.format.into()),
        &mut destination,
    )?;
    let mut out = destination.out;
    totals.write_summary(args.format.into(), started.elapsed(), &mut out)?;
    output::close(out, Exit::of(&totals))
}
