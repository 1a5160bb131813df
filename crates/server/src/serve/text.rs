//! Text one person typed that another person's terminal will show: names now, chat lines and game tags next.
//! Nothing that reaches a terminal from someone else may move its cursor, change its colours, or hide or
//! reorder what follows it.

/// `text` as one line safe to show anyone: control characters (and with them every escape sequence's
/// introducer, so what is left of a sequence is plain text), the bidirectional controls, zero-width characters
/// and the byte-order mark removed; runs of whitespace one space; at most `max` characters, trimmed.
pub fn clean_line(text: &str, max: usize) -> String {
    let mut line = String::new();
    let mut kept = 0;
    let mut last_space = true;
    for c in text.chars() {
        if kept == max {
            break;
        }
        if c.is_whitespace() {
            if !last_space {
                line.push(' ');
                kept += 1;
            }
            last_space = true;
        } else if !c.is_control() && !is_format(c) {
            line.push(c);
            kept += 1;
            last_space = false;
        }
    }
    line.trim_end().to_string()
}

/// Invisible formatting characters that could reorder or hide what follows them on another screen.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_reaches_another_terminal_but_plain_text() {
        assert_eq!(clean_line("good game!", 80), "good game!");
        assert_eq!(clean_line("\x1b[2J\x1b]0;owned\x07hi", 80), "[2J]0;ownedhi");
        assert_eq!(clean_line("a\u{202e}b\u{200b}c\r\nd\x7f", 80), "abc d");
        assert_eq!(clean_line("  two   words \t", 80), "two words");
        assert_eq!(clean_line("\u{9b}31m", 80), "31m");
        assert_eq!(clean_line(&"x".repeat(1000), 24).chars().count(), 24);
        assert_eq!(clean_line("ab cd", 3), "ab");
    }
}
