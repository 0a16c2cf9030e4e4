//! The SAN grammar, built bottom-up with nom: one small function per rule, each over the bytes of
//! a single move token.

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, one_of, satisfy};
use nom::combinator::{eof, map, map_opt, opt, value};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use super::error::ParseSanError;
use super::{Glyph, San, Suffix, Written, fast};
use crate::{CastlingSide, Role, Square};

type In<'a> = &'a [u8];

/// The longest token worth trying: `Qh4-e1=Q e.p.++?!` is 17 bytes.
const MAX_LEN: usize = 24;

/// Parses one whole move token. Always inlined: the replay calls it once per move, and as a
/// call (once the table of openings and the PGN writer called it too) it cost 2% of an export.
#[inline(always)]
pub(super) fn san(text: In<'_>) -> Result<San, ParseSanError> {
    if text.is_empty() {
        return Err(ParseSanError::Empty);
    }
    if text.len() > MAX_LEN {
        return Err(ParseSanError::TooLong);
    }
    if let Some(san) = fast::standard(text) {
        return Ok(san);
    }
    grammar(text).ok_or_else(|| match text.iter().position(|b| !is_san_byte(*b)) {
        Some(at) => ParseSanError::UnexpectedChar {
            byte: text[at],
            at: at as u8,
        },
        None => ParseSanError::Invalid,
    })
}

/// The whole token through the nom grammar: a move, then an optional check suffix and glyph.
pub(super) fn grammar(text: In<'_>) -> Option<San> {
    let (_, (san, suffix, glyph, _)) = (body, opt(suffix), opt(glyph), eof).parse(text).ok()?;
    let (suffix, double) = match suffix {
        Some((s, d)) => (Some(s), d),
        None => (None, Written::EMPTY),
    };
    Some(
        san.with_suffix(suffix)
            .with_glyph(glyph)
            .with_written(san.written() | double),
    )
}

/// The bytes that can appear in some accepted move.
fn is_san_byte(b: u8) -> bool {
    matches!(b,
        b'a'..=b'h' | b'1'..=b'8' | b'0' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'P' | b'O' | b'Z'
        | b'n' | b'r' | b'q' | b'k' | b'p'
        | b'x' | b'-' | b'=' | b'/' | b'(' | b')' | b'.' | b' ' | b'+' | b'#' | b'!' | b'?' | b'@')
}

/// The move without its suffix and glyph: a null move, castling or a normal move.
fn body(i: In<'_>) -> IResult<In<'_>, San> {
    alt((null, castle, normal)).parse(i)
}

/// `--`, `Z0`, `0000`, `@@@@`.
fn null(i: In<'_>) -> IResult<In<'_>, San> {
    value(
        San::null(),
        alt((tag("--"), tag("Z0"), tag("0000"), tag("@@@@"))),
    )
    .parse(i)
}

/// `O-O-O`, `O-O`, `0-0-0`, `0-0`.
fn castle(i: In<'_>) -> IResult<In<'_>, San> {
    let long = San::castle(CastlingSide::QueenSide);
    let short = San::castle(CastlingSide::KingSide);
    alt((
        value(long, tag("O-O-O")),
        value(short, tag("O-O")),
        value(long.with_written(Written::ZEROS), tag("0-0-0")),
        value(short.with_written(Written::ZEROS), tag("0-0")),
    ))
    .parse(i)
}

/// `e4`, `Nbd2`, `Qh4xe1`, `e8=Q`, `exd6 e.p.`, `Ng1-f3` …: a piece letter, the origin and
/// destination, then a promotion (pawns only) and an en passant mark.
fn normal(i: In<'_>) -> IResult<In<'_>, San> {
    let (i, piece) = opt(piece_letter).parse(i)?;
    let (i, (file, rank, written, to)) = squares(i)?;
    let may_promote = matches!(piece, None | Some(Role::Pawn));
    let (i, promo) = if may_promote {
        opt(promotion).parse(i)?
    } else {
        (i, None)
    };
    let (i, ep) = opt(en_passant).parse(i)?;
    let mut written = written;
    if piece == Some(Role::Pawn) {
        written |= Written::PAWN_LETTER;
    }
    let promotion = promo.map(|(role, w)| {
        written |= w;
        role
    });
    if ep.is_some() {
        written |= Written::EN_PASSANT_MARK;
    }
    let san = San::normal(piece, file, rank, to, promotion).with_written(written);
    Ok((i, san))
}

/// `N`, `B`, `R`, `Q`, `K`, and `P` (an explicit pawn).
fn piece_letter(i: In<'_>) -> IResult<In<'_>, Role> {
    map_opt(one_of("NBRQKP"), Role::from_char).parse(i)
}

/// The origin (none, a file, a rank or a square), a separator, and the destination:
/// `e4`, `xd5`, `bd2`, `bxd2`, `1e2`, `h4xe1`, `g1-f3`, `e2e4`.
#[allow(clippy::type_complexity)]
fn squares(i: In<'_>) -> IResult<In<'_>, (Option<u8>, Option<u8>, Written, Square)> {
    alt((
        map((square, separator, square), |(from, sep, to)| {
            (Some(from.file()), Some(from.rank()), sep, to)
        }),
        map((file, capture_mark, square), |(f, sep, to)| {
            (Some(f), None, sep, to)
        }),
        map((rank, capture_mark, square), |(r, sep, to)| {
            (None, Some(r), sep, to)
        }),
        map((capture_mark, square), |(sep, to)| (None, None, sep, to)),
    ))
    .parse(i)
}

/// Between two squares: nothing, `x` or `-`.
fn separator(i: In<'_>) -> IResult<In<'_>, Written> {
    alt((value(Written::HYPHEN, char('-')), capture_mark)).parse(i)
}

/// An optional `x`.
fn capture_mark(i: In<'_>) -> IResult<In<'_>, Written> {
    map(opt(char('x')), |x| {
        if x.is_some() {
            Written::CAPTURE_MARK
        } else {
            Written::EMPTY
        }
    })
    .parse(i)
}

/// `a` to `h`, as 0 to 7.
fn file(i: In<'_>) -> IResult<In<'_>, u8> {
    map(satisfy(|c| ('a'..='h').contains(&c)), |c| c as u8 - b'a').parse(i)
}

/// `1` to `8`, as 0 to 7.
fn rank(i: In<'_>) -> IResult<In<'_>, u8> {
    map(satisfy(|c| ('1'..='8').contains(&c)), |c| c as u8 - b'1').parse(i)
}

/// `e4`.
fn square(i: In<'_>) -> IResult<In<'_>, Square> {
    map_opt((file, rank), |(f, r)| Square::from_coords(f, r)).parse(i)
}

/// `=Q`, `Q`, `(Q)`, `/Q`, in either case (a king or pawn is read here and refused later).
fn promotion(i: In<'_>) -> IResult<In<'_>, (Role, Written)> {
    let (i, (role, how)) = alt((
        map(preceded(char('='), promotion_letter), |r| {
            (r, Written::EMPTY)
        }),
        map(
            alt((
                preceded(char('/'), promotion_letter),
                delimited(char('('), promotion_letter, char(')')),
                promotion_letter,
            )),
            |r| (r, Written::PROMOTION_WITHOUT_EQUALS),
        ),
    ))
    .parse(i)?;
    Ok((i, (role.0, how | role.1)))
}

/// A promotion letter, either case: `Q`, `q`, …
fn promotion_letter(i: In<'_>) -> IResult<In<'_>, (Role, Written)> {
    map_opt(one_of("QRBNKPqrbnkp"), |c: char| {
        let how = if c.is_ascii_lowercase() {
            Written::LOWERCASE_PROMOTION
        } else {
            Written::EMPTY
        };
        Role::from_char(c).map(|role| (role, how))
    })
    .parse(i)
}

/// `e.p.`, with or without a space before it.
fn en_passant(i: In<'_>) -> IResult<In<'_>, ()> {
    value((), preceded(opt(char(' ')), tag("e.p."))).parse(i)
}

/// `+`, `++`, `#`.
fn suffix(i: In<'_>) -> IResult<In<'_>, (Suffix, Written)> {
    alt((
        value((Suffix::Check, Written::DOUBLE_PLUS), tag("++")),
        value((Suffix::Check, Written::EMPTY), tag("+")),
        value((Suffix::Checkmate, Written::EMPTY), tag("#")),
    ))
    .parse(i)
}

/// `!!`, `??`, `!?`, `?!`, `!`, `?`.
fn glyph(i: In<'_>) -> IResult<In<'_>, Glyph> {
    alt((
        value(Glyph::Brilliant, tag("!!")),
        value(Glyph::Blunder, tag("??")),
        value(Glyph::Interesting, tag("!?")),
        value(Glyph::Dubious, tag("?!")),
        value(Glyph::Good, tag("!")),
        value(Glyph::Mistake, tag("?")),
    ))
    .parse(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square as S;

    const N: Option<Role> = Some(Role::Knight);
    const W: Written = Written::EMPTY;
    const X: Written = Written::CAPTURE_MARK;

    fn parse(text: &str) -> San {
        match text.parse::<San>() {
            Ok(san) => san,
            Err(err) => panic!("{text}: {err}"),
        }
    }

    fn normal(
        role: Option<Role>,
        file: Option<u8>,
        rank: Option<u8>,
        to: Square,
        promotion: Option<Role>,
        written: Written,
    ) -> San {
        San::normal(role, file, rank, to, promotion).with_written(written)
    }

    #[test]
    fn size_is_pinned() {
        assert_eq!(std::mem::size_of::<San>(), 8);
    }

    #[test]
    fn standard_forms() {
        let cases = [
            ("e4", normal(None, None, None, S::E4, None, W)),
            ("exd5", normal(None, Some(4), None, S::D5, None, X)),
            ("Nbd2", normal(N, Some(1), None, S::D2, None, W)),
            ("Nbxd2", normal(N, Some(1), None, S::D2, None, X)),
            (
                "R1e2",
                normal(Some(Role::Rook), None, Some(0), S::E2, None, W),
            ),
            (
                "R1xe2",
                normal(Some(Role::Rook), None, Some(0), S::E2, None, X),
            ),
            (
                "Qh4xe1",
                normal(Some(Role::Queen), Some(7), Some(3), S::E1, None, X),
            ),
            (
                "Qh4e1",
                normal(Some(Role::Queen), Some(7), Some(3), S::E1, None, W),
            ),
            (
                "e8=Q",
                normal(None, None, None, S::E8, Some(Role::Queen), W),
            ),
            (
                "dxc1=N",
                normal(None, Some(3), None, S::C1, Some(Role::Knight), X),
            ),
            ("Kxf2", normal(Some(Role::King), None, None, S::F2, None, X)),
            ("O-O", San::castle(CastlingSide::KingSide)),
            ("O-O-O", San::castle(CastlingSide::QueenSide)),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), want, "{text}");
            assert_eq!(parse(text).to_string(), text);
        }
    }

    #[test]
    fn lenient_forms() {
        let z = Written::ZEROS;
        let h = Written::HYPHEN;
        let q = Some(Role::Queen);
        let no_eq = Written::PROMOTION_WITHOUT_EQUALS;
        let cases = [
            ("0-0", San::castle(CastlingSide::KingSide).with_written(z)),
            (
                "0-0-0",
                San::castle(CastlingSide::QueenSide).with_written(z),
            ),
            ("ed5", normal(None, Some(4), None, S::D5, None, W)),
            ("xd5", normal(None, None, None, S::D5, None, X)),
            ("Nxf3", normal(N, None, None, S::F3, None, X)),
            ("Ng1f3", normal(N, Some(6), Some(0), S::F3, None, W)),
            ("Ngf3", normal(N, Some(6), None, S::F3, None, W)),
            ("e2e4", normal(None, Some(4), Some(1), S::E4, None, W)),
            ("g1f3", normal(None, Some(6), Some(0), S::F3, None, W)),
            ("e2-e4", normal(None, Some(4), Some(1), S::E4, None, h)),
            ("Ng1-f3", normal(N, Some(6), Some(0), S::F3, None, h)),
            ("Ng1xf3", normal(N, Some(6), Some(0), S::F3, None, X)),
            ("e8Q", normal(None, None, None, S::E8, q, no_eq)),
            ("e8(Q)", normal(None, None, None, S::E8, q, no_eq)),
            ("e8/Q", normal(None, None, None, S::E8, q, no_eq)),
            (
                "e8=q",
                normal(None, None, None, S::E8, q, Written::LOWERCASE_PROMOTION),
            ),
            (
                "e7e8q",
                normal(
                    None,
                    Some(4),
                    Some(6),
                    S::E8,
                    q,
                    no_eq | Written::LOWERCASE_PROMOTION,
                ),
            ),
            (
                "exd6 e.p.",
                normal(
                    None,
                    Some(4),
                    None,
                    S::D6,
                    None,
                    X | Written::EN_PASSANT_MARK,
                ),
            ),
            (
                "exd6e.p.",
                normal(
                    None,
                    Some(4),
                    None,
                    S::D6,
                    None,
                    X | Written::EN_PASSANT_MARK,
                ),
            ),
            (
                "Pe4",
                normal(
                    Some(Role::Pawn),
                    None,
                    None,
                    S::E4,
                    None,
                    Written::PAWN_LETTER,
                ),
            ),
            ("e8=K", normal(None, None, None, S::E8, Some(Role::King), W)),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), want, "{text}");
        }
    }

    #[test]
    fn suffixes_and_glyphs() {
        let e4 = normal(None, None, None, S::E4, None, W);
        let check = Some(Suffix::Check);
        let cases = [
            ("e4+", e4.with_suffix(check)),
            ("e4#", e4.with_suffix(Some(Suffix::Checkmate))),
            (
                "e4++",
                e4.with_suffix(check).with_written(Written::DOUBLE_PLUS),
            ),
            ("e4!", e4.with_glyph(Some(Glyph::Good))),
            ("e4?", e4.with_glyph(Some(Glyph::Mistake))),
            ("e4!!", e4.with_glyph(Some(Glyph::Brilliant))),
            ("e4??", e4.with_glyph(Some(Glyph::Blunder))),
            ("e4!?", e4.with_glyph(Some(Glyph::Interesting))),
            ("e4?!", e4.with_glyph(Some(Glyph::Dubious))),
            (
                "e4+?!",
                e4.with_suffix(check).with_glyph(Some(Glyph::Dubious)),
            ),
            (
                "O-O-O#!!",
                San::castle(CastlingSide::QueenSide)
                    .with_suffix(Some(Suffix::Checkmate))
                    .with_glyph(Some(Glyph::Brilliant)),
            ),
        ];
        for (text, want) in cases {
            let san = parse(text);
            assert_eq!(san, want, "{text}");
            assert_eq!(san.to_string(), text);
        }
        assert_eq!(parse("e4?!").glyph(), Some(Glyph::Dubious));
        assert_eq!(parse("e4#").suffix().map(Suffix::as_str), Some("#"));
    }

    #[test]
    fn null_moves() {
        for text in ["--", "Z0", "0000", "@@@@", "--+"] {
            let san = parse(text);
            assert!(san.is_null(), "{text}");
            assert_eq!(san.castling_side(), None);
        }
        assert_eq!(parse("--").to_string(), "--");
    }

    #[test]
    fn accessors() {
        let san = parse("Qh4xe1+");
        assert_eq!(san.role(), Some(Role::Queen));
        assert_eq!(san.from_file(), Some(7));
        assert_eq!(san.from_rank(), Some(3));
        assert_eq!(san.from_square(), Some(S::H4));
        assert_eq!(san.to(), S::E1);
        assert!(san.is_capture());
        assert_eq!(san.promotion(), None);
        assert_eq!(san.suffix(), Some(Suffix::Check));
        assert_eq!(san.written(), Written::CAPTURE_MARK);
        assert_eq!(parse("O-O").castling_side(), Some(CastlingSide::KingSide));
        assert!(!parse("O-O").is_null());
        assert_eq!(parse("Nbd2").from_square(), None);
    }

    #[test]
    fn rejected() {
        let cases = [
            ("", ParseSanError::Empty),
            ("e9", ParseSanError::UnexpectedChar { byte: b'9', at: 1 }),
            ("i4", ParseSanError::UnexpectedChar { byte: b'i', at: 0 }),
            ("Ke4 ", ParseSanError::Invalid),
            ("e4+#", ParseSanError::Invalid),
            ("Nf3=Q", ParseSanError::Invalid),
            ("e8=", ParseSanError::Invalid),
            ("e8(Q", ParseSanError::Invalid),
            ("N", ParseSanError::Invalid),
            ("e", ParseSanError::Invalid),
            ("exd", ParseSanError::Invalid),
            ("O-O-", ParseSanError::Invalid),
            ("O-0", ParseSanError::Invalid),
            ("nf3", ParseSanError::Invalid),
            ("Ng1--f3", ParseSanError::Invalid),
            ("e4!!!", ParseSanError::Invalid),
            ("e4 e5", ParseSanError::Invalid),
            ("1-0", ParseSanError::Invalid),
            ("Nf3$1", ParseSanError::UnexpectedChar { byte: b'$', at: 3 }),
            ("é4", ParseSanError::UnexpectedChar { byte: 0xc3, at: 0 }),
            ("Qh4xe1=Q e.p.++?!xxxxxxxxxx", ParseSanError::TooLong),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<San>(), Err(want), "{text}");
        }
        assert_eq!(ParseSanError::Empty.to_string(), "empty move");
        assert_eq!(ParseSanError::TooLong.to_string(), "too long to be a move");
        assert_eq!(
            ParseSanError::UnexpectedChar { byte: b'$', at: 3 }.to_string(),
            "unexpected character '$' at position 4"
        );
        assert_eq!(
            ParseSanError::UnexpectedChar { byte: 0xc3, at: 0 }.to_string(),
            "unexpected byte 0xc3 at position 1"
        );
        assert_eq!(
            ParseSanError::Invalid.to_string(),
            "not a move in algebraic notation"
        );
    }

    #[test]
    fn never_panics_on_bytes() {
        for a in 0..=255u8 {
            for b in [b'e', b'4', b'x', b'=', b'-', b'0', a] {
                let _ = San::from_ascii(&[a, b, b'4', a]);
                let _ = San::from_ascii(&[b'N', a, b]);
            }
        }
    }
}
