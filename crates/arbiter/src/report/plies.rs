//! Ply rows (`export --plies`): one row per main-line ply, with the move in SAN and UCI, the FEN
//! after it (optional), the clock, time spent and evaluation of its comments, its NAGs, and the
//! comments' text (optional). The replay keeps the main line's moves and annotations
//! ([`PlyLog`](crate::replay::PlyLog)); here they are played again from the game's start to write
//! each move's SAN and FEN.

use std::fmt::Write as _;

use crate::clocks::Eval;
use crate::replay::GameReport;
use crate::report::columns::{Column, ColumnKind};
use crate::report::output::{Cell, GameFormatter, GameNumber, Output};
use crate::report::table::{ExportFormat, Table, is_plain};
use crate::rules::san;

/// The fixed columns of a ply row, `fen` and `comment` included (each only when asked for).
pub const PLY_COLUMNS: [(&str, ColumnKind, bool); 13] = {
    use ColumnKind::{Float64, Int32, Int64, String};
    [
        ("index", Int64, false),
        ("file", String, false),
        ("game", Int64, false),
        ("ply", Int32, false),
        ("san", String, false),
        ("uci", String, false),
        ("fen", String, false),
        ("clock", Float64, true),
        ("emt", Float64, true),
        ("eval_cp", Int32, true),
        ("eval_mate", Int32, true),
        ("nags", String, true),
        ("comment", String, true),
    ]
};

/// Which optional columns a ply row has.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlyColumns {
    /// The FEN after the move.
    pub fen: bool,
    /// The comments' text.
    pub comment: bool,
}

impl PlyColumns {
    /// The columns, with `extra_tags` columns at the end.
    pub fn columns(self, extra_tags: &[String]) -> Vec<Column> {
        PLY_COLUMNS
            .iter()
            .filter(|(name, ..)| match *name {
                "fen" => self.fen,
                "comment" => self.comment,
                _ => true,
            })
            .map(|&(name, kind, nullable)| Column {
                name: name.to_owned(),
                kind,
                nullable,
            })
            .chain(
                extra_tags
                    .iter()
                    .map(|t| Column::required(t.as_str(), ColumnKind::String)),
            )
            .collect()
    }
}

/// Formats the ply rows of each game.
pub struct PlyFormatter {
    table: Table,
    wanted: PlyColumns,
    /// Scratch text: the FEN, the NAGs.
    fen: String,
    nags: String,
}

impl PlyFormatter {
    /// A formatter for `format`, with the optional columns `wanted` and `extra_tags`.
    pub fn new(format: ExportFormat, wanted: PlyColumns, extra_tags: &[String]) -> PlyFormatter {
        PlyFormatter {
            table: Table::new(format, wanted.columns(extra_tags)),
            wanted,
            fen: String::new(),
            nags: String::new(),
        }
    }

    /// The table (for the header and footer).
    pub fn table(&self) -> &Table {
        &self.table
    }
}

impl GameFormatter for PlyFormatter {
    fn format(&mut self, source: &str, number: GameNumber, report: &GameReport, out: &mut Output) {
        let log = &report.ply_log;
        let mut pos = log.start.clone();
        let chess960 = pos.is_chess960();
        // The file's name goes into every row: looked at once.
        let file = if is_plain(source) {
            Cell::Plain(source)
        } else {
            Cell::Str(source)
        };
        for (ply, note) in (1i64..).zip(&log.plies) {
            let written;
            let (san, (uci, uci_len)) = match note.mv {
                Some(mv) => {
                    written = san::write(&pos, mv);
                    let uci = mv.to_uci(chess960).to_ascii();
                    pos.play_unchecked(mv);
                    (written.as_str(), uci)
                }
                None => {
                    pos.play_null();
                    ("--", (*b"0000 ", 4))
                }
            };
            let uci = std::str::from_utf8(&uci[..uci_len]).unwrap_or_default();
            let mut row = self.table.row(out);
            row.cell(Cell::Run(number))
                .cell(file)
                .cell(Cell::Input(number))
                .cell(Cell::Int(ply))
                .cell(Cell::Plain(san))
                .cell(Cell::Plain(uci));
            if self.wanted.fen {
                self.fen.clear();
                pos.write_fen(&mut self.fen);
                row.cell(Cell::Plain(&self.fen));
            }
            let notes = &note.notes;
            let (cp, mate) = match notes.eval {
                Some(Eval::Centipawns(cp)) => (Cell::Int(cp.into()), Cell::Null),
                Some(Eval::Mate(n)) => (Cell::Null, Cell::Int(n.into())),
                None => (Cell::Null, Cell::Null),
            };
            row.cell(notes.clock.map_or(Cell::Null, Cell::Seconds))
                .cell(notes.emt.map_or(Cell::Null, Cell::Seconds))
                .cell(cp)
                .cell(mate);
            let nags = log.nags(note);
            if nags.is_empty() {
                row.cell(Cell::Null);
            } else {
                self.nags.clear();
                for (i, nag) in nags.iter().enumerate() {
                    let _ = write!(self.nags, "{}{nag}", if i > 0 { " " } else { "" });
                }
                row.cell(Cell::Plain(&self.nags));
            }
            if self.wanted.comment {
                let comment = log.comment(note);
                row.cell(if comment.is_empty() {
                    Cell::Null
                } else {
                    Cell::Str(comment)
                });
            }
            for value in &report.tags.extra {
                row.cell(Cell::Str(value));
            }
            row.end();
        }
    }
}
