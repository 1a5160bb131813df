//! How long one search may take: a hard deadline it never passes, and with a clock a softer target that the
//! search stretches when the position is unclear and cuts short when it is not.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::Duration;

use super::Limits;

/// A game clock as the side to move sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left on the clock, the increment for this move included.
    pub remaining: Duration,
    /// Time added after each move (Fischer); zero without one.
    pub increment: Duration,
    /// Moves to play before the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
}

/// Moves a game is assumed still to last when the clock does not say: enough that the time is not all spent in
/// the middle game, few enough that the opening is not played in a hurry.
const MOVES_AHEAD: u32 = 25;

/// What a move costs on the clock besides the search: the command read and the search started before it, the
/// move sent and read after it (through a GUI or a match, a few milliseconds; more on a loaded machine). It is
/// kept back from the clock before the time is planned, so a search that ends at its deadline still leaves this
/// much on the clock.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(15);

/// A clock with less than this many increments left spends less of the increment the less it has.
const LOW_CLOCK_INCREMENTS: u32 = 4;

/// The time of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// The search stops at once past this, whatever it is doing.
    pub hard: Duration,
    /// With a clock: the time a search normally takes; `None` for a fixed time per move, where all of it is
    /// used.
    pub target: Option<Duration>,
}

impl TimePlan {
    /// The plan for `limits`; `None` when there is no time limit at all.
    pub fn new(limits: &Limits) -> Option<TimePlan> {
        let fixed = limits.time.map(|t| t.saturating_sub(time_margin(t)));
        let clocked = limits.clock.map(|clock| {
            let remaining = clock
                .remaining
                .saturating_sub(MOVE_OVERHEAD)
                .saturating_sub(time_margin(clock.remaining));
            let moves = clock
                .moves_to_go
                .unwrap_or(MOVES_AHEAD)
                .clamp(1, MOVES_AHEAD);
            // The increment comes back after the move, so most of it can be spent now; but not while the
            // clock holds less than a few increments, where it is saved instead, so that the clock recovers and
            // one slow answer (a busy machine) cannot take all that is left.
            let spent_increment = (clock.increment * 3 / 4).mul_f64(
                (remaining.as_secs_f64() / (clock.increment * LOW_CLOCK_INCREMENTS).as_secs_f64())
                    .min(1.0),
            );
            let target = remaining / moves + spent_increment;
            // Never more than a share of what is left, however unclear the position: a last move before the
            // control may take most of it; otherwise at most five targets or a third of the clock.
            let cap = if moves == 1 {
                remaining * 9 / 10
            } else {
                remaining / 3
            };
            let hard = (target * 5).min(cap);
            (hard, target.min(hard))
        });
        match (fixed, clocked) {
            (None, None) => None,
            (Some(fixed), None) => Some(TimePlan {
                hard: fixed,
                target: None,
            }),
            (fixed, Some((hard, target))) => {
                let hard = fixed.map_or(hard, |f| f.min(hard));
                Some(TimePlan {
                    hard,
                    target: Some(target.min(hard)),
                })
            }
        }
    }

    /// The time a search that began without one (pondering) is given once it counts: the target with a clock,
    /// where the search had no chance to judge how unclear the position is, else all of the time.
    pub fn budget(&self) -> Duration {
        self.target.unwrap_or(self.hard)
    }

    /// Whether to start another iteration after one that ended at `elapsed`. `unrest` is 1.0 for a quiet
    /// search and grows when the best move changed or the score fell in recent iterations. Without a clock the
    /// whole time is used, so the answer is always yes (the hard deadline ends the search).
    pub fn go_on(&self, elapsed: Duration, unrest: f64) -> bool {
        let Some(target) = self.target else {
            return true;
        };
        // The next iteration costs about as much as all before it: starting one past 60% of the target would
        // usually overrun it, or be cut off unfinished.
        elapsed.as_secs_f64() < target.as_secs_f64() * 0.6 * unrest
    }
}

/// A bound on a search's time that holds whatever the search is doing: a thread that raises the search's stop
/// flag once its time has passed. Dropping the deadline first (the search ended) ends the thread at once.
#[derive(Debug)]
pub struct Deadline {
    _ended: Sender<()>,
}

impl Deadline {
    /// Raises `stop` once `after` has passed, unless the deadline is dropped first.
    pub fn start(stop: Arc<AtomicBool>, after: Duration) -> Deadline {
        let (ended, watching) = mpsc::channel::<()>();
        thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = watching.recv_timeout(after) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        Deadline { _ended: ended }
    }
}

/// What is kept back from a time budget so that the answer comes within it: 2% of it, between 1 and 20 ms.
pub(crate) fn time_margin(budget: Duration) -> Duration {
    (budget / 50)
        .clamp(Duration::from_millis(1), Duration::from_millis(20))
        .min(budget)
}

/// How the search's doubts grow the time it takes: a best move that changed (more so if recently) or a score
/// that fell since the last iteration.
#[derive(Clone, Copy, Debug)]
pub struct Unrest {
    changes: f64,
}

impl Default for Unrest {
    fn default() -> Self {
        Unrest { changes: 0.0 }
    }
}

impl Unrest {
    /// Takes in one completed iteration: whether its best move differs from the previous one's, and how much
    /// its score fell (in hundredths of a man; negative if it rose). Returns the factor on the target.
    pub fn after_iteration(&mut self, best_changed: bool, score_fall: i32) -> f64 {
        // Older changes count for less.
        self.changes = self.changes * 0.5 + if best_changed { 1.0 } else { 0.0 };
        let falling = (f64::from(score_fall.clamp(0, 100)) / 100.0) * 0.8;
        (1.0 + 0.7 * self.changes + falling).min(2.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_fixed_time_is_used_to_its_margin() {
        let plan = TimePlan::new(&Limits::time(ms(1000))).expect("a plan");
        assert_eq!(plan.hard, ms(980));
        assert_eq!(plan.target, None);
        assert!(plan.go_on(ms(970), 1.0));
        assert_eq!(TimePlan::new(&Limits::default()), None);
        assert_eq!(
            TimePlan::new(&Limits::time(ms(1))).map(|p| p.hard),
            Some(ms(0))
        );
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_to_come() {
        let clock = |remaining, increment, moves_to_go| Limits {
            clock: Some(TimeLeft {
                remaining: ms(remaining),
                increment: ms(increment),
                moves_to_go,
            }),
            ..Limits::default()
        };
        // Five minutes and three seconds: about 12 s a move plus most of the increment, never past a third.
        let plan = TimePlan::new(&clock(300_000, 3_000, None)).expect("a plan");
        let target = plan.target.expect("a target");
        assert!(target > ms(13_000) && target < ms(15_000), "{target:?}");
        assert!(
            plan.hard <= ms(100_000) && plan.hard >= target * 4,
            "{plan:?}"
        );
        // A clock down to about two increments saves most of the increment, so that it recovers; one with
        // plenty left spends most of it.
        let low = TimePlan::new(&clock(160, 80, None))
            .and_then(|p| p.target)
            .expect("a target");
        assert!(low < ms(40), "{low:?}");
        let comfortable = TimePlan::new(&clock(2_000, 80, None))
            .and_then(|p| p.target)
            .expect("a target");
        assert!(comfortable > ms(130), "{comfortable:?}");
        // The last move before a control may use most of what is left, never all of it.
        let last = TimePlan::new(&clock(10_000, 0, Some(1))).expect("a plan");
        assert!(last.hard < ms(10_000) && last.hard >= ms(8_000), "{last:?}");
        // Almost out of time: still under what is left.
        let short = TimePlan::new(&clock(50, 0, None)).expect("a plan");
        assert!(short.hard < ms(50), "{short:?}");
        // A fixed time as well as a clock: the smaller deadline.
        let both = Limits {
            time: Some(ms(100)),
            ..clock(300_000, 0, None)
        };
        assert_eq!(TimePlan::new(&both).map(|p| p.hard), Some(ms(98)));
    }

    #[test]
    fn a_clock_keeps_back_the_move_overhead_however_little_is_left() {
        for increment in [0, 10, 80, 1_000] {
            for remaining in (0..=3_000).step_by(7).chain([10_000, 300_000]) {
                let remaining = ms(remaining + increment);
                for moves_to_go in [None, Some(1), Some(3)] {
                    let limits = Limits {
                        clock: Some(TimeLeft {
                            remaining,
                            increment: ms(increment),
                            moves_to_go,
                        }),
                        ..Limits::default()
                    };
                    let plan = TimePlan::new(&limits).expect("a plan");
                    assert!(
                        plan.hard + MOVE_OVERHEAD <= remaining || plan.hard.is_zero(),
                        "{remaining:?} {moves_to_go:?}: {plan:?}"
                    );
                    // Without a control at the next move, a third at most: a few slow moves in a row still
                    // leave time on the clock.
                    if moves_to_go != Some(1) {
                        assert!(plan.hard <= remaining / 3, "{remaining:?}: {plan:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn doubts_stretch_the_target_and_calm_shrinks_it_back() {
        let mut unrest = Unrest::default();
        assert_eq!(unrest.after_iteration(false, 0), 1.0);
        let changed = unrest.after_iteration(true, 0);
        assert!(changed > 1.5, "{changed}");
        let falling = unrest.after_iteration(true, 60);
        assert!(falling > changed && falling <= 2.5, "{falling}");
        let calm = (0..8)
            .map(|_| unrest.after_iteration(false, -10))
            .last()
            .unwrap_or(0.0);
        assert!(calm < 1.05, "{calm}");
        let plan = TimePlan {
            hard: ms(5_000),
            target: Some(ms(1_000)),
        };
        assert!(plan.go_on(ms(500), 1.0));
        assert!(!plan.go_on(ms(700), 1.0));
        assert!(plan.go_on(ms(700), 1.5));
    }

    #[test]
    fn a_deadline_stops_a_search_at_its_time_and_lets_go_when_the_search_ends() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let late = Arc::new(AtomicBool::new(false));
        let _deadline = Deadline::start(Arc::clone(&late), Duration::from_millis(20));
        let ended = Arc::new(AtomicBool::new(false));
        drop(Deadline::start(
            Arc::clone(&ended),
            Duration::from_millis(20),
        ));
        thread::sleep(Duration::from_millis(300));
        assert!(
            late.load(Ordering::Relaxed),
            "a search past its time is stopped"
        );
        assert!(
            !ended.load(Ordering::Relaxed),
            "a search that ended is not stopped again"
        );
    }
}
