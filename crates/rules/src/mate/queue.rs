//! The search's queue of positions waiting to be expanded: a bucket queue over small integer
//! priorities, lowest first, and within a priority the newest first.
//!
//! Priorities are small (a few hundred), so a stack per priority beats a binary heap of
//! millions of entries, whose every pop walks down a tree far larger than the caches. Newest
//! first also suits the search: of two positions that look equally close to a mate, it goes on
//! from the one it reached last, deeper along the line it is following (on the public test
//! vector that decided two more sides than oldest first, in less time).

/// Items waiting, by priority.
pub(crate) struct BucketQueue<T> {
    /// `buckets[p]`: the items of priority `p`, newest last.
    buckets: Vec<Vec<T>>,
    /// No bucket below this one holds an item.
    lowest: usize,
    /// Items waiting.
    len: usize,
}

impl<T> BucketQueue<T> {
    /// An empty queue.
    pub(crate) fn new() -> BucketQueue<T> {
        BucketQueue {
            buckets: Vec::new(),
            lowest: 0,
            len: 0,
        }
    }

    /// Adds `item` with `priority`.
    #[inline]
    pub(crate) fn push(&mut self, priority: usize, item: T) {
        if priority >= self.buckets.len() {
            self.buckets.resize_with(priority + 1, Vec::new);
        }
        self.buckets[priority].push(item);
        self.lowest = self.lowest.min(priority);
        self.len += 1;
    }

    /// Takes the newest item of the lowest priority.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        loop {
            if let Some(item) = self.buckets[self.lowest].pop() {
                self.len -= 1;
                return Some(item);
            }
            self.lowest += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
