//! `-o games.csv.gz` (or `.zst`, `.xz`, `.bz2`) is compressed that way, in the format the
//! extension before the suffix names; Parquet, which compresses its columns itself, refuses a
//! suffix. See: issue 25, point 12.

use std::fs::{self, File};
use std::io::Read;
use std::path::Path;

use crate::util::{Input, good_games, run_in, scratch, write};

/// The decompressed text of `path`, by the decoder its suffix names.
fn decompressed(path: &Path) -> String {
    let file = File::open(path).unwrap();
    let name = path.to_str().unwrap();
    let mut reader: Box<dyn Read> = if name.ends_with(".gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else if name.ends_with(".zst") {
        Box::new(zstd::stream::read::Decoder::new(file).unwrap())
    } else if name.ends_with(".xz") {
        Box::new(liblzma::read::XzDecoder::new(file))
    } else if name.ends_with(".bz2") {
        Box::new(bzip2::read::BzDecoder::new(file))
    } else {
        panic!("{name}: not compressed")
    };
    let mut text = String::new();
    reader.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn compressed_by_the_suffix_in_the_format_before_it() {
    let dir = scratch();
    let root = dir.path();
    // Half the games lack their mate sign: validate has warnings to write.
    let games = good_games(0, 500).replacen("Qxf7#", "Qxf7", 250);
    write(root, "games.pgn", games.as_bytes());
    let plain = |args: &[&str]| {
        let r = run_in(root, args, Input::Null, None);
        r.assert_code(0, &format!("{args:?}"));
        r.stdout()
    };
    let csv = plain(&["export", "games.pgn"]);
    let jsonl = plain(&["export", "games.pgn", "--format", "jsonl"]);
    let text = plain(&["validate", "games.pgn", "--format", "jsonl"]);
    for suffix in [".gz", ".zst", ".xz", ".bz2"] {
        for (args, base, expected) in [
            (vec!["export", "games.pgn", "-o"], "out.csv", &csv),
            (vec!["export", "games.pgn", "-o"], "out.jsonl", &jsonl),
            (
                vec!["validate", "games.pgn", "--format", "jsonl", "-o"],
                "problems.jsonl",
                &text,
            ),
        ] {
            let name = format!("{base}{suffix}");
            let mut args = args.clone();
            args.push(&name);
            let r = run_in(root, &args, Input::Null, None);
            r.assert_code(0, &format!("{args:?}"));
            let path = root.join(&name);
            let compressed = fs::metadata(&path).unwrap().len() as usize;
            assert!(
                compressed < expected.len() / 5,
                "{name}: {compressed} bytes"
            );
            let got = decompressed(&path);
            // Validate's summary, last, has the run's time in it.
            let (got, summary) = got.trim_end().rsplit_once('\n').unwrap_or(("", &got));
            let (expected, _) = expected
                .trim_end()
                .rsplit_once('\n')
                .unwrap_or(("", expected));
            assert_eq!(got, expected, "{name}");
            if args[0] == "validate" {
                assert_eq!(got.lines().count(), 250, "{name}");
                assert!(summary.contains("\"games\":500"), "{name}: {summary}");
            }
        }
    }
}

#[test]
fn parquet_refuses_a_compression_suffix() {
    let dir = scratch();
    let root = dir.path();
    write(root, "games.pgn", good_games(0, 3).as_bytes());
    for (args, suffix) in [
        (vec!["export", "games.pgn", "-o", "games.parquet.gz"], ".gz"),
        (
            vec!["export", "games.pgn", "--plies", "-o", "plies.parquet.zst"],
            ".zst",
        ),
        (
            vec![
                "export",
                "games.pgn",
                "--format",
                "parquet",
                "-o",
                "out.csv.xz",
            ],
            ".xz",
        ),
    ] {
        let r = run_in(root, &args, Input::Null, None);
        r.assert_code(2, &format!("{args:?}"));
        assert_eq!(
            r.stderr,
            format!(
                "arbiter: error: -o {}: Parquet compresses its columns itself; leave out the \
                 {suffix} suffix\n",
                args.last().unwrap()
            )
        );
        assert_eq!(fs::read_dir(root).unwrap().count(), 1, "{args:?}");
    }
}
