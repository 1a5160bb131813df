//! One key with its modifiers, as the settings write it (`"u"`, `"Ctrl-r"`, `"PageUp"`) and as a key press
//! arrives.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{Key, KeyCode, Modifiers};

/// One key with its modifiers, as bound in the settings (`"u"`, `"Ctrl-r"`, `"PageUp"`, `"F1"`).
///
/// Shift is part of a character (`"U"` is Shift-u), so it is only written with keys that are not characters
/// (`"Shift-Up"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyChord {
    code: KeyCode,
    modifiers: Modifiers,
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
    pub fn new(code: KeyCode, mut modifiers: Modifiers) -> KeyChord {
        // Terminals differ on whether they report Shift with a character or BackTab; the key is the same.
        if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
            modifiers.remove(Modifiers::SHIFT);
        }
        KeyChord { code, modifiers }
    }

    /// The key without modifiers.
    pub fn code(self) -> KeyCode {
        self.code
    }

    /// Its modifiers (Control, Alt, and Shift for keys that are not characters).
    pub fn modifiers(self) -> Modifiers {
        self.modifiers
    }
}

impl From<Key> for KeyChord {
    fn from(key: Key) -> KeyChord {
        KeyChord::new(key.code, key.modifiers)
    }
}

impl FromStr for KeyChord {
    type Err = BadKey;

    fn from_str(text: &str) -> Result<KeyChord, BadKey> {
        if text.is_empty() {
            return Err(BadKey::Empty);
        }
        let mut modifiers = Modifiers::NONE;
        let mut rest = text;
        // Modifiers come first; a lone "-" after them is the minus key ("Ctrl--").
        while let Some((word, after)) = rest.split_once('-') {
            let modifier = match word.to_ascii_lowercase().as_str() {
                "ctrl" | "control" | "c" => Modifiers::CONTROL,
                "alt" | "meta" | "m" => Modifiers::ALT,
                "shift" | "s" => Modifiers::SHIFT,
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
                if modifiers.contains(Modifiers::SHIFT) {
                    return Err(BadKey::ShiftedCharacter(text.to_string()));
                }
                KeyCode::Char(c)
            }
            _ => named_key(rest).ok_or_else(|| BadKey::Unknown(text.to_string()))?,
        };
        // Shift-Tab is what terminals send as BackTab.
        let code = match code {
            KeyCode::Tab if modifiers.contains(Modifiers::SHIFT) => KeyCode::BackTab,
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
            (Modifiers::CONTROL, "Ctrl-"),
            (Modifiers::ALT, "Alt-"),
            (Modifiers::SHIFT, "Shift-"),
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
            // Every other key is one of the named keys, found above.
            other => write!(f, "{other:?}"),
        }
    }
}
