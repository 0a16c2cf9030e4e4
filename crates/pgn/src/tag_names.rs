//! The tag names of one tag section, as hashes: a name that comes twice in a tag section starts
//! the next game (header-only games in a row), so the splitter and the one-pass reader note each
//! name as they pass it.

use super::tags;

/// The tag names of one tag section, as hashes: a short list searched in order (real games have
/// a dozen tags), and a hash set once there are many, so that a hostile section of a million
/// distinct tags costs linear time, not quadratic. In front of the list, a 64-bit summary with one
/// bit per name (picked by its hash): a name whose bit is clear is certainly new, and most names
/// are, so the list is searched only for the few whose bit is taken.
#[derive(Debug, Default)]
pub(super) struct TagNames {
    summary: u64,
    few: Vec<u64>,
    many: std::collections::HashSet<u64>,
}

impl TagNames {
    /// Tags kept in the list before the set takes over.
    const FEW: usize = 32;

    /// Adds a name; `false` if it was there already.
    #[inline]
    pub(super) fn insert(&mut self, hash: u64) -> bool {
        if self.few.len() < Self::FEW {
            let bit = 1 << (hash >> 58);
            if self.summary & bit != 0 && self.few.contains(&hash) {
                return false;
            }
            self.summary |= bit;
            self.few.push(hash);
            return true;
        }
        self.insert_many(hash)
    }

    /// [`TagNames::insert`] past the list.
    #[cold]
    #[inline(never)]
    fn insert_many(&mut self, hash: u64) -> bool {
        if self.many.is_empty() {
            self.many.extend(self.few.iter().copied());
        }
        self.many.insert(hash)
    }

    pub(super) fn clear(&mut self) {
        self.summary = 0;
        self.few.clear();
        if !self.many.is_empty() {
            // Dropped rather than cleared: a huge section's table is not kept.
            self.many = std::collections::HashSet::new();
        }
    }
}

/// The common tag pair `[Name "value"]` at the start of `i`, by [`tags::simple_tag_pair`],
/// with the hash of its name (see [`hash_name`]), taken on the way: `(name_end, value_end, hash)`.
#[inline(always)]
pub(super) fn simple_tag_hashed(i: &[u8]) -> Option<(usize, usize, u64)> {
    let mut hash = NAME_HASH_START;
    let (name_end, value_end) = tags::simple_tag_pair(i, |b| hash = hash_name_byte(hash, b))?;
    Some((name_end, value_end, hash))
}

/// A 64-bit FNV-1a hash of a tag name.
pub(super) fn hash_name(name: &[u8]) -> u64 {
    name.iter()
        .fold(NAME_HASH_START, |h, &b| hash_name_byte(h, b))
}

/// The hash of an empty name (see [`hash_name`]).
const NAME_HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The hash of a name `h` is the hash of, with byte `b` added (see [`hash_name`]).
#[inline(always)]
fn hash_name_byte(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_names_are_new_exactly_once() {
        let mut names = TagNames::default();
        // Hashes that share summary bits (the top six) and hashes that do not, past the list.
        let hashes: Vec<u64> = (0..100u64)
            .map(|i| (i % 7) << 58 | i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 6)
            .collect();
        for round in 0..2 {
            for (k, &h) in hashes.iter().enumerate() {
                assert_eq!(names.insert(h), round == 0, "hash {k}, round {round}");
            }
            if round == 0 {
                assert!(!names.insert(hashes[3]));
            }
        }
        names.clear();
        assert!(names.insert(hashes[3]));
        assert!(!names.insert(hashes[3]));
    }
}
