//! Replay and classify arbitrary PGN: the reader feeds the replayer (as validate replays, then as
//! export --plies does), no panic, no hang, and every report is consistent with itself.

#![no_main]

use arbiter::pgn::Reader;
use arbiter::{ReplayOptions, Replayer};
use arbiter::{Code, Severity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As validate replays (clocks checked), and as export --plies --comments does.
    for plies in [false, true] {
        let options = ReplayOptions {
            strict: data.first().is_some_and(|b| b & 1 == 1),
            extra_tags: vec!["Termination".into()],
            clock_checks: !plies,
            plies,
            comments: plies,
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
            let listed = report
                .problems
                .iter()
                .filter(|p| p.code != Code::ProblemsNotListed);
            let errors = listed
                .clone()
                .filter(|p| p.severity == Severity::Error)
                .count() as u32;
            let total = listed.count() as u32;
            if total == report.problems.len() as u32 {
                assert_eq!(errors, report.errors);
                assert_eq!(total, report.errors + report.warnings);
            } else {
                assert!(errors <= report.errors && total < report.errors + report.warnings);
            }
            if plies {
                assert_eq!(report.ply_log.plies.len(), report.plies as usize);
            }
            if !report.main_line_valid {
                assert!(report.errors > 0 && !report.first_error.is_empty());
            }
        }
    }
});
