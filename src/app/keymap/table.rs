//! The table of every command keys can be bound to, with its default keys and its line in the help.

use super::Context;
use crate::app::action::{Action, LobbyAction, SetupAction};
use crate::app::trainer::TrainingKind;
use crate::rules::{Color, Piece, Role};

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

use Context::{Board, Dialog, History, List, Lobby, Replay, Setup};

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
    command(
        Board,
        "hint",
        Action::Hint,
        &["H"],
        "hint: the engine suggests a move",
    ),
    command(
        Board,
        "analysis",
        Action::ToggleAnalysis,
        &["a"],
        "show / hide the analysis panel",
    ),
    command(
        Board,
        "analyse-game",
        Action::AnalyseGame,
        &["A"],
        "analyse the whole game, marking costly moves",
    ),
    command(
        Board,
        "next-mark",
        Action::JumpToMark(true),
        &["."],
        "the next / previous marked move",
    ),
    command(
        Board,
        "previous-mark",
        Action::JumpToMark(false),
        &[","],
        "the next / previous marked move",
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
    command(
        Board,
        "capture-effect",
        Action::ToggleCaptureEffect,
        &["X"],
        "turn the capture effect on / off",
    ),
    command(
        Board,
        "problems",
        Action::Problems,
        &["P"],
        "problems: play and win, play and draw",
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
        List,
        "filter",
        Action::ListFilter,
        &["/"],
        "in a list of games: find (type words; Esc clears)",
    ),
    command(
        List,
        "sort",
        Action::ListSort,
        &["s"],
        "in a list of games: sort by the next column / reverse",
    ),
    command(
        List,
        "reverse",
        Action::ListReverse,
        &["r"],
        "in a list of games: sort by the next column / reverse",
    ),
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
    command(
        Lobby,
        "up",
        Action::Lobby(LobbyAction::Up),
        &["Up", "k"],
        "move the cursor",
    ),
    command(
        Lobby,
        "down",
        Action::Lobby(LobbyAction::Down),
        &["Down", "j"],
        "move the cursor",
    ),
    command(
        Lobby,
        "first",
        Action::Lobby(LobbyAction::First),
        &["Home"],
        "the first line / the last",
    ),
    command(
        Lobby,
        "last",
        Action::Lobby(LobbyAction::Last),
        &["End"],
        "the first line / the last",
    ),
    command(
        Lobby,
        "choose",
        Action::Lobby(LobbyAction::Choose),
        &["Enter", "Space"],
        "play, join or watch what the cursor is on",
    ),
    command(
        Lobby,
        "engine",
        Action::Lobby(LobbyAction::Engine),
        &["e"],
        "play the engine",
    ),
    command(
        Lobby,
        "new",
        Action::Lobby(LobbyAction::NewGame),
        &["n"],
        "a new game against a person",
    ),
    command(
        Lobby,
        "code",
        Action::Lobby(LobbyAction::JoinByCode),
        &["c"],
        "join a game by its code",
    ),
    command(
        Lobby,
        "saved",
        Action::Lobby(LobbyAction::SavedGames),
        &["o"],
        "your saved games",
    ),
    command(
        Lobby,
        "problems",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Rated)),
        &["P", "p"],
        "problems near your problem rating",
    ),
    command(
        Lobby,
        "daily",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Daily)),
        &["d"],
        "the problem of the day",
    ),
    command(
        Lobby,
        "streak",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Streak)),
        &["s"],
        "a problem streak: until the first miss",
    ),
    command(
        Lobby,
        "help",
        Action::Lobby(LobbyAction::Help),
        &["?"],
        "these keys",
    ),
    command(
        Lobby,
        "quit",
        Action::Lobby(LobbyAction::Quit),
        &["q", "Esc"],
        "leave",
    ),
];

/// Keys that cannot be bound, as the help lists them after the bound ones.
pub const FIXED_KEYS: &[(&str, &str)] = &[
    ("0-9, :", "type a move (11-15, 22x15) or a :command"),
    ("a-h + digit", "type a move in coordinates (h6-g5)"),
    ("Ctrl-c", "quit at once"),
    ("mouse", "click a piece, then its destination"),
];
