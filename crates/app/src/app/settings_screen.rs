//! The settings screen: how the board looks and which key does what, changed from the keyboard while playing
//! or in a server's lobby.
//!
//! The screen knows nothing of the settings file or of what a value means. Its rows come from whoever opens it
//! (the look's rows from the settings' own schema, the keys' rows from the key map), and a change the player
//! makes goes out as a [`SettingEdit`], written as the settings file would write it. Whoever carries it out
//! checks it as the file is checked, applies it to the game on show and saves it, then answers
//! ([`SettingsScreen::answered`]): the row shows the new value only once it is in force, and a refused value
//! stays as it was, with the reason on the screen's status line.
//!
//! The screen's own keys are fixed, so that no binding made here can lock the player out of it: ↑↓ (or k j) a
//! row, ←→ (or h l, Space) a value, Enter binds a key to a command (the next key pressed), `a` adds one,
//! Backspace or Delete gives a command its default keys again, Esc or q closes.

use super::burst::CaptureEffect;
use super::event::{Key, KeyCode};
use super::preferences::Orientation;
use crate::config::keys_text;
use crate::config::{Context, KeyChord, KeyMap};
use crate::config::{RowKind, SettingEdit, SettingRow, SettingValue};

/// What the app itself follows of the settings, taken up at once when a change is in force (the screen's look
/// is the front end's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    /// The keys bound to each command.
    pub keys: KeyMap,
    /// Which way up the board is.
    pub orientation: Orientation,
    /// What is drawn as a piece is taken.
    pub capture_effect: CaptureEffect,
}

/// What the player did on the screen, for whoever shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScreenOutcome {
    /// Nothing to carry out.
    Nothing,
    /// Close the screen.
    Close,
    /// Carry out this change, then answer it.
    Change(SettingEdit),
}

/// How a key row is being changed: waiting for the key to bind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// The next key replaces the command's keys.
    Replace,
    /// The next key is added to them.
    Add,
}

/// The settings screen's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsScreen {
    rows: Vec<SettingRow>,
    selected: usize,
    capture: Option<Capture>,
    /// The status line: what happened last, or how to use the screen.
    message: String,
    /// Where changes are kept (the settings file, the player's folder), or why they last only for now.
    saved_in: String,
}

/// How to use the screen, on its status line until something happens.
pub const SCREEN_KEYS: &str =
    "↑↓ a row · ←→ a value · Enter binds a key, a adds one, Backspace restores · Esc closes";

impl SettingsScreen {
    /// A screen over the look's `rows` (from the settings' schema) followed by every command of `keys`, each
    /// context under its own heading; `saved_in` says where changes are kept.
    pub fn new(mut rows: Vec<SettingRow>, keys: &KeyMap, saved_in: String) -> SettingsScreen {
        let defaults = KeyMap::default();
        for context in Context::ALL {
            for (command, bound) in keys.bindings(context) {
                rows.push(SettingRow {
                    table: format!("keys.{}", context.name()),
                    name: command.name.into(),
                    label: command.name.replace('-', " "),
                    kind: RowKind::Keys {
                        context,
                        keys: bound.to_vec(),
                        default: defaults
                            .keys(context, command.name)
                            .map(<[KeyChord]>::to_vec)
                            .unwrap_or_default(),
                    },
                });
            }
        }
        SettingsScreen {
            rows,
            selected: 0,
            capture: None,
            message: SCREEN_KEYS.into(),
            saved_in,
        }
    }

    /// The rows, in order.
    pub fn rows(&self) -> &[SettingRow] {
        &self.rows
    }

    /// The row with the cursor.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Whether the screen waits for a key to bind, and how.
    pub fn capture(&self) -> Option<Capture> {
        self.capture
    }

    /// The status line.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where changes are kept.
    pub fn saved_in(&self) -> &str {
        &self.saved_in
    }

    /// Handles a key.
    pub fn key(&mut self, key: Key) -> ScreenOutcome {
        if let Some(capture) = self.capture.take() {
            return self.bind(capture, key);
        }
        let last = self.rows.len().saturating_sub(1);
        let plain = key.modifiers.is_empty();
        match key.code {
            KeyCode::Esc => return ScreenOutcome::Close,
            KeyCode::Char('q') if plain => return ScreenOutcome::Close,
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char('k') if plain => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => self.selected = (self.selected + 1).min(last),
            KeyCode::Char('j') if plain => self.selected = (self.selected + 1).min(last),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Left => return self.step(-1),
            KeyCode::Char('h') if plain => return self.step(-1),
            KeyCode::Right => return self.step(1),
            KeyCode::Char('l' | ' ') if plain => return self.step(1),
            KeyCode::Enter => return self.enter(),
            KeyCode::Char('a') if plain => return self.start_capture(Capture::Add),
            KeyCode::Backspace | KeyCode::Delete => return self.restore(),
            _ => {}
        }
        ScreenOutcome::Nothing
    }

    fn row(&self) -> Option<&SettingRow> {
        self.rows.get(self.selected)
    }

    fn step(&mut self, step: isize) -> ScreenOutcome {
        match self.row().and_then(|row| row.stepped(step)) {
            Some(edit) => ScreenOutcome::Change(edit),
            None => ScreenOutcome::Nothing,
        }
    }

    fn enter(&mut self) -> ScreenOutcome {
        match self.row().map(|row| &row.kind) {
            Some(RowKind::Keys { .. }) => self.start_capture(Capture::Replace),
            Some(_) => self.step(1),
            None => ScreenOutcome::Nothing,
        }
    }

    fn start_capture(&mut self, capture: Capture) -> ScreenOutcome {
        let Some(row) = self.row().filter(|row| row.context().is_some()) else {
            return ScreenOutcome::Nothing;
        };
        let what = match capture {
            Capture::Replace => "press the key for",
            Capture::Add => "press a key to add to",
        };
        self.message = format!("{what} {} (Esc: leave it as it is)", row.label);
        self.capture = Some(capture);
        ScreenOutcome::Nothing
    }

    /// The key pressed while the screen waited for one: bound (Esc leaves the command as it was).
    fn bind(&mut self, capture: Capture, key: Key) -> ScreenOutcome {
        let Some(row) = self.row() else {
            return ScreenOutcome::Nothing;
        };
        let RowKind::Keys { keys, .. } = &row.kind else {
            return ScreenOutcome::Nothing;
        };
        if key.code == KeyCode::Esc && key.modifiers.is_empty() {
            self.message = format!("{} keeps {}", row.label, keys_text(keys));
            return ScreenOutcome::Nothing;
        }
        let chord = KeyChord::from(key);
        let keys = match capture {
            Capture::Replace => vec![chord],
            Capture::Add if keys.contains(&chord) => {
                self.message = format!("{chord} is already one of {}'s keys", row.label);
                return ScreenOutcome::Nothing;
            }
            Capture::Add => keys.iter().copied().chain([chord]).collect(),
        };
        ScreenOutcome::Change(row.edit(SettingValue::Keys(keys)))
    }

    fn restore(&mut self) -> ScreenOutcome {
        match self.row().map(|row| (row, &row.kind)) {
            Some((row, RowKind::Keys { keys, default, .. })) if keys != default => {
                ScreenOutcome::Change(row.edit(SettingValue::Keys(default.clone())))
            }
            Some((row, RowKind::Keys { .. })) => {
                self.message = format!("{} has its default keys", row.label);
                ScreenOutcome::Nothing
            }
            _ => ScreenOutcome::Nothing,
        }
    }

    /// The answer to `edit`: in force (`Ok`, with a word on where it is kept, or why it is not), or refused
    /// with the reason, the row left as it was.
    pub fn answered(&mut self, edit: &SettingEdit, answer: Result<String, String>) {
        match answer {
            Ok(note) => {
                if let Some(row) = self
                    .rows
                    .iter_mut()
                    .find(|row| row.table == edit.table && row.name == edit.name)
                {
                    row.take(edit);
                }
                self.message = format!("{} = {}: {note}", edit.path(), edit.shown());
            }
            Err(why) => self.message = format!("not changed: {why}"),
        }
    }

    /// The rows of the keys as bound now (another screen's change may have moved them: the help is made from
    /// the same map).
    pub fn follow_keys(&mut self, keys: &KeyMap) {
        for row in &mut self.rows {
            if let RowKind::Keys {
                context,
                keys: bound,
                ..
            } = &mut row.kind
                && let Some(now) = keys.keys(*context, &row.name)
            {
                *bound = now.to_vec();
            }
        }
    }
}

/// A screen for tests: the colours (wood in force) and the legal-move marks (on), then the default keys.
#[cfg(test)]
pub(crate) fn sample_screen() -> SettingsScreen {
    let rows = vec![
        SettingRow::words(
            "display",
            "theme",
            "Colours",
            &["classic", "wood", "mono"],
            "wood",
        ),
        SettingRow::flag("display", "legal-moves", "Mark legal moves", true),
    ];
    SettingsScreen::new(rows, &KeyMap::default(), "kept in config.toml".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::event::Modifiers;

    fn screen() -> SettingsScreen {
        sample_screen()
    }

    fn key(code: KeyCode) -> Key {
        Key::plain(code)
    }

    fn change(outcome: ScreenOutcome) -> SettingEdit {
        match outcome {
            ScreenOutcome::Change(edit) => edit,
            other => panic!("no change: {other:?}"),
        }
    }

    #[test]
    fn values_step_round_and_show_only_once_in_force() {
        let mut screen = screen();
        assert_eq!(screen.rows().len(), 2 + crate::app::KEY_COMMANDS.len());
        let edit = change(screen.key(key(KeyCode::Right)));
        assert_eq!(edit.to_toml(), "[display]\ntheme = \"mono\"\n");
        assert_eq!(
            screen.rows()[0].value(),
            "wood",
            "not before it is answered"
        );
        screen.answered(&edit, Ok("saved".into()));
        assert_eq!(screen.rows()[0].value(), "mono");
        assert_eq!(screen.message(), "display.theme = mono: saved");
        // Round from the last to the first, and back.
        let edit = change(screen.key(key(KeyCode::Right)));
        assert_eq!(edit.value, SettingValue::Word("classic".into()));
        let edit = change(screen.key(key(KeyCode::Char('h'))));
        assert_eq!(edit.value, SettingValue::Word("wood".into()));
        // A refusal leaves the row as it was and says why.
        screen.answered(&edit, Err("the disk is full".into()));
        assert_eq!(screen.rows()[0].value(), "mono");
        assert_eq!(screen.message(), "not changed: the disk is full");
        // A flag turns over.
        screen.key(key(KeyCode::Down));
        let edit = change(screen.key(key(KeyCode::Enter)));
        assert_eq!(edit.to_toml(), "[display]\nlegal-moves = false\n");
    }

    #[test]
    fn a_key_is_bound_added_and_restored_and_esc_keeps_it() {
        let mut screen = screen();
        screen.key(key(KeyCode::End));
        let last = screen.rows().last().cloned().expect("rows");
        assert!(last.context().is_some());
        let row = screen
            .rows()
            .iter()
            .position(|r| r.table == "keys.board" && r.name == "undo")
            .expect("the board's undo");
        screen.key(key(KeyCode::Home));
        for _ in 0..row {
            screen.key(key(KeyCode::Char('j')));
        }
        assert_eq!(screen.selected(), row);
        // Enter waits for a key; Esc then keeps the keys.
        assert_eq!(screen.key(key(KeyCode::Enter)), ScreenOutcome::Nothing);
        assert_eq!(screen.capture(), Some(Capture::Replace));
        assert_eq!(screen.key(key(KeyCode::Esc)), ScreenOutcome::Nothing);
        assert_eq!(screen.message(), "undo keeps u");
        // The next key replaces; `a` adds; a key it has already is not added twice.
        screen.key(key(KeyCode::Enter));
        let edit = change(screen.key(Key::new(KeyCode::Char('z'), Modifiers::CONTROL)));
        assert_eq!(edit.to_toml(), "[keys.board]\nundo = [\"Ctrl-z\"]\n");
        screen.answered(&edit, Ok("saved".into()));
        screen.key(key(KeyCode::Char('a')));
        let edit = change(screen.key(key(KeyCode::Char('"'))));
        assert_eq!(
            edit.to_toml(),
            "[keys.board]\nundo = [\"Ctrl-z\", \"\\\"\"]\n"
        );
        screen.key(key(KeyCode::Char('a')));
        assert_eq!(
            screen.key(Key::new(KeyCode::Char('z'), Modifiers::CONTROL)),
            ScreenOutcome::Nothing
        );
        assert_eq!(screen.message(), "Ctrl-z is already one of undo's keys");
        // Backspace brings the default back, and says so when it is there already.
        let edit = change(screen.key(key(KeyCode::Backspace)));
        assert_eq!(
            edit.value,
            SettingValue::Keys(vec!["u".parse().expect("a key")])
        );
        screen.answered(&edit, Ok("saved".into()));
        assert_eq!(screen.key(key(KeyCode::Delete)), ScreenOutcome::Nothing);
        assert_eq!(screen.message(), "undo has its default keys");
        // While a key is awaited, q is that key, not the way out.
        screen.key(key(KeyCode::Enter));
        assert!(matches!(
            screen.key(key(KeyCode::Char('q'))),
            ScreenOutcome::Change(_)
        ));
        assert_eq!(screen.key(key(KeyCode::Char('q'))), ScreenOutcome::Close);
    }

    #[test]
    fn the_cursor_stays_on_the_rows() {
        let mut screen = screen();
        screen.key(key(KeyCode::Up));
        assert_eq!(screen.selected(), 0);
        screen.key(key(KeyCode::PageDown));
        assert_eq!(screen.selected(), 10);
        for _ in 0..500 {
            screen.key(key(KeyCode::Down));
        }
        assert_eq!(screen.selected(), screen.rows().len() - 1);
        // Keys the screen does not use do nothing; a row of words never binds a key.
        screen.key(key(KeyCode::Home));
        assert_eq!(screen.key(key(KeyCode::Char('a'))), ScreenOutcome::Nothing);
        assert_eq!(screen.key(key(KeyCode::F(7))), ScreenOutcome::Nothing);
        assert_eq!(screen.key(key(KeyCode::Backspace)), ScreenOutcome::Nothing);
    }
}
