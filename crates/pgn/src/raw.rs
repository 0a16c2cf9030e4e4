//! One game's raw bytes as the splitter cuts them, with where the game stands in its input: the
//! unit of work handed from the splitter to the parser (and to worker threads: it is `Send`).

/// One game's raw bytes, cut from the stream, with where it stands in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The game's number in its stream, counted from 1.
    pub index: u64,
    /// Where the game's first byte stands in the (decompressed) stream, counted from 0: its first
    /// token, after the blanks, line ends and byte order mark before it (see [`super::Reader::range`]).
    pub offset: u64,
    /// The line of the source on which the game's first byte stands, counted from 1.
    pub first_line: u64,
    /// The column (in characters, from 1) of the game's first byte: 1 unless the previous game
    /// ended on the same line.
    pub first_column: u64,
    /// The line on which the next game starts (or the input ends).
    pub end_line: u64,
    /// Whether the game runs to the end of the input.
    pub at_eof: bool,
    /// Whether the input failed right after these bytes, before the game ended (inside its tags
    /// or movetext, or in a comment after its result): the game was cut short. (A game whose
    /// result line was read whole is not.)
    pub cut_short: bool,
    /// For a game over the size limit: how many bytes were skipped (and `bytes` is empty).
    pub too_large: Option<u64>,
    /// The game's bytes, from its first token to its end, as in the source.
    pub bytes: Vec<u8>,
}

impl RawGame {
    /// A game made of `bytes`, starting at line 1, column 1 (for tests and for single games).
    pub fn new(index: u64, bytes: Vec<u8>) -> RawGame {
        let lines = memchr::memchr_iter(b'\n', &bytes).count() as u64;
        RawGame {
            index,
            offset: 0,
            first_line: 1,
            first_column: 1,
            end_line: 1 + lines,
            at_eof: true,
            cut_short: false,
            too_large: None,
            bytes,
        }
    }
}
