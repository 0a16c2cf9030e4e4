//! Perft on every position of the shared suites, at every listed depth within the node budget.

use arbiter_rules::{Position, divide, perft};

use crate::data;

/// One position with its expected counts.
struct Entry {
    source: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

/// `id …` / `epd FEN` / `perft D N` blocks.
fn parse_perft_blocks(name: &str, text: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(fen) = line.strip_prefix("epd ") {
            entries.push(Entry {
                source: format!("{name}:{}", i + 1),
                fen: fen.to_string(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let nodes = parts.next().and_then(|n| n.parse().ok());
            let entry = entries.last_mut();
            match (depth, nodes, entry) {
                (Some(d), Some(n), Some(e)) => e.counts.push((d, n)),
                _ => panic!("{name}:{}: bad perft line {line:?}", i + 1),
            }
        }
    }
    entries
}

/// `FEN ;D1 20 ;D2 400 …` lines.
fn parse_epd_suite(name: &str, text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let counts = parts
            .map(|p| {
                let mut it = p.split_whitespace();
                let depth = it.next().and_then(|d| d.strip_prefix('D')?.parse().ok());
                let nodes = it.next().and_then(|n| n.parse().ok());
                match (depth, nodes) {
                    (Some(d), Some(n)) => (d, n),
                    _ => panic!("{name}:{}: bad count {p:?}", i + 1),
                }
            })
            .collect();
        entries.push(Entry {
            source: format!("{name}:{}", i + 1),
            fen,
            counts,
        });
    }
    entries
}

/// Every perft suite file of the shared test data.
pub const SUITES: [&str; 9] = [
    "perft/python-chess/random.perft",
    "perft/python-chess/tricky.perft",
    "perft/shakmaty/tricky.perft",
    "perft/python-chess/chess960.perft",
    "perft/shakmaty/chess960.perft",
    "perft/pychess/frc_perftsuite.epd",
    "perft/pychess/perftsuite.epd",
    "perft/pychess/perftsuite2.epd",
    "perft/sunfish/perft.epd",
];

/// The positions of a suite file (`None` to skip, see [`data::read`]), for the tests that walk
/// the same positions otherwise.
pub fn suite_positions(file: &str) -> Option<Vec<(String, Position)>> {
    let text = data::read(file)?;
    let entries = if file.ends_with(".epd") {
        parse_epd_suite(file, &text)
    } else {
        parse_perft_blocks(file, &text)
    };
    let positions = entries
        .into_iter()
        .map(|entry| {
            let pos = Position::from_fen_lenient_chess960(&entry.fen)
                .unwrap_or_else(|err| panic!("{}: {:?} rejected: {err}", entry.source, entry.fen));
            (entry.source, pos)
        })
        .collect();
    Some(positions)
}

/// Runs the entries, returns how many (position, depth) pairs were checked.
fn run(entries: &[Entry]) -> usize {
    let budget = data::node_budget();
    let mut checked = 0;
    for entry in entries {
        // Some suite positions have impossible checks (e.g. two bishops on one diagonal).
        let pos = Position::from_fen_lenient_chess960(&entry.fen)
            .unwrap_or_else(|err| panic!("{}: {:?} rejected: {err}", entry.source, entry.fen));
        for &(depth, nodes) in &entry.counts {
            if nodes > budget {
                continue;
            }
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{}: {} depth {depth}",
                entry.source,
                entry.fen
            );
            checked += 1;
        }
    }
    checked
}

fn suite(files: &[&str], min_checked: usize) {
    let mut checked = 0;
    for file in files {
        let Some(text) = data::read(file) else { return };
        let entries = if file.ends_with(".epd") {
            parse_epd_suite(file, &text)
        } else {
            parse_perft_blocks(file, &text)
        };
        assert!(!entries.is_empty(), "{file}: no entries parsed");
        checked += run(&entries);
    }
    eprintln!("{files:?}: {checked} (position, depth) entries checked");
    assert!(
        checked >= min_checked,
        "only {checked} perft entries checked, expected at least {min_checked}"
    );
}

#[test]
fn python_chess_random() {
    suite(&["perft/python-chess/random.perft"], 6838 * 2);
}

#[test]
fn tricky() {
    suite(
        &[
            "perft/python-chess/tricky.perft",
            "perft/shakmaty/tricky.perft",
        ],
        90,
    );
}

#[test]
fn chess960() {
    suite(
        &[
            "perft/python-chess/chess960.perft",
            "perft/shakmaty/chess960.perft",
            "perft/pychess/frc_perftsuite.epd",
        ],
        960 * 2 * 2,
    );
}

#[test]
fn classic_suites() {
    suite(
        &[
            "perft/pychess/perftsuite.epd",
            "perft/pychess/perftsuite2.epd",
            "perft/sunfish/perft.epd",
        ],
        127 * 2 * 3,
    );
}

#[test]
fn divide_sums_to_perft() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = Position::from_fen(kiwipete).expect("kiwipete");
    let div = divide(&pos, 3);
    assert_eq!(div.len(), 48);
    assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 97862);
    assert!(divide(&pos, 0).is_empty());
}
