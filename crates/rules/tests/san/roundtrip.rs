//! Every legal move's canonical SAN resolves back to that move with no leniency flag, and its
//! long algebraic, UCI and zeros forms resolve to it with the expected flags; UCI text resolves
//! to the move and the move lists of scalachess agree with ours.

use arbiter_rules::Uci;
use arbiter_rules::san::{self, Leniency};
use arbiter_rules::{CastlingSide, Move, Position, Role, San};

use crate::data;

fn resolve(pos: &Position, text: &str) -> (Move, Leniency) {
    let san: San = match text.parse() {
        Ok(san) => san,
        Err(err) => panic!("{}: {text}: {err}", pos.to_fen()),
    };
    match san.resolve(pos) {
        Ok(r) => (r.mv, r.leniency),
        Err(err) => panic!("{}: {err}", pos.to_fen()),
    }
}

/// Checks every legal move of `pos`; returns how many.
pub fn check_position(pos: &Position) -> usize {
    let moves = pos.legal_moves();
    for &mv in moves.iter() {
        let canonical = san::write(pos, mv);
        assert_eq!(
            resolve(pos, &canonical),
            (mv, Leniency::EMPTY),
            "{} {canonical}",
            pos.to_fen()
        );
        let uci = mv.to_uci(true).to_string();
        assert_eq!(
            uci.parse::<Uci>().and_then(|u| u.to_move(pos)),
            Ok(mv),
            "{uci}"
        );
        match mv.castling_side() {
            Some(side) => {
                let zeros = match side {
                    CastlingSide::KingSide => "0-0",
                    CastlingSide::QueenSide => "0-0-0",
                };
                let flags = Leniency::CASTLING_WITH_ZEROS;
                assert_eq!(resolve(pos, zeros), (mv, flags), "{}", pos.to_fen());
                let flags = Leniency::CASTLING_AS_KING_MOVE;
                assert_eq!(resolve(pos, &uci), (mv, flags), "{} {uci}", pos.to_fen());
            }
            None => {
                let from = mv.from().to_string();
                let full_needed = mv.role() != Role::Pawn && canonical.contains(from.as_str());
                let long_flag = if full_needed {
                    Leniency::EMPTY
                } else {
                    Leniency::LONG_ALGEBRAIC
                };
                let letter = match mv.role() {
                    Role::Pawn => String::new(),
                    role => role.upper_char().to_string(),
                };
                let x = if mv.is_capture() { "x" } else { "" };
                let promo = mv
                    .promotion()
                    .map_or(String::new(), |r| format!("={}", r.upper_char()));
                let long = format!("{letter}{from}{x}{}{promo}", mv.to());
                assert_eq!(resolve(pos, &long), (mv, long_flag), "{}", pos.to_fen());
                let mut flags = long_flag;
                if mv.is_capture() {
                    flags |= Leniency::MISSING_CAPTURE_MARK;
                }
                if mv.promotion().is_some() {
                    flags |= Leniency::PROMOTION_WITHOUT_EQUALS | Leniency::LOWERCASE_PROMOTION;
                }
                assert_eq!(resolve(pos, &uci), (mv, flags), "{} {uci}", pos.to_fen());
            }
        }
    }
    moves.len()
}

/// A small deterministic generator for random play.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

#[test]
fn random_games() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    for _ in 0..12 {
        let mut pos = Position::startpos();
        for _ in 0..160 {
            checked += check_position(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Checks every `step`-th position of a perft file; at most `may_refuse` may be refused by our
/// FEN reader.
fn perft_file(relative: &str, step: usize, may_refuse: usize) {
    let Some(dir) = data::dir() else { return };
    let positions = data::perft_positions(&data::read(&dir, relative));
    assert!(!positions.is_empty(), "{relative}");
    let mut checked = 0;
    let mut refused = Vec::new();
    for fen in positions.iter().step_by(step) {
        // Perft suites mix standard and Chess960 (X-FEN) positions: read them as Chess960.
        match Position::from_fen_chess960(fen) {
            Ok(pos) => checked += check_position(&pos),
            // Unreachable positions (two sliders checking along diagonals...) that our FEN
            // reader refuses, as shakmaty does without `ignore_impossible_check`.
            Err(err) => refused.push(format!("{fen}: {err}")),
        }
    }
    assert!(checked > 0);
    assert!(refused.len() <= may_refuse, "{relative}: {refused:?}");
}

#[test]
fn perft_tricky() {
    // Nine of its 26 positions have checks no single move could give, and one has impossible
    // material; our FEN reader refuses them.
    perft_file("perft/shakmaty/tricky.perft", 1, 10);
}

#[test]
fn perft_chess960() {
    perft_file("perft/shakmaty/chess960.perft", 7, 0);
}

#[test]
fn perft_random() {
    perft_file("perft/python-chess/random.perft", 5, 0);
}

/// scalachess lists O-O-O here (`g1f1`, `g1c1`) though the king would pass e1, occupied by the
/// other rook; shakmaty agrees with us that it is illegal (see `differential.rs`).
const SCALACHESS_CASTLES_THROUGH_A_ROOK: &str =
    "4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff";

#[test]
fn scalachess_move_lists() {
    let Some(dir) = data::dir() else { return };
    let mut disagreements = Vec::new();
    for name in ["tricky", "chess960", "random"] {
        let text = data::read(&dir, &format!("fen/scalachess-moveorder/{name}.txt"));
        let mut records: Vec<(&str, &str)> = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if line.contains('/') {
                records.push((line, ""));
            } else if let Some(last) = records.last_mut() {
                last.1 = line;
            }
        }
        for (i, (fen, ucis)) in records.into_iter().enumerate() {
            if fen.starts_with(SCALACHESS_CASTLES_THROUGH_A_ROOK) {
                continue;
            }
            let fen = if fen.split_whitespace().count() == 4 {
                format!("{fen} 0 1")
            } else {
                fen.to_string()
            };
            let Ok(pos) = Position::from_fen(&fen) else {
                // A few rows are unreachable positions our FEN reader refuses.
                continue;
            };
            let mut ours: Vec<Move> = pos.legal_moves().to_vec();
            let mut theirs = Vec::new();
            for u in ucis.split_whitespace() {
                match u.parse::<Uci>().and_then(|u| u.to_move(&pos)) {
                    Ok(mv) => theirs.push(mv),
                    Err(err) => disagreements.push(format!("{fen}: {err}")),
                }
            }
            let key = |m: &Move| m.to_uci(true).to_string();
            ours.sort_by_key(key);
            theirs.sort_by_key(key);
            theirs.dedup();
            if ours != theirs {
                disagreements.push(format!("{fen}: {ours:?} != {theirs:?}"));
            }
            if i % 10 == 0 {
                check_position(&pos);
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
