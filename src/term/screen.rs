//! Taking over the terminal and always giving it back: raw mode, the alternate screen, a hidden cursor, mouse
//! reports and bracketed paste are switched on by [`ScreenGuard::enter`] and off again when the guard is dropped,
//! when any thread panics, and (through the event loop) on SIGTERM, SIGHUP, SIGINT and SIGQUIT.
//!
//! Nothing here asks the terminal a question and waits for the answer, so a terminal (or an SSH client) that
//! does not answer queries never stalls the program.

use std::io::{self, Write};
use std::sync::Once;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// The terminal in full-screen mode while this lives.
pub struct ScreenGuard {
    _private: (),
}

impl ScreenGuard {
    /// Switches the terminal to full-screen raw mode, with mouse reports and bracketed paste. If any step fails,
    /// what was done is undone before the error is returned.
    pub fn enter() -> io::Result<ScreenGuard> {
        install_panic_hook();
        enable_raw_mode()?;
        let guard = ScreenGuard { _private: () };
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            Hide,
            EnableMouseCapture,
            EnableBracketedPaste
        )?;
        Ok(guard)
    }
}

impl Drop for ScreenGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Puts the terminal back as it was. Safe to call more than once; errors are ignored because this runs on the
/// way out (a dropped SSH connection makes every write fail, and there is nothing better to do then).
pub fn restore() {
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show
    );
    let _ = out.flush();
    let _ = disable_raw_mode();
}

/// Restores the terminal before a panic's message is printed, so the message is readable and the shell usable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
