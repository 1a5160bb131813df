//! The key map: which action a key press means, given where the focus is.
//!
//! Every command a key can be bound to is one row of [`KEY_COMMANDS`]: the context it belongs to, its name in
//! the settings, the action it stands for, its default keys and its line in the help. A [`KeyMap`] holds the keys
//! actually bound (the defaults, or what the settings' `[keys.<context>]` tables say), and the help overlay is
//! made from it, so that the help shows the keys that work.
//!
//! [`action_for_key`] looks a key up in a list of contexts chosen from the app's state, first to last, so a
//! context can lend the keys it does not bind itself to another (the move list keeps the board's). Adding a
//! command takes a row of [`KEY_COMMANDS`] and its line in `config/default.toml`; adding a context takes a
//! variant of [`Context`] (its name, whether digits type there), its rows, its `[keys.<name>]` table, and its place
//! in that list.
//!
//! A few keys are fixed on purpose and cannot be bound: digits and `:` start typing a move or a command, Ctrl-c
//! leaves at once from anywhere, the resume question takes y / n, and the input box keeps its editing keys.
//!
//! Keys arrive as crossterm events, the form every input source here (a local terminal, tests, later an SSH
//! channel) can produce.

use std::fmt;
use std::str::FromStr;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use thiserror::Error;
use tui_input::InputRequest;
use tui_input::backend::crossterm::to_input_request;

use super::state::{Action, App, Focus, Mode, SetupAction};
use crate::rules::{Color, Piece, Role};

/// Where the keys go. Each context has bindings of its own, so the same key can mean different things in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    /// The board has the focus.
    Board,
    /// The move list has the focus; keys it does not bind keep their board meaning (see [`action_for_key`]).
    History,
    /// The new-game dialog is open.
    Dialog,
    /// A position is being set up; keys it does not bind keep their board meaning.
    Setup,
    /// A list of games is open.
    List,
    /// A game from a file is being replayed; keys it does not bind keep their board or move-list meaning.
    Replay,
}

impl Context {
    /// Every context, in the order the settings list them.
    pub const ALL: [Context; 6] = [
        Context::Board,
        Context::History,
        Context::Dialog,
        Context::Setup,
        Context::List,
        Context::Replay,
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
        }
    }

    /// Whether `c` starts typing here (digits and `:` on the board, `:` alone when setting up), before any
    /// binding is looked at.
    pub fn types(self, c: char) -> bool {
        match self {
            Context::Board | Context::History | Context::Replay => starts_typing(c),
            Context::Setup => c == ':',
            Context::Dialog | Context::List => false,
        }
    }

    /// Why `key` cannot be bound in this context, if it cannot.
    pub fn reserved(self, key: KeyChord) -> Option<&'static str> {
        if key == KeyChord::new(KeyCode::Char('c'), KeyModifiers::CONTROL) {
            return Some("Ctrl-c always quits at once");
        }
        match key.code {
            KeyCode::Char(c) if key.modifiers.is_empty() && self.types(c) => {
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
    "there are no {0:?} keys: the key contexts are board, history, dialog, setup, list and replay"
)]
pub struct UnknownContext(pub String);

/// Keys that type into the input box on the board instead of being looked up.
fn starts_typing(c: char) -> bool {
    c.is_ascii_digit() || c == ':'
}

/// One key with its modifiers, as bound in the settings (`"u"`, `"Ctrl-r"`, `"PageUp"`, `"F1"`).
///
/// Shift is part of a character (`"U"` is Shift-u), so it is only written with keys that are not characters
/// (`"Shift-Up"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyChord {
    code: KeyCode,
    modifiers: KeyModifiers,
}

/// Why a key name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BadKey {
    /// Nothing was written.
    #[error("a key name is empty")]
    Empty,
    /// Not a key this program knows.
    #[error(
        "{0:?} is not a key: write a character (\"u\", \"?\") or a key name such as Space, Enter, Esc, Tab, \
         BackTab, Backspace, Delete, Insert, Home, End, PageUp, PageDown, Up, Down, Left, Right or F1 to F24, \
         with Ctrl-, Alt- or Shift- before it if needed"
    )]
    Unknown(String),
    /// Shift written with a character.
    #[error(
        "{0:?}: Shift is part of a character; write the character itself (\"U\", not \"Shift-u\")"
    )]
    ShiftedCharacter(String),
    /// A control character, which no key sends as itself.
    #[error("{0:?} contains a control character; write its key name instead (Tab, Enter)")]
    ControlCharacter(String),
}

/// Named keys: the name written and shown, then the key.
const NAMED_KEYS: &[(&str, KeyCode)] = &[
    ("Space", KeyCode::Char(' ')),
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("BackTab", KeyCode::BackTab),
    ("Backspace", KeyCode::Backspace),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
];

/// Other spellings people write for named keys.
const KEY_ALIASES: &[(&str, KeyCode)] = &[
    ("Return", KeyCode::Enter),
    ("Escape", KeyCode::Esc),
    ("Del", KeyCode::Delete),
    ("Ins", KeyCode::Insert),
    ("PgUp", KeyCode::PageUp),
    ("PgDn", KeyCode::PageDown),
    ("PageDn", KeyCode::PageDown),
];

/// The highest function key that can be bound.
const MAX_F_KEY: u8 = 24;

impl KeyChord {
    /// A key with modifiers, normalised as key presses are.
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyChord {
        let mut modifiers =
            modifiers.intersection(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        // Terminals differ on whether they report Shift with a character or BackTab; the key is the same.
        if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
            modifiers.remove(KeyModifiers::SHIFT);
        }
        KeyChord { code, modifiers }
    }

    /// The key without modifiers.
    pub fn code(self) -> KeyCode {
        self.code
    }

    /// Its modifiers (Control, Alt, and Shift for keys that are not characters).
    pub fn modifiers(self) -> KeyModifiers {
        self.modifiers
    }
}

impl From<KeyEvent> for KeyChord {
    fn from(key: KeyEvent) -> KeyChord {
        KeyChord::new(key.code, key.modifiers)
    }
}

impl FromStr for KeyChord {
    type Err = BadKey;

    fn from_str(text: &str) -> Result<KeyChord, BadKey> {
        if text.is_empty() {
            return Err(BadKey::Empty);
        }
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = text;
        // Modifiers come first; a lone "-" after them is the minus key ("Ctrl--").
        while let Some((word, after)) = rest.split_once('-') {
            let modifier = match word.to_ascii_lowercase().as_str() {
                "ctrl" | "control" | "c" => KeyModifiers::CONTROL,
                "alt" | "meta" | "m" => KeyModifiers::ALT,
                "shift" | "s" => KeyModifiers::SHIFT,
                _ => break,
            };
            if after.is_empty() {
                break;
            }
            modifiers |= modifier;
            rest = after;
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_control() => {
                return Err(BadKey::ControlCharacter(text.to_string()));
            }
            (Some(c), None) => {
                if modifiers.contains(KeyModifiers::SHIFT) {
                    return Err(BadKey::ShiftedCharacter(text.to_string()));
                }
                KeyCode::Char(c)
            }
            _ => named_key(rest).ok_or_else(|| BadKey::Unknown(text.to_string()))?,
        };
        // Shift-Tab is what terminals send as BackTab.
        let code = match code {
            KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            other => other,
        };
        Ok(KeyChord::new(code, modifiers))
    }
}

fn named_key(name: &str) -> Option<KeyCode> {
    let known = NAMED_KEYS
        .iter()
        .chain(KEY_ALIASES)
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, code)| code);
    known.or_else(|| {
        let number = name.strip_prefix(['F', 'f'])?;
        // Only plain decimal numbers: "F01" and "F+1" are not key names.
        if number.starts_with('0') || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u8 = number.parse().ok()?;
        (1..=MAX_F_KEY).contains(&n).then_some(KeyCode::F(n))
    })
}

impl fmt::Display for KeyChord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (modifier, word) in [
            (KeyModifiers::CONTROL, "Ctrl-"),
            (KeyModifiers::ALT, "Alt-"),
            (KeyModifiers::SHIFT, "Shift-"),
        ] {
            if self.modifiers.contains(modifier) {
                f.write_str(word)?;
            }
        }
        if let Some((name, _)) = NAMED_KEYS.iter().find(|(_, code)| *code == self.code) {
            return f.write_str(name);
        }
        match self.code {
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            // Keys outside the named ones cannot be written in the settings, so cannot be bound; shown as crossterm
            // names them all the same.
            other => write!(f, "{other}"),
        }
    }
}

/// A command keys can be bound to: one row of [`KEY_COMMANDS`].
#[derive(Debug)]
pub struct KeyCommand {
    /// Where its keys work.
    pub context: Context,
    /// Its name in the settings, unique in its context (`undo` in `[keys.board]`).
    pub name: &'static str,
    /// What it does.
    pub action: Action,
    /// The keys bound to it unless the settings say otherwise (the built-in settings file lists the same).
    pub keys: &'static [&'static str],
    /// Its line in the help; rows of a context next to each other with the same text share a line, and an
    /// empty text is left out of the help.
    pub help: &'static str,
}

const fn command(
    context: Context,
    name: &'static str,
    action: Action,
    keys: &'static [&'static str],
    help: &'static str,
) -> KeyCommand {
    KeyCommand {
        context,
        name,
        action,
        keys,
        help,
    }
}

use Context::{Board, Dialog, History, List, Replay, Setup};

const fn put(color: Color, role: Role) -> Action {
    Action::Setup(SetupAction::Put(Piece::new(color, role)))
}

/// Every command keys can be bound to. Adding one takes a row here and its line in `config/default.toml`.
pub static KEY_COMMANDS: &[KeyCommand] = &[
    // The cursor keys in vi's order, so that the help reads "h j k l".
    command(
        Board,
        "left",
        Action::Left,
        &["Left", "h"],
        "move the cursor",
    ),
    command(
        Board,
        "down",
        Action::Down,
        &["Down", "j"],
        "move the cursor",
    ),
    command(Board, "up", Action::Up, &["Up", "k"], "move the cursor"),
    command(
        Board,
        "right",
        Action::Right,
        &["Right", "l"],
        "move the cursor",
    ),
    command(
        Board,
        "pick",
        Action::PickAtCursor,
        &["Space", "Enter"],
        "pick up a piece / put it down",
    ),
    command(
        Board,
        "cancel",
        Action::Cancel,
        &["Esc"],
        "drop the selection, stop browsing, close",
    ),
    command(
        Board,
        "type-coordinates",
        Action::StartTyping,
        &["i"],
        "type a move in coordinates (c3-d4)",
    ),
    command(
        Board,
        "undo",
        Action::Undo,
        &["u"],
        "undo (a whole turn against the engine)",
    ),
    command(Board, "redo", Action::Redo, &["U", "Ctrl-r"], "redo"),
    command(
        Board,
        "back",
        Action::BrowseBack,
        &["["],
        "step back / forward through the game",
    ),
    command(
        Board,
        "forward",
        Action::BrowseForward,
        &["]"],
        "step back / forward through the game",
    ),
    command(
        Board,
        "first",
        Action::BrowseFirst,
        &["Home"],
        "the start / the live position",
    ),
    command(
        Board,
        "last",
        Action::BrowseLast,
        &["End"],
        "the start / the live position",
    ),
    command(
        Board,
        "history",
        Action::ToggleHistoryFocus,
        &["Tab", "BackTab"],
        "focus the move list (the cursor keys step)",
    ),
    command(
        Board,
        "move-now",
        Action::MoveNow,
        &["m"],
        "make the engine move now",
    ),
    command(Board, "flip", Action::Flip, &["f"], "flip the board"),
    command(
        Board,
        "new-game",
        Action::NewGame,
        &["n"],
        "new game: choose the players",
    ),
    command(
        Board,
        "setup",
        Action::Setup(SetupAction::Open),
        &["s"],
        "set up a position",
    ),
    command(
        Board,
        "load",
        Action::Load,
        &["o"],
        "open a saved game (:load)",
    ),
    command(
        Board,
        "rematch",
        Action::Rematch,
        &["r"],
        "rematch with colours swapped (game over)",
    ),
    command(
        Board,
        "pause",
        Action::Pause,
        &["p"],
        "hold the engine / let it go on",
    ),
    command(
        Board,
        "save",
        Action::Save,
        &["S"],
        "save the game (:save [name] names it)",
    ),
    command(Board, "help", Action::ToggleHelp, &["?"], "this help"),
    command(
        Board,
        "quit",
        Action::Quit,
        &["q"],
        "quit (asks first during a game)",
    ),
    command(
        History,
        "first",
        Action::BrowseFirst,
        &["g"],
        "in the move list: the start / the end",
    ),
    command(
        History,
        "last",
        Action::BrowseLast,
        &["G"],
        "in the move list: the start / the end",
    ),
    // The dialog shows its own hints.
    command(Dialog, "left", Action::Left, &["Left", "h"], ""),
    command(
        Dialog,
        "down",
        Action::Down,
        &["Down", "j", "Tab", "BackTab"],
        "",
    ),
    command(Dialog, "up", Action::Up, &["Up", "k"], ""),
    command(Dialog, "right", Action::Right, &["Right", "l"], ""),
    command(
        Dialog,
        "pick",
        Action::PickAtCursor,
        &["Enter", "Space"],
        "",
    ),
    command(Dialog, "cancel", Action::Cancel, &["Esc", "q"], ""),
    command(
        Dialog,
        "setup",
        Action::Setup(SetupAction::Open),
        &["s"],
        "",
    ),
    // The setup panel lists these beside the board.
    command(
        Setup,
        "black-man",
        put(Color::Black, Role::Man),
        &["b"],
        "black / white man",
    ),
    command(
        Setup,
        "white-man",
        put(Color::White, Role::Man),
        &["w"],
        "black / white man",
    ),
    command(
        Setup,
        "black-king",
        put(Color::Black, Role::King),
        &["B"],
        "black / white king",
    ),
    command(
        Setup,
        "white-king",
        put(Color::White, Role::King),
        &["W"],
        "black / white king",
    ),
    command(
        Setup,
        "remove",
        Action::Setup(SetupAction::Remove),
        &["x", "Delete", "Backspace"],
        "empty the square",
    ),
    command(
        Setup,
        "cycle",
        Action::Setup(SetupAction::Cycle),
        &["Space"],
        "next piece on the square",
    ),
    command(
        Setup,
        "clear",
        Action::Setup(SetupAction::Clear),
        &["c"],
        "clear the board",
    ),
    command(
        Setup,
        "standard",
        Action::Setup(SetupAction::Standard),
        &["r"],
        "the standard start",
    ),
    command(
        Setup,
        "side",
        Action::Setup(SetupAction::SwitchSide),
        &["t"],
        "the other side to move",
    ),
    command(
        Setup,
        "black-player",
        Action::Setup(SetupAction::CyclePlayer(Color::Black)),
        &["1"],
        "who plays Black / White",
    ),
    command(
        Setup,
        "white-player",
        Action::Setup(SetupAction::CyclePlayer(Color::White)),
        &["2"],
        "who plays Black / White",
    ),
    command(
        Setup,
        "start",
        Action::Setup(SetupAction::Start),
        &["Enter"],
        "start the game",
    ),
    command(
        Setup,
        "cancel",
        Action::Cancel,
        &["Esc"],
        "back to the game",
    ),
    // The list shows its own hints.
    command(List, "up", Action::Up, &["Up", "k"], ""),
    command(List, "down", Action::Down, &["Down", "j"], ""),
    command(List, "page-up", Action::ListStep(-10), &["PageUp"], ""),
    command(List, "page-down", Action::ListStep(10), &["PageDown"], ""),
    command(List, "first", Action::BrowseFirst, &["Home", "g"], ""),
    command(List, "last", Action::BrowseLast, &["End", "G"], ""),
    command(List, "open", Action::PickAtCursor, &["Enter", "Space"], ""),
    command(List, "cancel", Action::Cancel, &["Esc", "q"], ""),
    command(
        Replay,
        "play",
        Action::AutoPlay,
        &["p"],
        "replaying: play back / pause",
    ),
    command(
        Replay,
        "faster",
        Action::Speed(true),
        &["+"],
        "replaying: faster / slower",
    ),
    command(
        Replay,
        "slower",
        Action::Speed(false),
        &["-"],
        "replaying: faster / slower",
    ),
    command(
        Replay,
        "continue",
        Action::Continue,
        &["c"],
        "replaying: continue from here as a new game",
    ),
];

/// Keys that cannot be bound, as the help lists them after the bound ones.
pub const FIXED_KEYS: &[(&str, &str)] = &[
    ("0-9, :", "type a move (11-15, 22x15) or a :command"),
    ("Ctrl-c", "quit at once"),
    ("mouse", "click a piece, then its destination"),
];

/// What is wrong with a binding.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KeyMapError {
    /// No command of that name in the context.
    #[error("there is no {context} command {name:?}; the {context} commands are {}", command_names(*.context))]
    UnknownCommand {
        /// The context.
        context: Context,
        /// The name given.
        name: String,
    },
    /// A key that cannot be bound there.
    #[error("{key} cannot be bound: {reason}")]
    Reserved {
        /// The key.
        key: KeyChord,
        /// Why not.
        reason: &'static str,
    },
    /// One key for two commands of a context.
    #[error("{key} is bound to both {first} and {second} in the {context} keys")]
    Conflict {
        /// The context.
        context: Context,
        /// The key.
        key: KeyChord,
        /// The command listed first.
        first: &'static str,
        /// The other command.
        second: &'static str,
    },
}

fn command_names(context: Context) -> String {
    KEY_COMMANDS
        .iter()
        .filter(|c| c.context == context)
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The keys bound to every command of [`KEY_COMMANDS`]. The default is the table's own keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMap {
    /// The keys of each row of the table, in the same order.
    keys: Vec<Vec<KeyChord>>,
}

impl Default for KeyMap {
    fn default() -> KeyMap {
        KeyMap {
            // The table's keys all parse (a test checks), so nothing is dropped here.
            keys: KEY_COMMANDS
                .iter()
                .map(|c| c.keys.iter().filter_map(|k| k.parse().ok()).collect())
                .collect(),
        }
    }
}

impl KeyMap {
    /// A map with no key bound to anything: the start for a complete list of bindings.
    pub fn unbound() -> KeyMap {
        KeyMap {
            keys: vec![Vec::new(); KEY_COMMANDS.len()],
        }
    }

    fn index(context: Context, name: &str) -> Result<usize, KeyMapError> {
        KEY_COMMANDS
            .iter()
            .position(|c| c.context == context && c.name == name)
            .ok_or_else(|| KeyMapError::UnknownCommand {
                context,
                name: name.to_string(),
            })
    }

    /// Binds `keys` to a command, replacing the keys it had. A key repeated in the list counts once; an empty
    /// list leaves the command without a key. Another command of the context may still have one of the keys:
    /// [`KeyMap::check`] finds that once every binding is made.
    pub fn bind(
        &mut self,
        context: Context,
        name: &str,
        keys: &[KeyChord],
    ) -> Result<(), KeyMapError> {
        let index = KeyMap::index(context, name)?;
        if let Some(&key) = keys.iter().find(|&&k| context.reserved(k).is_some()) {
            let reason = context.reserved(key).unwrap_or_default();
            return Err(KeyMapError::Reserved { key, reason });
        }
        let mut unique: Vec<KeyChord> = Vec::with_capacity(keys.len());
        for &key in keys {
            if !unique.contains(&key) {
                unique.push(key);
            }
        }
        self.keys[index] = unique;
        Ok(())
    }

    /// The keys bound to a command, or `None` if the context has no such command.
    pub fn keys(&self, context: Context, name: &str) -> Option<&[KeyChord]> {
        KeyMap::index(context, name)
            .ok()
            .map(|i| self.keys[i].as_slice())
    }

    /// The first key bound to a command, for hints.
    pub fn first_key(&self, context: Context, name: &str) -> Option<KeyChord> {
        self.keys(context, name)
            .and_then(|keys| keys.first().copied())
    }

    /// Every command of a context with its keys, in the table's order.
    pub fn bindings(
        &self,
        context: Context,
    ) -> impl Iterator<Item = (&'static KeyCommand, &[KeyChord])> {
        KEY_COMMANDS
            .iter()
            .zip(&self.keys)
            .filter(move |(c, _)| c.context == context)
            .map(|(c, keys)| (c, keys.as_slice()))
    }

    /// Finds a key bound to two commands of one context; the first found is reported.
    pub fn check(&self) -> Result<(), KeyMapError> {
        for context in Context::ALL {
            let bound: Vec<_> = self.bindings(context).collect();
            for (i, (first, keys)) in bound.iter().enumerate() {
                for (second, other_keys) in &bound[i + 1..] {
                    if let Some(&key) = keys.iter().find(|k| other_keys.contains(k)) {
                        return Err(KeyMapError::Conflict {
                            context,
                            key,
                            first: first.name,
                            second: second.name,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The command a key is bound to in a context (its own bindings only).
    pub fn command_for(&self, context: Context, key: KeyChord) -> Option<&'static KeyCommand> {
        self.bindings(context)
            .find(|(_, keys)| keys.contains(&key))
            .map(|(c, _)| c)
    }

    /// The help's lines for a context: the keys, then what they do.
    pub fn help(&self, context: Context) -> Vec<(String, &'static str)> {
        let mut lines: Vec<(String, &'static str)> = Vec::new();
        let mut group: Vec<&[KeyChord]> = Vec::new();
        let mut commands = self.bindings(context).filter(|(c, _)| !c.help.is_empty());
        let mut next = commands.next();
        while let Some((command, keys)) = next {
            group.push(keys);
            next = commands.next();
            if next.is_none_or(|(c, _)| c.help != command.help) {
                if let Some(keys) = group_keys(&group) {
                    lines.push((keys, command.help));
                }
                group.clear();
            }
        }
        lines
    }
}

/// The keys of commands that share a help line. When each has as many keys, they are shown side by side
/// (`[ ]`, `U, Ctrl-r`, `arrows, h j k l`); otherwise each command's keys are joined by `/`. `None` when no key
/// is bound at all.
fn group_keys(group: &[&[KeyChord]]) -> Option<String> {
    if group.iter().all(|keys| keys.is_empty()) {
        return None;
    }
    let count = group[0].len();
    if group.iter().all(|keys| keys.len() == count) {
        let columns: Vec<String> = (0..count)
            .map(|i| {
                let column: Vec<KeyChord> = group.iter().map(|keys| keys[i]).collect();
                if is_arrows(&column) {
                    "arrows".to_string()
                } else {
                    join(&column, " ")
                }
            })
            .collect();
        return Some(columns.join(", "));
    }
    let each: Vec<String> = group
        .iter()
        .map(|keys| {
            if keys.is_empty() {
                "-".to_string()
            } else {
                join(keys, "/")
            }
        })
        .collect();
    Some(each.join(" "))
}

fn is_arrows(keys: &[KeyChord]) -> bool {
    let arrows = [KeyCode::Left, KeyCode::Down, KeyCode::Up, KeyCode::Right];
    keys.len() == arrows.len()
        && arrows.iter().all(|&code| {
            keys.iter()
                .any(|k| k.code == code && k.modifiers.is_empty())
        })
}

fn join(keys: &[KeyChord], separator: &str) -> String {
    keys.iter()
        .map(KeyChord::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// Every line of the help overlay: the board's keys, the move list's, then the fixed ones.
pub fn key_help(keys: &KeyMap) -> Vec<(String, &'static str)> {
    let mut lines = keys.help(Context::Board);
    lines.extend(keys.help(Context::History));
    lines.extend(keys.help(Context::Replay));
    lines.extend(
        FIXED_KEYS
            .iter()
            .map(|&(keys, what)| (keys.to_string(), what)),
    );
    lines
}

/// The action a key press stands for, or `None` if it means nothing here.
pub fn action_for_key(app: &App, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    if control && key.code == KeyCode::Char('c') {
        return Some(Action::Interrupt);
    }
    if app.resume_offer().is_some() {
        return match (key.code, plain_char(key)) {
            (KeyCode::Enter, _) | (_, Some('y' | 'Y' | ' ')) => Some(Action::AcceptResume),
            (KeyCode::Esc, _) | (_, Some('n' | 'N')) => Some(Action::DeclineResume),
            _ => None,
        };
    }
    if app.help_open() {
        // The arrow keys and PgUp/PgDn scroll the help; any other key closes it.
        return Some(match key.code {
            KeyCode::Up => Action::ScrollHelp(-1),
            KeyCode::Down => Action::ScrollHelp(1),
            KeyCode::PageUp => Action::ScrollHelp(-10),
            KeyCode::PageDown => Action::ScrollHelp(10),
            _ => Action::ToggleHelp,
        });
    }
    if app.question().is_some() {
        // A yes/no question: y or n (Esc is no); help still opens, other keys leave the question on screen.
        return match (key.code, plain_char(key)) {
            (_, Some('y' | 'Y')) => Some(Action::Answer(true)),
            (KeyCode::Esc, _) | (_, Some('n' | 'N')) => Some(Action::Answer(false)),
            (_, Some('?')) => Some(Action::ToggleHelp),
            _ => None,
        };
    }
    // The contexts a key is looked up in, first to last: the move list keeps the board's keys it does not bind.
    let contexts: &[Context] = if app.dialog().is_some() {
        &[Context::Dialog]
    } else if app.game_list().is_some() {
        &[Context::List]
    } else {
        let replay = app.replay().is_some();
        match (app.focus(), app.mode()) {
            (Focus::Input, _) => return input_key(key),
            (_, Mode::Setup(_)) => &[Context::Setup, Context::Board],
            (Focus::History, _) if replay => &[Context::Replay, Context::History, Context::Board],
            (Focus::History, _) => &[Context::History, Context::Board],
            (Focus::Board, _) if replay => &[Context::Replay, Context::Board],
            (Focus::Board, _) => &[Context::Board],
        }
    };
    let keys = &app.preferences().keys;
    let chord = KeyChord::from(key);
    for &context in contexts {
        if let Some(c) = plain_char(key).filter(|&c| context.types(c)) {
            return Some(Action::Edit(InputRequest::InsertChar(c)));
        }
        if let Some(command) = keys.command_for(context, chord) {
            return match command.action {
                // A rematch abandons the game, so the key works only once it is over (`:rematch` always does).
                Action::Rematch if !matches!(app.mode(), Mode::Over(_)) => None,
                ref action => Some(action.clone()),
            };
        }
    }
    None
}

/// A plain character: no Control or Alt (Shift is part of the character).
fn plain_char(key: KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

fn input_key(key: KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::SubmitInput),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab => None,
        _ => to_input_request(&Event::Key(key)).map(Action::Edit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Player, Players, Preferences};
    use crate::engine::Level;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn chord(text: &str) -> KeyChord {
        text.parse().expect("a key")
    }

    fn app() -> App {
        App::new(Players {
            black: Player::Human,
            white: Player::Engine(Level::Medium),
        })
        .0
    }

    #[test]
    fn board_keys() {
        let app = app();
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('k'))),
            Some(Action::Up)
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Left)), Some(Action::Left));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char(' '))),
            Some(Action::PickAtCursor)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('1'))),
            Some(Action::Edit(InputRequest::InsertChar('1')))
        );
        assert_eq!(
            action_for_key(
                &app,
                KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)
            ),
            Some(Action::Redo)
        );
        assert_eq!(
            action_for_key(&app, KeyEvent::new(KeyCode::Char('U'), KeyModifiers::SHIFT)),
            Some(Action::Redo)
        );
        // A rematch needs the game to be over.
        assert_eq!(action_for_key(&app, key(KeyCode::Char('r'))), None);
        assert_eq!(action_for_key(&app, key(KeyCode::F(5))), None);
        assert_eq!(
            action_for_key(&app, KeyEvent::new(KeyCode::Char('u'), KeyModifiers::ALT)),
            None,
            "Alt-u is not u"
        );
    }

    #[test]
    fn releases_are_ignored_and_ctrl_c_always_interrupts() {
        let mut app = app();
        let mut release = key(KeyCode::Char('q'));
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for_key(&app, release), None);
        let _ = app.update(Action::ToggleHelp);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action_for_key(&app, ctrl_c), Some(Action::Interrupt));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('x'))),
            Some(Action::ToggleHelp),
            "any key closes the help"
        );
    }

    #[test]
    fn while_typing_keys_edit_the_box() {
        let mut app = app();
        let _ = app.update(Action::Edit(InputRequest::InsertChar('1')));
        assert_eq!(app.focus(), Focus::Input);
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('q'))),
            Some(Action::Edit(InputRequest::InsertChar('q')))
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Left)),
            Some(Action::Edit(InputRequest::GoToPrevChar))
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Enter)),
            Some(Action::SubmitInput)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Esc)),
            Some(Action::Cancel)
        );
    }

    #[test]
    fn history_focus_has_its_own_keys_and_falls_back_to_the_board() {
        let mut app = app();
        let _ = app.update(Action::ToggleHistoryFocus);
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('g'))),
            Some(Action::BrowseFirst)
        );
        assert_eq!(
            action_for_key(&app, KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::BrowseLast)
        );
        assert_eq!(
            action_for_key(&app, key(KeyCode::Home)),
            Some(Action::BrowseFirst)
        );
        // The cursor keys are the board's; the app turns them into steps through the game.
        assert_eq!(action_for_key(&app, key(KeyCode::Up)), Some(Action::Up));
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('f'))),
            Some(Action::Flip),
            "other keys keep their board meaning"
        );
    }

    #[test]
    fn the_dialog_has_its_own_keys() {
        let mut app = app();
        let _ = app.update(Action::NewGame);
        for (code, action) in [
            (KeyCode::Tab, Action::Down),
            (KeyCode::Char('q'), Action::Cancel),
            (KeyCode::Char(' '), Action::PickAtCursor),
            (KeyCode::Char('h'), Action::Left),
        ] {
            assert_eq!(action_for_key(&app, key(code)), Some(action), "{code:?}");
        }
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('1'))),
            None,
            "nothing is typed in the dialog"
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Char('u'))), None);
    }

    #[test]
    fn key_names_read_and_print_back() {
        for (text, code, modifiers, shown) in [
            ("u", KeyCode::Char('u'), KeyModifiers::NONE, "u"),
            ("U", KeyCode::Char('U'), KeyModifiers::NONE, "U"),
            (
                "ctrl-r",
                KeyCode::Char('r'),
                KeyModifiers::CONTROL,
                "Ctrl-r",
            ),
            ("C-r", KeyCode::Char('r'), KeyModifiers::CONTROL, "Ctrl-r"),
            (
                "Ctrl-Alt-x",
                KeyCode::Char('x'),
                KeyModifiers::CONTROL | KeyModifiers::ALT,
                "Ctrl-Alt-x",
            ),
            (
                "Ctrl--",
                KeyCode::Char('-'),
                KeyModifiers::CONTROL,
                "Ctrl--",
            ),
            ("-", KeyCode::Char('-'), KeyModifiers::NONE, "-"),
            ("Space", KeyCode::Char(' '), KeyModifiers::NONE, "Space"),
            (" ", KeyCode::Char(' '), KeyModifiers::NONE, "Space"),
            ("enter", KeyCode::Enter, KeyModifiers::NONE, "Enter"),
            ("Return", KeyCode::Enter, KeyModifiers::NONE, "Enter"),
            ("ESC", KeyCode::Esc, KeyModifiers::NONE, "Esc"),
            ("BackTab", KeyCode::BackTab, KeyModifiers::NONE, "BackTab"),
            ("Shift-Tab", KeyCode::BackTab, KeyModifiers::NONE, "BackTab"),
            ("Shift-Up", KeyCode::Up, KeyModifiers::SHIFT, "Shift-Up"),
            ("PageUp", KeyCode::PageUp, KeyModifiers::NONE, "PageUp"),
            ("pgdn", KeyCode::PageDown, KeyModifiers::NONE, "PageDown"),
            ("Delete", KeyCode::Delete, KeyModifiers::NONE, "Delete"),
            (
                "Backspace",
                KeyCode::Backspace,
                KeyModifiers::NONE,
                "Backspace",
            ),
            ("F1", KeyCode::F(1), KeyModifiers::NONE, "F1"),
            ("f12", KeyCode::F(12), KeyModifiers::NONE, "F12"),
            ("alt-F5", KeyCode::F(5), KeyModifiers::ALT, "Alt-F5"),
            ("é", KeyCode::Char('é'), KeyModifiers::NONE, "é"),
        ] {
            let parsed = chord(text);
            assert_eq!(parsed, KeyChord::new(code, modifiers), "{text:?}");
            assert_eq!(parsed.to_string(), shown, "{text:?}");
            assert_eq!(chord(shown), parsed, "{shown:?} reads back");
        }
    }

    #[test]
    fn malformed_key_names_are_refused_with_the_reason() {
        for (text, expected) in [
            ("", BadKey::Empty),
            ("Ctrl-", BadKey::Unknown("Ctrl-".into())),
            ("ctrl-shift", BadKey::Unknown("ctrl-shift".into())),
            ("uu", BadKey::Unknown("uu".into())),
            ("Hyper-x", BadKey::Unknown("Hyper-x".into())),
            ("F0", BadKey::Unknown("F0".into())),
            ("F25", BadKey::Unknown("F25".into())),
            ("F01", BadKey::Unknown("F01".into())),
            ("F+1", BadKey::Unknown("F+1".into())),
            ("Enterr", BadKey::Unknown("Enterr".into())),
            ("shift-u", BadKey::ShiftedCharacter("shift-u".into())),
            ("\t", BadKey::ControlCharacter("\t".into())),
            ("ctrl-\n", BadKey::ControlCharacter("ctrl-\n".into())),
        ] {
            assert_eq!(text.parse::<KeyChord>(), Err(expected), "{text:?}");
        }
        let message = "Enterr".parse::<KeyChord>().expect_err("bad").to_string();
        assert!(message.contains("\"Enterr\" is not a key"), "{message}");
    }

    #[test]
    fn key_presses_are_normalised_like_the_names() {
        let shifted = KeyEvent::new(KeyCode::Char('U'), KeyModifiers::SHIFT);
        assert_eq!(KeyChord::from(shifted), chord("U"));
        let back_tab = KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(KeyChord::from(back_tab), chord("BackTab"));
        let with_super = KeyEvent::new(
            KeyCode::Char('r'),
            KeyModifiers::CONTROL | KeyModifiers::SUPER,
        );
        assert_eq!(KeyChord::from(with_super), chord("Ctrl-r"));
    }

    #[test]
    fn the_table_is_consistent() {
        let defaults = KeyMap::default();
        for (row, keys) in KEY_COMMANDS.iter().zip(&defaults.keys) {
            assert_eq!(
                row.keys.len(),
                keys.len(),
                "{}: every default key parses",
                row.name
            );
            for key in keys {
                assert_eq!(row.context.reserved(*key), None, "{}: {key}", row.name);
            }
            let same_name = KEY_COMMANDS
                .iter()
                .filter(|c| c.context == row.context && c.name == row.name)
                .count();
            assert_eq!(same_name, 1, "{} is named once in its context", row.name);
            assert!(
                row.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{} is kebab-case",
                row.name
            );
        }
        assert_eq!(defaults.check(), Ok(()));
    }

    #[test]
    fn binding_replaces_a_commands_keys_and_conflicts_name_both() {
        let mut keys = KeyMap::default();
        keys.bind(Board, "undo", &[chord("z"), chord("z"), chord("F2")])
            .expect("bound");
        assert_eq!(
            keys.keys(Board, "undo"),
            Some(&[chord("z"), chord("F2")][..])
        );
        assert_eq!(
            keys.command_for(Board, chord("z")).map(|c| c.name),
            Some("undo")
        );
        assert!(keys.command_for(Board, chord("u")).is_none());
        // The same key in another context is no conflict.
        keys.bind(Dialog, "cancel", &[chord("z")]).expect("bound");
        assert_eq!(keys.check(), Ok(()));
        keys.bind(Board, "flip", &[chord("z")]).expect("bound");
        assert_eq!(
            keys.check(),
            Err(KeyMapError::Conflict {
                context: Board,
                key: chord("z"),
                first: "undo",
                second: "flip",
            })
        );
        assert_eq!(
            keys.check().expect_err("conflict").to_string(),
            "z is bound to both undo and flip in the board keys"
        );
    }

    #[test]
    fn fixed_keys_and_unknown_commands_are_refused() {
        let mut keys = KeyMap::default();
        for key in ["5", ":", "Ctrl-c"] {
            let error = keys.bind(Board, "undo", &[chord(key)]).expect_err(key);
            assert!(matches!(error, KeyMapError::Reserved { .. }), "{key}");
        }
        // Digits type nothing in the dialog, so they can be bound there.
        keys.bind(Dialog, "pick", &[chord("5")]).expect("bound");
        keys.bind(Board, "undo", &[chord("Alt-5")]).expect("bound");
        let error = keys
            .bind(History, "undo", &[chord("x")])
            .expect_err("history has no undo");
        assert_eq!(
            error.to_string(),
            "there is no history command \"undo\"; the history commands are first, last"
        );
        assert_eq!(
            "settings".parse::<Context>(),
            Err(UnknownContext("settings".into()))
        );
    }

    #[test]
    fn the_help_shows_the_keys_bound() {
        let defaults = key_help(&KeyMap::default());
        let line = |what: &str| {
            defaults
                .iter()
                .find(|(_, w)| *w == what)
                .map(|(k, _)| k.clone())
        };
        assert_eq!(line("move the cursor").as_deref(), Some("arrows, h j k l"));
        assert_eq!(line("redo").as_deref(), Some("U, Ctrl-r"));
        assert_eq!(
            line("step back / forward through the game").as_deref(),
            Some("[ ]")
        );
        assert_eq!(
            line("in the move list: the start / the end").as_deref(),
            Some("g G")
        );
        assert_eq!(line("quit at once").as_deref(), Some("Ctrl-c"));

        let mut keys = KeyMap::default();
        keys.bind(Board, "undo", &[chord("x")]).expect("bound");
        keys.bind(Board, "up", &[chord("w"), chord("Up"), chord("F3")])
            .expect("bound");
        keys.bind(Board, "flip", &[]).expect("bound");
        let help = key_help(&keys);
        let line = |what: &str| {
            help.iter()
                .find(|(_, w)| *w == what)
                .map(|(k, _)| k.clone())
        };
        assert_eq!(
            line("undo (a whole turn against the engine)").as_deref(),
            Some("x")
        );
        assert_eq!(
            line("move the cursor").as_deref(),
            Some("Left/h Down/j w/Up/F3 Right/l")
        );
        assert_eq!(
            line("flip the board"),
            None,
            "a command without keys is left out"
        );
    }

    #[test]
    fn preferences_carry_the_key_map_into_the_app() {
        let mut app = app();
        let mut keys = KeyMap::default();
        keys.bind(Board, "undo", &[chord("x")]).expect("bound");
        app.set_preferences(Preferences {
            keys,
            ..Preferences::default()
        });
        assert_eq!(
            action_for_key(&app, key(KeyCode::Char('x'))),
            Some(Action::Undo)
        );
        assert_eq!(action_for_key(&app, key(KeyCode::Char('u'))), None);
    }
}
