//! Skipping a variation the visitor does not want: a counting scan to the matching `)`, without
//! recursion, in which brackets inside `{ }` comments do not count. Both movetext drivers use
//! this one scan; they differ only in what they do at the other bytes that stop it (`;` comments
//! and `%` lines, line ends) and at a defect (a comment or the variation never closed): the
//! general way reports it and recovers, the one-pass reader gives the game up.

use super::scan::find_any;

/// What a driver does, while a variation is skipped, at the bytes that are not brackets.
pub(super) trait SkipVariation<const N: usize> {
    /// Why the scan stopped short of the matching `)`.
    type Stop;

    /// The bytes at which the scan stops: `(`, `)`, `{`, and those that [`Self::other`] takes.
    const STOP: [u8; N];

    /// A `{ }` comment whose text starts at `bytes[body]` (just after its `{`): the index after
    /// its `}`.
    fn comment(&mut self, bytes: &[u8], body: usize) -> Result<usize, Self::Stop>;

    /// A byte of [`Self::STOP`] other than `(`, `)` and `{`, at `bytes[at]`: the index to go on
    /// from.
    fn other(&mut self, bytes: &[u8], at: usize) -> Result<usize, Self::Stop>;

    /// The bytes end before the matching `)`.
    fn end(&mut self) -> Self::Stop;
}

/// Skips a variation whose `(` is just before `bytes[pos]`, up to its matching `)`; returns the
/// index after that `)`.
#[inline]
pub(super) fn skip_variation<const N: usize, S: SkipVariation<N>>(
    bytes: &[u8],
    mut pos: usize,
    driver: &mut S,
) -> Result<usize, S::Stop> {
    let mut depth = 1u64;
    loop {
        pos += find_any(&bytes[pos..], S::STOP);
        let Some(&b) = bytes.get(pos) else {
            return Err(driver.end());
        };
        match b {
            b'(' => {
                depth += 1;
                pos += 1;
            }
            b')' => {
                depth -= 1;
                pos += 1;
                if depth == 0 {
                    return Ok(pos);
                }
            }
            b'{' => pos = driver.comment(bytes, pos + 1)?,
            _ => pos = driver.other(bytes, pos)?,
        }
    }
}
