//! `arbiter perft`: the FEN as positional words or `--fen`, `--chess960`, text and JSON output.

use crate::util::{arbiter, stderr, stdout};

/// Runs `arbiter perft ARGS`, expects success and returns stdout.
fn perft(args: &[&str]) -> String {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    let out = arbiter(&all);
    assert!(out.status.success(), "{all:?}: {}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    stdout(&out)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn fen_is_positional_like_moves() {
    assert_eq!(perft(&["3"]), "8902\n");
    assert_eq!(perft(&["3", "startpos"]), "8902\n");
    assert_eq!(perft(&["2", KIWIPETE]), "2039\n");
    let words: Vec<&str> = std::iter::once("2").chain(KIWIPETE.split(' ')).collect();
    assert_eq!(perft(&words), "2039\n");
    // --fen stays as an alias.
    assert_eq!(perft(&["2", "--fen", KIWIPETE]), "2039\n");
    assert_eq!(perft(&["--fen", KIWIPETE, "2"]), "2039\n");
    // Both at once is a usage error.
    let out = arbiter(&["perft", "2", "startpos", "--fen", KIWIPETE]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // A bad FEN is a usage error naming the defect.
    let out = arbiter(&["perft", "2", "8/8/8/8/8/8/8/8", "w", "-", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("kings"), "{}", stderr(&out));
}

#[test]
fn chess960_flag() {
    let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
    let out = arbiter(&["perft", "1", xfen]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("castling"), "{}", stderr(&out));
    // shakmaty's chess960.perft: depth 1 21, depth 2 528.
    assert_eq!(perft(&["2", "--chess960", xfen]), "528\n");
    let divide = perft(&[
        "1",
        "--chess960",
        "--divide",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]);
    assert!(divide.lines().any(|l| l == "e1h1: 1"), "{divide}");
    let divide = perft(&["1", "--divide", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]);
    assert!(divide.lines().any(|l| l == "e1g1: 1"), "{divide}");
    // The lenient reader: impossible material is fine for perft.
    assert_eq!(
        perft(&["1", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"]),
        "17\n"
    );
}

#[test]
fn json_format() {
    let text = perft(&["3", "--format", "json"]);
    assert!(
        text.starts_with(r#"{"depth":3,"nodes":8902,"seconds":"#),
        "{text}"
    );
    assert!(text.contains(r#","nodes_per_second":"#), "{text}");
    assert!(text.ends_with("}\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(json["depth"], 3);
    assert_eq!(json["nodes"], 8902);
    assert!(json["seconds"].as_f64().expect("seconds") >= 0.0);
    assert!(json["nodes_per_second"].as_f64().expect("rate") >= 0.0);

    let json: serde_json::Value =
        serde_json::from_str(&perft(&["2", "--format", "json", "--divide"])).expect("json");
    assert_eq!(json["nodes"], 400);
    let divide = json["divide"].as_array().expect("divide");
    assert_eq!(divide.len(), 20);
    assert_eq!(divide[0], serde_json::json!({"move": "a2a3", "nodes": 20}));
}
