//! `arbiter validate [PATH...] [-o FILE]`: replay every move of every game and variation, and
//! report each problem with its location, then one summary, on stdout or in FILE (see
//! [`crate::cli::output`] for how the file is written). The exit status is chosen in `main`, from
//! the run's totals.

use std::time::Instant;

use clap::{Args, ValueEnum};

use crate::cli::games::{GameRun, Ran};
use arbiter::{Bytes, DiagnosticFormat, DiagnosticFormatter, ReplayOptions};

/// Arguments of `arbiter validate`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter validate games.pgn\n  \
    arbiter validate archive/ --strict\n  \
    arbiter validate games.pgn.xz --format jsonl -o problems.jsonl\n  \
    zstdcat lichess.pgn.zst | arbiter validate --format jsonl > problems.jsonl")]
pub struct ValidateArgs {
    /// The inputs, the output, jobs and progress.
    #[command(flatten)]
    pub run: GameRun,
    /// Output format of the diagnostics and the summary.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub format: ValidateFormat,
    /// Treat every warning (non-standard SAN, wrong check marks, move numbers...) as an error.
    #[arg(long)]
    pub strict: bool,
}

/// Output formats of `validate`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum ValidateFormat {
    /// `PATH:LINE:COL: game N, ply P "SAN": error[CODE]: MESSAGE` lines, then the summary.
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

/// Runs `arbiter validate`: the diagnostics, then the summary.
pub fn run(args: &ValidateArgs) -> anyhow::Result<Ran> {
    let started = Instant::now();
    let options = ReplayOptions {
        strict: args.strict,
        clock_checks: true,
        ..ReplayOptions::default()
    };
    // Batches are written from whichever thread finished them (stdout is not locked: each write
    // through the sink's buffer takes the lock once).
    let mut destination = Bytes {
        out: args.run.open()?,
        rows: 0,
    };
    let totals = args.run.run(
        &options,
        || DiagnosticFormatter::new(args.format.into()),
        &mut destination,
    )?;
    let mut sink = destination.out;
    totals.write_summary(args.format.into(), started.elapsed(), &mut sink)?;
    Ok(Ran {
        totals,
        sink,
        wrote: None,
    })
}
