//! The engine on its own thread: takes one search at a time, reports progress and the chosen move as app
//! actions, and can be stopped (its answer then ignored) or told to move at once (its answer taken).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread;
use std::time::Duration;

use super::Event;
use crate::app::Action;
use crate::engine::{Engine, Level, Limits, Situation};

struct Job {
    search: u64,
    situation: Situation,
    /// The level to choose a move at, or `None` to judge the position.
    level: Option<Level>,
}

/// The longest a position is judged for a draw offer: long enough for a deep search, short enough that the answer
/// feels immediate.
const JUDGING_TIME: Duration = Duration::from_millis(500);

/// The handle the event loop keeps.
pub struct EngineThread {
    jobs: Sender<Job>,
    stop: Arc<AtomicBool>,
    /// The search whose answer is still wanted (0 for none): a search that is no longer wanted when its turn
    /// comes is skipped rather than run.
    wanted: Arc<AtomicU64>,
}

impl EngineThread {
    /// Starts the thread; its reports go to `events`. `time` is the thinking time per move; `seed` varies the
    /// weaker levels' choices from game to game.
    pub fn spawn(
        events: Sender<Event>,
        time: Duration,
        seed: u64,
    ) -> std::io::Result<EngineThread> {
        let (jobs, queue) = channel::<Job>();
        let stop = Arc::new(AtomicBool::new(false));
        let wanted = Arc::new(AtomicU64::new(0));
        let (flag, current) = (Arc::clone(&stop), Arc::clone(&wanted));
        thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                let worked = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut engine = Engine::with_stop_flag(Arc::clone(&flag));
                    for job in queue {
                        // Clear the flag before checking that the job is wanted: a stop that comes after the
                        // check then sets it again and ends the search.
                        flag.store(false, Ordering::SeqCst);
                        if current.load(Ordering::SeqCst) != job.search {
                            continue;
                        }
                        let search = job.search;
                        let progress = &mut |p: &crate::engine::Progress| {
                            let _ = events.send(Event::App(Action::EngineProgress {
                                search,
                                depth: p.depth,
                                score: p.score,
                            }));
                        };
                        // A position is judged by a full-strength search, whatever level plays.
                        let (level, limit) = match job.level {
                            Some(level) => (level, time),
                            None => (Level::Max, time.min(JUDGING_TIME)),
                        };
                        let result = engine.think(
                            &job.situation,
                            level,
                            &Limits::time(limit),
                            seed ^ search,
                            progress,
                        );
                        let answer = match job.level {
                            Some(_) => Action::EngineMoved {
                                search,
                                mv: result.best,
                            },
                            None => Action::EngineEvaluated {
                                search,
                                score: result.score,
                            },
                        };
                        if events.send(Event::App(answer)).is_err() {
                            break;
                        }
                    }
                }));
                if worked.is_err() {
                    let _ = events.send(Event::EngineFailed);
                }
            })?;
        Ok(EngineThread { jobs, stop, wanted })
    }

    /// Starts a search; its answer comes as [`Action::EngineMoved`] with this number.
    pub fn think(&self, search: u64, situation: Situation, level: Level) {
        self.start(Job {
            search,
            situation,
            level: Some(level),
        });
    }

    /// Starts judging a position (a short full-strength search); the answer comes as
    /// [`Action::EngineEvaluated`] with this number.
    pub fn evaluate(&self, search: u64, situation: Situation) {
        self.start(Job {
            search,
            situation,
            level: None,
        });
    }

    fn start(&self, job: Job) {
        self.wanted.store(job.search, Ordering::SeqCst);
        let _ = self.jobs.send(job);
    }

    /// Ends the running search; its answer is not wanted.
    pub fn cancel(&self) {
        self.wanted.store(0, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Ends the running search; it answers with the best move found so far.
    pub fn move_now(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}
