//! `arbiter export [PATH...] [--format csv|json|jsonl|parquet] [-o FILE] [--plies]`: one record
//! per game, in input order, with its outcome, or with `--plies` one row per main-line ply. Every
//! game the reader finds gets a record; an invalid one says why.
//!
//! The format is `--format`, else the one `-o FILE`'s extension names (`.csv`, `.json`, `.jsonl`,
//! `.ndjson` or `.parquet`, before a `.gz`, `.zst`, `.xz` or `.bz2` that compresses the file),
//! else CSV. Parquet goes to a file, or to standard output when it is no terminal; it compresses
//! its columns itself, so a Parquet file with a compression suffix is a usage error. `--tags`
//! names are trimmed; one that is a standard column already (in any case) or is given twice (in any
//! case) is a usage error.
//! With `-o FILE`, one line on stderr says how many games were written where, unless `--quiet`
//! (see [`crate::cli::output`] for how the file is written).

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::bail;
use clap::{Args, ValueEnum};

use crate::cli::games::{GameRun, Ran, counted};
use crate::cli::output;
use arbiter::parquet::{self, ParquetOptions, ParquetWriter};
use arbiter::rules::Position;
use arbiter::sink::{self, Compression, Sink};
use arbiter::{
    Bytes, ExportFormat, ExportRecord, FIELDS, Filter, GameFormatter, GameNumber, GameReport,
    Output, PlyColumns, PlyFormatter, RecordFields, RecordFormatter, ReplayOptions, Table, Targets,
    Totals, needs_numbers, record_schema,
};

/// Arguments of `arbiter export`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter export games.pgn -o games.csv\n  \
    arbiter export archive/ --format jsonl --tags WhiteTitle,BlackTitle,Annotator | head\n  \
    zstdcat lichess.pgn.zst | arbiter export --format json -o outcomes.json\n  \
    arbiter export lichess.pgn.zst -o games.parquet\n  \
    arbiter export lichess.pgn.zst --plies --fen -o plies.parquet\n  \
    arbiter export games.pgn --where 'white_elo >= 2500 and not valid' --format jsonl\n  \
    arbiter export games.pgn --position 'r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq -'")]
pub struct ExportArgs {
    /// The inputs, the output, jobs and progress.
    #[command(flatten)]
    pub run: GameRun,
    /// Output format (default: the one -o's extension names, .csv, .json, .jsonl, .ndjson or
    /// .parquet, before a .gz, .zst, .xz or .bz2 suffix; else csv).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Extra tag columns, appended in this order, e.g. `WhiteTitle,BlackTitle,Annotator` (not a
    /// standard column, none twice, in any case).
    #[arg(long, value_delimiter = ',', value_name = "TAG,...")]
    pub tags: Vec<String>,
    /// One row per main-line ply instead of one per game: SAN, UCI, clock, time spent,
    /// evaluation and NAGs of each move.
    #[arg(long)]
    pub plies: bool,
    /// With --plies: add the FEN after each move.
    #[arg(long, requires = "plies")]
    pub fen: bool,
    /// With --plies: add the text of each move's comments.
    #[arg(long, requires = "plies")]
    pub comments: bool,
    /// Write only the games that pass EXPR, a test over the export fields and the tags, e.g.
    /// `white_elo >= 2500 and speed == "blitz"` (the language of `select --where`,
    /// docs/select.md).
    #[arg(long = "where", value_name = "EXPR", conflicts_with = "plies")]
    pub filter: Option<String>,
    /// Write only the games whose main line reaches this position, with the `position_ply`
    /// column (repeatable: any of them).
    #[arg(long, value_name = "FEN", conflicts_with = "plies")]
    pub position: Vec<String>,
}

/// `--format`: the library's [`ExportFormat`], named and explained for the command line.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum FormatArg {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON array of objects.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// An Apache Parquet file of typed, zstd-compressed columns (to -o FILE, or to standard
    /// output sent to a file or a pipe, not a terminal).
    Parquet,
}

impl From<FormatArg> for ExportFormat {
    fn from(format: FormatArg) -> ExportFormat {
        match format {
            FormatArg::Csv => ExportFormat::Csv,
            FormatArg::Json => ExportFormat::Json,
            FormatArg::Jsonl => ExportFormat::Jsonl,
            FormatArg::Parquet => ExportFormat::Parquet,
        }
    }
}

/// Formats each game that passes `--where` and `--position` as one export record.
struct Exporter<'a> {
    records: RecordFormatter,
    /// `--where`.
    filter: Option<&'a Filter>,
    /// `--position` was given.
    positions: bool,
}

impl GameFormatter for Exporter<'_> {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        if self.positions && report.position_ply.is_none() {
            return;
        }
        let record = ExportRecord::from_report(source, number, report);
        if let Some(filter) = self.filter {
            let tags = |name: &str| report.tree.tag_value(name);
            if !filter.matches(&RecordFields::new(&record, self.positions, &tags)) {
                return;
            }
        }
        self.records.record(&record, out);
    }
}

/// `--position` and `--where`, checked (the expression knows `position_ply` when a position is
/// given).
pub fn tests(
    where_: Option<&str>,
    fens: &[String],
) -> anyhow::Result<(Option<Filter>, Vec<Position>)> {
    let mut positions = Vec::new();
    for fen in fens {
        match Position::from_fen(fen) {
            Ok(pos) => positions.push(pos),
            Err(err) => bail!("--position {fen:?}: invalid fen: {err}"),
        }
    }
    let filter = match where_ {
        None => None,
        Some(text) => match Filter::parse(text, &record_schema(!positions.is_empty())) {
            Ok(filter) => Some(filter),
            Err(err) => bail!("--where: {err}\n{}", err.show(text)),
        },
    };
    Ok((filter, positions))
}

/// The format: `--format`, else the one `-o`'s extension names (before a compression suffix),
/// else CSV.
pub fn format(format: Option<FormatArg>, output: Option<&Path>) -> ExportFormat {
    let extension = output.and_then(sink::format_extension);
    format.map_or(
        match extension.as_deref() {
            Some("json") => ExportFormat::Json,
            Some("jsonl" | "ndjson") => ExportFormat::Jsonl,
            Some("parquet") => ExportFormat::Parquet,
            _ => ExportFormat::Csv,
        },
        ExportFormat::from,
    )
}

/// The `--tags` names, trimmed; a usage error for an empty name, a standard column's name (in
/// any case: `Event` is the `event` column) or a name given twice (in any case: `Foo` and `foo`
/// would be one column to DuckDB).
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
        if let Some(same) = names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
            if same == name {
                bail!("--tags: {name} is given twice");
            }
            bail!(
                "--tags: {name} and {same} differ only in case; DuckDB and pandas would not tell \
                 the two columns apart"
            );
        }
        names.push(name.to_owned());
    }
    Ok(names)
}

/// Runs `arbiter export`: the header, a record (or the ply rows) of every game, the footer.
pub fn run(args: &ExportArgs) -> anyhow::Result<Ran> {
    let tags = tag_columns(&args.tags)?;
    let (filter, positions) = tests(args.filter.as_deref(), &args.position)?;
    let path = output::path(args.run.output.as_deref());
    let format = format(args.format, path);
    if format == ExportFormat::Parquet {
        if path.is_none() && std::io::stdout().is_terminal() {
            bail!(
                "--format parquet writes a binary file: give -o FILE, or send standard output to \
                 a file or a pipe"
            );
        }
        if let Some((path, compression)) = path.and_then(|p| Some((p, Compression::of(p)?))) {
            bail!(
                "-o {}: Parquet compresses its columns itself; leave out the {} suffix",
                path.display(),
                compression.suffix()
            );
        }
    }
    let options = ReplayOptions {
        extra_tags: tags.clone(),
        plies: args.plies,
        comments: args.comments,
        // The tree only for a filter that reads tags: it knows a tag's presence.
        tree: filter.as_ref().is_some_and(|f| !f.tags().is_empty()),
        eco: !args.plies,
        positions: Targets::new(&positions),
        ..ReplayOptions::default()
    };
    // `index` and `game` are known on one job only (parts of an input are numbered later).
    let jobs = if filter.as_ref().is_some_and(needs_numbers) {
        1
    } else {
        args.run.jobs()
    };
    let (totals, rows, sink) = if args.plies {
        let wanted = PlyColumns {
            fen: args.fen,
            comment: args.comments,
        };
        let make = || PlyFormatter::new(format, wanted, &tags);
        let table = make();
        write(&args.run, jobs, &options, table.table(), make)?
    } else {
        let position = !positions.is_empty();
        let make = || Exporter {
            records: RecordFormatter::with_position(format, tags.clone(), position),
            filter: filter.as_ref(),
            positions: position,
        };
        let table = make();
        write(&args.run, jobs, &options, table.records.table(), make)?
    };
    let rows = if args.plies {
        format!(" ({})", counted(rows, "ply row"))
    } else {
        String::new()
    };
    let wrote = args
        .run
        .wrote(format_args!("{}{rows}", counted(totals.games, "game")));
    Ok(Ran {
        totals,
        sink,
        wrote,
    })
}

/// Runs the games through formatters from `make` and writes `table`'s format to the output:
/// header, rows in input order, footer. Returns the totals, how many rows were written, and the
/// output, to be closed.
fn write<F: GameFormatter>(
    run: &GameRun,
    jobs: usize,
    options: &ReplayOptions,
    table: &Table,
    make: impl Fn() -> F + Sync,
) -> anyhow::Result<(Totals, u64, Sink)> {
    let sink = run.open()?;
    if table.format() == ExportFormat::Parquet {
        let mut writer = ParquetWriter::new(sink, table.columns(), ParquetOptions::default())
            .map_err(parquet::io_error)?;
        let totals = run.run_on(jobs, options, &make, &mut writer)?;
        let rows = writer.rows();
        let sink = writer.finish().map_err(parquet::io_error)?;
        return Ok((totals, rows, sink));
    }
    let mut bytes = Vec::new();
    table.header(&mut bytes);
    let mut out = Bytes { out: sink, rows: 0 };
    out.out.write_all(&bytes)?;
    let totals = run.run_on(jobs, options, &make, &mut out)?;
    bytes.clear();
    table.footer(out.rows > 0, &mut bytes);
    out.out.write_all(&bytes)?;
    Ok((totals, out.rows, out.out))
}
