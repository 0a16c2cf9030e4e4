//! Tag capture: the tags a report keeps (the seven of the roster, the typed columns' sources and
//! the ones asked for with `--tags`) and the tags the replay itself reads (`FEN`, `Variant`,
//! `Result`, `Termination`, `TimeControl`), with where they stand. Buffers are kept from one game
//! to the next: a game's tags are copied into strings that already have room.

use arbiter_pgn::Location;

/// The tags a report keeps, as written (empty when absent).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Tags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`.
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `Result`, or the termination marker when the tag is missing.
    pub result: String,
    /// `WhiteElo`.
    pub white_elo: String,
    /// `BlackElo`.
    pub black_elo: String,
    /// `WhiteTitle`.
    pub white_title: String,
    /// `BlackTitle`.
    pub black_title: String,
    /// `WhiteRatingDiff`.
    pub white_rating_diff: String,
    /// `BlackRatingDiff`.
    pub black_rating_diff: String,
    /// `ECO`.
    pub eco: String,
    /// `Opening`.
    pub opening: String,
    /// `Termination`.
    pub termination: String,
    /// `TimeControl`.
    pub time_control: String,
    /// `UTCDate`.
    pub utc_date: String,
    /// `UTCTime`.
    pub utc_time: String,
    /// Values of the tags asked for (`export --tags`), in order (empty when absent).
    pub extra: Vec<String>,
}

/// What the replay reads from the tags besides what the report keeps.
#[derive(Clone, Debug, Default)]
pub struct TagCapture {
    /// The `FEN` tag.
    pub fen: Option<String>,
    /// Where the `FEN` tag stands.
    pub fen_at: Option<Location>,
    /// The `Variant` tag.
    pub variant: Option<String>,
    /// Where the `Variant` tag stands.
    pub variant_at: Option<Location>,
    /// Whether there is a `Result` tag, and where it stands.
    pub result_at: Option<Location>,
    /// Whether there is a `Termination` tag, and where it stands.
    pub termination_at: Option<Location>,
    /// Whether there is a `TimeControl` tag, and where it stands.
    pub time_control_at: Option<Location>,
}

impl TagCapture {
    /// Forgets the last game's tags; clears `tags`, sized for `extra` asked-for tags.
    pub fn reset(&mut self, tags: &mut Tags, extra: usize) {
        for field in [
            &mut tags.event,
            &mut tags.site,
            &mut tags.date,
            &mut tags.round,
            &mut tags.white,
            &mut tags.black,
            &mut tags.result,
            &mut tags.white_elo,
            &mut tags.black_elo,
            &mut tags.white_title,
            &mut tags.black_title,
            &mut tags.white_rating_diff,
            &mut tags.black_rating_diff,
            &mut tags.eco,
            &mut tags.opening,
            &mut tags.termination,
            &mut tags.time_control,
            &mut tags.utc_date,
            &mut tags.utc_time,
        ] {
            field.clear();
        }
        tags.extra.iter_mut().for_each(String::clear);
        tags.extra.resize(extra, String::new());
        *self = TagCapture::default();
    }

    /// One tag pair: kept in `tags` (and in the slot of each asked-for name it matches) and noted
    /// here when the replay reads it. The last of two tags of one name wins.
    pub fn tag(
        &mut self,
        tags: &mut Tags,
        wanted: &[String],
        name: &str,
        value: &str,
        location: Location,
    ) {
        let field = match name {
            "Event" => Some(&mut tags.event),
            "Site" => Some(&mut tags.site),
            "Date" => Some(&mut tags.date),
            "Round" => Some(&mut tags.round),
            "White" => Some(&mut tags.white),
            "Black" => Some(&mut tags.black),
            "Result" => {
                self.result_at = Some(location);
                Some(&mut tags.result)
            }
            "WhiteElo" => Some(&mut tags.white_elo),
            "BlackElo" => Some(&mut tags.black_elo),
            "WhiteTitle" => Some(&mut tags.white_title),
            "BlackTitle" => Some(&mut tags.black_title),
            "WhiteRatingDiff" => Some(&mut tags.white_rating_diff),
            "BlackRatingDiff" => Some(&mut tags.black_rating_diff),
            "ECO" => Some(&mut tags.eco),
            "Opening" => Some(&mut tags.opening),
            "Termination" => {
                self.termination_at = Some(location);
                Some(&mut tags.termination)
            }
            "TimeControl" => {
                self.time_control_at = Some(location);
                Some(&mut tags.time_control)
            }
            "UTCDate" => Some(&mut tags.utc_date),
            "UTCTime" => Some(&mut tags.utc_time),
            "FEN" => {
                self.fen = Some(value.to_owned());
                self.fen_at = Some(location);
                None
            }
            "Variant" => {
                self.variant = Some(value.to_owned());
                self.variant_at = Some(location);
                None
            }
            _ => None,
        };
        if let Some(field) = field {
            field.clear();
            field.push_str(value);
        }
        for (wanted, slot) in wanted.iter().zip(&mut tags.extra) {
            if wanted == name {
                slot.clear();
                slot.push_str(value);
            }
        }
    }
}

/// How a `Variant` tag is played.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum VariantKind {
    /// Standard chess (also `From Position`).
    Standard,
    /// Chess960 (Fischer Random).
    Chess960,
    /// A game arbiter does not play.
    Other,
}

/// Reads a `Variant` tag: case, spaces and hyphens do not matter.
pub fn variant_kind(variant: &str) -> VariantKind {
    let key: String = variant
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" | "orthodox" => VariantKind::Standard,
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc" => {
            VariantKind::Chess960
        }
        _ => VariantKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_kept_and_the_last_of_a_name_wins() {
        let (mut tags, mut capture) = (Tags::default(), TagCapture::default());
        let wanted = ["ECO".to_string(), "Annotator".to_string()];
        capture.reset(&mut tags, wanted.len());
        for (i, (name, value)) in [
            ("White", "Ann"),
            ("ECO", "B01"),
            ("Annotator", "Kim"),
            ("Result", "1-0"),
            ("White", "Bea"),
            ("TimeControl", "180+2"),
            ("FEN", "8/8/8/8/8/8/8/K6k w - - 0 1"),
        ]
        .into_iter()
        .enumerate()
        {
            capture.tag(&mut tags, &wanted, name, value, Location(i as u32));
        }
        assert_eq!(tags.white, "Bea");
        assert_eq!(
            (tags.eco.as_str(), tags.time_control.as_str()),
            ("B01", "180+2")
        );
        assert_eq!(tags.extra, ["B01", "Kim"]);
        assert_eq!(capture.result_at, Some(Location(3)));
        assert_eq!(capture.time_control_at, Some(Location(5)));
        assert!(capture.fen.is_some() && capture.termination_at.is_none());

        capture.reset(&mut tags, 1);
        assert_eq!(
            tags,
            Tags {
                extra: vec![String::new()],
                ..Tags::default()
            }
        );
        assert!(capture.fen.is_none() && capture.result_at.is_none());
    }

    #[test]
    fn variants_are_read_loosely() {
        assert_eq!(variant_kind("Chess960"), VariantKind::Chess960);
        assert_eq!(variant_kind("Fischer-Random"), VariantKind::Chess960);
        assert_eq!(variant_kind("From Position"), VariantKind::Standard);
        assert_eq!(variant_kind("crazyhouse"), VariantKind::Other);
    }
}
