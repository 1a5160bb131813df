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
//! Keys arrive as the app's own [`Key`]s, which every front end (a local terminal, tests, later an SSH channel)
//! converts its input into.

mod chord;
mod context;
mod map;
mod table;

pub use chord::{BadKey, KeyChord};
pub use context::{Context, UnknownContext};
pub use map::{KeyMap, KeyMapError, key_help};
pub use table::{FIXED_KEYS, KEY_COMMANDS, KeyCommand};

use tui_input::InputRequest;

use super::input::{Key, KeyCode, Modifiers};
use super::state::{Action, App, Focus, Mode};

/// The action a key press stands for, or `None` if it means nothing here.
pub fn action_for_key(app: &App, key: Key) -> Option<Action> {
    if key.is_interrupt() {
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
fn plain_char(key: Key) -> Option<char> {
    match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(Modifiers::CONTROL | Modifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    }
}

fn input_key(key: Key) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::SubmitInput),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Up | KeyCode::Down | KeyCode::Tab | KeyCode::BackTab => None,
        _ => edit_request(key).map(Action::Edit),
    }
}

/// How a key edits the input box: the usual line-editing keys, with the Emacs-style Control and Alt keys that
/// shells understand.
fn edit_request(key: Key) -> Option<InputRequest> {
    use InputRequest::*;
    const NONE: Modifiers = Modifiers::NONE;
    const CONTROL: Modifiers = Modifiers::CONTROL;
    const ALT: Modifiers = Modifiers::ALT;
    Some(match (key.code, key.modifiers) {
        (KeyCode::Backspace, NONE) | (KeyCode::Char('h'), CONTROL) => DeletePrevChar,
        (KeyCode::Delete, NONE) => DeleteNextChar,
        (KeyCode::Left, NONE) | (KeyCode::Char('b'), CONTROL) => GoToPrevChar,
        (KeyCode::Left, CONTROL) => GoToPrevWord,
        (KeyCode::Right, NONE) | (KeyCode::Char('f'), CONTROL) => GoToNextChar,
        (KeyCode::Right, CONTROL) => GoToNextWord,
        (KeyCode::Char('u'), CONTROL) => DeleteLine,
        (KeyCode::Char('w'), CONTROL) | (KeyCode::Backspace, ALT) => DeletePrevWord,
        (KeyCode::Delete, CONTROL) => DeleteNextWord,
        (KeyCode::Char('k'), CONTROL) => DeleteTillEnd,
        (KeyCode::Char('y'), CONTROL) => Yank,
        (KeyCode::Char('a'), CONTROL) | (KeyCode::Home, NONE) => GoToStart,
        (KeyCode::Char('e'), CONTROL) | (KeyCode::End, NONE) => GoToEnd,
        (KeyCode::Char(c), m) if m == NONE || m == Modifiers::SHIFT || m == CONTROL | ALT => {
            InsertChar(c)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Player, Players, Preferences};
    use crate::engine::Level;
    use Context::{Board, Dialog, History};

    fn key(code: KeyCode) -> Key {
        Key::new(code, Modifiers::NONE)
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
            action_for_key(&app, Key::new(KeyCode::Char('r'), Modifiers::CONTROL)),
            Some(Action::Redo)
        );
        assert_eq!(
            action_for_key(&app, Key::new(KeyCode::Char('U'), Modifiers::SHIFT)),
            Some(Action::Redo)
        );
        // A rematch needs the game to be over.
        assert_eq!(action_for_key(&app, key(KeyCode::Char('r'))), None);
        assert_eq!(action_for_key(&app, key(KeyCode::F(5))), None);
        assert_eq!(
            action_for_key(&app, Key::new(KeyCode::Char('u'), Modifiers::ALT)),
            None,
            "Alt-u is not u"
        );
    }

    #[test]
    fn ctrl_c_always_interrupts() {
        let mut app = app();
        let _ = app.update(Action::ToggleHelp);
        let ctrl_c = Key::new(KeyCode::Char('c'), Modifiers::CONTROL);
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
            action_for_key(&app, Key::new(KeyCode::Char('G'), Modifiers::SHIFT)),
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
            ("u", KeyCode::Char('u'), Modifiers::NONE, "u"),
            ("U", KeyCode::Char('U'), Modifiers::NONE, "U"),
            ("ctrl-r", KeyCode::Char('r'), Modifiers::CONTROL, "Ctrl-r"),
            ("C-r", KeyCode::Char('r'), Modifiers::CONTROL, "Ctrl-r"),
            (
                "Ctrl-Alt-x",
                KeyCode::Char('x'),
                Modifiers::CONTROL | Modifiers::ALT,
                "Ctrl-Alt-x",
            ),
            ("Ctrl--", KeyCode::Char('-'), Modifiers::CONTROL, "Ctrl--"),
            ("-", KeyCode::Char('-'), Modifiers::NONE, "-"),
            ("Space", KeyCode::Char(' '), Modifiers::NONE, "Space"),
            (" ", KeyCode::Char(' '), Modifiers::NONE, "Space"),
            ("enter", KeyCode::Enter, Modifiers::NONE, "Enter"),
            ("Return", KeyCode::Enter, Modifiers::NONE, "Enter"),
            ("ESC", KeyCode::Esc, Modifiers::NONE, "Esc"),
            ("BackTab", KeyCode::BackTab, Modifiers::NONE, "BackTab"),
            ("Shift-Tab", KeyCode::BackTab, Modifiers::NONE, "BackTab"),
            ("Shift-Up", KeyCode::Up, Modifiers::SHIFT, "Shift-Up"),
            ("PageUp", KeyCode::PageUp, Modifiers::NONE, "PageUp"),
            ("pgdn", KeyCode::PageDown, Modifiers::NONE, "PageDown"),
            ("Delete", KeyCode::Delete, Modifiers::NONE, "Delete"),
            (
                "Backspace",
                KeyCode::Backspace,
                Modifiers::NONE,
                "Backspace",
            ),
            ("F1", KeyCode::F(1), Modifiers::NONE, "F1"),
            ("f12", KeyCode::F(12), Modifiers::NONE, "F12"),
            ("alt-F5", KeyCode::F(5), Modifiers::ALT, "Alt-F5"),
            ("é", KeyCode::Char('é'), Modifiers::NONE, "é"),
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
        let shifted = Key::new(KeyCode::Char('U'), Modifiers::SHIFT);
        assert_eq!(KeyChord::from(shifted), chord("U"));
        let back_tab = Key::new(KeyCode::BackTab, Modifiers::SHIFT);
        assert_eq!(KeyChord::from(back_tab), chord("BackTab"));
    }

    #[test]
    fn the_table_is_consistent() {
        let defaults = KeyMap::default();
        for row in KEY_COMMANDS {
            let keys = defaults
                .keys(row.context, row.name)
                .expect("a command of the table");
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
