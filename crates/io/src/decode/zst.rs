//! zstd: any number of frames, skippable frames included.

use std::io;

use zstd::stream::raw::{InBuffer, Operation, OutBuffer};

use super::{Codec, Step};

/// How many bytes start a zstd frame (its magic number and header descriptor): what is given of
/// a frame before zstd says how much more it needs.
const ZSTD_FRAME_START: usize = 5;

/// zstd frames.
///
/// zstd hands out nothing of a call that fails, even bytes it decoded in that call before the
/// failure: so each call is given no more input than zstd asked for (one unit: a header, a block,
/// the checksum), and after a call that filled the output, the next one gets no input at all, so
/// that what zstd still holds is handed out before it decodes on. Then a failing call is one that
/// decoded nothing.
pub(super) struct Zstd {
    decoder: zstd::stream::raw::Decoder<'static>,
    /// The input zstd asked for next; 0 after a frame, handed out whole.
    hint: usize,
    /// The last call filled the output: zstd may hold more of what it decoded.
    flush_first: bool,
}

impl Zstd {
    pub(super) fn new() -> io::Result<Zstd> {
        Ok(Zstd {
            decoder: zstd::stream::raw::Decoder::new()?,
            hint: ZSTD_FRAME_START,
            flush_first: false,
        })
    }

    /// One call of zstd on `input`: how much it took and wrote, or what went wrong.
    fn run(&mut self, input: &[u8], output: &mut [u8]) -> Result<(usize, usize), String> {
        let mut src = InBuffer::around(input);
        let mut dst = OutBuffer::around(output);
        let hint = self
            .decoder
            .run(&mut src, &mut dst)
            .map_err(|e| e.to_string())?;
        self.hint = hint;
        self.flush_first = dst.pos() == dst.capacity();
        Ok((src.pos(), dst.pos()))
    }
}

impl Codec for Zstd {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        if self.flush_first || input.is_empty() {
            if input.is_empty() && self.hint == 0 {
                return Step::ok(0, 0);
            }
            let written = match self.run(&[], output) {
                Ok((_, written)) => written,
                Err(message) => return Step::failed(0, 0, message),
            };
            if input.is_empty() && written == 0 && self.hint != 0 {
                return Step::failed(0, 0, "incomplete frame");
            }
            if written > 0 || input.is_empty() {
                return Step::ok(0, written);
            }
        }
        if self.hint == 0 {
            // A frame follows the last one.
            if let Err(e) = self.decoder.reinit() {
                return Step::failed(0, 0, e.to_string());
            }
            self.hint = ZSTD_FRAME_START;
        }
        let given = &input[..input.len().min(self.hint)];
        match self.run(given, output) {
            Ok((consumed, written)) => Step::ok(consumed, written),
            Err(message) => Step::failed(0, 0, message),
        }
    }
}
