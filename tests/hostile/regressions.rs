//! Inputs the fuzzers found (minimized), kept so that they stay fixed. See `fuzz/` and
//! docs/SECURITY.md.
