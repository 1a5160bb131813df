//! A session with no terminal at all: events in, frames out on ratatui's `TestBackend`, the real engine service
//! answering on its own thread, and the real store on disk. This is what every front end (the local terminal,
//! an SSH server) drives.

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use crowned::app::{InputEvent, Key, KeyCode, Mode, Player, Players, Preferences};
use crowned::engine::{EngineService, Level};
use crowned::game::{Outcome, WinReason};
use crowned::rules::SquareStyle;
use crowned::session::{self, Inbox, Session, SessionEnd, SessionOpening, Urgent, Wakeup};
use crowned::store::Store;
use crowned::ui::Options;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

// Where games go: one file a game, whatever happens to it.
mod saving;

/// The longest any single wait may take before the test fails rather than hangs.
const PATIENCE: Duration = Duration::from_secs(60);

/// A fresh home for the store, removed when dropped.
struct Home(std::path::PathBuf);

impl Home {
    fn new(name: &str) -> Home {
        let dir =
            std::env::temp_dir().join(format!("crowned-session-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Home(dir)
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config() -> session::Config {
    session::Config {
        options: Options::default(),
        seed: 7,
        settings: Some(Box::default()),
        no_color: false,
    }
}

/// A new session in `home`, with the queue its engine reports arrive on (a front end sends its input there too).
struct Opened {
    session: Session,
    events: Sender<Wakeup>,
    inbox: Receiver<Wakeup>,
}

/// A session in `home`, started on a screen of `width` x `height`.
fn started(home: &Home, players: Players, engine: &EngineService, size: (u16, u16)) -> Opened {
    let mut opened = session_in(home, players, engine);
    assert_eq!(opened.session.start(size.0, size.1), None);
    opened
}

/// A session of its own, in a fresh home named `name`, with its own engine service, started on a screen of
/// `size`. (Bound in this order, the session is dropped before its engine and the engine before the home.)
fn session_alone(name: &str, players: Players, size: (u16, u16)) -> (Home, EngineService, Opened) {
    let home = Home::new(name);
    let engine = EngineService::local(None).expect("the engine starts");
    let opened = started(&home, players, &engine, size);
    (home, engine, opened)
}

fn session_in(home: &Home, players: Players, engine: &EngineService) -> Opened {
    // Quick engine moves: the game is about the session, not the engine's strength.
    let preferences = Preferences {
        think_time: Duration::from_millis(20),
        ..Preferences::default()
    };
    session_with(home, players, engine, preferences)
}

/// A session in `home` following `preferences`, given after the game was opened as a front end gives the
/// settings (the engine's first move is asked for again under them).
fn session_with(
    home: &Home,
    players: Players,
    engine: &EngineService,
    preferences: Preferences,
) -> Opened {
    let (events, inbox) = channel();
    let mut opened = session::open(
        Ok(Store::under(&home.0)),
        true,
        SessionOpening::Standard(crowned::rules::GameType::default()),
        players,
    );
    opened.app.set_preferences(preferences);
    opened
        .effects
        .retain(|e| !matches!(e, crowned::app::Effect::Think { .. }));
    let again = opened.app.renew_engine_turn();
    opened.effects.extend(again);
    let reports = events.clone();
    let client = engine.client(move |report| {
        let _ = reports.send(Wakeup::Engine(report));
    });
    let session = Session::new(opened, config(), client);
    Opened {
        session,
        events,
        inbox,
    }
}

fn key(code: KeyCode) -> Wakeup {
    Wakeup::Input(InputEvent::Key(Key::plain(code)))
}

/// Types `text` and presses Enter, as a player would.
fn type_line(session: &mut Session, text: &str) {
    for c in text.chars() {
        assert_eq!(session.handle(key(KeyCode::Char(c))), None);
    }
    assert_eq!(session.handle(key(KeyCode::Enter)), None);
}

/// Waits for the engine's next report or the next timer, whichever comes first, and hands it over.
fn wait_once(session: &mut Session, reports: &Receiver<Wakeup>) {
    let limit = Instant::now() + PATIENCE;
    let until = session.next_deadline().map_or(limit, |at| at.min(limit));
    match reports.recv_timeout(until.saturating_duration_since(Instant::now())) {
        Ok(event) => assert_eq!(session.handle(event), None),
        Err(RecvTimeoutError::Timeout) => {
            assert!(Instant::now() < limit, "nothing happened for {PATIENCE:?}");
        }
        Err(RecvTimeoutError::Disconnected) => panic!("the engine went away"),
    }
    assert_eq!(session.fire_timers(Instant::now()), None);
}

fn screen_text(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let width = buffer.area.width as usize;
    let cells: Vec<&str> = buffer.content().iter().map(|c| c.symbol()).collect();
    cells
        .chunks(width)
        .map(|row| row.concat())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_whole_game_against_the_engine_is_played_to_its_end_and_filed() {
    let home = Home::new("game");
    let engine = EngineService::local(None).expect("the engine starts");
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Max),
    };
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = started(&home, players, &engine, (100, 30));
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("a test terminal");
    session.draw(&mut terminal).expect("drawn");
    assert!(
        screen_text(&terminal).contains("Black to"),
        "{}",
        screen_text(&terminal)
    );

    let mut frames = 1;
    let mut typed = 0;
    while !matches!(session.app().mode(), Mode::Over(_)) {
        let app = session.app();
        let human_to_move = app.players().of(app.game().position().side_to_move()) == Player::Human;
        if human_to_move && !app.is_thinking() {
            // The human plays the first legal move, typed in the game's notation.
            let position = app.game().position();
            let moves = position.legal_moves();
            let text = position.write_move(&moves[0], SquareStyle::Numbers);
            let before = app.game().ply();
            type_line(&mut session, &text);
            assert_eq!(session.app().game().ply(), before + 1, "{text} was played");
            typed += 1;
        } else {
            wait_once(&mut session, &reports);
        }
        session.draw(&mut terminal).expect("drawn");
        frames += 1;
        assert!(frames < 10_000, "the game ends");
    }
    assert!(typed > 3, "the human played ({typed} moves)");
    let shown = screen_text(&terminal);
    assert!(shown.contains("wins") || shown.contains("drawn"), "{shown}");

    // The finished game was filed among the saved games, and the autosave cleared.
    let store = Store::under(&home.0);
    let saved = store.saved_games().expect("the saved games list");
    assert_eq!(saved.len(), 1, "one finished game");
    assert_eq!(saved[0].game.len(), session.app().game().len());
    assert!(saved[0].result() != "*", "it has its result");
    let claim = store.claim_autosave().expect("a slot");
    assert!(claim.unfinished.is_none(), "nothing left unfinished");
    drop(claim);

    // Quitting a finished game needs no confirmation.
    assert_eq!(
        session.handle(key(KeyCode::Char('q'))),
        Some(SessionEnd::Quit)
    );
}

#[test]
fn an_unfinished_game_is_offered_to_the_next_session_and_resumed() {
    let home = Home::new("resume");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    {
        let Opened { mut session, .. } = started(&home, humans, &engine, (80, 24));
        type_line(&mut session, "11-15");
        type_line(&mut session, "23-19");
        // Ctrl-c ends at once; the game is already saved.
        let ctrl_c = Wakeup::Input(InputEvent::Key(Key::ctrl('c')));
        assert_eq!(session.handle(ctrl_c), Some(SessionEnd::Quit));
    }
    let Opened { mut session, .. } = started(&home, humans, &engine, (80, 24));
    assert!(
        session.app().resume_offer().is_some(),
        "the game is offered"
    );
    assert_eq!(session.handle(key(KeyCode::Char('y'))), None);
    assert_eq!(session.app().game().ply(), 2, "resumed where it stood");
}

#[test]
fn the_loop_runs_a_session_until_a_signal_ends_it_however_much_input_waits() {
    let home = Home::new("loop");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let Opened {
        mut session,
        events,
        inbox,
        ..
    } = started(&home, humans, &engine, (80, 24));
    // A move, then a flood of keys; the signal raised while they wait goes ahead of them.
    for c in "11-15".chars() {
        events.send(key(KeyCode::Char(c))).expect("queued");
    }
    events.send(key(KeyCode::Enter)).expect("queued");
    for _ in 0..10_000 {
        events.send(key(KeyCode::Right)).expect("queued");
    }
    let urgent = Urgent::default();
    urgent.signal(15);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    let ending = session::run(
        &mut terminal,
        &mut session,
        Inbox {
            events: &inbox,
            urgent: &urgent,
        },
    )
    .expect("the loop runs");
    assert_eq!(ending, SessionEnd::Signal(15));
    assert_eq!(
        session.app().game().ply(),
        0,
        "nothing queued was handled after the signal"
    );
}

/// A writer that keeps what is written, to be taken by the test.
#[derive(Clone, Default)]
struct Wire(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Wire {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().expect("not poisoned"))
    }
}

impl Wire {
    /// A terminal of 80x24 whose bytes go to a new wire, as a terminal over an SSH channel would get them.
    fn terminal() -> (Wire, Terminal<ratatui::backend::CrosstermBackend<Wire>>) {
        let wire = Wire::default();
        let mut terminal = Terminal::new(ratatui::backend::CrosstermBackend::new(wire.clone()))
            .expect("a terminal on a buffer");
        terminal
            .resize(ratatui::layout::Rect::new(0, 0, 80, 24))
            .expect("sized");
        (wire, terminal)
    }
}

/// Runs `session` for `watch` as the front ends do (its engine's reports and timers handled as they come, a
/// frame drawn after each); returns the bytes each frame sent down `wire`.
fn watch_the_wire(
    session: &mut Session,
    reports: &Receiver<Wakeup>,
    terminal: &mut Terminal<ratatui::backend::CrosstermBackend<Wire>>,
    wire: &Wire,
    watch: Duration,
) -> Vec<usize> {
    let start = Instant::now();
    let mut frames = Vec::new();
    while start.elapsed() < watch {
        let until = session
            .next_deadline()
            .map_or(start + watch, |at| at.min(start + watch));
        if let Ok(event) = reports.recv_timeout(until.saturating_duration_since(Instant::now())) {
            assert_eq!(session.handle(event), None);
        }
        assert_eq!(session.fire_timers(Instant::now()), None);
        session.draw(terminal).expect("drawn");
        frames.push(wire.take().len());
    }
    frames
}

impl std::io::Write for Wire {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("not poisoned")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_analysis_panel_sends_a_few_small_updates_a_second() {
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let (_home, _engine, opened) = session_alone("analysis", humans, (80, 24));
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = opened;
    // The bytes a terminal would receive, as over an SSH channel.
    let (wire, mut terminal) = Wire::terminal();
    session.draw(&mut terminal).expect("drawn");
    // What a frame with no change costs (ratatui resets the colours and hides the cursor every time).
    let _ = wire.take();
    session.draw(&mut terminal).expect("drawn");
    let unchanged = wire.take().len();
    assert_eq!(session.handle(key(KeyCode::Char('a'))), None);
    session.draw(&mut terminal).expect("drawn");
    let _ = wire.take();

    // Two seconds of analysis, a frame after every event as the front ends draw.
    let watch = Duration::from_secs(2);
    let updates: Vec<usize> = watch_the_wire(&mut session, &reports, &mut terminal, &wire, watch)
        .into_iter()
        .filter(|&sent| sent > unchanged)
        .collect();
    let shown = match session.app().analysis_view() {
        Some(crowned::app::AnalysisView::Line(line)) => line.depth,
        other => panic!("no analysis shown: {other:?}"),
    };
    assert!(shown >= 6, "depth {shown} after {watch:?}");
    // At most one change per refresh period, and the first at once.
    let most = (watch.as_millis() / crowned::app::ANALYSIS_REFRESH.as_millis()) as usize + 2;
    assert!(
        (1..=most).contains(&updates.len()),
        "{} updates in {watch:?}: {updates:?}",
        updates.len()
    );
    let total: usize = updates.iter().sum();
    println!(
        "analysis panel: {} updates in {watch:?} (depth {shown}), {} bytes each on average, {} at most; \
         {unchanged} bytes for a frame that changes nothing",
        updates.len(),
        total / updates.len(),
        updates.iter().max().copied().unwrap_or(0)
    );
    assert!(updates.iter().all(|&bytes| bytes < 2_000), "{updates:?}");
}

#[test]
fn a_hint_comes_from_the_real_engine_without_a_move() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Medium),
    };
    let (_home, _engine, opened) = session_alone("hint", players, (80, 24));
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = opened;
    let asked = Instant::now();
    assert_eq!(session.handle(key(KeyCode::Char('H'))), None);
    while session.app().hint().is_none() {
        wait_once(&mut session, &reports);
    }
    let took = asked.elapsed();
    let hint = session.app().hint().expect("a hint");
    assert!(
        session
            .app()
            .game()
            .position()
            .legal_moves()
            .contains(&hint.mv)
    );
    assert!(hint.score.is_some(), "the search's judgement comes with it");
    assert_eq!(session.app().game().len(), 0, "nothing was played");
    println!(
        "hint in {:.0} ms (the hint time is {:?})",
        took.as_secs_f64() * 1000.0,
        session.app().preferences().hint_time
    );
}

#[test]
fn a_running_clock_sends_a_few_bytes_a_second() {
    let home = Home::new("clock-wire");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let preferences = Preferences {
        clock: Some("5+3".parse().expect("valid")),
        ..Preferences::default()
    };
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = session_with(&home, humans, &engine, preferences);
    assert_eq!(session.start(80, 24), None);
    // Each side's first move is not timed: the clocks run from Black's second.
    type_line(&mut session, "11-15");
    type_line(&mut session, "23-19");
    let (wire, mut terminal) = Wire::terminal();
    session.draw(&mut terminal).expect("drawn");
    let _ = wire.take();
    // Three and a half seconds of Black's clock running, a frame after every event and timer as the front ends
    // draw. Not three: the clock shows a new second just after the boundary, so a watch of exactly three
    // seconds races the third new figure.
    let watch = Duration::from_millis(3_500);
    let frames = watch_the_wire(&mut session, &reports, &mut terminal, &wire, watch);
    let shown = screen_text(&terminal_text(&mut session));
    assert!(
        shown.contains(">4:57") || shown.contains(">4:56"),
        "{shown}"
    );
    // A frame a second, each a few cells.
    assert!((3..=5).contains(&frames.len()), "{frames:?}");
    println!(
        "a running clock: {} frames in {watch:?}, {} bytes each at most",
        frames.len(),
        frames.iter().max().copied().unwrap_or(0)
    );
    assert!(frames.iter().all(|&bytes| bytes < 200), "{frames:?}");
}

/// The screen as a test backend draws it.
fn terminal_text(session: &mut Session) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    session.draw(&mut terminal).expect("drawn");
    terminal
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a debug build's engine spends more than the increment outside its search; run with --release"
)]
fn engines_on_a_short_clock_play_a_whole_game_without_a_flag_falling() {
    let home = Home::new("clock");
    let engine = EngineService::local(None).expect("the engine starts");
    let players = Players {
        black: Player::Engine(Level::Max),
        white: Player::Engine(Level::Max),
    };
    // Six seconds each and a tenth of a second a move: the engine must spread its time over the game.
    let preferences = Preferences {
        clock: Some("0.1+0.1".parse().expect("valid")),
        animation_step: None,
        ..Preferences::default()
    };
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = session_with(&home, players, &engine, preferences);
    assert_eq!(session.start(80, 24), None);
    let started = Instant::now();
    let mut least = Duration::MAX;
    while !matches!(session.app().mode(), Mode::Over(_)) {
        wait_once(&mut session, &reports);
        let clocks = session.app().clocks().expect("the game has clocks");
        least = least.min(clocks.left[0]).min(clocks.left[1]);
    }
    let Mode::Over(outcome) = session.app().mode() else {
        unreachable!("the loop ends on a game over")
    };
    let plies = session.app().game().len();
    println!(
        "{plies} plies in {:.1} s, {outcome}; the least either clock showed: {} ms",
        started.elapsed().as_secs_f64(),
        least.as_millis()
    );
    assert!(
        !matches!(
            outcome,
            Outcome::Win {
                reason: WinReason::Time,
                ..
            }
        ),
        "the engine lost on time: {outcome}"
    );
}

#[test]
fn a_copy_reaches_the_terminal_as_its_clipboard_sequence_after_the_frame() {
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let (_home, _engine, Opened { mut session, .. }) = session_alone("copy", humans, (80, 24));
    let (wire, mut terminal) = Wire::terminal();
    session.draw(&mut terminal).expect("drawn");
    let _ = wire.take();
    type_line(&mut session, "11-15");
    type_line(&mut session, ":copy fen");
    session.draw(&mut terminal).expect("drawn");
    let sent = wire.take();
    let fen = session.app().game().position().to_fen();
    let sequence = session::clipboard_sequence(&fen).expect("a short text");
    let at = sent
        .windows(sequence.len())
        .position(|w| w == sequence.as_slice())
        .unwrap_or_else(|| {
            panic!(
                "no clipboard sequence in {:?}",
                String::from_utf8_lossy(&sent)
            )
        });
    assert_eq!(
        at + sequence.len(),
        sent.len(),
        "it follows the frame's cells"
    );
    // Sent once: the next frame carries none.
    session.draw(&mut terminal).expect("drawn");
    assert!(!wire.take().windows(5).any(|w| w == b"\x1b]52;"));
    // The game's PDN goes the same way.
    type_line(&mut session, ":copy");
    session.draw(&mut terminal).expect("drawn");
    let pdn = session.app().game().to_pdn();
    let sequence = session::clipboard_sequence(&pdn).expect("a short game");
    assert!(wire.take().ends_with(&sequence));
}

#[test]
fn max_ponders_on_the_players_time_and_answers_after_the_expected_reply() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Max),
    };
    let (_home, _engine, opened) = session_alone("ponder", players, (100, 30));
    let Opened {
        mut session,
        inbox: reports,
        ..
    } = opened;
    let (mut hits, mut misses) = (0, 0);
    while (hits == 0 || misses == 0)
        && session.app().game().ply() < 60
        && !matches!(session.app().mode(), Mode::Over(_))
    {
        let app = session.app();
        let human_to_move = app.players().of(app.game().position().side_to_move()) == Player::Human;
        if !human_to_move || app.is_thinking() {
            wait_once(&mut session, &reports);
            continue;
        }
        // The person plays the reply the engine ponders on and another move in turn, to see both ways.
        let position = app.game().position();
        let moves = position.legal_moves();
        let mv = match app.pondering_on() {
            Some(reply) if hits <= misses => {
                hits += 1;
                reply
            }
            Some(reply) => match moves.iter().find(|mv| **mv != reply) {
                Some(other) => {
                    misses += 1;
                    *other
                }
                None => {
                    hits += 1;
                    reply
                }
            },
            None => moves[0],
        };
        let text = position.write_move(&mv, SquareStyle::Numbers);
        let before = app.game().ply();
        type_line(&mut session, &text);
        assert_eq!(session.app().game().ply(), before + 1, "{text} was played");
        // Whatever happened to the ponder search, the engine answers.
        let deadline = Instant::now() + PATIENCE;
        while session.app().game().ply() == before + 1
            && !matches!(session.app().mode(), Mode::Over(_))
        {
            assert!(Instant::now() < deadline, "the engine answers");
            wait_once(&mut session, &reports);
        }
    }
    assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
}

#[test]
fn the_settings_screen_changes_the_look_and_the_keys_at_once_and_keeps_them_in_the_settings_file() {
    use crowned::config::Settings;
    use crowned::session::SettingsHome;
    use crowned::ui::ThemeName;

    let home = Home::new("settings-screen");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let file = home.0.join("config").join("config.toml");
    let Opened {
        session,
        events: _events,
        inbox: _inbox,
    } = session_in(&home, humans, &engine);
    let mut session = session.keep_settings_in(SettingsHome::File(file.clone()));
    assert_eq!(session.start(80, 24), None);
    let press = |session: &mut Session, code: KeyCode| assert_eq!(session.handle(key(code)), None);

    press(&mut session, KeyCode::Char('O'));
    let shown = screen_text(&terminal_text(&mut session));
    assert!(shown.contains("Settings · kept in config.toml"), "{shown}");
    assert!(
        shown.contains("Colours                  ‹ classic ›"),
        "{shown}"
    );

    // The colours: shown at once, and in the file.
    press(&mut session, KeyCode::Right);
    let shown = screen_text(&terminal_text(&mut session));
    assert!(
        shown.contains("Colours                  ‹ wood ›"),
        "{shown}"
    );
    assert!(
        shown.contains("display.theme = wood: kept in config.toml"),
        "{shown}"
    );
    assert_eq!(
        Settings::load(&file).expect("reads").display.theme,
        ThemeName::Wood
    );

    // The board's bottom turns the board at once (two people: White is at the bottom until then).
    assert!(!session.app().flipped());
    for _ in 0..3 {
        press(&mut session, KeyCode::Down);
    }
    press(&mut session, KeyCode::Right);
    assert!(session.app().flipped(), "Black at the bottom");
    let file_text = std::fs::read_to_string(&file).expect("the file");
    assert!(
        file_text.contains("orientation = \"black-bottom\""),
        "{file_text}"
    );

    // A key: undo on the board becomes z; f, which turns the board, is refused for it with the reason.
    let rows = 7 + 7;
    press(&mut session, KeyCode::Home);
    for _ in 0..rows {
        press(&mut session, KeyCode::Down);
    }
    let shown = screen_text(&terminal_text(&mut session));
    assert!(shown.contains("undo"), "{shown}");
    press(&mut session, KeyCode::Enter);
    press(&mut session, KeyCode::Char('f'));
    let shown = screen_text(&terminal_text(&mut session));
    assert!(shown.contains("not changed: "), "{shown}");
    assert!(shown.contains("f is bound to both"), "{shown}");
    press(&mut session, KeyCode::Enter);
    press(&mut session, KeyCode::Char('z'));
    let file_text = std::fs::read_to_string(&file).expect("the file");
    assert!(
        file_text.contains("[keys.board]\nundo = [\"z\"]"),
        "{file_text}"
    );

    // Closed, the game follows: z takes a move back, u no longer does, and the help lists z.
    press(&mut session, KeyCode::Esc);
    let shown = screen_text(&terminal_text(&mut session));
    let (one, eight) = (shown.find("┃1"), shown.find("┃8"));
    assert!(one < eight, "Black's side, row 1, at the bottom: {shown}");
    type_line(&mut session, "11-15");
    press(&mut session, KeyCode::Char('u'));
    assert_eq!(session.app().game().ply(), 1, "u is no longer undo");
    press(&mut session, KeyCode::Char('z'));
    assert_eq!(session.app().game().ply(), 0, "z takes the move back");
    let read = Settings::load(&file).expect("the file reads back");
    assert_eq!(read.display.theme, ThemeName::Wood);
    assert_eq!(
        read.keys
            .keys(crowned::app::Context::Board, "undo")
            .map(<[_]>::to_vec),
        Some(vec!["z".parse().expect("a key")])
    );
}
