//! Compressed inputs: truncated, damaged and followed by junk (every game decoded before the
//! damage is read, the one it cuts short included, the same with one job as with two), and a small
//! `.zst` that expands to gigabytes.

use std::io::Write;
use std::path::Path;

use crate::shared_data::shared;
use crate::util::{
    Checked, Input, check, good_games, json_lines, reader_games, run, scratch, write,
};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    e.include_checksum(true).unwrap();
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A compressor.
type Encode = fn(&[u8]) -> Vec<u8>;

/// Every format, by its file extension, with its compressor.
const FORMATS: [(&str, Encode); 4] = [("gz", gzip), ("zst", zstd), ("bz2", bzip2), ("xz", xz)];

/// Asserts that the input failed once, naming it and the damage, with exit status 2.
fn assert_damage_reported(c: &Checked, name: &str, what: &str) {
    for r in [&c.export, &c.validate] {
        assert_eq!(r.code(), Some(2), "{what}: {}", r.stderr);
        assert!(
            r.stderr.contains(name) && r.stderr.contains("corrupt or truncated"),
            "{what}: {}",
            r.stderr
        );
    }
    assert_eq!(c.summary["input_errors"], 1, "{what}");
}

#[test]
fn truncated_gz_zst_and_bz2() {
    let dir = scratch();
    let text = good_games(0, 3000);
    for (ext, compressed) in [
        ("gz", gzip(text.as_bytes())),
        ("zst", zstd(text.as_bytes())),
        ("bz2", bzip2(text.as_bytes())),
    ] {
        // bzip2 loses a whole block (100 KB at level 1) at the cut: keep most of the stream.
        let cut = &compressed[..compressed.len() * 2 / 3];
        let path = write(dir.path(), &format!("cut.pgn.{ext}"), cut);
        let c = check(&path, None, ext);
        let (games, failures) = reader_games(&[&path]);
        assert_eq!(failures, 1, "{ext}: the damage is a read error");
        assert!(
            games > 100 && games < 3000,
            "{ext}: {games} games before the damage"
        );
        // The last game is cut short, unless the decoded data ends between games (zstd decodes
        // whole blocks): it has its record, invalid, with the read error.
        let games = games as usize;
        let last = &c.records[games - 1];
        let cut_short = last["valid"] == false;
        let whole = games - usize::from(cut_short);
        for (n, record) in c.records[..whole].iter().enumerate() {
            assert_eq!(record["event"], format!("good {n}"), "{ext}");
            assert_eq!(record["valid"], true, "{ext}: {record}");
        }
        let read_errors: Vec<_> = c
            .errors()
            .into_iter()
            .filter(|d| d["code"] == "read_error")
            .collect();
        if cut_short {
            let error = last["error"].as_str().unwrap();
            assert!(
                error.contains("the game is cut short by a read error: corrupt or truncated"),
                "{ext}: {error}"
            );
            assert_eq!(read_errors.len(), 1, "{ext}: {read_errors:?}");
            assert_eq!(read_errors[0]["game"], games as u64, "{ext}");
        } else {
            assert!(ext == "zst" && read_errors.is_empty(), "{ext}: {last}");
        }
        assert_damage_reported(&c, &format!("cut.pgn.{ext}"), ext);
        // A directory holding it goes on with the next file.
        let sub = dir.path().join(ext);
        std::fs::create_dir(&sub).unwrap();
        std::fs::rename(&path, sub.join(format!("a.pgn.{ext}"))).unwrap();
        write(&sub, "b.pgn", crate::util::good_game(9999).as_bytes());
        let c = check(&sub, None, ext);
        assert_eq!(c.records.last().unwrap()["event"], "good 9999", "{ext}");
    }
}

#[test]
fn a_whole_stream_followed_by_junk_loses_no_game() {
    // The last game before the failure was decoded whole: it was once dropped with the failure.
    let dir = scratch();
    let text = good_games(0, 3000);
    for (ext, encode) in FORMATS {
        let stream = [encode(text.as_bytes()), b"JUNK!".to_vec()].concat();
        let name = format!("junk.pgn.{ext}");
        let path = write(dir.path(), &name, &stream);
        let c = check(&path, None, ext);
        c.assert_good_games(3000, ext);
        assert_eq!(c.records.len(), 3000, "{ext}");
        assert_damage_reported(&c, &name, ext);
    }
}

#[test]
fn a_bad_checksum_loses_no_game() {
    // gzip: the member's CRC-32 (8 bytes from the end); zstd: the frame's checksum (4). zstd once
    // dropped the last block it had decoded with the failure: 1,716 of 3,000 games with one job.
    let dir = scratch();
    let text = good_games(0, 3000);
    for (ext, from_end) in [("gz", 8), ("zst", 4)] {
        let encode = FORMATS.iter().find(|f| f.0 == ext).unwrap().1;
        let mut stream = encode(text.as_bytes());
        let at = stream.len() - from_end;
        stream[at] ^= 0x55;
        let name = format!("checksum.pgn.{ext}");
        let path = write(dir.path(), &name, &stream);
        for jobs in ["1", "2"] {
            let args = [
                "export",
                path.to_str().unwrap(),
                "--format",
                "jsonl",
                "--jobs",
                jobs,
            ];
            let run = run(&args, Input::Null);
            run.assert_code(2, ext);
            assert_eq!(json_lines(&run.stdout).len(), 3000, "{ext}, --jobs {jobs}");
            assert!(run.stderr.contains("checksum"), "{ext}: {}", run.stderr);
        }
        let c = check(&path, None, ext);
        c.assert_good_games(3000, ext);
        assert_damage_reported(&c, &name, ext);
    }
}

#[test]
fn a_53_byte_gz_of_two_games_and_junk_exports_both() {
    // `gzip -d` decodes it with a warning about trailing garbage; the failure to read the junk
    // once lost the first bytes too, and with them every game.
    let text = b"1. e4 e5 2. Qh5 Nc6 0-1
1. d4 *
";
    let mut e = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    e.write_all(text).unwrap();
    let mut stream = e.finish().unwrap();
    stream.extend(std::iter::repeat_n(b'j', 53 - stream.len()));
    assert_eq!(stream.len(), 53);
    let dir = scratch();
    let path = write(dir.path(), "two.pgn.gz", &stream);
    let c = check(&path, None, "two games and junk");
    assert_eq!(c.records.len(), 2);
    for (record, plies) in c.records.iter().zip([4, 1]) {
        assert_eq!(record["valid"], true, "{record}");
        assert_eq!(record["plies"], plies, "{record}");
    }
    assert_damage_reported(&c, "two.pgn.gz", "two games and junk");
    // The same through standard input.
    let piped = run(&["export", "--format", "jsonl"], Input::Bytes(&stream));
    assert_eq!(piped.code(), Some(2), "{}", piped.stderr);
    let records = json_lines(&piped.stdout);
    assert_eq!(records.len(), 2, "{}", piped.stderr);
    assert_eq!(
        (&records[0]["plies"], &records[1]["plies"]),
        (&4.into(), &1.into())
    );
}

/// The records `export` writes for `path` with `jobs` jobs, and its standard error.
fn export(path: &Path, jobs: &str) -> (Vec<u8>, String) {
    let args = [
        "export",
        path.to_str().unwrap(),
        "--format",
        "jsonl",
        "--jobs",
        jobs,
    ];
    let run = run(&args, Input::Null);
    run.assert_clean(&format!("{}, --jobs {jobs}", path.display()));
    (run.stdout, run.stderr)
}

#[test]
fn damaged_compressed_input_gives_the_same_records_with_one_job_and_two() {
    // Copies of a real corpus, each with one bit flipped somewhere: how much of the data came
    // through once depended on the sizes of the reads, which differ between one job and two (a
    // flipped .zst of the master games: 13,079 records against 13,120).
    let text = match shared("corpora/pgnmentor-players") {
        Some(dir) => {
            let mut files: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            files
                .iter()
                .flat_map(|f| std::fs::read(f).unwrap())
                .collect()
        }
        None => good_games(0, 40_000).into_bytes(),
    };
    let dir = scratch();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut differed, mut damaged_files) = (Vec::new(), Vec::new());
    for (ext, encode) in FORMATS {
        let stream = encode(&text);
        for k in 0..3 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut damaged = stream.clone();
            let at = stream.len() / 10 + (seed as usize) % (stream.len() * 9 / 10);
            damaged[at] ^= 1 << (seed % 8);
            let path = write(dir.path(), &format!("flip{k}.pgn.{ext}"), &damaged);
            let (one, one_err) = export(&path, "1");
            let (two, two_err) = export(&path, "2");
            if one != two || one_err != two_err {
                differed.push(format!(
                    "{ext} flipped at {at}: {} records and {one_err:?} with one job, {} and \
                     {two_err:?} with two",
                    json_lines(&one).len(),
                    json_lines(&two).len()
                ));
            }
            damaged_files.push((path, format!("{ext} flipped at {at}")));
        }
    }
    assert!(differed.is_empty(), "{differed:#?}");
    for (path, what) in damaged_files {
        check(&path, None, &what);
    }
}

#[test]
fn a_small_zst_that_expands_to_gigabytes_streams_in_flat_memory() {
    // One 1 MiB game (a long comment), compressed once as a frame; the frame repeated 3000 times
    // is a valid zstd stream of about 3 GiB.
    let mut game = String::from("[Event \"bomb\"]\n[Result \"1-0\"]\n\n1. e4 {");
    game.push_str(&"ab ".repeat((1 << 20) / 3));
    game.push_str("} e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n");
    let frame = zstd::encode_all(game.as_bytes(), 19).unwrap();
    let repeats = 3000;
    let mut stream = zstd(good_games(0, 1).as_bytes());
    for _ in 0..repeats {
        stream.extend_from_slice(&frame);
    }
    stream.extend(zstd(good_games(1, 1).as_bytes()));
    assert!(stream.len() < 8 << 20, "{} bytes compressed", stream.len());
    let expanded = game.len() as u64 * repeats;
    assert!(expanded > 3_000_000_000);

    let dir = scratch();
    let path = write(dir.path(), "bomb.pgn.zst", &stream);
    let export = run(
        &["export", path.to_str().unwrap(), "--format", "csv"],
        Input::Null,
    );
    export.assert_code(0, "zstd bomb");
    let lines = export.stdout().lines().count() as u64;
    assert_eq!(lines, 1 + repeats + 2, "header plus one line per game");
    if let Some(peak) = export.peak_kib {
        assert!(
            peak < 256 << 10,
            "peak RSS {peak} KiB while expanding {expanded} bytes"
        );
    }
    eprintln!(
        "zstd bomb: {} compressed bytes, {expanded} expanded, {:?}, peak RSS {:?} KiB",
        stream.len(),
        export.elapsed,
        export.peak_kib
    );
}
