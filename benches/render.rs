//! The screen's costs: time to draw a frame, bytes sent to the terminal for a cursor move and for a played
//! move, the real binary's time from start to its first frame, and its peak memory during a game against the
//! engine.
//!
//! `cargo bench --bench render` prints the byte, start-up and memory figures first, then divan's frame timings.
//! With `CROWNED_COMPARE` set to another build of the binary (an earlier commit's, say), the start-up figure is
//! measured for both, interleaved in the same run, and their ratio printed.

use crowned::app::EngineNews;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crowned::app::{Action, App, DEFAULT_ANIMATION_STEP, Player, Players, Preferences, Timer};
use crowned::engine::Level;
use crowned::game::Game;
use crowned::rules::English;
use crowned::ui::{self, Options};
use divan::Bencher;
use ratatui::Terminal;
use ratatui::backend::{CrosstermBackend, TestBackend};

#[path = "../tests/pty/pty.rs"]
mod pty;

const HUMANS: Players = Players {
    black: Player::Human,
    white: Player::Human,
};

fn main() {
    bytes_per_change();
    start_up_time();
    peak_memory();
    divan::main();
}

/// A writer that only counts what passes through it.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicUsize>);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.fetch_add(buf.len(), Ordering::Relaxed);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn bytes_per_change() {
    for (width, height) in [(80, 24), (160, 50), (200, 60)] {
        let counter = Counter::default();
        let backend = CrosstermBackend::new(counter.clone());
        let mut terminal = Terminal::with_options(
            backend,
            ratatui::TerminalOptions {
                viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, width, height)),
            },
        )
        .expect("terminal");
        let options = Options::default();
        let (mut app, _) = App::new(HUMANS);
        app.set_preferences(Preferences {
            animation_step: None,
            ..Preferences::default()
        });
        let mut frame = |app: &App| {
            counter.0.store(0, Ordering::Relaxed);
            terminal.draw(|f| ui::draw(f, app, &options)).expect("draw");
            counter.0.load(Ordering::Relaxed)
        };
        let first = frame(&app);
        let _ = app.update(Action::Right);
        let cursor = frame(&app);
        let _ = app.update(Action::Submit("11-15".into()));
        let played = frame(&app);
        // The engine's double jump 14x23x32, shown at once and then step by step (every frame it sends).
        let mut at_once = engine_to_capture(None);
        frame(&at_once);
        let _ = answer_with_capture(&mut at_once);
        let capture_at_once = frame(&at_once);
        let mut stepping = engine_to_capture(Some(DEFAULT_ANIMATION_STEP));
        frame(&stepping);
        let _ = answer_with_capture(&mut stepping);
        let (mut capture_stepping, mut frames) = (frame(&stepping), 1);
        while stepping.animation().is_some() {
            let _ = stepping.update(Action::Timer(Timer::Animation));
            capture_stepping += frame(&stepping);
            frames += 1;
        }
        println!(
            "bytes at {width}x{height}: first frame {first}, cursor move {cursor}, played move {played}; \
             the engine's double jump shown at once {capture_at_once}, step by step {capture_stepping} in \
             {frames} frames (ratio {:.2})",
            capture_stepping as f64 / capture_at_once as f64
        );
    }
}

/// The engine (Black) to move with a double jump, 14x23x32, and White keeping pieces after it.
fn engine_to_capture(animation_step: Option<Duration>) -> App {
    let game = Game::<English>::from_fen("B:W18,27,29,30:B14,1").expect("FEN");
    let players = Players {
        black: Player::Engine(Level::Max),
        white: Player::Human,
    };
    let (mut app, _) = App::with_game(game.into(), players);
    app.set_preferences(Preferences {
        animation_step,
        ..Preferences::default()
    });
    app
}

/// Answers the engine's search with the double jump.
fn answer_with_capture(app: &mut App) -> Vec<crowned::app::Effect> {
    let search = app.thinking().map_or(0, |t| t.search);
    let position = app.game().position();
    let mv = position
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.capture_count() == 2);
    app.update(Action::Engine(EngineNews::Moved { search, mv }))
}

/// Starts the real binary in a pseudo-terminal (the end-to-end tests' harness) and waits for `text` on its
/// screen; returns the time it took and the running program (so that it can be measured further and ended).
fn start_and_wait(args: &[&str], text: &str) -> (Duration, pty::Session) {
    start_binary_and_wait(env!("CARGO_BIN_EXE_crowned"), args, text)
}

/// As [`start_and_wait`], for the binary at `program`.
fn start_binary_and_wait(program: &str, args: &[&str], text: &str) -> (Duration, pty::Session) {
    // The program's files go to a scratch directory, never the user's own; it is removed with the session.
    let home = pty::temp_home("bench");
    let started = Instant::now();
    let mut session = pty::Session::start_program(program, &home, args);
    session.own_home = Some(home);
    session.wait_for(text);
    (started.elapsed(), session)
}

/// Ends a program started here as the player's Ctrl-c does.
fn quit(mut session: pty::Session) {
    session.send("\x03");
    session.wait_exit();
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn start_up_time() {
    let this = env!("CARGO_BIN_EXE_crowned").to_string();
    let other = std::env::var("CROWNED_COMPARE").ok();
    let programs: Vec<&str> = std::iter::once(this.as_str())
        .chain(other.as_deref())
        .collect();
    let mut first_frame = vec![Vec::new(); programs.len()];
    let mut version = Vec::new();
    for _ in 0..15 {
        // Interleaved, so that both builds see the same machine load.
        for (times, program) in first_frame.iter_mut().zip(&programs) {
            let (t, session) =
                start_binary_and_wait(program, &["--white", "human"], "Black to play");
            quit(session);
            times.push(t);
        }
        let (t, _) = start_and_wait(&["--version"], "crowned");
        version.push(t);
    }
    let baseline = median(version);
    let frames: Vec<Duration> = first_frame.into_iter().map(median).collect();
    println!(
        "start to first frame: {:.1} ms (median of 15); `crowned --version` in the same pty: {:.1} ms; \
         ratio {:.2}",
        frames[0].as_secs_f64() * 1e3,
        baseline.as_secs_f64() * 1e3,
        frames[0].as_secs_f64() / baseline.as_secs_f64()
    );
    if let (Some(other), Some(theirs)) = (&other, frames.get(1)) {
        println!(
            "start to first frame of {other}: {:.1} ms (median of 15); this build / that build: {:.2}",
            theirs.as_secs_f64() * 1e3,
            frames[0].as_secs_f64() / theirs.as_secs_f64()
        );
    }
}

/// Peak resident memory (VmHWM) of a process, in kB, from /proc.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn peak_memory() {
    // Engine against engine at full strength: the table, the search and the screen all in use.
    let (_, session) = start_and_wait(
        &["--black", "max", "--white", "max", "--time", "0.1"],
        "Moves",
    );
    thread::sleep(Duration::from_secs(8));
    let pid = session.child.process_id().unwrap_or(0);
    match peak_kb(pid) {
        Some(kb) => println!(
            "peak memory after 8 s of max against max: {:.1} MB",
            kb as f64 / 1024.0
        ),
        None => println!("peak memory: /proc not readable here"),
    }
    quit(session);
}

fn game_in_progress() -> App {
    let (mut app, _) = App::new(HUMANS);
    for mv in "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 6-10".split_whitespace() {
        let _ = app.update(Action::Submit(mv.into()));
    }
    app
}

/// Drawing the whole screen into a buffer (layout, board, history, status, input), no terminal output.
#[divan::bench(args = [(80, 24), (160, 50), (200, 60)])]
fn draw_frame(bencher: Bencher, (width, height): (u16, u16)) {
    let app = game_in_progress();
    let options = Options::default();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    bencher.bench_local(|| {
        terminal
            .draw(|f| ui::draw(f, &app, &options))
            .expect("draw")
            .area
    });
}

/// A cursor move as the terminal sees it: draw, compare with the last frame, encode the changed cells.
#[divan::bench]
fn cursor_move_to_terminal(bencher: Bencher) {
    let mut app = game_in_progress();
    let options = Options::default();
    let mut terminal = Terminal::with_options(
        CrosstermBackend::new(io::sink()),
        ratatui::TerminalOptions {
            viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, 80, 24)),
        },
    )
    .expect("terminal");
    let mut right = true;
    bencher.bench_local(|| {
        let _ = app.update(if right { Action::Right } else { Action::Left });
        right = !right;
        terminal
            .draw(|f| ui::draw(f, &app, &options))
            .expect("draw")
            .area
    });
}
