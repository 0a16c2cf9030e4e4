//! An ordered parallel pipeline: one thread produces batches, `jobs` threads process them, and the
//! calling thread receives the results in input order.
//!
//! Output must be identical byte for byte whatever the number of jobs, so results carry their
//! sequence number and wait in a reorder buffer until every earlier batch has been emitted.
//!
//! With `jobs` ≥ 2 the producer is one of the `jobs` computing threads: it hands a batch to the
//! `jobs - 1` workers while their queue has room and processes it itself when the queue is full.
//! So `jobs` threads compute on `jobs` cores, and the serial part (reading and cutting the input)
//! neither leaves a core idle nor competes with a full set of workers for one.
//!
//! Memory stays flat: the producer may run at most a window of batches ahead of the last one
//! emitted, so even a batch that takes very long (one huge game) holds back only that many
//! results. With one job nothing is spawned and the work runs inline.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, TrySendError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

/// Batches waiting for a worker, per job.
const QUEUE_PER_JOB: usize = 2;
/// Batches cut but not yet emitted, at most, per job: well over what the queue holds plus one in
/// work per thread, so that the queue fills up and the producer computes.
const WINDOW_PER_JOB: u64 = 6;

/// Runs the pipeline.
///
/// * `produce` is called on a producer thread and sends batches through `send` until it returns;
///   `send` returns false once the pipeline is shutting down (the consumer failed), and the
///   producer should then stop. Its own result is returned after the results are emitted.
/// * `make_worker` builds each computing thread's reusable state; `work` turns a batch into a
///   result.
/// * `emit` receives the results in input order on the calling thread; an error stops the run.
pub fn run_ordered<B, R, W, P>(
    jobs: usize,
    produce: impl FnOnce(&mut dyn FnMut(B) -> bool) -> P + Send,
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
        let mut worker = make_worker();
        let mut failure = None;
        let produced = produce(&mut |batch| {
            if failure.is_some() {
                return false;
            }
            if let Err(err) = emit(work(&mut worker, batch)) {
                failure = Some(err);
                return false;
            }
            true
        });
        return match failure {
            Some(err) => Err(err),
            None => Ok(produced),
        };
    }

    let window = Window::new(jobs as u64 * WINDOW_PER_JOB);
    thread::scope(|scope| {
        let (batch_tx, batch_rx) = sync_channel::<(u64, B)>(jobs * QUEUE_PER_JOB);
        let (result_tx, result_rx) = sync_channel::<(u64, R)>(jobs * QUEUE_PER_JOB);
        let batch_rx = Arc::new(Mutex::new(batch_rx));
        let (make_worker, work, window) = (&make_worker, &work, &window);

        let producer_results = result_tx.clone();
        let producer = scope.spawn(move || {
            let _closer = CloseOnPanic(window);
            let mut sequence = 0u64;
            let mut own_worker = None;
            let produced = produce(&mut |batch| {
                if !window.wait_for_room(sequence) {
                    return false;
                }
                let item = (sequence, batch);
                sequence += 1;
                match batch_tx.try_send(item) {
                    Ok(()) => true,
                    Err(TrySendError::Full((sequence, batch))) => {
                        let worker = own_worker.get_or_insert_with(make_worker);
                        let result = work(worker, batch);
                        producer_results.send((sequence, result)).is_ok()
                    }
                    Err(TrySendError::Disconnected(_)) => false,
                }
            });
            (produced, sequence)
        });

        let mut workers = Vec::with_capacity(jobs - 1);
        for _ in 1..jobs {
            let batch_rx = Arc::clone(&batch_rx);
            let result_tx = result_tx.clone();
            workers.push(scope.spawn(move || {
                let _closer = CloseOnPanic(window);
                let mut worker = make_worker();
                while let Some((sequence, batch)) = next_batch(&batch_rx) {
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
            |send| {
                let mut count = 0;
                for i in 0..n {
                    if !send(i) {
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
    fn an_emit_error_stops_the_producer() {
        for jobs in [1, 2] {
            let mut emitted = 0;
            let result = run_ordered(
                jobs,
                |send| (0..1_000_000u64).take_while(|&i| send(i)).count(),
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
                |send| {
                    for i in 0..2_000u64 {
                        produced.store(i + 1, Ordering::SeqCst);
                        if !send(i) {
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
                    |send| (0..200u64).take_while(|&i| send(i)).count(),
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
                |send| (0..200u64).take_while(|&i| send(i)).count(),
                || (),
                |_, i| -> u64 { panic!("test panic in batch {i}") },
                |_| Ok(()),
            );
            assert!(result.is_err(), "jobs {}, every batch panics", jobs + 2);
        }
    }
}
