//! Library-level tests of SAN and UCI: message texts, leniency, round trips over the perft
//! suites and random play, a differential test against shakmaty, and the python-chess reference
//! table of move counts and statuses.

mod data;
mod differential;
mod errors;
mod leniency;
mod reference;
mod roundtrip;
