//! What the reader's tests and the pipeline's share: a visitor that records every token of every
//! game ([`Recorder`]), ways to read a text through it, damage to make of a text, a small random
//! generator, and where the test data lives.

use std::path::{Path, PathBuf};

use arbiter_pgn::{Flow, GameInfo, GameResult, PgnError, PgnErrorKind, Reader, Visitor};

/// One token as the recorder saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A tag pair: its name and value.
    Tag(String, String),
    /// A move number and how many dots followed it.
    MoveNumber(u32, u8),
    /// A move as written.
    San(String),
    /// A null move as written.
    Null(String),
    /// A NAG.
    Nag(u8),
    /// A comment's text.
    Comment(String),
    /// A lichess clock comment (`{ [%clk 0:03:00] }`): its reading and its text.
    Clock(u32, String),
    /// The start of a variation.
    Begin,
    /// The end of a variation.
    End,
    /// The game termination marker.
    Result(GameResult),
    /// Words after the result that are no comment (`1-0 (time)`).
    AfterResult(String),
}

/// A recorded game: its tokens (with line:col), its errors, and where it stood.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The game's number in the stream, from 0.
    pub index: u64,
    /// The line of its first byte.
    pub first_line: u64,
    /// Its tokens, each with its `line:col`.
    pub tokens: Vec<(Token, String)>,
    /// The reader's errors.
    pub errors: Vec<PgnError>,
    /// The game's raw bytes, column, end line and end of input flag, and its encoding.
    pub raw: (Vec<u8>, u64, u64, bool, bool),
}

impl Game {
    /// The tokens without their locations.
    pub fn bare(&self) -> Vec<Token> {
        self.tokens.iter().map(|(t, _)| t.clone()).collect()
    }

    /// The kinds of the problems found, warnings included.
    pub fn kinds(&self) -> Vec<PgnErrorKind> {
        self.errors.iter().map(|e| e.kind).collect()
    }

    /// The SAN tokens.
    pub fn sans(&self) -> Vec<String> {
        self.tokens
            .iter()
            .filter_map(|(t, _)| match t {
                Token::San(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tokens.iter().find_map(|(t, _)| match t {
            Token::Tag(n, v) if n == name => Some(v.as_str()),
            _ => None,
        })
    }

    /// The errors proper (no warnings).
    pub fn hard_errors(&self) -> Vec<&PgnError> {
        self.errors.iter().filter(|e| !e.is_warning()).collect()
    }
}

/// Records every token with its resolved location.
#[derive(Default)]
pub struct Recorder {
    pending: Vec<(Token, arbiter_pgn::Location)>,
    errors: Vec<PgnError>,
    skip_variations: bool,
    /// Says it is [`Visitor::one_pass`] (and is: `begin_game` forgets the game before).
    one_pass: bool,
    /// The current game was begun in the reader's one-pass way (its bytes not yet known).
    began_one_pass: bool,
    /// Games read the one-pass way.
    pub one_pass_games: u64,
    /// How often a game was begun.
    pub begins: u64,
}

impl Recorder {
    /// A recorder that skips every variation.
    pub fn skipping() -> Recorder {
        Recorder {
            skip_variations: true,
            ..Recorder::default()
        }
    }

    /// The same recorder, but a one-pass visitor: the reader then takes most games in one pass.
    pub fn one_pass(self) -> Recorder {
        Recorder {
            one_pass: true,
            ..self
        }
    }

    fn push(&mut self, token: Token, location: arbiter_pgn::Location) {
        self.pending.push((token, location));
    }
}

impl Visitor for Recorder {
    type Output = Game;

    fn begin_game(&mut self, game: &GameInfo<'_>) {
        self.begins += 1;
        self.began_one_pass = game.read_in_one_pass();
        if self.one_pass {
            self.pending.clear();
            self.errors.clear();
        }
    }
    fn one_pass(&self) -> bool {
        self.one_pass
    }

    fn tag(&mut self, name: &str, value: &str, location: arbiter_pgn::Location) {
        self.push(Token::Tag(name.into(), value.into()), location);
    }
    fn move_number(&mut self, number: u32, dots: u8, location: arbiter_pgn::Location) {
        self.push(Token::MoveNumber(number, dots), location);
    }
    fn san(&mut self, san: &str, location: arbiter_pgn::Location) {
        self.push(Token::San(san.into()), location);
    }
    fn null_move(&mut self, text: &str, location: arbiter_pgn::Location) {
        self.push(Token::Null(text.into()), location);
    }
    fn nag(&mut self, nag: u8, location: arbiter_pgn::Location) {
        self.push(Token::Nag(nag), location);
    }
    fn comment(&mut self, text: &str, location: arbiter_pgn::Location) {
        self.push(Token::Comment(text.into()), location);
    }
    fn clock_comment(&mut self, clock: u32, text: &str, location: arbiter_pgn::Location) {
        self.push(Token::Clock(clock, text.into()), location);
    }
    fn text_after_result(&mut self, text: &str, location: arbiter_pgn::Location) {
        self.push(Token::AfterResult(text.into()), location);
    }
    fn begin_variation(&mut self, location: arbiter_pgn::Location) -> Flow {
        if self.skip_variations {
            return Flow::Skip;
        }
        self.push(Token::Begin, location);
        Flow::Continue
    }
    fn end_variation(&mut self, location: arbiter_pgn::Location) {
        self.push(Token::End, location);
    }
    fn result(&mut self, result: GameResult, location: arbiter_pgn::Location) {
        self.push(Token::Result(result), location);
    }
    fn error(&mut self, error: PgnError) {
        self.errors.push(error);
    }
    fn end_game(&mut self, game: &GameInfo<'_>) -> Game {
        if self.began_one_pass {
            self.one_pass_games += 1;
        }
        Game {
            raw: (
                game.bytes().to_vec(),
                game.first_column(),
                game.end_line(),
                game.at_eof(),
                game.encoding() == arbiter_pgn::Encoding::Utf8,
            ),
            index: game.index(),
            first_line: game.first_line(),
            tokens: self
                .pending
                .drain(..)
                .map(|(t, l)| (t, game.locate(l).to_string()))
                .collect(),
            errors: std::mem::take(&mut self.errors),
        }
    }
}

/// Reads every game of `bytes`.
pub fn read_all(bytes: &[u8]) -> Vec<Game> {
    read_with(bytes, Recorder::default())
}

/// Reads every game of `bytes` with `recorder`, both ways: cut then parsed, and in one pass where
/// the game allows it (a one-pass recorder). Both must see exactly the same games.
pub fn read_with(bytes: &[u8], recorder: Recorder) -> Vec<Game> {
    let one_pass = Recorder {
        skip_variations: recorder.skip_variations,
        ..Recorder::default()
    }
    .one_pass();
    let (games, _) = read_recording(bytes, recorder);
    let (one_pass_games, _) = read_recording(bytes, one_pass);
    assert_same_games(&games, &one_pass_games, "the one-pass reading");
    games
}

/// Reads every game of `bytes` from `reader` with `recorder`; returns the games and the recorder.
pub fn read_recording(reader: impl std::io::Read, recorder: Recorder) -> (Vec<Game>, Recorder) {
    read_games(Reader::new("test.pgn", reader), recorder)
}

/// Reads every game from `reader` with `recorder`, games over `limit` bytes skipped.
pub fn read_limited(reader: impl std::io::Read, recorder: Recorder, limit: usize) -> Vec<Game> {
    read_games(
        Reader::new("test.pgn", reader).with_max_game_bytes(limit),
        recorder,
    )
    .0
}

/// Reads every game of `reader` with `recorder`; returns the games and the recorder.
pub fn read_games<R: std::io::Read>(
    mut reader: Reader<R>,
    mut recorder: Recorder,
) -> (Vec<Game>, Recorder) {
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut recorder).expect("in-memory read") {
        games.push(game);
    }
    (games, recorder)
}

/// Asserts that `other` (read by `how`) saw the games of `games`, naming the first difference.
pub fn assert_same_games(games: &[Game], other: &[Game], how: &str) {
    for (a, b) in games.iter().zip(other) {
        assert_eq!(a, b, "{how} differs at game {}", a.index);
    }
    assert_eq!(
        games.len(),
        other.len(),
        "{how} found another number of games"
    );
}

/// Reads one game and checks there is exactly one.
pub fn read_one(text: &str) -> Game {
    let mut games = read_all(text.as_bytes());
    assert_eq!(
        games.len(),
        1,
        "expected one game in {text:?}, got {games:#?}"
    );
    games.remove(0)
}

/// The shared test data directory, or `None` (with a note) when it is absent and not required.
/// With `ARBITER_TESTDATA` set, the data must be there: its `corpora/` and `edge/` both.
pub fn testdata() -> Option<PathBuf> {
    let dir = crate::shared("")?;
    crate::shared("corpora")?;
    crate::shared("edge")?;
    Some(dir)
}

/// Every regular file below `dir`, sorted.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("list test data") {
            let path = entry.expect("list test data").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The `.pgn` files below `dir`, sorted.
pub fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_below(dir);
    files.retain(|path| path.extension().is_some_and(|e| e == "pgn"));
    files
}

/// A small deterministic random generator (xorshift64*), so that failures reproduce.
pub struct Random(pub u64);

impl Random {
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// Snippets that damage a game in the ways the one-pass reading must notice.
const DAMAGE: [&[u8]; 32] = [
    b"[Event \"x\"]\n",
    b"[Event \"x\"]",
    b"\n[Site \"y\"]\n",
    b"{",
    b"}",
    b"{ a\n[B \"c\"]\n",
    b"{ a\n b }",
    b"(",
    b")",
    b"( 1... e5 )",
    b"\n",
    b"\r",
    b"\r\n",
    b"1-0",
    b" 1-0 ",
    b" * ",
    b"1/2-1/2",
    b";",
    b"\n%x\n",
    b"\"",
    b"]",
    b"$1",
    b" Z0 ",
    b" -- ",
    b"\xff",
    b"\xef\xbb\xbf",
    b" 0-0 ",
    b"e.p.",
    b"\n\n",
    b" [%clk 0:01:00] ",
    b"\n1-0\n\n",
    b"\n[Event \"x\"]\n\n",
];

/// A copy of `source` damaged in one to four places: bytes cut out, or snippets of `DAMAGE` put in.
pub fn damage(source: &[u8], random: &mut Random) -> Vec<u8> {
    let mut bytes = source.to_vec();
    for _ in 0..1 + random.below(4) {
        let at = random.below(bytes.len() + 1);
        match random.below(3) {
            0 if !bytes.is_empty() => {
                let end = (at + 1 + random.below(8)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            _ => {
                let snippet = DAMAGE[random.below(DAMAGE.len())];
                bytes.splice(at..at, snippet.iter().copied());
            }
        }
    }
    bytes
}

/// Real games to damage: the first 40 KB of the lichess and TWIC samples, and every edge file
/// under 40 KB.
pub fn games_to_damage(data: &Path) -> Vec<Vec<u8>> {
    let mut sources: Vec<Vec<u8>> = ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"]
        .iter()
        .map(|f| std::fs::read(data.join("corpora/samples").join(f)).expect("sample"))
        .map(|b| b[..b.len().min(40_000)].to_vec())
        .collect();
    sources.extend(
        pgn_files(&data.join("edge"))
            .iter()
            .map(|p| std::fs::read(p).expect("edge file"))
            .filter(|b| b.len() < 40_000),
    );
    sources
}
