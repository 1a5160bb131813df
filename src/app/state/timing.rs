//! Everything that happens on a timer: playing a replayed game back, the steady pace of a game between engines,
//! moves stepping along their path, and the player holding the engine.
//!
//! The app has no clock. It asks the front end for a wake-up with [`Effect::Wake`] and acts when
//! [`Action::Timer`] comes back; a timer that is no longer wanted when it comes does nothing. Tests fire timers
//! by hand.

use super::App;
use crate::app::action::{Effect, Timer};
use crate::app::animation::Animation;
use crate::app::keymap::Context;
use crate::app::mode::Mode;
use crate::engine::Player;
use crate::rules::{AnyPosition, Move};

impl App {
    /// A timer came due.
    pub(super) fn timer(&mut self, timer: Timer) -> Vec<Effect> {
        match timer {
            Timer::Replay => self.replay_tick(),
            Timer::Analysis => self.analysis_refresh(),
            Timer::Clock => self.clock_tick(),
            Timer::Pace => {
                self.play.pace_wait = false;
                self.show_held_move()
            }
            Timer::Animation => {
                let still = self.play.animation.as_mut().is_some_and(Animation::advance);
                if !still {
                    self.play.animation = None;
                    return Vec::new();
                }
                self.animation_wake().into_iter().collect()
            }
        }
    }

    /// In a game with nobody at the board, the time the next move waits before it is shown: the engine thinks
    /// meanwhile, and a move found sooner is held until then.
    pub(super) fn start_pace(&mut self) -> Option<Effect> {
        self.play.pace_wait = false;
        // With clocks, the clocks set the pace.
        let pace = self
            .preferences
            .pace
            .filter(|_| !self.has_human() && self.play.clock.is_none())?;
        self.play.pace_wait = true;
        Some(Effect::Wake {
            timer: Timer::Pace,
            after: pace,
        })
    }

    /// Shows the engine's move that waited for the pace, if one did.
    pub(super) fn show_held_move(&mut self) -> Vec<Effect> {
        match self.play.held.take() {
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
        let effects = if live && self.play.game.outcome().is_none() && self.replay.is_none() {
            self.next_turn()
        } else {
            Vec::new()
        };
        self.status = format!("going on. {}", self.mode_message());
        effects
    }

    /// Shows `mv`, just played from `before`, stepping along its path from landing `seen`; a move that comes
    /// while another is still being shown waits its turn.
    pub(super) fn animate(&mut self, before: AnyPosition, mv: Move, seen: usize) -> Option<Effect> {
        self.preferences.animation_step?;
        // Only the live position is drawn stepping: someone looking back through the game sees the move in the
        // move list.
        if !matches!(self.mode, Mode::Play | Mode::Over(_)) {
            return None;
        }
        if let Some(animation) = self.play.animation.as_mut() {
            animation.then(before, mv);
            return None;
        }
        self.play.animation = Animation::new(before, mv, seen, before.geometry());
        self.animation_wake()
    }

    fn animation_wake(&self) -> Option<Effect> {
        let step = self.preferences.animation_step?;
        self.play.animation.as_ref().map(|_| Effect::Wake {
            timer: Timer::Animation,
            after: step,
        })
    }
}
