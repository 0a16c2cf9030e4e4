//! An ordered parallel pipeline: one thread produces batches, `jobs` threads process them, and the
//! results are consumed in input order.
//!
//! Output must be identical byte for byte whatever the number of jobs, so results carry their
//! sequence number and wait in a reorder buffer until every earlier result has been consumed. The
//! thread that finishes the result next in turn consumes it (and whatever waits behind it), so no
//! thread is woken just to write, and on a machine with as many cores as jobs none competes for a
//! core with the computing threads.
//!
//! With `jobs` ≥ 2 the producer is one of the `jobs` computing threads: it hands a batch to the
//! `jobs - 1` workers while their queue has room and computes itself when the queue is full, either
//! a batch it made or work it does its own way ([`Sink::done`]); once it has produced everything it
//! helps empty the queue. So `jobs` threads compute on `jobs` cores, and the serial part (reading
//! the input) neither leaves a core idle nor competes with a full set of workers for one.
//!
//! Memory stays flat, whatever the batches turn into:
//!
//! - what is in flight (batches produced and not yet consumed, and the results waiting for their
//!   turn) is bounded twice: by count, a window of batches ahead of the last one consumed, and by
//!   bytes, as [`Weight`] counts them; the producer waits while either is full (unless nothing at
//!   all is in flight, so that a batch larger than the bound still goes through);
//! - a batch whose result grows large hands it on in pieces as it goes (see [`run_ordered`]'s
//!   `work`), each consumed in turn like a result of its own; after each piece its thread waits
//!   while the bytes in flight are over the bound, until they drop or the piece is consumed. The
//!   batch next in turn has its pieces consumed as they come, so its thread waits at most for
//!   the one being written, and the run always moves on.
//!
//! So even a batch that takes very long (one huge game) holds back only a window of results, and a
//! small batch that turns into a great deal of output (a million one-token games, each a record)
//! holds only a piece of it at a time. With one job nothing is spawned and the work runs inline.

use std::collections::BTreeMap;
use std::io;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::thread;

/// Batches waiting for a worker, per job.
const QUEUE_PER_JOB: usize = 2;
/// Batches produced but not yet consumed, at most, per job: well over what the queue holds plus
/// one in work per thread, so that the queue fills up and the producer computes.
const WINDOW_PER_JOB: u64 = 6;

/// What a batch or a result holds in memory, in bytes: what the bound on what is in flight counts.
pub trait Weight {
    /// The bytes held.
    fn weight(&self) -> usize;
}

/// Where the producer puts its work: batches for the workers, or results it computed itself.
/// Either way the results are consumed in the order they were put here.
pub trait Sink<B, R, W> {
    /// Hands a batch to the workers, or works on it here if they have no room. False once the
    /// pipeline is shutting down (the consumer failed): the producer should then stop.
    fn send(&mut self, batch: B) -> bool;
    /// Hands a batch to the workers if their queue has room, and never works on it here: gives it
    /// back if the queue is full (to offer again later), else false once the pipeline is shutting
    /// down. For work that should go to another core while this thread goes on producing (a zstd
    /// frame to decode: done here, it would leave the workers without batches meanwhile).
    fn offer(&mut self, batch: B) -> Result<bool, B>;
    /// This thread's own worker state, to compute with before [`Sink::done`].
    fn worker(&mut self) -> &mut W;
    /// Passes on a result computed here. False once the pipeline is shutting down.
    fn done(&mut self, result: R) -> bool;
}

/// Runs the pipeline.
///
/// * `produce` is called on a producer thread and puts its work into the [`Sink`] until it
///   returns. Its own result is returned after the results are consumed.
/// * `make_worker` builds each computing thread's reusable state; `work` turns a batch into a
///   result. It may hand on the first pieces of the result as it goes, each through its third
///   argument (false once the pipeline is shutting down: it should then return at once); what it
///   returns is the last piece. Every piece is consumed in order, before the next batch's.
/// * `consume` receives the results in input order, on whichever thread finished the next one;
///   an error (writing the output) stops the run and is returned; so is an internal error when a
///   thread panicked.
/// * `bytes` bounds what is in flight, as described in the module documentation.
pub fn run_ordered<B, R, W, P>(
    jobs: usize,
    bytes: usize,
    produce: impl FnOnce(&mut dyn Sink<B, R, W>) -> P + Send,
    make_worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, B, &mut dyn FnMut(R) -> bool) -> R + Sync,
    mut consume: impl FnMut(R) -> io::Result<()> + Send,
) -> io::Result<P>
where
    B: Weight + Send,
    R: Weight + Send,
    P: Send,
{
    if jobs <= 1 {
        let mut inline = Inline {
            worker: make_worker(),
            work: &work,
            consume: &mut consume,
            failure: None,
        };
        let produced = produce(&mut inline);
        return match inline.failure {
            Some(err) => Err(err),
            None => Ok(produced),
        };
    }

    let window = Window::new(jobs as u64 * WINDOW_PER_JOB, bytes);
    let ordered = InOrder::new(consume);
    thread::scope(|scope| {
        let (batch_tx, batch_rx) = sync_channel::<Queued<B>>(jobs * QUEUE_PER_JOB);
        let batch_rx = Arc::new(Mutex::new(batch_rx));
        let (make_worker, work, window, ordered) = (&make_worker, &work, &window, &ordered);

        let producer_queue = Arc::clone(&batch_rx);
        let producer = scope.spawn(move || {
            let _closer = CloseOnPanic(window);
            let mut sink = Producer {
                sequence: 0,
                worker: make_worker(),
                work,
                window,
                batch_tx,
                ordered,
            };
            let produced = produce(&mut sink);
            (produced, sink.finish(&producer_queue))
        });

        let mut workers = Vec::with_capacity(jobs - 1);
        for _ in 1..jobs {
            let batch_rx = Arc::clone(&batch_rx);
            workers.push(scope.spawn(move || {
                let _closer = CloseOnPanic(window);
                let mut worker = make_worker();
                while let Some(queued) = next_batch(&batch_rx) {
                    if !work_on(work, &mut worker, queued, ordered, window) {
                        break;
                    }
                }
            }));
        }
        drop(batch_rx);

        let producer = producer.join();
        // Every worker is joined, even after a failed one (an unjoined panic would end the scope).
        let failed_workers = workers
            .into_iter()
            .map(|worker| worker.join())
            .filter(Result::is_err)
            .count();
        let (produced, batches) =
            producer.map_err(|_| io::Error::other("internal error: the input thread panicked"))?;
        let consumed = ordered.finish()?;
        if failed_workers > 0 || consumed != batches {
            return Err(io::Error::other(
                "internal error: a worker thread stopped before finishing its batch",
            ));
        }
        Ok(produced)
    })
}

/// A batch in the workers' queue: its sequence number and weight, and the batch.
struct Queued<B> {
    sequence: u64,
    weight: usize,
    batch: B,
}

/// Works on a queued batch here, handing its pieces and its last result to the reorder buffer.
/// False once the run is over.
fn work_on<B, R: Weight, W, F, C>(
    work: &F,
    worker: &mut W,
    queued: Queued<B>,
    ordered: &InOrder<R, C>,
    window: &Window,
) -> bool
where
    F: Fn(&mut W, B, &mut dyn FnMut(R) -> bool) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    let Queued {
        sequence,
        weight,
        batch,
    } = queued;
    let mut piece = 0;
    let mut open = true;
    let last = work(worker, batch, &mut |result| {
        let at = Place { sequence, piece };
        open = open && ordered.deliver(at, result, None, window) && window.wait_to_go_on(at);
        piece += 1;
        open
    });
    open && ordered.deliver(Place { sequence, piece }, last, Some(weight), window)
}

/// The sink of one job: everything is computed and consumed right here.
struct Inline<'a, W, F, C> {
    worker: W,
    work: &'a F,
    consume: &'a mut C,
    /// The consumer's error, which stops the run.
    failure: Option<io::Error>,
}

/// Consumes `result` unless the run failed already; false once it has.
fn consume_here<R>(
    consume: &mut impl FnMut(R) -> io::Result<()>,
    failure: &mut Option<io::Error>,
    result: R,
) -> bool {
    if failure.is_some() {
        return false;
    }
    match consume(result) {
        Ok(()) => true,
        Err(err) => {
            *failure = Some(err);
            false
        }
    }
}

impl<B, R, W, F, C> Sink<B, R, W> for Inline<'_, W, F, C>
where
    F: Fn(&mut W, B, &mut dyn FnMut(R) -> bool) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    fn send(&mut self, batch: B) -> bool {
        let (consume, failure) = (&mut *self.consume, &mut self.failure);
        let result = (self.work)(&mut self.worker, batch, &mut |piece| {
            consume_here(consume, failure, piece)
        });
        self.done(result)
    }

    /// With no workers, the batch is worked on here.
    fn offer(&mut self, batch: B) -> Result<bool, B> {
        Ok(self.send(batch))
    }

    fn worker(&mut self) -> &mut W {
        &mut self.worker
    }

    fn done(&mut self, result: R) -> bool {
        consume_here(self.consume, &mut self.failure, result)
    }
}

/// The producer's sink with workers: batches go to their queue, results to the reorder buffer,
/// each under the next sequence number.
struct Producer<'a, B, R, W, F, C> {
    /// The sequence number of the next batch or result.
    sequence: u64,
    worker: W,
    work: &'a F,
    window: &'a Window,
    batch_tx: SyncSender<Queued<B>>,
    ordered: &'a InOrder<R, C>,
}

impl<B, R, W, F, C> Producer<'_, B, R, W, F, C>
where
    R: Weight,
    F: Fn(&mut W, B, &mut dyn FnMut(R) -> bool) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    /// Once everything is produced, works on the batches still queued alongside the workers, so
    /// that the last ones are not left to fewer threads than there are jobs. Returns how many
    /// batches and results were put into the sink.
    fn finish(self, queue: &Mutex<Receiver<Queued<B>>>) -> u64 {
        let Producer {
            sequence,
            mut worker,
            work,
            window,
            batch_tx,
            ordered,
            ..
        } = self;
        // Closed first: a worker waits for the next batch holding the queue's lock, until there is
        // one or there will be none.
        drop(batch_tx);
        loop {
            let next = lock(queue).try_recv();
            let Ok(queued) = next else {
                break;
            };
            if !work_on(work, &mut worker, queued, ordered, window) {
                break;
            }
        }
        sequence
    }
}

impl<B, R, W, F, C> Sink<B, R, W> for Producer<'_, B, R, W, F, C>
where
    B: Weight,
    R: Weight,
    F: Fn(&mut W, B, &mut dyn FnMut(R) -> bool) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    fn send(&mut self, batch: B) -> bool {
        let weight = batch.weight();
        if !self.window.wait_for_room(self.sequence, weight) {
            return false;
        }
        let queued = Queued {
            sequence: self.sequence,
            weight,
            batch,
        };
        self.sequence += 1;
        match self.batch_tx.try_send(queued) {
            Ok(()) => true,
            Err(TrySendError::Full(queued)) => work_on(
                self.work,
                &mut self.worker,
                queued,
                self.ordered,
                self.window,
            ),
            Err(TrySendError::Disconnected(_)) => false,
        }
    }

    fn offer(&mut self, batch: B) -> Result<bool, B> {
        let weight = batch.weight();
        if !self.window.wait_for_room(self.sequence, weight) {
            return Ok(false);
        }
        let queued = Queued {
            sequence: self.sequence,
            weight,
            batch,
        };
        match self.batch_tx.try_send(queued) {
            Ok(()) => {
                self.sequence += 1;
                Ok(true)
            }
            Err(TrySendError::Full(queued)) => {
                self.window.uncount(weight);
                Err(queued.batch)
            }
            Err(TrySendError::Disconnected(_)) => Ok(false),
        }
    }

    fn worker(&mut self) -> &mut W {
        &mut self.worker
    }

    fn done(&mut self, result: R) -> bool {
        if !self.window.wait_for_room(self.sequence, 0) {
            return false;
        }
        let at = Place {
            sequence: self.sequence,
            piece: 0,
        };
        self.sequence += 1;
        self.ordered.deliver(at, result, Some(0), self.window)
    }
}

/// Where a result stands in the order: its batch, and its piece of the batch's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    sequence: u64,
    piece: u64,
}

/// A result waiting for its turn.
struct Waiting<R> {
    result: R,
    /// Its weight, as counted in flight.
    weight: usize,
    /// For the batch's last piece, the batch's own weight, counted in flight until then.
    last: Option<usize>,
}

/// The reorder buffer, and the consumer it feeds in order.
struct InOrder<R, C> {
    /// Results that arrived before their turn.
    waiting: Mutex<BTreeMap<Place, Waiting<R>>>,
    /// Held by the thread consuming.
    consumer: Mutex<Consumer<C>>,
}

struct Consumer<C> {
    consume: C,
    /// The place of the next result to consume.
    next: Place,
    /// The consumer's error, which stops the run.
    failure: Option<io::Error>,
}

impl<R: Weight, C: FnMut(R) -> io::Result<()>> InOrder<R, C> {
    fn new(consume: C) -> InOrder<R, C> {
        InOrder {
            waiting: Mutex::new(BTreeMap::new()),
            consumer: Mutex::new(Consumer {
                consume,
                next: Place {
                    sequence: 0,
                    piece: 0,
                },
                failure: None,
            }),
        }
    }

    /// Puts the result at `at` in its place (`last` holds the batch's weight when it is the
    /// batch's last piece), and consumes every result now in turn unless another thread is at it
    /// (which then sees this one too). False once the run is over.
    fn deliver(&self, at: Place, result: R, last: Option<usize>, window: &Window) -> bool {
        let weight = result.weight();
        window.add(weight);
        let waiting = Waiting {
            result,
            weight,
            last,
        };
        lock(&self.waiting).insert(at, waiting);
        loop {
            let mut consumer = match self.consumer.try_lock() {
                Ok(consumer) => consumer,
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => return true,
            };
            if consumer.failure.is_some() {
                return false;
            }
            loop {
                let next = consumer.next;
                let Some(waiting) = lock(&self.waiting).remove(&next) else {
                    break;
                };
                if let Err(err) = (consumer.consume)(waiting.result) {
                    consumer.failure = Some(err);
                    window.close();
                    return false;
                }
                consumer.next = match waiting.last {
                    Some(_) => Place {
                        sequence: next.sequence + 1,
                        piece: 0,
                    },
                    None => Place {
                        piece: next.piece + 1,
                        ..next
                    },
                };
                window.consumed(waiting.weight + waiting.last.unwrap_or(0), consumer.next);
            }
            let next = consumer.next;
            drop(consumer);
            // A result that arrived while this thread held the consumer, after it last looked,
            // was left to it: look once more now that another thread could take the consumer.
            if !lock(&self.waiting).contains_key(&next) {
                return true;
            }
        }
    }

    /// After every thread is done: how many batches were consumed, or the consumer's error.
    fn finish(&self) -> io::Result<u64> {
        let mut consumer = lock(&self.consumer);
        match consumer.failure.take() {
            Some(err) => Err(err),
            None => Ok(consumer.next.sequence),
        }
    }
}

/// Locks `mutex`. A poisoned lock means a thread panicked while holding it; what it guards is
/// still sound (counts and queues are updated in single steps).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What is in flight, and whether the run is over: the producer waits here while a window of
/// batches or of bytes is in flight, and a thread waits after a piece while the bytes are over
/// (until its piece is consumed, if its batch comes to be next in turn).
struct Window {
    /// Batches in flight, at most.
    size: u64,
    /// Bytes in flight, at most (but see [`Window::wait_for_room`]).
    bytes: usize,
    state: Mutex<WindowState>,
    moved: Condvar,
}

struct WindowState {
    /// The place of the next result to consume: its sequence number is the count of batches
    /// consumed to their last piece.
    next: Place,
    /// The weight of the batches produced and not consumed, and of the results waiting.
    in_flight: usize,
    closed: bool,
    /// Threads waiting for the window to move: it is signalled only if there are some (a
    /// signal is a system call, and results are consumed a thousand times on 64 MB).
    waiting: usize,
}

impl Window {
    fn new(size: u64, bytes: usize) -> Window {
        Window {
            size,
            bytes,
            state: Mutex::new(WindowState {
                next: Place {
                    sequence: 0,
                    piece: 0,
                },
                in_flight: 0,
                closed: false,
                waiting: 0,
            }),
            moved: Condvar::new(),
        }
    }

    /// Waits until batch `sequence`, of `weight` bytes, may be produced, and counts it in flight;
    /// false if the run is over. It may once nothing is in flight, whatever its weight.
    fn wait_for_room(&self, sequence: u64, weight: usize) -> bool {
        let mut state = lock(&self.state);
        while !state.closed
            && sequence > state.next.sequence
            && (sequence >= state.next.sequence + self.size
                || state.in_flight.saturating_add(weight) > self.bytes)
        {
            state = self.wait(state);
        }
        state.in_flight += weight;
        !state.closed
    }

    /// After the piece at `at` was delivered: waits while the bytes in flight are over and the
    /// piece is not consumed yet; false if the run is over. (Not until the bytes drop: they may
    /// be results that can only be consumed after this batch.)
    fn wait_to_go_on(&self, at: Place) -> bool {
        let mut state = lock(&self.state);
        while !state.closed && state.in_flight > self.bytes && state.next <= at {
            state = self.wait(state);
        }
        !state.closed
    }

    /// Waits for the window to move, counted among the threads waiting.
    fn wait<'s>(&self, mut state: MutexGuard<'s, WindowState>) -> MutexGuard<'s, WindowState> {
        state.waiting += 1;
        let mut state = self
            .moved
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner);
        state.waiting -= 1;
        state
    }

    /// Wakes the threads waiting for the window to move, if any.
    fn wake_waiting(&self, state: &WindowState) {
        if state.waiting > 0 {
            self.moved.notify_all();
        }
    }

    /// No longer counts a batch of `weight` bytes in flight: it was not handed out after all.
    fn uncount(&self, weight: usize) {
        lock(&self.state).in_flight -= weight;
    }

    /// Counts a result of `weight` bytes in flight.
    fn add(&self, weight: usize) {
        lock(&self.state).in_flight += weight;
    }

    /// A result of `weight` bytes (its batch's included when it was the batch's last piece) was
    /// consumed; `next` is next in turn.
    fn consumed(&self, weight: usize, next: Place) {
        let mut state = lock(&self.state);
        state.in_flight -= weight;
        state.next = next;
        self.wake_waiting(&state);
    }

    fn close(&self) {
        let mut state = lock(&self.state);
        state.closed = true;
        self.wake_waiting(&state);
    }
}

/// Closes the window if its thread panics, so that the producer does not wait for a batch that
/// will never be consumed.
struct CloseOnPanic<'a>(&'a Window);

impl Drop for CloseOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.close();
        }
    }
}

fn next_batch<B>(batch_rx: &Mutex<Receiver<Queued<B>>>) -> Option<Queued<B>> {
    lock(batch_rx).recv().ok()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// No bound on the bytes in flight.
    const UNBOUNDED: usize = usize::MAX;

    impl Weight for u64 {
        fn weight(&self) -> usize {
            8
        }
    }

    fn run(jobs: usize, n: u64) -> (Vec<u64>, u64) {
        let mut out = Vec::new();
        let produced = run_ordered(
            jobs,
            UNBOUNDED,
            |sink| {
                let mut count = 0;
                for i in 0..n {
                    if !sink.send(i) {
                        break;
                    }
                    count += 1;
                }
                count
            },
            || 0u64,
            |calls, i, _| {
                *calls += 1;
                // Uneven work so batches finish out of order.
                if i % 7 == 0 {
                    thread::sleep(Duration::from_micros(200));
                }
                i * i
            },
            |r| {
                out.push(r);
                Ok(())
            },
        )
        .unwrap();
        (out, produced)
    }

    #[test]
    fn results_come_in_input_order_whatever_the_jobs() {
        let expected: Vec<u64> = (0..500).map(|i| i * i).collect();
        for jobs in [1, 2, 3, 8] {
            let (out, produced) = run(jobs, 500);
            assert_eq!(out, expected, "jobs {jobs}");
            assert_eq!(produced, 500);
        }
    }

    #[test]
    fn results_computed_by_the_producer_keep_their_place() {
        for jobs in [1, 2, 3] {
            let mut out = Vec::new();
            run_ordered(
                jobs,
                UNBOUNDED,
                |sink| {
                    for i in 0..300u64 {
                        // Two batches sent, then a result computed here, and so on.
                        let more = if i % 3 != 0 {
                            sink.send(i)
                        } else {
                            *sink.worker() += 1;
                            sink.done(i * i)
                        };
                        if !more {
                            break;
                        }
                    }
                },
                || 0u64,
                |_, i, _| {
                    if i % 5 == 0 {
                        thread::sleep(Duration::from_micros(100));
                    }
                    i * i
                },
                |r| {
                    out.push(r);
                    Ok(())
                },
            )
            .unwrap();
            let expected: Vec<u64> = (0..300).map(|i| i * i).collect();
            assert_eq!(out, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn a_batch_offered_to_a_full_queue_comes_back_and_is_never_worked_on_by_the_producer() {
        // The worker holds batch 0 until the producer has seen an offer come back; the queue
        // (2 per job) fills up behind it, and the producer works on what does not fit.
        let released = AtomicBool::new(false);
        let producer_thread = Mutex::new(None);
        let mut out = Vec::new();
        let came_back = run_ordered(
            2,
            UNBOUNDED,
            |sink| {
                *lock(&producer_thread) = Some(thread::current().id());
                let mut offers = 0;
                let mut came_back: Vec<u64> = Vec::new();
                for i in 0..8u64 {
                    assert!(sink.send(i));
                }
                let mut batch = 100u64;
                loop {
                    offers += 1;
                    match sink.offer(batch) {
                        Ok(open) => {
                            assert!(open);
                            break;
                        }
                        Err(back) => {
                            came_back.push(back);
                            batch = back;
                            released.store(true, Ordering::SeqCst);
                            thread::sleep(Duration::from_millis(1));
                        }
                    }
                    assert!(offers < 10_000, "the queue never had room");
                }
                assert!(sink.send(9));
                came_back
            },
            || (),
            |_, i, _| {
                while i == 0 && !released.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(1));
                }
                let here = Some(thread::current().id()) == *lock(&producer_thread);
                assert!(
                    !(i == 100 && here),
                    "the offered batch was worked on by the producer"
                );
                i
            },
            |r| {
                out.push(r);
                Ok(())
            },
        )
        .unwrap();
        // Given back at least once (the queue was full behind batch 0), and whole.
        assert!(!came_back.is_empty() && came_back.iter().all(|&b| b == 100));
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7, 100, 9]);
    }

    /// A result that stands for `weight` bytes: piece `piece` of batch `batch`.
    #[derive(Debug, PartialEq)]
    struct Heavy {
        batch: u64,
        piece: u64,
        weight: usize,
    }

    impl Weight for Heavy {
        fn weight(&self) -> usize {
            self.weight
        }
    }

    #[test]
    fn the_pieces_of_a_batch_come_in_order_before_the_next_batch() {
        for jobs in [1, 2, 3, 8] {
            let mut out = Vec::new();
            run_ordered(
                jobs,
                UNBOUNDED,
                |sink| (0..300u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, batch, pieces| {
                    // Batch i has i % 4 pieces before its last.
                    for piece in 0..batch % 4 {
                        if batch % 7 == 0 {
                            thread::sleep(Duration::from_micros(100));
                        }
                        let weight = 1;
                        if !pieces(Heavy {
                            batch,
                            piece,
                            weight,
                        }) {
                            break;
                        }
                    }
                    Heavy {
                        batch,
                        piece: batch % 4,
                        weight: 1,
                    }
                },
                |r| {
                    out.push((r.batch, r.piece));
                    Ok(())
                },
            )
            .unwrap();
            let expected: Vec<(u64, u64)> = (0..300u64)
                .flat_map(|batch| (0..=batch % 4).map(move |piece| (batch, piece)))
                .collect();
            assert_eq!(out, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn the_bytes_in_flight_stay_within_the_bound() {
        // Batch 3 is slow; every batch weighs 100 bytes and turns into 50 pieces of 1,000 bytes.
        // Unbounded, a window of batches would pile up their pieces behind batch 3.
        const BYTES: usize = 10_000;
        const PIECE: usize = 1_000;
        for jobs in [2, 3] {
            // Bytes of batches produced and of pieces made, not yet consumed.
            let in_flight = AtomicUsize::new(0);
            let mut most = 0;
            let mut consumed = 0;
            run_ordered(
                jobs,
                BYTES,
                |sink| {
                    for i in 0..60u64 {
                        in_flight.fetch_add(100, Ordering::SeqCst);
                        if !sink.send(Heavy {
                            batch: i,
                            piece: 0,
                            weight: 100,
                        }) {
                            break;
                        }
                    }
                },
                || (),
                |_, batch, pieces| {
                    if batch.batch == 3 {
                        thread::sleep(Duration::from_millis(200));
                    }
                    for piece in 0..50 {
                        in_flight.fetch_add(PIECE, Ordering::SeqCst);
                        let weight = PIECE;
                        if !pieces(Heavy {
                            batch: batch.batch,
                            piece,
                            weight,
                        }) {
                            break;
                        }
                    }
                    Heavy { weight: 0, ..batch }
                },
                |r| {
                    most = most.max(in_flight.load(Ordering::SeqCst));
                    in_flight.fetch_sub(r.weight, Ordering::SeqCst);
                    if r.weight == 0 {
                        in_flight.fetch_sub(100, Ordering::SeqCst);
                    }
                    consumed += 1;
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(consumed, 60 * 51, "jobs {jobs}");
            // The bound, plus per thread a piece that went over it and one being made.
            let limit = BYTES + 2 * jobs * PIECE;
            assert!(
                most <= limit,
                "jobs {jobs}: {most} bytes in flight, over {limit}"
            );
        }
    }

    #[test]
    fn a_batch_heavier_than_the_bound_goes_through() {
        for jobs in [1, 2, 3] {
            let mut out = Vec::new();
            run_ordered(
                jobs,
                10,
                |sink| (0..50u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i, pieces| {
                    let weight = 1_000;
                    pieces(Heavy {
                        batch: i,
                        piece: 0,
                        weight,
                    });
                    Heavy {
                        batch: i,
                        piece: 1,
                        weight,
                    }
                },
                |r| {
                    out.push((r.batch, r.piece));
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(out.len(), 100, "jobs {jobs}");
            assert!(out.is_sorted(), "jobs {jobs}");
        }
    }

    #[test]
    fn an_emit_error_stops_the_producer() {
        for jobs in [1, 2] {
            let mut emitted = 0;
            let result = run_ordered(
                jobs,
                UNBOUNDED,
                |sink| (0..1_000_000u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i, _| i,
                |_| {
                    emitted += 1;
                    if emitted == 10 {
                        return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                    }
                    Ok(())
                },
            );
            assert!(result.is_err());
            assert_eq!(emitted, 10);
        }
    }

    #[test]
    fn an_emit_error_stops_a_batch_in_pieces() {
        for jobs in [1, 2] {
            let mut emitted = 0;
            let pieces_made = AtomicU64::new(0);
            let result = run_ordered(
                jobs,
                UNBOUNDED,
                |sink| (0..10u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i, pieces| {
                    while pieces(i) {
                        pieces_made.fetch_add(1, Ordering::SeqCst);
                        if pieces_made.load(Ordering::SeqCst) > 1_000_000 {
                            panic!("the pieces went on after the error");
                        }
                    }
                    i
                },
                |_| {
                    emitted += 1;
                    if emitted == 10 {
                        return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                    }
                    Ok(())
                },
            );
            assert!(result.is_err());
            assert_eq!(emitted, 10);
        }
    }

    #[test]
    fn the_producer_stays_within_the_window_of_a_slow_batch() {
        for jobs in [2, 3] {
            let produced = AtomicU64::new(0);
            let mut emitted = 0u64;
            let mut most_ahead = 0u64;
            run_ordered(
                jobs,
                UNBOUNDED,
                |sink| {
                    for i in 0..2_000u64 {
                        produced.store(i + 1, Ordering::SeqCst);
                        if !sink.send(i) {
                            break;
                        }
                    }
                },
                || (),
                |_, i, _| {
                    // Batch 10 is very slow: everything after it must wait to be emitted.
                    if i == 10 {
                        thread::sleep(Duration::from_millis(300));
                    }
                    i
                },
                |i| {
                    assert_eq!(i, emitted);
                    emitted += 1;
                    most_ahead = most_ahead.max(produced.load(Ordering::SeqCst) - emitted);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(emitted, 2_000);
            assert!(
                most_ahead <= jobs as u64 * WINDOW_PER_JOB,
                "jobs {jobs}: the producer ran {most_ahead} batches ahead"
            );
        }
    }

    #[test]
    fn a_worker_panic_is_an_error_not_a_hang_or_a_loss() {
        for jobs in [2, 3] {
            for bad in [0u64, 57, 199] {
                let result = run_ordered(
                    jobs,
                    UNBOUNDED,
                    |sink| (0..200u64).take_while(|&i| sink.send(i)).count(),
                    || (),
                    |_, i, _| {
                        assert!(i != bad, "test panic in batch {i}");
                        i
                    },
                    |_| Ok(()),
                );
                assert!(result.is_err(), "jobs {jobs}, batch {bad}");
            }
            // Every worker failing.
            let result = run_ordered(
                jobs + 2,
                UNBOUNDED,
                |sink| (0..200u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i, _| -> u64 { panic!("test panic in batch {i}") },
                |_| Ok(()),
            );
            assert!(result.is_err(), "jobs {}, every batch panics", jobs + 2);
        }
    }
}
