//! Reading a `Termination` tag: which of the tag-based outcome categories it names, and which
//! result it implies, in the phrasings servers and programs write.
//!
//! The PGN standard's values (`abandoned`, `adjudication`, `death`, `emergency`, `normal`,
//! `rules infraction`, `time forfeit`, `unterminated`) name a category only. Servers write whole
//! sentences that also say who won; `docs/termination.md` has the table. The subject of such a
//! sentence is `White`, `Black`, or a player's name as the `White` or `Black` tag gives it: it is
//! matched first, and the keywords are read only in the phrase after it, with the names blanked
//! out (a name may hold any keyword: "Anna Flagg", "Jon Timerman").

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
    let players = Players::new(white, black);
    // The subject first (a player's name may hold any keyword: "Anna Flagg", "Jon Timerman",
    // "Drawnik"), then the phrase after it, with the players' names blanked out.
    let (subject, phrase) = players.subject(&lower);
    let phrase = players.blank_names(phrase);
    let time = [
        "time forfeit",
        "time-forfeit",
        "on time",
        "timeout",
        "out of time",
        "flag",
    ]
    .iter()
    .any(|p| phrase.contains(p));
    let category = if time {
        Some(Outcome::TimeForfeit)
    } else if phrase.contains("abandon") || phrase.contains("disconnect") {
        Some(Outcome::Abandoned)
    } else if phrase.contains("adjudicat") {
        Some(Outcome::Adjudication)
    } else if phrase.contains("infraction") {
        Some(Outcome::RulesInfraction)
    } else {
        None
    };
    Termination {
        category,
        implies: implied_result(subject, &phrase),
    }
}

/// The two players' names, lowercase and trimmed.
struct Players {
    white: String,
    black: String,
}

/// Whether `at` in `text` is a word's edge: the text's end or a byte that is no letter or digit.
fn word_edge(text: &str, at: usize) -> bool {
    text[at..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

impl Players {
    fn new(white: &str, black: &str) -> Players {
        Players {
            white: white.trim().to_lowercase(),
            black: black.trim().to_lowercase(),
        }
    }

    /// The subject a lowercase sentence starts with, and the phrase after it: `white`, `black`
    /// or a player's name (the longest that fits, ending at a word's edge). The subject is
    /// `Some(None)` when it names both sides (two players of one name), and `None`, with the
    /// whole sentence as the phrase, when the sentence starts with neither.
    fn subject<'t>(&self, lower: &'t str) -> (Option<Option<Winner>>, &'t str) {
        let mut best: Option<(usize, Option<Winner>)> = None;
        for (name, side) in [
            ("white", Winner::White),
            ("black", Winner::Black),
            (self.white.as_str(), Winner::White),
            (self.black.as_str(), Winner::Black),
        ] {
            if name.is_empty() || !lower.starts_with(name) || !word_edge(lower, name.len()) {
                continue;
            }
            best = match best {
                Some((len, _)) if len > name.len() => best,
                Some((len, Some(found))) if len == name.len() && found != side => Some((len, None)),
                Some((len, None)) if len == name.len() => best,
                _ => Some((name.len(), Some(side))),
            };
        }
        match best {
            Some((len, side)) => (Some(side), &lower[len..]),
            None => (None, lower),
        }
    }

    /// `phrase` with each whole-word occurrence of a player's name blanked out, so that no
    /// keyword is read inside a name ("... against Anna Flagg").
    fn blank_names(&self, phrase: &str) -> String {
        let mut out = phrase.to_owned();
        for name in [&self.white, &self.black] {
            if name.is_empty() {
                continue;
            }
            let mut from = 0;
            while let Some(found) = out[from..].find(name.as_str()) {
                let at = from + found;
                let end = at + name.len();
                let starts_word = at == 0
                    || out[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| !c.is_alphanumeric());
                if starts_word && word_edge(&out, end) {
                    out.replace_range(at..end, " ");
                    from = at + 1;
                } else {
                    from = end;
                }
            }
        }
        out
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

/// The result a lowercase phrase implies, after its `subject` (see [`Players::subject`]).
fn implied_result(subject: Option<Option<Winner>>, phrase: &str) -> Option<Winner> {
    // A flag fall against a side that cannot mate is a draw (Law 6.9).
    let phrase = phrase.trim_start();
    if phrase.contains("drawn")
        || subject.is_none() && phrase.starts_with("draw")
        || phrase.contains("no material to mate")
        || phrase.contains("insufficient material to mate")
    {
        return Some(Winner::Draw);
    }
    let side = subject??;
    let words = format!(" {}", phrase.trim_start_matches(',').trim_start());
    // "X won on time", "X won by resignation", "X won - game abandoned".
    if words.starts_with(" won") || words.starts_with(" wins") {
        return Some(side);
    }
    // "X ran out of time", "X lost on time", "X forfeits by disconnection", "X resigns",
    // "X abandoned the game": the other side won.
    [
        " ran out of time",
        " lost",
        " loses",
        " forfeit",
        " resign",
        " abandoned",
        " disconnected",
        " was checkmated",
        " is checkmated",
    ]
    .iter()
    .any(|verb| words.starts_with(verb))
    .then(|| other(side))
    .flatten()
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

    /// A player's name may hold any keyword: the sentence reads the same with the names as
    /// with the colours, for every phrasing, every name and either side.
    #[test]
    fn keywords_inside_player_names_are_not_read() {
        let names = [
            "Anna Flagg",
            "Jon Timerman",
            "Drawnik",
            "Timeout Tim",
            "Abandonato",
            "Ines Disconnecta",
            "Adjudicator Al",
            "Lost Boy",
            "Resigno",
            "Infraction Joe",
            "Draw Dee",
            "Black Flag",
            "Whitewon",
            "Wonder Woman",
            "Ole Forfeith",
        ];
        let phrasings = [
            "X won by resignation",
            "X won on time",
            "X wins by checkmate",
            "X resigns",
            "X ran out of time",
            "X lost on time",
            "X forfeits by disconnection",
            "X won - game abandoned",
            "X was checkmated",
            "X won by adjudication",
            "X won by resignation against Y",
            "X ran out of time and Y has no material to mate",
            "Game drawn by agreement",
            "Normal end",
        ];
        let mut checked = 0;
        for white in names {
            for black in names {
                if white == black {
                    continue;
                }
                for phrasing in phrasings {
                    for (x, y, colour_x, colour_y) in [
                        (white, black, "White", "Black"),
                        (black, white, "Black", "White"),
                    ] {
                        let by_name = phrasing.replace('X', x).replace('Y', y);
                        let by_colour = phrasing.replace('X', colour_x).replace('Y', colour_y);
                        assert_eq!(
                            read(&by_name, white, black),
                            read(&by_colour, "Wanda", "Bert"),
                            "{by_name:?} (White {white:?}, Black {black:?})"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 15 * 14 * 14 * 2);
        // The hunt's cases.
        let t = read("Anna Flagg won by resignation", "Anna Flagg", "Bo");
        assert_eq!((t.category, t.implies), (None, Some(Winner::White)));
        let t = read("Jon Timerman won by resignation", "Bo", "Jon Timerman");
        assert_eq!((t.category, t.implies), (None, Some(Winner::Black)));
        let t = read("Drawnik won by resignation", "Drawnik", "Bo");
        assert_eq!(t.implies, Some(Winner::White));
    }

    #[test]
    fn players_of_one_name_are_not_told_apart() {
        let t = read("Smith won on time", "Smith", "Smith");
        assert_eq!(t.implies, None);
    }
}
