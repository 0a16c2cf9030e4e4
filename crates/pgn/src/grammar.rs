//! The PGN grammar as small nom parsers, one per rule, over the bytes of one game.
//!
//! All parsers are `complete`: the splitter hands over whole games, so running out of input means
//! the token is broken, never that more is coming. They return the rest of the input and the
//! token; the drivers (`parse`, `one_pass`) decide what to do with a failure. The rules of the tag
//! section are in [`super::tags`]; where a comment, a line or a quoted value ends is the lexer's
//! ([`super::lex`]). Read leniently:
//!
//! - move numbers with any number of dots, spaced or not (`12.`, `12...`, `12 ...`, `12. ...`);
//! - anything that looks like a move is kept as text: `Nf3`, `0-0`, `O-O-O`, `e8=Q`, `e8Q`,
//!   `exd6e.p.`, long algebraic `e2e4` and `Ng1-f3`, drops `N@f3`; `!`/`?` suffixes become NAGs;
//! - null moves `--` and `Z0`.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::combinator::value;
use nom::sequence::preceded;

use super::lex::{
    GameResult, SAN_ATTACHED, SAN_BYTE, SAN_CLASS, SAN_DIGIT, is_delim_after, is_san_char,
    may_start_result, one_space_at,
};

/// A parser result over game bytes. Errors carry nothing: the driver knows where it was.
pub(crate) type PResult<'a, O> = IResult<&'a [u8], O, ()>;

/// A move number with its dots: `12.`, `12...`, `12 ...`, `12. ...` or a bare `12`.
/// Returns the digits and the number of dots (saturating at 255).
#[inline]
pub(crate) fn move_number(i: &[u8]) -> PResult<'_, (&[u8], u8)> {
    let digits = i.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(nom::Err::Error(()));
    }
    let mut count = 0u8;
    let mut end = digits;
    // Groups of dots, each after optional blanks; blanks not followed by dots stay in the input.
    loop {
        let blanks = i[end..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let dots = i[end + blanks..].iter().take_while(|&&b| b == b'.').count();
        if dots == 0 {
            break;
        }
        count = count.saturating_add(u8::try_from(dots).unwrap_or(u8::MAX));
        end += blanks + dots;
    }
    Ok((&i[end..], (&i[..digits], count)))
}

/// The common form of a move number, `12.` or `12...` with at most nine digits and one group of
/// dots, read without the general rule: `Some((number, length, dots))`, the same as
/// [`move_number`] gives. `None` for anything else (`12 ...`, `12. ...`, no dot, more digits),
/// which goes to the general rule. (Index loops, not iterator chains: this runs for every move
/// number, and nine digits cannot overflow a `u32`.)
#[inline(always)]
pub(crate) fn common_move_number(i: &[u8]) -> Option<(u32, usize, u8)> {
    let mut number = 0u32;
    let mut digits = 0;
    // The digits, up to the first dot.
    loop {
        match *i.get(digits)? {
            d @ b'0'..=b'9' if digits < 9 => {
                number = number * 10 + u32::from(d - b'0');
                digits += 1;
            }
            b'.' if digits > 0 => break,
            _ => return None,
        }
    }
    let mut end = digits + 1;
    while i.get(end) == Some(&b'.') {
        end += 1;
    }
    // Blanks then more dots are the general rule's (`12. ...`); one blank then the next token is
    // the common case.
    if let Some(b' ' | b'\t') = i.get(end) {
        let mut next = end + 1;
        while let Some(b' ' | b'\t') = i.get(next) {
            next += 1;
        }
        if i.get(next) == Some(&b'.') {
            return None;
        }
    }
    Some((number, end, u8::try_from(end - digits).unwrap_or(u8::MAX)))
}

/// [`common_move_number`] followed by the next token, directly (`12.Nf3`) or after one space
/// (`12. Nf3`, `3... Nf6`), read from a window of the buffer that holds at least [`QUICK_SPAN`]
/// bytes from the number's first (the one-pass reader's quick tokens), for up to four digits and
/// three dots: `Some((number, where the next token starts, dots))`, which is where
/// [`super::lex::skip_plain_space`] goes from [`common_move_number`]'s length. `None` for anything
/// else (more digits or dots, no dot, other white space after it, `12. ...`), which
/// [`common_move_number`] reads. (No bounds checks: the window's length is known.)
#[inline(always)]
pub(crate) fn quick_move_number<const N: usize>(w: &[u8; N]) -> Option<(u32, usize, u8)> {
    const { assert!(N >= QUICK_SPAN) };
    let mut number = 0u32;
    let mut digits = 0;
    while digits < 4 {
        let digit = w[digits].wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        number = number * 10 + u32::from(digit);
        digits += 1;
    }
    if digits == 0 || w[digits] != b'.' {
        return None;
    }
    let mut end = digits + 1;
    while end < digits + 3 && w[end] == b'.' {
        end += 1;
    }
    let dots = (end - digits) as u8;
    match w[end] {
        // A fourth dot.
        b'.' => None,
        b if b > b' ' => Some((number, end, dots)),
        // Blanks then more dots are the general rule's (`12. ...`).
        _ if one_space_at(w, end) && w[end + 1] != b'.' => Some((number, end + 1, dots)),
        _ => None,
    }
}

/// The bytes from its first that a quick token ([`short_plain_move`], [`quick_move_number`]) may
/// look at: a move of seven bytes and the byte after it, four digits, three dots, a space and the
/// byte after it.
pub(crate) const QUICK_SPAN: usize = 9;

/// A run of dots: `...`
pub(crate) fn dots(i: &[u8]) -> PResult<'_, &[u8]> {
    take_while1(|b| b == b'.').parse(i)
}

/// A suffix annotation: `!!`, `??`, `!?`, `?!`, `!` or `?`, as its NAG number. (Hand-written:
/// every move is tested for one.)
#[inline]
pub(crate) fn glyph(i: &[u8]) -> PResult<'_, u8> {
    let (nag, len) = match i {
        [b'!', b'!', ..] => (3, 2),
        [b'?', b'?', ..] => (4, 2),
        [b'!', b'?', ..] => (5, 2),
        [b'?', b'!', ..] => (6, 2),
        [b'!', ..] => (1, 1),
        [b'?', ..] => (2, 1),
        _ => return Err(nom::Err::Error(())),
    };
    Ok((&i[len..], nag))
}

/// Castling written with zeros: `0-0-0` or `0-0` (followed by no more move characters).
fn castle_with_zeros(i: &[u8]) -> PResult<'_, &[u8]> {
    let (rest, text) = alt((tag(&b"0-0-0"[..]), tag(&b"0-0"[..]))).parse(i)?;
    match rest.first() {
        Some(&b) if b.is_ascii_alphanumeric() || b == b'-' => Err(nom::Err::Error(())),
        _ => {
            let (rest, checks) = take_while(|b| b == b'+' || b == b'#').parse(rest)?;
            Ok((rest, &i[..text.len() + checks.len()]))
        }
    }
}

/// The rest of an en passant suffix `e.p.` whose `e` a move has already taken: `.p.`
fn en_passant_tail(i: &[u8]) -> PResult<'_, &[u8]> {
    tag(&b".p."[..]).parse(i)
}

/// A move that starts with a letter, with an optional attached `e.p.`: `Nbxd2+`, `exd6e.p.`
/// (hand-written: this is the hottest rule). To look like a move it must name a rank (hold a
/// digit) or be castling with letters (`O-O`); a bare `e.p.` is accepted for the driver to drop.
/// So words (`which`, `<br>` pieces, German `Sf3` still passes) are stray text, not moves.
///
/// One pass over the move's bytes: the class table says where it ends and whether it named a rank.
#[inline(always)]
fn move_letters(i: &[u8]) -> PResult<'_, &[u8]> {
    if !i.first().is_some_and(u8::is_ascii_alphabetic) {
        return Err(nom::Err::Error(()));
    }
    let mut len = 1;
    let mut seen = 0;
    while let Some(&b) = i.get(len) {
        let class = SAN_CLASS[b as usize];
        if class & SAN_BYTE == 0 {
            break;
        }
        seen |= class;
        len += 1;
    }
    // Only a `.` right after the move can start an `e.p.`: one compare for the common case.
    if i.get(len) == Some(&b'.') && i[len - 1] == b'e' && en_passant_tail(&i[len..]).is_ok() {
        len += 3;
    }
    let text = &i[..len];
    let move_like = seen & SAN_DIGIT != 0 || text.starts_with(b"O-O") || text == b"e.p.";
    if !move_like {
        return Err(nom::Err::Error(()));
    }
    Ok((&i[len..], text))
}

/// The plain form of a move that starts with a letter (`Nf3`, `exd5`, `e8=Q+`): its text names
/// a rank, and is followed by a byte that is neither a move byte nor one attached to a move
/// (no `e.p.`, no suffix annotation). Its length, which is [`san`]'s for it, with no suffix; `None`
/// for any other form (`O-O`, `Nf3!`, text at the end of the bytes...), which [`san`] reads.
/// The first byte is the caller's to check: a letter.
#[inline(always)]
pub(crate) fn plain_move(i: &[u8]) -> Option<usize> {
    let mut len = 1;
    let mut seen = 0;
    loop {
        let class = SAN_CLASS[*i.get(len)? as usize];
        if class & SAN_BYTE == 0 {
            return (class & SAN_ATTACHED == 0 && seen & SAN_DIGIT != 0).then_some(len);
        }
        seen |= class;
        len += 1;
    }
}

/// [`plain_move`] read from a window of the buffer that holds at least [`QUICK_SPAN`] bytes from
/// the move's first (the one-pass reader's quick tokens): the same answer for a move of up to
/// seven bytes, and `None` for a longer one, which [`plain_move`] reads. (Straight-line code:
/// the window's length is known, so no byte costs a bounds check.)
#[inline(always)]
pub(crate) fn short_plain_move<const N: usize>(w: &[u8; N]) -> Option<usize> {
    const { assert!(N >= QUICK_SPAN) };
    let mut seen = 0;
    for len in 1..8 {
        let class = SAN_CLASS[usize::from(w[len])];
        if class & SAN_BYTE == 0 {
            return (class & SAN_ATTACHED == 0 && seen & SAN_DIGIT != 0).then_some(len);
        }
        seen |= class;
    }
    None
}

/// A move, kept as text, with an optional suffix annotation: `Nbxd2+!?`, `exd6e.p.`, `0-0`.
/// The text is everything before the suffix.
#[inline(always)]
pub(crate) fn san(i: &[u8]) -> PResult<'_, (&[u8], Option<u8>)> {
    let (i, text) = match i.first() {
        Some(b'0') => castle_with_zeros(i)?,
        _ => move_letters(i)?,
    };
    // Most moves have no suffix: one byte test says so.
    match i.first() {
        Some(b'!' | b'?') => match glyph(i) {
            Ok((i, nag)) => Ok((i, (text, Some(nag)))),
            Err(_) => Ok((i, (text, None))),
        },
        _ => Ok((i, (text, None))),
    }
}

/// A null move: `--` or `Z0`.
pub(crate) fn null_move(i: &[u8]) -> PResult<'_, &[u8]> {
    let (rest, text) = alt((tag(&b"--"[..]), tag(&b"Z0"[..]))).parse(i)?;
    match rest.first() {
        Some(&b) if is_san_char(b) => Err(nom::Err::Error(())),
        _ => Ok((rest, text)),
    }
}

/// A numeric annotation glyph: `$14`. Returns the digits.
#[inline]
pub(crate) fn nag(i: &[u8]) -> PResult<'_, &[u8]> {
    preceded(tag(&b"$"[..]), take_while1(|b: u8| b.is_ascii_digit())).parse(i)
}

/// A game result followed by a delimiter or the end: `1-0`, `0-1`, `1/2-1/2` or `*`.
/// (Whether it may start after what comes before it is the caller's check: see
/// [`may_start_result`].)
#[inline]
pub(crate) fn result(i: &[u8]) -> PResult<'_, GameResult> {
    let (rest, r) = alt((
        value(GameResult::WhiteWins, tag(&b"1-0"[..])),
        value(GameResult::BlackWins, tag(&b"0-1"[..])),
        value(GameResult::Draw, tag(&b"1/2-1/2"[..])),
        value(GameResult::Unknown, tag(&b"*"[..])),
    ))
    .parse(i)?;
    match rest.first() {
        Some(&b) if !is_delim_after(b) => Err(nom::Err::Error(())),
        _ => Ok((rest, r)),
    }
}

/// The result token at `bytes[at]`, with its length, if one stands there: at the start or where
/// [`may_start_result`] allows, and followed by a delimiter or the end (see [`result`]). A quick
/// test comes first: a move number such as `12.` must not pay for the whole rule.
#[inline]
pub(crate) fn result_at(bytes: &[u8], at: usize) -> Option<(GameResult, usize)> {
    let rest = bytes.get(at..)?;
    let first = *rest.first()?;
    if first != b'*' && !matches!(rest.get(1), Some(b'-' | b'/')) {
        return None;
    }
    if at > 0 && !may_start_result(bytes[at - 1], first) {
        return None;
    }
    result(rest)
        .ok()
        .map(|(after, r)| (r, rest.len() - after.len()))
}

/// The value of a run of ASCII digits, or `None` if it does not fit in `T` (or is no number).
#[inline]
pub(crate) fn number<T: TryFrom<u64>>(digits: &[u8]) -> Option<T> {
    let mut n: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    T::try_from(n).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lex::skip_plain_space;

    type Out<'a, O> = Result<(&'a [u8], O), nom::Err<()>>;

    fn ok<O>(rest: &'static str, out: O) -> Out<'static, O> {
        Ok((rest.as_bytes(), out))
    }

    #[test]
    fn moves_are_ascii_whatever_surrounds_them() {
        // The one-pass reader relies on it: it hands moves out without checking their text.
        assert!(
            (0..=255u8)
                .filter(|&b| is_san_char(b))
                .all(|b| b.is_ascii())
        );
        for first in 0..=255u8 {
            for second in [b'4', 0xC3, 0xFF, b'-', b' '] {
                let input = [first, second, 0xA9, b'3', 0x80];
                if let Ok((_, (text, _))) = san(&input) {
                    assert!(text.is_ascii(), "{input:?} gave {text:?}");
                }
            }
        }
    }

    #[test]
    fn move_numbers() {
        assert_eq!(move_number(b"12. e4"), ok(" e4", (&b"12"[..], 1)));
        assert_eq!(move_number(b"12...Nf6"), ok("Nf6", (&b"12"[..], 3)));
        assert_eq!(move_number(b"12 ... Nf6"), ok(" Nf6", (&b"12"[..], 3)));
        assert_eq!(move_number(b"1. ... Ba5"), ok(" Ba5", (&b"1"[..], 4)));
        assert_eq!(move_number(b"7 e4"), ok(" e4", (&b"7"[..], 0)));
        assert_eq!(move_number(b"e4"), Err(nom::Err::Error(())));
        assert_eq!(dots(b"... e5"), ok(" e5", &b"..."[..]));
    }

    #[test]
    fn sans() {
        assert_eq!(san(b"Nf3 Nc6"), ok(" Nc6", (&b"Nf3"[..], None)));
        assert_eq!(san(b"e8=Q+!? x"), ok(" x", (&b"e8=Q+"[..], Some(5))));
        assert_eq!(san(b"e8Q#"), ok("", (&b"e8Q#"[..], None)));
        assert_eq!(san(b"exd6e.p. x"), ok(" x", (&b"exd6e.p."[..], None)));
        assert_eq!(san(b"O-O-O?!"), ok("", (&b"O-O-O"[..], Some(6))));
        assert_eq!(san(b"0-0+{c}"), ok("{c}", (&b"0-0+"[..], None)));
        assert_eq!(san(b"0-0-0 e4"), ok(" e4", (&b"0-0-0"[..], None)));
        assert_eq!(san(b"e2e4)"), ok(")", (&b"e2e4"[..], None)));
        assert_eq!(san(b"Ng1-f3??"), ok("", (&b"Ng1-f3"[..], Some(4))));
        assert_eq!(san(b"N@f3 "), ok(" ", (&b"N@f3"[..], None)));
        assert_eq!(san(b"Qxe7!!$1"), ok("$1", (&b"Qxe7"[..], Some(3))));
        assert_eq!(san(b"0-1"), Err(nom::Err::Error(())));
        assert_eq!(san(b"which e4"), Err(nom::Err::Error(())));
        assert_eq!(san(b"Sf3 e4"), ok(" e4", (&b"Sf3"[..], None)));
        assert_eq!(san(b"12."), Err(nom::Err::Error(())));
    }

    #[test]
    fn common_move_numbers_agree_with_the_general_rule() {
        let inputs: [&[u8]; 12] = [
            b"12. e4",
            b"1... e5",
            b"7.Nf3",
            b"12 ...",
            b"12. ... e5",
            b"999999999. a",
            b"1234567890. a",
            b"3",
            b"3 e4",
            b"45.\t.",
            b"9.)",
            b"1.\n2.",
        ];
        for i in inputs {
            let general = move_number(i).ok().and_then(|(rest, (digits, dots))| {
                Some((number::<u32>(digits)?, i.len() - rest.len(), dots))
            });
            if let Some(fast) = common_move_number(i) {
                assert_eq!(Some(fast), general, "{:?}", String::from_utf8_lossy(i));
            }
        }
        assert_eq!(common_move_number(b"12. e4"), Some((12, 3, 1)));
        assert_eq!(common_move_number(b"12. ... e5"), None);
    }

    /// Every string of up to `max` bytes from `alphabet`, for checking fast rules against the
    /// general ones.
    pub(crate) fn short_strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut all = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    alphabet.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn common_move_numbers_agree_with_the_general_rule_on_short_inputs() {
        let mut read = 0;
        let mut inputs = short_strings(b"09. \t\na", 6);
        inputs.extend([&b"123456789. e4"[..], b"1234567890. e4", b"12.. e4"].map(<[u8]>::to_vec));
        for i in inputs {
            let general = move_number(&i).ok().and_then(|(rest, (digits, dots))| {
                Some((number::<u32>(digits)?, i.len() - rest.len(), dots))
            });
            if let Some(fast) = common_move_number(&i) {
                assert_eq!(Some(fast), general, "{:?}", String::from_utf8_lossy(&i));
                read += 1;
            }
        }
        assert!(read > 5_000, "{read}");
        assert_eq!(
            common_move_number(b"123456789. e4"),
            Some((123_456_789, 10, 1))
        );
        assert_eq!(common_move_number(b"1234567890. e4"), None);
        assert_eq!(common_move_number(b"12.. e4"), Some((12, 4, 2)));
        assert_eq!(common_move_number(b"1. \t ... e5"), None);
    }

    /// `bytes` at the start of a window of the quick rules' size (longer ones cut), the rest of it
    /// `fill`.
    fn window(bytes: &[u8], fill: u8) -> [u8; 12] {
        let mut w = [fill; 12];
        let n = bytes.len().min(w.len());
        w[..n].copy_from_slice(&bytes[..n]);
        w
    }

    /// What fills a window after the bytes of a test: white space, dots, a move's bytes, digits.
    const FILLS: [u8; 6] = [b' ', b'.', b'a', b'\n', b'9', b'\t'];

    /// A move number read from a window is the common rule's, and the next token starts where the
    /// one-pass reader's white space would take it from there, whatever the window holds past
    /// what the rule reads; and it answers for the common forms.
    #[test]
    fn quick_move_numbers_agree_with_the_common_rule() {
        let mut read = 0;
        let mut inputs = short_strings(b"09. \t\na", 6);
        inputs.extend(
            [
                &b"1234. e4"[..],
                b"12345. e4",
                b"1... e5",
                b"1.... e5",
                b"12.Nf3",
                b"7. ... a6",
            ]
            .map(<[u8]>::to_vec),
        );
        for i in inputs {
            for fill in FILLS {
                let w = window(&i, fill);
                let Some((number, next, dots)) = quick_move_number(&w) else {
                    continue;
                };
                let common = common_move_number(&w);
                let (_, len, _) = common.expect("the common rule reads it");
                assert_eq!(common, Some((number, len, dots)), "{w:?}");
                let mut lines = 0;
                assert_eq!(skip_plain_space(&w, len, &mut lines), next, "{w:?}");
                assert!(next > len || !crate::lex::is_space(w[next]));
                read += 1;
            }
        }
        assert!(read > 20_000, "{read}");
        let quick = |bytes: &[u8]| quick_move_number(&window(bytes, b'x'));
        assert_eq!(quick(b"12.Nf3"), Some((12, 3, 1)));
        assert_eq!(quick(b"12. Nf3"), Some((12, 4, 1)));
        assert_eq!(quick(b"1... e5"), Some((1, 5, 3)));
        assert_eq!(quick(b"1234. e4"), Some((1234, 6, 1)));
        assert_eq!(quick(b"12345. e4"), None);
        assert_eq!(quick(b"1.... e5"), None);
        assert_eq!(quick(b"7. ... a6"), None);
        assert_eq!(quick(b"7.  a6"), None);
        assert_eq!(quick(b"7.\na6"), None);
    }

    /// A move read from a window is the plain rule's, whatever the window holds past it; and it
    /// answers for moves of up to seven bytes.
    #[test]
    fn short_plain_moves_agree_with_the_plain_rule() {
        let mut read = 0;
        let mut inputs = short_strings(b"eN4x=+.!? {\xc3O-", 4);
        inputs.extend(
            [
                &b"Nbxd2+ "[..],
                b"Qh4xe1+ ",
                b"Qh4xe1+# ",
                b"exd6e.p. ",
                b"e8=Q+!",
                b"Ng1-f3\n",
            ]
            .map(<[u8]>::to_vec),
        );
        for i in inputs {
            if !i.first().is_some_and(u8::is_ascii_alphabetic) {
                continue;
            }
            for fill in FILLS {
                let w = window(&i, fill);
                if let Some(len) = short_plain_move(&w) {
                    assert_eq!(plain_move(&w), Some(len), "{w:?}");
                    read += 1;
                }
            }
        }
        assert!(read > 4_000, "{read}");
        let quick = |bytes: &[u8]| short_plain_move(&window(bytes, b' '));
        assert_eq!(quick(b"Qh4xe1+"), Some(7));
        assert_eq!(quick(b"Qh4xe1+#"), None);
        assert_eq!(plain_move(&window(b"Qh4xe1+#", b' ')), Some(8));
        assert_eq!(quick(b"e4!"), None);
        assert_eq!(quick(b"O-O"), None);
    }

    /// The plain form of a move is what the general rule reads, with no suffix, wherever it
    /// answers; and it answers for the common moves.
    #[test]
    fn plain_moves_agree_with_the_general_rule() {
        let mut read = 0;
        let mut inputs = short_strings(b"eN4x=+.!? {\xc3O-", 5);
        inputs.extend(
            [
                &b"Nbd2 "[..],
                b"exd6e.p. ",
                b"e8=Q+!",
                b"O-O-O ",
                b"Qh4xe1)",
                b"e4",
            ]
            .map(<[u8]>::to_vec),
        );
        for i in inputs {
            if !i.first().is_some_and(u8::is_ascii_alphabetic) {
                continue;
            }
            if let Some(len) = plain_move(&i) {
                let general = san(&i)
                    .ok()
                    .map(|(rest, (text, suffix))| (text, suffix, rest));
                assert_eq!(
                    general,
                    Some((&i[..len], None, &i[len..])),
                    "{:?}",
                    String::from_utf8_lossy(&i)
                );
                read += 1;
            }
        }
        assert!(read > 1_000, "{read}");
        assert_eq!(plain_move(b"Nbd2 "), Some(4));
        assert_eq!(plain_move(b"e8=Q+{"), Some(5));
        assert_eq!(plain_move(b"e4"), None);
        assert_eq!(plain_move(b"e4!"), None);
        assert_eq!(plain_move(b"exd6e.p. "), None);
        assert_eq!(plain_move(b"O-O "), None);
    }

    #[test]
    fn the_move_scan_agrees_with_the_general_rule() {
        // The rule as written before the one-pass scan: characters, then a search for a digit.
        fn general(i: &[u8]) -> Option<usize> {
            if !i.first()?.is_ascii_alphabetic() {
                return None;
            }
            let mut len = 1 + i[1..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || b"=+#:-@".contains(&b))
                .count();
            if i[len - 1] == b'e' && i[len..].starts_with(b".p.") {
                len += 3;
            }
            let text = &i[..len];
            let move_like =
                text.iter().any(u8::is_ascii_digit) || text.starts_with(b"O-O") || text == b"e.p.";
            move_like.then_some(len)
        }
        let mut inputs = short_strings(b"eO4-.p!x ", 4);
        inputs.extend(
            [
                &b"exd6e.p. x"[..],
                b"e.p.",
                b"O-O-O+",
                b"Nbd2",
                b"which",
                b"e8=Q#!",
                b"\xe9e4",
            ]
            .map(<[u8]>::to_vec),
        );
        for i in inputs {
            let fast = move_letters(&i).ok().map(|(rest, _)| i.len() - rest.len());
            assert_eq!(fast, general(&i), "{:?}", String::from_utf8_lossy(&i));
        }
        for b in 0..=255u8 {
            let general = b.is_ascii_alphanumeric() || b"=+#:-@".contains(&b);
            assert_eq!(is_san_char(b), general, "{b}");
        }
    }

    #[test]
    fn glyphs_agree_with_the_general_rule() {
        fn general(i: &[u8]) -> PResult<'_, u8> {
            alt((
                value(3, tag(&b"!!"[..])),
                value(4, tag(&b"??"[..])),
                value(5, tag(&b"!?"[..])),
                value(6, tag(&b"?!"[..])),
                value(1, tag(&b"!"[..])),
                value(2, tag(&b"?"[..])),
            ))
            .parse(i)
        }
        for i in short_strings(b"!?x", 3) {
            assert_eq!(glyph(&i), general(&i), "{:?}", String::from_utf8_lossy(&i));
        }
    }

    #[test]
    fn glyphs_and_nags() {
        assert_eq!(glyph(b"! e4"), ok(" e4", 1));
        assert_eq!(glyph(b"?"), ok("", 2));
        assert_eq!(glyph(b"!!x"), ok("x", 3));
        assert_eq!(glyph(b"??"), ok("", 4));
        assert_eq!(nag(b"$14 e4"), ok(" e4", &b"14"[..]));
        assert_eq!(nag(b"$ 14"), Err(nom::Err::Error(())));
        assert_eq!(number::<u8>(b"255"), Some(255));
        assert_eq!(number::<u8>(b"256"), None);
        assert_eq!(number::<u32>(b"99999999999999999999999"), None);
        assert_eq!(number::<u32>(b"1a"), None);
    }

    #[test]
    fn null_moves() {
        assert_eq!(null_move(b"-- e4"), ok(" e4", &b"--"[..]));
        assert_eq!(null_move(b"Z0)"), ok(")", &b"Z0"[..]));
        assert_eq!(null_move(b"Z0x"), Err(nom::Err::Error(())));
        assert_eq!(san(b"e.p. x"), ok(" x", (&b"e.p."[..], None)));
        assert_eq!(en_passant_tail(b".p. x"), ok(" x", &b".p."[..]));
    }

    #[test]
    fn results() {
        assert_eq!(result(b"1-0\n"), ok("\n", GameResult::WhiteWins));
        assert_eq!(result(b"0-1"), ok("", GameResult::BlackWins));
        assert_eq!(result(b"1/2-1/2)"), ok(")", GameResult::Draw));
        assert_eq!(result(b"* {"), ok(" {", GameResult::Unknown));
        assert_eq!(result(b"1-0ff"), Err(nom::Err::Error(())));
        assert_eq!(result(b"0-0"), Err(nom::Err::Error(())));
    }

    #[test]
    fn results_glued_to_the_token_before_them() {
        // Issue 43, point 1: a `*` after anything; the others after a byte that ends a token.
        assert_eq!(result_at(b"e5*", 2), Some((GameResult::Unknown, 1)));
        assert_eq!(result_at(b"$1*", 2), Some((GameResult::Unknown, 1)));
        assert_eq!(result_at(b"e5+*", 3), Some((GameResult::Unknown, 1)));
        assert_eq!(result_at(b"Nc6!?1-0", 5), Some((GameResult::WhiteWins, 3)));
        assert_eq!(result_at(b"Nc6?0-1\n", 4), Some((GameResult::BlackWins, 3)));
        assert_eq!(result_at(b"]1/2-1/2", 1), Some((GameResult::Draw, 7)));
        // A digit may continue the token before it: no result there.
        assert_eq!(result_at(b"e51-0", 2), None);
        assert_eq!(result_at(b"x1-0", 1), None);
        assert_eq!(result_at(b"e5*x", 2), None);
    }
}
