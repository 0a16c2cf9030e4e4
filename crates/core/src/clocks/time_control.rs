//! The `TimeControl` tag (PGN standard 9.6.1) as a typed value, and the lichess speed class it
//! falls in.
//!
//! Forms read:
//! - `?`: unknown; `-`: no time control (correspondence);
//! - `300`: a sudden-death period of 300 seconds; `300+3`: with 3 seconds added per move;
//! - `40/9000`: 40 moves in 9000 seconds; `40/9000+30`: with an increment;
//! - `*180`: a sandclock of 180 seconds;
//! - several periods joined by `:`, each as above (`40/7200:20/3600:900+30`, `40/9000:300`).
//!
//! Accepted leniently: spaces around the value and around `:`, `+`, `/`. Anything else (an empty
//! value, `300+`, `abc`, `5 min`) is a [`TimeControlError`] whose message names the value; the
//! caller turns it into a warning.
//!
//! # Examples
//!
//! ```
//! use arbiter_core::clocks::{Speed, TimeControl};
//!
//! let tc: TimeControl = "180+2".parse().unwrap();
//! assert_eq!((tc.base_seconds(), tc.increment_seconds()), (Some(180), Some(2)));
//! assert_eq!(tc.speed(), Some(Speed::Blitz));
//! assert_eq!("40/7200:20/3600:900+30".parse::<TimeControl>().unwrap().periods().len(), 3);
//! ```

use std::fmt;
use std::str::FromStr;

/// One period of a time control.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Period {
    /// `[moves/]seconds[+increment]`: `moves` moves (all remaining ones when `None`) in `seconds`
    /// seconds, `increment` seconds added after each move.
    Timed {
        /// Moves to play in the period; `None` for sudden death.
        moves: Option<u32>,
        /// Seconds given for the period.
        seconds: u32,
        /// Seconds added after each move (0 when not written).
        increment: u32,
    },
    /// `*seconds`: a sandclock; the time one player spends is added to the other's.
    Sandclock {
        /// Seconds on the sandclock.
        seconds: u32,
    },
}

/// A `TimeControl` tag's value.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub enum TimeControl {
    /// `?`
    Unknown,
    /// `-`: no time control, as in correspondence chess.
    Unlimited,
    /// One or more periods, in order (at least one).
    Periods(Vec<Period>),
}

/// The lichess speed classes, from estimated seconds = base + 40 × increment.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// 30 seconds to under 3 minutes.
    Bullet,
    /// 3 minutes to under 8 minutes.
    Blitz,
    /// 8 minutes to under 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
    /// No time control (`-`).
    Correspondence,
}

impl Speed {
    /// The class of a game expected to last `seconds` per player (base + 40 × increment).
    pub fn from_estimate(seconds: u64) -> Speed {
        match seconds {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The lichess name: `ultrabullet`, `bullet`, `blitz`, `rapid`, `classical`, `correspondence`.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `TimeControl` value that cannot be read.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("TimeControl \"{value}\": {reason}")]
pub struct TimeControlError {
    /// The value as written.
    pub value: String,
    /// What is wrong, in plain words.
    pub reason: &'static str,
}

impl TimeControl {
    /// Reads a tag value (see the module documentation for the forms).
    pub fn parse(value: &str) -> Result<TimeControl, TimeControlError> {
        let error = |reason| TimeControlError {
            value: value.to_string(),
            reason,
        };
        match value.trim() {
            "" => Err(error("the value is empty")),
            "?" => Ok(TimeControl::Unknown),
            "-" => Ok(TimeControl::Unlimited),
            text => text
                .split(':')
                .map(|period| period_of(period.trim()).map_err(error))
                .collect::<Result<Vec<_>, _>>()
                .map(TimeControl::Periods),
        }
    }

    /// The periods, empty for `?` and `-`.
    pub fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(periods) => periods,
            _ => &[],
        }
    }

    /// The first period's seconds (a sandclock's included); `None` for `?` and `-`.
    pub fn base_seconds(&self) -> Option<u32> {
        self.periods().first().map(|period| match *period {
            Period::Timed { seconds, .. } | Period::Sandclock { seconds } => seconds,
        })
    }

    /// The first period's increment in seconds (0 for a sandclock); `None` for `?` and `-`.
    pub fn increment_seconds(&self) -> Option<u32> {
        self.periods().first().map(|period| match *period {
            Period::Timed { increment, .. } => increment,
            Period::Sandclock { .. } => 0,
        })
    }

    /// The lichess speed class: from base + 40 × increment of the first period, `Correspondence`
    /// for `-` and for a first period of a day or more per move (chess.com's daily games are
    /// `1/86400`, `1/259200`...), `None` for `?`.
    pub fn speed(&self) -> Option<Speed> {
        match self {
            TimeControl::Unknown => None,
            TimeControl::Unlimited => Some(Speed::Correspondence),
            TimeControl::Periods(periods) => {
                if let Some(&Period::Timed {
                    moves: Some(moves),
                    seconds,
                    ..
                }) = periods.first()
                    && seconds
                        .checked_div(moves)
                        .is_some_and(|per_move| per_move >= 86_400)
                {
                    return Some(Speed::Correspondence);
                }
                let base = u64::from(self.base_seconds()?);
                let increment = u64::from(self.increment_seconds()?);
                Some(Speed::from_estimate(base + 40 * increment))
            }
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(value: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(value)
    }
}

impl fmt::Display for TimeControl {
    /// The canonical form: `?`, `-`, or the periods joined by `:` (`40/9000:300+30`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Unlimited => f.write_str("-"),
            TimeControl::Periods(periods) => {
                for (i, period) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    match *period {
                        Period::Sandclock { seconds } => write!(f, "*{seconds}")?,
                        Period::Timed {
                            moves,
                            seconds,
                            increment,
                        } => {
                            if let Some(moves) = moves {
                                write!(f, "{moves}/")?;
                            }
                            write!(f, "{seconds}")?;
                            if increment > 0 {
                                write!(f, "+{increment}")?;
                            }
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

/// One period: `*S`, `S`, `S+I`, `M/S` or `M/S+I`.
fn period_of(text: &str) -> Result<Period, &'static str> {
    if let Some(seconds) = text.strip_prefix('*') {
        return Ok(Period::Sandclock {
            seconds: number(seconds, "a sandclock is * and seconds, as *180")?,
        });
    }
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (
            Some(number(moves, "a period is moves/seconds, as 40/9000")?),
            rest,
        ),
        None => (None, text),
    };
    let (seconds, increment) = match rest.split_once('+') {
        Some((seconds, increment)) => (
            seconds,
            number(
                increment,
                "the increment is not a number of seconds, as in 300+3",
            )?,
        ),
        None => (rest, 0),
    };
    let seconds = number(
        seconds,
        "a period is seconds, seconds+increment or moves/seconds (300, 300+3, 40/9000)",
    )?;
    if moves == Some(0) {
        return Err("a period of 0 moves");
    }
    Ok(Period::Timed {
        moves,
        seconds,
        increment,
    })
}

/// A run of ASCII digits (spaces around allowed) that fits a `u32`, else `reason`.
fn number(text: &str, reason: &'static str) -> Result<u32, &'static str> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(reason);
    }
    text.parse().map_err(|_| "a number is too large")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(value: &str) -> TimeControl {
        value.parse().unwrap_or_else(|e| panic!("{value:?}: {e}"))
    }

    fn timed(moves: Option<u32>, seconds: u32, increment: u32) -> Period {
        Period::Timed {
            moves,
            seconds,
            increment,
        }
    }

    #[test]
    fn standard_forms() {
        assert_eq!(tc("?"), TimeControl::Unknown);
        assert_eq!(tc("-"), TimeControl::Unlimited);
        assert_eq!(tc("300").periods(), [timed(None, 300, 0)]);
        assert_eq!(tc("300+3").periods(), [timed(None, 300, 3)]);
        assert_eq!(tc("300+0").periods(), [timed(None, 300, 0)]);
        assert_eq!(tc("40/9000").periods(), [timed(Some(40), 9000, 0)]);
        assert_eq!(
            tc("40/9000:300").periods(),
            [timed(Some(40), 9000, 0), timed(None, 300, 0)]
        );
        assert_eq!(
            tc("40/7200:20/3600:900+30").periods(),
            [
                timed(Some(40), 7200, 0),
                timed(Some(20), 3600, 0),
                timed(None, 900, 30)
            ]
        );
        assert_eq!(tc("*180").periods(), [Period::Sandclock { seconds: 180 }]);
        assert_eq!(
            tc(" 40 / 5400 + 30 : 1800+30 ").to_string(),
            "40/5400+30:1800+30"
        );
    }

    #[test]
    fn accessors() {
        assert_eq!(tc("300+3").base_seconds(), Some(300));
        assert_eq!(tc("300+3").increment_seconds(), Some(3));
        assert_eq!(tc("40/7200:20/3600:900+30").base_seconds(), Some(7200));
        assert_eq!(tc("40/7200:20/3600:900+30").increment_seconds(), Some(0));
        assert_eq!(tc("*180").base_seconds(), Some(180));
        assert_eq!(tc("*180").increment_seconds(), Some(0));
        assert_eq!(tc("?").base_seconds(), None);
        assert_eq!(tc("-").increment_seconds(), None);
        assert!(tc("-").periods().is_empty());
    }

    #[test]
    fn speed_classes_at_their_bounds() {
        let speed = |value: &str| tc(value).speed().map(Speed::as_str);
        assert_eq!(speed("15+0"), Some("ultrabullet"));
        assert_eq!(speed("29"), Some("ultrabullet"));
        assert_eq!(speed("30"), Some("bullet"));
        assert_eq!(speed("60+1"), Some("bullet"));
        assert_eq!(speed("179"), Some("bullet"));
        assert_eq!(speed("180"), Some("blitz"));
        assert_eq!(speed("180+2"), Some("blitz"));
        assert_eq!(speed("300+3"), Some("blitz"));
        assert_eq!(speed("479"), Some("blitz"));
        assert_eq!(speed("480"), Some("rapid"));
        assert_eq!(speed("600+5"), Some("rapid"));
        assert_eq!(speed("1499"), Some("rapid"));
        assert_eq!(speed("1500"), Some("classical"));
        assert_eq!(speed("1800+30"), Some("classical"));
        assert_eq!(speed("40/7200:3600"), Some("classical"));
        assert_eq!(speed("-"), Some("correspondence"));
        assert_eq!(speed("1/86400"), Some("correspondence"));
        assert_eq!(speed("1/259200"), Some("correspondence"));
        assert_eq!(speed("2/86400"), Some("classical"));
        // Built by hand, a period of 0 moves is not a division by zero.
        let zero = TimeControl::Periods(vec![timed(Some(0), 60, 0)]);
        assert_eq!(zero.speed(), Some(Speed::Bullet));
        assert_eq!(speed("?"), None);
        assert_eq!(Speed::Blitz.to_string(), "blitz");
    }

    #[test]
    fn display_round_trips() {
        for value in [
            "?",
            "-",
            "300+3",
            "40/9000:300",
            "40/7200:20/3600:900+30",
            "*180",
            "60",
        ] {
            assert_eq!(tc(value).to_string(), value);
        }
        assert_eq!(tc("300+0").to_string(), "300");
    }

    #[test]
    fn errors_are_plain_words() {
        let error = |value: &str| TimeControl::parse(value).unwrap_err().to_string();
        assert_eq!(error(""), "TimeControl \"\": the value is empty");
        assert_eq!(
            error("300+"),
            "TimeControl \"300+\": the increment is not a number of seconds, as in 300+3"
        );
        assert_eq!(
            error("5 min"),
            "TimeControl \"5 min\": a period is seconds, seconds+increment or moves/seconds \
             (300, 300+3, 40/9000)"
        );
        assert_eq!(
            error("*"),
            "TimeControl \"*\": a sandclock is * and seconds, as *180"
        );
        assert_eq!(
            error("x/300"),
            "TimeControl \"x/300\": a period is moves/seconds, as 40/9000"
        );
        assert_eq!(error("0/300"), "TimeControl \"0/300\": a period of 0 moves");
        assert_eq!(
            error("40/9000:"),
            "TimeControl \"40/9000:\": a period is seconds, seconds+increment or moves/seconds \
             (300, 300+3, 40/9000)"
        );
        assert_eq!(
            error("99999999999"),
            "TimeControl \"99999999999\": a number is too large"
        );
        assert!(TimeControl::parse("-3").is_err());
        assert!(TimeControl::parse("300+3+2").is_err());
    }
}
