//! An ordered parallel pipeline: one thread produces batches, `jobs` threads process them, and the
//! calling thread receives the results in input order.
//!
//! Output must be identical byte for byte whatever the number of jobs, so results carry their
//! sequence number and wait in a reorder buffer until every earlier batch has been emitted.
//!
//! With `jobs` ≥ 2 the producer is one of the `jobs` computing threads: it hands a batch to the
//! `jobs - 1` workers while their queue has room and computes itself when the queue is full, either
//! a batch it made or, better, work it does its own way ([`Sink::done`]: the game reader then reads
//! in one pass what it would otherwise cut for a worker). So `jobs` threads compute on `jobs`
//! cores, and the serial part (reading and cutting the input) neither leaves a core idle nor
//! competes with a full set of workers for one.
//!
//! Memory stays flat: the producer may run at most a window of batches ahead of the last one
//! emitted, so even a batch that takes very long (one huge game) holds back only that many
//! results. With one job nothing is spawned and the work runs inline.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

/// Batches waiting for a worker, per job.
const QUEUE_PER_JOB: usize = 2;
/// Batches cut but not yet emitted, at most, per job: well over what the queue holds plus one in
/// work per thread, so that the queue fills up and the producer computes.
const WINDOW_PER_JOB: u64 = 6;

/// Where the producer puts its work: batches for the workers, or results it computed itself.
/// Either way the results are emitted in the order they were put here.
pub trait Sink<B, R, W> {
    /// Whether a worker would take a batch now. With one job, never: all work is done here.
    fn has_room(&self) -> bool;
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
///   returns. Its own result is returned after the results are emitted.
/// * `make_worker` builds each computing thread's reusable state; `work` turns a batch into a
///   result.
/// * `emit` receives the results in input order on the calling thread; an error stops the run.
pub fn run_ordered<B, R, W, P>(
    jobs: usize,
    produce: impl FnOnce(&mut dyn Sink<B, R, W>) -> P + Send,
    make_worker: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, B) -> R + Sync,
    mut emit: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<P>
where
    B: Send,
    R: Send,
    P: Send,
{
    if jobs <= 1 {
        let mut inline = Inline {
            worker: make_worker(),
            work: &work,
            emit: &mut emit,
            failure: None,
        };
        let produced = produce(&mut inline);
        return match inline.failure {
            Some(err) => Err(err),
            None => Ok(produced),
        };
    }

    let window = Window::new(jobs as u64 * WINDOW_PER_JOB);
    let capacity = jobs * QUEUE_PER_JOB;
    let queued = AtomicUsize::new(0);
    thread::scope(|scope| {
        let (batch_tx, batch_rx) = sync_channel::<(u64, B)>(capacity);
        let queued = &queued;
        let (result_tx, result_rx) = sync_channel::<(u64, R)>(jobs * QUEUE_PER_JOB);
        let batch_rx = Arc::new(Mutex::new(batch_rx));
        let (make_worker, work, window) = (&make_worker, &work, &window);

        let producer_results = result_tx.clone();
        let producer = scope.spawn(move || {
            let _closer = CloseOnPanic(window);
            let mut sink = Producer {
                sequence: 0,
                worker: make_worker(),
                work,
                window,
                batch_tx,
                queued,
                capacity,
                result_tx: producer_results,
            };
            let produced = produce(&mut sink);
            (produced, sink.sequence)
        });

        let mut workers = Vec::with_capacity(jobs - 1);
        for _ in 1..jobs {
            let batch_rx = Arc::clone(&batch_rx);
            let result_tx = result_tx.clone();
            workers.push(scope.spawn(move || {
                let _closer = CloseOnPanic(window);
                let mut worker = make_worker();
                while let Some((sequence, batch)) = next_batch(&batch_rx) {
                    queued.fetch_sub(1, Ordering::AcqRel);
                    if result_tx
                        .send((sequence, work(&mut worker, batch)))
                        .is_err()
                    {
                        break;
                    }
                }
            }));
        }
        drop(result_tx);

        let emitted = emit_in_order(&result_rx, window, &mut emit);
        // Unblock everyone before joining: the producer sees the window closed, workers and
        // producer see closed channels.
        window.close();
        drop(result_rx);
        drop(batch_rx);
        let producer = producer.join();
        // Every worker is joined, even after a failed one (an unjoined panic would end the scope).
        let failed_workers = workers
            .into_iter()
            .map(|worker| worker.join())
            .filter(Result::is_err)
            .count();
        let (produced, batches) =
            producer.map_err(|_| anyhow::anyhow!("internal error: the input thread panicked"))?;
        let emitted = emitted?;
        if failed_workers > 0 || emitted != batches {
            anyhow::bail!("internal error: a worker thread stopped before finishing its batch");
        }
        Ok(produced)
    })
}

/// The sink of one job: everything is computed and emitted right here.
struct Inline<'a, W, F, E> {
    worker: W,
    work: &'a F,
    emit: &'a mut E,
    /// The consumer's error, which stops the run.
    failure: Option<anyhow::Error>,
}

impl<B, R, W, F, E> Sink<B, R, W> for Inline<'_, W, F, E>
where
    F: Fn(&mut W, B) -> R,
    E: FnMut(R) -> anyhow::Result<()>,
{
    fn has_room(&self) -> bool {
        false
    }

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
        match (self.emit)(result) {
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
struct Producer<'a, B, R, W, F> {
    /// The sequence number of the next batch or result.
    sequence: u64,
    worker: W,
    work: &'a F,
    window: &'a Window,
    batch_tx: SyncSender<(u64, B)>,
    /// Batches in the queue, and how many it holds.
    queued: &'a AtomicUsize,
    capacity: usize,
    result_tx: SyncSender<(u64, R)>,
}

impl<B, R, W, F> Sink<B, R, W> for Producer<'_, B, R, W, F>
where
    F: Fn(&mut W, B) -> R,
{
    fn has_room(&self) -> bool {
        // Only this thread sends, so room seen here is still there when it sends.
        self.queued.load(Ordering::Acquire) < self.capacity
    }

    fn send(&mut self, batch: B) -> bool {
        if !self.window.wait_for_room(self.sequence) {
            return false;
        }
        let item = (self.sequence, batch);
        self.sequence += 1;
        // Counted before it is sent, so that a worker's count of it taken cannot come first.
        self.queued.fetch_add(1, Ordering::AcqRel);
        match self.batch_tx.try_send(item) {
            Ok(()) => true,
            Err(TrySendError::Full((sequence, batch))) => {
                self.queued.fetch_sub(1, Ordering::AcqRel);
                let result = (self.work)(&mut self.worker, batch);
                self.result_tx.send((sequence, result)).is_ok()
            }
            Err(TrySendError::Disconnected(_)) => {
                self.queued.fetch_sub(1, Ordering::AcqRel);
                false
            }
        }
    }

    fn worker(&mut self) -> &mut W {
        &mut self.worker
    }

    fn done(&mut self, result: R) -> bool {
        if !self.window.wait_for_room(self.sequence) {
            return false;
        }
        let item = (self.sequence, result);
        self.sequence += 1;
        self.result_tx.send(item).is_ok()
    }
}

/// How many batches have been emitted, and whether the run is over: the producer waits here
/// while it is a whole window ahead.
struct Window {
    size: u64,
    state: Mutex<WindowState>,
    moved: Condvar,
}

struct WindowState {
    emitted: u64,
    closed: bool,
}

impl Window {
    fn new(size: u64) -> Window {
        Window {
            size,
            state: Mutex::new(WindowState {
                emitted: 0,
                closed: false,
            }),
            moved: Condvar::new(),
        }
    }

    /// Waits until batch `sequence` may be cut; false if the run is over.
    fn wait_for_room(&self, sequence: u64) -> bool {
        // A poisoned lock means a thread panicked while holding it; the counts are still sound.
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while !state.closed && sequence >= state.emitted + self.size {
            state = self
                .moved
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        !state.closed
    }

    fn advance(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.emitted += 1;
        self.moved.notify_all();
    }

    fn close(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.closed = true;
        self.moved.notify_all();
    }
}

/// Closes the window if its thread panics, so that the producer does not wait for a batch that
/// will never be emitted.
struct CloseOnPanic<'a>(&'a Window);

impl Drop for CloseOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.close();
        }
    }
}

fn next_batch<B>(batch_rx: &Mutex<Receiver<(u64, B)>>) -> Option<(u64, B)> {
    // A poisoned lock means another worker panicked; the receiver itself is still sound.
    let guard = batch_rx.lock().unwrap_or_else(PoisonError::into_inner);
    guard.recv().ok()
}

/// Emits the results in sequence order as they arrive; returns how many were emitted.
fn emit_in_order<R>(
    result_rx: &Receiver<(u64, R)>,
    window: &Window,
    emit: &mut impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (sequence, result) in result_rx.iter() {
        waiting.insert(sequence, result);
        while let Some(result) = waiting.remove(&next) {
            emit(result)?;
            next += 1;
            window.advance();
        }
    }
    Ok(next)
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
            let (mut sent, mut done) = (0, 0);
            let mut out = Vec::new();
            run_ordered(
                jobs,
                |sink| {
                    for i in 0..300u64 {
                        let more = if sink.has_room() {
                            sent += 1;
                            sink.send(i)
                        } else {
                            done += 1;
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
            assert_eq!(sent + done, 300);
            if jobs == 1 {
                assert_eq!(sent, 0, "one job has no workers to send to");
            } else {
                assert!(
                    sent > 0 && done > 0,
                    "jobs {jobs}: {sent} sent, {done} done here"
                );
            }
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
                        anyhow::bail!("closed pipe")
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
