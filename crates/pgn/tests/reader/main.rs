//! Integration tests of the PGN reader and the input layer: real corpora and edge files, recovery
//! from damage, encodings, deep nesting, round trips of generated games, compressed input, and the
//! one-pass reading against the general way.

mod corpora;
mod frames;
mod input;
mod lexer;
mod one_pass;
mod parts;
mod range;
mod reading;
mod recovery;
mod roundtrip;
mod util;
