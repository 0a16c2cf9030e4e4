//! Two small flag sets: how a move was written ([`Written`], from the reader) and which
//! non-standard forms a resolved move used ([`Leniency`], from the resolver).

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

macro_rules! flag_set {
    (
        $(#[$meta:meta])*
        $name:ident($bits:ty) {
            $( $(#[$fmeta:meta])* $flag:ident = $bit:expr, $text:expr; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
        pub struct $name($bits);

        impl $name {
            /// No flag.
            pub const EMPTY: $name = $name(0);
            $( $(#[$fmeta])* pub const $flag: $name = $name(1 << $bit); )*
            const ALL: &'static [($name, &'static str, &'static str)] =
                &[$( ($name::$flag, stringify!($flag), $text) ),*];

            /// The raw bits.
            pub const fn bits(self) -> $bits {
                self.0
            }

            /// Whether no flag is set.
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether every flag of `other` is set in `self`.
            pub const fn contains(self, other: $name) -> bool {
                self.0 & other.0 == other.0
            }

            /// `self` with the flags of `other` added.
            pub const fn union(self, other: $name) -> $name {
                $name(self.0 | other.0)
            }

            /// `self` with the flags of `other` removed.
            pub const fn difference(self, other: $name) -> $name {
                $name(self.0 & !other.0)
            }

            /// Each set flag on its own, in declaration order.
            pub fn iter(self) -> impl Iterator<Item = $name> {
                $name::ALL
                    .iter()
                    .map(|&(flag, _, _)| flag)
                    .filter(move |&flag| self.contains(flag))
            }

            /// What the (single) flag means, in plain words; `""` for none or several flags.
            pub fn describe(self) -> &'static str {
                $name::ALL
                    .iter()
                    .find(|&&(flag, _, _)| flag == self)
                    .map_or("", |&(_, _, text)| text)
            }
        }

        impl BitOr for $name {
            type Output = $name;

            fn bitor(self, other: $name) -> $name {
                self.union(other)
            }
        }

        impl BitOrAssign for $name {
            fn bitor_assign(&mut self, other: $name) {
                *self = self.union(other);
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), "("))?;
                let mut first = true;
                for &(flag, name, _) in $name::ALL {
                    if self.contains(flag) {
                        if !first {
                            f.write_str(" | ")?;
                        }
                        f.write_str(name)?;
                        first = false;
                    }
                }
                f.write_str(")")
            }
        }
    };
}

flag_set! {
    /// How a move was written: what the reader saw besides the move itself.
    Written(u8) {
        /// A capture mark `x` was written.
        CAPTURE_MARK = 0, "a capture mark";
        /// Castling was written with zeros: `0-0`, `0-0-0`.
        ZEROS = 1, "castling with zeros";
        /// A hyphen between the two squares: `e2-e4`.
        HYPHEN = 2, "a hyphen between the squares";
        /// The promotion piece was not introduced by `=`: `e8Q`, `e8(Q)`, `e8/Q`.
        PROMOTION_WITHOUT_EQUALS = 3, "promotion without =";
        /// The promotion letter was lowercase: `e8=q`.
        LOWERCASE_PROMOTION = 4, "a lowercase promotion letter";
        /// An en passant mark followed the move: `exd6 e.p.`.
        EN_PASSANT_MARK = 5, "an e.p. mark";
        /// Check was written `++`.
        DOUBLE_PLUS = 6, "check written ++";
        /// A pawn move carried the letter `P`.
        PAWN_LETTER = 7, "a pawn letter";
    }
}

flag_set! {
    /// The non-standard forms a resolved move used. `validate` warns about each; `--strict`
    /// refuses them. [`Leniency::describe`] says what each flag means, in words that follow
    /// "`MOVE`: " in a warning, and [`Leniency::warning`] writes the whole message.
    Leniency(u16) {
        /// Castling written with zeros: `0-0` for `O-O`.
        CASTLING_WITH_ZEROS = 0, "castling is written with zeros";
        /// Castling written as a king move: `e1g1`, `Ke1g1`, or the king taking its rook (`e1h1`).
        CASTLING_AS_KING_MOVE = 1, "castling is written as a king move";
        /// The origin square was given in full although not needed: `e2e4`, `Ng1f3`, `e2-e4`.
        LONG_ALGEBRAIC = 2, "the move is in long algebraic notation";
        /// The origin was named more precisely, or otherwise, than needed: `Ngf3`, `R1e2` for `Rae2`.
        OVER_DISAMBIGUATED = 3, "the moving piece is named more precisely than needed";
        /// A pawn capture without its origin file: `xd5` for `cxd5` (`d5` is a push, never a
        /// capture).
        PAWN_CAPTURE_WITHOUT_FILE = 4, "a pawn capture must name the pawn's file";
        /// A capture without the capture mark: `Nf3` for `Nxf3`.
        MISSING_CAPTURE_MARK = 5, "the capture mark x is missing";
        /// A capture mark on a move that captures nothing: `Nxf3` for `Nf3`.
        SUPERFLUOUS_CAPTURE_MARK = 6, "there is a capture mark x but nothing is captured";
        /// Promotion not written with `=`: `e8Q`, `e8(Q)`, `e8/Q`.
        PROMOTION_WITHOUT_EQUALS = 7, "the promotion is not written with =";
        /// A lowercase promotion letter: `e8=q`.
        LOWERCASE_PROMOTION = 8, "the promotion piece is written in lowercase";
        /// An en passant mark: `exd6 e.p.`.
        EN_PASSANT_MARK = 9, "the e.p. mark is not part of standard notation";
        /// A pawn letter: `Pe4`.
        PAWN_LETTER = 10, "pawn moves take no letter";
        /// Check written `++`.
        DOUBLE_PLUS = 11, "check is written ++";
        /// A hyphen between the squares of an otherwise standard move: `Qh4-e1` where both
        /// squares are needed.
        HYPHEN = 12, "the squares are joined by a hyphen";
    }
}

impl Leniency {
    /// The warning for one flag: `"{text}: {what}; the standard form is {canonical}"`, e.g.
    /// `0-0: castling is written with zeros; the standard form is O-O`.
    pub fn warning<'a>(self, text: &'a str, canonical: &'a str) -> impl fmt::Display + 'a {
        Warning {
            text,
            what: self.describe(),
            canonical,
        }
    }
}

/// See [`Leniency::warning`].
struct Warning<'a> {
    text: &'a str,
    what: &'static str,
    canonical: &'a str,
}

impl fmt::Display for Warning<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}; the standard form is {}",
            self.text, self.what, self.canonical
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets() {
        let set = Leniency::LONG_ALGEBRAIC | Leniency::MISSING_CAPTURE_MARK;
        assert!(set.contains(Leniency::LONG_ALGEBRAIC));
        assert!(!set.contains(Leniency::HYPHEN));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Leniency::LONG_ALGEBRAIC, Leniency::MISSING_CAPTURE_MARK]
        );
        assert_eq!(
            format!("{set:?}"),
            "Leniency(LONG_ALGEBRAIC | MISSING_CAPTURE_MARK)"
        );
        assert_eq!(set.describe(), "");
        assert_eq!(
            set.difference(Leniency::LONG_ALGEBRAIC),
            Leniency::MISSING_CAPTURE_MARK
        );
        assert!(Written::EMPTY.is_empty());
        assert_eq!(Written::ZEROS.bits(), 2);
    }

    #[test]
    fn warning_text() {
        assert_eq!(
            Leniency::CASTLING_WITH_ZEROS
                .warning("0-0", "O-O")
                .to_string(),
            "0-0: castling is written with zeros; the standard form is O-O"
        );
    }
}
