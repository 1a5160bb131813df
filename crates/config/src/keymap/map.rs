//! The keys actually bound to each command (the table's defaults, or the settings'), checked for clashes, and
//! the help made from them.

use super::KeyCode;
use thiserror::Error;

use super::{Context, FIXED_KEYS, KEY_COMMANDS, KeyChord, KeyCommand};

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
                .any(|k| k.code() == code && k.modifiers().is_empty())
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
