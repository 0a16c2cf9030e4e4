//! Parse-only throughput: arbiter's PGN reader beside pgn-reader 0.29, both with a visitor that
//! touches every tag, move and comment, on the pgnmentor corpus (13,163 games, 8.4 MB) and on the
//! lichess slice (`%clk`/`%eval` comments). Run with `cargo bench --bench parse`.
//!
//! With `ARBITER_PARSE_ONLY=FILE` set, it instead reads FILE once with arbiter's reader, prints
//! what it saw and exits: the program to measure peak memory with (`/usr/bin/time -v`).

use std::fs;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::PathBuf;

use arbiter::pgn::{self, GameInfo, Location, PgnError, Visitor};
use criterion::{Criterion, Throughput};

/// What arbiter's visitor saw.
#[derive(Debug, Default)]
struct Touch {
    games: u64,
    tags: u64,
    sans: u64,
    comments: u64,
    errors: u64,
    bytes: u64,
}

impl Visitor for Touch {
    type Output = ();

    fn tag(&mut self, name: &str, value: &str, _: Location) {
        self.tags += 1;
        self.bytes += (name.len() + value.len()) as u64;
    }
    fn san(&mut self, san: &str, _: Location) {
        self.sans += 1;
        self.bytes += san.len() as u64;
    }
    fn comment(&mut self, text: &str, _: Location) {
        self.comments += 1;
        self.bytes += text.len() as u64;
    }
    fn error(&mut self, _: PgnError) {
        self.errors += 1;
    }
    fn end_game(&mut self, _: &GameInfo<'_>) {
        self.games += 1;
    }
}

/// What pgn-reader's visitor saw.
#[derive(Debug, Default)]
struct TouchReference {
    games: u64,
    tags: u64,
    sans: u64,
    comments: u64,
    bytes: u64,
}

impl pgn_reader::Visitor for TouchReference {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), name: &[u8], value: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        self.tags += 1;
        self.bytes += (name.len() + value.as_bytes().len()) as u64;
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.sans += 1;
        black_box(san);
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &mut (), comment: pgn_reader::RawComment<'_>) -> ControlFlow<()> {
        self.comments += 1;
        self.bytes += comment.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    fn end_game(&mut self, _: ()) {
        self.games += 1;
    }
}

fn read_arbiter(bytes: &[u8]) -> Touch {
    let mut reader = pgn::Reader::new("bench", bytes);
    let mut touch = Touch::default();
    while let Ok(Some(())) = reader.read_game(&mut touch) {}
    touch
}

fn read_reference(bytes: &[u8]) -> TouchReference {
    let mut reader = pgn_reader::Reader::new(bytes);
    let mut touch = TouchReference::default();
    while let Ok(Some(())) = reader.read_game(&mut touch) {}
    touch
}

/// The shared test data, if present.
fn testdata() -> Option<PathBuf> {
    let dir = std::env::var_os("ARBITER_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| arbiter_test_support::workspace_root().join("../shared/testdata"));
    dir.join("corpora").is_dir().then_some(dir)
}

fn bench_parse(c: &mut Criterion, data: &std::path::Path) {
    let mut pgnmentor = Vec::new();
    let dir = data.join("corpora/pgnmentor-players");
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.sort();
    for name in names {
        pgnmentor.extend(fs::read(name).unwrap_or_default());
    }
    let lichess = fs::read(data.join("corpora/samples/lichess_db_1000k.pgn")).unwrap_or_default();

    for (label, bytes) in [("pgnmentor", &pgnmentor), ("lichess_1000k", &lichess)] {
        let ours = read_arbiter(bytes);
        let theirs = read_reference(bytes);
        eprintln!("{label}: arbiter {ours:?}\n{label}: pgn-reader {theirs:?}");
        assert_eq!(ours.games, theirs.games, "{label}: game counts differ");
        let mut group = c.benchmark_group(label);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("arbiter", |b| b.iter(|| read_arbiter(black_box(bytes))));
        group.bench_function("pgn-reader-0.29", |b| {
            b.iter(|| read_reference(black_box(bytes)))
        });
        group.finish();
    }
}

/// Reads one file (decompressing it) with arbiter's reader and prints the counts.
fn parse_only(path: &std::ffi::OsStr) {
    let source = arbiter::io::sources(&[path]).next();
    let Some(Ok(source)) = source else {
        eprintln!("cannot open {}", path.to_string_lossy());
        std::process::exit(2);
    };
    let mut reader = pgn::Reader::new(source.name, source.reader);
    let mut touch = Touch::default();
    loop {
        match reader.read_game(&mut touch) {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(e) => {
                eprintln!("{e}");
                break;
            }
        }
    }
    println!("{touch:?}");
}

fn main() {
    if let Some(path) = std::env::var_os("ARBITER_PARSE_ONLY") {
        parse_only(&path);
        return;
    }
    let Some(data) = testdata() else {
        eprintln!("note: no test data (set ARBITER_TESTDATA); nothing to measure");
        return;
    };
    let mut c = Criterion::default().configure_from_args();
    bench_parse(&mut c, &data);
    c.final_summary();
}
