//! The position seen from the other side: colours swapped and ranks turned over. A helpmate of
//! one is a helpmate of the other, move for move with the squares turned over; the searches
//! walk the two in different orders (their moves come in the order of the squares, and the
//! guides break ties by it), so a line one of them misses the other may find at once.

use crate::moves::Move;
use crate::position::Position;
use crate::types::Square;

/// `pos` with the colours swapped and the ranks turned over (`None` if the turned FEN does not
/// read back, which a position read from a FEN always does).
pub(crate) fn mirrored(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut fields = fen.split(' ');
    let board = fields.next()?;
    let turn = match fields.next()? {
        "w" => "b",
        _ => "w",
    };
    // White's rights first, as a FEN writes them.
    let mut castling: Vec<char> = swap_case(fields.next()?).chars().collect();
    castling.sort_by_key(|c| c.is_ascii_lowercase());
    let castling: String = castling.into_iter().collect();
    let ep = match fields.next()? {
        "-" => "-".to_string(),
        sq => sq.replace('3', "x").replace('6', "3").replace('x', "6"),
    };
    let rest: Vec<&str> = fields.collect();
    let board: Vec<String> = board.split('/').rev().map(swap_case).collect();
    let text = format!(
        "{} {turn} {castling} {ep} {}",
        board.join("/"),
        rest.join(" ")
    );
    let turned = if pos.is_chess960() {
        Position::from_fen_lenient_chess960(&text)
    } else {
        Position::from_fen_lenient(&text)
    };
    turned.ok()
}

/// The line of the mirrored position played from `pos`: each move the legal move of `pos`
/// (and of the positions after it) with the squares turned over; `None` if one has none.
pub(crate) fn line_back(pos: &Position, line: &[Move]) -> Option<Vec<Move>> {
    let mut at = pos.clone();
    let mut back = Vec::with_capacity(line.len());
    for &mv in line {
        let (from, to) = (turned(mv.from()), turned(mv.to()));
        let found = at
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == mv.promotion())?;
        at.play_unchecked(found);
        back.push(found);
    }
    Some(back)
}

/// The square on the same file, the rank turned over.
fn turned(sq: Square) -> Square {
    Square::from_coords(sq.file(), 7 - sq.rank()).unwrap_or(sq)
}

fn swap_case(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirror_swaps_colours_and_ranks() {
        let pos = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").unwrap();
        let turned = mirrored(&pos).unwrap();
        assert_eq!(turned.to_fen(), "r3k2r/8/8/8/3Pp3/8/8/R3K2R b KQkq d3 0 1");
        assert_eq!(mirrored(&turned).unwrap().to_fen(), pos.to_fen());
    }

    /// Every legal move of the mirror maps back to a legal move of the position.
    #[test]
    fn moves_map_back() {
        let pos = Position::from_fen("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1").unwrap();
        let turned = mirrored(&pos).unwrap();
        let moves = turned.legal_moves();
        assert_eq!(moves.iter().count(), pos.legal_moves().iter().count());
        for &mv in moves.iter() {
            let back = line_back(&pos, &[mv]).unwrap();
            assert_eq!(back.len(), 1);
        }
    }
}
