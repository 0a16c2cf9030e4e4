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
//! Memory stays flat: the producer may run at most a window of batches ahead of the last one
//! consumed, so even a batch that takes very long (one huge game) holds back only that many
//! results. With one job nothing is spawned and the work runs inline.

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

/// Where the producer puts its work: batches for the workers, or results it computed itself.
/// Either way the results are consumed in the order they were put here.
pub trait Sink<B, R, W> {
    /// Hands a batch to the workers, or works on it here if they have no room. False once the
    /// pipeline is shutting down (the consumer failed): the producer should then stop.
    fn send(&mut self, batch: B) -> bool;
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
///   result.
/// * `consume` receives the results in input order, on whichever thread finished the next one;
///   an error (writing the output) stops the run and is returned; so is an internal error when a
///   thread panicked.
pub fn run_ordered<B, R, W, P>(
    jobs: usize,
    produce: impl FnOnce(&mut dyn Sink<B, R, W>) -> P + Send,
    make_worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, B) -> R + Sync,
    mut consume: impl FnMut(R) -> io::Result<()> + Send,
) -> io::Result<P>
where
    B: Send,
    R: Send,
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

    let window = Window::new(jobs as u64 * WINDOW_PER_JOB);
    let ordered = InOrder::new(consume);
    thread::scope(|scope| {
        let (batch_tx, batch_rx) = sync_channel::<(u64, B)>(jobs * QUEUE_PER_JOB);
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
                while let Some((sequence, batch)) = next_batch(&batch_rx) {
                    if !ordered.deliver(sequence, work(&mut worker, batch), window) {
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

/// The sink of one job: everything is computed and consumed right here.
struct Inline<'a, W, F, C> {
    worker: W,
    work: &'a F,
    consume: &'a mut C,
    /// The consumer's error, which stops the run.
    failure: Option<io::Error>,
}

impl<B, R, W, F, C> Sink<B, R, W> for Inline<'_, W, F, C>
where
    F: Fn(&mut W, B) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    fn send(&mut self, batch: B) -> bool {
        let result = (self.work)(&mut self.worker, batch);
        self.done(result)
    }

    fn worker(&mut self) -> &mut W {
        &mut self.worker
    }

    fn done(&mut self, result: R) -> bool {
        if self.failure.is_some() {
            return false;
        }
        match (self.consume)(result) {
            Ok(()) => true,
            Err(err) => {
                self.failure = Some(err);
                false
            }
        }
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
    batch_tx: SyncSender<(u64, B)>,
    ordered: &'a InOrder<R, C>,
}

impl<B, R, W, F, C> Producer<'_, B, R, W, F, C>
where
    F: Fn(&mut W, B) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    /// Once everything is produced, works on the batches still queued alongside the workers, so
    /// that the last ones are not left to fewer threads than there are jobs. Returns how many
    /// batches and results were put into the sink.
    fn finish(self, queue: &Mutex<Receiver<(u64, B)>>) -> u64 {
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
            let Ok((sequence, batch)) = next else {
                break;
            };
            if !ordered.deliver(sequence, work(&mut worker, batch), window) {
                break;
            }
        }
        sequence
    }
}

impl<B, R, W, F, C> Sink<B, R, W> for Producer<'_, B, R, W, F, C>
where
    F: Fn(&mut W, B) -> R,
    C: FnMut(R) -> io::Result<()>,
{
    fn send(&mut self, batch: B) -> bool {
        if !self.window.wait_for_room(self.sequence) {
            return false;
        }
        let item = (self.sequence, batch);
        self.sequence += 1;
        match self.batch_tx.try_send(item) {
            Ok(()) => true,
            Err(TrySendError::Full((sequence, batch))) => {
                let result = (self.work)(&mut self.worker, batch);
                self.ordered.deliver(sequence, result, self.window)
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    }

    fn worker(&mut self) -> &mut W {
        &mut self.worker
    }

    fn done(&mut self, result: R) -> bool {
        if !self.window.wait_for_room(self.sequence) {
            return false;
        }
        let sequence = self.sequence;
        self.sequence += 1;
        self.ordered.deliver(sequence, result, self.window)
    }
}

/// The reorder buffer, and the consumer it feeds in order.
struct InOrder<R, C> {
    /// Results that arrived before their turn.
    waiting: Mutex<BTreeMap<u64, R>>,
    /// Held by the thread consuming.
    consumer: Mutex<Consumer<C>>,
}

struct Consumer<C> {
    consume: C,
    /// The sequence number of the next result to consume.
    next: u64,
    /// The consumer's error, which stops the run.
    failure: Option<io::Error>,
}

impl<R, C: FnMut(R) -> io::Result<()>> InOrder<R, C> {
    fn new(consume: C) -> InOrder<R, C> {
        InOrder {
            waiting: Mutex::new(BTreeMap::new()),
            consumer: Mutex::new(Consumer {
                consume,
                next: 0,
                failure: None,
            }),
        }
    }

    /// Puts result `sequence` in its place, and consumes every result now in turn unless another
    /// thread is at it (which then sees this one too). False once the run is over.
    fn deliver(&self, sequence: u64, result: R, window: &Window) -> bool {
        lock(&self.waiting).insert(sequence, result);
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
                let Some(result) = lock(&self.waiting).remove(&next) else {
                    break;
                };
                if let Err(err) = (consumer.consume)(result) {
                    consumer.failure = Some(err);
                    window.close();
                    return false;
                }
                consumer.next += 1;
                window.advance();
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

    /// After every thread is done: how many results were consumed, or the consumer's error.
    fn finish(&self) -> io::Result<u64> {
        let mut consumer = lock(&self.consumer);
        match consumer.failure.take() {
            Some(err) => Err(err),
            None => Ok(consumer.next),
        }
    }
}

/// Locks `mutex`. A poisoned lock means a thread panicked while holding it; what it guards is
/// still sound (counts and queues are updated in single steps).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many batches have been consumed, and whether the run is over: the producer waits here
/// while it is a whole window ahead.
struct Window {
    size: u64,
    state: Mutex<WindowState>,
    moved: Condvar,
}

struct WindowState {
    consumed: u64,
    closed: bool,
}

impl Window {
    fn new(size: u64) -> Window {
        Window {
            size,
            state: Mutex::new(WindowState {
                consumed: 0,
                closed: false,
            }),
            moved: Condvar::new(),
        }
    }

    /// Waits until batch `sequence` may be produced; false if the run is over.
    fn wait_for_room(&self, sequence: u64) -> bool {
        let mut state = lock(&self.state);
        while !state.closed && sequence >= state.consumed + self.size {
            state = self
                .moved
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        !state.closed
    }

    fn advance(&self) {
        let mut state = lock(&self.state);
        state.consumed += 1;
        self.moved.notify_all();
    }

    fn close(&self) {
        let mut state = lock(&self.state);
        state.closed = true;
        self.moved.notify_all();
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

fn next_batch<B>(batch_rx: &Mutex<Receiver<(u64, B)>>) -> Option<(u64, B)> {
    lock(batch_rx).recv().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(jobs: usize, n: u64) -> (Vec<u64>, u64) {
        let mut out = Vec::new();
        let produced = run_ordered(
            jobs,
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
            |calls, i| {
                *calls += 1;
                // Uneven work so batches finish out of order.
                if i % 7 == 0 {
                    thread::sleep(std::time::Duration::from_micros(200));
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
                |_, i| {
                    if i % 5 == 0 {
                        thread::sleep(std::time::Duration::from_micros(100));
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
    fn an_emit_error_stops_the_producer() {
        for jobs in [1, 2] {
            let mut emitted = 0;
            let result = run_ordered(
                jobs,
                |sink| (0..1_000_000u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i| i,
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
        use std::sync::atomic::{AtomicU64, Ordering};
        for jobs in [2, 3] {
            let produced = AtomicU64::new(0);
            let mut emitted = 0u64;
            let mut most_ahead = 0u64;
            run_ordered(
                jobs,
                |sink| {
                    for i in 0..2_000u64 {
                        produced.store(i + 1, Ordering::SeqCst);
                        if !sink.send(i) {
                            break;
                        }
                    }
                },
                || (),
                |_, i| {
                    // Batch 10 is very slow: everything after it must wait to be emitted.
                    if i == 10 {
                        thread::sleep(std::time::Duration::from_millis(300));
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
                    |sink| (0..200u64).take_while(|&i| sink.send(i)).count(),
                    || (),
                    |_, i| {
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
                |sink| (0..200u64).take_while(|&i| sink.send(i)).count(),
                || (),
                |_, i| -> u64 { panic!("test panic in batch {i}") },
                |_| Ok(()),
            );
            assert!(result.is_err(), "jobs {}, every batch panics", jobs + 2);
        }
    }
}
