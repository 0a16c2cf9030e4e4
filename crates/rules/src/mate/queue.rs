//! The search's queue of positions waiting to be expanded: a bucket queue over small integer
//! priorities, lowest first, and within a priority the newest first.
//!
//! Priorities are small (a few hundred), so a stack per priority beats a binary heap of
//! millions of entries, whose every pop walks down a tree far larger than the caches. The stacks
//! are linked lists threaded through one vector, so a search allocates one growing vector, not
//! one per priority. Newest first also suits the search: of two positions that look equally
//! close to a mate, it goes on from the one it reached last, deeper along the line it is
//! following (on the public test vector that decided two more sides than oldest first, in less
//! time).

/// Marks the end of a list.
const NONE: u32 = u32::MAX;

/// Items waiting, by priority.
pub(crate) struct BucketQueue<T> {
    /// Every item pushed, with the index of the next older item of its priority.
    items: Vec<(T, u32)>,
    /// `heads[p]`: the index of the newest item of priority `p` still waiting, or [`NONE`].
    heads: Vec<u32>,
    /// No priority below this one has an item waiting.
    lowest: usize,
    /// Items waiting.
    len: usize,
}

impl<T: Copy> BucketQueue<T> {
    /// An empty queue.
    pub(crate) fn new() -> BucketQueue<T> {
        BucketQueue {
            items: Vec::new(),
            heads: Vec::new(),
            lowest: 0,
            len: 0,
        }
    }

    /// Removes every item (keeping the room).
    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.heads.clear();
        self.lowest = 0;
        self.len = 0;
    }

    /// Adds `item` with `priority`.
    #[inline]
    pub(crate) fn push(&mut self, priority: usize, item: T) {
        if priority >= self.heads.len() {
            self.heads.resize(priority + 1, NONE);
        }
        let index = self.items.len() as u32;
        self.items.push((item, self.heads[priority]));
        self.heads[priority] = index;
        self.lowest = self.lowest.min(priority);
        self.len += 1;
    }

    /// Takes the newest item of the lowest priority, with that priority.
    #[inline]
    pub(crate) fn pop_with_priority(&mut self) -> Option<(usize, T)> {
        let lowest = self.lowest_priority()?;
        let (item, older) = self.items[self.heads[lowest] as usize];
        self.heads[lowest] = older;
        self.len -= 1;
        Some((lowest, item))
    }

    /// The lowest priority with an item waiting.
    #[inline]
    pub(crate) fn lowest_priority(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.heads[self.lowest] == NONE {
            self.lowest += 1;
        }
        Some(self.lowest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<T: Copy> BucketQueue<T> {
        fn pop(&mut self) -> Option<T> {
            self.pop_with_priority().map(|(_, item)| item)
        }
    }

    #[test]
    fn lowest_first_then_newest() {
        let mut queue = BucketQueue::new();
        for (priority, item) in [(5, 'a'), (2, 'b'), (5, 'c'), (0, 'd'), (2, 'e')] {
            queue.push(priority, item);
        }
        assert_eq!(queue.pop(), Some('d'));
        assert_eq!(queue.pop(), Some('e'));
        // A lower priority pushed after pops comes first again.
        queue.push(1, 'f');
        let rest: Vec<char> = std::iter::from_fn(|| queue.pop()).collect();
        assert_eq!(rest, ['f', 'b', 'c', 'a']);
        assert_eq!(queue.pop(), None);
        queue.push(3, 'g');
        assert_eq!(queue.pop(), Some('g'));
    }
}
