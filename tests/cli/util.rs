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

/// `-` for JSON null or an empty string, else the value as text (how the fixtures' `Expect` tags
/// write a record's fields).
pub fn field(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "-".to_owned(),
        serde_json::Value::String(s) if s.is_empty() => "-".to_owned(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The codes of validate's `diagnostics` for the game of export's `record`, and those its `Codes`
/// tag expects, each sorted.
pub fn codes_and_expected<'a>(
    diagnostics: &'a [serde_json::Value],
    record: &'a serde_json::Value,
) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut codes: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["game"] == record["game"])
        .filter_map(|d| d["code"].as_str())
        .collect();
    codes.sort_unstable();
    let mut want: Vec<&str> = record["Codes"]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    want.sort_unstable();
    (codes, want)
}
