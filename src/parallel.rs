//! An ordered parallel pipeline: one thread produces batches, `jobs` workers process them, and the
//! calling thread receives the results in input order.
//!
//! Output must be identical byte for byte whatever the number of jobs, so results carry their
//! sequence number and wait in a small reorder buffer until every earlier batch has been emitted.
//! Channels are bounded, so memory stays flat: at most a few batches per worker are in flight.
//! With one job nothing is spawned and the work runs inline.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

/// Batches waiting for a worker, per worker.
const QUEUE_PER_JOB: usize = 4;

/// Runs the pipeline.
///
/// * `produce` is called on a producer thread and sends batches through `send` until it returns;
///   `send` returns false once the pipeline is shutting down (the consumer failed), and the
///   producer should then stop. Its own result is returned after the results are emitted.
/// * `make_worker` builds each worker's reusable state; `work` turns a batch into a result.
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

    thread::scope(|scope| {
        let (batch_tx, batch_rx) = sync_channel::<(u64, B)>(jobs * QUEUE_PER_JOB);
        let (result_tx, result_rx) = sync_channel::<(u64, R)>(jobs * QUEUE_PER_JOB);
        let batch_rx = Arc::new(Mutex::new(batch_rx));

        let producer = scope.spawn(move || {
            let mut sequence = 0u64;
            produce(&mut |batch| {
                let sent = batch_tx.send((sequence, batch)).is_ok();
                sequence += 1;
                sent
            })
        });

        for _ in 0..jobs {
            let batch_rx = Arc::clone(&batch_rx);
            let result_tx = result_tx.clone();
            let (make_worker, work) = (&make_worker, &work);
            scope.spawn(move || {
                let mut worker = make_worker();
                while let Some((sequence, batch)) = next_batch(&batch_rx) {
                    if result_tx
                        .send((sequence, work(&mut worker, batch)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(result_tx);

        let emitted = emit_in_order(&result_rx, &mut emit);
        // Unblock everyone before joining: workers and producer see closed channels.
        drop(result_rx);
        drop(batch_rx);
        let produced = producer
            .join()
            .map_err(|_| anyhow::anyhow!("internal error: the input thread panicked"))?;
        emitted.map(|()| produced)
    })
}

fn next_batch<B>(batch_rx: &Mutex<Receiver<(u64, B)>>) -> Option<(u64, B)> {
    // A poisoned lock means another worker panicked; the receiver itself is still sound.
    let guard = batch_rx
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    guard.recv().ok()
}

fn emit_in_order<R>(
    result_rx: &Receiver<(u64, R)>,
    emit: &mut impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (sequence, result) in result_rx.iter() {
        waiting.insert(sequence, result);
        while let Some(result) = waiting.remove(&next) {
            emit(result)?;
            next += 1;
        }
    }
    if waiting.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("internal error: a worker thread stopped before finishing its batch")
    }
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
}
