//! The local terminal front end: reads keys, mouse and signals on their own threads, feeds them to a
//! [`Session`], and gives the terminal back however the session ends.
//!
//! Everything the game does (the app, its effects, the engine, the files) lives in the session; this module
//! knows only crossterm, signals and the screen.

mod input;
mod screen;

pub use input::convert;
pub use screen::{ScreenGuard, restore};

use std::io::{self, BufWriter};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::thread;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::app::InputEvent;
use crate::engine::EngineService;
use crate::engine::egdb::Egdb;
use crate::session::{self, Inbox, Opened, Provers, Session, SessionEnd, Urgent, Wakeup};

/// Runs the opened session on the local terminal until the player quits or a signal comes; the terminal is
/// restored however it ends.
/// The computer player probes `egdb` if there are databases.
pub fn run(
    opened: Opened,
    config: session::Config,
    egdb: Option<Arc<Egdb>>,
) -> io::Result<SessionEnd> {
    let (events, inbox) = channel();
    let urgent = Urgent::default();
    spawn_signal_thread(events.clone(), urgent.clone())?;
    // One search thread with today's table: a local game has the machine to itself.
    let engine = EngineService::local(egdb)?;
    let reports = events.clone();
    let client = engine.client(move |report| {
        // The loop has ended when nobody listens: the answer is not wanted.
        let _ = reports.send(Wakeup::Engine(report));
    });
    // The problem trainer's proofs on a thread of their own, so that the screen answers while one runs.
    let provers = Provers::new(1)?;
    let answers = events.clone();
    let proofs = provers.client(move |question, answer| {
        let _ = answers.send(Wakeup::Proved { question, answer });
    });
    let mut session = Session::new(opened, config, client).with_proofs(proofs);
    let guard = ScreenGuard::enter()?;
    // The first look at the input sets up crossterm's reader, which is what catches SIGWINCH. Done here, before
    // the first frame, a window resized at once is never missed, however late the input thread starts to read.
    crossterm::event::poll(Duration::ZERO)?;
    spawn_input_thread(events, urgent.clone())?;
    // One write per frame: a frame goes out as few packets over a slow link.
    let backend = CrosstermBackend::new(BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut terminal = Terminal::new(backend)?;
    let size = terminal.size()?;
    let ending = match session.start(size.width, size.height) {
        Some(ending) => Ok(ending),
        None => session::run(
            &mut terminal,
            &mut session,
            Inbox {
                events: &inbox,
                urgent: &urgent,
            },
        ),
    };
    drop(guard);
    ending
}

fn spawn_input_thread(events: Sender<Wakeup>, urgent: Urgent) -> io::Result<()> {
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                let event = match crossterm::event::read().map(convert) {
                    // Something the app has no use for (a key release, a mouse move).
                    Ok(None) => continue,
                    Ok(Some(event)) => {
                        if matches!(event, InputEvent::Key(key) if key.is_interrupt()) {
                            // Ctrl-c always quits at once: it does not wait for the input before it.
                            urgent.interrupt();
                        }
                        Wakeup::Input(event)
                    }
                    Err(_) => Wakeup::InputClosed,
                };
                let closed = matches!(event, Wakeup::InputClosed);
                if events.send(event).is_err() || closed {
                    break;
                }
            }
        })
        .map(|_| ())
}

fn spawn_signal_thread(events: Sender<Wakeup>, urgent: Urgent) -> io::Result<()> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                urgent.signal(signal);
                // The event wakes the loop if it is waiting; the flag is what makes it act at once.
                if events.send(Wakeup::Signal(signal)).is_err() {
                    break;
                }
            }
        })
        .map(|_| ())
}
