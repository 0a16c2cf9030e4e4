//! Integration tests that run the `arbiter` binary.

mod moves;
mod util;
