//! Reading a `Termination` tag: which of the tag-based outcome categories it names, and which
//! result it implies, in the phrasings servers and programs write.
//!
//! The PGN standard's values (`abandoned`, `adjudication`, `death`, `emergency`, `normal`,
//! `rules infraction`, `time forfeit`, `unterminated`) name a category only. Servers write whole
//! sentences that also say who won; `docs/termination.md` has the table. The subject of such a
//! sentence is `White`, `Black`, or a player's name as the `White` or `Black` tag gives it.

use crate::outcome::{Outcome, Winner};

/// What a `Termination` tag says.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Termination {
    /// The tag-based category it names: time forfeit, abandoned, adjudication or rules
    /// infraction; `None` for a normal end (mate, resignation, agreement...) or an unknown text.
    pub category: Option<Outcome>,
    /// The result it implies, when it names a winner or a draw.
    pub implies: Option<Winner>,
}

/// Reads `text`, the value of a `Termination` tag; `white` and `black` are the players' names
/// from the `White` and `Black` tags (a sentence may name a player instead of a colour).
pub fn read(text: &str, white: &str, black: &str) -> Termination {
    // The standard's values, as lichess writes them on every game, without the general reading.
    let text = text.trim();
    for (value, category) in [
        ("normal", None),
        ("time forfeit", Some(Outcome::TimeForfeit)),
        ("abandoned", Some(Outcome::Abandoned)),
        ("rules infraction", Some(Outcome::RulesInfraction)),
        ("adjudication", Some(Outcome::Adjudication)),
        ("unterminated", None),
    ] {
        if text.eq_ignore_ascii_case(value) {
            return Termination {
                category,
                implies: None,
            };
        }
    }
    let lower = text.to_lowercase();
    let players = Players { white, black };
    let time = [
        "time forfeit",
        "time-forfeit",
        "on time",
        "timeout",
        "out of time",
        "flag",
    ]
    .iter()
    .any(|p| lower.contains(p));
    let category = if time {
        Some(Outcome::TimeForfeit)
    } else if lower.contains("abandon") || lower.contains("disconnect") {
        Some(Outcome::Abandoned)
    } else if lower.contains("adjudicat") {
        Some(Outcome::Adjudication)
    } else if lower.contains("infraction") {
        Some(Outcome::RulesInfraction)
    } else {
        None
    };
    Termination {
        category,
        implies: implied_result(&lower, &players),
    }
}

/// The two players' names.
struct Players<'a> {
    white: &'a str,
    black: &'a str,
}

impl Players<'_> {
    /// The side `subject` names: `white`, `black`, or a player's name (case aside). `None` when
    /// it names neither, or both (two players of one name).
    fn side(&self, subject: &str) -> Option<Winner> {
        let subject = subject.trim().trim_end_matches(',').trim();
        let is = |name: &str| !name.trim().is_empty() && name.trim().to_lowercase() == subject;
        match (
            subject == "white" || is(self.white),
            subject == "black" || is(self.black),
        ) {
            (true, false) => Some(Winner::White),
            (false, true) => Some(Winner::Black),
            _ => None,
        }
    }
}

/// The other side.
fn other(side: Winner) -> Option<Winner> {
    match side {
        Winner::White => Some(Winner::Black),
        Winner::Black => Some(Winner::White),
        Winner::Draw | Winner::Unknown => None,
    }
}

/// The result a lowercase sentence implies.
fn implied_result(lower: &str, players: &Players<'_>) -> Option<Winner> {
    // A flag fall against a side that cannot mate is a draw (Law 6.9).
    if lower.contains("drawn")
        || lower.starts_with("draw")
        || lower.contains("no material to mate")
        || lower.contains("insufficient material to mate")
    {
        return Some(Winner::Draw);
    }
    // "X won on time", "X won by resignation", "X won - game abandoned".
    if let Some(at) = lower.find(" won") {
        return players.side(&lower[..at]);
    }
    if let Some(at) = lower.find(" wins") {
        return players.side(&lower[..at]);
    }
    // "X ran out of time", "X lost on time", "X forfeits by disconnection", "X resigns",
    // "X abandoned the game": the other side won.
    for verb in [
        " ran out of time",
        " lost",
        " loses",
        " forfeit",
        " resign",
        " abandoned",
        " disconnected",
        " was checkmated",
        " is checkmated",
    ] {
        if let Some(at) = lower.find(verb) {
            return players.side(&lower[..at]).and_then(other);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(text: &str) -> (Option<Outcome>, Option<Winner>) {
        let t = read(text, "Magnus Carlsen", "Hikaru Nakamura");
        (t.category, t.implies)
    }

    #[test]
    fn standard_values_name_a_category_only() {
        assert_eq!(says("time forfeit"), (Some(Outcome::TimeForfeit), None));
        assert_eq!(says("Time forfeit"), (Some(Outcome::TimeForfeit), None));
        assert_eq!(says("abandoned"), (Some(Outcome::Abandoned), None));
        assert_eq!(says("adjudication"), (Some(Outcome::Adjudication), None));
        assert_eq!(
            says("Rules infraction"),
            (Some(Outcome::RulesInfraction), None)
        );
        assert_eq!(says("Normal"), (None, None));
        assert_eq!(says("unterminated"), (None, None));
        assert_eq!(says(""), (None, None));
    }

    #[test]
    fn sentences_name_the_winner_by_colour_or_by_name() {
        use Winner::*;
        let time = Some(Outcome::TimeForfeit);
        assert_eq!(says("Black won on time"), (time, Some(Black)));
        assert_eq!(says("White won on time"), (time, Some(White)));
        assert_eq!(says("Magnus Carlsen won on time"), (time, Some(White)));
        assert_eq!(
            says("Hikaru Nakamura won by resignation"),
            (None, Some(Black))
        );
        assert_eq!(says("magnus carlsen won by checkmate"), (None, Some(White)));
        assert_eq!(
            says("White won - game abandoned"),
            (Some(Outcome::Abandoned), Some(White))
        );
        assert_eq!(says("Someone Else won on time"), (time, None));
    }

    #[test]
    fn losers_imply_the_other_side() {
        use Winner::*;
        assert_eq!(
            says("Black forfeits by disconnection"),
            (Some(Outcome::Abandoned), Some(White))
        );
        assert_eq!(
            says("Magnus Carlsen ran out of time"),
            (Some(Outcome::TimeForfeit), Some(Black))
        );
        assert_eq!(says("White resigns"), (None, Some(Black)));
        assert_eq!(
            says("Hikaru Nakamura lost on time"),
            (Some(Outcome::TimeForfeit), Some(White))
        );
    }

    #[test]
    fn draws_on_time_and_by_rule() {
        use Winner::*;
        let time = Some(Outcome::TimeForfeit);
        assert_eq!(
            says("White ran out of time and Black has no material to mate"),
            (time, Some(Draw))
        );
        assert_eq!(
            says("Game drawn by timeout vs insufficient material"),
            (time, Some(Draw))
        );
        assert_eq!(says("Game drawn by repetition"), (None, Some(Draw)));
        assert_eq!(says("Game drawn by agreement"), (None, Some(Draw)));
    }

    #[test]
    fn players_of_one_name_are_not_told_apart() {
        let t = read("Smith won on time", "Smith", "Smith");
        assert_eq!(t.implies, None);
    }
}
