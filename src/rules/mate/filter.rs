//! The cheap filter run on every game's final position: `true` only when some side can
//! provably still mate, by an argument that needs no search.

use crate::rules::position::Position;

/// Whether some side can certainly still mate in `pos` (so the position is not dead). Cheap
/// enough to run on every game; `false` means "don't know", and the full decision
/// ([`super::can_mate`]) must be asked.
pub fn certainly_not_dead(pos: &Position) -> bool {
    let _ = pos;
    false
}
