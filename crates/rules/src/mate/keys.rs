//! The set of positions a search has met, by Zobrist key: an open-addressing table of bare
//! 64-bit keys with linear probing.
//!
//! The searches insert every position they generate, millions on the hardest ones, into a
//! table far larger than the caches, so each insert is a cache miss. Here it is one miss: the
//! key sits in the slot the probe starts from (`std`'s map first reads a control byte, then the
//! key elsewhere). Zobrist keys are uniformly spread, so the key's low bits are its slot.

/// A set of 64-bit keys.
pub(crate) struct KeySet {
    /// The slots, a power of two of them; 0 marks an empty slot.
    slots: Vec<u64>,
    /// Keys stored in `slots`.
    len: usize,
    /// Whether the key 0 (which cannot sit in a slot) is in the set.
    zero: bool,
}

/// Slots of a new set.
const FIRST_SLOTS: usize = 1 << 10;

impl KeySet {
    /// An empty set.
    pub(crate) fn new() -> KeySet {
        KeySet {
            slots: vec![0; FIRST_SLOTS],
            len: 0,
            zero: false,
        }
    }

    /// Adds `key`; `true` if it was not in the set yet.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.zero, true);
        }
        // At most half full: probes stay short.
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        if Self::place(&mut self.slots, key) {
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// Makes room for `keys` and reads the slot where each would go, all before the first is
    /// needed: the reads are independent, so the processor fetches their cache lines together,
    /// and the inserts that follow find them in the cache.
    #[inline]
    pub(crate) fn prefetch(&mut self, keys: impl ExactSizeIterator<Item = u64>) {
        while 2 * (self.len + keys.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let touched = keys.fold(0, |acc, key| acc ^ self.slots[key as usize & mask]);
        std::hint::black_box(touched);
    }

    /// Puts `key` (not 0) into `slots`; `false` if it was there already.
    #[inline]
    fn place(slots: &mut [u64], key: u64) -> bool {
        let mask = slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let slot = slots[i];
            if slot == key {
                return false;
            }
            if slot == 0 {
                slots[i] = key;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table.
    #[cold]
    fn grow(&mut self) {
        let mut slots = vec![0; 2 * self.slots.len()];
        for &key in self.slots.iter().filter(|&&key| key != 0) {
            Self::place(&mut slots, key);
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_once_each_across_growth() {
        let mut set = KeySet::new();
        // Keys that share low bits collide in their slot and must probe on.
        let keys: Vec<u64> = (1..5_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) << 8)
            .chain([0, 1, 1 << 63, u64::MAX])
            .collect();
        for &key in &keys {
            assert!(set.insert(key), "{key:#x} new");
        }
        for &key in &keys {
            assert!(!set.insert(key), "{key:#x} seen");
        }
        assert_eq!(set.len, keys.len() - 1);
        assert!(set.slots.len() >= 2 * set.len);
    }
}
