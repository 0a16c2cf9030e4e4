//! Replay and classify arbitrary PGN: the reader feeds the replayer (as validate replays, then as
//! export --plies does), no panic, no hang, and every report is consistent with itself: its
//! counts by code, `end_ply` exactly where moves after the end are warned about, both kings on
//! the final board.

#![no_main]

use arbiter::pgn::Reader;
use arbiter::core::problem::{Code, Severities, Severity};
use arbiter::core::{ReplayOptions, Replayer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As validate replays (clocks checked), and as export --plies --comments does.
    for plies in [false, true] {
        let options = ReplayOptions {
            severities: if data.first().is_some_and(|b| b & 1 == 1) {
                Severities::strict()
            } else {
                Severities::default()
            },
            extra_tags: vec!["Termination".into()],
            clock_checks: !plies,
            plies,
            comments: plies,
            ..ReplayOptions::default()
        };
        let mut replayer = Replayer::new(options);
        let mut reader = Reader::new("fuzz.pgn", data);
        let mut games = 0;
        while let Some(()) = reader
            .read_game(&mut replayer)
            .expect("in-memory reads never fail")
        {
            games += 1;
            let report = replayer.report();
            assert_eq!(report.index, games);
            assert!(report.classification.is_some(), "every game is classified");
            // Every problem is counted by its code, listed or not; the listed ones are some
            // of them (a summary of unexpected text stands for many, as does the note of the
            // problems past the listing limit).
            let counted: u64 = report
                .codes
                .seen()
                .filter(|&(code, _)| code != Code::ProblemsNotListed)
                .map(|(_, n)| n)
                .sum();
            assert_eq!(counted, u64::from(report.errors + report.warnings));
            let mut all_listed = true;
            for (code, n) in report.codes.seen() {
                let listed = report.problems.iter().filter(|p| p.code == code).count() as u64;
                assert!(listed <= n, "{code}: {listed} listed, {n} counted");
                all_listed &= listed == n;
            }
            assert!(report.problems.iter().all(|p| report
                .codes
                .seen()
                .any(|(code, _)| code == p.code)));
            if all_listed {
                let errors = report
                    .problems
                    .iter()
                    .filter(|p| p.severity == Severity::Error)
                    .count() as u32;
                assert_eq!(errors, report.errors);
            }
            if plies {
                assert_eq!(report.ply_log.plies.len(), report.plies as usize);
            }
            if !report.main_line_valid {
                assert!(report.errors > 0 && !report.first_error.is_empty());
            }
            // Moves after an automatic end are warned about exactly where export gives the
            // ply of that end.
            let after_end = report.codes.seen().any(|(code, _)| code == Code::MoveAfterEnd);
            if report.main_line_valid {
                assert_eq!(report.end_ply.is_some(), after_end, "{}", report.final_fen);
            }
            // No replay reaches a position without both kings.
            if let Some(placement) = report.final_fen.split(' ').next()
                && !placement.is_empty()
            {
                let kings = |king: char| placement.chars().filter(|&c| c == king).count();
                assert_eq!((kings('K'), kings('k')), (1, 1), "{}", report.final_fen);
            }
        }
    }
});
