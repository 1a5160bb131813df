//! The table of every command keys can be bound to, with its default keys and its line in the help. What each
//! command does is the app's business: its table of actions names one for each row here, and a test there holds
//! the two tables to each other.

use super::Context;

/// A command keys can be bound to: one row of [`KEY_COMMANDS`].
#[derive(Debug)]
pub struct KeyCommand {
    /// Where its keys work.
    pub context: Context,
    /// Its name in the settings, unique in its context (`undo` in `[keys.board]`).
    pub name: &'static str,
    /// The keys bound to it unless the settings say otherwise (the built-in settings file lists the same).
    pub keys: &'static [&'static str],
    /// Its line in the help; rows of a context next to each other with the same text share a line, and an
    /// empty text is left out of the help.
    pub help: &'static str,
}

const fn command(
    context: Context,
    name: &'static str,
    keys: &'static [&'static str],
    help: &'static str,
) -> KeyCommand {
    KeyCommand {
        context,
        name,
        keys,
        help,
    }
}

use Context::{Board, Dialog, Event, History, List, Lobby, Replay, Setup};

/// Every command keys can be bound to. Adding one takes a row here, its action in the app's table of actions, and
/// its line in `config/default.toml`.
pub static KEY_COMMANDS: &[KeyCommand] = &[
    // The cursor keys in vi's order, so that the help reads "h j k l".
    command(Board, "left", &["Left", "h"], "move the cursor"),
    command(Board, "down", &["Down", "j"], "move the cursor"),
    command(Board, "up", &["Up", "k"], "move the cursor"),
    command(Board, "right", &["Right", "l"], "move the cursor"),
    command(
        Board,
        "pick",
        &["Space", "Enter"],
        "pick up a piece / put it down",
    ),
    command(
        Board,
        "cancel",
        &["Esc"],
        "drop the selection, stop browsing, close",
    ),
    command(
        Board,
        "type-coordinates",
        &["i"],
        "type a move in coordinates (c3-d4)",
    ),
    command(
        Board,
        "undo",
        &["u"],
        "undo (a whole turn against the engine)",
    ),
    command(Board, "redo", &["U", "Ctrl-r"], "redo"),
    command(
        Board,
        "back",
        &["["],
        "step back / forward through the game",
    ),
    command(
        Board,
        "forward",
        &["]"],
        "step back / forward through the game",
    ),
    command(Board, "first", &["Home"], "the start / the live position"),
    command(Board, "last", &["End"], "the start / the live position"),
    command(
        Board,
        "history",
        &["Tab", "BackTab"],
        "focus the move list (the cursor keys step)",
    ),
    command(Board, "move-now", &["m"], "make the engine move now"),
    command(Board, "hint", &["H"], "hint: the engine suggests a move"),
    command(Board, "analysis", &["a"], "show / hide the analysis panel"),
    command(
        Board,
        "analyse-game",
        &["A"],
        "analyse the whole game, marking costly moves",
    ),
    command(
        Board,
        "next-mark",
        &["."],
        "the next / previous marked move",
    ),
    command(
        Board,
        "previous-mark",
        &[","],
        "the next / previous marked move",
    ),
    command(Board, "flip", &["f"], "flip the board"),
    command(Board, "new-game", &["n"], "new game: choose the players"),
    command(Board, "setup", &["s"], "set up a position"),
    command(Board, "load", &["o"], "open a saved game (:load)"),
    command(
        Board,
        "rematch",
        &["r"],
        "rematch with colours swapped (game over)",
    ),
    command(Board, "pause", &["p"], "hold the engine / let it go on"),
    command(
        Board,
        "save",
        &["S"],
        "save the game (:save [name] names it)",
    ),
    command(
        Board,
        "capture-effect",
        &["X"],
        "turn the capture effect on / off",
    ),
    command(
        Board,
        "problems",
        &["P"],
        "problems: play and win, play and draw",
    ),
    command(Board, "help", &["?"], "this help"),
    command(
        Board,
        "settings",
        &["O"],
        "settings: colours, pieces, notation, keys",
    ),
    command(
        Board,
        "rules",
        &["R"],
        "the rules of this game (Tab in the help too)",
    ),
    command(Board, "quit", &["q"], "quit (asks first during a game)"),
    command(
        History,
        "first",
        &["g"],
        "in the move list: the start / the end",
    ),
    command(
        History,
        "last",
        &["G"],
        "in the move list: the start / the end",
    ),
    // The dialog shows its own hints.
    command(Dialog, "left", &["Left", "h"], ""),
    command(Dialog, "down", &["Down", "j", "Tab", "BackTab"], ""),
    command(Dialog, "up", &["Up", "k"], ""),
    command(Dialog, "right", &["Right", "l"], ""),
    command(Dialog, "pick", &["Enter", "Space"], ""),
    command(Dialog, "cancel", &["Esc", "q"], ""),
    command(Dialog, "setup", &["s"], ""),
    // The setup panel lists these beside the board.
    command(Setup, "black-man", &["b"], "black / white man"),
    command(Setup, "white-man", &["w"], "black / white man"),
    command(Setup, "black-king", &["B"], "black / white king"),
    command(Setup, "white-king", &["W"], "black / white king"),
    command(
        Setup,
        "remove",
        &["x", "Delete", "Backspace"],
        "empty the square",
    ),
    command(Setup, "cycle", &["Space"], "next piece on the square"),
    command(Setup, "clear", &["c"], "clear the board"),
    command(Setup, "standard", &["r"], "the standard start"),
    command(Setup, "side", &["t"], "the other side to move"),
    command(Setup, "black-player", &["1"], "who plays Black / White"),
    command(Setup, "white-player", &["2"], "who plays Black / White"),
    command(Setup, "start", &["Enter"], "start the game"),
    command(Setup, "cancel", &["Esc"], "back to the game"),
    // The list shows its own hints.
    command(List, "up", &["Up", "k"], ""),
    command(List, "down", &["Down", "j"], ""),
    command(List, "page-up", &["PageUp"], ""),
    command(List, "page-down", &["PageDown"], ""),
    command(List, "first", &["Home", "g"], ""),
    command(List, "last", &["End", "G"], ""),
    command(List, "open", &["Enter", "Space"], ""),
    command(List, "cancel", &["Esc", "q"], ""),
    command(
        List,
        "filter",
        &["/"],
        "in a list of games: find (type words; Esc clears)",
    ),
    command(
        List,
        "sort",
        &["s"],
        "in a list of games: sort by the next column / reverse",
    ),
    command(
        List,
        "reverse",
        &["r"],
        "in a list of games: sort by the next column / reverse",
    ),
    command(Replay, "play", &["p"], "replaying: play back / pause"),
    command(Replay, "faster", &["+"], "replaying: faster / slower"),
    command(Replay, "slower", &["-"], "replaying: faster / slower"),
    command(
        Replay,
        "continue",
        &["c"],
        "replaying: continue from here as a new game",
    ),
    command(Lobby, "up", &["Up", "k"], "move the cursor"),
    command(Lobby, "down", &["Down", "j"], "move the cursor"),
    command(Lobby, "first", &["Home"], "the first line / the last"),
    command(Lobby, "last", &["End"], "the first line / the last"),
    command(
        Lobby,
        "choose",
        &["Enter", "Space"],
        "play, join or watch what the cursor is on",
    ),
    command(Lobby, "engine", &["e"], "play the engine"),
    command(Lobby, "new", &["n"], "a new game against a person"),
    command(Lobby, "code", &["c"], "join a game by its code"),
    command(Lobby, "saved", &["o"], "your saved games"),
    command(
        Lobby,
        "problems",
        &["P", "p"],
        "problems near your problem rating",
    ),
    command(Lobby, "daily", &["d"], "the problem of the day"),
    command(
        Lobby,
        "streak",
        &["s"],
        "a problem streak: until the first miss",
    ),
    command(
        Lobby,
        "settings",
        &["O"],
        "settings: colours, pieces, notation, keys",
    ),
    command(Lobby, "help", &["?"], "these keys"),
    command(Lobby, "quit", &["q", "Esc"], "leave"),
    command(Event, "up", &["Up", "k"], "scroll the table"),
    command(Event, "down", &["Down", "j"], "scroll the table"),
    command(
        Event,
        "withdraw",
        &["w"],
        "withdraw from the event (asks first)",
    ),
    command(Event, "help", &["?"], "these keys"),
    command(
        Event,
        "leave",
        &["q", "Esc"],
        "back to the lobby (still entered: the next board calls you)",
    ),
];

/// Keys that cannot be bound, as the help lists them after the bound ones.
pub const FIXED_KEYS: &[(&str, &str)] = &[
    ("0-9, :", "type a move (11-15, 22x15) or a :command"),
    ("a-h + digit", "type a move in coordinates (h6-g5)"),
    ("Ctrl-c", "quit at once"),
    ("mouse", "click a piece, then its destination"),
];
