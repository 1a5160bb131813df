//! Progress bars for long-running commands, drawn on stderr only when stderr is a terminal.
//!
//! Scripts, pipes and log files see exactly the lines they saw before: when stderr is not a terminal there is no
//! bar at all, and [`TerminalProgress::line`] prints plain lines. On a terminal the lines are printed above the bar, so
//! the bar stays at the bottom and is removed when the work ends.

use std::borrow::Cow;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A count of work done towards a known total, shown as a bar when a person is watching.
pub struct TerminalProgress {
    bar: Option<ProgressBar>,
}

impl TerminalProgress {
    /// A bar of `total` steps labelled `what` (such as "games"), on stderr if stderr is a terminal; otherwise
    /// nothing is drawn.
    pub fn on_terminal(total: u64, what: &str) -> TerminalProgress {
        TerminalProgress::when_terminal(
            total,
            format!("{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} {{msg}}"),
        )
    }

    /// A bar of `total` bytes (shown as `1.2 MiB/57.0 MiB`), on stderr if stderr is a terminal.
    pub fn bytes_on_terminal(total: u64) -> TerminalProgress {
        TerminalProgress::when_terminal(
            total,
            "{elapsed_precise} [{wide_bar}] {binary_bytes}/{binary_total_bytes} {msg}".into(),
        )
    }

    /// A bar in this template when stderr is a terminal; nothing otherwise.
    fn when_terminal(total: u64, template: String) -> TerminalProgress {
        if std::io::stderr().is_terminal() {
            TerminalProgress::drawn(total, template)
        } else {
            TerminalProgress { bar: None }
        }
    }

    fn drawn(total: u64, template: String) -> TerminalProgress {
        // The template is a constant, so it always parses; should it not, a bar without a template is still
        // a bar.
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        TerminalProgress {
            bar: Some(ProgressBar::new(total).with_style(style)),
        }
    }

    /// Sets how many steps are done.
    pub fn set_done(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Sets the words after the count, such as the score so far.
    pub fn set_message(&self, message: impl Into<Cow<'static, str>>) {
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        }
    }

    /// Prints a line on stderr: above the bar when there is one, as a plain line otherwise.
    pub fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Runs `f` with the bar taken off the screen, for output to stdout that shares the terminal with it.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar from the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for TerminalProgress {
    fn drop(&mut self) {
        // A bar left behind by an early return (an error) would stay on the screen above the shell prompt.
        self.finish();
    }
}
