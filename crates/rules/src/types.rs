//! The vocabulary of the rules core: colours, roles, pieces, squares and castling sides.
//!
//! Every type here is a small `Copy` value. Squares are numbered `0 = a1 … 63 = h8`, files and
//! ranks from 0.

use std::fmt;
use std::ops::Not;

/// A side: white or black.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Color {
    /// White, who moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Picks `white` or `black` by colour.
    #[inline]
    pub fn fold_wb<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// `true` for white.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The rank (0-based) this colour's pieces start on: 0 for white, 7 for black.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// The lowercase English name, `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, queen first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0 for pawn … 5 for king.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter: `p n b r q k`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter: `P N B R Q K`.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The role of a letter, either case (`'n'` or `'N'` is a knight).
    pub const fn from_char(c: char) -> Option<Role> {
        // A table lookup rather than a `match`: SAN reading asks once per piece move, and the
        // match compiled to an indirect jump that the branch predictor mostly missed.
        const BY_LETTER: [Option<Role>; 26] = {
            let mut table = [None; 26];
            let mut i = 0;
            while i < Role::ALL.len() {
                let role = Role::ALL[i];
                table[(role.char() as u8 - b'a') as usize] = Some(role);
                i += 1;
            }
            table
        };
        let lower = c.to_ascii_lowercase();
        if lower.is_ascii_lowercase() {
            BY_LETTER[(lower as u8 - b'a') as usize]
        } else {
            None
        }
    }

    /// The lowercase English name, `"knight"`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role of a colour.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind of piece.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for white, lowercase for black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

/// A square of the board, `0 = a1`, `1 = b1` … `63 = h8`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($i);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square of an index, taken modulo 64 (for indices known to be in range).
    #[inline]
    pub(crate) const fn from_index(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square on `file` and `rank` (both 0-based), if both are below 8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The index, 0–63. (Masked, though every square is below 64: then the compiler knows it,
    /// and drops the bounds check of every table looked up by square, the board's included.)
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (first) to 7 (eighth).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same file on another rank (`rank` taken modulo 8).
    #[inline]
    pub(crate) const fn with_rank(self, rank: u8) -> Square {
        Square(((rank & 7) << 3) | self.file())
    }

    /// The file letter, `'a'` to `'h'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'` to `'8'`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// Parses two bytes like `b"e4"`.
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::from_coords(*f - b'a', *r - b'1'),
            _ => None,
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = InvalidSquare;

    fn from_str(s: &str) -> Result<Square, InvalidSquare> {
        Square::from_ascii(s.as_bytes()).ok_or(InvalidSquare)
    }
}

/// The error of parsing a square name that is not `a1` … `h8`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct InvalidSquare;

impl fmt::Display for InvalidSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name")
    }
}

impl std::error::Error for InvalidSquare {}

/// The side of the board a castling move goes to.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O): the king ends on the g-file, the rook on the f-file.
    KingSide,
    /// Towards the a-file (O-O-O): the king ends on the c-file, the rook on the d-file.
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king lands on: g (6) or c (2).
    #[inline]
    pub const fn king_to_file(self) -> u8 {
        match self {
            CastlingSide::KingSide => 6,
            CastlingSide::QueenSide => 2,
        }
    }

    /// The file the rook lands on: f (5) or d (3).
    #[inline]
    pub const fn rook_to_file(self) -> u8 {
        match self {
            CastlingSide::KingSide => 5,
            CastlingSide::QueenSide => 3,
        }
    }

    /// The king's destination for `color`: g1, c1, g8 or c8.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square(color.back_rank() * 8 + self.king_to_file())
    }

    /// The rook's destination for `color`: f1, d1, f8 or d8.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square(color.back_rank() * 8 + self.rook_to_file())
    }

    /// The side of a rook relative to its king on the same rank.
    #[inline]
    pub const fn of_rook(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_letters() {
        for c in (0..=255u8).map(char::from).chain(['é', 'Ｎ']) {
            let expected = match c {
                'p' | 'P' => Some(Role::Pawn),
                'n' | 'N' => Some(Role::Knight),
                'b' | 'B' => Some(Role::Bishop),
                'r' | 'R' => Some(Role::Rook),
                'q' | 'Q' => Some(Role::Queen),
                'k' | 'K' => Some(Role::King),
                _ => None,
            };
            assert_eq!(Role::from_char(c), expected, "{c:?}");
        }
    }

    #[test]
    fn squares() {
        assert_eq!(Square::from_ascii(b"e4"), Some(Square::E4));
        assert_eq!(Square::from_ascii(b"i4"), None);
        assert_eq!(Square::from_ascii(b"e"), None);
        assert_eq!(Square::E4.to_string(), "e4");
        assert_eq!(Square::from_coords(7, 7), Some(Square::H8));
        assert_eq!(Square::from_coords(8, 0), None);
    }

    #[test]
    fn pieces() {
        let p = Piece::from_char('N');
        assert_eq!(
            p,
            Some(Piece {
                color: Color::White,
                role: Role::Knight
            })
        );
        assert_eq!(p.map(Piece::char), Some('N'));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(!Color::White, Color::Black);
    }
}
