//! The workers and the state they share with the clients: the queue, the running searches' stop flags, and each
//! client's live request.
//!
//! Locks are taken in one order only, a client's before the shared state, and a worker never holds the shared
//! state while it takes a client's lock, so they cannot deadlock.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::{Report, Request};
use crate::time_plan::Deadline;
use crate::{Engine, EngineConfig};

/// In test builds, a request with this search number panics inside the engine, after its first depth.
#[cfg(test)]
pub(super) const PANICKING_SEARCH: u64 = u64::MAX;

/// Locks `mutex` even if a thread panicked while holding it: every state kept under these locks stays
/// consistent at each step, so there is nothing to repair, and a poisoned lock must not take the service down.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A client as the workers see it.
pub(super) struct Client {
    /// Where the client's reports go.
    pub(super) sink: Box<dyn Fn(Report) + Send + Sync>,
    /// The live request, if any. Its lock is held while a report is delivered, which is what makes a superseded
    /// request's reports stop as soon as the new request is made.
    pub(super) live: Mutex<Option<Live>>,
}

/// A client's live request.
pub(super) struct Live {
    /// The service's own number for the request: unlike the caller's search number, never reused.
    pub(super) ticket: u64,
    /// Stops this request's search only.
    pub(super) stop: Arc<AtomicBool>,
    /// The time bound a ponder search is given when its move is played (dropped with the request).
    pub(super) deadline: Option<Deadline>,
}

/// A request on its way through the queue to a worker.
pub(super) struct Job {
    pub(super) client: Arc<Client>,
    pub(super) ticket: u64,
    pub(super) request: Request,
    pub(super) stop: Arc<AtomicBool>,
}

impl Client {
    /// Whether the request with `ticket` is still the live one.
    fn holds(&self, ticket: u64) -> bool {
        lock(&self.live)
            .as_ref()
            .is_some_and(|l| l.ticket == ticket)
    }

    /// Delivers `report` if its request is still live and the service still running; a `last` report ends the
    /// request.
    fn deliver(&self, ticket: u64, report: Report, last: bool, closed: &AtomicBool) {
        let mut live = lock(&self.live);
        if live.as_ref().is_none_or(|l| l.ticket != ticket) {
            return;
        }
        if last {
            *live = None;
        }
        if !closed.load(Ordering::SeqCst) {
            (self.sink)(report);
        }
    }

    /// Ends the request with `ticket`, if it is the live one, without a word (the service is stopping).
    fn forget(&self, ticket: u64) {
        let mut live = lock(&self.live);
        if live.as_ref().is_some_and(|l| l.ticket == ticket) {
            *live = None;
        }
    }
}

/// What the clients and the workers share.
pub(super) struct Shared {
    pub(super) state: Mutex<State>,
    /// Wakes a worker when a request is queued, and all of them when the service stops.
    pub(super) ready: Condvar,
    /// Raised when the service stops (written under the state's lock, so no worker misses the wake-up).
    closed: AtomicBool,
    tickets: AtomicU64,
}

/// The queue and what the workers are doing.
pub(super) struct State {
    /// Requests in the order they were made, at most one per client.
    pub(super) queue: VecDeque<Job>,
    /// The stop flag of each worker's running search, to stop them all when the service stops.
    running: Vec<Option<Arc<AtomicBool>>>,
}

impl Shared {
    pub(super) fn new(threads: usize) -> Shared {
        Shared {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                running: vec![None; threads],
            }),
            ready: Condvar::new(),
            closed: AtomicBool::new(false),
            tickets: AtomicU64::new(0),
        }
    }

    /// A number no other request of this service has.
    pub(super) fn ticket(&self) -> u64 {
        self.tickets.fetch_add(1, Ordering::Relaxed)
    }

    pub(super) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Stops the service: no more requests are taken, the queued ones are dropped, the running searches stopped,
    /// and the workers woken to end.
    pub(super) fn shut_down(&self) {
        let dropped: Vec<Job> = {
            let mut state = lock(&self.state);
            self.closed.store(true, Ordering::SeqCst);
            for stop in state.running.iter().flatten() {
                stop.store(true, Ordering::SeqCst);
            }
            state.queue.drain(..).collect()
        };
        self.ready.notify_all();
        // Outside the state's lock, to keep the order of locks.
        for job in dropped {
            job.client.forget(job.ticket);
        }
    }

    /// The next request for worker `index`, waiting for one; `None` once the service stops.
    fn next_job(&self, index: usize) -> Option<Job> {
        let mut state = lock(&self.state);
        loop {
            if self.is_closed() {
                return None;
            }
            if let Some(job) = state.queue.pop_front() {
                if let Some(slot) = state.running.get_mut(index) {
                    *slot = Some(Arc::clone(&job.stop));
                }
                return Some(job);
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn finished(&self, index: usize) {
        if let Some(slot) = lock(&self.state).running.get_mut(index) {
            *slot = None;
        }
    }
}

/// The life of worker `index`: serve requests until the service stops, with an engine set up by `config`.
pub(super) fn work(shared: &Shared, index: usize, config: &EngineConfig) {
    let fresh = || Engine::with_config(config.clone());
    let mut engine = fresh();
    while let Some(job) = shared.next_job(index) {
        // A request superseded or cancelled while it waited is not worth starting.
        if job.client.holds(job.ticket) {
            let searched = catch_unwind(AssertUnwindSafe(|| search(&mut engine, &job, shared)));
            if searched.is_err() {
                // The engine may have been left half-way through a search: start again from a fresh one.
                engine = fresh();
                let failed = Report::Failed {
                    search: job.request.search,
                };
                // The panic may have come from the sink itself, which may panic again; the worker must survive.
                let _ = catch_unwind(AssertUnwindSafe(|| {
                    job.client.deliver(job.ticket, failed, true, &shared.closed);
                }));
                // Whatever happened, the request is over.
                job.client.forget(job.ticket);
            }
        }
        shared.finished(index);
    }
}

/// Runs `job` on `engine`, reporting each depth and then the answer.
fn search(engine: &mut Engine, job: &Job, shared: &Shared) {
    let request = &job.request;
    let search = request.search;
    engine.set_stop_flag(Arc::clone(&job.stop));
    let result = engine.think(
        &request.situation,
        request.level,
        &request.limits,
        request.seed,
        &mut |progress| {
            #[cfg(test)]
            if search == PANICKING_SEARCH {
                panic!("a search made to fail");
            }
            let report = Report::Progress {
                search,
                progress: progress.clone(),
            };
            job.client
                .deliver(job.ticket, report, false, &shared.closed);
        },
    );
    let done = Report::Done { search, result };
    job.client.deliver(job.ticket, done, true, &shared.closed);
}
