//! Integration tests that run the `arbiter` binary.

mod clocks;
mod corpora;
mod docs;
mod endings;
mod export;
mod grammar;
mod help;
mod inputs;
mod moves;
mod parts;
mod perft;
mod range;
mod reading;
mod rulings;
mod select;
mod severities;
mod shards;
use arbiter_test_support as shared_data;
mod util;
mod validate;
