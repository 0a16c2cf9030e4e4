//! The `arbiter._arbiter` extension module: the Python package's native half (the Python half,
//! `arbiter/__init__.py`, wraps it; docs/python.md is the guide).
//!
//! - `reader`: `read_games`, export's rows as a stream of Arrow record batches (the Arrow
//!   PyCapsule stream protocol);
//! - `validate`: `validate`, problems as `Diagnostic`s and the `Summary`;
//! - `position`: `Position`, legal moves, status, can-mate, perft;
//! - `select`: `select`, games kept and written as clean PGN;
//! - `inputs`: the inputs of a run, checked, and its input errors;
//! - `errors`: the exceptions;
//! - `library`: what the package uses of the arbiter library, imported in one place.
//!
//! Rust work runs with the GIL released (`Python::detach`), and a run over games builds no
//! Python object per game.

mod errors;
mod inputs;
mod library;
mod position;
mod reader;
mod select;
mod validate;

use pyo3::prelude::*;

/// arbiter's native module; see the `arbiter` package.
#[pymodule]
fn _arbiter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_RULINGS_BUDGET", library::DEFAULT_RULINGS_BUDGET)?;
    m.add("BATCH_ROWS", library::BATCH_ROWS)?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add("MoveError", py.get_type::<errors::MoveError>())?;
    m.add("OptionsError", py.get_type::<errors::OptionsError>())?;
    m.add_class::<reader::GameStream>()?;
    m.add_function(wrap_pyfunction!(reader::read_games, m)?)?;
    m.add_class::<validate::Diagnostic>()?;
    m.add_class::<validate::Summary>()?;
    m.add_class::<validate::Validation>()?;
    m.add_function(wrap_pyfunction!(validate::validate, m)?)?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::LegalMove>()?;
    m.add_class::<position::MateAnswer>()?;
    m.add_class::<select::SelectSummary>()?;
    m.add_function(wrap_pyfunction!(select::select, m)?)?;
    Ok(())
}
