//! The splitter: cuts a byte stream into games, each with its number and starting line, in
//! constant memory.
//!
//! It reads through one buffer that holds the current game (and grows only as far as the largest
//! game, up to a limit), and finds where each game ends with a light scan that knows just enough of
//! the grammar: tag pairs and their quoted values, `{ }` comments (which may hold `[`, blank lines
//! and result-like text), `;` comments, `%` escape lines in column 1, and the depth of `( )`
//! variations. A game ends
//!
//! - after the line of its termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`) outside any comment or
//!   variation — the rest of that line belongs to the game, so `1-0 ff` stays together, and so do
//!   the comments, `%` lines and blank lines that follow it, up to the next game's first token;
//! - where the next tag section starts: a `[Name "` outside comments once the movetext has begun,
//!   or a tag whose name already appeared in this game's tag section (header-only games in a row);
//! - inside a `{` comment, before its first line that is nothing but a tag pair, when the comment
//!   was never closed: no `}` follows before the end of the input or within the size limit, a `{`
//!   comes before the `}` (comments do not nest, so that `{` opens a comment of the next game), a
//!   second tag section starts after other text (the game after next), or what follows the `}` on
//!   its line cannot be movetext (control bytes, or no token's first byte). Otherwise the comment
//!   runs to its `}`, tag lines and all: annotators quote games in comments;
//! - at the end of the input.
//!
//! Blank lines separate nothing by themselves: a blank line inside the tag section, or two after
//! it, keeps one game. The grammar rules themselves live in [`super::grammar`]; the splitter calls
//! the same rules for results and tag starts, so that it and the parser agree.
//!
//! Splitting and parsing are separate steps so that games can be parsed on worker threads: a
//! [`RawGame`] owns its bytes and is `Send`.

use std::io::{self, Read};

use super::grammar;
use super::parse::parse_game;
use super::plain::{self, Plain};
use super::scan::find_any;
use super::visitor::Visitor;

/// The default limit on one game's size: 64 MiB. The most heavily annotated real games are a few
/// MiB; a game larger than this is surely broken (say, a `(` never closed in a file without tags),
/// and keeping it would cost as much memory.
pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

/// How much the splitter asks of the reader at once.
const CHUNK: usize = 128 << 10;

/// How much of the current line a refill keeps before the current game, for its column.
const LINE_KEPT: usize = 4096;

/// [`Splitter::read_plain`] refills the buffer before a game when fewer bytes than this are left.
const AHEAD: usize = 32 << 10;

/// The UTF-8 byte order mark, skipped between games.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One game's raw bytes, cut from the stream, with where it stands in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// The game's number in its stream, counted from 1.
    pub index: u64,
    /// The line of the source on which the game's first byte stands, counted from 1.
    pub first_line: u64,
    /// The column (in characters, from 1) of the game's first byte: 1 unless the previous game
    /// ended on the same line.
    pub first_column: u64,
    /// The line on which the next game starts (or the input ends).
    pub end_line: u64,
    /// Whether the game runs to the end of the input.
    pub at_eof: bool,
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
            first_line: 1,
            first_column: 1,
            end_line: 1 + lines,
            at_eof: true,
            too_large: None,
            bytes,
        }
    }
}

/// Which part of a game the scan is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Section {
    /// Before the movetext: tag pairs, `;` comments, `%` lines.
    Tags,
    /// The movetext.
    Movetext,
    /// After the termination marker, up to the end of its line.
    AfterResult,
    /// The lines after that: comments, `%` lines and blank lines still belong to the game.
    Trailer,
}

/// Which lexical context the scan is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Inner {
    /// Between tokens.
    Normal,
    /// Inside a `{ }` comment.
    Brace,
    /// Inside a `;` comment or a `%` line, up to the line end.
    Line,
    /// Inside the quoted value of a tag pair.
    Quote,
}

/// The scan's state, kept across buffer refills.
#[derive(Debug)]
struct Scan {
    section: Section,
    inner: Inner,
    /// Between a tag's `[` and its `]` (or the line end).
    in_tag: bool,
    /// At the start of a line inside a comment, to be checked for a tag pair.
    check_line: bool,
    /// The buffer index and line number of the first line of the current `{` comment that is a
    /// whole tag pair: the comment may quote a game, or never be closed (see [`Splitter::scan`]).
    suspect: Option<(usize, u64)>,
    /// A line other than a tag pair came after the suspect line in the comment.
    suspect_movetext: bool,
    depth: u64,
    /// The buffer index of the next byte to look at.
    pos: usize,
}

/// What a scan step found.
enum Step {
    /// The game ends before this buffer index.
    End(usize),
    /// More input is needed to go on.
    NeedMore,
}

/// Line bookkeeping.
#[derive(Debug, Default)]
struct Lines {
    /// The current line, from 1.
    line: u64,
    /// The stream offset at which the current line starts.
    start: u64,
}

/// Bytes that stop the fast scan through movetext.
const MOVETEXT_STOP: [u8; 10] = *b"\n\r{;%()[-*";

/// Bytes that stop the scan through a `{ }` comment.
const BRACE_STOP: [u8; 3] = *b"}\n\r";

/// Bytes that stop the scan through a `{ }` comment that holds a tag line.
const SUSPECT_STOP: [u8; 4] = *b"}{\n\r";

/// Bytes that stop the scan through a tag's quoted value.
const QUOTE_STOP: [u8; 4] = *b"\"\\\n\r";

/// Bytes that stop the scan between a tag's `[` and its `]`.
const TAG_STOP: [u8; 4] = *b"\"]\n\r";

/// Cuts a byte stream into [`RawGame`]s. See the module documentation for where games end.
#[derive(Debug)]
pub struct Splitter<R> {
    reader: R,
    buf: Vec<u8>,
    /// Start of the current game (or of the bytes not yet looked at) in `buf`.
    start: usize,
    /// End of the valid bytes in `buf`.
    end: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    /// A read error, held back until the games read before it have been handed out.
    error: Option<io::Error>,
    failed: bool,
    lines: Lines,
    next_index: u64,
    max_game: usize,
    /// Hashes of the tag names seen in the current game's tag section.
    tag_names: TagNames,
    /// Where [`Splitter::read_plain`] stands, for [`Splitter::recover`].
    stage: Stage,
    /// Whether the input goes on after these bytes (they are a part of it that ends where a game
    /// starts: see [`Splitter::part`]), so that the last game does not end at the end of the input.
    more_follows: bool,
}

/// Where [`Splitter::read_plain`] stands in a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// Between games.
    Between,
    /// Parsing a game in one pass, before the splitter has moved past it.
    OnePass,
    /// Cutting a game.
    Cutting,
    /// Parsing a game already cut.
    Parsing,
}

impl Splitter<io::Empty> {
    /// A splitter over one part of a longer input, all in `bytes`: they start at stream offset
    /// `offset`, at the start of line `line` and of a game. After them the input either goes on
    /// with a game that starts there (`end` is [`PartEnd::MoreFollows`]: see
    /// [`super::last_game_start`]) or ends, perhaps with a read failure.
    pub fn part(bytes: Vec<u8>, offset: u64, line: u64, end: PartEnd) -> Splitter<io::Empty> {
        let len = bytes.len();
        let mut splitter = Splitter::with_buffer(io::empty(), bytes).starting_at(offset, line);
        splitter.end = len;
        splitter.eof = true;
        match end {
            PartEnd::MoreFollows => splitter.more_follows = true,
            PartEnd::Last(error) => splitter.error = error,
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
        Splitter::with_buffer(reader, vec![0; 2 * CHUNK])
    }

    /// A splitter over `reader` whose buffer is `buf`.
    fn with_buffer(reader: R, buf: Vec<u8>) -> Splitter<R> {
        Splitter {
            reader,
            buf,
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            error: None,
            failed: false,
            lines: Lines { line: 1, start: 0 },
            next_index: 1,
            max_game: DEFAULT_MAX_GAME_BYTES,
            tag_names: TagNames::default(),
            stage: Stage::Between,
            more_follows: false,
        }
    }

    /// Takes the stream as starting at offset `offset` of a longer one, at the start of line
    /// `line` and of a game: for the rest of an input of which the first part was read elsewhere.
    pub fn starting_at(mut self, offset: u64, line: u64) -> Splitter<R> {
        self.base = offset;
        self.lines = Lines {
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
        self.buf
    }

    /// The rest of the stream after the games handed out so far, if the next one starts at the
    /// start of a line and no read failed; else the splitter back.
    pub fn into_rest(self) -> Result<Rest<R>, Box<Splitter<R>>> {
        let at = self.base + self.start as u64;
        if self.failed
            || self.error.is_some()
            || self.stage != Stage::Between
            || self.lines.start != at
        {
            return Err(Box::new(self));
        }
        Ok(Rest {
            bytes: self.buf[self.start..self.end].to_vec(),
            source: self.reader,
            offset: at,
            line: self.lines.line,
        })
    }

    /// How many bytes have been read from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.base + self.end as u64
    }

    /// How many bytes of the stream the games handed out so far span (with what lies between).
    pub fn bytes_done(&self) -> u64 {
        self.base + self.start as u64
    }

    /// Cuts the next game into `game`, reusing its buffer. Returns `false` at the end of the input.
    ///
    /// After an I/O error every later call returns `Ok(false)`.
    pub fn next_into(&mut self, game: &mut RawGame) -> io::Result<bool> {
        if self.failed {
            return Ok(false);
        }
        let result = self.cut(game);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    /// Reads the next game into `visitor` and returns what its `end_game` made of it, or `None` at
    /// the end of the input. A plain game is parsed straight from the buffer, in one pass (see
    /// [`super::plain`]); any other is cut into `game` and parsed the general way. The visitor must
    /// be [`Visitor::restartable`]: a game may be begun more than once.
    ///
    /// After an I/O error every later call returns `Ok(None)`.
    pub(super) fn read_plain<V: Visitor>(
        &mut self,
        game: &mut RawGame,
        visitor: &mut V,
    ) -> io::Result<Option<V::Output>> {
        if self.failed {
            return Ok(None);
        }
        match self.skip_between_games() {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(error) => {
                self.failed = true;
                return Err(error);
            }
        }
        game.index = self.next_index;
        game.first_line = self.lines.line;
        game.first_column = self.column_of(self.start);
        // Room for a whole game, most of the time, so that few are begun twice.
        if !self.eof && self.end - self.start < AHEAD {
            self.fill();
        }
        self.stage = Stage::OnePass;
        // A game the buffer cuts short is begun once more after a refill; then it goes the
        // general way, whose cost is linear in any case.
        for attempt in 0..2 {
            if self.error.is_some() {
                // The game may run into the read failure: the general way reports it.
                break;
            }
            let rest = &self.buf[self.start..self.end];
            match plain::parse(
                rest,
                self.eof,
                self.more_follows,
                self.max_game,
                game,
                &mut self.tag_names,
                visitor,
            ) {
                Plain::Done(len, output) => {
                    let text = &self.buf[self.start..self.start + len];
                    if let Some(last) = memchr::memrchr(b'\n', text) {
                        self.lines.line = game.end_line;
                        self.lines.start = self.base + (self.start + last + 1) as u64;
                    }
                    self.start += len;
                    self.next_index += 1;
                    self.stage = Stage::Between;
                    return Ok(Some(output));
                }
                Plain::NeedMore if attempt == 0 && !self.eof => {
                    self.fill();
                }
                Plain::NeedMore | Plain::Bail => break,
            }
        }
        self.read_cut(game, visitor)
    }

    /// Reads the next game into `visitor` the general way: cuts it into `game`, then parses it.
    pub(super) fn read_cut<V: Visitor>(
        &mut self,
        game: &mut RawGame,
        visitor: &mut V,
    ) -> io::Result<Option<V::Output>> {
        self.stage = Stage::Cutting;
        let more = self.next_into(game);
        self.stage = Stage::Parsing;
        let output = more.map(|more| more.then(|| parse_game(game, visitor)));
        self.stage = Stage::Between;
        output
    }

    /// After a panic inside [`Splitter::read_plain`] (in the visitor, say): moves past the game it
    /// was reading, which is then in `game` (as far as it was read), and returns `true`; `false`
    /// if the splitter itself failed, and the input cannot go on.
    pub(super) fn recover(&mut self, game: &mut RawGame) -> bool {
        let stage = std::mem::replace(&mut self.stage, Stage::Between);
        match stage {
            Stage::OnePass => matches!(self.next_into(game), Ok(true)),
            Stage::Parsing => true,
            Stage::Cutting | Stage::Between => {
                self.failed = true;
                false
            }
        }
    }

    fn cut(&mut self, game: &mut RawGame) -> io::Result<bool> {
        if !self.skip_between_games()? {
            return Ok(false);
        }
        let first_line = self.lines.line;
        let first_column = self.column_of(self.start);
        self.tag_names.clear();
        let mut scan = Scan {
            section: Section::Tags,
            inner: Inner::Normal,
            in_tag: false,
            check_line: false,
            suspect: None,
            suspect_movetext: false,
            depth: 0,
            pos: self.start,
        };
        let mut skipped = 0u64;
        let end = loop {
            match self.scan(&mut scan) {
                Step::End(end) => break end,
                Step::NeedMore => {
                    if scan.pos - self.start > self.max_game {
                        // Too large: keep a few bytes for the result check's look-behind.
                        let keep = scan.pos.saturating_sub(8).max(self.start);
                        skipped += (keep - self.start) as u64;
                        self.start = keep;
                    }
                    let shift = self.fill();
                    scan.pos -= shift;
                    if let Some((suspect, _)) = &mut scan.suspect {
                        *suspect -= shift;
                    }
                }
            }
        };
        if end == self.end
            && let Some(error) = self.error.take()
        {
            // The game runs into the failure: it is incomplete.
            return Err(error);
        }
        game.index = self.next_index;
        game.first_line = first_line;
        game.first_column = first_column;
        game.end_line = self.lines.line;
        game.at_eof = self.eof && end == self.end && !self.more_follows;
        game.bytes.clear();
        if skipped == 0 && end - self.start > self.max_game {
            skipped = (end - self.start) as u64;
            self.start = end;
        }
        if skipped > 0 {
            game.too_large = Some(skipped + (end - self.start) as u64);
        } else {
            game.too_large = None;
            game.bytes.extend_from_slice(&self.buf[self.start..end]);
        }
        self.next_index += 1;
        self.start = end;
        Ok(true)
    }

    /// Moves the unconsumed bytes to the front of the buffer (growing it if need be) and reads more.
    /// Returns by how much buffer indices moved down. A read error ends the input and is kept.
    fn fill(&mut self) -> usize {
        // The current line's start stays (unless it is far back), so that columns on it are
        // counted in characters whatever the read sizes: see `column_of`.
        let shift = match self.lines.start.checked_sub(self.base) {
            Some(line)
                if (line as usize) <= self.start && self.start - line as usize <= LINE_KEPT =>
            {
                line as usize
            }
            _ => self.start,
        };
        if shift > 0 {
            self.buf.copy_within(shift..self.end, 0);
            self.end -= shift;
            self.start -= shift;
            self.base += shift as u64;
        }
        if self.buf.len() - self.end < CHUNK {
            self.buf.resize(self.end + CHUNK, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // Hand out the whole games before the failure first; see `cut`.
                    self.error = Some(e);
                    self.eof = true;
                    break;
                }
            }
        }
        shift
    }

    /// Skips whitespace and byte order marks up to the next game. Returns `false` at the end.
    fn skip_between_games(&mut self) -> io::Result<bool> {
        loop {
            while self.start < self.end {
                let i = self.start;
                match self.buf[i] {
                    b' ' | b'\t' | 0x0b | 0x0c => self.start += 1,
                    b'\n' => self.newline(i + 1),
                    b'\r' => match self.buf.get(i + 1).filter(|_| i + 1 < self.end) {
                        Some(b'\n') => self.start += 1,
                        Some(_) => self.newline(i + 1),
                        None if self.eof => self.newline(i + 1),
                        None => break,
                    },
                    0xEF if self.buf[i..self.end].starts_with(BOM) => {
                        self.start += BOM.len();
                        if self.lines.start == self.base + i as u64 {
                            self.lines.start = self.base + self.start as u64;
                        }
                    }
                    0xEF if self.end - i < BOM.len() && !self.eof => break,
                    _ => return Ok(true),
                }
            }
            if self.eof && self.start == self.end {
                return match self.error.take() {
                    Some(error) => Err(error),
                    None => Ok(false),
                };
            }
            self.fill();
        }
    }

    /// Counts a line that ends just before buffer index `next` (used between games).
    fn newline(&mut self, next: usize) {
        self.start = next;
        self.lines.line += 1;
        self.lines.start = self.base + next as u64;
    }

    /// The column (from 1, in characters) of buffer index `i`: counted in bytes only when the line
    /// started more than [`LINE_KEPT`] bytes before a refill.
    fn column_of(&self, i: usize) -> u64 {
        let at = self.base + i as u64;
        if self.lines.start >= self.base {
            let from = (self.lines.start - self.base) as usize;
            let prefix = &self.buf[from.min(i)..i];
            let encoding = match std::str::from_utf8(prefix) {
                Ok(_) => super::location::Encoding::Utf8,
                Err(_) => super::location::Encoding::Windows1252,
            };
            1 + super::location::count_chars(prefix, encoding)
        } else {
            1 + at - self.lines.start
        }
    }

    /// Scans the current game from `s.pos` on; see the module documentation.
    fn scan(&mut self, s: &mut Scan) -> Step {
        let buf = &self.buf[..self.end];
        let len = buf.len();
        let eof = self.eof;
        let base = self.base;
        let game_start = self.start;
        let max_game = self.max_game;
        let lines = &mut self.lines;
        // The byte after `q`, if known; `Err` means more input is needed to tell.
        let next = |q: usize| -> Result<Option<u8>, ()> {
            match buf.get(q + 1) {
                Some(&b) => Ok(Some(b)),
                None if eof => Ok(None),
                None => Err(()),
            }
        };
        let newline = |lines: &mut Lines, at: usize| {
            lines.line += 1;
            lines.start = base + at as u64;
        };
        loop {
            let p = s.pos;
            if p >= len {
                // A comment that holds a tag line and is not closed by the end or within the
                // size limit was never closed: the game ends before that line.
                if s.inner == Inner::Brace
                    && let Some(suspect) = s.suspect
                    && (eof || len - game_start > max_game)
                {
                    return Step::End(rewind(lines, base, suspect));
                }
                return if eof { Step::End(len) } else { Step::NeedMore };
            }
            match s.inner {
                Inner::Brace => {
                    if s.check_line && (s.suspect.is_some() || buf[p] == b'[') {
                        let Some(line) = complete_line(buf, p, eof) else {
                            return Step::NeedMore;
                        };
                        let tag_line =
                            line.first() == Some(&b'[') && grammar::tag_line(line).is_ok();
                        match s.suspect {
                            None if tag_line => s.suspect = Some((p, lines.line)),
                            // A second tag section after text: the next game's, not a quote.
                            Some(suspect) if tag_line && s.suspect_movetext => {
                                return Step::End(rewind(lines, base, suspect));
                            }
                            Some(_) if !tag_line && !line.iter().all(|&b| is_blank(b)) => {
                                s.suspect_movetext = true;
                            }
                            _ => {}
                        }
                    }
                    s.check_line = false;
                    // A comment runs to the first `}`. One that holds a tag line is taken as
                    // never closed, and the game ends before that line, only where this reading
                    // fails: a `{` comes first (comments do not nest: that is the next game's
                    // comment), or no `}` comes within the size limit or before the end.
                    let k = match s.suspect {
                        None => find_any(&buf[p..], BRACE_STOP),
                        Some(_) => find_any(&buf[p..], SUSPECT_STOP),
                    };
                    match (p + k < len).then_some(k) {
                        None => s.pos = len,
                        Some(k) => {
                            let q = p + k;
                            match buf[q] {
                                b'}' => {
                                    if let Some(suspect) = s.suspect {
                                        // What follows the `}` must read as movetext.
                                        match complete_line(buf, q + 1, eof) {
                                            None => {
                                                s.pos = q;
                                                return Step::NeedMore;
                                            }
                                            Some(rest) if !could_be_movetext(rest) => {
                                                return Step::End(rewind(lines, base, suspect));
                                            }
                                            Some(_) => {}
                                        }
                                    }
                                    s.pos = q + 1;
                                    s.inner = Inner::Normal;
                                    s.suspect = None;
                                    s.suspect_movetext = false;
                                }
                                b'{' => match s.suspect {
                                    Some(suspect) => {
                                        return Step::End(rewind(lines, base, suspect));
                                    }
                                    None => s.pos = q + 1,
                                },
                                b'\n' => {
                                    newline(lines, q + 1);
                                    s.pos = q + 1;
                                    s.check_line = true;
                                }
                                _ => match next(q) {
                                    Err(()) => {
                                        s.pos = q;
                                        return Step::NeedMore;
                                    }
                                    Ok(Some(b'\n')) => s.pos = q + 1,
                                    Ok(_) => {
                                        newline(lines, q + 1);
                                        s.pos = q + 1;
                                        s.check_line = true;
                                    }
                                },
                            }
                        }
                    }
                }
                Inner::Line => {
                    let k = memchr::memchr2(b'\n', b'\r', &buf[p..]).unwrap_or(len - p);
                    s.pos = p + k;
                    if s.pos < len {
                        s.inner = Inner::Normal;
                    }
                }
                Inner::Quote => match buf[p] {
                    // The common case first: plain text, skipped in a tight loop.
                    b if !QUOTE_STOP.contains(&b) => s.pos = p + find_any(&buf[p..], QUOTE_STOP),
                    b'"' => {
                        s.pos = p + 1;
                        s.inner = Inner::Normal;
                    }
                    b'\\' => match next(p) {
                        Err(()) => return Step::NeedMore,
                        Ok(Some(b'"' | b'\\')) => s.pos = p + 2,
                        Ok(_) => s.pos = p + 1,
                    },
                    b'\n' | b'\r' => s.inner = Inner::Normal,
                    _ => s.pos = p + 1,
                },
                Inner::Normal => {
                    let b = buf[p];
                    // Line ends are the same in every section.
                    if b == b'\n' || b == b'\r' {
                        let after = match (b, next(p)) {
                            (b'\r', Err(())) => return Step::NeedMore,
                            (b'\r', Ok(Some(b'\n'))) => {
                                s.pos = p + 1;
                                continue;
                            }
                            _ => p + 1,
                        };
                        newline(lines, after);
                        s.pos = after;
                        s.in_tag = false;
                        if s.section == Section::AfterResult {
                            s.section = Section::Trailer;
                        }
                        continue;
                    }
                    let at_line_start = base + p as u64 == lines.start;
                    match s.section {
                        Section::Tags => match b {
                            b' ' | b'\t' | 0x0b | 0x0c => s.pos = p + 1,
                            b'[' if !s.in_tag
                                && let Some(pair) = simple_tag_at(buf, p, &mut self.tag_names) =>
                            {
                                // The common `[Name "value"]`, taken as the steps below take it:
                                // a repeated name ends the game; else the pair and its LF pass.
                                let Some(after) = pair else {
                                    return Step::End(p);
                                };
                                s.pos = after;
                                if buf.get(s.pos) == Some(&b'\n') {
                                    s.pos += 1;
                                    newline(lines, s.pos);
                                }
                            }
                            b'[' if !s.in_tag => {
                                let start = tag_start_at(buf, p, eof);
                                if start == Some(None) {
                                    return Step::NeedMore;
                                }
                                s.in_tag = true;
                                s.pos = p + 1;
                                if let Some(Some((name, value))) = start {
                                    let hash = hash_name(name);
                                    if !self.tag_names.insert(hash) {
                                        return Step::End(p);
                                    }
                                    // Straight into the quoted value. The common case, a value
                                    // closed on this line within the buffer, and then `]`, is
                                    // taken in one step here; `closing_quote` reads escapes as
                                    // the `Quote` state does, and gives up (leaving it to that
                                    // state) at a line end or at the end of the buffer.
                                    match grammar::closing_quote(&buf[value..]) {
                                        Some(k) => {
                                            s.pos = value + k + 1;
                                            if buf.get(s.pos) == Some(&b']') {
                                                s.in_tag = false;
                                                s.pos += 1;
                                                // And the LF that usually ends the line, as
                                                // the line-end step above would take it.
                                                if buf.get(s.pos) == Some(&b'\n') {
                                                    s.pos += 1;
                                                    newline(lines, s.pos);
                                                }
                                            }
                                        }
                                        None => {
                                            s.inner = Inner::Quote;
                                            s.pos = value;
                                        }
                                    }
                                }
                            }
                            b'"' if s.in_tag => {
                                s.inner = Inner::Quote;
                                s.pos = p + 1;
                            }
                            b']' if s.in_tag => {
                                s.in_tag = false;
                                s.pos = p + 1;
                            }
                            _ if s.in_tag => {
                                // Inside the brackets, up to the quote or the `]`.
                                s.pos = p + find_any(&buf[p..], TAG_STOP);
                            }
                            b';' => s.inner = Inner::Line,
                            b'%' if at_line_start => s.inner = Inner::Line,
                            _ => s.section = Section::Movetext,
                        },
                        Section::Movetext => {
                            // Stay in this loop for the stops that change no state (a one-line
                            // comment, brackets, a dash that is no result, and an LF, counted as
                            // the line-end step would: in the movetext that is all it does): the
                            // common case.
                            let mut q = p;
                            loop {
                                q += find_any(&buf[q..], MOVETEXT_STOP);
                                match buf.get(q) {
                                    Some(b'{') => {
                                        let close = q + 1 + find_any(&buf[q + 1..], BRACE_STOP);
                                        if buf.get(close) != Some(&b'}') {
                                            break;
                                        }
                                        q = close;
                                    }
                                    Some(b'\n') => newline(lines, q + 1),
                                    Some(b'(') => s.depth += 1,
                                    Some(b')') => s.depth = s.depth.saturating_sub(1),
                                    Some(b'-' | b'*') if s.depth > 0 => {}
                                    Some(b'-')
                                        if !(q > game_start && buf[q - 1].is_ascii_digit()) => {}
                                    _ => break,
                                }
                                q += 1;
                            }
                            s.pos = q;
                            if q == len {
                                continue;
                            }
                            match buf[q] {
                                // Handled above, on the next turn.
                                b'\n' | b'\r' => {}
                                b'{' => {
                                    s.inner = Inner::Brace;
                                    s.pos = q + 1;
                                }
                                b';' => s.inner = Inner::Line,
                                b'%' if base + q as u64 == lines.start => s.inner = Inner::Line,
                                b'[' => match tag_start_at(buf, q, eof) {
                                    Some(None) => return Step::NeedMore,
                                    Some(Some(_)) => return Step::End(q),
                                    None => s.pos = q + 1,
                                },
                                b'-' | b'*' => match result_around(buf, game_start, q, eof) {
                                    Some(None) => return Step::NeedMore,
                                    Some(Some(end)) => {
                                        s.section = Section::AfterResult;
                                        s.pos = end;
                                    }
                                    None => s.pos = q + 1,
                                },
                                _ => s.pos = q + 1,
                            }
                        }
                        Section::AfterResult => match b {
                            b'{' => {
                                s.inner = Inner::Brace;
                                s.pos = p + 1;
                            }
                            b'[' => match tag_start_at(buf, p, eof) {
                                Some(None) => return Step::NeedMore,
                                Some(Some(_)) => return Step::End(p),
                                None => s.pos = p + 1,
                            },
                            _ => s.pos = p + 1,
                        },
                        Section::Trailer => match b {
                            b' ' | b'\t' | 0x0b | 0x0c => s.pos = p + 1,
                            b'{' => {
                                s.inner = Inner::Brace;
                                s.pos = p + 1;
                            }
                            b';' => s.inner = Inner::Line,
                            b'%' if at_line_start => s.inner = Inner::Line,
                            _ => return Step::End(p),
                        },
                    }
                }
            }
        }
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

/// Whether `rest`, the rest of a line after a `}`, could go on as movetext: no control bytes,
/// and blank or starting like a movetext token.
fn could_be_movetext(rest: &[u8]) -> bool {
    if rest.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f) {
        return false;
    }
    match rest.iter().find(|&&b| !is_blank(b)) {
        None => true,
        Some(&b) => b.is_ascii_alphanumeric() || b"(){};$*!?.-%[".contains(&b),
    }
}

/// Blanks within a line.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c)
}

/// Takes the line count back to `(at, line)`, the start of a line the scan looked past, where
/// the game ends after all; returns `at`.
fn rewind(lines: &mut Lines, base: u64, (at, line): (usize, u64)) -> usize {
    lines.line = line;
    lines.start = base + at as u64;
    at
}

/// The longest look-ahead the scan takes for a tag start or a tag line.
const LOOKAHEAD: usize = 4096;

/// Whether a tag pair starts at `buf[p]` (a `[`): `None` if not, `Some(None)` if more input is
/// needed to tell, `Some(Some((name, value)))` if it does, with the index where its value starts.
/// A tag start never spans lines, so a line end (or the end of the input, or the look-ahead limit)
/// within reach decides.
fn tag_start_at(buf: &[u8], p: usize, eof: bool) -> Option<Option<(&[u8], usize)>> {
    let window = &buf[p..buf.len().min(p + LOOKAHEAD)];
    match grammar::tag_start(window) {
        Ok((rest, name)) => Some(Some((name, p + window.len() - rest.len()))),
        Err(_)
            if !eof
                && window.len() < LOOKAHEAD
                && memchr::memchr2(b'\n', b'\r', window).is_none() =>
        {
            Some(None)
        }
        Err(_) => None,
    }
}

/// The common tag pair `[Name "value"]` at `buf[p]` (a `[`), by [`grammar::simple_tag_pair`]:
/// `Some(Some(after))`, the index after its `]`, with its name noted in `names`; `Some(None)` if
/// the name is already there; `None` for any other form, or a name too long to be sure that
/// [`tag_start_at`]'s look-ahead would see all of it.
#[inline]
fn simple_tag_at(buf: &[u8], p: usize, names: &mut TagNames) -> Option<Option<usize>> {
    let mut hash = NAME_HASH_START;
    let (name_end, value_end) =
        grammar::simple_tag_pair(&buf[p..], |b| hash = hash_name_byte(hash, b))?;
    if name_end > 256 {
        return None;
    }
    Some(names.insert(hash).then_some(p + value_end + 2))
}

/// The line starting at `buf[p]` up to (not including) its end, if it is complete in the buffer
/// (or the input has ended); long lines are cut at the look-ahead limit.
fn complete_line(buf: &[u8], p: usize, eof: bool) -> Option<&[u8]> {
    let window = &buf[p..buf.len().min(p + LOOKAHEAD)];
    match memchr::memchr2(b'\n', b'\r', window) {
        Some(k) => Some(&window[..k]),
        None if eof || window.len() == LOOKAHEAD => Some(window),
        None => None,
    }
}

/// Whether the `-` or `*` at `buf[q]` belongs to a result that starts after a delimiter: `None` if
/// not, `Some(None)` if more input is needed, `Some(Some(end))` with the index after the result.
fn result_around(buf: &[u8], game_start: usize, q: usize, eof: bool) -> Option<Option<usize>> {
    let starts: &[usize] = if buf[q] == b'*' { &[0] } else { &[1, 3] };
    for &back in starts {
        let Some(s) = q.checked_sub(back).filter(|&s| s >= game_start) else {
            continue;
        };
        if s > game_start && !grammar::is_delim_before(buf[s - 1]) {
            continue;
        }
        // A result is at most 7 bytes; one more tells whether a delimiter follows.
        if !eof && buf.len() - s < 8 {
            return Some(None);
        }
        if let Ok((rest, _)) = grammar::result(&buf[s..]) {
            return Some(Some(buf.len() - rest.len()));
        }
    }
    None
}

/// The tag names of one tag section, as hashes: a short list searched in order (real games have
/// a dozen tags), and a hash set once there are many, so that a hostile section of a million
/// distinct tags costs linear time, not quadratic. In front of the list, a 64-bit summary with one
/// bit per name (picked by its hash): a name whose bit is clear is certainly new, and most names
/// are, so the list is searched only for the few whose bit is taken.
#[derive(Debug, Default)]
pub(super) struct TagNames {
    summary: u64,
    few: Vec<u64>,
    many: std::collections::HashSet<u64>,
}

impl TagNames {
    /// Tags kept in the list before the set takes over.
    const FEW: usize = 32;

    /// Adds a name; `false` if it was there already.
    pub(super) fn insert(&mut self, hash: u64) -> bool {
        if self.few.len() < Self::FEW {
            let bit = 1 << (hash >> 58);
            if self.summary & bit != 0 && self.few.contains(&hash) {
                return false;
            }
            self.summary |= bit;
            self.few.push(hash);
            return true;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.iter().copied());
        }
        self.many.insert(hash)
    }

    pub(super) fn clear(&mut self) {
        self.summary = 0;
        self.few.clear();
        if !self.many.is_empty() {
            // Dropped rather than cleared: a huge section's table is not kept.
            self.many = std::collections::HashSet::new();
        }
    }
}

/// A 64-bit FNV-1a hash of a tag name.
pub(super) fn hash_name(name: &[u8]) -> u64 {
    name.iter()
        .fold(NAME_HASH_START, |h, &b| hash_name_byte(h, b))
}

/// The hash of an empty name (see [`hash_name`]).
pub(super) const NAME_HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The hash of a name `h` is the hash of, with byte `b` added (see [`hash_name`]).
#[inline(always)]
pub(super) fn hash_name_byte(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
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
        // A second tag section after movetext: two games were swallowed, whatever `}` follows.
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
    fn tag_names_are_new_exactly_once() {
        let mut names = TagNames::default();
        // Hashes that share summary bits (the top six) and hashes that do not, past the list.
        let hashes: Vec<u64> = (0..100u64)
            .map(|i| (i % 7) << 58 | i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 6)
            .collect();
        for round in 0..2 {
            for (k, &h) in hashes.iter().enumerate() {
                assert_eq!(names.insert(h), round == 0, "hash {k}, round {round}");
            }
            if round == 0 {
                assert!(!names.insert(hashes[3]));
            }
        }
        names.clear();
        assert!(names.insert(hashes[3]));
        assert!(!names.insert(hashes[3]));
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
