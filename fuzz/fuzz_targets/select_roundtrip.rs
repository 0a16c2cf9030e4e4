//! select's round trip (issue 27 point 2) on arbitrary PGN: every game that select writes from
//! its tree (a valid game, every move replayed, a Result it can write) reads back with no error
//! as the same game: the same tags (the Seven Tag Roster first, a missing one filled in), the
//! same moves, comments (whitespace folded, as written), NAGs, variations and marker, the same
//! export record; and it is written again byte for byte ([`arbiter::check_round_trip`]). Nothing
//! panics.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(what) = arbiter::select::check_round_trip("fuzz.pgn", data) {
        panic!("{what}");
    }
});
