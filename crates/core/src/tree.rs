//! One game as `select` writes it: its tags in input order, and its movetext as a flat list of
//! [`Node`]s (moves in canonical SAN, null moves, NAGs, comments, and the `(` and `)` of
//! variations) with the text they point into. The replay records it as it plays the game, so
//! that select reads every game once: each move's SAN is the canonical one of the position it
//! was played in, which only the replay knows.
//!
//! Nothing is allocated per game once the buffers have grown: [`GameTree::clear`] keeps them.
//!
//! # Examples
//!
//! ```
//! use arbiter_core::tree::GameTree;
//! use arbiter_pgn::GameResult;
//! use arbiter_rules::Position;
//!
//! let mut tree = GameTree::default();
//! tree.tag("Event", "Casual");
//! tree.start(&Position::startpos());
//! tree.san("e4", 1);
//! tree.comment(" best by test ");
//! tree.san("e5", 2);
//! tree.open_variation();
//! tree.san("c5", 2);
//! tree.close_variation();
//! tree.marker(GameResult::Unknown);
//! assert_eq!(tree.tag_value("Event"), Some("Casual"));
//! assert_eq!(tree.main_line().collect::<Vec<_>>(), ["e4", "e5"]);
//! ```

use arbiter_pgn::GameResult;
use arbiter_rules::Position;
use arbiter_rules::san::Suffix;

use crate::position::PositionKey;

/// A piece of [`GameTree`]'s text: `start..end` in bytes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// Where the piece lies in [`GameTree::all_text`].
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A move's SAN, stored in the node itself (the longest canonical SAN, such as `Qh4xe1#` or
/// `exd8=Q#`, has 7 bytes): a move costs no copy into the tree's text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveText {
    len: u8,
    bytes: [u8; 7],
}

impl MoveText {
    /// `san` followed by `suffix`, if the two fit in 7 bytes.
    #[inline]
    fn new(san: &str, suffix: &str) -> Option<MoveText> {
        let len = san.len() + suffix.len();
        if len > 7 {
            return None;
        }
        // Copies of a fixed size (two overlapping ones for the SAN), where a copy of a slice's
        // length calls `memcpy` (twice a move: 2% of select's instructions on lichess games).
        let (san, suffix) = (san.as_bytes(), suffix.as_bytes());
        let mut bytes = [0; 7];
        let n = san.len();
        match n {
            0 => {}
            1 => bytes[0] = san[0],
            2 | 3 => {
                bytes[..2].copy_from_slice(&san[..2]);
                bytes[n - 2..n].copy_from_slice(&san[n - 2..]);
            }
            _ => {
                bytes[..4].copy_from_slice(&san[..4]);
                bytes[n - 4..n].copy_from_slice(&san[n - 4..]);
            }
        }
        for (slot, &b) in bytes[n..].iter_mut().zip(suffix) {
            *slot = b;
        }
        Some(MoveText {
            len: len as u8,
            bytes,
        })
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The text's bytes (ASCII).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The text's bytes padded with zeros to 7, and its length: for copies of a fixed size.
    #[inline]
    pub fn padded(&self) -> (&[u8; 7], usize) {
        (&self.bytes, usize::from(self.len))
    }
}

/// One token of the movetext.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A move, its canonical SAN in the text, and its ply counted from the game's start (1 for
    /// the first move; in a variation, the ply of the move it replaces).
    Move {
        /// The SAN, e.g. `Nbd2`, `exd8=Q#`, `O-O`.
        san: MoveText,
        /// The ply.
        ply: u32,
    },
    /// A null move (written `--`), with its ply.
    Null {
        /// The ply.
        ply: u32,
    },
    /// A numeric annotation glyph (`!` is 1).
    Nag(u8),
    /// A comment's text, as read (untrimmed).
    Comment(Span),
    /// A `(`: a variation starts, replacing the move before it.
    Open,
    /// A `)`: the innermost variation ends.
    Close,
}

/// One game's tags and movetext; see the module documentation.
#[derive(Clone, Debug)]
pub struct GameTree {
    /// Tag names and values, in input order.
    tags: Vec<(Span, Span)>,
    /// The movetext, in order.
    nodes: Vec<Node>,
    /// Every text the tags and nodes point into.
    text: String,
    /// The first position's move number, and whether Black moves first.
    start_fullmove: u32,
    black_first: bool,
    /// The first four FEN fields of the first position, when it is not the standard one.
    start_epd: Option<String>,
    /// The movetext's termination marker, if it has one.
    marker: Option<GameResult>,
    /// Some move was not replayed (a variation that replaces no move, or nested too deep), so
    /// that its canonical SAN is not known.
    incomplete: bool,
}

impl Default for GameTree {
    /// An empty game from the standard position.
    fn default() -> GameTree {
        GameTree {
            tags: Vec::new(),
            nodes: Vec::new(),
            text: String::new(),
            start_fullmove: 1,
            black_first: false,
            start_epd: None,
            marker: None,
            incomplete: false,
        }
    }
}

impl GameTree {
    /// Forgets the last game, keeping the buffers.
    pub fn clear(&mut self) {
        self.tags.clear();
        self.nodes.clear();
        self.text.clear();
        self.start_fullmove = 1;
        self.black_first = false;
        self.start_epd = None;
        self.marker = None;
        self.incomplete = false;
    }

    fn push_text(&mut self, text: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(text);
        Span {
            start: offset(start),
            end: offset(self.text.len()),
        }
    }

    /// A tag pair, value as read (escapes undone).
    pub fn tag(&mut self, name: &str, value: &str) {
        let name = self.push_text(name);
        let value = self.push_text(value);
        self.tags.push((name, value));
    }

    /// The game starts from `pos` (move numbers count from its own).
    pub fn start(&mut self, pos: &Position) {
        self.start_fullmove = pos.fullmoves();
        self.black_first = pos.turn() == arbiter_rules::Color::Black;
        self.start_epd = None;
        if PositionKey::of(pos) != PositionKey::of(&Position::startpos()) {
            let fen = pos.to_fen();
            let epd: Vec<&str> = fen.split(' ').take(4).collect();
            self.start_epd = Some(epd.join(" "));
        }
    }

    /// A move, in canonical SAN, played at ply `ply`.
    pub fn san(&mut self, san: &str, ply: u32) {
        self.push_move(san, "", ply);
    }

    /// A move `san` followed by `suffix`; a text too long for a SAN leaves the tree incomplete.
    #[inline]
    fn push_move(&mut self, san: &str, suffix: &str, ply: u32) {
        match MoveText::new(san, suffix) {
            Some(san) => self.nodes.push(Node::Move { san, ply }),
            None => self.incomplete = true,
        }
    }

    /// A move played at ply `ply`: its canonical SAN without a suffix, and its check or mate
    /// suffix.
    #[inline]
    pub fn played(&mut self, san: &str, suffix: Option<Suffix>, ply: u32) {
        self.push_move(san, suffix.map_or("", Suffix::as_str), ply);
    }

    /// A null move played at ply `ply`.
    pub fn null_move(&mut self, ply: u32) {
        self.nodes.push(Node::Null { ply });
    }

    /// A NAG.
    pub fn nag(&mut self, nag: u8) {
        self.nodes.push(Node::Nag(nag));
    }

    /// A comment, text as read; returns where its text lies in [`GameTree::all_text`].
    pub fn comment(&mut self, text: &str) -> Span {
        let span = self.push_text(text);
        self.nodes.push(Node::Comment(span));
        span
    }

    /// A `(`.
    pub fn open_variation(&mut self) {
        self.nodes.push(Node::Open);
    }

    /// A `)`.
    pub fn close_variation(&mut self) {
        self.nodes.push(Node::Close);
    }

    /// The movetext's termination marker.
    pub fn marker(&mut self, result: GameResult) {
        self.marker = Some(result);
    }

    /// Some move of the game was not replayed: its canonical SAN is not known, and the game
    /// cannot be written from the tree.
    pub fn set_incomplete(&mut self) {
        self.incomplete = true;
    }

    /// Whether every move of the game was replayed, so that the tree can be written.
    pub fn is_complete(&self) -> bool {
        !self.incomplete
    }

    /// The text of every tag and comment, one after the other ([`Span::range`] cuts it).
    pub fn all_text(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The text of `span`.
    pub fn text(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or_default()
    }

    /// The tags, in input order.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags
            .iter()
            .map(|&(name, value)| (self.text(name), self.text(value)))
    }

    /// The tags, in input order, as where their names and values lie in
    /// [`GameTree::all_text`]: for writers that copy them without cutting a `str`.
    pub fn tag_spans(&self) -> &[(Span, Span)] {
        &self.tags
    }

    /// The value of the tag `name`, if the game has it.
    pub fn tag_value(&self, name: &str) -> Option<&str> {
        // The names compared as bytes: no `str` is cut for a tag that is not the one.
        let text = self.text.as_bytes();
        self.tags
            .iter()
            .find(|(n, _)| text.get(n.range()) == Some(name.as_bytes()))
            .map(|&(_, value)| self.text(value))
    }

    /// The movetext.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The movetext's termination marker, if it has one.
    pub fn termination_marker(&self) -> Option<GameResult> {
        self.marker
    }

    /// The move number of ply `ply`, and whether Black makes it.
    pub fn move_number(&self, ply: u32) -> (u32, bool) {
        let index = ply.saturating_sub(1) + u32::from(self.black_first);
        (
            self.start_fullmove.saturating_add(index / 2),
            index % 2 == 1,
        )
    }

    /// The first four FEN fields of the game's first position when it is not the standard
    /// starting position.
    pub fn start_epd(&self) -> Option<&str> {
        self.start_epd.as_deref()
    }

    /// The main line's moves, in SAN (`--` for a null move).
    pub fn main_line(&self) -> impl Iterator<Item = &str> + '_ {
        self.main_line_bytes()
            .map(|san| std::str::from_utf8(san).unwrap_or_default())
    }

    /// [`GameTree::main_line`] as bytes.
    pub fn main_line_bytes(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let mut depth = 0u32;
        self.nodes.iter().filter_map(move |node| match *node {
            Node::Open => {
                depth += 1;
                None
            }
            Node::Close => {
                depth = depth.saturating_sub(1);
                None
            }
            Node::Move { ref san, .. } if depth == 0 => Some(san.as_bytes()),
            Node::Null { .. } if depth == 0 => Some(&b"--"[..]),
            _ => None,
        })
    }

    /// The Result the game declares, as a PGN result: the `Result` tag (spaces around it
    /// allowed), else the termination marker, else `*`. `None` when the tag is there but is
    /// not a result (`1/2`, `1-0 (time)`): such a game is not written from the tree.
    pub fn declared_result(&self) -> Option<GameResult> {
        match self.tag_value("Result") {
            Some(value) => match value.trim() {
                "*" => Some(GameResult::Unknown),
                other => {
                    let result = GameResult::from_tag(other);
                    (result != GameResult::Unknown).then_some(result)
                }
            },
            None => Some(self.marker.unwrap_or(GameResult::Unknown)),
        }
    }
}

/// A text offset as stored: a game is at most 4 GiB (the reader's cap is far below).
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_text_holds_its_san_and_suffix() {
        let san = "Qh4xe1#=";
        for n in 0..=san.len() {
            for suffix in ["", "+", "#", "!?"] {
                let text = MoveText::new(&san[..n], suffix);
                let whole = format!("{}{suffix}", &san[..n]);
                if whole.len() > 7 {
                    assert_eq!(text, None, "{whole}");
                } else {
                    let text = text.unwrap();
                    assert_eq!(text.as_str(), whole);
                    let (padded, len) = text.padded();
                    assert_eq!(len, whole.len());
                    assert!(padded[len..].iter().all(|&b| b == 0), "{padded:?}");
                }
            }
        }
    }

    #[test]
    fn move_numbers_count_from_the_first_position() {
        let mut tree = GameTree::default();
        tree.clear();
        tree.start(&Position::startpos());
        assert_eq!(tree.move_number(1), (1, false));
        assert_eq!(tree.move_number(2), (1, true));
        assert_eq!(tree.move_number(3), (2, false));
        assert_eq!(tree.start_epd(), None);
        let black = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 17").unwrap();
        tree.start(&black);
        assert_eq!(tree.move_number(1), (17, true));
        assert_eq!(tree.move_number(2), (18, false));
        assert_eq!(tree.start_epd(), Some("4k3/8/8/8/8/8/4P3/4K3 b - -"));
        // The standard position set up by a FEN tag is the standard start.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9";
        tree.start(&Position::from_fen(fen).unwrap());
        assert_eq!((tree.start_epd(), tree.move_number(1)), (None, (9, false)));
    }

    #[test]
    fn the_main_line_leaves_out_variations() {
        let mut tree = GameTree::default();
        tree.san("e4", 1);
        tree.open_variation();
        tree.san("d4", 1);
        tree.open_variation();
        tree.san("c4", 1);
        tree.close_variation();
        tree.san("d5", 2);
        tree.close_variation();
        tree.nag(1);
        tree.null_move(2);
        tree.comment("x");
        assert_eq!(tree.main_line().collect::<Vec<_>>(), ["e4", "--"]);
        assert_eq!(tree.nodes().len(), 11);
    }

    #[test]
    fn the_declared_result_is_the_tag_else_the_marker() {
        let mut tree = GameTree::default();
        assert_eq!(tree.declared_result(), Some(GameResult::Unknown));
        tree.marker(GameResult::Draw);
        assert_eq!(tree.declared_result(), Some(GameResult::Draw));
        tree.tag("Result", " 1-0 ");
        assert_eq!(tree.declared_result(), Some(GameResult::WhiteWins));
        tree.clear();
        tree.tag("Result", "*");
        assert_eq!(tree.declared_result(), Some(GameResult::Unknown));
        tree.clear();
        tree.tag("Result", "1/2");
        assert_eq!(tree.declared_result(), None);
        assert!(tree.is_complete());
        tree.set_incomplete();
        assert!(!tree.is_complete());
    }
}
