//! `arbiter export [PATH...] [--format csv|json|jsonl] [-o FILE]`: one record per game, in input
//! order, with its outcome. Every game the reader finds gets a record; an invalid one says why.
//!
//! The format is `--format`, else the one `-o FILE`'s extension names (`.csv`, `.json`, `.jsonl`
//! or `.ndjson`), else CSV. `--tags` names are trimmed; one that is a standard column already or
//! is given twice is a usage error. With `-o FILE`, one line on stderr says how many games were
//! written where, unless `--quiet`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Args;

use crate::cli::exit::Exit;
use crate::cli::games::{self, GameFormatter};
use crate::cli::validate::{jobs, parse_jobs, sink};
use crate::replay::{GameReport, ReplayOptions};
use crate::report::output::{GameNumber, Output};
use crate::report::record::{ExportFormat, ExportRecord, FIELDS, RecordFormatter};

/// Arguments of `arbiter export`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter export games.pgn -o games.csv\n  \
    arbiter export archive/ --format jsonl --tags WhiteElo,BlackElo,ECO | head\n  \
    zstdcat lichess.pgn.zst | arbiter export --format json -o outcomes.json")]
pub struct ExportArgs {
    /// PGN files, directories (searched for *.pgn, *.pgn.gz, *.pgn.zst, *.pgn.bz2, *.pgn.xz) or
    /// path patterns; `-` or nothing reads standard input.
    pub paths: Vec<PathBuf>,
    /// Output format (default: the one -o's extension names, .csv, .json, .jsonl or .ndjson;
    /// else csv).
    #[arg(long, value_enum)]
    pub format: Option<ExportFormat>,
    /// Write to FILE (through a temporary file renamed at the end) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Extra tag columns, appended in this order, e.g. `WhiteElo,BlackElo,ECO` (not a standard
    /// column, none twice).
    #[arg(long, value_delimiter = ',', value_name = "TAG,...")]
    pub tags: Vec<String>,
    /// Worker threads, 1 or more (default: the number of available cores).
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Show no progress bar, and no line saying where the output went.
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

/// The format: `--format`, else the one `-o`'s extension names, else CSV.
pub fn format(format: Option<ExportFormat>, output: Option<&Path>) -> ExportFormat {
    let extension = output
        .and_then(Path::extension)
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    format.unwrap_or(match extension.as_deref() {
        Some("json") => ExportFormat::Json,
        Some("jsonl" | "ndjson") => ExportFormat::Jsonl,
        _ => ExportFormat::Csv,
    })
}

/// The `--tags` names, trimmed; a usage error for an empty name, a standard column's name (in
/// any case: `Event` is the `event` column) or a name given twice.
pub fn tag_columns(tags: &[String]) -> anyhow::Result<Vec<String>> {
    let mut names: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        let name = tag.trim();
        if name.is_empty() {
            bail!("--tags: empty tag name in {:?}", tags.join(","));
        }
        if let Some(field) = FIELDS.iter().find(|f| f.eq_ignore_ascii_case(name)) {
            bail!("--tags: {name} is already the standard column {field}");
        }
        if names.iter().any(|n| n == name) {
            bail!("--tags: {name} is given twice");
        }
        names.push(name.to_owned());
    }
    Ok(names)
}

/// Runs `arbiter export`.
pub fn run(args: &ExportArgs) -> anyhow::Result<Exit> {
    let tags = match tag_columns(&args.tags) {
        Ok(tags) => tags,
        Err(err) => {
            crate::cli::report_error(format_args!("{err:#}"));
            return Ok(Exit::Usage);
        }
    };
    let format = format(args.format, args.output.as_deref());
    let options = ReplayOptions {
        strict: false,
        extra_tags: tags.clone(),
    };
    let mut sink = sink(args.output.as_deref())?;
    let mut frame = RecordFormatter::new(format, tags.clone());
    let mut bytes = Vec::new();
    frame.header(&mut bytes);
    sink.write_all(&bytes)?;
    let totals = games::run(
        &args.paths,
        jobs(args.jobs),
        args.quiet,
        &options,
        || Exporter {
            records: RecordFormatter::new(format, tags.clone()),
        },
        &mut sink,
    )?;
    bytes.clear();
    frame.footer(totals.counts.games > 0, &mut bytes);
    sink.write_all(&bytes)?;
    sink.finish()?;
    if let Some(path) = &args.output
        && !args.quiet
    {
        let games = totals.counts.games;
        let plural = if games == 1 { "" } else { "s" };
        let _ = writeln!(
            std::io::stderr().lock(),
            "arbiter: wrote {games} game{plural} to {}",
            path.display()
        );
    }
    Ok(if totals.input_errors > 0 {
        Exit::Usage
    } else if totals.counts.invalid > 0 {
        Exit::Invalid
    } else {
        Exit::Ok
    })
}
