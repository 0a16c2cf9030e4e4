//! defects tests.
