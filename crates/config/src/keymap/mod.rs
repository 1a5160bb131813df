//! The key map: every command a key can be bound to, and the keys bound to each.
//!
//! Every such command is one row of [`KEY_COMMANDS`]: the context it belongs to, its name in the settings, its
//! default keys and its line in the help. A [`KeyMap`] holds the keys actually bound (the defaults, or what the
//! settings' `[keys.<context>]` tables say), and the help overlay is made from it, so that the help shows the keys
//! that work. What a command does is the app's: its table of actions names one for each row. Adding a command
//! takes a row of [`KEY_COMMANDS`], its action in the app and its line in `config/default.toml`; adding a context
//! takes a variant of [`Context`] (its name, whether digits type there), its rows, its `[keys.<name>]` table, and
//! its place in the app's lookup of keys.
//!
//! A few keys are fixed on purpose and cannot be bound: digits and `:` start typing a move or a command, Ctrl-c
//! leaves at once from anywhere, the resume question takes y / n, and the input box keeps its editing keys.

mod chord;
mod commands;
mod context;
mod key;
mod map;

pub use chord::{BadKey, KeyChord};
pub use commands::{FIXED_KEYS, KEY_COMMANDS, KeyCommand};
pub use context::{Context, UnknownContext};
pub use key::{Key, KeyCode, Modifiers};
pub use map::{KeyMap, KeyMapError, key_help};

#[cfg(test)]
mod tests {
    use super::*;
    use Context::{Board, Dialog, History};

    fn chord(text: &str) -> KeyChord {
        text.parse().expect("a key")
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
}
