//! The local terminal runtime: reads keys, mouse and signals on their own threads, runs the engine on another,
//! feeds everything to the app as actions, carries out the app's effects, and redraws.
//!
//! The loop sleeps until something happens (no polling, no redraw while idle), handles every event that is
//! waiting before drawing once, and ratatui sends only the cells that changed since the last frame.

mod engine;
mod input;
mod screen;

pub use engine::EngineThread;
pub use input::convert;
pub use screen::{ScreenGuard, restore};

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::app::{
    Action, App, Effect, GameList, InputEvent, ListPurpose, Players, Timer, actions_for_input,
    resized,
};
use crate::game::Game;
use crate::store::{AutosaveSlot, SavedGame, Store, StoreError};
use crate::ui::{self, Options};

/// Everything the event loop wakes up for.
#[derive(Debug)]
pub enum Event {
    /// A key, mouse, paste or resize event from the terminal.
    Terminal(InputEvent),
    /// An action from elsewhere (the engine thread).
    App(Action),
    /// A signal asking the program to end (SIGTERM, SIGHUP, SIGINT, SIGQUIT).
    Signal(i32),
    /// Reading the terminal failed (it has gone away).
    InputClosed,
    /// The engine thread panicked.
    EngineFailed,
}

/// How the runtime is set up.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How the screen looks.
    pub options: Options,
    /// Thinking time per engine move.
    pub think_time: Duration,
    /// Seed for the weaker levels' random choices.
    pub seed: u64,
    /// Whether games are saved without being asked: the game in progress after every change, finished and
    /// abandoned games among the saved games. When off, only `:save` writes a game.
    pub autosave: bool,
}

/// Where games are saved: `None` saves nothing.
#[derive(Debug)]
pub struct Saving<'a> {
    /// Where `:save` and finished or abandoned games go.
    pub store: &'a Store,
    /// This program's slot for the game in progress, saved after every change (when autosave is on and a slot
    /// could be taken).
    pub slot: Option<AutosaveSlot>,
}

/// Why the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The player quit.
    Quit,
    /// A signal ended it.
    Signal(i32),
    /// The terminal went away.
    InputClosed,
}

/// Runs `app` on the local terminal until the player quits or a signal comes; the terminal is restored
/// however it ends.
pub fn run(
    app: App,
    start: Vec<Effect>,
    settings: Settings,
    saving: Option<Saving>,
) -> io::Result<Ending> {
    let (events, inbox) = channel();
    let urgent = Urgent::default();
    spawn_signal_thread(events.clone(), urgent.clone())?;
    let engine = EngineThread::spawn(events.clone(), settings.think_time, settings.seed)?;
    let guard = ScreenGuard::enter()?;
    spawn_input_thread(events, urgent.clone())?;
    // One write per frame: a frame goes out as few packets over a slow link.
    let backend = CrosstermBackend::new(BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut terminal = Terminal::new(backend)?;
    let ending = event_loop(
        &mut terminal,
        app,
        start,
        Inbox {
            events: &inbox,
            urgent: &urgent,
        },
        &Outside {
            engine,
            saving,
            autosave: settings.autosave,
        },
        &settings.options,
    );
    drop(guard);
    ending
}

/// A request to end the program that must not wait behind queued input: a signal, or Ctrl-c read from the
/// terminal. The thread that sees it raises it at once; the event loop looks before every event it handles, so
/// the program ends promptly however much input is waiting (a long paste, a burst of keys).
#[derive(Clone, Debug, Default)]
pub struct Urgent(Arc<AtomicI32>);

impl Urgent {
    /// What the flag holds for Ctrl-c (signal numbers are positive).
    const INTERRUPT: i32 = -1;

    /// Asks the program to end because of `signal`. The first request wins.
    pub fn signal(&self, signal: i32) {
        self.raise(signal);
    }

    /// Asks the program to end as the player's Ctrl-c does.
    pub fn interrupt(&self) {
        self.raise(Self::INTERRUPT);
    }

    fn raise(&self, code: i32) {
        let _ = self
            .0
            .compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// How the program must end, if it has been asked to.
    pub fn ending(&self) -> Option<Ending> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            Self::INTERRUPT => Some(Ending::Quit),
            signal => Some(Ending::Signal(signal)),
        }
    }
}

/// Where the event loop's events come from: the queue, and the flag that jumps it.
#[derive(Clone, Copy, Debug)]
pub struct Inbox<'a> {
    /// Everything that happens, in order.
    pub events: &'a Receiver<Event>,
    /// A request to end that is handled before anything still queued.
    pub urgent: &'a Urgent,
}

/// The loop itself, over any writer, so that other front ends (an SSH channel) can drive the same app.
pub fn event_loop<W: Write>(
    terminal: &mut Terminal<CrosstermBackend<W>>,
    mut app: App,
    start: Vec<Effect>,
    inbox: Inbox,
    outside: &Outside,
    options: &Options,
) -> io::Result<Ending> {
    let mut timers = Timers::default();
    let size = terminal.size()?;
    let fits = resized(size.width, size.height);
    let mut effects = app.update(fits);
    effects.extend(start);
    if let Some(ending) = outside.carry_out(&mut app, effects, &mut timers) {
        return Ok(ending);
    }
    let mut area = terminal.draw(|f| ui::draw(f, &app, options))?.area;
    loop {
        // Timers keep their deadlines across other events, so that keys never hold them back.
        let first = match timers.next() {
            Some((timer, at)) => {
                match inbox
                    .events
                    .recv_timeout(at.saturating_duration_since(Instant::now()))
                {
                    Ok(event) => event,
                    Err(RecvTimeoutError::Timeout) => {
                        timers.remove(timer);
                        Event::App(Action::Timer(timer))
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(Ending::InputClosed),
                }
            }
            None => match inbox.events.recv() {
                Ok(event) => event,
                Err(_) => return Ok(Ending::InputClosed),
            },
        };
        // Everything already waiting is handled before the next frame is drawn.
        for event in std::iter::once(first).chain(inbox.events.try_iter()) {
            if let Some(ending) = inbox.urgent.ending() {
                // The game in progress is already saved: every change was.
                outside.engine.cancel();
                return Ok(ending);
            }
            let actions = match event {
                Event::Terminal(event) => actions_for_input(&app, area, event),
                Event::App(action) => vec![action],
                Event::Signal(signal) => return Ok(Ending::Signal(signal)),
                Event::InputClosed => return Ok(Ending::InputClosed),
                Event::EngineFailed => {
                    return Err(io::Error::other("the engine thread stopped after an error"));
                }
            };
            for action in actions {
                let effects = app.update(action);
                if let Some(ending) = outside.carry_out(&mut app, effects, &mut timers) {
                    return Ok(ending);
                }
            }
        }
        area = terminal.draw(|f| ui::draw(f, &app, options))?.area;
    }
}

/// The wake-ups the app asked for ([`Effect::Wake`]), each at its deadline; asking again for one moves it.
#[derive(Debug, Default)]
pub struct Timers(std::collections::BTreeMap<Timer, Instant>);

impl Timers {
    /// Sets `timer` to come due `after` from now.
    pub fn set(&mut self, timer: Timer, after: Duration) {
        self.0.insert(timer, Instant::now() + after);
    }

    /// The timer due first, with its deadline.
    pub fn next(&self) -> Option<(Timer, Instant)> {
        self.0
            .iter()
            .min_by_key(|(_, at)| **at)
            .map(|(timer, at)| (*timer, *at))
    }

    /// Forgets `timer` (it came due).
    pub fn remove(&mut self, timer: Timer) {
        self.0.remove(&timer);
    }
}

/// What the app's effects act on: the engine thread and the files.
pub struct Outside<'a> {
    /// The engine.
    pub engine: EngineThread,
    /// Where games are saved.
    pub saving: Option<Saving<'a>>,
    /// Whether games are saved without being asked (`:save` works either way).
    pub autosave: bool,
}

impl Outside<'_> {
    /// Carries out the app's effects; returns how the program ends if one of them ends it. A file that cannot
    /// be written is reported on the status line and the game goes on.
    fn carry_out(
        &self,
        app: &mut App,
        effects: Vec<Effect>,
        timers: &mut Timers,
    ) -> Option<Ending> {
        for effect in effects {
            let saved = match effect {
                Effect::Evaluate {
                    search, situation, ..
                } => {
                    self.engine.evaluate(search, situation);
                    Ok(())
                }
                Effect::Wake { timer, after } => {
                    timers.set(timer, after);
                    Ok(())
                }
                Effect::Think {
                    search,
                    situation,
                    level,
                    ..
                } => {
                    self.engine.think(search, situation, level);
                    Ok(())
                }
                Effect::StopThinking => {
                    self.engine.cancel();
                    Ok(())
                }
                Effect::MoveNow => {
                    self.engine.move_now();
                    Ok(())
                }
                Effect::Quit => {
                    self.engine.cancel();
                    return Some(Ending::Quit);
                }
                Effect::GameChanged => self.save_progress(app),
                Effect::ListSaved => {
                    let list = match self.store().map(Store::saved_games) {
                        Some(Ok(entries)) => {
                            GameList::new("Saved games", entries, ListPurpose::Load)
                        }
                        Some(Err(e)) => {
                            notice(app, format!("cannot list the saved games: {e}"));
                            continue;
                        }
                        None => {
                            notice(
                                app,
                                "games are not saved on this machine: there are none to load"
                                    .into(),
                            );
                            continue;
                        }
                    };
                    // Showing a list changes nothing outside the app.
                    let _ = app.update(Action::ShowGames(Box::new(list)));
                    Ok(())
                }
                Effect::Save {
                    game,
                    players,
                    name,
                } => {
                    let said = self.save_named(*game, players, name.as_deref());
                    notice(app, said);
                    Ok(())
                }
                Effect::Archive { .. } if !self.autosave => Ok(()),
                Effect::Archive {
                    game,
                    players,
                    file,
                } => self.store().map_or(Ok(()), |store| {
                    let saved = SavedGame {
                        game: *game,
                        players,
                        file,
                    };
                    file_away(store, &saved)
                }),
            };
            if let Err(e) = saved {
                notice(app, format!("not saved: {e}"));
            }
        }
        None
    }

    /// `:save`: files the game under the name given and says where it went.
    fn save_named(&self, game: Game, players: Players, name: Option<&str>) -> String {
        let Some(store) = self.store() else {
            return "not saved: there is no place for files".to_string();
        };
        let saved = SavedGame {
            game,
            players,
            file: None,
        };
        match store.file_game(&saved, name) {
            Ok(path) => format!("saved as {}", path.display()),
            Err(e) => format!("not saved: {e}"),
        }
    }
    /// The autosave follows the game: written while it is in progress, filed among the saved games and
    /// cleared when it ends, cleared when a new game has no moves yet.
    fn save_progress(&self, app: &App) -> Result<(), StoreError> {
        let Some((store, slot)) = self
            .saving
            .as_ref()
            .filter(|_| self.autosave)
            .and_then(|s| Some((s.store, s.slot.as_ref()?)))
        else {
            return Ok(());
        };
        let game = app.game();
        // A game being replayed is a file's, not the player's: there is no game in progress to keep.
        if game.is_empty() || app.replay().is_some() {
            return slot.clear();
        }
        let saved = SavedGame {
            game: game.clone(),
            players: app.players(),
            file: app.saved_file().map(Path::to_path_buf),
        };
        if game.outcome().is_some() {
            file_away(store, &saved)?;
            slot.clear()
        } else {
            slot.save(&saved)
        }
    }

    fn store(&self) -> Option<&Store> {
        self.saving.as_ref().map(|s| s.store)
    }
}

/// Files a game among the saved games: into the file it came from when it has one, else into a new file.
fn file_away(store: &Store, saved: &SavedGame) -> Result<(), StoreError> {
    match &saved.file {
        Some(file) => store.refile_game(saved, file).map(|_| ()),
        None => store.file_game(saved, None).map(|_| ()),
    }
}

/// Tells the app something on its status line (which has no effects).
fn notice(app: &mut App, text: String) {
    let _ = app.update(Action::Notice(text));
}

fn spawn_input_thread(events: Sender<Event>, urgent: Urgent) -> io::Result<()> {
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                let event = match crossterm::event::read().map(convert) {
                    Ok(None) => continue,
                    Ok(Some(event)) => {
                        if matches!(event, InputEvent::Key(key) if key.is_interrupt()) {
                            // Ctrl-c always quits at once: it does not wait for the input before it.
                            urgent.interrupt();
                        }
                        Event::Terminal(event)
                    }
                    Err(_) => Event::InputClosed,
                };
                let closed = matches!(event, Event::InputClosed);
                if events.send(event).is_err() || closed {
                    break;
                }
            }
        })
        .map(|_| ())
}

fn spawn_signal_thread(events: Sender<Event>, urgent: Urgent) -> io::Result<()> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                urgent.signal(signal);
                // The event wakes the loop if it is waiting; the flag is what makes it act at once.
                if events.send(Event::Signal(signal)).is_err() {
                    break;
                }
            }
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_request_to_end_wins() {
        let urgent = Urgent::default();
        assert_eq!(urgent.ending(), None);
        urgent.signal(SIGTERM);
        urgent.interrupt();
        assert_eq!(urgent.ending(), Some(Ending::Signal(SIGTERM)));
        let urgent = Urgent::default();
        urgent.interrupt();
        urgent.signal(SIGHUP);
        assert_eq!(urgent.ending(), Some(Ending::Quit));
    }
}
