//! The standard forms of SAN, read without the grammar: nearly every move of a real game is one
//! of them, and reading it takes a few byte tests instead of the grammar's alternatives. Anything
//! else goes to the grammar ([`super::parse`]), which gives the same answer for these forms (a
//! test here checks it, exhaustively over short tokens).

use super::{NONE, San, Shape, Written};
use crate::{CastlingSide, Role, Square};

/// The standard forms that make up nearly every real game, read without the grammar: castling
/// `O-O`/`O-O-O`, a piece move `Nf3`, `Nxf3`, `Nbd2`, `N1xf3`, `Nbxd2`, a pawn move `e4`, `exd5`,
/// `e8=Q`, `exd8=Q`, each with an optional single `+` or `#`. Anything else (`None`) goes to the
/// grammar, which gives the same answer for these forms (a test checks it) and reads the rest.
///
/// One match on the shape of the token (its length and where its `x` and `=` stand), then a
/// test per byte of that shape. Always inlined into [`parse::san`](super::parse): the replay's
/// path for nearly every move.
#[inline(always)]
pub(super) fn standard(text: &[u8]) -> Option<San> {
    let (body, marks) = match *text {
        [ref body @ .., b'+'] => (body, 1),
        [ref body @ .., b'#'] => (body, 2),
        ref body => (body, 0),
    };
    let piece = |b: u8| PIECE_LETTER[usize::from(b)];
    let file = |b: u8| (b.wrapping_sub(b'a') < 8).then(|| b - b'a');
    let rank = |b: u8| (b.wrapping_sub(b'1') < 8).then(|| b - b'1');
    let square = |f: u8, r: u8| Some(Square::from_index(rank(r)? * 8 + file(f)?));
    let promotion = |q: u8| PROMOTION_LETTER[usize::from(q)];
    let mut san = match *body {
        [f, r] => San::pawn(None, square(f, r)?, None),
        [b'O', b'-', b'O'] => San::castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => San::castle(CastlingSide::QueenSide),
        [p, f, r] => San::piece(piece(p)?, NONE, NONE, square(f, r)?),
        [a, b'x', f, r] => match piece(a) {
            Some(role) => San::piece(role, NONE, NONE, square(f, r)?),
            None => San::pawn(Some(file(a)?), square(f, r)?, None),
        }
        .with_written(Written::CAPTURE_MARK),
        [f, r, b'=', q] => San::pawn(None, square(f, r)?, Some(promotion(q)?)),
        [p, d, f, r] => {
            let (from_file, from_rank) = origin(d)?;
            San::piece(piece(p)?, from_file, from_rank, square(f, r)?)
        }
        [p, d, b'x', f, r] => {
            let (from_file, from_rank) = origin(d)?;
            San::piece(piece(p)?, from_file, from_rank, square(f, r)?)
                .with_written(Written::CAPTURE_MARK)
        }
        [a, b'x', f, r, b'=', q] => San::pawn(Some(file(a)?), square(f, r)?, Some(promotion(q)?))
            .with_written(Written::CAPTURE_MARK),
        _ => return None,
    };
    san.marks = marks;
    Some(san)
}

/// A piece move's origin written as one byte: a file or a rank.
#[inline(always)]
fn origin(d: u8) -> Option<(u8, u8)> {
    if d.wrapping_sub(b'a') < 8 {
        Some((d - b'a', NONE))
    } else if d.wrapping_sub(b'1') < 8 {
        Some((NONE, d - b'1'))
    } else {
        None
    }
}

impl San {
    /// A piece move (not a pawn's) read by the fast path.
    #[inline(always)]
    const fn piece(role: Role, from_file: u8, from_rank: u8, to: Square) -> San {
        San {
            shape: Shape::Normal,
            role: Some(role),
            from_file,
            from_rank,
            to,
            promotion: None,
            marks: 0,
            written: Written::EMPTY,
        }
    }

    /// A pawn move read by the fast path: a capture names the file it leaves.
    #[inline(always)]
    const fn pawn(from_file: Option<u8>, to: Square, promotion: Option<Role>) -> San {
        San {
            shape: Shape::Normal,
            role: None,
            from_file: match from_file {
                Some(f) => f,
                None => NONE,
            },
            from_rank: NONE,
            to,
            promotion,
            marks: 0,
            written: Written::EMPTY,
        }
    }
}

/// The piece letters of standard SAN, by byte (`P` is not one: the grammar reads it).
const PIECE_LETTER: [Option<Role>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some(Role::Knight);
    table[b'B' as usize] = Some(Role::Bishop);
    table[b'R' as usize] = Some(Role::Rook);
    table[b'Q' as usize] = Some(Role::Queen);
    table[b'K' as usize] = Some(Role::King);
    table
};

/// The promotion letters of standard SAN, by byte.
const PROMOTION_LETTER: [Option<Role>; 256] = {
    let mut table = PIECE_LETTER;
    table[b'K' as usize] = None;
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::ParseSanError;

    /// Every token the fast path reads, and tokens close to them, read the same through the
    /// grammar alone.
    #[test]
    fn fast_path_agrees_with_the_grammar() {
        let grammar = |text: &[u8]| -> Result<San, ParseSanError> {
            super::super::parse::grammar(text).ok_or(ParseSanError::Invalid)
        };
        let pieces = ["", "N", "B", "R", "Q", "K", "P", "n", "x"];
        let froms = [
            "", "a", "e", "h", "i", "1", "8", "9", "x", "e2", "h8", "e9", "0", "-", "=",
        ];
        let seps = ["", "x", "-", "xx"];
        let tos = ["e4", "a1", "h8", "d8", "c1", "i4", "e9", "e", "4", "", "O"];
        let promos = ["", "=Q", "=R", "=B", "=N", "=K", "=q", "Q", "=", "(Q)"];
        let suffixes = ["", "+", "#", "++", "+#", "!", "x", "-O"];
        let mut checked = 0;
        let mut fast_hits = 0;
        for piece in pieces {
            for from in froms {
                for sep in seps {
                    for to in tos {
                        for promo in promos {
                            for suffix in suffixes {
                                let text = format!("{piece}{from}{sep}{to}{promo}{suffix}");
                                let bytes = text.as_bytes();
                                checked += 1;
                                if let Some(got) = standard(bytes) {
                                    fast_hits += 1;
                                    assert_eq!(Ok(got), grammar(bytes), "{text}");
                                }
                            }
                        }
                    }
                }
            }
        }
        for text in [
            "O-O", "O-O-O", "O-O+", "O-O-O#", "O-O#", "O-", "O-O-", "O", "OO",
        ] {
            if let Some(got) = standard(text.as_bytes()) {
                fast_hits += 1;
                assert_eq!(Ok(got), grammar(text.as_bytes()), "{text}");
            }
        }
        assert!(
            checked > 100_000 && fast_hits > 1_000,
            "{checked} {fast_hits}"
        );
        // Every standard form is read here (the replay's speed depends on it).
        for text in [
            "e4", "Nf3", "exd5", "Nxf3", "Nbd2", "R1e2", "Nbxd2", "R1xe2", "e8=Q", "exd8=N", "O-O",
            "O-O-O", "e4+", "Qxf7#", "O-O+",
        ] {
            assert!(standard(text.as_bytes()).is_some(), "{text}");
        }
        // Exhaustively over short tokens of the move alphabet.
        let alphabet = b"aeh18NKxO-=Q+#";
        let mut text = Vec::new();
        for len in 1..=5u32 {
            for mut n in 0..alphabet.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                if let Some(got) = standard(&text) {
                    assert_eq!(
                        Ok(got),
                        grammar(&text),
                        "{}",
                        String::from_utf8_lossy(&text)
                    );
                }
            }
        }
    }
}
