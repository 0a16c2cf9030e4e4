//! One test per FEN defect: the FEN is rejected and the defect names its field.

use arbiter_rules::{Color, FenDefect, FenField, Position};

/// Parses `fen`, expects an error holding a defect of `field` that `matches`, and checks that
/// its message starts with the field's name.
fn rejects(fen: &str, field: FenField, matches: impl Fn(&FenDefect) -> bool) {
    let err = Position::from_fen(fen).expect_err(fen);
    let defect = err
        .defects()
        .iter()
        .find(|d| matches(d))
        .unwrap_or_else(|| panic!("{fen}: no matching defect in {err}"));
    assert_eq!(defect.field(), field, "{fen}: {defect}");
    let message = defect.to_string();
    assert!(
        message.starts_with(&format!("{field}: ")),
        "{fen}: message {message:?} does not name {field}"
    );
    assert!(err.to_string().contains(&message), "{err}");
}

const EMPTY_KINGS: &str = "4k3/8/8/8/8/8/8/4K3";

#[test]
fn field_count() {
    rejects("8/8/8/8/8/8/8/8", FenField::Fen, |d| {
        matches!(d, FenDefect::FieldCount { found: 1 })
    });
    rejects(
        &format!("{EMPTY_KINGS} w - - 0 1 extra"),
        FenField::Fen,
        |d| matches!(d, FenDefect::FieldCount { found: 7 }),
    );
    rejects(
        "",
        FenField::Fen,
        |d| matches!(d, FenDefect::NotAFen { found } if found.is_empty()),
    );
}

#[test]
fn rank_count() {
    rejects("4k3/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(d, FenDefect::RankCount { found: 7 })
    });
}

#[test]
fn rank_length() {
    rejects("4k4/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(
            d,
            FenDefect::RankLength {
                rank: 8,
                squares: 9
            }
        )
    });
    rejects("4k3/8/8/8/8/8/7/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(
            d,
            FenDefect::RankLength {
                rank: 2,
                squares: 7
            }
        )
    });
}

#[test]
fn bad_piece_letter() {
    rejects("4k3/8/8/8/8/8/8/4K2X w - - 0 1", FenField::Board, |d| {
        matches!(
            d,
            FenDefect::BadPiece {
                rank: 1,
                found: 'X'
            }
        )
    });
    rejects("4k3/8/8/8/8/8/8/4K2 0 w - - 0 1", FenField::Fen, |d| {
        matches!(d, FenDefect::FieldCount { found: 7 })
    });
    rejects("4k3/9/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(
            d,
            FenDefect::BadPiece {
                rank: 7,
                found: '9'
            }
        )
    });
}

#[test]
fn side_to_move() {
    rejects(
        &format!("{EMPTY_KINGS} x - - 0 1"),
        FenField::Turn,
        |d| matches!(d, FenDefect::BadTurn { found } if found == "x"),
    );
    rejects(&format!("{EMPTY_KINGS} W - - 0 1"), FenField::Turn, |d| {
        matches!(d, FenDefect::BadTurn { .. })
    });
}

#[test]
fn castling_syntax() {
    rejects(
        &format!("{EMPTY_KINGS} w KX - 0 1"),
        FenField::Castling,
        |d| matches!(d, FenDefect::CastlingSyntax { found } if found == "KX"),
    );
    rejects(
        &format!("{EMPTY_KINGS} w -K - 0 1"),
        FenField::Castling,
        |d| matches!(d, FenDefect::CastlingSyntax { .. }),
    );
}

#[test]
fn castling_without_king() {
    rejects("4k3/8/8/8/8/8/4K3/7R w K - 0 1", FenField::Castling, |d| {
        matches!(d, FenDefect::CastlingWithoutKing { letter: 'K' })
    });
}

#[test]
fn castling_without_rook() {
    // Chess960 (X-FEN): no rook at all on the king side.
    let err =
        Position::from_fen_chess960(&format!("{EMPTY_KINGS} w K - 0 1")).expect_err("no rook");
    assert!(
        matches!(
            err.defects(),
            [FenDefect::CastlingWithoutRook { letter: 'K' }]
        ),
        "{err}"
    );
    // Standard chess: no rook on h1.
    rejects(
        &format!("{EMPTY_KINGS} w K - 0 1"),
        FenField::Castling,
        |d| {
            matches!(
                d,
                FenDefect::CastlingRookNotInCorner {
                    letter: 'K',
                    rook: None,
                    ..
                }
            )
        },
    );
    // Shredder letter naming a file without a rook.
    rejects("4k3/8/8/8/8/8/8/R3K3 w B - 0 1", FenField::Castling, |d| {
        matches!(d, FenDefect::CastlingWithoutRook { letter: 'B' })
    });
    // A black rook does not make a white right.
    rejects("4k3/8/8/8/8/8/8/4K2r w K - 0 1", FenField::Castling, |d| {
        matches!(d, FenDefect::CastlingRookNotInCorner { letter: 'K', .. })
    });
}

/// Rejects `fen` as standard chess with one castling defect whose message names `square`, and
/// checks that the Chess960 reader accepts it as a Chess960 position.
fn chess960_only(fen: &str, square: &str, matches: impl Fn(&FenDefect) -> bool) {
    rejects(fen, FenField::Castling, &matches);
    let err = Position::from_fen(fen).expect_err(fen);
    assert_eq!(err.defects().len(), 1, "{err}");
    let message = err.to_string();
    assert!(
        message.contains(&format!(" {square} ")) || message.ends_with(square),
        "{message}"
    );
    assert!(message.contains("castling: "), "{message}");
    assert!(Position::from_fen_lenient(fen).is_err(), "{fen}: lenient");
    for parse in [
        Position::from_fen_chess960,
        Position::from_fen_lenient_chess960,
    ] {
        let pos = parse(fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
        assert!(pos.is_chess960(), "{fen}");
        assert_eq!(Position::from_fen_chess960(&pos.to_fen()), Ok(pos));
    }
}

// See: issue 12, FEN castling rights in standard chess.
#[test]
fn standard_castling_needs_king_on_e_file() {
    chess960_only(
        "4k3/8/8/8/8/8/8/6KR w K - 0 1",
        "g1",
        |d| matches!(d, FenDefect::CastlingKingNotOnE { letter: 'K', king } if king.to_string() == "g1"),
    );
    chess960_only("1r4kr/8/8/8/8/8/8/4K3 b q - 0 1", "g8", |d| {
        matches!(d, FenDefect::CastlingKingNotOnE { letter: 'q', .. })
    });
}

#[test]
fn standard_castling_needs_rook_in_corner() {
    // `Q` whose rook stands on c1.
    chess960_only("4k3/8/8/8/8/8/8/2R1K3 w Q - 0 1", "c1", |d| {
        matches!(d, FenDefect::CastlingRookNotInCorner { letter: 'Q', corner, rook: Some(rook) }
            if corner.to_string() == "a1" && rook.to_string() == "c1")
    });
    // X-FEN `k` naming the inner rook on g8 (none on h8).
    chess960_only("4k1r1/8/8/8/8/8/8/4K3 w k - 0 1", "g8", |d| {
        matches!(d, FenDefect::CastlingRookNotInCorner { letter: 'k', .. })
    });
    // A Chess960 starting position in X-FEN.
    let start960 = "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1";
    let err = Position::from_fen(start960).expect_err("960 start");
    assert_eq!(err.defects().len(), 4, "{err}");
}

#[test]
fn shredder_letters_mean_chess960() {
    // File letters name the rooks exactly: every reader takes them.
    let fen = "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1";
    for parse in [
        Position::from_fen,
        Position::from_fen_lenient,
        Position::from_fen_chess960,
    ] {
        let pos = parse(fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
        assert!(pos.is_chess960());
    }
    // A letter mixed with K/Q makes the whole field Shredder/X-FEN.
    assert!(Position::from_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBh - 0 1").is_ok());
    // Standard positions read as Chess960 when the caller says so (UCI castling king-to-rook).
    let pos =
        Position::from_fen_chess960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("start");
    assert!(pos.is_chess960());
    assert!(
        !Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("start")
            .is_chess960()
    );
}

#[test]
fn castling_duplicate() {
    rejects("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", FenField::Castling, |d| {
        matches!(d, FenDefect::CastlingDuplicate { letter: 'K' })
    });
    rejects(
        "4k3/8/8/8/8/8/8/4KRR1 w GF - 0 1",
        FenField::Castling,
        |d| matches!(d, FenDefect::CastlingDuplicate { letter: 'F' }),
    );
}

// See: issue 30, point 12: the standard letters come in the order KQkq, or the FEN is refused.
#[test]
fn castling_out_of_order() {
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R";
    for (field, letter) in [
        ("qkQK", 'k'),
        ("QK", 'K'),
        ("kK", 'K'),
        ("Kqk", 'k'),
        ("KQqk", 'k'),
    ] {
        rejects(
            &format!("{corners} w {field} - 0 1"),
            FenField::Castling,
            |d| matches!(d, FenDefect::CastlingOutOfOrder { letter: l } if *l == letter),
        );
        let err = Position::from_fen_lenient(&format!("{corners} w {field} - 0 1"))
            .expect_err("refused by the lenient reader too");
        assert!(
            err.to_string()
                .contains("out of order: the letters come in the order KQkq"),
            "{err}"
        );
    }
    for field in ["KQkq", "Kq", "Qk", "kq", "K", "HAha", "AHah"] {
        let fen = format!("{corners} w {field} - 0 1");
        assert!(Position::from_fen(&fen).is_ok(), "{fen}");
    }
}

#[test]
fn en_passant_syntax() {
    rejects(
        &format!("{EMPTY_KINGS} w - e9 0 1"),
        FenField::EnPassant,
        |d| matches!(d, FenDefect::EnPassantSyntax { found } if found == "e9"),
    );
}

// See: issue 31, point 4: the message says which rank the side to move needs.
#[test]
fn en_passant_rank() {
    rejects(
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        FenField::EnPassant,
        |d| matches!(d, FenDefect::EnPassantRank { .. }),
    );
    for (fen, message) in [
        (
            "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
            "invalid fen: en passant: with white to move the en passant square must be on the \
             6th rank, not e3",
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1",
            "invalid fen: en passant: with black to move the en passant square must be on the \
             3rd rank, not e6",
        ),
    ] {
        let err = Position::from_fen(fen).expect_err(fen);
        assert_eq!(err.to_string(), message);
    }
}

// See: issue 31, point 4: text with no field of a FEN is said once not to be one.
#[test]
fn not_a_fen_at_all() {
    for text in ["hello", "  hello  ", "hello world", "", "?", "e4 e5"] {
        let err = Position::from_fen(text).expect_err(text);
        assert_eq!(
            err.defects(),
            [FenDefect::NotAFen {
                found: text.trim().to_owned()
            }],
            "{text:?}"
        );
        assert!(
            err.to_string().starts_with(&format!(
                "invalid fen: fen: {:?} is not a FEN at all: ",
                text.trim()
            )),
            "{err}"
        );
    }
    // A text shaped like a FEN gets its defects named one by one.
    let err = Position::from_fen("hello w - - 0 1").expect_err("bad letters");
    assert!(
        err.defects()
            .iter()
            .any(|d| matches!(d, FenDefect::BadPiece { .. }))
    );
    let err = Position::from_fen("8/8/8").expect_err("three ranks");
    assert!(
        err.defects()
            .iter()
            .any(|d| matches!(d, FenDefect::FieldCount { found: 1 }))
    );
}

// See: issue 31, point 4: kings side by side are said to be, not "the black king is in check".
#[test]
fn kings_next_to_each_other() {
    let err = Position::from_fen("8/8/8/8/8/8/8/Kk6 w - - 0 1").expect_err("adjacent kings");
    assert_eq!(
        err.defects(),
        [FenDefect::KingsAdjacent {
            white: arbiter_rules::Square::A1,
            black: arbiter_rules::Square::B1
        }]
    );
    assert_eq!(
        err.to_string(),
        "invalid fen: board: the kings stand next to each other (white on a1, black on b1)"
    );
    // A real check besides is still named.
    let err = Position::from_fen("8/8/8/8/8/8/8/Kk5R w - - 0 1").expect_err("and a rook");
    assert!(
        err.defects()
            .iter()
            .any(|d| matches!(d, FenDefect::OppositeCheck { .. }))
    );
}

#[test]
fn en_passant_without_pawn() {
    // No pawn in front.
    rejects(
        &format!("{EMPTY_KINGS} b - e3 0 1"),
        FenField::EnPassant,
        |d| matches!(d, FenDefect::EnPassantWithoutPawn { .. }),
    );
    // Pawn in front, but the square it came from is occupied.
    rejects(
        "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1",
        FenField::EnPassant,
        |d| matches!(d, FenDefect::EnPassantWithoutPawn { .. }),
    );
    // A valid one, for contrast.
    assert!(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").is_ok());
}

#[test]
fn clocks() {
    rejects(
        &format!("{EMPTY_KINGS} w - - x 1"),
        FenField::Halfmoves,
        |d| matches!(d, FenDefect::Halfmoves { .. }),
    );
    rejects(
        &format!("{EMPTY_KINGS} w - - 0 -1"),
        FenField::Fullmoves,
        |d| matches!(d, FenDefect::Fullmoves { .. }),
    );
}

#[test]
fn king_count() {
    rejects("8/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(d, FenDefect::KingCount { count: 0, .. })
    });
    rejects("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", FenField::Board, |d| {
        matches!(d, FenDefect::KingCount { count: 2, .. })
    });
}

#[test]
fn pawns_on_back_rank() {
    rejects("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Board, |d| {
        matches!(d, FenDefect::PawnsOnBackRank { .. })
    });
    rejects("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", FenField::Board, |d| {
        matches!(d, FenDefect::PawnsOnBackRank { .. })
    });
}

#[test]
fn side_not_to_move_in_check() {
    rejects("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", FenField::Turn, |d| {
        matches!(d, FenDefect::OppositeCheck { .. })
    });
}

#[test]
fn impossible_checks() {
    let impossible = |fen: &str| {
        rejects(fen, FenField::Board, |d| {
            matches!(d, FenDefect::ImpossibleCheck { .. })
        });
        // Perft suites hold such positions; the lenient reader takes them.
        assert!(Position::from_fen_lenient(fen).is_ok(), "{fen}");
    };
    // Two bishops on one diagonal through the king.
    impossible("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1");
    // Queen and bishop on both sides of the king on one diagonal.
    impossible("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1");
    // Two rooks on one rank through the king.
    impossible("4k3/8/8/8/8/8/8/r2K3r w - - 0 1");
    // Three checkers.
    impossible("4k3/8/8/8/7b/3n4/4r3/4K3 w - - 0 1");
    // Two knights.
    impossible("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1");
    // Pawn and knight.
    impossible("4k3/8/8/8/8/3n4/3p4/4K3 w - - 0 1");
    // After a double step, a check by another piece the step did not uncover.
    impossible("4k3/8/8/3p4/8/8/8/r3K3 w - d6 0 2");
    // Possible double checks for contrast: rook and knight (discovered), rook and bishop.
    assert!(Position::from_fen("4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1").is_ok());
    assert!(Position::from_fen("4k3/8/8/8/7b/8/8/r3K3 w - - 0 1").is_ok());
    // A double step that checks, and one that uncovers a bishop's check.
    assert!(Position::from_fen("4k3/6b1/8/4p3/3K4/8/8/8 w - e6 0 1").is_ok());
    assert!(Position::from_fen("8/8/8/7k/4P3/8/8/3BK3 b - e3 0 1").is_ok());
}

#[test]
fn every_defect_is_reported() {
    let err = Position::from_fen("4k3/8/8/8/8/8/8/4K2X x KQ e9 h 0").expect_err("bad");
    let fields: Vec<FenField> = err.defects().iter().map(FenDefect::field).collect();
    assert_eq!(
        fields,
        vec![
            FenField::Board,
            FenField::Turn,
            FenField::EnPassant,
            FenField::Halfmoves
        ],
        "{err}"
    );
    // Semantic defects are collected too.
    let err = Position::from_fen("4k2P/8/8/8/8/8/8/3KK3 w K - 0 1").expect_err("bad");
    assert_eq!(err.defects().len(), 3, "{err}");
}

// See: issue 16, FEN with impossible material.
#[test]
fn too_many_pawns() {
    let fen = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
    rejects(fen, FenField::Board, |d| {
        matches!(
            d,
            FenDefect::TooManyPawns {
                color: arbiter_rules::Color::White,
                count: 9
            }
        )
    });
    // The lenient (perft) reader takes impossible material.
    assert!(Position::from_fen_lenient(fen).is_ok());
    assert!(Position::from_fen_lenient_chess960(fen).is_ok());
}

#[test]
fn too_many_pieces() {
    // 8 pawns, 9 pieces (one queen more than the initial set): 17 in all.
    let fen = "rnbqkbnr/pppppppp/8/8/8/Q7/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    rejects(fen, FenField::Board, |d| {
        matches!(d, FenDefect::TooManyPieces { count: 17, .. })
    });
    let err = Position::from_fen(fen).expect_err(fen);
    assert!(err.to_string().contains("17 pieces"), "{err}");
    assert!(Position::from_fen_lenient(fen).is_ok());
}

#[test]
fn too_many_promoted_pieces() {
    // 7 pawns leave 1 promotion; two extra queens need 2.
    let fen = "4k3/8/8/8/8/QQ6/PPPPPPP1/Q3K3 w - - 0 1";
    rejects(fen, FenField::Board, |d| {
        matches!(
            d,
            FenDefect::TooManyPromoted {
                promoted: 2,
                pawns: 7,
                ..
            }
        )
    });
    // Three knights, three bishops and 6 pawns: 2 promotions, 2 pawns missing.
    assert!(Position::from_fen("4k3/8/8/8/8/NNNBBB2/PPPPPP2/4K3 w - - 0 1").is_ok());
    // A third rook: 3 promotions.
    rejects(
        "4k3/8/8/8/8/NNNBBBRR/PPPPPP2/R3K3 w Q - 0 1",
        FenField::Board,
        |d| matches!(d, FenDefect::TooManyPromoted { promoted: 3, .. }),
    );
    // Bishops count by square colour: five light-squared bishops need four promotions, with
    // only three pawns missing, though two bishops beyond the initial pair would need just three.
    // See: issue 43, point 2.
    rejects(
        "4B3/1k3B1B/7b/4bB2/1p1p1pBp/bPpP1P1P/2Pb1K2/N1b5 b - - 0 40",
        FenField::Board,
        |d| {
            matches!(
                d,
                FenDefect::TooManyPromoted {
                    color: Color::White,
                    promoted: 4,
                    pawns: 5
                }
            )
        },
    );
    // Two bishops on one colour and all eight pawns: the second light bishop is a promotion.
    rejects(
        "4k3/8/8/8/8/8/PPPPPPPP/3BKB2 w - - 0 1",
        FenField::Board,
        |d| {
            matches!(
                d,
                FenDefect::TooManyPromoted {
                    promoted: 1,
                    pawns: 8,
                    ..
                }
            )
        },
    );
    // Said in words, one piece and one pawn in the singular.
    let one = Position::from_fen("4k3/8/8/8/8/8/PPPPPPPP/3BKB2 w - - 0 1").unwrap_err();
    assert!(
        one.to_string().contains(
            "white has 1 piece beyond the initial set but only 0 missing pawns could have been \
             promoted (8 pawns left)"
        ),
        "{one}"
    );
    let seven = Position::from_fen("4k3/8/8/8/8/QQ6/PPPPPPP1/Q3K3 w - - 0 1").unwrap_err();
    assert!(
        seven.to_string().contains(
            "white has 2 pieces beyond the initial set but only 1 missing pawn could have been \
             promoted (7 pawns left)"
        ),
        "{seven}"
    );
    // The initial pair, one bishop on each colour, is no promotion.
    assert!(Position::from_fen("4k3/8/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1").is_ok());
    // Nine queens and no pawns is possible.
    assert!(Position::from_fen("4k3/8/8/8/8/8/QQQQQQQQ/Q3K3 b - - 0 1").is_ok());
    assert!(Position::from_fen_lenient("4k3/8/8/8/8/QQ6/PPPPPPP1/Q3K3 w - - 0 1").is_ok());
}

#[test]
fn clocks_too_large() {
    let max = u32::MAX;
    let pos = Position::from_fen(&format!("{EMPTY_KINGS} w - - {max} {max}")).expect("max");
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (max, max));
    let big = u64::from(max) + 1;
    for parse in [Position::from_fen, Position::from_fen_lenient] {
        let err = parse(&format!("{EMPTY_KINGS} w - - {big} 1")).expect_err("halfmoves");
        assert!(
            matches!(err.defects(), [FenDefect::HalfmovesTooLarge { .. }]),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("halfmove clock: 4294967296 is too large"),
            "{err}"
        );
        let err =
            parse(&format!("{EMPTY_KINGS} w - - 0 99999999999999999999")).expect_err("fullmoves");
        assert!(
            matches!(err.defects(), [FenDefect::FullmovesTooLarge { .. }]),
            "{err}"
        );
        assert_eq!(err.defects()[0].field(), FenField::Fullmoves);
    }
}

#[test]
fn leniency() {
    let pos = Position::from_fen("  4k3/8/8/8/8/8/8/4K3   w  -  -  ").expect("no clocks");
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (0, 1));
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 7").expect("halfmoves only");
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (7, 1));
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").expect("fullmove 0");
    assert_eq!(pos.fullmoves(), 1);
    // X-FEN and Shredder-FEN name the same rights.
    let shredder = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").expect("shredder");
    let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("standard");
    assert_eq!(shredder, standard);
    assert_eq!(shredder.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(!shredder.is_chess960());
}

#[test]
fn writer_castling_letters() {
    // Inner rook: Shredder letter; outer rook: K/Q even in Chess960.
    let pos = Position::from_fen("1r2k1r1/8/8/8/8/8/8/RR2K2R w BHbg - 0 1").expect("960");
    assert!(pos.is_chess960());
    assert_eq!(pos.to_fen(), "1r2k1r1/8/8/8/8/8/8/RR2K2R w KBkq - 0 1");
    let pos =
        Position::from_fen_chess960("nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1")
            .expect("960 start");
    assert_eq!(
        pos.to_fen(),
        "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w KQkq - 0 1"
    );
    assert!(pos.is_chess960());
}

#[test]
fn writer_en_passant_only_when_legal() {
    // d6 is stored but no white pawn can take: written as '-'.
    let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2")
        .expect("ep");
    assert_eq!(pos.ep_square().map(|s| s.to_string()), Some("d6".into()));
    assert_eq!(pos.legal_ep_square(), None);
    assert!(pos.to_fen().contains(" - 0 2"));
    let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
        .expect("ep");
    assert!(pos.to_fen().contains(" d6 0 3"));
}

mod fuzz {
    use arbiter_rules::{Position, perft};
    use proptest::prelude::*;

    const SEEDS: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Mutated FENs never panic; whatever is accepted survives a round trip and move
        /// generation.
        #[test]
        fn mutated_fens(seed in 0..SEEDS.len(), edits in proptest::collection::vec((any::<usize>(), any::<char>()), 0..4)) {
            let mut chars: Vec<char> = SEEDS[seed].chars().collect();
            for (at, c) in edits {
                let at = at % (chars.len() + 1);
                if at == chars.len() || c.is_ascii_uppercase() {
                    chars.insert(at, c);
                } else {
                    chars[at] = c;
                }
            }
            let fen: String = chars.into_iter().collect();
            for parse in [Position::from_fen, Position::from_fen_lenient] {
                if let Ok(pos) = parse(&fen) {
                    let written = pos.to_fen();
                    let again = if pos.is_chess960() {
                        Position::from_fen_lenient_chess960(&written)
                    } else {
                        Position::from_fen_lenient(&written)
                    };
                    prop_assert!(again.is_ok(), "{} -> {}", fen, written);
                    prop_assert_eq!(again.map(|p| p.to_fen()).ok(), Some(written));
                    prop_assert_eq!(perft(&pos, 2), pos.legal_moves().iter().map(|&m| {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        child.count_legal_moves()
                    }).sum::<u64>());
                }
            }
        }

        /// Arbitrary text never panics.
        #[test]
        fn garbage(text in ".{0,100}") {
            let _ = Position::from_fen(&text);
            let _ = Position::from_fen_lenient(&text);
        }
    }
}
