//! One lexer: the byte classes, stop sets, limits and the line, comment and quote rules of PGN are
//! written once, in the reader's `lex.rs`. This test reads the workspace's sources and refuses any
//! of them elsewhere in the code that reads PGN bytes: the reader, the input sniffer, replay, the
//! parts of `--jobs`, the command line. (The `[%clk]` command grammar in `clocks/` is a language of
//! its own, inside comments, and is not looked at.)

use std::path::{Path, PathBuf};

/// The signs of a byte class or a lexical rule of its own, each with what it would be.
const SIGNS: [(&str, &str); 11] = [
    ("; 256]", "a byte table"),
    ("_STOP: [u8", "a stop set"),
    ("b'\\n', b'\\r'", "a search for line ends"),
    (
        "is_ascii_whitespace",
        "a white-space class (it leaves out the vertical tab)",
    ),
    (
        "trim_ascii",
        "a white-space class (it leaves out the vertical tab)",
    ),
    ("\".contains(&", "a set of bytes"),
    ("memchr(b'}'", "a search for a comment's end"),
    ("b'{', b'}'", "a search for comment braces"),
    ("memchr3(b'", "a stop set"),
    ("const MAX_TAG_LINE", "a size limit of its own"),
    ("\\xef\\xbb\\xbf", "the byte order mark"),
];

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The code of a source file: not its unit tests, not its comments.
fn code(text: &str) -> Vec<(usize, &str)> {
    let code = text.split("\n#[cfg(test)]\n").next().unwrap_or_default();
    code.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line))
        .collect()
}

/// The lexical rules found in `files`, as `path:line: what: the line`.
fn found(files: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).expect("a source file");
        for (number, line) in code(&text) {
            for (sign, what) in SIGNS {
                if line.contains(sign) {
                    found.push(format!(
                        "{}:{number}: {what}: {}",
                        path.display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn no_byte_class_or_lexical_rule_outside_the_lexer() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "crates/pgn/src",
        "crates/core/src/replay",
        "crates/arbiter/src/pipeline",
        "src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    files.push(root.join("crates/io/src/input.rs"));
    let lexer = root.join("crates/pgn/src/lex.rs");
    assert!(files.contains(&lexer), "the lexer is where it was");
    assert!(files.len() > 40, "{files:?}");
    files.retain(|f| *f != lexer);
    let found = found(&files);
    assert!(found.is_empty(), "outside the lexer:\n{}", found.join("\n"));
}

#[test]
fn the_signs_are_found_where_they_stand() {
    // The lexer itself has them all but a few (which it does not need), in its code: the search
    // would see them anywhere else.
    let lexer = root().join("crates/pgn/src/lex.rs");
    let in_lexer = found(&[lexer]);
    for (sign, what) in SIGNS {
        let listed = in_lexer.iter().any(|f| f.contains(what));
        let expected = !matches!(
            sign,
            "is_ascii_whitespace"
                | "trim_ascii"
                | "\".contains(&"
                | "memchr(b'}'"
                | "memchr3(b'"
                | "\\xef\\xbb\\xbf"
        );
        assert!(
            !expected || listed,
            "{sign} not found in lex.rs: {in_lexer:?}"
        );
    }
    // In a test module or a comment, a sign is no rule.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a.rs");
    let text = "// is_ascii_whitespace\nfn a() {}\n\n#[cfg(test)]\nmod tests { const X_STOP: [u8; 1] = [0]; }\n";
    std::fs::write(&file, text).expect("write");
    assert!(found(std::slice::from_ref(&file)).is_empty());
    std::fs::write(&file, "fn a(b: u8) -> bool { b.is_ascii_whitespace() }\n").expect("write");
    assert_eq!(found(&[file]).len(), 1);
}
