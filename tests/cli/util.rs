//! Helpers for running the binary and finding test data.

use std::process::Output;

pub use crate::shared_data::run::{Input, binary, command, run};
pub use crate::shared_data::shared;

/// Runs `arbiter` with `args` and returns its output.
pub fn arbiter(args: &[&str]) -> Output {
    run(args, Input::Null).into()
}

/// Runs `arbiter` with `args`, feeding `input` on stdin.
pub fn arbiter_stdin(args: &[&str], input: &[u8]) -> Output {
    run(args, Input::Bytes(input)).into()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fixture of this repository's `testdata/`.
pub fn fixture(path: &str) -> String {
    crate::shared_data::fixture(path).display().to_string()
}

/// Parses JSON Lines output.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}
