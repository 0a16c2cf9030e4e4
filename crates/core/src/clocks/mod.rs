//! Clocks, time spent and engine evaluations: the commands in move comments ([`commands`]),
//! gathered per move ([`annotations`]), the `TimeControl` tag ([`time_control`]), and what the
//! clocks of a game prove against its tags ([`evidence`], [`warning`]).
//!
//! Everything here is pure logic over text and numbers, fed per move by a streaming visitor: no
//! allocation per comment or per move.

pub mod annotations;
pub mod commands;
pub mod evidence;
pub mod time_control;
pub mod warning;

pub use annotations::MoveAnnotations;
pub use commands::{Command, CommandProblem, Eval, Malformed, Millis, read_commands};
pub use evidence::ClockEvidence;
pub use time_control::{Period, Speed, TimeControl, TimeControlError};
pub use warning::ClockWarning;
