//! What each command of the key map does: the settings name the commands, their contexts and their keys
//! ([`KEY_COMMANDS`]); this table gives each its [`Action`]. A test holds the two tables to each other, so a
//! command without an action, or an action for a command the settings do not name, fails the tests rather than a
//! key press.

pub use crate::config::keymap::{
    BadKey, Context, FIXED_KEYS, KEY_COMMANDS, KeyChord, KeyCommand, KeyMap, KeyMapError,
    UnknownContext, key_help,
};

use super::event::Key;
use crate::app::action::{
    Action, BrowseAction, EventAction, HelpAction, ListAction, LobbyAction, ReplayAction,
    SetupAction,
};
use crate::app::trainer::TrainingKind;
use crate::rules::{Color, Piece, Role};

use Context::{Board, Dialog, Event, History, List, Lobby, Replay, Setup};

/// The action of a command of [`KEY_COMMANDS`]; `None` only for a command this table lacks, which its test
/// rules out.
pub fn command_action(command: &KeyCommand) -> Option<Action> {
    ACTIONS
        .iter()
        .find(|(context, name, _)| *context == command.context && *name == command.name)
        .map(|(_, _, action)| action.clone())
}

/// The action `key` is bound to in `context` by `keys`, if any.
pub fn bound_in(keys: &KeyMap, context: Context, key: Key) -> Option<Action> {
    keys.command_for(context, KeyChord::from(key))
        .and_then(command_action)
}

const fn put(color: Color, role: Role) -> Action {
    Action::Setup(SetupAction::Put(Piece::new(color, role)))
}

/// Each command's action, by context and name, in the order of [`KEY_COMMANDS`].
static ACTIONS: &[(Context, &str, Action)] = &[
    // The cursor keys in vi's order, so that the help reads "h j k l".
    (Board, "left", Action::Left),
    (Board, "down", Action::Down),
    (Board, "up", Action::Up),
    (Board, "right", Action::Right),
    (Board, "pick", Action::PickAtCursor),
    (Board, "cancel", Action::Cancel),
    (Board, "type-coordinates", Action::StartTyping),
    (Board, "undo", Action::Undo),
    (Board, "redo", Action::Redo),
    (Board, "back", Action::Browse(BrowseAction::Back)),
    (Board, "forward", Action::Browse(BrowseAction::Forward)),
    (Board, "first", Action::Browse(BrowseAction::First)),
    (Board, "last", Action::Browse(BrowseAction::Last)),
    (Board, "history", Action::ToggleHistoryFocus),
    (Board, "move-now", Action::MoveNow),
    (Board, "hint", Action::Hint),
    (Board, "analysis", Action::ToggleAnalysis),
    (Board, "analyse-game", Action::AnalyseGame),
    (
        Board,
        "next-mark",
        Action::Browse(BrowseAction::ToMark(true)),
    ),
    (
        Board,
        "previous-mark",
        Action::Browse(BrowseAction::ToMark(false)),
    ),
    (Board, "flip", Action::Flip),
    (Board, "new-game", Action::NewGame),
    (Board, "setup", Action::Setup(SetupAction::Open)),
    (Board, "load", Action::Load),
    (Board, "rematch", Action::Rematch),
    (Board, "pause", Action::Pause),
    (Board, "save", Action::Save),
    (Board, "capture-effect", Action::ToggleCaptureEffect),
    (Board, "problems", Action::Problems),
    (Board, "help", Action::Help(HelpAction::Toggle)),
    (Board, "settings", Action::OpenSettings),
    (Board, "rules", Action::Help(HelpAction::RulesPage)),
    (Board, "quit", Action::Quit),
    (History, "first", Action::Browse(BrowseAction::First)),
    (History, "last", Action::Browse(BrowseAction::Last)),
    // The dialog shows its own hints.
    (Dialog, "left", Action::Left),
    (Dialog, "down", Action::Down),
    (Dialog, "up", Action::Up),
    (Dialog, "right", Action::Right),
    (Dialog, "pick", Action::PickAtCursor),
    (Dialog, "cancel", Action::Cancel),
    (Dialog, "setup", Action::Setup(SetupAction::Open)),
    // The setup panel lists these beside the board.
    (Setup, "black-man", put(Color::Black, Role::Man)),
    (Setup, "white-man", put(Color::White, Role::Man)),
    (Setup, "black-king", put(Color::Black, Role::King)),
    (Setup, "white-king", put(Color::White, Role::King)),
    (Setup, "remove", Action::Setup(SetupAction::Remove)),
    (Setup, "cycle", Action::Setup(SetupAction::Cycle)),
    (Setup, "clear", Action::Setup(SetupAction::Clear)),
    (Setup, "standard", Action::Setup(SetupAction::Standard)),
    (Setup, "side", Action::Setup(SetupAction::SwitchSide)),
    (
        Setup,
        "black-player",
        Action::Setup(SetupAction::CyclePlayer(Color::Black)),
    ),
    (
        Setup,
        "white-player",
        Action::Setup(SetupAction::CyclePlayer(Color::White)),
    ),
    (Setup, "start", Action::Setup(SetupAction::Start)),
    (Setup, "cancel", Action::Cancel),
    // The list shows its own hints.
    (List, "up", Action::Up),
    (List, "down", Action::Down),
    (List, "page-up", Action::List(ListAction::Step(-10))),
    (List, "page-down", Action::List(ListAction::Step(10))),
    (List, "first", Action::Browse(BrowseAction::First)),
    (List, "last", Action::Browse(BrowseAction::Last)),
    (List, "open", Action::PickAtCursor),
    (List, "cancel", Action::Cancel),
    (List, "filter", Action::List(ListAction::Filter)),
    (List, "sort", Action::List(ListAction::Sort)),
    (List, "reverse", Action::List(ListAction::Reverse)),
    (Replay, "play", Action::Replay(ReplayAction::AutoPlay)),
    (Replay, "faster", Action::Replay(ReplayAction::Speed(true))),
    (Replay, "slower", Action::Replay(ReplayAction::Speed(false))),
    (Replay, "continue", Action::Replay(ReplayAction::Continue)),
    (Lobby, "up", Action::Lobby(LobbyAction::Up)),
    (Lobby, "down", Action::Lobby(LobbyAction::Down)),
    (Lobby, "first", Action::Lobby(LobbyAction::First)),
    (Lobby, "last", Action::Lobby(LobbyAction::Last)),
    (Lobby, "choose", Action::Lobby(LobbyAction::Choose)),
    (Lobby, "engine", Action::Lobby(LobbyAction::Engine)),
    (Lobby, "new", Action::Lobby(LobbyAction::NewGame)),
    (Lobby, "code", Action::Lobby(LobbyAction::JoinByCode)),
    (Lobby, "saved", Action::Lobby(LobbyAction::SavedGames)),
    (
        Lobby,
        "problems",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Rated)),
    ),
    (
        Lobby,
        "daily",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Daily)),
    ),
    (
        Lobby,
        "streak",
        Action::Lobby(LobbyAction::Problems(TrainingKind::Streak)),
    ),
    (Lobby, "settings", Action::Lobby(LobbyAction::Settings)),
    (Lobby, "help", Action::Lobby(LobbyAction::Help)),
    (Lobby, "quit", Action::Lobby(LobbyAction::Quit)),
    (Event, "up", Action::Event(EventAction::Up)),
    (Event, "down", Action::Event(EventAction::Down)),
    (Event, "withdraw", Action::Event(EventAction::Withdraw)),
    (Event, "help", Action::Event(EventAction::Help)),
    (Event, "leave", Action::Event(EventAction::Leave)),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_one_action_and_every_action_a_command() {
        for command in KEY_COMMANDS {
            let actions = ACTIONS
                .iter()
                .filter(|(context, name, _)| *context == command.context && *name == command.name)
                .count();
            assert_eq!(actions, 1, "{} {}", command.context, command.name);
        }
        for (context, name, _) in ACTIONS {
            assert!(
                KEY_COMMANDS
                    .iter()
                    .any(|c| c.context == *context && c.name == *name),
                "{context} {name} is not a command of the settings"
            );
        }
        assert_eq!(ACTIONS.len(), KEY_COMMANDS.len());
    }

    #[test]
    fn a_key_is_looked_up_through_the_settings_then_the_table() {
        let keys = KeyMap::default();
        assert_eq!(bound_in(&keys, Board, Key::char('u')), Some(Action::Undo));
        assert_eq!(bound_in(&keys, Board, Key::ctrl('r')), Some(Action::Redo));
        assert_eq!(
            bound_in(&keys, Lobby, Key::char('z')),
            None,
            "z is bound to nothing in the lobby"
        );
    }
}
