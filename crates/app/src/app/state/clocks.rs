//! The app's wiring of the clocks of a local game ([`Clocks`](crate::app::clocks)): which side's runs, worked
//! out again after every action ([`App::sync_clock`]) from the game and what the player is doing, so that no path
//! (a move, an undo, a pause, browsing, a new game) can leave a clock running that should not, or stopped that
//! should run; pressing it when a move is played; the flag falling; and what the engine is given to think with.

use std::time::Duration;

use super::App;
use crate::app::action::{Effect, Timer};
use crate::app::clocks::ClockView;
use crate::app::mode::Mode;
use crate::app::overlay::Overlay;
use crate::engine::{Level, Limits, Player};
use crate::game::{AnyGame, ClockState, TimeControl, lost_on_time};
use crate::rules::Color;

impl App {
    /// The front end's time, as a count since any start it likes (it only has to go forward). Told before each
    /// action: the clocks run by it.
    pub fn set_time(&mut self, now: Duration) {
        self.play.clocks_mut().set_time(now);
    }

    /// The time control of the game in play, if it has clocks.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.play.clocks().game_control()
    }

    /// The time control new games get (the settings', or the one last chosen in the new-game dialog).
    pub fn new_games_time_control(&self) -> Option<TimeControl> {
        self.play.clocks().new_games()
    }

    /// The clocks of the game on show, as they stand: `None` for a game without clocks, a replayed record or a
    /// game at a table (whose clocks are the table's).
    pub fn clocks(&self) -> Option<ClockView> {
        if self.replay.is_some() || self.table.is_some() {
            return None;
        }
        self.play.clocks().view()
    }

    /// The clocks of the player's own game as they stand, for saving with it (a replayed record and a table's
    /// game have none of the app's).
    pub fn clock_state(&self) -> Option<ClockState> {
        if self.replay.is_some() || self.table.is_some() {
            return None;
        }
        self.play.clocks().state()
    }

    /// Goes on with `game` and its clocks as they were saved (stopped until the game is in play again).
    pub(super) fn resume_game(
        &mut self,
        game: AnyGame,
        players: crate::engine::Players,
        clock: Option<ClockState>,
    ) -> Vec<Effect> {
        self.reset(game, players);
        self.play.clocks_mut().resume(clock);
        self.after_change()
    }

    /// Whether the clock of the side to move should be running now: in a game with clocks that is in play
    /// (not over, not a replay or a table's, not being set up or offered for resuming), once each side has made
    /// its first move (as lichess and lidraughts time games: a side's first move is not timed), unless the player
    /// holds the engine, or looks back through a game between people (a game against the engine goes on
    /// meanwhile, so its clocks do too).
    fn clock_should_run(&self) -> bool {
        if self.replay.is_some() || self.table.is_some() || self.paused {
            return false;
        }
        if self.play.game().ply() < 2 {
            // The side to move has not moved yet.
            return false;
        }
        if matches!(self.overlay.panel(), Some(Overlay::Resume(_))) {
            return false;
        }
        match self.mode {
            Mode::Play => self.play.game().outcome().is_none(),
            Mode::Browsing { .. } => self.play.game().outcome().is_none() && self.engine_plays(),
            Mode::Over(_) | Mode::Setup(_) => false,
        }
    }

    fn engine_plays(&self) -> bool {
        matches!(self.players.black, Player::Engine(_))
            || matches!(self.players.white, Player::Engine(_))
    }

    /// The clocks' hook after every action: starts, stops or hands over the clocks as the game now stands; asks
    /// to be woken when the running clock next shows a new second (or runs out) if anything changed.
    pub(super) fn sync_clock(&mut self, effects: &mut Vec<Effect>) {
        let wanted = self
            .clock_should_run()
            .then(|| self.play.game().position().side_to_move());
        if self.play.clocks_mut().run(wanted) {
            effects.extend(self.clock_wake());
        }
    }

    /// The wake-up for the running clock's next new figure (second, or tenth in the last seconds), or its fall.
    fn clock_wake(&self) -> Option<Effect> {
        self.play.clocks().wake_after().map(|after| Effect::Wake {
            timer: Timer::Clock,
            after,
        })
    }

    /// The clock timer came: the running side's time has run out, or its clock shows a new second.
    pub(super) fn clock_tick(&mut self) -> Vec<Effect> {
        match self.play.clocks().flagged() {
            Some(flagged) => self.flag_fell(flagged),
            None => self.clock_wake().into_iter().collect(),
        }
    }

    /// Before a move is played: if the running clock has run out, the move comes too late and the game is lost
    /// on time instead; the effects of that are returned.
    pub(super) fn flag_before_move(&mut self) -> Option<Vec<Effect>> {
        let flagged = self.play.clocks().flagged()?;
        Some(self.flag_fell(flagged))
    }

    /// `flagged`'s time ran out: the game is lost on time, and the search for the move stops.
    fn flag_fell(&mut self, flagged: Color) -> Vec<Effect> {
        if self.play.game().outcome().is_some()
            || self
                .play
                .end_with(|game| game.declare(lost_on_time(flagged)))
                .is_err()
        {
            return Vec::new();
        }
        self.play.clocks_mut().stop();
        let browsing = self.mode;
        let mut effects = self.stop_thinking();
        self.hint = None;
        effects.extend(self.after_change());
        // Someone looking back through the game stays where they are; the result shows in the move list.
        if let Mode::Browsing { .. } = browsing {
            self.mode = browsing;
            self.status = format!("{}. {}", lost_on_time(flagged), self.mode_message());
        }
        effects
    }

    /// What the engine playing `side` at `level` is given to think with: its clock when the game has clocks,
    /// else the settings' time per move.
    pub(super) fn move_limits(&self, level: Level, side: Color) -> Limits {
        self.play
            .clocks()
            .limits(level, side, self.preferences.think_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::clocks::{MOVE_OVERHEAD, PAST_THE_SECOND};
    use crate::app::{Action, App};
    use crate::engine;
    use crate::engine::Players;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn humans_with(control: &str) -> App {
        let players = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let (mut app, _) = App::new(players);
        let mut preferences = app.preferences().clone();
        preferences.clock = Some(control.parse().expect("valid"));
        app.set_preferences(preferences);
        let _ = app.update(Action::Rematch);
        // Each side's first move is not timed: the clocks run from here, at time 0.
        for text in ["11-15", "23-19"] {
            let _ = app.update(Action::Submit(text.into()));
        }
        app
    }

    #[test]
    fn the_wake_comes_just_after_the_next_second_shows() {
        let mut app = humans_with("1+0");
        app.set_time(ms(250));
        let _ = app.update(Action::Notice(String::new()));
        // Started at 0 by the rematch: 59.75 s left, so 59 shows in 0.75 s.
        assert_eq!(
            app.play.clocks().wake_after(),
            Some(ms(750) + PAST_THE_SECOND)
        );
    }

    #[test]
    fn in_the_last_ten_seconds_the_wake_comes_each_tenth() {
        let mut app = humans_with("1+0");
        app.set_time(ms(50_250));
        // 9.75 s left: 9.7 shows in 0.05 s.
        assert_eq!(
            app.play.clocks().wake_after(),
            Some(ms(50) + PAST_THE_SECOND)
        );
    }

    #[test]
    fn the_engine_gets_its_clock_or_its_time_per_move() {
        let mut app = humans_with("5+3");
        app.set_time(ms(10_000));
        let limits = app.move_limits(Level::Max, Color::Black);
        assert_eq!(
            limits.clock,
            Some(engine::TimeLeft {
                remaining: ms(290_000) - MOVE_OVERHEAD,
                increment: ms(3_000),
                moves_to_go: None
            })
        );
        assert_eq!(limits.time, None);
        let app = humans_with("30s");
        assert_eq!(
            app.move_limits(Level::Max, Color::White),
            Limits::time(ms(30_000) - MOVE_OVERHEAD)
        );
    }
}
