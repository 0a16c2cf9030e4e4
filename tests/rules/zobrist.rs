//! zobrist tests.
