//! Integration tests that run the `arbiter` binary.

mod corpora;
mod export;
mod help;
mod moves;
mod util;
mod validate;
