//! `arbiter export [PATH...] --format csv|json|jsonl`: one record per game, in input order, with
//! its outcome. Every game the reader finds gets a record; an invalid one says why.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::cli::exit::Exit;
use crate::cli::games::{self, GameFormatter};
use crate::cli::validate::jobs;
use crate::replay::{GameReport, ReplayOptions};
use crate::report::output::{GameNumber, Output};
use crate::report::record::{ExportFormat, ExportRecord, RecordFormatter};
use crate::report::sink::Sink;

/// Arguments of `arbiter export`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter export games.pgn --format csv -o games.csv\n  \
    arbiter export archive/ --format jsonl --tags WhiteElo,BlackElo,ECO | head\n  \
    zstdcat lichess.pgn.zst | arbiter export --format json -o outcomes.json")]
pub struct ExportArgs {
    /// PGN files or directories (searched for *.pgn, *.pgn.gz, *.pgn.zst, *.pgn.bz2); `-` or
    /// nothing reads standard input.
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Write to FILE (through a temporary file renamed at the end) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Extra tag columns, appended in this order, e.g. `WhiteElo,BlackElo,ECO`.
    #[arg(long, value_delimiter = ',', value_name = "TAG,...")]
    pub tags: Vec<String>,
    /// Worker threads (default: the number of available cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Formats each game as one export record.
struct Exporter {
    records: RecordFormatter,
}

impl GameFormatter for Exporter {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        self.records
            .record(&export_record(source, number, report), out);
    }
}

/// The export record of a replayed game of input `file`, numbered `number`: every field borrowed
/// from the report (public for the benchmarks).
pub fn export_record<'a>(
    file: &'a str,
    number: GameNumber,
    report: &'a GameReport,
) -> ExportRecord<'a> {
    let tags = &report.tags;
    ExportRecord {
        number,
        file,
        event: &tags.event,
        site: &tags.site,
        date: &tags.date,
        round: &tags.round,
        white: &tags.white,
        black: &tags.black,
        result: &tags.result,
        plies: report.plies,
        outcome: report.classification.map(|c| c.outcome),
        winner: report.classification.map(|c| c.winner),
        result_consistent: report.classification.is_none_or(|c| c.result_consistent),
        final_fen: &report.final_fen,
        valid: report.errors == 0,
        error: &report.first_error,
        end_ply: report.end_ply,
        extra: &tags.extra,
    }
}

/// Runs `arbiter export`.
pub fn run(args: &ExportArgs) -> anyhow::Result<Exit> {
    let options = ReplayOptions {
        strict: false,
        extra_tags: args.tags.clone(),
    };
    let mut sink = match &args.output {
        Some(path) => Sink::file(path)?,
        None => Sink::stdout(),
    };
    let mut frame = RecordFormatter::new(args.format, args.tags.clone());
    let mut bytes = Vec::new();
    frame.header(&mut bytes);
    sink.write_all(&bytes)?;
    let totals = games::run(
        &args.paths,
        jobs(args.jobs),
        args.quiet,
        &options,
        || Exporter {
            records: RecordFormatter::new(args.format, args.tags.clone()),
        },
        &mut sink,
    )?;
    bytes.clear();
    frame.footer(totals.counts.games > 0, &mut bytes);
    sink.write_all(&bytes)?;
    sink.finish()?;
    Ok(if totals.input_errors > 0 {
        Exit::Usage
    } else if totals.counts.invalid > 0 {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}
