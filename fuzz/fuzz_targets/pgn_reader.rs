//! The PGN reader on arbitrary bytes: no panic, no hang, and every token it reports lies inside
//! the game it belongs to; and the one-pass reading (a one-pass visitor) sees
//! exactly what the general way sees, and so does reading the input through reads of small
//! sizes, and reading it in parts cut where a game surely starts (as `--jobs N` reads one large
//! input), and reading it in ranges (`--range`: from where a game surely starts, told from the
//! bytes alone, by a file that seeks and by a stream), whose games are the same but for their
//! lines, counted per game. A small game size limit keeps the over-limit path busy too. A visitor that skips
//! comments gets the same places, and each skipped comment's span holds exactly its text. A tag
//! pair may span lines, but no tag value holds a line end.

#![no_main]

use arbiter::pgn::{
    GameInfo, Location, PartEnd, PgnError, Ranged, Reader, Visitor, last_game_start, line_ends,
};
use libfuzzer_sys::fuzz_target;

#[derive(Default)]
struct Everything {
    tokens: u64,
    depth: i64,
    locations: Vec<Location>,
    errors: u64,
    one_pass: bool,
    /// Skip comments' text ([`Visitor::wants_comments`] false): their spans are checked.
    skip_comments: bool,
    spans: Vec<std::ops::Range<usize>>,
}

/// What a game looked like: its number, token and error counts, where its tokens are, and its
/// raw bytes, end line and first line.
type Seen = (u64, u64, u64, Vec<(u64, u64)>, Vec<u8>, u64, u64);

impl Visitor for Everything {
    type Output = Seen;

    fn begin_game(&mut self, _: &GameInfo<'_>) {
        self.tokens = 0;
        self.depth = 0;
        self.locations.clear();
        self.errors = 0;
        self.spans.clear();
    }
    fn one_pass(&self) -> bool {
        self.one_pass
    }
    fn tag(&mut self, name: &str, value: &str, location: Location) {
        // A tag pair may span lines, its string never (PGN 7 and 8.1).
        assert!(
            !value.contains(['\n', '\r']),
            "a tag value holds a line end"
        );
        self.tokens += (name.len() + value.len()) as u64;
        self.locations.push(location);
    }
    fn move_number(&mut self, _: u32, _: u8, location: Location) {
        self.locations.push(location);
    }
    fn san(&mut self, san: &str, location: Location) {
        assert!(!san.is_empty());
        self.tokens += 1;
        self.locations.push(location);
    }
    fn comment(&mut self, _: &str, location: Location) {
        self.locations.push(location);
    }
    fn clock_comment(&mut self, clock: u32, text: &str, location: Location) {
        // Counted apart from other comments, so that both ways must recognise the same ones
        // (and a visitor that skips comments counts the `{ }` comments whose text is a clock).
        assert_eq!(arbiter::pgn::lichess_clock(text.as_bytes()), Some(clock));
        self.tokens += 1 + u64::from(clock);
        self.locations.push(location);
    }
    fn wants_comments(&self) -> bool {
        !self.skip_comments
    }
    fn comment_skipped(&mut self, location: Location, text: std::ops::Range<usize>) {
        assert_eq!(text.start, location.offset() + 1);
        self.locations.push(location);
        self.spans.push(text);
    }
    fn begin_variation(&mut self, location: Location) -> arbiter::pgn::Flow {
        self.depth += 1;
        self.locations.push(location);
        arbiter::pgn::Flow::Continue
    }
    fn end_variation(&mut self, location: Location) {
        self.depth -= 1;
        assert!(self.depth >= 0, "more ends than begins of variations");
        self.locations.push(location);
    }
    fn error(&mut self, error: PgnError) {
        self.errors += 1;
        assert!(!error.message.is_empty());
        let _ = error.report("fuzz.pgn");
    }
    fn end_game(&mut self, game: &GameInfo<'_>) -> Self::Output {
        assert_eq!(self.depth, 0, "every variation ends");
        let mut located = Vec::new();
        for &location in &self.locations {
            let at = game.locate(location);
            assert!(at.line >= game.first_line(), "{at} before the game");
            assert!(at.column >= 1);
            located.push((at.line, at.column));
        }
        self.locations.clear();
        let bytes = game.bytes();
        for span in self.spans.drain(..) {
            let text = &bytes[span.clone()];
            match bytes[span.start - 1] {
                b'{' => {
                    assert_eq!(
                        bytes.get(span.end),
                        Some(&b'}'),
                        "a comment ends at its `}}`"
                    );
                    assert!(!text.contains(&b'}'));
                    // Counted as `clock_comment` counts what a reading visitor is handed.
                    if let Some(clock) = arbiter::pgn::lichess_clock(text) {
                        self.tokens += 1 + u64::from(clock);
                    }
                }
                b';' => {
                    assert!(matches!(bytes.get(span.end), None | Some(b'\n' | b'\r')));
                    assert!(!text.iter().any(|&b| b == b'\n' || b == b'\r'));
                }
                other => panic!("a comment starts with {other}"),
            }
        }
        (
            game.index(),
            std::mem::take(&mut self.tokens),
            std::mem::take(&mut self.errors),
            located,
            game.bytes().to_vec(),
            game.end_line(),
            game.first_line(),
        )
    }
}

/// A game as a range reads it: its lines counted from its first line, not numbered.
fn per_game((_, tokens, errors, located, bytes, end_line, first_line): Seen) -> Seen {
    let relative = |line: u64| line + 1 - first_line;
    let located = located.into_iter().map(|(l, c)| (relative(l), c)).collect();
    (0, tokens, errors, located, bytes, relative(end_line), 1)
}

/// Reads every game of `data` in the ranges `[0, a)`, `[a, b)` and `[b, end]`, from a file that
/// seeks or a stream, with a one-pass visitor or not.
fn read_in_ranges(
    data: &[u8],
    limit: usize,
    a: u64,
    b: u64,
    seek: bool,
    one_pass: bool,
) -> Vec<Seen> {
    let mut visitor = Everything {
        one_pass,
        ..Everything::default()
    };
    let mut games = Vec::new();
    for range in [0..a, a..b, b..data.len() as u64 + 1] {
        let file = std::io::Cursor::new(data);
        let ranged = if seek {
            Ranged::seeking(file, range).expect("in memory")
        } else {
            Ranged::new(file, range)
        };
        let mut reader = Reader::ranged("fuzz.pgn", ranged)
            .expect("in memory")
            .with_max_game_bytes(limit);
        while let Some(game) = reader.read_game(&mut visitor).expect("in memory") {
            games.push(per_game(game));
        }
    }
    games
}

/// Hands out its bytes in pieces of 1 to `largest` bytes, sizes drawn from a seed.
struct Pieces<'a> {
    bytes: &'a [u8],
    seed: u64,
    largest: u64,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        let n = ((1 + self.seed % self.largest) as usize)
            .min(out.len())
            .min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Reads every game from `input` with a visitor that reads in one pass or not, and skips
/// comments' text or not.
fn read_from(
    input: impl std::io::Read,
    limit: usize,
    one_pass: bool,
    skip_comments: bool,
) -> Vec<Seen> {
    let mut reader = Reader::new("fuzz.pgn", input).with_max_game_bytes(limit);
    let mut visitor = Everything {
        one_pass,
        skip_comments,
        ..Everything::default()
    };
    let mut games: Vec<Seen> = Vec::new();
    while let Some(game) = reader
        .read_game(&mut visitor)
        .expect("in-memory reads never fail")
    {
        let last = games.last().map_or(0, |g| g.0);
        assert_eq!(game.0, last + 1, "games are numbered in order");
        games.push(game);
    }
    games
}

/// Reads every game of `data` in parts of about `size` bytes, each cut where a game surely
/// starts, with a one-pass visitor; numbers the games across the parts.
fn read_in_parts(data: &[u8], limit: usize, size: usize) -> Vec<Seen> {
    let mut visitor = Everything {
        one_pass: true,
        ..Everything::default()
    };
    let mut games: Vec<Seen> = Vec::new();
    let (mut start, mut line) = (0, 1);
    let mut end = start + size;
    loop {
        let (stop, how) = if end >= data.len() {
            (data.len(), PartEnd::Last(None))
        } else {
            match last_game_start(&data[start..end], 0) {
                Some(at) => (start + at, PartEnd::MoreFollows),
                None => {
                    end += size;
                    continue;
                }
            }
        };
        let last = matches!(how, PartEnd::Last(_));
        let part = &data[start..stop];
        let mut reader = Reader::part("fuzz.pgn", part.to_vec(), start as u64, line, how)
            .with_max_game_bytes(limit);
        let before = games.len() as u64;
        while let Some(mut game) = reader.read_game(&mut visitor).expect("in memory") {
            game.0 += before;
            games.push(game);
        }
        if last {
            return games;
        }
        line += line_ends(part);
        start = stop;
        end = start + size;
    }
}

fuzz_target!(|data: &[u8]| {
    let limit = if data.first().is_some_and(|b| b & 1 == 1) {
        256
    } else {
        1 << 20
    };
    let general = read_from(data, limit, false, false);
    let one_pass = read_from(data, limit, true, false);
    assert!(general == one_pass, "the one-pass reading differs");
    for one_pass in [false, true] {
        let skipping = read_from(data, limit, one_pass, true);
        assert!(
            general == skipping,
            "skipping comments differs (one pass: {one_pass})"
        );
    }
    let seed = u64::from(data.get(2).copied().unwrap_or(0)) | 1 << 32;
    for (largest, one_pass, skip) in [
        (1, false, false),
        (7, true, true),
        (64, false, true),
        (300, true, false),
    ] {
        let pieces = Pieces {
            bytes: data,
            seed,
            largest,
        };
        let read = read_from(pieces, limit, one_pass, skip);
        assert!(
            general == read,
            "reading in pieces of 1..={largest} differs"
        );
    }
    let size = 1 + usize::from(data.get(1).copied().unwrap_or(0));
    let in_parts = read_in_parts(data, limit, size);
    assert!(general == in_parts, "the reading in parts differs");
    let len = data.len() as u64;
    let a = (size as u64 * 7) % (len + 1);
    let b = a + (u64::from(data.get(3).copied().unwrap_or(0)) * 5) % (len + 1 - a);
    let whole: Vec<Seen> = general.into_iter().map(per_game).collect();
    for (seek, one_pass) in [(true, true), (false, false)] {
        let in_ranges = read_in_ranges(data, limit, a, b, seek, one_pass);
        assert!(
            whole == in_ranges,
            "the reading in ranges {a}, {b} differs (seek: {seek})"
        );
    }
});
