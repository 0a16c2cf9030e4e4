//! Integration tests that run the `arbiter` binary.

mod util;
