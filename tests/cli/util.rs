//! Helpers for running the binary and comparing its output.

use std::process::{Command, Output};

/// Runs `arbiter` with `args` and returns its output.
pub fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}
