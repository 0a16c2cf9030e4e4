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
/// Read from the end: the suffix, a pawn's promotion, the destination square, then what stands
/// before it (a piece letter, an origin file or rank, a capture mark), with one test per part.
/// Always inlined into [`parse::san`](super::parse): the replay's path for nearly every move.
#[inline(always)]
pub(super) fn standard(text: &[u8]) -> Option<San> {
    let marks = match *text.last()? {
        b'+' => 1,
        b'#' => 2,
        _ => 0,
    };
    let body = &text[..text.len() - usize::from(marks != 0)];
    if text[0] == b'O' {
        let side = match body {
            b"O-O" => CastlingSide::KingSide,
            b"O-O-O" => CastlingSide::QueenSide,
            _ => return None,
        };
        let mut san = San::castle(side);
        san.marks = marks;
        return Some(san);
    }
    let (role, rest) = match PIECE_LETTER[usize::from(text[0])] {
        Some(role) => (Some(role), &body[1..]),
        None => (None, body),
    };
    // A pawn's promotion `=Q` (a piece has none: the grammar refuses it).
    let (rest, promotion) = match *rest {
        [ref rest @ .., b'=', letter] if role.is_none() => {
            (rest, Some(PROMOTION_LETTER[usize::from(letter)]?))
        }
        ref rest => (rest, None),
    };
    let [ref origin @ .., to_file, to_rank] = *rest else {
        return None;
    };
    let (to_file, to_rank) = (to_file.wrapping_sub(b'a'), to_rank.wrapping_sub(b'1'));
    if to_file > 7 || to_rank > 7 {
        return None;
    }
    let (origin, written) = match *origin {
        [ref origin @ .., b'x'] => (origin, Written::CAPTURE_MARK),
        ref origin => (origin, Written::EMPTY),
    };
    let (from_file, from_rank) = match *origin {
        [] => (NONE, NONE),
        [d] => {
            let (file, rank) = (d.wrapping_sub(b'a'), d.wrapping_sub(b'1'));
            match role {
                // A pawn capture names the file it leaves; a pawn push names nothing.
                None if file < 8 && written == Written::CAPTURE_MARK => (file, NONE),
                Some(_) if file < 8 => (file, NONE),
                Some(_) if rank < 8 => (NONE, rank),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(San {
        shape: Shape::Normal,
        role,
        from_file,
        from_rank,
        to: Square::from_index(to_rank * 8 + to_file),
        promotion,
        marks,
        written,
    })
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
