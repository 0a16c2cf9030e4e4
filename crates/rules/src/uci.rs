//! UCI move text (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling, `0000`) to a legal move.
//!
//! Writing is [`Move::to_uci`]. Reading accepts both castling encodings in every position: the
//! king to its destination (`e1g1`, standard UCI) and the king onto its rook (`e1h1`, Chess960
//! UCI).

use std::fmt;
use std::str::FromStr;

use crate::{CastlingSide, Move, Position, Role, Square};

/// A parsed UCI move, not yet checked against a position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Uci {
    /// A move from one square to another, with an optional promotion.
    Normal {
        /// Origin.
        from: Square,
        /// Destination (the rook's square for king-onto-rook castling).
        to: Square,
        /// Promotion piece.
        promotion: Option<Role>,
    },
    /// `0000`, the null move.
    Null,
}

/// Text that is not a UCI move, or a UCI move that is not legal in the position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum UciError {
    /// Not of the form `e2e4`, `e7e8q` or `0000`.
    Syntax,
    /// `0000` where a move is needed.
    Null,
    /// No piece of the side to move on the origin square.
    NoPiece {
        /// The move.
        uci: Uci,
    },
    /// The piece there cannot make this move.
    Illegal {
        /// The move.
        uci: Uci,
    },
}

impl Uci {
    /// Parses `e2e4`, `e7e8q` (the promotion letter in either case) or `0000`.
    pub fn from_ascii(text: &[u8]) -> Result<Uci, UciError> {
        match text {
            b"0000" => Ok(Uci::Null),
            [a, b, c, d, rest @ ..] if rest.len() <= 1 => {
                let from = Square::from_ascii(&[*a, *b]).ok_or(UciError::Syntax)?;
                let to = Square::from_ascii(&[*c, *d]).ok_or(UciError::Syntax)?;
                let promotion = match rest {
                    [] => None,
                    [p] => match Role::from_char(char::from(*p)) {
                        Some(role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                            Some(role)
                        }
                        _ => return Err(UciError::Syntax),
                    },
                    _ => return Err(UciError::Syntax),
                };
                Ok(Uci::Normal {
                    from,
                    to,
                    promotion,
                })
            }
            _ => Err(UciError::Syntax),
        }
    }

    /// The legal move this names in `pos`.
    pub fn to_move(self, pos: &Position) -> Result<Move, UciError> {
        let Uci::Normal {
            from,
            to,
            promotion,
        } = self
        else {
            return Err(UciError::Null);
        };
        let Some(piece) = pos.piece_at(from).filter(|p| p.color == pos.turn()) else {
            return Err(UciError::NoPiece { uci: self });
        };
        let found = pos
            .legal_moves_to(piece.role, to)
            .iter()
            .copied()
            .find(|mv| mv.from() == from && mv.promotion() == promotion && !mv.is_castle());
        if let Some(mv) = found {
            return Ok(mv);
        }
        if piece.role == Role::King && promotion.is_none() {
            let castle = CastlingSide::ALL
                .iter()
                .filter_map(|&side| pos.castling_move(side))
                .find(|mv| mv.from() == from && (mv.to() == to || mv.castling_rook() == Some(to)));
            if let Some(mv) = castle {
                return Ok(mv);
            }
        }
        Err(UciError::Illegal { uci: self })
    }
}

impl FromStr for Uci {
    type Err = UciError;

    fn from_str(s: &str) -> Result<Uci, UciError> {
        Uci::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Uci::Null => f.write_str("0000"),
            Uci::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciError::Syntax => f.write_str("not a move in UCI notation (like e2e4 or e7e8q)"),
            UciError::Null => f.write_str("0000: a null move is not a legal move"),
            UciError::NoPiece {
                uci: uci @ Uci::Normal { from, .. },
            } => {
                write!(f, "{uci}: there is no piece of the side to move on {from}")
            }
            UciError::NoPiece { uci } | UciError::Illegal { uci } => {
                write!(f, "{uci}: not a legal move in this position")
            }
        }
    }
}

impl std::error::Error for UciError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci_move(fen: &str, text: &str) -> Result<Move, UciError> {
        let pos = Position::from_fen(fen).map_err(|_| UciError::Syntax)?;
        text.parse::<Uci>()?.to_move(&pos)
    }

    #[test]
    fn parses() {
        assert_eq!(
            "e7e8q".parse(),
            Ok(Uci::Normal {
                from: Square::E7,
                to: Square::E8,
                promotion: Some(Role::Queen)
            })
        );
        assert_eq!("0000".parse(), Ok(Uci::Null));
        for bad in ["", "e2", "e2e9", "e7e8k", "e7e8qq", "i2e4", "e2e4 "] {
            assert_eq!(bad.parse::<Uci>(), Err(UciError::Syntax), "{bad}");
        }
        assert_eq!(Uci::Null.to_string(), "0000");
        assert_eq!(
            "e7e8n".parse::<Uci>().map(|u| u.to_string()),
            Ok("e7e8n".into())
        );
    }

    #[test]
    fn resolves() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mv = uci_move(start, "g1f3").map(|m| (m.from(), m.to(), m.role()));
        assert_eq!(mv, Ok((Square::G1, Square::F3, Role::Knight)));
        assert!(matches!(
            uci_move(start, "e2e5"),
            Err(UciError::Illegal { .. })
        ));
        assert!(matches!(
            uci_move(start, "e7e5"),
            Err(UciError::NoPiece { .. })
        ));
        assert_eq!(uci_move(start, "0000"), Err(UciError::Null));
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for text in ["e1g1", "e1h1"] {
            let mv = uci_move(castle, text);
            assert_eq!(
                mv.map(|m| m.castling_side()),
                Ok(Some(CastlingSide::KingSide))
            );
        }
        for text in ["e1c1", "e1a1"] {
            let mv = uci_move(castle, text);
            assert_eq!(
                mv.map(|m| m.castling_side()),
                Ok(Some(CastlingSide::QueenSide))
            );
        }
        let promo = uci_move("8/4P3/8/8/8/8/8/k6K w - - 0 1", "e7e8r");
        assert_eq!(promo.map(|m| m.promotion()), Ok(Some(Role::Rook)));
        assert_eq!(
            UciError::NoPiece {
                uci: Uci::Normal {
                    from: Square::E7,
                    to: Square::E5,
                    promotion: None
                }
            }
            .to_string(),
            "e7e5: there is no piece of the side to move on e7"
        );
    }
}
