//! The tag pairs the splitter has already read, handed on to the parser so that it does not read
//! them a second time.
//!
//! The splitter must find every tag pair anyway (a repeated tag name starts a new game). While the
//! tag section is plain — tag pairs `[Name "value"]` with nothing but whitespace between them, the
//! common case — it notes where each name and value lies. The parser then calls the visitor for
//! those pairs straight away and goes on with its own rules after the last of them; anything less
//! plain (a comment, a broken pair, a `]` not right after the value) ends the list, and the parser
//! reads the rest itself. Either way the visitor sees the same calls.

/// One tag pair: offsets from the game's first byte.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TagSpan {
    /// The `[`.
    pub at: u32,
    /// The name's first byte and length.
    pub name: (u32, u32),
    /// The value's first byte (after the opening quote) and length (escapes still in).
    pub value: (u32, u32),
}

impl TagSpan {
    /// The offset just past the pair's `]` (which follows the closing quote at once).
    pub fn end(&self) -> usize {
        self.value.0 as usize + self.value.1 as usize + 2
    }
}

/// At most this many pairs are noted per game; the parser reads any more itself.
const CAPACITY: usize = 32;

/// The tag pairs noted for one game, in order (a prefix of its tag section). Fixed size, so that a
/// game carries them without an allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagSpans {
    len: usize,
    spans: [TagSpan; CAPACITY],
}

impl Default for TagSpans {
    fn default() -> TagSpans {
        TagSpans {
            len: 0,
            spans: [TagSpan::default(); CAPACITY],
        }
    }
}

impl TagSpans {
    /// Forgets every pair.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Notes a pair; false (and nothing noted) when full.
    pub fn push(&mut self, span: TagSpan) -> bool {
        match self.spans.get_mut(self.len) {
            Some(slot) => {
                *slot = span;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The pairs, in order.
    pub fn as_slice(&self) -> &[TagSpan] {
        &self.spans[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_up_to_its_capacity_in_order() {
        let mut spans = TagSpans::default();
        for i in 0..CAPACITY as u32 {
            assert!(spans.push(TagSpan {
                at: i,
                ..TagSpan::default()
            }));
        }
        assert!(!spans.push(TagSpan::default()));
        assert_eq!(spans.as_slice().len(), CAPACITY);
        assert!(
            spans
                .as_slice()
                .iter()
                .enumerate()
                .all(|(i, s)| s.at == i as u32)
        );
        spans.clear();
        assert!(spans.as_slice().is_empty());
        let span = TagSpan {
            at: 0,
            name: (1, 5),
            value: (8, 3),
        };
        // `[Event "abc"]`: the `]` is byte 12.
        assert_eq!(span.end(), 13);
    }
}
