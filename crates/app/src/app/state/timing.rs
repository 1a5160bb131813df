//! Everything that happens on a timer: playing a replayed game back, the steady pace of a game between engines,
//! moves stepping along their path and the bursts of the pieces they take, and the player holding the engine.
//!
//! The app has no clock. It asks the front end for a wake-up with [`Effect::Wake`] and acts when
//! [`Action::Timer`] comes back; a timer that is no longer wanted when it comes does nothing. Tests fire timers
//! by hand.

use super::App;
use crate::app::action::{Effect, Timer};
use crate::app::burst::{BURST_FRAME, CaptureEffect};
use crate::app::mode::Mode;
use crate::config::Context;
use crate::engine::Player;
use crate::rules::{AnyPosition, Move, Square};

impl App {
    /// A timer came due.
    pub(super) fn timer(&mut self, timer: Timer) -> Vec<Effect> {
        match timer {
            Timer::Replay => self.replay_tick(),
            Timer::Analysis => self.analysis_refresh(),
            Timer::Clock => self.clock_tick(),
            Timer::Pace => self.show_held_move(),
            Timer::Animation => {
                let Some((taken, still)) = self.play.step_showing() else {
                    return Vec::new();
                };
                // The pieces this step takes off the board burst as they go.
                let mut effects: Vec<Effect> = self.start_burst(taken).into_iter().collect();
                if still {
                    effects.extend(self.animation_wake());
                }
                effects
            }
            Timer::Burst => {
                if self.play.advance_bursts() {
                    vec![burst_wake()]
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// Starts the capture effect's burst on each of `squares`, pieces just taken, when the effect is on. The
    /// timer is asked for only when no burst was running: one already running carries the new ones along.
    fn start_burst(&mut self, squares: Vec<Square>) -> Option<Effect> {
        if self.preferences.capture_effect != CaptureEffect::Explode {
            return None;
        }
        self.play.add_bursts(squares).then(burst_wake)
    }

    /// Turns the capture effect on or off for the session, saying so on the status line.
    pub(super) fn toggle_capture_effect(&mut self) -> Vec<Effect> {
        let effect = self.preferences.capture_effect.toggled();
        self.preferences.capture_effect = effect;
        self.play.clear_bursts();
        let again = self.key(Context::Board, "capture-effect", ":explode");
        self.status = match effect {
            CaptureEffect::Explode => {
                format!("capture effect on: taken pieces burst ({again} turns it off)")
            }
            CaptureEffect::None => format!("capture effect off ({again} turns it on)"),
        };
        Vec::new()
    }

    /// In a game with nobody at the board, the time the next move waits before it is shown: the engine thinks
    /// meanwhile, and a move found sooner is held until then.
    pub(super) fn start_pace(&mut self) -> Option<Effect> {
        // With clocks, the clocks set the pace.
        let pace = self
            .preferences
            .pace
            .filter(|_| !self.has_human() && !self.play.clocks().in_game());
        self.play.pace_mut().start(pace)
    }

    /// The wait for the pace is over: the engine's move that waited, if one did, is shown.
    pub(super) fn show_held_move(&mut self) -> Vec<Effect> {
        match self.play.pace_mut().release() {
            Some(mv) => self.deliver(Some(mv)),
            None => Vec::new(),
        }
    }

    /// Holds the engine, or lets it go on.
    pub(super) fn toggle_pause(&mut self) -> Vec<Effect> {
        if !matches!(self.players.black, Player::Engine(_))
            && !matches!(self.players.white, Player::Engine(_))
        {
            self.status = "nothing to pause: no engine plays in this game".into();
            return Vec::new();
        }
        self.paused = !self.paused;
        if self.paused {
            let effects = self.stop_thinking();
            self.status = format!(
                "paused: the engine waits ({} goes on)",
                self.key(Context::Board, "pause", ":pause")
            );
            return effects;
        }
        let live = matches!(self.mode, Mode::Play | Mode::Browsing { .. });
        let effects = if live && self.play.game().outcome().is_none() && self.replay.is_none() {
            self.next_turn()
        } else {
            Vec::new()
        };
        self.status = format!("going on. {}", self.mode_message());
        effects
    }

    /// Shows `mv`, just played from `before`, stepping along its path from landing `seen`; a move that comes
    /// while another is still being shown waits its turn.
    ///
    /// With the capture effect on, the pieces the move takes burst: each as it is jumped while the move steps
    /// along its path, or all at once when the move appears at once.
    pub(super) fn animate(&mut self, before: AnyPosition, mv: Move, seen: usize) -> Vec<Effect> {
        // Only the live position is drawn stepping or bursting: someone looking back through the game sees the
        // move in the move list.
        if !matches!(self.mode, Mode::Play | Mode::Over(_)) {
            return Vec::new();
        }
        if self.preferences.animation_step.is_none() {
            return self
                .start_burst(mv.captured().collect())
                .into_iter()
                .collect();
        }
        // The jumps already seen (a capture picked jump by jump) took their pieces just now; a move with nothing
        // left to show took all of them.
        let Some(taken) = self.play.show_move(before, mv, seen) else {
            return Vec::new();
        };
        let mut effects: Vec<Effect> = self.start_burst(taken).into_iter().collect();
        effects.extend(self.animation_wake());
        effects
    }

    /// The wake-up for the next step of the animation, while there is one.
    fn animation_wake(&self) -> Option<Effect> {
        let step = self.preferences.animation_step?;
        self.play.animation().map(|_| Effect::Wake {
            timer: Timer::Animation,
            after: step,
        })
    }
}

/// The wake-up for the bursts' next frame.
fn burst_wake() -> Effect {
    Effect::Wake {
        timer: Timer::Burst,
        after: BURST_FRAME,
    }
}
