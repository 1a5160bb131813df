//! Who a connection is: the fingerprint of the SSH key it signed in with (the SSH door reads it), and the name
//! it gave.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Fingerprint;
use super::text::clean_line;

/// The longest display name kept, in characters.
pub const MAX_NAME: usize = 24;

/// How every guest's fingerprint starts (a real one always starts with the hash's name).
const GUEST: &str = "guest";

/// A player on this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The SHA-256 fingerprint of the player's public key, as `ssh-keygen -l` prints it (`SHA256:...`).
    pub fingerprint: Fingerprint,
    /// The SSH user name, made safe to show (see [`display_name`]).
    pub name: String,
}

impl Identity {
    /// A guest: no key, so nothing to know them by again. Each guest has a fingerprint of their own for as long
    /// as they are connected (`guest-17`), so that two guests at one table are two players.
    ///
    /// The number starts at a random place for each process, so that guests of several nodes of one server
    /// (who may sit at one table) are not taken for one another.
    pub fn guest(user: &str) -> Identity {
        static GUESTS: OnceLock<AtomicU64> = OnceLock::new();
        let guests = GUESTS.get_or_init(|| AtomicU64::new(rand::random::<u32>().into()));
        Identity {
            fingerprint: Fingerprint::new(format!(
                "{GUEST}-{}",
                guests.fetch_add(1, Ordering::Relaxed)
            )),
            name: display_name(user),
        }
    }

    /// Whether this is a guest (whose games are not kept).
    pub fn is_guest(&self) -> bool {
        self.fingerprint.as_str().starts_with(GUEST)
    }

    /// A name for the player's folder: the fingerprint's base64 with the characters that cannot be in a file
    /// name replaced (`/` by `_`, `+` by `-`, padding dropped). One key, one folder, on every file system.
    pub fn folder_name(&self) -> String {
        let fingerprint = self.fingerprint.as_str();
        let hash = fingerprint.strip_prefix("SHA256:").unwrap_or(fingerprint);
        hash.chars()
            .filter_map(|c| match c {
                '/' => Some('_'),
                '+' => Some('-'),
                '=' => None,
                c if c.is_ascii_alphanumeric() => Some(c),
                _ => None,
            })
            .collect()
    }
}

/// A user name as others may see it: one clean line ([`clean_line`]) of at most [`MAX_NAME`] characters; a
/// name with nothing left is `player`.
pub fn display_name(user: &str) -> String {
    let name = clean_line(user, MAX_NAME);
    if name.is_empty() {
        "player".to_string()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_control_characters_and_escape_sequences() {
        assert_eq!(display_name("alice"), "alice");
        assert_eq!(display_name("\x1b[31mred\x1b[0m"), "[31mred[0m");
        assert_eq!(display_name("a\u{202e}b\u{200b}c\r\n"), "abc");
        assert_eq!(display_name("  two   words "), "two words");
        assert_eq!(display_name("\x07\x1b"), "player");
        assert_eq!(display_name(&"x".repeat(1000)).chars().count(), MAX_NAME);
    }

    #[test]
    fn folder_names_are_safe_file_names() {
        let identity = Identity {
            fingerprint: "SHA256:ab/cd+ef==".into(),
            name: "x".into(),
        };
        assert_eq!(identity.folder_name(), "ab_cd-ef");
    }
}
