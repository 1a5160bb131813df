//! The real binary in a pseudo-terminal: keystrokes in, the screen read back through a terminal emulator
//! (vt100), and the terminal checked to be restored however the program ends.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// A running `crowned` and the screen it has drawn.
struct Session {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    screen: Arc<Mutex<vt100::Parser>>,
    _master: Box<dyn MasterPty + Send>,
    /// A scratch home made for this session alone, removed with it.
    own_home: Option<PathBuf>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        if let Some(home) = &self.own_home {
            let _ = std::fs::remove_dir_all(home);
        }
    }
}

/// A fresh directory for the program's files, so that tests never touch the real ones.
fn temp_home(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("crowned-e2e-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let home = temp_home("session");
        let mut session = Session::start_in(&home, args);
        session.own_home = Some(home);
        session
    }

    fn start_in(home: &Path, args: &[&str]) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_crowned"));
        command.args(args);
        command.env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR");
        command.env("CROWNED_HOME", home);
        let child = pair.slave.spawn_command(command).expect("crowned starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0)));
        let feed = Arc::clone(&screen);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                feed.lock().expect("screen lock").process(&buf[..n]);
            }
        });
        Session {
            child,
            writer,
            screen,
            _master: pair.master,
            own_home: None,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().expect("screen lock").screen().contents()
    }

    /// Waits until the screen shows `text`; fails the test with the screen after 20 seconds.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if self.contents().contains(text) {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("the screen never showed {text:?}:\n{}", self.contents());
    }

    /// Waits until `text` is no longer on the screen.
    fn wait_gone(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.contents().contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text:?} stayed:\n{}",
                self.contents()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("keys flushed");
    }

    /// Esc on its own: a pause after it, or the terminal reads Esc and the next key as one escape sequence (as a
    /// real terminal would if they came together).
    fn escape(&mut self) {
        self.send("\x1b");
        thread::sleep(Duration::from_millis(150));
    }

    /// Waits for the program to end; returns its exit code.
    fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("child status") {
                // Let the reader take in the last bytes written.
                thread::sleep(Duration::from_millis(100));
                return status.exit_code();
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("crowned did not end:\n{}", self.contents());
    }

    /// The terminal is as it was before the game: main screen, cursor shown, no mouse reports, no bracketed
    /// paste.
    fn assert_restored(&self) {
        let parser = self.screen.lock().expect("screen lock");
        let screen = parser.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "the cursor is still hidden");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse reports are still on"
        );
        assert!(!screen.bracketed_paste(), "bracketed paste is still on");
    }
}

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a size above zero")
}

impl Session {
    /// Resizes the emulator and then the pty (which sends the program SIGWINCH).
    fn resize(&mut self, rows: u16, cols: u16) {
        self.screen
            .lock()
            .expect("screen lock")
            .set_size(nz(rows), nz(cols));
        self._master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize");
    }
}

const UP: &str = "\x1b[A";
const RIGHT: &str = "\x1b[C";

#[test]
fn play_against_the_engine_and_quit_cleanly() {
    let mut s = Session::start(&["--black", "human", "--white", "random", "--time", "0.1"]);
    s.wait_for("Black to play");
    assert!(s.contents().contains("engine (random)"));
    // A typed move; the engine answers on its own thread and the turn comes back.
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.wait_for_reply();
    s.wait_for("Black to play");
    // Quitting a game in progress asks first.
    s.send("q");
    s.wait_for("press q again");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

impl Session {
    /// Waits until the engine's reply to 11-15 is in the move list; fails the test after 20 seconds (an engine
    /// that never answers has stalled).
    fn wait_for_reply(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !first_line_has_two_moves(&self.contents()) {
            assert!(
                Instant::now() < deadline,
                "no reply, the engine stalled:\n{}",
                self.contents()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

fn first_line_has_two_moves(screen: &str) -> bool {
    screen
        .lines()
        .filter_map(|line| line.split("1. 11-15").nth(1))
        .any(|rest| {
            rest.split_whitespace()
                .next()
                .is_some_and(|w| w.contains('-'))
        })
}

#[test]
fn move_by_cursor_browse_and_read_the_help() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("White to play");
    // The cursor starts on the middle one of White's movable men, 23; up (to 18, towards the middle) and right
    // is 19.
    s.send(" ");
    s.wait_for("23 selected");
    s.send(&format!("{UP}{RIGHT} "));
    s.wait_for("1. 11-15     23-19");
    s.wait_for("Black to play");
    // A wrong attempt changes nothing and says why.
    s.send("22-17\r");
    s.wait_for("no black piece on 22");
    s.escape();
    // Browse back and return.
    s.send("[");
    s.wait_for("after 1. 11-15");
    s.escape();
    s.wait_for("Black to play");
    // Undo takes back one move when both players are human; redo puts it back.
    s.send("u");
    s.wait_for("White to play");
    s.send("U");
    s.wait_for("Black to play");
    // Help opens and any key closes it.
    s.send("?");
    // At 80x24 the help is taller than the screen: it scrolls, and says so.
    s.wait_for("Up/Down scroll, other keys close");
    s.wait_for("move the cursor");
    s.send("\x1b[6~");
    s.wait_gone("move the cursor");
    s.wait_for("Commands:");
    s.send("x");
    s.wait_gone("other keys close");
    s.send("q");
    s.wait_for("press q again");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn sighup_and_sigterm_restore_the_terminal() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    // portable-pty's kill sends SIGHUP (what a dropped SSH connection sends), then SIGKILL if that fails.
    s.child.kill().expect("SIGHUP delivered");
    assert_eq!(s.wait_exit(), 128 + 1);
    s.assert_restored();

    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    let pid = s.child.process_id().expect("pid") as i32;
    // SAFETY: kill(2) with a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert_eq!(s.wait_exit(), 128 + 15);
    s.assert_restored();
}

#[test]
fn a_small_window_asks_to_be_enlarged_and_the_game_survives() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    // The pty shrinks; the program gets SIGWINCH and redraws.
    s.resize(10, 40);
    s.wait_for("Enlarge the window");
    s.resize(ROWS, COLS);
    s.wait_for("1. 11-15");
    s.wait_for("White to play");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn clicking_with_the_mouse_plays_a_move() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    // At 80x24 the squares are 5x2 cells from column 3, row 1; square 9 is on diagram row 2, column 1 and
    // square 13 on row 3, column 0. Clicks are sent as SGR mouse reports (1-based), press then release.
    s.send("\x1b[<0;9;6M\x1b[<0;9;6m");
    s.wait_for("9 selected");
    s.send("\x1b[<0;4;8M\x1b[<0;4;8m");
    s.wait_for("1. 9-13");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn a_killed_game_is_offered_again_and_resumes_every_move() {
    let home = temp_home("resume");
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Black to play");
    s.send("11-15\r23-19\r8-11\r");
    s.wait_for("2. 8-11");
    // Undo one move: the redo line and the current point must come back too.
    s.send("u");
    s.wait_for("Black to play");
    assert!(home.join("data/autosave.pdn").exists());
    let pid = s.child.process_id().expect("pid") as i32;
    // SAFETY: kill(2) with a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    let _ = s.wait_exit();

    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Resume?");
    s.wait_for("1 move played");
    s.send("y");
    s.wait_gone("Resume?");
    s.wait_for("1. 11-15     23-19");
    s.wait_for("Black to play");
    s.send("U");
    s.wait_for("2. 8-11");
    s.send(":save my game\r");
    s.wait_for("saved as");
    let named = home.join("data/games/my-game.pdn");
    let text = std::fs::read_to_string(&named).expect("saved under the name typed");
    assert!(text.contains("11-15 23-19 2. 8-11"), "{text}");
    std::fs::remove_file(named).expect("removed");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // Declining files the unfinished game and starts afresh.
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("Resume?");
    s.send("n");
    // Ctrl-c is acted on ahead of keys still waiting: the answer must have been taken first.
    s.wait_gone("Resume?");
    s.wait_for("no moves yet");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let filed: Vec<_> = std::fs::read_dir(home.join("data/games"))
        .expect("games filed")
        .filter_map(Result::ok)
        .collect();
    assert_eq!(filed.len(), 1);
    let text = std::fs::read_to_string(filed[0].path()).expect("readable");
    assert!(text.contains("11-15 23-19 2. 8-11"), "{text}");
    assert!(
        !home.join("data/autosave.pdn").exists(),
        "the new game has no moves yet"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_settings_file_is_followed_and_a_broken_one_is_reported() {
    let home = temp_home("settings");
    let settings = home.join("config/config.toml");
    std::fs::create_dir_all(home.join("config")).expect("config dir");
    std::fs::write(
        &settings,
        "[players]\nwhite = \"human\"\n[display]\nnotation = \"coordinates\"\n[game]\nautosave = false\n\
         [keys.board]\nundo = [\"x\"]\n",
    )
    .expect("settings written");
    let mut s = Session::start_in(&home, &[]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    // The move list writes coordinates; square numbers are still typed as ever.
    s.wait_for("1. f6-e5");
    s.wait_for("White to play");
    // u no longer undoes; x does.
    s.send("u");
    s.send("x");
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("White to play");
    assert!(
        !home.join("data/autosave.pdn").exists(),
        "nothing is saved with autosave off"
    );
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    assert!(!home.join("data").exists(), "no file was written at all");

    let broken = b"[players]\nwhite = \"human\"\n[engine]\ntime = -1\n";
    std::fs::write(&settings, broken).expect("settings written");
    let mut s = Session::start_in(&home, &[]);
    s.wait_for("config.toml: line 4: engine.time:");
    // The game runs on the defaults: the engine plays White.
    assert!(s.contents().contains("engine (medium)"), "{}", s.contents());
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    assert_eq!(
        std::fs::read(&settings).expect("still there"),
        broken,
        "the broken file is left as it was"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_pdn_file_with_an_illegal_move_is_replayed_up_to_it_and_continued() {
    let home = temp_home("replay");
    std::fs::create_dir_all(&home).expect("scratch home");
    let file = home.join("broken.pdn");
    std::fs::write(
        &file,
        "[Event \"Club night\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
         1. 11-15 23-19 2. 8-11 19-16 3. 12-16 *\n\n\
         [Event \"Second\"]\n[Black \"Cy\"]\n[White \"Di\"]\n[Result \"1-0\"]\n1. 9-13 22-18 1-0\n",
    )
    .expect("file written");
    let path = file.to_str().expect("a UTF-8 path");
    let mut s = Session::start_in(&home, &["--white", "human", path]);
    // Two games: a list to choose from, the broken one flagged.
    s.wait_for("broken.pdn (2 games)");
    s.wait_for("Ann");
    s.wait_for("! move 3 12-16");
    s.send("\r");
    s.wait_for("Moves · broken.pdn, game 1");
    s.wait_for("the record stops after 2... 19-16");
    // Step through to the end, where the error is shown again.
    s.send("\x1b[F");
    s.wait_for("The record stops here");
    s.wait_for("2. 8-11      19-16");
    // Back one move and continue from there as a new game between humans: White to move after 2. 8-11.
    s.send("\x1b[D");
    s.wait_for("after 2. 8-11 of 2 moves");
    s.send("c");
    s.wait_for("continuing broken.pdn, game 1 from after 2. 8-11");
    s.send("22-18\r");
    s.wait_for("22-18");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    // The continued game is the player's: it is in the autosave.
    let saved = std::fs::read_to_string(home.join("data/autosave.pdn")).expect("autosaved");
    assert!(saved.contains("8-11 22-18"), "{saved}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn undo_or_redo_with_nothing_to_do_never_stalls_the_engine() {
    // Playing Black: a move, then redo at once while White thinks. White still answers.
    let mut s = Session::start(&["--white", "max", "--time", "0.5"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.send("U");
    s.wait_for("nothing to redo");
    s.wait_for_reply();
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // Playing White: undo at the very start while Black thinks. Black still moves.
    let mut s = Session::start(&["--black", "max", "--white", "human", "--time", "0.5"]);
    s.wait_for("the engine (max) is thinking");
    s.send("u");
    s.wait_for("nothing to undo");
    s.wait_for("White to play");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn keys_do_nothing_while_the_window_is_too_small() {
    let mut s = Session::start(&["--white", "random"]);
    s.wait_for("Black to play");
    s.resize(14, 50);
    s.wait_for("Enlarge the window");
    // Typed blind, this would play a move and the engine would answer.
    s.send("11-15\r");
    s.send(" ");
    thread::sleep(Duration::from_millis(300));
    s.resize(ROWS, COLS);
    s.wait_for("Black to play");
    s.wait_for("no moves yet");
    // Ctrl-c still quits from the small screen.
    s.resize(14, 50);
    s.wait_for("Enlarge the window");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
}

#[test]
fn moves_step_along_their_path_and_a_key_ends_the_animation() {
    let home = temp_home("animation");
    // The longest step the settings allow, so that the steps can be seen from here.
    std::fs::create_dir_all(home.join("config")).expect("config dir");
    std::fs::write(
        home.join("config/config.toml"),
        "[display]\nanimation-step = 1.0\n",
    )
    .expect("settings written");
    let mut s = Session::start_in(&home, &["--white", "random"]);
    s.wait_for("Black to play");
    s.send("11-15\r");
    // The engine answers at once, but the board shows the player's move, then the engine's, a step at a time:
    // until the last step the move's end is not marked.
    s.wait_for_reply();
    assert!(
        !s.contents().contains('‹'),
        "the engine's move is still being shown:\n{}",
        s.contents()
    );
    s.wait_for("‹○›");
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);

    // A key shows the move at once: with a second a step, Esc ends the animation long before.
    let mut s = Session::start_in(&home, &["--white", "human"]);
    // The game left behind is offered first (one move each: "1 move played").
    s.wait_for("1 move played");
    s.send("n");
    s.wait_for("Black to play");
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    s.escape();
    let asked = Instant::now();
    s.wait_for("‹●›");
    assert!(
        asked.elapsed() < Duration::from_millis(900),
        "the key did not end the animation"
    );
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    s.assert_restored();
    let _ = std::fs::remove_dir_all(&home);
}

/// A bracketed paste of `size` bytes of move-like text, written on a thread of its own (the pty takes a few
/// kilobytes at a time, as fast as the program reads them). The thread gives the writer back when it is done.
fn paste_in_background(s: &mut Session, size: usize) -> thread::JoinHandle<Box<dyn Write + Send>> {
    let mut writer = std::mem::replace(&mut s.writer, Box::new(std::io::sink()));
    let body = "11-15 23-19 ".repeat(size / 12 + 1);
    thread::spawn(move || {
        // Errors are expected once the program has ended and the pty is gone.
        let _ = writer.write_all(b"\x1b[200~");
        let _ = writer.write_all(&body.as_bytes()[..size]);
        let _ = writer.write_all(b"\x1b[201~");
        let _ = writer.flush();
        writer
    })
}

/// Sends `signal` and returns how long the program took to end, with its exit code.
fn time_to_end(s: &mut Session, signal: i32) -> (Duration, u32) {
    let pid = s.child.process_id().expect("pid") as i32;
    let sent = Instant::now();
    // SAFETY: kill(2) with a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let deadline = sent + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Some(status) = s.child.try_wait().expect("child status") {
            let took = sent.elapsed();
            thread::sleep(Duration::from_millis(100));
            return (took, status.exit_code());
        }
        thread::sleep(Duration::from_millis(2));
    }
    panic!(
        "crowned did not end after signal {signal}:\n{}",
        s.contents()
    );
}

#[test]
fn a_megabyte_paste_is_refused_at_once_and_sigterm_still_ends_the_program() {
    let mut s = Session::start(&["--white", "human"]);
    s.wait_for("Black to play");
    s.send(":");
    let started = Instant::now();
    let paste = paste_in_background(&mut s, 1 << 20);
    s.wait_for("paste refused");
    eprintln!("1 MB paste refused after {:?}", started.elapsed());
    s.writer = paste.join().expect("paste written");
    // The game goes on: the box holds what was typed before the paste.
    s.escape();
    s.send("11-15\r");
    s.wait_for("1. 11-15");

    // A second paste, and SIGTERM while it is still arriving: the signal does not wait behind it.
    let _paste = paste_in_background(&mut s, 1 << 20);
    thread::sleep(Duration::from_millis(20));
    let (took, code) = time_to_end(&mut s, libc::SIGTERM);
    eprintln!("SIGTERM during a 1 MB paste: ended after {took:?}");
    assert_eq!(code, 128 + 15);
    // The goal is 200 ms; the bound leaves room for a loaded test machine.
    assert!(took < Duration::from_secs(2), "took {took:?}");
    s.assert_restored();
}

#[test]
fn two_programs_on_one_home_each_keep_their_own_game() {
    let home = temp_home("two");
    let mut first = Session::start_in(&home, &["--white", "human"]);
    first.wait_for("Black to play");
    first.send("11-15\r");
    first.wait_for("1. 11-15");

    // A second program while the first runs: the first one's game is not offered; it is told why.
    let mut second = Session::start_in(&home, &["--white", "human"]);
    second.wait_for("open in another crowned");
    assert!(!second.contents().contains("Resume?"));
    second.send("9-13\r");
    second.wait_for("1. 9-13");
    // Both go on, each saving its own game.
    first.send("23-19\r");
    first.wait_for("1. 11-15     23-19");

    // The first dies without a word: its lock dies with it, and its game is offered to the next program.
    let pid = first.child.process_id().expect("pid") as i32;
    // SAFETY: kill(2) with a valid signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    let _ = first.wait_exit();
    let mut third = Session::start_in(&home, &["--white", "human"]);
    third.wait_for("Resume?");
    third.send("y");
    third.wait_for("1. 11-15     23-19");
    third.wait_for("Black to play");

    // The second quits; a fourth program gets its game back, move for move.
    second.send("\x03");
    assert_eq!(second.wait_exit(), 0);
    let mut fourth = Session::start_in(&home, &["--white", "human"]);
    fourth.wait_for("Resume?");
    fourth.send("y");
    fourth.wait_for("1. 9-13");
    fourth.wait_for("White to play");

    for s in [&mut third, &mut fourth] {
        s.send("\x03");
        assert_eq!(s.wait_exit(), 0);
        s.assert_restored();
    }
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn an_unreadable_autosave_is_moved_aside_and_the_new_game_still_saved() {
    let home = temp_home("unreadable");
    std::fs::create_dir_all(home.join("data")).expect("made");
    std::fs::write(home.join("data/autosave.pdn"), b"\xff\xfe\x00 broken").expect("written");
    let mut s = Session::start_in(&home, &["--white", "human"]);
    s.wait_for("kept as");
    let kept = home.join("data/autosave-unreadable.pdn");
    assert_eq!(
        std::fs::read(&kept).expect("moved aside, bytes intact"),
        b"\xff\xfe\x00 broken"
    );
    s.send("11-15\r");
    s.wait_for("1. 11-15");
    // The new game is protected as usual.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !home.join("data/autosave.pdn").exists() {
        assert!(
            Instant::now() < deadline,
            "the new game was never autosaved"
        );
        thread::sleep(Duration::from_millis(20));
    }
    s.send("\x03");
    assert_eq!(s.wait_exit(), 0);
    let _ = std::fs::remove_dir_all(&home);
}
