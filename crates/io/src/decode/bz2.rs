//! bzip2: any number of streams.

use super::{CUT_SHORT, Codec, Step};

/// bzip2 streams.
pub(super) struct Bzip2 {
    stream: bzip2::Decompress,
    /// The last stream ended.
    ended: bool,
}

impl Bzip2 {
    pub(super) fn new() -> Bzip2 {
        Bzip2 {
            stream: bzip2::Decompress::new(false),
            ended: false,
        }
    }
}

impl Codec for Bzip2 {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.ended {
            if input.is_empty() {
                return Step::ok(0, 0);
            }
            // A stream follows the last one.
            self.stream = bzip2::Decompress::new(false);
            self.ended = false;
        }
        let (before_in, before_out) = (self.stream.total_in(), self.stream.total_out());
        let result = self.stream.decompress(input, output);
        let consumed = (self.stream.total_in() - before_in) as usize;
        let written = (self.stream.total_out() - before_out) as usize;
        match result {
            Ok(bzip2::Status::StreamEnd) => {
                self.ended = true;
                Step::ok(consumed, written)
            }
            Ok(_) if input.is_empty() && written == 0 => Step::failed(0, 0, CUT_SHORT),
            Ok(_) => Step::ok(consumed, written),
            Err(e) => Step::failed(consumed, written, e.to_string()),
        }
    }
}
