//! The replay on its own: a [`Replayer`] driven by the PGN reader, one game at a time, and what its
//! [`GameReport`] says of legal games, illegal moves on and off the main line, moves after an
//! automatic end, move numbers and check marks, clocks, the tags it keeps, and what it records
//! only when asked.

use arbiter_pgn::{LineCol, Reader};

use super::*;
use crate::outcome::{Outcome, Winner};
use crate::problem::{Code, Severities, Severity};

/// The reports of every game of `pgn`, replayed with `options`, in order.
fn replay_all(pgn: &str, options: ReplayOptions) -> Vec<GameReport> {
    let mut replayer = Replayer::new(options);
    let mut reader = Reader::new("t.pgn", pgn.as_bytes());
    let mut reports = Vec::new();
    while reader
        .read_game(&mut replayer)
        .expect("no read error")
        .is_some()
    {
        reports.push(replayer.report().clone());
    }
    reports
}

/// The report of the one game of `pgn`.
fn replay(pgn: &str) -> GameReport {
    let mut reports = replay_all(pgn, ReplayOptions::default());
    assert_eq!(reports.len(), 1, "{pgn}");
    reports.remove(0)
}

/// The codes of `report`'s problems, in order.
/// Options that check the clocks, with the game's tree and with ply rows (and their comments)
/// as asked: the ways a clock comment can be read, compared by the clock tests below.
fn clock_options(tree: bool, plies: bool) -> ReplayOptions {
    ReplayOptions {
        clock_checks: true,
        tree,
        plies,
        comments: plies,
        ..ReplayOptions::default()
    }
}

fn codes(report: &GameReport) -> Vec<Code> {
    report.problems.iter().map(|p| p.code).collect()
}

#[test]
fn a_legal_game_is_replayed_to_its_end_and_judged() {
    let report = replay("[White \"A\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    assert_eq!(report.plies, 4);
    assert!(report.main_line_valid);
    assert_eq!((report.errors, report.warnings), (0, 0));
    assert_eq!(report.tags.white, "A");
    assert_eq!(
        report.final_fen,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    let judged = report.classification.expect("judged");
    assert_eq!(
        (judged.outcome, judged.winner, judged.result_consistent),
        (Outcome::Checkmate, Winner::Black, true)
    );
}

#[test]
fn an_illegal_move_is_located_and_ends_the_main_line() {
    let report = replay("1. e4 e5\n2. Ke3 Nc6 *\n");
    assert_eq!(codes(&report), [Code::IllegalMove]);
    let problem = &report.problems[0];
    assert_eq!(problem.severity, Severity::Error);
    assert_eq!(problem.at, LineCol { line: 2, column: 4 });
    assert_eq!(
        (problem.ply, problem.san.as_deref()),
        (Some(3), Some("Ke3"))
    );
    assert!(problem.variation.is_none());
    assert!(!report.main_line_valid);
    assert_eq!(report.plies, 2, "the plies before the illegal move");
    assert!(
        report.first_error.starts_with("2:4: ply 3 \"Ke3\": "),
        "{}",
        report.first_error
    );
    assert_eq!(
        report.classification.map(|c| c.outcome),
        Some(Outcome::Invalid)
    );
}

#[test]
fn an_illegal_move_in_a_variation_leaves_the_main_line_valid() {
    let report = replay("1. e4 (1. d4 d5 2. Ke3) e5 2. Nf3 *\n");
    assert_eq!(codes(&report), [Code::IllegalMove]);
    let problem = &report.problems[0];
    assert_eq!(problem.ply, Some(3));
    assert!(problem.variation.is_some(), "{problem:?}");
    assert!(report.main_line_valid);
    assert_eq!(report.plies, 3);
    assert_eq!(report.errors, 1, "the game is still invalid");
}

#[test]
fn moves_after_an_automatic_end_are_a_warning_and_the_end_ply_is_kept() {
    // Both sides shuffle their knights: the start position's fifth occurrence ends the game at
    // ply 16, and the moves after it change nothing.
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    let mut pgn = String::new();
    for (i, san) in shuffle.split_whitespace().enumerate() {
        if i % 2 == 0 {
            pgn.push_str(&format!("{}. ", i / 2 + 1));
        }
        pgn.push_str(san);
        pgn.push(' ');
    }
    pgn.push_str("9. e4 1/2-1/2\n");
    let report = replay(&pgn);
    assert_eq!(report.end_ply, Some(16));
    assert_eq!(
        report.classification.map(|c| c.outcome),
        Some(Outcome::FivefoldRepetition)
    );
    assert_eq!(codes(&report), [Code::MoveAfterEnd]);
    assert_eq!(report.problems[0].ply, Some(17));
}

#[test]
fn a_wrong_move_number_and_check_mark_are_warnings() {
    let report = replay("1. e4 e5 3. Qh5+ Nc6 *\n");
    assert_eq!(
        codes(&report),
        [Code::WrongMoveNumber, Code::WrongCheckMark]
    );
    assert_eq!((report.errors, report.warnings), (0, 2));
    assert!(report.main_line_valid);
    let strict = replay_all(
        "1. e4 e5 3. Qh5+ Nc6 *\n",
        ReplayOptions {
            severities: Severities::strict(),
            ..ReplayOptions::default()
        },
    );
    assert_eq!((strict[0].errors, strict[0].warnings), (2, 0));
}

#[test]
fn clocks_and_a_malformed_command_are_read_from_the_main_line_comments() {
    // The clocks are read for export; a malformed command is a warning under `clock_checks`.
    let pgn = "[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:01] } e5 { [%clk 0:02:59.5] } \
               2. Nf3 { [%clk 1:xx] } *\n";
    let report = replay(pgn);
    assert_eq!(report.final_clocks, [Some(181_000), Some(179_500)]);
    assert_eq!(report.base_and_increment, Some((180, 2)));
    assert!(
        report.problems.is_empty(),
        "commands are checked by validate only"
    );
    let checked = ReplayOptions {
        clock_checks: true,
        ..ReplayOptions::default()
    };
    let report = &replay_all(pgn, checked)[0];
    assert_eq!(codes(report), [Code::MalformedCommand]);
    assert_eq!(report.problems[0].ply, Some(3));
}

#[test]
fn a_clock_is_checked_as_it_is_read_and_its_warning_given_when_its_ply_is_complete() {
    // Black's clock rises 30 s at ply 4 in a game without increment. Its warning comes after
    // the malformed command of the ply's second comment and after the next move's wrong check
    // mark: problems come in the order the replay has always given them, the clock's once its
    // ply is complete. (White lost on time, but Black moved last: no proof either way.)
    let pgn = "[TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n[Result \"0-1\"]\n\n\
               1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:50] } \
               Nc6 { [%clk 0:01:30] } { [%clk x] } 3. Bb5+ { [%clk 0:00:40] } a6 0-1\n";
    let checked = ReplayOptions {
        clock_checks: true,
        ..ReplayOptions::default()
    };
    let report = &replay_all(pgn, checked)[0];
    let seen: Vec<(Code, Option<u32>)> = report.problems.iter().map(|p| (p.code, p.ply)).collect();
    assert_eq!(
        seen,
        [
            (Code::MalformedCommand, Some(4)),
            (Code::WrongCheckMark, Some(5)),
            (Code::ClockRise, Some(4)),
        ],
        "{:?}",
        report.problems
    );
    let rise = &report.problems[2];
    assert_eq!(rise.at.column, 78, "at the comment holding the clock");
    // The last clock of a game is checked against the termination: White lost on time with
    // 40 s on a stopped clock after the last move.
    let pgn = "[TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n[Result \"0-1\"]\n\n\
               1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:40] } 0-1\n";
    let checked = ReplayOptions {
        clock_checks: true,
        ..ReplayOptions::default()
    };
    let report = &replay_all(pgn, checked)[0];
    assert_eq!(
        codes(report),
        [Code::TimeLeftAtForfeit],
        "{:?}",
        report.problems
    );
    assert_eq!(report.problems[0].ply, Some(3));
}

#[test]
fn without_the_final_fen_every_other_part_of_a_report_is_the_same() {
    // Validate asks for no final FEN: the verdicts, problems and everything else a report holds
    // must not depend on it. Games that end every way the judge knows, and broken ones.
    let pgn = "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
               [FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n\
               1. Qf7 1-0\n\n\
               [FEN \"8/8/8/8/8/8/k1K5/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kc3 Kb1 1-0\n\n\
               1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n\
               [TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n[Result \"0-1\"]\n\n\
               1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:30] } 2. Qh5 { [%clk 0:00:40] } 0-1\n\n\
               1. e4 e5 2. Ke3 Nc6 (2... Nf6 3. Bb5) *\n\n1. e4 e5 2. Nf3+ Nc6 0-1\n";
    let options = |final_fen| ReplayOptions {
        clock_checks: true,
        final_fen,
        ..ReplayOptions::default()
    };
    let with = replay_all(pgn, options(true));
    let without = replay_all(pgn, options(false));
    assert_eq!(with.len(), 7);
    for (mut with, without) in with.into_iter().zip(without) {
        assert!(without.final_fen.is_empty());
        assert!(!with.final_fen.is_empty());
        with.final_fen.clear();
        assert_eq!(format!("{with:?}"), format!("{without:?}"));
    }
}

#[test]
fn a_game_turned_down_on_its_tags_is_replayed_for_its_problems_but_not_judged() {
    // Select asks for the movetext of the games whose White is "Keep" only. Of the games it
    // turns down it counts only the invalid ones: their errors are found as before, but no
    // verdict, ruling or final FEN is made, unless a problem of the judgment is an error.
    let pgn = "[White \"Keep\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
               [White \"Drop\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
               [White \"Drop\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n";
    let options = |severities| ReplayOptions {
        severities,
        tree: true,
        movetext_if: Some(TagTest::new(|report: &GameReport| {
            report.tags.white == "Keep"
        })),
        ..ReplayOptions::default()
    };
    let seen = |report: &GameReport| {
        (
            report.tags_passed,
            report.classification.map(|c| c.outcome),
            report.final_fen.is_empty(),
            report.errors,
            codes(report),
        )
    };
    let reports = replay_all(pgn, options(Severities::default()));
    assert_eq!(
        reports.iter().map(seen).collect::<Vec<_>>(),
        [
            (
                Some(true),
                Some(Outcome::Checkmate),
                false,
                0,
                vec![Code::ResultContradictsBoard]
            ),
            (Some(false), None, true, 0, vec![]),
            (Some(false), None, true, 1, vec![Code::IllegalMove]),
        ]
    );
    // With the contradiction an error, the game turned down is judged: it is invalid.
    let mut severities = Severities::default();
    severities.deny(Code::ResultContradictsBoard);
    let reports = replay_all(pgn, options(severities));
    assert_eq!(
        seen(&reports[1]),
        (
            Some(false),
            Some(Outcome::Checkmate),
            false,
            1,
            vec![Code::ResultContradictsBoard]
        )
    );
}

#[test]
fn the_tags_asked_for_are_kept_in_their_order() {
    let pgn = "[Annotator \"X\"]\n[Event \"E\"]\n\n1. e4 *\n";
    let options = ReplayOptions {
        extra_tags: vec!["WhiteTitle".into(), "Annotator".into()],
        ..ReplayOptions::default()
    };
    let report = &replay_all(pgn, options)[0];
    assert_eq!(report.tags.event, "E");
    assert_eq!(report.tags.extra, ["", "X"]);
}

#[test]
fn the_ply_log_and_the_tree_are_recorded_only_when_asked() {
    let pgn = "[Event \"E\"]\n\n1. e4 $1 { good } (1. d4) e5 *\n";
    let plain = replay(pgn);
    assert!(plain.ply_log.plies.is_empty());
    assert!(plain.tree.nodes().is_empty() && plain.source.is_empty());
    let options = ReplayOptions {
        plies: true,
        comments: true,
        tree: true,
        ..ReplayOptions::default()
    };
    let full = &replay_all(pgn, options)[0];
    assert_eq!(full.ply_log.plies.len(), 2);
    assert_eq!(full.ply_log.nags(&full.ply_log.plies[0]), [1]);
    assert_eq!(full.ply_log.comment(&full.ply_log.plies[0]), "good");
    assert_eq!(full.tree.main_line().collect::<Vec<_>>(), ["e4", "e5"]);
    assert_eq!(full.tree.tag_value("Event"), Some("E"));
    assert_eq!(full.source, pgn.as_bytes());
}

#[test]
fn one_replayer_judges_each_game_afresh() {
    let reports = replay_all(
        "1. e4 e5 2. Ke3 *\n\n1. d4 d5 1/2-1/2\n",
        ReplayOptions::default(),
    );
    assert_eq!(reports.len(), 2);
    assert_eq!((reports[0].errors, reports[1].errors), (1, 0));
    assert_eq!(reports[1].plies, 2);
    assert!(reports[1].problems.is_empty());
    assert_eq!(
        reports[1].classification.map(|c| c.outcome),
        Some(Outcome::Agreement)
    );
}

/// Games whose verdict reads the final position's ruling: dead by a wall with a decisive
/// result, flag falls won by a side that cannot mate and by sides that can, an end by
/// insufficient material that moves followed, a mate, a stalemate, an ordinary game.
const RULED_GAMES: &str = "\
[FEN \"8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kc2 Kd6 2. Kd2 Ke6 1-0\n\n\
[FEN \"4k3/r7/8/8/8/8/8/4K3 b - - 0 1\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1... Ra2 1-0\n\n\
[FEN \"4k3/r7/8/8/8/8/8/4K3 b - - 0 1\"]\n[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n1... Ra2 0-1\n\n\
[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 0 1\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1... Kd7 1-0\n\n\
[FEN \"8/8/4k3/p1p1p1p1/P1P1P1P1/8/3K4/8 w - - 0 1\"]\n[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n\n1. Kc2 0-1\n\n\
[FEN \"4k3/8/8/8/8/8/3n4/4K3 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kxd2 Kd7 2. Ke3 1-0\n\n\
[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
[FEN \"k7/8/K7/8/8/8/8/1Q6 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Qb6 1-0\n\n\
[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";

#[test]
fn the_verdict_only_ruling_judges_every_game_as_both_sides_do() {
    for budget in [0, 20_000] {
        let options = |rulings| ReplayOptions {
            clock_checks: true,
            rulings_budget: budget,
            rulings,
            ..ReplayOptions::default()
        };
        let both = replay_all(RULED_GAMES, options(RulingsWanted::BothSides));
        let verdict = replay_all(RULED_GAMES, options(RulingsWanted::VerdictOnly));
        assert_eq!(both.len(), 9);
        let mut skipped = 0;
        for (both, verdict) in both.iter().zip(&verdict) {
            let game = format!("game {}, budget {budget}", both.index);
            assert_eq!(verdict.problems, both.problems, "{game}");
            assert_eq!(verdict.classification, both.classification, "{game}");
            assert_eq!(verdict.end_ply, both.end_ply, "{game}");
            for (given, all) in verdict.can_mate.iter().zip(&both.can_mate) {
                if given.is_some() {
                    assert_eq!(given, all, "{game}");
                } else if all.is_some() {
                    skipped += 1;
                }
            }
        }
        // Sides the verdict does not read were left unruled: the wall's flag fall needs both,
        // the rook's flag fall won by the bare king needs both; the rook's own win does not.
        assert!(skipped > 0, "budget {budget}");
        let unwinnable = verdict[1].classification.expect("judged");
        assert_eq!(
            (unwinnable.winner, unwinnable.unwinnable_flag_fall),
            (Winner::Draw, Some("too little material"))
        );
        assert_eq!(
            verdict[1].can_mate[0],
            Some(false),
            "the flag's winner is ruled"
        );
        assert!(codes(&verdict[0]).contains(&Code::MoveAfterEnd));
        assert_eq!(
            verdict[5].can_mate,
            [None, None],
            "an earlier end: nothing ruled"
        );
    }
}

#[test]
fn a_game_without_timed_periods_checks_its_sparse_clocks_as_with_ply_rows() {
    // Clocks on some plies only, in games without a time control of timed periods: the ply
    // rows' path hands every ply to the evidence, the validate path only those with a clock and
    // the last; the warnings are the same (a loss on time with the loser's stopped clock
    // showing 0:01:00 on the last ply, and the same clock one ply before the end).
    let pgn = "\
[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"-\"]\n\n\
1. e4 e5 2. Nf3 { [%clk 0:02:00] } Nc6 3. Bb5 a6 { [%clk 0:01:00] } 1-0\n\n\
[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n\
1. e4 e5 2. Nf3 Nc6 { [%clk 0:01:00] } 3. Bb5 a6 { [%eval 0.2] } 1-0\n\n\
[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"?\"]\n\n\
1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:01:00] [%eval x] } 0-1\n";
    let options = |plies| ReplayOptions {
        clock_checks: true,
        plies,
        ..ReplayOptions::default()
    };
    let rows = replay_all(pgn, options(true));
    let checks = replay_all(pgn, options(false));
    assert_eq!(rows.len(), 3);
    for (rows, checks) in rows.iter().zip(&checks) {
        assert_eq!(checks.problems, rows.problems, "game {}", rows.index);
        assert_eq!(
            checks.final_clocks, rows.final_clocks,
            "game {}",
            rows.index
        );
    }
    assert_eq!(codes(&checks[0]), [Code::TimeLeftAtForfeit]);
    assert_eq!(codes(&checks[1]), []);
    assert_eq!(
        codes(&checks[2]),
        [Code::MalformedCommand, Code::TimeLeftAtForfeit]
    );
}

#[test]
fn clocks_taken_at_once_warn_as_the_general_reading_does() {
    // Validate takes a main-line ply's first clock at once, from the move until a variation
    // opens or the main line stops ("armed" notes); a replay that keeps the tree, or the ply
    // rows with their comments, reads every comment the general way. Each game has a clock that
    // the quick way would take wrongly if it were armed where it must not be: in a variation
    // (then the next reading rises), after an illegal move or a null move after mate (then a
    // first reading is above the time given), a second clock of a ply.
    let pgn = "\
[TimeControl \"60+0\"]\n\n\
1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 (2. Nc3 { [%clk 0:00:59] }) \
{ [%clk 0:00:50] } Nc6 { [%clk 0:00:55] } 3. Bb5 { [%clk 0:00:58] } a6 *\n\n\
[TimeControl \"60+0\"]\n\n\
1. e4 { [%clk 0:01:00] } e5 2. Ke3 { [%clk 0:02:00] } Nc6 { [%clk 0:03:00] } *\n\n\
[TimeControl \"60+0\"]\n[Result \"0-1\"]\n\n\
1. f3 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. g4 { [%clk 0:00:59] } Qh4# -- \
{ [%clk 0:02:00] } 0-1\n\n\
[TimeControl \"60+0\"]\n\n\
1. e4 { [%eval 0.2] [%clk 0:01:00] } { [%clk 0:03:00] } e5 { [%clk 0:01:00] } \
{ [%eval 0.3] [%clk 0:00:30] } 2. Nf3 { [%clk 0:01:05] } Nc6 { [%eval x] [%clk 0:01:00] } \
3. Bb5 { [%eval -1.25] [%clk 0:00:40] } { [%eval #-3] [%clk 0:00:30] } a6 \
{ [%eval #4] [%clk 0:01:00] } *\n\n\
[TimeControl \"60+0\"]\n\n\
{ [%clk 0:05:00] } 1. e4 (1. d4 { [%eval 0.1] [%clk 0:00:10] }) { [%clk 0:01:00] } \
e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:10] } (2. Nc3) Nc6 { [%clk 0:00:50] } \
3. Bb5 (3. Bc4 { [%clk 0:00:01] } (3. Bd3)) { [%clk 0:00:20] } *\n\n\
[TimeControl \"180+2\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\n\
1... Kd7 { [%clk 0:03:00] } 2. e4 { [%clk 0:03:00] } Kd6 {[%clk 0:03:05]} \
3. e5+ { [%clk 0:03:01.5] } Kd5 { [%clk 0:03:01] } 4. Kf2 { [%clk 0:02:59] } *\n\n\
[TimeControl \"60+0\"]\n[Termination \"Time forfeit\"]\n[Result \"0-1\"]\n\n\
1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:50] } \
Nc6 { [%clk 0:01:30] } { [%clk x] } 3. Bb5+ { [%clk 0:00:40] } a6 4. O-O \
{ [%clk 0:00:30] } 0-1\n";
    let quick = replay_all(pgn, clock_options(false, false));
    assert_eq!(quick.len(), 7);
    for general in [clock_options(true, false), clock_options(false, true)] {
        let general = replay_all(pgn, general);
        for (quick, general) in quick.iter().zip(&general) {
            assert_eq!(quick.problems, general.problems, "game {}", quick.index);
            assert_eq!(
                quick.final_clocks, general.final_clocks,
                "game {}",
                quick.index
            );
        }
    }
    let clock_codes = |report: &GameReport| {
        let warnings = [
            Code::ClockRise,
            Code::ClockAboveTimeGiven,
            Code::TimeLeftAtForfeit,
        ];
        codes(report)
            .into_iter()
            .filter(|code| warnings.contains(code))
            .collect::<Vec<_>>()
    };
    // The warnings the quick way must not lose or add.
    assert_eq!(clock_codes(&quick[0]), [Code::ClockRise]);
    assert_eq!(clock_codes(&quick[1]), []);
    assert_eq!(clock_codes(&quick[2]), []);
    assert_eq!(clock_codes(&quick[3]), [Code::ClockRise]);
    assert_eq!(clock_codes(&quick[4]), [Code::ClockRise]);
    assert_eq!(clock_codes(&quick[5]), [Code::ClockRise]);
    assert_eq!(
        clock_codes(&quick[6]),
        [Code::ClockRise, Code::TimeLeftAtForfeit]
    );
}

#[test]
fn lichess_games_warn_alike_whether_their_clocks_are_taken_at_once_or_read_in_general() {
    // The shared lichess sample (438 games, a clock per move, evaluations in some), as it is and
    // with a variation holding a null move and a clock before every seventh clock comment: the
    // quick way (validate's) and the general reading (a tree kept; ply rows with comments) give
    // the same problems and last clocks.
    let Some(text) = arbiter_test_support::shared_text("corpora/samples/lichess_db_1000k.pgn")
    else {
        return;
    };
    let mut varied = String::with_capacity(text.len() * 2);
    for (i, piece) in text.split(" { [%clk").enumerate() {
        if i > 0 {
            if i % 7 == 0 {
                varied.push_str(" ( -- { [%clk 0:00:01] } )");
            }
            varied.push_str(" { [%clk");
        }
        varied.push_str(piece);
    }
    for pgn in [&text, &varied] {
        let quick = replay_all(pgn, clock_options(false, false));
        assert_eq!(quick.len(), 438);
        for general in [clock_options(true, false), clock_options(false, true)] {
            let general = replay_all(pgn, general);
            assert_eq!(general.len(), quick.len());
            for (quick, general) in quick.iter().zip(&general) {
                assert_eq!(quick.problems, general.problems, "game {}", quick.index);
                assert_eq!(
                    quick.final_clocks, general.final_clocks,
                    "game {}",
                    quick.index
                );
            }
        }
        // The clocks do warn: the comparison has warnings to lose.
        let rises = quick
            .iter()
            .flat_map(|report| &report.problems)
            .filter(|problem| problem.code == Code::ClockRise)
            .count();
        assert!(rises > 0, "{rises}");
    }
}
