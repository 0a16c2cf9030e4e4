//! Integration tests that run the `arbiter` binary.

mod corpora;
mod endings;
mod export;
mod help;
mod moves;
mod parts;
#[path = "../common/shared_data.rs"]
mod shared_data;
mod util;
mod validate;
