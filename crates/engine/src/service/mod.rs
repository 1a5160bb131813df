//! The engine as a service: a bounded pool of search threads shared by every session that needs a computer
//! player. Today one terminal session uses it; an SSH server will give each of its many sessions a client of one
//! service, so that the number of threads and the memory the engine takes stay fixed however many people play.
//!
//! # Threading model
//!
//! [`EngineService::new`] starts `threads` worker threads. Each owns an [`Engine`](crate::Engine) whose tables survive from
//! search to search, as in a game. A session asks for an [`EngineClient`] and gives it a sink: a callback that
//! receives the client's [`Report`]s on a worker thread (the session forwards them to its own channel).
//!
//! A client has at most one request live. Starting a request supersedes the client's queued or running one,
//! whose reports stop at once. Requests wait in one first-in, first-out queue for the next free worker; as
//! each client holds at most one place in it, the queue never holds more requests than there are clients.
//!
//! Every request has a stop flag of its own, which the engine reads while it searches: cancelling, moving now
//! or superseding a request stops that search only, never another client's on another worker.
//!
//! A report is delivered under the client's lock, after checking that its request is still the live one, so
//! once [`EngineClient::start`] or [`EngineClient::cancel`] has returned, no report of an earlier request
//! arrives. The sink must therefore be quick and must not call back into its own client.
//!
//! A panic inside a search is caught on its worker: that client alone hears [`Report::Failed`], and the worker
//! builds a fresh engine and goes on serving the queue. Dropping the service stops the running searches,
//! forgets the queued requests (their answers never come) and joins the workers.
//!
//! # Memory
//!
//! The transposition tables share `table_megabytes`: each worker's table gets an equal part of it, rounded down,
//! so the tables together never take more. Beside its table, each worker keeps a fixed few hundred kilobytes of
//! search state, and each queued request its situation.

mod pool;
#[cfg(test)]
mod tests;

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use super::egdb::Egdb;
use super::time_plan::{Deadline, TimePlan};
use super::{AnySituation, EngineConfig, Level, Limits, Progress, SearchResult};
use pool::{Client, Job, Live, Shared, lock};

/// One search a client asks for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The caller's number for this search; every report of it carries the number, so that the caller can match
    /// answers with questions.
    pub search: u64,
    /// The position and its history.
    pub situation: AnySituation,
    /// How strongly to play.
    pub level: Level,
    /// When to stop. Each request carries its own, so a change of level can bring its own thinking time; with no
    /// limit at all the search runs until it is stopped.
    pub limits: Limits,
    /// Fixes the random choices of the weaker levels.
    pub seed: u64,
}

/// What a client hears about its live request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A depth of the search is complete.
    Progress {
        /// The request's number.
        search: u64,
        /// What the search has found so far.
        progress: Progress,
    },
    /// The search is over (finished, out of time, or told to move now); the last report of the request.
    Done {
        /// The request's number.
        search: u64,
        /// The engine's choice.
        result: SearchResult,
    },
    /// The search failed (it panicked); the last report of the request. The engine goes on serving.
    Failed {
        /// The request's number.
        search: u64,
    },
}

impl Report {
    /// The number of the request the report is about.
    pub fn search(&self) -> u64 {
        match self {
            Report::Progress { search, .. }
            | Report::Done { search, .. }
            | Report::Failed { search } => *search,
        }
    }
}

/// A request was made after the service had stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine service has stopped")]
pub struct ServiceStopped;

/// The pool of search threads. Dropping it stops them.
pub struct EngineService {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl EngineService {
    /// Starts `threads` worker threads (at least one), each with an engine set up by `config`, except that
    /// their transposition tables together take at most `config.table_megabytes`; a worker's full-strength
    /// search runs on `config.threads` threads. Fails when a thread cannot be started; the threads already
    /// started are then stopped.
    pub fn new(threads: usize, config: EngineConfig) -> io::Result<EngineService> {
        let threads = threads.max(1);
        let config = EngineConfig {
            table_megabytes: config.table_megabytes / threads,
            ..config
        };
        let mut service = EngineService {
            shared: Arc::new(Shared::new(threads)),
            workers: Vec::with_capacity(threads),
        };
        for index in 0..threads {
            let shared = Arc::clone(&service.shared);
            let config = config.clone();
            // On failure, dropping `service` stops and joins the threads already started.
            let worker = thread::Builder::new()
                .name(format!("engine-{index}"))
                .spawn(move || pool::work(&shared, index, &config))?;
            service.workers.push(worker);
        }
        Ok(service)
    }

    /// The service for one local game, as the terminal plays it: one worker, the table size of a lone engine,
    /// and every core for a full-strength search (a local game is the machine's only search), probing `egdb`
    /// if there are databases.
    pub fn local(egdb: Option<Arc<Egdb>>) -> io::Result<EngineService> {
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        let config = EngineConfig::default().with_threads(cores).with_egdb(egdb);
        EngineService::new(1, config)
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The number of requests waiting for a free thread.
    pub fn queued(&self) -> usize {
        lock(&self.shared.state).queue.len()
    }

    /// A new client, whose reports go to `sink`. The sink is called on a search thread while the client is
    /// locked: it should only pass the report on (to a channel, say), and must not call the client.
    pub fn client(&self, sink: impl Fn(Report) + Send + Sync + 'static) -> EngineClient {
        EngineClient {
            shared: Arc::clone(&self.shared),
            me: Arc::new(Client {
                sink: Box::new(sink),
                live: Mutex::new(None),
            }),
        }
    }
}

impl Drop for EngineService {
    fn drop(&mut self) {
        self.shared.shut_down();
        let here = thread::current().id();
        for worker in self.workers.drain(..) {
            // A sink that drops the service runs on a worker, which cannot wait for itself; it ends on its own
            // once the sink returns, as the service is shut down.
            if worker.thread().id() != here {
                // A worker that panicked outside a search has nothing left to clean up.
                let _ = worker.join();
            }
        }
    }
}

/// A session's handle on the service: at most one request live at a time. Dropping it cancels that request.
pub struct EngineClient {
    shared: Arc<Shared>,
    me: Arc<Client>,
}

impl EngineClient {
    /// Starts `request`, superseding the client's queued or running request: that one's reports stop now, and a
    /// running search is stopped. The answer comes as [`Report::Done`] after any [`Report::Progress`].
    pub fn start(&self, request: Request) -> Result<(), ServiceStopped> {
        let stop = Arc::new(AtomicBool::new(false));
        let ticket = self.shared.ticket();
        let job = Job {
            client: Arc::clone(&self.me),
            ticket,
            request,
            stop: Arc::clone(&stop),
        };
        self.replace(Some((
            Live {
                ticket,
                stop,
                deadline: None,
            },
            job,
        )))
    }

    /// Stops the live request; its answer never comes.
    pub fn cancel(&self) {
        // Cancelling without a new request cannot be refused.
        let _ = self.replace(None);
    }

    /// Stops the live request, which answers at once with the best move found so far (a request still in the
    /// queue answers as soon as a thread takes it, after a very short search).
    pub fn move_now(&self) {
        if let Some(live) = lock(&self.me.live).as_ref() {
            live.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The opponent played the move a ponder search (a request started without limits) was thinking after:
    /// from now, the search has the time `limits` give (with a clock, its target), and then answers. Nothing
    /// happens when no request is live (it has already answered).
    pub fn ponder_hit(&self, limits: &Limits) {
        let mut live = lock(&self.me.live);
        let Some(live) = live.as_mut() else {
            return;
        };
        match TimePlan::new(limits) {
            Some(plan) => {
                live.deadline = Some(Deadline::start(Arc::clone(&live.stop), plan.budget()));
            }
            // No time limit to give: the search answers now, with what it found on the opponent's time.
            None => live.stop.store(true, Ordering::SeqCst),
        }
    }

    /// Whether a request is live: queued or running, its answer still to come.
    pub fn is_busy(&self) -> bool {
        lock(&self.me.live).is_some()
    }

    /// Ends the live request, if any, and puts `next` in its place, at the back of the queue.
    fn replace(&self, next: Option<(Live, Job)>) -> Result<(), ServiceStopped> {
        // The client's lock is held throughout, so that no worker delivers a report of the old request or
        // begins the new one before the change is complete (workers take this lock to check a request).
        let mut live = lock(&self.me.live);
        let old = live.take();
        if let Some(old) = &old {
            old.stop.store(true, Ordering::SeqCst);
        }
        let mut state = lock(&self.shared.state);
        if let Some(old) = old {
            state.queue.retain(|job| job.ticket != old.ticket);
        }
        let Some((next, job)) = next else {
            return Ok(());
        };
        if self.shared.is_closed() {
            return Err(ServiceStopped);
        }
        state.queue.push_back(job);
        *live = Some(next);
        drop(state);
        drop(live);
        self.shared.ready.notify_one();
        Ok(())
    }
}

impl Drop for EngineClient {
    fn drop(&mut self) {
        self.cancel();
    }
}
