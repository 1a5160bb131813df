//! The contexts keys are looked up in: where the focus is decides which bindings apply.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{KeyCode, Modifiers};

use super::KeyChord;

/// Where the keys go. Each context has bindings of its own, so the same key can mean different things in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    /// The board has the focus.
    Board,
    /// The move list has the focus; keys it does not bind keep their board meaning.
    History,
    /// The new-game dialog is open.
    Dialog,
    /// A position is being set up; keys it does not bind keep their board meaning.
    Setup,
    /// A list of games is open.
    List,
    /// A game from a file is being replayed; keys it does not bind keep their board or move-list meaning.
    Replay,
    /// The lobby of a server: what to play, join or watch.
    Lobby,
    /// A tournament's screen on a server: its table and pairings, between boards.
    Event,
}

impl Context {
    /// Every context, in the order the settings list them.
    pub const ALL: [Context; 8] = [
        Context::Board,
        Context::History,
        Context::Dialog,
        Context::Setup,
        Context::List,
        Context::Replay,
        Context::Lobby,
        Context::Event,
    ];

    /// The name in the settings (`[keys.board]`).
    pub fn name(self) -> &'static str {
        match self {
            Context::Board => "board",
            Context::History => "history",
            Context::Dialog => "dialog",
            Context::Setup => "setup",
            Context::List => "list",
            Context::Replay => "replay",
            Context::Lobby => "lobby",
            Context::Event => "event",
        }
    }

    /// Whether `c` starts typing here (digits and `:` on the board, `:` alone when setting up), before any
    /// binding is looked at.
    pub fn types(self, c: char) -> bool {
        match self {
            Context::Board | Context::History | Context::Replay => starts_typing(c),
            Context::Setup => c == ':',
            Context::Dialog | Context::List | Context::Lobby | Context::Event => false,
        }
    }

    /// Why `key` cannot be bound in this context, if it cannot.
    pub fn reserved(self, key: KeyChord) -> Option<&'static str> {
        if key == KeyChord::new(KeyCode::Char('c'), Modifiers::CONTROL) {
            return Some("Ctrl-c always quits at once");
        }
        match key.code() {
            KeyCode::Char(c) if key.modifiers().is_empty() && self.types(c) => {
                Some("digits and : start typing a move or a command")
            }
            _ => None,
        }
    }
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Context {
    type Err = UnknownContext;

    fn from_str(s: &str) -> Result<Context, UnknownContext> {
        Context::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| UnknownContext(s.to_string()))
    }
}

/// A context name that is not one of the contexts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "there are no {0:?} keys: the key contexts are board, history, dialog, setup, list, replay and \
     lobby"
)]
pub struct UnknownContext(pub String);

/// Keys that type into the input box on the board instead of being looked up.
fn starts_typing(c: char) -> bool {
    c.is_ascii_digit() || c == ':'
}
