//! Short excerpts of text for messages, so that a huge token in a file never makes a huge message.

use std::fmt;

/// How many characters of a text a message shows before cutting it short.
pub const EXCERPT_CHARS: usize = 40;

/// Text as a message shows it: whole when short, else its first [`EXCERPT_CHARS`] characters, an ellipsis
/// and how long it is. Quoted texts are written with Rust's string escapes, so control characters in a file
/// cannot reach the terminal raw.
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a> {
    text: &'a str,
    quoted: bool,
}

/// `text` in quotes (`"Bianco"`), cut short when long (`"BiancoBianco…"… (10000 characters)`).
pub fn quoted(text: &str) -> Excerpt<'_> {
    Excerpt { text, quoted: true }
}

/// `text` as it is, cut short when long; for names and words that need no quotes.
pub fn clipped(text: &str) -> Excerpt<'_> {
    Excerpt {
        text,
        quoted: false,
    }
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shown, cut) = match self.text.char_indices().nth(EXCERPT_CHARS) {
            Some((end, _)) => (&self.text[..end], true),
            None => (self.text, false),
        };
        if self.quoted {
            write!(f, "{shown:?}")?;
        } else {
            f.write_str(&shown.escape_debug().to_string())?;
        }
        if cut {
            write!(f, "… ({} characters)", self.text.chars().count())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_whole_and_long_ones_cut() {
        assert_eq!(quoted("Bianco").to_string(), "\"Bianco\"");
        assert_eq!(clipped("Event").to_string(), "Event");
        let long = "x".repeat(10_000_000);
        let shown = quoted(&long).to_string();
        assert_eq!(
            shown,
            format!("\"{}\"… (10000000 characters)", "x".repeat(EXCERPT_CHARS))
        );
        assert!(clipped(&long).to_string().len() < 80);
        // Exactly the limit is not cut; multi-byte characters are cut between characters.
        assert_eq!(
            quoted(&"é".repeat(EXCERPT_CHARS)).to_string(),
            format!("{:?}", "é".repeat(EXCERPT_CHARS))
        );
        assert!(
            quoted(&"é".repeat(100))
                .to_string()
                .ends_with("… (100 characters)")
        );
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(quoted("a\u{1b}[2J").to_string(), "\"a\\u{1b}[2J\"");
        assert_eq!(clipped("a\nb").to_string(), "a\\nb");
    }
}
