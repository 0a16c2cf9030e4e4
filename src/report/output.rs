//! Formatted output whose game numbers may not be known yet. A part of an input read on another
//! core does not know how many games came before it, so its records leave holes where the numbers
//! go, and the holes are filled in when the output is written, in input order.

use std::io::{self, Write};

/// A game's numbers, or where the game stands in its batch when they are not known yet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameNumber {
    /// Its number across all inputs, and in its own input, both from 1.
    Known {
        /// Across all inputs (export's `index`).
        run: u64,
        /// In its input (validate's `game N`).
        input: u64,
    },
    /// The game is number `in_batch` (from 0) of a batch whose first game's numbers are known
    /// only when the batch is written.
    Later {
        /// The game's place in its batch.
        in_batch: u64,
    },
}

impl Default for GameNumber {
    /// The first game.
    fn default() -> GameNumber {
        GameNumber::Known { run: 1, input: 1 }
    }
}

/// Output bytes, with holes for game numbers.
#[derive(Debug, Default)]
pub struct Output {
    bytes: Vec<u8>,
    holes: Vec<Hole>,
}

/// A place in the output to fill in.
#[derive(Copy, Clone, Debug)]
struct Hole {
    /// The byte before which the filling goes.
    at: usize,
    /// The game's place in its batch.
    in_batch: u64,
    what: Filling,
}

#[derive(Copy, Clone, Debug)]
enum Filling {
    /// The game's number across all inputs.
    Run,
    /// The game's number in its input.
    Input,
    /// A comma unless the game is the first of the run.
    CommaUnlessFirst,
}

impl Output {
    /// The bytes written so far, holes left out.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The byte buffer, to append to.
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.bytes
    }

    /// How many bytes were written so far, holes left out.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty() && self.holes.is_empty()
    }

    /// Empties the output, keeping its memory.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.holes.clear();
    }

    /// Appends bytes.
    pub fn extend(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends the game's number across all inputs.
    pub fn run_number(&mut self, number: GameNumber) {
        match number {
            GameNumber::Known { run, .. } => self.extend(itoa_buf(run).as_str().as_bytes()),
            GameNumber::Later { in_batch } => self.hole(in_batch, Filling::Run),
        }
    }

    /// Appends the game's number in its input.
    pub fn input_number(&mut self, number: GameNumber) {
        match number {
            GameNumber::Known { input, .. } => {
                self.extend(itoa_buf(input).as_str().as_bytes());
            }
            GameNumber::Later { in_batch } => self.hole(in_batch, Filling::Input),
        }
    }

    /// Appends a comma unless the game is the first of the run (for a JSON array).
    pub fn comma_unless_first(&mut self, number: GameNumber) {
        match number {
            GameNumber::Known { run: 1, .. } => {}
            GameNumber::Known { .. } => self.bytes.push(b','),
            GameNumber::Later { in_batch } => self.hole(in_batch, Filling::CommaUnlessFirst),
        }
    }

    fn hole(&mut self, in_batch: u64, what: Filling) {
        self.holes.push(Hole {
            at: self.bytes.len(),
            in_batch,
            what,
        });
    }

    /// Writes the output to `out` with its holes filled in: the batch's first game is game
    /// `run_before + 1` of the run and `input_before + 1` of its input.
    pub fn write_to(
        &self,
        run_before: u64,
        input_before: u64,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut written = 0;
        for hole in &self.holes {
            out.write_all(&self.bytes[written..hole.at])?;
            written = hole.at;
            match hole.what {
                Filling::Run => {
                    out.write_all(itoa_buf(run_before + hole.in_batch + 1).as_str().as_bytes())?
                }
                Filling::Input => {
                    out.write_all(
                        itoa_buf(input_before + hole.in_batch + 1)
                            .as_str()
                            .as_bytes(),
                    )?;
                }
                Filling::CommaUnlessFirst if run_before + hole.in_batch > 0 => {
                    out.write_all(b",")?
                }
                Filling::CommaUnlessFirst => {}
            }
        }
        out.write_all(&self.bytes[written..])
    }
}

/// A decimal number formatted on the stack.
pub(crate) struct NumBuf {
    bytes: [u8; 20],
    start: usize,
}

impl NumBuf {
    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII digits are ever written.
        std::str::from_utf8(&self.bytes[self.start..]).unwrap_or("")
    }
}

pub(crate) fn itoa_buf(mut n: u64) -> NumBuf {
    let mut buf = NumBuf {
        bytes: [0; 20],
        start: 20,
    };
    loop {
        buf.start -= 1;
        buf.bytes[buf.start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break buf;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a record per game, `[,]N/M;`, for games `numbers`.
    fn records(numbers: impl Iterator<Item = GameNumber>) -> Output {
        let mut out = Output::default();
        for number in numbers {
            out.extend(b"[");
            out.comma_unless_first(number);
            out.extend(b"]");
            out.run_number(number);
            out.extend(b"/");
            out.input_number(number);
            out.extend(b";");
        }
        out
    }

    fn written(out: &Output, run_before: u64, input_before: u64) -> String {
        let mut bytes = Vec::new();
        out.write_to(run_before, input_before, &mut bytes).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn holes_are_filled_as_known_numbers_are_written() {
        for (run_before, input_before) in [(0, 0), (9, 2), (99, 99)] {
            let known = records((1..=3).map(|k| GameNumber::Known {
                run: run_before + k,
                input: input_before + k,
            }));
            let later = records((0..3).map(|in_batch| GameNumber::Later { in_batch }));
            assert_eq!(
                written(&later, run_before, input_before),
                written(&known, 0, 0)
            );
        }
        let later = records((0..2).map(|in_batch| GameNumber::Later { in_batch }));
        assert_eq!(written(&later, 0, 0), "[]1/1;[,]2/2;");
        assert_eq!(written(&later, 9, 1), "[,]10/2;[,]11/3;");
    }

    #[test]
    fn numbers_format_in_decimal() {
        for n in [0, 7, 10, 99, 1234567890, u64::MAX] {
            assert_eq!(itoa_buf(n).as_str(), n.to_string());
        }
    }
}
