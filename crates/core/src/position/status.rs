//! A position's status as `arbiter moves` reports it, first match wins: checkmate, stalemate,
//! insufficient material, a dead position (neither side can mate by any series of legal moves),
//! the seventy-five-move rule (a halfmove clock of 150 or more), else ongoing. The command line
//! and the Python package both judge a position through [`Status::of`].

use arbiter_rules::Position;
use arbiter_rules::mate::CanMate;
use serde::Serialize;

use crate::outcome::{self, BoardFacts, Outcome};

/// The status of a position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the material to mate.
    InsufficientMaterial,
    /// Neither side can mate by any series of legal moves (beyond material).
    DeadPosition,
    /// The halfmove clock is 150 or more: the game is over by the 75-move rule.
    SeventyfiveMoves,
    /// None of these.
    Ongoing,
}

impl Status {
    /// The status of `pos`, which has `moves` legal moves, and in which White and Black can mate
    /// as `can_mate` says (in [`Color::index`](arbiter_rules::Color::index) order): the automatic
    /// end the board shows (`outcome::automatic_end`, the ladder every judgment shares), a
    /// position standing alone (its repetitions unknown).
    pub fn of(pos: &Position, moves: usize, can_mate: &[&CanMate; 2]) -> Status {
        let facts = BoardFacts {
            checkmate: moves == 0 && pos.is_check(),
            stalemate: moves == 0 && !pos.is_check(),
            insufficient_material: pos.is_insufficient_material(),
            dead_position: can_mate.iter().all(|answer| **answer == CanMate::No),
            halfmove_clock: pos.halfmoves(),
            repetitions: 1,
            ..BoardFacts::default()
        };
        match outcome::automatic_end(&facts) {
            Some(Outcome::Checkmate) => Status::Checkmate,
            Some(Outcome::Stalemate) => Status::Stalemate,
            Some(Outcome::InsufficientMaterial) => Status::InsufficientMaterial,
            Some(Outcome::DeadPosition) => Status::DeadPosition,
            Some(Outcome::SeventyfiveMoves) => Status::SeventyfiveMoves,
            _ => Status::Ongoing,
        }
    }

    /// The name, as JSON has it: `checkmate`, `stalemate`, `insufficient_material`,
    /// `dead_position`, `seventyfive_moves` or `ongoing`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InsufficientMaterial => "insufficient_material",
            Status::DeadPosition => "dead_position",
            Status::SeventyfiveMoves => "seventyfive_moves",
            Status::Ongoing => "ongoing",
        }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_rules::Color;
    use arbiter_rules::mate::{MateLimits, can_mate};

    use super::*;

    fn status(fen: &str) -> Status {
        let pos = Position::from_fen(fen).unwrap();
        let limits = MateLimits::default();
        let answers = [
            can_mate(&pos, Color::White, &limits),
            can_mate(&pos, Color::Black, &limits),
        ];
        let status = Status::of(&pos, pos.legal_moves().len(), &answers.each_ref());
        assert_eq!(serde_json::to_value(status).unwrap(), status.as_str());
        status
    }

    #[test]
    fn the_first_match_wins() {
        // Fool's mate.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(status(mated), Status::Checkmate);
        assert_eq!(status("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Status::Stalemate);
        assert_eq!(
            status("8/8/8/8/8/8/8/k6K w - - 0 1"),
            Status::InsufficientMaterial
        );
        // A locked pawn wall with kings only behind it.
        let wall = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1";
        assert_eq!(status(wall), Status::DeadPosition);
        let late = "8/8/4k3/8/8/4K3/4P3/8 w - - 150 100";
        assert_eq!(status(late), Status::SeventyfiveMoves);
        assert_eq!(status(arbiter_rules::STARTING_FEN), Status::Ongoing);
    }
}
