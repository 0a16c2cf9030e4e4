//! zstd files of many frames (as `pzstd` makes them: a skippable frame, then frames cut anywhere,
//! games straddling them), read with several jobs: their frames are decoded on the workers, each
//! once (from `FRAMES_FROM_JOBS` jobs; with fewer, as one stream), and the records are those of
//! the plain file; damage is told as for one stream. And the
//! bytes counted for progress are those of the files as stored.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread::ThreadId;

use arbiter::pipeline::FRAMES_FROM_JOBS;
use arbiter::report::output::Bytes;
use arbiter::report::record::{ColumnSet, RecordFormatter};
use arbiter::{ExportFormat, Observer, ReplayOptions};
use arbiter_test_support::reader::{Random, testdata};

/// A zstd file of `text` as `pzstd` lays one out: a skippable frame first, then `text` cut in
/// pieces of about `piece` bytes (anywhere, mid-game), each compressed as a frame of its own,
/// with a skippable frame between some of them. Returns the file and how many frames it has.
pub(crate) fn multi_frame(text: &[u8], piece: usize, random: &mut Random) -> (Vec<u8>, u64) {
    let mut file = skippable(b"pzstd");
    let mut frames = 1;
    let mut at = 0;
    while at < text.len() {
        let end = (at + piece / 2 + random.below(piece)).min(text.len());
        file.extend(frame(&text[at..end], random.below(2) == 0, random));
        frames += 1;
        if random.below(3) == 0 {
            file.extend(skippable(b"between"));
            frames += 1;
        }
        at = end;
    }
    (file, frames)
}

/// `text` compressed as one zstd frame, with its checksum or not.
fn frame(text: &[u8], checksum: bool, random: &mut Random) -> Vec<u8> {
    let level = 1 + random.below(5) as i32;
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), level).unwrap();
    encoder.include_checksum(checksum).unwrap();
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

/// A skippable frame holding `content`.
fn skippable(content: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x5a, 0x2a, 0x4d, 0x18];
    frame.extend((content.len() as u32).to_le_bytes());
    frame.extend(content);
    frame
}

/// What a run tells its observer: the largest input count, the frames decoded per thread, and
/// the input errors.
#[derive(Default)]
struct Watch {
    input: Mutex<u64>,
    decoded: Mutex<HashMap<ThreadId, u64>>,
    errors: Mutex<Vec<String>>,
}

impl Observer for Watch {
    fn input(&self, bytes: u64) {
        let mut most = self.input.lock().unwrap();
        *most = (*most).max(bytes);
    }

    fn decoded(&self, frames: u64) {
        let thread = std::thread::current().id();
        *self.decoded.lock().unwrap().entry(thread).or_default() += frames;
    }

    fn input_error(&self, error: &dyn std::fmt::Display) {
        self.errors.lock().unwrap().push(error.to_string());
    }
}

/// The JSON Lines records of `path` exported with `jobs` jobs (the `file` field left out, so that
/// a copy of a file under another name gives the same records), and what the run observed.
fn export(path: &Path, jobs: usize) -> (Vec<String>, Watch) {
    let watch = Watch::default();
    let mut out = Bytes {
        out: Vec::new(),
        rows: 0,
    };
    arbiter::run(
        &[path.to_path_buf()],
        None,
        jobs,
        &ReplayOptions::default(),
        || RecordFormatter::new(ExportFormat::Jsonl, ColumnSet::default(), &[]),
        &mut out,
        &watch,
    )
    .expect("the run");
    let name = serde_json::to_string(&path.display().to_string()).unwrap();
    let records = String::from_utf8(out.out)
        .unwrap()
        .lines()
        .map(|line| line.replace(&format!("\"file\":{name},"), ""))
        .collect();
    (records, watch)
}

/// The text of every shared corpus (the compressed ones decompressed), with its name.
pub(crate) fn corpora() -> Vec<(String, Vec<u8>)> {
    let Some(data) = testdata() else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = arbiter_test_support::reader::files_below(&data.join("corpora"));
    files.retain(|p| {
        let name = p.to_string_lossy();
        name.ends_with(".pgn") || name.ends_with(".pgn.zst")
    });
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            let text = if path.extension().is_some_and(|e| e == "zst") {
                zstd::decode_all(&bytes[..]).unwrap()
            } else {
                bytes
            };
            (path.display().to_string(), text)
        })
        .collect()
}

#[test]
fn multi_frame_zstd_gives_the_records_of_the_plain_file_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut random = Random(0x5eed_f4a3);
    let (mut checked, mut split) = (0, 0);
    for (name, text) in corpora() {
        let plain = dir.path().join("games.pgn");
        std::fs::write(&plain, &text).unwrap();
        let (expected, _) = export(&plain, 1);
        assert!(!expected.is_empty(), "{name}: no records");
        for piece in [3_000, 40_000, 300_000] {
            let (file, frames) = multi_frame(&text, piece, &mut random);
            let path = dir.path().join("games.pgn.zst");
            std::fs::write(&path, &file).unwrap();
            for jobs in [1, 2, FRAMES_FROM_JOBS] {
                let (records, watch) = export(&path, jobs);
                assert!(
                    records == expected,
                    "{name} in {frames} frames of about {piece} bytes, {jobs} jobs: {} records \
                     against {} of the plain file",
                    records.len(),
                    expected.len()
                );
                assert!(watch.errors.lock().unwrap().is_empty(), "{name}");
                // Every frame decoded once on the threads of the run, or a file of one run of
                // frames (4 MiB or so), or read with fewer jobs, decoded as one stream.
                let decoded: u64 = watch.decoded.lock().unwrap().values().sum();
                assert!(
                    decoded == frames && jobs >= FRAMES_FROM_JOBS || decoded == 0,
                    "{name} in {frames} frames, {jobs} jobs: {decoded} frames decoded"
                );
                split += u64::from(decoded > 0);
            }
            checked += 1;
        }
    }
    eprintln!("{checked} multi-frame copies checked, {split} runs decoded frames on the workers");
    assert!(
        checked == 0 || split > 0,
        "no file was decoded on the workers"
    );
}

/// Where the first frame in the second half of `file`, a file of [`multi_frame`], starts: after
/// a skippable frame there.
fn middle_frame(file: &[u8]) -> usize {
    let magic = [0x5a, 0x2a, 0x4d, 0x18];
    let at = file.len() / 2
        + file[file.len() / 2..]
            .windows(4)
            .position(|w| w == magic)
            .expect("a skippable frame in the second half");
    let len = u32::from_le_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
    at + 8 + len
}

/// `copies` copies of every shared corpus, one after the other.
fn big_text(copies: usize) -> Vec<u8> {
    let corpora: Vec<u8> = corpora().into_iter().flat_map(|(_, text)| text).collect();
    corpora.repeat(copies)
}

#[test]
fn each_thread_decodes_its_share_of_the_frames() {
    let text = big_text(1);
    if text.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (file, frames) = multi_frame(&text, 100_000, &mut Random(7));
    let path = dir.path().join("games.pgn.zst");
    std::fs::write(&path, &file).unwrap();
    for jobs in [2, 3, FRAMES_FROM_JOBS, FRAMES_FROM_JOBS + 1] {
        let (_, watch) = export(&path, jobs);
        let decoded = watch.decoded.lock().unwrap();
        let mut counts: Vec<u64> = decoded.values().copied().collect();
        counts.sort_unstable();
        eprintln!("{frames} frames, {jobs} jobs: {counts:?}");
        // With fewer jobs, decoded as one stream on the reading thread.
        let expected = if jobs >= FRAMES_FROM_JOBS { frames } else { 0 };
        assert_eq!(counts.iter().sum::<u64>(), expected, "{jobs} jobs");
    }
}

#[test]
fn damaged_multi_frame_zstd_is_told_as_one_stream_after_the_games_before() {
    let text = big_text(1);
    if text.is_empty() {
        return;
    }
    let text = &text[..text.len().min(6 << 20)];
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, text).unwrap();
    let (expected, _) = export(&plain, 1);
    let mut random = Random(11);
    let (file, _) = multi_frame(text, 30_000, &mut random);
    let middle = file.len() / 2;
    // Each damaged file, and whether what comes before the damage is intact (a flipped bit may
    // decode to other bytes before zstd notices, if it does).
    let mut damages: Vec<(String, Vec<u8>, bool)> = Vec::new();
    damages.push(("cut in the middle".into(), file[..middle].to_vec(), true));
    damages.push((
        "junk after the end".into(),
        [&file[..], b"junk!"].concat(),
        true,
    ));
    for k in 1..6 {
        let at = file.len() * k / 6 + random.below(1000);
        let mut flipped = file.clone();
        flipped[at] ^= 1 << random.below(8);
        damages.push((format!("a bit flipped at {at}"), flipped, false));
    }
    // A frame whose window is over what zstd's stream decoder takes by default (2^27 bytes):
    // refused as one stream, so with every job count.
    let mut wide = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    wide.window_log(28).unwrap();
    wide.write_all(&text[..100_000]).unwrap();
    let wide = wide.finish().unwrap();
    let with_wide = [
        &file[..middle_frame(&file)],
        &wide,
        &file[middle_frame(&file)..],
    ]
    .concat();
    damages.push(("a frame with a 256 MiB window".into(), with_wide, true));
    for (what, damaged, intact_before) in damages {
        let path = dir.path().join("damaged.pgn.zst");
        std::fs::write(&path, &damaged).unwrap();
        let (one, one_watch) = export(&path, 1);
        let one_errors = one_watch.errors.into_inner().unwrap();
        for jobs in [2, FRAMES_FROM_JOBS] {
            let (records, watch) = export(&path, jobs);
            let errors = watch.errors.into_inner().unwrap();
            assert!(
                records == one && errors == one_errors,
                "{what}, {jobs} jobs: {} records and {errors:?}, one job: {} and {one_errors:?}",
                records.len(),
                one.len()
            );
        }
        if let Some(error) = one_errors.first() {
            assert!(
                error.contains("damaged.pgn.zst") && error.contains("compressed byte"),
                "{what}: {error}"
            );
        }
        // The games before the damage are those of the plain file (the last one cut short).
        if intact_before {
            assert_eq!(one_errors.len(), 1, "{what}");
            let before = one.len() - 1;
            assert!(
                before > 1000 && one[..before] == expected[..before],
                "{what}"
            );
        }
        eprintln!("{what}: {} records, {one_errors:?}", one.len());
    }
}

#[test]
fn progress_counts_the_bytes_of_the_files_as_stored() {
    let text = big_text(1);
    if text.is_empty() {
        return;
    }
    let text = &text[..text.len().min(8 << 20)];
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text).unwrap();
    let files = [
        ("games.pgn", text.to_vec()),
        ("games.pgn.gz", gz.finish().unwrap()),
        ("one.pgn.zst", zstd::encode_all(text, 3).unwrap()),
        ("many.pgn.zst", multi_frame(text, 50_000, &mut Random(3)).0),
    ];
    let mut paths = Vec::new();
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for jobs in [1, 2, FRAMES_FROM_JOBS] {
            let (_, watch) = export(&path, jobs);
            let counted = *watch.input.lock().unwrap();
            assert_eq!(counted, bytes.len() as u64, "{name}, {jobs} jobs");
        }
        paths.push(path);
    }
    // Over several inputs, the counts add up.
    let total: u64 = files.iter().map(|(_, bytes)| bytes.len() as u64).sum();
    for jobs in [1, 2, FRAMES_FROM_JOBS] {
        let watch = Watch::default();
        let mut out = Bytes {
            out: std::io::sink(),
            rows: 0,
        };
        arbiter::run(
            &paths,
            None,
            jobs,
            &ReplayOptions::default(),
            || RecordFormatter::new(ExportFormat::Jsonl, ColumnSet::default(), &[]),
            &mut out,
            &watch,
        )
        .unwrap();
        assert_eq!(*watch.input.lock().unwrap(), total, "{jobs} jobs");
    }
}

#[test]
fn a_file_made_by_pzstd_gives_the_records_of_the_plain_file() {
    let text = big_text(1);
    if text.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    let path = dir.path().join("games.pgn.zst");
    // pzstd at level 1 writes a skippable frame and a frame per 2 MiB or so.
    let made = std::process::Command::new("pzstd")
        .args(["-p", "2", "-1", "-q", "-f", "-o"])
        .arg(&path)
        .arg(&plain)
        .status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: pzstd is not installed (Debian's zstd package has it)");
        return;
    }
    let (expected, _) = export(&plain, 1);
    for jobs in [2, FRAMES_FROM_JOBS] {
        let (records, watch) = export(&path, jobs);
        assert!(
            records == expected,
            "{jobs} jobs: {} records",
            records.len()
        );
        let decoded: u64 = watch.decoded.lock().unwrap().values().sum();
        let on_workers = jobs >= FRAMES_FROM_JOBS;
        assert!(
            decoded > 2 && on_workers || decoded == 0 && !on_workers,
            "{jobs} jobs: {decoded} frames decoded on the workers"
        );
    }
}
