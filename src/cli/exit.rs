//! Exit codes shared by every subcommand, chosen once in `main`.

use std::process::ExitCode;

use arbiter::Totals;

/// How a run ended, mapped to the process exit code every subcommand shares (docs/exit-codes.md).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd)]
pub(crate) enum Exit {
    /// Everything was valid: exit 0.
    Ok,
    /// Some game or FEN was invalid: exit 1.
    Invalid,
    /// A usage or I/O error: exit 2.
    Usage,
}

impl Exit {
    /// How a run over games ended: an input that could not be read to its end is 2 (its output
    /// is not committed), else an invalid game is 1.
    pub(crate) fn of(totals: &Totals) -> Exit {
        if totals.input_errors > 0 {
            Exit::Usage
        } else if totals.counts.invalid > 0 {
            Exit::Invalid
        } else {
            Exit::Ok
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(match exit {
            Exit::Ok => 0,
            Exit::Invalid => 1,
            Exit::Usage => 2,
        })
    }
}
