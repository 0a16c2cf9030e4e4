//! Lichess's clock comment, `{ [%clk H:MM:SS] }`: nearly every comment of a lichess archive, so
//! common that the lexer recognises it where it finds the comment's end ([`super::lex`]) and hands the visitor
//! its reading ([`super::Visitor::clock_comment`]), rather than the text to read again.
//!
//! Only the exact form is recognised: one space, `[%clk `, one hour digit, two minute digits up
//! to `59`, two second digits up to `59`, `]`, one space. Any other comment is an ordinary one,
//! which a visitor reads by the general rules of its commands; for this form both readings agree
//! (the replay's tests hold them to it, digit by digit).

/// The length of a lichess clock comment's text, ` [%clk H:MM:SS] `.
pub const LICHESS_CLOCK_LEN: usize = 16;

/// The reading, in milliseconds, of a comment text that is exactly lichess's clock
/// ` [%clk H:MM:SS] ` (the text between `{` and `}`), in a few instructions; `None` for any other
/// text.
///
/// ```
/// use arbiter_pgn::lichess_clock;
///
/// assert_eq!(lichess_clock(b" [%clk 1:05:09] "), Some(3_909_000));
/// assert_eq!(lichess_clock(b" [%clk 0:60:00] "), None);
/// assert_eq!(lichess_clock(b"[%clk 0:03:00]"), None);
/// ```
#[inline(always)]
pub fn lichess_clock(text: &[u8]) -> Option<u32> {
    let bytes: &[u8; LICHESS_CLOCK_LEN] = text.try_into().ok()?;
    // ` [%clk ` and the hour's digit, which `hms` tests.
    const PREFIX: u64 = u64::from_le_bytes(*b" [%clk \0");
    let (head, _) = bytes.split_first_chunk::<8>()?;
    if u64::from_le_bytes(*head) & 0x00FF_FFFF_FFFF_FFFF != PREFIX || bytes[15] != b' ' {
        return None;
    }
    hms(word_at(bytes, 7))
}

/// [`lichess_clock`] for the whole comment at `bytes[0]` (its `{`): 18 bytes,
/// `{ [%clk H:MM:SS] }`, read as three words.
#[inline(always)]
pub(crate) fn lichess_clock_comment(bytes: &[u8; LICHESS_CLOCK_LEN + 2]) -> Option<u32> {
    const OPEN: u64 = u64::from_le_bytes(*b"{ [%clk ");
    if word_at(bytes, 0) != OPEN || bytes[16..] != *b" }" {
        return None;
    }
    hms(word_at(bytes, 8))
}

/// The eight bytes from `bytes[at]`, as a little-endian word.
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

/// The milliseconds of `H:MM:SS]` read as a little-endian word; `None` for any other bytes.
#[inline(always)]
fn hms(word: u64) -> Option<u32> {
    // One comparison for the fixed bytes and the digits' high nibble (`0` to `?`), then the
    // five digits' low nibbles, each checked against its largest value at once: adding 15 less
    // that value carries a digit too large into the nibble's fifth bit.
    const SHAPE: u64 = u64::from_le_bytes(*b"0:00:00]");
    const MASK: u64 = u64::from_le_bytes([0xF0, 0xFF, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF]);
    if word & MASK != SHAPE {
        return None;
    }
    const DIGITS: u64 = u64::from_le_bytes([0x0F, 0, 0x0F, 0x0F, 0, 0x0F, 0x0F, 0]);
    const HEADROOM: u64 = u64::from_le_bytes([15 - 9, 0, 15 - 5, 15 - 9, 0, 15 - 5, 15 - 9, 0]);
    const FIFTH_BITS: u64 = u64::from_le_bytes([0x10, 0, 0x10, 0x10, 0, 0x10, 0x10, 0]);
    let digits = word & DIGITS;
    if (digits + HEADROOM) & FIFTH_BITS != 0 {
        return None;
    }
    // Each byte plus ten times the byte before it: bytes 3 and 6 become the minutes and the
    // seconds (at most 99, no carry), byte 0 stays the hours.
    let pairs = digits * (1 + (10 << 8));
    // Those three bytes, weighed and summed by one multiplication into bits 48 to 63 (at most
    // 35,999; what lands below stays under 2^34, and what lands above 2^64 is dropped).
    const PARTS: u64 = 0xFF | 0xFF << 24 | 0xFF << 48;
    const WEIGHTS: u64 = 3600 << 48 | 60 << 24 | 1;
    let seconds = ((pairs & PARTS).wrapping_mul(WEIGHTS) >> 48) as u32;
    Some(seconds * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_form_only() {
        assert_eq!(lichess_clock(b" [%clk 9:59:59] "), Some(35_999_000));
        assert_eq!(lichess_clock(b" [%clk 0:00:00] "), Some(0));
        assert_eq!(lichess_clock(b" [%clk 1:05:09] "), Some(3_909_000));
        // Every reading there is, against its sum.
        for seconds in 0..10 * 3600 {
            let text = format!(
                " [%clk {}:{:02}:{:02}] ",
                seconds / 3600,
                seconds / 60 % 60,
                seconds % 60
            );
            let reading = Some(seconds * 1000);
            assert_eq!(lichess_clock(text.as_bytes()), reading, "{text}");
            let comment: [u8; 18] = format!("{{{text}}}").as_bytes().try_into().unwrap();
            assert_eq!(lichess_clock_comment(&comment), reading, "{text}");
        }
        for text in [
            &b" [%clk 0:03:0x] "[..],
            b" [%clk 0:03:00]  ",
            b" [%CLK 0:03:00] ",
            b" [%clk 0:0?:00] ",
            b" [%clk 0:03:60] ",
            b" [%clk 0;03:00] ",
            b" [%clk 10:03:00]",
            b"[%clk 0:03:00]  ",
            b" [%clk 0:03:00]}",
            b"",
        ] {
            assert_eq!(lichess_clock(text), None, "{text:?}");
            let mut comment = [b'{'; 18];
            if text.len() == 16 {
                comment[1..17].copy_from_slice(text);
                comment[17] = b'}';
                assert_eq!(lichess_clock_comment(&comment), None, "{text:?}");
            }
        }
    }
}
