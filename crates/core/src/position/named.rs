//! A position as a user names it, the same way in `moves`, `perft` and the Python package:
//! `startpos`, or a FEN read as standard chess or, with `chess960` (or when its castling field
//! uses Shredder file letters such as `HAha`), as Chess960, where `K`/`Q` name the outermost rooks
//! (X-FEN). `perft` reads leniently: a position with an impossible check or impossible material,
//! as perft suites hold some, is accepted.

use arbiter_rules::{FenError, Position};

/// How strictly a named position is checked.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Checks {
    /// Every rule of a legal position (`moves`, the Python package).
    Strict,
    /// An impossible check or impossible material accepted (`perft`).
    Lenient,
}

/// The position `text` names (see the module documentation); an empty text is no position.
pub fn named(text: &str, chess960: bool, checks: Checks) -> Result<Position, FenError> {
    let text = text.trim();
    if text == "startpos" {
        let mut pos = Position::startpos();
        pos.set_chess960(chess960);
        return Ok(pos);
    }
    match (checks, chess960) {
        (Checks::Strict, false) => Position::from_fen(text),
        (Checks::Strict, true) => Position::from_fen_chess960(text),
        (Checks::Lenient, false) => Position::from_fen_lenient(text),
        (Checks::Lenient, true) => Position::from_fen_lenient_chess960(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_and_fens_are_read_in_either_chess() {
        let start = named(" startpos ", false, Checks::Strict).unwrap();
        assert_eq!(start.to_fen(), arbiter_rules::STARTING_FEN);
        assert!(!start.is_chess960());
        assert!(
            named("startpos", true, Checks::Strict)
                .unwrap()
                .is_chess960()
        );
        let fen = "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1";
        assert!(
            named(fen, false, Checks::Strict).is_err(),
            "K/Q rooks off their corners"
        );
        assert!(named(fen, true, Checks::Strict).unwrap().is_chess960());
    }

    #[test]
    fn impossible_material_is_for_perft_only() {
        let two_queens = "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1";
        assert!(named(two_queens, false, Checks::Strict).is_err());
        assert!(named(two_queens, false, Checks::Lenient).is_ok());
    }
}
