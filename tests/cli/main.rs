//! Integration tests that run the `arbiter` binary.

mod export;
mod moves;
mod util;
mod validate;
