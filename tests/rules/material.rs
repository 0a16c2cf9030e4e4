//! material tests.
