//! What a game's clocks prove against its tags: a clock that rises more than the time control
//! allows, a clock above all the time the time control has given, a loss on time by a player
//! whose clock was not running. Pure logic, fed one main-line ply at a time; no clocks, no warnings.
//!
//! The checks, and what they allow:
//! - **Rise**: a side's clock may rise, from its previous reading to the next, by the increments
//!   of the moves in between, plus the seconds of each new period reached (`40/7200:3600`: 3600 s
//!   after move 40), plus `TOLERANCE_MS` (1 s: clocks are written rounded, and some servers add
//!   the increment a moment late). A rise beyond that is a warning. Lichess lets a player give
//!   the opponent 15 s, which shows as such a rise: the warning says what the clock did, not why.
//! - **Above the time given**: after its `k`-th move, a side's clock may show at most the first
//!   period's seconds plus what its `k` moves may have gained (as above), plus `TOLERANCE_MS`.
//!   This catches a first reading above the start (`[%clk 0:03:04]` after move 1 of `180+2`).
//!   It is not "the starting time plus one increment": a fast player in an increment game goes
//!   above that legally (300+3 after ten quick moves shows 5:20). After a warning the side's
//!   bound is raised to the reading, so that one event gives one warning, and a ply whose rise
//!   was already named is not named again.
//! - **Time forfeit**: `Termination` says a game was lost on time (`Time forfeit`, `... won on
//!   time`, `... timeout`), `Result` names the loser, and the loser made the last move, so that
//!   their clock was stopped when the game ended: if their clock after that move shows more than
//!   `FORFEIT_MARGIN_MS` (5 s), it contradicts the termination. When the loser was to move, the
//!   last reading is from before the time they then used up, and proves nothing.
//!
//! No check is made without a time control of timed periods: `?`, `-`, a missing or unreadable
//! tag, and sandclocks (`*180`, where one side's clock rises as the other's runs) give no rise or
//! above-start warnings. A last period of `moves/seconds` repeats (`40/9000` is 9000 s for every
//! 40 moves), as in over-the-board play.
//!
//! # Examples
//!
//! ```
//! use arbiter_core::clocks::{ClockEvidence, ClockWarning, TimeControl};
//! use arbiter_rules::Color;
//!
//! let mut evidence = ClockEvidence::new();
//! evidence.begin_game(Some(&"60+0".parse::<TimeControl>().unwrap()));
//! let mut warnings = Vec::new();
//! let mut warn = |w: ClockWarning| warnings.push(format!("ply {}: {w}", w.ply()));
//! evidence.ply(1, Color::White, Some(50_000), &mut warn);
//! evidence.ply(2, Color::Black, Some(59_000), &mut warn);
//! evidence.ply(3, Color::White, Some(58_000), &mut warn);
//! assert_eq!(
//!     warnings,
//!     ["ply 3: White's clock rose from 0:00:50 (ply 1) to 0:00:58, more than the 0:00:01 the \
//!       time control and a 1 s tolerance allow"]
//! );
//! assert_eq!(evidence.final_clock(Color::Black), Some(59_000));
//! ```

use arbiter_pgn::GameResult;
use arbiter_rules::Color;

use crate::clocks::commands::Millis;
use crate::clocks::time_control::{Period, TimeControl};
use crate::clocks::warning::ClockWarning;

/// What a clock may show beyond what the time control allows before a warning: 1 second.
pub(crate) const TOLERANCE_MS: u64 = 1_000;

/// How much time a player who lost on time may have shown on a stopped clock: 5 seconds.
pub(crate) const FORFEIT_MARGIN_MS: Millis = 5_000;

/// [`ClockEvidence::sudden_death_gain`] when the periods are not one of sudden death (or there
/// are none), or its increment is too large for [`ClockEvidence::reading`]'s arithmetic without
/// overflow checks (over 49 days a move): no real game's. A gain below it times any move count
/// (a `u32`) fits a `u64`.
const NO_SUDDEN_DEATH: u64 = 1 << 32;

/// One side's clock history within a game.
#[derive(Copy, Clone, Debug, Default)]
struct Side {
    /// Moves this side has made, as counted by [`ClockEvidence::ply`].
    moves: u32,
    /// Whether the side has a reading, and the last one: its ply and clock (kept apart rather
    /// than as an option, so that the common reading, which follows another, stores two words;
    /// see [`Side::last`]).
    read: bool,
    last_ply: u32,
    last_clock: Millis,
    /// The moves whose gains `budget` holds: those up to the last reading.
    counted: u32,
    /// The most the clock could show after move `counted`, tolerance excluded (read only for a
    /// side's first reading: see [`Side::check`]).
    budget: u64,
    /// In a game of one sudden-death period, once the side has a reading: one more than the
    /// most its clock may show at its next move without a warning (the last reading plus the
    /// increment and `TOLERANCE_MS`); 0 otherwise. A reading below it, at that move, is all
    /// [`ClockEvidence::reading`] checks on its common path.
    below: u64,
}

impl Side {
    /// The last reading: (ply, clock).
    #[inline]
    fn last(&self) -> Option<(u32, Millis)> {
        self.read.then_some((self.last_ply, self.last_clock))
    }

    /// Keeps the reading `clock` of ply `ply` as the last.
    #[inline(always)]
    fn keep(&mut self, ply: u32, clock: Millis) {
        self.read = true;
        self.last_ply = ply;
        self.last_clock = clock;
    }

    /// This side's clock shows `clock` after ply `ply`, its move `moves`, which with the moves
    /// since its last reading gained `gained`: a rise beyond that, or a clock above all the
    /// time given, is a warning.
    #[inline(always)]
    fn check(
        &mut self,
        ply: u32,
        mover: Color,
        moves: u32,
        gained: u64,
        clock: Millis,
        mut warn: impl FnMut(ClockWarning),
    ) {
        self.counted = self.counted.max(moves);
        let budget = self.budget.saturating_add(gained);
        let clock_ms = u64::from(clock);
        let mut rose = false;
        let last = self.last();
        if let Some((previous_ply, before)) = last {
            let allowed = gained.saturating_add(TOLERANCE_MS);
            if clock_ms > u64::from(before).saturating_add(allowed) {
                rose = true;
                warn(ClockWarning::Rise {
                    ply,
                    side: mover,
                    previous_ply,
                    before,
                    after: clock,
                    allowed,
                });
            }
        }
        // After a first reading, `budget` is never below the last one (it is raised to each),
        // so a reading that did not rise too far from the last is not above the time given
        // either: only a first reading needs the test.
        if !rose && last.is_none() && clock_ms > budget.saturating_add(TOLERANCE_MS) {
            warn(ClockWarning::AboveTimeGiven {
                ply,
                side: mover,
                clock,
                most: budget,
                moves,
            });
        }
        self.budget = budget.max(clock_ms);
        self.keep(ply, clock);
    }
}

/// Checks one game's clocks as its plies come, then its termination. Keep one and call
/// [`ClockEvidence::begin_game`] for each game: its buffers are reused.
///
/// Only a reading costs anything: what a side's moves gained since its last reading is added up
/// when the next one comes (one multiplication in a game of one sudden-death period), so that a
/// caller that knows how many moves a side has made can hand over the readings alone
/// ([`ClockEvidence::reading`]).
#[derive(Clone, Debug, Default)]
pub struct ClockEvidence {
    /// The timed periods, empty when nothing can be checked.
    periods: Vec<Period>,
    /// What every move gains when the periods are one of sudden death (nearly every online
    /// game): the increment, in milliseconds, found once a game rather than once a ply;
    /// [`NO_SUDDEN_DEATH`] otherwise.
    sudden_death_gain: u64,
    /// What [`Side::below`] lies above a reading in a game of one sudden-death period: the
    /// increment, the tolerance and one.
    sudden_death_step: u64,
    /// White's and Black's histories.
    sides: [Side; 2],
    /// The last ply seen and who made it.
    last_ply: Option<(u32, Color)>,
}

impl ClockEvidence {
    /// A checker; call [`ClockEvidence::begin_game`] before each game.
    pub fn new() -> ClockEvidence {
        ClockEvidence::default()
    }

    /// Starts a game with the time control of its `TimeControl` tag, `None` when the tag is
    /// missing or unreadable.
    pub fn begin_game(&mut self, time_control: Option<&TimeControl>) {
        self.periods.clear();
        self.sudden_death_gain = NO_SUDDEN_DEATH;
        self.sudden_death_step = 0;
        self.sides = [Side::default(); 2];
        self.last_ply = None;
        if let Some(TimeControl::Periods(periods)) = time_control
            && periods.iter().all(|p| matches!(p, Period::Timed { .. }))
        {
            self.periods.extend_from_slice(periods);
            if let [Period::Timed { moves: None, .. }] = periods.as_slice() {
                self.sudden_death_gain = allowance(periods, 1).min(NO_SUDDEN_DEATH);
                self.sudden_death_step = self.sudden_death_gain + TOLERANCE_MS + 1;
            }
            if let Some(&Period::Timed { seconds, .. }) = periods.first() {
                for side in &mut self.sides {
                    side.budget = u64::from(seconds) * 1000;
                }
            }
        }
    }

    /// Whether the game has a time control of timed periods, against which the clocks are
    /// checked (without one, a ply without a clock is only counted).
    #[inline]
    pub fn is_timed(&self) -> bool {
        !self.periods.is_empty()
    }

    /// The main line's ply `ply` (1 for the first move) was made by `mover`, whose clock shows
    /// `clock` after it when its comment has a `[%clk]`. Warnings go to `warn`.
    #[inline]
    pub fn ply(
        &mut self,
        ply: u32,
        mover: Color,
        clock: Option<Millis>,
        warn: impl FnMut(ClockWarning),
    ) {
        self.last_ply = Some((ply, mover));
        let side = &mut self.sides[mover as usize];
        side.moves += 1;
        if let Some(clock) = clock {
            let moves = side.moves;
            self.reading_checked(ply, mover, moves, clock, warn);
        }
    }

    /// `mover`'s clock shows `clock` after ply `ply` (from 1): the reading alone, without the
    /// plies before it ([`ClockEvidence::ply`] counts them). The sides' moves alternate from ply
    /// 1, so that a side's plies are all odd or all even, and the move a ply is its side's is half
    /// of it rounded up; a side's readings come in the order of its plies. Warnings go to `warn`.
    ///
    /// Inlined for the common reading ([`ClockEvidence::common_reading`]); anything else is
    /// checked out of line.
    #[inline(always)]
    pub fn reading(
        &mut self,
        ply: u32,
        mover: Color,
        clock: Millis,
        warn: impl FnMut(ClockWarning),
    ) {
        if !self.common_reading(ply, mover, clock) {
            // In 64 bits: no overflow to test for.
            let moves = ((u64::from(ply) + 1) >> 1) as u32;
            self.reading_checked(ply, mover, moves, clock, warn);
        }
    }

    /// [`ClockEvidence::reading`] when it is the common reading of a game of one sudden-death
    /// period (nearly every online game): the side's next move (two plies after its last
    /// reading), its clock not risen beyond the increment; then it is kept, and `true` returned
    /// (no warning). That costs two comparisons and an addition. `false` for any other reading,
    /// which is left to [`ClockEvidence::reading`]: a caller that builds its warning's handler
    /// only then spares the common reading that work (six instructions a reading, the handler's
    /// captures stored on the stack).
    #[inline(always)]
    pub fn common_reading(&mut self, ply: u32, mover: Color, clock: Millis) -> bool {
        let step = self.sudden_death_step;
        let side = &mut self.sides[mover as usize];
        let clock_ms = u64::from(clock);
        // `below` is 0 unless the side has a reading in a game of one sudden-death period (the
        // increment under 2^32, the clock under 2^32: the sum fits). In 64 bits, so that no
        // ply follows the last a `u32` holds.
        if clock_ms < side.below && u64::from(ply) == u64::from(side.last_ply) + 2 {
            // The side's move after the last reading's: the one after `counted`.
            side.counted += 1;
            side.last_ply = ply;
            side.last_clock = clock;
            side.below = clock_ms + step;
            return true;
        }
        false
    }

    /// `mover`'s clock shows `clock` after ply `ply`, its move `moves` (from 1), checked in full:
    /// [`ClockEvidence::reading`] off its common path (a side's first reading, a reading after
    /// moves without one, a clock that rose too far; several periods, no timed periods, then
    /// only the reading is kept, or hostile values: the sums saturate), and every reading of
    /// [`ClockEvidence::ply`].
    #[inline(never)]
    fn reading_checked(
        &mut self,
        ply: u32,
        mover: Color,
        moves: u32,
        clock: Millis,
        warn: impl FnMut(ClockWarning),
    ) {
        let periods = &self.periods;
        let gain = self.sudden_death_gain;
        let step = self.sudden_death_step;
        let side = &mut self.sides[mover as usize];
        if periods.is_empty() {
            side.keep(ply, clock);
            return;
        }
        let gained = if gain < NO_SUDDEN_DEATH {
            let since = moves.saturating_sub(side.counted);
            gain.saturating_mul(u64::from(since))
        } else {
            (side.counted..moves).fold(0, |sum: u64, k| {
                sum.saturating_add(allowance(periods, k + 1))
            })
        };
        side.check(ply, mover, moves, gained, clock, warn);
        side.below = if gain < NO_SUDDEN_DEATH {
            u64::from(clock) + step
        } else {
            0
        };
    }

    /// The game is over: checks a loss on time against the clocks, from the `Termination` tag's
    /// value (if any) and the game's result (from the `Result` tag or the movetext's marker).
    pub fn end_game(
        &mut self,
        termination: Option<&str>,
        result: GameResult,
        warn: impl FnMut(ClockWarning),
    ) {
        self.end_game_after(self.last_ply, termination, result, warn);
    }

    /// [`ClockEvidence::end_game`] for a caller that handed over [`ClockEvidence::reading`]s
    /// only: the game's last ply and who made it (`None` when no move was made) are given.
    pub fn end_game_after(
        &mut self,
        last_ply: Option<(u32, Color)>,
        termination: Option<&str>,
        result: GameResult,
        mut warn: impl FnMut(ClockWarning),
    ) {
        let loser = match result {
            GameResult::WhiteWins => Color::Black,
            GameResult::BlackWins => Color::White,
            GameResult::Draw | GameResult::Unknown => return,
        };
        if !termination.is_some_and(lost_on_time) {
            return;
        }
        if let (Some((last_ply, last_mover)), Some((ply, clock))) =
            (last_ply, self.sides[loser as usize].last())
            && last_mover == loser
            && ply == last_ply
            && clock > FORFEIT_MARGIN_MS
        {
            warn(ClockWarning::TimeLeftAtForfeit {
                ply,
                side: loser,
                clock,
            });
        }
    }

    /// `side`'s last clock reading in the game so far, in milliseconds (for export columns).
    pub fn final_clock(&self, side: Color) -> Option<Millis> {
        self.sides[side as usize].last().map(|(_, ms)| ms)
    }
}

/// Whether a `Termination` value says the game was lost on time: it contains `time forfeit`,
/// `on time` or `timeout`, in any case (lichess `Time forfeit`, chess.com `X won on time`).
pub(crate) fn lost_on_time(termination: &str) -> bool {
    let bytes = termination.as_bytes();
    [&b"time forfeit"[..], b"on time", b"timeout"]
        .iter()
        .any(|needle| {
            bytes
                .windows(needle.len())
                .any(|w| w.eq_ignore_ascii_case(needle))
        })
}

/// What a side's clock may gain with its `k`-th move (from 1), in milliseconds: the increment of
/// the period the move is in, plus the next period's seconds when the move ends its period. The
/// last period, when it counts moves, repeats.
pub fn allowance(periods: &[Period], k: u32) -> u64 {
    // Nearly every online game: one sudden-death period.
    if let [
        Period::Timed {
            moves: None,
            increment,
            ..
        },
    ] = periods
    {
        return u64::from(*increment) * 1000;
    }
    let timed = |period: &Period| match *period {
        Period::Timed {
            moves,
            seconds,
            increment,
        } => (
            moves,
            u64::from(seconds) * 1000,
            u64::from(increment) * 1000,
        ),
        Period::Sandclock { .. } => (None, 0, 0),
    };
    // In u64: hostile move counts (`4294967295/60:...`) add up past u32.
    let k = u64::from(k);
    let mut first = 1; // The first move of the period looked at.
    for (i, period) in periods.iter().enumerate() {
        let (moves, _, increment) = timed(period);
        let Some(n) = moves.map(u64::from) else {
            return increment;
        };
        if k < first + n {
            let ends = k == first + n - 1;
            let next = periods.get(i + 1).unwrap_or(period);
            return increment + if ends { timed(next).1 } else { 0 };
        }
        first += n;
    }
    // Past every period: the last one, counting moves, repeats.
    let (moves, seconds, increment) = timed(periods.last().expect("periods is not empty"));
    let n = u64::from(moves.expect("a last period of sudden death returned above"));
    increment
        + if (k - first + 1).is_multiple_of(n) {
            seconds
        } else {
            0
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `clocks` (seconds, `None` for no `[%clk]`) as plies from 1, White first, and ends
    /// the game; returns the warnings as text.
    fn run(
        time_control: &str,
        clocks: &[Option<u32>],
        termination: &str,
        result: GameResult,
    ) -> (Vec<String>, ClockEvidence) {
        let tc = TimeControl::parse(time_control).ok();
        let mut evidence = ClockEvidence::new();
        evidence.begin_game(tc.as_ref());
        let mut warnings = Vec::new();
        for (i, clock) in clocks.iter().enumerate() {
            let mover = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let ply = i as u32 + 1;
            evidence.ply(ply, mover, clock.map(|s| s * 1000), |w| {
                assert_eq!(w.ply(), ply);
                warnings.push(format!("ply {ply}: {w}"))
            });
        }
        evidence.end_game(Some(termination), result, |w| {
            warnings.push(format!("ply {}: {w}", w.ply()))
        });
        (warnings, evidence)
    }

    #[test]
    fn a_normal_increment_game_is_quiet() {
        let clocks = [300, 300, 301, 299, 298, 295, 290, 280].map(Some);
        let (warnings, evidence) = run("300+3", &clocks, "Normal", GameResult::WhiteWins);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(evidence.final_clock(Color::White), Some(290_000));
        assert_eq!(evidence.final_clock(Color::Black), Some(280_000));
    }

    #[test]
    fn a_rise_beyond_the_increment_is_named() {
        let clocks = [
            Some(300),
            Some(300),
            Some(290),
            Some(299),
            Some(294),
            Some(304),
        ];
        let (warnings, _) = run("300+3", &clocks, "Normal", GameResult::Draw);
        assert_eq!(
            warnings,
            [
                "ply 6: Black's clock rose from 0:04:59 (ply 4) to 0:05:04, more than the 0:00:04 \
              the time control and a 1 s tolerance allow"
            ]
        );
        // Exactly the increment plus the tolerance is allowed.
        let (warnings, _) = run(
            "60+2",
            &[Some(60), Some(60), Some(63)],
            "",
            GameResult::Draw,
        );
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn missing_readings_add_up_their_increments() {
        // White's clock is read at moves 1 and 4: three increments of 2 s may be gained.
        let clocks = [Some(50), Some(60), None, None, None, None, Some(56)];
        let (warnings, _) = run("60+2", &clocks, "", GameResult::Unknown);
        assert!(warnings.is_empty(), "{warnings:?}");
        let clocks = [Some(50), Some(60), None, None, None, None, Some(58)];
        let (warnings, _) = run("60+2", &clocks, "", GameResult::Unknown);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("ply 7: White's clock rose from 0:00:50 (ply 1)"));
    }

    #[test]
    fn above_the_time_given() {
        let (warnings, _) = run("180+2", &[Some(184), Some(182)], "", GameResult::Unknown);
        assert_eq!(
            warnings,
            [
                "ply 1: White's clock shows 0:03:04, more than the 0:03:02 the time control \
              allows by White's move 1"
            ]
        );
        // Quick moves with an increment legally go above the start plus one increment.
        let clocks = [180, 180, 182, 182, 184, 184, 186, 186].map(Some);
        let (warnings, _) = run("180+2", &clocks, "", GameResult::Unknown);
        assert!(warnings.is_empty(), "{warnings:?}");
        // Missing readings: the bound still counts every move's increment.
        let clocks = [Some(180), None, None, None, Some(189), None];
        let (warnings, _) = run("180+2", &clocks, "", GameResult::Unknown);
        assert_eq!(
            warnings,
            [
                "ply 5: White's clock rose from 0:03:00 (ply 1) to 0:03:09, more than the 0:00:05 \
              the time control and a 1 s tolerance allow"
            ]
        );
        let clocks = [None, None, None, None, Some(189), None];
        let (warnings, _) = run("180+2", &clocks, "", GameResult::Unknown);
        assert_eq!(
            warnings,
            [
                "ply 5: White's clock shows 0:03:09, more than the 0:03:06 the time control \
              allows by White's move 3"
            ]
        );
        // One event, one warning: a rise is not named again as above the time given, and the
        // bound is raised to the reading.
        let clocks = [Some(60), Some(60), Some(75), Some(59), Some(74), Some(58)];
        let (warnings, _) = run("60+0", &clocks, "", GameResult::Unknown);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].starts_with("ply 3: White's clock rose"));
    }

    #[test]
    fn new_periods_add_their_seconds() {
        // 2/100:50+10: after each side's 2nd move, 50 s are added; then 10 s per move.
        let tc = "2/100:50+10";
        let clocks = [
            Some(100),
            Some(100),
            Some(140),
            Some(145),
            Some(150),
            Some(150),
        ];
        let (warnings, _) = run(tc, &clocks, "", GameResult::Unknown);
        assert!(warnings.is_empty(), "{warnings:?}");
        // Before the 2nd move ends the period, no time is added.
        let clocks = [Some(100), Some(100), Some(140), Some(145)];
        let (warnings, _) = run("3/100:50+10", &clocks, "", GameResult::Unknown);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings.iter().all(|w| w.contains("rose")), "{warnings:?}");
        // The bound grows with the new period's seconds.
        let clocks = [Some(100), Some(100), Some(149), Some(149)];
        let (warnings, _) = run(tc, &clocks, "", GameResult::Unknown);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn a_last_counted_period_repeats() {
        let periods = TimeControl::parse("2/60").unwrap().periods().to_vec();
        let gains: Vec<u64> = (1..=6).map(|k| allowance(&periods, k)).collect();
        assert_eq!(gains, [0, 60_000, 0, 60_000, 0, 60_000]);
        let periods = TimeControl::parse("40/7200:20/3600:900+30")
            .unwrap()
            .periods()
            .to_vec();
        assert_eq!(allowance(&periods, 39), 0);
        assert_eq!(allowance(&periods, 40), 3_600_000);
        assert_eq!(allowance(&periods, 60), 900_000);
        assert_eq!(allowance(&periods, 61), 30_000);
        assert_eq!(allowance(&periods, 500), 30_000);
        let huge = TimeControl::parse("4294967295/60:4294967295/60").unwrap();
        assert_eq!(allowance(huge.periods(), u32::MAX), 60_000);
        assert_eq!(allowance(huge.periods(), 7), 0);
    }

    #[test]
    fn nothing_is_checked_without_timed_periods() {
        let clocks = [Some(100), Some(100), Some(900), Some(900)];
        for tc in ["?", "-", "*180", "garbage"] {
            let (warnings, evidence) = run(tc, &clocks, "", GameResult::Unknown);
            assert!(warnings.is_empty(), "{tc}: {warnings:?}");
            assert_eq!(evidence.final_clock(Color::White), Some(900_000));
        }
        let (warnings, evidence) = run("60+0", &[None, None], "", GameResult::Unknown);
        assert!(warnings.is_empty());
        assert_eq!(evidence.final_clock(Color::White), None);
    }

    #[test]
    fn time_forfeit_with_a_stopped_clock_showing_time() {
        // Black lost on time but made the last move with 42 s left.
        let clocks = [Some(60), Some(60), Some(30), Some(42)];
        let (warnings, _) = run("60+0", &clocks, "Time forfeit", GameResult::WhiteWins);
        assert_eq!(
            warnings,
            [
                "ply 4: the game was lost on time by Black, but Black made the last move and \
              Black's clock showed 0:00:42 after it"
            ]
        );
        let (warnings, _) = run("60+0", &clocks, "Alice won on time", GameResult::WhiteWins);
        assert_eq!(warnings.len(), 1);
        // Within the margin, or with the loser to move (their clock then ran down), or a draw:
        // nothing is proven.
        let clocks = [Some(60), Some(60), Some(30), Some(5)];
        let (warnings, _) = run("60+0", &clocks, "Time forfeit", GameResult::WhiteWins);
        assert!(warnings.is_empty());
        let clocks = [Some(60), Some(60), Some(30), Some(42), Some(20)];
        let (warnings, _) = run("60+0", &clocks, "Time forfeit", GameResult::WhiteWins);
        assert!(warnings.is_empty());
        let clocks = [Some(60), Some(60), Some(30), Some(42)];
        let (warnings, _) = run("60+0", &clocks, "Time forfeit", GameResult::Draw);
        assert!(warnings.is_empty());
        let (warnings, _) = run("60+0", &clocks, "Normal", GameResult::WhiteWins);
        assert!(warnings.is_empty());
        // The loser's last move had no clock: no proof either.
        let clocks = [Some(60), Some(60), Some(30), None];
        let (warnings, _) = run("60+0", &clocks, "Time forfeit", GameResult::WhiteWins);
        assert!(warnings.is_empty());
    }

    /// The checks as they were made before readings were handed over alone: every ply's gain
    /// added as it comes, the allowance since the last reading and the bound kept per side.
    fn reference(time_control: &str, clocks: &[Option<u32>]) -> Vec<ClockWarning> {
        let periods = TimeControl::parse(time_control)
            .ok()
            .filter(|tc| {
                tc.periods()
                    .iter()
                    .all(|p| matches!(p, Period::Timed { .. }))
            })
            .map(|tc| tc.periods().to_vec())
            .unwrap_or_default();
        let start = match periods.first() {
            Some(&Period::Timed { seconds, .. }) => u64::from(seconds) * 1000,
            _ => 0,
        };
        // Per side: moves, last reading, allowance, bound.
        let mut sides = [(0u32, None::<(u32, Millis)>, 0u64, start); 2];
        let mut warnings = Vec::new();
        for (i, clock) in clocks.iter().enumerate() {
            let (ply, mover) = (i as u32 + 1, [Color::White, Color::Black][i % 2]);
            let (moves, last, allowed_gain, most) = &mut sides[i % 2];
            *moves += 1;
            if periods.is_empty() {
                continue;
            }
            let gain = allowance(&periods, *moves);
            *allowed_gain += gain;
            *most += gain;
            let Some(clock) = clock.map(|s| s * 1000) else {
                continue;
            };
            let mut rose = false;
            if let Some((previous_ply, before)) = *last {
                let allowed = *allowed_gain + TOLERANCE_MS;
                if u64::from(clock) > u64::from(before) + allowed {
                    rose = true;
                    warnings.push(ClockWarning::Rise {
                        ply,
                        side: mover,
                        previous_ply,
                        before,
                        after: clock,
                        allowed,
                    });
                }
            }
            if !rose && u64::from(clock) > *most + TOLERANCE_MS {
                warnings.push(ClockWarning::AboveTimeGiven {
                    ply,
                    side: mover,
                    clock,
                    most: *most,
                    moves: *moves,
                });
            }
            *most = (*most).max(u64::from(clock));
            *last = Some((ply, clock));
            *allowed_gain = 0;
        }
        warnings
    }

    #[test]
    fn readings_alone_warn_as_every_ply_did() {
        // A small generator, so that the sequences are the same on every run: clocks around the
        // start that drift, jump up now and then, and are missing at times.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut warned = [0; 2];
        for time_control in [
            "60+0",
            "180+2",
            "2/100:50+10",
            "40/7200:20/3600:900+30",
            "3/60",
        ] {
            for _ in 0..200 {
                let start = TimeControl::parse(time_control).unwrap().periods()[0];
                let Period::Timed { seconds, .. } = start else {
                    unreachable!()
                };
                let mut clocks = Vec::new();
                let mut now = [seconds; 2];
                for i in 0..next(120) as usize {
                    let side = &mut now[i % 2];
                    *side = match next(10) {
                        0 => *side + next(40) as u32,
                        1 => *side + 3,
                        _ => side.saturating_sub(next(5) as u32),
                    };
                    clocks.push((next(4) != 0).then_some(*side));
                }
                let expected = reference(time_control, &clocks);
                for warning in &expected {
                    warned[usize::from(matches!(warning, ClockWarning::Rise { .. }))] += 1;
                }
                let tc = TimeControl::parse(time_control).unwrap();
                let mut evidence = ClockEvidence::new();
                evidence.begin_game(Some(&tc));
                let mut got = Vec::new();
                for (i, clock) in clocks.iter().enumerate() {
                    let (ply, mover) = (i as u32 + 1, [Color::White, Color::Black][i % 2]);
                    if let Some(clock) = clock {
                        evidence.reading(ply, mover, clock * 1000, |w| got.push(w));
                    }
                }
                assert_eq!(got, expected, "{time_control} {clocks:?}");
            }
        }
        // The sequences do warn, of both kinds.
        assert!(warned.iter().all(|&n| n > 50), "{warned:?}");
    }

    #[test]
    fn terminations_on_time() {
        for yes in [
            "Time forfeit",
            "time forfeit",
            "Bob won on time",
            "Game lost by timeout",
        ] {
            assert!(lost_on_time(yes), "{yes}");
        }
        for no in [
            "Normal",
            "Abandoned",
            "Bob won by resignation",
            "",
            "rules infraction",
        ] {
            assert!(!lost_on_time(no), "{no}");
        }
    }
}
