//! SAN: in positions reached by fuzzed play (from a FEN in the input, or from a few seeds), every
//! legal move's SAN parses and resolves, strictly, back to that move; and any text the fuzzer
//! writes as a move resolves only to a legal move.

#![no_main]

use arbiter::rules::{Position, San, san};
use libfuzzer_sys::fuzz_target;

const SEEDS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "1N2k3/8/8/3N4/8/8/2N1N3/R3K2R w KQ - 0 1",
];

fn check_all(pos: &Position) {
    for &mv in pos.legal_moves().iter() {
        let written = san::write(pos, mv);
        let text = written.as_str();
        let parsed = San::from_ascii(text.as_bytes())
            .unwrap_or_else(|e| panic!("{text:?} in {}: {e}", pos.to_fen()));
        let back = parsed
            .resolve_strict(pos)
            .unwrap_or_else(|e| panic!("{text:?} in {}: {e}", pos.to_fen()));
        assert_eq!(back, mv, "{text:?} in {}", pos.to_fen());
    }
}

fuzz_target!(|data: &[u8]| {
    // Input: a selector byte, then either "FEN\n" + moves or just moves (one byte each), then
    // after a 0xff byte, a SAN text tried in the final position.
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (mut pos, rest) = if selector & 0x80 != 0 {
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let Ok(fen) = std::str::from_utf8(&rest[..end]) else {
            return;
        };
        let Ok(pos) = Position::from_fen_lenient(fen) else {
            return;
        };
        (pos, rest.get(end + 1..).unwrap_or_default())
    } else {
        let seed = SEEDS[usize::from(selector) % SEEDS.len()];
        (Position::from_fen(seed).expect("seed FEN"), rest)
    };
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (plies, text) = (&rest[..split], rest.get(split + 1..).unwrap_or_default());
    check_all(&pos);
    for &choice in plies.iter().take(200) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves.iter().nth(usize::from(choice) % moves.len()).copied();
        let Some(mv) = mv else { break };
        pos.play_unchecked(mv);
        check_all(&pos);
    }
    if let Ok(parsed) = San::from_ascii(text) {
        if let Ok(resolved) = parsed.resolve(&pos) {
            assert!(pos.is_legal(resolved.mv), "{text:?} in {}", pos.to_fen());
            assert!(pos.legal_moves().iter().any(|&m| m == resolved.mv));
        }
    }
});
