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
use arbiter::export::{self, ExportOptions, ExportPlan};
use arbiter::io::sink::clash;
use arbiter::report::output::Bytes;
use arbiter::report::parquet::{self, ParquetOptions, ParquetWriter};
use arbiter::{ExportFormat, ReplayOptions, Totals};
use clap::{Args, ValueEnum};

use crate::cli::games::{GameRun, Ran, counted};
use crate::cli::numbers;
use crate::cli::output::{self, Written};
use crate::cli::severities::SeverityArgs;

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
pub(crate) struct ExportArgs {
    /// The inputs, the output, jobs and progress.
    #[command(flatten)]
    pub(crate) run: GameRun,
    /// Output format (default: the one -o's extension names, .csv, .json, .jsonl, .ndjson or
    /// .parquet, before a .gz, .zst, .xz or .bz2 suffix; csv without -o or for an -o without an
    /// extension; any other extension is refused).
    #[arg(long, value_enum)]
    pub(crate) format: Option<FormatArg>,
    /// Extra tag columns, appended in this order, e.g. `WhiteTitle,BlackTitle,Annotator` (not a
    /// standard column, none twice, in any case).
    #[arg(long, value_delimiter = ',', value_name = "TAG,...")]
    pub(crate) tags: Vec<String>,
    /// One row per main-line ply instead of one per game: SAN, UCI, clock, time spent,
    /// evaluation and NAGs of each move.
    #[arg(long)]
    pub(crate) plies: bool,
    /// With --plies: add the FEN after each move.
    #[arg(long, requires = "plies")]
    pub(crate) fen: bool,
    /// With --plies: add the text of each move's comments.
    #[arg(long, requires = "plies")]
    pub(crate) comments: bool,
    /// Write only the games that pass EXPR, a test over the export fields and the tags, e.g.
    /// `white_elo >= 2500 and speed == "blitz"` (the language of `select --where`: arbiter help
    /// where); with --plies, the ply rows of those games.
    #[arg(long = "where", value_name = "EXPR")]
    pub(crate) filter: Option<String>,
    /// Write only the games whose main line reaches this position, with the `position_ply`
    /// column (repeatable: any of them); with --plies, their ply rows, each with the game's
    /// `position_ply`.
    #[arg(long, value_name = "FEN")]
    pub(crate) position: Vec<String>,
    /// Add the eco_computed and opening_computed columns: the opening lichess's table (built in)
    /// names by position, the deepest of the first 40 plies it names (with --plies, the game's,
    /// on each of its ply rows).
    #[arg(long)]
    pub(crate) eco: bool,
    /// Add a movetext column: the main line in SAN with move numbers (`1. e4 e5 2. Nf3`); game
    /// rows only (ply rows are the main line, one move a row).
    #[arg(long)]
    pub(crate) movetext: bool,
    /// The game row's columns: arbiter's own, or the lichess games dataset's names and types
    /// (Event, Site, ..., WhiteElo as int16, UTCDate as a date, UTCTime as a time, movetext)
    /// followed by arbiter's verdict columns, to union with that dataset and join on Site.
    #[arg(long, value_enum, default_value_t = ColumnsArg::Arbiter, conflicts_with = "plies")]
    pub(crate) columns: ColumnsArg,
    /// Write Parquet parts of at most N rows each into the directory -o names (new or empty),
    /// part-00000.parquet, part-00001.parquet..., and a _manifest.json (version, command, each
    /// input's size and SHA-256 as read, games, invalid games, rows per part); the directory
    /// appears whole with its manifest, or not at all.
    #[arg(long, value_name = "N", value_parser = numbers::positive)]
    pub(crate) rows_per_file: Option<u64>,
    /// Which codes are errors, as in validate: --strict, --deny, --allow.
    #[command(flatten)]
    pub(crate) severity: SeverityArgs,
}

/// `--columns`: which names and types a game row has.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum ColumnsArg {
    /// arbiter's columns (arbiter help columns lists them).
    Arbiter,
    /// The lichess games dataset's columns, then arbiter's verdict.
    Lichess,
}

/// `--format`: the library's [`ExportFormat`], named and explained for the command line.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum FormatArg {
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

/// The format: `--parquet` for `--rows-per-file`, else `--format`, else the one `-o`'s name asks
/// for ([`ExportFormat::of_output`]: CSV for a name without an extension; one that names no
/// format export writes, `.xlsx`, `.tsv`, `.txt`, is a usage error rather than CSV in a file named
/// for something else), else CSV.
fn format(args: &ExportArgs, output: Option<&Path>) -> anyhow::Result<ExportFormat> {
    Ok(match (args.rows_per_file, args.format, output) {
        (Some(_), _, _) => ExportFormat::Parquet,
        (None, Some(format), _) => format.into(),
        (None, None, Some(path)) => {
            ExportFormat::of_output(path).map_err(|err| anyhow!("-o {err}"))?
        }
        (None, None, None) => ExportFormat::Csv,
    })
}

/// Runs `arbiter export`: the header, a record (or the ply rows) of every game, the footer.
pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<Ran> {
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
    let format = format(args, path)?;
    let options = ExportOptions {
        plies: args.plies,
        fen: args.fen,
        comments: args.comments,
        lichess: args.columns == ColumnsArg::Lichess,
        eco: args.eco,
        movetext: args.movetext,
        tags: args.tags.clone(),
        filter: args.filter.clone(),
        positions: args.position.clone(),
    };
    let plan = ExportPlan::new(&options, format).map_err(|err| anyhow!("--{err}"))?;
    if format == ExportFormat::Parquet && args.rows_per_file.is_none() {
        if path.is_none() && std::io::stdout().is_terminal() {
            bail!(
                "--format parquet writes a binary file: give -o FILE, or send standard output to \
                 a file or a pipe"
            );
        }
        if let Some(why) = path.and_then(|path| export::unfit_output(format, path)) {
            bail!("-o {why}");
        }
    }
    let options = ReplayOptions {
        severities: args.severity.severities()?,
        ..plan.replay_options()
    };
    let (totals, rows, sink) = write(&args.run, args.rows_per_file, &plan, &options)?;
    let rows = if plan.plies() {
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
        counted(totals.counts.games, "game")
    ));
    Ok(Ran {
        keep_going: args.run.keep_going,
        totals,
        output: sink,
        wrote,
    })
}

/// Runs the games through `plan`'s formatters and writes its table: header, rows in input order,
/// footer; or, with `rows_per_file`, Parquet parts of that many rows into the `-o` directory.
/// Returns the totals, how many rows were written, and the output, to be closed.
fn write(
    run: &GameRun,
    rows_per_file: Option<u64>,
    plan: &ExportPlan,
    options: &ReplayOptions,
) -> anyhow::Result<(Totals, u64, Written)> {
    let table = plan.table();
    let jobs = plan.jobs(run.jobs());
    let make = || plan.formatter();
    if let (Some(rows_per_file), Some(dir)) = (rows_per_file, output::path(run.output.as_deref())) {
        let mut shards = output::open_parts(dir, table.columns(), rows_per_file)?;
        let totals = run.run_on(jobs, options, make, &mut shards)?;
        let rows = shards.rows();
        return Ok((totals, rows, Written::Parts(shards.finish()?)));
    }
    let sink = run.open()?;
    if table.format() == ExportFormat::Parquet {
        let mut writer = ParquetWriter::new(sink, table.columns(), ParquetOptions::default())
            .map_err(parquet::io_error)?;
        let totals = run.run_on(jobs, options, make, &mut writer)?;
        let rows = writer.rows();
        let sink = writer.finish().map_err(parquet::io_error)?;
        return Ok((totals, rows, Written::Sink(Box::new(sink))));
    }
    let mut bytes = Vec::new();
    table.header(&mut bytes);
    let mut out = Bytes { out: sink, rows: 0 };
    out.out.write_all(&bytes)?;
    let totals = run.run_on(jobs, options, make, &mut out)?;
    bytes.clear();
    table.footer(out.rows > 0, &mut bytes);
    out.out.write_all(&bytes)?;
    Ok((totals, out.rows, Written::Sink(Box::new(out.out))))
}
