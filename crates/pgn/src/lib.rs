//! The PGN reader: splits a byte stream into games and parses each game into tags and movetext
//! tokens with exact source locations. It never checks legality; `replay` joins it to the rules
//! core.
//!
//! Reading is two steps, so that the second can run on worker threads:
//!
//! 1. [`Splitter`] cuts the stream into [`RawGame`]s (owned bytes, game number, first line) in
//!    constant memory;
//! 2. [`parse_game`] walks one game with the nom grammar and calls a [`Visitor`] per token.
//!
//! [`Reader`] does both in one loop; for a [`Visitor::one_pass`] visitor it goes further and
//! parses each one-pass game (nearly every game of a real archive) straight from its read buffer, in
//! one pass over the bytes that also finds where the game ends, exactly where the splitter would.
//! To read one large source on several threads, cut it into parts where [`last_game_start`] says
//! a game surely starts, and read each part with [`Reader::part`]: no thread has to cut the games
//! first.
//!
//! The files form a one-way stack: each uses only files before it in this list (a test below
//! holds them to it), so the grammar can be read, and changed, from the bottom up.
//!
//! 1. Tokens: `clock` (lichess's clock comment, `{ [%clk H:MM:SS] }`), `scan` (the byte search
//!    of the hot loops); `lex` (the lexer: every byte class and
//!    stop set, the size limits, the rules of line ends, comments, `%` lines, quoted values and
//!    their escapes, "need more input", the resumable lexer the cutter runs over, and the result
//!    token). No file above it has a byte class or a lexical rule of its own (a test of the
//!    `arbiter` crate greps for them).
//! 2. Rules: `grammar` (movetext tokens, nom), `tags` (tag pairs), `boundary` (where a game
//!    surely starts, for parts).
//! 3. One game: `raw` ([`RawGame`]), `location` ([`Location`], [`GameInfo`]), `encoding` (UTF-8
//!    or Windows-1252), `error`, `visitor`, `tag_names` (a repeated tag name starts a game).
//! 4. Movetext drivers: `moves` (move-like tokens, visited the same way by both), `variation`
//!    (skipping a variation, one scan for both), `movetext` (the driver: every movetext token,
//!    once, generic over a `Way` that says what to do at a defect), `parse` (the
//!    general way: report each defect and recover), `one_pass` (straight from the read buffer:
//!    at any defect, hand the game to the general way).
//! 5. The stream: `buffer` (the read buffer and its line count), `cut` (where a game ends: a
//!    section machine over the lexer's lexemes), `split` ([`Splitter`]).
//! 6. `ranged` ([`Ranged`]: a range of an input, from where a game surely starts to where
//!    another does, told from the bytes alone), `reader` ([`Reader`]: the choice between one pass and the general way, panic recovery).
//!
//! Read leniently, report precisely:
//!
//! - the PGN import format: tag pairs with `\"` and `\\` escapes (several on a line, blank lines
//!   among them, or one pair over lines: `[Site` newline `"Here"]`, though its value stays on one
//!   line), `{ }` comments that quote tag lines and whole games, move numbers `12.` `12...` `12 ...`, moves with `+ # ! ? !! ?? !? ?!`, NAGs `$n`,
//!   `{ }` and `;` comments, `( )` variations nested to any depth, `%` escape lines, results;
//! - what real files do: lichess `[%clk]`/`[%eval]` comments, `0-0`, `e.p.`, long algebraic moves,
//!   null moves `--` and `Z0`, CRLF and lone-CR line ends, a UTF-8 byte order mark, and
//!   Windows-1252 (Latin-1) games, decoded with a warning;
//! - every defect (an unterminated `{`, an unbalanced `(` or `)`, a broken tag, stray bytes) is a
//!   [`PgnError`] with its `line:column`, and reading goes on: no later game is lost.
//!
//! # Examples
//!
//! Count the moves of each game and print every problem:
//!
//! ```
//! use arbiter_pgn::{GameInfo, Location, PgnError, Reader, Visitor};
//!
//! #[derive(Default)]
//! struct Moves {
//!     count: usize,
//!     first: Option<Location>,
//!     problems: Vec<String>,
//! }
//!
//! impl Visitor for Moves {
//!     type Output = (u64, usize, String);
//!
//!     fn san(&mut self, _san: &str, location: Location) {
//!         self.count += 1;
//!         self.first.get_or_insert(location);
//!     }
//!
//!     fn error(&mut self, error: PgnError) {
//!         self.problems.push(error.report("games.pgn"));
//!     }
//!
//!     fn end_game(&mut self, game: &GameInfo<'_>) -> Self::Output {
//!         let first = self.first.take().map(|l| game.locate(l).to_string()).unwrap_or_default();
//!         (game.index(), std::mem::take(&mut self.count), first)
//!     }
//! }
//!
//! let pgn = "[Event \"A\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event \"B\"]\n\n1. d4 { open *\n";
//! let mut reader = Reader::new("games.pgn", pgn.as_bytes());
//! let mut moves = Moves::default();
//! assert_eq!(reader.read_game(&mut moves)?, Some((1, 3, "3:4".to_string())));
//! assert_eq!(reader.read_game(&mut moves)?, Some((2, 1, "7:4".to_string())));
//! assert_eq!(reader.read_game(&mut moves)?, None);
//! assert_eq!(
//!     moves.problems[0],
//!     "games.pgn:7:7: game 2: error: unterminated comment: `{` at 7:7 is never closed; \
//!      skipped to the end of the input"
//! );
//! # Ok::<(), arbiter_pgn::ReadError>(())
//! ```
//!
//! Split on one thread and parse on others: a [`RawGame`] owns its bytes and knows its number and
//! first line, so the results can be put back in order.
//!
//! ```
//! use arbiter_pgn::{parse_game, GameInfo, Location, RawGame, Splitter, Visitor};
//!
//! struct Sans(Vec<String>);
//!
//! impl Visitor for Sans {
//!     type Output = Vec<String>;
//!     fn san(&mut self, san: &str, _: Location) {
//!         self.0.push(san.to_string());
//!     }
//!     fn end_game(&mut self, _: &GameInfo<'_>) -> Vec<String> {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let pgn = "1. e4 e5 1-0\n1. d4 d5 0-1\n";
//! let games: Vec<RawGame> = Splitter::new(pgn.as_bytes()).collect::<Result<_, _>>()?;
//! let workers: Vec<_> = games
//!     .into_iter()
//!     .map(|game| std::thread::spawn(move || (game.index, parse_game(&game, &mut Sans(Vec::new())))))
//!     .collect();
//! let parsed: Vec<_> = workers.into_iter().filter_map(|w| w.join().ok()).collect();
//! assert_eq!(parsed, [(1, vec!["e4".to_string(), "e5".into()]), (2, vec!["d4".into(), "d5".into()])]);
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]

mod boundary;
mod buffer;
mod clock;
mod cut;
mod encoding;
mod error;
mod grammar;
mod lex;
mod location;
mod moves;
mod movetext;
mod one_pass;
mod parse;
mod ranged;
mod raw;
mod reader;
mod scan;
mod split;
mod tag_names;
mod tags;
mod variation;
mod visitor;

pub use boundary::{RANGE_LOOK_AHEAD, RANGE_LOOK_BEHIND, last_game_start, line_ends, sure_start};
pub use clock::{LICHESS_CLOCK_LEN, lichess_clock};
pub use error::{PgnError, PgnErrorKind, ReadError};
pub use lex::{BOM, GameResult, MAX_TAG_LINE, TAG_LINE_LOOK_BACK, is_space, may_start_token};
pub use location::{Encoding, GameInfo, LineCol, Location};
pub use parse::parse_game;
pub use ranged::{FIRST_BACK, RangeStop, Ranged};
pub use raw::RawGame;
pub use reader::Reader;
pub use split::{DEFAULT_MAX_GAME_BYTES, PartEnd, Rest, Splitter};
pub use visitor::{Flow, Visitor};

#[cfg(test)]
mod tests {
    /// The files of the module, in the order of the stack in the module documentation.
    const LAYERS: [(&str, &str); 22] = [
        ("clock", include_str!("clock.rs")),
        ("scan", include_str!("scan.rs")),
        ("lex", include_str!("lex.rs")),
        ("grammar", include_str!("grammar.rs")),
        ("tags", include_str!("tags.rs")),
        ("boundary", include_str!("boundary.rs")),
        ("raw", include_str!("raw.rs")),
        ("location", include_str!("location.rs")),
        ("encoding", include_str!("encoding.rs")),
        ("error", include_str!("error.rs")),
        ("visitor", include_str!("visitor.rs")),
        ("tag_names", include_str!("tag_names.rs")),
        ("moves", include_str!("moves.rs")),
        ("variation", include_str!("variation.rs")),
        ("movetext", include_str!("movetext.rs")),
        ("parse", include_str!("parse.rs")),
        ("one_pass", include_str!("one_pass.rs")),
        ("buffer", include_str!("buffer.rs")),
        ("cut", include_str!("cut.rs")),
        ("split", include_str!("split.rs")),
        ("ranged", include_str!("ranged.rs")),
        ("reader", include_str!("reader.rs")),
    ];

    #[test]
    fn files_use_only_the_files_below_them() {
        for (at, (name, text)) in LAYERS.iter().enumerate() {
            // Code only: not comments (doc links may point anywhere), not the unit tests.
            let code = text.split("\n#[cfg(test)]\n").next().unwrap_or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, _) in line.match_indices("super::") {
                    let used: String = line[i + 7..]
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                        .collect();
                    let Some(below) = LAYERS.iter().position(|(n, _)| *n == used) else {
                        continue;
                    };
                    assert!(
                        below < at,
                        "{name}.rs uses {used}.rs, which is not below it: {line}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_file_is_in_the_stack() {
        let declared = include_str!("lib.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .count();
        assert_eq!(declared, LAYERS.len());
    }
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
