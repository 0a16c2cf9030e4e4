//! The splitter: cuts a byte stream into games, each with its number and starting line, in
//! constant memory.
//!
//! It reads through one [`Buffer`] that holds the current game (and grows only as far as the
//! largest game, up to a limit), and finds where each game ends with the scan of [`super::cut`].
//! Splitting and parsing are separate steps so that games can be parsed on worker threads: a
//! [`RawGame`] owns its bytes and is `Send`.

use std::io::{self, Read};

use super::buffer::Buffer;
use super::cut::cut;
use super::lex::Lines;
use super::raw::RawGame;
use super::tag_names::TagNames;

/// The default limit on one game's size: 64 MiB. The most heavily annotated real games are a few
/// MiB; a game larger than this is surely broken (say, a `(` never closed in a file without tags),
/// and keeping it would cost as much memory.
pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

/// Cuts a byte stream into [`RawGame`]s. A game ends after the line of its result, where the
/// next tag section starts (or a tag name repeats in a tag section), or at the end of the input;
/// a `{` comment runs to its `}` whatever it holds, unless it was never closed, and a tag pair may
/// span lines. (The exact rules
/// are in the module documentation of `crates/pgn/src/cut.rs`.)
#[derive(Debug)]
pub struct Splitter<R> {
    pub(super) input: Buffer<R>,
    /// A read failed: the stream is over.
    pub(super) failed: bool,
    pub(super) next_index: u64,
    pub(super) max_game: usize,
    /// Hashes of the tag names seen in the current game's tag section.
    pub(super) tag_names: TagNames,
}

impl Splitter<io::Empty> {
    /// A splitter over one part of a longer input, all in `bytes`: they start at stream offset
    /// `offset`, at the start of line `line` and of a game. After them the input either goes on
    /// with a game that starts there (`end` is [`PartEnd::MoreFollows`]: see
    /// [`super::last_game_start`]) or ends, perhaps with a read failure.
    pub fn part(bytes: Vec<u8>, offset: u64, line: u64, end: PartEnd) -> Splitter<io::Empty> {
        let len = bytes.len();
        let mut splitter = Splitter::with_buffer(io::empty(), bytes).starting_at(offset, line);
        splitter.input.end = len;
        splitter.input.eof = true;
        match end {
            PartEnd::MoreFollows => splitter.input.more_follows = true,
            PartEnd::Last(error) => splitter.input.error = error,
        }
        splitter
    }
}

/// The rest of a stream after some of its games: see [`Splitter::into_rest`].
#[derive(Debug)]
pub struct Rest<R> {
    /// Bytes read from the stream but not used yet: they come first.
    pub bytes: Vec<u8>,
    /// The stream, to read on from after them.
    pub source: R,
    /// The stream offset of the first of `bytes`, where the next game starts at the start of a
    /// line.
    pub offset: u64,
    /// That line, from 1.
    pub line: u64,
}

/// How the input goes on after a part of it: see [`Splitter::part`].
#[derive(Debug)]
pub enum PartEnd {
    /// With a game that starts right there.
    MoreFollows,
    /// It does not: the part ends the input, with this read failure if it failed there.
    Last(Option<io::Error>),
}

impl<R: Read> Splitter<R> {
    /// A splitter over `reader`, with the default game size limit.
    pub fn new(reader: R) -> Splitter<R> {
        Splitter::with_buffer(reader, Buffer::<R>::default_buf())
    }

    /// A splitter over `reader` whose buffer is `buf`.
    fn with_buffer(reader: R, buf: Vec<u8>) -> Splitter<R> {
        Splitter {
            input: Buffer::new(reader, buf),
            failed: false,
            next_index: 1,
            max_game: DEFAULT_MAX_GAME_BYTES,
            tag_names: TagNames::default(),
        }
    }

    /// Takes the stream as starting at offset `offset` of a longer one, at the start of line
    /// `line` and of a game: for the rest of an input of which the first part was read elsewhere.
    pub fn starting_at(mut self, offset: u64, line: u64) -> Splitter<R> {
        self.input.base = offset;
        self.input.lines = Lines {
            line,
            start: offset,
        };
        self
    }

    /// Sets the largest game kept, in bytes (at least 64; at most 4 GiB). A larger game is handed
    /// out with no bytes and [`RawGame::too_large`] set.
    pub fn with_max_game_bytes(mut self, max: usize) -> Splitter<R> {
        self.max_game = max.clamp(64, u32::MAX as usize);
        self
    }

    /// The buffer, to be used again.
    pub fn into_buffer(self) -> Vec<u8> {
        self.input.buf
    }

    /// The rest of the stream after the games handed out so far, if the next one starts at the
    /// start of a line and no read failed; else the splitter back.
    pub fn into_rest(self) -> Result<Rest<R>, Box<Splitter<R>>> {
        let input = &self.input;
        let at = input.base + input.start as u64;
        if self.failed || input.error.is_some() || input.lines.start != at {
            return Err(Box::new(self));
        }
        let input = self.input;
        Ok(Rest {
            bytes: input.buf[input.start..input.end].to_vec(),
            source: input.reader,
            offset: at,
            line: input.lines.line,
        })
    }

    /// How many bytes have been read from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.input.bytes_read()
    }

    /// How many bytes of the stream the games handed out so far span (with what lies between).
    pub fn bytes_done(&self) -> u64 {
        self.input.bytes_done()
    }

    /// Cuts the next game into `game`, reusing its buffer. Returns `false` at the end of the input.
    ///
    /// After an I/O error every later call returns `Ok(false)`.
    pub fn next_into(&mut self, game: &mut RawGame) -> io::Result<bool> {
        if self.failed {
            return Ok(false);
        }
        let result = cut(&mut self.input, &mut self.tag_names, self.max_game, game);
        match result {
            Ok(true) => {
                game.index = self.next_index;
                self.next_index += 1;
            }
            Ok(false) => {}
            Err(_) => self.failed = true,
        }
        result
    }
}

impl<R: Read> Iterator for Splitter<R> {
    type Item = io::Result<RawGame>;

    /// The next game in a fresh buffer (for handing games to other threads).
    fn next(&mut self) -> Option<io::Result<RawGame>> {
        let mut game = RawGame::default();
        match self.next_into(&mut game) {
            Ok(true) => Some(Ok(game)),
            Ok(false) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte at a time, to exercise every refill path.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn split(input: &[u8]) -> Vec<(u64, u64, String)> {
        fn cut(splitter: impl Iterator<Item = io::Result<RawGame>>) -> Vec<(u64, u64, String)> {
            splitter
                .map(|g| g.expect("in-memory read"))
                .map(|g| {
                    (
                        g.first_line,
                        g.first_column,
                        String::from_utf8_lossy(&g.bytes).into_owned(),
                    )
                })
                .collect()
        }
        let games = cut(Splitter::new(input));
        let trickled = cut(Splitter::new(Trickle(input)));
        assert_eq!(games, trickled, "splitting must not depend on read sizes");
        games
    }

    fn texts(input: &str) -> Vec<String> {
        split(input.as_bytes()).into_iter().map(|g| g.2).collect()
    }

    #[test]
    fn empty_inputs_have_no_games() {
        assert!(texts("").is_empty());
        assert!(texts(" \n\r\n\t").is_empty());
        assert!(texts("\u{feff}\n").is_empty());
    }

    #[test]
    fn games_end_after_their_result_line() {
        let g = texts("[A \"1\"]\n\n1. e4 1-0 ff\n[A \"2\"]\n\n1. d4 *\n");
        assert_eq!(g, ["[A \"1\"]\n\n1. e4 1-0 ff\n", "[A \"2\"]\n\n1. d4 *\n"]);
        let g = texts("1. e4 1-0 {a}\n; b\n\n{ c\n}\n%d\n\n[A \"2\"] *");
        assert_eq!(g, ["1. e4 1-0 {a}\n; b\n\n{ c\n}\n%d\n\n", "[A \"2\"] *"]);
        let g = texts("1. e4 e5 1-0\n1. d4 d5 0-1\r\n1. c4 1/2-1/2");
        assert_eq!(g, ["1. e4 e5 1-0\n", "1. d4 d5 0-1\r\n", "1. c4 1/2-1/2"]);
    }

    #[test]
    fn a_result_glued_to_the_token_before_it_ends_the_game() {
        // Issue 43, point 1: as the parser reads them (see `grammar::result_at`).
        let g =
            texts("1. e4 e5*\n1. d4 $1*\n1. c4 Nc6!?1-0\n[A \"1\"]1-0\n1. Nf3 e51-0\n1. b3 *\n");
        assert_eq!(
            g,
            [
                "1. e4 e5*\n",
                "1. d4 $1*\n",
                "1. c4 Nc6!?1-0\n",
                "[A \"1\"]1-0\n",
                "1. Nf3 e51-0\n1. b3 *\n"
            ]
        );
    }

    #[test]
    fn blank_lines_in_and_after_tags_keep_one_game() {
        let g = texts("[A \"1\"]\n\n[B \"2\"]\n\n\n1. d4 0-1\n");
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn repeated_tag_names_start_a_new_game() {
        let g = texts("[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n[Site \"y\"]\n");
        assert_eq!(
            g,
            [
                "[Event \"a\"]\n[Site \"x\"]\n\n",
                "[Event \"b\"]\n[Site \"y\"]\n"
            ]
        );
    }

    #[test]
    fn comments_and_tag_values_do_not_split() {
        let input = "[Event \"a [b] 1-0\"]\n1. e4 { 1-0 [x]\n\n(\n[%clk 0:01] } e5 ; 0-1 [Event \"z\"]\n\
                     %[Event \"esc\"] 1-0\n2. Nf3 (2. d4 1-0) * \n[Event \"next\"]\n*";
        let g = texts(input);
        assert_eq!(g.len(), 2, "{g:?}");
        assert!(g[0].ends_with("* \n"));
    }

    #[test]
    fn next_tag_section_ends_a_game_without_result() {
        let g = split(b"1. e4 e5\n[Event \"b\"] 1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!((g[1].0, g[1].1), (2, 1));
        let g = split(b"1. e4 e5 [Event \"b\"] *");
        assert_eq!((g[1].0, g[1].1), (1, 10));
    }

    #[test]
    fn unterminated_comment_stops_at_a_tag_line() {
        let g = texts("1. e4 { open\n[not a tag] ...\n[Event \"b\"]\n*\n");
        assert_eq!(g, ["1. e4 { open\n[not a tag] ...\n", "[Event \"b\"]\n*\n"]);
    }

    #[test]
    fn a_comment_runs_to_its_brace_whatever_tag_lines_it_quotes() {
        let quoted = "[Event \"a\"]\n\n1. e4 { the game went:\n\n[Event \"x\"]\n[Site \"y\"]\n\n1. d4 \
                      d5 } e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n";
        let g = texts(quoted);
        assert_eq!(g.len(), 2, "{g:?}");
        assert!(g[0].ends_with("e5 1-0\n\n"), "{g:?}");
        // The same comment never closed: the next game's own comment gives it away, or the end.
        let unclosed = "[Event \"a\"]\n\n1. e4 { open\n\n[Event \"b\"]\n[Site \"y\"]\n\n1. d4 \
                        { [%clk 0:03:00] } d5 *\n";
        let g = texts(unclosed);
        assert_eq!(g.len(), 2, "{g:?}");
        assert_eq!(g[0], "[Event \"a\"]\n\n1. e4 { open\n\n");
        let g = texts("1. e4 { open\n[Event \"b\"]\n\n1. d4 d5 *\n");
        assert_eq!(g, ["1. e4 { open\n", "[Event \"b\"]\n\n1. d4 d5 *\n"]);
        // Whole games quoted, their tag sections and results: the `}` followed by movetext
        // closes the comment (issue 30, point 2).
        let whole = "1. e4 {Compare the two classics:\n[Event \"Game A\"]\n\n1. d4 *\n\n\
                     [Event \"Game B\"]\n} e5 *\n";
        assert_eq!(texts(whole), [whole]);
        let crlf = whole.replace('\n', "\r\n");
        assert_eq!(texts(&crlf), [crlf.as_str()]);
        // Followed by what no movetext can be, the `}` closes nothing: the tag line ends the game.
        let g =
            texts("1. e4 { open\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 \x00}\x01 *\n");
        assert_eq!(g.len(), 3, "{g:?}");
        assert_eq!(g[0], "1. e4 { open\n");
        // A `}` that no movetext can follow closes nothing.
        let g = texts("1. e4 { open\n[Event \"b\"]\n\n1. d4 *\n\x01}\x02\x03\n");
        assert_eq!(g[0], "1. e4 { open\n", "{g:?}");
        let g = texts("1. e4 { quoted\n[Event \"b\"]\n} e5 *\n");
        assert_eq!(g.len(), 1, "{g:?}");
    }

    #[test]
    fn tag_pairs_over_lines_keep_one_game() {
        // PGN 8.1: white space, line ends included, separates a tag pair's tokens.
        for pair in [
            "[Site\n\"Here\"]",
            "[Site \"Here\"\n]",
            "[\nSite\r\n\"Here\"\r]",
        ] {
            let game = format!("[Event \"a\"]\n{pair}\n[Date \"x\"]\n\n1. e4 *\n\n");
            let input = format!("{game}[Event \"b\"]\n*\n");
            let g = split(input.as_bytes());
            assert_eq!(g.len(), 2, "{pair:?}: {g:?}");
            assert_eq!(g[0].2, game, "{pair:?}");
            let line = 7 + crate::lex::count_line_ends(pair.as_bytes());
            assert_eq!(
                (g[1].0, g[1].1),
                (line, 1),
                "{pair:?}: the next game's line"
            );
            // A name repeated over lines starts the next game; so does a pair over lines after
            // movetext, or on the line of a result.
            let repeated = format!("[Site \"x\"]\n{pair}\n*\n");
            assert_eq!(texts(&repeated), ["[Site \"x\"]\n", &repeated[11..]]);
            let after = format!("1. e4 e5\n{pair}\n*\n");
            assert_eq!(texts(&after), ["1. e4 e5\n", &after[9..]]);
            let after = format!("1. e4 1-0 {pair}\n*\n");
            assert_eq!(texts(&after), ["1. e4 1-0 ", &after[10..]]);
        }
        // A string that spans lines is no string (PGN 7): a broken tag, then movetext.
        let g = texts("[Event \"a\"]\n[Site \"He\nre\"]\n[Date \"x\"]\n*\n");
        assert_eq!(
            g,
            ["[Event \"a\"]\n[Site \"He\nre\"]\n", "[Date \"x\"]\n*\n"]
        );
        // Nor is a pair over lines longer than the look-ahead.
        let long = format!(
            "[Event \"a\"]\n[Site{}\"x\"]\n[Date \"x\"]\n*\n",
            "\n".repeat(5000)
        );
        assert_eq!(texts(&long).len(), 2);
    }

    #[test]
    fn an_unclosed_comment_with_a_tag_line_ends_within_the_size_limit() {
        let text = format!(
            "1. e4 {{ open\n[Event \"b\"]\n\n1. d4 {} *\n",
            "d5 Nf3 Nf6 ".repeat(100)
        );
        let mut splitter = Splitter::new(Trickle(text.as_bytes())).with_max_game_bytes(200);
        let first = splitter.next().and_then(Result::ok).unwrap_or_default();
        assert_eq!(first.bytes, b"1. e4 { open\n");
        let second = splitter.next().and_then(Result::ok).unwrap_or_default();
        assert_eq!(second.first_line, 2);
    }

    #[test]
    fn a_large_game_handed_over_leaves_the_next_ones_where_they_were() {
        // Over a megabyte: handed over with the read buffer, not copied. The next game starts on
        // its last line, after characters of two bytes each, or after a line too long to keep.
        let comment = "a few words\n".repeat(200_000);
        let big = format!("[Event \"big\"]\n\n1. e4 {{{comment}}} e5 1-0 éé ");
        let long_line = format!("[Event \"long\"]\n\n1. e4 {{{}}} 1-0 ", "x".repeat(3 << 20));
        let input = format!("{big}[Event \"b\"] *\n{long_line}[Event \"c\"] *\n");
        let games = split(input.as_bytes());
        let texts: Vec<&str> = games.iter().map(|g| g.2.as_str()).collect();
        assert_eq!(
            texts,
            [
                &big[..],
                "[Event \"b\"] *\n",
                &long_line,
                "[Event \"c\"] *\n"
            ]
        );
        let big_lines = big.matches('\n').count() as u64;
        assert_eq!((games[1].0, games[1].1), (1 + big_lines, 13));
        let line = 2 + big_lines + 2;
        assert_eq!((games[3].0, games[3].1), (line, (3 << 20) + 14));
    }

    #[test]
    fn lines_count_every_line_end() {
        let g = split(b"*\r\n\r\n*\r\r*\n\n{a\rb\r\nc\nd}*\n*");
        let lines: Vec<(u64, u64)> = g.iter().map(|g| (g.0, g.1)).collect();
        // The comment after the third game's result trails it; the fourth starts after `}`.
        assert_eq!(lines, [(1, 1), (3, 1), (5, 1), (10, 3), (11, 1)]);
    }

    #[test]
    fn byte_order_marks_are_skipped() {
        let g = split("\u{feff}[A \"1\"] *\n\u{feff}[A \"2\"] *".as_bytes());
        assert_eq!(g[0], (1, 1, "[A \"1\"] *\n".to_string()));
        assert_eq!(g[1], (2, 1, "[A \"2\"] *".to_string()));
    }

    #[test]
    fn games_over_the_limit_are_skipped() {
        let big = format!("[A \"1\"]\n1. e4 {{{}}} *\n[A \"2\"]\n*\n", "x".repeat(500));
        let mut splitter = Splitter::new(Trickle(big.as_bytes())).with_max_game_bytes(100);
        let first = splitter.next().and_then(Result::ok).unwrap_or_default();
        assert_eq!(first.too_large, Some(519));
        assert!(first.bytes.is_empty());
        let second = splitter.next().and_then(Result::ok).unwrap_or_default();
        assert_eq!((second.index, second.first_line), (2, 3));
        assert_eq!(second.bytes, b"[A \"2\"]\n*\n");
    }

    #[test]
    fn read_errors_end_the_stream() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("boom"))
            }
        }
        let mut splitter = Splitter::new(Broken);
        assert!(matches!(splitter.next(), Some(Err(_))));
        assert!(splitter.next().is_none());
    }
}
