//! Ranges of one input (`--range`): the ranges of any split of a file, read each on its own, hold
//! exactly the records of the whole file, keyed by their `offset`. Every shared corpus is split
//! at random (seeded) into 1 to 16 ranges, read with one job and with two; so is a zstd file of
//! many frames. The runs are in-process, so that the test costs about three whole passes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use arbiter::{Bytes, ColumnSet, ExportFormat, RecordFormatter, ReplayOptions};
use serde_json::Value;

use crate::frames::{corpora, multi_frame};
use crate::util::Random;

/// The records of `range` of `path` (the whole file when `None`) with `jobs` jobs, keyed by
/// `offset`, without the numbers that count within a run (checked here: 1, 2, ... in order);
/// a repeated offset fails.
fn records(path: &Path, range: Option<Range<u64>>, jobs: usize) -> BTreeMap<u64, Value> {
    let what = format!("{} {range:?} --jobs {jobs}", path.display());
    let mut out = Bytes {
        out: Vec::new(),
        rows: 0,
    };
    let totals = arbiter::run(
        &[path.to_path_buf()],
        range,
        jobs,
        &ReplayOptions::default(),
        || RecordFormatter::new(ExportFormat::Jsonl, ColumnSet::default(), &[]),
        &mut out,
        &(),
    )
    .expect("the run");
    assert_eq!(totals.input_errors, 0, "{what}");
    let mut keyed = BTreeMap::new();
    for (n, line) in String::from_utf8(out.out).unwrap().lines().enumerate() {
        let mut record: Value = serde_json::from_str(line).expect("a JSON line");
        let object = record.as_object_mut().expect("an object");
        for number in ["index", "game"] {
            assert_eq!(object.remove(number), Some(Value::from(n + 1)), "{what}");
        }
        let offset = object["offset"].as_u64().expect("an offset");
        assert!(
            keyed.insert(offset, record).is_none(),
            "{what}: two games at {offset}"
        );
    }
    keyed
}

/// Splits `path` (`len` bytes decompressed) at random into 1 to 16 ranges, the last ending at the
/// end or past it, reads each (one job and two, in turn) and asserts that together they hold
/// `whole` exactly, each game in the range its offset lies in. Returns the number of ranges.
fn assert_split_agrees(
    path: &Path,
    len: u64,
    whole: &BTreeMap<u64, Value>,
    random: &mut Random,
) -> usize {
    let count = 1 + random.below(16);
    let mut bounds: Vec<u64> = (1..count)
        .map(|_| random.below(len as usize + 1) as u64)
        .collect();
    bounds.push(0);
    bounds.sort_unstable();
    bounds.push(len + 1000 * random.below(2) as u64);
    let mut union = BTreeMap::new();
    for (i, pair) in bounds.windows(2).enumerate() {
        let range = pair[0]..pair[1];
        for (offset, record) in records(path, Some(range.clone()), 1 + i % 2) {
            assert!(range.contains(&offset), "{range:?}: a game at {offset}");
            assert!(
                union.insert(offset, record).is_none(),
                "{}: the game at {offset} is in two ranges ({bounds:?})",
                path.display()
            );
        }
    }
    if &union != whole {
        let missing: Vec<_> = whole.keys().filter(|k| !union.contains_key(k)).collect();
        let extra: Vec<_> = union.keys().filter(|k| !whole.contains_key(k)).collect();
        let differ: Vec<_> = whole
            .iter()
            .filter(|(k, v)| union.get(k).is_some_and(|u| u != *v))
            .map(|(k, _)| k)
            .collect();
        panic!(
            "{} split at {bounds:?}: missing {missing:?}, extra {extra:?}, differing {differ:?}",
            path.display()
        );
    }
    count
}

#[test]
fn the_ranges_of_any_split_of_every_shared_corpus_hold_the_whole_files_records() {
    let files = corpora();
    if files.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut random = Random(0x7a6e_5eed);
    let mut ranges = 0;
    for (name, text) in &files {
        let path = Path::new(name);
        let whole = records(path, None, 1);
        assert!(!whole.is_empty(), "{name}: no records");
        // The offsets are those of the decompressed bytes: each names a game's first byte.
        for &offset in whole.keys() {
            let first = text[offset as usize];
            assert!(!first.is_ascii_whitespace(), "{name}: offset {offset}");
        }
        ranges += assert_split_agrees(path, text.len() as u64, &whole, &mut random);
        // A zstd file of many frames, cut anywhere, splits as the plain text does.
        if name.ends_with("lichess_db_1000k.pgn") {
            let (file, _) = multi_frame(text, 40_000, &mut random);
            let frames = dir.path().join("frames.pgn.zst");
            std::fs::write(&frames, file).unwrap();
            let strip = |records: BTreeMap<u64, Value>| -> BTreeMap<u64, Value> {
                let mut records = records;
                for record in records.values_mut() {
                    record.as_object_mut().unwrap().remove("file");
                }
                records
            };
            let whole_frames = records(&frames, None, 1);
            assert_eq!(strip(whole_frames.clone()), strip(whole.clone()));
            for _ in 0..3 {
                let len = text.len() as u64;
                ranges += assert_split_agrees(&frames, len, &whole_frames, &mut random);
            }
        }
    }
    assert!(files.len() > 40, "{} files", files.len());
    assert!(ranges > 200, "{ranges} ranges in all");
}
