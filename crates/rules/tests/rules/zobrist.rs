//! Zobrist keys: the en passant square counts only when a capture is legal, castling rights
//! and turn count, transpositions meet, and the incremental key matches a fresh one.

use arbiter_rules::Position;

fn key(fen: &str) -> u64 {
    Position::from_fen(fen)
        .unwrap_or_else(|err| panic!("{fen}: {err}"))
        .zobrist()
}

fn play(uci: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for text in uci {
        let mv = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|mv| mv.to_uci(false).to_string() == *text)
            .unwrap_or_else(|| panic!("{text} not legal in {}", pos.to_fen()));
        pos.play_unchecked(mv);
    }
    pos
}

#[test]
fn pointless_en_passant_square_does_not_count() {
    assert_eq!(
        key("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2"),
        key("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2")
    );
    // A capturing pawn that is pinned: still no legal capture.
    assert_eq!(
        key("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2"),
        key("4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2")
    );
}

#[test]
fn legal_en_passant_counts() {
    assert_ne!(
        key("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
        key("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
    );
}

#[test]
fn castling_rights_and_turn_count() {
    let full = key("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_ne!(full, key("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"));
    assert_ne!(full, key("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"));
    assert_ne!(full, key("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"));
    // Clocks do not count.
    assert_eq!(full, key("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30"));
}

#[test]
fn transpositions_meet() {
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.zobrist(), b.zobrist());
    // 1.e4 e5 (ep d-file irrelevant) vs 1.e3 e6 2.e4 e5.
    let a = play(&["e2e4", "e7e5"]);
    let b = play(&["e2e3", "e7e6", "e3e4", "e6e5"]);
    assert_eq!(a.zobrist(), b.zobrist());
    // Knights out and back: same as the start, but the side to move differs after 3 plies.
    let a = play(&["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(a.zobrist(), Position::startpos().zobrist());
    let c = play(&["g1f3", "g8f6", "f3g1"]);
    assert_ne!(c.zobrist(), Position::startpos().zobrist());
    // Rook out and back loses castling rights.
    let d = play(&[
        "g1f3", "g8f6", "h1g1", "f6g8", "g1h1", "g8f6", "f3g1", "f6g8",
    ]);
    assert_ne!(d.zobrist(), Position::startpos().zobrist());
}

#[test]
fn incremental_key_matches_fresh_key() {
    // A fixed pseudo-random walk from a few starting points; checks each ply.
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for start in starts {
        for _ in 0..20 {
            let mut pos = Position::from_fen(start).expect("start");
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
                let fresh = if pos.is_chess960() {
                    Position::from_fen_chess960(&pos.to_fen())
                } else {
                    Position::from_fen(&pos.to_fen())
                };
                let fresh = fresh.expect("own fen");
                assert_eq!(pos.zobrist(), fresh.zobrist(), "{}", pos.to_fen());
            }
        }
    }
}
