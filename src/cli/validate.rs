//! `arbiter validate [PATH...] [-o FILE]`: replay every move of every game and variation, and
//! report each problem with its location, then one summary, on stdout or in FILE (see
//! [`crate::cli::output`] for how the file is written). The exit status is chosen in `main`, from
//! the run's totals.
//!
//! The format follows the same rule as export's: `--format`, else the one `-o FILE`'s extension
//! names (`.jsonl` or `.ndjson`, before a compression suffix, is JSON Lines; an extension of a
//! format only export writes, `.csv`, `.json` or `.parquet`, is a usage error), else text. With
//! `-o FILE`, one line on stderr says what was written where, as export's does (`wrote N games
//! (E errors, W warnings) to FILE`), unless `--quiet`.

use std::path::Path;
use std::time::Instant;

use anyhow::anyhow;
use arbiter::ReplayOptions;
use arbiter::core::replay::RulingsWanted;
use arbiter::report::diagnostic::{DiagnosticFormat, DiagnosticFormatter};
use arbiter::report::output::Bytes;
use clap::{Args, ValueEnum};

use crate::cli::games::{GameRun, Ran, counted};
use crate::cli::output::{self, Written};
use crate::cli::severities::SeverityArgs;

/// Arguments of `arbiter validate`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter validate games.pgn\n  \
    arbiter validate archive/ --strict --allow not_utf8\n  \
    arbiter validate round5.pgn --deny result_contradicts_board\n  \
    arbiter validate games.pgn.xz --format jsonl -o problems.jsonl\n  \
    zstdcat lichess.pgn.zst | arbiter validate --format jsonl > problems.jsonl")]
pub(crate) struct ValidateArgs {
    /// The inputs, the output, jobs and progress.
    #[command(flatten)]
    pub(crate) run: GameRun,
    /// Output format of the diagnostics and the summary (default: jsonl when -o's extension is
    /// .jsonl or .ndjson, before a .gz, .zst, .xz or .bz2 suffix; else text).
    #[arg(long, value_enum)]
    pub(crate) format: Option<ValidateFormat>,
    /// Which codes are errors: --strict, --deny, --allow.
    #[command(flatten)]
    pub(crate) severity: SeverityArgs,
}

/// Output formats of `validate`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum ValidateFormat {
    /// `PATH:LINE:COL: game N (WHITE - BLACK, round R), ply P "SAN": error[CODE]: MESSAGE`
    /// lines, then the summary.
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

/// The format: `--format`, else the one `-o`'s name asks for
/// ([`DiagnosticFormat::of_output`]), else text.
fn format(
    format: Option<ValidateFormat>,
    output: Option<&Path>,
) -> anyhow::Result<DiagnosticFormat> {
    match (format, output) {
        (Some(format), _) => Ok(format.into()),
        (None, Some(path)) => DiagnosticFormat::of_output(path).map_err(|err| anyhow!("-o {err}")),
        (None, None) => Ok(DiagnosticFormat::Text),
    }
}

/// Runs `arbiter validate`: the diagnostics, each input's one `not_utf8` warning, then the
/// summary.
pub(crate) fn run(args: &ValidateArgs) -> anyhow::Result<Ran> {
    let started = Instant::now();
    let path = output::path(args.run.output.as_deref());
    let format = format(args.format, path)?;
    // Validate shows no ruling, nor the final position: only the sides its verdict reads are
    // ruled, and no FEN is written.
    let options = ReplayOptions {
        severities: args.severity.severities()?,
        clock_checks: true,
        rulings: RulingsWanted::VerdictOnly,
        final_fen: false,
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
        || {
            let formatter = DiagnosticFormatter::new(format);
            if args.run.range.is_some() {
                formatter.lines_per_game()
            } else {
                formatter
            }
        },
        &mut destination,
    )?;
    let mut sink = destination.out;
    totals.write_not_utf8(format, args.run.range.is_some(), &mut sink)?;
    totals.write_summary(format, started.elapsed(), &mut sink)?;
    let wrote = args.run.wrote(format_args!(
        "{} ({}, {})",
        counted(totals.counts.games, "game"),
        counted(totals.counts.errors, "error"),
        counted(totals.counts.warnings, "warning")
    ));
    Ok(Ran {
        keep_going: args.run.keep_going,
        totals,
        output: Written::Sink(Box::new(sink)),
        wrote,
    })
}
