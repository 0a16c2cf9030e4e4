//! `arbiter export [PATH...] --format csv|json|jsonl`: one record per game, in input order, with
//! its outcome. Every game the reader finds gets a record; an invalid one says why.

use std::path::PathBuf;

use clap::Args;

use crate::cli::exit::Exit;
use crate::cli::games::{self, GameFormatter};
use crate::cli::validate::jobs;
use crate::replay::{GameReport, ReplayOptions};
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
    record: ExportRecord,
}

impl GameFormatter for Exporter {
    fn format(&mut self, _source: &str, index: u64, report: &GameReport, out: &mut Vec<u8>) {
        fill_record(&mut self.record, index, report);
        self.records.record(&self.record, index == 1, out);
    }
}

/// Copies a report into a reusable record (public for the benchmarks).
pub fn fill_record(record: &mut ExportRecord, index: u64, report: &GameReport) {
    let tags = &report.tags;
    record.index = index;
    for (field, value) in [
        (&mut record.event, &tags.event),
        (&mut record.site, &tags.site),
        (&mut record.date, &tags.date),
        (&mut record.round, &tags.round),
        (&mut record.white, &tags.white),
        (&mut record.black, &tags.black),
        (&mut record.result, &tags.result),
        (&mut record.final_fen, &report.final_fen),
        (&mut record.error, &report.first_error),
    ] {
        field.clone_from(value);
    }
    record.plies = report.plies;
    record.outcome = report.classification.map(|c| c.outcome);
    record.winner = report.classification.map(|c| c.winner);
    record.result_consistent = report.classification.is_none_or(|c| c.result_consistent);
    record.valid = report.main_line_valid;
    record.extra.clone_from(&tags.extra);
}

/// Runs `arbiter export`.
pub fn run(args: &ExportArgs) -> anyhow::Result<Exit> {
    let options = ReplayOptions {
        variations: false,
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
            record: ExportRecord::default(),
        },
        |batch| Ok(sink.write_all(&batch.bytes)?),
    )?;
    bytes.clear();
    frame.footer(totals.counts.games > 0, &mut bytes);
    sink.write_all(&bytes)?;
    sink.finish()?;
    Ok(if totals.input_errors > 0 {
        Exit::Usage
    } else if totals.counts.invalid_main_lines > 0 {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}
