//! A key as the key map names it: the key itself and the modifiers held. The app's input events carry these,
//! and the settings bind them to commands.

use bitflags::bitflags;

/// A key with the modifiers held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// Which key.
    pub code: KeyCode,
    /// Control, Alt and Shift.
    pub modifiers: Modifiers,
}

impl Key {
    /// A key with these modifiers.
    pub const fn new(code: KeyCode, modifiers: Modifiers) -> Key {
        Key { code, modifiers }
    }

    /// A key with no modifiers.
    pub const fn plain(code: KeyCode) -> Key {
        Key::new(code, Modifiers::NONE)
    }

    /// A character typed with no modifiers.
    pub const fn char(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    /// A character typed with Control held.
    pub const fn ctrl(c: char) -> Key {
        Key::new(KeyCode::Char(c), Modifiers::CONTROL)
    }

    /// Whether this is Ctrl-c, which always ends the program at once.
    pub fn is_interrupt(self) -> bool {
        self.code == KeyCode::Char('c') && self.modifiers.contains(Modifiers::CONTROL)
    }
}

/// The keys the app knows. Keys a front end reads that are not here (media keys, Caps Lock) mean nothing and
/// are not converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    /// A character key (Space is `Char(' ')`); Shift is part of the character.
    Char(char),
    /// Enter (Return).
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab, as terminals send it.
    BackTab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// A function key, F1 and up.
    F(u8),
}

bitflags! {
    /// The modifier keys held with a key.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Modifiers: u8 {
        /// Shift.
        const SHIFT = 1;
        /// Control.
        const CONTROL = 1 << 1;
        /// Alt (Meta, Option).
        const ALT = 1 << 2;
    }
}

impl Modifiers {
    /// No modifier.
    pub const NONE: Modifiers = Modifiers::empty();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_c_is_told_apart_from_c() {
        assert!(Key::ctrl('c').is_interrupt());
        assert!(!Key::char('c').is_interrupt());
        assert!(!Key::ctrl('d').is_interrupt());
        let ctrl_alt_c = Key::new(KeyCode::Char('c'), Modifiers::CONTROL | Modifiers::ALT);
        assert!(ctrl_alt_c.is_interrupt());
    }
}
