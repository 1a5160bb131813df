//! Short quotes of input for messages, so that a huge token never makes a huge message and control characters
//! in a file or a paste never reach the terminal raw. Every layer quotes through here: the rules' refusals of
//! moves and positions, PDN syntax and replay errors, the command line.

use std::fmt;

/// How many characters of a text a message shows before cutting it short.
pub const EXCERPT_CHARS: usize = 40;

/// `text` itself when it is short, otherwise its first characters followed by `…`, with control characters
/// escaped: for refusals that quote what was wrong so that it can be found in the input.
///
/// ```
/// use crowned_rules::excerpt;
///
/// assert_eq!(excerpt("11-15"), "11-15");
/// assert_eq!(excerpt("a\u{1b}[2J"), "a\\u{1b}[2J");
/// assert_eq!(excerpt(&"9".repeat(10_000_000)).chars().count(), 40);
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.escape_debug().to_string(),
        Some(_) => {
            // Whole characters only: cutting inside one would not be text any more.
            let keep: String = text.chars().take(EXCERPT_CHARS - 1).collect();
            format!("{}…", keep.escape_debug())
        }
    }
}

/// Text as a message shows it: whole when short, else its first [`EXCERPT_CHARS`] characters, an ellipsis and
/// how long it is, with control characters escaped.
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
            write!(f, "{}", shown.escape_debug())?;
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
    fn short_text_is_kept_and_long_text_is_cut_at_a_character() {
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact);
        assert_eq!(excerpt(""), "");
        let long = "é".repeat(EXCERPT_CHARS + 1);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS);
        assert!(cut.ends_with('…'));
        assert!(cut.starts_with("éé"));
    }

    #[test]
    fn quoted_and_clipped_texts_say_how_long_they_were() {
        assert_eq!(quoted("Bianco").to_string(), "\"Bianco\"");
        assert_eq!(clipped("Event").to_string(), "Event");
        let long = "x".repeat(10_000_000);
        assert_eq!(
            quoted(&long).to_string(),
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
        assert_eq!(excerpt("a\nb"), "a\\nb");
    }
}
