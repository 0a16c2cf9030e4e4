//! The whole numbers of the command line (`--jobs`, `--range`, `--rulings-budget`, `--limit`,
//! `--rows-per-file`, perft's DEPTH), read with errors in plain words: `abc is not a whole
//! number`, rather than the standard library's `invalid digit found in string`.

use std::num::IntErrorKind;

/// `text` as a whole number from 0 to `max`.
pub(crate) fn whole(text: &str, max: u64) -> Result<u64, String> {
    let trimmed = text.trim();
    match trimmed.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(format!("{trimmed} is too large (at most {max})")),
        Err(err) => Err(match err.kind() {
            IntErrorKind::Empty => "a whole number is needed here, and none was given".to_owned(),
            IntErrorKind::PosOverflow => format!("{trimmed} is too large (at most {max})"),
            _ if trimmed.starts_with('-') => format!("{trimmed} is negative"),
            _ => format!("{trimmed:?} is not a whole number (digits only, such as 4)"),
        }),
    }
}

/// A whole number (`--rulings-budget`, `--limit`).
pub(crate) fn count(text: &str) -> Result<u64, String> {
    whole(text, u64::MAX)
}

/// A whole number of at least 1 (`--rows-per-file`).
pub(crate) fn positive(text: &str) -> Result<u64, String> {
    match whole(text, u64::MAX)? {
        0 => Err("must be at least 1".to_owned()),
        n => Ok(n),
    }
}

/// perft's DEPTH, which comes before the position: a word that is no number there is most
/// likely the position given first (`perft startpos 3`), and is told so.
pub(crate) fn depth(text: &str) -> Result<u32, String> {
    let numeric = text.trim().bytes().all(|b| b.is_ascii_digit() || b == b'-');
    match whole(text, u64::from(u32::MAX)) {
        Ok(n) => Ok(n as u32),
        Err(err) if numeric => Err(err),
        Err(_) => Err(
            "the depth, a whole number of plies, comes first and the position after \
                       it: arbiter perft DEPTH [FEN], such as arbiter perft 3 startpos"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_refused_in_plain_words() {
        assert_eq!(count(" 12 "), Ok(12));
        assert_eq!(
            count("abc"),
            Err("\"abc\" is not a whole number (digits only, such as 4)".to_owned())
        );
        assert_eq!(count("-3"), Err("-3 is negative".to_owned()));
        assert_eq!(
            count("99999999999999999999"),
            Err("99999999999999999999 is too large (at most 18446744073709551615)".to_owned())
        );
        assert_eq!(positive("0"), Err("must be at least 1".to_owned()));
        assert_eq!(depth("5"), Ok(5));
        assert_eq!(
            depth("5000000000"),
            Err("5000000000 is too large (at most 4294967295)".to_owned())
        );
        assert_eq!(
            depth("startpos"),
            Err(
                "the depth, a whole number of plies, comes first and the position after it: \
                 arbiter perft DEPTH [FEN], such as arbiter perft 3 startpos"
                    .to_owned()
            )
        );
    }
}
