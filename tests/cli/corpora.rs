//! Outcome counts on the shared corpora against the python-chess reference in
//! `_stats/pgn_stats.json`.
//!
//! The five automatic ends (checkmate, stalemate, insufficient material, 75-move rule, fivefold
//! repetition) must agree exactly on the games that end in their final position. The reference
//! judges only the final position, while arbiter ends a game at its first automatic end whatever
//! follows (`end_ply`): such a game counts here in the category of that end, and in the
//! reference in whatever its final position shows. The two claimable draws may only be fewer
//! here: the reference counts `claim_draw=True`, which ignores the Result, while arbiter counts
//! claims only when the Result is a draw.

use std::collections::BTreeMap;

use arbiter::Outcome;
use serde_json::Value;

use crate::util::{arbiter, json_lines, shared, stderr, stdout};

/// Reference counts per category, summed over the files under `corpora/NAME/`, and the number
/// of `[Event ` tags (python-chess reads three more games in pgnmentor-players: see the README
/// there).
fn reference(stats: &Value, corpus: &str) -> (BTreeMap<String, u64>, u64) {
    let prefix = format!("corpora/{corpus}/");
    let mut counts = BTreeMap::new();
    let mut events = 0;
    for file in stats.as_array().expect("a list of files") {
        if !file["file"].as_str().unwrap_or("").starts_with(&prefix) {
            continue;
        }
        events += file["event_tags"].as_u64().expect("event_tags");
        for (category, count) in file["outcome_claim_draw"].as_object().expect("counts") {
            *counts.entry(category.to_ascii_lowercase()).or_default() += count.as_u64().unwrap();
        }
    }
    (counts, events)
}

#[test]
fn outcome_counts_agree_with_python_chess() {
    let (Some(stats), Some(corpora)) = (shared("_stats/pgn_stats.json"), shared("corpora")) else {
        return;
    };
    let stats: Value = serde_json::from_slice(&std::fs::read(stats).unwrap()).unwrap();
    for corpus in ["pgnmentor-players", "annotated", "tcec", "samples"] {
        let path = corpora.join(corpus);
        let output = arbiter(&["export", path.to_str().unwrap(), "--format", "jsonl"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let mut ours: BTreeMap<String, u64> = BTreeMap::new();
        let mut ended_early: BTreeMap<String, u64> = BTreeMap::new();
        let records = json_lines(&stdout(&output));
        for record in &records {
            let outcome = record["outcome"].as_str().unwrap().to_owned();
            if record["end_ply"].is_null() {
                *ours.entry(outcome).or_default() += 1;
            } else {
                assert!(record["end_ply"].as_u64() < record["plies"].as_u64());
                *ended_early.entry(outcome).or_default() += 1;
            }
        }
        let (theirs, events) = reference(&stats, corpus);
        assert_eq!(records.len() as u64, events, "{corpus}: game count");
        let get = |map: &BTreeMap<String, u64>, key: &str| map.get(key).copied().unwrap_or(0);
        // The ends the rules impose on the board that python-chess's outcome names too (it has no
        // dead position beyond material).
        let imposed = Outcome::ALL.into_iter().filter(|o| {
            matches!(
                o,
                Outcome::Checkmate
                    | Outcome::Stalemate
                    | Outcome::InsufficientMaterial
                    | Outcome::SeventyfiveMoves
                    | Outcome::FivefoldRepetition
            )
        });
        for category in imposed.map(Outcome::as_str) {
            let (final_only, early) = (get(&ours, category), get(&ended_early, category));
            assert!(
                final_only <= get(&theirs, category)
                    && get(&theirs, category) <= final_only + early,
                "{corpus}: {category}: {final_only} (+{early} ended early) against {}",
                get(&theirs, category)
            );
            if early == 0 {
                assert_eq!(final_only, get(&theirs, category), "{corpus}: {category}");
            }
        }
        for category in ["fifty_moves", "threefold_repetition"] {
            assert!(
                get(&ours, category) + get(&ended_early, category) <= get(&theirs, category),
                "{corpus}: {category}: {} > {}",
                get(&ours, category),
                get(&theirs, category)
            );
        }
    }
}
