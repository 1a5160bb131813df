//! The `[keys.<context>]` tables: each command's keys, bound over the defaults and checked for conflicts.

use std::collections::BTreeMap;

use super::Settings;
use super::layers::KeyList;
use crate::keymap::{Context, KeyChord};

impl Settings {
    /// Binds the keys of a file's `[keys]` tables; each binding that cannot be made (an unknown context or
    /// command, a key that is not a key, two commands of a context on one key) goes to `problems` with its
    /// setting's path.
    pub(super) fn apply_keys(
        &mut self,
        keys: BTreeMap<String, BTreeMap<String, KeyList>>,
        problems: &mut Vec<(Vec<String>, String)>,
    ) {
        let path = |context: &str, name: Option<&str>| {
            let mut path = vec!["keys".to_string(), context.to_string()];
            path.extend(name.map(str::to_string));
            path
        };
        let mut bound: Vec<(Context, &str)> = Vec::new();
        for (context_name, commands) in &keys {
            let context: Context = match context_name.parse() {
                Ok(context) => context,
                Err(e) => {
                    problems.push((path(context_name, None), format!("{e}")));
                    continue;
                }
            };
            for (name, list) in commands {
                let parsed: Result<Vec<KeyChord>, _> = list.0.iter().map(|k| k.parse()).collect();
                let result = parsed.map_err(|e| format!("{e}")).and_then(|chords| {
                    self.keys
                        .bind(context, name, &chords)
                        .map_err(|e| format!("{e}"))
                });
                match result {
                    Ok(()) => bound.push((context, name)),
                    Err(message) => problems.push((path(context_name, Some(name)), message)),
                }
            }
        }
        if let Err(e) = self.keys.check() {
            let crate::keymap::KeyMapError::Conflict {
                context,
                first,
                second,
                ..
            } = e
            else {
                problems.push((vec!["keys".to_string()], format!("{e}")));
                return;
            };
            // The binding that made the conflict is the one this file made; if it made both, the later one counts
            // (the problems are sorted by line, so the earlier line is reported only when it is the only one).
            let culprit = [second, first]
                .into_iter()
                .find(|name| bound.contains(&(context, name)))
                .unwrap_or(second);
            problems.push((path(context.name(), Some(culprit)), format!("{e}")));
        }
    }
}
