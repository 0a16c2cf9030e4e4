//! `arbiter perft DEPTH`: count the leaf nodes of the legal move tree.

use clap::Args;

use crate::cli::exit::Exit;

/// Arguments of `arbiter perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// How many plies deep to count.
    pub depth: u32,
}

/// Runs `arbiter perft`.
pub fn run(_args: &PerftArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("perft is being built")
}
