//! `arbiter moves FEN [--format text|json] [--board] [--ascii] [--chess960] [--notation
//! san|uci|both]`: the legal moves and status of a position.
//!
//! The FEN may be one argument or several words (`arbiter moves 8/8/8/8/8/8/8/k6K w - - 0 1`),
//! or `startpos`. Text output: with `--board` a diagram first, then a status line, then one move
//! per line, written as `--notation` says (canonical SAN, UCI, or both: `e4 e2e4`). JSON output:
//! one object, `{"fen","turn","check","status","moves":[{"san","uci"}]}`, where `status` is
//! `checkmate`, `stalemate`, `insufficient_material`, `seventyfive_moves` (halfmove clock of 150
//! or more) or `ongoing`, in that order of precedence.
//!
//! Moves are listed in byte order of their SAN text (piece moves `B…`, `K…`, `N…`, castling,
//! `Q…`, `R…`, then pawn moves by file), a stable order that does not depend on how the move
//! generator works. UCI castling is king-to-destination (`e1g1`), or king-to-rook (`e1h1`) in
//! Chess960 positions. The FEN is standard chess unless `--chess960` is given (or its castling
//! field uses Shredder file letters such as `HAha`): then `K`/`Q` name the outermost rooks
//! (X-FEN). A bad FEN is a usage error (exit 2) naming every defect.

use std::io::{self, Write};

use anyhow::anyhow;
use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::cli::exit::Exit;
use crate::rules::{Color, Position, Role, Square, san};

/// Arguments of `arbiter moves`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  arbiter moves startpos
  arbiter moves r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 --board
  arbiter moves 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2' --format json
  arbiter moves --chess960 --notation both nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1")]
pub struct MovesArgs {
    /// The position, as FEN (one quoted argument or several words), or `startpos`.
    #[arg(required = true, num_args = 1.., value_name = "FEN")]
    pub fen: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print a diagram of the board before the moves (text format only).
    #[arg(long)]
    pub board: bool,
    /// Draw the diagram with ASCII letters instead of Unicode chess symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Read the FEN as Chess960: `K`/`Q` castling rights name the outermost rooks (X-FEN), and
    /// castling is written king-to-rook in UCI. Without it, a right whose king is off e1/e8 or
    /// whose rook is not in its corner is an invalid FEN (Shredder letters such as `HAha` are
    /// always read as Chess960).
    #[arg(long)]
    pub chess960: bool,
    /// How the text output writes each move: `san` (`Nf3`), `uci` (`g1f3`), or `both`
    /// (`Nf3 g1f3`). JSON output always has both.
    #[arg(long, value_enum, default_value_t = Notation::San)]
    pub notation: Notation,
}

/// How `arbiter moves` writes moves in text output.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum Notation {
    /// Canonical SAN, `Nf3`.
    San,
    /// UCI, `g1f3`.
    Uci,
    /// SAN, a space, then UCI: `Nf3 g1f3`.
    Both,
}

/// Output formats of `arbiter moves`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
pub enum Format {
    /// A status line, then one SAN per line.
    Text,
    /// One JSON object.
    Json,
}

/// The `status` of a position, first match wins.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    SeventyfiveMoves,
    Ongoing,
}

/// One move in the JSON output.
#[derive(Serialize)]
struct JsonMove {
    san: String,
    uci: String,
}

/// The JSON output, fields in this order.
#[derive(Serialize)]
struct JsonPosition {
    fen: String,
    turn: &'static str,
    check: bool,
    status: Status,
    moves: Vec<JsonMove>,
}

/// Runs `arbiter moves`.
pub fn run(args: &MovesArgs) -> anyhow::Result<Exit> {
    let text = args.fen.join(" ");
    let text = text.trim();
    let pos = if text == "startpos" {
        let mut pos = Position::startpos();
        pos.set_chess960(args.chess960);
        pos
    } else if args.chess960 {
        Position::from_fen_chess960(text).map_err(|err| anyhow!("{err}"))?
    } else {
        Position::from_fen(text).map_err(|err| anyhow!("{err}"))?
    };
    let chess960 = pos.is_chess960();
    let mut moves: Vec<(san::SanString, String)> = pos
        .legal_moves()
        .iter()
        .map(|&mv| (san::write(&pos, mv), mv.to_uci(chess960).to_string()))
        .collect();
    moves.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let insufficient = pos.is_insufficient_material();
    let status = if moves.is_empty() && pos.is_check() {
        Status::Checkmate
    } else if moves.is_empty() {
        Status::Stalemate
    } else if insufficient {
        Status::InsufficientMaterial
    } else if pos.halfmoves() >= 150 {
        Status::SeventyfiveMoves
    } else {
        Status::Ongoing
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        Format::Json => {
            let json = JsonPosition {
                fen: pos.to_fen(),
                turn: pos.turn().name(),
                check: pos.is_check(),
                status,
                moves: moves
                    .iter()
                    .map(|(san, uci)| JsonMove {
                        san: san.to_string(),
                        uci: uci.clone(),
                    })
                    .collect(),
            };
            serde_json::to_writer(&mut out, &json)?;
            writeln!(out)?;
        }
        Format::Text => {
            if args.board {
                write_board(&mut out, &pos, args.ascii)?;
            }
            writeln!(out, "{}", status_line(&pos, moves.len(), status))?;
            for (san, uci) in &moves {
                match args.notation {
                    Notation::San => writeln!(out, "{san}")?,
                    Notation::Uci => writeln!(out, "{uci}")?,
                    Notation::Both => writeln!(out, "{san} {uci}")?,
                }
            }
        }
    }
    out.flush()?;
    Ok(Exit::Ok)
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
