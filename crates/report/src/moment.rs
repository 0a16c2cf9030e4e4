//! Times of day and instants for rows: a `UTCTime` tag as a time of day (Parquet's `TIME`,
//! milliseconds since midnight) and with a `UTCDate` as an instant (Parquet's `TIMESTAMP`,
//! milliseconds since 1970-01-01 00:00 UTC), each with the text CSV and JSON write
//! (`13:05:09`, `2025-05-01T13:05:09Z`), kept as read.

use crate::date::CalendarDate;

/// A time of day or an instant, as a number of milliseconds and as text.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Moment {
    millis: i64,
    text: [u8; 20],
    len: u8,
}

impl Moment {
    /// A PGN `UTCTime` tag's value, `HH:MM:SS` (spaces around allowed), as a time of day; `None`
    /// for `??:??:??`, an hour past 23, a minute or second past 59, or any other form.
    pub fn time_of_day(value: &str) -> Option<Moment> {
        let bytes: [u8; 8] = value.trim().as_bytes().try_into().ok()?;
        let two = |at: usize| -> Option<i64> {
            let (tens, ones) = (
                bytes[at].wrapping_sub(b'0'),
                bytes[at + 1].wrapping_sub(b'0'),
            );
            (tens <= 9 && ones <= 9).then(|| i64::from(tens * 10 + ones))
        };
        if bytes[2] != b':' || bytes[5] != b':' {
            return None;
        }
        let (hours, minutes, seconds) = (two(0)?, two(3)?, two(6)?);
        if hours > 23 || minutes > 59 || seconds > 59 {
            return None;
        }
        let mut text = [0; 20];
        text[..8].copy_from_slice(&bytes);
        Some(Moment {
            millis: ((hours * 60 + minutes) * 60 + seconds) * 1000,
            text,
            len: 8,
        })
    }

    /// The instant of `time` (a time of day) on `date`, in UTC: `YYYY-MM-DDTHH:MM:SSZ`.
    pub fn instant(date: CalendarDate, time: Moment) -> Moment {
        let mut text = [0; 20];
        text[..10].copy_from_slice(date.iso());
        text[10] = b'T';
        text[11..19].copy_from_slice(&time.text[..8]);
        text[19] = b'Z';
        Moment {
            millis: i64::from(date.days().0) * 86_400_000 + time.millis,
            text,
            len: 20,
        }
    }

    /// Milliseconds since midnight (a time of day) or since 1970-01-01 00:00 UTC (an instant).
    pub fn millis(self) -> i64 {
        self.millis
    }

    /// The text CSV and JSON write.
    pub fn text(&self) -> &[u8] {
        &self.text[..usize::from(self.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day_are_read_strictly() {
        let t = Moment::time_of_day(" 13:05:09 ").unwrap();
        assert_eq!((t.millis(), t.text()), (47_109_000, &b"13:05:09"[..]));
        assert_eq!(Moment::time_of_day("00:00:00").unwrap().millis(), 0);
        assert_eq!(
            Moment::time_of_day("23:59:59").unwrap().millis(),
            86_399_000
        );
        for bad in [
            "??:??:??", "24:00:00", "12:60:00", "12:00:60", "1:05:09", "13-05-09", "",
        ] {
            assert_eq!(Moment::time_of_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn instants_join_a_date_and_a_time() {
        let date = CalendarDate::from_pgn("2025.05.01").unwrap();
        let at = Moment::instant(date, Moment::time_of_day("13:05:09").unwrap());
        assert_eq!(at.text(), b"2025-05-01T13:05:09Z");
        // 2025-05-01 is day 20,209 since 1970-01-01.
        assert_eq!(at.millis(), 20_209 * 86_400_000 + 47_109_000);
        let before = Moment::instant(
            CalendarDate::from_pgn("1969.12.31").unwrap(),
            Moment::time_of_day("23:59:59").unwrap(),
        );
        assert_eq!(before.millis(), -1000);
    }
}
