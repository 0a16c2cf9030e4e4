//! The real data: every edge-case file and every corpus reads without a panic, and game counts on
//! the corpora equal their `[Event ` tag counts.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::Path;

use arbiter::io::{InputError, open_stream, sources};
use arbiter::pgn::{GameInfo, PgnError, Reader, Visitor};
use arbiter_test_support::reader::{files_below, read_all, testdata};

/// Counts games, moves and problems.
#[derive(Default)]
struct Counts {
    games: u64,
    sans: u64,
    comments: u64,
    errors: u64,
    warnings: u64,
}

impl Visitor for Counts {
    type Output = ();

    fn san(&mut self, san: &str, _: arbiter::pgn::Location) {
        assert!(!san.is_empty());
        self.sans += 1;
    }
    fn comment(&mut self, _: &str, _: arbiter::pgn::Location) {
        self.comments += 1;
    }
    fn error(&mut self, error: PgnError) {
        assert!(error.at.line >= 1 && error.at.column >= 1, "{error:?}");
        if error.is_warning() {
            self.warnings += 1;
        } else {
            self.errors += 1;
        }
    }
    fn end_game(&mut self, game: &GameInfo<'_>) {
        self.games += 1;
        assert_eq!(game.index(), self.games);
    }
}

/// Reads one file (decompressing it) and counts.
fn count(path: &Path) -> Counts {
    let file = fs::File::open(path).expect("open test file");
    let source = open_stream(path.display().to_string(), file);
    let mut reader = Reader::new(source.name, source.reader);
    let mut counts = Counts::default();
    while reader
        .read_game(&mut counts)
        .unwrap_or_else(|e| panic!("{e}"))
        .is_some()
    {}
    counts
}

/// Lines that start with `[Event ` in the decompressed bytes of `path`.
fn event_tags(path: &Path) -> u64 {
    let file = fs::File::open(path).expect("open test file");
    let mut source = open_stream(String::new(), file);
    let mut bytes = Vec::new();
    source
        .reader
        .read_to_end(&mut bytes)
        .expect("read test file");
    let first = u64::from(bytes.starts_with(b"[Event "));
    first + memchr::memmem::find_iter(&bytes, b"\n[Event ").count() as u64
}

/// The edge files that are not PGN, and what they are said to be: two ICC newsletters (HTML
/// e-mails with chess prose but no game) and two logs of pgn-extract. Every other file (tagless
/// movetext, comments or `%` lines first, a BOM, Latin-1, a few stray words) is read.
const NOT_PGN: [(&str, &str); 4] = [
    ("crafty06_02.pgn", "an e-mail message"),
    ("crafty06_03.pgn", "an e-mail message"),
    ("test-long-line-log.txt", "text with no tag pair"),
    ("test-nobadresults-log.txt", "text with no tag pair"),
];

// See: issue 25, point 13 (an e-mail read as PGN gave 1,643 "unexpected text" diagnostics).
#[test]
fn every_edge_file_reads_without_panic() {
    let Some(data) = testdata() else { return };
    let files = files_below(&data.join("edge"));
    assert!(files.len() > 150, "{} edge files", files.len());
    let mut games = 0;
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if let Some((_, said)) = NOT_PGN.iter().find(|(refused, _)| *refused == name) {
            let refused = sources(&[path]).next();
            assert!(
                matches!(&refused, Some(Err(InputError::NotPgn { what, .. }))
                    if what.starts_with(said)),
                "{name}: {refused:?}"
            );
            continue;
        }
        // A file refused as not PGN would fail here, with its read error.
        games += count(path).games;
    }
    assert!(games > 4000, "{games} games in edge/");
}

#[test]
fn corpora_game_counts_equal_event_tags() {
    let Some(data) = testdata() else { return };
    let mut per_dir: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for path in files_below(&data.join("corpora")) {
        let counts = count(&path);
        let events = event_tags(&path);
        assert_eq!(counts.games, events, "{}", path.display());
        assert_eq!(counts.errors, 0, "{}", path.display());
        let dir = path
            .parent()
            .and_then(Path::file_name)
            .map(|d| d.to_string_lossy().into_owned());
        let entry = per_dir.entry(dir.unwrap_or_default()).or_default();
        entry.0 += counts.games;
        entry.1 += counts.sans;
    }
    assert_eq!(per_dir["pgnmentor-players"].0, 13_163);
    assert_eq!(per_dir["annotated"].0, 927);
    assert_eq!(per_dir["tcec"].0, 2_322);
    assert_eq!(per_dir["samples"].0, 1_716);
}

#[test]
fn pgnmentor_forfeits_with_two_blank_lines_are_one_game() {
    let Some(data) = testdata() else { return };
    let path = data.join("corpora/pgnmentor-players/Topalov.pgn");
    let games = read_all(&fs::read(path).expect("read Topalov.pgn"));
    assert_eq!(games.len(), 1826);
    let forfeit = games
        .iter()
        .find(|g| g.tag("White") == Some("Kramnik,V") && g.sans() == ["d4"])
        .expect("the forfeit game");
    assert!(forfeit.errors.is_empty(), "{:?}", forfeit.errors);
}

#[test]
fn latin1_corpus_is_read_with_warnings() {
    let Some(data) = testdata() else { return };
    let counts = count(&data.join("corpora/annotated/dortmund.pgn"));
    assert_eq!(counts.games, 347);
    assert_eq!(counts.errors, 0);
    assert!(counts.warnings > 0);
    // python-chess reports 1,573, merging the comments it hangs on one node; the file has 2,270.
    assert_eq!(counts.comments, 2270);
}

#[test]
fn zst_and_its_decompressed_twin_read_the_same() {
    let Some(data) = testdata() else { return };
    let path = data.join("corpora/tcec/TCEC_Match_1.pgn.zst");
    let compressed = fs::read(&path).expect("read zst");
    let plain = zstd::decode_all(&compressed[..]).expect("decompress zst");
    let dir = tempfile::tempdir().expect("temp dir");
    let twin = dir.path().join("twin.pgn");
    fs::write(&twin, &plain).expect("write twin");

    let read = |p: &Path| {
        let source = sources(&[p]).next().expect("one source").expect("opens");
        let mut reader = Reader::new(source.name, source.reader);
        let mut recorder = arbiter_test_support::reader::Recorder::default();
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut recorder).expect("reads") {
            games.push(game);
        }
        games
    };
    let from_zst = read(&path);
    let from_twin = read(&twin);
    assert_eq!(from_zst.len(), 48);
    assert_eq!(from_zst, from_twin);
    // And the same as the uncompressed sample shipped beside it.
    let sample = read_all(&fs::read(data.join("corpora/samples/TCEC_Match_1.pgn")).expect("read"));
    assert_eq!(from_zst, sample);
}
