//! What the resolver accepts beyond standard SAN, and the flags it reports.

use arbiter_rules::san::{self, Leniency};
use arbiter_rules::{Position, San};

/// Resolves `text` in `fen`, returning the UCI text of the move and the flags.
fn resolve(fen: &str, text: &str) -> (String, Leniency) {
    let pos = Position::from_fen(fen).expect("valid fen");
    let san: San = match text.parse() {
        Ok(san) => san,
        Err(err) => panic!("{text}: {err}"),
    };
    match san.resolve(&pos) {
        Ok(r) => (r.mv.to_uci(pos.is_chess960()).to_string(), r.leniency),
        Err(err) => panic!("{text}: {err}"),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn forms() {
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let capture = "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1";
    let promote = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
    let queens = "8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1";
    let cases = [
        (START, "e4", "e2e4", Leniency::EMPTY),
        (START, "Nf3", "g1f3", Leniency::EMPTY),
        (START, "Nf3!?", "g1f3", Leniency::EMPTY),
        (START, "Nf3+", "g1f3", Leniency::EMPTY),
        (START, "Nf3++", "g1f3", Leniency::DOUBLE_PLUS),
        (START, "Ng1f3", "g1f3", Leniency::LONG_ALGEBRAIC),
        (START, "Ng1-f3", "g1f3", Leniency::LONG_ALGEBRAIC),
        (
            START,
            "Ng1xf3",
            "g1f3",
            Leniency::LONG_ALGEBRAIC.union(Leniency::SUPERFLUOUS_CAPTURE_MARK),
        ),
        (START, "Ngf3", "g1f3", Leniency::OVER_DISAMBIGUATED),
        (START, "N1f3", "g1f3", Leniency::OVER_DISAMBIGUATED),
        (START, "Nxf3", "g1f3", Leniency::SUPERFLUOUS_CAPTURE_MARK),
        (START, "g1f3", "g1f3", Leniency::LONG_ALGEBRAIC),
        (START, "e2e4", "e2e4", Leniency::LONG_ALGEBRAIC),
        (START, "e2-e4", "e2e4", Leniency::LONG_ALGEBRAIC),
        (START, "Pe4", "e2e4", Leniency::PAWN_LETTER),
        (castle, "O-O", "e1g1", Leniency::EMPTY),
        (castle, "0-0", "e1g1", Leniency::CASTLING_WITH_ZEROS),
        (castle, "0-0-0", "e1c1", Leniency::CASTLING_WITH_ZEROS),
        (castle, "e1g1", "e1g1", Leniency::CASTLING_AS_KING_MOVE),
        (castle, "Ke1h1", "e1g1", Leniency::CASTLING_AS_KING_MOVE),
        (castle, "e1a1", "e1c1", Leniency::CASTLING_AS_KING_MOVE),
        (castle, "Kc1", "e1c1", Leniency::CASTLING_AS_KING_MOVE),
        (capture, "cxd5", "c4d5", Leniency::EMPTY),
        (capture, "cd5", "c4d5", Leniency::MISSING_CAPTURE_MARK),
        (
            capture,
            "c4d5",
            "c4d5",
            Leniency::LONG_ALGEBRAIC.union(Leniency::MISSING_CAPTURE_MARK),
        ),
        (capture, "c4xd5", "c4d5", Leniency::LONG_ALGEBRAIC),
        (capture, "c5", "c4c5", Leniency::EMPTY),
        (capture, "xc5", "c4c5", Leniency::SUPERFLUOUS_CAPTURE_MARK),
        (promote, "e8=Q+", "e7e8q", Leniency::EMPTY),
        (promote, "e8Q", "e7e8q", Leniency::PROMOTION_WITHOUT_EQUALS),
        (
            promote,
            "e8(N)",
            "e7e8n",
            Leniency::PROMOTION_WITHOUT_EQUALS,
        ),
        (promote, "e8/R", "e7e8r", Leniency::PROMOTION_WITHOUT_EQUALS),
        (promote, "e8=b", "e7e8b", Leniency::LOWERCASE_PROMOTION),
        (promote, "exd8=Q+", "e7d8q", Leniency::EMPTY),
        (
            promote,
            "xd8=Q",
            "e7d8q",
            Leniency::PAWN_CAPTURE_WITHOUT_FILE,
        ),
        (
            promote,
            "e7e8q",
            "e7e8q",
            Leniency::LONG_ALGEBRAIC
                .union(Leniency::PROMOTION_WITHOUT_EQUALS)
                .union(Leniency::LOWERCASE_PROMOTION),
        ),
        (ep, "exd6", "e5d6", Leniency::EMPTY),
        (ep, "exd6 e.p.", "e5d6", Leniency::EN_PASSANT_MARK),
        (ep, "exd6e.p.", "e5d6", Leniency::EN_PASSANT_MARK),
        (rooks, "Rad1", "a1d1", Leniency::EMPTY),
        (rooks, "Ra1d1", "a1d1", Leniency::LONG_ALGEBRAIC),
        (queens, "Qh4e1", "h4e1", Leniency::EMPTY),
        (queens, "Qh4-e1", "h4e1", Leniency::HYPHEN),
    ];
    for (fen, text, uci, flags) in cases {
        assert_eq!(resolve(fen, text), (uci.to_string(), flags), "{fen} {text}");
    }
}

#[test]
fn canonical_writer() {
    let cases = [
        ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        ("8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1", "h4e1", "Qh4e1"),
        ("8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1", "e4e1", "Qee1"),
        ("8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1", "h1e1", "Q1e1"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N"),
        ("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+"),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "e1b1", "O-O-O"),
        // A pinned knight does not count for disambiguation.
        ("4k3/8/8/b7/8/8/3N4/4K1N1 w - - 0 1", "g1f3", "Nf3"),
    ];
    for (fen, uci, want) in cases {
        let pos = Position::from_fen(fen).expect("valid fen");
        let mv = uci
            .parse::<arbiter_rules::Uci>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let written = san::write(&pos, mv);
        assert_eq!(written.as_str(), want, "{fen} {uci}");
        assert_eq!(&*written, want);
        assert_eq!(written.to_string(), want);
    }
    assert_eq!(std::mem::size_of::<san::SanString>(), 8);
}

#[test]
fn warnings() {
    let pos = Position::startpos();
    let resolved = "Ng1f3"
        .parse::<San>()
        .expect("san")
        .resolve(&pos)
        .expect("legal");
    let canonical = san::write(&pos, resolved.mv);
    let lines: Vec<String> = resolved
        .leniency
        .iter()
        .map(|flag| flag.warning("Ng1f3", &canonical).to_string())
        .collect();
    assert_eq!(
        lines,
        ["Ng1f3: the move is in long algebraic notation; the standard form is Nf3"]
    );
    for flag in [
        Leniency::CASTLING_WITH_ZEROS,
        Leniency::CASTLING_AS_KING_MOVE,
        Leniency::LONG_ALGEBRAIC,
        Leniency::OVER_DISAMBIGUATED,
        Leniency::PAWN_CAPTURE_WITHOUT_FILE,
        Leniency::MISSING_CAPTURE_MARK,
        Leniency::SUPERFLUOUS_CAPTURE_MARK,
        Leniency::PROMOTION_WITHOUT_EQUALS,
        Leniency::LOWERCASE_PROMOTION,
        Leniency::EN_PASSANT_MARK,
        Leniency::PAWN_LETTER,
        Leniency::DOUBLE_PLUS,
        Leniency::HYPHEN,
    ] {
        let text = flag.describe();
        assert!(!text.is_empty() && text.starts_with(|c: char| c.is_lowercase()));
        assert!(!text.ends_with('.'));
    }
}

/// Leniency forgives how a move is written, never a different origin: a pawn move written
/// without file or capture mark is a push from the destination's file. With that pawn blocked,
/// `a3` is illegal though `bxa3` is legal; for every file, both colours and both neighbours.
#[test]
fn a_blocked_pawn_push_is_never_a_neighbour_capture() {
    let mut checked = 0;
    for file in 0..8u8 {
        for neighbour in [file.wrapping_sub(1), file + 1] {
            if neighbour > 7 {
                continue;
            }
            for white in [true, false] {
                // The pawn on its home rank, an enemy knight in front of it, a neighbour pawn
                // beside it that can capture the knight; the kings out of the way.
                let mut ranks = [[None::<char>; 8]; 8];
                let (home, front) = if white { (1, 2) } else { (6, 5) };
                let (ours, theirs) = if white { ('P', 'n') } else { ('p', 'N') };
                ranks[home][usize::from(file)] = Some(ours);
                ranks[home][usize::from(neighbour)] = Some(ours);
                ranks[front][usize::from(file)] = Some(theirs);
                let king_file = if file < 4 { 7 } else { 0 };
                ranks[0][king_file] = Some('K');
                ranks[7][king_file] = Some('k');
                let fen = format!(
                    "{} {} - - 0 1",
                    placement(&ranks),
                    if white { 'w' } else { 'b' }
                );
                let pos = Position::from_fen(&fen).expect("valid fen");
                let to = format!("{}{}", char::from(b'a' + file), front + 1);
                let capture = format!("{}x{to}", char::from(b'a' + neighbour));
                for text in [to.clone(), format!("{to}+"), format!("P{to}")] {
                    let san: San = text.parse().expect("san");
                    assert!(san.resolve(&pos).is_err(), "{text} in {fen}");
                }
                let (uci, flags) = resolve(&fen, &capture);
                assert_eq!(flags, Leniency::EMPTY, "{capture} in {fen}");
                assert!(uci.ends_with(&to), "{capture} in {fen}");
                // Written with the capture mark, the file is missing but not another one.
                let (uci, flags) = resolve(&fen, &format!("x{to}"));
                assert!(uci.ends_with(&to), "x{to} in {fen}");
                assert!(flags.contains(Leniency::PAWN_CAPTURE_WITHOUT_FILE));
                // With both neighbours able to take, the push is still no capture, and the
                // message says no pawn gets there (not that two could).
                let other = if neighbour > file {
                    file.wrapping_sub(1)
                } else {
                    file + 1
                };
                if other < 8 {
                    let mut both = ranks;
                    both[home][usize::from(other)] = Some(ours);
                    let side = if white { 'w' } else { 'b' };
                    let fen = format!("{} {side} - - 0 1", placement(&both));
                    let pos = Position::from_fen(&fen).expect("valid fen");
                    let err = to
                        .parse::<San>()
                        .expect("san")
                        .resolve(&pos)
                        .expect_err(&to);
                    assert_eq!(
                        err.to_string(),
                        format!("{to}: no pawn can reach {to}"),
                        "{fen}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 28);
}

/// The piece placement field of a FEN from ranks indexed first to eighth.
fn placement(ranks: &[[Option<char>; 8]; 8]) -> String {
    let mut out = Vec::new();
    for rank in ranks.iter().rev() {
        let mut text = String::new();
        let mut empty = 0;
        for square in rank {
            match square {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        out.push(text);
    }
    out.join("/")
}
