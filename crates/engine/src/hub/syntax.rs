//! The line syntax of the Hub protocol: `command name=value name="quoted value" flag ...`.
//!
//! Both directions use it. Reading is forgiving (unknown arguments are kept and ignored by the caller, an
//! unterminated quote runs to the end of the line); writing quotes every value that needs it, so that whatever
//! is written reads back the same.

use std::fmt;

/// One line of the protocol: a command word and its arguments in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HubLine {
    /// The first word, such as `pos` or `done`.
    pub command: String,
    /// `(name, value)` pairs in order; a flag such as `think` in `go think` has an empty value.
    pub args: Vec<(String, String)>,
}

impl HubLine {
    /// A line with no arguments yet.
    pub fn new(command: &str) -> HubLine {
        HubLine {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// Adds `name=value`.
    pub fn arg(mut self, name: &str, value: impl fmt::Display) -> HubLine {
        self.args.push((name.to_string(), value.to_string()));
        self
    }

    /// Adds a flag (an argument without a value).
    pub fn flag(mut self, name: &str) -> HubLine {
        self.args.push((name.to_string(), String::new()));
        self
    }

    /// The value of the first argument called `name` (empty for a flag), if there is one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether an argument called `name` is present, with or without a value.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Reads a line; `None` for a blank one. Runs in time linear in the line's length.
    pub fn parse(text: &str) -> Option<HubLine> {
        let mut words = Words {
            rest: text.trim_start(),
        };
        let command = words.next_token()?;
        let mut args = Vec::new();
        while let Some(token) = words.next_token() {
            match token.split_once('=') {
                Some((name, value)) if !name.starts_with('"') => {
                    args.push((name.to_string(), unquote(value)))
                }
                _ => args.push((unquote(&token), String::new())),
            }
        }
        Some(HubLine {
            command: unquote(&command),
            args,
        })
    }
}

impl fmt::Display for HubLine {
    /// The line as sent, without its line end: values are quoted when they are empty or hold a space, a quote
    /// or `=`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&bare(&self.command))?;
        for (name, value) in &self.args {
            write!(f, " {}", bare(name))?;
            if !value.is_empty() {
                write!(f, "={}", quoted(value))?;
            }
        }
        Ok(())
    }
}

/// Splits a line into tokens: runs of non-blank text, where a double-quoted stretch may hold blanks.
struct Words<'a> {
    rest: &'a str,
}

impl Words<'_> {
    fn next_token(&mut self) -> Option<String> {
        let text = self.rest.trim_start();
        if text.is_empty() {
            self.rest = text;
            return None;
        }
        let mut in_quotes = false;
        let mut end = text.len();
        for (i, c) in text.char_indices() {
            match c {
                '"' => in_quotes = !in_quotes,
                c if c.is_whitespace() && !in_quotes => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let (token, rest) = text.split_at(end);
        self.rest = rest;
        Some(token.to_string())
    }
}

/// A value without the quotes around it (a value without a closing quote runs to the end of its token).
fn unquote(value: &str) -> String {
    match value.strip_prefix('"') {
        Some(inner) => inner.strip_suffix('"').unwrap_or(inner).to_string(),
        None => value.to_string(),
    }
}

/// A name as written: names are single non-empty words, so anything that would split one is replaced by `_`.
fn bare(name: &str) -> String {
    if name.is_empty() {
        return "_".to_string();
    }
    name.chars()
        .map(|c| match c {
            '"' | '=' => '_',
            c if c.is_whitespace() || c.is_control() => '_',
            c => c,
        })
        .collect()
}

/// A value as written: quoted when it must be. A quote inside a value cannot be written in this protocol; it is
/// replaced by an apostrophe rather than break the line.
fn quoted(value: &str) -> String {
    let needs_quotes = value.is_empty()
        || value
            .chars()
            .any(|c| c.is_whitespace() || c == '=' || c == '"');
    let clean: String = value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if needs_quotes {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_commands_arguments_flags_and_quotes() {
        let line = HubLine::parse("  pos pos=Wbbe moves=\"32-28 17-22\"  ").expect("a line");
        assert_eq!(line.command, "pos");
        assert_eq!(line.get("pos"), Some("Wbbe"));
        assert_eq!(line.get("moves"), Some("32-28 17-22"));
        let go = HubLine::parse("go think").expect("a line");
        assert!(go.has("think"));
        assert_eq!(go.get("ponder"), None);
        let id = HubLine::parse("id name=Scan author=\"Fabien Letouzey\" country=France")
            .expect("a line");
        assert_eq!(id.get("author"), Some("Fabien Letouzey"));
        assert_eq!(HubLine::parse("   "), None);
        assert_eq!(HubLine::parse(""), None);
    }

    #[test]
    fn malformed_lines_are_read_without_panicking() {
        for text in [
            "pos pos=\"unterminated",
            "=",
            "a ==b",
            "\"",
            "x \"y z\"=w",
            "level time= inc=",
            "é=ü \u{1b}[31m",
        ] {
            let line = HubLine::parse(text).expect("not blank");
            // Whatever was read writes back as a line that reads the same.
            let again = HubLine::parse(&line.to_string()).expect("not blank");
            assert_eq!(again.args.len(), line.args.len(), "{text:?}");
        }
        let unterminated = HubLine::parse("pos pos=\"Wbb e").expect("a line");
        assert_eq!(unterminated.get("pos"), Some("Wbb e"));
    }

    #[test]
    fn whatever_is_written_reads_back() {
        let line = HubLine::new("info")
            .arg("depth", 12)
            .arg("pv", "11-15 23-19")
            .arg("empty", "")
            .arg("eq", "a=b")
            .flag("think");
        let text = line.to_string();
        // An empty value and a flag are the same thing to the protocol.
        assert_eq!(
            text,
            "info depth=12 pv=\"11-15 23-19\" empty eq=\"a=b\" think"
        );
        let read = HubLine::parse(&text).expect("a line");
        assert_eq!(read.get("pv"), Some("11-15 23-19"));
        assert_eq!(read.get("eq"), Some("a=b"));
        assert_eq!(read.get("empty"), Some(""));
        assert!(read.has("think"));
        // A quote inside a value cannot be carried; the line stays one line with the same arguments.
        let odd = HubLine::new("error").arg("message", "say \"hi\"\nthere");
        let read = HubLine::parse(&odd.to_string()).expect("a line");
        assert_eq!(read.get("message"), Some("say 'hi' there"));
    }

    #[test]
    fn a_huge_line_is_read_in_linear_time() {
        let text = format!("pos moves=\"{}\"", "11-15 ".repeat(200_000));
        let line = HubLine::parse(&text).expect("a line");
        assert_eq!(
            line.get("moves").map(|m| m.split_whitespace().count()),
            Some(200_000)
        );
    }
}
