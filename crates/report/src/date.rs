//! Calendar dates for rows: as days since 1970-01-01 ([`Date32`], Parquet's `DATE`), and with
//! the `YYYY-MM-DD` text they were read as ([`CalendarDate`]), from PGN's `YYYY.MM.DD`; and the
//! year and month of a date known only in part ([`YearMonth`], `1990.??.??`).

/// A calendar date as days since 1970-01-01 (Parquet's `DATE`, Arrow's `Date32`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Date32(pub i32);

impl Date32 {
    /// The date `year-month-day` of the proleptic Gregorian calendar, if it exists.
    pub fn from_ymd(year: i32, month: u32, day: u32) -> Option<Date32> {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days_in_month = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day == 0 || day > days_in_month || !(-9999..=9999).contains(&year) {
            return None;
        }
        // Howard Hinnant's days_from_civil, with years starting in March.
        let y = i64::from(if month <= 2 { year - 1 } else { year });
        let era = y.div_euclid(400);
        let year_of_era = y - era * 400;
        let m = i64::from(month);
        let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        i32::try_from(era * 146_097 + day_of_era - 719_468)
            .ok()
            .map(Date32)
    }

    /// The date's year, month and day (Howard Hinnant's civil_from_days).
    pub fn to_ymd(self) -> (i32, u32, u32) {
        let z = i64::from(self.0) + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        (year as i32, month, day)
    }

    /// Appends the date as `YYYY-MM-DD` (a year before 0 or after 9999 as it comes).
    pub fn write_iso(self, out: &mut Vec<u8>) {
        let (year, month, day) = self.to_ymd();
        if year < 0 {
            out.push(b'-');
        }
        let year = year.unsigned_abs();
        // Written in one piece: a row holds a date, and each push costs a capacity check.
        let digit = |n: u32| b'0' + (n % 10) as u8;
        out.extend_from_slice(&[
            digit(year / 1000),
            digit(year / 100),
            digit(year / 10),
            digit(year),
            b'-',
            digit(month / 10),
            digit(month),
            b'-',
            digit(day / 10),
            digit(day),
        ]);
    }

    /// A PGN `Date` tag's value, `YYYY.MM.DD`, when it is complete and exists; `None` for
    /// `????.??.??`, `2024.??.??` and anything else.
    pub fn from_pgn(value: &str) -> Option<Date32> {
        let bytes = value.trim().as_bytes();
        if bytes.len() != 10 || bytes[4] != b'.' || bytes[7] != b'.' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            let digits = &bytes[range];
            digits
                .iter()
                .all(u8::is_ascii_digit)
                .then(|| digits.iter().fold(0, |n, &b| n * 10 + u32::from(b - b'0')))
        };
        let year = i32::try_from(number(0..4)?).ok()?;
        Date32::from_ymd(year, number(5..7)?, number(8..10)?)
    }
}

/// A calendar date both ways: as days (Parquet's `DATE`) and as `YYYY-MM-DD` text, each kept as
/// read, so that writing a row computes neither from the other.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct CalendarDate {
    days: Date32,
    iso: [u8; 10],
}

impl CalendarDate {
    /// A PGN `Date` tag's value, as [`Date32::from_pgn`] reads it.
    pub fn from_pgn(value: &str) -> Option<CalendarDate> {
        let days = Date32::from_pgn(value)?;
        // `from_pgn` read ten bytes, `YYYY.MM.DD`.
        let mut iso: [u8; 10] = value.trim().as_bytes().try_into().ok()?;
        (iso[4], iso[7]) = (b'-', b'-');
        Some(CalendarDate { days, iso })
    }

    /// The days since 1970-01-01.
    pub fn days(self) -> Date32 {
        self.days
    }

    /// `YYYY-MM-DD`.
    pub fn iso(&self) -> &[u8; 10] {
        &self.iso
    }

    /// The date's year and month, as [`YearMonth::from_pgn`] reads them from the text the date
    /// was read from (a whole date has both), without reading it again.
    pub fn year_month(&self) -> YearMonth {
        let digit = |at: usize| u16::from(self.iso[at] - b'0');
        YearMonth {
            year: Some(digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)),
            month: Some((digit(5) * 10 + digit(6)) as u8),
        }
    }
}

/// The year and month of a PGN `Date` tag's value, each when it is written, whether or not the
/// rest is: `1990.??.??` gives the year 1990 and no month, `1990.05.??` May 1990, `????.??.??`
/// neither. A year is four digits, a month two, `01` to `12`, in the `YYYY.MM.DD` form.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct YearMonth {
    /// The year.
    pub year: Option<u16>,
    /// The month, 1 to 12.
    pub month: Option<u8>,
}

impl YearMonth {
    /// The year and month of `value`; see [`YearMonth`].
    pub fn from_pgn(value: &str) -> YearMonth {
        let mut parts = value.trim().split('.');
        let number = |part: Option<&str>, digits: usize| {
            part.filter(|p| p.len() == digits && p.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|p| p.parse::<u16>().ok())
        };
        let year = number(parts.next(), 4);
        let month = number(parts.next(), 2)
            .filter(|m| (1..=12).contains(m))
            .map(|m| m as u8);
        YearMonth { year, month }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_dates_year_and_month_are_those_read_from_its_text() {
        let mut texts = vec![
            " 2013.01.01 ".to_string(),
            "0000.03.01".into(),
            "9999.12.31".into(),
            "2024.02.29\t".into(),
        ];
        for year in [1, 999, 1969, 1970, 2000, 2025] {
            for month in 0..=13 {
                for day in [0, 1, 28, 29, 30, 31, 32] {
                    texts.push(format!("{year:04}.{month:02}.{day:02}"));
                }
            }
        }
        let mut whole = 0;
        for text in &texts {
            if let Some(date) = CalendarDate::from_pgn(text) {
                assert_eq!(date.year_month(), YearMonth::from_pgn(text), "{text:?}");
                whole += 1;
            }
        }
        assert!(whole > 100, "{whole}");
    }

    #[test]
    fn dates() {
        assert_eq!(Date32::from_ymd(1970, 1, 1), Some(Date32(0)));
        assert_eq!(Date32::from_ymd(1969, 12, 31), Some(Date32(-1)));
        assert_eq!(Date32::from_ymd(2000, 3, 1), Some(Date32(11_017)));
        assert_eq!(Date32::from_ymd(2024, 2, 29), Some(Date32(19_782)));
        assert_eq!(Date32::from_ymd(1851, 6, 21), Some(Date32(-43_293)));
        assert_eq!(Date32::from_ymd(2023, 2, 29), None);
        assert_eq!(Date32::from_ymd(1900, 2, 29), None);
        assert_eq!(Date32::from_ymd(2024, 13, 1), None);
        assert_eq!(Date32::from_pgn("2013.01.01"), Some(Date32(15_706)));
        assert_eq!(Date32::from_pgn(" 2013.01.01 "), Some(Date32(15_706)));
        for bad in [
            "????.??.??",
            "2013.??.??",
            "2013.01.??",
            "2013-01-01",
            "13.01.01",
            "",
        ] {
            assert_eq!(Date32::from_pgn(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_date_known_in_part_gives_its_year_and_month() {
        let year_month = |value| {
            let YearMonth { year, month } = YearMonth::from_pgn(value);
            (year, month)
        };
        assert_eq!(year_month("1990.??.??"), (Some(1990), None));
        assert_eq!(year_month(" 1990.05.?? "), (Some(1990), Some(5)));
        assert_eq!(year_month("2024.12.31"), (Some(2024), Some(12)));
        assert_eq!(year_month("1990"), (Some(1990), None));
        assert_eq!(year_month("????.03.??"), (None, Some(3)));
        for neither in [
            "????.??.??",
            "",
            "?",
            "90.05.01",
            "1990-05-01",
            "199x.05.01",
        ] {
            assert_eq!(year_month(neither).0, None, "{neither}");
        }
        for no_month in ["1990.13.01", "1990.00.01", "1990.5.01", "1990.??.01"] {
            assert_eq!(year_month(no_month), (Some(1990), None), "{no_month}");
        }
    }

    #[test]
    fn calendar_dates_keep_days_and_text() {
        for value in ["2024.02.29", " 1851.06.21 ", "0001.01.01", "9999.12.31"] {
            let date = CalendarDate::from_pgn(value).unwrap();
            assert_eq!(Some(date.days()), Date32::from_pgn(value));
            let mut iso = Vec::new();
            date.days().write_iso(&mut iso);
            assert_eq!(&iso[..], date.iso(), "{value}");
        }
        for bad in ["2023.02.29", "2024.??.??", "2024-01-01", ""] {
            assert_eq!(CalendarDate::from_pgn(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_round_trip_and_print_in_iso_form() {
        for (y, m, d) in [
            (1970, 1, 1),
            (1851, 6, 21),
            (2000, 2, 29),
            (2025, 12, 31),
            (1, 1, 1),
        ] {
            let date = Date32::from_ymd(y, m, d).unwrap();
            assert_eq!(date.to_ymd(), (y, m, d));
            let mut iso = Vec::new();
            date.write_iso(&mut iso);
            assert_eq!(
                String::from_utf8(iso).unwrap(),
                format!("{y:04}-{m:02}-{d:02}")
            );
        }
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = Date32(days).to_ymd();
            assert_eq!(Date32::from_ymd(y, m, d), Some(Date32(days)));
        }
    }
}
