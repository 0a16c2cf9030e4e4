//! `arbiter moves FEN`: the legal moves and status of a position.

use clap::Args;

use crate::cli::exit::Exit;

/// Arguments of `arbiter moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position, as FEN, or `startpos`.
    pub fen: String,
}

/// Runs `arbiter moves`.
pub fn run(_args: &MovesArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("moves is being built")
}
