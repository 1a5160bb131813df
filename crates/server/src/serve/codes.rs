//! Short codes for games, easy to read aloud and to type: `K7QX` (their alphabet is the app's,
//! [`CODE_ALPHABET`](crate::app::CODE_ALPHABET), which reads what players type).

use rand::RngExt;

use super::TableCode;
pub use crate::app::{CODE_ALPHABET as ALPHABET, CODE_LENGTH as LENGTH};

/// A new code for which `taken` is false, or `None` when none was found in a fair number of tries (the server
/// is then nearly full of private games).
pub fn new_code(taken: impl Fn(&TableCode) -> bool) -> Option<TableCode> {
    let mut rng = rand::rng();
    for _ in 0..1000 {
        let code = TableCode::new(
            (0..LENGTH)
                .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
                .collect::<String>(),
        );
        if !taken(&code) {
            return Some(code);
        }
    }
    None
}

/// A code as a player typed it: any case, spaces and dashes ignored (`k7 qx`, `K7-QX`). `None` when it cannot be
/// a code.
pub fn read_code(text: &str) -> Option<TableCode> {
    crate::app::read_table_code(text).map(TableCode::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_readable_and_read_back() {
        for _ in 0..100 {
            let code = new_code(|_| false).expect("a code");
            let text = code.as_str();
            assert_eq!(text.len(), LENGTH);
            assert_eq!(read_code(&text.to_lowercase()), Some(code.clone()));
            let spaced = format!(" {}-{} ", &text[..2], &text[2..]);
            assert_eq!(read_code(&spaced), Some(code));
        }
        for confusable in "0O1IL2Z5S8BUV".chars() {
            assert!(!ALPHABET.contains(&(confusable as u8)), "{confusable}");
        }
        assert_eq!(read_code("K7QX"), Some("K7QX".into()));
        assert_eq!(read_code("K7Q"), None);
        assert_eq!(read_code("K7QO"), None);
        assert_eq!(read_code("\x1b[31m"), None);
    }

    #[test]
    fn a_taken_code_is_never_given() {
        let code = new_code(|c| c.as_str().starts_with('A')).expect("a code");
        assert!(!code.as_str().starts_with('A'));
        assert_eq!(new_code(|_| true), None);
    }
}
