//! gzip: any number of members, each a header (its optional fields skipped, its CRC checked when
//! present), raw deflate data, and a trailer whose CRC-32 and length are checked.

use crc32fast::Hasher;
use miniz_oxide::inflate::{self, TINFLStatus, core::DecompressorOxide, core::inflate_flags};

use super::{CUT_SHORT, Codec, Step};

/// gzip members: a header, raw deflate data, a trailer.
pub(super) struct Gzip {
    stage: GzipStage,
    inflate: Inflate,
    /// The CRC-32 of the member's header (for its optional CRC-16), then of its data.
    crc: Crc,
    /// The header's fixed part, or the trailer, as far as read.
    fixed: [u8; 10],
    got: usize,
    flags: u8,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum GzipStage {
    /// Between members: the end, or the first byte of the next member's header.
    Between,
    /// The header's first 10 bytes.
    Fixed,
    /// The length of the extra field (2 bytes), then the field itself.
    ExtraLength,
    Extra(usize),
    /// A zero-terminated name, then comment.
    Name,
    Comment,
    /// The header's CRC-16.
    HeaderCrc,
    /// The deflate data.
    Data,
    /// The CRC-32 and length of the data (8 bytes).
    Trailer,
}

pub(super) const FHCRC: u8 = 0x02;
pub(super) const FEXTRA: u8 = 0x04;
pub(super) const FNAME: u8 = 0x08;
pub(super) const FCOMMENT: u8 = 0x10;

impl Gzip {
    pub(super) fn new() -> Gzip {
        Gzip {
            stage: GzipStage::Fixed,
            inflate: Inflate::new(),
            crc: Crc::new(),
            fixed: [0; 10],
            got: 0,
            flags: 0,
        }
    }

    /// The header's stage after `stage`, by its flags.
    fn after(&self, stage: GzipStage) -> GzipStage {
        use GzipStage::*;
        let order = [
            (ExtraLength, FEXTRA),
            (Name, FNAME),
            (Comment, FCOMMENT),
            (HeaderCrc, FHCRC),
        ];
        let from = match stage {
            Fixed => 0,
            Extra(_) => 1,
            Name => 2,
            Comment => 3,
            _ => 4,
        };
        order[from..]
            .iter()
            .find(|(_, flag)| self.flags & flag != 0)
            .map_or(Data, |&(stage, _)| stage)
    }

    /// Collects bytes of `input` into `fixed` up to `len` of them; returns how many were taken.
    fn collect(&mut self, input: &[u8], len: usize) -> usize {
        let n = (len - self.got).min(input.len());
        self.fixed[self.got..self.got + n].copy_from_slice(&input[..n]);
        self.got += n;
        n
    }

    /// Reads the header from `input`; returns how many bytes it took, or what is wrong and
    /// where.
    fn header(&mut self, input: &[u8]) -> Result<usize, (usize, String)> {
        use GzipStage::*;
        let mut at = 0;
        while at < input.len() && self.stage != Data {
            let before = at;
            match self.stage {
                Fixed => {
                    at += self.collect(&input[at..], 10);
                    let f = &self.fixed[..self.got];
                    if f.first().is_some_and(|&b| b != 0x1f) || f.get(1).is_some_and(|&b| b != 0x8b)
                    {
                        return Err((before, "not gzip data (invalid gzip header)".into()));
                    }
                    if self.got == 10 {
                        if f[2] != 8 {
                            return Err((
                                before,
                                format!("unknown gzip compression method {}", f[2]),
                            ));
                        }
                        if f[3] & 0xe0 != 0 {
                            return Err((
                                before,
                                "invalid gzip header (reserved flags set)".into(),
                            ));
                        }
                        self.flags = f[3];
                        self.got = 0;
                        self.crc.update(&input[before..at]);
                        self.stage = self.after(Fixed);
                        continue;
                    }
                }
                ExtraLength => {
                    at += self.collect(&input[at..], 2);
                    if self.got == 2 {
                        self.got = 0;
                        let len = u16::from_le_bytes([self.fixed[0], self.fixed[1]]);
                        self.stage = Extra(usize::from(len));
                    }
                }
                Extra(left) => {
                    let n = left.min(input.len() - at);
                    at += n;
                    self.stage = if n == left {
                        self.after(Extra(0))
                    } else {
                        Extra(left - n)
                    };
                }
                Name | Comment => match memchr::memchr(0, &input[at..]) {
                    Some(end) => {
                        at += end + 1;
                        self.stage = self.after(self.stage);
                    }
                    None => at = input.len(),
                },
                HeaderCrc => {
                    // The CRC-16 covers the header before it, not itself.
                    at += self.collect(&input[at..], 2);
                    if self.got == 2 {
                        self.got = 0;
                        let stored = u16::from_le_bytes([self.fixed[0], self.fixed[1]]);
                        if stored != self.crc.sum() as u16 {
                            return Err((
                                before,
                                "the gzip header's checksum does not match".into(),
                            ));
                        }
                        self.stage = Data;
                    }
                    continue;
                }
                Between | Data | Trailer => unreachable!("not a header stage"),
            }
            self.crc.update(&input[before..at]);
        }
        if self.stage == Data {
            self.crc.reset();
        }
        Ok(at)
    }

    /// Checks the trailer against the data.
    fn check_trailer(&self) -> Result<(), String> {
        let f = &self.fixed;
        let crc = u32::from_le_bytes([f[0], f[1], f[2], f[3]]);
        let len = u32::from_le_bytes([f[4], f[5], f[6], f[7]]);
        if crc != self.crc.sum() {
            return Err("the data does not match the checksum of its gzip member".into());
        }
        if len != self.crc.amount() {
            return Err("the data does not match the length of its gzip member".into());
        }
        Ok(())
    }
}

impl Codec for Gzip {
    fn step(&mut self, input: &[u8], output: &mut [u8]) -> Step {
        use GzipStage::*;
        // What was decoded comes first, then whatever went wrong after it.
        if self.inflate.pending() > 0 {
            return Step::ok(0, self.inflate.hand_out(output));
        }
        if let Some(message) = self.inflate.failure.take() {
            return Step::failed(0, 0, message);
        }
        let mut consumed = 0;
        loop {
            let rest = &input[consumed..];
            match self.stage {
                Between if input.is_empty() => return Step::ok(0, 0),
                Between => {
                    self.inflate.reset();
                    self.crc.reset();
                    self.got = 0;
                    self.stage = Fixed;
                }
                // The header took all the input: the data comes with the next.
                Data if rest.is_empty() && consumed > 0 => return Step::ok(consumed, 0),
                Data => {
                    let (taken, ended) = self.inflate.decode(rest, &mut self.crc);
                    consumed += taken;
                    if ended {
                        self.stage = Trailer;
                        self.got = 0;
                    }
                    let written = self.inflate.hand_out(output);
                    if self.inflate.pending() == 0
                        && let Some(message) = self.inflate.failure.take()
                    {
                        return Step::failed(consumed, written, message);
                    }
                    return Step::ok(consumed, written);
                }
                _ if input.is_empty() => return Step::failed(0, 0, CUT_SHORT),
                Trailer => {
                    consumed += self.collect(rest, 8);
                    if self.got < 8 {
                        return Step::ok(consumed, 0);
                    }
                    if let Err(message) = self.check_trailer() {
                        return Step::failed(consumed, 0, message);
                    }
                    self.stage = Between;
                    return Step::ok(consumed, 0);
                }
                Fixed | ExtraLength | Extra(_) | Name | Comment | HeaderCrc => {
                    match self.header(rest) {
                        Ok(n) => consumed += n,
                        Err((n, message)) => return Step::failed(consumed + n, 0, message),
                    }
                    if self.stage != Data {
                        return Step::ok(consumed, 0);
                    }
                }
            }
        }
    }
}

/// The CRC-32 and length (modulo 2^32) of a gzip member's bytes.
#[derive(Default)]
pub(super) struct Crc {
    hasher: Hasher,
    len: u32,
}

impl Crc {
    pub(super) fn new() -> Crc {
        Crc::default()
    }

    pub(super) fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.len = self.len.wrapping_add(bytes.len() as u32);
    }

    pub(super) fn sum(&self) -> u32 {
        self.hasher.clone().finalize()
    }

    fn amount(&self) -> u32 {
        self.len
    }

    fn reset(&mut self) {
        *self = Crc::default();
    }
}

/// Bytes of decoded deflate data kept: the last 32 KiB are what the data refers back to; the rest
/// lets one call decode more at a time. A power of two.
const RING: usize = 128 << 10;

/// Raw deflate data, decoded into a ring of the last bytes (which later data refers back to) and
/// handed out from there: so every byte decoded before a corruption is found is handed out,
/// whatever the sizes of the reads.
struct Inflate {
    state: Box<DecompressorOxide>,
    ring: Vec<u8>,
    /// Where the next decoded byte goes.
    at: usize,
    /// Decoded bytes not yet handed out: `ring[from..from + pending]` (a call decodes up to the
    /// ring's end, no further).
    from: usize,
    pending: usize,
    /// The data failed after the bytes decoded.
    failure: Option<String>,
}

impl Inflate {
    fn new() -> Inflate {
        Inflate {
            state: Box::default(),
            ring: vec![0; RING],
            at: 0,
            from: 0,
            pending: 0,
            failure: None,
        }
    }

    /// For the next member.
    fn reset(&mut self) {
        self.state.init();
        (self.at, self.from, self.pending) = (0, 0, 0);
    }

    /// Decoded bytes not yet handed out.
    fn pending(&self) -> usize {
        self.pending
    }

    /// Decodes from `input` (the end of the data when empty) into the ring, hashing what it
    /// decodes into `crc`; returns how much input it took, and whether the deflate data ended. A
    /// failure is kept, for after the bytes decoded. Only when nothing is pending.
    fn decode(&mut self, input: &[u8], crc: &mut Crc) -> (usize, bool) {
        debug_assert_eq!(self.pending(), 0);
        let flags = if input.is_empty() {
            0
        } else {
            inflate_flags::TINFL_FLAG_HAS_MORE_INPUT
        };
        let (status, taken, written) =
            inflate::core::decompress(&mut self.state, input, &mut self.ring, self.at, flags);
        crc.update(&self.ring[self.at..self.at + written]);
        (self.from, self.pending) = (self.at, written);
        self.at = (self.at + written) & (RING - 1);
        let failure = match status {
            TINFLStatus::Done => return (taken, true),
            TINFLStatus::NeedsMoreInput | TINFLStatus::HasMoreOutput => return (taken, false),
            TINFLStatus::FailedCannotMakeProgress => CUT_SHORT.to_owned(),
            other => format!("corrupt deflate data ({other:?})"),
        };
        self.failure = Some(failure);
        (taken, false)
    }

    /// Hands out what it can of the pending bytes into `output`; returns how many.
    fn hand_out(&mut self, output: &mut [u8]) -> usize {
        let n = self.pending.min(output.len());
        output[..n].copy_from_slice(&self.ring[self.from..self.from + n]);
        self.from += n;
        self.pending -= n;
        n
    }
}
