//! Insufficient material: DESIGN.md's dead positions and their near misses, and the per-side
//! python-chess rule.

use arbiter_rules::{Color, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|err| panic!("{fen}: {err}"))
}

#[test]
fn dead_positions() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",      // K v K
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",     // K+N v K
        "4kn2/8/8/8/8/8/8/4K3 w - - 0 1",     // K v K+N
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",     // K+B v K
        "4k3/8/8/8/8/8/4B3/4KB2 b - - 0 1",   // K+B+B (one colour) v K
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",   // K+B v K+B, same colour
        "1b1bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", // K+B v K+B+B, every bishop dark
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn near_misses() {
    for fen in [
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",  // K+N v K+N
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",  // K+B v K+N
        "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",  // K+B v K+B, opposite colours
        "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",  // K+N+N v K
        "4k3/8/8/8/8/8/3B4/4KB2 w - - 0 1", // K+B+B on both colours v K
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  // a pawn
        "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",   // a rook
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",   // a queen
        "4kq2/8/8/8/8/8/8/4KN2 w - - 0 1",  // K+N v K+Q
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn per_side() {
    // K+N v K+Q: the knight side cannot mate (a queen cannot be forced to block), the queen can.
    let p = pos("4kq2/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
    // K+N v K+R: the rook may block, so the knight can mate.
    let p = pos("4kr2/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
    // K+B v K+P: the pawn may block.
    let p = pos("4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1");
    assert!(!p.has_insufficient_material(Color::White));
    assert!(!p.has_insufficient_material(Color::Black));
    // Bare king.
    let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(p.has_insufficient_material(Color::Black));
    assert!(!p.has_insufficient_material(Color::White));
}
