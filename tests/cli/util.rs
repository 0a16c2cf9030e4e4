//! Helpers for running the binary and finding test data.

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub use crate::shared_data::shared;

/// Runs `arbiter` with `args` and returns its output.
pub fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run arbiter")
}

/// Runs `arbiter` with `args`, feeding `input` on stdin.
pub fn arbiter_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arbiter");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early; that is its right.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for arbiter");
    let _ = writer.join();
    output
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
    format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Parses JSON Lines output.
pub fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}
