//! The game's verdict once its moves are replayed: the first automatic end of the main line
//! decides (the first dead ply found by bisection), else its final position with the claims a
//! drawn result may rest on, else the tags; then what the board and the Termination tag say
//! against the Result.

use crate::outcome::{self, BoardFacts, Outcome, termination};
use crate::pgn::{GameResult, Location};
use crate::replay::{Replayer, claims, dead};
use crate::report::code::Code;
use crate::rules::{Color, Position};

impl Replayer {
    /// Classifies the game and reports what the tags say against the board: the first automatic
    /// end of the main line decides, else its final position, else the tags.
    pub(super) fn judge(&mut self, declared: GameResult) {
        let tags = &self.report.tags;
        let termination = self
            .tags
            .termination_at
            .map(|_| termination::read(&tags.termination, &tags.white, &tags.black));
        let line = match self.stack.main() {
            Some(line) if !self.main_line_broken => line,
            _ => {
                self.report.classification = Some(outcome::classify_invalid(declared));
                return;
            }
        };
        let mut ended = self.stack.automatic_end.filter(|&(ply, _)| ply < line.ply);
        let dead_at_end = ended.is_none() && dead::is_dead(&line.pos);
        if dead_at_end && !self.stack.main_null {
            let moves: Vec<crate::rules::Move> =
                self.stack.main_moves.iter().map(|&(mv, _)| mv).collect();
            let first = dead::first_dead_ply(&self.stack.start, &moves);
            if first < line.ply {
                ended = Some((first, Outcome::DeadPosition));
                let (_, at) = self.stack.main_moves[first as usize];
                let message = format!(
                    "the game already ended at ply {first} in a dead position (neither side can \
                     mate by any series of legal moves); later moves do not count"
                );
                self.problem(at, Some(first + 1), None, Code::MoveAfterEnd, message);
            }
        }
        let Some(line) = self.stack.main() else {
            return;
        };
        let classification = match ended {
            Some((ply, outcome)) => {
                self.report.end_ply = Some(ply);
                outcome::classify_ended(outcome, declared)
            }
            None => {
                let facts = self.final_facts(&line.pos, declared, dead_at_end);
                outcome::classify(&facts, declared, termination.as_ref())
            }
        };
        self.report.classification = Some(classification);
        let result_at = self.tags.result_at.unwrap_or(Location(0));
        let at = self.marker.map_or(result_at, |(_, at)| at);
        let end_ply = ended.map(|(ply, _)| ply);
        if let Some(message) = outcome::contradiction(&classification, declared, end_ply) {
            self.problem(at, None, None, Code::ResultContradictsBoard, message);
        }
        let implied = termination.and_then(|t| t.implies);
        let text = self
            .tags
            .termination_at
            .map(|_| &self.report.tags.termination);
        if let (Some(implied), Some(text)) = (implied, text)
            && declared != GameResult::Unknown
            && outcome::declared_winner(declared) != implied
        {
            let message = format!(
                "the Termination tag \"{text}\" says {}, but the Result is {}",
                winner_words(implied),
                declared.as_str()
            );
            self.problem(
                self.tags.termination_at.unwrap_or(Location(0)),
                None,
                None,
                Code::TerminationContradictsResult,
                message,
            );
        }
    }

    /// What the final position `pos` of the main line tells (`dead`: it is a proved dead
    /// position). The claims are looked at only for a drawn result, where they count.
    pub(super) fn final_facts(
        &self,
        pos: &Position,
        declared: GameResult,
        dead: bool,
    ) -> BoardFacts {
        let stuck = !pos.has_legal_moves();
        let check = pos.is_check();
        let repetitions = self.stack.repetitions();
        let drawn = declared == GameResult::Draw;
        BoardFacts {
            checkmate: stuck && check,
            stalemate: stuck && !check,
            insufficient_material: pos.is_insufficient_material(),
            dead_position: dead,
            halfmove_clock: pos.halfmoves(),
            repetitions,
            fifty_claimable: drawn && !stuck && claims::fifty(pos),
            threefold_claimable: drawn && !stuck && claims::threefold(pos, &self.stack.history),
            white_to_move: pos.turn() == Color::White,
            white_cannot_mate: dead::cannot_mate(pos, Color::White),
            black_cannot_mate: dead::cannot_mate(pos, Color::Black),
        }
    }
}

/// `White won`, `Black won`, `the game was drawn`.
pub(super) fn winner_words(winner: outcome::Winner) -> &'static str {
    match winner {
        outcome::Winner::White => "White won",
        outcome::Winner::Black => "Black won",
        outcome::Winner::Draw => "the game was drawn",
        outcome::Winner::Unknown => "nothing about the result",
    }
}
