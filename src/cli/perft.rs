//! `arbiter perft DEPTH [--fen FEN] [--divide]`: count the leaf nodes of the legal move tree.
//!
//! Output (stdout): without `--divide`, the node count alone on one line. With `--divide`, one
//! line per legal move, sorted by its UCI text, `e2e4: 20` (castling is king-to-destination
//! `e1g1`, or king-to-rook `e1h1` in Chess960 positions), then a blank line and `total: N`.
//! A bad FEN is a usage error (exit 2) naming every defect; positions with an impossible check
//! are accepted, as perft suites contain some.

use std::io::{self, Write};

use anyhow::anyhow;
use clap::Args;

use crate::cli::exit::Exit;
use crate::rules::{self, Position};

/// Arguments of `arbiter perft`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arbiter perft 6\n  \
    arbiter perft 3 --divide --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'")]
pub struct PerftArgs {
    /// How many plies deep to count.
    pub depth: u32,
    /// The position, as FEN, or `startpos` (the default). Impossible checks are accepted.
    #[arg(long, default_value = "startpos")]
    pub fen: String,
    /// Print the count after each legal move, then the total.
    #[arg(long)]
    pub divide: bool,
}

/// Runs `arbiter perft`.
pub fn run(args: &PerftArgs) -> anyhow::Result<Exit> {
    let pos = if args.fen.trim() == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen_lenient(&args.fen).map_err(|err| anyhow!("{err}"))?
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.divide {
        let chess960 = pos.is_chess960();
        let mut lines: Vec<(String, u64)> = rules::divide(&pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_uci(chess960).to_string(), n))
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (uci, n) in &lines {
            writeln!(out, "{uci}: {n}")?;
        }
        writeln!(out)?;
        writeln!(out, "total: {total}")?;
    } else {
        writeln!(out, "{}", rules::perft(&pos, args.depth))?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}
