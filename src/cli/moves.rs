//! `arbiter moves FEN [--format text|json|jsonl] [--board] [--ascii] [--chess960] [--notation
//! san|uci|both] [--limit NODES] [--proof]`: the legal moves and status of a position, and
//! whether each side can still mate; `arbiter moves --file FILE|-`: the same for one FEN or EPD a
//! line, as JSON Lines (or one JSON array, or text).
//!
//! The FEN may be one argument or several words (`arbiter moves 8/8/8/8/8/8/8/k6K w - - 0 1`),
//! or `startpos`. Text output: with `--board` a diagram first, then a status line, then one move
//! per line, written as `--notation` says (canonical SAN, UCI, or both: `e4 e2e4`), then one line
//! per side (`white can mate`, `black cannot mate (proved: too little material)`, `white: not
//! decided within N positions`), with the helpmate that proves a `can mate` only with `--proof`.
//! JSON output (`json` and `jsonl` alike for one position): one object,
//! `{"fen","turn","check","status","can_mate":{"white","black"},"helpmate":{"white","black"},
//! "proof":{"white","black"},"moves":[{"san","uci"}]}`, where `status` is `checkmate`, `stalemate`,
//! `insufficient_material`, `dead_position` (neither side can mate by any series of legal moves),
//! `seventyfive_moves` (halfmove clock of 150 or more) or `ongoing`, in that order of precedence.
//! `can_mate` holds `true`, `false` or `null` (not decided within `--limit` positions) per side,
//! `helpmate` the UCI line that proves a `true` (both sides cooperating), else `null`, and
//! `proof` the stage that decided each side (`null` when undecided): for a `false`, `over` (the
//! game is over on the board), `material`, `blocked` (the locked-position proof), `look_ahead`
//! (every legal move leaves too little material or ends the game), `quick` or `search` (every
//! reachable position visited); for a `true`, `over` (the side has mated), `probe`, `dive`,
//! `quick` or `search` (where the helpmate was found).
//!
//! How hard the search tries is `--limit NODES`, positions per side, 1,000,000 by default (for
//! `--file` too, as export rules every game): a safety valve for positions built to be slow,
//! which no real game's position measured came near. `--limit 0` means no search: an answer the
//! static proofs do not give is `null`, `not decided without a search`.
//!
//! Moves are listed in byte order of their SAN text (piece moves `B…`, `K…`, `N…`, castling,
//! `Q…`, `R…`, then pawn moves by file), a stable order that does not depend on how the move
//! generator works. UCI castling is king-to-destination (`e1g1`), or king-to-rook (`e1h1`) in
//! Chess960 positions. The FEN is standard chess unless `--chess960` is given (or its castling
//! field uses Shredder file letters such as `HAha`): then `K`/`Q` name the outermost rooks
//! (X-FEN). A bad FEN is a usage error (exit 2) naming every defect (the first few listed).
//!
//! `--file` writes, as `--format` says, one JSON object a line (`jsonl`, the default), one JSON
//! array (`json`), or for each position a `line N: FEN` heading and its text output, a blank line
//! between positions (`text`). It reads line by line in constant memory: a line keeps at most 64 KiB (a longer one is an
//! error record), an error record echoes at most 512 characters of its line, a line whose FEN is
//! not UTF-8 is an error record like any bad FEN, and a closed stdout (`| head -1`) ends the run
//! quietly with status 0. A UTF-8 byte-order mark opening the file is skipped; an EPD line's
//! clocks are its `hmvc` and `fmvn` operations (0 and 1 without them), its other operations are
//! ignored ([`arbiter::rules::epd_to_fen`]).

use std::io::{self, Write};

use anyhow::anyhow;
use arbiter::core::position::{Checks, Status, can_mate_each, named, sorted_moves};
use arbiter::core::text::{MAX_ECHO_CHARS, clip};
use arbiter::rules::mate::{CanMate, MateLimits, Solver, Verdict};
use arbiter::rules::{Color, Position, Role, Square, san};
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::cli::exit::Exit;
use crate::cli::numbers;

/// Arguments of `arbiter moves`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  arbiter moves startpos
  arbiter moves r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 --board
  arbiter moves 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2' --format json
  arbiter moves --chess960 --notation both nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1")]
pub(crate) struct MovesArgs {
    /// The position, as FEN (one quoted argument or several words), or `startpos`.
    #[arg(
        required_unless_present = "file",
        conflicts_with = "file",
        num_args = 1..,
        value_name = "FEN"
    )]
    pub(crate) fen: Vec<String>,
    /// Read one FEN or EPD a line from FILE (`-` for standard input) and write one JSON object a
    /// line, in input order, each with its `line` number; a line that is no valid position gives
    /// `{"line","input","error"}` and the run goes on (exit status 1 at the end).
    #[arg(long, value_name = "FILE")]
    pub(crate) file: Option<std::path::PathBuf>,
    /// How many positions the search for a helpmate may visit per side before it gives up (the
    /// answer is then `null`): 1000000 by default, a safety valve no real game's position comes
    /// near. 0 means no search: only the static proofs (material, a locked pawn wall, one move
    /// ahead) answer.
    #[arg(long, value_name = "NODES", value_parser = numbers::count)]
    pub(crate) limit: Option<u64>,
    /// Print the helpmate that proves each "can mate" (text format; JSON always has it).
    #[arg(long)]
    pub(crate) proof: bool,
    /// Output format (default: text for one position, jsonl for --file).
    #[arg(long, value_enum)]
    pub(crate) format: Option<Format>,
    /// Print a diagram of the board before the moves (text format only).
    #[arg(long)]
    pub(crate) board: bool,
    /// Draw the diagram with ASCII letters instead of Unicode chess symbols.
    #[arg(long)]
    pub(crate) ascii: bool,
    /// Read the FEN as Chess960: `K`/`Q` castling rights name the outermost rooks (X-FEN), and
    /// castling is written king-to-rook in UCI. Without it, a right whose king is off e1/e8 or
    /// whose rook is not in its corner is an invalid FEN (Shredder letters such as `HAha` are
    /// always read as Chess960).
    #[arg(long)]
    pub(crate) chess960: bool,
    /// How the text output writes each move: `san` (`Nf3`), `uci` (`g1f3`), or `both`
    /// (`Nf3 g1f3`). JSON output always has both.
    #[arg(long, value_enum, default_value_t = Notation::San)]
    pub(crate) notation: Notation,
}

/// How `arbiter moves` writes moves in text output.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum Notation {
    /// Canonical SAN, `Nf3`.
    San,
    /// UCI, `g1f3`.
    Uci,
    /// SAN, a space, then UCI: `Nf3 g1f3`.
    Both,
}

/// Output formats of `arbiter moves`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub(crate) enum Format {
    /// A status line, then one move per line, then a line per side.
    Text,
    /// One JSON object (with --file, one array of them).
    Json,
    /// One JSON object a line.
    Jsonl,
}

/// One move in the JSON output.
#[derive(Serialize)]
struct JsonMove {
    san: String,
    uci: String,
}

/// A value per side, in JSON as `{"white","black"}`.
#[derive(Serialize)]
struct BySide<T> {
    white: T,
    black: T,
}

/// The JSON output, fields in this order.
#[derive(Serialize)]
struct JsonPosition {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    fen: String,
    turn: &'static str,
    check: bool,
    status: Status,
    can_mate: BySide<Option<bool>>,
    helpmate: BySide<Option<Vec<String>>>,
    proof: BySide<Option<&'static str>>,
    moves: Vec<JsonMove>,
}

/// A line of `--file` that is no valid position, fields in this order: `input` is the line,
/// trimmed and cut to [`MAX_ECHO_CHARS`] characters.
#[derive(Serialize)]
struct JsonError<'a> {
    line: u64,
    input: &'a str,
    error: String,
}

/// What `moves` finds about a position.
struct Judged {
    moves: Vec<(san::SanString, String)>,
    status: Status,
    /// Whether White, then Black, can still mate, and which stage decided it.
    can_mate: [Verdict; 2],
}

/// Runs `arbiter moves`.
pub(crate) fn run(args: &MovesArgs) -> anyhow::Result<Exit> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if let Some(path) = &args.file {
        let limits = MateLimits {
            nodes: args.limit.unwrap_or(MateLimits::default().nodes),
        };
        let format = args.format.unwrap_or(Format::Jsonl);
        let exit = run_file(path, args, format, &limits, &mut out)?;
        out.flush()?;
        return Ok(exit);
    }
    let limits = MateLimits {
        nodes: args.limit.unwrap_or(MateLimits::default().nodes),
    };
    let pos = named(&args.fen.join(" "), args.chess960, Checks::Strict)
        .map_err(|err| anyhow!("{err}"))?;
    let judged = judge(&pos, &limits, &mut Solver::new());
    match args.format.unwrap_or(Format::Text) {
        Format::Json | Format::Jsonl => write_json(&mut out, &json(&pos, &judged, None))?,
        Format::Text => write_text(&mut out, args, &pos, &judged, limits.nodes)?,
    }
    out.flush()?;
    Ok(Exit::Ok)
}

/// The text output of one position: the diagram with `--board`, the status line, the moves, a
/// line per side.
fn write_text(
    out: &mut impl Write,
    args: &MovesArgs,
    pos: &Position,
    judged: &Judged,
    nodes: u64,
) -> io::Result<()> {
    if args.board {
        write_board(out, pos, args.ascii)?;
    }
    writeln!(
        out,
        "{}",
        status_line(pos, judged.moves.len(), judged.status)
    )?;
    for (san, uci) in &judged.moves {
        match args.notation {
            Notation::San => writeln!(out, "{san}")?,
            Notation::Uci => writeln!(out, "{uci}")?,
            Notation::Both => writeln!(out, "{san} {uci}")?,
        }
    }
    for (color, answer) in Color::ALL.into_iter().zip(&judged.can_mate) {
        writeln!(out, "{}", mate_line(pos, color, answer, nodes, args.proof))?;
    }
    Ok(())
}

/// The longest line `moves --file` reads, in bytes: a FEN or EPD line, operations included, is a
/// few hundred bytes. A longer line is an error record; its bytes past this are skipped unkept.
const MAX_LINE_BYTES: usize = 64 << 10;

/// `moves --file`: for each FEN or EPD line of `path` (`-`: stdin), its record in `format`. A
/// line that gives no position (a bad FEN, bytes that are not UTF-8 in it, a line too long) is
/// an error record (`{"line","input","error"}`, or `line N: error: ...` in text), and the run
/// goes on.
fn run_file(
    path: &std::path::Path,
    args: &MovesArgs,
    format: Format,
    limits: &MateLimits,
    out: &mut impl Write,
) -> anyhow::Result<Exit> {
    let input: Box<dyn io::Read> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|err| anyhow!("cannot open {}: {err}", path.display()))?;
        Box::new(file)
    };
    let mut input = io::BufReader::new(input);
    let mut exit = Exit::Ok;
    let mut line = Vec::new();
    let mut records = 0u64;
    let mut solver = Solver::new();
    if format == Format::Json {
        out.write_all(b"[")?;
    }
    for number in 1u64.. {
        let length = read_line(&mut input, &mut line)
            .map_err(|err| anyhow!("{}: line {number}: {err}", path.display()))?;
        let Some(length) = length else {
            break;
        };
        let too_long = length > MAX_LINE_BYTES as u64;
        // A UTF-8 byte-order mark opens the file, as in PGN input: it is no piece letter.
        if number == 1 && line.starts_with(arbiter::pgn::BOM) {
            line.drain(..arbiter::pgn::BOM.len());
        }
        let lossy = String::from_utf8_lossy(&line);
        let text = lossy.trim();
        if (text.is_empty() && !too_long) || text.starts_with('#') {
            continue;
        }
        let read = if too_long {
            Err(format!(
                "the line is {length} bytes long; a FEN or EPD line is read up to \
                 {MAX_LINE_BYTES} bytes"
            ))
        } else {
            read_position(&line, text, args.chess960)
        };
        // Records apart: a comma before each but the first in an array, a blank line in text.
        match (format, records) {
            (Format::Json, 1..) => out.write_all(b",\n")?,
            (Format::Json, 0) => out.write_all(b"\n")?,
            (Format::Text, 1..) => out.write_all(b"\n")?,
            _ => {}
        }
        records += 1;
        match read {
            Ok(pos) => {
                let judged = judge(&pos, limits, &mut solver);
                match format {
                    Format::Text => {
                        writeln!(out, "line {number}: {}", pos.to_fen())?;
                        write_text(out, args, &pos, &judged, limits.nodes)?;
                    }
                    Format::Json => write_json_value(out, &json(&pos, &judged, Some(number)))?,
                    Format::Jsonl => write_json(out, &json(&pos, &judged, Some(number)))?,
                }
            }
            Err(error) => {
                exit = Exit::Invalid;
                let input = clip(text, MAX_ECHO_CHARS);
                match format {
                    Format::Text => writeln!(out, "line {number}: {input}\nerror: {error}")?,
                    Format::Json | Format::Jsonl => {
                        let record = JsonError {
                            line: number,
                            input: &input,
                            error,
                        };
                        if format == Format::Json {
                            write_json_value(out, &record)?;
                        } else {
                            write_json(out, &record)?;
                        }
                    }
                }
            }
        }
    }
    if format == Format::Json {
        out.write_all(if records > 0 { b"\n]\n" } else { b"]\n" })?;
    }
    Ok(exit)
}

/// Reads the next line of `input` into `line`, without its line feed, keeping at most
/// [`MAX_LINE_BYTES`] of it: the line's whole length, or `None` at the end of the input.
fn read_line(input: &mut impl io::BufRead, line: &mut Vec<u8>) -> io::Result<Option<u64>> {
    line.clear();
    let mut length = None;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if buf.is_empty() {
            return Ok(length);
        }
        let (part, used) = match memchr::memchr(b'\n', buf) {
            Some(end) => (&buf[..end], end + 1),
            None => (buf, buf.len()),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let total = length.unwrap_or(0) + part.len() as u64;
        length = Some(total);
        let ended = used > part.len();
        input.consume(used);
        if ended {
            return Ok(length);
        }
    }
}

/// The position of one line of `--file` (`bytes`, read as `text`): `startpos`, a FEN or an EPD;
/// else the error its record gives.
fn read_position(bytes: &[u8], text: &str, chess960: bool) -> Result<Position, String> {
    let fen = arbiter::rules::epd_to_fen(text);
    // Bytes that are not UTF-8 do not matter in an EPD's operations, which are not read; in the
    // FEN they are an error of their own, named by their place.
    if let Err(err) = std::str::from_utf8(bytes)
        && fen.contains(char::REPLACEMENT_CHARACTER)
    {
        let at = err.valid_up_to();
        return Err(format!(
            "invalid fen: byte {} of the line ({:#04x}) is not UTF-8; a FEN is ASCII",
            at + 1,
            bytes[at]
        ));
    }
    named(&fen, chess960, Checks::Strict).map_err(|err| err.to_string())
}

/// Writes `value` as one line of JSON. (A write error comes back as the `io::Error` it is, so
/// that a closed pipe ends the run quietly.)
fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    write_json_value(out, value)?;
    writeln!(out)
}

/// Writes `value` as JSON, without a line feed after it.
fn write_json_value(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    Ok(serde_json::to_writer(&mut *out, value)?)
}

/// The legal moves, the status and what each side can still do in `pos`.
fn judge(pos: &Position, limits: &MateLimits, solver: &mut Solver) -> Judged {
    let chess960 = pos.is_chess960();
    let moves: Vec<(san::SanString, String)> = sorted_moves(pos)
        .into_iter()
        .map(|(mv, san)| (san, mv.to_uci(chess960).to_string()))
        .collect();
    let can_mate = can_mate_each(solver, pos, limits);
    let status = Status::of(
        pos,
        moves.len(),
        &can_mate.each_ref().map(|side| &side.answer),
    );
    Judged {
        moves,
        status,
        can_mate,
    }
}

/// The JSON object of `pos` (with its `line` number for `--file`).
fn json(pos: &Position, judged: &Judged, line: Option<u64>) -> JsonPosition {
    let chess960 = pos.is_chess960();
    let [white, black] = &judged.can_mate;
    let helpmate = |side: &Verdict| match &side.answer {
        CanMate::Yes(line) => Some(
            line.iter()
                .map(|mv| mv.to_uci(chess960).to_string())
                .collect(),
        ),
        CanMate::No | CanMate::Unknown => None,
    };
    let proof = |side: &Verdict| side.answer.known().map(|_| side.tier.name());
    JsonPosition {
        line,
        fen: pos.to_fen(),
        turn: pos.turn().name(),
        check: pos.is_check(),
        status: judged.status,
        can_mate: BySide {
            white: white.answer.known(),
            black: black.answer.known(),
        },
        helpmate: BySide {
            white: helpmate(white),
            black: helpmate(black),
        },
        proof: BySide {
            white: proof(white),
            black: proof(black),
        },
        moves: judged
            .moves
            .iter()
            .map(|(san, uci)| JsonMove {
                san: san.to_string(),
                uci: uci.clone(),
            })
            .collect(),
    }
}

/// `white can mate`, `black cannot mate (proved: too little material)`, `white: not decided
/// within 1000000 positions` (`not decided without a search (--limit 0)`); with `proof`, the
/// helpmate after a `can mate`: `white can mate: e2e4 f7f6 d2d4 g7g5 d1h5 (a helpmate)`.
fn mate_line(pos: &Position, color: Color, side: &Verdict, nodes: u64, proof: bool) -> String {
    match &side.answer {
        CanMate::Yes(line) if line.is_empty() => format!("{color} can mate (it has mated)"),
        CanMate::Yes(line) if proof => {
            let moves: Vec<String> = line
                .iter()
                .map(|mv| mv.to_uci(pos.is_chess960()).to_string())
                .collect();
            format!("{color} can mate: {} (a helpmate)", moves.join(" "))
        }
        CanMate::Yes(_) => format!("{color} can mate"),
        CanMate::No => format!("{color} cannot mate (proved: {})", side.tier.proof()),
        CanMate::Unknown if nodes == 0 => {
            format!("{color}: not decided without a search (--limit 0)")
        }
        CanMate::Unknown => format!("{color}: not decided within {nodes} positions"),
    }
}

/// `white to move, check, 3 legal moves`, `black to move: checkmate, white wins`,
/// `white to move: stalemate`, with `; insufficient material` added when it applies, else
/// `; seventy-five-move rule` when the game is over by that rule.
fn status_line(pos: &Position, count: usize, status: Status) -> String {
    let turn = pos.turn();
    let mut line = if count == 0 && pos.is_check() {
        format!("{turn} to move: checkmate, {} wins", !turn)
    } else if count == 0 {
        format!("{turn} to move: stalemate")
    } else {
        let check = if pos.is_check() { ", check" } else { "" };
        let plural = if count == 1 { "" } else { "s" };
        format!("{turn} to move{check}, {count} legal move{plural}")
    };
    if pos.is_insufficient_material() {
        line.push_str("; insufficient material");
    } else if status == Status::DeadPosition {
        line.push_str("; dead position: neither side can mate");
    } else if status == Status::SeventyfiveMoves {
        line.push_str("; seventy-five-move rule");
    }
    line
}

/// The board from white's side, rank 8 at the top, files and ranks labelled.
fn write_board(out: &mut impl Write, pos: &Position, ascii: bool) -> io::Result<()> {
    for rank in (0..8u8).rev() {
        write!(out, "{} ", rank + 1)?;
        for file in 0..8u8 {
            let piece = Square::from_coords(file, rank).and_then(|sq| pos.piece_at(sq));
            let c = match piece {
                None if ascii => '.',
                None => '·',
                Some(piece) if ascii => piece.char(),
                Some(piece) => symbol(piece.color, piece.role),
            };
            let sep = if file == 7 { "\n" } else { " " };
            write!(out, "{c}{sep}")?;
        }
    }
    writeln!(out, "  a b c d e f g h")?;
    writeln!(out)
}

/// The Unicode chess symbol of a piece.
fn symbol(color: Color, role: Role) -> char {
    const WHITE: [char; 6] = ['♙', '♘', '♗', '♖', '♕', '♔'];
    const BLACK: [char; 6] = ['♟', '♞', '♝', '♜', '♛', '♚'];
    match color {
        Color::White => WHITE[role.index()],
        Color::Black => BLACK[role.index()],
    }
}
