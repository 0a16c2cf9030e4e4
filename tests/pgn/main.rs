//! Integration tests of the PGN reader and the input layer: real corpora and edge files, recovery
//! from damage, encodings, deep nesting, round trips of generated games, compressed input.

mod corpora;
mod input;
mod reading;
mod recovery;
mod roundtrip;
mod util;
