//! One player's session: the app, where its games go, and its engine client, driven by input events, engine
//! reports and timers, and drawn into any ratatui backend.
//!
//! A front end is thin: it turns what it reads into [`Wakeup`]s (the local terminal from crossterm's events and
//! signals; an SSH server from a channel's bytes), hands them to [`Session::handle`], fires the timers when
//! [`Session::next_deadline`] comes, and calls [`Session::draw`] once the events waiting have been handled.
//! Everything else happens here: the app's effects are carried out (searches started and stopped, games saved
//! and filed, the saved games listed), and what re-enters the app as an action (the engine's answers, a list of
//! games, a message about a file) goes through the same loop, so that no effect is dropped.
//!
//! [`run`] is that loop for a front end that reads its input on threads and sends it down a channel.

mod clipboard;
mod opening;
mod proofs;
mod run;
mod saving;
mod settings;
mod timers;

pub use clipboard::{Passthrough, clipboard_sequence};
pub use opening::{Opened, SessionOpening, open, open_table, open_trainer, open_with_settings};
pub use proofs::{ProofClient, Provers};
pub use run::{Inbox, Urgent, run};
pub use saving::Saving;
pub use settings::{SettingsHome, carry_out as carry_out_setting};
pub use timers::Timers;

use crate::app::EngineNews;
use std::io;
use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::Backend;

use crate::app::{
    Action, App, ConductRequest, Effect, InputEvent, TableNews, TableRequest, TrainingNews,
    actions_for_input, resized,
};
use crate::engine::{AnySituation, EngineClient, Level, Limits, Report, Request};
use crate::store::{SavedGame, StoreError};
use crate::ui::{self, Options};

/// Everything a session wakes up for.
#[derive(Debug)]
pub enum Wakeup {
    /// The player pressed a key, clicked, pasted, or the screen changed size.
    Input(InputEvent),
    /// The engine reported on a search.
    Engine(Report),
    /// The front end was asked to end (a signal, a server shutting down): the number says why.
    Signal(i32),
    /// The player's input has gone (the terminal closed, the connection dropped).
    InputClosed,
    /// The table the game is played at (a table on a server) says something.
    Table(TableNews),
    /// The prover answered the problem trainer's question numbered `question`.
    Proved {
        /// The question's number.
        question: u64,
        /// The answer.
        answer: crate::problems::check::Answer,
    },
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// The player quit.
    Quit,
    /// The front end was asked to end ([`Wakeup::Signal`]).
    Signal(i32),
    /// The player's input went away.
    InputClosed,
    /// The engine failed on a search and cannot go on.
    EngineFailed,
}

/// How a session plays and looks.
#[derive(Clone, Debug)]
pub struct Config {
    /// How the screen looks.
    pub options: Options,
    /// Varies the weaker levels' random choices from game to game.
    pub seed: u64,
    /// The settings in force, which the settings screen shows and changes; `None` where it is not offered.
    pub settings: Option<Box<crate::config::Settings>>,
    /// Whether the `NO_COLOR` convention holds: no colour whatever the theme chosen.
    pub no_color: bool,
}

/// One player's game: the app and everything it acts on.
pub struct Session {
    app: App,
    saving: Saving,
    engine: EngineClient,
    /// Where the problem trainer's questions are answered; without one they are answered in the session's own
    /// thread, as they come (a front end that can wait: tests, a script).
    proofs: Option<ProofClient>,
    timers: Timers,
    config: Config,
    /// The opening's effects, carried out when the session starts.
    start_effects: Vec<Effect>,
    /// What the player asked of the table, for the front end to send ([`Session::take_requests`]).
    requests: Vec<TableRequest>,
    /// What the player asked the server to keep about their opponent ([`Session::take_conduct`]).
    conduct: Vec<ConductRequest>,
    /// What the problem trainer decided, for the front end to keep ([`Session::take_training_news`]).
    trained: Vec<TrainingNews>,
    ending: Option<SessionEnd>,
    /// Where the settings screen's changes are kept.
    settings_home: SettingsHome,
    /// When the session began: the app's clocks count from here.
    epoch: Instant,
    /// The clipboard sequence to send with the next frame (only the latest copy asked for is kept).
    clipboard: Option<Vec<u8>>,
}

impl Session {
    /// A session over `opened`, searching with `engine` (whose reports the front end passes to
    /// [`Session::handle`] as [`Wakeup::Engine`]). Nothing happens until [`Session::start`].
    pub fn new(opened: Opened, config: Config, engine: EngineClient) -> Session {
        let Opened {
            mut app,
            effects,
            notices,
            saving,
            settings_home,
        } = opened;
        app.set_seed(config.seed);
        let mut session = Session {
            app,
            saving,
            engine,
            proofs: None,
            timers: Timers::default(),
            config,
            start_effects: effects,
            requests: Vec::new(),
            conduct: Vec::new(),
            trained: Vec::new(),
            ending: None,
            settings_home,
            epoch: Instant::now(),
            clipboard: None,
        };
        if !notices.is_empty() {
            session.notice(notices.join(" · "));
        }
        session
    }

    /// The session with its problem trainer's questions answered by `proofs` (whose answers the front end
    /// passes to [`Session::handle`] as [`Wakeup::Proved`]), off the session's thread.
    pub fn with_proofs(mut self, proofs: ProofClient) -> Session {
        self.proofs = Some(proofs);
        self
    }

    /// Starts the session on a screen of `width` x `height` cells: the app learns whether the game fits, and the
    /// opening's effects (the engine's first move, say) are carried out. Returns how the session ended, if it
    /// did at once.
    #[must_use = "an ending must end the front end"]
    pub fn start(&mut self, width: u16, height: u16) -> Option<SessionEnd> {
        self.act(resized(width, height));
        let effects = std::mem::take(&mut self.start_effects);
        self.carry_out(effects);
        self.ending
    }

    /// Handles one event; returns how the session ended, if it has.
    #[must_use = "an ending must end the front end"]
    pub fn handle(&mut self, event: Wakeup) -> Option<SessionEnd> {
        if self.ending.is_some() {
            return self.ending;
        }
        match event {
            Wakeup::Input(input) => {
                for action in actions_for_input(&self.app, input) {
                    self.act(action);
                }
            }
            Wakeup::Engine(report) => self.engine_report(report),
            Wakeup::Signal(signal) => self.end(SessionEnd::Signal(signal)),
            Wakeup::InputClosed => self.end(SessionEnd::InputClosed),
            Wakeup::Table(event) => self.act(Action::Table(event)),
            Wakeup::Proved { question, answer } => self.act(Action::Proved { question, answer }),
        }
        self.ending
    }

    /// What the player has asked of the table since the last call, in order, for the front end to send.
    pub fn take_requests(&mut self) -> Vec<TableRequest> {
        std::mem::take(&mut self.requests)
    }

    /// What the player has asked the server to keep about their opponent since the last call (a block, a
    /// report), in order, for the front end to carry out (a local game has no opponent to ask about).
    pub fn take_conduct(&mut self) -> Vec<ConductRequest> {
        std::mem::take(&mut self.conduct)
    }

    /// What the problem trainer has decided since the last call, in order, for the front end to keep (a server
    /// writes it in its records; the local trainer keeps nothing).
    pub fn take_training_news(&mut self) -> Vec<TrainingNews> {
        std::mem::take(&mut self.trained)
    }

    /// Opens the list of saved games when the session starts, as `:load` does (the player chose it before the
    /// game was on screen).
    pub fn list_saved_games(&mut self) {
        self.start_effects.push(Effect::ListSaved);
    }

    /// When the next timer comes due, if one is set.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.timers.next_deadline()
    }

    /// Fires the timers due at `now`; returns how the session ended, if it has.
    #[must_use = "an ending must end the front end"]
    pub fn fire_timers(&mut self, now: Instant) -> Option<SessionEnd> {
        for timer in self.timers.take_due(now) {
            if self.ending.is_some() {
                break;
            }
            self.act(Action::Timer(timer));
        }
        self.ending
    }

    /// Ends the session at once (the game in progress is already saved: every change was); its search stops.
    /// A game with clocks is saved once more, so that the time spent on the move under way is not given back
    /// when it is resumed.
    pub fn end(&mut self, ending: SessionEnd) {
        self.engine.cancel();
        if let Some(proofs) = &self.proofs {
            proofs.cancel();
        }
        if self.ending.is_none()
            && self.app.clocks().is_some()
            && self.app.game().outcome().is_none()
        {
            self.app.set_time(self.epoch.elapsed());
            // Nothing can be told any more: the save after the last move stands if this one fails.
            let _ = self.saving.save_progress(self.app.keep());
        }
        self.ending.get_or_insert(ending);
    }

    /// Draws the app on `terminal` (ratatui sends only the cells that changed since the last frame), followed by
    /// the clipboard sequence of a copy asked for since the last frame.
    pub fn draw<B: Backend + Passthrough>(&mut self, terminal: &mut Terminal<B>) -> io::Result<()> {
        terminal
            .draw(|f| ui::draw(f, &self.app, &self.config.options))
            .map_err(|e| io::Error::other(e.to_string()))?;
        if let Some(sequence) = self.clipboard.take() {
            terminal.backend_mut().pass_through(&sequence)?;
        }
        Ok(())
    }

    /// The app, as it stands.
    pub fn app(&self) -> &App {
        &self.app
    }

    /// How the session ended, if it has.
    pub fn ending(&self) -> Option<SessionEnd> {
        self.ending
    }

    /// Carries out one action and everything it leads to.
    fn act(&mut self, action: Action) {
        self.app.set_time(self.epoch.elapsed());
        let effects = self.app.update(action);
        self.carry_out(effects);
    }

    /// Tells the player something on the status line (which has no effects).
    fn notice(&mut self, text: String) {
        self.act(Action::Notice(text));
    }

    /// Carries out the app's effects. A file that cannot be written is told on the status line and the game
    /// goes on.
    fn carry_out(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            if self.ending.is_some() {
                return;
            }
            if let Err(e) = self.carry_out_one(effect) {
                self.notice(format!("not saved: {e}"));
            }
        }
    }

    /// Carries out one of the app's effects; the error is a file that could not be written.
    fn carry_out_one(&mut self, effect: Effect) -> Result<(), StoreError> {
        match effect {
            Effect::Think {
                search,
                situation,
                level,
                limits,
            } => {
                self.search(search, situation, level, limits);
            }
            Effect::Evaluate {
                search,
                situation,
                limits,
            } => {
                // A position is judged by a full-strength search, whatever level plays.
                self.search(search, situation, Level::Max, limits);
            }
            Effect::Prove {
                question,
                prover,
                asked,
            } => {
                let asked_away = self
                    .proofs
                    .as_ref()
                    .is_some_and(|proofs| proofs.ask(question, prover.clone(), asked.clone()));
                if !asked_away {
                    let answer = prover.answer(&asked);
                    self.act(Action::Proved { question, answer });
                }
            }
            Effect::Ponder {
                search,
                situation,
                level,
            } => {
                self.search(search, situation, level, Limits::default());
            }
            Effect::PonderHit { limits, .. } => {
                self.engine.ponder_hit(&limits);
            }
            Effect::StopThinking => {
                self.engine.cancel();
            }
            Effect::MoveNow => {
                self.engine.move_now();
            }
            Effect::Wake { timer, after } => {
                self.timers.set(timer, Instant::now(), after);
            }
            Effect::Quit => {
                self.end(SessionEnd::Quit);
            }
            Effect::Table(request) => {
                self.requests.push(request);
            }
            Effect::OpenSettings => {
                self.open_settings();
            }
            Effect::ChangeSetting(edit) => {
                self.change_setting(edit);
            }
            Effect::Conduct(request) => {
                // One a command typed: a short list, taken after every event.
                self.conduct.push(request);
            }
            Effect::Trained(news) => {
                // At most a few a problem, and taken after every event: a short list.
                self.trained.push(news);
            }
            Effect::GameChanged(keep) => {
                if let Some(filed) = self.saving.save_progress(keep)? {
                    self.act(Action::Filed(filed));
                }
            }
            Effect::ListSaved => match self.saving.saved_games() {
                Ok(list) => self.act(Action::ShowGames(Box::new(list))),
                Err(why) => self.notice(why),
            },
            Effect::Copy(text) => {
                // Sent with the next frame, after its cells, so that it cannot split a frame's sequences.
                match clipboard_sequence(&text) {
                    Some(sequence) => self.clipboard = Some(sequence),
                    None => self.notice("too long for the clipboard: not copied".into()),
                }
            }
            Effect::Save {
                game,
                players,
                file,
                clock,
                name,
            } => {
                let (said, filed) =
                    self.saving
                        .save_named(*game, players, file, clock, name.as_deref());
                if let Some(filed) = filed {
                    self.act(Action::Filed(filed));
                }
                self.notice(said);
            }
            Effect::Archive {
                game,
                players,
                file,
                clock,
            } => self.saving.archive(&SavedGame {
                game: *game,
                players,
                file,
                clock,
            })?,
        }
        Ok(())
    }

    /// Starts a search (it replaces the one under way).
    fn search(&mut self, search: u64, situation: AnySituation, level: Level, limits: Limits) {
        let request = Request {
            search,
            situation,
            level,
            limits,
            seed: self.config.seed ^ search,
        };
        if self.engine.start(request).is_err() {
            self.end(SessionEnd::EngineFailed);
        }
    }

    /// The engine's report, as the action it stands for.
    fn engine_report(&mut self, report: Report) {
        let action = match report {
            Report::Progress { search, progress } => Action::Engine(EngineNews::Progress {
                search,
                depth: progress.depth,
                score: progress.score,
                pv: progress.pv,
            }),
            Report::Done { search, result } => {
                // The final word on the position, for those who show it (a search that ends at once, on a forced
                // move or a database position, reports nothing else).
                self.act(Action::Engine(EngineNews::Progress {
                    search,
                    depth: result.depth,
                    score: result.score,
                    pv: result.pv,
                }));
                Action::Engine(EngineNews::Done {
                    search,
                    best: result.best,
                    score: result.score,
                })
            }
            Report::Failed { .. } => return self.end(SessionEnd::EngineFailed),
        };
        self.act(action);
    }
}
