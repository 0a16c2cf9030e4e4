//! `arbiter validate [PATH...] [-o FILE]`: replay every move of every game and variation, and
//! report each problem with its location, then one summary, on stdout or in FILE (see
//! [`crate::cli::output`] for how the file is written).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};

use crate::cli::exit::Exit;
use crate::cli::{games, output};
use arbiter::pipeline::GameFormatter;
use arbiter::replay::{GameReport, ReplayOptions};
use arbiter::report::diagnostic::Diagnostic;
use arbiter::report::output::{Bytes, GameNumber, Output};

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

/// Formats a game's problems as diagnostics.
struct DiagnosticFormatter {
    format: ValidateFormat,
    text: String,
}

impl GameFormatter for DiagnosticFormatter {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        for problem in &report.problems {
            let diagnostic = Diagnostic {
                path: source,
                game: number,
                problem,
            };
            match self.format {
                ValidateFormat::Text => diagnostic.write_text(&mut self.text, out),
                ValidateFormat::Jsonl => diagnostic.write_jsonl(out),
            }
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
        || DiagnosticFormatter {
            format: args.format,
            text: String::new(),
        },
        &mut destination,
    )?;
    let mut out = destination.out;
    let counts = &totals.counts;
    let elapsed = started.elapsed().as_secs_f64();
    let rate = if elapsed > 0.0 {
        counts.games as f64 / elapsed
    } else {
        0.0
    };
    match args.format {
        ValidateFormat::Text => {
            writeln!(
                out,
                "{} games, {} plies: {} valid, {} invalid, {} warnings{} in {elapsed:.3} s ({rate:.0} games/s)",
                counts.games,
                counts.plies,
                counts.valid,
                counts.invalid,
                counts.warnings,
                if totals.input_errors > 0 {
                    format!(", {} input errors", totals.input_errors)
                } else {
                    String::new()
                },
            )?;
            let by_code: Vec<String> = counts
                .codes
                .seen()
                .map(|(code, n)| format!("{code} {n}"))
                .collect();
            if !by_code.is_empty() {
                writeln!(out, "by code: {}", by_code.join(", "))?;
            }
        }
        ValidateFormat::Jsonl => {
            let by_code: serde_json::Map<String, serde_json::Value> = counts
                .codes
                .seen()
                .map(|(code, n)| (code.as_str().to_owned(), n.into()))
                .collect();
            let summary = serde_json::json!({
                "type": "summary",
                "games": counts.games,
                "plies": counts.plies,
                "valid": counts.valid,
                "invalid": counts.invalid,
                "warnings": counts.warnings,
                "input_errors": totals.input_errors,
                "codes": by_code,
                "elapsed_seconds": elapsed,
                "games_per_second": rate,
            });
            serde_json::to_writer(&mut out, &summary)?;
            out.write_all(b"\n")?;
        }
    }
    output::close(out, Exit::of(&totals))
}
