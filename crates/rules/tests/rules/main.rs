//! Integration tests of the rules core: perft suites, reference legal-move data, FEN defects,
//! insufficient material, Zobrist keys, and a differential test against shakmaty.

mod chasolver;
mod check_after;
mod data;
mod defects;
mod differential;
mod mate_vector;
mod material;
mod perft;
mod reference;
mod stuck;
mod zobrist;
