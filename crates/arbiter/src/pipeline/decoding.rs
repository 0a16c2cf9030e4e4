//! A run of zstd frames handed to the workers, and what became of it: decoded by whichever thread
//! gets to it first, a worker or the reading thread that needs it (see `frames`).

use std::sync::{Condvar, Mutex, PoisonError};

use arbiter_io::frames::{self, Run};

use super::Observer;

/// A run of frames handed to the workers, and what became of it.
pub(crate) struct Decoding {
    state: Mutex<State>,
    done: Condvar,
}

/// Where a run is in its decoding.
enum State {
    /// No thread has started it: the run, and the buffer to decode it into.
    Waiting(Run, Vec<u8>),
    /// A thread is decoding it.
    Started,
    /// Decoded: the run, and what it decoded to (`None` if it did not decode whole).
    Done(Run, Option<Vec<u8>>),
    /// Taken by the reading thread.
    Taken,
}

impl Decoding {
    /// The decoding of `run` into `buffer` (a spare one, or a new one).
    pub(super) fn new(run: Run, buffer: Vec<u8>) -> Decoding {
        Decoding {
            state: Mutex::new(State::Waiting(run, buffer)),
            done: Condvar::new(),
        }
    }

    /// Decodes the run here unless a thread has started it.
    pub(crate) fn decode(&self, observer: &dyn Observer) {
        let (run, buffer) = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            match std::mem::replace(&mut *state, State::Started) {
                State::Waiting(run, buffer) => (run, buffer),
                other => {
                    *state = other;
                    return;
                }
            }
        };
        let decoded = frames::decode(&run, buffer);
        observer.decoded(run.frames);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *state = State::Done(run, decoded);
        self.done.notify_all();
    }

    /// The run and what it decoded to, decoded here if no thread has started it, else once the
    /// thread that did is done.
    pub(super) fn take(&self, observer: &dyn Observer) -> (Run, Option<Vec<u8>>) {
        self.decode(observer);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            match std::mem::replace(&mut *state, State::Taken) {
                State::Done(run, decoded) => return (run, decoded),
                other => *state = other,
            }
            state = self
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}
