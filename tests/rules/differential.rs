//! differential tests.
