//! The PGN reader on arbitrary bytes: no panic, no hang, and every token it reports lies inside
//! the game it belongs to. A small game size limit keeps the over-limit path busy too.

#![no_main]

use arbiter::pgn::{GameInfo, Location, PgnError, Reader, Visitor};
use libfuzzer_sys::fuzz_target;

#[derive(Default)]
struct Everything {
    tokens: u64,
    depth: i64,
    locations: Vec<Location>,
    errors: u64,
}

impl Visitor for Everything {
    type Output = (u64, u64);

    fn tag(&mut self, name: &str, value: &str, location: Location) {
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
        for &location in &self.locations {
            let at = game.locate(location);
            assert!(at.line >= game.raw().first_line, "{at} before the game");
            assert!(at.column >= 1);
        }
        self.locations.clear();
        (game.index(), std::mem::take(&mut self.errors))
    }
}

fuzz_target!(|data: &[u8]| {
    let limit = if data.first().is_some_and(|b| b & 1 == 1) {
        256
    } else {
        1 << 20
    };
    let mut reader = Reader::new("fuzz.pgn", data).with_max_game_bytes(limit);
    let mut visitor = Everything::default();
    let mut last = 0;
    while let Some((index, _)) = reader
        .read_game(&mut visitor)
        .expect("in-memory reads never fail")
    {
        assert_eq!(index, last + 1, "games are numbered in order");
        last = index;
    }
});
