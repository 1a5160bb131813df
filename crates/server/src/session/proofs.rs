//! The problem trainer's proofs, answered off the session's thread: a small bounded pool of worker threads that
//! every session shares (one local player, or every player of a server), as the engine's searches are.
//!
//! A session asks through its [`ProofClient`], whose answers go to a sink (a channel back to the session's
//! loop). A client has at most one question live: asking again replaces a question still queued, so the queue
//! never holds more questions than there are clients. An answer is delivered only while its question is the
//! client's live one; a client dropped (its session gone) gets no answer. A proof is bounded by the prover's
//! node budget, so a worker is never held for long.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use crate::problems::check::{Answer, ProverQuestion, SharedProver};

/// Where a client's answers go: the question's number and the answer.
type Sink = Box<dyn Fn(u64, Answer) + Send + Sync>;

struct Client {
    sink: Sink,
    /// The ticket of the live question (0: none).
    live: Mutex<u64>,
}

struct Job {
    client: Arc<Client>,
    ticket: u64,
    question: u64,
    prover: SharedProver,
    asked: ProverQuestion,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    tickets: u64,
    stopped: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The state is whole after every step taken under the lock: a panic elsewhere leaves it usable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The pool of proof workers. Dropping it stops them (questions queued are never answered).
pub struct Provers {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Provers {
    /// Starts `threads` workers (at least one).
    pub fn new(threads: usize) -> io::Result<Provers> {
        let mut provers = Provers {
            shared: Arc::new(Shared::default()),
            workers: Vec::new(),
        };
        for index in 0..threads.max(1) {
            let shared = Arc::clone(&provers.shared);
            let worker = thread::Builder::new()
                .name(format!("prover-{index}"))
                .spawn(move || work(&shared))?;
            provers.workers.push(worker);
        }
        Ok(provers)
    }

    /// A new client, whose answers go to `sink` (called on a worker thread: it should only pass them on).
    pub fn client(&self, sink: impl Fn(u64, Answer) + Send + Sync + 'static) -> ProofClient {
        ProofClient {
            shared: Arc::clone(&self.shared),
            me: Arc::new(Client {
                sink: Box::new(sink),
                live: Mutex::new(0),
            }),
        }
    }

    /// Questions waiting for a free worker.
    pub fn queued(&self) -> usize {
        lock(&self.shared.state).queue.len()
    }
}

impl Drop for Provers {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.shared.state);
            state.stopped = true;
            state.queue.clear();
        }
        self.shared.wake.notify_all();
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

fn work(shared: &Shared) {
    loop {
        let job = {
            let mut state = lock(&shared.state);
            loop {
                if state.stopped {
                    return;
                }
                if let Some(job) = state.queue.pop_front() {
                    break job;
                }
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        if *lock(&job.client.live) != job.ticket {
            continue;
        }
        let answer = job.prover.answer(&job.asked);
        let live = lock(&job.client.live);
        if *live == job.ticket {
            (job.client.sink)(job.question, answer);
        }
    }
}

/// A session's handle on the pool: at most one question live. Dropping it lets that question go.
pub struct ProofClient {
    shared: Arc<Shared>,
    me: Arc<Client>,
}

impl ProofClient {
    /// Asks `asked` of `prover`, numbered `question`, replacing the client's question still waiting. Refused
    /// (`false`) once the pool has stopped.
    pub fn ask(&self, question: u64, prover: SharedProver, asked: ProverQuestion) -> bool {
        let mut state = lock(&self.shared.state);
        if state.stopped {
            return false;
        }
        state.tickets += 1;
        let ticket = state.tickets;
        state
            .queue
            .retain(|job| !Arc::ptr_eq(&job.client, &self.me));
        *lock(&self.me.live) = ticket;
        state.queue.push_back(Job {
            client: Arc::clone(&self.me),
            ticket,
            question,
            prover,
            asked,
        });
        drop(state);
        self.shared.wake.notify_one();
        true
    }

    /// Lets the live question go: its answer never comes.
    pub fn cancel(&self) {
        let mut state = lock(&self.shared.state);
        state
            .queue
            .retain(|job| !Arc::ptr_eq(&job.client, &self.me));
        *lock(&self.me.live) = 0;
    }
}

impl Drop for ProofClient {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{Prover, builtin_problems};
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_question_is_answered_on_a_worker_and_a_replaced_one_is_not() {
        let provers = Provers::new(1).expect("a thread");
        let (tx, rx) = mpsc::channel();
        let client = provers.client(move |n, answer| {
            let _ = tx.send((n, answer));
        });
        let problem = builtin_problems().remove(0);
        let prover = SharedProver::new(Prover::new(None));
        let hint = ProverQuestion::Hint {
            pos: problem.start,
            goal: problem.goal,
        };
        assert!(client.ask(1, prover.clone(), hint.clone()));
        assert!(client.ask(2, prover.clone(), hint));
        let (n, answer) = rx.recv_timeout(Duration::from_secs(30)).expect("an answer");
        assert!(matches!(answer, Answer::Hint(Some(_))), "{answer:?}");
        // The first question may have been taken before it was replaced, but its answer is never delivered.
        assert_eq!(n, 2);
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        assert_eq!(provers.queued(), 0);
    }
}
