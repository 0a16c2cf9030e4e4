//! How a game ended: the outcome categories, the winner, and whether the declared Result agrees
//! with the board (`docs/outcomes.md` states the rules).
//!
//! The first automatic end the main line reaches decides (checkmate, stalemate, insufficient
//! material, the 75-move rule, fivefold repetition), whatever moves follow it (Laws 5.2.2 and
//! 9.6): `classify_ended`. Otherwise the final position is judged, first match wins: the
//! automatic ends, then the two draws a player may claim (50-move rule, threefold repetition, also
//! when the claim is made with the move that would complete them), which count only when the
//! Result is a draw. Otherwise the tags decide: the `Termination` tag (time forfeit, abandoned,
//! adjudication, rules infraction; see `termination`), then the Result (resignation, agreement,
//! unterminated).
//!
//! This module knows nothing about boards: `BoardFacts` carries what `replay` learned from the
//! final position, so every rule here can be tested on its own.

pub(crate) mod termination;

use arbiter_pgn::GameResult;
use arbiter_rules::Color;
use serde::Serialize;

/// The winner a declared result names.
pub(crate) fn declared_winner(result: GameResult) -> Winner {
    match result {
        GameResult::WhiteWins => Winner::White,
        GameResult::BlackWins => Winner::Black,
        GameResult::Draw => Winner::Draw,
        GameResult::Unknown => Winner::Unknown,
    }
}

/// Who won: the export's `winner` field.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
    /// Not known (`*` or no Result); written as an empty field.
    #[serde(rename = "")]
    Unknown,
}

impl Winner {
    /// The field text: `white`, `black`, `draw`, or empty.
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::White => "white",
            Winner::Black => "black",
            Winner::Draw => "draw",
            Winner::Unknown => "",
        }
    }
}

/// The export's `outcome` field, in the order of precedence of docs/outcomes.md.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate by any series of legal moves (a dead position by material).
    InsufficientMaterial,
    /// Neither side can mate by any series of legal moves, for reasons beyond material (a
    /// locked pawn wall...): a dead position (Law 5.2.2).
    DeadPosition,
    /// 150 half-moves without a capture or pawn move: an automatic draw.
    SeventyfiveMoves,
    /// The final position occurred five times: an automatic draw.
    FivefoldRepetition,
    /// 100 half-moves without a capture or pawn move, and the draw was claimed.
    FiftyMoves,
    /// The final position occurred three times, and the draw was claimed.
    ThreefoldRepetition,
    /// The Termination tag says a player lost (or drew) on time.
    TimeForfeit,
    /// The Termination tag says the game was abandoned.
    Abandoned,
    /// The Termination tag says the result was adjudicated.
    Adjudication,
    /// The Termination tag says a player broke the rules.
    RulesInfraction,
    /// A decisive result with no rule-based end on the board.
    Resignation,
    /// A drawn result with no rule-based end on the board.
    Agreement,
    /// `*` or no Result.
    Unterminated,
    /// The main line could not be replayed.
    Invalid,
}

impl Outcome {
    /// Every outcome, in the order of precedence (the declaration's).
    pub const ALL: [Outcome; 16] = [
        Outcome::Checkmate,
        Outcome::Stalemate,
        Outcome::InsufficientMaterial,
        Outcome::DeadPosition,
        Outcome::SeventyfiveMoves,
        Outcome::FivefoldRepetition,
        Outcome::FiftyMoves,
        Outcome::ThreefoldRepetition,
        Outcome::TimeForfeit,
        Outcome::Abandoned,
        Outcome::Adjudication,
        Outcome::RulesInfraction,
        Outcome::Resignation,
        Outcome::Agreement,
        Outcome::Unterminated,
        Outcome::Invalid,
    ];

    /// The field text, e.g. `seventyfive_moves`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Checkmate => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::InsufficientMaterial => "insufficient_material",
            Outcome::DeadPosition => "dead_position",
            Outcome::SeventyfiveMoves => "seventyfive_moves",
            Outcome::FivefoldRepetition => "fivefold_repetition",
            Outcome::FiftyMoves => "fifty_moves",
            Outcome::ThreefoldRepetition => "threefold_repetition",
            Outcome::TimeForfeit => "time_forfeit",
            Outcome::Abandoned => "abandoned",
            Outcome::Adjudication => "adjudication",
            Outcome::RulesInfraction => "rules_infraction",
            Outcome::Resignation => "resignation",
            Outcome::Agreement => "agreement",
            Outcome::Unterminated => "unterminated",
            Outcome::Invalid => "invalid",
        }
    }
}

/// What the final position of the main line tells, gathered by `replay`.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub(crate) struct BoardFacts {
    /// The side to move is checkmated.
    pub checkmate: bool,
    /// The side to move is stalemated.
    pub stalemate: bool,
    /// Neither side has mating material (a dead position by material).
    pub insufficient_material: bool,
    /// Neither side can mate, proved beyond material (a dead position).
    pub dead_position: bool,
    /// The halfmove clock of the final position.
    pub halfmove_clock: u32,
    /// How many times the final position occurred (1 when it is new).
    pub repetitions: u32,
    /// A draw by the 50-move rule may be claimed: 100 half-moves without a capture or pawn move,
    /// or one legal move completes them (Law 9.3).
    pub fifty_claimable: bool,
    /// A draw by threefold repetition may be claimed: the position occurred three times, or one
    /// legal move makes some position occur the third time (Law 9.2).
    pub threefold_claimable: bool,
    /// White is to move in the final position.
    pub white_to_move: bool,
    /// White could not mate by any series of legal moves: the proof, in words (`too little
    /// material`...), else `None` (White can, or it was not decided).
    pub white_cannot_mate: Option<&'static str>,
    /// The same for Black.
    pub black_cannot_mate: Option<&'static str>,
}

/// The halfmove clock at which the 75-move rule ends the game (Law 9.6.2): 75 moves of each side
/// without a capture or a pawn move.
pub(crate) const SEVENTY_FIVE_MOVES: u32 = 150;

/// How many times a position must occur for fivefold repetition to end the game (Law 9.6.1).
pub(crate) const FIVEFOLD: u32 = 5;

/// The automatic end the board shows, if any, in the order of precedence: checkmate, stalemate,
/// insufficient material, a dead position, the 75-move rule, fivefold repetition. The one ladder
/// of the automatic ends: the replay's main line, a game's final position and a position's
/// [`Status`](crate::position::Status) are all judged by it.
pub(crate) fn automatic_end(board: &BoardFacts) -> Option<Outcome> {
    if board.checkmate {
        Some(Outcome::Checkmate)
    } else if board.stalemate {
        Some(Outcome::Stalemate)
    } else if board.insufficient_material {
        Some(Outcome::InsufficientMaterial)
    } else if board.dead_position {
        Some(Outcome::DeadPosition)
    } else if board.halfmove_clock >= SEVENTY_FIVE_MOVES {
        Some(Outcome::SeventyfiveMoves)
    } else if board.repetitions >= FIVEFOLD {
        Some(Outcome::FivefoldRepetition)
    } else {
        None
    }
}

/// The classification of one game: the export's `outcome`, `winner` and `result_consistent`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Classification {
    /// The category.
    pub outcome: Outcome,
    /// Who won.
    pub winner: Winner,
    /// False when the declared Result contradicts the board.
    pub result_consistent: bool,
    /// A flag fall the declared winner cannot win (Law 6.9): the proof that it cannot mate, in
    /// words. The game is then drawn.
    pub unwinnable_flag_fall: Option<&'static str>,
}

/// Classifies a game whose main line was replayed to its end, judged on its final position.
pub(crate) fn classify(
    board: &BoardFacts,
    result: GameResult,
    termination: Option<&termination::Termination>,
) -> Classification {
    if let Some(outcome) = automatic_end(board) {
        let winner = if outcome == Outcome::Checkmate {
            if board.white_to_move {
                Winner::Black
            } else {
                Winner::White
            }
        } else {
            Winner::Draw
        };
        let result_consistent = match result {
            GameResult::Unknown => true,
            declared => declared_winner(declared) == winner,
        };
        return Classification {
            outcome,
            winner,
            result_consistent,
            unwinnable_flag_fall: None,
        };
    }

    if result == GameResult::Draw {
        if board.fifty_claimable {
            return drawn(Outcome::FiftyMoves);
        }
        if board.threefold_claimable {
            return drawn(Outcome::ThreefoldRepetition);
        }
    }

    let outcome = match termination.and_then(|t| t.category) {
        Some(category) => category,
        None => match result {
            GameResult::WhiteWins | GameResult::BlackWins => Outcome::Resignation,
            GameResult::Draw => Outcome::Agreement,
            GameResult::Unknown => Outcome::Unterminated,
        },
    };
    let winner = declared_winner(result);
    // Law 6.9: a flag fall against a side that cannot mate is a draw. (A resignation stands,
    // 5.1.2, whatever material the winner has.)
    let unwinnable = match flag_fall_winner(termination, result) {
        Some(Color::White) => board.white_cannot_mate,
        Some(Color::Black) => board.black_cannot_mate,
        None => None,
    };
    Classification {
        outcome,
        winner: if unwinnable.is_some() {
            Winner::Draw
        } else {
            winner
        },
        result_consistent: unwinnable.is_none(),
        unwinnable_flag_fall: unwinnable,
    }
}

/// The side that won on time, when the `Termination` tag says a flag fell (the time forfeit
/// category) and the Result names a winner: the side whose proof that it cannot mate would
/// draw the game (Law 6.9).
pub(crate) fn flag_fall_winner(
    termination: Option<&termination::Termination>,
    result: GameResult,
) -> Option<Color> {
    if termination.and_then(|t| t.category) != Some(Outcome::TimeForfeit) {
        return None;
    }
    match declared_winner(result) {
        Winner::White => Some(Color::White),
        Winner::Black => Some(Color::Black),
        Winner::Draw | Winner::Unknown => None,
    }
}

/// Classifies a game that ended automatically by `outcome` (a draw: insufficient material, a
/// dead position, the 75-move rule or fivefold repetition) before its last move: that end
/// decides.
pub(crate) fn classify_ended(outcome: Outcome, result: GameResult) -> Classification {
    Classification {
        outcome,
        winner: Winner::Draw,
        result_consistent: matches!(result, GameResult::Draw | GameResult::Unknown),
        unwinnable_flag_fall: None,
    }
}

/// The classification of a game whose main line could not be replayed: the Result tag stands.
pub(crate) fn classify_invalid(result: GameResult) -> Classification {
    Classification {
        outcome: Outcome::Invalid,
        winner: declared_winner(result),
        result_consistent: true,
        unwinnable_flag_fall: None,
    }
}

/// What the board says against the declared `result`, in words, when the classification finds
/// them inconsistent: "the final position is checkmate: Black won, the Result says 1-0". `ended`
/// is the ply of an automatic end that moves followed.
pub(crate) fn contradiction(
    c: &Classification,
    result: GameResult,
    ended: Option<u32>,
) -> Option<String> {
    if c.result_consistent {
        return None;
    }
    let says = result.as_str();
    let when = match ended {
        Some(ply) => format!("the game ended at ply {ply} by"),
        None => "the final position is a draw by".to_owned(),
    };
    Some(match c.outcome {
        Outcome::Checkmate => {
            let winner = match c.winner {
                Winner::White => "White",
                _ => "Black",
            };
            format!("the final position is checkmate: {winner} won, the Result says {says}")
        }
        Outcome::Stalemate => {
            format!("the final position is stalemate, a draw; the Result says {says}")
        }
        Outcome::InsufficientMaterial => {
            format!("{when} insufficient material (no mate is possible); the Result says {says}")
        }
        Outcome::DeadPosition => format!(
            "{} a dead position (neither side can mate by any series of legal moves); the \
             Result says {says}",
            match ended {
                Some(ply) => format!("the game ended at ply {ply} in"),
                None => "the final position is".to_owned(),
            }
        ),
        Outcome::SeventyfiveMoves => format!("{when} the 75-move rule; the Result says {says}"),
        Outcome::FivefoldRepetition => {
            format!("{when} fivefold repetition; the Result says {says}")
        }
        _ => {
            let winner = match declared_winner(result) {
                Winner::White => "White",
                _ => "Black",
            };
            let proof = c.unwinnable_flag_fall.unwrap_or("proved");
            format!(
                "{winner} won on time but cannot mate by any series of legal moves ({proof}), so \
                 the game is drawn (Law 6.9); the Result says {says}"
            )
        }
    })
}

fn drawn(outcome: Outcome) -> Classification {
    Classification {
        outcome,
        winner: Winner::Draw,
        result_consistent: true,
        unwinnable_flag_fall: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` lists each outcome once, in the declaration's order (which the match below, with no
    /// wildcard, keeps complete: a new outcome fails to compile until it has its place).
    #[test]
    fn all_lists_every_outcome_once_in_order() {
        let place = |outcome: Outcome| match outcome {
            Outcome::Checkmate => 0,
            Outcome::Stalemate => 1,
            Outcome::InsufficientMaterial => 2,
            Outcome::DeadPosition => 3,
            Outcome::SeventyfiveMoves => 4,
            Outcome::FivefoldRepetition => 5,
            Outcome::FiftyMoves => 6,
            Outcome::ThreefoldRepetition => 7,
            Outcome::TimeForfeit => 8,
            Outcome::Abandoned => 9,
            Outcome::Adjudication => 10,
            Outcome::RulesInfraction => 11,
            Outcome::Resignation => 12,
            Outcome::Agreement => 13,
            Outcome::Unterminated => 14,
            Outcome::Invalid => 15,
        };
        for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(place(outcome), i, "{outcome:?}");
            assert_eq!(outcome as usize, i, "{outcome:?}");
        }
    }

    /// A `Termination` tag's reading.
    fn t(text: &str) -> Option<termination::Termination> {
        Some(termination::read(text, "", ""))
    }

    fn board() -> BoardFacts {
        BoardFacts {
            repetitions: 1,
            white_to_move: true,
            ..BoardFacts::default()
        }
    }

    #[test]
    fn checkmate_winner_follows_the_board() {
        let mated = BoardFacts {
            checkmate: true,
            ..board()
        };
        let c = classify(&mated, GameResult::BlackWins, None);
        assert_eq!(
            (c.outcome, c.winner, c.result_consistent),
            (Outcome::Checkmate, Winner::Black, true)
        );
        let c = classify(&mated, GameResult::WhiteWins, None);
        assert_eq!((c.winner, c.result_consistent), (Winner::Black, false));
        let c = classify(&mated, GameResult::Draw, None);
        assert!(!c.result_consistent);
        // Puzzles and studies are tagged `*`: no contradiction.
        assert!(classify(&mated, GameResult::Unknown, None).result_consistent);
    }

    #[test]
    fn automatic_draws_come_before_claims_and_tags() {
        let cases = [
            (
                BoardFacts {
                    stalemate: true,
                    ..board()
                },
                Outcome::Stalemate,
            ),
            (
                BoardFacts {
                    insufficient_material: true,
                    halfmove_clock: 150,
                    ..board()
                },
                Outcome::InsufficientMaterial,
            ),
            (
                BoardFacts {
                    halfmove_clock: 150,
                    repetitions: 5,
                    ..board()
                },
                Outcome::SeventyfiveMoves,
            ),
            (
                BoardFacts {
                    halfmove_clock: 149,
                    repetitions: 5,
                    ..board()
                },
                Outcome::FivefoldRepetition,
            ),
        ];
        for (facts, expected) in cases {
            let c = classify(&facts, GameResult::Draw, t("time forfeit").as_ref());
            assert_eq!((c.outcome, c.winner), (expected, Winner::Draw));
            assert!(c.result_consistent);
            let c = classify(&facts, GameResult::WhiteWins, None);
            assert_eq!(c.outcome, expected);
            assert!(!c.result_consistent, "{expected:?} with 1-0");
        }
    }

    #[test]
    fn claims_count_only_with_a_drawn_result() {
        let fifty = BoardFacts {
            halfmove_clock: 99,
            fifty_claimable: true,
            ..board()
        };
        assert_eq!(
            classify(&fifty, GameResult::Draw, None).outcome,
            Outcome::FiftyMoves
        );
        assert_eq!(
            classify(&fifty, GameResult::WhiteWins, None).outcome,
            Outcome::Resignation
        );
        assert_eq!(
            classify(&fifty, GameResult::Unknown, None).outcome,
            Outcome::Unterminated
        );
        let ninety_nine = BoardFacts {
            halfmove_clock: 99,
            fifty_claimable: false,
            ..board()
        };
        assert_eq!(
            classify(&ninety_nine, GameResult::Draw, None).outcome,
            Outcome::Agreement
        );
        let three = BoardFacts {
            repetitions: 2,
            threefold_claimable: true,
            ..board()
        };
        assert_eq!(
            classify(&three, GameResult::Draw, None).outcome,
            Outcome::ThreefoldRepetition
        );
        assert_eq!(
            classify(&three, GameResult::BlackWins, t("Time forfeit").as_ref()).outcome,
            Outcome::TimeForfeit
        );
        let two = BoardFacts {
            repetitions: 2,
            ..board()
        };
        assert_eq!(
            classify(&two, GameResult::Draw, None).outcome,
            Outcome::Agreement
        );
    }

    #[test]
    fn tags_decide_when_the_board_does_not() {
        let b = board();
        let expect = [
            (
                GameResult::WhiteWins,
                None,
                Outcome::Resignation,
                Winner::White,
            ),
            (
                GameResult::BlackWins,
                None,
                Outcome::Resignation,
                Winner::Black,
            ),
            (GameResult::Draw, None, Outcome::Agreement, Winner::Draw),
            (
                GameResult::Unknown,
                None,
                Outcome::Unterminated,
                Winner::Unknown,
            ),
            (
                GameResult::Unknown,
                t("abandoned"),
                Outcome::Abandoned,
                Winner::Unknown,
            ),
            (
                GameResult::WhiteWins,
                t("adjudication"),
                Outcome::Adjudication,
                Winner::White,
            ),
            (
                GameResult::BlackWins,
                t("rules infraction"),
                Outcome::RulesInfraction,
                Winner::Black,
            ),
        ];
        for (result, termination, outcome, winner) in expect {
            let c = classify(&b, result, termination.as_ref());
            assert_eq!((c.outcome, c.winner), (outcome, winner), "{result:?}");
            assert!(c.result_consistent);
        }
    }

    #[test]
    fn a_win_without_mating_material_is_inconsistent() {
        let bare_white = BoardFacts {
            white_cannot_mate: Some("too little material"),
            ..board()
        };
        let c = classify(
            &bare_white,
            GameResult::WhiteWins,
            t("time forfeit").as_ref(),
        );
        // Drawn by Law 6.9: the outcome stays the flag fall, the winner is the draw.
        assert_eq!(
            (c.outcome, c.winner, c.result_consistent),
            (Outcome::TimeForfeit, Winner::Draw, false)
        );
        let said = contradiction(&c, GameResult::WhiteWins, None).unwrap_or_default();
        assert_eq!(
            said,
            "White won on time but cannot mate by any series of legal moves (too little \
             material), so the game is drawn (Law 6.9); the Result says 1-0"
        );
        // A resignation stands (Law 5.1.2), whatever material the winner has.
        assert!(classify(&bare_white, GameResult::WhiteWins, None).result_consistent);
        // Black may still win on time against a bare king.
        assert!(
            classify(
                &bare_white,
                GameResult::BlackWins,
                t("time forfeit").as_ref()
            )
            .result_consistent
        );
        // Adjudication is not covered by Laws 6.9 and 5.1.2.
        assert!(
            classify(
                &bare_white,
                GameResult::WhiteWins,
                t("adjudication").as_ref()
            )
            .result_consistent
        );
    }

    #[test]
    fn an_automatic_end_with_moves_after_it_decides() {
        for outcome in [
            Outcome::InsufficientMaterial,
            Outcome::SeventyfiveMoves,
            Outcome::FivefoldRepetition,
        ] {
            let c = classify_ended(outcome, GameResult::WhiteWins);
            assert_eq!((c.outcome, c.winner), (outcome, Winner::Draw));
            assert!(!c.result_consistent);
            let said = contradiction(&c, GameResult::WhiteWins, Some(57)).unwrap_or_default();
            assert!(said.starts_with("the game ended at ply 57 by"), "{said}");
            assert!(said.ends_with("the Result says 1-0"), "{said}");
            assert!(classify_ended(outcome, GameResult::Draw).result_consistent);
            assert!(classify_ended(outcome, GameResult::Unknown).result_consistent);
        }
    }

    #[test]
    fn contradictions_say_what_the_board_says() {
        let mated = BoardFacts {
            checkmate: true,
            ..board()
        };
        let c = classify(&mated, GameResult::WhiteWins, None);
        assert_eq!(
            contradiction(&c, GameResult::WhiteWins, None).as_deref(),
            Some("the final position is checkmate: Black won, the Result says 1-0")
        );
        let ok = classify(&mated, GameResult::BlackWins, None);
        assert_eq!(contradiction(&ok, GameResult::BlackWins, None), None);
        let stalemate = BoardFacts {
            stalemate: true,
            ..board()
        };
        let c = classify(&stalemate, GameResult::BlackWins, None);
        assert_eq!(
            contradiction(&c, GameResult::BlackWins, None).as_deref(),
            Some("the final position is stalemate, a draw; the Result says 0-1")
        );
    }

    #[test]
    fn result_tag_values() {
        assert_eq!(GameResult::from_tag("1-0"), GameResult::WhiteWins);
        assert_eq!(GameResult::from_tag(" 0-1 "), GameResult::BlackWins);
        assert_eq!(GameResult::from_tag("1/2-1/2"), GameResult::Draw);
        assert_eq!(GameResult::from_tag("*"), GameResult::Unknown);
        assert_eq!(GameResult::from_tag("½-½"), GameResult::Unknown);
    }
}
