//! The pseudo-terminal harness of the end-to-end tests: the real binary in a pty, keystrokes in, the screen read
//! back through a terminal emulator (vt100).

// Each test file uses the part of the harness it needs.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

pub const ROWS: u16 = 24;
pub const COLS: u16 = 80;

/// What the program has drawn, and a signal raised each time more of it arrives, so that waiting for a text
/// returns as soon as it is shown (the start-up bench times with this).
pub struct Screen {
    parser: Mutex<vt100::Parser>,
    changed: Condvar,
}

impl Screen {
    fn new(rows: u16, cols: u16) -> Screen {
        Screen {
            parser: Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)),
            changed: Condvar::new(),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, vt100::Parser> {
        self.parser.lock().expect("screen lock")
    }

    fn process(&self, bytes: &[u8]) {
        self.lock().process(bytes);
        self.changed.notify_all();
    }
}

/// A running `crowned` and the screen it has drawn.
pub struct Session {
    pub child: Box<dyn Child + Send + Sync>,
    pub writer: Box<dyn Write + Send>,
    pub screen: Arc<Screen>,
    pub _master: Box<dyn MasterPty + Send>,
    /// A scratch home made for this session alone, removed with it.
    pub own_home: Option<PathBuf>,
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
pub fn temp_home(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("crowned-e2e-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Session {
    pub fn start(args: &[&str]) -> Session {
        let home = temp_home("session");
        let mut session = Session::start_in(&home, args);
        session.own_home = Some(home);
        session
    }

    pub fn start_in(home: &Path, args: &[&str]) -> Session {
        Session::start_program(env!("CARGO_BIN_EXE_crowned"), home, args)
    }

    /// Starts the binary at `program` (another build of crowned) with its files in `home`.
    pub fn start_program(program: &str, home: &Path, args: &[&str]) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(program);
        command.args(args);
        command.env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR");
        command.env("CROWNED_HOME", home);
        let child = pair.slave.spawn_command(command).expect("crowned starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let screen = Arc::new(Screen::new(ROWS, COLS));
        let feed = Arc::clone(&screen);
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                feed.process(&buf[..n]);
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

    pub fn contents(&self) -> String {
        self.screen.lock().screen().contents()
    }

    /// Waits until the screen shows `text`, returning as soon as it does; fails the test with the screen after
    /// 20 seconds.
    pub fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut guard = self.screen.lock();
        while !guard.screen().contents().contains(text) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "the screen never showed {text:?}:\n{}",
                guard.screen().contents()
            );
            guard = self
                .screen
                .changed
                .wait_timeout(guard, left)
                .expect("screen lock")
                .0;
        }
    }

    /// Waits until `text` is no longer on the screen.
    pub fn wait_gone(&self, text: &str) {
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

    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("keys flushed");
    }

    /// Esc on its own: a pause after it, or the terminal reads Esc and the next key as one escape sequence (as a
    /// real terminal would if they came together).
    pub fn escape(&mut self) {
        self.send("\x1b");
        thread::sleep(Duration::from_millis(150));
    }

    /// Sends `signal` to the program.
    pub fn signal(&self, signal: i32) {
        let pid = self.child.process_id().expect("pid") as i32;
        // SAFETY: kill(2) with a valid signal number has no memory effects.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits for the program to end; returns when it was seen to end and its exit code.
    pub fn wait_end(&mut self) -> (Instant, u32) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("child status") {
                let ended = Instant::now();
                // Let the reader take in the last bytes written.
                thread::sleep(Duration::from_millis(100));
                return (ended, status.exit_code());
            }
            thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        panic!("crowned did not end:\n{}", self.contents());
    }

    /// Waits for the program to end; returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        self.wait_end().1
    }

    /// The terminal is as it was before the game: main screen, cursor shown, no mouse reports, no bracketed
    /// paste.
    pub fn assert_restored(&self) {
        let guard = self.screen.lock();
        let screen = guard.screen();
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

pub fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a size above zero")
}

impl Session {
    /// Resizes the emulator and then the pty (which sends the program SIGWINCH).
    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.screen.lock().set_size(nz(rows), nz(cols));
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
