//! `arbiter export [PATH...] [--format csv|json|jsonl|parquet] [-o FILE] [--plies]`: one record
//! per game, in input order, with its outcome, or with `--plies` one row per main-line ply. Every
//! game the reader finds gets a record; an invalid one says why.
//!
//! The format is `--format`, else the one `-o FILE`'s extension names (`.csv`, `.json`, `.jsonl`,
//! `.ndjson` or `.parquet`, before a `.gz`, `.zst`, `.xz` or `.bz2` that compresses the file),
//! else CSV (for no `-o`, or one without an extension); any other extension is a usage error. Parquet goes to a file, or to standard output when it is no terminal; it compresses
//! its columns itself, so a Parquet file with a compression suffix is a usage error. `--tags`
//! names are trimmed; one that is a standard column already (in any case) or is given twice (in any
//! case) is a usage error.
//! With `-o FILE`, one line on stderr says how many games were written where, unless `--quiet`
//! (see [`crate::cli::output`] for how the file is written).

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{anyhow, bail};
use clap::{Args, ValueEnum};

use crate::cli::games::{GameRun, Ran, counted};
use crate::cli::numbers;
use crate::cli::output::{self, Written};
use crate::cli::severities::SeverityArgs;
use arbiter::parquet::{self, ParquetOptions, ParquetWriter};
use arbiter::rules::Position;
use arbiter::sink::{self, Compression, clash};
use arbiter::{
    Bytes, ColumnSet, ExportFormat, Filter, GameFormatter, GameRows, PLY_FIELDS, PlyColumns,
    PlyFormatter, RecordFormatter, ReplayOptions, Table, Targets, Totals, needs_numbers,
    reads_opening,
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
    /// .parquet, before a .gz, .zst, .xz or .bz2 suffix; csv without -o or for an -o without an
    /// extension; any other extension is refused).
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
    /// `white_elo >= 2500 and speed == "blitz"` (the language of `select --where`: arbiter help
    /// where).
    #[arg(long = "where", value_name = "EXPR", conflicts_with = "plies")]
    pub filter: Option<String>,
    /// Write only the games whose main line reaches this position, with the `position_ply`
    /// column (repeatable: any of them).
    #[arg(long, value_name = "FEN", conflicts_with = "plies")]
    pub position: Vec<String>,
    /// Add the eco_computed and opening_computed columns: the opening lichess's table (built in)
    /// names by position, the deepest of the first 40 plies it names.
    #[arg(long, conflicts_with = "plies")]
    pub eco: bool,
    /// Add a movetext column: the main line in SAN with move numbers (`1. e4 e5 2. Nf3`).
    #[arg(long, conflicts_with = "plies")]
    pub movetext: bool,
    /// The game row's columns: arbiter's own, or the lichess games dataset's names and types
    /// (Event, Site, ..., WhiteElo as int16, UTCDate as a date, UTCTime as a time, movetext)
    /// followed by arbiter's verdict columns, to union with that dataset and join on Site.
    #[arg(long, value_enum, default_value_t = ColumnsArg::Arbiter, conflicts_with = "plies")]
    pub columns: ColumnsArg,
    /// Write Parquet parts of at most N rows each into the directory -o names (new or empty),
    /// part-00000.parquet, part-00001.parquet..., and a _manifest.json (version, command, each
    /// input's size and SHA-256 as read, games, invalid games, rows per part); the directory
    /// appears whole with its manifest, or not at all.
    #[arg(long, value_name = "N", value_parser = numbers::positive)]
    pub rows_per_file: Option<u64>,
    /// Which codes are errors, as in validate: --strict, --deny, --allow.
    #[command(flatten)]
    pub severity: SeverityArgs,
}

/// `--columns`: which names and types a game row has.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum ColumnsArg {
    /// arbiter's columns (arbiter help columns lists them).
    Arbiter,
    /// The lichess games dataset's columns, then arbiter's verdict.
    Lichess,
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

/// `--position` and `--where`, checked (the expression knows `position_ply` when a position is
/// given).
pub fn tests(
    where_: Option<&str>,
    fens: &[String],
) -> anyhow::Result<(Option<Filter>, Vec<Position>)> {
    arbiter::game_tests(where_, fens).map_err(|err| anyhow!("--{err}"))
}

/// The format: `--format`, else the one `-o`'s extension names (before a compression suffix),
/// else CSV when `-o` has no extension (or there is no `-o`). Another extension (`.xlsx`,
/// `.tsv`, `.txt`) names no format export writes: a usage error, rather than CSV in a file named
/// for something else.
pub fn format(format: Option<FormatArg>, output: Option<&Path>) -> anyhow::Result<ExportFormat> {
    if let Some(format) = format {
        return Ok(format.into());
    }
    let Some(path) = output else {
        return Ok(ExportFormat::Csv);
    };
    Ok(match sink::format_extension(path).as_deref() {
        None | Some("csv") => ExportFormat::Csv,
        Some("json") => ExportFormat::Json,
        Some("jsonl" | "ndjson") => ExportFormat::Jsonl,
        Some("parquet") => ExportFormat::Parquet,
        Some(extension) => bail!(
            "-o {}: export writes CSV, JSON, JSON Lines or Parquet, and .{extension} names none \
             of them; name the file .csv, .json, .jsonl, .ndjson or .parquet (before a .gz, \
             .zst, .xz or .bz2 suffix), or give --format",
            path.display()
        ),
    })
}

/// The `--tags` names, trimmed; a usage error for an empty name, the name of one of `fixed`, the
/// row's standard columns, or a name given twice, in any case ([`arbiter::tag_columns`]).
pub fn tag_columns(tags: &[String], fixed: &[&str]) -> anyhow::Result<Vec<String>> {
    arbiter::tag_columns(tags, fixed).map_err(|err| anyhow!("--{err}"))
}

/// Runs `arbiter export`: the header, a record (or the ply rows) of every game, the footer.
pub fn run(args: &ExportArgs) -> anyhow::Result<Ran> {
    let set = match args.columns {
        ColumnsArg::Arbiter => ColumnSet::Arbiter {
            eco: args.eco,
            movetext: args.movetext,
        },
        ColumnsArg::Lichess if args.eco => {
            bail!(
                "--eco adds arbiter's opening columns; --columns lichess has the ECO and Opening tags"
            )
        }
        ColumnsArg::Lichess => ColumnSet::Lichess,
    };
    let tags = if args.plies {
        tag_columns(&args.tags, &PLY_FIELDS)?
    } else {
        let fixed = set.columns(!args.position.is_empty(), &[]);
        tag_columns(
            &args.tags,
            &fixed.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        )?
    };
    let (filter, positions) = tests(args.filter.as_deref(), &args.position)?;
    let path = output::path(args.run.output.as_deref());
    // An -o that is one of the inputs is said first, before anything about its name.
    clash::check(&[("-o", path)], &args.run.paths)?;
    if args.rows_per_file.is_some() {
        if path.is_none() {
            bail!("--rows-per-file writes Parquet parts into a directory: give -o DIR");
        }
        if args.format.is_some_and(|f| f != FormatArg::Parquet) {
            bail!("--rows-per-file writes Parquet parts; leave out --format or say parquet");
        }
    }
    let format = if args.rows_per_file.is_some() {
        ExportFormat::Parquet
    } else {
        format(args.format, path)?
    };
    if format == ExportFormat::Parquet && args.rows_per_file.is_none() {
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
        severities: args.severity.severities()?,
        extra_tags: tags.clone(),
        plies: args.plies || set.needs_moves(),
        comments: args.comments,
        // The tree only for a filter that reads tags: it knows a tag's presence.
        tree: filter.as_ref().is_some_and(|f| !f.tags().is_empty()),
        eco: set.has_opening() || filter.as_ref().is_some_and(reads_opening),
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
        write(
            &args.run,
            jobs,
            args.rows_per_file,
            &options,
            table.table(),
            make,
        )?
    } else {
        let position = !positions.is_empty();
        let make = || GameRows {
            records: RecordFormatter::with_position(format, set, position, &tags),
            filter: filter.as_ref(),
            positions: position,
        };
        let table = make();
        write(
            &args.run,
            jobs,
            args.rows_per_file,
            &options,
            table.records.table(),
            make,
        )?
    };
    let rows = if args.plies {
        format!(" ({})", counted(rows, "ply row"))
    } else {
        String::new()
    };
    let parts = match &sink {
        Written::Parts(parts) => format!(" in {}", counted(parts.len() as u64, "part")),
        Written::Sink(_) => String::new(),
    };
    let wrote = args.run.wrote(format_args!(
        "{}{rows}{parts}",
        counted(totals.games, "game")
    ));
    Ok(Ran {
        keep_going: args.run.keep_going,
        totals,
        output: sink,
        wrote,
    })
}

/// Runs the games through formatters from `make` and writes `table`'s format to the output:
/// header, rows in input order, footer; or, with `rows_per_file`, Parquet parts of that many
/// rows into the `-o` directory. Returns the totals, how many rows were written, and the output,
/// to be closed.
fn write<F: GameFormatter>(
    run: &GameRun,
    jobs: usize,
    rows_per_file: Option<u64>,
    options: &ReplayOptions,
    table: &Table,
    make: impl Fn() -> F + Sync,
) -> anyhow::Result<(Totals, u64, Written)> {
    if let (Some(rows_per_file), Some(dir)) = (rows_per_file, output::path(run.output.as_deref())) {
        let mut shards = output::open_parts(dir, table.columns(), rows_per_file)?;
        let totals = run.run_on(jobs, options, &make, &mut shards)?;
        let rows = shards.rows();
        return Ok((totals, rows, Written::Parts(shards.finish()?)));
    }
    let sink = run.open()?;
    if table.format() == ExportFormat::Parquet {
        let mut writer = ParquetWriter::new(sink, table.columns(), ParquetOptions::default())
            .map_err(parquet::io_error)?;
        let totals = run.run_on(jobs, options, &make, &mut writer)?;
        let rows = writer.rows();
        let sink = writer.finish().map_err(parquet::io_error)?;
        return Ok((totals, rows, Written::Sink(Box::new(sink))));
    }
    let mut bytes = Vec::new();
    table.header(&mut bytes);
    let mut out = Bytes { out: sink, rows: 0 };
    out.out.write_all(&bytes)?;
    let totals = run.run_on(jobs, options, &make, &mut out)?;
    bytes.clear();
    table.footer(out.rows > 0, &mut bytes);
    out.out.write_all(&bytes)?;
    Ok((totals, out.rows, Written::Sink(Box::new(out.out))))
}
