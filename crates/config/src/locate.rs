//! Finding where in a settings file a problem stands: its line, and the setting it belongs to, for messages.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

/// The line (from 1) of byte `offset`.
pub(super) fn line_at(text: &[u8], offset: usize) -> usize {
    1 + text[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// TOML's messages can run over lines; a message here is one line.
pub(super) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Serde's message in the words of the settings file.
pub(super) fn serde_message(message: &str) -> String {
    let mut message = one_line(message);
    for (theirs, ours) in [
        ("unknown field", "unknown setting"),
        ("expected f64", "expected a number"),
        ("expected i64", "expected a whole number"),
        ("expected a map", "expected a table"),
    ] {
        message = message.replace(theirs, ours);
    }
    message
}

/// The dotted path of the setting at byte `offset` of a parsed file: the deepest key whose name or value
/// covers it.
pub(super) fn setting_at(table: &DeTable, offset: usize) -> Vec<String> {
    for (key, value) in table {
        let name = key.get_ref().to_string();
        if let DeValue::Table(inner) = value.get_ref() {
            let mut path = setting_at(inner, offset);
            if !path.is_empty() {
                path.insert(0, name);
                return path;
            }
        }
        if covers(&key.span(), offset) || covers(&value.span(), offset) {
            return vec![name];
        }
    }
    Vec::new()
}

pub(super) fn covers(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

/// Where a setting's key is written, or the nearest table above it that is.
pub(super) fn key_span(table: &DeTable, path: &[String]) -> Option<Range<usize>> {
    let (first, rest) = path.split_first()?;
    let (key, value) = table.iter().find(|(k, _)| k.get_ref() == first)?;
    let inner = match value.get_ref() {
        DeValue::Table(inner) => key_span(inner, rest),
        _ => None,
    };
    inner.or_else(|| Some(key.span()))
}

/// The setting written on a line of a file TOML could not read: the key before `=` (or the first word), under
/// the last table header above it.
pub(super) fn setting_on_line(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    for (i, content) in text.lines().enumerate() {
        let content = content.trim();
        if let Some(header) = content.strip_prefix('[') {
            let name = header.trim_start_matches('[');
            let name = name.split(']').next().unwrap_or("").trim();
            table = name.replace(['"', '\'', ' '], "");
            if i + 1 == line {
                return (!table.is_empty()).then(|| table.clone());
            }
            continue;
        }
        if i + 1 == line {
            let key = match content.split_once('=') {
                Some((key, _)) => key.trim(),
                None => content.split_whitespace().next().unwrap_or(""),
            };
            let key = key.trim_matches(['"', '\'']);
            let bare = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !bare {
                return (!table.is_empty()).then(|| table.clone());
            }
            return Some(if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            });
        }
    }
    None
}
