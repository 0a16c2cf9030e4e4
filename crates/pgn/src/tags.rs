//! The tag-pair rules: `[Name "value"]` on one line, its value quoted by the lexer's rule (with
//! `\"` and `\\` escapes: [`closing_quote`]), the same pair with its tokens on more than one line
//! ([`tag_pair_over_lines`]), and the quick forms the scanners take first (a tag start, the common
//! one-space pair, a whole tag line). Like [`super::grammar`], every rule is `complete` and returns
//! the rest of the input, but for [`tag_pair_over_lines`], which says when its bytes end too soon.

use super::grammar::PResult;
use super::lex::{
    MAX_TAG_LINE, closing_quote, has_line_end, is_tag_name_char, plain_value_end, skip_tag_blanks,
    skip_tag_space,
};

/// A tag pair's name and raw value (escapes still in).
pub(crate) type TagPair<'a> = (&'a [u8], &'a [u8]);

/// A tag pair: `[White "Kasparov, G."]` (spaces allowed inside the brackets). Hand-written on
/// [`tag_start`] (`[`, blanks, the name, blanks, the opening quote): it runs for every tag.
#[inline]
pub(crate) fn tag_pair(i: &[u8]) -> PResult<'_, TagPair<'_>> {
    let (rest, (pair, _)) = tag_pair_and_backslash(i)?;
    Ok((rest, pair))
}

/// [`tag_pair`], and whether the value holds a backslash (see [`super::lex::unescape`]).
#[inline]
pub(crate) fn tag_pair_and_backslash(i: &[u8]) -> PResult<'_, (TagPair<'_>, bool)> {
    let (value, name) = tag_start(i)?;
    let Some((k, backslash)) = closing_quote(value) else {
        return Err(nom::Err::Error(()));
    };
    let rest = &value[k + 1..];
    let blanks = skip_tag_blanks(rest, 0);
    match rest.get(blanks) {
        Some(b']') => Ok((&rest[blanks + 1..], ((name, &value[..k]), backslash))),
        _ => Err(nom::Err::Error(())),
    }
}

/// A tag pair whose tokens may stand on different lines. The PGN standard's import format
/// (section 8.1) lets white space, line ends included, separate the four tokens of a tag pair
/// (`[`, the name, the quoted value, `]`), while a string token never holds a line end (section
/// 7): `[Site` newline `"Here"]` and `[Site "Here"` newline `]` are pairs, `[Site "He` newline
/// `re"]` is none. The separators are spaces, tabs and line ends; the value and its escapes are
/// read as [`tag_pair_and_backslash`] reads them.
///
/// Such a pair is looked for only within the first [`MAX_TAG_LINE`] bytes of `i`, the look-ahead
/// with which the cutter ([`super::cut`]) must see all of it: a longer one is no pair. When `i`
/// is shorter than that and ends before the pair can be told, the answer is
/// `Err(nom::Err::Incomplete)`: more bytes tell (at the end of the input, it is no pair).
pub(crate) fn tag_pair_over_lines(i: &[u8]) -> PResult<'_, (TagPair<'_>, bool)> {
    let w = &i[..i.len().min(MAX_TAG_LINE)];
    let ended = || match w.len() < MAX_TAG_LINE {
        true => Err(nom::Err::Incomplete(nom::Needed::Unknown)),
        false => Err(nom::Err::Error(())),
    };
    if w.first() != Some(&b'[') {
        return Err(nom::Err::Error(()));
    }
    let name_start = skip_tag_space(w, 1);
    let mut name_end = name_start;
    while w.get(name_end).is_some_and(|&b| is_tag_name_char(b)) {
        name_end += 1;
    }
    let quote = skip_tag_space(w, name_end);
    if quote == w.len() {
        return ended();
    }
    if name_end == name_start || w[quote] != b'"' {
        return Err(nom::Err::Error(()));
    }
    let value = &w[quote + 1..];
    let Some((k, backslash)) = closing_quote(value) else {
        // Cut short by a line end (no pair), or by the end of the bytes.
        return match has_line_end(value) {
            true => Err(nom::Err::Error(())),
            false => ended(),
        };
    };
    let close = skip_tag_space(value, k + 1);
    match value.get(close) {
        None => ended(),
        Some(b']') => {
            let rest = &i[quote + 1 + close + 1..];
            Ok((rest, ((&w[name_start..name_end], &value[..k]), backslash)))
        }
        Some(_) => Err(nom::Err::Error(())),
    }
}

/// The common tag pair `[Name "value"]` (one space, no backslash in the value) at the start of
/// `i`, a `[`, read without the general rule: `Some((name_end, value_end))`, the name being
/// `i[1..name_end]`, the raw value `i[name_end + 2..value_end]` and the pair ending at
/// `value_end + 2`, as [`tag_pair_and_backslash`] gives it. `None` for any other form.
/// `each_name_byte` sees the bytes of the name (the one-pass reader hashes them on the way).
#[inline(always)]
pub(crate) fn simple_tag_pair(
    i: &[u8],
    mut each_name_byte: impl FnMut(u8),
) -> Option<(usize, usize)> {
    let mut k = 1;
    // Nearly every name is shorter than the window: read from it, without bounds checks.
    if let Some(w) = i.first_chunk::<NAME_WINDOW>() {
        while k < NAME_WINDOW && is_tag_name_char(w[k]) {
            each_name_byte(w[k]);
            k += 1;
        }
    }
    // A longer name, or a pair at the end of the bytes.
    if k == 1 || k == NAME_WINDOW {
        while let Some(&b) = i.get(k)
            && is_tag_name_char(b)
        {
            each_name_byte(b);
            k += 1;
        }
    }
    if k == 1 || i.get(k) != Some(&b' ') || i.get(k + 1) != Some(&b'"') {
        return None;
    }
    let value = k + 2;
    let close = value + plain_value_end(&i[value..]);
    if i.get(close) != Some(&b'"') || i.get(close + 1) != Some(&b']') {
        return None;
    }
    Some((k, close))
}

/// The bytes of a tag pair's start that [`simple_tag_pair`] reads its name from at once: the `[`
/// and a name of up to 15 bytes (`WhiteRatingDiff`).
const NAME_WINDOW: usize = 16;

/// The start of a tag pair as the splitter recognises one, `[Name "`; returns the name.
/// (Hand-written with index loops: the splitter and the parser call it for every tag.)
#[inline]
pub(crate) fn tag_start(i: &[u8]) -> PResult<'_, &[u8]> {
    let blanks = |at: usize| skip_tag_blanks(i, at);
    if i.first() != Some(&b'[') {
        return Err(nom::Err::Error(()));
    }
    let name_start = blanks(1);
    let mut name_end = name_start;
    while i.get(name_end).is_some_and(|&b| is_tag_name_char(b)) {
        name_end += 1;
    }
    let quote = blanks(name_end);
    if name_end == name_start || i.get(quote) != Some(&b'"') {
        return Err(nom::Err::Error(()));
    }
    Ok((&i[quote + 1..], &i[name_start..name_end]))
}

/// A whole line that is one tag pair and nothing else: `[Event "Rated Blitz game"]   ` up to the
/// line end (not consumed) or the end of input.
pub(crate) fn tag_line(i: &[u8]) -> PResult<'_, (&[u8], &[u8])> {
    let (i, pair) = tag_pair(i)?;
    let i = &i[skip_tag_blanks(i, 0)..];
    match i.first() {
        None | Some(b'\n' | b'\r') => Ok((i, pair)),
        Some(_) => Err(nom::Err::Error(())),
    }
}

#[cfg(test)]
mod tests {
    use nom::Parser;
    use nom::bytes::complete::{tag, take_while, take_while1};

    use super::*;
    use crate::grammar::tests::short_strings;
    use crate::lex::is_tag_blank;

    type Out<'a, O> = Result<(&'a [u8], O), nom::Err<()>>;

    fn ok<O>(rest: &'static str, out: O) -> Out<'static, O> {
        Ok((rest.as_bytes(), out))
    }

    /// A quoted tag value with `\"` and `\\` escapes, on one line: `"Kasparov, \"Gazza\""`.
    /// Returns the raw text between the quotes (escapes still in).
    fn tag_value(i: &[u8]) -> PResult<'_, &[u8]> {
        let (i, _) = tag(&b"\""[..]).parse(i)?;
        match closing_quote(i) {
            Some((k, _)) => Ok((&i[k + 1..], &i[..k])),
            None => Err(nom::Err::Error(())),
        }
    }

    #[test]
    fn the_simple_tag_rule_agrees_with_the_general_one() {
        let cases: [&[u8]; 14] = [
            b"[Event \"Rated Blitz game\"]\n",
            b"[White \"Kasparov, G.\"]",
            b"[A \"\"]",
            b"[Result \"1-0\"] [B \"x\"]",
            b"[Event  \"two spaces\"]",
            b"[Event\t\"tab\"]",
            b"[ Event \"blank first\"]",
            b"[Event \"escaped \\\" quote\"]",
            b"[Event \"back\\slash\"]",
            b"[Event \"no close]\n",
            b"[Event \"x\" ]",
            b"[Event \"x\"",
            b"[Ev\xc3\xa9nt \"x\"]",
            b"[Site \"R\xc3\xa9ti\"]",
        ];
        // Names of every length about the window's, whole or cut by a byte of no name, at the
        // end of the bytes or not.
        let mut cases = cases.map(<[u8]>::to_vec).to_vec();
        for len in 1..=20 {
            let name: Vec<u8> = (0..len).map(|k| b"Wh1_te+#=:-"[k % 11]).collect();
            for end in [&b"\"x\"]"[..], b"\"x\"] [A \"bbbbbbbbbbbbbbbbbbb\"]"] {
                let mut case = [&b"["[..], &name, b" ", end].concat();
                cases.push(case.clone());
                case[len.min(5)] = b'.';
                cases.push(case);
            }
        }
        let mut simple = 0;
        for case in &cases {
            let case = &case[..];
            let mut name_bytes = Vec::new();
            let Some((name_end, value_end)) = simple_tag_pair(case, |b| name_bytes.push(b)) else {
                continue;
            };
            simple += 1;
            let (rest, ((name, value), backslash)) =
                tag_pair_and_backslash(case).expect("the general rule reads it too");
            assert_eq!(name, &case[1..name_end], "{case:?}");
            assert_eq!(name_bytes, name);
            assert_eq!(value, &case[name_end + 2..value_end], "{case:?}");
            assert!(!backslash);
            assert_eq!(rest, &case[value_end + 2..], "{case:?}");
        }
        assert_eq!(simple, 5 + 20 * 2);
    }

    #[test]
    fn tag_pairs() {
        assert_eq!(
            tag_pair(b"[White \"Kasparov, G.\"] x"),
            ok(" x", (&b"White"[..], &b"Kasparov, G."[..]))
        );
        assert_eq!(
            tag_pair(br#"[ Event   "a \"b\" \\ [c]" ][Site "x"]"#),
            ok(r#"[Site "x"]"#, (&b"Event"[..], &br#"a \"b\" \\ [c]"#[..]))
        );
        assert_eq!(tag_pair(b"[Event \"x\"\n"), Err(nom::Err::Error(())));
        assert_eq!(tag_pair(b"[Event \"x\n\"]"), Err(nom::Err::Error(())));
        assert_eq!(tag_pair(b"[Event x]"), Err(nom::Err::Error(())));
        assert_eq!(
            tag_pair(br#"[kj90trkm"sdfsdf"yl]"#),
            Err(nom::Err::Error(()))
        );
    }

    #[test]
    fn tag_pairs_over_lines() {
        let pair = |i: &'static [u8]| tag_pair_over_lines(i).map(|(rest, (p, b))| (rest, p, b));
        let site = (&b"Site"[..], &b"Here"[..]);
        for case in [
            &b"[Site\n\"Here\"] x"[..],
            b"[Site \"Here\"\n] x",
            b"[\nSite\n\n\"Here\"\n] x",
            b"[ Site\r\n\t\"Here\"\r\n] x",
            b"[Site\r\"Here\"\r] x",
            b"[Site \"Here\"] x",
        ] {
            assert_eq!(pair(case), Ok((&b" x"[..], site, false)), "{case:?}");
        }
        assert_eq!(
            pair(b"[Site\n\"a \\\"b\\\"\"]"),
            Ok((&b""[..], (&b"Site"[..], &br#"a \"b\""#[..]), true))
        );
        // A string holds no line end; other tokens stand between the four; bytes that end first.
        let error = Err(nom::Err::Error(()));
        let incomplete = Err(nom::Err::Incomplete(nom::Needed::Unknown));
        for case in [
            &b"[Site \"He\nre\"]"[..],
            b"[Site\n; c\n\"x\"]",
            b"[Site\n\"x\" y]",
            b"[\n\"x\"]",
            b"[%clk\n\"x\"]",
            b"x[Site \"x\"]",
        ] {
            assert_eq!(pair(case), error, "{case:?}");
        }
        for case in [&b"["[..], b"[Site\n", b"[Site\n\"He", b"[Site\n\"Here\"\n"] {
            assert_eq!(pair(case), incomplete, "{case:?}");
        }
        // At most MAX_TAG_LINE bytes: past them, no pair whatever follows.
        let spaced = |n: usize| [&b"[Site"[..], &vec![b'\n'; n], b"\"Here\"]"].concat();
        let fits = spaced(MAX_TAG_LINE - 12);
        assert_eq!(fits.len(), MAX_TAG_LINE);
        let over = |i: &[u8]| tag_pair_over_lines(i).map(|_| ());
        assert_eq!(over(&fits), Ok(()));
        assert_eq!(over(&spaced(MAX_TAG_LINE - 11)), Err(nom::Err::Error(())));
        assert_eq!(
            over(&fits[..MAX_TAG_LINE - 1]),
            Err(nom::Err::Incomplete(nom::Needed::Unknown))
        );
        // Every single-line pair is one over lines too.
        for case in [&b"[Event \"x\"]"[..], b"[ A\t\"\\\\\" ]", b"[B \"\"]"] {
            assert_eq!(
                tag_pair_over_lines(case),
                tag_pair_and_backslash(case),
                "{case:?}"
            );
        }
    }

    #[test]
    fn tag_values_and_escapes() {
        assert_eq!(tag_value(br#""" x"#), ok(" x", &b""[..]));
        assert_eq!(tag_value(br#""a\\" b"#), ok(" b", &br"a\\"[..]));
    }

    #[test]
    fn tag_starts_and_lines() {
        assert_eq!(tag_start(b"[Event \"x\"]"), ok("x\"]", &b"Event"[..]));
        assert_eq!(tag_start(b"[%clk 0:01]"), Err(nom::Err::Error(())));
        assert_eq!(tag_start(b"[ A\t \"x"), ok("x", &b"A"[..]));
        assert_eq!(tag_start(b"[ \"x"), Err(nom::Err::Error(())));
        assert_eq!(tag_start(b"[A"), Err(nom::Err::Error(())));
        assert_eq!(
            tag_line(b"[Event \"x\"]  \r\n1."),
            ok("\r\n1.", (&b"Event"[..], &b"x"[..]))
        );
        assert_eq!(tag_line(b"[Event \"x\"] e4"), Err(nom::Err::Error(())));
    }

    #[test]
    fn tag_starts_agree_with_the_general_rule() {
        fn general(i: &[u8]) -> PResult<'_, &[u8]> {
            let blanks = |i| take_while(is_tag_blank).parse(i);
            let (i, _) = tag(&b"["[..]).parse(i)?;
            let (i, _) = blanks(i)?;
            let (i, name) = take_while1(is_tag_name_char).parse(i)?;
            let (i, _) = blanks(i)?;
            let (i, _) = tag(&b"\""[..]).parse(i)?;
            Ok((i, name))
        }
        let mut inputs = short_strings(b"[E \"\t]", 5);
        inputs.extend(
            [
                &b"[Event \"x\"]"[..],
                b"[ White\t \"",
                b"[\"",
                b"[E-1_+#=:\"v",
            ]
            .map(<[u8]>::to_vec),
        );
        for i in inputs {
            assert_eq!(
                tag_start(&i),
                general(&i),
                "{:?}",
                String::from_utf8_lossy(&i)
            );
        }
    }

    #[test]
    fn tag_values_with_a_backslash_are_flagged() {
        for (input, flagged) in [
            (&br#"[A "plain"]"#[..], false),
            (br#"[A "a \"b\""]"#, true),
            (br#"[A "c:\\x"]"#, true),
            (br#"[A "c:\x"]"#, true),
            (br#"[A "\"]"]"#, true),
        ] {
            let (rest, (pair, backslash)) = tag_pair_and_backslash(input).expect("a tag pair");
            assert_eq!(Ok((rest, pair)), tag_pair(input));
            assert_eq!(backslash, flagged, "{:?}", String::from_utf8_lossy(input));
            let value = std::str::from_utf8(pair.1).expect("ASCII");
            assert_eq!(backslash, value.contains('\\'));
        }
    }
}
