//! xz: any number of streams, with stream padding.

use std::io;

use super::{CUT_SHORT, Codec, Step};

/// xz streams.
pub(super) struct Xz {
    stream: liblzma::stream::Stream,
    /// The last stream ended, at the end of the input.
    ended: bool,
}

impl Xz {
    pub(super) fn new() -> io::Result<Xz> {
        let stream =
            liblzma::stream::Stream::new_auto_decoder(u64::MAX, liblzma::stream::CONCATENATED)?;
        Ok(Xz {
            stream,
            ended: false,
        })
    }
}

impl Codec for Xz {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.ended {
            return Step::ok(0, 0);
        }
        // Streams may follow one another: the last one ends only at the end of the input.
        let action = if input.is_empty() {
            liblzma::stream::Action::Finish
        } else {
            liblzma::stream::Action::Run
        };
        let (before_in, before_out) = (self.stream.total_in(), self.stream.total_out());
        let result = self.stream.process(input, output, action);
        let consumed = (self.stream.total_in() - before_in) as usize;
        let written = (self.stream.total_out() - before_out) as usize;
        match result {
            Ok(liblzma::stream::Status::StreamEnd) => {
                self.ended = true;
                Step::ok(consumed, written)
            }
            Ok(_) if input.is_empty() && written == 0 => Step::failed(0, 0, CUT_SHORT),
            Ok(_) => Step::ok(consumed, written),
            Err(e) => Step::failed(consumed, written, e.to_string()),
        }
    }
}
