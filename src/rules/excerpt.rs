//! Short quotes of bad input for error messages.

/// The most characters of a token that a message quotes back.
pub const EXCERPT_CHARS: usize = 24;

/// `text` itself when it is short, otherwise its first characters followed by `…`. Refusals quote what was
/// wrong so that it can be found in the input, but a token of megabytes must not become a message of megabytes.
///
/// ```
/// use crowned::rules::excerpt;
///
/// assert_eq!(excerpt("11-15"), "11-15");
/// assert_eq!(excerpt(&"9".repeat(10_000_000)), format!("{}…", "9".repeat(23)));
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.to_string(),
        Some(_) => {
            // Whole characters only: cutting inside one would not be text any more.
            let keep: String = text.chars().take(EXCERPT_CHARS - 1).collect();
            format!("{keep}…")
        }
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
}
