//! The games kept so far, for `--dedup`: a game is a duplicate when its key (see [`key`]) is the
//! key of a game kept before it.
//!
//! Memory is a fixed number of bytes per kept game, whatever the game's length: a slot of 16
//! bytes (the key's 64-bit hash and where the key is stored) in an open-addressing table kept at
//! most three quarters full, so between 16 and 43 bytes per game, and 64 while the table doubles.
//! The keys themselves go to an anonymous temporary file (deleted by the system however the run
//! ends), written in blocks of [`BLOCK`] bytes. A hash that matches is never trusted: the kept
//! game's key is read back and compared byte for byte, so a hash collision cannot drop a game.
//!
//! # Examples
//!
//! ```
//! use arbiter::select::KeptGames;
//!
//! let mut kept = KeptGames::new()?;
//! assert!(kept.insert(b"1. e4 e5")?);
//! assert!(kept.insert(b"1. d4 d5")?);
//! assert!(!kept.insert(b"1. e4 e5")?, "a duplicate");
//! assert_eq!(kept.len(), 2);
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::hash::{DefaultHasher, Hasher};
use std::io::{self, Read, Seek, SeekFrom, Write};

use arbiter_core::tree::{GameTree, Node};

/// Keys are written to the file in blocks of this size (the last one stays in memory until
/// full).
pub const BLOCK: usize = 1 << 20;

/// What makes two games the same.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DedupMode {
    /// The same main line from the same start position.
    Moves,
    /// The same main line from the same start position, and the same White, Black, Date, Round
    /// and Result.
    Game,
}

/// Appends the key of `tree` under `mode` to `key`: the start position, the main line's moves,
/// and for [`DedupMode::Game`] the White, Black, Date and Round tags and `result` (the Result as
/// written). Each field is preceded by its length, so that no two games share a key by accident
/// of their separators.
pub fn key(tree: &GameTree, mode: DedupMode, result: &str, key: &mut Vec<u8>) {
    field(tree.start_epd().unwrap_or_default().as_bytes(), key);
    let start = key.len();
    key.extend_from_slice(&[0; 4]);
    // Each move as one copy of 8 bytes (the space before it, its SAN padded), cut back: a copy
    // of the SAN's length would call `memcpy` for every move.
    key.reserve(8 * tree.nodes().len() + 8);
    let mut depth = 0u32;
    // 1 once a move is in the key: a space goes before each later one.
    let mut space = 0;
    for node in tree.nodes() {
        let (san, len) = match *node {
            Node::Open => {
                depth += 1;
                continue;
            }
            Node::Close => {
                depth = depth.saturating_sub(1);
                continue;
            }
            Node::Move { ref san, .. } if depth == 0 => san.padded(),
            Node::Null { .. } if depth == 0 => (b"--\0\0\0\0\0", 2),
            _ => continue,
        };
        let [a, b, c, d, e, f, g] = *san;
        let word = u64::from_le_bytes([b' ', a, b, c, d, e, f, g]) >> (8 * (1 - space));
        let end = key.len() + space + len;
        key.extend_from_slice(&word.to_le_bytes());
        key.truncate(end);
        space = 1;
    }
    let len = u32::try_from(key.len() - start - 4).unwrap_or(u32::MAX);
    key[start..start + 4].copy_from_slice(&len.to_le_bytes());
    if mode == DedupMode::Game {
        // The first value of each of the four tags, found in one pass over the tags.
        let text = tree.all_text();
        let mut values: [Option<&[u8]>; 4] = [None; 4];
        for &(name, value) in tree.tag_spans() {
            let i = match text.get(name.range()).unwrap_or_default() {
                b"White" => 0,
                b"Black" => 1,
                b"Date" => 2,
                b"Round" => 3,
                _ => continue,
            };
            values[i].get_or_insert(text.get(value.range()).unwrap_or_default());
        }
        for value in values {
            field(value.unwrap_or_default(), key);
        }
        field(result.as_bytes(), key);
    }
}

/// Appends `bytes` with its length before it.
fn field(bytes: &[u8], key: &mut Vec<u8>) {
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    key.extend_from_slice(&len.to_le_bytes());
    key.extend_from_slice(bytes);
}

/// One slot of the table: the key's hash, and where the key is stored plus one (0: empty).
#[derive(Copy, Clone, Default)]
struct Slot {
    hash: u64,
    at: u64,
}

/// The set of the keys of the games kept; see the module documentation.
pub struct KeptGames {
    slots: Vec<Slot>,
    len: usize,
    keys: KeyFile,
}

impl KeptGames {
    /// An empty set, with its temporary file.
    pub fn new() -> io::Result<KeptGames> {
        Ok(KeptGames {
            slots: vec![Slot::default(); 1024],
            len: 0,
            keys: KeyFile::new()?,
        })
    }

    /// How many keys are kept.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no key is kept.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `key` unless it is kept already; returns whether it was added (false: the game is a
    /// duplicate).
    pub fn insert(&mut self, key: &[u8]) -> io::Result<bool> {
        self.insert_hashed(hash(key), key)
    }

    /// [`KeptGames::insert`] with the key's hash given (tests give colliding ones).
    fn insert_hashed(&mut self, hash: u64, key: &[u8]) -> io::Result<bool> {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot.at == 0 {
                break;
            }
            if slot.hash == hash && self.keys.equals(slot.at - 1, key)? {
                return Ok(false);
            }
            at = (at + 1) & mask;
        }
        let stored = self.keys.push(key)?;
        self.slots[at] = Slot {
            hash,
            at: stored + 1,
        };
        self.len += 1;
        if self.len * 4 > self.slots.len() * 3 {
            self.grow();
        }
        Ok(true)
    }

    /// Doubles the table.
    fn grow(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        self.slots = vec![Slot::default(); slots.len() * 2];
        let mask = self.slots.len() - 1;
        for slot in slots.into_iter().filter(|s| s.at != 0) {
            let mut at = slot.hash as usize & mask;
            while self.slots[at].at != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

/// The 64-bit hash of a key (SipHash with fixed keys: the same in every run).
fn hash(key: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    hasher.write(key);
    hasher.finish()
}

/// The keys, each as its length (4 bytes) and its bytes, end to end: the full blocks in the
/// file, the last one in memory.
struct KeyFile {
    file: File,
    /// Bytes in the file.
    written: u64,
    /// The bytes after them.
    tail: Vec<u8>,
    /// A key read back from the file.
    read: Vec<u8>,
}

/// `err`, of the key file, saying where that file is (an unnamed file in the temporary
/// directory, `TMPDIR`), so that a full disk there can be told from a full output.
fn keys_error(err: io::Error) -> io::Error {
    io::Error::new(
        err.kind(),
        format!(
            "--dedup keeps its keys in a temporary file in {} (set TMPDIR to choose another \
             directory): {err}",
            std::env::temp_dir().display()
        ),
    )
}

impl KeyFile {
    fn new() -> io::Result<KeyFile> {
        Ok(KeyFile {
            file: tempfile::tempfile().map_err(keys_error)?,
            written: 0,
            tail: Vec::new(),
            read: Vec::new(),
        })
    }

    /// Stores `key`; returns where.
    fn push(&mut self, key: &[u8]) -> io::Result<u64> {
        let at = self.written + self.tail.len() as u64;
        field(key, &mut self.tail);
        if self.tail.len() >= BLOCK {
            self.file.seek(SeekFrom::End(0)).map_err(keys_error)?;
            self.file.write_all(&self.tail).map_err(keys_error)?;
            self.written += self.tail.len() as u64;
            self.tail.clear();
        }
        Ok(at)
    }

    /// Whether the key stored at `at` is `key`.
    fn equals(&mut self, at: u64, key: &[u8]) -> io::Result<bool> {
        if at >= self.written {
            let from = (at - self.written) as usize;
            let stored = &self.tail[from..];
            return Ok(stored[..4] == field_len(key) && &stored[4..4 + key.len()] == key);
        }
        let mut len = [0; 4];
        self.file.seek(SeekFrom::Start(at)).map_err(keys_error)?;
        self.file.read_exact(&mut len).map_err(keys_error)?;
        if len != field_len(key) {
            return Ok(false);
        }
        self.read.resize(key.len(), 0);
        self.file.read_exact(&mut self.read).map_err(keys_error)?;
        Ok(self.read == key)
    }
}

/// The length bytes [`field`] writes before `key`.
fn field_len(key: &[u8]) -> [u8; 4] {
    u32::try_from(key.len()).unwrap_or(u32::MAX).to_le_bytes()
}

#[cfg(test)]
mod tests {
    use arbiter_rules::Position;
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn a_hash_collision_drops_no_game() {
        let mut kept = KeptGames::new().unwrap();
        // Every key with the same hash: each is still told apart by its bytes.
        for key in [&b"a"[..], b"b", b"ab", b""] {
            assert!(kept.insert_hashed(7, key).unwrap());
        }
        for key in [&b"a"[..], b"b", b"ab", b""] {
            assert!(!kept.insert_hashed(7, key).unwrap());
        }
        assert_eq!(kept.len(), 4);
    }

    #[test]
    fn keys_written_to_the_file_are_read_back() {
        let mut kept = KeptGames::new().unwrap();
        let keys: Vec<Vec<u8>> = (0..30_000u32)
            .map(|i| format!("game {i} {}", "x".repeat(i as usize % 97)).into_bytes())
            .collect();
        for key in &keys {
            assert!(kept.insert(key).unwrap());
        }
        assert!(kept.keys.written > 0, "some keys went to the file");
        for key in &keys {
            assert!(!kept.insert(key).unwrap());
        }
        // Colliding with a key in the file: compared with what the file holds.
        let first = &keys[0];
        assert!(!kept.insert_hashed(hash(first), first).unwrap());
        assert!(kept.insert_hashed(hash(first), b"game 0 y").unwrap());
        assert_eq!(kept.len(), keys.len() + 1);
        assert!(kept.slots.len() * 3 >= kept.len() * 4);
    }

    fn tree(moves: &[&str], tags: &[(&str, &str)], fen: Option<&str>) -> GameTree {
        let mut tree = GameTree::default();
        for (name, value) in tags {
            tree.tag(name, value);
        }
        tree.start(&fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap()));
        for (i, san) in moves.iter().enumerate() {
            tree.san(san, i as u32 + 1);
        }
        tree
    }

    fn key_of(tree: &GameTree, mode: DedupMode, result: &str) -> Vec<u8> {
        let mut out = Vec::new();
        key(tree, mode, result, &mut out);
        out
    }

    #[test]
    fn a_key_holds_each_field_after_its_length() {
        let tags = [("Round", "3"), ("White", "Ann"), ("White", "Later")];
        let mut game = tree(&["e4", "e5", "exd8=Q#"], &tags, None);
        game.null_move(4);
        game.open_variation();
        game.san("Nf3", 4);
        game.close_variation();
        game.san("O-O-O+", 5);
        let mut expected = Vec::new();
        let fields: [&[u8]; 7] = [
            b"",
            b"e4 e5 exd8=Q# -- O-O-O+",
            b"Ann",
            b"",
            b"",
            b"3",
            b"1-0",
        ];
        for field in fields {
            expected.extend_from_slice(&(field.len() as u32).to_le_bytes());
            expected.extend_from_slice(field);
        }
        assert_eq!(key_of(&game, DedupMode::Game, "1-0"), expected);
        assert_eq!(key_of(&game, DedupMode::Moves, "1-0"), expected[..31]);
    }

    #[test]
    fn keys_compare_the_main_line_the_start_and_for_games_the_players() {
        let ann = [("White", "Ann"), ("Black", "Bob")];
        let a = tree(&["e4", "e5"], &ann, None);
        let mut with_variation = tree(&["e4"], &[("White", "Cy")], None);
        with_variation.open_variation();
        with_variation.san("d4", 1);
        with_variation.close_variation();
        with_variation.san("e5", 2);
        assert_eq!(
            key_of(&a, DedupMode::Moves, "1-0"),
            key_of(&with_variation, DedupMode::Moves, "0-1")
        );
        assert_ne!(
            key_of(&a, DedupMode::Game, "1-0"),
            key_of(&with_variation, DedupMode::Game, "1-0")
        );
        assert_ne!(
            key_of(&a, DedupMode::Game, "1-0"),
            key_of(&a, DedupMode::Game, "0-1")
        );
        let from_fen = tree(
            &["e4", "e5"],
            &ann,
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"),
        );
        assert_ne!(
            key_of(&a, DedupMode::Moves, ""),
            key_of(&from_fen, DedupMode::Moves, "")
        );
        // Tag values are length-prefixed: moving text from one tag to the next changes the key.
        let names = tree(&[], &[("White", "A"), ("Black", "")], None);
        let shifted = tree(&[], &[("White", ""), ("Black", "A")], None);
        assert_ne!(
            key_of(&names, DedupMode::Game, "*"),
            key_of(&shifted, DedupMode::Game, "*")
        );
    }

    proptest! {
        /// The set keeps exactly the first of each key, as a std set would.
        #[test]
        fn keeps_the_first_of_each_key(keys in prop::collection::vec(prop::collection::vec(0u8..4, 0..6), 0..300)) {
            let mut kept = KeptGames::new().unwrap();
            let mut reference = std::collections::HashSet::new();
            for key in &keys {
                prop_assert_eq!(kept.insert(key).unwrap(), reference.insert(key.clone()));
            }
            prop_assert_eq!(kept.len(), reference.len());
        }
    }
}
