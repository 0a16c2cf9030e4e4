//! FEN: whatever parses writes back to a FEN that parses to the same position and writes the same
//! text again; nothing panics.

#![no_main]

use arbiter::rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for parse in [Position::from_fen, Position::from_fen_lenient] {
        let Ok(pos) = parse(text) else {
            continue;
        };
        let fen = pos.to_fen();
        // A Chess960 position's FEN (X-FEN) reads back as Chess960.
        let again = if pos.is_chess960() {
            Position::from_fen_lenient_chess960(&fen)
        } else {
            parse(&fen)
        };
        let again = again.unwrap_or_else(|e| panic!("{fen:?} (from {text:?}) fails: {e}"));
        assert_eq!(again.to_fen(), fen, "from {text:?}");
        assert_eq!(again.zobrist(), pos.zobrist(), "{fen}");
        // The position is usable: its moves and status never panic.
        let moves = pos.legal_moves();
        let _ = (
            pos.is_checkmate(),
            pos.is_stalemate(),
            pos.is_insufficient_material(),
        );
        for mv in moves.iter() {
            let mut after = pos.clone();
            after.play_unchecked(*mv);
            let _ = after.to_fen();
        }
    }
});
