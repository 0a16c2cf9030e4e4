//! The lichess sample (438 games, 28,538 plies with `[%clk]`, 2,216 with `[%eval]`) read ply by
//! ply through arbiter's reader, as the export visitor will: each main-line move's comments go
//! into one `MoveAnnotations`, which is taken and cleared at the next move.

use std::fs;

use arbiter_core::clocks::{ClockEvidence, Eval, MoveAnnotations, TimeControl};
use arbiter_pgn::{self as pgn, GameInfo, GameResult, Location, Visitor};
use arbiter_rules::Color;

use crate::shared_data::shared;

/// One main-line ply as read: its game (1-based, file order), number, SAN and annotations.
#[derive(Clone, Debug)]
pub struct Ply {
    pub game: u64,
    pub ply: u32,
    pub san: String,
    pub notes: MoveAnnotations,
}

/// Collects the main-line plies, their annotations, the malformed commands, and the clock
/// evidence's warnings as `(game, message)`.
#[derive(Default)]
pub struct Collect {
    game: u64,
    depth: u32,
    /// Plies of the game so far; the last one takes the comments that follow it.
    current: Vec<Ply>,
    pub plies: Vec<Ply>,
    malformed: Vec<String>,
    time_control: Option<TimeControl>,
    termination: Option<String>,
    result: Option<GameResult>,
    evidence: ClockEvidence,
    warnings: Vec<(u64, String)>,
    final_clocks: Vec<(Option<u32>, Option<u32>)>,
}

impl Visitor for Collect {
    type Output = ();

    fn begin_game(&mut self, _: &GameInfo<'_>) {
        self.game += 1;
        self.depth = 0;
        self.current.clear();
        self.time_control = None;
        self.termination = None;
        self.result = None;
    }

    fn tag(&mut self, name: &str, value: &str, _: Location) {
        match name {
            "TimeControl" => self.time_control = TimeControl::parse(value).ok(),
            "Termination" => self.termination = Some(value.to_string()),
            "Result" => self.result = Some(GameResult::from_tag(value)),
            _ => {}
        }
    }

    fn san(&mut self, san: &str, _: Location) {
        if self.depth == 0 {
            let ply = self.current.len() as u32 + 1;
            self.current.push(Ply {
                game: self.game,
                ply,
                san: san.to_string(),
                notes: MoveAnnotations::default(),
            });
        }
    }

    fn comment(&mut self, text: &str, _: Location) {
        if self.depth > 0 {
            return;
        }
        let game = self.game;
        if let Some(ply) = self.current.last_mut() {
            let malformed = &mut self.malformed;
            ply.notes
                .read(text, |bad| malformed.push(format!("game {game}: {bad}")));
        }
    }

    fn begin_variation(&mut self, _: Location) -> pgn::Flow {
        self.depth += 1;
        pgn::Flow::Continue
    }

    fn end_variation(&mut self, _: Location) {
        self.depth -= 1;
    }

    fn end_game(&mut self, _: &GameInfo<'_>) {
        let game = self.game;
        let warnings = &mut self.warnings;
        self.evidence.begin_game(self.time_control.as_ref());
        for ply in &self.current {
            let mover = if ply.ply % 2 == 1 {
                Color::White
            } else {
                Color::Black
            };
            self.evidence.ply(ply.ply, mover, ply.notes.clock, |w| {
                warnings.push((game, format!("ply {}: {w}", w.ply())))
            });
        }
        self.evidence.end_game(
            self.termination.as_deref(),
            self.result.unwrap_or(GameResult::Unknown),
            |w| warnings.push((game, format!("ply {}: {w}", w.ply()))),
        );
        self.final_clocks.push((
            self.evidence.final_clock(Color::White),
            self.evidence.final_clock(Color::Black),
        ));
        self.plies.append(&mut self.current);
    }
}

/// Reads the lichess sample, or `None` when the shared data is absent (and not required).
pub fn read_sample() -> Option<Collect> {
    let path = shared("corpora/samples/lichess_db_1000k.pgn")?;
    let bytes = fs::read(&path).expect("read the lichess sample");
    let mut reader = pgn::Reader::new("lichess_db_1000k.pgn", &bytes[..]);
    let mut collect = Collect::default();
    while reader
        .read_game(&mut collect)
        .expect("read a game")
        .is_some()
    {}
    Some(collect)
}

/// A JSON number or null as milliseconds from seconds.
fn millis(value: &serde_json::Value) -> Option<u32> {
    value
        .as_f64()
        .map(|seconds| (seconds * 1000.0).round() as u32)
}

#[test]
fn clocks_and_evals_match_python_chess() {
    let Some(collect) = read_sample() else {
        return;
    };
    let Some(expected) = shared("expected/lichess_plies.jsonl") else {
        return;
    };
    let expected = fs::read_to_string(expected).expect("read lichess_plies.jsonl");
    let expected: Vec<serde_json::Value> = expected
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(collect.game, 438);
    assert_eq!(collect.plies.len(), 28_538);
    assert_eq!(expected.len(), collect.plies.len());
    assert!(collect.malformed.is_empty(), "{:?}", collect.malformed);

    let (mut clocks, mut evals, mut mates) = (0, 0, 0);
    for (ours, theirs) in collect.plies.iter().zip(&expected) {
        let at = format!("game {} ply {} {}", ours.game, ours.ply, ours.san);
        assert_eq!(theirs["game"].as_u64(), Some(ours.game), "{at}");
        assert_eq!(theirs["ply"].as_u64(), Some(u64::from(ours.ply)), "{at}");
        // python-chess writes SAN without the `!`/`?` suffixes, as arbiter's reader hands it.
        assert_eq!(theirs["san"].as_str(), Some(ours.san.as_str()), "{at}");
        assert_eq!(ours.notes.clock, millis(&theirs["clock"]), "{at}: clock");
        assert_eq!(ours.notes.emt, millis(&theirs["emt"]), "{at}: emt");
        let (cp, mate) = match ours.notes.eval {
            Some(Eval::Centipawns(cp)) => (Some(i64::from(cp)), None),
            Some(Eval::Mate(n)) => (None, Some(i64::from(n))),
            None => (None, None),
        };
        assert_eq!(cp, theirs["eval_cp"].as_i64(), "{at}: eval_cp");
        assert_eq!(mate, theirs["eval_mate"].as_i64(), "{at}: eval_mate");
        clocks += usize::from(ours.notes.clock.is_some());
        evals += usize::from(cp.is_some());
        mates += usize::from(mate.is_some());
    }
    assert_eq!((clocks, evals, mates), (28_538, 2_040, 176));
}

#[test]
fn clock_evidence_of_the_lichess_sample() {
    let Some(collect) = read_sample() else {
        return;
    };
    let warnings: Vec<String> = collect
        .warnings
        .iter()
        .map(|(game, message)| format!("game {game}: {message}"))
        .collect();
    assert_eq!(warnings, EXPECTED_WARNINGS, "{warnings:#?}");
    // Every game of two plies or more (428; 5 have one ply, 5 none) has both final clocks, and
    // the first game's are its last readings.
    assert_eq!(collect.final_clocks.len(), 438);
    let count = |white: bool, black: bool| {
        collect
            .final_clocks
            .iter()
            .filter(|(w, b)| w.is_some() == white && b.is_some() == black)
            .count()
    };
    assert_eq!(
        (count(true, true), count(true, false), count(false, false)),
        (428, 5, 5)
    );
    let first = collect
        .plies
        .iter()
        .filter(|p| p.game == 1)
        .collect::<Vec<_>>();
    let last_of = |parity: u32| {
        first
            .iter()
            .rev()
            .find(|p| p.ply % 2 == parity)
            .and_then(|p| p.notes.clock)
    };
    assert_eq!(collect.final_clocks[0], (last_of(1), last_of(0)));
}

/// The warnings the clock rules give on the lichess sample, found independently with a short
/// Python script over `expected/lichess_plies.jsonl` and the tags (a rise beyond the increment +
/// 1 s from the same side's previous clock; a clock above base + k x increment + 1 s after the
/// side's k-th move, the bound raised to the reading after a warning; a loss on time proves
/// nothing with the loser to move, and no loser made the last move there). All four are rises of
/// 40 s to 5 min within one move: lichess players giving their opponent time.
const EXPECTED_WARNINGS: &[&str] = &[
    "game 189: ply 68: Black's clock rose from 0:01:04 (ply 66) to 0:01:44, more than the 0:00:01 \
     the time control and a 1 s tolerance allow",
    "game 353: ply 21: White's clock rose from 0:07:06 (ply 19) to 0:12:13, more than the 0:00:01 \
     the time control and a 1 s tolerance allow",
    "game 353: ply 71: White's clock rose from 0:06:13 (ply 69) to 0:07:02, more than the 0:00:01 \
     the time control and a 1 s tolerance allow",
    "game 365: ply 73: White's clock rose from 0:00:07 (ply 71) to 0:00:50, more than the 0:00:02 \
     the time control and a 1 s tolerance allow",
];
