//! A position's identity as the repetition rule sees it: placement, side to move, castling rights,
//! and the en passant square only when an en passant capture is legal (FIDE 9.2.3). Two positions
//! with the same `PositionKey` are the same position for `--position`, for the opening table
//! (`--eco`) and for a repetition; the move clocks do not count.
//!
//! Lookups go by the replay's Zobrist key ([`Position::zobrist`], which already counts the en
//! passant square only when the capture is legal), and a key that matches is then compared in
//! full, so that a Zobrist collision can never give a wrong match.
//!
//! Beside it: a position as `moves` reports it: its [`Status`] (checkmate, stalemate, ... ongoing),
//! its legal moves in the order of their SAN ([`sorted_moves`]) and each side's can-mate answer
//! ([`can_mate_each`]); and a position as a user names it, `startpos` or a FEN ([`named`]).
//!
//! The en passant rule is the one python-chess's `Board.epd()` follows by default, and the one
//! with which lichess's opening table was written: after `1. e4` there is no en passant square
//! (no black pawn can take), so `1. e4` reaches the same position as a FEN that gives none.

mod eco;
mod moves;
mod named;
mod status;

pub use eco::Opening;
pub(crate) use eco::{Classifier, MAX_PLIES};
pub use moves::{can_mate_each, sorted_moves};
pub use named::{Checks, named};
pub use status::Status;

use arbiter_rules::{Bitboard, Color, Position, Role};

/// The placement, side to move, castling rights and legal en passant square of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PositionKey {
    /// White's and Black's pieces.
    colors: [Bitboard; 2],
    /// Pawns, knights, bishops, rooks, queens, kings.
    roles: [Bitboard; 6],
    /// The rooks that may still castle.
    castling: Bitboard,
    /// The en passant square, when a capture there is legal (64 for none).
    ep: u8,
    /// The side to move.
    turn: Color,
}

impl PositionKey {
    /// The key of `pos`.
    pub fn of(pos: &Position) -> PositionKey {
        PositionKey {
            colors: [pos.by_color(Color::White), pos.by_color(Color::Black)],
            roles: Role::ALL.map(|role| pos.by_role(role)),
            castling: pos.castling_rooks(),
            ep: pos.legal_ep_square().map_or(64, |sq| sq.index() as u8),
            turn: pos.turn(),
        }
    }

    /// Whether `pos` is this position. Cheap when it is not (the placement differs in the first
    /// words compared).
    pub fn matches(&self, pos: &Position) -> bool {
        self.colors[0] == pos.by_color(Color::White)
            && self.colors[1] == pos.by_color(Color::Black)
            && self.turn == pos.turn()
            && *self == PositionKey::of(pos)
    }
}

/// Positions looked for on the main line (`--position`, repeatable): each with its Zobrist key,
/// so that a ply costs one comparison per position unless the key matches.
#[derive(Clone, Debug, Default)]
pub struct Targets {
    wanted: Vec<(u64, PositionKey)>,
}

impl Targets {
    /// The positions `positions`.
    pub fn new<'a>(positions: impl IntoIterator<Item = &'a Position>) -> Targets {
        Targets {
            wanted: positions
                .into_iter()
                .map(|pos| (pos.zobrist(), PositionKey::of(pos)))
                .collect(),
        }
    }

    /// Whether no position is looked for.
    pub fn is_empty(&self) -> bool {
        self.wanted.is_empty()
    }

    /// Whether `pos`, whose Zobrist key is `zobrist`, is one of the positions.
    #[inline]
    pub fn contains(&self, pos: &Position, zobrist: u64) -> bool {
        self.wanted
            .iter()
            .any(|(key, wanted)| *key == zobrist && wanted.matches(pos))
    }
}

#[cfg(test)]
mod tests {
    use arbiter_rules::san::San;

    use super::*;

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = San::from_ascii(text.as_bytes())
                .unwrap()
                .resolve(pos)
                .unwrap()
                .mv;
            pos.play_unchecked(mv);
        }
    }

    fn after(moves: &str) -> Position {
        let mut pos = Position::startpos();
        play(&mut pos, moves);
        pos
    }

    #[test]
    fn clocks_do_not_count_and_transpositions_do() {
        let a = after("e4 e5 Nf3 Nc6");
        let b = after("Nf3 Nc6 e4 e5");
        assert_ne!(a.halfmoves(), b.halfmoves());
        assert_eq!(PositionKey::of(&a), PositionKey::of(&b));
        assert!(PositionKey::of(&a).matches(&b));
        let fen = Position::from_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 17 40",
        )
        .unwrap();
        assert!(PositionKey::of(&fen).matches(&a));
    }

    #[test]
    fn side_to_move_and_castling_rights_count() {
        let white = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let black = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 1").unwrap();
        let no_right = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
        let key = PositionKey::of(&white);
        assert!(key.matches(&white));
        assert!(!key.matches(&black));
        assert!(!key.matches(&no_right));
    }

    #[test]
    fn the_en_passant_square_counts_only_when_the_capture_is_legal() {
        // After 1. e4 no black pawn can take: the same position as a FEN without the square.
        let played = after("e4");
        let plain =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        let with_square =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .unwrap();
        assert!(PositionKey::of(&plain).matches(&played));
        assert!(PositionKey::of(&with_square).matches(&played));
        // After 1. e4 d5 2. e5 f5 White may take en passant: the square counts.
        let ep = after("e4 d5 e5 f5");
        let same_placement_no_ep =
            Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
                .unwrap();
        assert!(!PositionKey::of(&same_placement_no_ep).matches(&ep));
        assert_ne!(same_placement_no_ep.zobrist(), ep.zobrist());
    }

    #[test]
    fn targets_find_a_position_by_its_key_and_check_it_in_full() {
        let wanted = after("d4 d5 c4");
        let targets = Targets::new([&wanted]);
        let mut pos = Position::startpos();
        let mut found = None;
        for (ply, text) in ["d4", "d5", "c4", "e6"].iter().enumerate() {
            play(&mut pos, text);
            if targets.contains(&pos, pos.zobrist()) {
                found.get_or_insert(ply + 1);
            }
        }
        assert_eq!(found, Some(3));
        // A key that collides but a position that differs is no match.
        let other = after("e4");
        assert!(!targets.contains(&other, wanted.zobrist()));
        assert!(Targets::default().is_empty());
    }
}
