//! A zstd input of many frames (made with `pzstd`, as lichess's monthly files are), decoded on
//! every core with [`FRAMES_FROM_JOBS`](super::FRAMES_FROM_JOBS) jobs or more: the reading thread
//! splits the file into runs of whole frames by their headers ([`arbiter_io::frames`]) and hands
//! each run to the workers as a task of its own, a few runs ahead of the one it cuts into parts;
//! the parts are then cut from the decoded bytes, in order, as from any other stream (`parts`), so
//! the games, their offsets and lines, and the output are the same as for the plain file.
//!
//! The reading thread never waits for a run no thread has started: it decodes that run itself,
//! and it decodes the first run itself while the workers decode the next ones. A
//! run that does not decode whole (damaged data), and whatever does not split into runs (see
//! [`arbiter_io::frames`]), is decoded from its start as one stream on the reading thread, after
//! every byte decoded before it: so a damaged file gives the same games, and the same error
//! naming the same offsets, as when decoded as one stream.
//!
//! A file that is one run (a single frame, or little data) is decoded as one stream, overlapped
//! with the parsing, as before. The buffer of a run cut whole is the next run's to decode into, so
//! that its memory is not mapped anew for every run (8,192 page faults for a 32 MiB frame of
//! `pzstd`). Memory stays flat: the runs in flight are at most two, one more per
//! [`JOBS_PER_RUN_AHEAD`] jobs, and the one being cut, each about
//! [`RUN_BOUND`] decoded (4 MiB) or one larger frame of at most
//! `MAX_RUN_BOUND` (64 MiB; `pzstd` writes frames of 32 MiB).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;

use arbiter_io::frames::{self, Next, RUN_BOUND, Run, Splitter};
use arbiter_io::input::{Source, StoredBytes};

use super::Observer;
use super::decoding::Decoding;
use super::task::{Feed, Offer, Task, fill_from};

/// Runs sent to the workers ahead of the one being cut: two, and one more per this many jobs.
/// Decoding a run takes a fifth of the time parsing it does, or less: so a run is decoded long
/// before it is needed, with memory for fewer runs than jobs.
const JOBS_PER_RUN_AHEAD: usize = 4;

/// What is left of the file once the runs sent are handed out.
enum After {
    /// More runs, from the splitter.
    Runs(Splitter<CountedFile>),
    /// The rest of the file, from the splitter's current place, decoded as one stream.
    Rest(Splitter<CountedFile>),
    /// Nothing: the file ended after the runs.
    End,
}

/// The file, its reads counted.
type CountedFile = arbiter_io::input::Counted<File>;

/// The decoded bytes of a zstd file of many frames, its runs decoded on the workers.
pub(super) struct FrameFeed<'a> {
    /// Runs split off and not sent yet.
    unsent: VecDeque<Run>,
    /// Runs sent to the workers, in order.
    sent: VecDeque<Arc<Decoding>>,
    /// Those of them not in the workers' queue yet, offered again at every fill (their queue was
    /// full): a run is never decoded here only because the queue was full of parts, which would
    /// leave the workers idle for as long as the run takes to decode.
    unoffered: VecDeque<Arc<Decoding>>,
    after: After,
    /// The decoded bytes being handed out: `current[at..]`.
    current: Vec<u8>,
    at: usize,
    /// A buffer handed out whole, kept for the next run to decode into: its pages are mapped
    /// already, where a new one of 32 MiB (a frame of `pzstd`) costs 8,192 page faults.
    spare: Option<Vec<u8>>,
    /// Decoded bytes of the runs taken so far.
    decoded: u64,
    /// The rest of the file decoded as one stream, once the runs are over.
    rest: Option<Box<dyn Read + Send>>,
    /// Which input this is.
    input: u64,
    /// Runs in flight, at most.
    ahead: usize,
    /// No run was taken yet.
    first: bool,
    /// The workers take no more runs (the run is shutting down).
    closed: bool,
    observer: &'a dyn Observer,
}

impl<'a> FrameFeed<'a> {
    /// The feed of `source` (input `input`), a zstd file of more than one run, and the count of
    /// its compressed bytes read; `None` for any other source.
    pub(super) fn open(
        source: &mut Source,
        input: u64,
        jobs: usize,
        observer: &'a dyn Observer,
    ) -> Option<(FrameFeed<'a>, StoredBytes)> {
        let file = source.zstd.take()?;
        // Read from the start again: counted (and hashed) afresh.
        let stored = source.stored.fresh();
        let mut splitter = Splitter::over(stored.counting(file));
        let Next::Run(first) = splitter.next_run(RUN_BOUND) else {
            return None;
        };
        let mut unsent = VecDeque::from([first]);
        let after = match splitter.next_run(RUN_BOUND) {
            Next::Run(second) => {
                unsent.push_back(second);
                After::Runs(splitter)
            }
            Next::End => return None,
            Next::Rest => After::Rest(splitter),
        };
        let feed = FrameFeed {
            unsent,
            sent: VecDeque::new(),
            unoffered: VecDeque::new(),
            after,
            current: Vec::new(),
            at: 0,
            spare: None,
            decoded: 0,
            rest: None,
            input,
            ahead: 2 + jobs / JOBS_PER_RUN_AHEAD,
            first: true,
            closed: false,
            observer,
        };
        Some((feed, stored))
    }

    /// Offers the runs not in the workers' queue yet through `offer`, and sends more until
    /// [`FrameFeed::ahead`] are in flight.
    fn send_ahead(&mut self, offer: &mut Offer<'_>) {
        loop {
            if self.closed {
                return;
            }
            if self.unoffered.is_empty() && self.sent.len() < self.ahead {
                let Some(run) = self.next_unsent() else {
                    return;
                };
                let decoding = Arc::new(Decoding::new(run, self.spare.take().unwrap_or_default()));
                self.sent.push_back(Arc::clone(&decoding));
                self.unoffered.push_back(decoding);
            }
            let Some(decoding) = self.unoffered.pop_front() else {
                return;
            };
            match offer(Task::Decode(Arc::clone(&decoding), self.input)) {
                Ok(open) => self.closed = !open,
                Err(_) => {
                    self.unoffered.push_front(decoding);
                    return;
                }
            }
        }
    }

    /// The next run split off and not sent, if any.
    fn next_unsent(&mut self) -> Option<Run> {
        self.unsent.pop_front().or_else(|| self.split())
    }

    /// The next run from the splitter, if any.
    fn split(&mut self) -> Option<Run> {
        let After::Runs(splitter) = &mut self.after else {
            return None;
        };
        match splitter.next_run(RUN_BOUND) {
            Next::Run(run) => Some(run),
            Next::End => {
                self.after = After::End;
                None
            }
            Next::Rest => {
                let After::Runs(splitter) = std::mem::replace(&mut self.after, After::End) else {
                    return None;
                };
                self.after = After::Rest(splitter);
                None
            }
        }
    }

    /// Makes the next decoded bytes `current`, sending runs ahead through `offer` if given (else
    /// decoding them here); false at the end of the runs (the rest, if any, is then set up).
    fn next_run(&mut self, offer: Option<&mut Offer<'_>>) -> io::Result<bool> {
        // The first run is decoded here, so that nothing waits for a worker to decode it.
        let here = if std::mem::take(&mut self.first) {
            self.unsent.pop_front()
        } else {
            None
        };
        if let Some(offer) = offer {
            self.send_ahead(offer);
        }
        let (run, decoded) =
            match here.or_else(|| self.sent.is_empty().then(|| self.next_unsent()).flatten()) {
                Some(run) => {
                    Decoding::new(run, self.spare.take().unwrap_or_default()).take(self.observer)
                }
                None => match self.sent.pop_front() {
                    Some(decoding) => {
                        // Decoded here if still waiting: not to be offered any more.
                        self.unoffered
                            .retain(|other| !Arc::ptr_eq(other, &decoding));
                        decoding.take(self.observer)
                    }
                    None => {
                        self.start_rest(None)?;
                        return Ok(false);
                    }
                },
            };
        match decoded {
            Some(bytes) => {
                self.decoded += bytes.len() as u64;
                let done = std::mem::replace(&mut self.current, bytes);
                self.at = 0;
                if done.capacity() > 0 {
                    self.spare = Some(done);
                }
                Ok(true)
            }
            None => {
                self.start_rest(Some(run))?;
                Ok(false)
            }
        }
    }

    /// Sets up the rest of the file to be decoded as one stream, if there is one: from the start
    /// of `failed`, a run that did not decode whole, or else from where the runs ended.
    fn start_rest(&mut self, failed: Option<Run>) -> io::Result<()> {
        let rest = match std::mem::replace(&mut self.after, After::End) {
            After::Rest(splitter) | After::Runs(splitter) => Some(splitter.into_rest()),
            After::End => None,
        };
        let Some(failed) = failed else {
            // The runs sent and split ran out: `after` was not `Runs`.
            if let Some((at, rest)) = rest {
                self.rest = Some(frames::decode_rest(rest, at, self.decoded)?);
            }
            return Ok(());
        };
        let rest = rest.map_or_else(|| Box::new(io::empty()) as Box<dyn Read + Send>, |r| r.1);
        // The failed run, the runs after it, and the rest of the file.
        let from = failed.at;
        let mut raw = failed.raw;
        self.unoffered.clear();
        for decoding in std::mem::take(&mut self.sent) {
            raw.extend(decoding.take(self.observer).0.raw);
        }
        for run in std::mem::take(&mut self.unsent) {
            raw.extend(run.raw);
        }
        let rest = io::Cursor::new(raw).chain(rest);
        self.rest = Some(frames::decode_rest(Box::new(rest), from, self.decoded)?);
        Ok(())
    }

    /// Fills `buf` with decoded bytes, offering runs through `offer` if given (else decoding them
    /// here): how many, fewer only at the end of the file or on a failure, which comes after them.
    fn read_into(
        &mut self,
        buf: &mut [u8],
        mut offer: Option<&mut Offer<'_>>,
    ) -> (usize, Option<io::Error>) {
        if let Some(offer) = &mut offer
            && !self.unoffered.is_empty()
        {
            self.send_ahead(&mut **offer);
        }
        let mut filled = 0;
        while filled < buf.len() {
            if let Some(rest) = &mut self.rest {
                let (read, error) = fill_from(rest, &mut buf[filled..]);
                return (filled + read, error);
            }
            if self.at == self.current.len() {
                let more = match &mut offer {
                    Some(offer) => self.next_run(Some(&mut **offer)),
                    None => self.next_run(None),
                };
                match more {
                    Ok(false) if self.rest.is_none() => break,
                    Ok(_) => continue,
                    Err(error) => return (filled, Some(error)),
                }
            }
            let n = (self.current.len() - self.at).min(buf.len() - filled);
            buf[filled..filled + n].copy_from_slice(&self.current[self.at..self.at + n]);
            (self.at, filled) = (self.at + n, filled + n);
        }
        (filled, None)
    }
}

impl Feed for FrameFeed<'_> {
    fn fill(&mut self, buf: &mut [u8], offer: &mut Offer<'_>) -> (usize, Option<io::Error>) {
        self.read_into(buf, Some(offer))
    }

    fn here(&mut self) -> impl Read + '_ {
        Here {
            feed: self,
            failure: None,
        }
    }
}

/// The feed read here, in order: runs not sent yet are decoded on this thread.
struct Here<'f, 'a> {
    feed: &'f mut FrameFeed<'a>,
    /// A failure met after some bytes, given out at the next read (after them).
    failure: Option<io::Error>,
}

impl Read for Here<'_, '_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        match self.feed.read_into(buf, None) {
            (0, Some(failure)) => Err(failure),
            (read, failure) => {
                self.failure = failure;
                Ok(read)
            }
        }
    }
}
