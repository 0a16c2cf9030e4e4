//! The input layer: directories, compression by magic bytes, damaged compressed files.

use std::fs;
use std::io::{Read, Write};
use std::path::Path;

use arbiter::io::{InputError, open_stream, sources};
use arbiter::pgn::Reader;
use arbiter_test_support::reader::{Game, Recorder};

/// `count` small games, numbered in their Event tags, with noise that compresses badly (so that a
/// compressed file has many blocks).
fn games_text(count: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (1..=count)
        .map(|i| {
            let noise: String = (0..6)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    format!("{state:016x}")
                })
                .collect();
            format!("[Event \"g{i}\"]\n[Site \"s\"]\n\n1. e4 e5 2. Nf3 Nc6 {{ {noise} }} 1-0\n\n")
        })
        .collect()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("gzip");
    enc.finish().expect("gzip")
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    // Small (100 kB) blocks, so that a cut file still has whole blocks before the cut.
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    enc.write_all(bytes).expect("bzip2");
    enc.finish().expect("bzip2")
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).expect("zstd")
}

/// Reads all games of every source; read errors and input errors as strings.
fn read_sources<P: AsRef<Path>>(paths: &[P]) -> (Vec<(String, Vec<Game>)>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for source in sources(paths) {
        let source = match source {
            Ok(source) => source,
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        };
        let mut reader = Reader::new(source.name.clone(), source.reader);
        let mut recorder = Recorder::default();
        let mut games = Vec::new();
        loop {
            match reader.read_game(&mut recorder) {
                Ok(Some(game)) => games.push(game),
                Ok(None) => break,
                Err(e) => {
                    errors.push(e.to_string());
                    break;
                }
            }
        }
        out.push((source.name, games));
    }
    (out, errors)
}

fn short_name(name: &str, dir: &Path) -> String {
    name.trim_start_matches(&dir.display().to_string())
        .to_string()
}

#[test]
fn directories_are_walked_in_sorted_order_and_decompressed_by_magic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let text = games_text(3);
    fs::create_dir_all(d.join("b/inner")).expect("mkdir");
    fs::write(d.join("a.pgn"), &text).expect("write");
    fs::write(
        d.join("b/inner/c.pgn.gz"),
        [gzip(text.as_bytes()), gzip(text.as_bytes())].concat(),
    )
    .expect("write");
    // Two zstd frames with a skippable frame between them.
    let skippable = [&[0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0][..], b"abc"].concat();
    let frames = [zstd(text.as_bytes()), skippable, zstd(text.as_bytes())].concat();
    fs::write(d.join("b/d.pgn.zst"), frames).expect("write");
    fs::write(
        d.join("b/e.PGN.bz2"),
        [bzip2(text.as_bytes()), bzip2(text.as_bytes())].concat(),
    )
    .expect("write");
    fs::write(d.join("b/notes.txt"), "not a pgn").expect("write");
    // The name says plain, the bytes say gzip.
    fs::write(d.join("f.pgn"), gzip(text.as_bytes())).expect("write");

    let (sources, errors) = read_sources(&[d]);
    assert!(errors.is_empty(), "{errors:?}");
    let names: Vec<(String, usize)> = sources
        .iter()
        .map(|(n, g)| (short_name(n, d), g.len()))
        .collect();
    assert_eq!(
        names,
        [
            ("/a.pgn".to_string(), 3),
            ("/b/d.pgn.zst".to_string(), 6),
            ("/b/e.PGN.bz2".to_string(), 6),
            ("/b/inner/c.pgn.gz".to_string(), 6),
            ("/f.pgn".to_string(), 3),
        ]
    );
    assert_eq!(sources[1].1[5].tag("Event"), Some("g3"));
    assert_eq!(sources[1].1[5].first_line, 26);
}

#[test]
fn a_file_given_by_name_is_read_whatever_its_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("games.txt");
    fs::write(&path, zstd(games_text(2).as_bytes())).expect("write");
    let (sources, errors) = read_sources(&[&path]);
    assert!(errors.is_empty());
    assert_eq!(sources[0].1.len(), 2);
}

#[test]
fn missing_and_unreadable_entries_are_reported_not_fatal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good.pgn");
    fs::write(&good, games_text(1)).expect("write");
    let missing = dir.path().join("missing.pgn");
    let (sources, errors) = read_sources(&[&missing, &good]);
    assert_eq!(sources.len(), 1);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with(&missing.display().to_string()),
        "{errors:?}"
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_reported_not_followed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).expect("mkdir");
    fs::write(sub.join("a.pgn"), games_text(1)).expect("write");
    std::os::unix::fs::symlink(dir.path(), sub.join("loop")).expect("symlink");
    let items: Vec<_> = sources(&[dir.path()]).collect();
    let loops = items
        .iter()
        .filter(|i| matches!(i, Err(InputError::SymlinkLoop { .. })))
        .count();
    let files = items.iter().filter(|i| i.is_ok()).count();
    assert_eq!((loops, files), (1, 1));
}

#[test]
fn stdin_is_named_and_opened_lazily() {
    let none: [&str; 0] = [];
    let found: Vec<_> = sources(&none).collect();
    assert_eq!(found.len(), 1);
    assert!(matches!(&found[0], Ok(s) if s.name == "<stdin>"));
    let dash: Vec<_> = sources(&["-"]).collect();
    assert!(matches!(&dash[0], Ok(s) if s.name == "<stdin>"));
}

/// Truncates a compressed file, reads it, and checks the error and the games read before it.
fn check_truncated(compressed: Vec<u8>, ext: &str, format: &str) {
    let total = 3000;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("cut.pgn.{ext}"));
    let cut = compressed.len() * 2 / 3;
    fs::write(&path, &compressed[..cut]).expect("write");
    let (sources, errors) = read_sources(&[&path]);
    assert_eq!(errors.len(), 1, "{format}: {errors:?}");
    let error = &errors[0];
    assert!(error.starts_with(&path.display().to_string()), "{error}");
    assert!(
        error.contains(format) && error.contains("compressed byte"),
        "{error}"
    );
    let games = &sources[0].1;
    assert!(
        games.len() > 100 && games.len() < total,
        "{format}: {} games",
        games.len()
    );
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.tag("Event"), Some(format!("g{}", i + 1).as_str()));
    }
}

#[test]
fn truncated_compressed_files_are_errors_after_the_games_before() {
    let text = games_text(3000);
    check_truncated(gzip(text.as_bytes()), "gz", "gzip");
    check_truncated(zstd(text.as_bytes()), "zst", "zstd");
    check_truncated(bzip2(text.as_bytes()), "bz2", "bzip2");
}

#[test]
fn corrupt_compressed_data_is_an_error() {
    let text = games_text(3000);
    for (mut bytes, ext) in [
        (gzip(text.as_bytes()), "gz"),
        (zstd(text.as_bytes()), "zst"),
        (bzip2(text.as_bytes()), "bz2"),
    ] {
        let mid = bytes.len() / 2;
        for b in &mut bytes[mid..mid + 64] {
            *b ^= 0x5a;
        }
        let mut source = open_stream(format!("x.{ext}"), std::io::Cursor::new(bytes));
        let mut out = Vec::new();
        let err = source.reader.read_to_end(&mut out).expect_err(ext);
        assert!(
            err.to_string().contains("corrupt or truncated"),
            "{ext}: {err}"
        );
    }
}
