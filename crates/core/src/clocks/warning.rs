//! The warnings of [`super::evidence`]: what a game's clocks contradict, at which ply, in plain
//! words with the clocks as `H:MM:SS`.

use std::fmt;

use arbiter_rules::Color;

use crate::clocks::commands::Millis;

/// A contradiction between a game's clocks and its tags, naming the ply it is seen at.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ClockWarning {
    /// A side's clock rose more than the time control allows since its previous reading.
    Rise {
        /// The ply of the higher reading.
        ply: u32,
        /// Whose clock.
        side: Color,
        /// The ply of the previous reading.
        previous_ply: u32,
        /// The previous reading.
        before: Millis,
        /// This reading.
        after: Millis,
        /// The most the clock could have risen, tolerance included.
        allowed: u64,
    },
    /// A clock above all the time the time control has given the side by this move.
    AboveTimeGiven {
        /// The ply of the reading.
        ply: u32,
        /// Whose clock.
        side: Color,
        /// The reading.
        clock: Millis,
        /// The first period's seconds plus what the side's moves so far may have gained, in
        /// milliseconds (tolerance excluded).
        most: u64,
        /// The side's moves so far, this one included.
        moves: u32,
    },
    /// The game was lost on time by a side whose stopped clock shows time left.
    TimeLeftAtForfeit {
        /// The loser's last ply, the game's last.
        ply: u32,
        /// The loser.
        side: Color,
        /// The loser's clock after that ply.
        clock: Millis,
    },
}

impl ClockWarning {
    /// The ply the warning is about.
    pub fn ply(&self) -> u32 {
        match *self {
            ClockWarning::Rise { ply, .. }
            | ClockWarning::AboveTimeGiven { ply, .. }
            | ClockWarning::TimeLeftAtForfeit { ply, .. } => ply,
        }
    }
}

/// A duration as `H:MM:SS`, with milliseconds when there are any.
struct Hms(u64);

impl fmt::Display for Hms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (seconds, ms) = (self.0 / 1000, self.0 % 1000);
        write!(
            f,
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )?;
        if ms > 0 {
            write!(f, ".{ms:03}")?;
        }
        Ok(())
    }
}

/// `White` or `Black`.
fn name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl fmt::Display for ClockWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClockWarning::Rise {
                side,
                previous_ply,
                before,
                after,
                allowed,
                ..
            } => write!(
                f,
                "{}'s clock rose from {} (ply {previous_ply}) to {}, more than the {} \
                 the time control and a 1 s tolerance allow",
                name(side),
                Hms(before.into()),
                Hms(after.into()),
                Hms(allowed),
            ),
            ClockWarning::AboveTimeGiven {
                side,
                clock,
                most,
                moves,
                ..
            } => write!(
                f,
                "{0}'s clock shows {1}, more than the {2} the time control allows by \
                 {0}'s move {moves}",
                name(side),
                Hms(clock.into()),
                Hms(most),
            ),
            ClockWarning::TimeLeftAtForfeit { side, clock, .. } => write!(
                f,
                "the game was lost on time by {0}, but {0} made the last move and \
                 {0}'s clock showed {1} after it",
                name(side),
                Hms(clock.into()),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_format_as_hms() {
        assert_eq!(Hms(3_909_000).to_string(), "1:05:09");
        assert_eq!(Hms(180_500).to_string(), "0:03:00.500");
        assert_eq!(Hms(0).to_string(), "0:00:00");
        assert_eq!(Hms(36_000_000 * 30).to_string(), "300:00:00");
    }

    #[test]
    fn messages_say_what_the_clock_did() {
        let warning = ClockWarning::TimeLeftAtForfeit {
            ply: 57,
            side: Color::White,
            clock: 42_000,
        };
        assert_eq!(warning.ply(), 57);
        assert_eq!(
            warning.to_string(),
            "the game was lost on time by White, but White made the last move and \
             White's clock showed 0:00:42 after it"
        );
        let warning = ClockWarning::AboveTimeGiven {
            ply: 2,
            side: Color::Black,
            clock: 61_500,
            most: 60_000,
            moves: 1,
        };
        assert_eq!(
            warning.to_string(),
            "Black's clock shows 0:01:01.500, more than the 0:01:00 the time control \
             allows by Black's move 1"
        );
    }
}
