//! The rulings on labelled positions: for every side of every position of each file, whether it
//! can still mate ([`judge`]), against the file's label, with the stage (tier) that decided it
//! and the time each tier took.
//!
//! ```text
//! cargo bench -p arbiter-rules --bench rulings -- [--nodes N] [--step K] [--list] [--slow MS] [--tier T] [--shortest P] FILE...
//! ```
//!
//! A file has one position a line: `XX FEN` (XX the label: `W` or `-` for White, `B` or `-`
//! for Black, as in chasolver's test sets and the shared unwinnability vector) or a bare FEN
//! (then nothing is checked against it). Lines starting with `#` are comments. Without files,
//! chasolver's two test sets (the lichess set where `arbiter_test_support::chasolver_lichess`
//! finds it, the hard set in `testdata/chasolver/`). `--nodes` is the search's limit per side
//! (the default of `moves`), `--step K` takes every K-th position only, `--list` prints every
//! undecided side, `--slow MS` every side that took at least MS milliseconds (its time, nodes,
//! tier and answer), `--tier T` every side the tier named `T` (`probe`, `dive`, `quick`,
//! `search`...) decided, with its nodes and microseconds. `--shortest P` measures how far the dives' lines
//! are from the shortest helpmates: for every side the dives decided, an exact search of every
//! line of at most P plies (by iterative deepening, at most [`SHORTEST_NODES`] positions a side)
//! gives the shortest helpmate's length, printed as a table beside the dive's. A wrong answer, or a helpmate that does not replay
//! to mate, ends the run
//! with status 1.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use arbiter_rules::mate::{CanMate, MateLimits, Solver, Tier, replays_to_mate};
use arbiter_rules::{Color, Position, epd_to_fen};

/// What one tier did: sides it answered yes, no, or left undecided, and the time they took.
#[derive(Default)]
struct Tally {
    yes: usize,
    no: usize,
    unknown: usize,
    time: Duration,
    nodes: u64,
    plies: usize,
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut limits = MateLimits::default();
    let mut step = 1usize;
    let mut shown = Shown::default();
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--nodes" => {
                limits.nodes = args.next().and_then(|n| n.parse().ok()).expect("--nodes N")
            }
            "--step" => step = args.next().and_then(|n| n.parse().ok()).expect("--step K"),
            "--list" => shown.undecided = true,
            "--slow" => {
                let ms: u64 = args.next().and_then(|n| n.parse().ok()).expect("--slow MS");
                shown.slow = Some(Duration::from_millis(ms));
            }
            "--tier" => shown.tier = Some(args.next().expect("--tier T")),
            "--shortest" => {
                let plies = args.next().and_then(|n| n.parse().ok());
                shown.shortest = Some(plies.expect("--shortest P"));
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if files.is_empty() {
        files.extend(arbiter_test_support::chasolver_lichess());
        files.push(arbiter_test_support::fixture("chasolver/positions.txt"));
    }
    let mut failed = false;
    for file in &files {
        failed |= run(file, &limits, step, &shown);
    }
    if failed {
        std::process::exit(1);
    }
}

/// The sides a run lists beside its table: the undecided ones (`--list`), those slower than
/// `slow`, those the tier named `tier` decided.
#[derive(Default)]
struct Shown {
    undecided: bool,
    slow: Option<Duration>,
    tier: Option<String>,
    shortest: Option<usize>,
}

/// Rules every side of `file`; prints the table and the sides `shown` asks for. `true` when an
/// answer was wrong.
fn run(file: &PathBuf, limits: &MateLimits, step: usize, shown: &Shown) -> bool {
    let text =
        std::fs::read_to_string(file).unwrap_or_else(|err| panic!("{}: {err}", file.display()));
    let mut tiers: BTreeMap<Tier, Tally> = BTreeMap::new();
    let (mut positions, mut refused, mut wrong) = (0usize, 0usize, 0usize);
    let mut slowest = (Duration::ZERO, String::new());
    let mut most = (0u64, String::new());
    let mut solver = Solver::new();
    let mut total = Duration::ZERO;
    // Dive lines by their length and the shortest helpmate's (`None`: longer than the bound or
    // not found within the node limit).
    let mut lengths: BTreeMap<(usize, Option<usize>), usize> = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        positions += 1;
        if (positions - 1) % step != 0 {
            continue;
        }
        let labelled = line.len() > 3 && line.as_bytes()[2] == b' ' && !line[..2].contains('/');
        let (label, fen) = if labelled {
            (Some(&line.as_bytes()[..2]), &line[3..])
        } else {
            (None, line)
        };
        let pos = match Position::from_fen(&epd_to_fen(fen)) {
            Ok(pos) => pos,
            Err(err) => {
                refused += 1;
                if shown.undecided {
                    println!("refused line {}: {fen}: {err}", number + 1);
                }
                continue;
            }
        };
        for (i, side) in Color::ALL.into_iter().enumerate() {
            if label.is_some_and(|label| label[i] == b'?') {
                continue;
            }
            let start = Instant::now();
            let verdict = solver.judge(&pos, side, limits);
            let spent = start.elapsed();
            total += spent;
            if shown.slow.is_some_and(|slow| spent >= slow) {
                println!(
                    "slow line {}: {side}: {:.1} ms, {} nodes, {:?} {:?}: {line}",
                    number + 1,
                    1e3 * spent.as_secs_f64(),
                    verdict.nodes,
                    verdict.tier,
                    verdict.answer.known()
                );
            }
            if spent > slowest.0 {
                slowest = (spent, format!("{side} {fen}"));
            }
            if verdict.nodes > most.0 && verdict.answer.known().is_some() {
                most = (verdict.nodes, format!("{side} {fen}"));
            }
            if shown.tier.as_deref() == Some(verdict.tier.name()) {
                println!(
                    "{} {side} {} nodes {:.0} µs: {fen}",
                    verdict.tier.name(),
                    verdict.nodes,
                    1e6 * spent.as_secs_f64()
                );
            }
            let tally = tiers.entry(verdict.tier).or_default();
            tally.time += spent;
            tally.nodes += verdict.nodes;
            match &verdict.answer {
                CanMate::Yes(moves) => {
                    if let Some(bound) = shown.shortest
                        && verdict.tier == Tier::Dive
                    {
                        let shortest = shortest_helpmate(&pos, side, bound);
                        *lengths.entry((moves.len(), shortest)).or_default() += 1;
                    }
                    tally.yes += 1;
                    tally.plies += moves.len();
                    if !replays_to_mate(&pos, side, moves) {
                        println!("NOT A MATE line {}: {side}: {fen}", number + 1);
                        wrong += 1;
                    }
                }
                CanMate::No => tally.no += 1,
                CanMate::Unknown => {
                    tally.unknown += 1;
                    if shown.undecided {
                        println!("undecided line {}: {side}: {line}", number + 1);
                    }
                }
            }
            if let (Some(label), Some(got)) = (label, verdict.answer.known())
                && got != (label[i] != b'-')
            {
                println!("WRONG line {}: {side} answered {got}: {line}", number + 1);
                wrong += 1;
            }
        }
    }
    let sides: usize = tiers.values().map(|t| t.yes + t.no + t.unknown).sum();
    let undecided: usize = tiers.values().map(|t| t.unknown).sum();
    println!(
        "{}: {positions} positions, {refused} refused, {sides} sides ruled",
        file.display()
    );
    println!(
        "| tier | yes | no | undecided | time (s) | µs per side | nodes per side | plies per helpmate |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (tier, t) in &tiers {
        let n = t.yes + t.no + t.unknown;
        println!(
            "| {tier:?} | {} | {} | {} | {:.3} | {:.1} | {:.0} | {:.1} |",
            t.yes,
            t.no,
            t.unknown,
            t.time.as_secs_f64(),
            1e6 * t.time.as_secs_f64() / n.max(1) as f64,
            t.nodes as f64 / n.max(1) as f64,
            t.plies as f64 / t.yes.max(1) as f64
        );
    }
    println!(
        "total {:.3} s, {:.1} µs per side; undecided {undecided}; wrong {wrong}; slowest {:.1} ms ({}); most positions for a decided side {} ({})",
        total.as_secs_f64(),
        1e6 * total.as_secs_f64() / sides.max(1) as f64,
        1e3 * slowest.0.as_secs_f64(),
        slowest.1,
        most.0,
        most.1
    );
    if let Some(bound) = shown.shortest {
        print_lengths(&lengths, bound);
    }
    wrong > 0
}

/// Positions the exact search of `--shortest` may visit for one side.
const SHORTEST_NODES: u64 = 2_000_000;

/// The length of the shortest helpmate by `side` from `pos` within `bound` plies, by iterative
/// deepening over every legal line; `None` if none is that short, or the search ran out of
/// [`SHORTEST_NODES`] first.
fn shortest_helpmate(pos: &Position, side: Color, bound: usize) -> Option<usize> {
    let mut nodes = 0u64;
    // The mating move is `side`'s: lines of odd length when `side` is to move, even otherwise.
    let first = if pos.turn() == side { 1 } else { 2 };
    (first..=bound)
        .step_by(2)
        .find(|&plies| mates_within(pos, side, plies, &mut nodes) == Some(true))
}

/// Whether some line of exactly `plies` plies from `pos` ends in a mate by `side`; `None` when
/// the node limit ran out.
fn mates_within(pos: &Position, side: Color, plies: usize, nodes: &mut u64) -> Option<bool> {
    *nodes += 1;
    if *nodes > SHORTEST_NODES {
        return None;
    }
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let found = if plies == 1 {
            child.turn() != side && child.is_checkmate()
        } else {
            mates_within(&child, side, plies - 1, nodes)?
        };
        if found {
            return Some(true);
        }
    }
    Some(false)
}

/// The table of `--shortest`: how many dive lines of each length had a shortest helpmate of
/// each length (`>P`: none within `bound` plies, or not found in the node limit).
fn print_lengths(lengths: &BTreeMap<(usize, Option<usize>), usize>, bound: usize) {
    let sides: usize = lengths.values().sum();
    let dive: usize = lengths.iter().map(|(&(d, _), &n)| d * n).sum();
    let mut by_shortest: BTreeMap<Option<usize>, (usize, usize)> = BTreeMap::new();
    for (&(d, s), &n) in lengths {
        let entry = by_shortest.entry(s).or_default();
        entry.0 += n;
        entry.1 += d * n;
    }
    println!(
        "dive sides measured {sides}, dive plies per helpmate {:.1}",
        dive as f64 / sides.max(1) as f64
    );
    println!("| shortest helpmate (plies) | sides | dive plies per helpmate |");
    println!("| ---: | ---: | ---: |");
    for (s, (n, d)) in by_shortest {
        let label = s.map_or(format!(">{bound}"), |s| s.to_string());
        println!("| {label} | {n} | {:.1} |", d as f64 / n.max(1) as f64);
    }
}
