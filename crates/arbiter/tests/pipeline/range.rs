//! Ranges of one input (`--range`): the ranges of any split of a file, read each on its own, hold
//! exactly the records of the whole file, keyed by their `offset`, each game in the range from
//! `S(START)` to `S(END)` (the first places at or after START and END where a game surely starts,
//! judged here over the whole text in memory with [`sure_start`]). Every shared corpus is split at
//! random (seeded) into 1 to 16 ranges, read with one job and with two; so is a zstd file of many
//! frames. A range's places count lines per game: the union is compared with a range `0:` of
//! the whole file, and that with the whole run but for the lines of `error`. The runs are
//! in-process, so that the test costs about three whole passes.

use std::collections::BTreeMap;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arbiter::pgn::{FIRST_BACK, RANGE_LOOK_AHEAD, RANGE_LOOK_BEHIND, Ranged, Reader, sure_start};
use arbiter::report::output::Bytes;
use arbiter::report::record::{ColumnSet, RecordFormatter};
use arbiter::{ExportFormat, ReplayOptions};
use arbiter_test_support::reader::{Game, Random, Recorder, read_all, read_games};
use serde_json::Value;

use crate::frames::{corpora, multi_frame};

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

/// `S(x)`: the first place at or after `x` in `text` where a game surely starts, 0 for 0, the
/// end of `text` if there is none.
fn sure(text: &[u8], x: u64) -> u64 {
    if x == 0 {
        return 0;
    }
    let from = (x as usize).min(text.len());
    sure_start(text, from, text.len(), true, None).unwrap_or(text.len()) as u64
}

/// Splits `path` (whose decompressed bytes are `text`) at random into 1 to 16 ranges, the last
/// ending at the end or past it, reads each (one job and two, in turn) and asserts that together
/// they hold `whole` exactly, each game in the range from `S(START)` to `S(END)`. Returns the
/// number of ranges.
fn assert_split_agrees(
    path: &Path,
    text: &[u8],
    whole: &BTreeMap<u64, Value>,
    random: &mut Random,
) -> usize {
    let len = text.len() as u64;
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
        let sure_range = sure(text, range.start)..sure(text, range.end);
        let got = records(path, Some(range.clone()), 1 + i % 2);
        let expected = whole.range(sure_range.clone()).count();
        assert_eq!(
            got.len(),
            expected,
            "{range:?}: the games of {sure_range:?}"
        );
        for (offset, record) in got {
            assert!(
                sure_range.contains(&offset),
                "{range:?}: a game at {offset}"
            );
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

/// The records of the whole of `path` read as a range (`0:`, lines per game), after checking
/// they are those of the whole run but for the lines that `error` names.
fn whole_range(path: &Path) -> BTreeMap<u64, Value> {
    let whole = records(path, None, 1);
    assert!(!whole.is_empty(), "{}: no records", path.display());
    let range = records(path, Some(0..u64::MAX), 2);
    let without_error = |records: &BTreeMap<u64, Value>| -> Vec<(u64, Value, bool)> {
        let mut records = records.clone();
        records
            .iter_mut()
            .map(|(offset, record)| {
                let error = record.as_object_mut().unwrap().remove("error");
                let no_error = error.is_none_or(|e| e.is_null() || e == "");
                (*offset, record.clone(), no_error)
            })
            .collect()
    };
    assert_eq!(
        without_error(&whole),
        without_error(&range),
        "{}",
        path.display()
    );
    range
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
        let whole = whole_range(path);
        // The offsets are those of the decompressed bytes: each names a game's first byte.
        for &offset in whole.keys() {
            let first = text[offset as usize];
            assert!(!first.is_ascii_whitespace(), "{name}: offset {offset}");
        }
        ranges += assert_split_agrees(path, text, &whole, &mut random);
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
            let whole_frames = whole_range(&frames);
            assert_eq!(strip(whole_frames.clone()), strip(whole.clone()));
            for _ in 0..3 {
                ranges += assert_split_agrees(&frames, text, &whole_frames, &mut random);
            }
        }
    }
    assert!(files.len() > 40, "{} files", files.len());
    assert!(ranges > 200, "{ranges} ranges in all");
}

/// A file in memory that counts the bytes read from it, and the lowest offset read.
struct Counting {
    file: io::Cursor<Vec<u8>>,
    read: Arc<AtomicU64>,
    lowest: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let at = self.file.position();
        let n = self.file.read(buf)?;
        if n > 0 {
            self.lowest.fetch_min(at, Ordering::Relaxed);
        }
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Seek for Counting {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.file.seek(to)
    }
}

/// `count` games as lichess writes them: a clock comment after every move.
fn lichess_like(count: usize) -> Vec<u8> {
    let mut text = String::new();
    for n in 0..count {
        text.push_str(&format!(
            "[Event \"Rated blitz game\"]\n[Site \"https://lichess.org/{n:08}\"]\n\
             [Result \"1-0\"]\n\n1. e4 {{ [%clk 0:03:00] }} 1... e5 {{ [%clk 0:03:00] }} \
             2. Qh5 {{ [%clk 0:02:58] }} 2... Nc6 {{ [%clk 0:02:57] }} 3. Bc4 {{ [%clk 0:02:55] }} \
             3... Nf6 {{ [%clk 0:02:50] }} 4. Qxf7# {{ [%clk 0:02:49] }} 1-0\n\n"
        ));
    }
    text.into_bytes()
}

/// The games of `range` of `text` read from a file that seeks, the bytes read from it, and the
/// lowest offset read.
fn read_seeking(text: &[u8], range: Range<u64>) -> (Vec<Game>, u64, u64) {
    let read = Arc::new(AtomicU64::new(0));
    let lowest = Arc::new(AtomicU64::new(u64::MAX));
    let file = Counting {
        file: io::Cursor::new(text.to_vec()),
        read: Arc::clone(&read),
        lowest: Arc::clone(&lowest),
    };
    let ranged = Ranged::seeking(file, range).expect("seek");
    let reader = Reader::ranged("games.pgn", ranged).expect("the range's start");
    let (games, _) = read_games(reader, Recorder::default());
    (
        games,
        read.load(Ordering::Relaxed),
        lowest.load(Ordering::Relaxed),
    )
}

#[test]
fn a_range_of_a_file_reads_neither_the_bytes_before_its_look_behind_nor_those_after_it() {
    let text = lichess_like(20_000);
    let len = text.len() as u64;
    assert!(len > 4 << 20);
    let whole = read_all(&text);
    for (start, end) in [
        (len / 2, len / 2 + 300_000),
        (len - 1000, len + 5),
        (7, 200_000),
    ] {
        let (games, read, lowest) = read_seeking(&text, start..end);
        let (first, stop) = (sure(&text, start), sure(&text, end));
        // The bytes before START's look-behind, and the first block read back for a brace,
        // are not read; nor those past the look-ahead after `S(END)`, a chunk more.
        let behind = (RANGE_LOOK_BEHIND + FIRST_BACK) as u64;
        assert!(
            lowest >= start.saturating_sub(behind),
            "{start}: read from {lowest}"
        );
        let most = (stop - start) + behind + (RANGE_LOOK_AHEAD as u64) + (512 << 10);
        assert!(read <= most, "{start}..{end}: {read} bytes read");
        // The games are the whole file's from `S(START)` to `S(END)`, the same but for lines.
        let bytes: Vec<u8> = games.iter().flat_map(|g| g.raw.0.clone()).collect();
        assert!(
            bytes == text[first as usize..stop as usize],
            "{start}..{end}"
        );
        let skipped = whole
            .iter()
            .take_while(|g| !text[first as usize..].starts_with(&g.raw.0))
            .count();
        for (game, same) in games.iter().zip(&whole[skipped..]) {
            assert_eq!((game.sans(), game.first_line), (same.sans(), 1));
        }
    }
}
