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
//! The table is built once, the first time it is asked for (a few milliseconds: the entries'
//! moves replayed in order, each from the position it shares with the one before), and looked
//! up by Zobrist key, each match then checked in full.

use std::sync::OnceLock;

use arbiter_rules::{Position, San};

use super::PositionKey;

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

/// Bits of a key that index [`OpeningTable::filter`].
const FILTER_BITS: u32 = 16;

/// The opening table: each named position, by Zobrist key.
pub struct OpeningTable {
    /// One bit per value of a key's low [`FILTER_BITS`] bits, set when some entry's key has
    /// them: 8 KiB that answer most lookups (a game's positions past its first moves are
    /// nearly all unnamed) without a search.
    filter: Box<[u64]>,
    /// Each entry's Zobrist key and index, sorted by key (a key nearly always has one entry).
    by_key: Vec<(u64, u16)>,
    entries: Vec<(Opening, PositionKey)>,
}

/// `file N, line M`, as errors name the row on line `line` (from 0) of file `file` (from 0).
fn at((file, line): (usize, usize)) -> String {
    format!("file {}, line {}", file + 1, line + 1)
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
    ///
    /// The rows are replayed in the order of their moves, each from the position its moves share
    /// with the row before (most of a row's moves are those of a shorter row), which makes the
    /// build about five times faster than replaying every row from the start.
    pub fn build(files: &[&'static str]) -> Result<OpeningTable, String> {
        // Each row's opening and place.
        let mut rows: Vec<(Opening, (usize, usize))> = Vec::new();
        for (file, text) in files.iter().enumerate() {
            for (line, row) in text.lines().enumerate().skip(1) {
                let mut columns = row.split('\t');
                let (Some(eco), Some(name), Some(pgn), None) = (
                    columns.next(),
                    columns.next(),
                    columns.next(),
                    columns.next(),
                ) else {
                    return Err(format!("{}: not three columns", at((file, line))));
                };
                rows.push((Opening { eco, name, pgn }, (file, line)));
            }
        }
        if rows.len() > usize::from(u16::MAX) {
            return Err(format!("{}: more than 65,535 openings", at(rows[65_535].1)));
        }
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_unstable_by_key(|&i| rows[i].0.pgn);
        // The current line: each move's text and the position after it.
        let start = Position::startpos();
        let mut line: Vec<(&str, Position)> = Vec::new();
        let mut moves: Vec<&str> = Vec::new();
        // Each row's Zobrist key and position key, by row.
        let mut keyed = vec![None; rows.len()];
        for &i in &order {
            let (opening, place) = &rows[i];
            moves.clear();
            moves.extend(
                opening
                    .pgn
                    .split_ascii_whitespace()
                    .filter(|token| !token.ends_with('.')),
            );
            let shared = line
                .iter()
                .zip(&moves)
                .take_while(|((played, _), text)| played == *text)
                .count();
            line.truncate(shared);
            for text in &moves[shared..] {
                let from = line.last().map_or(&start, |(_, pos)| pos);
                let pos = play(from, text).map_err(|e| format!("{}: {e}", at(*place)))?;
                line.push((text, pos));
            }
            let pos = line.last().map_or(&start, |(_, pos)| pos);
            keyed[i] = Some((pos.zobrist(), PositionKey::of(pos)));
        }
        // The entries in the files' order; a position named twice is an error at the later row.
        let mut table = OpeningTable {
            filter: vec![0; 1 << (FILTER_BITS - 6)].into_boxed_slice(),
            by_key: Vec::with_capacity(rows.len()),
            entries: Vec::with_capacity(rows.len()),
        };
        for (i, keys) in keyed.into_iter().enumerate() {
            let (zobrist, key) = keys.expect("every row is replayed");
            let index = u16::try_from(i).expect("at most 65,535 rows");
            table.entries.push((rows[i].0, key));
            table.by_key.push((zobrist, index));
            let bit = filter_bit(zobrist);
            table.filter[bit / 64] |= 1 << (bit % 64);
        }
        table.by_key.sort_unstable();
        // Entries of one key, in the files' order: a position named twice is an error.
        for same in table.by_key.chunk_by(|a, b| a.0 == b.0) {
            for (j, &(_, later)) in same.iter().enumerate() {
                let again = &table.entries[usize::from(later)];
                if let Some(&(_, first)) = same[..j]
                    .iter()
                    .find(|&&(_, i)| table.entries[usize::from(i)].1 == again.1)
                {
                    let first = &table.entries[usize::from(first)].0;
                    let place = rows[usize::from(later)].1;
                    return Err(format!(
                        "{}: the position of {} again",
                        at(place),
                        first.name
                    ));
                }
            }
        }
        Ok(table)
    }

    /// The opening of `pos`, whose Zobrist key is `zobrist`, if the table names it.
    #[inline]
    pub fn lookup_keyed(&self, pos: &Position, zobrist: u64) -> Option<&Opening> {
        let bit = filter_bit(zobrist);
        if self.filter[bit / 64] & 1 << (bit % 64) == 0 {
            return None;
        }
        let first = self.by_key.partition_point(|&(key, _)| key < zobrist);
        self.by_key[first..]
            .iter()
            .take_while(|&&(key, _)| key == zobrist)
            .map(|&(_, i)| &self.entries[usize::from(i)])
            .find(|(_, key)| key.matches(pos))
            .map(|(opening, _)| opening)
    }
}

/// The bit of [`OpeningTable::filter`] for a key.
#[inline]
fn filter_bit(zobrist: u64) -> usize {
    (zobrist & ((1 << FILTER_BITS) - 1)) as usize
}

/// The position after the move `text` from `pos`.
fn play(pos: &Position, text: &str) -> Result<Position, String> {
    let mv = San::from_ascii(text.as_bytes())
        .map_err(|e| format!("{text}: {e}"))?
        .resolve(pos)
        .map_err(|e| format!("{text}: {e}"))?
        .mv;
    let mut next = pos.clone();
    next.play_unchecked(mv);
    Ok(next)
}

/// The position the moves `pgn` (move numbers allowed) reach from the start.
#[cfg(test)]
fn replay(pgn: &str) -> Result<Position, String> {
    let mut pos = Position::startpos();
    for text in pgn.split_ascii_whitespace().filter(|t| !t.ends_with('.')) {
        pos = play(&pos, text)?;
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

    /// The main line reached `pos`, whose Zobrist key is `zobrist`, with its ply `ply` (from 1).
    #[inline]
    pub fn after_ply(&mut self, ply: u32, pos: &Position, zobrist: u64) {
        if ply <= MAX_PLIES
            && let Some(opening) = OpeningTable::get().lookup_keyed(pos, zobrist)
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

    #[test]
    fn the_najdorf_is_named_by_its_deepest_position() {
        let named = classify("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Qd3").unwrap();
        assert_eq!(
            (named.eco, named.name),
            ("B90", "Sicilian Defense: Najdorf Variation")
        );
    }

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
            classifier.after_ply(ply as u32 + 1, &pos, pos.zobrist());
        }
        classifier.opening()
    }

    #[test]
    fn the_whole_table_is_read_and_every_position_is_named_once() {
        let table = OpeningTable::get();
        assert_eq!(table.entries.len(), 3807);
        // Each entry's own moves lead back to it.
        for (opening, key) in &table.entries {
            let pos = replay(opening.pgn).unwrap();
            assert_eq!(PositionKey::of(&pos), *key);
            let found = table.lookup_keyed(&pos, pos.zobrist());
            assert_eq!(found, Some(opening), "{}", opening.pgn);
        }
        let start = Position::startpos();
        assert!(table.lookup_keyed(&start, start.zobrist()).is_none());
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
        classifier.after_ply(MAX_PLIES + 1, &pos, pos.zobrist());
        assert_eq!(classifier.opening(), None);
        classifier.after_ply(MAX_PLIES, &pos, pos.zobrist());
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
