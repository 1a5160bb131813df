//! One change to one setting, as the settings file would write it, and the rows a settings screen shows: the
//! words between whoever shows the settings and whoever checks, applies and saves them ([`super::save_edit`]).
//! The screen that steps through the rows is the app's (`SettingsScreen`); what a row holds and what an edit
//! says belong to the settings.

use std::fmt::Write as _;

use crate::keymap::{Context, KeyChord};

/// A value as a setting takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingValue {
    /// One of a setting's words (`"wood"`).
    Word(String),
    /// On or off.
    Flag(bool),
    /// A command's keys.
    Keys(Vec<KeyChord>),
}

/// One change to one setting: the settings file's table (`display`, `keys.board`), the setting's name in it,
/// and its new value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingEdit {
    /// The table, dotted: `display`, `keys.board`.
    pub table: String,
    /// The setting's name in the table.
    pub name: String,
    /// The new value.
    pub value: SettingValue,
}

impl SettingEdit {
    /// The setting's dotted name, as messages and the settings file's errors write it (`display.theme`).
    pub fn path(&self) -> String {
        format!("{}.{}", self.table, self.name)
    }

    /// The change as a settings file that sets this one setting.
    pub fn to_toml(&self) -> String {
        let value = match &self.value {
            SettingValue::Word(word) => quoted(word),
            SettingValue::Flag(flag) => flag.to_string(),
            SettingValue::Keys(keys) => {
                let keys: Vec<String> = keys.iter().map(|k| quoted(&k.to_string())).collect();
                format!("[{}]", keys.join(", "))
            }
        };
        format!("[{}]\n{} = {value}\n", self.table, self.name)
    }

    /// The new value as the screen shows it.
    pub fn shown(&self) -> String {
        match &self.value {
            SettingValue::Word(word) => word.clone(),
            SettingValue::Flag(true) => "on".into(),
            SettingValue::Flag(false) => "off".into(),
            SettingValue::Keys(keys) => keys_text(keys),
        }
    }
}

/// A TOML basic string: the names and keys written here are short and printable, but a quote or a backslash
/// (a key such as `"` or `\`) must not end the string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A row's keys as the settings screen shows them: their names with spaces between, or `(no key)`.
pub fn keys_text(keys: &[KeyChord]) -> String {
    match keys.is_empty() {
        true => "(no key)".into(),
        false => keys
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// What a row holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// One of these words, the one at `current` in force.
    Words {
        /// The words, in the order ←→ steps through them.
        words: Vec<String>,
        /// The one in force.
        current: usize,
    },
    /// On or off.
    Flag(bool),
    /// A command's keys in a context, and the keys it has by default.
    Keys {
        /// The context.
        context: Context,
        /// The keys bound now.
        keys: Vec<KeyChord>,
        /// The keys it has unless the settings say otherwise.
        default: Vec<KeyChord>,
    },
}

/// One row of the screen: a setting, its label and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingRow {
    /// The settings file's table it is in (`display`, `keys.board`).
    pub table: String,
    /// Its name there.
    pub name: String,
    /// What the screen calls it.
    pub label: String,
    /// Its value.
    pub kind: RowKind,
}

impl SettingRow {
    /// A row of one of `words`, `current` in force (the first if it is not among them).
    pub fn words(table: &str, name: &str, label: &str, words: &[&str], current: &str) -> Self {
        SettingRow {
            table: table.into(),
            name: name.into(),
            label: label.into(),
            kind: RowKind::Words {
                words: words.iter().map(|w| (*w).to_string()).collect(),
                current: words.iter().position(|w| *w == current).unwrap_or(0),
            },
        }
    }

    /// An on-or-off row.
    pub fn flag(table: &str, name: &str, label: &str, on: bool) -> Self {
        SettingRow {
            table: table.into(),
            name: name.into(),
            label: label.into(),
            kind: RowKind::Flag(on),
        }
    }

    /// The value as the screen shows it.
    pub fn value(&self) -> String {
        match &self.kind {
            RowKind::Words { words, current } => words.get(*current).cloned().unwrap_or_default(),
            RowKind::Flag(true) => "on".into(),
            RowKind::Flag(false) => "off".into(),
            RowKind::Keys { keys, .. } => keys_text(keys),
        }
    }

    /// The context of a key row.
    pub fn context(&self) -> Option<Context> {
        match &self.kind {
            RowKind::Keys { context, .. } => Some(*context),
            _ => None,
        }
    }

    /// The edit that steps the value by `step` (±1), for a row of words or a flag.
    pub fn stepped(&self, step: isize) -> Option<SettingEdit> {
        let value = match &self.kind {
            RowKind::Words { words, current } if !words.is_empty() => {
                let next = (*current as isize + step).rem_euclid(words.len() as isize) as usize;
                SettingValue::Word(words[next].clone())
            }
            RowKind::Flag(on) => SettingValue::Flag(!on),
            _ => return None,
        };
        Some(self.edit(value))
    }

    /// The edit that sets this row's setting to `value`.
    pub fn edit(&self, value: SettingValue) -> SettingEdit {
        SettingEdit {
            table: self.table.clone(),
            name: self.name.clone(),
            value,
        }
    }

    /// Takes `edit`'s value, once it is in force.
    pub fn take(&mut self, edit: &SettingEdit) {
        match (&mut self.kind, &edit.value) {
            (RowKind::Words { words, current }, SettingValue::Word(word)) => {
                if let Some(at) = words.iter().position(|w| w == word) {
                    *current = at;
                }
            }
            (RowKind::Flag(on), SettingValue::Flag(flag)) => *on = *flag,
            (RowKind::Keys { keys, .. }, SettingValue::Keys(new)) => keys.clone_from(new),
            _ => {}
        }
    }
}
