//! One test per kind of [`SanError`], checking the exact message.

use arbiter_rules::san::{CastlingObstacle, SanError};
use arbiter_rules::{Position, San};

/// The error message for `text` in `fen`.
fn error(fen: &str, text: &str) -> (SanError, String) {
    let pos = Position::from_fen(fen).expect("valid fen");
    let san: San = text.parse().expect("parses");
    match san.resolve(&pos) {
        Ok(resolved) => panic!("{text} resolved to {:?}", resolved.mv),
        Err(err) => (err, err.to_string()),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn no_piece() {
    let cases = [
        (START, "Nbd2", "Nbd2: no knight on the b-file can reach d2"),
        (START, "Bc4", "Bc4: no bishop can reach c4"),
        (
            START,
            "R1e2",
            "R1e2: no rook on the first rank can reach e2",
        ),
        (START, "Qd1xd7", "Qd1xd7: no queen on d1 can reach d7"),
        (START, "e5", "e5: no pawn can reach e5"),
        (START, "exd3", "exd3: no pawn on the e-file can reach d3"),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "Nf3",
            "Nf3: white has no knight",
        ),
    ];
    for (fen, text, want) in cases {
        let (err, msg) = error(fen, text);
        assert!(matches!(err, SanError::NoPiece { .. }), "{err:?}");
        assert_eq!(msg, want);
    }
}

#[test]
fn empty_origin() {
    let (err, msg) = error(START, "e3e4");
    assert!(matches!(err, SanError::EmptyOrigin { .. }));
    assert_eq!(msg, "e3e4: there is no piece on e3");
}

#[test]
fn wrong_side() {
    let (err, msg) = error(START, "Nf6");
    assert!(matches!(err, SanError::WrongSide { .. }));
    assert_eq!(
        msg,
        "Nf6: it is white's move, and the knight on g8 is black's"
    );
    let (_, msg) = error(START, "e7e5");
    assert_eq!(
        msg,
        "e7e5: it is white's move, and the pawn on e7 is black's"
    );
    let (_, msg) = error(START, "e5");
    assert_eq!(msg, "e5: no pawn can reach e5");
}

#[test]
fn ambiguous() {
    let (err, msg) = error("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2");
    assert!(matches!(err, SanError::Ambiguous { .. }));
    assert_eq!(
        msg,
        "Nd2 is ambiguous: the knights on b1 and f3 can both reach d2"
    );
    let (_, msg) = error("4k3/8/8/8/8/1N3N2/8/1N2K3 w - - 0 1", "Nd2");
    assert_eq!(
        msg,
        "Nd2 is ambiguous: the knights on b1, b3 and f3 can all reach d2"
    );
    let (_, msg) = error("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "xd5");
    assert_eq!(
        msg,
        "xd5 is ambiguous: the pawns on c4 and e4 can both reach d5"
    );
}

#[test]
fn pinned() {
    let (err, msg) = error("3rr2k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8=Q");
    assert!(matches!(err, SanError::Pinned { .. }));
    assert_eq!(
        msg,
        "exd8=Q is illegal: the pawn on e7 is pinned to the king on e1 by the rook on e8"
    );
    let (_, msg) = error("4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1", "Nf3");
    assert_eq!(
        msg,
        "Nf3 is illegal: the knight on d2 is pinned to the king on e1 by the bishop on a5"
    );
}

#[test]
fn king_attacked() {
    let (err, msg) = error("4k3/8/8/1b6/8/8/8/4K3 w - - 0 1", "Ke2");
    assert!(matches!(err, SanError::KingAttacked { .. }));
    assert_eq!(msg, "Ke2 is illegal: e2 is attacked by the bishop on b5");
    let (_, msg) = error("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", "Ke2");
    assert_eq!(msg, "Ke2 is illegal: e2 is attacked by the rook on e7");
    let (_, msg) = error("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "Kd1");
    assert_eq!(msg, "Kd1 is illegal: d1 is attacked by the queen on d2");
}

#[test]
fn does_not_answer_check() {
    let (err, msg) = error("4k3/8/8/8/7q/8/8/4K1N1 w - - 0 1", "Nf3");
    assert!(matches!(err, SanError::DoesNotAnswerCheck { .. }));
    assert_eq!(msg, "Nf3 does not answer the check from the queen on h4");
    let (_, msg) = error("4k3/8/8/8/4r3/3n4/8/4K1N1 w - - 0 1", "Nf3");
    assert_eq!(
        msg,
        "Nf3 does not answer the double check from the knight on d3 and the rook on e4"
    );
}

#[test]
fn exposes_king() {
    let (err, msg) = error("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "bxc6");
    assert!(matches!(err, SanError::ExposesKing { .. }), "{err:?}");
    assert_eq!(
        msg,
        "bxc6 is illegal: it would expose the king on a5 to the rook on h5"
    );
}

#[test]
fn promotions() {
    let fen = "8/4P3/8/8/8/8/8/k6K w - - 0 1";
    let (err, msg) = error(fen, "e8");
    assert!(matches!(err, SanError::MustPromote { .. }));
    assert_eq!(msg, "e8: a pawn reaching the last rank must promote");
    let (err, msg) = error(START, "e5=Q");
    assert!(matches!(err, SanError::PromotionNotOnLastRank { .. }));
    assert_eq!(msg, "e5=Q: a pawn can promote only on the last rank");
    let (err, msg) = error(fen, "e8=K");
    assert!(matches!(err, SanError::BadPromotion { .. }));
    assert_eq!(msg, "e8=K: a pawn cannot promote to a king");
    let (_, msg) = error(fen, "e8P");
    assert_eq!(msg, "e8P: a pawn cannot promote to a pawn");
}

#[test]
fn castling() {
    let cases = [
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
            "O-O",
            CastlingObstacle::NoRight {
                rook: Some(arbiter_rules::Square::H1),
            },
            "O-O is illegal: the king has moved or the h1 rook has lost its castling right",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1",
            "0-0-0",
            CastlingObstacle::NoRight {
                rook: Some(arbiter_rules::Square::A8),
            },
            "0-0-0 is illegal: the king has moved or the a8 rook has lost its castling right",
        ),
        (
            "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1",
            "O-O",
            CastlingObstacle::Attacked {
                square: arbiter_rules::Square::F1,
                by: (arbiter_rules::Role::Bishop, arbiter_rules::Square::C4),
            },
            "O-O is illegal: f1 is attacked by the bishop on c4",
        ),
        (
            "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
            "O-O-O",
            CastlingObstacle::InCheck,
            "O-O-O is illegal: the king is in check",
        ),
        (
            "rnbqk2r/8/8/8/8/8/8/RNBQK1NR w KQkq - 0 1",
            "O-O",
            CastlingObstacle::Occupied(arbiter_rules::Square::G1),
            "O-O is illegal: g1 is occupied",
        ),
        (
            START,
            "O-O-O",
            CastlingObstacle::Occupied(arbiter_rules::Square::D1),
            "O-O-O is illegal: d1 is occupied",
        ),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            "O-O",
            CastlingObstacle::Attacked {
                square: arbiter_rules::Square::G1,
                by: (arbiter_rules::Role::Rook, arbiter_rules::Square::G8),
            },
            "O-O is illegal: g1 is attacked by the rook on g8",
        ),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w Bgb - 0 1",
            "O-O",
            CastlingObstacle::NoRight { rook: None },
            "O-O is illegal: the king has moved or the king-side rook has lost its castling right",
        ),
    ];
    for (fen, text, obstacle, want) in cases {
        let (err, msg) = error(fen, text);
        assert_eq!(
            err,
            SanError::Castling {
                san: text.parse().expect("parses"),
                obstacle
            },
            "{fen} {text}"
        );
        assert_eq!(msg, want);
    }
}

#[test]
fn not_standard_in_strict_mode() {
    let pos = Position::startpos();
    let san: San = "Nxf3".parse().expect("parses");
    assert!(san.resolve(&pos).is_ok());
    let err = san.resolve_strict(&pos).expect_err("strict refuses");
    assert!(matches!(err, SanError::NotStandard { .. }));
    assert_eq!(
        err.to_string(),
        "Nxf3: there is a capture mark x but nothing is captured"
    );
    let err = "0-0"
        .parse::<San>()
        .expect("parses")
        .resolve_strict(&Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("fen"));
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("0-0: castling is written with zeros".to_string())
    );
    let ok = "Nf3".parse::<San>().expect("parses").resolve_strict(&pos);
    assert!(ok.is_ok());
}

#[test]
fn null_move() {
    let (err, msg) = error(START, "--");
    assert_eq!(err, SanError::NullMove { san: San::null() });
    assert_eq!(msg, "--: a null move is not a legal move");
    assert_eq!(err.san(), San::null());
}
