//! What is in flight with several jobs: parts of the input whose output is hundreds of times their
//! size (a game of one token is a whole record) must not hold all of it, and the pieces their
//! output goes in must come out in order.

use crate::util::{Input, check, json_lines, run, scratch, write};

/// `count` games of one token each.
fn one_token_games(count: usize) -> String {
    "*\n".repeat(count)
}

#[test]
fn a_million_one_token_games_stay_in_bounded_memory_at_two_jobs() {
    // 2 MB of input, some 400 MB of JSON Lines and a million Parquet rows. Each 64 KiB part holds
    // 32,768 games; once every part held all its output, a dozen of them in flight took half a
    // gigabyte to a gigabyte.
    let dir = scratch();
    let path = write(
        dir.path(),
        "tiny.pgn",
        one_token_games(1_000_000).as_bytes(),
    );
    let path = path.to_str().expect("UTF-8 path");
    let parquet = dir.path().join("tiny.parquet");
    let parquet_path = parquet.to_str().expect("UTF-8 path");
    for (format, out) in [("jsonl", "/dev/null"), ("parquet", parquet_path)] {
        let args = ["export", path, "--format", format, "--jobs", "2", "-o", out];
        let run = run(&args, Input::Null);
        run.assert_code(0, format);
        let peak = run.peak_kib.unwrap_or(0);
        assert!(peak < 128 << 10, "{format}: peak RSS {peak} KiB");
    }
    let file = std::fs::File::open(&parquet).expect("the Parquet file");
    let reader = parquet::file::reader::SerializedFileReader::new(file).expect("a Parquet file");
    use parquet::file::reader::FileReader;
    assert_eq!(reader.metadata().file_metadata().num_rows(), 1_000_000);
}

#[test]
fn the_pieces_of_a_part_come_out_in_order() {
    // Four parts of some 32,000 games each, every part's output cut into dozens of pieces: the
    // records come out as with one job, numbered in order.
    let dir = scratch();
    let mut text = String::new();
    for n in 0..100_000 {
        if n % 997 == 0 {
            text.push_str(&format!("[Event \"mark {n}\"]\n"));
        }
        text.push_str("*\n");
    }
    let path = write(dir.path(), "tokens.pgn", text.as_bytes());
    let c = check(&path, None, "one-token games");
    assert_eq!(c.records.len(), 100_000);
    let path = path.to_str().expect("UTF-8 path");
    let outputs: Vec<Vec<u8>> = ["1", "2"]
        .iter()
        .map(|jobs| {
            let args = ["export", path, "--format", "jsonl", "--jobs", jobs];
            let run = run(&args, Input::Null);
            run.assert_code(0, "one-token games");
            run.stdout
        })
        .collect();
    assert!(
        outputs[0] == outputs[1],
        "--jobs 2 writes what --jobs 1 writes"
    );
    let records = json_lines(&outputs[1]);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record["index"], i as u64 + 1);
        let marked = i % 997 == 0;
        let event = if marked {
            format!("mark {i}")
        } else {
            String::new()
        };
        assert_eq!(record["event"], event.as_str(), "record {i}");
    }
}
