//! `arbiter perft DEPTH [FEN] [--divide] [--chess960] [--format text|json]`: count the leaf
//! nodes of the legal move tree.
//!
//! The FEN may be one argument or several words, or `startpos` (the default), as for `moves`;
//! `--fen FEN` is kept as an alias. Text output (stdout): without `--divide`, the node count
//! alone on one line. With `--divide`, one line per legal move, sorted by its UCI text,
//! `e2e4: 20` (castling is king-to-destination `e1g1`, or king-to-rook `e1h1` in Chess960
//! positions), then a blank line and `total: N`. JSON output: one object,
//! `{"depth","nodes","seconds","nodes_per_second"}`, with `"divide":[{"move","nodes"}]` added
//! under `--divide`.
//!
//! A bad FEN is a usage error (exit 2) naming every defect. Positions with an impossible check
//! or impossible material are accepted, as perft suites contain some. The FEN is standard chess
//! unless `--chess960` is given or its castling field uses Shredder letters (`HAha`).

use std::io::Write;
use std::time::Instant;

use anyhow::anyhow;
use arbiter::core::position::{Checks, named};
use arbiter::io::Sink;
use arbiter::rules::{self, Position};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::cli::exit::Exit;
use crate::cli::numbers;

/// Arguments of `arbiter perft`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter perft 6\n  \
    arbiter perft 3 --divide r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n  \
    arbiter perft 4 --chess960 --format json 'nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1'")]
pub(crate) struct PerftArgs {
    /// How many plies deep to count (it comes before the position).
    #[arg(value_parser = numbers::depth)]
    pub(crate) depth: u32,
    /// The position, as FEN (one quoted argument or several words), or `startpos` (the
    /// default). Impossible checks and impossible material are accepted.
    #[arg(num_args = 0.., value_name = "FEN", conflicts_with = "fen_option")]
    pub(crate) fen: Vec<String>,
    /// The position, as FEN (the same as the FEN argument, kept for older scripts).
    #[arg(long = "fen", value_name = "FEN", hide = true)]
    pub(crate) fen_option: Option<String>,
    /// Print the count after each legal move, then the total.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Read the FEN as Chess960 (`K`/`Q` castling rights name the outermost rooks, X-FEN), and
    /// write castling king-to-rook in UCI.
    #[arg(long)]
    pub(crate) chess960: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

/// Output formats of `arbiter perft`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum Format {
    /// The node count (or the divide lines and `total: N`).
    Text,
    /// One JSON object: `{"depth","nodes","seconds","nodes_per_second"}` (and `"divide"`).
    Json,
}

/// One move of the divide list in JSON.
#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    uci: String,
    nodes: u64,
}

/// The JSON output, fields in this order.
#[derive(Serialize)]
struct JsonPerft {
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<JsonMove>>,
}

/// The position the arguments name.
fn position(args: &PerftArgs) -> anyhow::Result<Position> {
    let text = match &args.fen_option {
        Some(fen) => fen.trim().to_owned(),
        None => args.fen.join(" ").trim().to_owned(),
    };
    let text = if text.is_empty() { "startpos" } else { &text };
    named(text, args.chess960, Checks::Lenient).map_err(|err| anyhow!("{err}"))
}

/// Runs `arbiter perft`.
pub(crate) fn run(args: &PerftArgs) -> anyhow::Result<Exit> {
    let pos = position(args)?;
    let started = Instant::now();
    let divide = args.divide.then(|| {
        let chess960 = pos.is_chess960();
        let mut lines: Vec<(String, u64)> = rules::divide(&pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_uci(chess960).to_string(), n))
            .collect();
        lines.sort();
        lines
    });
    let nodes = match &divide {
        Some(lines) => lines.iter().map(|(_, n)| n).sum(),
        None => rules::perft(&pos, args.depth),
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut out = Sink::stdout();
    match args.format {
        Format::Text => {
            if let Some(lines) = &divide {
                for (uci, n) in lines {
                    writeln!(out, "{uci}: {n}")?;
                }
                writeln!(out)?;
                writeln!(out, "total: {nodes}")?;
            } else {
                writeln!(out, "{nodes}")?;
            }
        }
        Format::Json => {
            let json = JsonPerft {
                depth: args.depth,
                nodes,
                seconds,
                nodes_per_second: if seconds > 0.0 {
                    nodes as f64 / seconds
                } else {
                    0.0
                },
                divide: divide.map(|lines| {
                    lines
                        .into_iter()
                        .map(|(uci, nodes)| JsonMove { uci, nodes })
                        .collect()
                }),
            };
            serde_json::to_writer(&mut out, &json)?;
            writeln!(out)?;
        }
    }
    out.finish()?;
    Ok(Exit::Ok)
}
