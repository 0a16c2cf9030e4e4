//! The game's verdict once its moves are replayed: the first automatic end of the main line
//! decides (the first dead ply found by bisection), else its final position with the claims a
//! drawn result may rest on, else the tags; then what the board and the Termination tag say
//! against the Result. The final position is ruled on (can each side still mate?, `dead`): for
//! both sides, or only where the verdict reads the answer ([`RulingsWanted::VerdictOnly`]), and
//! the ruling is kept in the report.

use arbiter_pgn::{GameResult, Location, RawGame, parse_game};
use arbiter_rules::mate::{OnBoard, Ruling, Solver, Tier, Wanted};
use arbiter_rules::{Color, Move, Position};

use crate::outcome::{self, BoardFacts, Outcome, termination};
use crate::problem::{Code, Severity};
use crate::replay::{ReplayOptions, Replayer, RulingsWanted, claims, dead};

/// The codes of the problems the judgment reports (warnings of their own).
const JUDGMENT_CODES: [Code; 3] = [
    Code::MoveAfterEnd,
    Code::ResultContradictsBoard,
    Code::TerminationContradictsResult,
];

impl Replayer {
    /// Whether the game goes unjudged: select turned it down on its tags
    /// ([`ReplayOptions::movetext_if`]), so that it is written nowhere as clean PGN and only
    /// whether it is invalid is counted, and no problem of the judgment can be an error under
    /// the run's severities. Its verdict, rulings and final FEN are then left out
    /// ([`GameReport::classification`](crate::replay::GameReport::classification) is `None`):
    /// a fifth of select's instructions on games its tags turn down.
    pub(super) fn unjudged(&self) -> bool {
        let severities = &self.options.severities;
        self.report.tags_passed == Some(false)
            && JUDGMENT_CODES
                .iter()
                .all(|&code| severities.of(code) != Some(Severity::Error))
    }

    /// Classifies the game and reports what the tags say against the board: the first automatic
    /// end of the main line decides, else its final position, else the tags.
    /// `game` holds the game's bytes, for the rare verdict that replays the main line again.
    pub(super) fn judge(&mut self, declared: GameResult, game: &[u8]) {
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
        let budget = self.options.rulings_budget;
        // What follows reads the ruling only through `dead()` (and `tier()` when dead), the flag
        // fall's winner's proof, and, when the main line did not end before its last move, not
        // at all: the verdict-only ruling gives all of these as the both-sides one does.
        let ruling = match self.options.rulings {
            RulingsWanted::BothSides => self.solver.rule(&line.pos, budget),
            RulingsWanted::VerdictOnly if ended.is_some() => Ruling::unruled(),
            RulingsWanted::VerdictOnly => {
                let flag_winner = outcome::flag_fall_winner(termination.as_ref(), declared);
                let wanted = Wanted::Verdict { flag_winner };
                self.solver.rule_for(&line.pos, budget, wanted)
            }
        };
        self.report.can_mate = ruling.can_mate;
        // Dead beyond the board and material (stalemate is an end of its own, and so is a dead
        // position by material, found where it arose): bisected for the first dead ply.
        let dead_at_end = ended.is_none() && ruling.dead() && ruling.tier() > Tier::Material;
        if dead_at_end {
            let replayed;
            let played = match &self.stack.main_moves {
                Some(moves) => moves.as_slice(),
                None => {
                    replayed = main_line_moves(game);
                    replayed.as_slice()
                }
            };
            let moves: Vec<Option<Move>> = played.iter().map(|&(mv, _)| mv).collect();
            let first = dead::first_dead_ply(&mut self.solver, &self.stack.start, &moves, budget);
            // (`played` holds the `line.ply` moves of the main line.)
            if first < line.ply
                && let Some(&(_, at)) = played.get(first as usize)
            {
                ended = Some((first, Outcome::DeadPosition));
                let message = format!(
                    "the game already ended at ply {first} in a dead position (neither side can \
                     mate by any series of legal moves); later moves do not count"
                );
                self.problem(at, Some(first + 1), None, Code::MoveAfterEnd, message);
            }
        }
        if ruling.nodes > KEEP_SOLVER_NODES || dead_at_end {
            // A long search leaves buffers of up to some hundred megabytes: let them go, so that
            // memory stays flat after a hard position.
            self.solver = Solver::new();
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
                if self.stack.stopped_at_end {
                    // A checkmate or stalemate that a null move followed.
                    self.report.end_ply = Some(line.ply);
                }
                let facts = self.final_facts(&line.pos, declared, &ruling);
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

    /// What the final position `pos` of the main line tells, with the `ruling` on it. The claims
    /// are looked at only for a drawn result, where they count.
    pub(super) fn final_facts(
        &self,
        pos: &Position,
        declared: GameResult,
        ruling: &Ruling,
    ) -> BoardFacts {
        // (The ruling looked when it ruled a side.)
        let OnBoard { stuck, check } = ruling.on_board.unwrap_or_else(|| OnBoard::of(pos));
        let repetitions = self.stack.repetitions();
        let drawn = declared == GameResult::Draw;
        BoardFacts {
            checkmate: stuck && check,
            stalemate: stuck && !check,
            insufficient_material: pos.is_insufficient_material(),
            dead_position: ruling.dead(),
            halfmove_clock: pos.halfmoves(),
            repetitions,
            fifty_claimable: drawn && !stuck && claims::fifty(pos),
            threefold_claimable: drawn && !stuck && claims::threefold(pos, &self.stack.history),
            white_to_move: pos.turn() == Color::White,
            white_cannot_mate: ruling.cannot_mate_proof(Color::White),
            black_cannot_mate: ruling.cannot_mate_proof(Color::Black),
        }
    }
}

/// The most positions a game's ruling may search for the replayer to keep its solver (and the
/// buffers it grew, a few megabytes at most) for the next game.
const KEEP_SOLVER_NODES: u64 = 2_000;

/// `White won`, `Black won`, `the game was drawn`.
pub(super) fn winner_words(winner: outcome::Winner) -> &'static str {
    match winner {
        outcome::Winner::White => "White won",
        outcome::Winner::Black => "Black won",
        outcome::Winner::Draw => "the game was drawn",
        outcome::Winner::Unknown => "nothing about the result",
    }
}

/// The main line's moves of the game made of `game`, each with where it is written: the game
/// replayed again by a replayer that keeps them. Keeping every move of every game, for the few
/// whose final position is dead beyond material, cost the replay about 1% of its time.
fn main_line_moves(game: &[u8]) -> Vec<(Option<Move>, Location)> {
    // (Its own verdict is not wanted: no search for it.)
    let mut again = Replayer::new(ReplayOptions {
        rulings_budget: 0,
        ..ReplayOptions::default()
    });
    again.stack.main_moves = Some(Vec::new());
    parse_game(&RawGame::new(0, game.to_vec()), &mut again);
    again.stack.main_moves.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use arbiter_rules::san::San;

    use super::*;

    #[test]
    fn the_main_line_is_replayed_again_past_comments_variations_and_odd_forms() {
        let game =
            b"[Event \"x\"]\n\n1. e4 {a} e5 (1... c5 2. Nf3 (2. c3)) 2. Ng1f3 $1 Nc6\n3. Bb5 \
                     a6 ; line\n4. Bxc6 dxc6 5. O-O 1-0\n";
        let written = [
            "e4", "e5", "Ng1f3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O",
        ];
        let moves = main_line_moves(game);
        assert_eq!(moves.len(), written.len());
        let mut pos = Position::startpos();
        for (&(mv, at), text) in moves.iter().zip(written) {
            assert!(game[at.offset()..].starts_with(text.as_bytes()), "{text}");
            let san: San = text.parse().expect("a move");
            let resolved = san.resolve(&pos).map(|resolved| resolved.mv);
            assert_eq!(resolved.ok(), mv);
            pos.play_unchecked(resolved.expect("legal"));
        }
    }

    #[test]
    fn the_main_line_replayed_again_starts_from_the_fen_tag_and_stops_at_an_illegal_move() {
        let game = b"[FEN \"8/6p1/4k3/p1p1p3/P1P1P1P1/8/3K4/8 b - - 0 1\"]\n\n1... Kd7 2. Kc2 \
                     g5 3. Qd2 Ke6 *\n";
        let moves = main_line_moves(game);
        assert_eq!(moves.len(), 3);
        let first = dead::first_dead_ply(
            &mut Solver::new(),
            &Position::from_fen("8/6p1/4k3/p1p1p3/P1P1P1P1/8/3K4/8 b - - 0 1").expect("a FEN"),
            &moves.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(),
            0,
        );
        assert_eq!(first, 3);
    }
}
