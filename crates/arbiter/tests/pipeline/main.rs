//! Integration tests of the input layer and the pipeline over real files: every shared corpus and
//! edge file read (compressed ones through the input layer), inputs found and sniffed, zstd files
//! of many frames decoded on every core, and ranges of an input that together read each game once.

mod corpora;
mod frames;
mod input;
mod range;
