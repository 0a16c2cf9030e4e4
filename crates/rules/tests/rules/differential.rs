//! Differential test against shakmaty 0.30: random play from the start position and from
//! suite positions; at every ply the legal moves (UCI), check/mate/stalemate, insufficient
//! material and the FEN must agree, and our own entry points must agree with each other.

use std::collections::BTreeSet;

use arbiter_rules::{CastlingSide, Position};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _, PositionError};

use crate::data;

fn shakmaty_position(fen: &str) -> Chess {
    let parsed = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|err| panic!("{fen}: {err}"));
    parsed
        .into_position::<Chess>(CastlingMode::Chess960)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .unwrap_or_else(|err| panic!("{fen}: {err}"))
}

/// Starting points: the start position plus a sample of suite positions.
fn starts() -> Vec<String> {
    let mut fens = vec![Position::startpos().to_fen()];
    for (file, step) in [
        ("perft/python-chess/random.perft", 40),
        ("perft/python-chess/chess960.perft", 40),
        ("perft/shakmaty/tricky.perft", 1),
    ] {
        let Some(text) = data::read(file) else {
            continue;
        };
        fens.extend(
            text.lines()
                .filter_map(|l| l.strip_prefix("epd "))
                .step_by(step)
                .map(String::from),
        );
    }
    fens
}

/// Compares one position in both libraries and checks our API for consistency.
fn compare(ours: &Position, theirs: &Chess) -> Result<(), TestCaseError> {
    let fen = ours.to_fen();
    let our_moves = ours.legal_moves();
    let our_uci: BTreeSet<String> = our_moves
        .iter()
        .map(|m| m.to_uci(true).to_string())
        .collect();
    let their_uci: BTreeSet<String> = theirs
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
        .collect();
    prop_assert_eq!(&our_uci, &their_uci, "legal moves of {}", fen);
    prop_assert_eq!(our_uci.len(), our_moves.len(), "duplicate moves in {}", fen);
    prop_assert_eq!(ours.is_check(), theirs.is_check(), "check in {}", fen);
    prop_assert_eq!(
        ours.is_checkmate(),
        theirs.is_checkmate(),
        "mate in {}",
        fen
    );
    prop_assert_eq!(
        ours.is_stalemate(),
        theirs.is_stalemate(),
        "stalemate in {}",
        fen
    );
    prop_assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "insufficient material in {}",
        fen
    );
    for color in [arbiter_rules::Color::White, arbiter_rules::Color::Black] {
        let their_color = if color == arbiter_rules::Color::White {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        prop_assert_eq!(
            ours.has_insufficient_material(color),
            theirs.has_insufficient_material(their_color),
            "{} insufficient material in {}",
            color,
            fen
        );
    }
    let their_fen = Fen::from_position(theirs, EnPassantMode::Legal).to_string();
    prop_assert_eq!(&fen, &their_fen);

    // Our entry points agree with legal_moves.
    prop_assert_eq!(ours.count_legal_moves(), our_moves.len() as u64);
    for &mv in our_moves.iter() {
        prop_assert!(ours.is_legal(mv), "{:?} in {}", mv, fen);
        prop_assert!(ours.legal_moves_to(mv.role(), mv.to()).contains(&mv));
    }
    for side in CastlingSide::ALL {
        let castle = our_moves
            .iter()
            .copied()
            .find(|m| m.castling_side() == Some(side));
        prop_assert_eq!(ours.castling_move(side), castle, "castling in {}", fen);
    }
    let pseudo = ours.pseudo_legal_moves();
    for &mv in our_moves.iter() {
        prop_assert!(
            pseudo.contains(&mv),
            "legal {:?} not pseudo-legal in {}",
            mv,
            fen
        );
    }
    for &mv in pseudo.iter() {
        prop_assert_eq!(ours.is_legal(mv), our_moves.contains(&mv));
    }
    Ok(())
}

fn walk(start: &str, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut ours =
        Position::from_fen_lenient_chess960(start).unwrap_or_else(|err| panic!("{start}: {err}"));
    let mut theirs = shakmaty_position(start);
    for &choice in choices {
        compare(&ours, &theirs)?;
        let moves = ours.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()];
        let uci = mv.to_uci(true).to_string();
        let their_mv = theirs
            .legal_moves()
            .iter()
            .find(|m| m.to_uci(CastlingMode::Chess960).to_string() == uci)
            .cloned();
        let Some(their_mv) = their_mv else {
            return Err(TestCaseError::fail(format!("{uci} unknown to shakmaty")));
        };
        ours.play_unchecked(mv);
        theirs.play_unchecked(their_mv);
        let fresh = Position::from_fen_lenient_chess960(&ours.to_fen()).expect("own fen");
        prop_assert_eq!(ours.zobrist(), fresh.zobrist(), "key after {}", uci);
    }
    compare(&ours, &theirs)
}

#[test]
fn random_play_agrees_with_shakmaty() {
    let starts = starts();
    let cases = if cfg!(debug_assertions) { 40 } else { 400 };
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0..starts.len(), vec(any::<u16>(), 0..160));
    let result = runner.run(&strategy, |(i, choices)| walk(&starts[i], &choices));
    if let Err(err) = result {
        panic!("{err}");
    }
}

#[test]
fn null_move() {
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
            .expect("fen");
    pos.play_null();
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3"
    );
    pos.play_null();
    assert_eq!(pos.fullmoves(), 4);
    assert_eq!(pos.ep_square(), None);
}
