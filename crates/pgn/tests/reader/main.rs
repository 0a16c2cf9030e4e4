//! Integration tests of the PGN reader: recovery from damage, encodings, deep nesting, round trips
//! of generated games, the part cutter, the lexer against the grammar's own rules, and the
//! one-pass reading against the general way.

mod lexer;
mod one_pass;
mod parts;
mod reading;
mod recovery;
mod roundtrip;
