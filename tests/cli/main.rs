//! Integration tests that run the `arbiter` binary.

mod corpora;
mod export;
mod moves;
mod util;
mod validate;
