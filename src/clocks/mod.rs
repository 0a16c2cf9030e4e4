//! Clocks, time spent and engine evaluations: the commands in move comments
//! ([`commands`]), the `TimeControl` tag ([`time_control`]), and what the clocks of a game prove
//! against its tags ([`evidence`]).
//!
//! Everything here is pure logic over text and numbers, fed per move by a streaming visitor: no
//! allocation per comment or per move.

pub mod commands;
pub mod evidence;
pub mod time_control;

pub use commands::{Command, Eval, Malformed, Millis, MoveAnnotations, read_commands};
pub use evidence::{ClockEvidence, ClockWarning};
pub use time_control::{Period, Speed, TimeControl, TimeControlError};
