//! `Position`: a chess position from a FEN (or the start), its legal moves in SAN and UCI, its
//! status, whether each side can still mate (with the helpmate that proves it), moves played in
//! SAN or UCI, and perft: what `arbiter moves` and `arbiter perft` tell, as Python values.
//! Errors are `FenError` and `MoveError` (both `ValueError`s) with the command line's messages.

use pyo3::prelude::*;

use crate::errors::{FenError, MoveError, options_error};
use crate::library::{
    CanMate, Color, MateLimits, Move, Position as Board, San, Solver, Status, Uci,
};
use crate::library::{Checks, Verdict, can_mate_each, named, perft, san, sorted_moves};

/// How many positions the helpmate search visits per side unless told (as `arbiter moves`: a
/// safety valve no real game's position comes near).
const DEFAULT_LIMIT: u64 = 1_000_000;

/// A legal move, in both notations.
#[pyclass(module = "arbiter._arbiter", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LegalMove {
    /// Canonical SAN, such as "Nf3" or "exd8=Q+".
    san: String,
    /// UCI, such as "g1f3" or "e7d8q" (castling king-to-destination, or king-to-rook in
    /// Chess960).
    uci: String,
}

#[pymethods]
impl LegalMove {
    fn __repr__(&self) -> String {
        format!("<LegalMove {} {}>", self.san, self.uci)
    }

    fn __str__(&self) -> String {
        self.san.clone()
    }
}

/// Whether a side can still checkmate by some series of legal moves (Laws 5.2.2 and 6.9).
#[pyclass(module = "arbiter._arbiter", frozen, get_all)]
pub struct MateAnswer {
    /// "white" or "black".
    color: String,
    /// True (a helpmate proves it), False (proved impossible) or None (not decided within the
    /// search limit).
    can_mate: Option<bool>,
    /// With True: the helpmate, UCI moves of both sides from the position that end in mate
    /// (empty when the side has mated already); else None.
    helpmate: Option<Vec<String>>,
    /// The stage that decided (None when undecided), as `arbiter moves` names it in its JSON:
    /// for False "over", "material", "blocked", "look_ahead", "quick" or "search"; for True
    /// "over", "probe", "dive", "quick" or "search".
    proof: Option<&'static str>,
    /// The command line's words: "white can mate: e2e4 ... (a helpmate)", "black cannot mate
    /// (proved: too little material)", "white: not decided within 1000000 positions".
    text: String,
}

#[pymethods]
impl MateAnswer {
    fn __bool__(&self) -> bool {
        self.can_mate == Some(true)
    }

    fn __repr__(&self) -> String {
        format!("<MateAnswer {}>", self.text)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// A chess position (standard chess, or Chess960), changed in place by `push`.
#[pyclass(module = "arbiter._arbiter")]
#[derive(Clone)]
pub struct Position {
    board: Board,
}

/// The color named `name`.
fn color(name: &str) -> PyResult<Color> {
    match name {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        other => Err(options_error(format!(
            "color: {other:?} is not a color; say \"white\" or \"black\""
        ))),
    }
}

impl Position {
    /// The legal moves, in the byte order of their SAN (as `arbiter moves` lists them).
    fn sorted_moves(&self) -> Vec<(Move, LegalMove)> {
        let chess960 = self.board.is_chess960();
        sorted_moves(&self.board)
            .into_iter()
            .map(|(mv, san)| {
                let legal = LegalMove {
                    san: san.to_string(),
                    uci: mv.to_uci(chess960).to_string(),
                };
                (mv, legal)
            })
            .collect()
    }

    /// The move `text` names, in SAN or UCI: SAN first, UCI when it reads as UCI and not as SAN.
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        let text = text.trim();
        let bytes = text.as_bytes();
        let san = San::from_ascii(bytes);
        if let Ok(uci) = Uci::from_ascii(bytes) {
            let as_san = san.as_ref().ok().and_then(|s| s.resolve(&self.board).ok());
            if as_san.is_none() {
                return uci
                    .to_move(&self.board)
                    .map_err(|err| MoveError::new_err(err.to_string()));
            }
        }
        let san = san.map_err(|err| MoveError::new_err(format!("{text}: {err}")))?;
        if san.is_null() {
            return Err(MoveError::new_err(format!(
                "{text}: a null move is not a legal move"
            )));
        }
        san.resolve(&self.board)
            .map(|resolved| resolved.mv)
            .map_err(|err| MoveError::new_err(err.to_string()))
    }

    fn answers(&self, limit: u64) -> [Verdict; 2] {
        can_mate_each(
            &mut Solver::new(),
            &self.board,
            &MateLimits { nodes: limit },
        )
    }
}

#[pymethods]
impl Position {
    /// The position of `fen` (4 to 6 fields; the move counters may be left out). With
    /// `chess960`, `K`/`Q` castling rights name the outermost rooks (X-FEN); Shredder letters
    /// such as `HAha` are always read as Chess960. A bad FEN raises `FenError`, naming every
    /// defect as `arbiter moves` does.
    #[staticmethod]
    #[pyo3(signature = (fen, *, chess960 = false))]
    fn from_fen(fen: &str, chess960: bool) -> PyResult<Position> {
        named(fen, chess960, Checks::Strict)
            .map(|board| Position { board })
            .map_err(|err| FenError::new_err(err.to_string()))
    }

    /// The starting position.
    #[staticmethod]
    #[pyo3(signature = (*, chess960 = false))]
    fn startpos(chess960: bool) -> Position {
        let mut board = Board::startpos();
        board.set_chess960(chess960);
        Position { board }
    }

    /// The position as FEN.
    #[getter]
    fn fen(&self) -> String {
        self.board.to_fen()
    }

    /// "white" or "black": the side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        self.board.turn().name()
    }

    /// Whether the side to move is in check.
    #[getter]
    fn is_check(&self) -> bool {
        self.board.is_check()
    }

    /// Whether the side to move is checkmated.
    #[getter]
    fn is_checkmate(&self) -> bool {
        self.board.is_checkmate()
    }

    /// Whether the side to move has no legal move and is not in check.
    #[getter]
    fn is_stalemate(&self) -> bool {
        self.board.is_stalemate()
    }

    /// Whether neither side has the material to mate (K v K, K+N v K, bishops all on one colour).
    #[getter]
    fn is_insufficient_material(&self) -> bool {
        self.board.is_insufficient_material()
    }

    /// The halfmove clock (plies since the last capture or pawn move).
    #[getter]
    fn halfmoves(&self) -> u32 {
        self.board.halfmoves()
    }

    /// The fullmove number.
    #[getter]
    fn fullmoves(&self) -> u32 {
        self.board.fullmoves()
    }

    /// Whether castling rights are read and written as Chess960's.
    #[getter]
    fn chess960(&self) -> bool {
        self.board.is_chess960()
    }

    /// The legal moves, each with its SAN and UCI, in the byte order of their SAN (as `arbiter
    /// moves` lists them).
    fn legal_moves(&self) -> Vec<LegalMove> {
        self.sorted_moves().into_iter().map(|(_, m)| m).collect()
    }

    /// The status, first match wins: "checkmate", "stalemate", "insufficient_material",
    /// "dead_position" (neither side can mate by any series of legal moves, decided within
    /// `limit` positions per side), "seventyfive_moves" or "ongoing".
    #[pyo3(signature = (*, limit = DEFAULT_LIMIT))]
    fn status(&self, py: Python<'_>, limit: u64) -> &'static str {
        let count = self.board.legal_moves().len();
        let answers = py.detach(|| self.answers(limit));
        Status::of(
            &self.board,
            count,
            &answers.each_ref().map(|side| &side.answer),
        )
        .as_str()
    }

    /// Whether the position is dead: True when neither side can mate (proved), False when one
    /// can (a helpmate shows it), None when the search of `limit` positions per side did not
    /// decide.
    #[pyo3(signature = (*, limit = DEFAULT_LIMIT))]
    fn is_dead(&self, py: Python<'_>, limit: u64) -> Option<bool> {
        let answers = py.detach(|| self.answers(limit));
        match answers.each_ref().map(|side| side.answer.known()) {
            [Some(false), Some(false)] => Some(true),
            [Some(true), _] | [_, Some(true)] => Some(false),
            _ => None,
        }
    }

    /// Whether `color` ("white" or "black") can still checkmate by some series of legal moves,
    /// both sides cooperating: True with the helpmate, False proved, None when the search of
    /// `limit` positions (0: the static proofs only) did not decide.
    #[pyo3(signature = (color, *, limit = DEFAULT_LIMIT))]
    fn can_mate(&self, py: Python<'_>, color: &str, limit: u64) -> PyResult<MateAnswer> {
        let side = self::color(color)?;
        let limits = MateLimits { nodes: limit };
        let verdict = py.detach(|| Solver::new().judge(&self.board, side, &limits));
        let answer = &verdict.answer;
        let chess960 = self.board.is_chess960();
        let helpmate = match answer {
            CanMate::Yes(line) => Some(
                line.iter()
                    .map(|mv| mv.to_uci(chess960).to_string())
                    .collect::<Vec<_>>(),
            ),
            CanMate::No | CanMate::Unknown => None,
        };
        let text = match (answer, &helpmate) {
            (CanMate::Yes(line), _) if line.is_empty() => format!("{side} can mate (it has mated)"),
            (CanMate::Yes(_), Some(line)) => {
                format!("{side} can mate: {} (a helpmate)", line.join(" "))
            }
            (CanMate::No, _) => format!("{side} cannot mate (proved: {})", verdict.tier.proof()),
            (_, _) if limit == 0 => format!("{side}: not decided without a search (limit 0)"),
            (_, _) => format!("{side}: not decided within {limit} positions"),
        };
        Ok(MateAnswer {
            color: side.name().to_owned(),
            can_mate: answer.known(),
            helpmate,
            proof: answer.known().map(|_| verdict.tier.name()),
            text,
        })
    }

    /// Plays `move`, in SAN ("Nf3", "O-O", "exd8=Q") or UCI ("g1f3", "e1g1"), and returns its
    /// canonical SAN. A move that is not legal raises `MoveError`, saying why.
    fn push(&mut self, r#move: &str) -> PyResult<String> {
        let mv = self.parse_move(r#move)?;
        let written = san::write(&self.board, mv).to_string();
        self.board.play_unchecked(mv);
        Ok(written)
    }

    /// The number of legal move sequences of `depth` plies (1 for depth 0), counted with the
    /// GIL released.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        py.detach(|| perft(&self.board, depth))
    }

    /// A copy of the position.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.board.to_fen()
    }

    fn __repr__(&self) -> String {
        format!("Position.from_fen({:?})", self.board.to_fen())
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.board.to_fen() == other.board.to_fen()
            && self.board.is_chess960() == other.board.is_chess960()
    }
}
