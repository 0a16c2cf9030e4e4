//! The package's exceptions, each a `ValueError` (or an `OSError` for inputs) whose message is
//! the command line's, and the conversions from the library's errors.

use std::io;

use pyo3::PyErr;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};

use crate::library::InputError;

pyo3::create_exception!(
    arbiter,
    FenError,
    PyValueError,
    "A FEN that is no valid position; the message names every defect, as `arbiter moves` does."
);
pyo3::create_exception!(
    arbiter,
    MoveError,
    PyValueError,
    "A move that is not legal in the position, or not a move at all (SAN or UCI)."
);
pyo3::create_exception!(
    arbiter,
    OptionsError,
    PyValueError,
    "Options that do not fit together, or a `where` expression, tag list or position that is \
     wrong; the message is the command line's (without the option's dashes)."
);

/// An I/O error as the Python exception of its kind (`FileNotFoundError`, `PermissionError`,
/// else `OSError`), with `message`.
pub fn os_error(kind: io::ErrorKind, message: String) -> PyErr {
    match kind {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// An input that cannot be found or listed, as the command line says it (`PATH: why`).
pub fn input_error(err: &InputError) -> PyErr {
    let kind = match err {
        InputError::Io { source, .. } => source.kind(),
        _ => io::ErrorKind::Other,
    };
    os_error(kind, err.to_string())
}

/// An options error.
pub fn options_error(message: impl ToString) -> PyErr {
    OptionsError::new_err(message.to_string())
}
