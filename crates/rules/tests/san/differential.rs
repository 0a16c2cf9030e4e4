//! Our SAN (with suffixes) equals shakmaty's `SanPlus` for every legal move of positions reached
//! by random play, from standard and Chess960 starting positions.

use arbiter_rules::Position;
use arbiter_rules::san;
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen, san::SanPlus, uci::UciMove};

use crate::roundtrip::Rng;

const STARTS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
];

/// Plays `plies` random moves from `start`, comparing every legal move's SAN on the way.
fn compare(start: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut ours = Position::from_fen(start).expect("our fen");
    let fen: Fen = start.parse().expect("shakmaty fen");
    let mut theirs: Chess = fen
        .into_position(CastlingMode::Chess960)
        .expect("shakmaty position");
    let mut rng = Rng(seed | 1);
    for _ in 0..plies {
        let moves = ours.legal_moves();
        prop_assert_eq!(moves.len(), theirs.legal_moves().len(), "{}", ours.to_fen());
        if moves.is_empty() {
            break;
        }
        let mut chosen = None;
        let pick = rng.below(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let uci = mv.to_uci(true).to_string();
            let their_move = UciMove::from_ascii(uci.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&theirs).ok());
            prop_assert!(their_move.is_some(), "{} {}", ours.to_fen(), uci);
            let Some(their_move) = their_move else {
                break;
            };
            let want = SanPlus::from_move(theirs.clone(), their_move).to_string();
            let got = san::write(&ours, mv);
            prop_assert_eq!(got.as_str(), want.as_str(), "{}", ours.to_fen());
            if i == pick {
                chosen = Some((mv, their_move));
            }
        }
        let Some((mv, their_move)) = chosen else {
            break;
        };
        ours.play_unchecked(mv);
        theirs.play_unchecked(their_move);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn san_equals_shakmaty(start in 0..STARTS.len(), seed in any::<u64>(), plies in 0usize..120) {
        compare(STARTS[start], seed, plies)?;
    }
}

/// The legal moves shakmaty finds in `fen` (Chess960 castling mode), as UCI.
fn shakmaty_moves(fen: &str) -> Vec<String> {
    let fen: Fen = fen.parse().expect("shakmaty fen");
    let pos: Chess = fen
        .into_position(CastlingMode::Chess960)
        .expect("shakmaty position");
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| UciMove::from_move(*m, CastlingMode::Chess960).to_string())
        .collect();
    moves.sort();
    moves
}

#[test]
fn same_moves_as_shakmaty_where_scalachess_castles_through_a_rook() {
    // scalachess-moveorder/tricky.txt lists g1f1 and g1c1 (O-O-O) here, although the king
    // would pass e1, occupied by the other rook; shakmaty and we agree castling is illegal.
    let fen = "4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff - 0 1";
    let pos = Position::from_fen(fen).expect("our fen");
    let mut ours: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(true).to_string())
        .collect();
    ours.sort();
    assert_eq!(ours, shakmaty_moves(fen));
    assert!(!ours.iter().any(|m| m == "g1f1"));
}
