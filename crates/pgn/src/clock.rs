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
    // One comparison for the fixed bytes and the digits' high nibble (`0` to `?`), then the
    // five digits' low nibbles, each checked against its largest value at once: adding 15 less
    // that value carries a digit too large into the nibble's fifth bit.
    const SHAPE: u128 = u128::from_le_bytes(*b" [%clk 0:00:00] ");
    const MASK: u128 = u128::from_le_bytes([
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF, 0xF0, 0xF0, 0xFF,
        0xFF,
    ]);
    let word = u128::from_le_bytes(*bytes);
    if word & MASK != SHAPE {
        return None;
    }
    // Bytes 7 to 14: `H:MM:SS]`, the digits' low nibbles kept.
    const DIGITS: u64 = u64::from_le_bytes([0x0F, 0, 0x0F, 0x0F, 0, 0x0F, 0x0F, 0]);
    const HEADROOM: u64 = u64::from_le_bytes([15 - 9, 0, 15 - 5, 15 - 9, 0, 15 - 5, 15 - 9, 0]);
    const FIFTH_BITS: u64 = u64::from_le_bytes([0x10, 0, 0x10, 0x10, 0, 0x10, 0x10, 0]);
    let digits = (word >> 56) as u64 & DIGITS;
    if (digits + HEADROOM) & FIFTH_BITS != 0 {
        return None;
    }
    // Each byte plus ten times the byte before it: bytes 3 and 6 become the minutes and the
    // seconds (at most 99, no carry), byte 0 stays the hours.
    let pairs = digits * (1 + (10 << 8));
    let part = |byte: u32| (pairs >> (8 * byte)) as u32 & 0xFF;
    Some(part(0) * 3_600_000 + part(3) * 60_000 + part(6) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_form_only() {
        assert_eq!(lichess_clock(b" [%clk 9:59:59] "), Some(35_999_000));
        assert_eq!(lichess_clock(b" [%clk 0:00:00] "), Some(0));
        for text in [
            &b" [%clk 0:03:0x] "[..],
            b" [%clk 0:03:00]  ",
            b" [%CLK 0:03:00] ",
            b" [%clk 0:0?:00] ",
            b" [%clk 0:03:60] ",
            b" [%clk 0;03:00] ",
            b"",
        ] {
            assert_eq!(lichess_clock(text), None, "{text:?}");
        }
    }
}
