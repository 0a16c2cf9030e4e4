//! Ply rows (`export --plies`): one row per main-line ply, with its move number and the side that
//! moved, the move in SAN and UCI, the FEN after it (optional), the clock, time spent and
//! evaluation of its comments, its NAGs, and the comments' text (optional); then, when asked,
//! the game's columns of game rows that a ply row repeats: its opening by position
//! (`eco_computed`, `opening_computed`) and the first ply at which it reaches a position looked
//! for (`position_ply`).
//!
//! The time spent on a move is its `[%emt]` when given, else the mover's clock before the move
//! (its previous reading, one move earlier) plus what the move gained (the increment, and a new
//! period's seconds at a period's end: the `TimeControl` tag's periods) minus its clock after the
//! move; null for a side's first reading, after a move without a reading, without a timed
//! `TimeControl`, and where the clock rose by more than the move gained (time given by the
//! opponent). The replay keeps the main line's moves and annotations
//! ([`PlyLog`](arbiter_core::replay::PlyLog)); here they are played again from the game's start to write
//! each move's SAN and FEN.

use arbiter_core::clocks::evidence::allowance;
use arbiter_core::clocks::{Eval, Millis, Period, TimeControl};
use arbiter_core::replay::GameReport;
use arbiter_rules::san;

use crate::columns::{Column, ColumnKind, column_names, table_columns};
use crate::output::{Cell, GameFormatter, GameNumber, Output};
use crate::record::{OPENING_COLUMNS, POSITION_PLY, offset};
use crate::table::{ExportFormat, Table, is_plain};

/// The fixed columns of a ply row, `fen` and `comment` included (each only when asked for).
pub(crate) const PLY_COLUMNS: [(&str, ColumnKind, bool); 17] = {
    use ColumnKind::{Float64, Int32, Int32List, Int64, String};
    [
        ("index", Int64, false),
        ("file", String, false),
        ("game", Int64, false),
        ("ply", Int32, false),
        ("move_number", Int32, false),
        ("color", String, false),
        ("san", String, false),
        ("uci", String, false),
        ("fen", String, false),
        ("clock", Float64, true),
        ("emt", Float64, true),
        ("time_spent", Float64, true),
        ("eval_cp", Int32, true),
        ("eval_mate", Int32, true),
        ("nags", Int32List, true),
        ("comment", String, true),
        ("offset", Int64, false),
    ]
};

/// The names of the ply columns, in order.
pub const PLY_FIELDS: [&str; PLY_COLUMNS.len()] = column_names(&PLY_COLUMNS);

/// Which optional columns a ply row has.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlyColumns {
    /// The FEN after the move.
    pub fen: bool,
    /// The comments' text.
    pub comment: bool,
    /// The game's opening by position, after the fixed columns (game rows'
    /// [`OPENING_COLUMNS`]).
    pub opening: bool,
    /// The game's first ply at a position looked for, after those ([`POSITION_PLY`]).
    pub position: bool,
}

impl PlyColumns {
    /// The columns, with `extra_tags` columns at the end.
    pub fn columns(self, extra_tags: &[String]) -> Vec<Column> {
        let wanted = PLY_COLUMNS.iter().filter(|(name, ..)| match *name {
            "fen" => self.fen,
            "comment" => self.comment,
            _ => true,
        });
        let opening: &[_] = if self.opening { &OPENING_COLUMNS } else { &[] };
        let games = (opening.iter())
            .chain(self.position.then_some(&POSITION_PLY))
            .map(|column| (column.name, column.kind, column.nullable));
        table_columns(wanted.copied().chain(games), extra_tags)
    }
}

/// Each side's previous clock reading, to tell the time spent on a move from two readings.
struct TimeSpent<'a> {
    /// The time control's timed periods (empty when it has none: nothing is computed).
    periods: &'a [Period],
    /// Per side: its moves so far, and its clock after the last of them when read.
    sides: [(u32, Option<Millis>); 2],
}

impl<'a> TimeSpent<'a> {
    fn new(periods: &'a [Period]) -> TimeSpent<'a> {
        let timed = periods.iter().all(|p| matches!(p, Period::Timed { .. }));
        TimeSpent {
            periods: if timed { periods } else { &[] },
            sides: [(0, None); 2],
        }
    }

    /// Side `side` moved, and its clock reads `clock` after the move (when read): the time the
    /// move took by the clocks, when the side's previous move had a reading too.
    fn ply(&mut self, side: usize, clock: Option<Millis>) -> Option<Millis> {
        let (moves, before) = &mut self.sides[side];
        *moves += 1;
        let previous = std::mem::replace(before, clock);
        if self.periods.is_empty() {
            return None;
        }
        let gained = allowance(self.periods, *moves);
        let spent = (u64::from(previous?) + gained).checked_sub(u64::from(clock?))?;
        Millis::try_from(spent).ok()
    }
}

/// Formats the ply rows of each game.
pub struct PlyFormatter {
    table: Table,
    wanted: PlyColumns,
    /// Scratch text: the FEN.
    fen: String,
}

impl PlyFormatter {
    /// A formatter for `format`, with the optional columns `wanted` and `extra_tags`.
    pub fn new(format: ExportFormat, wanted: PlyColumns, extra_tags: &[String]) -> PlyFormatter {
        PlyFormatter {
            table: Table::new(format, wanted.columns(extra_tags)),
            wanted,
            fen: String::new(),
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
        let time_control = TimeControl::parse(&report.tags.time_control).ok();
        let periods = time_control.as_ref().map_or(&[][..], TimeControl::periods);
        let mut spent = TimeSpent::new(periods);
        for (ply, note) in (1i64..).zip(&log.plies) {
            let mover = pos.turn();
            let move_number = i64::from(pos.fullmoves());
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
            let notes = &note.notes;
            let time_spent = spent.ply(mover.index(), notes.clock);
            let mut row = self.table.row(out);
            row.cell(Cell::Run(number))
                .cell(file)
                .cell(Cell::Input(number))
                .cell(Cell::Int(ply))
                .cell(Cell::Int(move_number))
                .cell(Cell::Plain(mover.fold_wb("white", "black")))
                .cell(Cell::Plain(san))
                .cell(Cell::Plain(uci));
            if self.wanted.fen {
                self.fen.clear();
                pos.write_fen(&mut self.fen);
                row.cell(Cell::Plain(&self.fen));
            }
            let (cp, mate) = match notes.eval {
                Some(Eval::Centipawns(cp)) => (Cell::Int(cp.into()), Cell::Null),
                Some(Eval::Mate(n)) => (Cell::Null, Cell::Int(n.into())),
                None => (Cell::Null, Cell::Null),
            };
            row.cell(notes.clock.map_or(Cell::Null, Cell::Seconds))
                .cell(notes.emt.map_or(Cell::Null, Cell::Seconds))
                .cell(notes.emt.or(time_spent).map_or(Cell::Null, Cell::Seconds))
                .cell(cp)
                .cell(mate);
            let nags = log.nags(note);
            row.cell(if nags.is_empty() {
                Cell::Null
            } else {
                Cell::List(nags)
            });
            if self.wanted.comment {
                let comment = log.comment(note);
                row.cell(if comment.is_empty() {
                    Cell::Null
                } else {
                    Cell::Str(comment)
                });
            }
            row.cell(offset(report.offset));
            if self.wanted.opening {
                let (eco, name) = report
                    .opening
                    .map_or((None, None), |o| (Some(o.eco), Some(o.name)));
                row.cell(eco.map_or(Cell::Null, Cell::Plain))
                    .cell(name.map_or(Cell::Null, Cell::Str));
            }
            if self.wanted.position {
                row.cell(
                    report
                        .position_ply
                        .map_or(Cell::Null, |ply| Cell::Int(ply.into())),
                );
            }
            for value in &report.tags.extra {
                row.cell(Cell::Str(value));
            }
            row.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spent(tag: &str, readings: &[Option<Millis>]) -> Vec<Option<Millis>> {
        let control = TimeControl::parse(tag).ok();
        let mut spent = TimeSpent::new(control.as_ref().map_or(&[][..], TimeControl::periods));
        // White's moves only: Black's readings are kept apart and do not interfere.
        readings.iter().map(|&clock| spent.ply(0, clock)).collect()
    }

    #[test]
    fn time_spent_is_the_previous_clock_plus_the_increment_minus_this_one() {
        assert_eq!(
            spent(
                "180+2",
                &[Some(180_000), Some(178_000), Some(180_000), Some(181_500)]
            ),
            [None, Some(4_000), Some(0), Some(500)]
        );
        // A clock that rose by more than the increment (time given): no time spent.
        assert_eq!(
            spent("180+2", &[Some(100_000), Some(115_000)]),
            [None, None]
        );
        // A move without a reading breaks the chain.
        assert_eq!(
            spent("60", &[Some(60_000), None, Some(50_000), Some(49_000)]),
            [None, None, None, Some(1_000)]
        );
        // Without a timed time control nothing is known of the increment.
        for tag in ["?", "-", "*60", "5 min"] {
            assert_eq!(
                spent(tag, &[Some(60_000), Some(59_000)]),
                [None, None],
                "{tag}"
            );
        }
    }

    #[test]
    fn a_new_period_adds_its_seconds() {
        // 2 moves in 100 s, then 50 s more: move 2 ends the first period.
        assert_eq!(
            spent("2/100:50", &[Some(90_000), Some(130_000), Some(125_000)]),
            [None, Some(10_000), Some(5_000)]
        );
    }

    #[test]
    fn sides_are_kept_apart() {
        let mut spent = TimeSpent::new(&[Period::Timed {
            moves: None,
            seconds: 60,
            increment: 0,
        }]);
        assert_eq!(spent.ply(0, Some(60_000)), None);
        assert_eq!(spent.ply(1, Some(60_000)), None);
        assert_eq!(spent.ply(0, Some(55_000)), Some(5_000));
        assert_eq!(spent.ply(1, Some(58_000)), Some(2_000));
    }
}
