//! Opening names: the ECO code and name of a game's opening, from lichess's public-domain table
//! of 3,807 named positions (`data/openings/`, CC0; its README says where it comes from), built
//! into the library.
//!
//! A game is classified by position, so that transpositions count: its opening is the entry of
//! the deepest position of its main line, among the positions after each of its first
//! [`MAX_PLIES`] plies, that the table names; none gives no name. Positions are compared as
//! [`PositionKey`]s: placement, side to move, castling rights, and the en passant square only
//! when an en passant capture is legal, the rule with which the table's positions were written.
//! This is how lichess names its games, so that the `ECO` and `Opening` tags of lichess games
//! agree with it, apart from names the table changed since the games were played.
//!
//! The table is built once, the first time it is asked for (about a millisecond: each entry's
//! moves replayed from the start), and looked up by Zobrist key, each match then checked in full.
//!
//! # Examples
//!
//! ```
//! use arbiter::rules::{Position, San};
//! use arbiter::Classifier;
//!
//! let mut pos = Position::startpos();
//! let mut opening = Classifier::default();
//! for (ply, text) in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Qd3"]
//!     .iter()
//!     .enumerate()
//! {
//!     let mv = San::from_ascii(text.as_bytes()).unwrap().resolve(&pos).unwrap().mv;
//!     pos.play_unchecked(mv);
//!     opening.after_ply(ply as u32 + 1, &pos);
//! }
//! let named = opening.opening().unwrap();
//! assert_eq!((named.eco, named.name), ("B90", "Sicilian Defense: Najdorf Variation"));
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::PositionKey;
use crate::rules::{Position, San};

/// Only the positions after the first 40 plies of a main line are looked up, as lichess does.
pub const MAX_PLIES: u32 = 40;

/// The five files of the table, `eco`, `name` and `pgn` columns with a header row.
const FILES: [&str; 5] = [
    include_str!("../../data/openings/a.tsv"),
    include_str!("../../data/openings/b.tsv"),
    include_str!("../../data/openings/c.tsv"),
    include_str!("../../data/openings/d.tsv"),
    include_str!("../../data/openings/e.tsv"),
];

/// One named opening of the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The name, e.g. `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
    /// The moves from the start position that reach it, e.g. `1. e4 c5 2. Nf3 d6`.
    pub pgn: &'static str,
}

/// A Zobrist key is random already: it is its own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Bits of a key that index [`OpeningTable::filter`].
const FILTER_BITS: u32 = 16;

/// The opening table: each named position, by Zobrist key.
pub struct OpeningTable {
    /// One bit per value of a key's low [`FILTER_BITS`] bits, set when some entry's key has
    /// them: 8 KiB that answer most lookups (a game's positions past its first moves are
    /// nearly all unnamed) without touching the map.
    filter: Box<[u64]>,
    /// Per Zobrist key, the entries whose position has that key (nearly always one).
    by_key: HashMap<u64, Vec<u16>, BuildHasherDefault<KeyHasher>>,
    entries: Vec<(Opening, PositionKey)>,
}

impl OpeningTable {
    /// The table built into the library, built on first use.
    pub fn get() -> &'static OpeningTable {
        static TABLE: OnceLock<OpeningTable> = OnceLock::new();
        TABLE.get_or_init(|| OpeningTable::build(&FILES).expect("the built-in table reads"))
    }

    /// A table from TSV files of `eco`, `name` and `pgn` columns with a header row; an error
    /// names the file, the line and what is wrong (a move that is not legal, a missing column, a
    /// position named twice).
    pub fn build(files: &[&'static str]) -> Result<OpeningTable, String> {
        let mut table = OpeningTable {
            filter: vec![0; 1 << (FILTER_BITS - 6)].into_boxed_slice(),
            by_key: HashMap::default(),
            entries: Vec::new(),
        };
        for (file, text) in files.iter().enumerate() {
            for (line, row) in text.lines().enumerate().skip(1) {
                let at = || format!("file {}, line {}", file + 1, line + 1);
                let mut columns = row.split('\t');
                let (Some(eco), Some(name), Some(pgn), None) = (
                    columns.next(),
                    columns.next(),
                    columns.next(),
                    columns.next(),
                ) else {
                    return Err(format!("{}: not three columns", at()));
                };
                let pos = replay(pgn).map_err(|e| format!("{}: {e}", at()))?;
                let key = PositionKey::of(&pos);
                let zobrist = pos.zobrist();
                let same = table.by_key.entry(zobrist).or_default();
                if let Some(&other) = same.iter().find(|&&i| table.entries[i as usize].1 == key) {
                    let other = table.entries[other as usize].0;
                    return Err(format!("{}: the position of {} again", at(), other.name));
                }
                let index = u16::try_from(table.entries.len())
                    .map_err(|_| format!("{}: more than 65,535 openings", at()))?;
                same.push(index);
                table.entries.push((Opening { eco, name, pgn }, key));
                let bit = filter_bit(zobrist);
                table.filter[bit / 64] |= 1 << (bit % 64);
            }
        }
        Ok(table)
    }

    /// How many openings the table names.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table names no opening.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The opening of `pos`, if the table names it.
    #[inline]
    pub fn lookup(&self, pos: &Position) -> Option<&Opening> {
        let zobrist = pos.zobrist();
        let bit = filter_bit(zobrist);
        if self.filter[bit / 64] & 1 << (bit % 64) == 0 {
            return None;
        }
        let found = self.by_key.get(&zobrist)?;
        found
            .iter()
            .map(|&i| &self.entries[usize::from(i)])
            .find(|(_, key)| key.matches(pos))
            .map(|(opening, _)| opening)
    }
}

/// The bit of [`OpeningTable::filter`] for a key.
#[inline]
fn filter_bit(zobrist: u64) -> usize {
    (zobrist & ((1 << FILTER_BITS) - 1)) as usize
}

/// The position the moves `pgn` (move numbers allowed) reach from the start.
fn replay(pgn: &str) -> Result<Position, String> {
    let mut pos = Position::startpos();
    let moves = pgn
        .split_ascii_whitespace()
        .filter(|token| !token.ends_with('.'));
    for text in moves {
        let mv = San::from_ascii(text.as_bytes())
            .map_err(|e| format!("{text}: {e}"))?
            .resolve(&pos)
            .map_err(|e| format!("{text}: {e}"))?
            .mv;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// Classifies one game as its main line is played: told the position after each ply, it keeps
/// the deepest one the table names within the first [`MAX_PLIES`].
#[derive(Clone, Debug, Default)]
pub struct Classifier {
    found: Option<&'static Opening>,
}

impl Classifier {
    /// Forgets the last game.
    pub fn reset(&mut self) {
        self.found = None;
    }

    /// The main line reached `pos` with its ply `ply` (from 1).
    #[inline]
    pub fn after_ply(&mut self, ply: u32, pos: &Position) {
        if ply <= MAX_PLIES
            && let Some(opening) = OpeningTable::get().lookup(pos)
        {
            self.found = Some(opening);
        }
    }

    /// The game's opening, if the table names a position of its first plies.
    pub fn opening(&self) -> Option<&'static Opening> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(moves: &str) -> Option<&'static Opening> {
        let mut pos = Position::startpos();
        let mut classifier = Classifier::default();
        for (ply, text) in moves.split_whitespace().enumerate() {
            let mv = San::from_ascii(text.as_bytes())
                .unwrap()
                .resolve(&pos)
                .unwrap()
                .mv;
            pos.play_unchecked(mv);
            classifier.after_ply(ply as u32 + 1, &pos);
        }
        classifier.opening()
    }

    #[test]
    fn the_whole_table_is_read_and_every_position_is_named_once() {
        let table = OpeningTable::get();
        assert_eq!(table.len(), 3807);
        // Each entry's own moves lead back to it.
        for (opening, key) in &table.entries {
            let pos = replay(opening.pgn).unwrap();
            assert_eq!(PositionKey::of(&pos), *key);
            assert_eq!(table.lookup(&pos), Some(opening), "{}", opening.pgn);
        }
        assert!(table.lookup(&Position::startpos()).is_none());
    }

    #[test]
    fn the_deepest_named_position_wins() {
        let najdorf = classify("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6").unwrap();
        assert_eq!(
            (najdorf.eco, najdorf.name),
            ("B90", "Sicilian Defense: Najdorf Variation")
        );
        // A move that leaves the table keeps the last name found.
        let later = classify("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6 a3").unwrap();
        assert_eq!(later.eco, "B90");
        assert_eq!(classify("e4").unwrap().name, "King's Pawn Game");
        assert_eq!(classify(""), None);
    }

    #[test]
    fn transpositions_are_named_by_position() {
        // The Queen's Gambit Declined by the English move order.
        let by_d4 = classify("d4 d5 c4 e6 Nc3 Nf6").unwrap();
        let by_c4 = classify("c4 e6 Nc3 d5 d4 Nf6").unwrap();
        assert_eq!(by_d4, by_c4);
        assert_eq!(by_d4.pgn, "1. d4 d5 2. c4 e6 3. Nc3 Nf6");
    }

    #[test]
    fn only_the_first_forty_plies_count() {
        let mut classifier = Classifier::default();
        let pos = replay("1. e4 e5 2. Nf3").unwrap();
        classifier.after_ply(MAX_PLIES + 1, &pos);
        assert_eq!(classifier.opening(), None);
        classifier.after_ply(MAX_PLIES, &pos);
        assert_eq!(classifier.opening().unwrap().name, "King's Knight Opening");
        classifier.reset();
        assert_eq!(classifier.opening(), None);
    }

    #[test]
    fn a_bad_table_is_refused_with_its_place() {
        let err = |files: &[&'static str]| OpeningTable::build(files).err().unwrap();
        assert!(
            err(&["eco\tname\tpgn\nA00\tX\t1. e5\n"]).starts_with("file 1, line 2: e5: "),
            "an illegal move is named"
        );
        assert_eq!(
            err(&["eco\tname\tpgn\nA00\tX\n"]),
            "file 1, line 2: not three columns"
        );
        assert_eq!(
            err(&[
                "eco\tname\tpgn\nA00\tX\t1. e4\n",
                "eco\tname\tpgn\nB00\tY\t1. e4\n"
            ]),
            "file 2, line 2: the position of X again"
        );
    }
}
