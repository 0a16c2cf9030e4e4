//! Compressed inputs: truncated streams, and a small `.zst` that expands to gigabytes.

use std::io::Write;

use crate::util::{Input, check, good_games, reader_games, run, scratch, write};

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
    zstd::encode_all(bytes, 3).unwrap()
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
        c.assert_good_games(games as usize, ext);
        for r in [&c.export, &c.validate] {
            assert_eq!(r.code(), Some(2), "{ext}: {}", r.stderr);
            assert!(
                r.stderr.contains(&format!("cut.pgn.{ext}")) && r.stderr.contains("truncated"),
                "{ext}: {}",
                r.stderr
            );
        }
        assert_eq!(c.summary["input_errors"], 1, "{ext}");
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
